/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit history add|list|trend|compare: runs kept in a SQLite database
 * across releases. Each run is read through the report loader
 * (report_load(), report_summary()), the same figures
 * `pvpkit report` shows; its summary is kept whole next to the tables a
 * query reads (goals, latency, hops), so trend and compare judge runs with
 * report_compare(), the noise-aware rule of `pvpkit compare`, and
 * not a second one. The results directories are only ever read. The
 * database itself (schema, migrations, adding a run) is report_history.c.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sqlite3.h>

#include "pvp_util.h"

#include "cmd.h"
#include "report_history.h"
#include "report.h"

#define HISTORY_USAGE                                                                              \
	"pvpkit history [--db FILE] add [--tag TAG] RESULTS... | list | "                          \
	"trend --point SIZE,FLOWS [--goal GOAL] [--svg FILE] | compare --baseline TAG"

static int
history_add(sqlite3 *db, const char *dbpath, int argc, char **argv)
{
	const char *tag = NULL;
	int i = 1, rc = 0;

	if (argc >= 3 && strcmp(argv[1], "--tag") == 0) {
		tag = argv[2];
		i = 3;
	}
	if (i >= argc)
		return cli_usage_error("--help", "history: add: no results to add");
	for (; i < argc; i++)
		if (report_history_add(db, dbpath, argv[i], tag) != 0)
			rc = 1;
	return rc;
}

/* A text column, or "-" for NULL. */
static const char *
history_col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s != NULL ? (const char *)s : "-";
}

static int
history_list(sqlite3 *db, const char *dbpath)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db,
			       "SELECT id, started, tag, pvpkit_version, topology, dut,"
			       " (SELECT count(DISTINCT size || ',' || flows) FROM goals"
			       " WHERE run = runs.id), source FROM runs ORDER BY id",
			       -1, &st, NULL) != SQLITE_OK)
		return report_history_error(db, dbpath);
	printf("%4s %-20s %-12s %-8s %-10s %6s  %s\n", "run", "started", "tag", "version",
	       "topology", "points", "source (dut)");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		printf("%4lld %-20s %-12s %-8s %-10s %6d  %s (%s)\n",
		       (long long)sqlite3_column_int64(st, 0), history_col(st, 1),
		       history_col(st, 2), history_col(st, 3), history_col(st, 4),
		       sqlite3_column_int(st, 6), history_col(st, 7), history_col(st, 5));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : report_history_error(db, dbpath);
}

/* A run's summary, from its row. NULL after a message. */
static json_t *
history_summary(sqlite3_stmt *st, int col, const char *dbpath)
{
	const char *text = (const char *)sqlite3_column_text(st, col);
	json_error_t e;
	json_t *sum;

	sum = text != NULL ? json_loads(text, 0, &e) : NULL;
	if (sum == NULL)
		fprintf(stderr, "pvpkit: history: %s: run %lld: its summary is not JSON\n", dbpath,
			(long long)sqlite3_column_int64(st, 0));
	return sum;
}

/* The object of array @p arr at the point SIZE,FLOWS (and of @p goal unless NULL), or NULL. */
static const json_t *
history_at(const json_t *arr, unsigned int size, unsigned int flows, const char *goal)
{
	const json_t *o;
	size_t i;

	json_array_foreach(arr, i, o)
		if (json_number_value(json_object_get(o, "size")) == size &&
		    json_number_value(json_object_get(o, "flows")) == flows &&
		    (goal == NULL ||
		     strcmp(json_string_value(json_object_get(o, "goal")) ?: "", goal) == 0))
			return o;
	return NULL;
}

/* A goal's spread in %, "-" without one (it needs three searches). */
static const char *
history_spread_fmt(const json_t *g, char *buf, size_t len)
{
	if (!json_is_number(json_object_get(g, "spread")))
		return "-";
	snprintf(buf, len, "%.1f", 100 * json_number_value(json_object_get(g, "spread")));
	return buf;
}

/* Runs a trend plot shows at most: the newest. */
#define HISTORY_TREND_MAX_RUNS 64

/* A run's figure at the point as a bar of the trend plot. */
static void
history_bar(struct report_bar *b, long long run, const json_t *side, bool regression)
{
	const json_t *lo = json_object_get(side, "lo_pps"), *hi = json_object_get(side, "hi_pps");
	const json_t *pps = json_object_get(side, "pps");

	snprintf(b->label, sizeof(b->label), "run %lld", run);
	b->value = json_is_number(pps) ? json_number_value(pps) : NAN;
	b->lo = json_is_number(lo) ? json_number_value(lo) : NAN;
	b->hi = json_is_number(hi) ? json_number_value(hi) : NAN;
	b->marked = regression;
}

/*
 * Each run measured at the point, oldest first, with its figure and its
 * range, and the verdict of report_compare() against the run before.
 */
static int
history_trend(sqlite3 *db, const char *dbpath, int argc, char **argv)
{
	unsigned int pt[2], n = 0, regr, progr, nregr = 0;
	const char *goal = "ndr", *verdict, *svg = NULL;
	struct report_bar bars[HISTORY_TREND_MAX_RUNS];
	size_t nb_bars = 0;
	char svg_err[256] = "", svg_title[128];
	json_t *prev = NULL, *sum, *cmp;
	const json_t *row, *side, *mine;
	char a[32], b[32], c[80];
	sqlite3_stmt *st;
	int i, rc;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--point") == 0 && i + 1 < argc) {
			if (cli_opt_u32_list("--point", argv[++i], 1, 1000000000, pt, 2, &n) != 0)
				return 2;
			if (n != 2)
				return cli_usage_error("--help",
						       "history: --point: \"%s\" must be "
						       "SIZE,FLOWS",
						       argv[i]);
		} else if (strcmp(argv[i], "--goal") == 0 && i + 1 < argc) {
			goal = argv[++i];
		} else if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc && svg == NULL) {
			svg = argv[++i];
		} else {
			return cli_usage_error("--help", "history: usage: %s", HISTORY_USAGE);
		}
	}
	if (n != 2)
		return cli_usage_error("--help", "history: trend: --point SIZE,FLOWS needed");
	if (sqlite3_prepare_v2(db,
			       "SELECT runs.id, started, tag, summary FROM runs JOIN goals ON"
			       " goals.run = runs.id WHERE size = ?1 AND flows = ?2 AND goal = ?3"
			       " ORDER BY runs.id",
			       -1, &st, NULL) != SQLITE_OK)
		return report_history_error(db, dbpath);
	sqlite3_bind_int64(st, 1, pt[0]);
	sqlite3_bind_int64(st, 2, pt[1]);
	sqlite3_bind_text(st, 3, goal, -1, SQLITE_TRANSIENT);
	printf("%u B, %u flows, %s\n%4s %-20s %-12s %30s %8s  %s\n", pt[0], pt[1], goal, "run",
	       "started", "tag", "pps [lo..hi]", "spread", "vs previous");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		sum = history_summary(st, 3, dbpath);
		if (sum == NULL)
			break;
		cmp = report_compare(prev != NULL ? prev : sum, sum, &regr, &progr);
		row = history_at(json_object_get(cmp, "rows"), pt[0], pt[1], goal);
		side = json_object_get(row, "new");
		mine = history_at(json_object_get(sum, "points"), pt[0], pt[1], NULL);
		mine = json_object_get(json_object_get(mine, "goals"), goal);
		verdict = prev == NULL ? "-" : json_string_value(json_object_get(row, "verdict"));
		if (verdict != NULL && strcmp(verdict, "regression") == 0) {
			verdict = "REGRESSION";
			nregr++;
		}
		snprintf(a, sizeof(a), "%s", history_col(st, 1));
		/* The newest runs fill the plot: the older ones shift out. */
		if (nb_bars == HISTORY_TREND_MAX_RUNS) {
			memmove(bars, bars + 1, sizeof(bars[0]) * (nb_bars - 1));
			nb_bars--;
		}
		history_bar(&bars[nb_bars++], sqlite3_column_int64(st, 0), side,
			    verdict != NULL && strcmp(verdict, "REGRESSION") == 0);
		printf("%4lld %-20s %-12s %30s %7s%%  %s\n", (long long)sqlite3_column_int64(st, 0),
		       a, history_col(st, 2),
		       json_is_object(side) ? cmd_compare_range(side, c, sizeof(c)) : "-",
		       history_spread_fmt(mine, b, sizeof(b)), verdict != NULL ? verdict : "-");
		json_decref(cmp);
		json_decref(prev);
		prev = sum;
	}
	json_decref(prev);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return rc == SQLITE_ROW ? 1 : report_history_error(db, dbpath);
	printf("%u regression(s)\n", nregr);
	if (svg == NULL)
		return 0;
	snprintf(svg_title, sizeof(svg_title), "%s at %u B, %u flows over the runs (min..max)",
		 goal, pt[0], pt[1]);
	if (report_bars_svg(svg, svg_title, bars, nb_bars, svg_err, sizeof(svg_err)) < 0) {
		fprintf(stderr, "pvpkit: history: trend: %s\n", svg_err);
		return 1;
	}
	printf("plot: %s\n", svg);
	return 0;
}

/* The summary of the newest run, or of the newest with @p tag. NULL after a message. */
static json_t *
history_pick(sqlite3 *db, const char *dbpath, const char *tag, long long *id)
{
	sqlite3_stmt *st;
	json_t *sum = NULL;

	if (sqlite3_prepare_v2(db,
			       tag != NULL
				       ? "SELECT id, summary FROM runs WHERE tag = ?1"
					 " ORDER BY id DESC LIMIT 1"
				       : "SELECT id, summary FROM runs ORDER BY id DESC LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK) {
		report_history_error(db, dbpath);
		return NULL;
	}
	if (tag != NULL)
		sqlite3_bind_text(st, 1, tag, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		sum = history_summary(st, 1, dbpath);
	} else if (sqlite3_errcode(db) != SQLITE_DONE) {
		report_history_error(db, dbpath);
	} else if (tag != NULL) {
		fprintf(stderr, "pvpkit: history: %s: no run tagged \"%s\"\n", dbpath, tag);
	} else {
		fprintf(stderr, "pvpkit: history: %s: no run yet (pvpkit history add)\n", dbpath);
	}
	sqlite3_finalize(st);
	return sum;
}

static int
history_compare(sqlite3 *db, const char *dbpath, int argc, char **argv)
{
	json_t *old, *new, *cmp;
	long long oid, nid;
	unsigned int regr;

	if (argc != 3 || strcmp(argv[1], "--baseline") != 0)
		return cli_usage_error("--help", "history: usage: %s", HISTORY_USAGE);
	old = history_pick(db, dbpath, argv[2], &oid);
	new = old != NULL ? history_pick(db, dbpath, NULL, &nid) : NULL;
	if (new == NULL) {
		json_decref(old);
		return 1;
	}
	printf("old: run %lld (%s), new: run %lld (latest)\n", oid, argv[2], nid);
	cmp = cmd_compare_show(old, new, "history", &regr);
	if (cmp == NULL)
		return 1;
	json_decref(cmp);
	return regr > 0 ? CMD_EXIT_REGRESSION : 0;
}

/* The subcommand argv[1], --db taken out. @return the exit status. */
static int
history_run(const char *dbopt, int argc, char **argv)
{
	const char *dbpath;
	char buf[4096];
	sqlite3 *db;
	int rc;

	if (argc < 2)
		return cli_usage_error("--help", "history: usage: %s", HISTORY_USAGE);
	if (strcmp(argv[1], "add") != 0 && strcmp(argv[1], "list") != 0 &&
	    strcmp(argv[1], "trend") != 0 && strcmp(argv[1], "compare") != 0)
		return cli_usage_error("--help", "history: \"%s\": not a history command", argv[1]);
	dbpath = report_history_db_path(dbopt, buf, sizeof(buf));
	if (dbpath == NULL)
		return 1;
	db = report_history_open(dbpath);
	if (db == NULL)
		return 1;
	if (strcmp(argv[1], "add") == 0)
		rc = history_add(db, dbpath, argc - 1, argv + 1);
	else if (strcmp(argv[1], "list") == 0)
		rc = argc == 2 ? history_list(db, dbpath)
			       : cli_usage_error("--help", "history: list takes no argument");
	else if (strcmp(argv[1], "trend") == 0)
		rc = history_trend(db, dbpath, argc - 1, argv + 1);
	else
		rc = history_compare(db, dbpath, argc - 1, argv + 1);
	sqlite3_close(db);
	return rc;
}

int
cmd_history(int argc, char **argv)
{
	const char *dbopt = NULL;
	char **args;
	int i, n = 0, rc;

	if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
		printf("Usage: " HISTORY_USAGE "\n"
		       "Keep runs in a SQLite database (--db, else $PVP_HISTORY_DB, else\n"
		       "~/.local/share/pvpkit/history.sqlite) and look at them over time.\n"
		       "  add [--tag TAG] RESULTS...  store results dirs or results.jsonl files\n"
		       "  list                        the runs kept\n"
		       "  trend --point SIZE,FLOWS [--goal GOAL] [--svg FILE]  each run's figure\n"
		       "      and range (--svg: as a plot, regressions in red)\n"
		       "      (GOAL ndr by default), a regression against the run before\n"
		       "      judged as pvpkit compare does\n"
		       "  compare --baseline TAG      the latest run against the newest one\n"
		       "      tagged TAG, as pvpkit compare; exit status 3 on a regression\n");
		return 0;
	}
	/* --db anywhere: "history list --db F" reads as well as "history --db F list". */
	args = calloc(argc + 1, sizeof(*args));
	if (args == NULL) {
		fprintf(stderr, "pvpkit: history: out of memory\n");
		return 1;
	}
	for (i = 0; i < argc; i++) {
		if (i > 0 && strcmp(argv[i], "--db") == 0 && i + 1 < argc)
			dbopt = argv[++i];
		else
			args[n++] = argv[i];
	}
	rc = history_run(dbopt, n, args);
	free(args);
	return rc;
}
