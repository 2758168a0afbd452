/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Runs: turning a requested rate, duration and count into per wire stream
 * parameters, and starting, updating and stopping the TX lcores. Used by
 * the CLI run (main.c) and the control methods (ctl.c) alike; callers hold
 * gen_lock.
 *
 * A rate applies per port and is shared equally by the port's streams
 * that have no rate of their own; a stream's share is split equally over
 * the port's TX lcores. With a duration and a paced rate every wire
 * stream sends exactly round(pps x duration) packets, so counts are exact
 * whatever the scheduler does to the timing.
 *
 * Such an exact-count run ends at its last packet, which a descheduled
 * TX lcore sends a little after the planned end. A stop asked for at
 * (or after) the planned end therefore waits, bounded, for the counts
 * to finish instead of cutting them short: the report then says how
 * many packets were sent over how long, and a generator that needed
 * much longer than asked reads as limited (report.c), never as DUT loss.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_lcore.h>

#include "pvp_util.h"

#include "gen.h"

/*
 * Planned end of the current exact-count run (start + duration), 0 when
 * the run has none; g->run_end_tsc is then the later backstop at which
 * the main loop ends the run even if the counts are not done.
 */
static uint64_t gen_due_tsc;

/* How long past the planned end an exact-count run may take to finish. */
static uint64_t
gen_backstop_tsc(struct gen_ctx *g, double duration_s)
{
	/* A quarter of the run, 0.5 to 5 s. */
	double s = RTE_MAX(duration_s / 4, 0.5);

	return (uint64_t)(RTE_MIN(s, 5.0) * (double)g->hz);
}

/* Mean frame size (FCS included) of the port's streams without own rate. */
static double
gen_port_shared_size(struct gen_ctx *g, uint16_t port, unsigned int *nb)
{
	double sum = 0;
	uint16_t s;

	*nb = 0;
	for (s = 0; s < g->profile->n_streams; s++) {
		const struct pvp_stream *ps = g->streams[s].ps;

		if (ps->port != port || ps->has_rate)
			continue;
		sum += ps->avg_size;
		(*nb)++;
	}
	return *nb != 0 ? sum / *nb : 64;
}

/* pps of @p r for frames of @p avg_size on @p port; 0 means unpaced. */
static int
gen_rate_pps(struct gen_ctx *g, const struct pvp_rate *r, uint16_t port, double avg_size,
	     double *pps, char *err, size_t errlen)
{
	const struct gen_port *p = &g->port[port];
	char rs[64];
	int ret;

	if (pvp_rate_is_max(r)) {
		*pps = 0;
		return 0;
	}
	pvp_rate_format(r, rs, sizeof(rs));
	ret = pvp_rate_to_pps(r, avg_size, p->link_bps, pps);
	if (ret != 0)
		return pvp_fail(err, errlen, -EINVAL,
				"rate %s: port %u (%s) reports no link speed: give --speed", rs,
				port, p->name);
	/*
	 * Below one packet a second the pacer sends nothing and the run
	 * ends looking normal (1e-300 pps, 1e-9 %): a mistake, not a rate.
	 */
	if (!(*pps >= 1.0))
		return pvp_fail(err, errlen, -ERANGE,
				"rate %s is %g pps on port %u, below 1 packet per second", rs, *pps,
				port);
	if (p->link_bps != 0 && *pps > pvp_rate_line_pps(p->link_bps, avg_size) * 1.000001)
		return pvp_fail(
			err, errlen, -ERANGE,
			"rate %s is above the line rate of port %u (%.0f pps at %.1f B on %" PRIu64
			" Mbps): refused (use --speed for a faster virtual port)",
			rs, port, pvp_rate_line_pps(p->link_bps, avg_size), avg_size,
			p->link_bps / 1000000);
	return 0;
}

int
gen_rate_to_port_pps(struct gen_ctx *g, const struct pvp_rate *r, uint16_t port, double *pps,
		     char *err, size_t errlen)
{
	unsigned int nb;

	return gen_rate_pps(g, r, port, gen_port_shared_size(g, port, &nb), pps, err, errlen);
}

/* Compute each wire stream's pps for @p rate; fails without changing anything. */
static int
gen_compute_pps(struct gen_ctx *g, const struct pvp_rate *rate, double *ws_pps, char *err,
		size_t errlen)
{
	double port_pps[GEN_MAX_PORTS];
	unsigned int nb_shared[GEN_MAX_PORTS];
	uint16_t p, i;
	int ret;

	for (p = 0; p < g->nb_ports; p++) {
		double size = gen_port_shared_size(g, p, &nb_shared[p]);

		port_pps[p] = 0;
		if (nb_shared[p] == 0)
			continue;
		ret = gen_rate_pps(g, rate, p, size, &port_pps[p], err, errlen);
		if (ret != 0)
			return ret;
	}
	for (i = 0; i < g->nb_ws; i++) {
		const struct gen_wstream *w = g->ws[i];
		const struct pvp_stream *ps = w->st->ps;
		double pps;

		if (ps->has_rate) {
			ret = gen_rate_pps(g, &ps->rate, w->port, ps->avg_size, &pps, err, errlen);
			if (ret != 0)
				return ret;
		} else {
			pps = port_pps[w->port] / nb_shared[w->port];
		}
		ws_pps[i] = pps / g->opt.tx_cores;
	}
	return 0;
}

/* Index of stream @p s among the streams of its port. */
static unsigned int
gen_stream_rank(struct gen_ctx *g, uint16_t s, unsigned int *nb)
{
	unsigned int rank = 0;
	uint16_t i;

	*nb = 0;
	for (i = 0; i < g->profile->n_streams; i++) {
		if (g->streams[i].ps->port != g->streams[s].ps->port)
			continue;
		if (i < s)
			rank++;
		(*nb)++;
	}
	return rank;
}

/* Share @p total over @p n parts: part @p i. */
static uint64_t
gen_split(uint64_t total, uint64_t n, uint64_t i)
{
	return total / n + (i < total % n ? 1 : 0);
}

void
gen_ws_program(struct gen_ctx *g, struct gen_wstream *w, const struct gen_ws_plan *pl)
{
	double left = pl->duration_s - (double)pl->isg_ns / 1e9;

	w->pps = pl->pps;
	w->sent_run = 0;
	w->max_due = 0;
	w->burst_sent = 0;
	w->bursts_done = 0;
	w->gap_until = 0;
	w->limit = 0;
	w->burst_pkts = 0;
	w->nb_bursts = 0;
	w->gap_tsc = 0;
	w->next = NULL;
	w->loops = 0;
	w->isg_tsc = gen_ns_to_tsc(pl->isg_ns, g->hz);
	w->start_tsc = pl->start_tsc + w->isg_tsc;
	w->done = false;
	if (pl->total != 0) {
		w->burst_pkts = gen_split(pl->total, g->opt.tx_cores, w->queue);
		w->nb_bursts = pl->nb_bursts;
		w->gap_tsc = gen_ns_to_tsc(pl->gap_ns, g->hz);
		w->done = w->burst_pkts == 0;
	} else if (pl->duration_s > 0 && pl->pps > 0) {
		/* A duration's exact count; none left after the isg: nothing to send. */
		w->limit = left > 0 ? (uint64_t)llround(pl->pps * left) : 0;
		w->done = w->limit == 0;
	}
}

double
gen_tsc_to_realtime(const struct gen_ctx *g, uint64_t tsc)
{
	uint64_t now = rte_rdtsc();
	double rt = pvp_realtime_s();

	return tsc >= now ? rt + (double)(tsc - now) / (double)g->hz
			  : rt - (double)(now - tsc) / (double)g->hz;
}

void
gen_tx_lcore_go(struct gen_tx_lcore *tl, uint64_t start_tsc, uint64_t stop_tsc)
{
	tl->finish_tsc = 0;
	tl->first_tsc = 0;
	tl->start_tsc = start_tsc;
	tl->stop_tsc = stop_tsc;
	/* Settings first: the lcore reads them once it sees run_gen move. */
	__atomic_store_n(&tl->stopped, 0, __ATOMIC_RELEASE);
	__atomic_add_fetch(&tl->run_gen, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&tl->state, GEN_TX_RUN, __ATOMIC_RELEASE);
}

bool
gen_tx_lcore_idle(struct gen_tx_lcore *tl)
{
	return __atomic_load_n(&tl->state, __ATOMIC_ACQUIRE) != GEN_TX_RUN &&
	       __atomic_load_n(&tl->stopped, __ATOMIC_ACQUIRE) != 0;
}

int
gen_traffic_start(struct gen_ctx *g, const struct pvp_rate *rate, double duration_s,
		  double start_at, char *err, size_t errlen)
{
	double rt;
	double ws_pps[GEN_MAX_WSTREAMS];
	bool exact = false;
	uint64_t now;
	uint16_t i;
	int ret;

	if (g->nb_ws == 0)
		return pvp_fail(err, errlen, -ENOENT, "no streams loaded");
	/* 1e300 s made the exact counts wrap (tx_asked went negative). */
	if (!(duration_s >= 0 && duration_s <= GEN_MAX_DURATION_S))
		return pvp_fail(err, errlen, -ERANGE, "duration %g s is out of range 0..%.0f",
				duration_s, GEN_MAX_DURATION_S);
	/* A run that ended by itself is over even if the main loop has not seen it yet. */
	if (g->running && gen_traffic_tx_done(g))
		gen_traffic_stop(g);
	if (g->running)
		return pvp_fail(err, errlen, -EBUSY, "traffic is running: stop it first");
	ret = gen_compute_pps(g, rate, ws_pps, err, errlen);
	if (ret != 0)
		return ret;
	g->requested_pps = 0;
	now = rte_rdtsc();
	rt = pvp_realtime_s();
	/*
	 * A start at a given time: the TX lcores take the run now and send
	 * from that TSC on; the run's end, exact counts and rates all count
	 * from it. A time already past (a slow control path, clocks apart)
	 * starts at once; first_tx in the report says how late it was.
	 */
	g->run_start_at = start_at;
	if (start_at > rt) {
		now += (uint64_t)((start_at - rt) * (double)g->hz);
		rt = start_at;
	}
	for (i = 0; i < g->nb_ws; i++) {
		struct gen_wstream *w = g->ws[i];
		const struct pvp_stream *ps = w->st->ps;
		unsigned int nb, rank = gen_stream_rank(g, ps->id, &nb);
		struct gen_ws_plan pl = {
			.pps = ws_pps[i],
			.duration_s = duration_s,
			.start_tsc = now,
		};

		if (ps->mode != PVP_MODE_CONTINUOUS) {
			pl.total = ps->burst_packets;
			pl.nb_bursts = ps->mode == PVP_MODE_MULTI_BURST ? ps->burst_count : 1;
			pl.gap_ns = ps->burst_gap_us * 1000;
		} else if (ps->replay && ps->loop != 0 && g->opt.count == 0) {
			/* A pcap replayed "loop" times: every frame, that many passes. */
			pl.total = ps->loop * ps->n_order;
			pl.nb_bursts = 1;
		} else if (g->opt.count != 0) {
			pl.total = gen_split(g->opt.count, nb, rank);
			pl.nb_bursts = RTE_MAX(g->opt.bursts, 1u);
			pl.gap_ns = g->opt.ibg_us * 1000;
		}
		gen_ws_program(g, w, &pl);
		g->requested_pps += w->pps;
		if (w->limit != 0 || w->burst_pkts != 0)
			exact = true;
	}
	g->run_start_rt = rt;
	g->rate = *rate;
	g->run_start_tsc = now;
	g->run_stop_tsc = 0;
	g->run_end_tsc = duration_s > 0 ? now + (uint64_t)(duration_s * g->hz) : 0;
	gen_due_tsc = 0;
	if (duration_s > 0 && exact) {
		gen_due_tsc = g->run_end_tsc;
		g->run_end_tsc += gen_backstop_tsc(g, duration_s);
	}
	g->running = true;
	for (i = 0; i < g->nb_tx; i++)
		gen_tx_lcore_go(g->tx[i], now, 0);
	return 0;
}

int
gen_traffic_update(struct gen_ctx *g, const struct pvp_rate *rate, char *err, size_t errlen)
{
	double ws_pps[GEN_MAX_WSTREAMS];
	uint16_t i;
	int ret;

	if (!g->running)
		return pvp_fail(err, errlen, -EINVAL, "traffic is not running");
	ret = gen_compute_pps(g, rate, ws_pps, err, errlen);
	if (ret != 0)
		return ret;
	g->requested_pps = 0;
	for (i = 0; i < g->nb_ws; i++) {
		struct gen_wstream *w = g->ws[i];

		/* A duration's exact count no longer holds; the end time does. */
		w->limit = 0;
		/* An aligned double store is atomic on the supported CPUs. */
		*(volatile double *)&w->pps = ws_pps[i];
		g->requested_pps += ws_pps[i];
	}
	/* Without exact counts the planned end is the end again. */
	if (gen_due_tsc != 0) {
		g->run_end_tsc = gen_due_tsc;
		gen_due_tsc = 0;
	}
	g->rate = *rate;
	for (i = 0; i < g->nb_tx; i++)
		__atomic_add_fetch(&g->tx[i]->run_gen, 1, __ATOMIC_RELEASE);
	return 0;
}

bool
gen_traffic_tx_done(struct gen_ctx *g)
{
	uint16_t i;

	for (i = 0; i < g->nb_tx; i++)
		if (!gen_tx_lcore_idle(g->tx[i]))
			return false;
	return true;
}

void
gen_traffic_stop(struct gen_ctx *g)
{
	uint64_t deadline, finish = 0;
	bool self = true;
	uint16_t i;

	if (!g->running)
		return;
	/*
	 * Stopped at its planned end (the coordinator's clock and ours
	 * differ by the call's latency: 20 ms of slack) while the exact
	 * counts still run: let them finish, up to the backstop. An
	 * earlier stop is an abort and cuts the run at once.
	 */
	if (gen_due_tsc != 0 && rte_rdtsc() + g->hz / 50 >= gen_due_tsc)
		while (!gen_traffic_tx_done(g) && rte_rdtsc() < g->run_end_tsc)
			usleep(200);
	/* A run that ended by its own counts ends at its last packet. */
	for (i = 0; i < g->nb_tx; i++) {
		if (!gen_traffic_tx_done(g) || g->tx[i]->finish_tsc == 0)
			self = false;
		else
			finish = RTE_MAX(finish, g->tx[i]->finish_tsc);
	}
	for (i = 0; i < g->nb_tx; i++)
		__atomic_store_n(&g->tx[i]->state, GEN_TX_IDLE, __ATOMIC_RELEASE);
	deadline = rte_rdtsc() + 2 * g->hz;
	while (!gen_traffic_tx_done(g) && rte_rdtsc() < deadline)
		usleep(100);
	g->run_stop_tsc = self && finish != 0 ? finish : rte_rdtsc();
	g->running = false;
	gen_due_tsc = 0;
}
