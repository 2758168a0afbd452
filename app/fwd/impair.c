/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The impairment stage (impair.h) on the packet path: the stage itself,
 * its setup and teardown (mode impair is io's loop, in io.c).
 * impair_ctl.c has its settings and counters as the user sees them.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "fwd.h"

/* 2^53: a probability p becomes the threshold p * 2^53 of 53 random bits. */
#define IMPAIR_ONE 9007199254740992.0

/* splitmix64: one multiply-xorshift step per number, a full 2^64 period. */
static inline uint64_t
impair_rand(struct fwd_impair *im)
{
	uint64_t z = (im->rng += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* True with the probability @p thr stands for; draws nothing when it is 0,
 * so an impairment that is off does not move the others' sequence. */
static inline bool
impair_draw(struct fwd_impair *im, uint64_t thr)
{
	return thr != 0 && (impair_rand(im) >> 11) < thr;
}

static uint64_t
impair_thr(double p)
{
	return (uint64_t)(p * IMPAIR_ONE);
}

/* Settings @p c take effect: thresholds, bucket full, sequence restarted. */
static void
impair_apply(struct fwd_impair *im, const struct pvp_impair_conf *c, uint64_t now)
{
	const uint64_t hz = rte_get_tsc_hz();

	im->delay_cyc = (uint64_t)c->delay_us * hz / 1000000;
	im->loss_thr = impair_thr(c->loss);
	im->ge_p_thr = impair_thr(c->ge_p);
	im->ge_r_thr = impair_thr(c->ge_r);
	im->ge_loss_thr = impair_thr(c->ge_loss);
	im->dup_thr = impair_thr(c->dup);
	im->reorder_thr = impair_thr(c->reorder);
	im->tokens_per_cyc = (double)c->rate_pps / (double)hz;
	im->depth = c->burst;
	im->tokens = c->burst;
	im->last_tsc = now;
	im->rng = c->seed ^ im->mix;
	im->ge_bad = false;
}

/* New settings from impair.set, when the control thread is not writing them. */
static inline void
impair_check_set(struct fwd_impair *im, uint64_t now)
{
	uint32_t s = __atomic_load_n(&im->seq, __ATOMIC_ACQUIRE);
	struct pvp_impair_conf c;

	if (likely(s == im->seen) || (s & 1) != 0)
		return;
	c = im->pending;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&im->seq, __ATOMIC_RELAXED) != s)
		return;
	impair_apply(im, &c, now);
	im->seen = s;
}

/* The loss model's verdict on one packet. */
static inline bool
impair_lost(struct fwd_impair *im)
{
	if (im->ge_p_thr == 0)
		return impair_draw(im, im->loss_thr);
	/* Gilbert-Elliott: the state moves first, then its loss applies. */
	if (im->ge_bad) {
		if (impair_draw(im, im->ge_r_thr))
			im->ge_bad = false;
	} else if (impair_draw(im, im->ge_p_thr)) {
		im->ge_bad = true;
	}
	return impair_draw(im, im->ge_bad ? im->ge_loss_thr : im->loss_thr);
}

static inline void
impair_count(uint64_t *c, uint64_t n)
{
	if (n != 0)
		__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

static inline uint32_t
impair_nb_held(const struct fwd_impair *im)
{
	return (im->tail - im->head) + (im->held != NULL ? 1 : 0);
}

/* Send every delayed packet due at @p now, in order. @return packets sent. */
static uint32_t
impair_release(struct fwd_stream *fs, struct fwd_impair *im, uint64_t now)
{
	struct rte_mbuf *out[FWD_MAX_BURST];
	uint32_t sent = 0;
	uint64_t bytes;
	uint16_t k;

	do {
		for (k = 0, bytes = 0; k < FWD_MAX_BURST && im->head != im->tail; k++) {
			const struct fwd_impair_slot *sl = &im->ring[im->head & im->mask];

			if ((int64_t)(now - sl->due) < 0)
				break;
			out[k] = sl->m;
			bytes += sl->m->pkt_len;
			im->head++;
		}
		if (k != 0)
			fwd_tx_send(fs, out, k, bytes);
		sent += k;
	} while (k == FWD_MAX_BURST);
	return sent;
}

/* Packets past loss, duplication and reordering: sent now, or into the
 * delay ring (also with no delay while the ring still holds packets, so a
 * delay turned off never lets new packets overtake held ones). */
static void
impair_out(struct fwd_stream *fs, struct fwd_impair *im, struct rte_mbuf **out, uint32_t n,
	   uint64_t now)
{
	const uint64_t due = now + im->delay_cyc;
	uint32_t i, ring_size = im->mask + 1, over = 0, queued = 0;

	if (n == 0)
		return;
	if (im->delay_cyc == 0 && im->head == im->tail) {
		/* Up to two bursts and one held packet: send in bursts. */
		for (i = 0; i < n; i += FWD_MAX_BURST) {
			uint16_t k = (uint16_t)RTE_MIN(n - i, (uint32_t)FWD_MAX_BURST);
			uint64_t b = 0;
			uint16_t j;

			for (j = 0; j < k; j++)
				b += out[i + j]->pkt_len;
			fwd_tx_send(fs, &out[i], k, b);
		}
		return;
	}
	for (i = 0; i < n; i++) {
		if (im->tail - im->head >= ring_size) {
			rte_pktmbuf_free(out[i]);
			over++;
			continue;
		}
		im->ring[im->tail & im->mask] = (struct fwd_impair_slot){.m = out[i], .due = due};
		im->tail++;
		queued++;
	}
	if (over != 0) {
		pvp_stats_rxq_drop(fs->rxs, over, 0);
		impair_count(&im->c.overflow_dropped, over);
	}
	impair_count(&im->c.delayed, im->delay_cyc != 0 ? queued : 0);
	impair_release(fs, im, now);
}

void
fwd_impair_burst(struct fwd_stream *fs, struct rte_mbuf **pkts, uint16_t n)
{
	struct fwd_impair *im = fs->imp;
	struct rte_mbuf *out[2 * FWD_MAX_BURST + 1];
	struct rte_mbuf *drop[FWD_MAX_BURST];
	const uint64_t now = rte_rdtsc();
	uint64_t lost = 0, capped = 0, dups = 0, swaps = 0;
	uint32_t no = 0, nd = 0;
	uint16_t i;

	impair_check_set(im, now);
	if (im->tokens_per_cyc > 0) {
		im->tokens += (double)(now - im->last_tsc) * im->tokens_per_cyc;
		if (im->tokens > im->depth)
			im->tokens = im->depth;
		im->last_tsc = now;
	}
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i], *c;
		bool dup;

		if (im->tokens_per_cyc > 0) {
			if (im->tokens < 1.0) {
				drop[nd++] = m;
				capped++;
				continue;
			}
			im->tokens -= 1.0;
		}
		if (impair_lost(im)) {
			drop[nd++] = m;
			lost++;
			continue;
		}
		dup = impair_draw(im, im->dup_thr);
		/* A copy is not held back: a swap with its own copy would be a
		 * duplicate to the receiver, not a reordering. */
		if (!dup && im->held == NULL && impair_draw(im, im->reorder_thr)) {
			im->held = m;
			im->held_tsc = now;
			continue;
		}
		out[no++] = m;
		if (dup) {
			/* A copy, not a second reference: ports may free fast. */
			c = rte_pktmbuf_copy(m, m->pool, 0, UINT32_MAX);
			if (c != NULL) {
				out[no++] = c;
				dups++;
			}
		}
		if (im->held != NULL) {
			out[no++] = im->held;
			im->held = NULL;
			swaps++;
		}
	}
	if (nd != 0) {
		rte_pktmbuf_free_bulk(drop, nd);
		pvp_stats_rxq_drop(fs->rxs, nd, 0);
	}
	impair_count(&im->c.rate_dropped, capped);
	impair_count(&im->c.loss_dropped, lost);
	impair_count(&im->c.duplicated, dups);
	impair_count(&im->c.reordered, swaps);
	impair_out(fs, im, out, no, now);
	__atomic_store_n(&im->c.held, impair_nb_held(im), __ATOMIC_RELAXED);
}

uint32_t
fwd_impair_poll(struct fwd_lcore *lc, uint64_t *due)
{
	const uint64_t now = rte_rdtsc();
	uint32_t r = 0;
	uint16_t s;

	*due = UINT64_MAX;

	for (s = 0; s < lc->nb_streams; s++) {
		struct fwd_stream *fs = &lc->streams[s];
		struct fwd_impair *im = fs->imp;
		struct rte_mbuf *m;

		impair_check_set(im, now);
		/* Nothing followed the held packet: it goes unswapped. */
		if (im->held != NULL && now - im->held_tsc >= im->reorder_cyc) {
			m = im->held;
			im->held = NULL;
			impair_out(fs, im, &m, 1, now);
			r++;
		}
		if (im->head != im->tail)
			r += impair_release(fs, im, now);
		if (im->held != NULL && im->held_tsc + im->reorder_cyc < *due)
			*due = im->held_tsc + im->reorder_cyc;
		if (im->head != im->tail && im->ring[im->head & im->mask].due < *due)
			*due = im->ring[im->head & im->mask].due;
		__atomic_store_n(&im->c.held, impair_nb_held(im), __ATOMIC_RELAXED);
	}
	return r;
}

int
fwd_impair_setup(struct fwd_app *app, char *err, size_t err_len)
{
	const struct fwd_conf *conf = app->conf;
	const uint32_t ring = rte_align32pow2(conf->impair_ring);
	const uint64_t now = rte_rdtsc();
	uint16_t k, s;

	if (!conf->impair_on)
		return 0;
	/* Settings that name a port the EAL did not make would go unused. */
	for (k = app->nb_ports; k < FWD_MAX_PORTS; k++)
		if (conf->impair[k].port == (int32_t)k)
			return pvp_fail(err, err_len, -EINVAL,
					"--impair port=%u: the forwarder has %u ports", k,
					app->nb_ports);
	for (k = 0; k < app->nb_lcores; k++) {
		struct fwd_lcore *lc = app->lcores[k];
		int socket = (int)rte_lcore_to_socket_id(lc->lcore_id);

		for (s = 0; s < lc->nb_streams; s++) {
			struct fwd_stream *fs = &lc->streams[s];
			struct fwd_impair *im;

			im = rte_zmalloc_socket("fwd_impair", sizeof(*im), RTE_CACHE_LINE_SIZE,
						socket);
			if (im != NULL)
				im->ring = rte_zmalloc_socket("fwd_impair_ring",
							      (size_t)ring * sizeof(*im->ring),
							      RTE_CACHE_LINE_SIZE, socket);
			if (im == NULL || im->ring == NULL) {
				rte_free(im);
				return pvp_fail(
					err, err_len, -ENOMEM,
					"cannot allocate a delay ring of %u packets: out of "
					"hugepage memory (--impair-ring)",
					ring);
			}
			im->mask = ring - 1;
			/* Streams of one direction (RX queues) draw different numbers. */
			im->mix = ((uint64_t)fs->rx_idx << 16 | fs->rx_queue) *
				  UINT64_C(0xd1342543de82ef95);
			im->reorder_cyc = FWD_IMPAIR_REORDER_US * rte_get_tsc_hz() / 1000000;
			im->c.port = fs->rx_idx;
			im->cur = conf->impair[fs->rx_idx];
			impair_apply(im, &im->cur, now);
			fs->imp = im;
			lc->impair = true;
		}
	}
	return 0;
}

void
fwd_impair_free(struct fwd_app *app)
{
	uint16_t s;

	for (s = 0; s < app->nb_streams; s++) {
		struct fwd_impair *im = app->streams[s]->imp;

		if (im == NULL)
			continue;
		rte_pktmbuf_free(im->held);
		for (; im->head != im->tail; im->head++)
			rte_pktmbuf_free(im->ring[im->head & im->mask].m);
		rte_free(im->ring);
		rte_free(im);
		app->streams[s]->imp = NULL;
	}
}
