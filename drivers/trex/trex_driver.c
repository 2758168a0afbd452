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

#include "flows.h"
#include "trex_driver.h"
#include "trex_private.h"

/* ---- open / close ---- */

static void
trex_close(struct coord_hop *hop)
{
	struct trex_hop *h = hop->priv;
	char e[512] = "";

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

static int
trex_open(struct coord_hop *hop, const json_t *conf, char *err, size_t err_len)
{
	struct trex_hop *h;
	char why[400] = "", ep[300];
	int ret;

	h = calloc(1, sizeof(*h));
	if (h == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "hop %s: out of memory", hop->name);
	if (trex_conf_parse(hop, conf, &h->c, err, err_len) < 0) {
		free(h);
		return -EINVAL;
	}
	snprintf(ep, sizeof(ep),
		 strchr(h->c.server, ':') != NULL && h->c.server[0] != '[' ? "tcp://[%s]:%u"
									   : "tcp://%s:%u",
		 h->c.server, h->c.sync_port);
	h->rpc = trex_rpc_open(ep, h->c.timeout_ms, why, sizeof(why));
	if (h->rpc == NULL) {
		free(h);
		return pvp_fail(err, err_len, -ENOTSUP, "hop %s: %s", hop->name, why);
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

int
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
	snap->nb_ports = hop->nb_ports;
	for (k = 0; k < hop->nb_ports; k++) {
		struct coord_port *p = &snap->port[k];

		st = json_array_get(res, k);
		snprintf(p->name, sizeof(p->name), "%s", hop->ports[k]);
		if (trex_counter(hop, st, "ipackets", h->c.port_id[k], &p->c[PVP_STATS_rx_packets],
				 err, err_len) < 0 ||
		    trex_counter(hop, st, "ibytes", h->c.port_id[k], &p->c[PVP_STATS_rx_bytes], err,
				 err_len) < 0 ||
		    trex_counter(hop, st, "opackets", h->c.port_id[k], &p->c[PVP_STATS_tx_packets],
				 err, err_len) < 0 ||
		    trex_counter(hop, st, "obytes", h->c.port_id[k], &p->c[PVP_STATS_tx_bytes], err,
				 err_len) < 0 ||
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
		p->c[PVP_STATS_rx_dropped] = ierrors;
		p->c[PVP_STATS_tx_errors] = oerrors;
		p->nb_reasons = 0;
		coord_port_add_named_reason(p, "rx_ierrors", COORD_SIDE_RX, ierrors);
		coord_port_add_named_reason(p, "tx_oerrors", COORD_SIDE_TX, oerrors);
	}
	json_decref(res);
	return 0;
}

int
trex_pgid_stats(struct coord_hop *hop, json_t **res, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	json_t *ids = json_array();
	unsigned int i;

	for (i = 0; ids != NULL && i < h->nb_pgids; i++)
		json_array_append_new(ids, json_integer(h->pgid[i]));
	if (ids == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "hop %s: out of memory", hop->name);
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

/* A source, not a vswitch: remember the rule type for the next trials' traffic. */
static int
trex_install_flows(struct coord_hop *hop, const char *rule_type, unsigned int flows, char *err,
		   size_t err_len)
{
	struct trex_hop *h = hop->priv;

	(void)flows;
	return flows_remember(hop, rule_type, h->flow_type, sizeof(h->flow_type), err, err_len);
}

/* The server's version, where it is, and what it did in the last run. */
static json_t *
trex_context(struct coord_hop *hop)
{
	struct trex_hop *h = hop->priv;
	json_t *ver = NULL, *ports = json_array(), *ctx;
	char err[512] = "";
	unsigned int k;

	if (trex_call(hop, "get_version", NULL, &ver, err, sizeof(err)) < 0)
		ver = json_null();
	for (k = 0; ports != NULL && k < hop->nb_ports; k++)
		json_array_append_new(ports, json_pack("{s:s,s:I,s:f,s:f}", "name", hop->ports[k],
						       "id", (json_int_t)h->c.port_id[k],
						       "speed_gbps", h->speed_bps[k] / 1e9,
						       "tx_pps_before_stop", h->last_tx_pps[k]));
	ctx = json_pack("{s:s,s:o,s:o*}", "server", trex_rpc_endpoint(h->rpc), "version", ver,
			"ports", ports);
	return ctx;
}

const struct coord_driver hop_driver_trex = {
	.name = "trex",
	.roles = COORD_ROLE_SOURCE | COORD_ROLE_COUNTERS,
	.conf = trex_conf_members,
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
