/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Latency histograms (no DPDK): what pvpkit-gen's receiver counts per
 * stream, and what the coordinator merges and reads back from the results
 * file.
 *
 * Log-linear buckets in the manner of HdrHistogram: every latency below
 * 2^PVP_LAT_SUB_BITS ns has a bucket of its own; above, each power of two
 * is cut into 2^PVP_LAT_SUB_BITS equal buckets. A bucket is therefore at
 * most 1/32 of its lowest value wide, and a percentile, reported as the
 * middle of its bucket, lies within 1/64 (1.6 %) of the true sample of
 * that rank (exact below 32 ns, and min and max are always exact).
 */

#ifndef PVP_LAT_H
#define PVP_LAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Sub-buckets per power of two: 2^5 = 32 (see the file comment). */
#define PVP_LAT_SUB_BITS 5
/** Latencies of 2^PVP_LAT_MAX_BITS ns (about 18 min) and more share the
 *  last bucket (max_ns stays exact). */
#define PVP_LAT_MAX_BITS 40
/** Buckets of a latency histogram. */
#define PVP_LAT_NB_BUCKETS ((PVP_LAT_MAX_BITS - PVP_LAT_SUB_BITS + 1) << PVP_LAT_SUB_BITS)

/**
 * Latency histogram of one stream, in nanoseconds: log-linear buckets,
 * exact min, max and sum, and the RFC 3550 interarrival jitter
 * (J += (|D| - J) / 16, where D is the difference of consecutive packets'
 * one-way latencies). Single writer; readers copy it (a torn read only
 * skews one packet).
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
	uint64_t p99_99; /**< 99.99th percentile */
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
 * Add @p src into @p dst (several RX lcores, several streams). Jitter
 * becomes the count-weighted mean of both. Counts and sums that would
 * pass 2^64 - 1 are held there rather than wrapped.
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

/**
 * The histogram as JSON, sparse: {"unit": "ns", "sub_bits": 5, "count",
 * "sum", "min", "max", "jitter", "buckets": [[low_ns, count], ...]} with
 * only the non-empty buckets, lowest first; low_ns is the bucket's
 * smallest latency (pvp_lat_bucket_low()).
 * @return a new object, or NULL on allocation failure.
 */
json_t *pvp_lat_to_json(const struct pvp_lat *l);

/**
 * Rebuild a histogram from pvp_lat_to_json()'s form. Every bucket's
 * low_ns must be a bucket's lowest latency, the counts must add up to
 * "count" without passing 64 bits, and "sub_bits" must be PVP_LAT_SUB_BITS.
 * @return 0, or -EINVAL (@p l then empty) with the reason in @p err (the
 *   first error kept: pvp_err(); @p err may be NULL).
 */
int pvp_lat_from_json(const json_t *j, struct pvp_lat *l, char *err, size_t err_len);

/**
 * Whether @p name is a clock a latency figure is measured with ("tsc":
 * the host TSC at TX burst build and at RX). Results files and
 * generators name the clock; only these names are passed on, so a
 * peer's or a file's text never reaches a report or a plot script.
 * @param name
 *   The name, or NULL (not known).
 */
bool pvp_lat_clock_known(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* PVP_LAT_H */
