/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What makes two runs on OVS comparable: its version, DPDK's, the
 * other_config it runs with (pmd-cpu-mask, pmd-maxsleep, dpdk-*) and how
 * the PMD threads poll the ports (pmd-rxq-show). Part of the hop's
 * context, so every trial record and the run's metadata carry it.
 */

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ovs_private.h"

/* An OVSDB map ["map", [[k, v], ...]] as an object. */
static json_t *
ovs_info_map(const json_t *m)
{
	json_t *o = json_object();
	const json_t *kv;
	size_t i;

	json_array_foreach(json_array_get(m, 1), i, kv)
		if (json_is_string(json_array_get(kv, 0)))
			json_object_set(o, json_string_value(json_array_get(kv, 0)),
					json_array_get(kv, 1));
	return o;
}

json_t *
ovs_info(struct ovs_hop *h)
{
	json_t *params, *result = NULL, *info = json_object();
	const json_t *row;
	struct ovs_out out;
	char err[256] = "";

	if (info == NULL)
		return NULL;
	params = json_pack("[s,{s:s,s:s,s:[],s:[s,s,s]}]", "Open_vSwitch", "op", "select", "table",
			   "Open_vSwitch", "where", "columns", "ovs_version", "dpdk_version",
			   "other_config");
	if (params != NULL &&
	    ovsdb_client_call(&h->db, "transact", params, &result, err, sizeof(err)) == 0) {
		row = json_array_get(json_object_get(json_array_get(result, 0), "rows"), 0);
		if (json_is_string(json_object_get(row, "ovs_version")))
			json_object_set(info, "ovs_version", json_object_get(row, "ovs_version"));
		if (json_is_string(json_object_get(row, "dpdk_version")))
			json_object_set(info, "dpdk_version", json_object_get(row, "dpdk_version"));
		json_object_set_new(info, "other_config",
				    ovs_info_map(json_object_get(row, "other_config")));
	} else {
		json_object_set_new(info, "ovsdb_error", json_string(err));
	}
	json_decref(params);
	json_decref(result);
	/*
	 * The database has ovs_version only when a startup script put it there
	 * (ovs-ctl does, a private vswitchd does not): ask the daemon itself.
	 */
	memset(&out, 0, sizeof(out));
	if (json_object_get(info, "ovs_version") == NULL &&
	    ovs_appctl(h, "version", &out, err, sizeof(err)) == 0 && out.out != NULL) {
		out.out[strcspn(out.out, "\n")] = '\0';
		json_object_set_new(info, "ovs_version", json_string(out.out));
	}
	free(out.out);
	if (ovs_appctl(h, "dpif-netdev/pmd-rxq-show", &out, err, sizeof(err)) == 0)
		json_object_set_new(info, "pmd_rxq_show", json_string(out.out));
	else
		json_object_set_new(info, "pmd_rxq_show_error", json_string(err));
	free(out.out);
	return info;
}
