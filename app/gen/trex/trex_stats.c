/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Counters in TRex's layouts: global and per-port stats, xstats, and the
 * per packet-group (pgid) flow stats and latency, from pvpkit's counters
 * and payload signature.
 *
 * TRex's conventions, which its clients compute with: byte counters and
 * bps include the 4 B FCS of every frame (ethdevs count without it, so
 * 4 per packet is added), rates are over the last sampling interval
 * (0.5 s), and counters only ever grow: a client's clear_stats keeps a
 * baseline of its own. pgid counters restart when the streams are
 * loaded again, under a new "ver_id", which tells clients to drop their
 * baseline, as TRex does when a stream is added again.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "trex.h"

/* Sampling interval of the rates. */
#define TREX_SAMPLE_MS 500

/* Rates of one port over the last interval. */
struct trex_rates {
	double tx_pps, rx_pps;
	double tx_bps, rx_bps; /* L2, FCS included */
	double cpu;	       /* TX lcores' busy share, % */
};

/*
 * A pgid's counters in the order of TRex's "flow_stats" keys, bytes at the
 * odd ones; their rates' keys follow.
 */
enum { TREX_PG_RP, TREX_PG_RB, TREX_PG_TP, TREX_PG_TB, TREX_PG_NB };
static const char *const trex_pg_keys[2 * TREX_PG_NB] = {"rp",	"rb",  "tp",  "tb",
							 "rps", "rbs", "tps", "tbs"};

/* One pgid's totals and rates (bits for bytes), per port. */
struct trex_pg {
	uint32_t pgid;
	bool latency;
	uint64_t n[TREX_PG_NB][GEN_MAX_PORTS];
	double rate[TREX_PG_NB][GEN_MAX_PORTS];
	/* Totals at the last sample, for the rates; none yet when !sampled. */
	bool sampled;
	uint64_t last[TREX_PG_NB][GEN_MAX_PORTS];
};

static struct {
	uint64_t tsc;				    /* last sample, 0: none */
	struct pvp_stats_snap snap;		    /* last sample */
	uint64_t busy[GEN_MAX_PORTS * GEN_MAX_TXQ]; /* TX lcores' cycles_busy then */
	struct trex_rates rate[GEN_MAX_PORTS];
	uint32_t nb_pg;
	struct trex_pg pg[GEN_MAX_STREAMS];
	uint32_t pg_ver; /* ver_id the pg[] counts belong to */
} ts;

static struct pvp_stats_snap trex_snap_now;

/* The port that receives what @p port sends, for pgid RX counters (doc/trex.rst). */
static uint16_t
trex_rx_port(uint16_t port)
{
	uint16_t n = trex.g->nb_ports;

	return n == 1 ? 0 : (uint16_t)(port ^ 1) < n ? (uint16_t)(port ^ 1) : port;
}

static struct trex_pg *
trex_pg_find(uint32_t pgid, bool add)
{
	uint32_t i;

	for (i = 0; i < ts.nb_pg; i++)
		if (ts.pg[i].pgid == pgid)
			return &ts.pg[i];
	if (!add || ts.nb_pg == GEN_MAX_STREAMS)
		return NULL;
	memset(&ts.pg[ts.nb_pg], 0, sizeof(ts.pg[0]));
	ts.pg[ts.nb_pg].pgid = pgid;
	return &ts.pg[ts.nb_pg++];
}

/* Current totals of every loaded pgid into @p pg (rates untouched). */
static void
trex_pg_count(void)
{
	struct gen_ctx *g = trex.g;
	uint32_t i;
	uint16_t w;

	if (ts.pg_ver != trex.ver_id) {
		ts.nb_pg = 0;
		ts.pg_ver = trex.ver_id;
	}
	for (i = 0; i < ts.nb_pg; i++)
		memset(ts.pg[i].n, 0, sizeof(ts.pg[i].n));
	for (w = 0; w < g->nb_ws; w++) {
		const struct gen_wstream *ws = g->ws[w];
		const struct trex_stream *s = trex_ws_stream(ws);
		struct pvp_lat_summary lat;
		struct pvp_seq seq;
		struct trex_pg *pg;
		uint64_t bytes, pk;
		uint16_t rp;

		if (s == NULL || !s->fs)
			continue;
		pg = trex_pg_find(s->pgid, true);
		if (pg == NULL)
			continue;
		pg->latency = s->fs_latency;
		pk = __atomic_load_n(&ws->tx.packets, __ATOMIC_RELAXED);
		pg->n[TREX_PG_TP][ws->port] += pk;
		pg->n[TREX_PG_TB][ws->port] +=
			__atomic_load_n(&ws->tx.bytes, __ATOMIC_RELAXED) + pk * PVP_FCS_LEN;
		gen_rx_read(g, ws->wire_id, &seq, &lat, &bytes);
		rp = trex_rx_port(ws->port);
		pg->n[TREX_PG_RP][rp] += seq.rx;
		pg->n[TREX_PG_RB][rp] += bytes + seq.rx * PVP_FCS_LEN;
	}
}

void
trex_stats_tick(void)
{
	struct gen_ctx *g = trex.g;
	uint64_t now = rte_rdtsc();
	double dt;
	uint32_t i, k;
	uint16_t p, t;

	if (ts.tsc != 0 && now - ts.tsc < g->hz * TREX_SAMPLE_MS / 1000)
		return;
	if (pvp_stats_snapshot(g->stats, &trex_snap_now) != 0)
		return;
	dt = ts.tsc != 0 ? (double)(now - ts.tsc) / (double)g->hz : 0;
	for (p = 0; dt > 0 && p < g->nb_ports; p++) {
		const uint64_t *c = trex_snap_now.port[p].c, *o = ts.snap.port[p].c;
		struct trex_rates *r = &ts.rate[p];
		double tp = (double)(c[PVP_STATS_tx_packets] - o[PVP_STATS_tx_packets]);
		double rp = (double)(c[PVP_STATS_rx_packets] - o[PVP_STATS_rx_packets]);
		double busy = 0, n = 0;

		r->tx_pps = tp / dt;
		r->rx_pps = rp / dt;
		r->tx_bps = ((double)(c[PVP_STATS_tx_bytes] - o[PVP_STATS_tx_bytes]) +
			     tp * PVP_FCS_LEN) *
			    8 / dt;
		r->rx_bps = ((double)(c[PVP_STATS_rx_bytes] - o[PVP_STATS_rx_bytes]) +
			     rp * PVP_FCS_LEN) *
			    8 / dt;
		for (t = 0; t < g->nb_tx; t++) {
			if (g->tx[t]->port != p)
				continue;
			busy += (double)(g->tx[t]->cycles_busy - ts.busy[t]);
			n++;
		}
		r->cpu = n > 0 ? RTE_MIN(100.0, busy / n / (dt * (double)g->hz) * 100) : 0;
	}
	for (t = 0; t < g->nb_tx; t++)
		ts.busy[t] = g->tx[t]->cycles_busy;
	memcpy(&ts.snap, &trex_snap_now, sizeof(ts.snap));
	ts.tsc = now;
	trex_pg_count();
	for (i = 0; i < ts.nb_pg; i++) {
		struct trex_pg *pg = &ts.pg[i];

		for (k = 0; k < TREX_PG_NB; k++)
			for (p = 0; p < g->nb_ports; p++)
				pg->rate[k][p] = dt > 0 && pg->sampled
							 ? (double)(pg->n[k][p] - pg->last[k][p]) *
								   (k & 1 ? 8 : 1) / dt
							 : 0;
		memcpy(pg->last, pg->n, sizeof(pg->n));
		pg->sampled = true;
	}
}

/* A port's counters in TRex's names: bytes with FCS, errors as TRex sums them. */
int
trex_m_get_port_stats(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	const uint64_t *c = trex_snap_now.port[port].c;
	const struct trex_rates *r = &ts.rate[port];

	if (pvp_stats_snapshot(trex.g->stats, &trex_snap_now) != 0)
		return pvp_fail(err, err_len, -EIO, "counters could not be read");
	*res = json_pack(
		"{s:I,s:I,s:I,s:I,s:I,s:I,s:f,s:f,s:f,s:f,s:f}", "opackets",
		(json_int_t)c[PVP_STATS_tx_packets], "obytes",
		(json_int_t)(c[PVP_STATS_tx_bytes] + c[PVP_STATS_tx_packets] * PVP_FCS_LEN),
		"ipackets", (json_int_t)c[PVP_STATS_rx_packets], "ibytes",
		(json_int_t)(c[PVP_STATS_rx_bytes] + c[PVP_STATS_rx_packets] * PVP_FCS_LEN),
		"ierrors", (json_int_t)(c[PVP_STATS_rx_dropped] + c[PVP_STATS_rx_errors]),
		"oerrors", (json_int_t)c[PVP_STATS_tx_errors], "m_total_tx_bps", r->tx_bps,
		"m_total_tx_pps", r->tx_pps, "m_total_rx_bps", r->rx_bps, "m_total_rx_pps",
		r->rx_pps, "m_cpu_util", r->cpu);
	return 0;
}

int
trex_m_get_global_stats(json_t *p, json_t **res, char *err, size_t err_len)
{
	struct gen_ctx *g = trex.g;
	double tx_bps = 0, rx_bps = 0, tx_pps = 0, rx_pps = 0, cpu = 0, exp_pps = 0, exp_bps = 0;
	uint64_t txp = 0, rxp = 0, txb = 0, rxb = 0, qfull = 0;
	uint16_t port;

	if (pvp_stats_snapshot(g->stats, &trex_snap_now) != 0)
		return pvp_fail(err, err_len, -EIO, "counters could not be read");
	for (port = 0; port < g->nb_ports; port++) {
		const uint64_t *c = trex_snap_now.port[port].c;
		const struct trex_port *tp = &trex.port[port];

		txp += c[PVP_STATS_tx_packets];
		rxp += c[PVP_STATS_rx_packets];
		txb += c[PVP_STATS_tx_bytes] + c[PVP_STATS_tx_packets] * PVP_FCS_LEN;
		rxb += c[PVP_STATS_rx_bytes] + c[PVP_STATS_rx_packets] * PVP_FCS_LEN;
		qfull += c[PVP_STATS_tx_dropped];
		tx_bps += ts.rate[port].tx_bps;
		rx_bps += ts.rate[port].rx_bps;
		tx_pps += ts.rate[port].tx_pps;
		rx_pps += ts.rate[port].rx_pps;
		cpu += ts.rate[port].cpu;
		if (tp->state == TREX_PORT_TX) {
			exp_pps += tp->max_pps * tp->factor;
			exp_bps += tp->max_bps_l2 * tp->factor;
		}
	}
	cpu = g->nb_ports != 0 ? cpu / g->nb_ports : 0;
	*res = json_pack("{s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:I,s:I,s:I,s:f,"
			 "s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:f}",
			 "m_cpu_util", cpu, "m_cpu_util_raw", cpu, "m_bw_per_core",
			 cpu > 0 ? tx_bps / 1e9 / (cpu / 100.0 * g->nb_tx) : 0.0, "m_rx_cpu_util",
			 0.0, "m_rx_core_pps", rx_pps, "m_platform_factor", 1.0, "m_tx_bps", tx_bps,
			 "m_rx_bps", rx_bps, "m_tx_pps", tx_pps, "m_rx_pps", rx_pps, "m_tx_cps",
			 0.0, "m_tx_expected_cps", 0.0, "m_tx_expected_pps", exp_pps,
			 "m_total_alloc_error", (json_int_t)0, "m_total_queue_full",
			 (json_int_t)qfull, "m_total_queue_drop", (json_int_t)0,
			 "m_tx_expected_bps", exp_bps, "m_active_flows", (json_int_t)0,
			 "m_open_flows", (json_int_t)0, "m_total_tx_pkts", (json_int_t)txp,
			 "m_total_rx_pkts", (json_int_t)rxp, "m_total_tx_bytes", (json_int_t)txb,
			 "m_total_rx_bytes", (json_int_t)rxb, "m_total_clients", (json_int_t)0,
			 "m_total_servers", (json_int_t)0, "m_rx_drop_bps",
			 tx_bps > rx_bps ? tx_bps - rx_bps : 0.0);
	return 0;
}

int
trex_m_get_port_xstats_names(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	/* The ethdev counters every PMD has, in the order rte_eth_xstats lists them first. */
	*res = json_pack("{s:[ssssssss]}", "xstats_names", "rx_good_packets", "tx_good_packets",
			 "rx_good_bytes", "tx_good_bytes", "rx_missed_errors", "rx_errors",
			 "tx_errors", "rx_mbuf_allocation_errors");
	return 0;
}

int
trex_m_get_port_xstats_values(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct rte_eth_stats st;
	int ret;

	memset(&st, 0, sizeof(st));
	ret = rte_eth_stats_get(trex.g->port[port].eth_port, &st);
	if (ret != 0)
		return pvp_fail(err, err_len, -EPERM, "Operation failed, error code: %d", ret);
	*res = json_pack("{s:[IIIIIIII]}", "xstats_values", (json_int_t)st.ipackets,
			 (json_int_t)st.opackets, (json_int_t)st.ibytes, (json_int_t)st.obytes,
			 (json_int_t)st.imissed, (json_int_t)st.ierrors, (json_int_t)st.oerrors,
			 (json_int_t)st.rx_nombuf);
	return 0;
}

int
trex_m_get_active_pgids(json_t *p, json_t **res, char *err, size_t err_len)
{
	json_t *fs = json_array(), *lat = json_array();
	uint16_t port;
	uint32_t i;

	for (port = 0; port < trex.g->nb_ports; port++)
		for (i = 0; i < trex.port[port].nb_streams; i++) {
			const struct trex_stream *s = trex.port[port].streams[i];
			json_t *a = s->fs_latency ? lat : fs;
			size_t k;
			json_t *x;
			bool dup = false;

			if (!s->fs)
				continue;
			json_array_foreach(a, k, x)
				if ((uint32_t)json_integer_value(x) == s->pgid)
					dup = true;
			if (!dup)
				json_array_append_new(a, json_integer(s->pgid));
		}
	*res = json_pack("{s:{s:o,s:o}}", "ids", "flow_stats", fs, "latency", lat);
	return 0;
}

/* TRex's histogram keys: 10..90, 100..900, ... usec, "0" under 10 usec. */
static void
trex_lat_hist(const struct pvp_lat *l, json_t *h)
{
	/* Per key, in the keys' order: its count and its value. */
	uint64_t cnt[64] = {0}, key_us[64], under = 0;
	char key[32];
	unsigned int b, k;

	for (b = 0; b < PVP_LAT_NB_BUCKETS; b++) {
		uint64_t us, base = 10, d;

		if (l->bucket[b] == 0)
			continue;
		us = pvp_lat_bucket_low(b) / 1000;
		if (us < 10) {
			under += l->bucket[b];
			continue;
		}
		for (k = 0; us >= base * 10 && k < 6; k++)
			base *= 10;
		d = RTE_MIN(us / base, (uint64_t)9);
		cnt[k * 9 + d - 1] += l->bucket[b];
		key_us[k * 9 + d - 1] = base * d;
	}
	if (under != 0)
		json_object_set_new(h, "0", json_integer((json_int_t)under));
	for (k = 0; k < 63; k++) {
		if (cnt[k] == 0)
			continue;
		snprintf(key, sizeof(key), "%" PRIu64, key_us[k]);
		json_object_set_new(h, key, json_integer((json_int_t)cnt[k]));
	}
}

/*
 * Latency of a pgid: every RX lcore's histograms of its wire streams,
 * merged. "last_max" is the largest latency of the latest half second
 * that had packets, and "er" holds TRex's sequence counters: "drp" the
 * numbers skipped (late arrivals fill them again), "ooo" and "dup" the
 * late and repeated packets, "sth" the arrivals that skipped numbers and
 * "stl" those below the next expected (late or repeated), each only when
 * not zero, as TRex leaves them out.
 */
static json_t *
trex_pg_latency(uint32_t pgid)
{
	static struct pvp_lat sum;
	struct gen_ctx *g = trex.g;
	struct pvp_lat_summary s;
	uint64_t gaps = 0, ooo = 0, dup = 0, jumps = 0, last_max = 0;
	json_t *lat;
	uint16_t w, k;
	char *hdrh;

	pvp_lat_init(&sum);
	for (w = 0; w < g->nb_ws; w++) {
		const struct gen_wstream *ws = g->ws[w];
		const struct trex_stream *st = trex_ws_stream(ws);
		struct pvp_lat_summary ls;
		struct pvp_seq seq;
		uint64_t bytes;

		if (st == NULL || !st->fs || st->pgid != pgid)
			continue;
		for (k = 0; k < g->rx.nb; k++)
			pvp_lat_merge(&sum, &g->rx.rl[k]->ws[ws->wire_id].lat);
		gen_rx_read(g, ws->wire_id, &seq, &ls, &bytes);
		gaps += seq.gaps;
		ooo += seq.ooo;
		dup += seq.dup;
		jumps += seq.jumps;
		last_max = RTE_MAX(last_max, gen_rx_last_max(g, ws->wire_id));
	}
	pvp_lat_read(&sum, &s);
	/* HdrHistogram's form as TRex's --hdrh gives it (usec, 1 us..10 s, 3
	 * digits), which CSIT's and NFVbench's clients decode. */
	hdrh = pvp_lat_hdrh(&sum, 1000, 10000000, 3);
	lat = json_pack("{s:I,s:I,s:I,s:f,s:I,s:{},s:s*}", "total_max", (json_int_t)(s.max / 1000),
			"total_min", (json_int_t)(s.min / 1000), "last_max",
			(json_int_t)(last_max / 1000), "average", (double)s.avg / 1000.0, "jit",
			(json_int_t)(s.jitter / 1000), "histogram", "hdrh", hdrh);
	free(hdrh);
	trex_lat_hist(&sum, json_object_get(lat, "histogram"));
	return json_pack("{s:o,s:{s:o*,s:o*,s:o*,s:o*,s:o*}}", "lat", lat, "er", "drp",
			 gaps != 0 ? json_integer((json_int_t)gaps) : NULL, "ooo",
			 ooo != 0 ? json_integer((json_int_t)ooo) : NULL, "dup",
			 dup != 0 ? json_integer((json_int_t)dup) : NULL, "sth",
			 jumps != 0 ? json_integer((json_int_t)jumps) : NULL, "stl",
			 ooo + dup != 0 ? json_integer((json_int_t)(ooo + dup)) : NULL);
}

int
trex_m_get_pgid_stats(json_t *p, json_t **res, char *err, size_t err_len)
{
	struct gen_ctx *g = trex.g;
	json_t *ids = trex_param_array(p, "pgids", err, err_len), *x, *fs, *lat, *ver;
	char key[16], pk[8];
	unsigned int k;
	size_t i;
	uint16_t port;

	if (ids == NULL)
		return -EINVAL;
	if (json_array_size(ids) > 1024 + 128)
		return pvp_fail(err, err_len, -ERANGE,
				"Asking information for too many packet group IDs. "
				"Max allowed is %d",
				1024 + 128);
	/* pgids are 32-bit: 2^32 + 5 is no pgid, never pgid 5. */
	json_array_foreach(ids, i, x)
		if (!json_is_integer(x) || json_integer_value(x) < 0 ||
		    json_integer_value(x) > UINT32_MAX)
			return pvp_fail(err, err_len, -EINVAL, "'pgids' item %zu is not a uint32",
					i);
	trex_pg_count();
	fs = json_object();
	lat = json_pack("{s:{s:i,s:i}}", "g", "bad_hdr", 0, "old_flow", 0);
	ver = json_object();
	json_array_foreach(ids, i, x) {
		const struct trex_pg *pg;
		json_t *o;

		pg = trex_pg_find((uint32_t)json_integer_value(x), false);
		if (pg == NULL)
			continue;
		snprintf(key, sizeof(key), "%u", pg->pgid);
		o = json_object();
		for (k = 0; k < 2 * TREX_PG_NB; k++) {
			const unsigned int c = k % TREX_PG_NB;
			json_t *per = json_object();

			for (port = 0; port < g->nb_ports; port++) {
				snprintf(pk, sizeof(pk), "%u", port);
				json_object_set_new(
					per, pk,
					k < TREX_PG_NB ? json_integer((json_int_t)pg->n[c][port])
						       : json_real(pg->rate[c][port]));
			}
			json_object_set_new(o, trex_pg_keys[k], per);
		}
		json_object_set_new(fs, key, o);
		if (pg->latency)
			json_object_set_new(lat, key, trex_pg_latency(pg->pgid));
		json_object_set_new(ver, key, json_integer(trex.ver_id));
	}
	*res = json_pack("{s:o,s:o,s:o}", "flow_stats", fs, "latency", lat, "ver_id", ver);
	return 0;
}
