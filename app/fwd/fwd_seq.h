/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * --seq-check of pvpkit-fwd: per-lcore tables of per-stream sequence
 * trackers, and the burst accounting the engines inline into their
 * loops (fwd_seq.c holds the rest).
 */

#ifndef FWD_SEQ_H
#define FWD_SEQ_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <jansson.h>

#include "pvp_sig.h"

struct fwd_app;

/*
 * Sequence checking (--seq-check): every forwarding lcore owns one table
 * of per-stream trackers, keyed by the signature's stream id. The control
 * thread only reads it; clearing is a request the lcore acknowledges.
 */
#define FWD_SEQ_SLOTS 1024 /**< streams tracked per lcore (power of 2) */

/** One tracked stream. key is stream id + 1, 0 when the slot is free. */
struct fwd_seq_slot {
	uint32_t key;	    /**< stream id + 1; 0 = free */
	struct pvp_seq seq; /**< the tracker */
};

/** Per-lcore sequence state. Written by its lcore only. */
struct fwd_seq_table {
	uint64_t unsigned_rx;	   /**< packets without a signature */
	uint64_t untracked;	   /**< signed packets of streams beyond FWD_SEQ_SLOTS */
	uint32_t clear_ack;	   /**< last clear request handled */
	struct fwd_seq_slot *last; /**< slot of the current stream (set by fwd_seq_set_slot()) */
	uint32_t next_hint;	   /**< the number after the last one seen of last */
	/** Frame bytes 12..27 and 32..47 that the fast check compares... */
	uint8_t hdr_mask[32] __rte_aligned(16);
	/** ...and their values: IPv4/UDP, the magic, last's stream id. */
	uint8_t hdr_want[32] __rte_aligned(16);
	struct fwd_seq_slot slot[FWD_SEQ_SLOTS]; /**< open addressing */
} __rte_cache_aligned;

/** Make a zeroed @p t ready (no current stream). */
void fwd_seq_table_init(struct fwd_seq_table *t);

/** Clear requests, incremented by the control thread. */
extern uint32_t fwd_seq_clear_req;

/** Account a burst in @p t (the lcore's own table). */
void fwd_seq_check(struct fwd_seq_table *t, struct rte_mbuf **pkts, uint16_t n);

/** The slot of @p stream in @p t, claimed if new; NULL when the table is full. */
struct fwd_seq_slot *fwd_seq_lookup(struct fwd_seq_table *t, uint16_t stream);

/**
 * Sequence accounting of one burst: fwd_seq_begin(), fwd_seq_one() per
 * packet, fwd_seq_end(). A local of the caller, with the number that
 * extends the run (@c next below) in another local of the caller, so
 * that it stays in a register.
 *
 * Consecutive packets of the current stream whose sequence numbers follow
 * each other form a run [run_start, next) that reaches the tracker only
 * when the run breaks (another number, another stream, end of the burst):
 * fwd_seq_apply() then accounts the whole run at once, exactly as
 * pvp_seq_update() one number at a time would. In-order traffic and the
 * duplicates of a replayed capture both come as runs, so a signed packet
 * of the current stream costs one header check, one compare and one
 * increment.
 */
struct fwd_seq_burst {
	struct fwd_seq_table *t; /**< the lcore's table */
	struct fwd_seq_slot *s;	 /**< slot of the current stream (t->last), or NULL */
	uint32_t run_start;	 /**< first sequence number of the pending run */
	uint32_t run_next;	 /**< the caller's next, around calls into fwd_seq.c */
	uint32_t tracked;	 /**< packets of runs accounted so far */
	uint32_t untracked;	 /**< signed packets beyond FWD_SEQ_SLOTS streams */
};

/** Offset of the signature in an untagged IPv4 (no options) / UDP frame. */
#define FWD_SEQ_SIG_OFF (RTE_ETHER_HDR_LEN + 20 + 8)
/** Shortest such frame that holds a signature. */
#define FWD_SEQ_MIN_LEN (FWD_SEQ_SIG_OFF + PVP_SIG_LEN)

/** Account numbers start .. start + count - 1 in @p s, in that order (fwd_seq.c). */
void fwd_seq_apply(struct pvp_seq *s, uint32_t start, uint32_t count);

/**
 * Make @p s (NULL: none) the current stream of @p b: the fast check
 * compares its id, the run starts empty.
 */
void fwd_seq_set_slot(struct fwd_seq_burst *b, struct fwd_seq_slot *s);

/** A packet the fast check does not take (fwd_seq.c). */
void fwd_seq_slow(struct fwd_seq_burst *b, const struct rte_mbuf *m);

/** Number @p seq of the current stream breaks the run (fwd_seq.c). */
void fwd_seq_restart(struct fwd_seq_burst *b, uint32_t seq);

/** Start accounting a burst in @p t. @return the caller's next. */
static __rte_always_inline uint32_t
fwd_seq_begin(struct fwd_seq_burst *b, struct fwd_seq_table *t)
{
	struct fwd_seq_slot *s = t->last;

	b->t = t;
	b->s = s;
	b->tracked = 0;
	b->untracked = 0;
	/* An empty run that the traffic extends if it goes on as it stopped. */
	b->run_start = t->next_hint;
	return b->run_start;
}

/** Account the pending run [run_start, run_next), leave it empty. */
static __rte_always_inline void
fwd_seq_flush(struct fwd_seq_burst *b)
{
	const uint32_t count = b->run_next - b->run_start;

	if (count != 0) {
		fwd_seq_apply(&b->s->seq, b->run_start, count);
		b->tracked += count;
		b->run_start = b->run_next;
	}
}

/*
 * First bytes of EtherTypes that can carry a signature (IPv4, IPv6, VLAN,
 * QinQ): any other frame is unsigned without parsing it.
 */
extern const uint8_t fwd_seq_maybe_ip[256];

/**
 * Account one packet of the burst, given its data @p p and data_len
 * @p len (@p t is b->t, @p next the caller's). The commonest signed frame
 * (untagged IPv4 without options, not a fragment, UDP not to the VXLAN
 * port, IP total length up to the end of the frame, signature of the
 * current stream) is recognised with two masked 16-byte compares and three
 * 16-bit ones, checks that pvp_sig_find_inline() also makes for it; a
 * frame that is not IP at all is refused by the first byte of its
 * EtherType; everything else goes to fwd_seq_slow(), which asks
 * pvp_sig_find_inline(), so every packet gets the same answer as there.
 */
static __rte_always_inline void
fwd_seq_one_data(struct fwd_seq_burst *b, const struct fwd_seq_table *t, uint32_t *next,
		 const struct rte_mbuf *m, const uint8_t *p, uint32_t len)
{
	if (likely(len >= FWD_SEQ_MIN_LEN)) {
		bool hdr_ok;

		/*
		 * Not IPv4: not for the fast check, and if not IP at all, not
		 * signed (counted at the end of the burst).
		 */
		if (unlikely(*(const unaligned_uint16_t *)(p + 12) !=
			     RTE_BE16(RTE_ETHER_TYPE_IPV4))) {
			if (fwd_seq_maybe_ip[p[12]] == 0)
				return;
			goto slow;
		}

#ifdef __SSE2__
		const __m128i a = _mm_loadu_si128((const __m128i *)(p + 12));
		const __m128i c = _mm_loadu_si128((const __m128i *)(p + 32));
		const __m128i ea = _mm_cmpeq_epi8(
			_mm_and_si128(a, _mm_load_si128((const __m128i *)t->hdr_mask)),
			_mm_load_si128((const __m128i *)t->hdr_want));
		const __m128i ec = _mm_cmpeq_epi8(
			_mm_and_si128(c, _mm_load_si128((const __m128i *)(t->hdr_mask + 16))),
			_mm_load_si128((const __m128i *)(t->hdr_want + 16)));

		hdr_ok = _mm_movemask_epi8(_mm_and_si128(ea, ec)) == 0xffff;
#else
		uint64_t x[4], mk[4], w[4];

		memcpy(x, p + 12, 16);
		memcpy(x + 2, p + 32, 16);
		memcpy(mk, t->hdr_mask, 32);
		memcpy(w, t->hdr_want, 32);
		hdr_ok = ((x[0] & mk[0]) ^ w[0]) == 0 && ((x[1] & mk[1]) ^ w[1]) == 0 &&
			 ((x[2] & mk[2]) ^ w[2]) == 0 && ((x[3] & mk[3]) ^ w[3]) == 0;
#endif
		/*
		 * IP total length exactly up to the end of the frame (the range
		 * pvp_sig_find_inline() accepts, less Ethernet padding: padded
		 * frames go the slow way), compared big endian; not VXLAN.
		 */
		if (likely(hdr_ok &&
			   *(const unaligned_uint16_t *)(p + 16) ==
				   rte_cpu_to_be_16((uint16_t)(len - RTE_ETHER_HDR_LEN)) &&
			   *(const unaligned_uint16_t *)(p + 36) != RTE_BE16(4789))) {
			const uint32_t seq = rte_be_to_cpu_32(
				*(const unaligned_uint32_t *)(p + FWD_SEQ_SIG_OFF + 6));

			if (likely(seq == *next)) {
				*next = seq + 1;
				return;
			}
			b->run_next = *next;
			fwd_seq_restart(b, seq);
			*next = b->run_next;
			return;
		}
	}
slow:
	b->run_next = *next;
	fwd_seq_slow(b, m);
	*next = b->run_next;
}

/** fwd_seq_one_data() for engines that do not read the headers themselves. */
static __rte_always_inline void
fwd_seq_one(struct fwd_seq_burst *b, const struct fwd_seq_table *t, uint32_t *next,
	    const struct rte_mbuf *m)
{
	fwd_seq_one_data(b, t, next, m, rte_pktmbuf_mtod(m, const uint8_t *),
			 rte_pktmbuf_data_len(m));
}

/**
 * Publish what the burst of @p n packets counted; @p next is the caller's.
 * The packets that were neither tracked nor untracked had no signature.
 */
static __rte_always_inline void
fwd_seq_end(struct fwd_seq_burst *b, uint32_t next, uint16_t n)
{
	struct fwd_seq_table *t = b->t;
	uint32_t unsigned_rx;

	b->run_next = next;
	fwd_seq_flush(b);
	t->next_hint = b->run_next;
	unsigned_rx = n - b->tracked - b->untracked;
	if (unsigned_rx != 0)
		__atomic_store_n(&t->unsigned_rx, t->unsigned_rx + unsigned_rx, __ATOMIC_RELAXED);
	if (b->untracked != 0)
		__atomic_store_n(&t->untracked, t->untracked + b->untracked, __ATOMIC_RELAXED);
}

/** Forget every stream and acknowledge clear request @p req (fwd_seq.c). */
void fwd_seq_do_clear(struct fwd_seq_table *t, uint32_t req);

/** Forget every stream if a clear was requested; called by the owning lcore. */
static __rte_always_inline void
fwd_seq_poll_clear(struct fwd_seq_table *t)
{
	const uint32_t req = __atomic_load_n(&fwd_seq_clear_req, __ATOMIC_ACQUIRE);

	if (unlikely(req != t->clear_ack))
		fwd_seq_do_clear(t, req);
}

/**
 * Sum the per-lcore sequence trackers into a JSON array of streams
 * ({"stream","rx_packets","gaps","dup","ooo"}), sorted by stream id.
 * Sets @p unsigned_rx and @p untracked. Reader side, any thread.
 */
json_t *fwd_seq_streams_json(const struct fwd_app *app, uint64_t *unsigned_rx, uint64_t *untracked);

/**
 * Ask every lcore to forget its streams and wait for the acknowledgements.
 * @return 0, or -ETIMEDOUT when an lcore did not answer in @p timeout_ms.
 */
int fwd_seq_clear(const struct fwd_app *app, unsigned int timeout_ms);

#endif /* FWD_SEQ_H */
