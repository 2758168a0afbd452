/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The summary's CSV files: <goal>.csv (one row per packet size, one
 * column per flow count) and <goal>_repeats.csv (every search of a
 * repeated point).
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "pvp_util.h"

#include "report.h"
#include "report_private.h"

void
report_csv_field(FILE *f, const char *v)
{
	const char *c;

	if (strpbrk(v, ",\"\r\n") == NULL) {
		fputs(v, f);
		return;
	}
	fputc('"', f);
	for (c = v; *c != '\0'; c++) {
		if (*c == '"')
			fputc('"', f);
		fputc(*c, f);
	}
	fputc('"', f);
}

const json_t *
report_point(const json_t *summary, double size, double flows)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(summary, "points"), i, p)
		if (report_num(p, "size", -1) == size && report_num(p, "flows", -1) == flows)
			return p;
	return NULL;
}

int
report_write_csv(const json_t *summary, const char *goal, const char *path)
{
	const char *flow_type = report_str(summary, "flow_type", "");
	const json_t *sizes, *flows, *sz, *fl, *p, *g;
	char title[256], upper[32];
	struct pvp_out out;
	bool found = false;
	size_t i, j;
	int ret;
	FILE *f;

	if (summary == NULL || goal == NULL || path == NULL)
		return -EINVAL;
	sizes = json_object_get(summary, "sizes");
	flows = json_object_get(summary, "flow_counts");
	json_array_foreach(json_object_get(summary, "points"), i, p)
		if (json_object_get(json_object_get(p, "goals"), goal) != NULL)
			found = true;
	if (!found)
		return -ENOENT;

	for (i = 0; goal[i] != '\0' && i + 1 < sizeof(upper); i++)
		upper[i] = (char)(goal[i] >= 'a' && goal[i] <= 'z' ? goal[i] - 32 : goal[i]);
	upper[i] = '\0';
	ret = pvp_out_open(&out, path, NULL, 0);
	if (ret < 0)
		return ret;
	f = out.f;
	/* ovs_perf: title row, ",Packet size", "Number of flows,<sizes>", rows. */
	snprintf(title, sizeof(title), "%s, %s%s%s (pps)", report_str(summary, "title", "pvpkit"),
		 flow_type, flow_type[0] != '\0' ? " flows, " : "", upper);
	report_csv_field(f, title);
	fputs("\n,Packet size\nNumber of flows", f);
	json_array_foreach(sizes, i, sz)
		fprintf(f, ",%" JSON_INTEGER_FORMAT, json_integer_value(sz));
	fputc('\n', f);
	json_array_foreach(flows, j, fl) {
		fprintf(f, "%" JSON_INTEGER_FORMAT, json_integer_value(fl));
		json_array_foreach(sizes, i, sz) {
			p = report_point(summary, (double)json_integer_value(sz),
					 (double)json_integer_value(fl));
			g = json_object_get(json_object_get(p, "goals"), goal);
			fputc(',', f);
			if (json_is_number(json_object_get(g, "pps")))
				fprintf(f, "%.0f", report_num(g, "pps", 0));
		}
		fputc('\n', f);
	}
	return pvp_out_commit(&out, NULL, 0);
}

bool
report_summary_has_repeats(const json_t *summary, const char *goal)
{
	const json_t *p, *g;
	const char *name;
	size_t i;

	json_array_foreach(json_object_get(summary, "points"), i, p) {
		json_object_foreach(json_object_get(p, "goals"), name, g) {
			if ((goal == NULL || strcmp(name, goal) == 0) &&
			    report_num(g, "repeats", 0) > 1)
				return true;
		}
	}
	return false;
}

int
report_write_repeats_csv(const json_t *summary, const char *goal, const char *path)
{
	/* The figures after the repeats, with their decimals and scale. */
	static const struct {
		const char *key;
		int prec;
		double scale;
	} figs[] = {
		{"pps", 0, 1},	    {"min_pps", 0, 1},	       {"max_pps", 0, 1},
		{"spread", 2, 100}, {"conditional_pps", 0, 1},
	};
	const json_t *p, *g, *v;
	struct pvp_out out;
	char num[32];
	size_t i, k;
	int ret;
	FILE *f;

	if (summary == NULL || goal == NULL || path == NULL)
		return -EINVAL;
	ret = pvp_out_open(&out, path, NULL, 0);
	if (ret < 0)
		return ret;
	f = out.f;
	fprintf(f, "size,flows,repeats,median_pps,min_pps,max_pps,spread_pct,conditional_pps,"
		   "searches_pps\n");
	json_array_foreach(json_object_get(summary, "points"), i, p) {
		g = json_object_get(json_object_get(p, "goals"), goal);
		if (g == NULL || report_num(g, "repeats", 0) < 1)
			continue;
		fprintf(f, "%.0f,%.0f,%.0f", report_num(p, "size", 0), report_num(p, "flows", 0),
			report_num(g, "repeats", 0));
		/* Empty where a figure does not exist (no lower bound, n < 3). */
		for (k = 0; k < sizeof(figs) / sizeof(figs[0]); k++) {
			fputc(',', f);
			if (json_is_number(json_object_get(g, figs[k].key)))
				fprintf(f, "%.*f", figs[k].prec,
					figs[k].scale * report_num(g, figs[k].key, 0));
		}
		fputc(',', f);
		json_array_foreach(json_object_get(g, "searches_pps"), k, v) {
			snprintf(num, sizeof(num), "%.0f", json_number_value(v));
			fprintf(f, "%s%s", k ? " " : "", json_is_number(v) ? num : "-");
		}
		fputc('\n', f);
	}
	return pvp_out_commit(&out, NULL, 0);
}
