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
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "report.h"
#include "report_private.h"

/* What one run says of one point and goal, or of one load and latency figure. */
struct cmp_side {
	json_t *j;   /* the side as its row shows it; null: no figure */
	bool valid;  /* a figure to compare */
	bool ranged; /* with a range that judges it */
	double v;    /* the figure (a rate: the median of the repeats) */
	double lo;   /* lowest figure it cannot rule out */
	double hi;   /* highest */
};

static void
cmp_side_read(const json_t *g, struct cmp_side *s)
{
	double lower, upper, w = 0;

	memset(s, 0, sizeof(*s));
	s->j = json_null();
	if (!json_is_number(json_object_get(g, "pps")))
		return;
	s->valid = s->ranged = true;
	s->v = report_num(g, "pps", 0);
	s->lo = report_num(g, "min_pps", s->v);
	s->hi = report_num(g, "max_pps", s->v);
	lower = report_num(g, "lower_pps", s->v);
	upper = report_num(g, "upper_pps", lower);
	/* The search's width: the true rate lies anywhere below the upper bound. */
	if (upper > lower && upper > 0)
		w = (upper - lower) / upper;
	s->hi = w < 1 ? s->hi / (1 - w) : s->hi;
	s->j = json_pack("{s:f,s:f,s:f,s:I}", "pps", s->v, "lo_pps", s->lo, "hi_pps", s->hi,
			 "repeats", (json_int_t)(unsigned int)report_num(g, "repeats", 1));
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

/* Latency figure @p f of entry @p e (NULL: none) as one side of a row. */
static void
cmp_lat_side(const json_t *e, unsigned int f, struct cmp_side *s)
{
	const json_t *r = json_object_get(json_object_get(e, "range_ns"), cmp_lat_figs[f].range);

	memset(s, 0, sizeof(*s));
	s->j = json_null();
	if (e == NULL || !json_is_number(json_object_get(e, cmp_lat_figs[f].key)))
		return;
	s->valid = true;
	s->v = report_num(e, cmp_lat_figs[f].key, 0);
	s->ranged = json_unpack((json_t *)(uintptr_t)r, "[FF!]", &s->lo, &s->hi) == 0;
	s->j = json_pack("{s:f,s:o,s:o,s:f,s:f}", "ns", s->v, "lo_ns",
			 s->ranged ? json_real(s->lo) : json_null(), "hi_ns",
			 s->ranged ? json_real(s->hi) : json_null(), "trials",
			 report_num(e, "trials", 1), "rate_pps", report_num(e, "rate_pps", 0));
}

/*
 * Append @p row to @p rows with its sides, their change and the verdict:
 * "not-comparable" without a figure on either side, "not-judged" without
 * a range; else a regression when the new range is entirely worse than
 * the old one (below it, above it when @p lower_better), a progression
 * when entirely better.
 */
static void
cmp_row(json_t *rows, json_t *row, const struct cmp_side *o, const struct cmp_side *n,
	bool lower_better, unsigned int *regr, unsigned int *progr)
{
	bool both = o->valid && n->valid;
	const char *verdict;

	if (!both) {
		verdict = "not-comparable";
	} else if (!o->ranged || !n->ranged) {
		verdict = "not-judged";
	} else if (lower_better ? n->lo > o->hi : n->hi < o->lo) {
		verdict = "regression";
		(*regr)++;
	} else if (lower_better ? n->hi < o->lo : n->lo > o->hi) {
		verdict = "progression";
		(*progr)++;
	} else {
		verdict = "within-noise";
	}
	json_object_set_new(row, "old", o->j);
	json_object_set_new(row, "new", n->j);
	json_object_set_new(row, "change",
			    both && o->v > 0 ? json_real((n->v - o->v) / o->v) : json_null());
	json_object_set_new(row, "verdict", json_string(verdict));
	json_array_append_new(rows, row);
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
	unsigned int nb = 0, i, k, f;
	struct cmp_side o, n;
	double loads[128];
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
			cmp_lat_side(oe, f, &o);
			cmp_lat_side(ne, f, &n);
			cmp_row(rows,
				json_pack("{s:f,s:f,s:f,s:s}", "size", report_num(np, "size", 0),
					  "flows", report_num(np, "flows", 0), "load_pct", loads[i],
					  "figure", cmp_lat_figs[f].range),
				&o, &n, true, regr, progr);
		}
	}
}

json_t *
report_compare(const json_t *old_sum, const json_t *new_sum, unsigned int *regressions,
	       unsigned int *progressions)
{
	const json_t *np, *op, *ng, *og;
	struct cmp_side o, n;
	json_t *rows = json_array(), *lat = json_array();
	unsigned int lregr = 0, lprogr = 0;
	const char *goal;
	size_t i;

	*regressions = *progressions = 0;
	if (rows == NULL || lat == NULL) {
		json_decref(rows);
		json_decref(lat);
		return NULL;
	}
	json_array_foreach(json_object_get(new_sum, "points"), i, np) {
		op = report_point(old_sum, report_num(np, "size", -1), report_num(np, "flows", -1));
		if (op == NULL)
			continue;
		json_object_foreach(json_object_get(np, "goals"), goal, ng) {
			og = json_object_get(json_object_get(op, "goals"), goal);
			if (og == NULL)
				continue;
			cmp_side_read(og, &o);
			cmp_side_read(ng, &n);
			cmp_row(rows,
				json_pack("{s:f,s:f,s:s}", "size", report_num(np, "size", 0),
					  "flows", report_num(np, "flows", 0), "goal", goal),
				&o, &n, false, regressions, progressions);
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

/*
 * compare.{dat,gp}, or with @p lat compare_latency.{dat,gp}: per row
 * both runs measured, old and new with their ranges as error bars;
 * throughput per point and goal in Mpps, latency per point, load and
 * percentile in us on a log axis (tails are orders of magnitude above
 * medians). *any: whether to run it; false when no latency row has both
 * sides (no file written then).
 */
static int
cmp_plot_write(const json_t *cmp, bool lat, const struct report_gp *gp, bool *any)
{
	static const char *const keys[2][3] = {{"pps", "lo_pps", "hi_pps"},
					       {"ns", "lo_ns", "hi_ns"}};
	const char *base = lat ? "compare_latency" : "compare", *verdict;
	char label[96], clean[96], load[32];
	const json_t *row, *sides[2];
	unsigned int nb = 0, s, k;
	struct pvp_out out;
	size_t i;
	FILE *f;

	*any = false;
	f = report_plot_file(&out, gp->outdir, base, "dat");
	if (f == NULL)
		return -errno;
	fputs(lat ? "# pvpkit compare, latency in us: x label old old_lo old_hi new new_lo new_hi "
		    "(no range: the figure)\n"
		  : "# pvpkit compare, Mpps: x label old old_lo old_hi new new_lo new_hi\n",
	      f);
	json_array_foreach(json_object_get(cmp, lat ? "latency_rows" : "rows"), i, row) {
		sides[0] = json_object_get(row, "old");
		sides[1] = json_object_get(row, "new");
		if (!json_is_object(sides[0]) || !json_is_object(sides[1]))
			continue;
		verdict = report_str(row, "verdict", "");
		snprintf(load, sizeof(load), "%g%% ", report_num(row, "load_pct", 0));
		snprintf(label, sizeof(label), "%.0fB %.0ff %s%s%s", report_num(row, "size", 0),
			 report_num(row, "flows", 0), lat ? load : "",
			 report_str(row, lat ? "figure" : "goal", ""),
			 strcmp(verdict, "regression") == 0    ? " (regr.)"
			 : strcmp(verdict, "progression") == 0 ? " (progr.)"
							       : "");
		report_plot_clean(clean, sizeof(clean), label);
		fprintf(f, "%u \"%s\"", nb++, clean);
		/* A latency figure without a range is drawn as its own range. */
		for (s = 0; s < 2; s++)
			for (k = 0; k < 3; k++)
				fprintf(f, " %.*f", lat ? 3 : 6,
					report_num(sides[s], keys[lat][k],
						   report_num(sides[s], keys[lat][0], 0)) /
						(lat ? 1e3 : 1e6));
		fputc('\n', f);
	}
	if (nb == 0 && lat) {
		pvp_out_abort(&out);
		return 0;
	}
	f = report_plot_script(&out, gp->outdir, base);
	if (f == NULL)
		return -errno;
	fprintf(f,
		"set title \"%s%s\" noenhanced\n%sset xtics rotate by 30 right noenhanced\nset "
		"bmargin %u\nset key outside right top\nset xrange [-0.5:%u.5]\n%s",
		gp->title, lat ? ": latency" : "",
		lat ? "set ylabel \"Latency (us), figure and noise range\"\nset logscale y\nset "
		      "grid ytics\n"
		    : "set ylabel \"Throughput (Mpps), median and range\"\nset grid ytics\n",
		lat ? 9 : 8, nb > 0 ? nb - 1 : 0, lat ? "" : "set yrange [0:*]\n");
	report_plot_begin(f, gp, base, 1000);
	fprintf(f,
		"plot \"%s.dat\" using ($1 - 0.15):3:4:5:xtic(2) with yerrorbars lw 2 pt 7 "
		"title \"old\", \\\n  \"\" using ($1 + 0.15):6:7:8 with yerrorbars lw 2 pt 5 "
		"title \"new\"",
		base);
	*any = true;
	return report_plot_end(&out, gp, base, 1000, false);
}

int
report_compare_plot(const json_t *cmp, const char *outdir, const char *gnuplot, const char *title,
		    struct report_info *info)
{
	char ctitle[256];
	struct report_gp gp = {.prog = gnuplot != NULL ? gnuplot : "gnuplot",
			       .timeout_s = REPORT_GNUPLOT_TIMEOUT_S,
			       .outdir = outdir,
			       .title = ctitle,
			       .info = info};
	bool any[2] = {false, false};
	struct pvp_out log;
	unsigned int k;
	int ret;

	/* The title names the runs' paths: any text, never the end of a string. */
	report_plot_clean(ctitle, sizeof(ctitle), title);
	ret = report_gnuplot_terminals(gp.prog, gp.png, sizeof(gp.png), &gp.svg);
	if (ret < 0 || (gp.png[0] == '\0' && !gp.svg)) {
		snprintf(info->plot_note, sizeof(info->plot_note),
			 "plots skipped: cannot run %s (Debian: apt-get install gnuplot-nox)",
			 gp.prog);
		return ret < 0 ? ret : -ENOTSUP;
	}
	for (k = 0; k < 2; k++) {
		ret = cmp_plot_write(cmp, k == 1, &gp, &any[k]);
		if (ret < 0)
			return ret;
	}
	ret = report_plot_log_open(&log, &gp);
	if (ret < 0)
		return ret;
	for (k = 0; ret == 0 && k < 2; k++)
		if (any[k])
			ret = report_plot_run(&gp, k == 1 ? "compare_latency" : "compare");
	if (pvp_out_commit(&log, info->plot_note, sizeof(info->plot_note)) < 0 && ret == 0)
		ret = -EIO;
	if (ret == 0)
		info->plots_done = true;
	return ret;
}
