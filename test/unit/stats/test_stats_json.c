/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Unit tests of lib/stats' DPDK-free part (pvp_stats_json): diff and
 * rates of synthetic snapshots, the JSON form and its parser errors
 * (data-driven cases in json/<case>/). Built with or without DPDK.
 *
 * Usage: test_stats_json <dir of JSON cases>
 */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_stats_json.h"

#include "stats_check.h"

/* ---- diff and rates on synthetic snapshots ---- */

static void
fill_snap(struct pvp_stats_snap *s, uint64_t base)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "synthetic");
	s->tsc = 1000000 + base;
	s->hz = 2000000000ull;
	s->nb_ports = 3;
	for (uint16_t p = 0; p < s->nb_ports; p++) {
		struct pvp_stats_port_snap *ps = &s->port[p];

		snprintf(ps->name, sizeof(ps->name), "port-%u", p);
		ps->eth_port_id = p == 2 ? -1 : p + 4;
		for (int c = 0; c < PVP_STATS_NB_COUNTERS; c++)
			ps->c[c] = base * (c + 1) + p * 1000 + c;
		ps->rx_missed = base + p + 1;
		ps->rx_nombuf = base + p + 2;
		ps->rx_sw_dropped = base + p + 3;
		ps->nb_rxq = p;
		ps->nb_txq = 2;
		for (uint16_t q = 0; q < ps->nb_rxq; q++)
			ps->rxq[q] =
				(struct pvp_stats_queue_snap){base + q, base * 2 + q, base + 11, q};
		for (uint16_t q = 0; q < ps->nb_txq; q++)
			ps->txq[q] = (struct pvp_stats_queue_snap){base * 3 + q, base * 5 + q, q,
								   base + 13};
		/* Port p has p chosen xstats, in an order that is not sorted. */
		ps->nb_xstats = p;
		for (uint16_t x = 0; x < ps->nb_xstats; x++) {
			snprintf(ps->xstats[x].name, sizeof(ps->xstats[x].name), "%s_errors",
				 x == 0 ? "rx_z" : "rx_a");
			ps->xstats[x].value = base + 100 + x;
		}
	}
}

static void
test_diff(void)
{
	struct pvp_stats_snap *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct pvp_stats_snap *d = malloc(sizeof(*d));

	fill_snap(a, 100);
	fill_snap(b, 350);
	CHECK(pvp_stats_diff(b, a, d) == 0, "diff");
	CHECK_EQ_U64(d->tsc, 250);
	CHECK_EQ_U64(d->hz, 2000000000ull);
	CHECK_EQ_U64(d->nb_ports, 3);
	CHECK(strcmp(d->name, "synthetic") == 0 && strcmp(d->port[1].name, "port-1") == 0,
	      "names kept");
	CHECK(d->port[1].eth_port_id == 5 && d->port[2].eth_port_id == -1, "eth ids kept");
	for (uint16_t p = 0; p < 3; p++) {
		for (int c = 0; c < PVP_STATS_NB_COUNTERS; c++)
			CHECK_EQ_U64(d->port[p].c[c], 250ull * (c + 1));
		CHECK_EQ_U64(d->port[p].rx_missed, 250);
		CHECK_EQ_U64(d->port[p].rx_nombuf, 250);
		CHECK_EQ_U64(d->port[p].rx_sw_dropped, 250);
		CHECK_EQ_U64(d->port[p].nb_rxq, p);
		for (uint16_t q = 0; q < p; q++) {
			CHECK_EQ_U64(d->port[p].rxq[q].packets, 250);
			CHECK_EQ_U64(d->port[p].rxq[q].bytes, 500);
			CHECK_EQ_U64(d->port[p].rxq[q].dropped, 250);
			CHECK_EQ_U64(d->port[p].rxq[q].errors, 0);
		}
		CHECK_EQ_U64(d->port[p].txq[1].packets, 750);
		CHECK_EQ_U64(d->port[p].txq[1].bytes, 1250);
		CHECK_EQ_U64(d->port[p].txq[1].errors, 250);
		CHECK_EQ_U64(d->port[p].nb_xstats, p);
		for (uint16_t x = 0; x < p; x++)
			CHECK_EQ_U64(d->port[p].xstats[x].value, 250);
	}
	CHECK(strcmp(d->port[2].xstats[1].name, "rx_a_errors") == 0, "xstat names kept");
	/* An xstat the earlier snapshot lacks at that place counts from 0. */
	snprintf(b->port[2].xstats[1].name, sizeof(b->port[2].xstats[1].name), "rx_new");
	CHECK(pvp_stats_diff(b, a, d) == 0, "diff, new xstat");
	CHECK_EQ_U64(d->port[2].xstats[0].value, 250);
	CHECK_EQ_U64(d->port[2].xstats[1].value, 451);
	fill_snap(b, 350);
	/* Backwards (a clear in between): 0, not a wrapped value. */
	CHECK(pvp_stats_diff(a, b, d) == 0, "reverse diff");
	CHECK_EQ_U64(d->port[0].c[PVP_STATS_rx_packets], 0);
	CHECK_EQ_U64(d->tsc, 0);
	/* In place. */
	CHECK(pvp_stats_diff(b, a, b) == 0, "diff into later");
	CHECK_EQ_U64(b->port[2].c[PVP_STATS_tx_errors], 250 * 8);
	CHECK_EQ_U64(b->tsc, 250);
	/* Shapes must match. */
	fill_snap(b, 350);
	b->nb_ports = 2;
	CHECK(pvp_stats_diff(b, a, d) == -EINVAL, "different port count");
	fill_snap(b, 350);
	b->port[1].nb_txq = 1;
	CHECK(pvp_stats_diff(b, a, d) == -EINVAL, "different queue count");
	CHECK(pvp_stats_diff(NULL, a, d) == -EINVAL, "NULL");
	free(a);
	free(b);
	free(d);
}

static void
test_rates(void)
{
	struct pvp_stats_snap *s = calloc(1, sizeof(*s));
	struct pvp_stats_port_rates r;

	/* 2 s at 1 GHz: 1000 64 B frames (60 B + FCS) in, 3000 out. */
	s->hz = 1000000000ull;
	s->tsc = 2000000000ull;
	s->nb_ports = 2;
	s->port[1].c[PVP_STATS_rx_packets] = 1000;
	s->port[1].c[PVP_STATS_rx_bytes] = 60000;
	s->port[1].c[PVP_STATS_tx_packets] = 3000;
	s->port[1].c[PVP_STATS_tx_bytes] = 3000 * 1514;
	CHECK(pvp_stats_rates(s, 1, &r) == 0, "rates");
	CHECK(r.rx_pps == 500.0, "rx_pps %f", r.rx_pps);
	CHECK(r.tx_pps == 1500.0, "tx_pps %f", r.tx_pps);
	/* (60 + 4) * 8 * 500 */
	CHECK(r.rx_l2_bps == 256000.0, "rx_l2_bps %f", r.rx_l2_bps);
	/* (60 + 4 + 20) * 8 * 500 */
	CHECK(r.rx_l1_bps == 336000.0, "rx_l1_bps %f", r.rx_l1_bps);
	/* (1514 + 4) * 8 * 1500 */
	CHECK(r.tx_l2_bps == 18216000.0, "tx_l2_bps %f", r.tx_l2_bps);
	/* (1514 + 24) * 8 * 1500 */
	CHECK(r.tx_l1_bps == 18456000.0, "tx_l1_bps %f", r.tx_l1_bps);
	CHECK(pvp_stats_rates(s, 0, &r) == 0 && r.rx_pps == 0.0 && r.tx_l1_bps == 0.0, "idle port");

	/* 10 GbE line rate of 64 B frames over 1 s: 14880952 pps, 10 Gbit/s L1. */
	s->hz = 3000000000ull;
	s->tsc = 3000000000ull;
	s->port[0].c[PVP_STATS_rx_packets] = 14880952;
	s->port[0].c[PVP_STATS_rx_bytes] = 14880952ull * 60;
	CHECK(pvp_stats_rates(s, 0, &r) == 0, "rates");
	CHECK(r.rx_pps == 14880952.0, "pps %f", r.rx_pps);
	CHECK(r.rx_l1_bps == 14880952.0 * 84 * 8, "l1 %f", r.rx_l1_bps);

	CHECK(pvp_stats_rates(s, 2, &r) == -EINVAL, "bad port");
	s->tsc = 0;
	CHECK(pvp_stats_rates(s, 0, &r) == -EINVAL, "zero interval");
	s->tsc = 1;
	s->hz = 0;
	CHECK(pvp_stats_rates(s, 0, &r) == -EINVAL, "zero hz");
	free(s);
}

static void
test_json(void)
{
	struct pvp_stats_snap *s = calloc(1, sizeof(*s));
	struct pvp_stats_snap *o = malloc(sizeof(*o));
	json_t *j, *p0, *arr;
	char err[160];

	fill_snap(s, 123456789012ull);
	roundtrip(s, "synthetic");

	/* What pvp_stats_snapshot() gives for two ports of 2 RX and 1 TX queue. */
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "pvpkit-fwd");
	s->tsc = 987654321;
	s->hz = 2000000000ull;
	s->nb_ports = 2;
	for (uint16_t p = 0; p < 2; p++) {
		s->port[p].eth_port_id = -1;
		s->port[p].nb_rxq = 2;
		s->port[p].nb_txq = 1;
	}
	snprintf(s->port[0].name, sizeof(s->port[0].name), "net_null0");
	s->port[0].rxq[1] = (struct pvp_stats_queue_snap){7, 448, 0, 0};
	s->port[0].c[PVP_STATS_rx_packets] = 7;
	s->port[0].c[PVP_STATS_rx_bytes] = 448;
	s->port[1].txq[0] = (struct pvp_stats_queue_snap){6, 384, 1, 0};
	s->port[1].c[PVP_STATS_tx_packets] = 6;
	s->port[1].c[PVP_STATS_tx_bytes] = 384;
	s->port[1].c[PVP_STATS_tx_dropped] = 1;
	roundtrip(s, "two ports");

	/* The exact members of one port. */
	j = pvp_stats_snap_to_json(s);
	p0 = json_array_get(json_object_get(j, "ports"), 0);
	CHECK(json_integer_value(json_object_get(p0, "rx_packets")) == 7, "rx_packets member");
	CHECK(strcmp(json_string_value(json_object_get(p0, "name")), "net_null0") == 0, "name");
	CHECK(json_integer_value(json_object_get(p0, "eth_port_id")) == -1, "eth_port_id");
	CHECK(json_array_size(json_object_get(p0, "rxq")) == 2, "rxq size");
	CHECK(json_integer_value(json_object_get(json_array_get(json_object_get(p0, "rxq"), 1),
						 "bytes")) == 448,
	      "rxq[1].bytes");
	CHECK(json_object_size(p0) == 3 + PVP_STATS_NB_COUNTERS + 3 + 2 + 1, "no extra members");
	/* Not bound to an ethdev: the xstats object is there, empty. */
	CHECK(json_is_object(json_object_get(p0, "xstats")) &&
		      json_object_size(json_object_get(p0, "xstats")) == 0,
	      "empty xstats of an unbound port");

	/* Members other apps add are ignored. */
	json_object_set_new(j, "streams", json_pack("[{s:i}]", "stream", 1));
	json_object_set_new(j, "traffic", json_pack("{s:b}", "running", 1));
	json_object_set_new(p0, "mac", json_string("02:00:00:00:00:01"));
	CHECK(pvp_stats_snap_from_json(j, o, err, sizeof(err)) == 0, "extra members: %s", err);
	check_snap_equal(s, o, "extra members");

	/* Optional members may be absent. */
	json_object_del(p0, "rxq");
	json_object_del(p0, "rx_missed");
	json_object_del(p0, "eth_port_id");
	json_object_del(p0, "name");
	CHECK(pvp_stats_snap_from_json(j, o, err, sizeof(err)) == 0, "optional: %s", err);
	CHECK(o->port[0].nb_rxq == 0 && o->port[0].eth_port_id == -1 && o->port[0].rx_missed == 0 &&
		      o->port[0].name[0] == '\0' && o->port[0].c[PVP_STATS_rx_packets] == 7,
	      "defaults");

	/* An error message fits a small buffer, truncated, and never overflows. */
	arr = json_object_get(j, "ports");
	json_array_clear(arr);
	json_array_append_new(arr, json_string("x"));
	memset(err, 'Z', sizeof(err));
	CHECK(pvp_stats_snap_from_json(j, o, err, 8) == -EINVAL, "short buffer");
	CHECK(err[7] == '\0' && err[8] == 'Z', "truncated in place: %.8s", err);
	CHECK(pvp_stats_snap_from_json(j, o, NULL, 0) == -EINVAL, "no buffer");
	json_decref(j);
	free(s);
	free(o);
}

/* Data-driven parser cases: <dir>/<case>/input.json and expected. */
static void
test_json_cases(const char *dir)
{
	struct dirent **names;
	int n, i, ran = 0;

	n = scandir(dir, &names, NULL, alphasort);
	CHECK(n > 0, "read %s", dir);
	for (i = 0; i < n; i++) {
		char path[512], expected[256] = "", err[256];
		struct pvp_stats_snap *snap = malloc(sizeof(*snap));
		json_error_t jerr;
		json_t *j;
		FILE *f;
		int rc;

		if (names[i]->d_name[0] == '.')
			goto next;
		snprintf(path, sizeof(path), "%s/%s/expected", dir, names[i]->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			goto next;
		if (fgets(expected, sizeof(expected), f) != NULL)
			expected[strcspn(expected, "\n")] = '\0';
		fclose(f);
		snprintf(path, sizeof(path), "%s/%s/input.json", dir, names[i]->d_name);
		j = json_load_file(path, 0, &jerr);
		CHECK(j != NULL, "%s: %s", path, jerr.text);
		rc = pvp_stats_snap_from_json(j, snap, err, sizeof(err));
		if (strcmp(expected, "OK") == 0)
			CHECK(rc == 0, "case %s: expected OK, got \"%s\"", names[i]->d_name, err);
		else
			CHECK(rc == -EINVAL && strcmp(err, expected) == 0,
			      "case %s: expected \"%s\", got %d \"%s\"", names[i]->d_name, expected,
			      rc, err);
		json_decref(j);
		ran++;
	next:
		free(snap);
		free(names[i]);
	}
	free(names);
	printf("# json cases: %d\n", ran);
	CHECK(ran >= 5, "found the JSON cases (%d)", ran);
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s <json cases dir>\n", argv[0]);
		return 2;
	}
	test_diff();
	test_rates();
	test_json();
	test_json_cases(argv[1]);
	if (unit_check_failures != 0) {
		printf("%d checks failed\n", unit_check_failures);
		return 1;
	}
	printf("all checks passed\n");
	return 0;
}
