/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Unit tests of lib/stats, without the EAL: concurrent single writers
 * against a reader, exact totals, clear baseline, diff, rates, the JSON
 * form and its parser errors (data-driven cases in json/<case>/).
 *
 * Usage: test_stats <dir of JSON cases>
 */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_stats.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			failures++;                                                                \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);            \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
		}                                                                                  \
	} while (0)

#define CHECK_EQ_U64(a, b)                                                                         \
	CHECK((uint64_t)(a) == (uint64_t)(b), "%" PRIu64 " != %" PRIu64, (uint64_t)(a),            \
	      (uint64_t)(b))

/* ---- concurrent writers ---- */

#define NB_WRITERS 4
#define NB_BURSTS  1000000 /* x 32 packets = 32 M packets per writer */
#define BURST	   32

struct writer {
	pthread_t tid;
	unsigned int id;
	struct pvp_stats_rxq *rxq; /* owned by this thread only */
	struct pvp_stats_txq *txq; /* owned by this thread only */
};

static volatile int writers_done;

/* What writer 'id' has published after all its bursts. */
static void
writer_expected(unsigned int id, struct pvp_stats_queue_snap *rx, struct pvp_stats_queue_snap *tx)
{
	uint64_t b;

	memset(rx, 0, sizeof(*rx));
	memset(tx, 0, sizeof(*tx));
	for (b = 0; b < NB_BURSTS; b++) {
		rx->packets += BURST;
		rx->bytes += BURST * (60 + id);
		if (b % 7 == 0) {
			rx->dropped += 1;
			rx->errors += id;
		}
		tx->packets += BURST - 1;
		tx->bytes += (BURST - 1) * (60 + id);
		tx->dropped += 1;
		if (b % 11 == 0)
			tx->errors += 2;
	}
}

static void *
writer_main(void *arg)
{
	struct writer *w = arg;
	uint64_t b;

	/* The same sequence as writer_expected(), one publish per burst. */
	for (b = 0; b < NB_BURSTS; b++) {
		pvp_stats_rxq_add(w->rxq, BURST, BURST * (60 + w->id));
		if (b % 7 == 0)
			pvp_stats_rxq_drop(w->rxq, 1, w->id);
		pvp_stats_txq_add(w->txq, BURST - 1, (BURST - 1) * (60 + w->id), 1);
		if (b % 11 == 0)
			pvp_stats_txq_error(w->txq, 2);
	}
	return NULL;
}

struct reader {
	struct pvp_stats *st;
	unsigned long snaps;	   /* snapshots taken */
	unsigned long regressions; /* counters seen going backwards */
};

static unsigned long
snap_regressions(const struct pvp_stats_snap *prev, const struct pvp_stats_snap *cur)
{
	unsigned long n = 0;
	uint16_t p, q;
	int i;

	for (p = 0; p < cur->nb_ports; p++) {
		const struct pvp_stats_port_snap *a = &prev->port[p], *b = &cur->port[p];

		for (i = 0; i < PVP_STATS_NB_COUNTERS; i++)
			n += b->c[i] < a->c[i];
		n += b->rx_sw_dropped < a->rx_sw_dropped;
		for (q = 0; q < b->nb_rxq; q++)
			n += b->rxq[q].packets < a->rxq[q].packets ||
			     b->rxq[q].bytes < a->rxq[q].bytes ||
			     b->rxq[q].dropped < a->rxq[q].dropped ||
			     b->rxq[q].errors < a->rxq[q].errors;
		for (q = 0; q < b->nb_txq; q++)
			n += b->txq[q].packets < a->txq[q].packets ||
			     b->txq[q].bytes < a->txq[q].bytes ||
			     b->txq[q].dropped < a->txq[q].dropped ||
			     b->txq[q].errors < a->txq[q].errors;
	}
	return n;
}

static void *
reader_main(void *arg)
{
	struct reader *r = arg;
	struct pvp_stats_snap *prev = calloc(1, sizeof(*prev));
	struct pvp_stats_snap *cur = calloc(1, sizeof(*cur));
	struct pvp_stats_snap *tmp;
	int done;

	if (prev == NULL || cur == NULL)
		abort();
	pvp_stats_snapshot(r->st, prev);
	do {
		done = __atomic_load_n(&writers_done, __ATOMIC_ACQUIRE);
		if (pvp_stats_snapshot(r->st, cur) != 0)
			abort();
		r->regressions += snap_regressions(prev, cur);
		r->snaps++;
		tmp = prev;
		prev = cur;
		cur = tmp;
	} while (!done);
	free(prev);
	free(cur);
	return NULL;
}

static void
test_concurrent(void)
{
	struct writer w[NB_WRITERS];
	struct reader r = {0};
	struct pvp_stats_snap *snap = calloc(1, sizeof(*snap));
	struct pvp_stats *st;
	pthread_t rtid;
	unsigned int i;

	/* 2 ports x 2 queues each way: each writer owns one RX and one TX block. */
	st = pvp_stats_create("concurrent", 2, 2, 2);
	CHECK(st != NULL && snap != NULL, "create");
	if (st == NULL || snap == NULL)
		return;
	r.st = st;
	writers_done = 0;
	pthread_create(&rtid, NULL, reader_main, &r);
	for (i = 0; i < NB_WRITERS; i++) {
		w[i].id = i;
		w[i].rxq = pvp_stats_rxq(st, i / 2, i % 2);
		w[i].txq = pvp_stats_txq(st, i / 2, i % 2);
		CHECK(((uintptr_t)w[i].rxq % 64) == 0 && ((uintptr_t)w[i].txq % 64) == 0,
		      "blocks are cache aligned");
		pthread_create(&w[i].tid, NULL, writer_main, &w[i]);
	}
	for (i = 0; i < NB_WRITERS; i++)
		pthread_join(w[i].tid, NULL);
	__atomic_store_n(&writers_done, 1, __ATOMIC_RELEASE);
	pthread_join(rtid, NULL);

	CHECK(r.snaps > 0, "the reader took snapshots");
	CHECK(r.regressions == 0, "%lu counters went backwards in %lu snapshots", r.regressions,
	      r.snaps);
	printf("# concurrent: %lu snapshots while %d writers ran\n", r.snaps, NB_WRITERS);

	CHECK(pvp_stats_snapshot(st, snap) == 0, "snapshot");
	CHECK_EQ_U64(snap->nb_ports, 2);
	CHECK(snap->hz > 0, "hz known without EAL");
	for (uint16_t p = 0; p < 2; p++) {
		const struct pvp_stats_port_snap *ps = &snap->port[p];
		uint64_t tot[PVP_STATS_NB_COUNTERS] = {0};

		CHECK_EQ_U64(ps->nb_rxq, 2);
		CHECK_EQ_U64(ps->nb_txq, 2);
		CHECK(ps->eth_port_id == -1, "unbound");
		for (uint16_t q = 0; q < 2; q++) {
			struct pvp_stats_queue_snap rx, tx;

			writer_expected(p * 2 + q, &rx, &tx);
			CHECK(memcmp(&ps->rxq[q], &rx, sizeof(rx)) == 0, "rxq %u/%u exact", p, q);
			CHECK(memcmp(&ps->txq[q], &tx, sizeof(tx)) == 0, "txq %u/%u exact", p, q);
			tot[PVP_STATS_rx_packets] += rx.packets;
			tot[PVP_STATS_rx_bytes] += rx.bytes;
			tot[PVP_STATS_rx_dropped] += rx.dropped;
			tot[PVP_STATS_rx_errors] += rx.errors;
			tot[PVP_STATS_tx_packets] += tx.packets;
			tot[PVP_STATS_tx_bytes] += tx.bytes;
			tot[PVP_STATS_tx_dropped] += tx.dropped;
			tot[PVP_STATS_tx_errors] += tx.errors;
		}
		for (int c = 0; c < PVP_STATS_NB_COUNTERS; c++)
			CHECK(ps->c[c] == tot[c], "port %u %s: %" PRIu64 " != %" PRIu64, p,
			      pvp_stats_counter_names[c], ps->c[c], tot[c]);
		CHECK_EQ_U64(ps->rx_sw_dropped, tot[PVP_STATS_rx_dropped]);
		CHECK_EQ_U64(ps->rx_missed, 0);
		CHECK_EQ_U64(ps->rx_nombuf, 0);
	}
	CHECK_EQ_U64(snap->port[0].c[PVP_STATS_rx_packets], 2ull * NB_BURSTS * BURST);
	pvp_stats_destroy(st);
	free(snap);
}

/* ---- create, accessors ---- */

static void
test_create(void)
{
	struct pvp_stats *st;

	errno = 0;
	CHECK(pvp_stats_create("x", 0, 1, 1) == NULL && errno == EINVAL, "0 ports");
	errno = 0;
	CHECK(pvp_stats_create("x", PVP_STATS_MAX_PORTS + 1, 1, 1) == NULL && errno == EINVAL,
	      "too many ports");
	errno = 0;
	CHECK(pvp_stats_create("x", 1, PVP_STATS_MAX_QUEUES + 1, 1) == NULL && errno == EINVAL,
	      "too many rxq");
	st = pvp_stats_create(NULL, 3, 0, 2);
	CHECK(st != NULL, "create without name or RX queues");
	CHECK(pvp_stats_rxq(st, 0, 0) == NULL, "no RX queue 0");
	CHECK(pvp_stats_txq(st, 2, 1) != NULL, "TX queue 2/1");
	CHECK(pvp_stats_txq(st, 3, 0) == NULL, "no port 3");
	CHECK(pvp_stats_txq(st, 0, 2) == NULL, "no TX queue 2");
	CHECK(strcmp(pvp_stats_name(st), "") == 0, "empty name");
	CHECK_EQ_U64(pvp_stats_nb_ports(st), 3);
	CHECK(pvp_stats_set_port_name(st, 1, "vhost0") == 0, "set name");
	CHECK(pvp_stats_set_port_name(st, 3, "x") == -EINVAL, "set name bad port");
	/* Before rte_eal_init() no ethdev is valid. */
	CHECK(pvp_stats_bind_ethdev(st, 0, 0) == -EINVAL, "bind without EAL");
	CHECK(pvp_stats_snapshot(NULL, NULL) == -EINVAL, "snapshot NULL");
	CHECK(pvp_stats_clear(NULL) == -EINVAL, "clear NULL");
	pvp_stats_destroy(st);
	pvp_stats_destroy(NULL);
}

/* ---- clear ---- */

static void
test_clear(void)
{
	struct pvp_stats *st = pvp_stats_create("clear", 2, 1, 1);
	struct pvp_stats_snap *snap = calloc(1, sizeof(*snap));
	struct pvp_stats_rxq *rq, before_rx;
	struct pvp_stats_txq *tq, before_tx;

	CHECK(st != NULL && snap != NULL, "create");
	if (st == NULL || snap == NULL)
		return;
	rq = pvp_stats_rxq(st, 1, 0);
	tq = pvp_stats_txq(st, 1, 0);
	pvp_stats_rxq_add(rq, 100, 6400);
	pvp_stats_rxq_drop(rq, 3, 1);
	pvp_stats_txq_add(tq, 90, 5760, 7);
	pvp_stats_txq_error(tq, 2);

	memcpy(&before_rx, rq, sizeof(before_rx));
	memcpy(&before_tx, tq, sizeof(before_tx));
	CHECK(pvp_stats_clear(st) == 0, "clear");
	CHECK(memcmp(&before_rx, rq, sizeof(before_rx)) == 0, "clear left the RX block alone");
	CHECK(memcmp(&before_tx, tq, sizeof(before_tx)) == 0, "clear left the TX block alone");

	CHECK(pvp_stats_snapshot(st, snap) == 0, "snapshot");
	for (int c = 0; c < PVP_STATS_NB_COUNTERS; c++)
		CHECK(snap->port[1].c[c] == 0, "%s is 0 right after clear",
		      pvp_stats_counter_names[c]);

	pvp_stats_rxq_add(rq, 5, 320);
	pvp_stats_rxq_drop(rq, 1, 0);
	pvp_stats_txq_add(tq, 4, 256, 1);
	CHECK(pvp_stats_snapshot(st, snap) == 0, "snapshot");
	CHECK_EQ_U64(snap->port[1].c[PVP_STATS_rx_packets], 5);
	CHECK_EQ_U64(snap->port[1].c[PVP_STATS_rx_bytes], 320);
	CHECK_EQ_U64(snap->port[1].c[PVP_STATS_rx_dropped], 1);
	CHECK_EQ_U64(snap->port[1].rx_sw_dropped, 1);
	CHECK_EQ_U64(snap->port[1].c[PVP_STATS_rx_errors], 0);
	CHECK_EQ_U64(snap->port[1].c[PVP_STATS_tx_packets], 4);
	CHECK_EQ_U64(snap->port[1].c[PVP_STATS_tx_bytes], 256);
	CHECK_EQ_U64(snap->port[1].c[PVP_STATS_tx_dropped], 1);
	CHECK_EQ_U64(snap->port[1].c[PVP_STATS_tx_errors], 0);
	CHECK_EQ_U64(snap->port[1].rxq[0].packets, 5);
	CHECK_EQ_U64(snap->port[1].txq[0].dropped, 1);
	/* The writer's own view still holds everything it ever counted. */
	CHECK_EQ_U64(rq->packets, 105);
	CHECK_EQ_U64(tq->packets, 94);

	/* A second clear starts again from there. */
	CHECK(pvp_stats_clear(st) == 0, "clear again");
	pvp_stats_txq_add(tq, 1, 64, 0);
	CHECK(pvp_stats_snapshot(st, snap) == 0, "snapshot");
	CHECK_EQ_U64(snap->port[1].c[PVP_STATS_rx_packets], 0);
	CHECK_EQ_U64(snap->port[1].c[PVP_STATS_tx_packets], 1);
	CHECK_EQ_U64(snap->port[0].c[PVP_STATS_tx_packets], 0);
	pvp_stats_destroy(st);
	free(snap);
}

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

/* Choosing xstats works without the EAL (nothing is bound, nothing read). */
static void
test_set_xstats(void)
{
	struct pvp_stats *st = pvp_stats_create("x", 1, 1, 1);
	const char *names[PVP_STATS_MAX_XSTATS + 1];
	char longname[PVP_STATS_XSTAT_NAME_LEN + 1];
	struct pvp_stats_snap *s = calloc(1, sizeof(*s));
	unsigned int n;

	for (n = 0; n < RTE_DIM(names); n++)
		names[n] = "rx_crc_errors";
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	for (n = 0; pvp_stats_default_xstats[n] != NULL; n++)
		;
	CHECK(n > 0 && n <= PVP_STATS_MAX_XSTATS, "default list fits (%u)", n);
	CHECK(pvp_stats_set_xstats(st, names, PVP_STATS_MAX_XSTATS) == 0, "max names");
	CHECK(pvp_stats_set_xstats(st, names, PVP_STATS_MAX_XSTATS + 1) == -EINVAL, "too many");
	names[1] = "";
	CHECK(pvp_stats_set_xstats(st, names, 2) == -EINVAL, "empty name");
	names[1] = longname;
	CHECK(pvp_stats_set_xstats(st, names, 2) == -EINVAL, "name too long");
	CHECK(pvp_stats_set_xstats(st, names, 0) == 0, "none");
	CHECK(pvp_stats_set_xstats(st, NULL, 0) == 0, "back to the default");
	CHECK(pvp_stats_set_xstats(NULL, NULL, 0) == -EINVAL, "NULL set");
	CHECK(pvp_stats_snapshot(st, s) == 0 && s->port[0].nb_xstats == 0,
	      "an unbound port has no xstats");
	pvp_stats_destroy(st);
	free(s);
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

/* ---- JSON ---- */

static void
check_snap_equal(const struct pvp_stats_snap *a, const struct pvp_stats_snap *b, const char *what)
{
	CHECK(strcmp(a->name, b->name) == 0, "%s: name", what);
	CHECK(a->tsc == b->tsc && a->hz == b->hz, "%s: tsc/hz", what);
	CHECK(a->nb_ports == b->nb_ports, "%s: nb_ports", what);
	for (uint16_t p = 0; p < a->nb_ports; p++) {
		const struct pvp_stats_port_snap *x = &a->port[p], *y = &b->port[p];

		CHECK(strcmp(x->name, y->name) == 0, "%s: port %u name", what, p);
		CHECK(x->eth_port_id == y->eth_port_id, "%s: port %u eth_port_id", what, p);
		for (int c = 0; c < PVP_STATS_NB_COUNTERS; c++)
			CHECK(x->c[c] == y->c[c], "%s: port %u %s", what, p,
			      pvp_stats_counter_names[c]);
		CHECK(x->rx_missed == y->rx_missed && x->rx_nombuf == y->rx_nombuf &&
			      x->rx_sw_dropped == y->rx_sw_dropped,
		      "%s: port %u breakdown", what, p);
		CHECK(x->nb_rxq == y->nb_rxq && x->nb_txq == y->nb_txq, "%s: port %u queues", what,
		      p);
		for (uint16_t q = 0; q < x->nb_rxq; q++)
			CHECK(memcmp(&x->rxq[q], &y->rxq[q], sizeof(x->rxq[q])) == 0,
			      "%s: port %u rxq %u", what, p, q);
		for (uint16_t q = 0; q < x->nb_txq; q++)
			CHECK(memcmp(&x->txq[q], &y->txq[q], sizeof(x->txq[q])) == 0,
			      "%s: port %u txq %u", what, p, q);
		CHECK(x->nb_xstats == y->nb_xstats, "%s: port %u nb_xstats", what, p);
		for (uint16_t i = 0; i < x->nb_xstats; i++)
			CHECK(strcmp(x->xstats[i].name, y->xstats[i].name) == 0 &&
				      x->xstats[i].value == y->xstats[i].value,
			      "%s: port %u xstat %u", what, p, i);
	}
	/* Everything, padding and unused slots included, is zeroed in both. */
	CHECK(memcmp(a, b, sizeof(*a)) == 0, "%s: whole struct", what);
}

/* Snapshot -> JSON text -> JSON -> snapshot. */
static void
roundtrip(const struct pvp_stats_snap *in, const char *what)
{
	struct pvp_stats_snap *out = malloc(sizeof(*out));
	json_t *j = pvp_stats_snap_to_json(in), *back;
	char err[160] = "";
	char *text;

	CHECK(j != NULL, "%s: to_json", what);
	text = json_dumps(j, JSON_COMPACT);
	back = json_loads(text, 0, NULL);
	CHECK(back != NULL, "%s: reparse", what);
	CHECK(pvp_stats_snap_from_json(back, out, err, sizeof(err)) == 0, "%s: from_json: %s", what,
	      err);
	check_snap_equal(in, out, what);
	free(text);
	json_decref(j);
	json_decref(back);
	free(out);
}

static void
test_json(void)
{
	struct pvp_stats_snap *s = calloc(1, sizeof(*s));
	struct pvp_stats_snap *o = malloc(sizeof(*o));
	struct pvp_stats *st = pvp_stats_create("pvpkit-fwd", 2, 2, 1);
	json_t *j, *p0, *arr;
	char err[160];

	fill_snap(s, 123456789012ull);
	roundtrip(s, "synthetic");

	pvp_stats_set_port_name(st, 0, "net_null0");
	pvp_stats_rxq_add(pvp_stats_rxq(st, 0, 1), 7, 448);
	pvp_stats_txq_add(pvp_stats_txq(st, 1, 0), 6, 384, 1);
	pvp_stats_snapshot(st, s);
	roundtrip(s, "live");

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
	pvp_stats_destroy(st);
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
	test_create();
	test_clear();
	test_set_xstats();
	test_diff();
	test_rates();
	test_json();
	test_json_cases(argv[1]);
	test_concurrent();
	if (failures != 0) {
		printf("%d checks failed\n", failures);
		return 1;
	}
	printf("all checks passed\n");
	return 0;
}
