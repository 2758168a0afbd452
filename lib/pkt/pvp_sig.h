/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * The pvpkit payload signature (DESIGN.md "Payload signature").
 *
 * pvpkit-gen writes 14 bytes right after the L4 header (UDP/TCP, or the
 * inner L4 header of a VXLAN packet) of every packet it sends:
 *
 *   offset 0  magic   4 B big endian  PVP_SIG_MAGIC
 *   offset 4  stream  2 B big endian  stream id, unique per generator
 *   offset 6  seq     4 B big endian  per-stream sequence, from 0, wraps
 *   offset 10 tx_ts   4 B host order  low 32 bits of the sender's TSC
 *
 * 14 bytes fit a 64 B frame (60 B without FCS) of Ethernet + one VLAN +
 * IPv4 + UDP. Receivers locate it by parsing the headers they get
 * (rte_net_get_ptype), so header rewrites on the way (macswap, NAT,
 * VLAN push/pop) do not matter. Sequence numbers compare with serial
 * arithmetic; latency is (rx_tsc - tx_ts) mod 2^32, so it is valid up
 * to 2^32 TSC cycles (about 1.4 s at 3 GHz).
 */

#ifndef PVP_SIG_H
#define PVP_SIG_H

#include <stdint.h>

#include <rte_common.h>
#include <rte_byteorder.h>

#ifdef __cplusplus
extern "C" {
#endif

/** "PVP!" */
#define PVP_SIG_MAGIC 0x50565021u

/** Bytes the signature takes after the L4 header. */
#define PVP_SIG_LEN 14

/** Wire layout of the signature. */
struct pvp_sig {
	rte_be32_t magic;  /**< PVP_SIG_MAGIC, big endian */
	rte_be16_t stream; /**< stream id, big endian */
	rte_be32_t seq;	   /**< sequence number, big endian */
	uint32_t tx_ts;	   /**< low 32 bits of TX TSC, host order */
} __rte_packed;

struct rte_mbuf;

/**
 * Find the signature in a received packet: parses Ethernet, VLAN/QinQ,
 * IPv4/IPv6, UDP/TCP and VXLAN (UDP port 4789, then the inner headers).
 *
 * @return a pointer into the first segment's data, or NULL when the
 *   packet is too short, not UDP/TCP, or the magic does not match.
 */
const struct pvp_sig *pvp_sig_find(const struct rte_mbuf *m);

/** Size of the duplicate/reorder window of a sequence tracker, in packets. */
#define PVP_SEQ_WINDOW 4096

/**
 * Per-stream sequence tracker. Exact for duplicates and reordering within
 * PVP_SEQ_WINDOW sequence numbers of the highest seen; older arrivals
 * count as late (out of order, cannot be told from duplicates).
 *
 * The first packet after pvp_seq_init() is the baseline: numbers before
 * it are not counted as gaps, so a tracker reset in the middle of a
 * stream (stats.clear) starts clean. A packet below the highest seen and
 * not seen before counts once in @c ooo and fills one gap. At the end of
 * a run, pvp_seq_lost() with the sender's count is the exact loss.
 */
struct pvp_seq {
	uint64_t rx;			      /**< packets seen, duplicates included */
	uint64_t dup;			      /**< duplicates (seq already seen, within window) */
	uint64_t ooo;			      /**< out of order: arrived after a higher seq */
	uint64_t gaps;			      /**< sequence numbers skipped so far (lower bound of
			     *   loss while running; late arrivals reduce it) */
	uint32_t next;			      /**< highest seq seen + 1 */
	uint32_t started;		      /**< 0 until the first packet */
	uint64_t window[PVP_SEQ_WINDOW / 64]; /**< seen-bits, indexed seq % window */
};

/** Reset a tracker to "nothing seen". */
void pvp_seq_init(struct pvp_seq *s);

/** Account one received sequence number. Single writer (the RX lcore). */
void pvp_seq_update(struct pvp_seq *s, uint32_t seq);

/**
 * Exact loss at the end of a run: packets @p sent minus unique packets
 * received (rx - dup); 0 when more arrived than were sent.
 */
static inline uint64_t
pvp_seq_lost(const struct pvp_seq *s, uint64_t sent)
{
	uint64_t unique = s->rx - s->dup;

	return sent > unique ? sent - unique : 0;
}

/** Sub-buckets per power of two in a latency histogram: 2^5 = 32, so a
 *  percentile is within 1/32 (3.1 %) of the true value. */
#define PVP_LAT_SUB_BITS 5
/** Latencies of 2^PVP_LAT_MAX_BITS ns (about 18 min) and more share the
 *  last bucket (max_ns stays exact). */
#define PVP_LAT_MAX_BITS 40
/** Buckets of a latency histogram. */
#define PVP_LAT_NB_BUCKETS ((PVP_LAT_MAX_BITS - PVP_LAT_SUB_BITS + 1) << PVP_LAT_SUB_BITS)

/**
 * Latency histogram of one stream, in nanoseconds: log-linear buckets
 * (exact below 32 ns, then 32 buckets per power of two), exact min, max
 * and sum, and the RFC 3550 interarrival jitter (J += (|D| - J) / 16,
 * where D is the difference of consecutive packets' one-way latencies).
 * Single writer; readers copy it (a torn read only skews one packet).
 */
struct pvp_lat {
	uint64_t count;			     /**< samples */
	uint64_t sum_ns;		     /**< sum of samples */
	uint64_t min_ns;		     /**< smallest sample, UINT64_MAX when none */
	uint64_t max_ns;		     /**< largest sample */
	uint64_t jitter16;		     /**< RFC 3550 jitter estimate, ns * 16 */
	uint64_t last_ns;		     /**< previous sample, for the jitter */
	uint64_t bucket[PVP_LAT_NB_BUCKETS]; /**< sample counts */
};

/** What readers report of a latency histogram (all in ns, 0 when empty). */
struct pvp_lat_summary {
	uint64_t count;	 /**< samples */
	uint64_t min;	 /**< smallest */
	uint64_t avg;	 /**< mean, rounded down */
	uint64_t max;	 /**< largest */
	uint64_t p50;	 /**< median */
	uint64_t p90;	 /**< 90th percentile */
	uint64_t p99;	 /**< 99th percentile */
	uint64_t p99_9;	 /**< 99.9th percentile */
	uint64_t jitter; /**< RFC 3550 jitter */
};

/** Reset a histogram to empty. */
void pvp_lat_init(struct pvp_lat *l);

/** Bucket index of a latency (exposed for tests). */
unsigned int pvp_lat_bucket(uint64_t ns);

/** Smallest latency that falls in bucket @p b. */
uint64_t pvp_lat_bucket_low(unsigned int b);

/** Account one latency sample. */
void pvp_lat_update(struct pvp_lat *l, uint64_t ns);

/**
 * Add @p src into @p dst (several RX lcores). Jitter becomes the
 * count-weighted mean of both.
 */
void pvp_lat_merge(struct pvp_lat *dst, const struct pvp_lat *src);

/**
 * The @p pct percentile (0 < pct <= 100): the middle of the bucket that
 * holds the sample of rank ceil(pct/100 * count), clamped to [min, max].
 * 0 when empty.
 */
uint64_t pvp_lat_percentile(const struct pvp_lat *l, double pct);

/** Fill @p s from @p l. */
void pvp_lat_read(const struct pvp_lat *l, struct pvp_lat_summary *s);

#ifdef __cplusplus
}
#endif

#endif /* PVP_SIG_H */
