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
#include <math.h>
#include <stdio.h>
#include <string.h>

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
