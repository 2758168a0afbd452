/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/* macswap: swap source and destination MAC addresses. */

#include <stdbool.h>

#include <rte_prefetch.h>

#include "fwd.h"

/*
 * One packet, its data at @p p: count its bytes, account its sequence
 * number (@p sb, NULL without --seq-check; the check reads the headers
 * before the swap stores over them), swap its MACs.
 */
static __rte_always_inline void
macswap_pkt(struct rte_mbuf *m, uint8_t *p, uint64_t *bytes, struct fwd_seq_burst *sb,
	    const struct fwd_seq_table *t, uint32_t *next)
{
	const uint32_t len = rte_pktmbuf_data_len(m);

	*bytes += rte_pktmbuf_pkt_len(m);
	if (sb != NULL)
		fwd_seq_one_data(sb, t, next, m, p, len);
#ifdef __SSSE3__
	if (likely(len >= sizeof(__m128i))) {
		/* Bytes 6..11 (source) first, then 0..5 (destination), 12..15 kept. */
		const __m128i shuf =
			_mm_setr_epi8(6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 12, 13, 14, 15);

		_mm_storeu_si128((__m128i *)p,
				 _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p), shuf));
		return;
	}
#endif
	fwd_macswap_one(m);
}

/*
 * Packet pp[@p i] of the burst, mbuf @p m, data at @p p; then @p m and @p p
 * become packet i + 4's, its data prefetched. With --seq-check, which
 * needs more registers, the mbuf is read again from the array instead.
 */
#define MACSWAP_STEP(i, m, p)                                                                      \
	do {                                                                                       \
		macswap_pkt(seq ? pp[i] : m, p, &bytes, sbp, st, &next);                           \
		m = pp[(i) + 4];                                                                   \
		p = rte_pktmbuf_mtod(m, uint8_t *);                                                \
		rte_prefetch0(p);                                                                  \
	} while (0)

/*
 * One burst, four packets at a time, the headers of the next four
 * prefetched while these are rewritten (testpmd's macswap does the same),
 * each data pointer computed once; bytes are counted and, with @p seq (a
 * constant once inlined), --seq-check runs in the same loop, on headers it
 * loads anyway, rather than in passes of their own.
 */
static __rte_always_inline uint16_t
macswap_burst(struct fwd_stream *fs, const bool seq)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	struct fwd_seq_burst sb;
	struct fwd_seq_burst *sbp = seq ? &sb : NULL;
	struct fwd_seq_table *const st = fs->seq;
	uint64_t bytes = 0;
	uint32_t next = 0;
	struct rte_mbuf **pp = pkts, **end;
	uint16_t n;

	n = rte_eth_rx_burst(fs->rx_port, fs->rx_queue, pkts, fs->burst);
	if (n == 0)
		return 0;
	if (unlikely(fs->stamp))
		fwd_stamp_burst(pkts, n);
	end = pkts + n;
	if (seq)
		next = fwd_seq_begin(&sb, st);
	if (n >= 4) {
		struct rte_mbuf *m0 = pp[0], *m1 = pp[1], *m2 = pp[2], *m3 = pp[3];
		uint8_t *p0 = rte_pktmbuf_mtod(m0, uint8_t *);
		uint8_t *p1 = rte_pktmbuf_mtod(m1, uint8_t *);
		uint8_t *p2 = rte_pktmbuf_mtod(m2, uint8_t *);
		uint8_t *p3 = rte_pktmbuf_mtod(m3, uint8_t *);

		for (; end - pp >= 8; pp += 4) {
			MACSWAP_STEP(0, m0, p0);
			MACSWAP_STEP(1, m1, p1);
			MACSWAP_STEP(2, m2, p2);
			MACSWAP_STEP(3, m3, p3);
		}
		macswap_pkt(m0, p0, &bytes, sbp, st, &next);
		macswap_pkt(m1, p1, &bytes, sbp, st, &next);
		macswap_pkt(m2, p2, &bytes, sbp, st, &next);
		macswap_pkt(m3, p3, &bytes, sbp, st, &next);
		pp += 4;
	}
	for (; pp < end; pp++)
		macswap_pkt(*pp, rte_pktmbuf_mtod(*pp, uint8_t *), &bytes, sbp, st, &next);
	pvp_stats_rxq_add(fs->rxs, n, bytes);
	if (seq)
		fwd_seq_end(&sb, next, n);
	fwd_tx_burst(fs, pkts, n, bytes);
	return n;
}

static uint16_t
macswap_fwd(struct fwd_stream *fs)
{
	if (fs->seq != NULL)
		return macswap_burst(fs, true);
	return macswap_burst(fs, false);
}

const struct fwd_engine fwd_macswap_engine = {
	.name = "macswap",
	.help = "swap source and destination MAC addresses",
	.packet_fwd = macswap_fwd,
};
