/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * The pvpkit commands and what they share (private to app/pvpkit). Each
 * command is one file (cmd_<name>.c) with one entry point, listed in
 * main.c's command table; cli.c holds the option parsing and
 * messages every command uses.
 *
 * Exit statuses of every command (the table in doc/man/pvpkit.1): 0
 * done, 1 not measured or not written (a hop unreachable, traffic
 * refused, a file that cannot be written, an invalid trial), 2 bad
 * command line or topology, 3 a regression (compare),
 * CMD_EXIT_CHECK_FAILED a trial measured but a check failed, 128 + N
 * after signal N.
 */

#ifndef CMD_H
#define CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "coord.h"

/**
 * Exit status of a trial, search, run or soak that measured everything
 * but where a truth check failed in some trial (a hop counted more drops
 * than it lost, more packets at a point than at the one before, a burst
 * over --max-burst, the signature accounting disagrees): the results
 * stand, but a CI must not read them as clean. Below 1 (not measured)
 * and signals in precedence.
 */
#define CMD_EXIT_CHECK_FAILED 4

/** Exit status of compare and history compare that found a regression. */
#define CMD_EXIT_REGRESSION 3

/** Default run dir of the local testbed (tools/testbed.sh). */
#define COORD_TESTBED_RUNDIR "/run/pvpkit/testbed"

/** pvpkit trial: one trial and its per-hop table. @return the exit status. */
int cmd_trial(int argc, char **argv);

/** pvpkit search: one point. @return the exit status. */
int cmd_search(int argc, char **argv);

/** pvpkit run: the size x flows matrix and the reports. @return the exit status. */
int cmd_run(int argc, char **argv);

/** pvpkit report RESULTS: rebuild the reports. @return the exit status. */
int cmd_report(int argc, char **argv);

/** pvpkit soak: a long trial read every interval. @return the exit status. */
int cmd_soak(int argc, char **argv);

/** pvpkit compare OLD NEW: @return the exit status (3: a regression). */
int cmd_compare(int argc, char **argv);

/**
 * Compare run summaries @p old and @p new (report_compare(); both are
 * released) and print it as pvpkit compare does: the throughput rows, the
 * latency rows, then "N compared, R regression(s), P progression(s)".
 * @return the comparison with *regr its regressions, or NULL after
 *   "pvpkit: @p who: out of memory".
 */
json_t *cmd_compare_show(json_t *old, json_t *new, const char *who, unsigned int *regr);

/**
 * One side of a comparison row as "1,234 [1,200..1,250]": its figure and
 * its range in pps, "-" for what it lacks. @return @p buf.
 */
const char *cmd_compare_range(const json_t *side, char *buf, size_t len);

/** pvpkit history add|list|trend|compare: runs kept in SQLite. @return the exit status. */
int cmd_history(int argc, char **argv);

/** pvpkit testbed up|down|status: tools/testbed.sh. @return the exit status. */
int cmd_testbed(int argc, char **argv);

/**
 * Print "pvpkit: MESSAGE (see @p see)" on stderr.
 * @return 2, the exit status of a usage error.
 */
int cli_usage_error(const char *see, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Option values, read by lib/util's parsers (base 10 always, no "nan",
 * "inf", hex, blanks or sign on a count) with the same ranges and words
 * as pvpkit-gen and pvpkit-fwd. On a bad value each prints one line,
 * "pvpkit: OPT: "S" must be ...", and returns -EINVAL (@p v untouched);
 * else 0.
 */

/** A whole number in [@p min, @p max] (pvp_parse_u32()). */
int cli_opt_u32(const char *opt, const char *s, uint32_t min, uint32_t max, unsigned int *v);

/** A list "64,128" of pvp_parse_u32() numbers, at most @p cap of them. */
int cli_opt_u32_list(const char *opt, const char *s, uint32_t min, uint32_t max, unsigned int *out,
		     unsigned int cap, unsigned int *n);

/** Seconds with an optional unit, ms s m h (pvp_parse_duration()). */
int cli_opt_duration(const char *opt, const char *s, double min_s, double max_s, double *v);

/**
 * A rate (pvp_rate_parse()): @p pps gets packets per second, or 0 for a
 * bit rate, a percentage or "max" (left to the source, which knows its
 * link). With @p pps_only, only a packet rate is accepted.
 */
int cli_opt_rate(const char *opt, const char *s, bool pps_only, double *pps);

/**
 * Load the topology at @p path (when NULL the local testbed's:
 * $PVP_TESTBED_RUNDIR/topology.json, else COORD_TESTBED_RUNDIR's) and
 * open every hop, printing the error line on failure.
 * @return the topology, or NULL with *status the exit status (2 for a bad
 *   file, 1 for a hop that cannot be opened).
 */
struct coord_topology *cli_open_topology(const char *path, int *status);

/**
 * coord_install_flows(), printing the error line on failure (lib/coord
 * never prints).
 * @return 0, or the failing driver's -errno.
 */
int cli_install_flows(struct coord_topology *t, const char *type, unsigned int flows);

/** Where a command's records go: its results file while that takes them. */
struct cli_sink {
	const char *path; /**< JSON-lines results file, NULL: records are not kept */
	bool not_kept;	  /**< an append failed: every later record goes to stdout */
};

/*
 * Keep record @p j: append it to the sink's file. When that fails (full
 * disk ...), or failed before, the record is printed whole as one JSON
 * line on stdout instead, so nothing measured is lost; the file stays
 * whole JSON lines (pvp_jsonl_append takes a partial line back) and
 * nothing more is written to it. The first failure is said once on
 * stderr: "pvpkit: FILE: reason: WHAT not kept; its JSON line follows on
 * stdout". @return 0 (kept, or no file), or -errno (printed instead).
 */
int cli_sink_keep(struct cli_sink *s, const json_t *j, const char *what);

/**
 * "SIGINT", "SIGTERM" (what coord_interrupted holds once a signal came),
 * else "a signal".
 */
const char *cli_signal_name(int sig);

/**
 * Check before a run that output file @p path (--json, --results) can be
 * written, so a run does not end with nowhere to put what it measured.
 * @return 0, or 1 after the message "pvpkit: OPT: FILE: reason".
 */
int cli_check_output(const char *opt, const char *path);

#endif /* CMD_H */
