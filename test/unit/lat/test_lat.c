/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * lib/lat with synthetic samples: every percentile is the middle of the
 * bucket of the sample of its rank, computed here independently, and
 * within 1/64 of that sample; the JSON form reads back to the same
 * histogram; bad JSON is refused with a reason; counts near 2^64 neither
 * wrap nor divide by zero.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_lat.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			failures++;                                                                \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);            \
			fprintf(stderr, __VA_ARGS__);                                              \
			fprintf(stderr, "\n");                                                     \
		}                                                                                  \
	} while (0)

/* The middle of v's bucket, from the definition rather than the code. */
static uint64_t
expect_mid(uint64_t v)
{
	unsigned int msb;
	uint64_t width, low;

	if (v < 32)
		return v;
	msb = 63 - __builtin_clzll(v);
	width = UINT64_C(1) << (msb - 5);
	low = v / width * width;
	return low + (width - 1) / 2;
}

static int
u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Check every listed percentile of @p l against the sorted samples. */
static void
check_percentiles(const struct pvp_lat *l, uint64_t *v, size_t n, const char *what)
{
	static const double pcts[] = {1, 10, 50, 90, 99, 99.9, 99.99};
	uint64_t got, want, truth;
	size_t i, rank;

	qsort(v, n, sizeof(*v), u64_cmp);
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		rank = (size_t)ceil(pcts[i] / 100 * (double)n);
		truth = v[rank - 1];
		want = expect_mid(truth);
		if (want < v[0])
			want = v[0];
		if (want > v[n - 1])
			want = v[n - 1];
		got = pvp_lat_percentile(l, pcts[i]);
		CHECK(got == want, "%s p%g: %" PRIu64 ", expected %" PRIu64 " (sample %" PRIu64 ")",
		      what, pcts[i], got, want, truth);
		CHECK(fabs((double)got - (double)truth) <= (double)truth / 64,
		      "%s p%g: %" PRIu64 " more than 1/64 from %" PRIu64, what, pcts[i], got,
		      truth);
	}
	CHECK(pvp_lat_percentile(l, 100) == v[n - 1], "%s p100 is the max", what);
}

/* xorshift64*: the same samples on every run. */
static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static void
test_percentiles(void)
{
	static struct pvp_lat l, a, b;
	static uint64_t v[200000];
	struct pvp_lat_summary s;
	uint64_t seed = 42, sum = 0;
	size_t i, n;

	/* Exact below 32 ns: 1..20. */
	pvp_lat_init(&l);
	for (i = 0; i < 20; i++) {
		v[i] = i + 1;
		pvp_lat_update(&l, v[i]);
	}
	CHECK(pvp_lat_percentile(&l, 50) == 10 && pvp_lat_percentile(&l, 90) == 18,
	      "exact small values: p50 %" PRIu64 " p90 %" PRIu64, pvp_lat_percentile(&l, 50),
	      pvp_lat_percentile(&l, 90));
	check_percentiles(&l, v, 20, "1..20");

	/* A uniform 1000..1999 ns: the buckets are 16 and 32 ns wide there. */
	pvp_lat_init(&l);
	for (i = 0; i < 1000; i++) {
		v[i] = 1000 + i;
		pvp_lat_update(&l, v[i]);
	}
	CHECK(pvp_lat_percentile(&l, 50) == 1487, "p50 %" PRIu64, pvp_lat_percentile(&l, 50));
	check_percentiles(&l, v, 1000, "uniform");

	/*
	 * A long tail, the shape of a vswitch under load: 200000 samples,
	 * log-uniform from 2 us to 2 ms, split over two histograms (two RX
	 * lcores) and merged.
	 */
	pvp_lat_init(&a);
	pvp_lat_init(&b);
	n = sizeof(v) / sizeof(v[0]);
	for (i = 0; i < n; i++) {
		double u = (double)(rnd(&seed) >> 11) / 9007199254740992.0;

		v[i] = (uint64_t)(2000 * pow(1000, u));
		sum += v[i];
		pvp_lat_update(i % 2 ? &a : &b, v[i]);
	}
	pvp_lat_merge(&a, &b);
	CHECK(a.count == n && a.sum_ns == sum, "merge count %" PRIu64, a.count);
	check_percentiles(&a, v, n, "log-uniform");
	pvp_lat_read(&a, &s);
	CHECK(s.min == v[0] && s.max == v[n - 1] && s.avg == sum / n, "min/max/avg exact");
	CHECK(s.p99_99 == pvp_lat_percentile(&a, 99.99) && s.p99_99 >= s.p99_9 && s.p99_9 >= s.p99,
	      "p99.99 %" PRIu64, s.p99_99);

	/* Empty: zeros. */
	pvp_lat_init(&l);
	pvp_lat_read(&l, &s);
	CHECK(s.count == 0 && s.min == 0 && s.p50 == 0 && pvp_lat_percentile(&l, 99) == 0, "empty");
}

/* pvp_lat_from_json() with a cleared message: it keeps the first error. */
static int
from_json(const json_t *j, struct pvp_lat *l, char *err, size_t len)
{
	err[0] = '\0';
	return pvp_lat_from_json(j, l, err, len);
}

static void
test_json(void)
{
	static struct pvp_lat l, r;
	char err[128] = "";
	json_t *j, *bad;
	uint64_t x;

	pvp_lat_init(&l);
	for (x = 100; x < 5000000; x = x * 11 / 10)
		pvp_lat_update(&l, x);
	pvp_lat_update(&l, (uint64_t)1 << 45); /* the overflow bucket */
	j = pvp_lat_to_json(&l);
	CHECK(j != NULL, "to_json");
	CHECK(pvp_lat_from_json(j, &r, err, sizeof(err)) == 0, "from_json: %s", err);
	CHECK(memcmp(l.bucket, r.bucket, sizeof(l.bucket)) == 0 && r.count == l.count &&
		      r.sum_ns == l.sum_ns && r.min_ns == l.min_ns && r.max_ns == l.max_ns &&
		      r.jitter16 >> 4 == l.jitter16 >> 4,
	      "round trip differs");
	CHECK(pvp_lat_percentile(&r, 99.9) == pvp_lat_percentile(&l, 99.9), "p99.9 after trip");

	/* 1001 ns lies inside a 16 ns bucket, not at its start. */
	bad = json_deep_copy(j);
	json_array_set_new(json_object_get(bad, "buckets"), 0, json_pack("[i,i]", 1001, 1));
	CHECK(from_json(bad, &r, err, sizeof(err)) == -EINVAL &&
		      strcmp(err, "a bucket's low_ns is no bucket boundary") == 0 && r.count == 0,
	      "boundary: %s", err);
	json_decref(bad);
	bad = json_deep_copy(j);
	json_object_set_new(bad, "count", json_integer(1));
	CHECK(from_json(bad, &r, err, sizeof(err)) == -EINVAL &&
		      strcmp(err, "bucket counts do not add up to count") == 0,
	      "count: %s", err);
	json_decref(bad);
	bad = json_deep_copy(j);
	json_object_set_new(bad, "sub_bits", json_integer(4));
	CHECK(from_json(bad, &r, err, sizeof(err)) == -EINVAL, "sub_bits 4 accepted");
	json_decref(bad);
	bad = json_deep_copy(j);
	json_array_set_new(json_object_get(bad, "buckets"), 0, json_string("x"));
	CHECK(from_json(bad, &r, err, sizeof(err)) == -EINVAL &&
		      strcmp(err, "a bucket is not [low_ns, count]") == 0,
	      "string bucket: %s", err);
	json_decref(bad);
	CHECK(from_json(NULL, &r, err, sizeof(err)) == -EINVAL, "NULL accepted");
	/* An earlier error in the buffer is kept, as everywhere. */
	snprintf(err, sizeof(err), "earlier");
	CHECK(pvp_lat_from_json(NULL, &r, err, sizeof(err)) == -EINVAL &&
		      strcmp(err, "earlier") == 0,
	      "first error overwritten: %s", err);
	CHECK(pvp_lat_from_json(NULL, &r, NULL, 0) == -EINVAL, "NULL err");
	json_decref(j);
}

/*
 * Counts near 2^64, as three results files of INT64_MAX-ish histograms
 * give them: merging holds at UINT64_MAX (the sum of the counts once
 * wrapped to 0 and divided by it), and bucket counts that wrap to match
 * "count" are refused.
 */
static void
test_overflow(void)
{
	static struct pvp_lat a, b, c;
	char err[128] = "";
	json_t *j;

	j = json_pack("{s:s,s:i,s:I,s:I,s:I,s:I,s:I,s:[[I,I]]}", "unit", "ns", "sub_bits", 5,
		      "count", (json_int_t)INT64_MAX, "sum", (json_int_t)INT64_MAX, "min",
		      (json_int_t)1, "max", (json_int_t)1, "jitter", (json_int_t)INT64_MAX,
		      "buckets", (json_int_t)1, (json_int_t)INT64_MAX);
	CHECK(j != NULL && pvp_lat_from_json(j, &a, err, sizeof(err)) == 0 &&
		      pvp_lat_from_json(j, &b, err, sizeof(err)) == 0,
	      "INT64_MAX histogram refused: %s", err);
	json_object_set_new(j, "count", json_integer(2));
	json_array_set_new(json_object_get(j, "buckets"), 0, json_pack("[i,i]", 1, 2));
	CHECK(pvp_lat_from_json(j, &c, err, sizeof(err)) == 0, "2-sample histogram refused: %s",
	      err);
	pvp_lat_merge(&a, &b);
	pvp_lat_merge(&a, &c);
	CHECK(a.count == UINT64_MAX && a.sum_ns == UINT64_MAX && a.bucket[1] == UINT64_MAX,
	      "count %" PRIu64 " sum %" PRIu64 " bucket %" PRIu64 " not held at 2^64 - 1", a.count,
	      a.sum_ns, a.bucket[1]);
	CHECK(a.jitter16 == UINT64_MAX && pvp_lat_percentile(&a, 50) == 1,
	      "jitter16 %" PRIu64 " p50 %" PRIu64, a.jitter16, pvp_lat_percentile(&a, 50));
	json_decref(j);

	/* 2^63 - 1 + 2^63 - 1 + 7 wraps to 5. */
	j = json_pack("{s:s,s:i,s:I,s:I,s:I,s:I,s:I,s:[[I,I],[I,I],[I,I]]}", "unit", "ns",
		      "sub_bits", 5, "count", (json_int_t)5, "sum", (json_int_t)5, "min",
		      (json_int_t)0, "max", (json_int_t)2, "jitter", (json_int_t)0, "buckets",
		      (json_int_t)0, (json_int_t)INT64_MAX, (json_int_t)1, (json_int_t)INT64_MAX,
		      (json_int_t)2, (json_int_t)7);
	CHECK(j != NULL && pvp_lat_from_json(j, &a, err, sizeof(err)) == -EINVAL &&
		      strcmp(err, "bucket counts add up to more than 64 bits") == 0 && a.count == 0,
	      "wrapping buckets: %s", err);
	json_decref(j);
}

/*
 * TRex's last_max: the maximum of the latest finished half-second period
 * that had samples, kept over empty periods (after a stop), never the
 * maximum since the start.
 */
static void
test_window(void)
{
	struct pvp_lat_win w;

	memset(&w, 0, sizeof(w));
	CHECK(pvp_lat_win_last(&w, 5) == 0, "no samples: last_max 0");
	/* Period 10: a spike of 900; period 11: 30 and 40. */
	pvp_lat_win_update(&w, 10, 100);
	pvp_lat_win_update(&w, 10, 900);
	CHECK(pvp_lat_win_last(&w, 10) == 0, "period 10 not over: %" PRIu64,
	      pvp_lat_win_last(&w, 10));
	CHECK(pvp_lat_win_last(&w, 11) == 900, "period 10 over: %" PRIu64,
	      pvp_lat_win_last(&w, 11));
	pvp_lat_win_update(&w, 11, 30);
	pvp_lat_win_update(&w, 11, 40);
	CHECK(pvp_lat_win_last(&w, 11) == 900, "during 11, 10's max: %" PRIu64,
	      pvp_lat_win_last(&w, 11));
	CHECK(pvp_lat_win_last(&w, 12) == 40, "after 11, 11's max, not the spike: %" PRIu64,
	      pvp_lat_win_last(&w, 12));
	/* Nothing since (a stop): the last period with samples stays. */
	CHECK(pvp_lat_win_last(&w, 40) == 40, "after a stop: %" PRIu64, pvp_lat_win_last(&w, 40));
	/* Empty periods between samples do not reset it: 15 after 11. */
	pvp_lat_win_update(&w, 15, 0);
	CHECK(pvp_lat_win_last(&w, 15) == 40 && pvp_lat_win_last(&w, 16) == 0,
	      "a period whose only sample is 0: %" PRIu64 " then %" PRIu64,
	      pvp_lat_win_last(&w, 15), pvp_lat_win_last(&w, 16));
}

int
main(void)
{
	test_percentiles();
	test_json();
	test_overflow();
	test_window();
	if (failures) {
		printf("%d check(s) failed\n", failures);
		return 1;
	}
	printf("all latency histogram checks passed\n");
	return 0;
}
