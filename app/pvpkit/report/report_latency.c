/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Latency under load, from the records alone: the trials a search's
 * latency step ran (a trial with a "latency" member: its load in percent
 * of the reference goal's rate), every stream's histogram merged, and the
 * tester's floor measured on a wire topology ("latency_floor" record).
 */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_lat.h"
#include "pvp_util.h"

#include "report.h"
#include "report_private.h"

/*
 * Item @p s of a trial's "streams" into @p st, its histogram into @p one:
 * 1, 0 when it has none, -EINVAL when it does not decode.
 */
static int
lat_stream_read(const json_t *s, struct coord_record_stream *st, struct pvp_lat *one)
{
	if (pvp_schema_read(coord_record_stream_members, s, st, NULL, 0) < 0)
		return -EINVAL;
	if (st->latency_ns.histogram == NULL)
		return 0;
	return pvp_lat_from_json(st->latency_ns.histogram, one, NULL, 0) < 0 ? -EINVAL : 1;
}

int
report_trial_latency(const json_t *trial, struct pvp_lat *lat, const char **clock)
{
	struct coord_record_stream st;
	struct pvp_lat one;
	const json_t *s;
	int n = 0, ret;
	size_t i;

	pvp_lat_init(lat);
	if (clock != NULL)
		*clock = "";
	json_array_foreach(json_object_get(trial, "streams"), i, s) {
		ret = lat_stream_read(s, &st, &one);
		if (ret < 0)
			return ret;
		if (ret == 0)
			continue;
		pvp_lat_merge(lat, &one);
		if (clock != NULL && json_is_string(st.latency_ns.clock))
			*clock = pvp_lat_clock_known(json_string_value(st.latency_ns.clock))
					 ?: "unknown";
		n++;
	}
	return n;
}

/* The figures of an entry and of a stream, in this order. */
static const char *const lat_keys[] = {"count",	 "min_ns",   "avg_ns",	  "p50_ns", "p90_ns",
				       "p99_ns", "p99_9_ns", "p99_99_ns", "max_ns", "jitter_ns"};

/* A histogram's figures @p s, in ns, into @p o. */
static void
lat_figures(json_t *o, const struct pvp_lat_summary *s)
{
	const uint64_t v[] = {s->count, s->min,	  s->avg,    s->p50, s->p90,
			      s->p99,	s->p99_9, s->p99_99, s->max, s->jitter};
	unsigned int k;

	for (k = 0; o != NULL && k < sizeof(v) / sizeof(v[0]); k++)
		json_object_set_new(o, lat_keys[k], json_integer((json_int_t)v[k]));
}

/*
 * How far a percentile of one trial can be trusted, from its histogram
 * alone: the distribution-free confidence interval of a quantile. Of n
 * samples, the rank of the p-quantile's estimate is binomial with mean
 * n p and deviation sqrt(n p (1 - p)); the samples at ranks n p -/+
 * LAT_CI_Z deviations bound the true quantile with about 95 %
 * confidence, and the bucket edges around those ranks add the
 * histogram's own precision. Few samples above a tail percentile widen
 * it to the maximum, as they should.
 */
#define LAT_CI_Z 1.96

/* The bucket that holds the sample of rank @p k (1-based). */
static unsigned int
lat_rank_bucket(const struct pvp_lat *l, double k)
{
	uint64_t seen = 0;
	unsigned int b;

	for (b = 0; b < PVP_LAT_NB_BUCKETS; b++) {
		seen += l->bucket[b];
		if ((double)seen >= k)
			return b;
	}
	return PVP_LAT_NB_BUCKETS - 1;
}

/* @p pct's confidence interval in @p l, in ns: *lo..*hi. */
static void
lat_interval(const struct pvp_lat *l, double pct, double *lo, double *hi)
{
	double n = (double)l->count, p = pct / 100, sd = sqrt(n * p * (1 - p));
	double rl = floor(n * p - LAT_CI_Z * sd), ru = ceil(n * p + LAT_CI_Z * sd);
	unsigned int b;

	rl = rl < 1 ? 1 : rl;
	ru = ru > n ? n : ru < 1 ? 1 : ru;
	b = lat_rank_bucket(l, rl);
	*lo = fmax((double)pvp_lat_bucket_low(b), (double)l->min_ns);
	b = lat_rank_bucket(l, ru);
	*hi = b + 1 < PVP_LAT_NB_BUCKETS ? (double)pvp_lat_bucket_low(b + 1) - 1
					 : (double)l->max_ns;
	*hi = fmin(*hi, (double)l->max_ns);
	*lo = fmin(*lo, *hi);
}

/* The percentiles a latency entry gives a noise range for. */
static const struct {
	const char *name; /* in "range_ns" */
	double pct;	  /* 100: the maximum */
} lat_ranged[] = {
	{"p50", 50}, {"p90", 90}, {"p99", 99}, {"p99_9", 99.9}, {"p99_99", 99.99}, {"max", 100},
};
#define LAT_NB_RANGED (sizeof(lat_ranged) / sizeof(lat_ranged[0]))

/* Widen each percentile's @p lo..@p hi to trial @p h's confidence interval of it. */
static void
lat_widen(const struct pvp_lat *h, double *lo, double *hi)
{
	unsigned int k;
	double a, b;

	for (k = 0; h->count > 0 && k < LAT_NB_RANGED; k++) {
		if (lat_ranged[k].pct >= 100)
			a = b = (double)h->max_ns;
		else
			lat_interval(h, lat_ranged[k].pct, &a, &b);
		lo[k] = fmin(lo[k], a);
		hi[k] = fmax(hi[k], b);
	}
}

/*
 * "range_ns": what the entry's figures could be, from the trials at one
 * load: each trial's confidence interval of each percentile, from the
 * lowest to the highest over the @p n rounds (lat_widen()). The maximum
 * is one sample per trial with no interval of its own: it gets a range
 * only from two rounds or more (their lowest and highest maximum).
 */
static json_t *
lat_ranges(const double *lo, const double *hi, unsigned int n)
{
	json_t *r = json_object();
	unsigned int k;

	for (k = 0; r != NULL && k < LAT_NB_RANGED; k++)
		if ((lat_ranged[k].pct < 100 || n >= 2) && lo[k] <= hi[k])
			json_object_set_new(r, lat_ranged[k].name,
					    json_pack("[f,f]", lo[k], hi[k]));
	return r;
}

/* Stream @p k's histogram of every trial in @p trials, merged, into @p out. 0 or -errno. */
static int
lat_stream_merged(const json_t *trials, size_t k, struct pvp_lat *out, struct pvp_lat *one)
{
	struct coord_record_stream st;
	const json_t *t;
	size_t i;
	int ret;

	pvp_lat_init(out);
	json_array_foreach(trials, i, t) {
		ret = lat_stream_read(json_array_get(json_object_get(t, "streams"), k), &st, one);
		if (ret < 0)
			return ret;
		if (ret > 0)
			pvp_lat_merge(out, one);
	}
	return 0;
}

/* Per stream: what the generator read of it, or over several rounds their merge. */
static json_t *
lat_streams(const json_t *trials, struct pvp_lat *m, struct pvp_lat *one)
{
	const json_t *last = json_array_get(trials, json_array_size(trials) - 1), *st;
	const struct coord_record_stream_latency *l;
	struct coord_record_stream d;
	struct pvp_lat_summary s;
	json_t *streams = json_array(), *so;
	size_t i, k;

	json_array_foreach(json_object_get(last, "streams"), i, st) {
		/* A stream that does not decode has figures of 0, as one without them. */
		if (pvp_schema_read(coord_record_stream_members, st, &d, NULL, 0) < 0)
			memset(&d, 0, sizeof(d));
		l = &d.latency_ns;
		so = json_pack("{s:O*,s:O*}", "stream", json_object_get(st, "stream"), "name",
			       json_object_get(st, "name"));
		if (json_array_size(trials) > 1 && lat_stream_merged(trials, i, m, one) == 0) {
			pvp_lat_read(m, &s);
			lat_figures(so, &s);
		} else {
			const double v[] = {l->count, l->min,	l->avg,	   l->p50, l->p90,
					    l->p99,   l->p99_9, l->p99_99, l->max, l->jitter};

			for (k = 0; so != NULL && k < sizeof(v) / sizeof(v[0]); k++)
				json_object_set_new(so, lat_keys[k], json_real(v[k]));
		}
		json_array_append_new(streams, so);
	}
	return streams;
}

/*
 * The trials at one load (one round each, oldest first) as a summary
 * entry: their histograms merged, the noise ranges, the last trial's
 * rate and reference. NULL when none has a histogram.
 */
static json_t *
lat_entry(const json_t *trials, struct coord_trial_record *tr)
{
	const json_t *t = json_array_get(trials, json_array_size(trials) - 1), *x;
	double lo[LAT_NB_RANGED], hi[LAT_NB_RANGED] = {0}, tx = 0, rx = 0;
	unsigned int n = 0, k;
	struct pvp_lat all, one;
	struct pvp_lat_summary ls;
	const char *clock = "";
	json_t *o;
	size_t i;

	for (k = 0; k < LAT_NB_RANGED; k++)
		lo[k] = INFINITY;
	pvp_lat_init(&all);
	json_array_foreach(trials, i, x) {
		if (n == REPORT_MAX_REPEAT)
			break;
		if (report_trial_latency(x, &one, &clock) <= 0)
			continue;
		pvp_lat_merge(&all, &one);
		lat_widen(&one, lo, hi);
		report_trial(x, tr); /* chosen by report_trial(): it decodes */
		tx += (double)tr->tx_packets;
		rx += (double)tr->rx_packets;
		n++;
	}
	if (n == 0 || !report_trial(t, tr))
		return NULL;
	o = json_pack("{s:f,s:f,s:s,s:f,s:f,s:f,s:f,s:f,s:I}", "load_pct", tr->latency.load_pct,
		      "rate_pps", tr->requested_pps, "reference",
		      json_string_value(tr->latency.reference) ?: "", "reference_pps",
		      tr->latency.reference_pps, "duration_s", tr->duration_s, "tx_packets", tx,
		      "rx_packets", rx, "loss_ratio", tx >= 1 ? (tx - rx) / tx : 0.0, "trials",
		      (json_int_t)n);
	if (o == NULL)
		return NULL;
	pvp_lat_read(&all, &ls);
	lat_figures(o, &ls);
	json_object_set_new(o, "clock", json_string(clock));
	json_object_set_new(o, "range_ns", lat_ranges(lo, hi, n));
	json_object_set_new(o, "streams", lat_streams(trials, &all, &one));
	return o;
}

static int
load_cmp(const void *a, const void *b)
{
	double x = report_num(*(json_t *const *)a, "load_pct", 0);
	double y = report_num(*(json_t *const *)b, "load_pct", 0);

	return x < y ? -1 : x > y;
}

json_t *
report_latency_point(const json_t *recs)
{
	struct coord_record_latency lm[64]; /* each load's last trial's "latency" */
	struct coord_trial_record tr;
	json_t *by_load[64], *arr = NULL, *e;
	unsigned int n = 0, i, k;
	const json_t *t;
	size_t j;

	/*
	 * Per load, the trials of the last set ("latency": {"set"}: the
	 * rounds of one --repeat); a later set replaces them, and a trial
	 * without a set is a set of its own.
	 */
	json_array_foreach(recs, j, t) {
		if (!report_trial(t, &tr) || !tr.has_latency)
			continue;
		for (i = 0; i < n && lm[i].load_pct != tr.latency.load_pct; i++)
			;
		if (i == n) {
			if (n == sizeof(by_load) / sizeof(by_load[0]))
				continue;
			by_load[n] = json_array();
			if (by_load[n] == NULL)
				break;
			n++;
		} else if (!tr.latency.has_set || strcmp(lm[i].set, tr.latency.set) != 0) {
			json_array_clear(by_load[i]);
		}
		lm[i] = tr.latency;
		json_array_append(by_load[i], (json_t *)(uintptr_t)t);
	}
	for (i = k = 0; i < n; i++) {
		e = lat_entry(by_load[i], &tr);
		json_decref(by_load[i]);
		if (e != NULL)
			by_load[k++] = e;
	}
	if (k == 0)
		return NULL;
	qsort(by_load, k, sizeof(by_load[0]), load_cmp);
	arr = json_array();
	for (i = 0; i < k; i++)
		json_array_append_new(arr, by_load[i]);
	return arr;
}

json_t *
report_latency_floor(const json_t *records)
{
	const json_t *rec, *last = NULL;
	size_t i;

	json_array_foreach(records, i, rec)
		if (report_is_type(rec, "latency_floor"))
			last = rec;
	if (last == NULL)
		return NULL;
	return json_pack("{s:s,s:f,s:f,s:f,s:f,s:f,s:s}", "source", report_str(last, "source", ""),
			 "rate_pps", report_num(last, "rate_pps", 0), "min_ns",
			 report_num(last, "min_ns", 0), "p50_ns", report_num(last, "p50_ns", 0),
			 "p99_ns", report_num(last, "p99_ns", 0), "max_ns",
			 report_num(last, "max_ns", 0), "clock",
			 pvp_lat_clock_known(report_str(last, "clock", NULL)) ?: "unknown");
}

int
report_write_latency_csv(const json_t *summary, const char *path)
{
	const json_t *p, *e, *floor = json_object_get(summary, "latency_floor");
	struct pvp_out out;
	bool any = false;
	size_t i, k, c;
	int ret;
	FILE *f;

	json_array_foreach(json_object_get(summary, "points"), i, p)
		if (json_array_size(json_object_get(p, "latency")) > 0)
			any = true;
	if (!any)
		return -ENOENT;
	ret = pvp_out_open(&out, path, NULL, 0);
	if (ret < 0)
		return ret;
	f = out.f;
	fprintf(f, "size,flows,load_pct,rate_pps,reference,loss_ratio,min_us,avg_us,p50_us,p90_us,"
		   "p99_us,p99_9_us,p99_99_us,max_us,jitter_us,clock\n");
	json_array_foreach(json_object_get(summary, "points"), i, p) {
		json_array_foreach(json_object_get(p, "latency"), k, e) {
			fprintf(f, "%.0f,%.0f,%g,%.0f,%s,%.6g", report_num(p, "size", 0),
				report_num(p, "flows", 0), report_num(e, "load_pct", 0),
				report_num(e, "rate_pps", 0), report_str(e, "reference", ""),
				report_num(e, "loss_ratio", 0));
			/* Every figure but the count, in us. */
			for (c = 1; c < sizeof(lat_keys) / sizeof(lat_keys[0]); c++)
				fprintf(f, ",%.3f", report_num(e, lat_keys[c], 0) / 1e3);
			fprintf(f, ",%s\n", report_str(e, "clock", ""));
		}
	}
	/* The tester's own floor (wire calibration), stated with the figures. */
	if (floor != NULL)
		fprintf(f,
			"# tester floor (%s, %s clock, %.0f pps): min %.3f us, p50 %.3f us, p99 "
			"%.3f us\n",
			report_str(floor, "source", ""), report_str(floor, "clock", ""),
			report_num(floor, "rate_pps", 0), report_num(floor, "min_ns", 0) / 1e3,
			report_num(floor, "p50_ns", 0) / 1e3, report_num(floor, "p99_ns", 0) / 1e3);
	return pvp_out_commit(&out, NULL, 0);
}

/*
 * Latency under load: one curve per point and load across the
 * percentiles (min, p50 ... p99.99, max), HdrHistogram's picture; a log
 * axis because the tail is orders of magnitude above the median.
 */
int
report_plot_latency(const json_t *summary, const struct report_gp *gp)
{
	static const char base[] = "latency";
	static const char *const keys[] = {"min_ns",   "p50_ns",    "p90_ns", "p99_ns",
					   "p99_9_ns", "p99_99_ns", "max_ns"};
	static const char *const names[] = {"min", "p50", "p90", "p99", "p99.9", "p99.99", "max"};
	const json_t *series[64], *pts[64], *p, *e, *floor;
	unsigned int n = 0, i, k;
	char label[128], clock[32];
	struct pvp_out out;
	size_t a, b;
	FILE *f;

	json_array_foreach(json_object_get(summary, "points"), a, p) {
		json_array_foreach(json_object_get(p, "latency"), b, e) {
			if (n < sizeof(series) / sizeof(series[0])) {
				series[n] = e;
				pts[n++] = p;
			}
		}
	}
	if (n == 0)
		return 0;
	f = report_plot_file(&out, gp->outdir, base, "dat");
	if (f == NULL)
		return -errno;
	fprintf(f, "# pvpkit latency in us per percentile; one column per point and load\n# x "
		   "percentile");
	for (i = 0; i < n; i++)
		fprintf(f, " %.0fB_%.0ff_%g%%", report_num(pts[i], "size", 0),
			report_num(pts[i], "flows", 0), report_num(series[i], "load_pct", 0));
	fputc('\n', f);
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		fprintf(f, "%u %s", k, names[k]);
		for (i = 0; i < n; i++)
			fprintf(f, " %.3f", report_num(series[i], keys[k], 0) / 1e3);
		fputc('\n', f);
	}
	f = report_plot_script(&out, gp->outdir, base);
	if (f == NULL)
		return -errno;
	report_plot_clean(clock, sizeof(clock), report_str(series[0], "clock", "?"));
	fprintf(f, "set title \"%s: latency under load (%s clock)\" noenhanced\n", gp->title,
		clock);
	fprintf(f, "set xlabel \"Percentile\"\nset ylabel \"Latency (us)\"\nset logscale y\n");
	fprintf(f, "set grid\nset key outside right top noenhanced\nset bmargin 6\n");
	floor = json_object_get(summary, "latency_floor");
	if (floor != NULL)
		fprintf(f,
			"set label 1 \"tester floor (wire calibration): min %.3f us, p50 %.3f us, "
			"p99 %.3f us\" at screen 0.02, screen 0.03 noenhanced\n",
			report_num(floor, "min_ns", 0) / 1e3, report_num(floor, "p50_ns", 0) / 1e3,
			report_num(floor, "p99_ns", 0) / 1e3);
	report_plot_begin(f, gp, base, 1000);
	for (i = 0; i < n; i++) {
		snprintf(label, sizeof(label), "%.0f B %.0f flows, %g %% of %s (%.0f pps)",
			 report_num(pts[i], "size", 0), report_num(pts[i], "flows", 0),
			 report_num(series[i], "load_pct", 0),
			 report_str(series[i], "reference", ""),
			 report_num(series[i], "rate_pps", 0));
		report_plot_clean(label, sizeof(label), label);
		/* The first curve names the file and the x labels; the others reuse them. */
		fprintf(f, "%s using 1:%u%s with linespoints lw 2 pt 7 title \"%s\"",
			i == 0 ? "plot \"latency.dat\"" : ", \\\n  \"\"", i + 3,
			i == 0 ? ":xtic(2)" : "", label);
	}
	return report_plot_end(&out, gp, base, 1000, true);
}
