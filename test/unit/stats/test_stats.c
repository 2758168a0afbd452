/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Unit tests of lib/stats' counters, without the EAL: concurrent single
 * writers against a reader, exact totals, clear baseline, chosen xstats
 * and a live snapshot through JSON. Diff, rates and the JSON form alone
 * are in test_stats_json.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_stats.h"

#include "stats_check.h"

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
	struct pvp_stats_snap *snap;
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
	snap = calloc(1, sizeof(*snap));
	CHECK(snap != NULL && pvp_stats_snapshot(st, snap) == 0 && snap->name[0] == '\0',
	      "empty name");
	CHECK_EQ_U64(snap != NULL ? snap->nb_ports : 0, 3);
	free(snap);
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

/* A live snapshot survives the JSON round trip. */
static void
test_json_live(void)
{
	struct pvp_stats *st = pvp_stats_create("pvpkit-fwd", 2, 2, 1);
	struct pvp_stats_snap *s = calloc(1, sizeof(*s));

	pvp_stats_set_port_name(st, 0, "net_null0");
	pvp_stats_rxq_add(pvp_stats_rxq(st, 0, 1), 7, 448);
	pvp_stats_txq_add(pvp_stats_txq(st, 1, 0), 6, 384, 1);
	CHECK(pvp_stats_snapshot(st, s) == 0, "snapshot");
	CHECK(s->port[0].c[PVP_STATS_rx_packets] == 7 && s->port[1].c[PVP_STATS_tx_dropped] == 1,
	      "counted");
	roundtrip(s, "live");
	pvp_stats_destroy(st);
	free(s);
}

int
main(void)
{
	test_create();
	test_clear();
	test_set_xstats();
	test_json_live();
	test_concurrent();
	if (unit_check_failures != 0) {
		printf("%d checks failed\n", unit_check_failures);
		return 1;
	}
	printf("all checks passed\n");
	return 0;
}
