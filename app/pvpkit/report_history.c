/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The database of pvpkit history (report_history.h): its schema and
 * migrations, opening it, and adding a run read through the report loader.
 * The commands that read it are in cmd_history.c.
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

#include "report_history.h"
#include "coord_record.h"
#include "report.h"

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
int
report_history_error(sqlite3 *db, const char *path)
{
	fprintf(stderr, "pvpkit: history: %s: %s\n", path, sqlite3_errmsg(db));
	return 1;
}

/* --db, else $PVP_HISTORY_DB, else ~/.local/share/pvpkit/history.sqlite (made). */
const char *
report_history_db_path(const char *opt, char *buf, size_t len)
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
	if (ret < 0) {
		fprintf(stderr, "pvpkit: history: %s: %s\n", buf, strerror(-ret));
		return NULL;
	}
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
			return report_history_error(db, path);
		if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK ||
		    sqlite3_step(st) != SQLITE_ROW) {
			sqlite3_finalize(st);
			report_history_error(db, path);
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
				       : report_history_error(db, path);
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", ver + 1);
		if (sqlite3_exec(db, history_steps[ver], NULL, NULL, NULL) != SQLITE_OK ||
		    sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK ||
		    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
			report_history_error(db, path);
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
			return 1;
		}
	}
}

/* Open (create) the database at its current schema. NULL after a message. */
sqlite3 *
report_history_open(const char *path)
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
		report_history_error(db, path);
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
			report_history_error(db, path);
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

/*
 * Bind members @p keys (NULL-ended) of @p o from column @p i on: numbers
 * and strings as they are; anything else (absent) is left unbound, NULL.
 */
static void
history_bind(sqlite3_stmt *st, int i, const json_t *o, const char *const *keys)
{
	const json_t *v;

	for (; *keys != NULL; keys++, i++) {
		v = json_object_get(o, *keys);
		if (json_is_number(v))
			sqlite3_bind_double(st, i, json_number_value(v));
		else if (json_is_string(v))
			sqlite3_bind_text(st, i, json_string_value(v), -1, SQLITE_TRANSIENT);
	}
}

/* Step a prepared insert, then reset it and its parameters (NULL). SQLITE_DONE or the error. */
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
	struct coord_trial_record *t = malloc(sizeof(*t)), *best = malloc(sizeof(*best));
	double size = json_number_value(json_object_get(pt, "size"));
	double flows = json_number_value(json_object_get(pt, "flows"));
	double d, best_d = INFINITY;
	const json_t *rec, *v;
	char err[160] = "";
	const char *hop;
	int rc = SQLITE_DONE;
	size_t i;

	json_array_foreach(recs, i, rec) {
		if (t == NULL || best == NULL ||
		    strcmp(json_string_value(json_object_get(rec, "type")) ?: "", "trial") != 0 ||
		    pvp_schema_read(coord_trial_record_members, rec, t, err, sizeof(err)) < 0 ||
		    t->size != size || t->flows != flows || !t->dut_result || t->hop_lost == NULL)
			continue;
		d = fabs(t->requested_pps - pps);
		if (d < best_d) {
			best_d = d;
			*best = *t;
		}
	}
	json_object_foreach(best_d < INFINITY ? best->hop_lost : NULL, hop, v) {
		sqlite3_bind_int64(st, 1, run);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)size);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)flows);
		sqlite3_bind_text(st, 4, goal, -1, SQLITE_TRANSIENT);
		if (best->has_requested)
			sqlite3_bind_double(st, 5, best->requested_pps);
		sqlite3_bind_text(st, 6, hop, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 7, (sqlite3_int64)json_integer_value(v));
		rc = history_step(st);
		if (rc != SQLITE_DONE) {
			rc = sqlite3_errcode(db);
			break;
		}
	}
	free(t);
	free(best);
	return rc;
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
	/* The columns after run (and goal name), as history_steps made them. */
	static const char *const point[] = {"size", "flows", NULL};
	static const char *const goal[] = {"pps",    "min_pps", "max_pps", "repeats",
					   "spread", "status",	NULL};
	static const char *const lat[] = {"load_pct",  "rate_pps", "p50_ns", "p99_ns",
					  "p99_99_ns", "max_ns",   NULL};
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
			history_bind(st[0], 2, pt, point);
			sqlite3_bind_text(st[0], 4, name, -1, SQLITE_TRANSIENT);
			history_bind(st[0], 5, g, goal);
			rc = history_step(st[0]);
			if (rc == SQLITE_DONE && json_is_number(json_object_get(g, "pps")))
				rc = history_add_hops(db, st[2], run, recs, pt, name,
						      json_number_value(json_object_get(g, "pps")));
		}
		json_array_foreach(json_object_get(pt, "latency"), j, l) {
			if (rc != SQLITE_DONE)
				break;
			sqlite3_bind_int64(st[1], 1, run);
			history_bind(st[1], 2, pt, point);
			history_bind(st[1], 4, l, lat);
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
	struct report_load_info li;
	char path[4096];
	struct stat st;

	if (stat(arg, &st) < 0) {
		fprintf(stderr, "pvpkit: history: %s: %s\n", arg, strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), S_ISDIR(st.st_mode) ? "%s/results.jsonl" : "%s", arg);
	*recs = report_load(path, &li);
	if (*recs == NULL) {
		fprintf(stderr, "pvpkit: history: %s\n",
			li.warning[0] != '\0' ? li.warning : strerror(errno));
		return 1;
	}
	if (li.warning[0] != '\0')
		fprintf(stderr, "pvpkit: warning: %s\n", li.warning);
	*sum = report_summary(*recs, NULL);
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
int
report_history_add(sqlite3 *db, const char *dbpath, const char *arg, const char *tag)
{
	/* The run's text columns from its metadata, ?2 to ?5. */
	static const char *const meta[] = {"started", "topology", "dut", "pvpkit_version", NULL};
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
					" pvpkit_version, host, tag, summary) VALUES"
					" (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?1, ?2, ?3, ?4,"
					" ?5, ?6, ?7, ?8)",
					-1, &st, NULL);
	if (rc == SQLITE_OK && text != NULL) {
		sqlite3_bind_text(st, 1, arg, -1, SQLITE_TRANSIENT);
		history_bind(st, 2, m, meta);
		if (host != NULL)
			sqlite3_bind_text(st, 6, host, -1, SQLITE_TRANSIENT);
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
		report_history_error(db, dbpath);
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
