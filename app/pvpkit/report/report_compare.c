/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Two summaries side by side (pvpkit compare OLD NEW). A change is a
 * regression or a progression only when it is larger than what both runs
 * measured as their own noise: each run's figure is a range, from the
 * lowest to the highest of its repeated searches, widened by the search's
 * own width (the rate between its lower and upper bound is unknown), and
 * only ranges that do not overlap differ. A single search has the width
 * alone; no fixed percentage is involved.
 *
 * Latency follows the same rule per point, load and percentile, with
 * the range of each run's summary entry ("range_ns": every round's
 * confidence interval of the percentile from its histogram, lowest to
 * highest over the rounds). Higher is worse: a new range entirely above
 * the old one is a regression. A maximum is one sample per trial: it is
 * judged only when both runs measured it in two rounds or more.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "report.h"
#include "report_private.h"

/* What one run says of one point and goal. */
struct cmp_side {
	bool valid;	      /* a rate to compare */
	double pps;	      /* median */
	double lo;	      /* lowest figure it cannot rule out */
	double hi;	      /* highest */
	unsigned int repeats; /* searches behind it */
};

static void
cmp_side_read(const json_t *g, struct cmp_side *s)
{
	double lower, upper, w = 0;

	memset(s, 0, sizeof(*s));
	if (!json_is_number(json_object_get(g, "pps")))
		return;
	s->valid = true;
	s->pps = report_num(g, "pps", 0);
	s->repeats = (unsigned int)report_num(g, "repeats", 1);
	s->lo = report_num(g, "min_pps", s->pps);
	s->hi = report_num(g, "max_pps", s->pps);
	lower = report_num(g, "lower_pps", s->pps);
	upper = report_num(g, "upper_pps", lower);
	/* The search's width: the true rate lies anywhere below the upper bound. */
	if (upper > lower && upper > 0)
		w = (upper - lower) / upper;
	s->hi = w < 1 ? s->hi / (1 - w) : s->hi;
}

static const json_t *
cmp_point(const json_t *sum, double size, double flows)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(sum, "points"), i, p)
		if (report_num(p, "size", -1) == size && report_num(p, "flows", -1) == flows)
			return p;
	return NULL;
}

static json_t *
cmp_side_json(const struct cmp_side *s)
{
	if (!s->valid)
		return json_null();
	return json_pack("{s:f,s:f,s:f,s:I}", "pps", s->pps, "lo_pps", s->lo, "hi_pps", s->hi,
			 "repeats", (json_int_t)s->repeats);
}

/* The latency figures compared: summary key, name in "range_ns" and on screen. */
static const struct {
	const char *key;
	const char *range;
} cmp_lat_figs[] = {
	{"p50_ns", "p50"},
	{"p99_ns", "p99"},
	{"p99_99_ns", "p99_99"},
	{"max_ns", "max"},
};

/* The latency entry at @p load of a point, or NULL. */
static const json_t *
cmp_lat_entry(const json_t *point, double load)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(point, "latency"), i, e)
		if (report_num(e, "load_pct", -1) == load)
			return e;
	return NULL;
}

/* One side of a latency row, or null; *ranged: whether it has a noise range. */
static json_t *
cmp_lat_side(const json_t *e, const char *key, const char *range, bool *ranged, double *v,
	     double *lo, double *hi)
{
	const json_t *r;

	*ranged = false;
	if (e == NULL || !json_is_number(json_object_get(e, key)))
		return json_null();
	*v = report_num(e, key, 0);
	r = json_object_get(json_object_get(e, "range_ns"), range);
	if (json_array_size(r) == 2 && json_is_number(json_array_get(r, 0)) &&
	    json_is_number(json_array_get(r, 1))) {
		*ranged = true;
		*lo = json_number_value(json_array_get(r, 0));
		*hi = json_number_value(json_array_get(r, 1));
	}
	return json_pack("{s:f,s:o,s:o,s:f,s:f}", "ns", *v, "lo_ns",
			 *ranged ? json_real(*lo) : json_null(), "hi_ns",
			 *ranged ? json_real(*hi) : json_null(), "trials",
			 report_num(e, "trials", 1), "rate_pps", report_num(e, "rate_pps", 0));
}

/*
 * The latency rows of a point both runs have: every load either run
 * measured, every compared figure. A load or a whole latency step only
 * one run has is "not-comparable"; a figure without a noise range on
 * either side (a maximum of one round, a summary from before ranges)
 * "not-judged".
 */
static void
cmp_latency(const json_t *op, const json_t *np, json_t *rows, unsigned int *regr,
	    unsigned int *progr)
{
	const json_t *sides[2] = {op, np}, *e, *oe, *ne;
	double loads[128], ov = 0, olo = 0, ohi = 0, nv = 0, nlo = 0, nhi = 0;
	unsigned int nb = 0, i, k, f;
	bool oranged, nranged;
	const char *verdict;
	json_t *o, *n;
	size_t j;

	for (k = 0; k < 2; k++) {
		json_array_foreach(json_object_get(sides[k], "latency"), j, e) {
			for (i = 0; i < nb && loads[i] != report_num(e, "load_pct", -1); i++)
				;
			if (i == nb && nb < sizeof(loads) / sizeof(loads[0]))
				loads[nb++] = report_num(e, "load_pct", -1);
		}
	}
	for (i = 0; i < nb; i++) {
		oe = cmp_lat_entry(op, loads[i]);
		ne = cmp_lat_entry(np, loads[i]);
		for (f = 0; f < sizeof(cmp_lat_figs) / sizeof(cmp_lat_figs[0]); f++) {
			o = cmp_lat_side(oe, cmp_lat_figs[f].key, cmp_lat_figs[f].range, &oranged,
					 &ov, &olo, &ohi);
			n = cmp_lat_side(ne, cmp_lat_figs[f].key, cmp_lat_figs[f].range, &nranged,
					 &nv, &nlo, &nhi);
			if (json_is_null(o) || json_is_null(n)) {
				verdict = "not-comparable";
			} else if (!oranged || !nranged) {
				verdict = "not-judged";
			} else if (nlo > ohi) {
				verdict = "regression";
				(*regr)++;
			} else if (nhi < olo) {
				verdict = "progression";
				(*progr)++;
			} else {
				verdict = "within-noise";
			}
			json_array_append_new(
				rows, json_pack("{s:f,s:f,s:f,s:s,s:o,s:o,s:o,s:s}", "size",
						report_num(np, "size", 0), "flows",
						report_num(np, "flows", 0), "load_pct", loads[i],
						"figure", cmp_lat_figs[f].range, "old", o, "new", n,
						"change",
						!json_is_null(o) && !json_is_null(n) && ov > 0
							? json_real((nv - ov) / ov)
							: json_null(),
						"verdict", verdict));
		}
	}
}

json_t *
report_compare(const json_t *old_sum, const json_t *new_sum, unsigned int *regressions,
	       unsigned int *progressions)
{
	const json_t *np, *op, *ng, *og;
	struct cmp_side o, n;
	json_t *rows = json_array(), *lat = json_array(), *row;
	unsigned int lregr = 0, lprogr = 0;
	const char *goal, *verdict;
	size_t i;

	*regressions = *progressions = 0;
	if (rows == NULL || lat == NULL) {
		json_decref(rows);
		json_decref(lat);
		return NULL;
	}
	json_array_foreach(json_object_get(new_sum, "points"), i, np) {
		op = cmp_point(old_sum, report_num(np, "size", -1), report_num(np, "flows", -1));
		if (op == NULL)
			continue;
		json_object_foreach(json_object_get(np, "goals"), goal, ng) {
			og = json_object_get(json_object_get(op, "goals"), goal);
			if (og == NULL)
				continue;
			cmp_side_read(og, &o);
			cmp_side_read(ng, &n);
			if (!o.valid || !n.valid) {
				verdict = "not-comparable";
			} else if (n.hi < o.lo) {
				verdict = "regression";
				(*regressions)++;
			} else if (n.lo > o.hi) {
				verdict = "progression";
				(*progressions)++;
			} else {
				verdict = "within-noise";
			}
			row = json_pack(
				"{s:f,s:f,s:s,s:o,s:o,s:o,s:s}", "size", report_num(np, "size", 0),
				"flows", report_num(np, "flows", 0), "goal", goal, "old",
				cmp_side_json(&o), "new", cmp_side_json(&n), "change",
				o.valid && n.valid && o.pps > 0 ? json_real((n.pps - o.pps) / o.pps)
								: json_null(),
				"verdict", verdict);
			json_array_append_new(rows, row);
		}
		cmp_latency(op, np, lat, &lregr, &lprogr);
	}
	*regressions += lregr;
	*progressions += lprogr;
	return json_pack("{s:o,s:o,s:I,s:I,s:I,s:I}", "rows", rows, "latency_rows", lat,
			 "regressions", (json_int_t)*regressions, "progressions",
			 (json_int_t)*progressions, "latency_regressions", (json_int_t)lregr,
			 "latency_progressions", (json_int_t)lprogr);
}

/* The latency plot's name (compare_latency.png ...). */
static const char lat_base[] = "compare_latency";

/*
 * compare_latency.{dat,gp}: per point, load and percentile both runs
 * measured, old and new in us with their noise ranges as error bars, on
 * a log axis (tails are orders of magnitude above medians). *any: false
 * when there is nothing to plot (no file written then).
 */
static int
cmp_plot_latency(const json_t *cmp, const char *outdir, const char *png, bool svg,
		 const char *title, bool *any)
{
	char label[96], clean[96], plot[256];
	const json_t *row, *o, *n;
	struct pvp_out out;
	unsigned int nb = 0;
	FILE *f = NULL;
	size_t i;

	*any = false;
	json_array_foreach(json_object_get(cmp, "latency_rows"), i, row) {
		o = json_object_get(row, "old");
		n = json_object_get(row, "new");
		if (!json_is_object(o) || !json_is_object(n))
			continue;
		if (f == NULL) {
			f = report_plot_file(&out, outdir, lat_base, "dat");
			if (f == NULL)
				return -errno;
			fprintf(f, "# pvpkit compare, latency in us: x label old old_lo old_hi new "
				   "new_lo new_hi (no range: the figure)\n");
		}
		snprintf(label, sizeof(label), "%.0fB %.0ff %g%% %s%s", report_num(row, "size", 0),
			 report_num(row, "flows", 0), report_num(row, "load_pct", 0),
			 report_str(row, "figure", ""),
			 strcmp(report_str(row, "verdict", ""), "regression") == 0    ? " (regr.)"
			 : strcmp(report_str(row, "verdict", ""), "progression") == 0 ? " (progr.)"
										      : "");
		report_plot_clean(clean, sizeof(clean), label);
		fprintf(f, "%u \"%s\" %.3f %.3f %.3f %.3f %.3f %.3f\n", nb, clean,
			report_num(o, "ns", 0) / 1e3,
			report_num(o, "lo_ns", report_num(o, "ns", 0)) / 1e3,
			report_num(o, "hi_ns", report_num(o, "ns", 0)) / 1e3,
			report_num(n, "ns", 0) / 1e3,
			report_num(n, "lo_ns", report_num(n, "ns", 0)) / 1e3,
			report_num(n, "hi_ns", report_num(n, "ns", 0)) / 1e3);
		nb++;
	}
	if (f == NULL)
		return 0;
	f = report_plot_script(&out, outdir, lat_base);
	if (f == NULL)
		return -errno;
	fprintf(f, "set title \"%s: latency\" noenhanced\n", title);
	fprintf(f, "set ylabel \"Latency (us), figure and noise range\"\nset logscale y\n"
		   "set grid ytics\n");
	fprintf(f,
		"set xtics rotate by 30 right noenhanced\nset bmargin 9\nset key outside right "
		"top\nset xrange [-0.5:%u.5]\n",
		nb - 1);
	snprintf(plot, sizeof(plot),
		 "plot \"%s.dat\" using ($1 - 0.15):3:4:5:xtic(2) with yerrorbars lw 2 pt 7 "
		 "title \"old\", \\\n  \"\" using ($1 + 0.15):6:7:8 with yerrorbars lw 2 pt 5 "
		 "title \"new\"",
		 lat_base);
	report_plot_finish(f, lat_base, png, svg, plot);
	if (report_plot_close(&out) != 0)
		return -errno;
	*any = true;
	return 0;
}

int
report_compare_plot(const json_t *cmp, const char *outdir, const char *gnuplot, const char *title,
		    struct report_info *info)
{
	static const char base[] = "compare";
	char png[16], path[4096], label[96], clean[96], ctitle[256];
	const json_t *row, *o, *n;
	struct report_gp gp = {.prog = gnuplot != NULL ? gnuplot : "gnuplot",
			       .timeout_s = REPORT_GNUPLOT_TIMEOUT_S};
	struct pvp_out out, log;
	unsigned int nb = 0;
	size_t i;
	bool svg, lat;
	FILE *f;
	int ret;

	gnuplot = gp.prog;
	/* The title names the runs' paths: any text, never the end of a string. */
	report_plot_clean(ctitle, sizeof(ctitle), title);
	title = ctitle;
	ret = report_gnuplot_terminals(gnuplot, png, sizeof(png), &svg);
	if (ret < 0 || (png[0] == '\0' && !svg)) {
		snprintf(info->plot_note, sizeof(info->plot_note),
			 "plots skipped: cannot run %s (Debian: apt-get install gnuplot-nox)",
			 gnuplot);
		return ret < 0 ? ret : -ENOTSUP;
	}
	f = report_plot_file(&out, outdir, base, "dat");
	if (f == NULL)
		return -errno;
	fprintf(f, "# pvpkit compare, Mpps: x label old old_lo old_hi new new_lo new_hi\n");
	json_array_foreach(json_object_get(cmp, "rows"), i, row) {
		o = json_object_get(row, "old");
		n = json_object_get(row, "new");
		if (!json_is_object(o) || !json_is_object(n))
			continue;
		snprintf(label, sizeof(label), "%.0fB %.0ff %s%s", report_num(row, "size", 0),
			 report_num(row, "flows", 0), report_str(row, "goal", ""),
			 strcmp(report_str(row, "verdict", ""), "regression") == 0    ? " (regr.)"
			 : strcmp(report_str(row, "verdict", ""), "progression") == 0 ? " (progr.)"
										      : "");
		report_plot_clean(clean, sizeof(clean), label);
		fprintf(f, "%u \"%s\" %.6f %.6f %.6f %.6f %.6f %.6f\n", nb, clean,
			report_num(o, "pps", 0) / 1e6, report_num(o, "lo_pps", 0) / 1e6,
			report_num(o, "hi_pps", 0) / 1e6, report_num(n, "pps", 0) / 1e6,
			report_num(n, "lo_pps", 0) / 1e6, report_num(n, "hi_pps", 0) / 1e6);
		nb++;
	}
	f = report_plot_script(&out, outdir, base);
	if (f == NULL)
		return -errno;
	fprintf(f, "set title \"%s\" noenhanced\n", title);
	fprintf(f, "set ylabel \"Throughput (Mpps), median and range\"\nset grid ytics\n");
	fprintf(f,
		"set xtics rotate by 30 right noenhanced\nset bmargin 8\nset key outside right "
		"top\nset xrange [-0.5:%u.5]\nset yrange [0:*]\n",
		nb > 0 ? nb - 1 : 0);
	snprintf(path, sizeof(path),
		 "plot \"%s.dat\" using ($1 - 0.15):3:4:5:xtic(2) with yerrorbars lw 2 pt 7 "
		 "title \"old\", \\\n  \"\" using ($1 + 0.15):6:7:8 with yerrorbars lw 2 pt 5 "
		 "title \"new\"",
		 base);
	report_plot_finish(f, base, png, svg, path);
	if (report_plot_close(&out) != 0)
		return -errno;
	ret = cmp_plot_latency(cmp, outdir, png, svg, title, &lat);
	if (ret < 0)
		return ret;
	ret = report_plot_log_open(&log, &gp, outdir, info);
	if (ret < 0)
		return ret;
	ret = report_plot_run(&gp, outdir, base, png, svg, info);
	if (ret == 0 && lat)
		ret = report_plot_run(&gp, outdir, lat_base, png, svg, info);
	if (pvp_out_commit(&log, info->plot_note, sizeof(info->plot_note)) < 0 && ret == 0)
		ret = -EIO;
	if (ret == 0)
		info->plots_done = true;
	return ret;
}
