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

/**
 * The latency that stands for bucket @p b of @p l: the middle of the
 * bucket, clamped to [min, max] (the last bucket, open above: max). This
 * is what pvp_lat_percentile() reports and where pvp_lat_hdrh() puts the
 * bucket's count.
 */
uint64_t pvp_lat_bucket_value(const struct pvp_lat *l, unsigned int b);

/** Account one latency sample. */
void pvp_lat_update(struct pvp_lat *l, uint64_t ns);

/**
 * The largest latency of the latest finished period that had samples:
 * TRex's "last_max", whose periods are half a second (its RX core closes
 * one at each statistics tick; a period without samples keeps the one
 * before, so the figure survives a stop). Periods are numbered by the
 * caller (a clock divided by the period); a zeroed struct has no samples.
 * Single writer; a torn read skews one period at most.
 */
struct pvp_lat_win {
	uint64_t period;   /**< period @c max belongs to */
	uint64_t max;	   /**< largest sample of that period */
	uint64_t count;	   /**< samples of that period */
	uint64_t last_max; /**< largest sample of the latest earlier period with samples */
};

/** Account one sample @p ns that arrived in period @p period (never decreasing). */
void pvp_lat_win_update(struct pvp_lat_win *w, uint64_t period, uint64_t ns);

/**
 * The largest sample of the latest period before @p now that had samples
 * (0 when none), as a reader in period @p now sees it.
 */
uint64_t pvp_lat_win_last(const struct pvp_lat_win *w, uint64_t now);

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
 * smallest latency (pvp_lat_bucket_low()). pvp_lat_to_json_hdrh() adds
 * the HdrHistogram form.
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
 * @return
 *   The clock's name as a constant string (it outlives @p name), or NULL.
 */
const char *pvp_lat_clock_known(const char *name);

/*
 * ---- HdrHistogram's encoding (lat_hdrh.c) ----
 *
 * In its own library, pvp_lat_hdrh_dep, because it needs zlib: the data
 * plane's builds have it (DPDK needs it too); the coordinator alone,
 * which only reads histograms back, does not link it.
 */

/** pvpkit's own results: HDR values in ns, 1 ns .. 1 h, 2 significant
 *  digits (buckets 1/128 to 1/256 of their value wide, finer than
 *  pvpkit's 1/32, so each pvpkit bucket's value is an HDR value). */
#define PVP_LAT_HDRH_HIGHEST_NS INT64_C(3600000000000)
/** Significant digits of pvpkit's own HDR export. */
#define PVP_LAT_HDRH_DIGITS 2

/**
 * An HdrHistogram: its layout (from lowest, highest and significant
 * digits, as HdrHistogram computes it) and its counts. What
 * pvp_hdrh_decode() returns and pvp_hdrh_encode() writes.
 */
struct pvp_hdrh {
	int64_t lowest;		/**< lowest discernible value, >= 1 */
	int64_t highest;	/**< highest trackable value */
	int32_t digits;		/**< significant value digits, 1..5 */
	double ratio;		/**< integer to double value conversion ratio */
	int32_t unit_magnitude; /**< floor(log2(lowest)) */
	int32_t sub_half_mag;	/**< log2 of the sub-buckets per bucket half */
	int32_t counts_len;	/**< counts the layout has */
	int32_t nb_counts;	/**< counts held in @c counts (the rest are 0) */
	int64_t total;		/**< sum of the counts */
	int64_t *counts;	/**< nb_counts counts, by HdrHistogram index */
};

/**
 * Make @p h an empty histogram of that layout.
 * @return 0, or -EINVAL (bad layout) / -ENOMEM with a message in @p err.
 */
int pvp_hdrh_init(struct pvp_hdrh *h, int64_t lowest, int64_t highest, int digits, char *err,
		  size_t err_len);

/** Free @p h's counts (NULL or an empty one is fine). */
void pvp_hdrh_free(struct pvp_hdrh *h);

/** HdrHistogram's counts index of @p value (>= 0, within the layout). */
int32_t pvp_hdrh_index(const struct pvp_hdrh *h, int64_t value);

/** The highest value HdrHistogram counts as equivalent to @p value. */
int64_t pvp_hdrh_highest_equivalent(const struct pvp_hdrh *h, int64_t value);

/**
 * Add @p count samples of @p value.
 * @return 0, -ERANGE (value below 0 or above what the layout holds) or
 *   -ENOMEM.
 */
int pvp_hdrh_record(struct pvp_hdrh *h, int64_t value, int64_t count);

/**
 * The @p pct percentile as HdrHistogram's C and Python libraries read it:
 * the highest equivalent value of the count holding the sample of rank
 * (int)(pct/100 x total + 0.5), at least 1. 0 when empty.
 */
int64_t pvp_hdrh_percentile(const struct pvp_hdrh *h, double pct);

/**
 * HdrHistogram's compressed V2 encoding of @p h in base64, as
 * HdrHistogram_c's hdr_log_encode() writes it (and so TRex's --hdrh):
 * the compressed cookie, the deflated length, then zlib's deflate (its
 * default level) of the V2 encoding: cookie, payload length, normalizing
 * index offset 0, significant digits, lowest, highest, conversion ratio
 * 1.0, then the counts up to the last non-zero one as ZigZag LEB128
 * numbers, a run of zeros as its negated length.
 * @return a malloc'd string, or NULL with errno set.
 */
char *pvp_hdrh_encode(const struct pvp_hdrh *h);

/**
 * Decode HdrHistogram's compressed V2 base64 (from any HdrHistogram
 * library) into @p h (then pvp_hdrh_free() it).
 * @return 0, or -EINVAL (with a one-line reason in @p err) / -ENOMEM;
 *   @p h is then empty.
 */
int pvp_hdrh_decode(const char *b64, size_t len, struct pvp_hdrh *h, char *err, size_t err_len);

/**
 * @p l in HdrHistogram's compressed V2 base64: each bucket's count at
 * its value (pvp_lat_bucket_value()) divided by @p unit_ns, values above
 * @p highest counted at @p highest; lowest 1.
 * @param unit_ns
 *   ns per HDR unit: 1 for pvpkit's results, 1000 for TRex's usec.
 * @return a malloc'd string, or NULL with errno set.
 */
char *pvp_lat_hdrh(const struct pvp_lat *l, uint64_t unit_ns, int64_t highest, int digits);

/**
 * pvp_lat_to_json() with an "hdrh" member more: pvp_lat_hdrh() in ns,
 * lowest 1, PVP_LAT_HDRH_HIGHEST_NS, PVP_LAT_HDRH_DIGITS.
 * @return a new object, or NULL on allocation failure.
 */
json_t *pvp_lat_to_json_hdrh(const struct pvp_lat *l);

#ifdef __cplusplus
}
#endif

#endif /* PVP_LAT_H */
