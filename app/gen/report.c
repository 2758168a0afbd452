/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Reports: the JSON object that stats.get answers and --json writes
 * (lib/stats snapshot + "traffic" + "streams" + "unsigned_rx" +
 * "unknown_stream_rx" + "neigh_rx" + "neigh"), the
 * summary table of a CLI run, and the periodic rate line.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "capture.h"
#include "gen.h"

/*
 * The generator could not send what was asked: an exact-count run that
 * ended without all its packets, or a paced run whose packets took
 * noticeably longer than asked (achieved = sent over the time from the
 * start to the last packet). The tolerance, GEN_LIMIT_TOLERANCE of the
 * asked time plus GEN_LIMIT_SLACK_S, covers the start and end of a run
 * on a shared CPU (one scheduler wake-up, the last partial burst), not
 * a generator that falls behind: that one's delay grows with the run.
 */
#define GEN_LIMIT_TOLERANCE 0.01
#define GEN_LIMIT_SLACK_S   0.01

static bool
gen_run_limited(struct gen_ctx *g, uint64_t sent, uint64_t asked, double elapsed)
{
	if (g->requested_pps <= 0)
		return false; /* unpaced: as fast as it can is what was asked */
	if (!g->running && asked != 0 && sent < asked)
		return true;
	if (elapsed <= GEN_LIMIT_SLACK_S)
		return false; /* just started: nothing to judge yet */
	return (double)sent / g->requested_pps * (1 + GEN_LIMIT_TOLERANCE) + GEN_LIMIT_SLACK_S <
	       elapsed;
}

/*
 * Packets wire stream @p i offered since the last clear: those the port
 * took, and with --tx-full drop also those it refused, whose sequence
 * numbers were spent (the receiver counts them lost).
 */
static uint64_t
gen_ws_offered(const struct gen_ctx *g, uint16_t i)
{
	const struct gen_ws_tx *tx = &g->ws[i]->tx, *base = &g->tx_base[i];

	return tx->packets - base->packets + (g->opt.tx_full_drop ? tx->unsent - base->unsent : 0);
}

/* The run as a whole since the last clear: stats.get's "traffic" and the summary's first line. */
static void
gen_traffic_read(struct gen_ctx *g, struct pvp_gen_traffic *tr)
{
	bool counted = true;
	uint64_t end, first = 0;
	uint16_t i;

	*tr = (struct pvp_gen_traffic){
		.running = g->running,
		.tx_full = g->opt.tx_full_drop ? PVP_GEN_TX_FULL_DROP : PVP_GEN_TX_FULL_RETRY,
		.requested_pps = g->requested_pps,
		.has_max_burst = true,
	};
	for (i = 0; i < g->nb_ws; i++) {
		const struct gen_wstream *w = g->ws[i];

		/* Packets the current (or last) run sent. */
		tr->tx_packets += w->sent_run;
		tr->tx_unsent += w->tx.unsent - g->tx_base[i].unsent;
		tr->tx_late += w->tx.late - g->tx_base[i].late;
		/* The largest burst ahead of the schedule, over all streams. */
		tr->max_burst = RTE_MAX(tr->max_burst, w->max_due);
		/* Packets the run's exact counts ask for, 0 when a stream has none. */
		if (w->limit != 0)
			tr->tx_asked += w->limit;
		else if (w->burst_pkts != 0)
			tr->tx_asked += w->burst_pkts * RTE_MAX(w->nb_bursts, 1u);
		else
			counted = false;
	}
	if (!counted)
		tr->tx_asked = 0;
	/* The run's length; 0 for a start at a given time still ahead (or stopped before it came). */
	end = g->running ? rte_rdtsc() : g->run_stop_tsc;
	if (g->run_start_tsc != 0 && end > g->run_start_tsc)
		tr->elapsed_s = (double)(end - g->run_start_tsc) / (double)g->hz;
	tr->achieved_pps = tr->elapsed_s > 0 ? (double)tr->tx_packets / tr->elapsed_s : 0;
	tr->generator_limited = gen_run_limited(g, tr->tx_packets, tr->tx_asked, tr->elapsed_s);
	pvp_rate_format(&g->rate, tr->rate, sizeof(tr->rate));
	/*
	 * When the run began (struct pvp_gen_start): the time traffic.start asked
	 * for, the time it was due here, and the first packet any TX lcore sent.
	 */
	for (i = 0; i < g->nb_tx; i++) {
		uint64_t f = g->tx[i]->first_tsc;

		if (f != 0 && (first == 0 || f < first))
			first = f;
	}
	tr->start.has_start_at = g->run_start_at > 0;
	tr->start.start_at = g->run_start_at;
	tr->start.has_start_s = g->run_start_tsc != 0;
	tr->start.start_s = g->run_start_rt;
	tr->start.has_first_tx = first != 0;
	tr->start.first_tx_s = first != 0 ? gen_tsc_to_realtime(g, first) : 0;
}

json_t *
gen_lat_json(const struct pvp_lat *l, const char *clock)
{
	struct pvp_lat_summary s;

	pvp_lat_read(l, &s);
	/* "*": no clock (the one-way halves), or a histogram that could not be made, is left out. */
	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:s*,s:o*}", "count",
			 (json_int_t)s.count, "min", (json_int_t)s.min, "avg", (json_int_t)s.avg,
			 "max", (json_int_t)s.max, "p50", (json_int_t)s.p50, "p90",
			 (json_int_t)s.p90, "p99", (json_int_t)s.p99, "p99_9", (json_int_t)s.p99_9,
			 "p99_99", (json_int_t)s.p99_99, "jitter", (json_int_t)s.jitter, "clock",
			 clock, "histogram", pvp_lat_to_json_hdrh(l));
}

/*
 * The stream's "latency_ns". "clock": the figures come from the host
 * TSC, read when the TX burst is built and when the RX burst is received
 * (software timestamps: they include the tester's own queueing, which a
 * wire calibration measures).
 */
static json_t *
gen_stream_lat(struct gen_ctx *g, uint16_t i)
{
	struct pvp_lat *h = malloc(sizeof(*h));
	json_t *j;

	if (h == NULL)
		return NULL;
	gen_rx_lat(g, i, h);
	j = gen_lat_json(h, "tsc");
	free(h);
	return j;
}

static json_t *
gen_streams_json(struct gen_ctx *g)
{
	json_t *arr = json_array(), *st;
	uint16_t i;

	for (i = 0; i < g->nb_ws; i++) {
		const struct gen_wstream *w = g->ws[i];
		struct pvp_seq seq;
		uint64_t rx_bytes, tx = w->tx.packets - g->tx_base[i].packets;
		uint64_t offered = gen_ws_offered(g, i);

		/* The latency figures are gen_stream_lat()'s, read once with the histogram. */
		gen_rx_read(g, i, &seq, NULL, &rx_bytes);
		st = json_pack(
			"{s:i,s:s,s:i,s:i,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:o*,s:o*}",
			"stream", w->wire_id, "name", w->st->ps->name, "port", w->port, "queue",
			w->queue, "max_burst", (json_int_t)w->max_due, "tx_packets", (json_int_t)tx,
			"tx_bytes", (json_int_t)(w->tx.bytes - g->tx_base[i].bytes), "tx_unsent",
			(json_int_t)(w->tx.unsent - g->tx_base[i].unsent), PVP_GEN_K_TX_OFFERED,
			(json_int_t)offered, PVP_GEN_K_RX_PACKETS, (json_int_t)seq.rx, "rx_bytes",
			(json_int_t)rx_bytes, PVP_GEN_K_LOST,
			(json_int_t)pvp_seq_lost(&seq, offered), PVP_GEN_K_DUP, (json_int_t)seq.dup,
			"ooo", (json_int_t)seq.ooo, "gaps", (json_int_t)seq.gaps, "latency_ns",
			gen_stream_lat(g, i), PVP_GEN_K_ONEWAY_NS, gen_oneway_stream_json(g, i));
		json_array_append_new(arr, st);
	}
	return arr;
}

static json_t *
gen_lcores_json(struct gen_ctx *g)
{
	json_t *arr = json_array();
	uint16_t i;

	for (i = 0; i < g->nb_tx; i++) {
		const struct gen_tx_lcore *tl = g->tx[i];

		json_array_append_new(
			arr,
			json_pack("{s:i,s:i,s:i,s:f}", "lcore", tl->lcore, "port", tl->port,
				  "queue", tl->queue, "cycles_per_packet",
				  tl->pkts_busy ? (double)tl->cycles_busy / tl->pkts_busy : 0.0));
	}
	return arr;
}

json_t *
gen_report_json(struct gen_ctx *g)
{
	struct pvp_gen_traffic tr;
	struct gen_cap_info cap;
	uint64_t unsigned_rx, unknown, neigh_rx;
	struct pvp_stats_snap snap;
	json_t *root;

	if (pvp_stats_snapshot(g->stats, &snap) != 0)
		return NULL;
	root = pvp_stats_snap_to_json(&snap);
	if (root == NULL)
		return NULL;
	gen_traffic_read(g, &tr);
	gen_rx_other(g, &unsigned_rx, &unknown, &neigh_rx);
	/* "o*": a member that could not be made is left out, as before. */
	json_object_update_new(
		root, json_pack("{s:o*,s:o*,s:o*,s:I,s:I,s:I,s:o*,s:o*}", PVP_GEN_K_TRAFFIC,
				pvp_schema_encode(pvp_gen_traffic_members, &tr), PVP_GEN_K_STREAMS,
				gen_streams_json(g), PVP_GEN_K_ONEWAY, gen_oneway_json(g),
				PVP_GEN_K_UNSIGNED_RX, (json_int_t)unsigned_rx,
				PVP_GEN_K_UNKNOWN_STREAM_RX, (json_int_t)unknown,
				PVP_GEN_K_NEIGH_RX, (json_int_t)neigh_rx, PVP_GEN_K_NEIGH,
				gen_neigh_json(g), "tx_lcores", gen_lcores_json(g)));
	if (gen_cap_totals(&cap))
		json_object_set_new(
			root, PVP_GEN_K_CAPTURE,
			json_pack("{s:I,s:I,s:I,s:I,s:I}", "matched", (json_int_t)cap.matched,
				  PVP_GEN_K_CAPTURED, (json_int_t)cap.captured, "bytes",
				  (json_int_t)cap.bytes, "over_limit", (json_int_t)cap.over,
				  "dropped", (json_int_t)cap.dropped));
	return root;
}

void
gen_report_print(struct gen_ctx *g, FILE *f)
{
	struct pvp_gen_traffic tr;
	struct gen_cap_info cap;
	uint64_t unsigned_rx, unknown, neigh_rx;
	struct pvp_stats_snap snap;
	uint16_t p, i;

	gen_traffic_read(g, &tr);
	if (pvp_stats_snapshot(g->stats, &snap) != 0)
		return;
	fprintf(f, "\n=== pvpkit-gen summary ===\n");
	fprintf(f,
		"rate %s: requested %.0f pps, achieved %.0f pps over %.3f s, "
		"tx_unsent %" PRIu64 ", tx_late %" PRIu64 ", max_burst %" PRIu64 "%s\n",
		tr.rate, tr.requested_pps, tr.achieved_pps, tr.elapsed_s, tr.tx_unsent, tr.tx_late,
		tr.max_burst, tr.generator_limited ? " (GENERATOR LIMITED)" : "");
	fprintf(f, "%-4s %-20s %14s %14s %12s %12s\n", "port", "name", "tx_packets", "rx_packets",
		"tx_dropped", "rx_dropped");
	for (p = 0; p < snap.nb_ports; p++) {
		const struct pvp_stats_port_snap *ps = &snap.port[p];

		fprintf(f,
			"%-4u %-20.20s %14" PRIu64 " %14" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n",
			p, ps->name, ps->c[PVP_STATS_tx_packets], ps->c[PVP_STATS_rx_packets],
			ps->c[PVP_STATS_tx_dropped], ps->c[PVP_STATS_rx_dropped]);
	}
	fprintf(f, "%-6s %-4s %12s %12s %10s %8s %8s %10s %10s %10s %10s\n", "stream", "port", "tx",
		"rx", "lost", "dup", "ooo", "lat_min_us", "lat_avg_us", "lat_p99_us", "lat_max_us");
	for (i = 0; i < g->nb_ws; i++) {
		const struct gen_wstream *w = g->ws[i];
		uint64_t tx = gen_ws_offered(g, i), rxb;
		struct pvp_lat_summary l;
		struct pvp_seq seq;

		gen_rx_read(g, i, &seq, &l, &rxb);
		fprintf(f,
			"%-6u %-4u %12" PRIu64 " %12" PRIu64 " %10" PRIu64 " %8" PRIu64 " %8" PRIu64
			" %10.3f %10.3f %10.3f %10.3f\n",
			w->wire_id, w->port, tx, seq.rx, pvp_seq_lost(&seq, tx), seq.dup, seq.ooo,
			l.min / 1e3, l.avg / 1e3, l.p99 / 1e3, l.max / 1e3);
	}
	gen_oneway_print(g, f);
	gen_rx_other(g, &unsigned_rx, &unknown, &neigh_rx);
	fprintf(f, "unsigned_rx %" PRIu64 " unknown_stream_rx %" PRIu64 " neigh_rx %" PRIu64 "\n",
		unsigned_rx, unknown, neigh_rx);
	gen_neigh_print(g, f);
	if (gen_cap_totals(&cap))
		fprintf(f,
			"captured %" PRIu64 " (%" PRIu64 " bytes) of %" PRIu64
			" matched, over_limit %" PRIu64 ", dropped %" PRIu64 "\n",
			cap.captured, cap.bytes, cap.matched, cap.over, cap.dropped);
	for (i = 0; i < g->nb_tx; i++) {
		const struct gen_tx_lcore *tl = g->tx[i];

		if (tl->pkts_busy != 0)
			fprintf(f, "tx lcore %u (port %u queue %u): %.1f cycles/packet\n",
				tl->lcore, tl->port, tl->queue,
				(double)tl->cycles_busy / tl->pkts_busy);
	}
	fflush(f);
}

void
gen_report_period(struct gen_ctx *g)
{
	static struct pvp_stats_snap prev;
	static bool have_prev;
	struct pvp_stats_snap now, diff;
	uint16_t p;

	if (pvp_stats_snapshot(g->stats, &now) != 0)
		return;
	if (have_prev && pvp_stats_diff(&now, &prev, &diff) == 0) {
		for (p = 0; p < now.nb_ports; p++) {
			struct pvp_stats_port_rates r;

			if (pvp_stats_rates(&diff, p, &r) != 0)
				continue;
			printf("port %u: tx %.3f Mpps %.3f Gbps(L1)  rx %.3f Mpps  tx_dropped "
			       "%" PRIu64 "\n",
			       p, r.tx_pps / 1e6, r.tx_l1_bps / 1e9, r.rx_pps / 1e6,
			       diff.port[p].c[PVP_STATS_tx_dropped]);
		}
		fflush(stdout);
	}
	prev = now;
	have_prev = true;
}
