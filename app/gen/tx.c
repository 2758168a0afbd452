/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TX engine: one lcore per (port, queue). Each wire stream has its own
 * mempool whose mbufs were filled with the stream's template when the
 * pool was populated (gen_ws_obj_init in stream.c), so per packet only the
 * mbuf fields that free() or a PMD may have changed are reset, the flow's
 * varying bytes are written (from the flow cache, or incrementally), and
 * the signature is stamped. Pacing is a token bucket on the TSC: the
 * target count at time t is base + (t - t0) * pps / hz; a backlog larger
 * than --catchup-us worth of packets (after a stall) is given up and
 * counted as "late" instead of being sent as one long burst; the largest
 * backlog sent at once is recorded (max_due) so that a trial can say how
 * bursty its pacing really was. How each
 * kind of stream is built is in tx_build.h.
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>
#include <rte_mempool.h>
#include <rte_pause.h>
#include <rte_vect.h>

#include "capture.h"
#include "push.h"
#include "tx_build.h"

void
gen_ws_reset(struct gen_wstream *w)
{
	w->flow = w->flow_lo;
	w->order_idx = 0;
	w->seq = 0;
	if (w->st->fast_vars)
		gen_vars_seek(w, w->flow);
}

/*
 * Take @p n mbufs from @p mp: straight from this lcore's cache @p c when
 * it holds enough (the PMD's frees refill it), else rte_mempool_get_bulk().
 * The mempool's own cache path copies the pointers one by one in reverse;
 * this is a forward copy of the cache's top n (the most recently freed,
 * still in the CPU cache). Returns 0, or -ENOBUFS with nothing taken.
 */
static __rte_always_inline int
gen_mp_get(struct rte_mempool *mp, struct rte_mempool_cache *c, struct rte_mbuf **pkts,
	   unsigned int n)
{
	if (likely(c != NULL && c->len >= n)) {
		c->len -= n;
		rte_memcpy(pkts, &c->objs[c->len], n * sizeof(void *));
		return 0;
	}
	return rte_mempool_get_bulk(mp, (void **)pkts, n);
}

/*
 * Take @p n mbufs for the next packets of a tmpl_pools stream: each from
 * the pool of the template its place in the size cycle asks for, one bulk
 * get per template. Returns 0, or -ENOBUFS with nothing taken.
 */
static __rte_always_inline int
gen_ws_get_tmpl(struct gen_wstream *w, struct rte_mbuf **pkts, unsigned int n, unsigned int lcore)
{
	const struct pvp_stream *ps = w->st->ps;
	void *objs[GEN_TMPL_POOLS][GEN_BURST];
	unsigned int cnt[GEN_TMPL_POOLS] = {0}, pos[GEN_TMPL_POOLS] = {0};
	uint8_t *tk = w->burst_tmpl;
	uint32_t idx = w->order_idx;
	unsigned int i, t;

	for (i = 0; i < n; i++) {
		t = ps->order[idx];
		tk[i] = (uint8_t)t;
		cnt[t]++;
		if (++idx == ps->n_order)
			idx = 0;
	}
	for (t = 0; t < ps->n_tmpl; t++) {
		if (cnt[t] != 0 &&
		    gen_mp_get(w->tmpl_mp[t], rte_mempool_default_cache(w->tmpl_mp[t], lcore),
			       (struct rte_mbuf **)objs[t], cnt[t]) != 0) {
			while (t-- > 0)
				if (cnt[t] != 0)
					rte_mempool_put_bulk(w->tmpl_mp[t], objs[t], cnt[t]);
			return -ENOBUFS;
		}
	}
	for (i = 0; i < n; i++) {
		t = tk[i];
		pkts[i] = objs[t][pos[t]++];
	}
	return 0;
}

/*
 * Wire stream @p w has sent its last burst: start the next of its chain
 * as TRex's DP core does (set_stateless_next_node): only a stream not
 * sending, after its own isg, and not when @p w's action_count runs out.
 */
static __rte_noinline void
gen_ws_chain(struct gen_wstream *w, uint64_t now)
{
	struct gen_wstream *n = w->next;

	if (!n->done || (w->loops != 0 && --w->loops == 0))
		return;
	n->burst_sent = 0;
	n->bursts_done = 0;
	n->gap_until = 0;
	n->start_tsc = now + n->isg_tsc;
	n->t0 = n->start_tsc;
	n->n0 = n->sent_run;
	n->done = false;
}

/* Packets wire stream @p w may send now (pacing, limits, bursts). */
static __rte_always_inline unsigned int
gen_ws_budget(struct gen_tx_lcore *tl, struct gen_wstream *w, uint64_t now, double cyc2pkt,
	      uint64_t catchup)
{
	uint64_t n = GEN_BURST;

	/* Its own isg (TRex's per-stream start offset) has not passed yet. */
	if (unlikely(now < w->start_tsc))
		return 0;
	if (w->burst_pkts != 0) {
		if (w->burst_sent == w->burst_pkts) {
			if (w->gap_until == 0) {
				/* A burst just ended. */
				if (++w->bursts_done >= RTE_MAX(w->nb_bursts, 1u)) {
					w->done = true;
					if (w->next != NULL)
						gen_ws_chain(w, now);
					return 0;
				}
				w->gap_until = now + w->gap_tsc + 1;
			}
			if (now < w->gap_until)
				return 0;
			/* Next burst: pacing starts over from here. */
			w->gap_until = 0;
			w->burst_sent = 0;
			w->t0 = now;
			w->n0 = w->sent_run;
		}
		if (n > w->burst_pkts - w->burst_sent)
			n = w->burst_pkts - w->burst_sent;
	}
	if (w->limit != 0) {
		if (w->sent_run >= w->limit) {
			w->done = true;
			return 0;
		}
		if (n > w->limit - w->sent_run)
			n = w->limit - w->sent_run;
	}
	if (cyc2pkt > 0) {
		uint64_t target = w->n0 + (uint64_t)((double)(now - w->t0) * cyc2pkt);
		uint64_t due;

		if (target <= w->sent_run)
			return 0;
		if (target - w->sent_run > catchup) {
			uint64_t skip = target - w->sent_run - catchup;

			/* Give the slots up: n0 moves so target drops by skip. */
			w->n0 -= skip;
			w->tx.late += skip;
			target -= skip;
		}
		/* What is due now goes out back to back: the pacing's burst. */
		due = target - w->sent_run;
		if (due > w->max_due)
			w->max_due = due;
		if (n > due)
			n = due;
	}
	RTE_SET_USED(tl);
	return (unsigned int)n;
}

/*
 * Take in a new run or rate set by the control side: each wire stream's
 * packets per TSC cycle and catch-up bound, and the pacing origin.
 */
static void
gen_tx_take_run(struct gen_ctx *g, struct gen_tx_lcore *tl, double *cyc2pkt, uint64_t *catchup)
{
	uint64_t now = rte_rdtsc();
	uint16_t i;

	for (i = 0; i < tl->nb_ws; i++) {
		struct gen_wstream *w = tl->ws[i];

		cyc2pkt[i] = w->pps > 0 ? w->pps / (double)g->hz : 0;
		catchup[i] = w->pps > 0 ? RTE_MAX((uint64_t)GEN_BURST,
						  (uint64_t)(w->pps * g->opt.catchup_us / 1e6))
					: 0;
	}
	/* A run that starts at a given time paces from that time, a stream with an isg from its own. */
	if (now < tl->start_tsc)
		now = tl->start_tsc;
	for (i = 0; i < tl->nb_ws; i++) {
		struct gen_wstream *w = tl->ws[i];

		w->t0 = RTE_MAX(now, w->start_tsc);
		w->n0 = w->sent_run;
	}
}

/*
 * The rearm word PMDs write: data_off, refcnt 1, one segment, port. Read
 * with memcpy: a uint64_t load of fields stored as uint16_t breaks strict
 * aliasing; in a function of its own the compiler did not keep the
 * stores, and the PMD found nb_segs != 1 in every mbuf it freed.
 */
static uint64_t
gen_tx_rearm(const struct gen_tx_lcore *tl)
{
	struct rte_mbuf m;
	uint64_t rearm;

	memset(&m, 0, sizeof(m));
	m.data_off = RTE_PKTMBUF_HEADROOM;
	rte_mbuf_refcnt_set(&m, 1);
	m.nb_segs = 1;
	m.port = tl->eth_port;
	memcpy(&rearm, RTE_PTR_ADD(&m, offsetof(struct rte_mbuf, rearm_data)), sizeof(rearm));
	return rearm;
}

/*
 * The tail of a burst the port did not take (after --tx-retry): back to
 * its pool, counted unsent. retry: its sequence numbers and pacing slots
 * are used again by the next burst. drop: they are spent, so the
 * receiver sees a gap and the offered rate is kept. Returns the packets
 * offered; takes the tail's bytes off @p bytes.
 */
static __rte_always_inline unsigned int
gen_tx_unsent(const struct gen_ctx *g, struct gen_wstream *w, struct rte_mbuf **pkts,
	      unsigned int n, unsigned int sent, uint64_t *bytes)
{
	unsigned int k;
	uint64_t ub = 0;

	for (k = sent; k < n; k++)
		ub += pkts[k]->pkt_len;
	if (w->st->tmpl_pools)
		for (k = sent; k < n; k++)
			rte_mempool_put(pkts[k]->pool, pkts[k]);
	else
		rte_mempool_put_bulk(w->mp, (void **)pkts + sent, n - sent);
	*bytes -= ub;
	w->tx.unsent += n - sent;
	if (g->opt.tx_full_drop)
		return n;
	w->seq -= n - sent;
	return sent;
}

/*
 * --l3: the gateway announced another MAC than the stream's templates
 * carry (neigh.c): the burst's frames go to the new one. One load a
 * burst while it has not; after a change, 6 bytes more a frame (the
 * pre-filled mbufs keep the MAC they were made with).
 */
static __rte_noinline void
gen_tx_gw_write(uint64_t gw, struct rte_mbuf **pkts, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		memcpy(rte_pktmbuf_mtod(pkts[i], uint8_t *), &gw, RTE_ETHER_ADDR_LEN);
}

static __rte_always_inline void
gen_tx_gw(const struct gen_wstream *w, struct rte_mbuf **pkts, unsigned int n)
{
	uint64_t gw = __atomic_load_n(w->gw, __ATOMIC_RELAXED);

	if (unlikely(gw != w->gw_tmpl))
		gen_tx_gw_write(gw, pkts, n);
}

/*
 * One burst of wire stream @p w, if its budget allows one now: mbufs,
 * build, send, count. Returns the packets the port took.
 */
static __rte_always_inline unsigned int
gen_tx_ws(struct gen_ctx *g, struct gen_tx_lcore *tl, struct gen_wstream *w, uint64_t now,
	  double cyc2pkt, uint64_t catchup, uint64_t rearm, unsigned int lcore)
{
	struct rte_mbuf *pkts[GEN_BURST];
	unsigned int n, sent, offered, tries;
	uint64_t bytes;

	n = gen_ws_budget(tl, w, now, cyc2pkt, catchup);
	if (n == 0)
		return 0;
	if (w->st->tmpl_pools) {
		if (gen_ws_get_tmpl(w, pkts, n, lcore) != 0)
			return 0; /* all mbufs in flight: try again later */
	} else if (gen_mp_get(w->mp, rte_mempool_default_cache(w->mp, lcore), pkts, n) != 0) {
		return 0;
	}
	bytes = gen_build(w, pkts, n, rearm, (uint32_t)now);
	if (w->gw != NULL)
		gen_tx_gw(w, pkts, n);
	gen_cap_burst(tl->port, GEN_CAP_TX, pkts, n);
	sent = rte_eth_tx_burst(tl->eth_port, tl->queue, pkts, (uint16_t)n);
	for (tries = 0; sent < n && tries < g->opt.tx_retry; tries++)
		sent += rte_eth_tx_burst(tl->eth_port, tl->queue, pkts + sent,
					 (uint16_t)(n - sent));
	offered = sent;
	if (unlikely(sent < n))
		offered = gen_tx_unsent(g, w, pkts, n, sent, &bytes);
	w->sent_run += offered;
	w->burst_sent += offered;
	w->tx.packets += sent;
	w->tx.bytes += bytes;
	pvp_stats_txq_add(tl->stq, sent, bytes, n - sent);
	return sent;
}

/* Not running: say so, and wait without burning the CPU if asked. */
static void
gen_tx_idle(struct gen_ctx *g, struct gen_tx_lcore *tl)
{
	__atomic_store_n(&tl->stopped, 1, __ATOMIC_RELEASE);
	if (g->opt.idle_sleep_us != 0)
		usleep(g->opt.idle_sleep_us);
	else
		rte_pause();
}

/*
 * Spin this long before a start at a given time: a sleep can overrun
 * by a scheduler tick or more on a busy host.
 */
#define GEN_START_SPIN_US 2000

/*
 * Before a start at a given time: sleep (--idle-sleep) while it is far,
 * spin for the last stretch so the first burst leaves on time.
 */
static void
gen_tx_wait_start(const struct gen_ctx *g, const struct gen_tx_lcore *tl, uint64_t now)
{
	uint64_t left = tl->start_tsc - now;
	uint64_t spin = GEN_START_SPIN_US + 2 * (uint64_t)g->opt.idle_sleep_us;

	if (g->opt.idle_sleep_us != 0 && left > gen_ns_to_tsc(spin * 1000, g->hz))
		usleep(g->opt.idle_sleep_us);
	else
		rte_pause();
}

int
gen_tx_lcore_main(void *arg)
{
	struct gen_tx_lcore *tl = arg;
	struct gen_ctx *g = &gen;
	const uint64_t rearm = gen_tx_rearm(tl);
	const unsigned int lcore = rte_lcore_id();
	double cyc2pkt[GEN_MAX_STREAMS];
	uint64_t catchup[GEN_MAX_STREAMS];
	uint64_t prev_tsc = 0;
	unsigned int prev_sent = 0;
	uint32_t seen_gen = 0;

	GEN_LOG(INFO, "TX lcore %u: port %u queue %u", lcore, tl->eth_port, tl->queue);
	while (!g->quit) {
		/* State first: control writes run_gen before state. */
		uint32_t state = __atomic_load_n(&tl->state, __ATOMIC_ACQUIRE);
		uint32_t rg = __atomic_load_n(&tl->run_gen, __ATOMIC_ACQUIRE);
		unsigned int sent_any = 0, active = 0;
		uint64_t now;
		uint16_t i;

		/* ARP/ND replies (--addr): the queue is this lcore's alone. */
		if (unlikely(tl->svc != NULL))
			gen_neigh_tx(tl);
		if (rg != seen_gen) {
			gen_tx_take_run(g, tl, cyc2pkt, catchup);
			seen_gen = rg;
		}
		if (state != GEN_TX_RUN) {
			prev_sent = 0;
			gen_tx_idle(g, tl);
			continue;
		}
		__atomic_store_n(&tl->stopped, 0, __ATOMIC_RELEASE);
		/*
		 * One TSC read per turn: pacing, the burst's TX timestamp and
		 * the busy-cycles account all use it (rdtsc traps in some VMs).
		 */
		now = rte_rdtsc();
		if (unlikely(now < tl->start_tsc)) {
			/* A start at a given time that has not come yet. */
			prev_sent = 0;
			gen_tx_wait_start(g, tl, now);
			continue;
		}
		if (unlikely(tl->stop_tsc != 0 && now >= tl->stop_tsc)) {
			/* The run's end, kept here: control may be busy elsewhere. */
			tl->finish_tsc = now;
			__atomic_store_n(&tl->state, GEN_TX_IDLE, __ATOMIC_RELEASE);
			continue;
		}
		if (unlikely(tl->push != NULL)) {
			if (!gen_push_tx(g, tl, tl->push, now)) {
				tl->finish_tsc = now;
				__atomic_store_n(&tl->state, GEN_TX_IDLE, __ATOMIC_RELEASE);
			}
			continue;
		}
		if (prev_sent != 0)
			tl->cycles_busy += now - prev_tsc;
		prev_tsc = now;
		for (i = 0; i < tl->nb_ws; i++) {
			struct gen_wstream *w = tl->ws[i];

			if (w->done)
				continue;
			active++;
			sent_any += gen_tx_ws(g, tl, w, now, cyc2pkt[i], catchup[i], rearm, lcore);
		}
		/* Cycles of a turn that sent are counted at the next turn. */
		prev_sent = sent_any;
		if (sent_any != 0) {
			if (unlikely(tl->first_tsc == 0))
				tl->first_tsc = now;
			tl->pkts_busy += sent_any;
		} else if (active == 0) {
			/* Every stream is done: the run is over for this lcore. */
			tl->finish_tsc = now;
			__atomic_store_n(&tl->state, GEN_TX_IDLE, __ATOMIC_RELEASE);
		} else if (g->opt.idle_sleep_us != 0) {
			usleep(g->opt.idle_sleep_us);
		}
	}
	__atomic_store_n(&tl->stopped, 1, __ATOMIC_RELEASE);
	return 0;
}
