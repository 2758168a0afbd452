/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Rate strings shared by pvpkit-gen and the coordinator, and conversions
 * between packets per second and bits per second.
 *
 * Frame sizes everywhere in pvpkit INCLUDE the 4 B FCS (64..1518, jumbo up
 * to 9216), like RFC 2544 and the NIC data sheets; the bytes held in an
 * mbuf are size - 4. On the wire every frame also takes 20 B of preamble,
 * SFD and inter-frame gap. So for a frame of @c size bytes:
 *
 *   L1 bits = (size + 20) * 8     (what a link's speed is measured in)
 *   L2 bits = size * 8            (frame with FCS)
 *
 * Accepted strings (units are case-insensitive):
 *
 *   "1000", "1.5M", "2k"     packets per second (plain number = pps)
 *   "500kpps", "1Mpps"        packets per second
 *   "10Gbps", "10Gbps-l1"     L1 bits per second (the default for bps)
 *   "9.5Gbps-l2"              L2 bits per second (frames with FCS)
 *   "50%"                     percent of the line rate (L1), 0 < p <= 100
 *   "max"                     as fast as the sender can
 *
 * Prefixes: k = 1e3, M (or m) = 1e6, G (or g) = 1e9 (decimal, as link
 * speeds are).
 */

#ifndef PVP_RATE_H
#define PVP_RATE_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of FCS included in every pvpkit frame size. */
#define PVP_FCS_LEN 4
/** Bytes of preamble + SFD + inter-frame gap per frame on the wire. */
#define PVP_L1_OVERHEAD 20

/** Unit of a parsed rate. */
enum pvp_rate_unit {
	PVP_RATE_PPS = 0, /**< packets per second */
	PVP_RATE_BPS_L1,  /**< L1 bits per second (frame + FCS + 20 B) */
	PVP_RATE_BPS_L2,  /**< L2 bits per second (frame + FCS) */
	PVP_RATE_PERCENT, /**< percent of the line rate */
	PVP_RATE_MAX,	  /**< as fast as possible; value unused */
};

/** A rate as the user wrote it. */
struct pvp_rate {
	enum pvp_rate_unit unit; /**< what value counts */
	double value;		 /**< in the unit; > 0 (unused for MAX) */
};

/**
 * Parse a rate string (see the file comment for the syntax).
 *
 * @param s
 *   The string, e.g. "10Gbps", "1.5Mpps", "50%", "max", "14880952".
 * @param r
 *   Filled on success.
 * @param err
 *   Optional buffer for a one-line message on failure (may be NULL).
 * @param errlen
 *   Size of @p err.
 * @return
 *   0, or -EINVAL for a malformed string, -ERANGE for a value that is
 *   zero, negative, not finite, or a percentage above 100.
 */
int pvp_rate_parse(const char *s, struct pvp_rate *r, char *err, size_t errlen);

/**
 * Format a rate back into the canonical string ("1.5Mpps", "10Gbps",
 * "9.5Gbps-l2", "50%", "max").
 *
 * @return the number of characters written (snprintf semantics).
 */
int pvp_rate_format(const struct pvp_rate *r, char *buf, size_t len);

/**
 * Convert a rate to packets per second.
 *
 * @param r
 *   The rate.
 * @param avg_size
 *   Average frame size in bytes, FCS included (for IMIX: the mean over
 *   one cycle).
 * @param link_bps
 *   Link speed in bit/s, 0 when unknown.
 * @param pps
 *   Result. For PVP_RATE_MAX: the line rate when @p link_bps is known,
 *   else INFINITY (the caller treats it as "unpaced").
 * @return
 *   0, or -EINVAL when @p avg_size is not positive, or for a
 *   percentage when @p link_bps is 0 (unknown link speed).
 */
int pvp_rate_to_pps(const struct pvp_rate *r, double avg_size, uint64_t link_bps, double *pps);

/** Line rate in packets per second for @p avg_size byte frames (FCS included). */
static inline double
pvp_rate_line_pps(uint64_t link_bps, double avg_size)
{
	return (double)link_bps / ((avg_size + PVP_L1_OVERHEAD) * 8.0);
}

/** L1 bits per second of @p pps frames of @p avg_size bytes (FCS included). */
static inline double
pvp_rate_l1_bps(double pps, double avg_size)
{
	return pps * (avg_size + PVP_L1_OVERHEAD) * 8.0;
}

/** L2 bits per second of @p pps frames of @p avg_size bytes (FCS included). */
static inline double
pvp_rate_l2_bps(double pps, double avg_size)
{
	return pps * avg_size * 8.0;
}

/** True when @p r is "max". */
static inline bool
pvp_rate_is_max(const struct pvp_rate *r)
{
	return r->unit == PVP_RATE_MAX;
}

#ifdef __cplusplus
}
#endif

#endif /* PVP_RATE_H */
