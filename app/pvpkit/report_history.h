/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * The database of pvpkit history (private to app/pvpkit): SQLite, schema
 * version in PRAGMA user_version, WAL. Every function prints its error as
 * one line "pvpkit: history: ..." on stderr.
 */

#ifndef REPORT_HISTORY_H
#define REPORT_HISTORY_H

#include <stddef.h>

#include <sqlite3.h>

/** Print "pvpkit: history: @p path: sqlite's reason" for @p db's last error. @return 1. */
int report_history_error(sqlite3 *db, const char *path);

/**
 * The database's path: @p opt (--db) when not NULL, else $PVP_HISTORY_DB,
 * else ~/.local/share/pvpkit/history.sqlite, its directory made.
 * @return @p opt, the environment's string or @p buf; NULL after a
 *   message when the directory cannot be made.
 */
const char *report_history_db_path(const char *opt, char *buf, size_t len);

/**
 * Open (create) the database at @p path and migrate it to the current
 * schema. @return the handle (sqlite3_close() it), or NULL after a message.
 */
sqlite3 *report_history_open(const char *path);

/**
 * Keep the run in @p arg (a results directory or file, read with
 * report_load()) in one transaction, tagged @p tag (or NULL), and
 * print "run ID: ARG, N points". @return 0, or 1 after a message.
 */
int report_history_add(sqlite3 *db, const char *dbpath, const char *arg, const char *tag);

#endif /* REPORT_HISTORY_H */
