/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Trials with mock hop drivers: attribution of loss to hops, the sums
 * that must reconcile, the generator-limited flag, an unreachable hop,
 * and the exact per-hop table for a fixed input.
 */

#include <errno.h>
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
};

static struct mock_state mocks[4];
static unsigned int nb_mocks;
static double mock_requested, mock_achieved;
static bool mock_limited;

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
		m->cur.port[0].rx_packets++;
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
	(void)err;
	(void)err_len;
	((struct mock_state *)hop->priv)->clears++;
	return 0;
}

static int
mock_start(struct coord_hop *hop, const struct coord_traffic *t, char *err, size_t err_len)
{
	unsigned int i;

	(void)hop;
	(void)t;
	(void)err;
	(void)err_len;
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
};

static const struct coord_driver *
mock_lookup(const char *name)
{
	if (strcmp(name, "mock") == 0)
		return &mock_driver;
	if (strcmp(name, "mockgen") == 0)
		return &mock_gen_driver;
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
	bool refused; /* tx_drop are packets the next hop refused */
};

static void
mock_set_port(struct coord_snap *s, unsigned int i, const char *name,
	      const struct mock_port_counts *c, uint64_t base)
{
	struct coord_port *p = &s->port[i];

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->rx_packets = base + c->rx;
	p->tx_packets = base + c->tx;
	p->rx_dropped = base + c->rx_drop;
	p->tx_dropped = base + c->tx_drop;
	p->tx_refused_by_peer = c->refused;
	if (c->rx_reason != NULL) {
		snprintf(p->reasons[p->nb_reasons].name, sizeof(p->reasons[0].name), "%s",
			 c->rx_reason);
		p->reasons[p->nb_reasons++].value = base + c->rx_drop;
	}
	if (c->tx_reason != NULL) {
		snprintf(p->reasons[p->nb_reasons].name, sizeof(p->reasons[0].name), "%s",
			 c->tx_reason);
		p->reasons[p->nb_reasons++].value = base + c->tx_drop;
	}
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
}

static const struct coord_trial_conf quick = {
	.size = 64,
	.flows = 1000,
	.rate = "100kpps",
	.rate_pps = 100000,
	.duration_s = 0.01,
	.quiet_timeout_s = 1,
	.poll_ms = 1,
};

static int
run_trial(struct coord_topology **tp, struct coord_trial_result *r, char *err, size_t len)
{
	struct coord_topology *t;
	int ret;

	t = coord_topology_parse(pvp_topology, "pvp-mock.json", mock_lookup, err, len);
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

static void
test_zero_loss(void)
{
	struct mock_port_counts p0 = {.rx = 1000, .tx = 1000};
	struct coord_trial_result r;
	struct coord_topology *t;
	char err[256];

	mock_scenario(&p0, &p0, &p0, &p0);
	CHECK(run_trial(&t, &r, err, sizeof(err)) == 0);
	CHECK(r.tx_packets == 1000 && r.rx_packets == 1000);
	CHECK(r.hop_lost[0] == 0 && r.hop_lost[1] == 0 && r.hop_lost[2] == 0);
	CHECK(r.unattributed == 0);
	CHECK(r.reconciled);
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
	CHECK(r.reconciled);
	CHECK(r.chain[0].pt[2].lost == 100 && r.chain[0].pt[2].drop == 100);
	CHECK(r.chain[0].pt[2].owner == 1);
	CHECK(r.chain[0].pt[2].nb_reasons == 1 &&
	      strcmp(r.chain[0].pt[2].reasons[0].name, "ovs_tx_failure_drops") == 0 &&
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
	CHECK(r.tx_packets == 1050 && r.rx_packets == 1000);
	CHECK(r.chain[0].pt[0].packets == 1050 && r.chain[0].pt[0].refused == 50);
	CHECK(r.chain[0].pt[1].lost == 50 && r.chain[0].pt[1].drop == 50);
	CHECK(r.chain[0].pt[1].owner == 1 && r.chain[0].pt[1].attributed == 50);
	CHECK(r.chain[0].pt[1].nb_reasons == 1 &&
	      strcmp(r.chain[0].pt[1].reasons[0].name, "rx_ring_full") == 0 &&
	      r.chain[0].pt[1].reasons[0].value == 50);
	CHECK(r.hop_lost[0] == 0 && r.hop_lost[1] == 50 && r.hop_lost[2] == 0);
	CHECK(r.unattributed == 0 && r.reconciled);
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
	CHECK(r.hop_lost[1] == 250 && r.unattributed == 0 && r.reconciled);
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
	CHECK(r.reconciled);
	CHECK(r.tx_packets - r.rx_packets == 60);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
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
	CHECK(r.reconciled);
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
		"  Lost by hop: tester 0, vswitch 1,000, guest 50; unattributed 10\n"
		"  Total lost 1,060 = tester TX 1,000,000 - RX 998,940 (0.1060 %)\n"
		"  Snapshot of all hops in 2.5 ms; counters quiet after 0.10 s\n";
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
	memset(&r, 0, sizeof(r));
	r.conf = quick;
	r.conf.duration_s = 10;
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
		failures++;
	}
	free(out);
	coord_topology_free(t);
}

int
main(void)
{
	test_zero_loss();
	test_drop_at_vswitch();
	test_refused_by_peer();
	test_uncounted_inside_hop();
	test_receiver_drop_and_unattributed();
	test_generator_limited();
	test_unreachable();
	test_never_quiet();
	test_table_exact();
	return unit_check_end("trial");
}
