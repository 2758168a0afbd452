/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * RX engine: --rx-cores lcores, each polling one RX queue of every port
 * (RSS spreads flows over the queues), finding the payload signature and
 * keeping its own per wire stream sequence state (loss, duplicates,
 * reorder) and latency histogram. Each lcore is the only writer of its
 * state and readers add the lcores up: copies of one packet hash to one
 * queue, so duplicates stay exact; loss is what was offered less what
 * arrived once. A reset (stats.clear, profile.load) is a request every
 * RX loop carries out and acknowledges, never a write from the control
 * thread.
 */

#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "capture.h"
#include "gen.h"
#include "tpg.h"

static double gen_ns_per_cycle;
/* TSC cycles of half a second: the periods of TRex's last_max. */
static uint64_t gen_half_s;

int
gen_rx_setup(struct gen_ctx *g)
{
	struct gen_rx_lcore *rl;
	uint16_t p, i, k;

	gen_ns_per_cycle = 1e9 / (double)g->hz;
	snprintf(g->oneway.clock, sizeof(g->oneway.clock), "off");
	pvp_clock_sample_take(&g->oneway.base);
	gen_half_s = RTE_MAX(g->hz / 2, (uint64_t)1);
	for (k = 0; k < g->rx.nb; k++) {
		rl = g->rx.rl[k];
		rl->ws = rte_zmalloc_socket(
			"gen_rx_ws", sizeof(*rl->ws) * GEN_MAX_WSTREAMS, RTE_CACHE_LINE_SIZE,
			rl->lcore == RTE_MAX_LCORE ? SOCKET_ID_ANY
						   : (int)rte_lcore_to_socket_id(rl->lcore));
		if (rl->ws == NULL)
			return -ENOMEM;
		/* Zeroed (rte_zmalloc): only a histogram's empty state is not all zero. */
		for (i = 0; i < GEN_MAX_WSTREAMS; i++)
			pvp_lat_init(&rl->ws[i].lat);
		for (p = 0; p < g->nb_ports; p++)
			rl->srq[p] = pvp_stats_rxq(g->stats, p, rl->queue);
	}
	return 0;
}

/* Carry out a pending reset request. @p rl's lcore only. */
void
gen_rx_service_clear(struct gen_ctx *g, struct gen_rx_lcore *rl)
{
	uint32_t req = __atomic_load_n(&g->rx.clear_req, __ATOMIC_ACQUIRE);
	uint16_t i;

	if (req == rl->clear_ack)
		return;
	for (i = 0; i < GEN_MAX_WSTREAMS; i++) {
		pvp_seq_init(&rl->ws[i].seq);
		pvp_lat_init(&rl->ws[i].lat);
		memset(&rl->ws[i].win, 0, sizeof(rl->ws[i].win));
		rl->ws[i].bytes = 0;
		if (rl->ow != NULL) {
			pvp_lat_init(&rl->ow[i].to_guest);
			pvp_lat_init(&rl->ow[i].from_guest);
			rl->ow[i].unstamped = 0;
		}
	}
	__atomic_store_n(&rl->unsigned_rx, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rl->unknown_stream, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rl->neigh_rx, 0, __ATOMIC_RELAXED);
	memset(rl->nst, 0, sizeof(rl->nst));
	memset(rl->unanswered, 0, sizeof(rl->unanswered));
	memset(rl->announced, 0, sizeof(rl->announced));
	__atomic_store_n(&rl->clear_ack, req, __ATOMIC_RELEASE);
}

/* The two halves of one packet's latency, from the guest's stamp. */
static void
gen_rx_oneway(struct gen_ws_ow *o, const struct rte_mbuf *m, const struct pvp_sig *sig,
	      uint32_t now)
{
	const uint32_t stamp = pvp_sig_guest_stamp_read(m, sig);

	if (stamp == 0) {
		o->unstamped++;
		return;
	}
	pvp_lat_update(&o->to_guest,
		       (uint64_t)((double)(uint32_t)(stamp - sig->tx_ts) * gen_ns_per_cycle));
	pvp_lat_update(&o->from_guest,
		       (uint64_t)((double)(uint32_t)(now - stamp) * gen_ns_per_cycle));
}

unsigned int
gen_rx_poll(struct gen_ctx *g, struct gen_rx_lcore *rl)
{
	struct rte_mbuf *pkts[GEN_BURST];
	/*
	 * Ids the loaded profile sends; the per-stream table has room for
	 * GEN_MAX_WSTREAMS, but one no report shows would hide packets.
	 * Zero while a profile is replaced: the clear that follows the load
	 * drops what was counted meanwhile.
	 */
	const uint16_t nb_ws = __atomic_load_n(&g->nb_ws, __ATOMIC_RELAXED);
	/* oneway.set allocated rl->ow before it said so. */
	const bool oneway = __atomic_load_n(&g->oneway.on, __ATOMIC_ACQUIRE);
	/* TRex's tagged packet groups: the table in force, taken once per poll. */
	const struct gen_tpg *tpg = __atomic_load_n(&g->tpg, __ATOMIC_ACQUIRE);
	unsigned int total = 0;
	uint16_t p, n, i;

	if (unlikely(tpg != rl->tpg))
		__atomic_store_n(&rl->tpg, (struct gen_tpg *)(uintptr_t)tpg, __ATOMIC_RELEASE);

	for (p = 0; p < g->nb_ports; p++) {
		uint64_t bytes = 0, nosig = 0, bad = 0, neigh = 0, tsc, period;
		uint32_t now;

		n = rte_eth_rx_burst(g->port[p].eth_port, rl->queue, pkts, GEN_BURST);
		if (n == 0)
			continue;
		tsc = rte_rdtsc();
		now = (uint32_t)tsc;
		period = tsc / gen_half_s;
		gen_cap_burst(p, GEN_CAP_RX, pkts, n);
		for (i = 0; i < n; i++) {
			struct rte_mbuf *m = pkts[i];
			const struct pvp_sig *sig = pvp_sig_find_inline(m);
			struct gen_ws_rx *r;
			uint64_t ns;
			uint16_t id;

			bytes += m->pkt_len;
			if (sig == NULL) {
				/* A TPG frame has no pvpkit signature: counted in both. */
				if (unlikely(tpg != NULL))
					gen_tpg_rx(tpg, rl->queue, p, m);
				/* ARP/ND is counted (and answered) apart. */
				if (gen_neigh_rx(g, rl, p, m))
					neigh++;
				else
					nosig++;
				continue;
			}
			id = rte_be_to_cpu_16(sig->stream);
			if (id >= nb_ws) {
				bad++;
				continue;
			}
			r = &rl->ws[id];
			pvp_seq_update_inline(&r->seq, rte_be_to_cpu_32(sig->seq));
			ns = (uint64_t)((double)(uint32_t)(now - sig->tx_ts) * gen_ns_per_cycle);
			pvp_lat_update(&r->lat, ns);
			pvp_lat_win_update(&r->win, period, ns);
			r->bytes += m->pkt_len;
			if (unlikely(oneway))
				gen_rx_oneway(&rl->ow[id], m, sig, now);
		}
		rte_pktmbuf_free_bulk(pkts, n);
		pvp_stats_rxq_add(rl->srq[p], n, bytes);
		if (nosig != 0)
			__atomic_store_n(&rl->unsigned_rx, rl->unsigned_rx + nosig,
					 __ATOMIC_RELAXED);
		if (neigh != 0)
			__atomic_store_n(&rl->neigh_rx, rl->neigh_rx + neigh, __ATOMIC_RELAXED);
		if (bad != 0)
			__atomic_store_n(&rl->unknown_stream, rl->unknown_stream + bad,
					 __ATOMIC_RELAXED);
		total += n;
	}
	return total;
}

int
gen_rx_lcore_main(void *arg)
{
	struct gen_rx_lcore *rl = arg;
	struct gen_ctx *g = &gen;

	GEN_LOG(INFO, "RX lcore %u polls queue %u of %u port(s)", rte_lcore_id(), rl->queue,
		g->nb_ports);
	while (!g->quit) {
		gen_rx_service_clear(g, rl);
		gen_neigh_service(g, rl);
		if (gen_rx_poll(g, rl) == 0 && g->opt.idle_sleep_us != 0)
			usleep(g->opt.idle_sleep_us);
	}
	return 0;
}

int
gen_rx_clear(struct gen_ctx *g)
{
	uint32_t req = __atomic_add_fetch(&g->rx.clear_req, 1, __ATOMIC_RELEASE);
	uint64_t deadline = rte_rdtsc() + 2 * g->hz;
	uint16_t k;

	for (k = 0; k < g->rx.nb; k++) {
		struct gen_rx_lcore *rl = g->rx.rl[k];

		while (__atomic_load_n(&rl->clear_ack, __ATOMIC_ACQUIRE) != req) {
			if (rte_rdtsc() > deadline)
				return -ETIMEDOUT;
			usleep(200);
		}
	}
	return 0;
}

void
gen_rx_read(struct gen_ctx *g, uint16_t wire_id, struct pvp_seq *seq, struct pvp_lat_summary *lat,
	    uint64_t *bytes)
{
	struct pvp_lat sum;
	uint16_t k;

	pvp_seq_init(seq);
	*bytes = 0;
	for (k = 0; k < g->rx.nb; k++) {
		const struct gen_ws_rx *r = &g->rx.rl[k]->ws[wire_id];

		/* Torn reads of a live tracker skew a packet at most. */
		seq->rx += r->seq.rx;
		seq->dup += r->seq.dup;
		seq->ooo += r->seq.ooo;
		seq->gaps += r->seq.gaps;
		seq->jumps += r->seq.jumps;
		if (r->seq.started && (!seq->started || r->seq.next > seq->next))
			seq->next = r->seq.next;
		seq->started |= r->seq.started;
		*bytes += r->bytes;
	}
	if (lat == NULL)
		return;
	gen_rx_lat(g, wire_id, &sum);
	pvp_lat_read(&sum, lat);
}

void
gen_rx_lat(const struct gen_ctx *g, uint16_t wire_id, struct pvp_lat *lat)
{
	uint16_t k;

	pvp_lat_init(lat);
	for (k = 0; k < g->rx.nb; k++)
		pvp_lat_merge(lat, &g->rx.rl[k]->ws[wire_id].lat);
}

uint64_t
gen_rx_last_max(const struct gen_ctx *g, uint16_t wire_id)
{
	uint64_t now = rte_rdtsc() / gen_half_s, max = 0;
	uint16_t k;

	for (k = 0; k < g->rx.nb; k++)
		max = RTE_MAX(max, pvp_lat_win_last(&g->rx.rl[k]->ws[wire_id].win, now));
	return max;
}

void
gen_rx_other(const struct gen_ctx *g, uint64_t *unsigned_rx, uint64_t *unknown_stream,
	     uint64_t *neigh_rx)
{
	uint16_t k;

	*unsigned_rx = 0;
	*unknown_stream = 0;
	*neigh_rx = 0;
	for (k = 0; k < g->rx.nb; k++) {
		*unsigned_rx += __atomic_load_n(&g->rx.rl[k]->unsigned_rx, __ATOMIC_RELAXED);
		*unknown_stream += __atomic_load_n(&g->rx.rl[k]->unknown_stream, __ATOMIC_RELAXED);
		*neigh_rx += __atomic_load_n(&g->rx.rl[k]->neigh_rx, __ATOMIC_RELAXED);
	}
}
