/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit compare OLD NEW [--out DIR]: two runs (results directories,
 * results files or summary.json files) side by side, point by point and
 * goal by goal, with a regression flagged only where the change exceeds
 * what both runs measured as noise (report_compare()), throughput
 * and latency alike. Exit status 3 on a regression, so a CI pipeline can
 * gate on it.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "pvp_util.h"

#include "coord.h"
#include "cmd.h"
#include "report.h"

#define COMPARE_USAGE "pvpkit compare OLD NEW [--out DIR]"

/* A summary from a results dir, a results file or a summary.json. NULL after a message. */
static json_t *
compare_load(const char *path)
{
	struct report_load_info li;
	char buf[4096], *text;
	json_t *recs, *sum;
	json_error_t e;
	struct stat st;
	size_t n = strlen(path), len;
	int ret;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "pvpkit: compare: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(buf, sizeof(buf), "%s/results.jsonl", path);
		if (stat(buf, &st) < 0)
			snprintf(buf, sizeof(buf), "%s/summary.json", path);
		return compare_load(buf);
	}
	if (n < 6 || strcmp(path + n - 6, ".jsonl") != 0) {
		/*
		 * A summary: one JSON document with "points", read as every
		 * named file is (a FIFO or a device would never end).
		 */
		buf[0] = '\0';
		ret = pvp_file_read(path, REPORT_MAX_FILE, &text, &len, buf, sizeof(buf));
		if (ret < 0) {
			fprintf(stderr, "pvpkit: compare: %s\n", buf);
			return NULL;
		}
		sum = json_loadb(text, len, 0, &e);
		buf[0] = '\0';
		if (json_is_object(sum) && json_is_array(json_object_get(sum, "points"))) {
			/* Every point is looked up in the other run: n x n. */
			if (json_array_size(json_object_get(sum, "points")) > REPORT_MAX_POINTS)
				snprintf(buf, sizeof(buf),
					 "%s: more than %u points, the most a comparison takes",
					 path, REPORT_MAX_POINTS);
			else
				coord_summary_check(sum, path, text, buf, sizeof(buf));
			free(text);
			if (buf[0] == '\0')
				return sum;
			fprintf(stderr, "pvpkit: compare: %s\n", buf);
			json_decref(sum);
			return NULL;
		}
		free(text);
		json_decref(sum);
		if (sum == NULL && e.line > 1) {
			fprintf(stderr, "pvpkit: compare: %s:%d:%d: %s\n", path, e.line, e.column,
				e.text);
			return NULL;
		}
	}
	recs = report_load(path, &li);
	if (recs == NULL) {
		fprintf(stderr, "pvpkit: compare: %s\n",
			li.warning[0] != '\0' ? li.warning : strerror(errno));
		return NULL;
	}
	if (li.warning[0] != '\0')
		fprintf(stderr, "pvpkit: warning: %s\n", li.warning);
	sum = report_summary(recs, NULL);
	json_decref(recs);
	if (sum == NULL && errno == E2BIG)
		fprintf(stderr,
			"pvpkit: compare: %s: more than %u points, the most a report takes\n", path,
			REPORT_MAX_POINTS);
	else if (sum == NULL)
		fprintf(stderr, "pvpkit: compare: %s: out of memory\n", path);
	return sum;
}

/* "1,234,567" or "-". */
static const char *
compare_fmt(const json_t *side, const char *key, char *buf, size_t len)
{
	const json_t *v = json_object_get(side, key);

	/* A summary's number may be anything: out of int64_t's range is undefined. */
	if (!json_is_number(v) || !(fabs(json_number_value(v)) < 9e18))
		return "-";
	return pvp_fmt_count((int64_t)(json_number_value(v) + 0.5), buf, len);
}

const char *
cmd_compare_range(const json_t *side, char *buf, size_t len)
{
	char a[32], b[32], c[32];

	snprintf(buf, len, "%s [%s..%s]", compare_fmt(side, "pps", a, sizeof(a)),
		 compare_fmt(side, "lo_pps", b, sizeof(b)),
		 compare_fmt(side, "hi_pps", c, sizeof(c)));
	return buf;
}

/* A row's change, "+1.2 %", or "-". */
static const char *
compare_change(const json_t *row, char *buf, size_t len)
{
	const json_t *c = json_object_get(row, "change");

	if (!json_is_number(c))
		return "-";
	snprintf(buf, len, "%+.1f %%", 100 * json_number_value(c));
	return buf;
}

static void
compare_print(const json_t *cmp)
{
	char rng[2][80], chg[16];
	const json_t *row;
	const char *goal;
	int gw = 8;
	size_t i;

	/* The goal column as wide as its longest name ("pdr=0.5%,p99=100us"). */
	json_array_foreach(json_object_get(cmp, "rows"), i, row) {
		goal = json_string_value(json_object_get(row, "goal"));
		if (goal != NULL && strlen(goal) > (size_t)gw && strlen(goal) < 64)
			gw = (int)strlen(goal);
	}
	printf("%6s %8s %-*s %30s %30s %8s  %s\n", "size", "flows", gw, "goal", "old pps [lo..hi]",
	       "new pps [lo..hi]", "change", "verdict");
	json_array_foreach(json_object_get(cmp, "rows"), i, row)
		printf("%6.0f %8.0f %-*s %30s %30s %8s  %s\n",
		       json_number_value(json_object_get(row, "size")),
		       json_number_value(json_object_get(row, "flows")), gw,
		       json_string_value(json_object_get(row, "goal")),
		       cmd_compare_range(json_object_get(row, "old"), rng[0], sizeof(rng[0])),
		       cmd_compare_range(json_object_get(row, "new"), rng[1], sizeof(rng[1])),
		       compare_change(row, chg, sizeof(chg)),
		       json_string_value(json_object_get(row, "verdict")));
}

/* "12.3 [12.1..12.6]" in us, "12.3 [-]" without a range, or "-". */
static const char *
compare_lat_fmt(const json_t *side, char *buf, size_t len)
{
	if (!json_is_object(side))
		return "-";
	if (json_is_number(json_object_get(side, "lo_ns")))
		snprintf(buf, len, "%.1f [%.1f..%.1f]",
			 json_number_value(json_object_get(side, "ns")) / 1e3,
			 json_number_value(json_object_get(side, "lo_ns")) / 1e3,
			 json_number_value(json_object_get(side, "hi_ns")) / 1e3);
	else
		snprintf(buf, len, "%.1f [-]",
			 json_number_value(json_object_get(side, "ns")) / 1e3);
	return buf;
}

/* The latency rows: one per point, load and figure. */
static void
compare_print_latency(const json_t *cmp)
{
	const json_t *rows = json_object_get(cmp, "latency_rows"), *row;
	char o[64], n[64], chg[16];
	size_t i;

	if (json_array_size(rows) == 0)
		return;
	printf("%6s %8s %5s %-7s %24s %24s %8s  %s\n", "size", "flows", "load", "latency",
	       "old us [lo..hi]", "new us [lo..hi]", "change", "verdict");
	json_array_foreach(rows, i, row)
		printf("%6.0f %8.0f %4g%% %-7s %24s %24s %8s  %s\n",
		       json_number_value(json_object_get(row, "size")),
		       json_number_value(json_object_get(row, "flows")),
		       json_number_value(json_object_get(row, "load_pct")),
		       json_string_value(json_object_get(row, "figure")),
		       compare_lat_fmt(json_object_get(row, "old"), o, sizeof(o)),
		       compare_lat_fmt(json_object_get(row, "new"), n, sizeof(n)),
		       compare_change(row, chg, sizeof(chg)),
		       json_string_value(json_object_get(row, "verdict")));
}

json_t *
cmd_compare_show(json_t *old, json_t *new, const char *who, unsigned int *regr)
{
	unsigned int progr;
	json_t *cmp;

	cmp = report_compare(old, new, regr, &progr);
	json_decref(old);
	json_decref(new);
	if (cmp == NULL) {
		fprintf(stderr, "pvpkit: %s: out of memory\n", who);
		return NULL;
	}
	compare_print(cmp);
	compare_print_latency(cmp);
	printf("%zu compared, %u regression(s), %u progression(s)\n",
	       json_array_size(json_object_get(cmp, "rows")) +
		       json_array_size(json_object_get(cmp, "latency_rows")),
	       *regr, progr);
	return cmp;
}

/* What the run was, from its metadata: a difference here explains many. */
static void
compare_meta(const char *label, const char *path, const json_t *sum)
{
	const json_t *m = json_object_get(sum, "metadata"), *v;
	const char *hop, *ovs = NULL;

	json_object_foreach(json_object_get(m, "vswitch"), hop, v)
		if (json_is_string(json_object_get(v, "ovs_version")))
			ovs = json_string_value(json_object_get(v, "ovs_version"));
	printf("%s %s: pvpkit %s, topology %s, dut \"%s\", cpu \"%s\", ovs %s\n", label, path,
	       json_string_value(json_object_get(m, "pvpkit_version")) ?: "?",
	       json_string_value(json_object_get(m, "topology")) ?: "?",
	       json_string_value(json_object_get(m, "dut")) ?: "",
	       json_string_value(json_object_get(json_object_get(m, "host"), "cpu_model")) ?: "?",
	       ovs != NULL ? ovs : "-");
}

/* --out: compare.json and the plot. 0, or 1 after a message. */
static int
compare_write(const json_t *cmp, const char *out, const char *old, const char *new)
{
	struct report_info info;
	char path[4096], title[256], err[512] = "";
	struct pvp_out f;
	unsigned int i;
	int ret;

	ret = pvp_mkdir_p(out, 0755);
	if (ret < 0) {
		fprintf(stderr, "pvpkit: compare: %s: %s\n", out, strerror(-ret));
		return 1;
	}
	/* Nobody else may plant names (links) where the files go. */
	snprintf(path, sizeof(path), "%s/compare.json", out);
	ret = pvp_out_dir_check(out, err, sizeof(err));
	if (ret == 0)
		ret = pvp_out_open(&f, path, err, sizeof(err));
	if (ret == 0 && json_dumpf(cmp, f.f, JSON_INDENT(2) | JSON_SORT_KEYS) < 0) {
		pvp_out_abort(&f);
		pvp_err(err, sizeof(err), "%s: cannot write", path);
		ret = -EIO;
	}
	if (ret == 0)
		ret = pvp_out_commit(&f, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "pvpkit: compare: %s\n", err);
		return 1;
	}
	printf("report: %s\n", path);
	memset(&info, 0, sizeof(info));
	snprintf(title, sizeof(title), "pvpkit compare: %s (old) vs %s (new)", old, new);
	report_compare_plot(cmp, out, NULL, title, &info);
	for (i = 0; i < info.nb_files; i++)
		printf("report: %s/%s\n", out, info.files[i]);
	if (info.plot_note[0] != '\0')
		printf("plots: %s\n", info.plot_note);
	return 0;
}

int
cmd_compare(int argc, char **argv)
{
	const char *out = NULL;
	unsigned int regr;
	json_t *old, *new, *cmp;
	int rc;

	if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
		printf("Usage: " COMPARE_USAGE "\n"
		       "Compare two runs (results directories, results.jsonl or summary.json)\n"
		       "point by point and goal by goal. A change is a regression only when the\n"
		       "new range (min..max of the repeated searches, widened by the search\n"
		       "width) lies entirely below the old one. Latency per load and\n"
		       "percentile (p50, p99, p99.99, max): a regression only when the new\n"
		       "range (each round's confidence interval from its histogram, over the\n"
		       "rounds of --repeat) lies entirely above the old one. Exit status 3 on a\n"
		       "regression of either.\n"
		       "--out DIR writes compare.json, compare.png and compare_latency.png "
		       "there.\n");
		return 0;
	}
	if (argc == 5 && strcmp(argv[3], "--out") == 0)
		out = argv[4];
	else if (argc != 3)
		return cli_usage_error("--help", "compare: usage: %s", COMPARE_USAGE);
	old = compare_load(argv[1]);
	new = old != NULL ? compare_load(argv[2]) : NULL;
	if (new == NULL) {
		json_decref(old);
		return 1;
	}
	compare_meta("old", argv[1], old);
	compare_meta("new", argv[2], new);
	cmp = cmd_compare_show(old, new, "compare", &regr);
	if (cmp == NULL)
		return 1;
	rc = out != NULL ? compare_write(cmp, out, argv[1], argv[2]) : 0;
	json_decref(cmp);
	if (rc != 0)
		return rc;
	return regr > 0 ? CMD_EXIT_REGRESSION : 0;
}
