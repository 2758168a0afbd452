/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit history add|list|trend|compare: runs kept in a SQLite database
 * across releases. Each run is read through the report loader
 * (coord_report_load(), coord_report_summary()), the same figures
 * `pvpkit report` shows; its summary is kept whole next to the tables a
 * query reads (goals, latency, hops), so trend and compare judge runs with
 * coord_report_compare(), the noise-aware rule of `pvpkit compare`, and
 * not a second one. The results directories are only ever read.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>
#include <sqlite3.h>

#include "pvp_util.h"

#include "coord_cmd.h"
#include "coord_report.h"

#define HISTORY_USAGE                                                                          \
	"pvpkit history [--db FILE] add [--tag TAG] RESULTS... | list | "                     \
	"trend --point SIZE,FLOWS [--goal GOAL] | compare --baseline TAG"

/* The exit status of a comparison that found a regression, as compare's. */
#define HISTORY_REGRESSION 3

/* How long a writer waits for another one's transaction, in ms. */
#define HISTORY_BUSY_MS 30000

/*
 * The schema, one step per version: step i takes a database at
 * user_version i to i + 1, in one transaction with the version bump, so a
 * database is at a version or the one before, never between. Version 0
 * is a new (empty) file. A step is never edited once released: a change
 * is a new step.
 */
static const char *const history_steps[] = {
	/* 0 -> 1 */
	"CREATE TABLE runs (id INTEGER PRIMARY KEY, added TEXT NOT NULL, source TEXT NOT NULL,"
	" started TEXT, topology TEXT, dut TEXT, host TEXT, pvpkit_version TEXT, tag TEXT,"
	" summary TEXT NOT NULL);"
	"CREATE TABLE goals (run INTEGER NOT NULL REFERENCES runs(id), size INTEGER NOT NULL,"
	" flows INTEGER NOT NULL, goal TEXT NOT NULL, pps REAL, min_pps REAL, max_pps REAL,"
	" repeats INTEGER, spread REAL, status TEXT);"
	"CREATE TABLE latency (run INTEGER NOT NULL REFERENCES runs(id), size INTEGER NOT NULL,"
	" flows INTEGER NOT NULL, load_pct REAL NOT NULL, rate_pps REAL, p50_ns REAL,"
	" p99_ns REAL, p99_99_ns REAL, max_ns REAL);"
	"CREATE TABLE hops (run INTEGER NOT NULL REFERENCES runs(id), size INTEGER NOT NULL,"
	" flows INTEGER NOT NULL, goal TEXT NOT NULL, trial_pps REAL NOT NULL,"
	" hop TEXT NOT NULL, lost INTEGER NOT NULL);"
	"CREATE INDEX goals_point ON goals (size, flows, goal);"
	"CREATE INDEX runs_tag ON runs (tag);",
};

#define HISTORY_SCHEMA (sizeof(history_steps) / sizeof(history_steps[0]))

/* "pvpkit: history: DB: sqlite's reason" for @p db's last error. @return 1. */
static int
history_db_error(sqlite3 *db, const char *path)
{
	fprintf(stderr, "pvpkit: history: %s: %s\n", path, sqlite3_errmsg(db));
	return 1;
}

/* --db, else $PVP_HISTORY_DB, else ~/.local/share/pvpkit/history.sqlite (made). */
static const char *
history_db_path(const char *opt, char *buf, size_t len)
{
	const char *home;
	int ret;

	if (opt != NULL)
		return opt;
	if (getenv("PVP_HISTORY_DB") != NULL && getenv("PVP_HISTORY_DB")[0] != '\0')
		return getenv("PVP_HISTORY_DB");
	home = getenv("HOME");
	snprintf(buf, len, "%s/.local/share/pvpkit", home != NULL ? home : ".");
	ret = pvp_mkdir_p(buf, 0755);
	if (ret < 0)
		fprintf(stderr, "pvpkit: history: %s: %s\n", buf, strerror(-ret));
	snprintf(buf, len, "%s/.local/share/pvpkit/history.sqlite", home != NULL ? home : ".");
	return buf;
}

/*
 * sqlite3_exec() @p sql, again while another writer holds the file, up to
 * HISTORY_BUSY_MS: where waiting could deadlock (two connections each
 * holding a read lock and both wanting to write, as two first writers
 * switching a new file to WAL do) SQLite answers SQLITE_BUSY at once,
 * without its busy handler, and one of them must let go and try again.
 */
static int
history_exec(sqlite3 *db, const char *sql)
{
	unsigned int ms;
	int rc;

	for (ms = 0;; ms += 10) {
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
		if ((rc & 0xff) != SQLITE_BUSY || ms >= HISTORY_BUSY_MS)
			return rc;
		sqlite3_sleep(10);
	}
}

/* Bring @p db to HISTORY_SCHEMA. 0, or 1 after a message. */
static int
history_migrate(sqlite3 *db, const char *path)
{
	sqlite3_stmt *st;
	char sql[64];
	int ver;

	for (;;) {
		/* Under the write lock, so two first writers do not both create. */
		if (history_exec(db, "BEGIN IMMEDIATE") != SQLITE_OK)
			return history_db_error(db, path);
		if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK ||
		    sqlite3_step(st) != SQLITE_ROW) {
			sqlite3_finalize(st);
			history_db_error(db, path);
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
			return 1;
		}
		ver = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
		if (ver < 0 || (size_t)ver > HISTORY_SCHEMA) {
			fprintf(stderr,
				"pvpkit: history: %s: schema version %d, this pvpkit knows up to "
				"%zu: use a newer pvpkit\n",
				path, ver, HISTORY_SCHEMA);
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
			return 1;
		}
		if ((size_t)ver == HISTORY_SCHEMA)
			return sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK
				       ? 0
				       : history_db_error(db, path);
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", ver + 1);
		if (sqlite3_exec(db, history_steps[ver], NULL, NULL, NULL) != SQLITE_OK ||
		    sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK ||
		    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
			history_db_error(db, path);
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
			return 1;
		}
	}
}

/* Open (create) the database at its current schema. NULL after a message. */
static sqlite3 *
history_open(const char *path)
{
	sqlite3 *db = NULL;
	struct stat st;

	/* SQLite would open a FIFO or a device and fail later on "disk I/O error". */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "pvpkit: history: %s: not a regular file (%s)\n", path,
			pvp_file_kind(st.st_mode));
		return NULL;
	}
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		history_db_error(db, path);
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, HISTORY_BUSY_MS);
	/*
	 * WAL: readers never block the writer, and the first statement that
	 * reads the file says "file is not a database" for a corrupt one.
	 */
	if (history_exec(db, "PRAGMA journal_mode = WAL") != SQLITE_OK ||
	    history_migrate(db, path) != 0) {
		if (sqlite3_errcode(db) != SQLITE_OK && sqlite3_errcode(db) != SQLITE_DONE)
			history_db_error(db, path);
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

/* Bind a JSON string, or NULL when @p v is not one. */
static void
history_bind_str(sqlite3_stmt *st, int i, const json_t *v)
{
	if (json_is_string(v))
		sqlite3_bind_text(st, i, json_string_value(v), -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* Bind a JSON number, or NULL when @p v is not one. */
static void
history_bind_num(sqlite3_stmt *st, int i, const json_t *v)
{
	if (json_is_number(v))
		sqlite3_bind_double(st, i, json_number_value(v));
	else
		sqlite3_bind_null(st, i);
}

/* Step a prepared insert and reset it for the next row. SQLITE_DONE or the error. */
static int
history_step(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc;
}

/*
 * The per-hop losses of the trial nearest @p pps at a point: the trial
 * the NDR stands on, so a later run's loss shows where it moved.
 */
static int
history_add_hops(sqlite3 *db, sqlite3_stmt *st, sqlite3_int64 run, const json_t *recs,
		 const json_t *pt, const char *goal, double pps)
{
	const json_t *rec, *best = NULL, *v;
	double d, best_d = INFINITY;
	const char *hop;
	size_t i;

	json_array_foreach(recs, i, rec) {
		if (!json_equal(json_object_get(rec, "type"), json_string("trial")) ||
		    !json_equal(json_object_get(rec, "size"), json_object_get(pt, "size")) ||
		    !json_equal(json_object_get(rec, "flows"), json_object_get(pt, "flows")) ||
		    json_is_false(json_object_get(rec, "dut_result")) ||
		    !json_is_object(json_object_get(rec, "hop_lost")))
			continue;
		d = fabs(json_number_value(json_object_get(rec, "requested_pps")) - pps);
		if (d < best_d) {
			best_d = d;
			best = rec;
		}
	}
	if (best == NULL)
		return SQLITE_DONE;
	json_object_foreach((json_t *)json_object_get(best, "hop_lost"), hop, v) {
		sqlite3_bind_int64(st, 1, run);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)json_number_value(json_object_get(pt, "size")));
		sqlite3_bind_int64(st, 3, (sqlite3_int64)json_number_value(json_object_get(pt, "flows")));
		sqlite3_bind_text(st, 4, goal, -1, SQLITE_TRANSIENT);
		history_bind_num(st, 5, json_object_get(best, "requested_pps"));
		sqlite3_bind_text(st, 6, hop, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 7, (sqlite3_int64)json_number_value(v));
		if (history_step(st) != SQLITE_DONE)
			return sqlite3_errcode(db);
	}
	return SQLITE_DONE;
}

/* The per-point rows of one run: goals, latency per load, hops. SQLITE_DONE or the error. */
static int
history_add_points(sqlite3 *db, sqlite3_int64 run, const json_t *recs, const json_t *sum)
{
	static const char *const sql[] = {
		"INSERT INTO goals VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
		"INSERT INTO latency VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
		"INSERT INTO hops VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	};
	const json_t *pt, *g, *l;
	sqlite3_stmt *st[3] = {NULL, NULL, NULL};
	const char *name;
	int rc = SQLITE_DONE;
	size_t i, j;

	for (i = 0; i < 3; i++)
		if (sqlite3_prepare_v2(db, sql[i], -1, &st[i], NULL) != SQLITE_OK)
			rc = sqlite3_errcode(db);
	json_array_foreach(json_object_get(sum, "points"), i, pt) {
		json_object_foreach((json_t *)json_object_get(pt, "goals"), name, g) {
			if (rc != SQLITE_DONE)
				break;
			sqlite3_bind_int64(st[0], 1, run);
			history_bind_num(st[0], 2, json_object_get(pt, "size"));
			history_bind_num(st[0], 3, json_object_get(pt, "flows"));
			sqlite3_bind_text(st[0], 4, name, -1, SQLITE_TRANSIENT);
			history_bind_num(st[0], 5, json_object_get(g, "pps"));
			history_bind_num(st[0], 6, json_object_get(g, "min_pps"));
			history_bind_num(st[0], 7, json_object_get(g, "max_pps"));
			history_bind_num(st[0], 8, json_object_get(g, "repeats"));
			history_bind_num(st[0], 9, json_object_get(g, "spread"));
			history_bind_str(st[0], 10, json_object_get(g, "status"));
			rc = history_step(st[0]);
			if (rc == SQLITE_DONE && json_is_number(json_object_get(g, "pps")))
				rc = history_add_hops(db, st[2], run, recs, pt, name,
						      json_number_value(json_object_get(g, "pps")));
		}
		json_array_foreach(json_object_get(pt, "latency"), j, l) {
			if (rc != SQLITE_DONE)
				break;
			sqlite3_bind_int64(st[1], 1, run);
			history_bind_num(st[1], 2, json_object_get(pt, "size"));
			history_bind_num(st[1], 3, json_object_get(pt, "flows"));
			history_bind_num(st[1], 4, json_object_get(l, "load_pct"));
			history_bind_num(st[1], 5, json_object_get(l, "rate_pps"));
			history_bind_num(st[1], 6, json_object_get(l, "p50_ns"));
			history_bind_num(st[1], 7, json_object_get(l, "p99_ns"));
			history_bind_num(st[1], 8, json_object_get(l, "p99_99_ns"));
			history_bind_num(st[1], 9, json_object_get(l, "max_ns"));
			rc = history_step(st[1]);
		}
	}
	for (i = 0; i < 3; i++)
		sqlite3_finalize(st[i]);
	return rc;
}

/* The records of a results dir or file, and their summary. 0, or 1 after a message. */
static int
history_load(const char *arg, json_t **recs, json_t **sum)
{
	struct coord_report_load_info li;
	char path[4096];
	struct stat st;

	memset(&li, 0, sizeof(li));
	if (stat(arg, &st) < 0) {
		fprintf(stderr, "pvpkit: history: %s: %s\n", arg, strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), S_ISDIR(st.st_mode) ? "%s/results.jsonl" : "%s", arg);
	*recs = coord_report_load(path, &li);
	if (*recs == NULL) {
		fprintf(stderr, "pvpkit: history: %s\n",
			li.warning[0] != '\0' ? li.warning : strerror(errno));
		return 1;
	}
	if (li.warning[0] != '\0')
		fprintf(stderr, "pvpkit: warning: %s\n", li.warning);
	*sum = coord_report_summary(*recs, NULL);
	if (*sum == NULL || json_array_size(json_object_get(*sum, "points")) == 0) {
		fprintf(stderr, "pvpkit: history: %s: %s\n", path,
			*sum == NULL && errno == E2BIG ? "more points than a report takes"
			: *sum == NULL		       ? "out of memory"
						       : "no search in it, nothing to keep");
		json_decref(*recs);
		json_decref(*sum);
		return 1;
	}
	return 0;
}

/* One run, in one transaction. 0, or 1 after a message. */
static int
history_add_one(sqlite3 *db, const char *dbpath, const char *arg, const char *tag)
{
	const json_t *m;
	sqlite3_stmt *st = NULL;
	json_t *recs, *sum;
	char *text = NULL, *host = NULL;
	sqlite3_int64 run;
	int rc;

	if (history_load(arg, &recs, &sum) != 0)
		return 1;
	m = json_object_get(sum, "metadata");
	text = json_dumps(sum, JSON_COMPACT | JSON_SORT_KEYS);
	if (json_is_object(json_object_get(m, "host")))
		host = json_dumps(json_object_get(m, "host"), JSON_COMPACT | JSON_SORT_KEYS);
	rc = history_exec(db, "BEGIN IMMEDIATE");
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db,
					"INSERT INTO runs (added, source, started, topology, dut,"
					" host, pvpkit_version, tag, summary) VALUES"
					" (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?1, ?2, ?3, ?4,"
					" ?5, ?6, ?7, ?8)",
					-1, &st, NULL);
	if (rc == SQLITE_OK && text != NULL) {
		sqlite3_bind_text(st, 1, arg, -1, SQLITE_TRANSIENT);
		history_bind_str(st, 2, json_object_get(m, "started"));
		history_bind_str(st, 3, json_object_get(m, "topology"));
		history_bind_str(st, 4, json_object_get(m, "dut"));
		if (host != NULL)
			sqlite3_bind_text(st, 5, host, -1, SQLITE_TRANSIENT);
		history_bind_str(st, 6, json_object_get(m, "pvpkit_version"));
		if (tag != NULL)
			sqlite3_bind_text(st, 7, tag, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 8, text, -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(db);
	} else if (rc == SQLITE_OK) {
		rc = SQLITE_NOMEM;
	}
	sqlite3_finalize(st);
	run = sqlite3_last_insert_rowid(db);
	if (rc == SQLITE_OK)
		rc = history_add_points(db, run, recs, sum) == SQLITE_DONE ? SQLITE_OK
									  : sqlite3_errcode(db);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		history_db_error(db, dbpath);
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	} else {
		printf("run %lld: %s, %zu points%s%s\n", (long long)run, arg,
		       json_array_size(json_object_get(sum, "points")), tag != NULL ? ", tag " : "",
		       tag != NULL ? tag : "");
	}
	free(text);
	free(host);
	json_decref(recs);
	json_decref(sum);
	return rc == SQLITE_OK ? 0 : 1;
}

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
		return coord_cli_usage_error("--help", "history: add: no results to add");
	for (; i < argc; i++)
		if (history_add_one(db, dbpath, argv[i], tag) != 0)
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
		return history_db_error(db, dbpath);
	printf("%4s %-20s %-12s %-8s %-10s %6s  %s\n", "run", "started", "tag", "version",
	       "topology", "points", "source (dut)");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		printf("%4lld %-20s %-12s %-8s %-10s %6d  %s (%s)\n",
		       (long long)sqlite3_column_int64(st, 0), history_col(st, 1),
		       history_col(st, 2), history_col(st, 3), history_col(st, 4),
		       sqlite3_column_int(st, 6), history_col(st, 7), history_col(st, 5));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : history_db_error(db, dbpath);
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
		fprintf(stderr, "pvpkit: history: %s: run %lld: its summary is not JSON\n",
			dbpath, (long long)sqlite3_column_int64(st, 0));
	return sum;
}

/* The row of @p cmp at the point and goal, NULL if none. */
static const json_t *
history_row(const json_t *cmp, unsigned int size, unsigned int flows, const char *goal)
{
	const json_t *row;
	size_t i;

	json_array_foreach(json_object_get(cmp, "rows"), i, row)
		if (json_number_value(json_object_get(row, "size")) == size &&
		    json_number_value(json_object_get(row, "flows")) == flows &&
		    strcmp(json_string_value(json_object_get(row, "goal")) ?: "", goal) == 0)
			return row;
	return NULL;
}

/* The summary's figures of @p goal at a point, NULL if it has none. */
static const json_t *
history_goal(const json_t *sum, unsigned int size, unsigned int flows, const char *goal)
{
	const json_t *pt;
	size_t i;

	json_array_foreach(json_object_get(sum, "points"), i, pt)
		if (json_number_value(json_object_get(pt, "size")) == size &&
		    json_number_value(json_object_get(pt, "flows")) == flows)
			return json_object_get(json_object_get(pt, "goals"), goal);
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

/*
 * Each run measured at the point, oldest first, with its figure and its
 * range, and the verdict of coord_report_compare() against the run before.
 */
static int
history_trend(sqlite3 *db, const char *dbpath, int argc, char **argv)
{
	unsigned int pt[2], n = 0, regr, progr, nregr = 0;
	const char *goal = "ndr", *verdict;
	json_t *prev = NULL, *sum, *cmp;
	const json_t *row, *side;
	char a[32], b[32], c[80];
	sqlite3_stmt *st;
	int i, rc;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--point") == 0 && i + 1 < argc) {
			if (coord_cli_opt_u32_list("--point", argv[++i], 1, 1000000000, pt, 2,
						   &n) != 0)
				return 2;
			if (n != 2)
				return coord_cli_usage_error("--help",
							     "history: --point: \"%s\" must be "
							     "SIZE,FLOWS",
							     argv[i]);
		} else if (strcmp(argv[i], "--goal") == 0 && i + 1 < argc) {
			goal = argv[++i];
		} else {
			return coord_cli_usage_error("--help", "history: usage: %s", HISTORY_USAGE);
		}
	}
	if (n != 2)
		return coord_cli_usage_error("--help", "history: trend: --point SIZE,FLOWS needed");
	if (sqlite3_prepare_v2(db,
			       "SELECT runs.id, started, tag, summary FROM runs JOIN goals ON"
			       " goals.run = runs.id WHERE size = ?1 AND flows = ?2 AND goal = ?3"
			       " ORDER BY runs.id",
			       -1, &st, NULL) != SQLITE_OK)
		return history_db_error(db, dbpath);
	sqlite3_bind_int64(st, 1, pt[0]);
	sqlite3_bind_int64(st, 2, pt[1]);
	sqlite3_bind_text(st, 3, goal, -1, SQLITE_TRANSIENT);
	printf("%u B, %u flows, %s\n%4s %-20s %-12s %30s %8s  %s\n", pt[0], pt[1], goal, "run",
	       "started", "tag", "pps [lo..hi]", "spread", "vs previous");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		sum = history_summary(st, 3, dbpath);
		if (sum == NULL)
			break;
		cmp = coord_report_compare(prev != NULL ? prev : sum, sum, &regr, &progr);
		row = history_row(cmp, pt[0], pt[1], goal);
		side = json_object_get(row, "new");
		verdict = prev == NULL ? "-" : json_string_value(json_object_get(row, "verdict"));
		if (verdict != NULL && strcmp(verdict, "regression") == 0) {
			verdict = "REGRESSION";
			nregr++;
		}
		snprintf(a, sizeof(a), "%s", history_col(st, 1));
		printf("%4lld %-20s %-12s %30s %7s%%  %s\n", (long long)sqlite3_column_int64(st, 0),
		       a, history_col(st, 2),
		       json_is_object(side) ? coord_compare_range(side, c, sizeof(c)) : "-",
		       history_spread_fmt(history_goal(sum, pt[0], pt[1], goal), b, sizeof(b)),
		       verdict != NULL ? verdict : "-");
		json_decref(cmp);
		json_decref(prev);
		prev = sum;
	}
	json_decref(prev);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return rc == SQLITE_ROW ? 1 : history_db_error(db, dbpath);
	printf("%u regression(s)\n", nregr);
	return 0;
}

/* The summary of the newest run, or of the newest with @p tag. NULL after a message. */
static json_t *
history_pick(sqlite3 *db, const char *dbpath, const char *tag, long long *id)
{
	sqlite3_stmt *st;
	json_t *sum = NULL;

	if (sqlite3_prepare_v2(db,
			       tag != NULL ? "SELECT id, summary FROM runs WHERE tag = ?1"
					     " ORDER BY id DESC LIMIT 1"
					   : "SELECT id, summary FROM runs ORDER BY id DESC LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK) {
		history_db_error(db, dbpath);
		return NULL;
	}
	if (tag != NULL)
		sqlite3_bind_text(st, 1, tag, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		sum = history_summary(st, 1, dbpath);
	} else if (sqlite3_errcode(db) != SQLITE_DONE) {
		history_db_error(db, dbpath);
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
	unsigned int regr, progr;
	long long oid, nid;

	if (argc != 3 || strcmp(argv[1], "--baseline") != 0)
		return coord_cli_usage_error("--help", "history: usage: %s", HISTORY_USAGE);
	old = history_pick(db, dbpath, argv[2], &oid);
	if (old == NULL)
		return 1;
	new = history_pick(db, dbpath, NULL, &nid);
	if (new == NULL) {
		json_decref(old);
		return 1;
	}
	printf("old: run %lld (%s), new: run %lld (latest)\n", oid, argv[2], nid);
	cmp = coord_report_compare(old, new, &regr, &progr);
	json_decref(old);
	json_decref(new);
	if (cmp == NULL) {
		fprintf(stderr, "pvpkit: history: out of memory\n");
		return 1;
	}
	coord_compare_print(cmp, regr, progr);
	json_decref(cmp);
	return regr > 0 ? HISTORY_REGRESSION : 0;
}

int
coord_cmd_history(int argc, char **argv)
{
	const char *dbopt = NULL, *dbpath;
	char buf[4096];
	sqlite3 *db;
	int i = 1, rc;

	if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
		printf("Usage: " HISTORY_USAGE "\n"
		       "Keep runs in a SQLite database (--db, else $PVP_HISTORY_DB, else\n"
		       "~/.local/share/pvpkit/history.sqlite) and look at them over time.\n"
		       "  add [--tag TAG] RESULTS...  store results dirs or results.jsonl files\n"
		       "  list                        the runs kept\n"
		       "  trend --point SIZE,FLOWS [--goal GOAL]  each run's figure and range\n"
		       "      (GOAL ndr by default), a regression against the run before\n"
		       "      judged as pvpkit compare does\n"
		       "  compare --baseline TAG      the latest run against the newest one\n"
		       "      tagged TAG, as pvpkit compare; exit status 3 on a regression\n");
		return 0;
	}
	if (argc >= 3 && strcmp(argv[1], "--db") == 0) {
		dbopt = argv[2];
		i = 3;
	}
	if (i >= argc)
		return coord_cli_usage_error("--help", "history: usage: %s", HISTORY_USAGE);
	if (strcmp(argv[i], "add") != 0 && strcmp(argv[i], "list") != 0 &&
	    strcmp(argv[i], "trend") != 0 && strcmp(argv[i], "compare") != 0)
		return coord_cli_usage_error("--help", "history: \"%s\": not a history command",
					     argv[i]);
	dbpath = history_db_path(dbopt, buf, sizeof(buf));
	db = history_open(dbpath);
	if (db == NULL)
		return 1;
	if (strcmp(argv[i], "add") == 0)
		rc = history_add(db, dbpath, argc - i, argv + i);
	else if (strcmp(argv[i], "list") == 0)
		rc = argc - i == 1 ? history_list(db, dbpath)
				   : coord_cli_usage_error("--help", "history: list takes no "
								     "argument");
	else if (strcmp(argv[i], "trend") == 0)
		rc = history_trend(db, dbpath, argc - i, argv + i);
	else
		rc = history_compare(db, dbpath, argc - i, argv + i);
	sqlite3_close(db);
	return rc;
}
