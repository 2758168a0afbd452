/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Figures over repeated searches: median, extremes and spread. Medians,
 * not means: on a noisy host one search that a stall cut short must not
 * drag the figure that represents the point.
 */

#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_private.h"

static int
dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void
report_stats(const double *v, unsigned int n, struct report_stats *st)
{
	double s[REPORT_MAX_REPEAT];

	memset(st, 0, sizeof(*st));
	n = n < REPORT_MAX_REPEAT ? n : REPORT_MAX_REPEAT;
	st->n = n;
	if (n == 0)
		return;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), dbl_cmp);
	st->min = s[0];
	st->max = s[n - 1];
	st->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	/* A range of two values is not a spread: it needs three. */
	st->has_spread = n >= 3 && st->median > 0;
	if (st->has_spread)
		st->spread = (st->max - st->min) / st->median;
}
