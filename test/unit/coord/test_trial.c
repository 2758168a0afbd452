/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Trials with mock hop drivers: attribution of loss to hops, the sums
 * that must reconcile, the generator-limited flag, an unreachable hop,
 * and the exact per-hop table for a fixed input.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "coord.h"
#include "../unit_check.h"

/* ---- mock hops: counters jump from "cur" to "final" when traffic starts ---- */

struct mock_state {
	char name[64];
	struct coord_snap cur;
	struct coord_snap final;
	bool die_on_traffic; /* unreachable once traffic started */
	bool dead;
	bool moving; /* counters never stop after traffic */
	bool started;
	unsigned int clears;
	int dead_code;	      /* when dead: this code and line, if set */
	const char *dead_msg; /* (else -ENOTCONN, "hop X unreachable: ...") */
	int clear_code;	      /* clear() fails with this, if set */
};

static struct mock_state mocks[4];
static unsigned int nb_mocks;
static double mock_requested, mock_achieved;
static bool mock_limited;
/* traffic_start() fails with this, if set, writing as drivers do (first error kept). */
static int mock_start_code;
/* What the source's traffic_result reports (signature accounting, burst). */
static struct coord_traffic_result mock_final;

static struct mock_state *
mock_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < nb_mocks; i++)
		if (strcmp(mocks[i].name, name) == 0)
			return &mocks[i];
	return NULL;
}

static int
mock_open(struct coord_hop *hop, const json_t *conf, char *err, size_t err_len)
{
	(void)conf;
	hop->priv = mock_find(hop->name);
	if (hop->priv == NULL) {
		snprintf(err, err_len, "no mock for %s", hop->name);
		return -ENOENT;
	}
	return 0;
}

static int
mock_snapshot(struct coord_hop *hop, struct coord_snap *snap, char *err, size_t err_len)
{
	struct mock_state *m = hop->priv;

	if (m->moving && m->started)
		m->cur.port[0].c[PVP_STATS_rx_packets]++;
	if (m->dead && m->dead_msg != NULL) {
		snprintf(err, err_len, "%s", m->dead_msg);
		return m->dead_code;
	}
	if (m->dead) {
		snprintf(err, err_len, "hop %s unreachable: connection refused", hop->name);
		return -ENOTCONN;
	}
	*snap = m->cur;
	return 0;
}

static int
mock_clear(struct coord_hop *hop, char *err, size_t err_len)
{
	struct mock_state *m = hop->priv;

	m->clears++;
	if (m->clear_code != 0) {
		snprintf(err, err_len, "clear failed");
		return m->clear_code;
	}
	return 0;
}

static int
mock_start(struct coord_hop *hop, const struct coord_traffic *t, char *err, size_t err_len)
{
	unsigned int i;

	(void)t;
	if (mock_start_code != 0)
		return pvp_fail(err, err_len, mock_start_code, "hop %s: traffic.start refused",
				hop->name);
	for (i = 0; i < nb_mocks; i++) {
		mocks[i].cur = mocks[i].final;
		mocks[i].started = true;
		if (mocks[i].die_on_traffic)
			mocks[i].dead = true;
	}
	return 0;
}

static int
mock_stop(struct coord_hop *hop, struct coord_traffic_result *res, char *err, size_t err_len)
{
	(void)hop;
	(void)err;
	(void)err_len;
	res->requested_pps = mock_requested;
	res->achieved_pps = mock_achieved;
	res->generator_limited = mock_limited;
	return 0;
}

static int
mock_result(struct coord_hop *hop, struct coord_traffic_result *res, char *err, size_t err_len)
{
	(void)hop;
	(void)err;
	(void)err_len;
	*res = mock_final;
	res->streams = NULL;
	return 0;
}

/* One-way latency: the guest's clock.get and the source's oneway_set. */
static bool mock_stamp;	    /* the guest says "stamp": true */
static json_t *mock_oneway; /* what oneway_set answers; NULL: it fails */
static unsigned int mock_oneway_calls;
static bool mock_oneway_peer_ok; /* the sample came without "stamp" */

static int
mock_fwd_call(struct coord_hop *hop, const char *method, json_t *params, json_t **result, char *err,
	      size_t err_len)
{
	(void)hop;
	(void)params;
	if (strcmp(method, "clock.get") != 0) {
		snprintf(err, err_len, "no method %s", method);
		return -ENOENT;
	}
	*result = json_pack("{s:i,s:i,s:i,s:s,s:b}", "tsc_hz", 2500000000, "tsc", 7, "mono_ns", 9,
			    "boot_id", "b", "stamp", mock_stamp);
	return 0;
}

static int
mock_oneway_set(struct coord_hop *hop, const json_t *peer, json_t **result, char *err,
		size_t err_len)
{
	mock_oneway_calls++;
	mock_oneway_peer_ok = json_object_get(peer, "stamp") == NULL &&
			      json_integer_value(json_object_get(peer, "tsc")) == 7;
	if (mock_oneway == NULL)
		return pvp_fail(err, err_len, -EPROTO, "hop %s: oneway.set: method not found",
				hop->name);
	*result = json_deep_copy(mock_oneway);
	return 0;
}

static const struct coord_driver mock_driver = {
	.name = "mock",
	.roles = COORD_ROLE_COUNTERS,
	.open = mock_open,
	.snapshot = mock_snapshot,
	.clear = mock_clear,
};

static const struct coord_driver mock_gen_driver = {
	.name = "mockgen",
	.roles = COORD_ROLE_SOURCE | COORD_ROLE_COUNTERS,
	.open = mock_open,
	.snapshot = mock_snapshot,
	.clear = mock_clear,
	.traffic_start = mock_start,
	.traffic_stop = mock_stop,
	.traffic_result = mock_result,
	.oneway_set = mock_oneway_set,
};

/* A guest that is a pvpkit-fwd (driver "fwd"), as far as clock.get goes. */
static const struct coord_driver mock_fwd_driver = {
	.name = "fwd",
	.roles = COORD_ROLE_COUNTERS,
	.open = mock_open,
	.snapshot = mock_snapshot,
	.clear = mock_clear,
	.call = mock_fwd_call,
};

static const struct coord_driver *
mock_lookup(const char *name)
{
	if (strcmp(name, "mock") == 0)
		return &mock_driver;
	if (strcmp(name, "mockgen") == 0)
		return &mock_gen_driver;
	if (strcmp(name, "fwd") == 0)
		return &mock_fwd_driver;
	return NULL;
}

static const char pvp_topology[] =
	"{\"name\": \"pvp-mock\", \"hops\": ["
	" {\"name\": \"tester\", \"driver\": \"mockgen\", \"ports\": [\"p0\"]},"
	" {\"name\": \"vswitch\", \"driver\": \"mock\", \"ports\": [\"phy0\", \"vhost0\"]},"
	" {\"name\": \"guest\", \"driver\": \"mock\", \"ports\": [\"vnic0\"]}],"
	" \"chains\": [["
	" {\"hop\": \"tester\", \"port\": \"p0\", \"dir\": \"tx\", \"label\": \"sent by tester\"},"
	" {\"hop\": \"vswitch\", \"port\": \"phy0\", \"dir\": \"rx\", \"label\": \"received by "
	"physical\"},"
	" {\"hop\": \"vswitch\", \"port\": \"vhost0\", \"dir\": \"tx\", \"label\": \"sent to "
	"virtual\"},"
	" {\"hop\": \"guest\", \"port\": \"vnic0\", \"dir\": \"rx\", \"label\": \"received by "
	"virtual\"},"
	" {\"hop\": \"guest\", \"port\": \"vnic0\", \"dir\": \"tx\", \"label\": \"sent by "
	"virtual\"},"
	" {\"hop\": \"vswitch\", \"port\": \"vhost0\", \"dir\": \"rx\", \"label\": \"received from "
	"virtual\"},"
	" {\"hop\": \"vswitch\", \"port\": \"phy0\", \"dir\": \"tx\", \"label\": \"sent by "
	"physical\"},"
	" {\"hop\": \"tester\", \"port\": \"p0\", \"dir\": \"rx\", \"label\": \"received by "
	"tester\"}"
	"]]}";

/* Counters of one port: packets and drops of each direction. */
struct mock_port_counts {
	uint64_t rx, rx_drop, tx, tx_drop;
	const char *rx_reason, *tx_reason;
	bool refused;		     /* tx_drop are packets the next hop refused */
	uint64_t neigh_rx, neigh_tx; /* ARP/ND frames in rx and tx */
};

static void
mock_set_port(struct coord_snap *s, unsigned int i, const char *name,
	      const struct mock_port_counts *c, uint64_t base)
{
	struct coord_port *p = &s->port[i];

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->c[PVP_STATS_rx_packets] = base + c->rx;
	p->c[PVP_STATS_tx_packets] = base + c->tx;
	p->c[PVP_STATS_rx_dropped] = base + c->rx_drop;
	p->c[PVP_STATS_tx_dropped] = base + c->tx_drop;
	p->tx_refused_by_peer = c->refused;
	p->neigh_rx = base + c->neigh_rx;
	p->neigh_tx = base + c->neigh_tx;
	/* Reasons of the vocabulary take its side; "both" for the others. */
	if (c->rx_reason != NULL)
		coord_port_add_named_reason(p, c->rx_reason, COORD_SIDE_BOTH, base + c->rx_drop);
	if (c->tx_reason != NULL)
		coord_port_add_named_reason(p, c->tx_reason, COORD_SIDE_BOTH, base + c->tx_drop);
	if (i + 1 > s->nb_ports)
		s->nb_ports = i + 1;
}

/*
 * Set the mocks up: counters start at 5000 everywhere (not cleared, so
 * the trial must work on differences) and end at 5000 + the given
 * counts.
 */
static void
mock_scenario(const struct mock_port_counts *p0, const struct mock_port_counts *phy0,
	      const struct mock_port_counts *vhost0, const struct mock_port_counts *vnic0)
{
	static const struct mock_port_counts zero;

	memset(mocks, 0, sizeof(mocks));
	nb_mocks = 3;
	snprintf(mocks[0].name, sizeof(mocks[0].name), "tester");
	snprintf(mocks[1].name, sizeof(mocks[1].name), "vswitch");
	snprintf(mocks[2].name, sizeof(mocks[2].name), "guest");
	mock_set_port(&mocks[0].cur, 0, "p0", &zero, 5000);
	mock_set_port(&mocks[1].cur, 0, "phy0", &zero, 5000);
	mock_set_port(&mocks[1].cur, 1, "vhost0", &zero, 5000);
	mock_set_port(&mocks[2].cur, 0, "vnic0", &zero, 5000);
	/* The reasons exist before traffic too, at the base value. */
	mock_set_port(&mocks[0].final, 0, "p0", p0, 5000);
	mock_set_port(&mocks[1].final, 0, "phy0", phy0, 5000);
	mock_set_port(&mocks[1].final, 1, "vhost0", vhost0, 5000);
	mock_set_port(&mocks[2].final, 0, "vnic0", vnic0, 5000);
	mock_set_port(
		&mocks[0].cur, 0, "p0",
		&(struct mock_port_counts){.rx_reason = p0->rx_reason, .tx_reason = p0->tx_reason},
		5000);
	mock_set_port(&mocks[1].cur, 0, "phy0",
		      &(struct mock_port_counts){.rx_reason = phy0->rx_reason,
						 .tx_reason = phy0->tx_reason},
		      5000);
	mock_set_port(&mocks[1].cur, 1, "vhost0",
		      &(struct mock_port_counts){.rx_reason = vhost0->rx_reason,
						 .tx_reason = vhost0->tx_reason},
		      5000);
	mock_set_port(&mocks[2].cur, 0, "vnic0",
		      &(struct mock_port_counts){.rx_reason = vnic0->rx_reason,
						 .tx_reason = vnic0->tx_reason},
		      5000);
	mock_requested = 100000;
	mock_achieved = 100000;
	mock_limited = false;
	memset(&mock_final, 0, sizeof(mock_final));
}

/*
 * The source's own accounting for a trial where @p tx were offered and
 * @p rx received back, all signed and once each: what a generator that
 * counts right reports.
 */
static void
mock_sig(uint64_t tx, uint64_t rx)
{
	mock_final.has_sig = true;
	mock_final.sig_offered = tx;
	mock_final.sig_rx = rx;
	mock_final.sig_lost = tx - rx;
}

/* Does @p r have a finding of check @p c naming hop @p hop (-1: any)? */
static bool
has_finding(const struct coord_trial_result *r, enum coord_check c, int hop, bool invalid)
{
	unsigned int i;

	for (i = 0; i < r->nb_findings; i++)
		if (r->findings[i].check == c && (hop < 0 || r->findings[i].hop == hop) &&
		    r->findings[i].invalid == invalid)
			return true;
	return false;
}

/* The per-hop table of @p r as a string (free it). */
static char *
table_of(const struct coord_topology *t, const struct coord_trial_result *r)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	coord_table_print(f, t, r);
	fclose(f);
	return out;
}

static const struct coord_trial_conf quick = {
	.traffic = {.size = 64,
		    .flows = 1000,
		    .rate = "100kpps",
		    .rate_pps = 100000,
		    .duration_s = 0.01},
	.quiet_timeout_s = 1,
	.poll_ms = 1,
};

/* The topology run_trial() parses: pvp_topology, or a variant of it. */
static const char *mock_topology = pvp_topology;

static int
run_trial(struct coord_topology **tp, struct coord_trial_result *r, char *err, size_t len)
{
	struct coord_topology *t;
	int ret;

	t = coord_topology_parse(mock_topology, "pvp-mock.json", mock_lookup, err, len);
	if (t == NULL) {
		fprintf(stderr, "parse: %s\n", err);
		return -EINVAL;
	}
	ret = coord_topology_open(t, err, len);
	if (ret == 0)
		ret = coord_trial_run(t, &quick, r, err, len);
	*tp = t;
	return ret;
}

/*
 * One-way latency (coord_oneway.c): a guest "fwd" that stamps hands its
 * clock sample (without "stamp") to the source before the trial; what
 * the source finds is the record's "oneway" and a line of the table. No
 * stamp: nothing asked, nothing recorded; a source that cannot: a warning.
 */
static void
oneway_case(bool stamp, const char *answer, const char *want_line, bool want_record)
{
	char topo[sizeof(pvp_topology)], *at, err[256], *tab;
	struct mock_port_counts p0 = {.rx = 1000, .tx = 1000};
	const char *from = "\"guest\", \"driver\": \"mock\"";
	struct coord_trial_result r;
	struct coord_topology *t;
	json_t *rec;

	unit_check_case = answer != NULL ? answer : "(oneway_set fails)";
	snprintf(topo, sizeof(topo), "%s", pvp_topology);
	at = strstr(topo, from);
	CHECK(at != NULL);
	if (at == NULL)
		return;
	/* "mock" and "fwd " are as long: the driver's name, padded. */
	memcpy(at + strlen(from) - 5, "fwd\" ", 5);
	mock_topology = topo;
	mock_scenario(&p0, &p0, &p0, &p0);
	mock_stamp = stamp;
	mock_oneway = answer != NULL ? json_loads(answer, 0, NULL) : NULL;
	mock_oneway_calls = 0;
	mock_oneway_peer_ok = false;
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0, "%s", err);
	CHECK(mock_oneway_calls == (stamp ? 1u : 0u), "oneway_set called %u times",
	      mock_oneway_calls);
	CHECK(!stamp || mock_oneway_peer_ok, "the guest's sample, without \"stamp\"");
	CHECK((r.oneway != NULL) == want_record);
	tab = table_of(t, &r);
	CHECK(want_line == NULL ? strstr(tab, "One-way") == NULL : strstr(tab, want_line) != NULL,
	      "table:\n%s", tab);
	free(tab);
	rec = coord_trial_to_json(t, &r);
	CHECK(rec != NULL && (json_object_get(rec, "oneway") != NULL) == want_record);
	if (want_record)
		CHECK(json_equal(json_object_get(json_object_get(rec, "oneway"), "clock"),
				 json_object_get(mock_oneway, "clock")) &&
			      strcmp(json_string_value(json_object_get(r.oneway, "guest")),
				     "guest") == 0 &&
			      strcmp(json_string_value(json_object_get(r.oneway, "source")),
				     "tester") == 0,
		      "record: %s", json_dumps(json_object_get(rec, "oneway"), 0));
	if (stamp && answer == NULL)
		CHECK(r.warnings != NULL &&
			      strstr(json_string_value(json_array_get(r.warnings, 0)),
				     "one-way latency: hop tester: oneway.set") != NULL,
		      "warning");
	json_decref(rec);
	json_decref(mock_oneway);
	mock_oneway = NULL;
	coord_trial_result_clear(&r);
	coord_topology_free(t);
	mock_topology = pvp_topology;
	unit_check_case = NULL;
}

/*
 * A source t1 and hops @p h2 and @p h3 of drivers @p d2 and @p d3, the
 * guests stamping, and coord_oneway_prepare() into @p r.
 * @return the topology (for coord_topology_free()), or NULL.
 */
static struct coord_topology *
oneway_three(const char *h2, const char *d2, const char *h3, const char *d3,
	     struct coord_trial_result *r)
{
	const char *names[] = {"t1", h2, h3};
	struct coord_topology *t;
	char topo[512], err[256] = "";
	unsigned int i;

	snprintf(topo, sizeof(topo),
		 "{\"hops\": [{\"name\": \"t1\", \"driver\": \"mockgen\", \"ports\": [\"p0\"]},"
		 " {\"name\": \"%s\", \"driver\": \"%s\", \"ports\": [\"p0\"]},"
		 " {\"name\": \"%s\", \"driver\": \"%s\", \"ports\": [\"p0\"]}],"
		 " \"chains\": [[{\"hop\": \"t1\", \"port\": \"p0\", \"dir\": \"tx\"},"
		 " {\"hop\": \"t1\", \"port\": \"p0\", \"dir\": \"rx\"}]]}",
		 h2, d2, h3, d3);
	memset(mocks, 0, sizeof(mocks));
	nb_mocks = 3;
	for (i = 0; i < 3; i++)
		snprintf(mocks[i].name, sizeof(mocks[i].name), "%s", names[i]);
	mock_stamp = true;
	mock_oneway_calls = 0;
	t = coord_topology_parse(topo, "three.json", mock_lookup, err, sizeof(err));
	CHECK(t != NULL && coord_topology_open(t, err, sizeof(err)) == 0, "%s", err);
	if (t != NULL)
		coord_oneway_prepare(t, r);
	return t;
}

/* Two sources that cannot: a warning each, with its own hop's words. */
static void
test_oneway_two_sources(void)
{
	struct coord_trial_result r = {0};
	struct coord_topology *t;

	mock_oneway = NULL;
	t = oneway_three("t2", "mockgen", "guest", "fwd", &r);
	if (t == NULL)
		return;
	CHECK(json_array_size(r.warnings) == 2 &&
		      strcmp(json_string_value(json_array_get(r.warnings, 0)),
			     "one-way latency: hop t1: oneway.set: method not found") == 0 &&
		      strcmp(json_string_value(json_array_get(r.warnings, 1)),
			     "one-way latency: hop t2: oneway.set: method not found") == 0,
	      "%s", json_dumps(r.warnings, 0));
	json_decref(r.warnings);
	coord_topology_free(t);
}

/* Two guests that stamp: the first one's clock, and a warning that says so. */
static void
test_oneway_two_guests(void)
{
	struct coord_trial_result r = {0};
	struct coord_topology *t;

	mock_oneway = json_loads("{\"clock\": \"shared\", \"offset_ns\": 1}", 0, NULL);
	t = oneway_three("g1", "fwd", "g2", "fwd", &r);
	if (t != NULL) {
		CHECK(mock_oneway_calls == 1 && json_array_size(r.warnings) == 1 &&
			      strstr(json_string_value(json_array_get(r.warnings, 0)),
				     "more than one guest stamps (--stamp)") != NULL &&
			      strcmp(json_string_value(json_object_get(r.oneway, "guest")), "g1") ==
				      0,
		      "warnings %s, oneway %s", json_dumps(r.warnings, 0), json_dumps(r.oneway, 0));
		json_decref(r.warnings);
		json_decref(r.oneway);
		coord_topology_free(t);
	}
	json_decref(mock_oneway);
	mock_oneway = NULL;
}

static void
test_oneway(void)
{
	oneway_case(true, "{\"clock\": \"shared\", \"offset_ns\": 12.5}",
		    "One-way latency (guest's TSC is tester's)", true);
	oneway_case(true, "{\"clock\": \"differs\", \"reason\": \"TSCs 5000 ns apart\"}",
		    "One-way latency: not measured, guest's clock is not tester's (TSCs 5000 ns "
		    "apart)",
		    true);
	oneway_case(false, "{\"clock\": \"shared\"}", NULL, false);
	oneway_case(true, NULL, NULL, false);
}

static void
test_zero_loss(void)
{
	struct mock_port_counts p0 = {.rx = 1000, .tx = 1000};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256];

	mock_scenario(&p0, &p0, &p0, &p0);
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(coord_trial_tx_packets(&r) == 1000 && coord_trial_rx_packets(&r) == 1000);
	CHECK(r.hop_lost[0] == 0 && r.hop_lost[1] == 0 && r.hop_lost[2] == 0);
	CHECK(r.unattributed == 0);
	CHECK(coord_trial_reconciled(&r));
	CHECK(r.quiet);
	CHECK(!r.traffic.generator_limited);
	CHECK(mocks[0].clears == 1 && mocks[1].clears == 1 && mocks[2].clears == 1);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

static void
test_drop_at_vswitch(void)
{
	struct mock_port_counts p0 = {.tx = 1000, .rx = 900};
	struct mock_port_counts phy0 = {.rx = 1000, .tx = 900};
	struct mock_port_counts vhost0 = {
		.tx = 900, .tx_drop = 100, .tx_reason = "ovs_tx_failure_drops", .rx = 900};
	struct mock_port_counts vnic0 = {.rx = 900, .tx = 900};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256];

	mock_scenario(&p0, &phy0, &vhost0, &vnic0);
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(r.hop_lost[1] == 100);
	CHECK(r.hop_lost[2] == 0);
	CHECK(r.unattributed == 0);
	CHECK(coord_trial_reconciled(&r));
	CHECK(r.chain[0].pt[2].lost == 100 && r.chain[0].pt[2].drop == 100);
	CHECK(r.chain[0].pt[2].owner == 1);
	CHECK(r.chain[0].pt[2].nb_reasons == 1 &&
	      strcmp(coord_reason_name(r.chain[0].pt[2].reasons[0].id), "ovs_tx_failure_drops") ==
		      0 &&
	      r.chain[0].pt[2].reasons[0].value == 100);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/*
 * The tester offered 1050; the vswitch's RX ring refused 50 of them
 * (pvpkit-gen --tx-full drop on virtio-user): they are tester TX and the
 * vswitch's loss on receive, as rx_missed would be on a NIC.
 */
static void
test_refused_by_peer(void)
{
	struct mock_port_counts p0 = {.tx = 1000, .tx_drop = 50, .refused = true, .rx = 1000};
	struct mock_port_counts pass = {.rx = 1000, .tx = 1000};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256];

	mock_scenario(&p0, &pass, &pass, &pass);
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(coord_trial_tx_packets(&r) == 1050 && coord_trial_rx_packets(&r) == 1000);
	CHECK(r.chain[0].pt[0].packets == 1050 && r.chain[0].pt[0].refused == 50);
	CHECK(r.chain[0].pt[1].lost == 50 && r.chain[0].pt[1].drop == 50);
	CHECK(r.chain[0].pt[1].owner == 1 && r.chain[0].pt[1].attributed == 50);
	CHECK(r.chain[0].pt[1].nb_reasons == 1 &&
	      strcmp(coord_reason_name(r.chain[0].pt[1].reasons[0].id), "rx_ring_full") == 0 &&
	      r.chain[0].pt[1].reasons[0].value == 50);
	CHECK(r.hop_lost[0] == 0 && r.hop_lost[1] == 50 && r.hop_lost[2] == 0);
	CHECK(r.unattributed == 0 && coord_trial_reconciled(&r));
	/* What the table and a search's "lost at" say of each hop's loss. */
	{
		char why[160];

		coord_trial_hop_why(t, &r, 1, why, sizeof(why));
		CHECK(strcmp(why, "rx_ring_full 50") == 0);
		coord_trial_hop_why(t, &r, 0, why, sizeof(why));
		CHECK(why[0] == '\0');
	}
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/* Loss inside a hop that counted nothing (an OpenFlow drop rule) is still the hop's. */
static void
test_uncounted_inside_hop(void)
{
	struct mock_port_counts p0 = {.tx = 1000, .rx = 750};
	struct mock_port_counts phy0 = {.rx = 1000, .tx = 750};
	struct mock_port_counts vhost0 = {.tx = 750, .rx = 750};
	struct mock_port_counts vnic0 = {.rx = 750, .tx = 750};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256];

	mock_scenario(&p0, &phy0, &vhost0, &vnic0);
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(r.hop_lost[1] == 250 && r.unattributed == 0 && coord_trial_reconciled(&r));
	CHECK(r.chain[0].pt[2].drop == 0);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

static void
test_receiver_drop_and_unattributed(void)
{
	struct mock_port_counts p0 = {.tx = 1000, .rx = 940};
	struct mock_port_counts phy0 = {.rx = 1000, .tx = 940};
	struct mock_port_counts vhost0 = {.tx = 1000, .rx = 940};
	struct mock_port_counts vnic0 = {
		.rx = 950, .rx_drop = 50, .rx_reason = "rx_missed", .tx = 950};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256];

	mock_scenario(&p0, &phy0, &vhost0, &vnic0);
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(r.hop_lost[2] == 50);  /* guest counted its rx drops */
	CHECK(r.unattributed == 10); /* guest tx 950 -> vswitch rx 940: no one */
	CHECK(r.hop_lost[1] == 0);
	CHECK(coord_trial_reconciled(&r));
	CHECK(coord_trial_tx_packets(&r) - coord_trial_rx_packets(&r) == 60);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/*
 * A guest the testbed runs in QEMU without KVM (testbed up --vm, TCG):
 * every record and table says its figures are functional only; a KVM
 * guest's are not marked; an unknown kind is refused.
 */
static void
test_vm_tcg(void)
{
	struct mock_port_counts p0 = {.rx = 1000, .tx = 1000};
	static const char *const kinds[] = {"vm-tcg", "vm-kvm"};
	struct coord_trial_result r;
	struct coord_topology *t;
	char text[sizeof(pvp_topology) + 64], err[256];
	unsigned int i;
	char *table;
	json_t *j;

	for (i = 0; i < 2; i++) {
		snprintf(text, sizeof(text), "{\"testbed\": {\"vm\": \"%s\"}, %s", kinds[i],
			 pvp_topology + 1);
		mock_scenario(&p0, &p0, &p0, &p0);
		t = coord_topology_parse(text, "pvp-vm.json", mock_lookup, err, sizeof(err));
		CHECK(t != NULL);
		if (t == NULL) {
			fprintf(stderr, "parse: %s\n", err);
			continue;
		}
		CHECK(coord_topology_open(t, err, sizeof(err)) == 0);
		CHECK(coord_trial_run(t, &quick, &r, err, sizeof(err)) == 0);
		j = coord_trial_to_json(t, &r);
		CHECK(strcmp(json_string_value(json_object_get(j, "vm")), kinds[i]) == 0);
		CHECK(json_is_true(json_object_get(j, "functional_only")) == (i == 0));
		table = table_of(t, &r);
		CHECK((strstr(table,
			      "WARNING: functional only: the guest is a QEMU VM without KVM") !=
		       NULL) == (i == 0));
		free(table);
		json_decref(j);
		coord_trial_result_clear(&r);
		coord_topology_free(t);
	}
	snprintf(text, sizeof(text), "{\"testbed\": {\"vm\": \"vm-xen\"}, %s", pvp_topology + 1);
	CHECK(coord_topology_parse(text, "pvp-vm.json", mock_lookup, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "testbed.vm") != NULL);
}

static void
test_generator_limited(void)
{
	struct mock_port_counts p0 = {.rx = 1000, .tx = 1000};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256];
	json_t *j;

	mock_scenario(&p0, &p0, &p0, &p0);
	mock_achieved = 61000;
	mock_limited = true;
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(r.traffic.generator_limited);
	j = coord_trial_to_json(t, &r);
	CHECK(j != NULL);
	CHECK(json_is_true(json_object_get(j, "generator_limited")));
	CHECK(json_is_false(json_object_get(j, "dut_result")));
	CHECK(json_is_true(json_object_get(j, "reconciled")));
	json_decref(j);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

static void
test_unreachable(void)
{
	struct mock_port_counts p0 = {.rx = 1000, .tx = 1000};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256] = "";

	mock_scenario(&p0, &p0, &p0, &p0);
	mocks[2].die_on_traffic = true;
	CHECK(run_trial(&t, &r, err, sizeof(err)) < 0);
	CHECK(strstr(err, "hop guest unreachable") != NULL);
	coord_topology_free(t);
}

/*
 * An error's type is its code, not its text: a refused connection with
 * no "unreachable" in the driver's line is an unreachable hop, and a
 * protocol error whose line happens to say "unreachable" is not.
 */
static void
test_error_types(void)
{
	struct mock_port_counts p0 = {.rx = 1000, .tx = 1000};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256] = "";

	CHECK(coord_err_unreachable(-ECONNREFUSED) && coord_err_unreachable(-ETIMEDOUT));
	CHECK(!coord_err_unreachable(-ENOENT) && !coord_err_unreachable(-EPROTO));
	CHECK(!coord_err_unreachable(0));
	CHECK(coord_err_connect(-ENOENT) == -ECONNREFUSED);
	CHECK(coord_err_connect(-ECONNRESET) == -ECONNRESET);

	mock_scenario(&p0, &p0, &p0, &p0);
	mocks[2].die_on_traffic = true;
	mocks[2].dead_code = -ECONNREFUSED;
	mocks[2].dead_msg = "unix:/x: connect: No such file or directory";
	CHECK(run_trial(&t, &r, err, sizeof(err)) == -ECONNREFUSED);
	CHECK(strcmp(err, "hop guest unreachable: unix:/x: connect: No such file or directory") ==
		      0,
	      "%s", err);
	coord_topology_free(t);

	mock_scenario(&p0, &p0, &p0, &p0);
	mocks[2].die_on_traffic = true;
	mocks[2].dead_code = -EPROTO;
	mocks[2].dead_msg = "bad answer: \"unreachable\" is not a counter";
	CHECK(run_trial(&t, &r, err, sizeof(err)) == -EPROTO);
	CHECK(strcmp(err, "hop guest: bad answer: \"unreachable\" is not a counter") == 0, "%s",
	      err);
	coord_topology_free(t);

	/* clear(): an unreachable code ends the trial, another one warns. */
	mock_scenario(&p0, &p0, &p0, &p0);
	mocks[2].clear_code = -ECONNRESET;
	CHECK(run_trial(&t, &r, err, sizeof(err)) == -ECONNRESET);
	coord_topology_free(t);
	mock_scenario(&p0, &p0, &p0, &p0);
	mocks[2].clear_code = -EPROTO;
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0, "%s", err);
	CHECK(json_array_size(r.warnings) == 1);
	coord_trial_result_clear(&r);
	/*
	 * The warning's line is not the trial's error, nor is what the
	 * buffer held before: a start that fails after them says why.
	 */
	mock_start_code = -EPROTO;
	CHECK(coord_trial_run(t, &quick, &r, err, sizeof(err)) == -EPROTO);
	CHECK(strcmp(err, "hop tester: traffic.start refused") == 0, "%s", err);
	mocks[2].clear_code = 0;
	snprintf(err, sizeof(err), "an earlier error");
	CHECK(coord_trial_run(t, &quick, &r, err, sizeof(err)) == -EPROTO);
	CHECK(strcmp(err, "hop tester: traffic.start refused") == 0, "%s", err);
	mock_start_code = 0;
	coord_topology_free(t);
}

/*
 * Drop reasons carry their side: the vocabulary's own, or the one the
 * driver gives a name it does not know; never one guessed from the name.
 */
static void
test_reason_sides(void)
{
	struct coord_port p;

	memset(&p, 0, sizeof(p));
	CHECK(strcmp(coord_reason_name(COORD_REASON_rx_missed), "rx_missed") == 0);
	CHECK(coord_reason_side(COORD_REASON_rx_missed) == COORD_SIDE_RX);
	CHECK(coord_reason_side(COORD_REASON_tx_full) == COORD_SIDE_TX);
	CHECK(coord_reason_side(COORD_REASON_ovs_rx_qos_drops) == COORD_SIDE_RX);
	CHECK(coord_reason_name(COORD_NB_REASON_IDS + COORD_MAX_OWN_REASONS) == NULL);
	coord_port_add_reason(&p, COORD_REASON_ovs_tx_failure_drops, 5);
	/* A known name takes the vocabulary's side whatever the caller says. */
	coord_port_add_named_reason(&p, "rx_nombuf", COORD_SIDE_TX, 6);
	/* An unknown name keeps the side it is given, "rx" in it or not. */
	coord_port_add_named_reason(&p, "rx_xoff_packets_sent", COORD_SIDE_TX, 7);
	CHECK(p.nb_reasons == 3);
	CHECK(strcmp(coord_reason_name(p.reasons[0].id), "ovs_tx_failure_drops") == 0 &&
	      p.reasons[0].side == COORD_SIDE_TX && p.reasons[0].value == 5);
	CHECK(p.reasons[1].side == COORD_SIDE_RX && p.reasons[1].value == 6);
	CHECK(p.reasons[2].side == COORD_SIDE_TX && p.reasons[2].value == 7);
	/* A reason is its id: a known name is the vocabulary's, a hop's own
	 * name one id each time it is seen, and its name is kept (cut to
	 * COORD_OWN_REASON_LEN - 1 characters). */
	CHECK(p.reasons[1].id == COORD_REASON_rx_nombuf);
	CHECK(p.reasons[2].id >= COORD_NB_REASON_IDS &&
	      strcmp(coord_reason_name(p.reasons[2].id), "rx_xoff_packets_sent") == 0);
	coord_port_add_named_reason(&p, "rx_xoff_packets_sent", COORD_SIDE_TX, 8);
	coord_port_add_named_reason(&p, "rx_q0_a_very_long_xstat_name_of_a_pmd_that_goes_on",
				    COORD_SIDE_RX, 9);
	CHECK(p.nb_reasons == 5 && p.reasons[3].id == p.reasons[2].id);
	CHECK(strcmp(coord_reason_name(p.reasons[4].id),
		     "rx_q0_a_very_long_xstat_name_of_a_pmd_that_goes") == 0,
	      "%s", coord_reason_name(p.reasons[4].id));
	while (p.nb_reasons < COORD_MAX_REASONS)
		coord_port_add_reason(&p, COORD_REASON_tx_full, 1);
	coord_port_add_reason(&p, COORD_REASON_tx_full, 1);
	CHECK(p.nb_reasons == COORD_MAX_REASONS);
}

/* Counters that never stop: the trial says so instead of pretending. */
static void
test_never_quiet(void)
{
	struct mock_port_counts p0 = {.rx = 1000, .tx = 1000};
	struct coord_trial_conf c = quick;
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256], *out = NULL;
	size_t len = 0;
	FILE *f;

	mock_scenario(&p0, &p0, &p0, &p0);
	mocks[2].moving = true;
	c.quiet_timeout_s = 0.05;
	t = coord_topology_parse(pvp_topology, "pvp-mock.json", mock_lookup, err, sizeof(err));
	CHECK(t != NULL);
	if (t == NULL)
		return;
	CHECK(coord_topology_open(t, err, sizeof(err)) == 0);
	CHECK(coord_trial_run(t, &c, &r, err, sizeof(err)) == 0);
	CHECK(!r.quiet);
	/* The guest's count grew after the vswitch's was read: not one trial. */
	CHECK(!coord_trial_reconciled(&r) && coord_trial_invalid(&r) &&
	      has_finding(&r, COORD_CHECK_NEGATIVE, 2, true));
	f = open_memstream(&out, &len);
	coord_table_print(f, t, &r);
	fclose(f);
	CHECK(strstr(out, "WARNING: counters still moving") != NULL);
	free(out);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/* The table for a fixed input, byte for byte. */
static void
test_table_exact(void)
{
	static const char expected[] =
		"Trial on pvp-mock: 64 B, 1,000 flows, 10.0 s at 100kpps (requested 100,000 pps, "
		"achieved 100,000 pps)\n"
		"  Packets sent by tester       :      1,000,000\n"
		"  Packets received by physical :      1,000,000  [Lost 0, Drop 0]\n"
		"  Packets sent to virtual      :        999,000  [Lost 1,000 (vswitch), Drop "
		"1,000: ovs_tx_failure_drops 1,000]\n"
		"  Packets received by virtual  :        998,950  [Lost 50 (guest), Drop 50: "
		"rx_missed 50]\n"
		"  Packets sent by virtual      :        998,950  [Lost 0, Drop 0]\n"
		"  Packets received from virtual:        998,940  [Lost 10 (unattributed), Drop "
		"0]\n"
		"  Packets sent by physical     :        998,940  [Lost 0, Drop 0]\n"
		"  Packets received by tester   :        998,940  [Lost 0, Drop 0]\n"
		"  Lost by hop: tester 0, vswitch 1,000 (ovs_tx_failure_drops 1,000), guest 50 "
		"(rx_missed 50); unattributed 10\n"
		"  Total lost 1,060 = tester TX 1,000,000 - RX 998,940 (0.1060 %)\n"
		"  Snapshot of all hops in 2.5 ms; counters quiet after 0.10 s\n"
		"  Checks: signature not checked, drop counters ok, no negative loss, counters "
		"monotonic\n";
	struct mock_port_counts p0 = {.tx = 1000000, .rx = 998940};
	struct mock_port_counts phy0 = {.rx = 1000000, .tx = 998940};
	struct mock_port_counts vhost0 = {
		.tx = 999000, .tx_drop = 1000, .tx_reason = "ovs_tx_failure_drops", .rx = 998940};
	struct mock_port_counts vnic0 = {
		.rx = 998950, .rx_drop = 50, .rx_reason = "rx_missed", .tx = 998950};
	struct coord_snap before[3], after[3];
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256], *out = NULL;
	size_t len = 0;
	unsigned int i;
	FILE *f;

	mock_scenario(&p0, &phy0, &vhost0, &vnic0);
	for (i = 0; i < 3; i++) {
		before[i] = mocks[i].cur;
		after[i] = mocks[i].final;
	}
	t = coord_topology_parse(pvp_topology, "pvp-mock.json", mock_lookup, err, sizeof(err));
	CHECK(t != NULL);
	if (t == NULL)
		return;
	CHECK(coord_trial_result_alloc(&r, t) == 0);
	r.conf = quick;
	r.conf.traffic.duration_s = 10;
	r.traffic.requested_pps = 100000;
	r.traffic.achieved_pps = 100000;
	r.quiet = true;
	r.quiet_s = 0.1;
	r.snapshot_ms = 2.5;
	coord_attribute(t, before, after, &r);
	f = open_memstream(&out, &len);
	coord_table_print(f, t, &r);
	fclose(f);
	if (strcmp(out, expected) != 0) {
		fprintf(stderr, "table differs; got:\n%s\nexpected:\n%s\n", out, expected);
		unit_check_failures++;
	}
	free(out);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/*
 * The generator's per-stream accounting agrees with the port counters:
 * the check runs and passes, also with unsigned frames and frames of an
 * unknown stream received (each is in exactly one counter).
 */
static void
test_signature_ok(void)
{
	struct mock_port_counts p0 = {.tx = 1000, .rx = 950};
	struct mock_port_counts phy0 = {.rx = 1000, .tx = 950};
	struct mock_port_counts vhost0 = {
		.tx = 950, .tx_drop = 50, .tx_reason = "ovs_tx_failure_drops", .rx = 950};
	struct mock_port_counts vnic0 = {.rx = 950, .tx = 950};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256], *out;
	json_t *j;

	mock_scenario(&p0, &phy0, &vhost0, &vnic0);
	/*
	 * Of the 950 frames back, 940 are the streams' (2 of them twice), 6
	 * lost their signature and 4 carry a stream id the generator does not
	 * send: 1000 - 938 unique = 62 lost by sequence number.
	 */
	mock_sig(1000, 940);
	mock_final.sig_lost = 62;
	mock_final.sig_dup = 2;
	mock_final.unsigned_rx = 6;
	mock_final.unknown_stream_rx = 4;
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(r.sig_checked && coord_trial_reconciled(&r) && !coord_trial_invalid(&r) &&
	      r.nb_findings == 0);
	out = table_of(t, &r);
	CHECK(strstr(out, "  Checks: signature ok (lost 62, dup 2, unsigned 6, unknown stream 4), "
			  "drop counters ok, no negative loss, counters monotonic\n") != NULL);
	free(out);
	j = coord_trial_to_json(t, &r);
	CHECK(json_is_true(json_object_get(j, "reconciled")));
	CHECK(json_is_false(json_object_get(j, "invalid")));
	CHECK(json_is_true(json_object_get(j, "dut_result")));
	CHECK(strcmp(json_string_value(json_object_get(json_object_get(j, "checks"), "signature")),
		     "ok") == 0);
	CHECK(json_integer_value(
		      json_object_get(json_object_get(j, "signature"), "unknown_stream_rx")) == 4);
	json_decref(j);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/*
 * A routed DUT's neighbour traffic: 20 ARP/ND frames reach the tester
 * besides the streams' 950, and the generator counts them in neigh_rx.
 * Without neigh_rx in its accounting the signature check failed ("tester
 * RX counted 970, its streams account for 950").
 */
static void
test_signature_neigh(void)
{
	struct mock_port_counts p0 = {.tx = 1000, .rx = 970};
	struct mock_port_counts phy0 = {.rx = 1000, .tx = 970};
	struct mock_port_counts vhost0 = {
		.tx = 950, .tx_drop = 50, .tx_reason = "ovs_tx_failure_drops", .rx = 950};
	struct mock_port_counts vnic0 = {.rx = 950, .tx = 950};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256], *out;
	json_t *j;

	mock_scenario(&p0, &phy0, &vhost0, &vnic0);
	mock_sig(1000, 950);
	mock_final.sig_lost = 50;
	mock_final.neigh_rx = 20;
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(r.sig_checked && !has_finding(&r, COORD_CHECK_SIGNATURE, -1, false));
	out = table_of(t, &r);
	CHECK(strstr(out, "  Checks: signature ok (lost 50, dup 0, unsigned 0, unknown stream 0) "
			  "(ARP/ND 20)") != NULL,
	      "%s", out);
	free(out);
	j = coord_trial_to_json(t, &r);
	CHECK(json_integer_value(json_object_get(json_object_get(j, "signature"), "neigh_rx")) ==
	      20);
	json_decref(j);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
	/* The same frames the generator did not count: the check says so. */
	mock_scenario(&p0, &phy0, &vhost0, &vnic0);
	mock_sig(1000, 950);
	mock_final.sig_lost = 50;
	mock_final.neigh_rx = 15;
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	out = table_of(t, &r);
	CHECK(strstr(out,
		     "CHECK FAILED: signature: tester RX counted 970, its streams account "
		     "for 965 (950 signed, 0 unsigned, 0 unknown stream, 15 ARP/ND)\n") != NULL,
	      "%s", out);
	free(out);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/*
 * A routed DUT and a tester that speaks ARP with it: the tester sent 10
 * gratuitous ARPs (consumed by the vswitch, which forwards none) and
 * received 20 ARP requests the vswitch sent itself, and its ports say so
 * (neigh_tx, neigh_rx). The vswitch lost 50 of the 1000 stream packets.
 * Counted as traffic, the ARP frames made the vswitch "lose" 10 more on
 * the way in and "emit 20 more than it received" on the way out, and
 * the zero-loss test of a search read 1010 sent, 970 received.
 */
static void
test_neigh_link_local(void)
{
	struct mock_port_counts p0 = {.tx = 1010, .rx = 970, .neigh_tx = 10, .neigh_rx = 20};
	struct mock_port_counts phy0 = {.rx = 1010, .tx = 970};
	struct mock_port_counts vhost0 = {.tx = 1000, .rx = 1000};
	struct mock_port_counts vnic0 = {.rx = 1000, .tx = 1000};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256], *out;

	mock_scenario(&p0, &phy0, &vhost0, &vnic0);
	mock_sig(1000, 950);
	mock_final.neigh_rx = 20;
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(coord_trial_tx_packets(&r) == 1000 && coord_trial_rx_packets(&r) == 950,
	      "tx %" PRIu64 " rx %" PRIu64, coord_trial_tx_packets(&r), coord_trial_rx_packets(&r));
	CHECK(r.hop_lost[1] == 50 && r.unattributed == 0);
	CHECK(coord_trial_reconciled(&r) && !coord_trial_invalid(&r));
	CHECK(!has_finding(&r, COORD_CHECK_NEGATIVE, -1, false));
	CHECK(r.sig_checked && !has_finding(&r, COORD_CHECK_SIGNATURE, -1, false));
	out = table_of(t, &r);
	CHECK(strstr(out, "!negative loss") == NULL, "%s", out);
	free(out);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/*
 * ARP/ND frames on the tester's link to a vswitch that does not count
 * them (OVS: its neigh counters read 0), so its points take the tester's
 * count. The tester announces 100 times in 10 s (neigh_tx) and answers
 * the vswitch's 20 ARP requests (neigh_rx); both snapshots of all hops
 * took 2 ms. An announcement (or a request) that crosses the link between
 * the tester's reading and the vswitch's is in one count and not the
 * other: at 10 a second, up to one in each 2 ms snapshot. It read as a
 * negative loss on the link (the trial invalid: "the counters are not of
 * one trial") and as much loss of the vswitch, or the other way round.
 * What the rate and the snapshots' length cannot explain, and every real
 * loss, is still there.
 */
struct neigh_race_case {
	const char *name;
	struct mock_port_counts p0, phy0, vhost0, vnic0;
	int64_t vswitch_lost; /* hop_lost of the vswitch */
	int64_t unattributed;
	bool negative; /* a negative-loss finding (it makes the trial invalid) */
};

static const struct neigh_race_case neigh_race_cases[] = {
	{.name = "no race",
	 .p0 = {.tx = 1100, .rx = 1020, .neigh_tx = 100, .neigh_rx = 20},
	 .phy0 = {.rx = 1100, .tx = 1020},
	 .vhost0 = {.rx = 1000, .tx = 1000},
	 .vnic0 = {.rx = 1000, .tx = 1000},
	 .vswitch_lost = 0,
	 .unattributed = 0,
	 .negative = false},
	{.name = "announcement between the final readings, tester first",
	 .p0 = {.tx = 1100, .rx = 1020, .neigh_tx = 100, .neigh_rx = 20},
	 .phy0 = {.rx = 1101, .tx = 1020},
	 .vhost0 = {.rx = 1000, .tx = 1000},
	 .vnic0 = {.rx = 1000, .tx = 1000},
	 .vswitch_lost = 0,
	 .unattributed = 0,
	 .negative = false},
	{.name = "announcement between the baselines, tester first",
	 .p0 = {.tx = 1100, .rx = 1020, .neigh_tx = 100, .neigh_rx = 20},
	 .phy0 = {.rx = 1099, .tx = 1020},
	 .vhost0 = {.rx = 1000, .tx = 1000},
	 .vnic0 = {.rx = 1000, .tx = 1000},
	 .vswitch_lost = 0,
	 .unattributed = 0,
	 .negative = false},
	{.name = "one in each snapshot",
	 .p0 = {.tx = 1100, .rx = 1020, .neigh_tx = 100, .neigh_rx = 20},
	 .phy0 = {.rx = 1102, .tx = 1020},
	 .vhost0 = {.rx = 1000, .tx = 1000},
	 .vnic0 = {.rx = 1000, .tx = 1000},
	 .vswitch_lost = 0,
	 .unattributed = 0,
	 .negative = false},
	{.name = "request between the final readings, vswitch first",
	 .p0 = {.tx = 1100, .rx = 1020, .neigh_tx = 100, .neigh_rx = 20},
	 .phy0 = {.rx = 1100, .tx = 1021},
	 .vhost0 = {.rx = 1000, .tx = 1000},
	 .vnic0 = {.rx = 1000, .tx = 1000},
	 .vswitch_lost = 0,
	 .unattributed = 0,
	 .negative = false},
	{.name = "request between the baselines, vswitch first",
	 .p0 = {.tx = 1100, .rx = 1020, .neigh_tx = 100, .neigh_rx = 20},
	 .phy0 = {.rx = 1100, .tx = 1019},
	 .vhost0 = {.rx = 1000, .tx = 1000},
	 .vnic0 = {.rx = 1000, .tx = 1000},
	 .vswitch_lost = 0,
	 .unattributed = 0,
	 .negative = false},
	{.name = "the vswitch lost 5, and a race",
	 .p0 = {.tx = 1100, .rx = 1015, .neigh_tx = 100, .neigh_rx = 20},
	 .phy0 = {.rx = 1101, .tx = 1015},
	 .vhost0 = {.tx = 995, .rx = 995},
	 .vnic0 = {.rx = 995, .tx = 995},
	 .vswitch_lost = 5,
	 .unattributed = 0,
	 .negative = false},
	{.name = "3 lost on the link",
	 .p0 = {.tx = 1100, .rx = 1017, .neigh_tx = 100, .neigh_rx = 20},
	 .phy0 = {.rx = 1097, .tx = 1017},
	 .vhost0 = {.tx = 997, .rx = 997},
	 .vnic0 = {.rx = 997, .tx = 997},
	 .vswitch_lost = 0,
	 .unattributed = 3,
	 .negative = false},
	{.name = "30 more than the tester sent",
	 .p0 = {.tx = 1100, .rx = 1020, .neigh_tx = 100, .neigh_rx = 20},
	 .phy0 = {.rx = 1130, .tx = 1020},
	 .vhost0 = {.rx = 1000, .tx = 1000},
	 .vnic0 = {.rx = 1000, .tx = 1000},
	 .vswitch_lost = 28,
	 .unattributed = -28,
	 .negative = true},
	{.name = "a vswitch that counts its own",
	 .p0 = {.tx = 1100, .rx = 1020, .neigh_tx = 100, .neigh_rx = 20},
	 .phy0 = {.rx = 1101, .tx = 1020, .neigh_rx = 101, .neigh_tx = 20},
	 .vhost0 = {.rx = 1000, .tx = 1000},
	 .vnic0 = {.rx = 1000, .tx = 1000},
	 .vswitch_lost = 0,
	 .unattributed = 0,
	 .negative = false},
};

static void
test_neigh_race(void)
{
	struct coord_snap before[3], after[3];
	struct coord_trial_result r;
	struct coord_topology *t;
	unsigned int c, i;
	char err[256];

	t = coord_topology_parse(pvp_topology, "pvp-mock.json", mock_lookup, err, sizeof(err));
	CHECK(t != NULL, "%s", err);
	if (t == NULL)
		return;
	for (c = 0; c < sizeof(neigh_race_cases) / sizeof(neigh_race_cases[0]); c++) {
		const struct neigh_race_case *nc = &neigh_race_cases[c];

		unit_check_case = nc->name;
		mock_scenario(&nc->p0, &nc->phy0, &nc->vhost0, &nc->vnic0);
		for (i = 0; i < 3; i++) {
			before[i] = mocks[i].cur;
			after[i] = mocks[i].final;
			before[i].t_ns = 1000000000;
			after[i].t_ns = 11000000000;
		}
		CHECK(coord_trial_result_alloc(&r, t) == 0);
		r.conf = quick;
		r.conf.traffic.duration_s = 10;
		r.baseline_ms = 2;
		r.snapshot_ms = 2;
		coord_attribute(t, before, after, &r);
		CHECK(coord_trial_tx_packets(&r) == 1000 &&
			      coord_trial_rx_packets(&r) == nc->vnic0.tx,
		      "tx %" PRIu64 " rx %" PRIu64, coord_trial_tx_packets(&r),
		      coord_trial_rx_packets(&r));
		CHECK(r.hop_lost[0] == 0 && r.hop_lost[1] == nc->vswitch_lost &&
			      r.hop_lost[2] == 0 && r.unattributed == nc->unattributed,
		      "vswitch lost %" PRId64 ", unattributed %" PRId64, r.hop_lost[1],
		      r.unattributed);
		CHECK(has_finding(&r, COORD_CHECK_NEGATIVE, -1, true) == nc->negative &&
			      !has_finding(&r, COORD_CHECK_NEGATIVE, -1, false) &&
			      coord_trial_invalid(&r) == nc->negative,
		      "%s", r.nb_findings > 0 ? r.findings[0].text : "no finding");
		coord_trial_result_clear(&r);
	}
	unit_check_case = NULL;
	coord_topology_free(t);
}

/*
 * What a source knows of a loss (pvpkit-gen: a port whose ARP/ND
 * responder is stopped) is a warning of the trial, in its table and
 * JSON.
 */
static void
test_source_warnings(void)
{
	static const char line[] =
		"hop tester: port p0 answers no ARP/ND (its responder is stopped)";
	struct mock_port_counts p0 = {.tx = 1000, .rx = 0};
	struct mock_port_counts phy0 = {.rx = 1000, .tx = 0};
	struct mock_port_counts vhost0 = {.tx = 1000, .rx = 1000};
	struct mock_port_counts vnic0 = {.rx = 1000, .tx = 1000};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256], *out;
	json_t *j;

	mock_scenario(&p0, &phy0, &vhost0, &vnic0);
	mock_sig(1000, 0);
	mock_final.warnings = json_pack("[s]", line);
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	mock_final.warnings = NULL;
	CHECK(r.hop_lost[1] == 1000);
	out = table_of(t, &r);
	CHECK(strstr(out, "WARNING: hop tester: port p0 answers no ARP/ND") != NULL, "%s", out);
	free(out);
	j = coord_trial_to_json(t, &r);
	CHECK(strcmp(json_string_value(json_array_get(json_object_get(j, "warnings"), 0)), line) ==
	      0);
	json_decref(j);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/* A tester whose RX port counter is wrong: the streams received fewer. */
static void
test_signature_wrong_rx(void)
{
	struct mock_port_counts p0 = {.tx = 1000, .rx = 1000};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256], *out;
	json_t *j;

	mock_scenario(&p0, &p0, &p0, &p0);
	mock_sig(1000, 990);
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(r.sig_checked && !coord_trial_reconciled(&r) && !coord_trial_invalid(&r));
	CHECK(has_finding(&r, COORD_CHECK_SIGNATURE, -1, false));
	out = table_of(t, &r);
	CHECK(strstr(out, "CHECK FAILED: signature: tester RX counted 1,000, its streams account "
			  "for 990 (990 signed, 0 unsigned, 0 unknown stream)\n") != NULL);
	CHECK(strstr(out, "CHECK FAILED: signature: chain lost 0, the streams 10 (lost 10 - "
			  "duplicates 0 - unsigned 0 - unknown stream 0)\n") != NULL);
	CHECK(strstr(out, "  Checks: signature FAILED") != NULL);
	free(out);
	j = coord_trial_to_json(t, &r);
	CHECK(json_is_false(json_object_get(j, "reconciled")));
	CHECK(strcmp(json_string_value(json_object_get(json_object_get(j, "checks"), "signature")),
		     "failed") == 0);
	CHECK(json_array_size(json_object_get(j, "findings")) == 2);
	json_decref(j);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/*
 * Frames a generator received but reported in no counter (signed frames
 * of an unknown stream left out): the chain's RX is more than the
 * streams account for, and the check says so.
 */
static void
test_signature_uncounted_frames(void)
{
	struct mock_port_counts p0 = {.tx = 1000, .rx = 1040};
	struct mock_port_counts pass = {.rx = 1000, .tx = 1000};
	struct mock_port_counts phy0 = {.rx = 1000, .tx = 1040};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256];

	mock_scenario(&p0, &phy0, &pass, &pass);
	mock_sig(1000, 1000);
	mock_final.unsigned_rx = 30; /* 10 of the 40 extra frames counted nowhere */
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(!coord_trial_reconciled(&r) && has_finding(&r, COORD_CHECK_SIGNATURE, -1, false));
	/* The vswitch emitted 40 more than it received: flagged too. */
	CHECK(has_finding(&r, COORD_CHECK_NEGATIVE, 1, false) && !coord_trial_invalid(&r));
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/* A hop whose drop counter says more than it lost: a wrong counter. */
static void
test_drops_exceed_loss(void)
{
	struct mock_port_counts p0 = {.tx = 1000, .rx = 900};
	struct mock_port_counts phy0 = {.rx = 1000, .tx = 900};
	struct mock_port_counts vhost0 = {
		.tx = 900, .tx_drop = 150, .tx_reason = "ovs_tx_failure_drops", .rx = 900};
	struct mock_port_counts vnic0 = {.rx = 900, .tx = 900};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256], *out;

	mock_scenario(&p0, &phy0, &vhost0, &vnic0);
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(r.hop_lost[1] == 100 && r.hop_drops[1] == 150);
	CHECK(!coord_trial_reconciled(&r) && !coord_trial_invalid(&r) &&
	      has_finding(&r, COORD_CHECK_DROPS, 1, false));
	out = table_of(t, &r);
	CHECK(strstr(out, "CHECK FAILED: hop vswitch counted 150 drops on the path but lost 100 "
			  "packets there\n") != NULL);
	free(out);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/*
 * Loss a hop's counters do not explain (an OpenFlow drop rule) is the
 * hop's and is shown, but it is not a failure; nor is policing, which OVS
 * counts as an RX drop of a packet it also counted as received.
 */
static void
test_drops_uncounted_and_policing(void)
{
	struct mock_port_counts p0 = {.tx = 1000, .rx = 500};
	struct mock_port_counts phy0 = {.rx = 1000, .tx = 500};
	struct mock_port_counts vhost0 = {
		.tx = 750, .rx = 750, .rx_drop = 250, .rx_reason = "ovs_rx_qos_drops"};
	struct mock_port_counts vnic0 = {.rx = 750, .tx = 750};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256], *out;

	mock_scenario(&p0, &phy0, &vhost0, &vnic0);
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(r.hop_lost[1] == 500 && r.hop_drops[1] == 250);
	CHECK(coord_trial_reconciled(&r) && r.nb_findings == 0);
	out = table_of(t, &r);
	CHECK(strstr(out, "drop counters ok (vswitch 250 on none)") != NULL);
	free(out);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/* A hop that emits more than it received: flagged, the hop named. */
static void
test_negative_in_hop(void)
{
	struct mock_port_counts p0 = {.tx = 1000, .rx = 1100};
	struct mock_port_counts phy0 = {.rx = 1000, .tx = 1100};
	struct mock_port_counts vhost0 = {.tx = 1100, .rx = 1100};
	struct mock_port_counts vnic0 = {.rx = 1100, .tx = 1100};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256], *out;
	json_t *j, *pt;

	mock_scenario(&p0, &phy0, &vhost0, &vnic0);
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(!coord_trial_reconciled(&r) && !coord_trial_invalid(&r) &&
	      has_finding(&r, COORD_CHECK_NEGATIVE, 1, false));
	CHECK(r.chain[0].pt[2].flags == 1u << COORD_CHECK_NEGATIVE);
	out = table_of(t, &r);
	CHECK(strstr(out, "  Packets sent to virtual      :          1,100  [Lost -100 "
			  "(unattributed), Drop 0]  !negative loss\n") != NULL);
	CHECK(strstr(out, "CHECK FAILED: hop vswitch emitted 100 more than it received (1,000 "
			  "\"received by physical\", 1,100 \"sent to virtual\")\n") != NULL);
	free(out);
	j = coord_trial_to_json(t, &r);
	pt = json_array_get(json_array_get(json_object_get(j, "chains"), 0), 2);
	CHECK(json_array_size(json_object_get(pt, "flags")) == 1 &&
	      strcmp(json_string_value(json_array_get(json_object_get(pt, "flags"), 0)),
		     "negative_loss") == 0);
	CHECK(json_is_true(json_object_get(j, "dut_result")));
	json_decref(j);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/*
 * A guest that duplicates on purpose (pvpkit-fwd's impairment stage): it
 * emits more than it received by the copies it says it added, which is no
 * negative loss; its loss is net of them and its drops are checked
 * against its loss plus them.
 */
static void
test_added_in_hop(void)
{
	struct mock_port_counts p0 = {.tx = 1000, .rx = 1090};
	struct mock_port_counts phy0 = {.rx = 1000, .tx = 1090};
	struct mock_port_counts vhost0 = {.tx = 1000, .rx = 1090};
	struct mock_port_counts vnic0 = {
		.rx = 1000, .rx_drop = 10, .tx = 1090, .rx_reason = "impair_dropped"};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256], *out;
	json_t *j, *pt;

	mock_scenario(&p0, &phy0, &vhost0, &vnic0);
	mocks[2].cur.port[0].added = 7;
	mocks[2].final.port[0].added = 107;
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(coord_trial_reconciled(&r) && !coord_trial_invalid(&r) && r.nb_findings == 0);
	CHECK(r.hop_lost[2] == -90 && r.hop_added[2] == 100 && r.hop_drops[2] == 10);
	CHECK(r.unattributed == 0);
	out = table_of(t, &r);
	CHECK(strstr(out, "  Packets sent by virtual      :          1,090  [Lost -90 (guest), "
			  "Added 100 on purpose, Drop 0]\n") != NULL);
	CHECK(strstr(out, "  Added on purpose: guest 100\n") != NULL);
	CHECK(strstr(out, "no negative loss") != NULL);
	free(out);
	j = coord_trial_to_json(t, &r);
	pt = json_array_get(json_array_get(json_object_get(j, "chains"), 0), 4);
	CHECK(json_integer_value(json_object_get(pt, "added")) == 100);
	CHECK(json_integer_value(json_object_get(json_object_get(j, "hop_added"), "guest")) == 100);
	json_decref(j);
	coord_trial_result_clear(&r);
	coord_topology_free(t);

	/* 50 more than it added: that much is still flagged. */
	vnic0.tx = 1140;
	p0.rx = phy0.tx = vhost0.rx = 1140;
	mock_scenario(&p0, &phy0, &vhost0, &vnic0);
	mocks[2].final.port[0].added = 100;
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(!coord_trial_reconciled(&r) && has_finding(&r, COORD_CHECK_NEGATIVE, 2, false));
	CHECK(r.hop_lost[2] == -100 && r.unattributed == -40);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/* A receiver that counted more than its sender sent: not one trial. */
static void
test_negative_on_link(void)
{
	struct mock_port_counts p0 = {.tx = 1000, .rx = 1000};
	struct mock_port_counts vhost0 = {.tx = 700, .rx = 1000};
	struct mock_port_counts vnic0 = {.rx = 1000, .tx = 1000};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256];
	json_t *j;

	mock_scenario(&p0, &p0, &vhost0, &vnic0);
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	/* The vswitch "lost" 300 and the guest "found" them again. */
	CHECK(r.hop_lost[1] == 300 && r.unattributed == -300);
	CHECK(coord_trial_invalid(&r) && has_finding(&r, COORD_CHECK_NEGATIVE, 2, true));
	j = coord_trial_to_json(t, &r);
	CHECK(json_is_true(json_object_get(j, "invalid")));
	CHECK(json_is_false(json_object_get(j, "dut_result")));
	json_decref(j);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/*
 * The vswitch restarted mid-trial (OVS killed and started again): its
 * counters after the trial are below those before. Read as differences
 * they gave negative losses that cancelled into a small unattributed
 * figure and a DUT result; the trial must be invalid and name the hop.
 */
static void
test_counter_backwards(void)
{
	struct mock_port_counts p0 = {.tx = 200000, .rx = 75560};
	struct mock_port_counts vnic0 = {.rx = 200000, .tx = 200000};
	struct mock_port_counts zero = {0};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256], *out;
	json_t *j;

	mock_scenario(&p0, &zero, &zero, &vnic0);
	/* Restarted: its counters start again from 0 and reach 75,560 / 124,440. */
	mocks[1].cur.port[0].c[PVP_STATS_rx_packets] = 130000;
	mocks[1].cur.port[0].c[PVP_STATS_tx_packets] = 130000;
	mocks[1].final.port[0].c[PVP_STATS_rx_packets] = 124440;
	mocks[1].final.port[0].c[PVP_STATS_tx_packets] = 75560;
	mocks[1].final.port[1].c[PVP_STATS_rx_packets] = 75560;
	mocks[1].final.port[1].c[PVP_STATS_tx_packets] = 124440;
	mocks[1].final.port[1].c[PVP_STATS_rx_dropped] = 0;
	mocks[1].final.port[1].c[PVP_STATS_tx_dropped] = 0;
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(coord_trial_invalid(&r) && !coord_trial_reconciled(&r));
	CHECK(has_finding(&r, COORD_CHECK_BACKWARDS, 1, true));
	CHECK(r.chain[0].pt[1].flags & (1u << COORD_CHECK_BACKWARDS));
	out = table_of(t, &r);
	CHECK(strstr(out, "INVALID: hop vswitch: phy0 rx_packets went backwards (130,000 -> "
			  "124,440) (and 3 more counters): the hop restarted or its counters were "
			  "reset\n") != NULL);
	/* Nothing else: the rest follows from the reset. */
	CHECK(r.nb_findings == 1);
	CHECK(strstr(out, "INVALID: this trial is not a measurement of the DUT\n") != NULL);
	CHECK(strstr(out, "!counter went backwards") != NULL);
	free(out);
	j = coord_trial_to_json(t, &r);
	CHECK(json_is_true(json_object_get(j, "invalid")));
	CHECK(json_is_false(json_object_get(j, "dut_result")));
	CHECK(strcmp(json_string_value(json_object_get(
			     json_array_get(json_object_get(j, "findings"), 0), "hop")),
		     "vswitch") == 0);
	json_decref(j);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/* The generator's largest catch-up burst: recorded, flagged over the limit. */
static void
test_burst(void)
{
	struct mock_port_counts p0 = {.rx = 1000, .tx = 1000};
	struct coord_trial_conf c = quick;
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256], *out;
	json_t *j;

	mock_scenario(&p0, &p0, &p0, &p0);
	mock_final.has_max_burst = true;
	mock_final.max_burst = 320;
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(r.traffic.max_burst == 320 && coord_trial_reconciled(&r));
	j = coord_trial_to_json(t, &r);
	CHECK(json_integer_value(json_object_get(j, "max_burst")) == 320);
	CHECK(strcmp(json_string_value(json_object_get(json_object_get(j, "checks"), "burst")),
		     "recorded") == 0);
	json_decref(j);
	coord_trial_result_clear(&r);
	coord_topology_free(t);

	c.max_burst = 270;
	t = coord_topology_parse(pvp_topology, "pvp-mock.json", mock_lookup, err, sizeof(err));
	CHECK(t != NULL && coord_topology_open(t, err, sizeof(err)) == 0);
	mock_scenario(&p0, &p0, &p0, &p0);
	mock_final.has_max_burst = true;
	mock_final.max_burst = 320;
	CHECK(coord_trial_run(t, &c, &r, err, sizeof(err)) == 0);
	CHECK(!coord_trial_reconciled(&r) && !coord_trial_invalid(&r) &&
	      has_finding(&r, COORD_CHECK_BURST, -1, false));
	out = table_of(t, &r);
	CHECK(strstr(out, ", largest burst 320 OVER --max-burst\n") != NULL);
	CHECK(strstr(out,
		     "CHECK FAILED: burst: the generator sent 320 packets back to back ahead "
		     "of its schedule (catch-up after a stall), over --max-burst 270\n") != NULL);
	free(out);
	j = coord_trial_to_json(t, &r);
	CHECK(json_integer_value(json_object_get(j, "max_burst_limit")) == 270);
	CHECK(strcmp(json_string_value(json_object_get(json_object_get(j, "checks"), "burst")),
		     "failed") == 0);
	json_decref(j);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
}

/*
 * A result is small enough for any stack: its per-chain, per-point and
 * per-hop arrays are one allocation sized by the topology (three hops,
 * one chain of six points here), not by the COORD_MAX_ bounds (154 KB).
 */
static void
test_result_sized_by_topology(void)
{
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256];

	CHECK(sizeof(r) < 8192, "struct coord_trial_result is %zu bytes", sizeof(r));
	t = coord_topology_parse(pvp_topology, "pvp-mock.json", mock_lookup, err, sizeof(err));
	CHECK(t != NULL, "%s", err);
	if (t == NULL)
		return;
	CHECK(coord_trial_result_alloc(&r, t) == 0);
	CHECK(r.nb_hops == t->nb_hops && r.nb_chains == t->nb_chains && r.chain != NULL,
	      "%u hops, %u chains", r.nb_hops, r.nb_chains);
	/* Every array is there and zeroed, up to its last entry. */
	CHECK(r.chain[0].pt[t->chains[0].nb_points - 1].packets == 0 &&
	      r.hop_lost[t->nb_hops - 1] == 0 && !r.has_first_tx[t->nb_hops - 1]);
	coord_trial_result_clear(&r);
	CHECK(r.chain == NULL && r.hop_lost == NULL);
	coord_topology_free(t);
}

int
main(void)
{
	test_result_sized_by_topology();
	test_zero_loss();
	test_drop_at_vswitch();
	test_refused_by_peer();
	test_uncounted_inside_hop();
	test_receiver_drop_and_unattributed();
	test_generator_limited();
	test_vm_tcg();
	test_unreachable();
	test_error_types();
	test_reason_sides();
	test_never_quiet();
	test_table_exact();
	test_signature_ok();
	test_signature_neigh();
	test_neigh_link_local();
	test_neigh_race();
	test_source_warnings();
	test_signature_wrong_rx();
	test_signature_uncounted_frames();
	test_drops_exceed_loss();
	test_drops_uncounted_and_policing();
	test_negative_in_hop();
	test_added_in_hop();
	test_negative_on_link();
	test_counter_backwards();
	test_burst();
	test_oneway();
	test_oneway_two_sources();
	test_oneway_two_guests();
	return unit_check_end("trial");
}
