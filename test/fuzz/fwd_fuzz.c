/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: pvpkit-fwd's packet path on arbitrary frames, as the
 * guest receives them: each forwarding engine (io, macswap, mac, 5tswap)
 * polled through its packet_fwd() with a stand-in PMD (rte_eth_fp_ops of
 * ports 0 and 1, no EAL), with and without --seq-check, and the generic
 * fwd_seq_check() pass.
 *
 * Input: byte 0 picks the engine (bits 0-1), --seq-check (bit 2), the RX
 * burst size (bits 3-5: 1, 2, 3, 4, 5, 8, 31, 32) and how many frames the
 * TX side takes per call (bits 6-7: all, none, 1, 3; the rest is dropped
 * after the retries); then the frames, each a 2-byte big-endian length
 * and its bytes.
 *
 * Checks: every frame is received once and sent or dropped once, with
 * the counters saying so; io leaves frames as they came, mac writes
 * exactly the two addresses, macswap and 5tswap undo themselves (a
 * second pass gives the frames back); with --seq-check, every stream's
 * tracker equals one fed the same numbers by pvp_seq_update() and
 * unsigned/untracked counts match what pvp_sig_find_inline() says of
 * each frame (fwd_seq.h promises exactly that of its fast path).
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "fwd.h"

#include "fuzz.h"

/* What pvpkit-fwd's main.c defines. */
int fwd_logtype;

#define FUZZ_FWD_MAX_FRAMES 128
#define FUZZ_FWD_MAX_LEN    9216

static const struct fwd_engine *const engines[4] = {
	&fwd_io_engine,
	&fwd_macswap_engine,
	&fwd_mac_engine,
	&fwd_5tswap_engine,
};
static const uint16_t bursts[8] = {1, 2, 3, 4, 5, 8, 31, 32};
static const int tx_limits[4] = {-1, 0, 1, 3};

static struct rte_mempool pool;
static struct rte_mbuf mbufs[FUZZ_FWD_MAX_FRAMES];
static uint8_t *bufs[FUZZ_FWD_MAX_FRAMES], *orig[FUZZ_FWD_MAX_FRAMES];
static size_t lens[FUZZ_FWD_MAX_FRAMES];
static struct rte_mbuf *rx_q[FUZZ_FWD_MAX_FRAMES];
static unsigned int rx_n, rx_next;
static struct rte_mbuf *tx_q[FUZZ_FWD_MAX_FRAMES];
static unsigned int tx_n, freed;
static int tx_limit;
static void *qdata[RTE_MAX_QUEUES_PER_PORT];
static void *qclbk[RTE_MAX_QUEUES_PER_PORT];
static struct pvp_stats *stats;
static struct fwd_seq_table *table;
static bool ready;

static uint16_t
fuzz_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i = 0;

	while (i < n && rx_next < rx_n)
		pkts[i++] = rx_q[rx_next++];
	return i;
}

static uint16_t
fuzz_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i, k = tx_limit < 0 || n < tx_limit ? n : (uint16_t)tx_limit;

	for (i = 0; i < k; i++)
		tx_q[tx_n++] = pkts[i];
	return k;
}

static int
pool_enqueue(struct rte_mempool *mp, void *const *objs, unsigned int n)
{
	freed += n;
	return 0;
}

static int
pool_dequeue(struct rte_mempool *mp, void **objs, unsigned int n)
{
	return -ENOBUFS;
}

static int
pool_alloc(struct rte_mempool *mp)
{
	return 0;
}

static void
pool_free(struct rte_mempool *mp)
{
}

static unsigned int
pool_count(const struct rte_mempool *mp)
{
	return 0;
}

static const struct rte_mempool_ops pool_ops = {
	.name = "pvp_fwd_fuzz",
	.alloc = pool_alloc,
	.free = pool_free,
	.enqueue = pool_enqueue,
	.dequeue = pool_dequeue,
	.get_count = pool_count,
};

static void
mbuf_reset(struct rte_mbuf *m, uint8_t *buf, size_t len)
{
	memset(m, 0, sizeof(*m));
	m->buf_addr = buf;
	m->buf_len = (uint16_t)len;
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	m->nb_segs = 1;
	m->pool = &pool;
	rte_mbuf_refcnt_set(m, 1);
}

/* Run @p e over frames [0, n) until the RX side is empty. */
static void
run(struct fwd_stream *fs, const struct fwd_engine *e, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		mbuf_reset(&mbufs[i], bufs[i], lens[i]);
		rx_q[i] = &mbufs[i];
	}
	rx_n = n;
	rx_next = tx_n = freed = 0;
	fs->rxs->packets = fs->rxs->bytes = 0;
	fs->txs->packets = fs->txs->bytes = fs->txs->dropped = 0;
	while (e->packet_fwd(fs) != 0)
		;
}

/* The same accounting, one packet at a time, the plain way. */
static void
shadow_seq(unsigned int n, struct pvp_seq *sh, uint16_t *ids, unsigned int *n_ids, uint64_t *nosig,
	   uint64_t *untracked)
{
	static uint8_t seen[65536];
	unsigned int i, k;

	*n_ids = 0;
	*nosig = *untracked = 0;
	for (i = 0; i < n; i++) {
		const struct pvp_sig *sig = pvp_sig_find_inline(&mbufs[i]);
		uint16_t id;

		if (sig == NULL) {
			(*nosig)++;
			continue;
		}
		id = rte_be_to_cpu_16(sig->stream);
		if (!seen[id]) {
			if (*n_ids == FWD_SEQ_SLOTS) {
				(*untracked)++;
				continue;
			}
			seen[id] = 1;
			ids[*n_ids] = id;
			pvp_seq_init(&sh[(*n_ids)++]);
		}
		for (k = 0; ids[k] != id; k++)
			;
		pvp_seq_update(&sh[k], rte_be_to_cpu_32(sig->seq));
	}
	for (k = 0; k < *n_ids; k++)
		seen[ids[k]] = 0;
}

static void
check_seq(unsigned int n, const char *how)
{
	static struct pvp_seq sh[FWD_SEQ_SLOTS];
	static uint16_t ids[FWD_SEQ_SLOTS];
	uint64_t nosig, untracked;
	unsigned int n_ids, k;

	shadow_seq(n, sh, ids, &n_ids, &nosig, &untracked);
	FUZZ_CHECK(table->unsigned_rx == nosig && table->untracked == untracked,
		   "%s: unsigned %llu (want %llu), untracked %llu (want %llu)", how,
		   (unsigned long long)table->unsigned_rx, (unsigned long long)nosig,
		   (unsigned long long)table->untracked, (unsigned long long)untracked);
	for (k = 0; k < n_ids; k++) {
		const struct fwd_seq_slot *s = fwd_seq_lookup(table, ids[k]);
		const struct pvp_seq *a, *b = &sh[k];

		FUZZ_CHECK(s != NULL, "%s: stream %u has no slot", how, ids[k]);
		a = &s->seq;
		FUZZ_CHECK(a->rx == b->rx && a->dup == b->dup && a->ooo == b->ooo &&
				   a->gaps == b->gaps && a->next == b->next &&
				   a->started == b->started &&
				   memcmp(a->window, b->window, sizeof(a->window)) == 0,
			   "%s: stream %u: rx %llu dup %llu ooo %llu gaps %llu next %u; "
			   "pvp_seq_update: rx %llu dup %llu ooo %llu gaps %llu next %u%s",
			   how, ids[k], (unsigned long long)a->rx, (unsigned long long)a->dup,
			   (unsigned long long)a->ooo, (unsigned long long)a->gaps, a->next,
			   (unsigned long long)b->rx, (unsigned long long)b->dup,
			   (unsigned long long)b->ooo, (unsigned long long)b->gaps, b->next,
			   memcmp(a->window, b->window, sizeof(a->window)) != 0
				   ? " (window differs)"
				   : "");
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fwd_stream fs = {
		.rx_port = 0,
		.tx_port = 1,
		.tx_retry = 2,
		.tx_src = {{0x02, 0, 0, 0, 0, 0x01}},
		.tx_dst = {{0x02, 0, 0, 0, 0, 0x02}},
	};
	const struct fwd_engine *e;
	uint64_t want_bytes = 0;
	unsigned int n = 0, i;
	bool seq;
	size_t off = 1;

	if (!ready)
		LLVMFuzzerInitialize(NULL, NULL);
	if (size < 1)
		return 0;
	e = engines[data[0] & 3];
	seq = (data[0] & 4) != 0;
	fs.burst = bursts[(data[0] >> 3) & 7];
	tx_limit = tx_limits[data[0] >> 6];
	fs.rxs = pvp_stats_rxq(stats, 0, 0);
	fs.txs = pvp_stats_txq(stats, 1, 0);

	while (size - off >= 2 && n < FUZZ_FWD_MAX_FRAMES) {
		size_t len = (size_t)data[off] << 8 | data[off + 1];

		off += 2;
		if (len > size - off)
			len = size - off;
		if (len > FUZZ_FWD_MAX_LEN)
			len = FUZZ_FWD_MAX_LEN;
		bufs[n] = malloc(len > 0 ? len : 1);
		orig[n] = malloc(len > 0 ? len : 1);
		if (bufs[n] == NULL || orig[n] == NULL)
			abort();
		memcpy(bufs[n], data + off, len);
		memcpy(orig[n], data + off, len);
		lens[n] = len;
		want_bytes += len;
		off += len;
		n++;
	}

	/* The generic --seq-check pass, then the engine. */
	memset(table, 0, sizeof(*table));
	fwd_seq_table_init(table);
	for (i = 0; i < n; i++)
		mbuf_reset(&mbufs[i], bufs[i], lens[i]);
	for (i = 0; i < n; i += fs.burst) {
		struct rte_mbuf *pk[32];
		unsigned int k, m = n - i < fs.burst ? n - i : fs.burst;

		for (k = 0; k < m; k++)
			pk[k] = &mbufs[i + k];
		fwd_seq_check(table, pk, (uint16_t)m);
	}
	check_seq(n, "fwd_seq_check");

	memset(table, 0, sizeof(*table));
	fwd_seq_table_init(table);
	fs.seq = seq ? table : NULL;
	run(&fs, e, n);
	FUZZ_CHECK(rx_next == n, "%s: %u of %u frames received", e->name, rx_next, n);
	FUZZ_CHECK(fs.rxs->packets == n && fs.rxs->bytes == want_bytes,
		   "%s: RX counted %llu packets %llu bytes, want %u %llu", e->name,
		   (unsigned long long)fs.rxs->packets, (unsigned long long)fs.rxs->bytes, n,
		   (unsigned long long)want_bytes);
	FUZZ_CHECK(fs.txs->packets == tx_n && fs.txs->dropped == n - tx_n && freed == n - tx_n,
		   "%s: TX %llu sent %llu dropped, %u taken %u freed of %u", e->name,
		   (unsigned long long)fs.txs->packets, (unsigned long long)fs.txs->dropped, tx_n,
		   freed, n);
	if (seq) {
		/* The shadow parses the frames as received, before the engine. */
		for (i = 0; i < n; i++) {
			memcpy(bufs[i], orig[i], lens[i]);
			mbuf_reset(&mbufs[i], bufs[i], lens[i]);
		}
		check_seq(n, e->name);
		for (i = 0; i < n; i++)
			mbuf_reset(&mbufs[i], bufs[i], lens[i]);
		fs.seq = NULL;
		run(&fs, e, n);
	}

	/* What each engine does to the bytes. */
	for (i = 0; i < n; i++) {
		const uint8_t *a = orig[i], *b = bufs[i];
		size_t len = lens[i];

		if (e == &fwd_io_engine || len < RTE_ETHER_HDR_LEN) {
			FUZZ_CHECK(memcmp(a, b, len) == 0, "%s: frame %u (%zu B) changed", e->name,
				   i, len);
		} else if (e == &fwd_mac_engine) {
			FUZZ_CHECK(memcmp(b, &fs.tx_dst, 6) == 0 &&
					   memcmp(b + 6, &fs.tx_src, 6) == 0 &&
					   memcmp(a + 12, b + 12, len - 12) == 0,
				   "mac: frame %u wrong", i);
		} else if (e == &fwd_macswap_engine) {
			FUZZ_CHECK(memcmp(a, b + 6, 6) == 0 && memcmp(a + 6, b, 6) == 0 &&
					   memcmp(a + 12, b + 12, len - 12) == 0,
				   "macswap: frame %u wrong", i);
		}
	}
	if (e == &fwd_5tswap_engine) {
		/* Swapping twice gives the frame back. */
		run(&fs, e, n);
		for (i = 0; i < n; i++)
			FUZZ_CHECK(memcmp(orig[i], bufs[i], lens[i]) == 0,
				   "5tswap: frame %u (%zu B) not restored by a second swap", i,
				   lens[i]);
	}
	for (i = 0; i < n; i++) {
		free(bufs[i]);
		free(orig[i]);
	}
	return 0;
}

void
fuzz_cleanup(void)
{
	if (!ready)
		return;
	ready = false;
	free(table);
	pvp_stats_destroy(stats);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int ops, p;

	ops = rte_mempool_register_ops(&pool_ops);
	if (ops < 0)
		abort();
	pool.ops_index = ops;
	for (p = 0; p < 2; p++) {
		rte_eth_fp_ops[p].rx_pkt_burst = fuzz_rx_burst;
		rte_eth_fp_ops[p].tx_pkt_burst = fuzz_tx_burst;
		rte_eth_fp_ops[p].rxq.data = qdata;
		rte_eth_fp_ops[p].rxq.clbk = qclbk;
		rte_eth_fp_ops[p].txq.data = qdata;
		rte_eth_fp_ops[p].txq.clbk = qclbk;
	}
	stats = pvp_stats_create("fwd-fuzz", 2, 1, 1);
	table = aligned_alloc(RTE_CACHE_LINE_SIZE, RTE_ALIGN_CEIL(sizeof(*table), 64));
	if (stats == NULL || table == NULL)
		abort();
	ready = true;
	atexit(fuzz_cleanup);
	return 0;
}
