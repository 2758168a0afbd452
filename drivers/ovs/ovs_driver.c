/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Hop driver "ovs" (ovs_driver.h): the driver table and what it does
 * itself; everything else is one file per job (ovs_private.h). Counters
 * come from OpenFlow port stats by default (ovs_stats.c) or from OVSDB
 * (ovs_interface.c), ports and their OpenFlow numbers from OVSDB.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "flows.h"
#include "ovs_driver.h"
#include "ovs_private.h"

const char *const ovs_drop_reasons[OVS_NB_REASONS] = {
	"ovs_rx_qos_drops",	     /* ingress policing */
	"rx_missed_errors",	     /* NIC ring full (physical DPDK ports) */
	"ovs_tx_failure_drops",	     /* guest/NIC TX ring full */
	"ovs_tx_mtu_exceeded_drops", /* frame over the port MTU */
	"ovs_tx_qos_drops",	     /* egress policing */
	"ovs_tx_invalid_hwol_drops", /* bad offload metadata */
	"rx_mbuf_allocation_errors", /* no mbuf (physical DPDK ports) */
};

/* The same, as the coordinator names them (coord_driver.h's vocabulary). */
const enum coord_reason_id ovs_drop_reason_ids[OVS_NB_REASONS] = {
	COORD_REASON_ovs_rx_qos_drops,
	COORD_REASON_rx_missed,
	COORD_REASON_ovs_tx_failure_drops,
	COORD_REASON_ovs_tx_mtu_exceeded_drops,
	COORD_REASON_ovs_tx_qos_drops,
	COORD_REASON_ovs_tx_invalid_hwol_drops,
	COORD_REASON_rx_nombuf,
};

/* Drop-reason rules' reasons, by the index in their cookie (ovs_private.h). */
const enum coord_reason_id ovs_rule_reasons[OVS_NB_RULE_REASONS] = {
	COORD_REASON_no_neighbour,
};

static void
ovs_close(struct coord_hop *hop)
{
	struct ovs_hop *h = hop->priv;

	if (h == NULL)
		return;
	ovsdb_client_close(&h->db);
	ovsdb_client_close(&h->ctl);
	free(h);
	hop->priv = NULL;
}

static int
ovs_open(struct coord_hop *hop, const json_t *conf, char *err, size_t err_len)
{
	struct ovs_hop *h = calloc(1, sizeof(*h));
	json_t *dbs = NULL, *params;
	size_t i;
	bool found = false;
	int rc;

	if (h == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "ovs: out of memory");
	h->db.fd = -1;
	h->ctl.fd = -1;
	hop->priv = h;
	rc = ovs_open_conf(hop, h, conf, err, err_len);
	if (rc < 0)
		goto fail;
	/* A local unixctl socket: revalidator/wait without a process. */
	if (h->ssh.host[0] == '\0' && h->appctl_target[0] == '/') {
		rc = ovsdb_client_init(&h->ctl, h->appctl_target, h->timeout_ms, err, err_len);
		if (rc < 0)
			goto fail;
	}
	/* Connect now so a wrong address shows up before any trial. */
	params = json_array();
	rc = ovsdb_client_call(&h->db, "list_dbs", params, &dbs, err, err_len);
	json_decref(params);
	if (rc < 0)
		goto fail;
	for (i = 0; i < json_array_size(dbs); i++) {
		const char *n = json_string_value(json_array_get(dbs, i));

		found |= n != NULL && strcmp(n, "Open_vSwitch") == 0;
	}
	json_decref(dbs);
	if (!found) {
		rc = pvp_fail(err, err_len, -ENOENT, "ovs: %s serves no Open_vSwitch database",
			      h->db.remote);
		goto fail;
	}
	/* Every port must exist now; the OpenFlow numbers map dump-ports. */
	rc = ovs_select(h, NULL, err, err_len);
	if (rc < 0)
		goto fail;
	/*
	 * The ports' age now, so that a restart before the first trial's
	 * baseline is seen too (ovs_restart.c). Best effort: a failure here
	 * shows again, with its message, at the first snapshot.
	 */
	if (!h->stats_ovsdb) {
		struct coord_snap *snap = calloc(1, sizeof(*snap));
		char e[256] = "";

		if (snap != NULL && ovs_snapshot_openflow(h, snap, e, sizeof(e)) == 0) {
			h->read_end_ns = pvp_now_ns();
			ovs_restart_check(h, snap, e, sizeof(e));
		}
		free(snap);
	}
	return 0;
fail:
	ovs_close(hop);
	return rc;
}

static int
ovs_snapshot(struct coord_hop *hop, struct coord_snap *snap, char *err, size_t err_len)
{
	struct ovs_hop *h = hop->priv;
	unsigned int i;
	int rc;

	if (h->stats_ovsdb) {
		/* OVSDB has no port age: only counters going back tell. */
		for (i = 0; i < COORD_MAX_PORTS; i++)
			h->age_known[i] = false;
		rc = ovs_snapshot_ovsdb(h, snap, err, err_len);
	} else {
		rc = ovs_snapshot_openflow(h, snap, err, err_len);
	}
	if (rc < 0)
		return rc;
	h->read_end_ns = pvp_now_ns();
	return ovs_restart_check(h, snap, err, err_len);
}

static int
ovs_clear(struct coord_hop *hop, char *err, size_t err_len)
{
	struct ovs_out out;
	int rc;

	/* A restart since the last trial took pvpkit's rules: put them back
	 * first, or the baseline snapshot fails on it. */
	rc = ovs_restart_recover(hop, err, err_len);
	if (rc < 0)
		return rc;
	/* Interface statistics cannot be cleared (the coordinator works on
	 * differences); the PMD counters can, so context() covers one trial. */
	rc = ovs_appctl(hop->priv, "dpif-netdev/pmd-stats-clear", &out, err, err_len);
	free(out.out);
	return rc;
}

static json_t *
ovs_context(struct coord_hop *hop)
{
	struct ovs_hop *h = hop->priv;
	struct ovs_out out;
	char err[256] = "";
	json_t *ctx = json_object(), *ports = json_object(), *rows;
	unsigned int i;

	if (ovs_appctl(h, "dpif-netdev/pmd-stats-show", &out, err, sizeof(err)) == 0)
		json_object_set_new(ctx, "pmd_stats_show", json_string(out.out));
	else
		json_object_set_new(ctx, "pmd_stats_show_error", json_string(err));
	free(out.out);

	if (ovs_select(h, &rows, err, sizeof(err)) == 0) {
		for (i = 0; i < hop->nb_ports; i++) {
			const json_t *row = json_array_get(rows, i);
			json_t *p = json_object();
			uint64_t v;

			json_object_set(p, "ofport", json_object_get(row, "ofport"));
			json_object_set(p, "link_state", json_object_get(row, "link_state"));
			if (ovs_map_get(json_object_get(row, "statistics"), "ovs_tx_retries", &v) ==
			    1)
				json_object_set_new(p, "ovs_tx_retries",
						    json_integer((json_int_t)v));
			json_object_set_new(ports, hop->ports[i], p);
		}
		json_decref(rows);
	}
	json_object_set_new(ctx, "ports", ports);
	if (h->note[0] != '\0')
		json_object_set_new(ctx, "restart", json_string(h->note));
	json_object_set_new(ctx, "vswitch", ovs_info(h));
	return ctx;
}

const struct coord_driver hop_driver_ovs = {
	.name = "ovs",
	.roles = COORD_ROLE_VSWITCH | COORD_ROLE_COUNTERS,
	.conf = ovs_conf_members,
	.open = ovs_open,
	.close = ovs_close,
	.snapshot = ovs_snapshot,
	.clear = ovs_clear,
	.install_flows = ovs_install_flows,
	.context = ovs_context,
};
