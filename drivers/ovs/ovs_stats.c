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
	struct coord_ovs_out out;
	uint64_t t_ns;
	unsigned int i, k, max = 1024;
	bool reloaded = false;
	int n, rc;

	for (i = 0; i < h->nb_ports; i++) {
		if (h->ofport[i] < 0 && !reloaded) {
			rc = ovs_load_ofports(h, err, err_len);
			if (rc < 0)
				return rc;
			reloaded = true;
		}
	}
	t_ns = pvp_now_ns();
	o = calloc(max, sizeof(*o));
	if (o == NULL)
		return coord_fail(err, err_len, -ENOMEM, "ovs: out of memory");
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
		return coord_fail(err, err_len, -EPROTO,
				  "ovs: unexpected ovs-ofctl dump-ports output from %s",
				  h->ofctl_target);
	}
map:
	snap->t_ns = t_ns;
	snap->nb_ports = h->nb_ports;
	for (i = 0; i < h->nb_ports; i++) {
		struct coord_port *p = &snap->port[i];
		int j;

		for (j = 0; j < n && o[j].ofport != h->ofport[i]; j++)
			;
		if (j == n) {
			/* Renumbered (port re-added)? Look again once. */
			h->ofport[i] = -1;
			free(o);
			return coord_fail(err, err_len, -ENOENT,
					  "ovs: Interface %s is not on bridge %s (dump-ports)",
					  h->ports[i], h->bridge);
		}
		*p = o[j].p;
		h->age_known[i] = o[j].has_duration;
		h->duration[i] = o[j].duration_s;
		snprintf(p->name, sizeof(p->name), "%s", h->ports[i]);
		for (k = 0; k < OVS_NB_REASONS; k++) {
			if (o[j].has_reason[k])
				coord_port_add_reason(p, ovs_drop_reason_ids[k], o[j].reason[k]);
		}
	}
	free(o);
	return 0;
}
