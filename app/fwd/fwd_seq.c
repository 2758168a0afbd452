/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * --seq-check: per-stream sequence tracking from the pvpkit payload
 * signature, so the coordinator can tell loss before the guest from loss
 * after it. Each forwarding lcore owns its table (single writer, no
 * atomics on the packet path); the control thread sums the tables and
 * never writes them: to clear, it bumps fwd_seq_clear_req and waits for
 * every lcore to acknowledge it.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_prefetch.h>

#include "fwd.h"

uint32_t fwd_seq_clear_req;

static inline void
seq_store(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

struct fwd_seq_slot *
fwd_seq_lookup(struct fwd_seq_table *t, uint16_t stream)
{
	uint32_t key = (uint32_t)stream + 1;
	uint32_t h = stream & (FWD_SEQ_SLOTS - 1);
	uint32_t i;

	for (i = 0; i < FWD_SEQ_SLOTS; i++) {
		struct fwd_seq_slot *s = &t->slot[(h + i) & (FWD_SEQ_SLOTS - 1)];

		if (s->key == key)
			return s;
		if (s->key == 0) {
			pvp_seq_init(&s->seq);
			/* Readers see the key only after the tracker is reset. */
			__atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
			return s;
		}
	}
	return NULL;
}

const uint8_t fwd_seq_maybe_ip[256] = {
	[RTE_ETHER_TYPE_IPV4 >> 8] = 1,	 [RTE_ETHER_TYPE_IPV6 >> 8] = 1,
	[RTE_ETHER_TYPE_VLAN >> 8] = 1,	 [RTE_ETHER_TYPE_QINQ >> 8] = 1,
	[RTE_ETHER_TYPE_QINQ1 >> 8] = 1,
};

void
fwd_seq_table_init(struct fwd_seq_table *t)
{
	/* Byte i is frame byte 12 + i, then 32 + (i - 16). */
	static const uint8_t mask[32] = {
		[0] = 0xff,  [1] = 0xff,  [2] = 0xff, /* EtherType IPv4, version 4, IHL 5 */
		[8] = 0x1f,  [9] = 0xff,	      /* fragment offset 0 */
		[11] = 0xff,			      /* protocol UDP */
		[26] = 0xff, [27] = 0xff, [28] = 0xff, [29] = 0xff, /* magic */
		[30] = 0xff, [31] = 0xff,			    /* stream id */
	};
	const rte_be32_t magic = RTE_BE32(PVP_SIG_MAGIC);
	struct fwd_seq_burst b = {.t = t};

	memcpy(t->hdr_mask, mask, sizeof(mask));
	memset(t->hdr_want, 0, sizeof(t->hdr_want));
	t->hdr_want[0] = RTE_ETHER_TYPE_IPV4 >> 8;
	t->hdr_want[1] = RTE_ETHER_TYPE_IPV4 & 0xff;
	t->hdr_want[2] = 0x45;
	t->hdr_want[11] = IPPROTO_UDP;
	memcpy(&t->hdr_want[26], &magic, sizeof(magic));
	fwd_seq_set_slot(&b, NULL);
}

void
fwd_seq_set_slot(struct fwd_seq_burst *b, struct fwd_seq_slot *s)
{
	struct fwd_seq_table *t = b->t;

	b->s = s;
	t->last = s;
	if (s != NULL) {
		const rte_be16_t stream = rte_cpu_to_be_16((uint16_t)(s->key - 1));

		memcpy(&t->hdr_want[30], &stream, sizeof(stream));
		t->hdr_want[16] = 0;
	} else {
		/* A wanted bit outside the mask: the fast check never matches. */
		t->hdr_want[16] = 1;
	}
	b->run_start = 0;
	b->run_next = 0;
}

void
fwd_seq_restart(struct fwd_seq_burst *b, uint32_t seq)
{
	fwd_seq_flush(b);
	b->run_start = seq;
	b->run_next = seq + 1;
}

void
fwd_seq_slow(struct fwd_seq_burst *b, const struct rte_mbuf *m)
{
	const struct pvp_sig *sig = pvp_sig_find_inline(m);
	uint32_t key, seq;

	if (sig == NULL)
		return; /* counted at the end of the burst */
	key = (uint32_t)rte_be_to_cpu_16(sig->stream) + 1;
	if (b->s == NULL || b->s->key != key) {
		struct fwd_seq_slot *s;

		fwd_seq_flush(b);
		s = fwd_seq_lookup(b->t, (uint16_t)(key - 1));
		fwd_seq_set_slot(b, s);
		if (s == NULL) {
			b->untracked++;
			return;
		}
	}
	seq = rte_be_to_cpu_32(sig->seq);
	if (seq == b->run_next)
		b->run_next = seq + 1;
	else
		fwd_seq_restart(b, seq);
}

/* Set (or test that all are set) the window bits of count numbers from start. */
static bool
seq_window_range(struct pvp_seq *s, uint32_t start, uint32_t count, bool set)
{
	const uint32_t first = start & (PVP_SEQ_WINDOW - 1);

	if (count < 64 && (first & 63) + count <= 64) {
		/* Within one word: a whole burst of in-order numbers, mostly. */
		const uint64_t bits = ((UINT64_C(1) << count) - 1) << (first & 63);
		uint64_t *w = &s->window[first >> 6];

		if (set)
			*w |= bits;
		return set || (*w & bits) == bits;
	}
	while (count != 0) {
		const uint32_t i = start & (PVP_SEQ_WINDOW - 1);
		const uint32_t off = i & 63;
		const uint32_t k = RTE_MIN(count, 64 - off);
		const uint64_t bits = (k == 64 ? UINT64_MAX : (UINT64_C(1) << k) - 1) << off;
		uint64_t *w = &s->window[i >> 6];

		if (set)
			*w |= bits;
		else if ((*w & bits) != bits)
			return false;
		start += k;
		count -= k;
	}
	return true;
}

void
fwd_seq_apply(struct pvp_seq *s, uint32_t start, uint32_t count)
{
	uint32_t i;

	if (s->started != 0 && start == s->next) {
		/* In order: what pvp_seq_update() does per number, all at once. */
		seq_window_range(s, start, count, true);
		s->next = start + count;
		seq_store(&s->rx, s->rx + count);
		return;
	}
	if (s->started != 0 && s->next - start <= PVP_SEQ_WINDOW && s->next - start >= count &&
	    seq_window_range(s, start, count, false)) {
		/* Every number below the highest, within the window, already seen. */
		seq_store(&s->rx, s->rx + count);
		seq_store(&s->dup, s->dup + count);
		return;
	}
	for (i = 0; i < count; i++)
		pvp_seq_update(s, start + i);
}

void
fwd_seq_check(struct fwd_seq_table *t, struct rte_mbuf **pkts, uint16_t n)
{
	struct fwd_seq_burst b;
	uint32_t next = fwd_seq_begin(&b, t);
	uint16_t i;

	for (i = 0; i < n; i++) {
		/* The headers of the next packet load while this one is parsed. */
		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		fwd_seq_one(&b, t, &next, pkts[i]);
	}
	fwd_seq_end(&b, next, n);
}

void
fwd_seq_do_clear(struct fwd_seq_table *t, uint32_t req)
{
	unsigned int i;

	for (i = 0; i < FWD_SEQ_SLOTS; i++)
		__atomic_store_n(&t->slot[i].key, 0, __ATOMIC_RELAXED);
	fwd_seq_table_init(t);
	seq_store(&t->unsigned_rx, 0);
	seq_store(&t->untracked, 0);
	__atomic_store_n(&t->clear_ack, req, __ATOMIC_RELEASE);
}

int
fwd_seq_clear(const struct fwd_app *app, unsigned int timeout_ms)
{
	uint32_t req = __atomic_add_fetch(&fwd_seq_clear_req, 1, __ATOMIC_ACQ_REL);
	unsigned int waited_ms = 0;
	uint16_t i;

	for (i = 0; i < app->nb_lcores; i++) {
		const struct fwd_seq_table *t = app->lcores[i]->seq;

		if (t == NULL)
			continue;
		while (__atomic_load_n(&t->clear_ack, __ATOMIC_ACQUIRE) != req) {
			/* A stopped lcore cannot answer: nothing changes any more. */
			if (!*app->running || waited_ms++ >= timeout_ms)
				return -ETIMEDOUT;
			usleep(1000);
		}
	}
	return 0;
}

/* A stream summed over the lcores that saw it. */
struct seq_sum {
	uint32_t stream;
	uint64_t rx, gaps, dup, ooo;
};

static int
seq_sum_cmp(const void *a, const void *b)
{
	const struct seq_sum *x = a, *y = b;

	return (x->stream > y->stream) - (x->stream < y->stream);
}

json_t *
fwd_seq_streams_json(const struct fwd_app *app, uint64_t *unsigned_rx, uint64_t *untracked)
{
	struct seq_sum *sum;
	size_t nb = 0, cap, j;
	json_t *arr;
	uint16_t i;

	*unsigned_rx = 0;
	*untracked = 0;
	cap = (size_t)app->nb_lcores * FWD_SEQ_SLOTS;
	sum = calloc(cap > 0 ? cap : 1, sizeof(*sum));
	if (sum == NULL)
		return NULL;
	for (i = 0; i < app->nb_lcores; i++) {
		const struct fwd_seq_table *t = app->lcores[i]->seq;
		unsigned int k;

		if (t == NULL)
			continue;
		*unsigned_rx += __atomic_load_n(&t->unsigned_rx, __ATOMIC_RELAXED);
		*untracked += __atomic_load_n(&t->untracked, __ATOMIC_RELAXED);
		for (k = 0; k < FWD_SEQ_SLOTS; k++) {
			const struct fwd_seq_slot *s = &t->slot[k];
			uint32_t key = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);

			if (key == 0)
				continue;
			/* Queues polled by different lcores may carry one stream. */
			for (j = 0; j < nb; j++)
				if (sum[j].stream == key - 1)
					break;
			if (j == nb)
				sum[nb++].stream = key - 1;
			sum[j].rx += __atomic_load_n(&s->seq.rx, __ATOMIC_RELAXED);
			sum[j].gaps += __atomic_load_n(&s->seq.gaps, __ATOMIC_RELAXED);
			sum[j].dup += __atomic_load_n(&s->seq.dup, __ATOMIC_RELAXED);
			sum[j].ooo += __atomic_load_n(&s->seq.ooo, __ATOMIC_RELAXED);
		}
	}
	qsort(sum, nb, sizeof(*sum), seq_sum_cmp);
	arr = json_array();
	for (j = 0; arr != NULL && j < nb; j++)
		if (json_array_append_new(arr, json_pack("{s:I, s:I, s:I, s:I, s:I}", "stream",
							 (json_int_t)sum[j].stream, "rx_packets",
							 (json_int_t)sum[j].rx, "gaps",
							 (json_int_t)sum[j].gaps, "dup",
							 (json_int_t)sum[j].dup, "ooo",
							 (json_int_t)sum[j].ooo)) != 0) {
			json_decref(arr);
			arr = NULL;
		}
	free(sum);
	return arr;
}
