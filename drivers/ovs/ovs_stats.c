/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The ovs hop's default counters: OpenFlow port stats, read from the
 * bridge's management socket when it is local, else from ovs-ofctl's
 * text, and mapped to the topology's ports by OpenFlow port number.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ovs_private.h"

/*
 * The drop-reason rules' packets into @p snap's ports (ovs_private.h):
 * each at its port's point of the reason's side and in that side's
 * dropped counter, so the point's Drop is the sum of its reasons. Rule counters are what the revalidator last
 * pushed from the datapath (up to max-revalidator, 500 ms, old): where
 * the bridge has such rules, one revalidator/wait round comes first, so
 * a trial's final snapshot has every drop. A bridge without them costs
 * one flow stats request. @return 0, or -errno with @p err set.
 */
static int
ovs_drop_rules(struct ovs_hop *h, struct coord_snap *snap, char *err, size_t err_len)
{
	struct ovs_ofp_flow f[OVS_MAX_DROP_RULES];
	uint64_t sum[COORD_MAX_PORTS][OVS_NB_RULE_REASONS] = {{0}};
	const char *path = h->ofctl_target + 5;
	unsigned int i, k, r;
	json_t *params, *res = NULL;
	int n, j, rc;

	n = ovs_ofp_dump_drop_rules(path, h->timeout_ms, f, OVS_MAX_DROP_RULES, err, err_len);
	if (n <= 0 || h->ctl.remote[0] == '\0')
		goto map;
	params = json_array();
	rc = ovsdb_client_call(&h->ctl, "revalidator/wait", params, &res, err, err_len);
	json_decref(params);
	json_decref(res);
	if (rc < 0)
		return rc;
	n = ovs_ofp_dump_drop_rules(path, h->timeout_ms, f, OVS_MAX_DROP_RULES, err, err_len);
map:
	for (j = 0; j < n; j++) {
		r = (unsigned int)(f[j].cookie >> 16 & 0xffff);
		for (i = 0; i < h->hop->nb_ports && h->ofport[i] != (long)(f[j].cookie & 0xffff);
		     i++)
			;
		/* A rule for a port of no trial's path, or a reason not known. */
		if (i < h->hop->nb_ports && r < OVS_NB_RULE_REASONS)
			sum[i][r] += f[j].packets;
	}
	for (i = 0; i < h->hop->nb_ports && n > 0; i++)
		for (k = 0; k < OVS_NB_RULE_REASONS; k++) {
			if (sum[i][k] == 0)
				continue;
			coord_port_add_reason(&snap->port[i], ovs_rule_reasons[k], sum[i][k]);
			if (coord_reason_side(ovs_rule_reasons[k]) == COORD_SIDE_RX)
				snap->port[i].c[PVP_STATS_rx_dropped] += sum[i][k];
			else
				snap->port[i].c[PVP_STATS_tx_dropped] += sum[i][k];
		}
	return n < 0 ? n : 0;
}

/*
 * Live counters from OpenFlow port stats. OVSDB's statistics column is
 * refreshed only every stats-update-interval (at least 5 s), so right
 * after a trial it still holds numbers from before the traffic stopped;
 * the OpenFlow reply is read from the netdevs at the time of the request.
 */
int
ovs_snapshot_openflow(struct ovs_hop *h, struct coord_snap *snap, char *err, size_t err_len)
{
	const char *argv[] = {"ovs-ofctl",     "-O", "OpenFlow14", "--no-names", "dump-ports",
			      h->ofctl_target, NULL};
	struct ovs_ofp *o;
	struct ovs_out out;
	uint64_t t_ns;
	unsigned int i, k, max = 1024;
	int n, rc;

	/* A port without its OpenFlow number: one select finds them all. */
	for (i = 0; i < h->hop->nb_ports && h->ofport[i] >= 0; i++)
		;
	if (i < h->hop->nb_ports) {
		rc = ovs_select(h, NULL, err, err_len);
		if (rc < 0)
			return rc;
	}
	t_ns = pvp_now_ns();
	o = calloc(max, sizeof(*o));
	if (o == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "ovs: out of memory");
	if (h->ssh.host[0] == '\0' && strncmp(h->ofctl_target, "unix:", 5) == 0) {
		/* A local management socket: speak OpenFlow ourselves. */
		n = ovs_ofp_dump_ports(h->ofctl_target + 5, h->timeout_ms, o, max, err, err_len);
		if (n < 0) {
			free(o);
			return n;
		}
		goto map;
	}
	rc = ovs_tool(h, argv, NULL, 0, h->timeout_ms, &out, err, err_len);
	if (rc < 0) {
		free(o);
		if (rc == -EIO && strstr(err, "No such file") != NULL) {
			char e2[200];

			snprintf(e2, sizeof(e2), "%s", err);
			snprintf(err, err_len, "hop unreachable: %s", e2);
			rc = -ENOTCONN;
		}
		return rc;
	}
	n = ovs_parse_dump_ports(out.out, o, max);
	free(out.out);
	if (n < 0) {
		free(o);
		return pvp_fail(err, err_len, -EPROTO,
				"ovs: unexpected ovs-ofctl dump-ports output from %s",
				h->ofctl_target);
	}
map:
	snap->t_ns = t_ns;
	snap->nb_ports = h->hop->nb_ports;
	for (i = 0; i < h->hop->nb_ports; i++) {
		struct coord_port *p = &snap->port[i];
		int j;

		for (j = 0; j < n && o[j].ofport != h->ofport[i]; j++)
			;
		if (j == n) {
			/* Renumbered (port re-added)? Look again once. */
			h->ofport[i] = -1;
			free(o);
			return pvp_fail(err, err_len, -ENOENT,
					"ovs: Interface %s is not on bridge %s (dump-ports)",
					h->hop->ports[i], h->bridge);
		}
		*p = o[j].p;
		h->age_known[i] = o[j].has_duration;
		h->duration[i] = o[j].duration_s;
		snprintf(p->name, sizeof(p->name), "%s", h->hop->ports[i]);
		for (k = 0; k < OVS_NB_REASONS; k++) {
			if (o[j].has_reason[k])
				coord_port_add_reason(p, ovs_drop_reason_ids[k], o[j].reason[k]);
		}
	}
	free(o);
	if (h->ssh.host[0] == '\0' && strncmp(h->ofctl_target, "unix:", 5) == 0)
		return ovs_drop_rules(h, snap, err, err_len);
	return 0;
}
