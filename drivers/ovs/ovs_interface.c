/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Interface rows from OVSDB: one "transact" with one select per port
 * returns every port's row in topology order in a single round trip. The
 * rows give the OpenFlow port numbers (to map OpenFlow port stats), link
 * states for context(), and the statistics column read with "stats":
 * "ovsdb" (refreshed by ovs-vswitchd only every few seconds).
 */

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "ovs_private.h"

/* The transact params: one select per port, so result[i] is port i. */
static json_t *
ovs_select_params(const struct ovs_hop *h)
{
	json_t *params = json_pack("[s]", "Open_vSwitch");
	unsigned int i;

	for (i = 0; params != NULL && i < h->hop->nb_ports; i++) {
		json_t *op =
			json_pack("{s:s, s:s, s:[[s,s,s]], s:[s,s,s,s,s]}", "op", "select", "table",
				  "Interface", "where", "name", "==", h->hop->ports[i], "columns",
				  "name", "statistics", "ofport", "link_state", "options");

		if (op == NULL || json_array_append_new(params, op) < 0) {
			json_decref(params);
			return NULL;
		}
	}
	return params;
}

/*
 * Run the select, check its shape and refresh the OpenFlow port numbers.
 * @return 0 with *rows (unless rows is NULL) an array of nb_ports row
 *   objects (new reference), or -errno with err set.
 */
int
ovs_select(struct ovs_hop *h, json_t **rows, char *err, size_t err_len)
{
	json_t *params = ovs_select_params(h), *result = NULL, *out;
	const json_t *of;
	unsigned int i;
	int rc;

	if (rows != NULL)
		*rows = NULL;
	if (params == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "ovs: out of memory");
	rc = ovsdb_client_call(&h->db, "transact", params, &result, err, err_len);
	json_decref(params);
	if (rc < 0)
		return rc;
	if (!json_is_array(result) || json_array_size(result) < h->hop->nb_ports) {
		json_decref(result);
		return pvp_fail(err, err_len, -EPROTO,
				"ovs: %s: malformed transact result (expected %u select results)",
				h->db.remote, h->hop->nb_ports);
	}
	out = json_array();
	for (i = 0; i < h->hop->nb_ports; i++) {
		const json_t *r = json_array_get(result, i);
		const json_t *e = json_object_get(r, "error");
		const json_t *rs = json_object_get(r, "rows");

		if (e != NULL) {
			const char *d = json_string_value(json_object_get(r, "details"));

			rc = pvp_fail(err, err_len, -EREMOTEIO, "ovs: %s: select %s: %s%s%s",
				      h->db.remote, h->hop->ports[i],
				      json_is_string(e) ? json_string_value(e) : "error",
				      d != NULL ? ": " : "", d != NULL ? d : "");
			break;
		}
		if (!json_is_array(rs)) {
			rc = pvp_fail(err, err_len, -EPROTO,
				      "ovs: %s: malformed select result for %s (no \"rows\")",
				      h->db.remote, h->hop->ports[i]);
			break;
		}
		if (json_array_size(rs) == 0) {
			rc = pvp_fail(err, err_len, -ENOENT,
				      "ovs: no Interface \"%s\" in %s (ovs-vsctl list-ifaces)",
				      h->hop->ports[i], h->db.remote);
			break;
		}
		if (!json_is_object(json_array_get(rs, 0))) {
			rc = pvp_fail(err, err_len, -EPROTO, "ovs: %s: malformed row for %s",
				      h->db.remote, h->hop->ports[i]);
			break;
		}
		json_array_append(out, json_array_get(rs, 0));
	}
	json_decref(result);
	for (i = 0; rc == 0 && i < h->hop->nb_ports; i++) {
		/* An Interface without a port number yet is ["set", []]. */
		of = json_object_get(json_array_get(out, i), "ofport");
		h->ofport[i] = json_is_integer(of) && json_integer_value(of) > 0
				       ? (long)json_integer_value(of)
				       : -1;
	}
	if (rc < 0 || rows == NULL)
		json_decref(out);
	else
		*rows = out;
	return rc;
}

/*
 * Look up @p key in an OVSDB map value ["map", [[k, v], ...]].
 * @return 1 found (*v set), 0 absent, -EPROTO malformed.
 */
int
ovs_map_get(const json_t *map, const char *key, uint64_t *v)
{
	const json_t *pairs, *pair;
	size_t i;

	if (!json_is_array(map) || json_array_size(map) != 2 ||
	    !json_is_string(json_array_get(map, 0)) ||
	    strcmp(json_string_value(json_array_get(map, 0)), "map") != 0)
		return -EPROTO;
	pairs = json_array_get(map, 1);
	if (!json_is_array(pairs))
		return -EPROTO;
	json_array_foreach(pairs, i, pair) {
		const json_t *k = json_array_get(pair, 0), *val = json_array_get(pair, 1);

		if (!json_is_array(pair) || json_array_size(pair) != 2 || !json_is_string(k))
			return -EPROTO;
		if (strcmp(json_string_value(k), key) != 0)
			continue;
		if (!json_is_integer(val) || json_integer_value(val) < 0)
			return -EPROTO;
		*v = (uint64_t)json_integer_value(val);
		return 1;
	}
	return 0;
}

static int
ovs_row_to_port(const struct ovs_hop *h, const json_t *row, const char *name, struct coord_port *p,
		char *err, size_t err_len)
{
	const json_t *stats = json_object_get(row, "statistics");
	unsigned int found = 0;
	size_t i;
	uint64_t v;
	int rc;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	/* OVS's Interface statistics keys are lib/stats's counter names. */
	for (i = 0; i < PVP_STATS_NB_COUNTERS; i++) {
		rc = ovs_map_get(stats, pvp_stats_counter_names[i], &v);
		if (rc < 0)
			return pvp_fail(err, err_len, -EPROTO,
					"ovs: %s: malformed statistics of Interface %s",
					h->db.remote, name);
		if (rc == 1) {
			p->c[i] = v;
			found++;
		}
	}
	/* A port whose netdev failed (or is still being created) has an
	 * empty map: report it rather than zeros that look like a result. */
	if (found == 0)
		return pvp_fail(err, err_len, -ENODATA,
				"ovs: Interface %s has no statistics (link_state %s)", name,
				json_is_string(json_object_get(row, "link_state"))
					? json_string_value(json_object_get(row, "link_state"))
					: "unknown");
	for (i = 0; i < sizeof(ovs_drop_reasons) / sizeof(ovs_drop_reasons[0]); i++) {
		if (ovs_map_get(stats, ovs_drop_reasons[i], &v) == 1)
			coord_port_add_reason(p, ovs_drop_reason_ids[i], v);
	}
	return 0;
}

/* Counters as ovs-vswitchd last wrote them to OVSDB. */
int
ovs_snapshot_ovsdb(struct ovs_hop *h, struct coord_snap *snap, char *err, size_t err_len)
{
	json_t *rows;
	unsigned int i;
	int rc;

	rc = ovs_select(h, &rows, err, err_len);
	if (rc < 0)
		return rc;
	snap->t_ns = pvp_now_ns();
	snap->nb_ports = h->hop->nb_ports;
	for (i = 0; i < h->hop->nb_ports && rc == 0; i++)
		rc = ovs_row_to_port(h, json_array_get(rows, i), h->hop->ports[i], &snap->port[i],
				     err, err_len);
	json_decref(rows);
	return rc;
}
