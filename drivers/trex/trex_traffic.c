/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Hop driver "trex", the trial's traffic: rates per port, the streams
 * loaded, start and stop, and the result from TRex's own figures (port
 * counters, pgid counts, generator-limited).
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "pvp_util.h"

#include "flows.h"
#include "trex_driver.h"
#include "trex_private.h"

/* ---- traffic ---- */

/* The pps each port is asked for, from the trial's rate. */
static int
trex_rates(struct coord_hop *hop, const struct coord_traffic *t, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	double avg = trex_streams_avg_size(t->size), pps = t->rate_pps, percent = -1;
	struct pvp_rate r;
	char why[256] = "";
	unsigned int k;
	int ret;

	/* Line rate only by name ("max", "100%"), never for a rate of 0. */
	ret = coord_traffic_check_rate(hop, t, err, err_len);
	if (ret < 0)
		return ret;
	if (t->rate != NULL) {
		if (pvp_rate_parse(t->rate, &r, why, sizeof(why)) < 0)
			return pvp_fail(err, err_len, -EINVAL, "hop %s: %s", hop->name, why);
		switch (r.unit) {
		case PVP_RATE_PPS:
			pps = r.value;
			break;
		case PVP_RATE_BPS_L1:
			pps = r.value / ((avg + PVP_L1_OVERHEAD) * 8);
			break;
		case PVP_RATE_BPS_L2:
			pps = r.value / (avg * 8);
			break;
		case PVP_RATE_PERCENT:
			percent = r.value;
			break;
		case PVP_RATE_MAX:
			percent = 100;
			break;
		}
	}
	h->clamped = false;
	for (k = 0; k < hop->nb_ports; k++) {
		double line = h->speed_bps[k] / ((avg + PVP_L1_OVERHEAD) * 8);

		if (percent >= 0 && line <= 0)
			return pvp_fail(err, err_len, -EINVAL,
					"hop %s: TRex port %u reports no link speed: give the rate "
					"in pps or bit/s, not as a percentage or max",
					hop->name, h->c.port_id[k]);
		h->asked_pps[k] = percent >= 0 ? line * percent / 100 : pps;
		/* Over the line TRex refuses to start: send what the line takes and
		 * say so (the contract's generator-limited, not a failed trial). */
		if (line > 0 && h->asked_pps[k] > line * (1 + 1e-9))
			h->clamped = true;
	}
	return 0;
}

/* Replace the streams on every port with the trial's traffic. */
static int
trex_load(struct coord_hop *hop, const struct coord_traffic *t, const char *type, char *err,
	  size_t err_len)
{
	struct trex_hop *h = hop->priv;
	struct trex_port_streams ps;
	char why[256] = "";
	unsigned int k, i;
	int ret;

	ret = trex_reset(hop, err, err_len);
	if (ret < 0)
		return ret;
	for (k = 0; k < hop->nb_ports; k++) {
		json_t *batch = json_array(), *out = NULL, *x;
		char e[512] = "";
		size_t j;

		ret = trex_streams_build(&h->c, k, type, t->size, t->flows, &ps, why, sizeof(why));
		if (ret < 0) {
			json_decref(batch);
			return pvp_fail(err, err_len, ret, "hop %s: %s", hop->name, why);
		}
		for (i = 0; batch != NULL && i < ps.nb; i++)
			json_array_append_new(
				batch, json_pack("{s:s,s:{s:s,s:I,s:s,s:s,s:i,s:O}}", "method",
						 "add_stream", "params", "api_h", h->api_h,
						 "port_id", (json_int_t)h->c.port_id[k], "handler",
						 h->handler[k], "profile_id", "_", "stream_id",
						 i + 1, "stream", ps.stream[i]));
		if (batch == NULL || json_array_size(batch) != ps.nb) {
			json_decref(batch);
			trex_streams_free(&ps);
			return pvp_fail(err, err_len, -ENOMEM, "hop %s: out of memory", hop->name);
		}
		ret = trex_rpc_batch(h->rpc, batch, &out, e, sizeof(e));
		json_decref(batch);
		ret = trex_err(hop, "add_stream", ret, e, err, err_len);
		json_array_foreach(out, j, x) {
			const json_t *er = json_object_get(x, "error");
			const char *m;

			if (ret < 0 || er == NULL || json_object_get(x, "jsonrpc") == NULL)
				continue;
			m = json_string_value(json_object_get(er, "specific_err"));
			if (m == NULL)
				m = json_string_value(json_object_get(er, "message"));
			snprintf(err, err_len,
				 "hop %s: TRex refused add_stream (%u B frames) on port %u: %s",
				 hop->name, ps.size[j], h->c.port_id[k],
				 m != NULL ? m : "no message");
			ret = -EPROTO;
		}
		json_decref(out);
		if (ret == 0 && h->c.fs != TREX_FS_OFF)
			for (i = 0; i < ps.nb; i++) {
				h->pgid[h->nb_pgids] = ps.pgid[i];
				h->pgid_port[h->nb_pgids] = h->c.port_id[k];
				h->pgid_size[h->nb_pgids] = ps.size[i];
				h->nb_pgids++;
			}
		trex_streams_free(&ps);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int
trex_traffic_start(struct coord_hop *hop, const struct coord_traffic *t, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	const char *type = t->flow_type != NULL	     ? t->flow_type
			   : h->flow_type[0] != '\0' ? h->flow_type
						     : "normal";
	json_t *res = NULL;
	char key[sizeof(h->loaded)];
	unsigned int k;
	int ret;

	if (t->profile != NULL)
		return pvp_fail(
			err, err_len, -ENOTSUP,
			"hop %s: a pvpkit-gen profile (--profile) cannot be sent by a TRex tester; "
			"give --size and --flows",
			hop->name);
	if (!(t->duration_s > 0))
		return pvp_fail(err, err_len, -EINVAL, "hop %s: the trial needs a duration",
				hop->name);
	ret = trex_rates(hop, t, err, err_len);
	if (ret < 0)
		return ret;
	snprintf(key, sizeof(key), "%u:%u:%s", t->size, t->flows, type);
	if (strcmp(key, h->loaded) != 0) {
		ret = trex_load(hop, t, type, err, err_len);
		if (ret < 0) {
			h->loaded[0] = '\0';
			return ret;
		}
		snprintf(h->loaded, sizeof(h->loaded), "%s", key);
	}
	ret = trex_port_stats(hop, &res, err, err_len);
	for (k = 0; ret == 0 && k < hop->nb_ports; k++) {
		const json_t *st = json_array_get(res, k);

		ret = trex_counter(hop, st, "opackets", h->c.port_id[k], &h->base_opackets[k], err,
				   err_len);
		if (ret == 0)
			ret = trex_counter(hop, st, "oerrors", h->c.port_id[k], &h->base_oerrors[k],
					   err, err_len);
	}
	json_decref(res);
	if (ret < 0)
		return ret;
	for (k = 0; k < hop->nb_ports; k++) {
		double line =
			h->speed_bps[k] / ((trex_streams_avg_size(t->size) + PVP_L1_OVERHEAD) * 8);
		bool full = line > 0 && h->asked_pps[k] > line;

		ret = trex_do(hop, "start_traffic",
			      json_pack("{s:I,s:s,s:s,s:{s:s,s:f,s:s},s:f,s:b}", "port_id",
					(json_int_t)h->c.port_id[k], "handler", h->handler[k],
					"profile_id", "_", "mul", "type",
					full ? "percentage" : "pps", "value",
					full ? 100.0 : h->asked_pps[k], "op", "abs", "duration",
					t->duration_s + h->c.backstop_s, "force", 0),
			      err, err_len);
		if (ret < 0) {
			char e2[256];
			json_t *r2 = NULL;

			/* Nothing may be left sending: stop the ports started so far. */
			trex_per_port(hop, "stop_traffic", json_pack("{s:s}", "profile_id", "_"),
				      true, &r2, e2, sizeof(e2));
			json_decref(r2);
			return ret;
		}
	}
	h->t_start_ns = pvp_now_ns();
	h->running = true;
	return 0;
}

int
trex_traffic_stop(struct coord_hop *hop, struct coord_traffic_result *res, char *err,
		  size_t err_len)
{
	struct trex_hop *h = hop->priv;
	double elapsed, asked = 0, tx_pps = 0, achieved = 0;
	uint64_t t_pre, sent, v;
	json_t *pre = NULL, *post = NULL;
	char e[512] = "";
	bool oerrors = false;
	unsigned int k;
	int ret, ret2;

	h->running = false;
	/* TRex's own rate while it still sends, then stop; a failure to stop
	 * is the one reported (e is kept for when stopping works). */
	t_pre = pvp_now_ns();
	ret = trex_port_stats(hop, &pre, e, sizeof(e));
	ret2 = trex_per_port(hop, "stop_traffic", json_pack("{s:s}", "profile_id", "_"), true,
			     &post, err, err_len);
	json_decref(post);
	post = NULL;
	if (ret2 < 0) {
		json_decref(pre);
		return ret2;
	}
	if (ret == 0)
		ret = trex_port_stats(hop, &post, err, err_len);
	if (ret < 0) {
		json_decref(pre);
		pvp_err(err, err_len, "%s", e);
		return ret;
	}
	elapsed = (double)(t_pre - h->t_start_ns) / 1e9;
	for (k = 0; k < hop->nb_ports; k++) {
		const json_t *a = json_array_get(pre, k), *x = json_object_get(a, "m_total_tx_pps");

		asked += h->asked_pps[k];
		h->last_tx_pps[k] = json_is_number(x) ? json_number_value(x) : 0;
		tx_pps += h->last_tx_pps[k];
		ret = trex_counter(hop, a, "opackets", h->c.port_id[k], &v, err, err_len);
		if (ret < 0)
			break;
		sent = v >= h->base_opackets[k] ? v - h->base_opackets[k] : 0;
		achieved += elapsed > 0 ? (double)sent / elapsed : 0;
		ret = trex_counter(hop, json_array_get(post, k), "oerrors", h->c.port_id[k], &v,
				   err, err_len);
		if (ret < 0)
			break;
		if (v > h->base_oerrors[k])
			oerrors = true;
	}
	json_decref(pre);
	json_decref(post);
	if (ret < 0)
		return ret;
	res->requested_pps = asked;
	res->achieved_pps = achieved;
	res->generator_limited = h->clamped || oerrors ||
				 (achieved < asked * (1 - TREX_LIMIT_TOLERANCE) &&
				  tx_pps < asked * (1 - TREX_LIMIT_TOLERANCE));
	return 0;
}

/*
 * A pgid's counter summed over the ports, from a get_pgid_stats entry,
 * into @p sum. A per-port count that is not a whole number in
 * 0..2^63-1, or a sum past it, is a bad answer: sums that wrapped once
 * read as tx 3, rx 2^63-1, lost 0.
 */
static int
trex_pg_sum(struct coord_hop *hop, const json_t *pg, unsigned int pgid, const char *key,
	    uint64_t *sum, char *err, size_t err_len)
{
	const json_t *o = json_object_get(pg, key), *v;
	const char *port;

	*sum = 0;
	json_object_foreach((json_t *)o, port, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return pvp_fail(err, err_len, -EPROTO,
					"hop %s: bad answer from TRex: get_pgid_stats of pgid %u "
					"has \"%s\" of port %s out of 0..2^63-1",
					hop->name, pgid, key, port);
		/* Both below 2^63: their sum fits 64 bits. */
		*sum += (uint64_t)json_integer_value(v);
		if (*sum > INT64_MAX)
			return pvp_fail(err, err_len, -EPROTO,
					"hop %s: bad answer from TRex: get_pgid_stats of pgid %u "
					"has \"%s\" summed over its ports past 2^63-1",
					hop->name, pgid, key);
	}
	return 0;
}

/* A pgid counter since the baseline @p base (NULL: since the load). */
static int
trex_pg_since(struct coord_hop *hop, const json_t *pg, const json_t *base, unsigned int pgid,
	      const char *key, uint64_t *since, char *err, size_t err_len)
{
	uint64_t now, then = 0;
	int ret;

	ret = trex_pg_sum(hop, pg, pgid, key, &now, err, err_len);
	if (ret == 0 && base != NULL)
		ret = trex_pg_sum(hop, base, pgid, key, &then, err, err_len);
	/* Counters that went back restarted: all of now is new. */
	*since = now >= then ? now - then : now;
	return ret;
}

int
trex_traffic_result(struct coord_hop *hop, struct coord_traffic_result *res, char *err,
		    size_t err_len)
{
	struct trex_hop *h = hop->priv;
	json_t *st = NULL, *arr;
	unsigned int i;
	int ret;

	if (h->c.fs == TREX_FS_OFF || h->nb_pgids == 0)
		return 0;
	ret = trex_pgid_stats(hop, &st, err, err_len);
	if (ret < 0)
		return ret;
	arr = json_array();
	for (i = 0; arr != NULL && i < h->nb_pgids; i++) {
		char key[16];
		const json_t *fs, *base = NULL, *lat;
		uint64_t tx = 0, rx = 0, txb = 0, rxb = 0;
		json_int_t ver, bver;
		json_t *o;

		snprintf(key, sizeof(key), "%u", h->pgid[i]);
		fs = json_object_get(json_object_get(st, "flow_stats"), key);
		if (fs == NULL)
			continue;
		ver = json_integer_value(json_object_get(json_object_get(st, "ver_id"), key));
		bver = json_integer_value(
			json_object_get(json_object_get(h->pg_base, "ver_id"), key));
		/* A new ver_id: the counters restarted since the baseline. */
		if (h->pg_base != NULL && ver == bver)
			base = json_object_get(json_object_get(h->pg_base, "flow_stats"), key);
		ret = trex_pg_since(hop, fs, base, h->pgid[i], "tp", &tx, err, err_len);
		if (ret == 0)
			ret = trex_pg_since(hop, fs, base, h->pgid[i], "rp", &rx, err, err_len);
		if (ret == 0)
			ret = trex_pg_since(hop, fs, base, h->pgid[i], "tb", &txb, err, err_len);
		if (ret == 0)
			ret = trex_pg_since(hop, fs, base, h->pgid[i], "rb", &rxb, err, err_len);
		if (ret < 0)
			break;
		o = json_pack("{s:I,s:s+,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "stream",
			      (json_int_t)h->pgid[i], "name", "trex pgid ", key, "port",
			      (json_int_t)h->pgid_port[i], "size", (json_int_t)h->pgid_size[i],
			      "tx_packets", (json_int_t)tx, "tx_bytes", (json_int_t)txb,
			      "rx_packets", (json_int_t)rx, "rx_bytes", (json_int_t)rxb, "lost",
			      (json_int_t)(tx > rx ? tx - rx : 0));
		lat = json_object_get(json_object_get(json_object_get(st, "latency"), key), "lat");
		if (o != NULL && lat != NULL)
			/* TRex gives µs; pvpkit's streams carry ns. Since the load,
			 * not since clear(): TRex has no baseline for these. */
			json_object_set_new(
				o, "latency_ns",
				json_pack(
					"{s:f,s:f,s:f,s:f}", "min",
					json_number_value(json_object_get(lat, "total_min")) * 1e3,
					"avg",
					json_number_value(json_object_get(lat, "average")) * 1e3,
					"max",
					json_number_value(json_object_get(lat, "total_max")) * 1e3,
					"jitter",
					json_number_value(json_object_get(lat, "jit")) * 1e3));
		json_array_append_new(arr, o);
	}
	json_decref(st);
	if (ret < 0) {
		json_decref(arr);
		return ret;
	}
	if (arr == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "hop %s: out of memory", hop->name);
	json_decref(res->streams);
	res->streams = arr;
	return 0;
}
