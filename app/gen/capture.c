/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Captures (capture.h): the lcore side and the writer. An lcore that sees
 * a frame on a captured port runs the capture's BPF program on it
 * (libpcap's compiler, a dead handle, pcap_offline_filter()), copies a
 * match into a record of a private pool and enqueues it on one ring; the
 * writer, a control thread, writes records to the pcap file or the fetch
 * buffer. The lcores never block and never take a lock: a full ring or
 * pool is a frame the capture drops (counted), never a frame the port
 * loses.
 *
 * Stopping needs every lcore out of the capture's program: each lcore
 * makes its counter odd while it looks at the captures and even after,
 * and the control side waits for the odd ones to move on (an RCU grace
 * period in two loads per lcore). Then it waits until the writer has
 * stored every record enqueued, so a stopped capture's file is whole.
 * The control side and --capture are in capture_ctl.c.
 */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include <pcap/pcap.h>

#include "capture.h"
#include "capture_private.h"
#include "gen.h"

#define GEN_CAP_BATCH 64 /* records the writer takes at once */

volatile uint32_t gen_cap_on;

struct gen_cap gen_cap_slots[GEN_CAP_MAX] = {
	[0 ... GEN_CAP_MAX - 1] = {.lock = PTHREAD_MUTEX_INITIALIZER},
};
struct gen_cap_lc gen_cap_lcs[RTE_MAX_LCORE + 1];
struct rte_mempool *gen_cap_mp;
struct rte_ring *gen_cap_ring;
volatile bool gen_cap_thr_stop;
uint64_t gen_cap_enq;  /* records enqueued (lcores, atomic) */
uint64_t gen_cap_done; /* records the writer finished (atomic) */
uint64_t gen_cap_mem;  /* bytes of all fetch buffers (atomic) */

/* ---- lcore side ---- */

static void
gen_cap_drop(uint64_t *counter, struct gen_cap_rec *r)
{
	__atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
	if (r != NULL)
		rte_mempool_put(gen_cap_mp, r);
}

static void
gen_cap_frame(struct gen_cap *c, uint16_t slot, uint16_t port, enum gen_cap_dir dir,
	      struct rte_mbuf *m, uint64_t tsc)
{
	uint32_t wirelen = m->pkt_len, len = RTE_MIN(wirelen, (uint32_t)GEN_CAP_SNAP);
	const struct bpf_program *prog = __atomic_load_n(&c->prog, __ATOMIC_ACQUIRE);
	struct gen_cap_rec *r = NULL;
	const uint8_t *data;
	uint64_t idx;

	if (rte_pktmbuf_is_contiguous(m)) {
		data = rte_pktmbuf_mtod(m, const uint8_t *);
	} else {
		/* The filter needs the bytes in one piece: copy first. */
		if (rte_mempool_get(gen_cap_mp, (void **)&r) != 0) {
			gen_cap_drop(&c->dropped, NULL);
			return;
		}
		data = rte_pktmbuf_read(m, 0, len, r->data);
		if (data != r->data)
			memcpy(r->data, data, len); /* it was in the first segment after all */
	}
	if (prog != NULL) {
		struct pcap_pkthdr h = {.caplen = len, .len = wirelen};

		if (pcap_offline_filter(prog, &h, data) == 0) {
			if (r != NULL)
				rte_mempool_put(gen_cap_mp, r);
			return;
		}
	}
	idx = __atomic_add_fetch(&c->matched, 1, __ATOMIC_RELAXED);
	if ((c->count != 0 && idx > c->count) ||
	    (c->bytes_lim != 0 &&
	     __atomic_add_fetch(&c->res_bytes, wirelen, __ATOMIC_RELAXED) > c->bytes_lim) ||
	    __atomic_load_n(&c->full, __ATOMIC_RELAXED) != 0) {
		gen_cap_drop(&c->over, r);
		return;
	}
	if (r == NULL) {
		if (rte_mempool_get(gen_cap_mp, (void **)&r) != 0) {
			gen_cap_drop(&c->dropped, NULL);
			return;
		}
		memcpy(r->data, data, len);
	}
	r->tsc = tsc;
	r->index = idx;
	r->gen = c->gen;
	r->slot = slot;
	r->port = port;
	r->dir = (uint8_t)dir;
	r->len = len;
	r->wirelen = wirelen;
	if (rte_ring_mp_enqueue(gen_cap_ring, r) != 0) {
		gen_cap_drop(&c->dropped, r);
		return;
	}
	__atomic_add_fetch(&gen_cap_enq, 1, __ATOMIC_RELAXED);
}

void
gen_cap_burst_slow(uint16_t port, enum gen_cap_dir dir, struct rte_mbuf **pkts, unsigned int n)
{
	unsigned int lc = RTE_MIN(rte_lcore_id(), (unsigned int)RTE_MAX_LCORE);
	uint64_t *seq = &gen_cap_lcs[lc].seq, tsc = rte_rdtsc();
	unsigned int i;
	uint16_t s;

	/* Odd before any state is read; seq_cst pairs with the control side's store. */
	__atomic_add_fetch(seq, 1, __ATOMIC_SEQ_CST);
	for (s = 0; s < GEN_CAP_MAX; s++) {
		struct gen_cap *c = &gen_cap_slots[s];

		if (__atomic_load_n(&c->state, __ATOMIC_SEQ_CST) != GEN_CAP_ACTIVE ||
		    ((c->ports[dir] >> port) & 1) == 0)
			continue;
		for (i = 0; i < n; i++)
			gen_cap_frame(c, s, port, dir, pkts[i], tsc);
	}
	__atomic_add_fetch(seq, 1, __ATOMIC_RELEASE);
}

/* ---- writer ---- */

/* Take the oldest frame out of @p c's buffer (c->lock held); the caller frees it. */
struct gen_cap_pkt *
gen_cap_buf_pop(struct gen_cap *c)
{
	struct gen_cap_pkt *p = c->buf[c->head];

	__atomic_sub_fetch(&gen_cap_mem, p->len, __ATOMIC_RELAXED);
	c->buf_bytes -= p->len;
	c->head = (c->head + 1) % c->limit;
	c->nb--;
	return p;
}

static void
gen_cap_store(struct gen_cap_rec *r)
{
	struct gen_cap *c = &gen_cap_slots[r->slot];
	struct gen_cap_pkt *p;

	pthread_mutex_lock(&c->lock);
	if (c->gen != r->gen || c->state == GEN_CAP_FREE)
		goto out;
	if (c->to_file) {
		double ts = gen_tsc_to_realtime(&gen, r->tsc);
		struct pcap_pkthdr h = {.caplen = r->len, .len = r->wirelen};

		h.ts.tv_sec = (time_t)ts;
		h.ts.tv_usec = (suseconds_t)((ts - (double)h.ts.tv_sec) * 1e6);
		pcap_dump((u_char *)c->dump, &h, r->data);
	} else {
		if (c->nb == c->limit && !c->cyclic) {
			/* Fixed: the newest go; the lcores stop copying until a fetch. */
			__atomic_store_n(&c->full, 1, __ATOMIC_RELAXED);
			c->over++;
			goto out;
		}
		/* Over the bound on fetch buffers, or out of memory: dropped. */
		if (__atomic_add_fetch(&gen_cap_mem, r->len, __ATOMIC_RELAXED) >
			    GEN_CAP_MEM_BYTES ||
		    (p = malloc(sizeof(*p) + r->len)) == NULL) {
			__atomic_sub_fetch(&gen_cap_mem, r->len, __ATOMIC_RELAXED);
			c->dropped++;
			goto out;
		}
		p->ts = gen_tsc_to_realtime(&gen, r->tsc);
		p->index = r->index;
		p->port = r->port;
		p->dir = r->dir;
		p->len = r->len;
		memcpy(p->data, r->data, r->len);
		if (c->nb == c->limit)
			free(gen_cap_buf_pop(c)); /* cyclic: the oldest goes */
		c->buf[(c->head + c->nb) % c->limit] = p;
		c->nb++;
		c->buf_bytes += p->len;
	}
	c->captured++;
	c->cap_bytes += r->wirelen;
out:
	pthread_mutex_unlock(&c->lock);
}

void *
gen_cap_writer(void *arg)
{
	void *recs[GEN_CAP_BATCH];
	unsigned int n, i;

	RTE_SET_USED(arg);
	while (!gen_cap_thr_stop) {
		n = rte_ring_sc_dequeue_burst(gen_cap_ring, recs, GEN_CAP_BATCH, NULL);
		if (n == 0) {
			usleep(200);
			continue;
		}
		for (i = 0; i < n; i++)
			gen_cap_store(recs[i]);
		rte_mempool_put_bulk(gen_cap_mp, recs, n);
		__atomic_add_fetch(&gen_cap_done, n, __ATOMIC_RELEASE);
	}
	return NULL;
}
