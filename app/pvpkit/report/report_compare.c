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
 */

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "coord_report.h"
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

json_t *
coord_report_compare(const json_t *old_sum, const json_t *new_sum, unsigned int *regressions,
		     unsigned int *progressions)
{
	const json_t *np, *op, *ng, *og;
	struct cmp_side o, n;
	json_t *rows = json_array(), *row;
	const char *goal, *verdict;
	size_t i;

	*regressions = *progressions = 0;
	if (rows == NULL)
		return NULL;
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
	}
	return json_pack("{s:o,s:I,s:I}", "rows", rows, "regressions", (json_int_t)*regressions,
			 "progressions", (json_int_t)*progressions);
}

int
coord_report_compare_plot(const json_t *cmp, const char *outdir, const char *gnuplot,
			  const char *title, struct coord_report_info *info)
{
	static const char base[] = "compare";
	char png[16], path[4096], label[96], clean[96];
	const json_t *row, *o, *n;
	unsigned int nb = 0;
	size_t i;
	bool svg;
	FILE *f;
	int ret, log_fd;

	if (gnuplot == NULL)
		gnuplot = "gnuplot";
	ret = coord_report_gnuplot_terminals(gnuplot, png, sizeof(png), &svg);
	if (ret < 0 || (png[0] == '\0' && !svg)) {
		snprintf(info->plot_note, sizeof(info->plot_note),
			 "plots skipped: cannot run %s (Debian: apt-get install gnuplot-nox)",
			 gnuplot);
		return ret < 0 ? ret : -ENOTSUP;
	}
	f = report_plot_file(outdir, base, "dat");
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
	f = report_plot_script(f, outdir, base);
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
	if (fclose(f) != 0)
		return -errno;
	snprintf(path, sizeof(path), "%s/gnuplot.log", outdir);
	log_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (log_fd < 0)
		return -errno;
	ret = report_plot_run(gnuplot, outdir, base, png, svg, log_fd, info);
	close(log_fd);
	if (ret == 0)
		info->plots_done = true;
	return ret;
}
