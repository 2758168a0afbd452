/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * drv_probe: drive one hop of a topology file through the ovs or telemetry
 * driver and print what it returned as JSON, so the testbed's e2e tests
 * can check the drivers against a real OVS-DPDK and a real testpmd
 * without the coordinator.
 *
 *   drv_probe TOPOLOGY HOP snapshot
 *   drv_probe TOPOLOGY HOP context
 *   drv_probe TOPOLOGY HOP flows TYPE N
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "coord_driver.h"
#include "ovs_driver.h"
#include "telemetry_driver.h"

static json_t *
snap_json(const struct coord_snap *s)
{
	json_t *ports = json_array();
	unsigned int i, k;

	for (i = 0; i < s->nb_ports; i++) {
		const struct coord_port *p = &s->port[i];
		json_t *reasons = json_object(), *o;

		for (k = 0; k < p->nb_reasons; k++)
			json_object_set_new(reasons, coord_reason_name(p->reasons[k].id),
					    json_integer((json_int_t)p->reasons[k].value));
		o = json_pack("{s:s}", "name", p->name);
		for (k = 0; k < PVP_STATS_NB_COUNTERS; k++)
			json_object_set_new(o, pvp_stats_counter_names[k],
					    json_integer((json_int_t)p->c[k]));
		json_object_set_new(o, "reasons", reasons);
		json_array_append_new(ports, o);
	}
	return json_pack("{s:o}", "ports", ports);
}

int
main(int argc, char **argv)
{
	const struct coord_driver *drv;
	struct coord_hop hop = {0};
	struct coord_snap snap;
	json_error_t jerr;
	json_t *topo, *h = NULL, *out = NULL;
	const char *dname;
	char err[256] = "";
	size_t i;
	int rc = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: drv_probe TOPOLOGY HOP snapshot|context|flows TYPE N\n");
		return 2;
	}
	topo = json_load_file(argv[1], 0, &jerr);
	if (topo == NULL) {
		fprintf(stderr, "drv_probe: %s:%d: %s\n", argv[1], jerr.line, jerr.text);
		return 1;
	}
	json_array_foreach(json_object_get(topo, "hops"), i, h) {
		if (strcmp(json_string_value(json_object_get(h, "name")), argv[2]) == 0)
			break;
	}
	if (i == json_array_size(json_object_get(topo, "hops"))) {
		fprintf(stderr, "drv_probe: no hop %s\n", argv[2]);
		return 1;
	}
	dname = json_string_value(json_object_get(h, "driver"));
	if (strcmp(dname, "ovs") == 0)
		drv = &hop_driver_ovs;
	else if (strcmp(dname, "telemetry") == 0 || strcmp(dname, "testpmd") == 0)
		drv = &hop_driver_telemetry;
	else {
		fprintf(stderr, "drv_probe: hop %s has driver %s (ovs or telemetry here)\n",
			argv[2], dname);
		return 1;
	}
	snprintf(hop.name, sizeof(hop.name), "%s", argv[2]);
	hop.driver = drv;
	rc = coord_hop_ports(&hop, json_object_get(h, "ports"), NULL, err, sizeof(err));
	if (rc == 0)
		rc = drv->open(&hop, h, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "drv_probe: open: %s\n", err);
		return 1;
	}
	if (strcmp(argv[3], "snapshot") == 0) {
		rc = drv->snapshot(&hop, &snap, err, sizeof(err));
		if (rc == 0)
			out = snap_json(&snap);
	} else if (strcmp(argv[3], "context") == 0) {
		out = drv->context != NULL ? drv->context(&hop) : json_null();
	} else if (strcmp(argv[3], "flows") == 0 && argc == 6 && drv->install_flows != NULL) {
		rc = drv->install_flows(&hop, argv[4], (unsigned int)atoi(argv[5]), err,
					sizeof(err));
		if (rc == 0)
			out = json_pack("{s:s, s:i}", "installed", argv[4], "flows", atoi(argv[5]));
	} else {
		snprintf(err, sizeof(err), "bad action");
		rc = -1;
	}
	drv->close(&hop);
	json_decref(topo);
	if (rc < 0) {
		fprintf(stderr, "drv_probe: %s: %s\n", argv[3], err);
		return 1;
	}
	json_dumpf(out, stdout, JSON_COMPACT);
	putchar('\n');
	json_decref(out);
	return 0;
}
