/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The metrics of a stats.get answer. Written from the JSON the control
 * channel answers, not from the apps' structs: /metrics and stats.get
 * then show the same snapshot taken the same way (under the same lock in
 * pvpkit-gen), and the names below are the only new vocabulary. Every
 * family is a table row; doc/metrics.rst lists them.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pvp_metrics.h"

/* One counter kept per port, queue or stream: JSON member, family. */
struct ms_member {
	const char *key;       /* member of the JSON object */
	const char *family;    /* metric family */
	enum pvp_om_type type; /* counter or gauge */
	const char *unit;      /* "bytes", or NULL */
	const char *help;      /* HELP text */
};

/* Per port and direction ("rx", "tx"): the two members of each row. */
static const struct {
	const char *rx, *tx, *family, *unit, *help;
} ms_port[] = {
	{"rx_packets", "tx_packets", "pvpkit_port_packets", NULL,
	 "Packets received (rx) and sent (tx) by the port, since start or stats.clear."},
	{"rx_bytes", "tx_bytes", "pvpkit_port_bytes", "bytes",
	 "Bytes received and sent, without FCS."},
	{"rx_dropped", "tx_dropped", "pvpkit_port_dropped_packets", NULL,
	 "Packets dropped: rx by the port or the app, tx for a full queue."},
	{"rx_errors", "tx_errors", "pvpkit_port_error_packets", NULL,
	 "Packets received malformed (rx) or not sent for another reason (tx)."},
};

/* The parts of rx_dropped, by reason. */
static const char *const ms_rx_reasons[] = {"rx_missed", "rx_nombuf", "rx_sw_dropped"};

/* Per queue. */
static const struct ms_member ms_queue[] = {
	{"packets", "pvpkit_queue_packets", PVP_OM_COUNTER, NULL,
	 "Packets of one RX or TX queue (one lcore polls each)."},
	{"bytes", "pvpkit_queue_bytes", PVP_OM_COUNTER, "bytes",
	 "Bytes of one queue, without FCS."},
	{"dropped", "pvpkit_queue_dropped_packets", PVP_OM_COUNTER, NULL,
	 "Packets one queue's lcore dropped."},
	{"errors", "pvpkit_queue_error_packets", PVP_OM_COUNTER, NULL,
	 "Packets one queue's lcore found malformed or could not send."},
};

/* Per stream: pvpkit-gen's streams and pvpkit-fwd's --seq-check ones. */
static const struct ms_member ms_stream[] = {
	{"tx_packets", "pvpkit_stream_tx_packets", PVP_OM_COUNTER, NULL,
	 "Packets of the stream the port accepted."},
	{"tx_bytes", "pvpkit_stream_tx_bytes", PVP_OM_COUNTER, "bytes",
	 "Bytes of the stream sent, without FCS."},
	{"tx_unsent", "pvpkit_stream_tx_unsent_packets", PVP_OM_COUNTER, NULL,
	 "Packets of the stream built but not taken by a full TX queue."},
	{"tx_offered", "pvpkit_stream_tx_offered_packets", PVP_OM_COUNTER, NULL,
	 "Packets of the stream offered: sent, and with --tx-full drop refused ones."},
	{"rx_packets", "pvpkit_stream_rx_packets", PVP_OM_COUNTER, NULL,
	 "Packets of the stream received."},
	{"rx_bytes", "pvpkit_stream_rx_bytes", PVP_OM_COUNTER, "bytes",
	 "Bytes of the stream received, without FCS."},
	{"lost", "pvpkit_stream_lost_packets", PVP_OM_GAUGE, NULL,
	 "Packets of the stream offered and not (yet) received; in flight while it runs."},
	{"dup", "pvpkit_stream_duplicate_packets", PVP_OM_COUNTER, NULL,
	 "Packets of the stream received twice."},
	{"ooo", "pvpkit_stream_out_of_order_packets", PVP_OM_COUNTER, NULL,
	 "Packets of the stream received out of order."},
	{"gaps", "pvpkit_stream_sequence_gaps", PVP_OM_COUNTER, NULL,
	 "Gaps in the stream's sequence numbers."},
};

/* Whole-process counts, and pvpkit-gen's run. */
static const struct ms_member ms_top[] = {
	{"unsigned_rx", "pvpkit_rx_unsigned_packets", PVP_OM_COUNTER, NULL,
	 "Packets received without a pvpkit signature."},
	{"unknown_stream_rx", "pvpkit_rx_unknown_stream_packets", PVP_OM_COUNTER, NULL,
	 "Signed packets of no stream of the loaded profile."},
	{"untracked_rx", "pvpkit_rx_untracked_packets", PVP_OM_COUNTER, NULL,
	 "Signed packets beyond the streams pvpkit-fwd tracks."},
};

static const struct ms_member ms_traffic[] = {
	{"running", "pvpkit_traffic_running", PVP_OM_GAUGE, NULL, "1 while traffic is sent."},
	{"requested_pps", "pvpkit_traffic_requested_pps", PVP_OM_GAUGE, NULL,
	 "Packet rate asked for, all ports (0: as fast as it can)."},
	{"achieved_pps", "pvpkit_traffic_achieved_pps", PVP_OM_GAUGE, NULL,
	 "Packets sent over the run's time so far."},
	{"tx_late", "pvpkit_traffic_late_slots", PVP_OM_COUNTER, NULL,
	 "Pacing slots given up after a stall."},
	{"generator_limited", "pvpkit_traffic_generator_limited", PVP_OM_GAUGE, NULL,
	 "1 when the generator could not send what was asked."},
};

/* A member as a number: integers, reals, booleans (1/0). */
static bool
ms_num(const json_t *o, const char *key, double *v)
{
	const json_t *j = json_object_get(o, key);

	if (json_is_number(j))
		*v = json_number_value(j);
	else if (json_is_boolean(j))
		*v = json_is_true(j) ? 1 : 0;
	else
		return false;
	return true;
}

/* The member as a whole, non-negative number, for counters. */
static bool
ms_uint(const json_t *o, const char *key, uint64_t *v)
{
	const json_t *j = json_object_get(o, key);

	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return false;
	*v = (uint64_t)json_integer_value(j);
	return true;
}

static void
ms_sample(struct pvp_om *om, const struct ms_member *m, const json_t *o,
	  const struct pvp_om_label *l, unsigned int nl)
{
	uint64_t u;
	double d;

	if (m->type == PVP_OM_COUNTER && ms_uint(o, m->key, &u))
		pvp_om_uint(om, l, nl, u);
	else if (m->type == PVP_OM_GAUGE && ms_num(o, m->key, &d))
		pvp_om_value(om, l, nl, d);
}

/* A family for each member of @p m that object @p o has, with its one sample. */
static void
ms_members(struct pvp_om *om, const struct ms_member *m, size_t nb, const json_t *o)
{
	for (; nb > 0; m++, nb--) {
		if (json_object_get(o, m->key) == NULL)
			continue;
		pvp_om_family(om, m->family, m->type, m->unit, m->help);
		ms_sample(om, m, o, NULL, 0);
	}
}

/* Whether any object of @p arr has @p key. */
static bool
ms_any(const json_t *arr, const char *key)
{
	const json_t *o;
	size_t i;

	json_array_foreach(arr, i, o)
		if (json_object_get(o, key) != NULL)
			return true;
	return false;
}

/* The lcore that polls (port, queue) in @p dir, or -1. */
static json_int_t
ms_lcore_of(const json_t *lcores, json_int_t port, json_int_t queue, const char *dir)
{
	const json_t *o;
	size_t i;

	json_array_foreach(lcores, i, o)
		if (json_integer_value(json_object_get(o, "port")) == port &&
		    json_integer_value(json_object_get(o, "queue")) == queue &&
		    json_is_string(json_object_get(o, "direction")) &&
		    strcmp(json_string_value(json_object_get(o, "direction")), dir) == 0 &&
		    json_is_integer(json_object_get(o, "lcore")))
			return json_integer_value(json_object_get(o, "lcore"));
	return -1;
}

/* Labels port and name of port object @p p; @p num holds the number. */
static unsigned int
ms_port_labels(const json_t *p, size_t idx, char *num, size_t len, struct pvp_om_label *l)
{
	const json_t *name = json_object_get(p, "name");

	snprintf(num, len, "%zu", idx);
	l[0] = (struct pvp_om_label){"port", num};
	l[1] = (struct pvp_om_label){"name", json_is_string(name) ? json_string_value(name) : ""};
	return 2;
}

static void
ms_ports(struct pvp_om *om, const json_t *ports)
{
	struct pvp_om_label l[PVP_OM_MAX_LABELS];
	const json_t *p, *x;
	char num[24];
	unsigned int f, r;
	size_t i, k;
	uint64_t v;

	for (f = 0; f < sizeof(ms_port) / sizeof(ms_port[0]); f++) {
		pvp_om_family(om, ms_port[f].family, PVP_OM_COUNTER, ms_port[f].unit,
			      ms_port[f].help);
		json_array_foreach(ports, i, p) {
			ms_port_labels(p, i, num, sizeof(num), l);
			l[2] = (struct pvp_om_label){"direction", "rx"};
			if (ms_uint(p, ms_port[f].rx, &v))
				pvp_om_uint(om, l, 3, v);
			l[2].value = "tx";
			if (ms_uint(p, ms_port[f].tx, &v))
				pvp_om_uint(om, l, 3, v);
		}
	}
	pvp_om_family(om, "pvpkit_port_rx_drop_reason_packets", PVP_OM_COUNTER, NULL,
		      "Parts of rx_dropped: rx_missed (no room in the port's ring), rx_nombuf "
		      "(no mbuf), rx_sw_dropped (by the app).");
	json_array_foreach(ports, i, p) {
		ms_port_labels(p, i, num, sizeof(num), l);
		for (r = 0; r < sizeof(ms_rx_reasons) / sizeof(ms_rx_reasons[0]); r++) {
			l[2] = (struct pvp_om_label){"reason", ms_rx_reasons[r]};
			if (ms_uint(p, ms_rx_reasons[r], &v))
				pvp_om_uint(om, l, 3, v);
		}
	}
	pvp_om_family(om, "pvpkit_port_xstat", PVP_OM_COUNTER, NULL,
		      "Chosen extended statistics of the port's PMD (detail of the counters).");
	json_array_foreach(ports, i, p) {
		ms_port_labels(p, i, num, sizeof(num), l);
		json_array_foreach(json_object_get(p, "xstats"), k, x) {
			l[2] = (struct pvp_om_label){"xstat",
						     json_string_value(json_object_get(x, "name"))};
			if (l[2].value != NULL && ms_uint(x, "value", &v))
				pvp_om_uint(om, l, 3, v);
		}
	}
}

/* Per queue, with its lcore when known; and the lcore sums. */
static void
ms_queues(struct pvp_om *om, const json_t *ports, const json_t *lcores)
{
	static const char *const dirs[] = {"rx", "tx"};
	static const char *const qkey[] = {"rxq", "txq"};
	struct pvp_om_label l[PVP_OM_MAX_LABELS];
	char num[24], qn[24], lc[24];
	const json_t *p, *q;
	unsigned int f, d, nl;
	json_int_t lcore;
	size_t i, k;

	for (f = 0; f < sizeof(ms_queue) / sizeof(ms_queue[0]); f++) {
		pvp_om_family(om, ms_queue[f].family, ms_queue[f].type, ms_queue[f].unit,
			      ms_queue[f].help);
		json_array_foreach(ports, i, p) {
			for (d = 0; d < 2; d++) {
				json_array_foreach(json_object_get(p, qkey[d]), k, q) {
					nl = ms_port_labels(p, i, num, sizeof(num), l);
					snprintf(qn, sizeof(qn), "%zu", k);
					l[nl++] = (struct pvp_om_label){"direction", dirs[d]};
					l[nl++] = (struct pvp_om_label){"queue", qn};
					lcore = ms_lcore_of(lcores, (json_int_t)i, (json_int_t)k,
							    dirs[d]);
					if (lcore >= 0) {
						snprintf(lc, sizeof(lc), "%" JSON_INTEGER_FORMAT,
							 lcore);
						l[nl++] = (struct pvp_om_label){"lcore", lc};
					}
					ms_sample(om, &ms_queue[f], q, l, nl);
				}
			}
		}
	}
}

/* Whether lcores entry @p e is lcore @p id polling queues in direction @p dir. */
static bool
ms_lcore_is(const json_t *e, json_int_t id, const char *dir)
{
	const char *ed = json_string_value(json_object_get(e, "direction"));

	return json_integer_value(json_object_get(e, "lcore")) == id && ed != NULL &&
	       strcmp(ed, dir) == 0;
}

/* Per lcore: the sums of the queues it polls. */
static void
ms_lcores(struct pvp_om *om, const json_t *ports, const json_t *lcores)
{
	static const char *const fam[] = {"pvpkit_lcore_packets", "pvpkit_lcore_bytes"};
	static const char *const key[] = {"packets", "bytes"};
	struct pvp_om_label l[2];
	const json_t *o, *e, *q;
	char lc[24];
	unsigned int f;
	uint64_t sum, v;
	size_t i, j;

	for (f = 0; f < 2; f++) {
		pvp_om_family(om, fam[f], PVP_OM_COUNTER, f == 1 ? "bytes" : NULL,
			      f == 0 ? "Packets of the queues one lcore polls, by direction."
				     : "Bytes of the queues one lcore polls, without FCS.");
		json_array_foreach(lcores, i, o) {
			const char *dir = json_string_value(json_object_get(o, "direction"));
			json_int_t id = json_integer_value(json_object_get(o, "lcore"));

			if (dir == NULL ||
			    json_array_get(ports, (size_t)json_integer_value(
							  json_object_get(o, "port"))) == NULL)
				continue;
			/* One sample per (lcore, direction): the first entry of each sums them. */
			for (j = 0; j < i; j++)
				if (ms_lcore_is(json_array_get(lcores, j), id, dir))
					break;
			if (j < i)
				continue;
			sum = 0;
			json_array_foreach(lcores, j, e) {
				q = json_array_get(
					json_object_get(
						json_array_get(ports,
							       (size_t)json_integer_value(
								       json_object_get(e, "port"))),
						strcmp(dir, "rx") == 0 ? "rxq" : "txq"),
					(size_t)json_integer_value(json_object_get(e, "queue")));
				if (ms_lcore_is(e, id, dir) && ms_uint(q, key[f], &v))
					sum += v;
			}
			snprintf(lc, sizeof(lc), "%" JSON_INTEGER_FORMAT, id);
			l[0] = (struct pvp_om_label){"lcore", lc};
			l[1] = (struct pvp_om_label){"direction", dir};
			pvp_om_uint(om, l, 2, sum);
		}
	}
}

/* Labels of a stream object: stream, and name and port when it has them. */
static unsigned int
ms_stream_labels(const json_t *s, char *id, char *port, size_t len, struct pvp_om_label *l)
{
	const json_t *name = json_object_get(s, "name"), *p = json_object_get(s, "port");
	unsigned int n = 0;

	snprintf(id, len, "%" JSON_INTEGER_FORMAT,
		 json_integer_value(json_object_get(s, "stream")));
	l[n++] = (struct pvp_om_label){"stream", id};
	if (json_is_string(name))
		l[n++] = (struct pvp_om_label){"name", json_string_value(name)};
	if (json_is_integer(p)) {
		snprintf(port, len, "%" JSON_INTEGER_FORMAT, json_integer_value(p));
		l[n++] = (struct pvp_om_label){"port", port};
	}
	return n;
}

/*
 * lib/lat's sparse histogram ("buckets": [[low_ns, count], ...]) at the
 * power-of-two bounds: every one is a bucket bound of lib/lat (above
 * 32 ns), so a bucket lies wholly below or above it.
 */
static int
ms_latency(const json_t *h, double *le, uint64_t *cum, double *sum_s, uint64_t *count)
{
	const json_t *b;
	uint64_t low, n, total = 0;
	json_int_t jl, jn;
	unsigned int k;
	size_t i;

	if (!ms_uint(h, "count", count) || !ms_uint(h, "sum", &low))
		return -EINVAL;
	*sum_s = (double)low / 1e9;
	for (k = 0; k < PVP_METRICS_LAT_NB_LE; k++) {
		le[k] = (double)(UINT64_C(1) << (k + PVP_METRICS_LAT_LOW_BITS)) / 1e9;
		cum[k] = 0;
	}
	json_array_foreach(json_object_get(h, "buckets"), i, b) {
		if (json_unpack((json_t *)b, "[II]", &jl, &jn) != 0 || jl < 0 || jn < 0)
			return -EINVAL;
		low = (uint64_t)jl;
		n = (uint64_t)jn;
		total += n;
		for (k = 0; k < PVP_METRICS_LAT_NB_LE; k++)
			if (low < (UINT64_C(1) << (k + PVP_METRICS_LAT_LOW_BITS)))
				cum[k] += n;
	}
	return total == *count ? 0 : -EINVAL;
}

static void
ms_streams(struct pvp_om *om, const json_t *streams)
{
	struct pvp_om_label l[PVP_OM_MAX_LABELS];
	double le[PVP_METRICS_LAT_NB_LE], sum, v;
	uint64_t cum[PVP_METRICS_LAT_NB_LE], count, lost, offered;
	char id[24], port[24];
	const json_t *s, *lat;
	unsigned int f, nl;
	size_t i;

	for (f = 0; f < sizeof(ms_stream) / sizeof(ms_stream[0]); f++) {
		if (!ms_any(streams, ms_stream[f].key))
			continue;
		pvp_om_family(om, ms_stream[f].family, ms_stream[f].type, ms_stream[f].unit,
			      ms_stream[f].help);
		json_array_foreach(streams, i, s) {
			nl = ms_stream_labels(s, id, port, sizeof(id), l);
			ms_sample(om, &ms_stream[f], s, l, nl);
		}
	}
	if (ms_any(streams, "lost") && ms_any(streams, "tx_offered")) {
		pvp_om_family(om, "pvpkit_stream_loss_ratio", PVP_OM_GAUGE, NULL,
			      "lost over tx_offered (0 before anything was offered).");
		json_array_foreach(streams, i, s) {
			if (!ms_uint(s, "lost", &lost) || !ms_uint(s, "tx_offered", &offered))
				continue;
			nl = ms_stream_labels(s, id, port, sizeof(id), l);
			pvp_om_value(om, l, nl, offered > 0 ? (double)lost / (double)offered : 0.0);
		}
	}
	if (!ms_any(streams, "latency_ns"))
		return;
	pvp_om_family(om, "pvpkit_stream_latency_seconds", PVP_OM_HISTOGRAM, "seconds",
		      "One-way latency of the stream's packets (TSC at TX build and at RX); "
		      "bounds are powers of two nanoseconds.");
	json_array_foreach(streams, i, s) {
		lat = json_object_get(json_object_get(s, "latency_ns"), "histogram");
		if (lat == NULL)
			continue;
		nl = ms_stream_labels(s, id, port, sizeof(id), l);
		if (ms_latency(lat, le, cum, &sum, &count) != 0) {
			om->err = om->err != 0 ? om->err : -EINVAL;
			return;
		}
		pvp_om_histogram(om, l, nl, le, cum, PVP_METRICS_LAT_NB_LE, sum, count);
	}
	pvp_om_family(om, "pvpkit_stream_latency_jitter_seconds", PVP_OM_GAUGE, "seconds",
		      "RFC 3550 interarrival jitter of the stream.");
	json_array_foreach(streams, i, s) {
		if (!ms_num(json_object_get(s, "latency_ns"), "jitter", &v))
			continue;
		nl = ms_stream_labels(s, id, port, sizeof(id), l);
		pvp_om_value(om, l, nl, v / 1e9);
	}
}

int
pvp_metrics_from_stats(struct pvp_om *om, const char *app, const json_t *stats,
		       const json_t *lcores)
{
	const json_t *ports = json_object_get(stats, "ports"), *traffic, *tl;
	struct pvp_om_label l[2];
	char lc[24];
	double v;
	size_t i;

	if (!json_is_array(ports))
		return -EINVAL;
	if (lcores != NULL && !json_is_array(lcores))
		return -EINVAL;
	pvp_om_family(om, "pvpkit_info", PVP_OM_GAUGE, NULL,
		      "1, labelled with the app and its counter set's name.");
	l[0] = (struct pvp_om_label){"app", app};
	l[1] = (struct pvp_om_label){"name", json_string_value(json_object_get(stats, "name"))};
	pvp_om_uint(om, l, 2, 1);
	ms_ports(om, ports);
	ms_queues(om, ports, lcores);
	if (lcores != NULL)
		ms_lcores(om, ports, lcores);
	tl = json_object_get(stats, "tx_lcores");
	if (json_array_size(tl) > 0) {
		pvp_om_family(om, "pvpkit_lcore_tx_cycles_per_packet", PVP_OM_GAUGE, NULL,
			      "TSC cycles per packet of a TX lcore's bursts that sent something.");
		json_array_foreach(tl, i, traffic) {
			if (!ms_num(traffic, "cycles_per_packet", &v))
				continue;
			snprintf(lc, sizeof(lc), "%" JSON_INTEGER_FORMAT,
				 json_integer_value(json_object_get(traffic, "lcore")));
			l[0] = (struct pvp_om_label){"lcore", lc};
			pvp_om_value(om, l, 1, v);
		}
	}
	ms_members(om, ms_top, sizeof(ms_top) / sizeof(ms_top[0]), stats);
	ms_members(om, ms_traffic, sizeof(ms_traffic) / sizeof(ms_traffic[0]),
		   json_object_get(stats, "traffic"));
	if (json_is_array(json_object_get(stats, "streams")))
		ms_streams(om, json_object_get(stats, "streams"));
	return om->err;
}
