/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What pvpkit search | run adds for repeated searches, presets and the
 * generator-limited rule: the tags on trial and search records, and the
 * line that sums up the searches of one point.
 */

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "coord.h"
#include "coord_report.h"
#include "coord_search.h"
#include "pvp_search.h"

void
coord_search_tag_trial(json_t *trial, const struct pvp_search_trial *st)
{
	json_t *s = json_object_get(trial, "search");

	if (s == NULL)
		return;
	/* Only when set: older readers see the records they know. */
	if (st->warmup)
		json_object_set_new(s, "warmup", json_true());
	if (st->gen_remeasure)
		json_object_set_new(s, "gen_remeasure", json_true());
}

void
coord_search_tag_record(json_t *rec, const struct coord_search_args *a, const char *group,
			unsigned int index)
{
	if (a->preset != NULL)
		json_object_set_new(rec, "preset", json_string(a->preset));
	if (group != NULL)
		json_object_set_new(rec, "repeat",
				    json_pack("{s:s,s:I,s:I}", "group", group, "index",
					      (json_int_t)index, "of", (json_int_t)a->repeat));
}

void
coord_repeats_init(struct coord_repeats *r, const struct pvp_search_params *p)
{
	memset(r, 0, sizeof(*r));
	r->nb_goals = p->nb_goals;
	memcpy(r->loss_ratio, p->loss_ratio, sizeof(r->loss_ratio));
}

void
coord_repeats_add(struct coord_repeats *r, const struct pvp_search_result *res)
{
	unsigned int g;

	if (r->n >= COORD_SEARCH_MAX_REPEAT)
		return;
	for (g = 0; g < r->nb_goals && g < res->nb_goals; g++) {
		r->has_lower[r->n][g] = res->goal[g].has_lower;
		r->lower[r->n][g] = res->goal[g].lower_bound;
		r->delivered[r->n][g] = res->goal[g].conditional_throughput;
	}
	r->remeasured += res->nb_gen_remeasured;
	r->recovered += res->nb_gen_recovered;
	r->n++;
}

void
coord_repeats_show(const struct coord_repeats *r, const char *group)
{
	double v[COORD_SEARCH_MAX_REPEAT], d[COORD_SEARCH_MAX_REPEAT];
	struct coord_report_stats st, ds;
	unsigned int g, i, n, pdr = 0;
	char name[32], a[32], b[32], c[32], dl[32], e[32];

	printf("== repeats %s: %u searches\n", group, r->n);
	for (g = 0; g < r->nb_goals; g++) {
		coord_report_goal_name(r->loss_ratio[g], pdr, name, sizeof(name));
		if (r->loss_ratio[g] != 0)
			pdr++;
		for (i = n = 0; i < r->n; i++) {
			if (!r->has_lower[i][g])
				continue;
			v[n] = r->lower[i][g];
			d[n++] = r->delivered[i][g];
		}
		coord_report_stats(v, n, &st);
		coord_report_stats(d, n, &ds);
		if (n == 0) {
			printf("   %-8s no lower bound in any search\n", name);
			continue;
		}
		if (st.has_spread)
			snprintf(e, sizeof(e), "spread %.1f %%", 100 * st.spread);
		else
			snprintf(e, sizeof(e), "spread needs 3 searches");
		printf("   %-8s median %s pps (min %s, max %s, %s) over %u; delivered %s pps\n",
		       name, coord_fmt_count((int64_t)st.median, a, sizeof(a)),
		       coord_fmt_count((int64_t)st.min, b, sizeof(b)),
		       coord_fmt_count((int64_t)st.max, c, sizeof(c)), e, n,
		       coord_fmt_count((int64_t)ds.median, dl, sizeof(dl)));
	}
	if (r->remeasured > 0)
		printf("   generator-limited trials measured again: %u, sent cleanly then: %u\n",
		       r->remeasured, r->recovered);
	fflush(stdout);
}
