/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "pvp_sig.h"

#define SUB (1u << PVP_LAT_SUB_BITS)

void
pvp_lat_init(struct pvp_lat *l)
{
	memset(l, 0, sizeof(*l));
	l->min_ns = UINT64_MAX;
}

unsigned int
pvp_lat_bucket(uint64_t ns)
{
	unsigned int msb;

	if (ns < SUB)
		return (unsigned int)ns;
	msb = 63 - __builtin_clzll(ns);
	if (msb >= PVP_LAT_MAX_BITS)
		return PVP_LAT_NB_BUCKETS - 1;
	/* The SUB_BITS bits below the leading one pick the sub-bucket. */
	return ((msb - PVP_LAT_SUB_BITS + 1) << PVP_LAT_SUB_BITS) +
	       (unsigned int)((ns >> (msb - PVP_LAT_SUB_BITS)) & (SUB - 1));
}

uint64_t
pvp_lat_bucket_low(unsigned int b)
{
	unsigned int group = b >> PVP_LAT_SUB_BITS;
	unsigned int msb;

	if (group == 0)
		return b;
	msb = group + PVP_LAT_SUB_BITS - 1;
	return ((uint64_t)SUB + (b & (SUB - 1))) << (msb - PVP_LAT_SUB_BITS);
}

void
pvp_lat_update(struct pvp_lat *l, uint64_t ns)
{
	if (l->count != 0) {
		uint64_t d = ns > l->last_ns ? ns - l->last_ns : l->last_ns - ns;

		/* RFC 3550 A.8 in fixed point: J16 += |D| - J16 / 16. */
		l->jitter16 += d - ((l->jitter16 + 8) >> 4);
	}
	l->last_ns = ns;
	l->count++;
	l->sum_ns += ns;
	if (ns < l->min_ns)
		l->min_ns = ns;
	if (ns > l->max_ns)
		l->max_ns = ns;
	l->bucket[pvp_lat_bucket(ns)]++;
}

void
pvp_lat_merge(struct pvp_lat *dst, const struct pvp_lat *src)
{
	unsigned int i;

	if (src->count == 0)
		return;
	dst->jitter16 = (uint64_t)(((double)dst->jitter16 * dst->count +
				    (double)src->jitter16 * src->count) /
				   (double)(dst->count + src->count));
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->last_ns = src->last_ns;
	for (i = 0; i < PVP_LAT_NB_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

uint64_t
pvp_lat_percentile(const struct pvp_lat *l, double pct)
{
	uint64_t rank, seen = 0, lo, hi, v;
	unsigned int b;

	if (l->count == 0 || !(pct > 0))
		return 0;
	if (pct >= 100)
		return l->max_ns;
	rank = (uint64_t)ceil(pct / 100.0 * (double)l->count);
	if (rank == 0)
		rank = 1;
	for (b = 0; b < PVP_LAT_NB_BUCKETS; b++) {
		seen += l->bucket[b];
		if (seen >= rank)
			break;
	}
	if (b >= PVP_LAT_NB_BUCKETS - 1)
		return l->max_ns;
	lo = pvp_lat_bucket_low(b);
	hi = pvp_lat_bucket_low(b + 1) - 1;
	v = lo + (hi - lo) / 2;
	if (v < l->min_ns)
		v = l->min_ns;
	if (v > l->max_ns)
		v = l->max_ns;
	return v;
}

void
pvp_lat_read(const struct pvp_lat *l, struct pvp_lat_summary *s)
{
	memset(s, 0, sizeof(*s));
	if (l->count == 0)
		return;
	s->count = l->count;
	s->min = l->min_ns;
	s->max = l->max_ns;
	s->avg = l->sum_ns / l->count;
	s->p50 = pvp_lat_percentile(l, 50);
	s->p90 = pvp_lat_percentile(l, 90);
	s->p99 = pvp_lat_percentile(l, 99);
	s->p99_9 = pvp_lat_percentile(l, 99.9);
	s->jitter = l->jitter16 >> 4;
}
