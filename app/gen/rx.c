/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * RX engine: polls queue 0 of every port, finds the payload signature,
 * and keeps per wire stream sequence state (loss, duplicates, reorder)
 * and a latency histogram. It is the only writer of that state: a reset
 * (stats.clear, profile.load) is a request the RX loop carries out and
 * acknowledges, never a write from the control thread.
 */

#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "gen.h"

static double gen_ns_per_cycle;

int
gen_rx_setup(struct gen_ctx *g)
{
	uint16_t p, i;

	gen_ns_per_cycle = 1e9 / (double)g->hz;
	g->rx.ws =
		rte_zmalloc("gen_rx_ws", sizeof(*g->rx.ws) * GEN_MAX_WSTREAMS, RTE_CACHE_LINE_SIZE);
	if (g->rx.ws == NULL)
		return -ENOMEM;
	for (i = 0; i < GEN_MAX_WSTREAMS; i++) {
		pvp_seq_init(&g->rx.ws[i].seq);
		pvp_lat_init(&g->rx.ws[i].lat);
	}
	for (p = 0; p < g->nb_ports; p++)
		g->rx.srq[p] = pvp_stats_rxq(g->stats, p, 0);
	return 0;
}

/* Carry out a pending reset request. RX lcore only. */
void
gen_rx_service_clear(struct gen_ctx *g)
{
	uint32_t req = __atomic_load_n(&g->rx.clear_req, __ATOMIC_ACQUIRE);
	uint16_t i;

	if (req == g->rx.clear_ack)
		return;
	for (i = 0; i < GEN_MAX_WSTREAMS; i++) {
		pvp_seq_init(&g->rx.ws[i].seq);
		pvp_lat_init(&g->rx.ws[i].lat);
		g->rx.ws[i].bytes = 0;
	}
	__atomic_store_n(&g->rx.unsigned_rx, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&g->rx.bad_stream, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&g->rx.clear_ack, req, __ATOMIC_RELEASE);
}

unsigned int
gen_rx_poll(struct gen_ctx *g)
{
	struct rte_mbuf *pkts[GEN_BURST];
	unsigned int total = 0;
	uint16_t p, n, i;

	for (p = 0; p < g->nb_ports; p++) {
		uint64_t bytes = 0, nosig = 0, bad = 0;
		uint32_t now;

		n = rte_eth_rx_burst(g->port[p].eth_port, 0, pkts, GEN_BURST);
		if (n == 0)
			continue;
		now = (uint32_t)rte_rdtsc();
		for (i = 0; i < n; i++) {
			struct rte_mbuf *m = pkts[i];
			const struct pvp_sig *sig = pvp_sig_find(m);
			struct gen_ws_rx *r;
			uint16_t id;

			bytes += m->pkt_len;
			if (sig == NULL) {
				nosig++;
				continue;
			}
			id = rte_be_to_cpu_16(sig->stream);
			if (id >= GEN_MAX_WSTREAMS) {
				bad++;
				continue;
			}
			r = &g->rx.ws[id];
			pvp_seq_update(&r->seq, rte_be_to_cpu_32(sig->seq));
			pvp_lat_update(&r->lat, (uint64_t)((double)(uint32_t)(now - sig->tx_ts) *
							   gen_ns_per_cycle));
			r->bytes += m->pkt_len;
		}
		rte_pktmbuf_free_bulk(pkts, n);
		pvp_stats_rxq_add(g->rx.srq[p], n, bytes);
		if (nosig != 0)
			__atomic_store_n(&g->rx.unsigned_rx, g->rx.unsigned_rx + nosig,
					 __ATOMIC_RELAXED);
		if (bad != 0)
			__atomic_store_n(&g->rx.bad_stream, g->rx.bad_stream + bad,
					 __ATOMIC_RELAXED);
		total += n;
	}
	return total;
}

int
gen_rx_lcore_main(void *arg)
{
	struct gen_ctx *g = arg;

	GEN_LOG(INFO, "RX lcore %u polls %u port(s)", rte_lcore_id(), g->nb_ports);
	while (!g->quit) {
		gen_rx_service_clear(g);
		if (gen_rx_poll(g) == 0 && g->opt.idle_sleep_us != 0)
			usleep(g->opt.idle_sleep_us);
	}
	return 0;
}

int
gen_rx_clear(struct gen_ctx *g)
{
	uint32_t req = __atomic_add_fetch(&g->rx.clear_req, 1, __ATOMIC_RELEASE);
	uint64_t deadline = rte_rdtsc() + 2 * g->hz;

	if (g->opt.no_rx) {
		gen_rx_service_clear(g);
		return 0;
	}
	while (__atomic_load_n(&g->rx.clear_ack, __ATOMIC_ACQUIRE) != req) {
		if (rte_rdtsc() > deadline)
			return -ETIMEDOUT;
		usleep(200);
	}
	return 0;
}

void
gen_rx_read(struct gen_ctx *g, uint16_t wire_id, struct pvp_seq *seq, struct pvp_lat_summary *lat,
	    uint64_t *bytes)
{
	const struct gen_ws_rx *r = &g->rx.ws[wire_id];

	/* Torn reads of a live tracker skew a packet at most. */
	memcpy(seq, &r->seq, sizeof(*seq));
	pvp_lat_read(&r->lat, lat);
	*bytes = r->bytes;
}
