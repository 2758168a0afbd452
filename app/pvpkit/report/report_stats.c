/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Figures over repeated searches: median, extremes and spread. Medians,
 * not means: on a noisy host one search that a stall cut short must not
 * drag the figure that represents the point.
 */

#include <math.h>
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
	double *s;
	unsigned int i;

	memset(st, 0, sizeof(*st));
	st->n = n;
	if (n == 0)
		return;
	s = malloc(n * sizeof(*s));
	if (s == NULL) {
		/* No copy to sort: the extremes still hold, the median is the mean. */
		st->min = st->max = v[0];
		for (i = 0; i < n; i++) {
			st->min = fmin(st->min, v[i]);
			st->max = fmax(st->max, v[i]);
			st->median += v[i] / n;
		}
	} else {
		memcpy(s, v, n * sizeof(*s));
		qsort(s, n, sizeof(*s), dbl_cmp);
		st->min = s[0];
		st->max = s[n - 1];
		st->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
		free(s);
	}
	/* A range of two values is not a spread: it needs three. */
	st->has_spread = n >= 3 && st->median > 0;
	if (st->has_spread)
		st->spread = (st->max - st->min) / st->median;
}
