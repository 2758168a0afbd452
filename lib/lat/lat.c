/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Latency histograms: pvp_lat.h explains the buckets and their precision.
 */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "pvp_util.h"

#include "pvp_lat.h"

#define SUB (1u << PVP_LAT_SUB_BITS)

/*
 * a + b, held at UINT64_MAX: merged histograms of long soaks or hostile
 * results files must not wrap to a small count (or to 0, a divisor).
 */
static uint64_t
lat_add_sat(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

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
pvp_lat_win_update(struct pvp_lat_win *w, uint64_t period, uint64_t ns)
{
	if (period != w->period) {
		if (w->count != 0)
			w->last_max = w->max;
		w->period = period;
		w->max = 0;
		w->count = 0;
	}
	w->count++;
	if (ns > w->max)
		w->max = ns;
}

uint64_t
pvp_lat_win_last(const struct pvp_lat_win *w, uint64_t now)
{
	return w->period < now && w->count != 0 ? w->max : w->last_max;
}

void
pvp_lat_merge(struct pvp_lat *dst, const struct pvp_lat *src)
{
	double jitter16;
	unsigned int i;

	if (src->count == 0)
		return;
	/*
	 * Weights summed as doubles: the counts' sum may not fit 64 bits. A
	 * mean near UINT64_MAX rounds up to 2^64, which no uint64_t holds.
	 */
	jitter16 = ((double)dst->jitter16 * (double)dst->count +
		    (double)src->jitter16 * (double)src->count) /
		   ((double)dst->count + (double)src->count);
	dst->jitter16 = jitter16 < 0x1p64 ? (uint64_t)jitter16 : UINT64_MAX;
	dst->count = lat_add_sat(dst->count, src->count);
	dst->sum_ns = lat_add_sat(dst->sum_ns, src->sum_ns);
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->last_ns = src->last_ns;
	for (i = 0; i < PVP_LAT_NB_BUCKETS; i++)
		dst->bucket[i] = lat_add_sat(dst->bucket[i], src->bucket[i]);
}

uint64_t
pvp_lat_bucket_value(const struct pvp_lat *l, unsigned int b)
{
	uint64_t lo, hi, v;

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

uint64_t
pvp_lat_percentile(const struct pvp_lat *l, double pct)
{
	uint64_t rank, seen = 0;
	unsigned int b;

	if (l->count == 0 || !(pct > 0))
		return 0;
	if (pct >= 100)
		return l->max_ns;
	rank = (uint64_t)ceil(pct / 100.0 * (double)l->count);
	if (rank == 0)
		rank = 1;
	for (b = 0; b < PVP_LAT_NB_BUCKETS; b++) {
		seen = lat_add_sat(seen, l->bucket[b]);
		if (seen >= rank)
			break;
	}
	return pvp_lat_bucket_value(l, b);
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
	s->p99_99 = pvp_lat_percentile(l, 99.99);
	s->jitter = l->jitter16 >> 4;
}

json_t *
pvp_lat_to_json(const struct pvp_lat *l)
{
	json_t *b = json_array();
	unsigned int i;

	/* Without the list, the first append or else the pack fails. */
	for (i = 0; i < PVP_LAT_NB_BUCKETS; i++) {
		if (l->bucket[i] == 0)
			continue;
		if (json_array_append_new(b, json_pack("[I,I]", (json_int_t)pvp_lat_bucket_low(i),
						       (json_int_t)l->bucket[i])) < 0) {
			json_decref(b);
			return NULL;
		}
	}
	return json_pack("{s:s,s:i,s:I,s:I,s:I,s:I,s:I,s:o}", "unit", "ns", "sub_bits",
			 PVP_LAT_SUB_BITS, "count", (json_int_t)l->count, "sum",
			 (json_int_t)l->sum_ns, "min", (json_int_t)(l->count ? l->min_ns : 0),
			 "max", (json_int_t)l->max_ns, "jitter", (json_int_t)(l->jitter16 >> 4),
			 "buckets", b);
}

/* A non-negative integer member; -1 when absent or not one. */
static json_int_t
lat_uint(const json_t *j, const char *key)
{
	const json_t *v = json_object_get(j, key);

	return json_is_integer(v) && json_integer_value(v) >= 0 ? json_integer_value(v) : -1;
}

int
pvp_lat_from_json(const json_t *j, struct pvp_lat *l, char *err, size_t err_len)
{
	json_int_t count = lat_uint(j, "count"), sum = lat_uint(j, "sum");
	json_int_t min = lat_uint(j, "min"), max = lat_uint(j, "max"), jit = lat_uint(j, "jitter");
	const json_t *buckets = json_object_get(j, "buckets"), *e;
	const char *why = NULL;
	uint64_t total = 0;
	json_int_t low, n;
	unsigned int b;
	size_t i;

	pvp_lat_init(l);
	if (!json_is_object(j) || lat_uint(j, "sub_bits") != PVP_LAT_SUB_BITS)
		why = "not a histogram with sub_bits 5";
	else if (count < 0 || sum < 0 || min < 0 || max < 0 || jit < 0 || !json_is_array(buckets))
		why = "count, sum, min, max, jitter or buckets missing";
	json_array_foreach(buckets, i, e) {
		if (why != NULL)
			break;
		low = json_integer_value(json_array_get(e, 0));
		n = json_integer_value(json_array_get(e, 1));
		if (json_array_size(e) != 2 || !json_is_integer(json_array_get(e, 0)) ||
		    !json_is_integer(json_array_get(e, 1)) || low < 0 || n <= 0) {
			why = "a bucket is not [low_ns, count]";
			break;
		}
		b = pvp_lat_bucket((uint64_t)low);
		if (pvp_lat_bucket_low(b) != (uint64_t)low) {
			why = "a bucket's low_ns is no bucket boundary";
			break;
		}
		/* Counts that wrap could be made to add up to any "count". */
		if (__builtin_add_overflow(total, (uint64_t)n, &total) ||
		    __builtin_add_overflow(l->bucket[b], (uint64_t)n, &l->bucket[b])) {
			why = "bucket counts add up to more than 64 bits";
			break;
		}
	}
	if (why == NULL && total != (uint64_t)count)
		why = "bucket counts do not add up to count";
	if (why == NULL && count > 0 && !(min <= max))
		why = "min above max";
	if (why != NULL) {
		pvp_lat_init(l);
		return pvp_fail(err, err_len, -EINVAL, "%s", why);
	}
	l->count = (uint64_t)count;
	l->sum_ns = (uint64_t)sum;
	l->min_ns = count > 0 ? (uint64_t)min : UINT64_MAX;
	l->max_ns = (uint64_t)max;
	l->jitter16 = (uint64_t)jit > UINT64_MAX >> 4 ? UINT64_MAX : (uint64_t)jit << 4;
	return 0;
}

const char *
pvp_lat_clock_known(const char *name)
{
	/* pvpkit-gen's software timestamps, the one clock there is. */
	return name != NULL && strcmp(name, "tsc") == 0 ? "tsc" : NULL;
}
