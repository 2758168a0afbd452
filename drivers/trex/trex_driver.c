/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Hop driver "trex": a TRex server (or pvpkit-gen --trex) as the trial's
 * traffic source and a hop with counters, spoken to as TRex's own Python
 * client does: api_sync_v2, acquire, streams, start/stop, port and pgid
 * statistics (doc/trex.rst).
 *
 * TRex's counters only grow (its clear_stats is a client-side baseline),
 * which is what the coordinator wants: it works on differences of
 * snapshots. Per-stream counts (pgids) restart when streams are loaded
 * again, under a new ver_id, so the baseline taken at clear() is kept
 * only while the ver_id is the same, as TRex's client does.
 *
 * The coordinator times the trial and stops the traffic itself; TRex is
 * also given a duration (the trial's plus "backstop_s"), so a coordinator
 * that dies mid-trial does not leave a TRex box sending for ever.
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

#include "coord_flows.h"
#include "trex_driver.h"
#include "trex_private.h"

/* API class and version asked: any STL 5.x server accepts 5.0 (TRex v2.90+). */
#define TREX_API_CLASS "STL"
#define TREX_API_MAJOR 5
#define TREX_API_MINOR 0
/*
 * Generator-limited: TRex's own TX rate just before the stop and the rate
 * its counters give over the run both fell short of the rate asked by
 * more than this share (one alone can be off: a rate window that has
 * not filled yet, the start's round trip in a short trial).
 */
#define TREX_LIMIT_TOLERANCE 0.02
/* Streams of one hop: a port's streams times its ports. */
#define TREX_MAX_STREAMS (COORD_MAX_PORTS * TREX_MAX_PORT_STREAMS)

/* State of one trex hop (hop->priv). */
struct trex_hop {
	struct trex_conf c;			  /* topology members */
	struct trex_rpc *rpc;			  /* the REQ connection */
	char api_h[64];				  /* from api_sync_v2; "" = handshake due */
	uint32_t session_id;			  /* ours, for acquire */
	bool owned[COORD_MAX_PORTS];		  /* acquired (handler valid) */
	char handler[COORD_MAX_PORTS][64];	  /* from acquire */
	double speed_bps[COORD_MAX_PORTS];	  /* link speed, 0 = not reported */
	bool ours[COORD_MAX_PORTS];		  /* held under our user name already */
	char flow_type[8];			  /* from install_flows, "" = normal */
	char loaded[64];			  /* traffic on the server, "" = none known */
	unsigned int nb_pgids;			  /* streams with flow_stats loaded */
	uint32_t pgid[TREX_MAX_STREAMS];	  /* their pgids */
	unsigned int pgid_port[TREX_MAX_STREAMS]; /* their topology port */
	unsigned int pgid_size[TREX_MAX_STREAMS]; /* their frame size with FCS */
	json_t *pg_base;			  /* get_pgid_stats at clear(), or NULL */
	bool running;				  /* between traffic_start and _stop */
	bool clamped;				  /* rate asked over the line: sent line rate */
	double asked_pps[COORD_MAX_PORTS];	  /* per port, as asked */
	uint64_t base_opackets[COORD_MAX_PORTS];  /* at the start */
	uint64_t base_oerrors[COORD_MAX_PORTS];	  /* at the start */
	uint64_t t_start_ns;			  /* after the last start_traffic */
	double last_tx_pps[COORD_MAX_PORTS];	  /* m_total_tx_pps before the stop */
};

/* ---- calls ---- */

/*
 * Turn a transport result into the contract's error line and code:
 * unreachable as the core expects it, refusals and bad answers with the
 * method named.
 */
static int
trex_err(struct coord_hop *hop, const char *method, int ret, const char *e, char *err,
	 size_t err_len)
{
	struct trex_hop *h = hop->priv;

	switch (ret) {
	case 0:
		return 0;
	case -ENOTCONN:
	case -ETIMEDOUT:
		/* A server that went away may come back another: handshake again. */
		h->api_h[0] = '\0';
		snprintf(err, err_len, "hop %s unreachable: %s", hop->name, e);
		return ret;
	case -EREMOTEIO:
		snprintf(err, err_len, "hop %s: TRex refused %s: %s", hop->name, method, e);
		return -EPROTO;
	case -EBADMSG:
		snprintf(err, err_len, "hop %s: bad answer from TRex at %s: %s", hop->name,
			 trex_rpc_endpoint(h->rpc), e);
		return -EPROTO;
	default:
		snprintf(err, err_len, "hop %s: %s: %s", hop->name, method, e);
		return ret;
	}
}

static int trex_handshake(struct coord_hop *hop, char *err, size_t err_len);

/*
 * One call with api_h; @p params is stolen (NULL: {}). On a refusal
 * (-EREMOTEIO) the server's own words are in @p why, so that a caller
 * can word it itself; every other error is worded in @p err the common
 * way (trex_err()).
 */
static int
trex_call_why(struct coord_hop *hop, const char *method, json_t *params, json_t **res, char *why,
	      size_t why_len, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	int ret;

	*res = NULL;
	if (h->api_h[0] == '\0') {
		ret = trex_handshake(hop, err, err_len);
		if (ret < 0) {
			json_decref(params);
			return ret;
		}
	}
	if (params == NULL)
		params = json_object();
	if (params == NULL || json_object_set_new(params, "api_h", json_string(h->api_h)) < 0) {
		json_decref(params);
		snprintf(err, err_len, "hop %s: out of memory", hop->name);
		return -ENOMEM;
	}
	ret = trex_rpc_call(h->rpc, method, params, res, why, why_len);
	json_decref(params);
	if (ret == -EREMOTEIO)
		return ret;
	return trex_err(hop, method, ret, why, err, err_len);
}

static int
trex_call(struct coord_hop *hop, const char *method, json_t *params, json_t **res, char *err,
	  size_t err_len)
{
	char why[512] = "";
	int ret;

	ret = trex_call_why(hop, method, params, res, why, sizeof(why), err, err_len);
	if (ret == -EREMOTEIO)
		return trex_err(hop, method, ret, why, err, err_len);
	return ret;
}

/* A call whose result does not matter. */
static int
trex_do(struct coord_hop *hop, const char *method, json_t *params, char *err, size_t err_len)
{
	json_t *res = NULL;
	int ret = trex_call(hop, method, params, &res, err, err_len);

	json_decref(res);
	return ret;
}

/*
 * The same method for every topology port in one batch (TRex's client
 * batches per-port calls the same way); @p extra (stolen, may be NULL)
 * is merged into each port's params, "handler" added when @p owned.
 * @p res gets the array of results; an error of any port fails the call.
 */
static int
trex_per_port(struct coord_hop *hop, const char *method, json_t *extra, bool owned, json_t **res,
	      char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	json_t *batch = json_array(), *out = NULL, *x;
	char e[512] = "";
	unsigned int k;
	size_t i;
	int ret;

	if (h->api_h[0] == '\0') {
		ret = trex_handshake(hop, err, err_len);
		if (ret < 0)
			goto out;
	}
	for (k = 0; batch != NULL && k < h->c.nb_ports; k++) {
		json_t *p = json_pack("{s:I,s:s}", "port_id", (json_int_t)h->c.port_id[k], "api_h",
				      h->api_h);

		if (p != NULL && owned)
			json_object_set_new(p, "handler", json_string(h->handler[k]));
		if (p != NULL && extra != NULL)
			json_object_update(p, extra);
		if (p == NULL || json_array_append_new(batch, json_pack("{s:s,s:o}", "method",
									method, "params", p)) < 0) {
			json_decref(batch);
			batch = NULL;
		}
	}
	if (batch == NULL) {
		snprintf(err, err_len, "hop %s: out of memory", hop->name);
		ret = -ENOMEM;
		goto out;
	}
	ret = trex_rpc_batch(h->rpc, batch, &out, e, sizeof(e));
	ret = trex_err(hop, method, ret, e, err, err_len);
	if (ret < 0)
		goto out;
	json_array_foreach(out, i, x) {
		const json_t *er = json_object_get(x, "error");

		if (er != NULL && json_object_get(x, "jsonrpc") != NULL) {
			const char *m = json_string_value(json_object_get(er, "specific_err"));

			if (m == NULL)
				m = json_string_value(json_object_get(er, "message"));
			snprintf(err, err_len, "hop %s: TRex refused %s on port %u: %s", hop->name,
				 method, h->c.port_id[i], m != NULL ? m : "no message");
			ret = -EPROTO;
			goto out;
		}
	}
	*res = out;
	out = NULL;
out:
	json_decref(out);
	json_decref(batch);
	json_decref(extra);
	return ret;
}

static int
trex_handshake(struct coord_hop *hop, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	json_t *params, *res = NULL;
	const char *api_h;
	char e[512] = "";
	int ret;

	params = json_pack("{s:s,s:i,s:i}", "name", TREX_API_CLASS, "major", TREX_API_MAJOR,
			   "minor", TREX_API_MINOR);
	if (params == NULL) {
		snprintf(err, err_len, "hop %s: out of memory", hop->name);
		return -ENOMEM;
	}
	ret = trex_rpc_call(h->rpc, "api_sync_v2", params, &res, e, sizeof(e));
	json_decref(params);
	if (ret == -EREMOTEIO) {
		snprintf(err, err_len, "hop %s: TRex refused the API handshake (%s %d.%d): %s",
			 hop->name, TREX_API_CLASS, TREX_API_MAJOR, TREX_API_MINOR, e);
		return -EPROTO;
	}
	ret = trex_err(hop, "api_sync_v2", ret, e, err, err_len);
	if (ret < 0)
		return ret;
	api_h = json_string_value(json_object_get(res, "api_h"));
	if (api_h == NULL || api_h[0] == '\0' || strlen(api_h) >= sizeof(h->api_h)) {
		json_decref(res);
		snprintf(err, err_len,
			 "hop %s: bad answer from TRex at %s: api_sync_v2 gave no api_h", hop->name,
			 trex_rpc_endpoint(h->rpc));
		return -EPROTO;
	}
	snprintf(h->api_h, sizeof(h->api_h), "%s", api_h);
	json_decref(res);
	return 0;
}

/* A counter of a get_port_stats result; missing or negative is a bad answer. */
static int
trex_counter(struct coord_hop *hop, const json_t *st, const char *name, unsigned int port,
	     uint64_t *v, char *err, size_t err_len)
{
	const json_t *x = json_object_get(st, name);

	if (!json_is_number(x) || json_number_value(x) < 0) {
		snprintf(err, err_len,
			 "hop %s: bad answer from TRex: get_port_stats of port %u has no \"%s\"",
			 hop->name, port, name);
		return -EPROTO;
	}
	*v = json_is_integer(x) ? (uint64_t)json_integer_value(x) : (uint64_t)json_real_value(x);
	return 0;
}

/* ---- open / close ---- */

static void
trex_release_all(struct coord_hop *hop)
{
	struct trex_hop *h = hop->priv;
	char e[512];
	unsigned int k;

	/* Leave the ports as a user finds them after TRex's client: idle, free. */
	for (k = 0; k < h->c.nb_ports; k++) {
		if (!h->owned[k])
			continue;
		trex_do(hop, "stop_traffic",
			json_pack("{s:I,s:s,s:s}", "port_id", (json_int_t)h->c.port_id[k],
				  "handler", h->handler[k], "profile_id", "_"),
			e, sizeof(e));
		trex_do(hop, "remove_all_streams",
			json_pack("{s:I,s:s,s:s}", "port_id", (json_int_t)h->c.port_id[k],
				  "handler", h->handler[k], "profile_id", "_"),
			e, sizeof(e));
		trex_do(hop, "release",
			json_pack("{s:I,s:s}", "port_id", (json_int_t)h->c.port_id[k], "handler",
				  h->handler[k]),
			e, sizeof(e));
		h->owned[k] = false;
	}
}

static void
trex_close(struct coord_hop *hop)
{
	struct trex_hop *h = hop->priv;
	char e[512];

	if (h == NULL)
		return;
	/* A server that went away gets one handshake, not one wait per call. */
	if (h->rpc != NULL && (h->api_h[0] != '\0' || trex_handshake(hop, e, sizeof(e)) == 0))
		trex_release_all(hop);
	trex_rpc_close(h->rpc);
	json_decref(h->pg_base);
	free(h);
	hop->priv = NULL;
}

/*
 * Acquire every port; the port's owner is named when TRex refuses. A
 * port held under our own user name is an earlier pvpkit run's that
 * could not release it (killed, server unreachable at its end): taken
 * back without "force", or every later run would need it.
 */
static int
trex_acquire(struct coord_hop *hop, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	unsigned int k;
	int ret;

	for (k = 0; k < h->c.nb_ports; k++) {
		json_t *res = NULL;
		char why[512] = "";
		const char *hd;

		ret = trex_call_why(hop, "acquire",
				    json_pack("{s:I,s:s,s:I,s:b}", "port_id",
					      (json_int_t)h->c.port_id[k], "user", h->c.user,
					      "session_id", (json_int_t)h->session_id, "force",
					      h->c.force || h->ours[k]),
				    &res, why, sizeof(why), err, err_len);
		if (ret == -EREMOTEIO) {
			snprintf(err, err_len, "hop %s: TRex port %u cannot be acquired: %s%s",
				 hop->name, h->c.port_id[k], why,
				 h->c.force
					 ? ""
					 : " (\"force\": true in the hop takes it from its owner)");
			return -EBUSY;
		}
		if (ret < 0)
			return ret;
		hd = json_string_value(res);
		if (hd == NULL || hd[0] == '\0' || strlen(hd) >= sizeof(h->handler[k])) {
			json_decref(res);
			snprintf(err, err_len,
				 "hop %s: bad answer from TRex: acquire of port %u gave no handler",
				 hop->name, h->c.port_id[k]);
			return -EPROTO;
		}
		snprintf(h->handler[k], sizeof(h->handler[k]), "%s", hd);
		h->owned[k] = true;
		json_decref(res);
	}
	return 0;
}

/* Stop the ports and drop every stream on them: nothing of another run is left. */
static int
trex_reset(struct coord_hop *hop, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	json_t *res = NULL;
	int ret;

	ret = trex_per_port(hop, "stop_traffic", json_pack("{s:s}", "profile_id", "_"), true, &res,
			    err, err_len);
	json_decref(res);
	res = NULL;
	if (ret == 0)
		ret = trex_per_port(hop, "remove_all_streams",
				    json_pack("{s:s}", "profile_id", "_"), true, &res, err,
				    err_len);
	json_decref(res);
	h->loaded[0] = '\0';
	h->nb_pgids = 0;
	return ret;
}

/* Port count check and each port's link speed (percentages, line rate). */
static int
trex_ports_info(struct coord_hop *hop, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	json_t *res = NULL, *x;
	json_int_t count;
	unsigned int k;
	size_t i;
	int ret;

	ret = trex_call(hop, "get_system_info", NULL, &res, err, err_len);
	if (ret < 0)
		return ret;
	x = json_object_get(res, "port_count");
	count = json_is_integer(x) ? json_integer_value(x) : -1;
	json_decref(res);
	if (count < 0) {
		snprintf(err, err_len,
			 "hop %s: bad answer from TRex: get_system_info has no \"port_count\"",
			 hop->name);
		return -EPROTO;
	}
	for (k = 0; k < h->c.nb_ports; k++)
		if ((json_int_t)h->c.port_id[k] >= count) {
			snprintf(err, err_len, "hop %s: no TRex port %u (the server has %d ports)",
				 hop->name, h->c.port_id[k], (int)count);
			return -ENOENT;
		}
	res = NULL;
	ret = trex_per_port(hop, "get_port_status", NULL, false, &res, err, err_len);
	if (ret < 0)
		return ret;
	json_array_foreach(res, i, x) {
		const json_t *sp = json_object_get(json_object_get(x, "attr"), "speed");

		const char *owner = json_string_value(json_object_get(x, "owner"));

		h->ours[i] = owner != NULL && strcmp(owner, h->c.user) == 0;
		/* TRex reports Gbit/s. */
		h->speed_bps[i] = json_is_number(sp) && json_number_value(sp) > 0
					  ? json_number_value(sp) * 1e9
					  : 0;
	}
	json_decref(res);
	return 0;
}

static int
trex_open(struct coord_hop *hop, const json_t *conf, char *err, size_t err_len)
{
	struct trex_hop *h;
	char path[64], why[400], ep[300];
	int ret;

	h = calloc(1, sizeof(*h));
	if (h == NULL) {
		snprintf(err, err_len, "hop %s: out of memory", hop->name);
		return -ENOMEM;
	}
	if (trex_conf_parse(conf, &h->c, path, sizeof(path), why, sizeof(why)) < 0) {
		snprintf(err, err_len, "hop %s: %s%s%s", hop->name, path,
			 path[0] != '\0' ? ": " : "", why);
		free(h);
		return -EINVAL;
	}
	snprintf(ep, sizeof(ep),
		 strchr(h->c.server, ':') != NULL && h->c.server[0] != '[' ? "tcp://[%s]:%u"
									   : "tcp://%s:%u",
		 h->c.server, h->c.sync_port);
	h->rpc = trex_rpc_open(ep, h->c.timeout_ms, why, sizeof(why));
	if (h->rpc == NULL) {
		snprintf(err, err_len, "hop %s: %s", hop->name, why);
		free(h);
		return -ENOTSUP;
	}
	/* TRex tells sessions apart by this number only: make it unlikely to repeat. */
	h->session_id = (uint32_t)(pvp_now_ns() ^ ((uint64_t)getpid() << 16)) & 0x7fffffff;
	hop->priv = h;
	ret = trex_handshake(hop, err, err_len);
	if (ret == 0)
		ret = trex_ports_info(hop, err, err_len);
	if (ret == 0)
		ret = trex_acquire(hop, err, err_len);
	if (ret == 0)
		ret = trex_reset(hop, err, err_len);
	if (ret < 0) {
		/* Give back what was taken, say nothing more: err holds the cause. */
		if (h->api_h[0] != '\0')
			trex_release_all(hop);
		trex_rpc_close(h->rpc);
		free(h);
		hop->priv = NULL;
	}
	return ret;
}

/* ---- counters ---- */

static int
trex_port_stats(struct coord_hop *hop, json_t **res, char *err, size_t err_len)
{
	return trex_per_port(hop, "get_port_stats", NULL, false, res, err, err_len);
}

static int
trex_snapshot(struct coord_hop *hop, struct coord_snap *snap, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	json_t *res = NULL, *st;
	uint64_t ierrors, oerrors;
	unsigned int k;
	int ret;

	ret = trex_port_stats(hop, &res, err, err_len);
	if (ret < 0)
		return ret;
	memset(snap, 0, sizeof(*snap));
	snap->t_ns = pvp_now_ns();
	snap->nb_ports = h->c.nb_ports;
	for (k = 0; k < h->c.nb_ports; k++) {
		struct coord_port *p = &snap->port[k];

		st = json_array_get(res, k);
		snprintf(p->name, sizeof(p->name), "%s", h->c.port_name[k]);
		if (trex_counter(hop, st, "ipackets", h->c.port_id[k], &p->rx_packets, err,
				 err_len) < 0 ||
		    trex_counter(hop, st, "ibytes", h->c.port_id[k], &p->rx_bytes, err, err_len) <
			    0 ||
		    trex_counter(hop, st, "opackets", h->c.port_id[k], &p->tx_packets, err,
				 err_len) < 0 ||
		    trex_counter(hop, st, "obytes", h->c.port_id[k], &p->tx_bytes, err, err_len) <
			    0 ||
		    trex_counter(hop, st, "ierrors", h->c.port_id[k], &ierrors, err, err_len) < 0 ||
		    trex_counter(hop, st, "oerrors", h->c.port_id[k], &oerrors, err, err_len) < 0) {
			json_decref(res);
			return -EPROTO;
		}
		/*
		 * ierrors are frames that reached TRex's port and were lost
		 * there (missed, no buffer, bad): the tester's own loss on
		 * receive. oerrors were never sent: a TX error, no loss.
		 */
		p->rx_dropped = ierrors;
		p->tx_errors = oerrors;
		p->nb_reasons = 0;
		coord_port_add_named_reason(p, "rx_ierrors", COORD_SIDE_RX, ierrors);
		coord_port_add_named_reason(p, "tx_oerrors", COORD_SIDE_TX, oerrors);
	}
	json_decref(res);
	return 0;
}

static int
trex_pgid_stats(struct coord_hop *hop, json_t **res, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	json_t *ids = json_array();
	unsigned int i;

	for (i = 0; ids != NULL && i < h->nb_pgids; i++)
		json_array_append_new(ids, json_integer(h->pgid[i]));
	if (ids == NULL) {
		snprintf(err, err_len, "hop %s: out of memory", hop->name);
		return -ENOMEM;
	}
	return trex_call(hop, "get_pgid_stats", json_pack("{s:o}", "pgids", ids), res, err,
			 err_len);
}

/* Per-stream counts restart here: keep TRex's pgid counters as the baseline. */
static int
trex_clear(struct coord_hop *hop, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	json_t *res = NULL;
	int ret;

	json_decref(h->pg_base);
	h->pg_base = NULL;
	if (h->c.fs == TREX_FS_OFF || h->nb_pgids == 0)
		return 0;
	ret = trex_pgid_stats(hop, &res, err, err_len);
	if (ret < 0)
		return ret;
	h->pg_base = res;
	return 0;
}

/* ---- traffic ---- */

/* The pps each port is asked for, from the trial's rate. */
static int
trex_rates(struct coord_hop *hop, const struct coord_traffic *t, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	double avg = trex_streams_avg_size(t->size), pps = t->rate_pps, percent = -1;
	struct pvp_rate r;
	char why[256];
	unsigned int k;

	if (t->rate != NULL) {
		if (pvp_rate_parse(t->rate, &r, why, sizeof(why)) < 0) {
			snprintf(err, err_len, "hop %s: %s", hop->name, why);
			return -EINVAL;
		}
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
	} else if (pps <= 0) {
		percent = 100;
	}
	h->clamped = false;
	for (k = 0; k < h->c.nb_ports; k++) {
		double line = h->speed_bps[k] / ((avg + PVP_L1_OVERHEAD) * 8);

		if (percent >= 0 && line <= 0) {
			snprintf(err, err_len,
				 "hop %s: TRex port %u reports no link speed: give the rate in pps "
				 "or bit/s, not as a percentage or max",
				 hop->name, h->c.port_id[k]);
			return -EINVAL;
		}
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
	char why[256];
	unsigned int k, i;
	int ret;

	ret = trex_reset(hop, err, err_len);
	if (ret < 0)
		return ret;
	for (k = 0; k < h->c.nb_ports; k++) {
		json_t *batch = json_array(), *out = NULL, *x;
		char e[512] = "";
		size_t j;

		ret = trex_streams_build(&h->c, k, type, t->size, t->flows, &ps, why, sizeof(why));
		if (ret < 0) {
			json_decref(batch);
			snprintf(err, err_len, "hop %s: %s", hop->name, why);
			return ret;
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
			snprintf(err, err_len, "hop %s: out of memory", hop->name);
			return -ENOMEM;
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

static int
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

	if (t->profile != NULL) {
		snprintf(
			err, err_len,
			"hop %s: a pvpkit-gen profile (--profile) cannot be sent by a TRex tester; "
			"give --size and --flows",
			hop->name);
		return -ENOTSUP;
	}
	if (!(t->duration_s > 0)) {
		snprintf(err, err_len, "hop %s: the trial needs a duration", hop->name);
		return -EINVAL;
	}
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
	for (k = 0; ret == 0 && k < h->c.nb_ports; k++) {
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
	for (k = 0; k < h->c.nb_ports; k++) {
		double line =
			h->speed_bps[k] / ((trex_streams_avg_size(t->size) + PVP_L1_OVERHEAD) * 8);
		json_t *mul;

		if (line > 0 && h->asked_pps[k] > line)
			mul = json_pack("{s:s,s:f,s:s}", "type", "percentage", "value", 100.0, "op",
					"abs");
		else
			mul = json_pack("{s:s,s:f,s:s}", "type", "pps", "value", h->asked_pps[k],
					"op", "abs");
		ret = trex_do(hop, "start_traffic",
			      json_pack("{s:I,s:s,s:s,s:o,s:f,s:b}", "port_id",
					(json_int_t)h->c.port_id[k], "handler", h->handler[k],
					"profile_id", "_", "mul", mul, "duration",
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

static int
trex_traffic_stop(struct coord_hop *hop, struct coord_traffic_result *res, char *err,
		  size_t err_len)
{
	struct trex_hop *h = hop->priv;
	double elapsed, asked = 0, tx_pps = 0, achieved = 0;
	uint64_t t_pre, sent, v;
	json_t *pre = NULL, *post = NULL;
	bool oerrors = false;
	unsigned int k;
	int ret, ret2;

	h->running = false;
	/* TRex's own rate while it still sends, then stop. */
	t_pre = pvp_now_ns();
	ret = trex_port_stats(hop, &pre, err, err_len);
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
		return ret;
	}
	elapsed = (double)(t_pre - h->t_start_ns) / 1e9;
	for (k = 0; k < h->c.nb_ports; k++) {
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

/* A pgid's counter summed over the ports, from a get_pgid_stats entry. */
static uint64_t
trex_pg_sum(const json_t *pg, const char *key)
{
	const json_t *o = json_object_get(pg, key), *v;
	const char *port;
	uint64_t sum = 0;

	json_object_foreach((json_t *)o, port, v)
		if (json_is_integer(v) && json_integer_value(v) > 0)
			sum += (uint64_t)json_integer_value(v);
	return sum;
}

/* A pgid counter since the baseline @p base (NULL: since the load). */
static uint64_t
trex_pg_since(const json_t *pg, const json_t *base, const char *key)
{
	uint64_t now = trex_pg_sum(pg, key), then = base != NULL ? trex_pg_sum(base, key) : 0;

	/* Counters that went back restarted: all of now is new. */
	return now >= then ? now - then : now;
}

static int
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
		uint64_t tx, rx, txb, rxb;
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
		tx = trex_pg_since(fs, base, "tp");
		rx = trex_pg_since(fs, base, "rp");
		txb = trex_pg_since(fs, base, "tb");
		rxb = trex_pg_since(fs, base, "rb");
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
	if (arr == NULL) {
		snprintf(err, err_len, "hop %s: out of memory", hop->name);
		return -ENOMEM;
	}
	json_decref(res->streams);
	res->streams = arr;
	return 0;
}

/* A source, not a vswitch: remember the rule type for the next trials' traffic. */
static int
trex_install_flows(struct coord_hop *hop, const char *rule_type, unsigned int flows, char *err,
		   size_t err_len)
{
	struct trex_hop *h = hop->priv;

	(void)flows;
	if (rule_type == NULL || coord_flow_type_matched(rule_type) < 0) {
		snprintf(err, err_len, "hop %s: unknown flow type \"%s\" (normal, l2, l3, l4)",
			 hop->name, rule_type != NULL ? rule_type : "");
		return -EINVAL;
	}
	snprintf(h->flow_type, sizeof(h->flow_type), "%s",
		 strcmp(rule_type, "normal") == 0 ? "" : rule_type);
	return 0;
}

/* The server's version, where it is, and what it did in the last run. */
static json_t *
trex_context(struct coord_hop *hop)
{
	struct trex_hop *h = hop->priv;
	json_t *ver = NULL, *ports = json_array(), *ctx;
	char err[512];
	unsigned int k;

	if (trex_call(hop, "get_version", NULL, &ver, err, sizeof(err)) < 0)
		ver = json_null();
	for (k = 0; ports != NULL && k < h->c.nb_ports; k++)
		json_array_append_new(ports,
				      json_pack("{s:s,s:I,s:f,s:f}", "name", h->c.port_name[k],
						"id", (json_int_t)h->c.port_id[k], "speed_gbps",
						h->speed_bps[k] / 1e9, "tx_pps_before_stop",
						h->last_tx_pps[k]));
	ctx = json_pack("{s:s,s:o,s:o*}", "server", trex_rpc_endpoint(h->rpc), "version", ver,
			"ports", ports);
	return ctx;
}

/* The members for the core's check at load time (file:line:col); open()
 * still checks what a table cannot say (MAC syntax, port ids). */
static const char *const trex_fs_values[] = {"stats", "latency", "off", NULL};
static const struct coord_conf_member trex_conf_table[] = {
	{.name = "server", .type = COORD_CONF_STRING, .min = 1, .max = 255},
	{.name = "sync_port", .type = COORD_CONF_UINT, .min = 1, .max = 65535},
	{.name = "timeout_ms", .type = COORD_CONF_UINT, .min = 100, .max = 600000},
	{.name = "user", .type = COORD_CONF_STRING, .min = 1, .max = 63},
	{.name = "force", .type = COORD_CONF_BOOL},
	{.name = "src_mac", .type = COORD_CONF_STRING, .min = 17, .max = 17},
	{.name = "dst_mac", .type = COORD_CONF_STRING, .min = 17, .max = 17},
	{.name = "flow_stats",
	 .type = COORD_CONF_STRING,
	 .min = 2,
	 .max = 7,
	 .values = trex_fs_values},
	{.name = "pgid_base", .type = COORD_CONF_UINT, .min = 0, .max = 1000000},
	{.name = "backstop_s", .type = COORD_CONF_UINT, .min = 1, .max = 3600},
	{.name = "flow_base", .type = COORD_CONF_OBJECT, .members = coord_flow_base_conf},
	{.name = NULL},
};

const struct coord_driver coord_driver_trex = {
	.name = "trex",
	.roles = COORD_ROLE_SOURCE | COORD_ROLE_COUNTERS,
	.conf = trex_conf_table,
	.open = trex_open,
	.close = trex_close,
	.snapshot = trex_snapshot,
	.clear = trex_clear,
	.traffic_start = trex_traffic_start,
	.traffic_stop = trex_traffic_stop,
	.install_flows = trex_install_flows,
	.context = trex_context,
	.traffic_result = trex_traffic_result,
};
