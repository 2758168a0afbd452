/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The gen and fwd hop drivers against an in-process control server that
 * answers like pvpkit-gen: port mapping ("pN" and display names), drop
 * reasons, one profile.load per profile, traffic results with streams,
 * and "hop X unreachable" once the server is gone. No EAL.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "coord.h"
#include "coord_driver.h"
#include "fwd/fwd_driver.h"
#include "gen/gen_driver.h"
#include "telemetry/telemetry_driver.h"
#include "wire/wire_driver.h"
#include "pvp_ctl.h"
#include "pvp_fwd_impair.h"
#include "pvp_gen_answer.h"
#include "pvp_stats_json.h"
#include "registry.h"
#include "../unit_check.h"

static unsigned int profile_loads, traffic_starts;
static json_t *last_start_params, *last_load_params;
static const char *fake_tx_full = "retry"; /* traffic.tx_full of stats.get */
static bool fake_unknown_rx = true;	   /* stats.get has "unknown_stream_rx" */
static const char *fake_impair;		   /* pvpkit-fwd's "impair" list, JSON, or NULL */
static const char *fake_neigh;		   /* pvpkit-gen's "neigh" list, JSON, or NULL */

static int
fake_stats_get(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	struct pvp_stats_snap *s = calloc(1, sizeof(*s));
	json_t *j;

	(void)params;
	(void)arg;
	(void)err;
	snprintf(s->name, sizeof(s->name), "pvpkit-gen");
	s->hz = 1000000000;
	s->tsc = 5;
	s->nb_ports = 2;
	snprintf(s->port[0].name, sizeof(s->port[0].name), "net_virtio_user0");
	s->port[0].eth_port_id = 0;
	s->port[0].c[PVP_STATS_rx_packets] = 100;
	s->port[0].c[PVP_STATS_tx_packets] = 90;
	s->port[0].c[PVP_STATS_rx_dropped] = 6;
	s->port[0].c[PVP_STATS_tx_dropped] = 4;
	s->port[0].rx_missed = 3;
	s->port[0].rx_nombuf = 2;
	s->port[0].rx_sw_dropped = 1;
	snprintf(s->port[1].name, sizeof(s->port[1].name), "net_virtio_user1");
	s->port[1].eth_port_id = 1;
	s->port[1].c[PVP_STATS_rx_packets] = 7;
	j = pvp_stats_snap_to_json(s);
	free(s);
	json_object_set_new(j, "traffic",
			    json_pack("{s:b,s:f,s:f,s:b,s:s,s:i}", "running", 0, "requested_pps",
				      1000.0, "achieved_pps", 900.0, "generator_limited", 1,
				      "tx_full", fake_tx_full, "max_burst", 41));
	json_object_set_new(j, "streams",
			    json_pack("[{s:i,s:i,s:i,s:i,s:i,s:i},{s:i,s:i,s:i,s:i,s:i,s:i}]",
				      "stream", 0, "tx_packets", 60, "tx_offered", 60, "rx_packets",
				      59, "lost", 2, "dup", 1, "stream", 1, "tx_packets", 30,
				      "tx_offered", 30, "rx_packets", 30, "lost", 0, "dup", 0));
	/*
	 * What a hostile generator could add: a clock that would end a plot
	 * script's string and run a command, members and values of its own.
	 */
	json_object_update_new(json_array_get(json_object_get(j, "streams"), 0),
			       json_pack("{s:s,s:s,s:{s:s,s:i,s:s,s:{s:s}}}", "name",
					 "s0\"\nsystem \"id\"", "evil", "x", "latency_ns", "clock",
					 "tsc\" noenhanced\nsystem \"id > /tmp/x\"", "count", 5,
					 "p50", "7", "histogram", "unit", "ns"));
	json_object_update_new(json_array_get(json_object_get(j, "streams"), 1),
			       json_pack("{s:s,s:{s:s,s:i}}", "name", "s1", "latency_ns", "clock",
					 "tsc", "count", 6));
	json_object_set_new(j, "unsigned_rx", json_integer(8));
	if (fake_unknown_rx)
		json_object_set_new(j, "unknown_stream_rx", json_integer(3));
	if (fake_impair != NULL)
		json_object_set_new(j, PVP_FWD_K_IMPAIR, json_loads(fake_impair, 0, NULL));
	if (fake_neigh != NULL)
		json_object_set_new(j, PVP_GEN_K_NEIGH, json_loads(fake_neigh, 0, NULL));
	*result = j;
	return 0;
}

static int
fake_empty(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	(void)params;
	(void)err;
	if (arg == &profile_loads) {
		profile_loads++;
		json_decref(last_load_params);
		last_load_params = json_incref(params);
	}
	if (arg == &traffic_starts) {
		traffic_starts++;
		json_decref(last_start_params);
		last_start_params = json_incref(params);
	}
	*result = json_object();
	return 0;
}

static struct pvp_ctl_server *
fake_server(const char *addr)
{
	struct pvp_ctl_server_conf conf = {.listen = addr, .app_name = "pvpkit-gen"};
	char e[PVP_CTL_ERR_LEN] = "";
	struct pvp_ctl_server *srv = pvp_ctl_server_create(&conf, e, sizeof(e));

	if (srv == NULL) {
		fprintf(stderr, "server: %s\n", e);
		return NULL;
	}
	pvp_ctl_server_register(srv, "stats.get", fake_stats_get, NULL);
	pvp_ctl_server_register(srv, "stats.clear", fake_empty, NULL);
	pvp_ctl_server_register(srv, "profile.load", fake_empty, &profile_loads);
	pvp_ctl_server_register(srv, "traffic.start", fake_empty, &traffic_starts);
	pvp_ctl_server_register(srv, "traffic.stop", fake_empty, NULL);
	if (pvp_ctl_server_start(srv) < 0) {
		pvp_ctl_server_destroy(srv);
		return NULL;
	}
	return srv;
}

static json_t *
hop_conf(const char *addr, const char *ports)
{
	json_error_t je;
	char text[512];

	snprintf(text, sizeof(text), "{\"ctl\": \"%s\", \"ports\": %s}", addr, ports);
	return json_loads(text, 0, &je);
}

/* Open @p hop as the topology does: its "ports" first, then the driver's open(). */
static int
drv_open(const struct coord_driver *d, struct coord_hop *hop, const json_t *conf, char *err,
	 size_t err_len)
{
	int rc;

	err[0] = '\0';
	rc = coord_hop_ports(hop, json_object_get(conf, "ports"), NULL, err, err_len);
	return rc < 0 ? rc : d->open(hop, conf, err, err_len);
}

static uint64_t
reason(const struct coord_port *p, const char *name)
{
	unsigned int i;

	for (i = 0; i < p->nb_reasons; i++)
		if (strcmp(coord_reason_name(p->reasons[i].id), name) == 0)
			return p->reasons[i].value;
	return UINT64_MAX;
}

/* The one variable of the stream in the last profile.load. */
static const json_t *
loaded_var(unsigned int stream)
{
	const json_t *s = json_array_get(
		json_object_get(json_object_get(last_load_params, "profile"), "streams"), stream);

	return json_array_get(json_object_get(s, "vars"), 0);
}

/*
 * Flow types: after install_flows (or with coord_traffic::flow_type) the
 * gen driver loads a profile whose variable walks the field the vswitch
 * rules match, from the flows.h bases.
 */
static void
check_flow_types(struct coord_hop *tester, struct coord_traffic *t)
{
	unsigned int loads = profile_loads;
	const json_t *s, *v;
	char err[256];

	CHECK(hop_driver_gen.install_flows != NULL);
	CHECK(hop_driver_gen.install_flows(tester, "l3", t->flows, err, sizeof(err)) == 0);
	CHECK(hop_driver_gen.traffic_start(tester, t, err, sizeof(err)) == 0);
	CHECK(profile_loads == loads + 1);
	s = json_array_get(json_object_get(json_object_get(last_load_params, "profile"), "streams"),
			   0);
	CHECK(json_array_size(json_object_get(json_object_get(last_load_params, "profile"),
					      "streams")) == 1);
	CHECK(json_integer_value(json_object_get(s, "port")) == 0);
	CHECK(json_integer_value(json_object_get(s, "flows")) == t->flows);
	CHECK(json_integer_value(json_object_get(s, "size")) == t->size);
	v = loaded_var(0);
	CHECK(strcmp(json_string_value(json_object_get(v, "field")), "ipv4.dst") == 0);
	CHECK(strcmp(json_string_value(json_object_get(v, "min")), "10.0.0.0") == 0);
	CHECK(strcmp(json_string_value(json_object_get(v, "max")), "10.0.0.19") == 0);
	/* same type, same flows: loaded already */
	CHECK(hop_driver_gen.traffic_start(tester, t, err, sizeof(err)) == 0);
	CHECK(profile_loads == loads + 1);

	/* the trial's own flow type wins over install_flows */
	t->flow_type = "l4";
	CHECK(hop_driver_gen.traffic_start(tester, t, err, sizeof(err)) == 0);
	CHECK(profile_loads == loads + 2);
	v = loaded_var(0);
	CHECK(strcmp(json_string_value(json_object_get(v, "field")), "udp.dport") == 0);
	CHECK(json_integer_value(json_object_get(v, "min")) == 1024);
	CHECK(json_integer_value(json_object_get(v, "max")) == 1024 + t->flows - 1);
	t->flow_type = "l2";
	CHECK(hop_driver_gen.traffic_start(tester, t, err, sizeof(err)) == 0);
	v = loaded_var(0);
	CHECK(strcmp(json_string_value(json_object_get(v, "field")), "eth.dst") == 0);
	CHECK(strcmp(json_string_value(json_object_get(v, "min")), "02:00:00:00:00:00") == 0);
	CHECK(strcmp(json_string_value(json_object_get(v, "max")), "02:00:00:00:00:13") == 0);
	/* out of the field's range: refused before anything is sent */
	t->flow_type = "l4";
	t->flows = 70000;
	loads = profile_loads;
	CHECK(hop_driver_gen.traffic_start(tester, t, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "overflow 65535") != NULL && profile_loads == loads);
	t->flows = 20;
	t->flow_type = NULL;

	/* normal: the --flows shortcut again (source IPs) */
	CHECK(hop_driver_gen.install_flows(tester, "normal", 1, err, sizeof(err)) == 0);
	CHECK(hop_driver_gen.traffic_start(tester, t, err, sizeof(err)) == 0);
	CHECK(json_object_get(last_load_params, "profile") == NULL);
	CHECK(json_integer_value(json_object_get(last_load_params, "flows")) == t->flows);
	CHECK(hop_driver_gen.install_flows(tester, "l9", 1, err, sizeof(err)) == -EINVAL);
}

/* Every registered driver keeps the contract and has the roles its
 * header promises. */
static void
check_roles(void)
{
	static const struct {
		const char *name;
		unsigned int roles;
	} want[] = {
		{"gen", COORD_ROLE_SOURCE | COORD_ROLE_COUNTERS},
		{"fwd", COORD_ROLE_COUNTERS},
		{"ovs", COORD_ROLE_VSWITCH | COORD_ROLE_COUNTERS},
		{"telemetry", COORD_ROLE_COUNTERS | COORD_ROLE_PASSIVE},
		{"trex", COORD_ROLE_SOURCE | COORD_ROLE_COUNTERS},
		{"wire", COORD_ROLE_PASSIVE},
	};
	const struct coord_driver *d;
	char err[160];
	unsigned int i;

	for (i = 0; hop_drivers[i] != NULL; i++) {
		err[0] = '\0';
		if (coord_driver_check(hop_drivers[i], err, sizeof(err)) < 0)
			fprintf(stderr, "%s\n", err);
		CHECK(err[0] == '\0');
	}
	CHECK(i == sizeof(want) / sizeof(want[0]));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		d = hop_driver_find(want[i].name);
		CHECK(d != NULL && d->roles == want[i].roles);
	}
}

/*
 * The DPDK telemetry client was first named "testpmd"; topology files
 * that say so still load, as the same driver under its own name.
 */
static void
check_alias(void)
{
	static const char text[] =
		"{\"hops\": ["
		"{\"name\": \"new\", \"driver\": \"telemetry\", \"file_prefix\": \"a\", "
		"\"ports\": [\"0\"]},"
		"{\"name\": \"old\", \"driver\": \"testpmd\", \"file_prefix\": \"b\", "
		"\"ports\": [\"0\"]}],"
		"\"chains\": [[{\"hop\": \"new\", \"port\": \"0\", \"dir\": \"tx\"}, "
		"{\"hop\": \"old\", \"port\": \"0\", \"dir\": \"rx\"}]]}";
	struct coord_topology *t;
	char err[256] = "";

	CHECK(hop_driver_find("telemetry") == &hop_driver_telemetry);
	CHECK(hop_driver_find("testpmd") == &hop_driver_telemetry);
	t = coord_topology_parse(text, "alias.json", hop_driver_find, err, sizeof(err));
	if (t == NULL)
		fprintf(stderr, "%s\n", err);
	CHECK(t != NULL);
	if (t == NULL)
		return;
	CHECK(t->nb_hops == 2);
	CHECK(t->hops[0].hop.driver == &hop_driver_telemetry);
	CHECK(t->hops[1].hop.driver == &hop_driver_telemetry);
	CHECK(strcmp(t->hops[1].hop.driver->name, "telemetry") == 0);
	coord_topology_free(t);
}

/* A wire hop opens with or without "ports": the loader leaves a hop's
 * object as written (it once added "ports": [], which the wire driver's
 * table then refused as an unknown member). */
static void
check_wire(void)
{
	static const char text[] =
		"{\"hops\": ["
		"{\"name\": \"t\", \"driver\": \"telemetry\", \"file_prefix\": \"a\", "
		"\"ports\": [\"0\", \"1\"]},"
		"{\"name\": \"bare\", \"driver\": \"wire\", \"links\": [[\"t:0\", \"t:1\"]]},"
		"{\"name\": \"named\", \"driver\": \"wire\", \"ports\": [\"a\", \"b\"]}],"
		"\"chains\": [[{\"hop\": \"t\", \"port\": \"0\", \"dir\": \"tx\"}, "
		"{\"hop\": \"t\", \"port\": \"1\", \"dir\": \"rx\"}]]}";
	struct coord_topology *t;
	char err[256] = "";
	size_t i;

	t = coord_topology_parse(text, "wire.json", hop_driver_find, err, sizeof(err));
	if (t == NULL)
		fprintf(stderr, "%s\n", err);
	CHECK(t != NULL);
	if (t == NULL)
		return;
	CHECK(json_object_get(t->hops[1].conf, "ports") == NULL);
	for (i = 1; i < 3; i++) {
		int rc = hop_driver_wire.open(&t->hops[i].hop, t->hops[i].conf, err, sizeof(err));

		if (rc != 0)
			fprintf(stderr, "%s\n", err);
		CHECK(rc == 0);
		if (rc == 0)
			hop_driver_wire.close(&t->hops[i].hop);
	}
	coord_topology_free(t);
}

/*
 * A tester on a routed path ("l3"): no trial starts unless the generator
 * has the addresses and has resolved its gateway; a port whose responder
 * is stopped is a warning of the trial (what the loss back is).
 */
static void
check_l3(const char *addr)
{
	static const char neigh_ok[] =
		"[{\"port\": 0, \"ip\": \"10.10.0.2\", \"gateway\": \"10.10.0.1\", "
		"\"gateway_mac\": \"02:00:0A:0A:00:01\", \"ip6\": \"2001:db8::2\", "
		"\"responder\": true, \"silenced\": 0}]";
	struct coord_traffic t = {.size = 64, .flows = 1, .duration_s = 1, .rate = "1kpps"};
	struct coord_hop h3 = {.name = "tester"};
	struct coord_traffic_result res = {0};
	char err[256] = "";
	json_error_t je;
	json_t *conf;

	conf = json_pack_ex(&je, 0, "{s:s,s:[s],s:[{s:s,s:s,s:s,s:s}]}", "ctl", addr, "ports", "p0",
			    "l3", "port", "p0", "ip", "10.10.0.2", "gw", "10.10.0.1", "ip6",
			    "2001:db8:0::2");
	CHECK(drv_open(&hop_driver_gen, &h3, conf, err, sizeof(err)) == 0, "%s", err);
	json_decref(conf);
	fake_neigh = "[{\"port\": 0, \"ip\": \"10.10.0.3\"}]";
	CHECK(hop_driver_gen.traffic_start(&h3, &t, err, sizeof(err)) == -EINVAL);
	CHECK(strcmp(err, "hop tester: l3 p0: ip is 10.10.0.2, the app's port 0 has 10.10.0.3 "
			  "(--addr 0:ip=10.10.0.2)") == 0,
	      "%s", err);
	fake_neigh = "[{\"port\": 0, \"ip\": \"10.10.0.2\", \"ip6\": \"2001:db8::2\", "
		     "\"gateway\": \"10.10.0.1\"}]";
	err[0] = '\0';
	CHECK(hop_driver_gen.traffic_start(&h3, &t, err, sizeof(err)) == -EINVAL);
	CHECK(strcmp(err, "hop tester: l3 p0: gateway 10.10.0.1 unresolved (start the app with "
			  "--l3: it resolves its gateways before it sends)") == 0,
	      "%s", err);
	fake_neigh = NULL;
	err[0] = '\0';
	CHECK(hop_driver_gen.traffic_start(&h3, &t, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "says nothing of its port 0's addresses") != NULL, "%s", err);
	fake_neigh = neigh_ok;
	CHECK(hop_driver_gen.traffic_start(&h3, &t, err, sizeof(err)) == 0, "%s", err);
	CHECK(hop_driver_gen.traffic_result(&h3, &res, err, sizeof(err)) == 0);
	CHECK(res.warnings == NULL);
	json_decref(res.streams);
	memset(&res, 0, sizeof(res));
	fake_neigh = "[{\"port\": 0, \"ip\": \"10.10.0.2\", \"responder\": false, "
		     "\"silenced\": 3}]";
	CHECK(hop_driver_gen.traffic_result(&h3, &res, err, sizeof(err)) == 0);
	CHECK(json_array_size(res.warnings) == 1 &&
		      strcmp(json_string_value(json_array_get(res.warnings, 0)),
			     "hop tester: port p0 answers no ARP/ND (its responder is stopped: "
			     "neigh.set), 3 request(s) for it unanswered: a routed DUT that cannot "
			     "resolve it drops the traffic back") == 0,
	      "%s", json_dumps(res.warnings, 0));
	json_decref(res.warnings);
	json_decref(res.streams);
	fake_neigh = NULL;
	hop_driver_gen.close(&h3);
}

int
main(void)
{
	struct coord_hop guest = {.name = "guest"}, tester = {.name = "tester"};
	struct coord_traffic t = {.size = 64, .flows = 10, .duration_s = 1, .rate = "1Mpps"};
	struct coord_traffic_result res = {0};
	struct pvp_ctl_server *srv;
	struct coord_snap snap;
	char addr[128], err[256];
	json_t *conf;
	int ret;

	snprintf(addr, sizeof(addr), "unix:/tmp/coord-drv-test-%d.sock", (int)getpid());
	srv = fake_server(addr);
	CHECK(srv != NULL);
	if (srv == NULL)
		return 1;
	CHECK(hop_driver_find("gen") == &hop_driver_gen);
	CHECK(hop_driver_find("fwd") == &hop_driver_fwd);
	CHECK(hop_driver_find("wire") != NULL);
	CHECK(hop_driver_find("nope") == NULL);
	check_roles();
	check_alias();
	check_wire();

	/* fwd: "p1" is port 1, the display name finds port 0. */
	conf = hop_conf(addr, "[\"p1\", \"net_virtio_user0\"]");
	CHECK(drv_open(&hop_driver_fwd, &guest, conf, err, sizeof(err)) == 0);
	json_decref(conf);
	CHECK(hop_driver_fwd.snapshot(&guest, &snap, err, sizeof(err)) == 0);
	CHECK(snap.nb_ports == 2);
	CHECK(strcmp(snap.port[0].name, "p1") == 0 && snap.port[0].c[PVP_STATS_rx_packets] == 7);
	CHECK(snap.port[1].c[PVP_STATS_rx_packets] == 100 &&
	      snap.port[1].c[PVP_STATS_tx_packets] == 90);
	CHECK(snap.port[1].c[PVP_STATS_rx_dropped] == 6 &&
	      snap.port[1].c[PVP_STATS_tx_dropped] == 4);
	CHECK(reason(&snap.port[1], "rx_missed") == 3);
	CHECK(reason(&snap.port[1], "rx_nombuf") == 2);
	CHECK(reason(&snap.port[1], "rx_sw_dropped") == 1);
	CHECK(reason(&snap.port[1], "tx_full") == 4);
	CHECK(!snap.port[0].tx_refused_by_peer && !snap.port[1].tx_refused_by_peer);
	CHECK(snap.port[0].added == 0 && snap.port[1].added == 0);
	/* What only pvpkit-gen says means nothing from pvpkit-fwd. */
	fake_tx_full = "drop";
	CHECK(hop_driver_fwd.snapshot(&guest, &snap, err, sizeof(err)) == 0);
	CHECK(!snap.port[0].tx_refused_by_peer && !snap.port[1].tx_refused_by_peer);
	fake_tx_full = "retry";
	/*
	 * The impairment stage's drops, counted in rx_sw_dropped too, are
	 * named apart (app port 0 is topology port 1); never more than the
	 * app's own rx_sw_dropped; a malformed list is a bad answer.
	 */
	fake_impair = "[{\"port\": 0, \"loss_dropped\": 1, \"rate_dropped\": 0, "
		      "\"overflow_dropped\": 0, \"duplicated\": 5, \"reordered\": 4, "
		      "\"delayed\": 9, \"held\": 0}]";
	CHECK(hop_driver_fwd.snapshot(&guest, &snap, err, sizeof(err)) == 0, "%s", err);
	CHECK(reason(&snap.port[1], "rx_sw_dropped") == 0);
	CHECK(reason(&snap.port[1], "impair_dropped") == 1);
	CHECK(reason(&snap.port[0], "impair_dropped") == 0);
	CHECK(reason(&snap.port[1], "rx_missed") == 3);
	/* Its copies are what the hop added to what that port received. */
	CHECK(snap.port[1].added == 5 && snap.port[0].added == 0);
	fake_impair = "[{\"port\": 0, \"loss_dropped\": 7, \"rate_dropped\": 2, "
		      "\"overflow_dropped\": 0, \"duplicated\": 0, \"reordered\": 0, "
		      "\"delayed\": 0, \"held\": 0}]";
	CHECK(hop_driver_fwd.snapshot(&guest, &snap, err, sizeof(err)) == 0, "%s", err);
	CHECK(reason(&snap.port[1], "rx_sw_dropped") == 0);
	CHECK(reason(&snap.port[1], "impair_dropped") == 1);
	fake_impair = "[{\"port\": 0, \"loss_dropped\": -1}]";
	CHECK(hop_driver_fwd.snapshot(&guest, &snap, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "hop guest: bad stats.get answer: impair[0].loss_dropped: must be an "
			  "integer") != NULL,
	      "%s", err);
	fake_impair = "{}";
	err[0] = '\0';
	CHECK(hop_driver_fwd.snapshot(&guest, &snap, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "impair: must be a list") != NULL, "%s", err);
	fake_impair = NULL;
	CHECK(hop_driver_fwd.snapshot(&guest, &snap, err, sizeof(err)) == 0);
	CHECK(reason(&snap.port[1], "rx_sw_dropped") == 1);
	CHECK(hop_driver_fwd.clear(&guest, err, sizeof(err)) == 0);
	hop_driver_fwd.close(&guest);

	/* A port the app does not have. */
	conf = hop_conf(addr, "[\"p5\"]");
	CHECK(drv_open(&hop_driver_fwd, &guest, conf, err, sizeof(err)) == 0);
	json_decref(conf);
	CHECK(hop_driver_fwd.snapshot(&guest, &snap, err, sizeof(err)) == -ENOENT);
	CHECK(strstr(err, "no port \"p5\"") != NULL);
	hop_driver_fwd.close(&guest);

	/* gen: one profile.load for two trials of the same profile. */
	conf = hop_conf(addr, "[\"p0\"]");
	CHECK(drv_open(&hop_driver_gen, &tester, conf, err, sizeof(err)) == 0);
	json_decref(conf);
	/* A generator giving up what its peers refuse (--tx-full drop) says so. */
	CHECK(hop_driver_gen.snapshot(&tester, &snap, err, sizeof(err)) == 0);
	CHECK(snap.nb_ports == 1 && !snap.port[0].tx_refused_by_peer);
	fake_tx_full = "drop";
	CHECK(hop_driver_gen.snapshot(&tester, &snap, err, sizeof(err)) == 0);
	CHECK(snap.port[0].tx_refused_by_peer && snap.port[0].c[PVP_STATS_tx_packets] == 90);
	fake_tx_full = "retry";
	/*
	 * The ARP/ND/echo frames in a port's counters (its responder's "neigh"),
	 * which the trial takes off the tester's link; none without the list.
	 */
	CHECK(snap.port[0].neigh_rx == 0 && snap.port[0].neigh_tx == 0);
	fake_neigh = "[{\"port\": 1, \"arp_rx\": 50, \"tx\": 60},"
		     " {\"port\": 0, \"arp_rx\": 5, \"nd_rx\": 2, \"echo\": 3, \"tx\": 4,"
		     " \"responder\": true}]";
	CHECK(hop_driver_gen.snapshot(&tester, &snap, err, sizeof(err)) == 0, "%s", err);
	CHECK(snap.port[0].neigh_rx == 10 && snap.port[0].neigh_tx == 4, "%lu",
	      (unsigned long)snap.port[0].neigh_rx);
	fake_neigh = "[{\"port\": 0, \"tx\": -4}]";
	CHECK(hop_driver_gen.snapshot(&tester, &snap, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "hop tester: bad stats.get answer: neigh[0].tx: must be an integer") !=
		      NULL,
	      "%s", err);
	fake_neigh = NULL;
	CHECK(hop_driver_gen.traffic_start(&tester, &t, err, sizeof(err)) == 0);
	CHECK(hop_driver_gen.traffic_start(&tester, &t, err, sizeof(err)) == 0);
	CHECK(profile_loads == 1 && traffic_starts == 2);
	CHECK(strcmp(json_string_value(json_object_get(last_start_params, "rate")), "1Mpps") == 0);
	t.flows = 20;
	t.rate = NULL;
	t.rate_pps = 5000;
	CHECK(hop_driver_gen.traffic_start(&tester, &t, err, sizeof(err)) == 0);
	CHECK(profile_loads == 2);
	CHECK(json_number_value(json_object_get(last_start_params, "rate")) == 5000);
	/*
	 * A rate that is not positive (a PDR of 0 in a results file times a
	 * fraction) is refused, never sent as "max": line rate into the DUT
	 * only when asked for by name.
	 */
	{
		static const double bad[] = {0, -2500, NAN};
		unsigned int starts = traffic_starts, i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			t.rate_pps = bad[i];
			err[0] = '\0';
			CHECK(hop_driver_gen.traffic_start(&tester, &t, err, sizeof(err)) ==
				      -EINVAL,
			      "rate %g", bad[i]);
			CHECK(strstr(err, "must be positive") != NULL, "%s", err);
		}
		CHECK(traffic_starts == starts, "%u starts sent", traffic_starts - starts);
		t.rate = "max";
		CHECK(hop_driver_gen.traffic_start(&tester, &t, err, sizeof(err)) == 0);
		CHECK(strcmp(json_string_value(json_object_get(last_start_params, "rate")),
			     "max") == 0);
		t.rate = NULL;
		t.rate_pps = 5000;
	}
	/*
	 * A restarted generator has nothing loaded: once the hop has
	 * reconnected (a trial clears before it starts), the same profile
	 * is loaded again.
	 */
	pvp_ctl_server_destroy(srv);
	srv = fake_server(addr);
	CHECK(srv != NULL);
	if (srv == NULL)
		return 1;
	CHECK(hop_driver_gen.clear(&tester, err, sizeof(err)) == 0, "%s", err);
	CHECK(hop_driver_gen.traffic_start(&tester, &t, err, sizeof(err)) == 0, "%s", err);
	CHECK(profile_loads == 3);
	CHECK(hop_driver_gen.traffic_start(&tester, &t, err, sizeof(err)) == 0);
	CHECK(profile_loads == 3);
	/*
	 * Restarted again, and traffic started first thing (a warm-up): the
	 * start reaches the new generator, which runs what it had; the
	 * driver stops it, loads the profile and starts again.
	 */
	pvp_ctl_server_destroy(srv);
	srv = fake_server(addr);
	CHECK(srv != NULL);
	if (srv == NULL)
		return 1;
	{
		unsigned int starts = traffic_starts;

		CHECK(hop_driver_gen.traffic_start(&tester, &t, err, sizeof(err)) == 0, "%s", err);
		CHECK(profile_loads == 4 && traffic_starts == starts + 2, "loads %u starts %u",
		      profile_loads, traffic_starts - starts);
	}
	check_flow_types(&tester, &t);
	CHECK(hop_driver_gen.traffic_stop(&tester, &res, err, sizeof(err)) == 0);
	CHECK(res.requested_pps == 1000 && res.achieved_pps == 900 && res.generator_limited);
	CHECK(res.has_max_burst && res.max_burst == 41);
	/* traffic_stop() runs before packets settle: no signature account yet. */
	CHECK(!res.has_sig);
	CHECK(hop_driver_gen.traffic_result(&tester, &res, err, sizeof(err)) == 0);
	CHECK(json_array_size(res.streams) == 2);
	{
		/* Only pvpkit-gen's members, each with a value of its kind. */
		const json_t *s0 = json_array_get(res.streams, 0);
		const json_t *s1 = json_array_get(res.streams, 1);
		const json_t *l0 = json_object_get(s0, "latency_ns");
		const json_t *l1 = json_object_get(s1, "latency_ns");

		CHECK(json_object_get(s0, "evil") == NULL && json_object_get(s0, "name") == NULL);
		CHECK(json_integer_value(json_object_get(s0, "rx_packets")) == 59);
		CHECK(json_integer_value(json_object_get(l0, "count")) == 5);
		CHECK(json_object_get(l0, "clock") == NULL && json_object_get(l0, "p50") == NULL &&
		      json_object_get(l0, "histogram") == NULL);
		CHECK(json_is_string(json_object_get(l1, "clock")) &&
		      strcmp(json_string_value(json_object_get(l1, "clock")), "tsc") == 0);
		CHECK(strcmp(json_string_value(json_object_get(s1, "name")), "s1") == 0);
	}
	/* The generator's own accounting, every received frame in one counter. */
	CHECK(res.has_sig && res.sig_offered == 90 && res.sig_rx == 89 && res.sig_lost == 2 &&
	      res.sig_dup == 1 && res.unsigned_rx == 8 && res.unknown_stream_rx == 3);
	json_decref(res.streams);
	res.streams = NULL;
	/* A generator that leaves a counter out gives no account to check against. */
	fake_unknown_rx = false;
	CHECK(hop_driver_gen.traffic_result(&tester, &res, err, sizeof(err)) == 0);
	CHECK(!res.has_sig);
	fake_unknown_rx = true;
	json_decref(res.streams);

	/* "flow_base" as in the ovs hop moves the traffic with the rules. */
	{
		struct coord_hop moved = {.name = "moved"};
		struct coord_traffic t3 = {.size = 64,
					   .flows = 4,
					   .duration_s = 1,
					   .rate_pps = 1000,
					   .flow_type = "l3"};
		json_error_t je;

		conf = json_pack_ex(&je, 0, "{s:s,s:[s],s:{s:s}}", "ctl", addr, "ports", "p0",
				    "flow_base", "l3", "192.168.1.0");
		CHECK(drv_open(&hop_driver_gen, &moved, conf, err, sizeof(err)) == 0);
		json_decref(conf);
		CHECK(hop_driver_gen.traffic_start(&moved, &t3, err, sizeof(err)) == 0);
		CHECK(strcmp(json_string_value(json_object_get(loaded_var(0), "min")),
			     "192.168.1.0") == 0);
		CHECK(strcmp(json_string_value(json_object_get(loaded_var(0), "max")),
			     "192.168.1.3") == 0);
		hop_driver_gen.close(&moved);
		conf = json_pack_ex(&je, 0, "{s:s,s:[s],s:{s:s}}", "ctl", addr, "ports", "p0",
				    "flow_base", "l2", "nope");
		CHECK(drv_open(&hop_driver_gen, &moved, conf, err, sizeof(err)) == -EINVAL);
		CHECK(strstr(err, "flow_base.l2: must be a MAC address") != NULL, "%s", err);
		json_decref(conf);
	}

	/*
	 * A token file is sent to the hop: only a private regular file is
	 * read (never a FIFO, which would block, nor a file others may
	 * read), and no message shows its content.
	 */
	{
		struct coord_hop tok = {.name = "tok"};
		char path[128], want[300];
		json_error_t je;
		FILE *f;

		alarm(30);
		snprintf(path, sizeof(path), "/tmp/coord-drv-token-%d", (int)getpid());
		f = fopen(path, "w");
		CHECK(f != NULL && fputs("root:SECRET:19000\n", f) >= 0 && fclose(f) == 0);
		CHECK(chmod(path, 0640) == 0);
		conf = json_pack_ex(&je, 0, "{s:s,s:[s],s:s}", "ctl", addr, "ports", "p0",
				    "token_file", path);
		CHECK(drv_open(&hop_driver_fwd, &tok, conf, err, sizeof(err)) == -EACCES);
		snprintf(want, sizeof(want),
			 "hop tok: token file %s is accessible by its group (mode 640); "
			 "chmod 600 it",
			 path);
		CHECK(strcmp(err, want) == 0);
		CHECK(strstr(err, "SECRET") == NULL && strstr(err, "root") == NULL);
		json_decref(conf);
		unlink(path);
		CHECK(mkfifo(path, 0600) == 0);
		conf = json_pack_ex(&je, 0, "{s:s,s:[s],s:s}", "ctl", addr, "ports", "p0",
				    "token_file", path);
		CHECK(drv_open(&hop_driver_fwd, &tok, conf, err, sizeof(err)) == -EINVAL);
		snprintf(want, sizeof(want), "hop tok: token file %s: a FIFO, not read", path);
		CHECK(strcmp(err, want) == 0);
		json_decref(conf);
		unlink(path);
		alarm(0);
	}

	check_l3(addr);

	/* The app goes away: the next call names the hop as unreachable. */
	pvp_ctl_server_destroy(srv);
	err[0] = '\0';
	ret = hop_driver_gen.snapshot(&tester, &snap, err, sizeof(err));
	CHECK(ret == -ENOTCONN || ret == -ETIMEDOUT);
	CHECK(strstr(err, "hop tester unreachable") != NULL);
	hop_driver_gen.close(&tester);
	json_decref(last_start_params);
	json_decref(last_load_params);

	return unit_check_end("driver");
}
