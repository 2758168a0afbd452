/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * pvpkit search and run (private to app/pvpkit): their command line
 * (cmd_search_args.c) and the searches it asks for (cmd_search.c).
 */

#ifndef CMD_SEARCH_H
#define CMD_SEARCH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "pvp_search.h"

#include "cmd.h"
#include "cli_opts.h"

struct cli_progress;
struct coord_topology;

/** Most latency loads. */
#define CMD_LAT_MAX_LOADS 16
/** Most --repeat. */
#define CMD_SEARCH_MAX_REPEAT 100
/** Most sizes / flow counts in a matrix. */
#define CMD_SEARCH_MAX_LIST 16

/** The command line of search (one point) or run (a matrix). */
struct cmd_search_args {
	bool run;				 /**< run: a matrix and the reports */
	struct cli_opts o;			 /**< the shared options: every trial's conf */
	struct cli_sink sink;			 /**< where records go: results, else stdout */
	const char *out;			 /**< run: reports directory */
	struct pvp_search_params p;		 /**< the search's parameters */
	unsigned int max_burst;			 /**< --max-burst N, 0 = no such check */
	bool burst_auto;			 /**< --max-burst auto (the default) */
	bool tables;				 /**< print every trial's per-hop table */
	bool goals_given;			 /**< --goal seen: it replaces the default */
	unsigned int nb_sizes;			 /**< entries in sizes[] */
	unsigned int sizes[CMD_SEARCH_MAX_LIST]; /**< frame sizes with FCS */
	unsigned int nb_flows;			 /**< entries in flows[] */
	unsigned int flows[CMD_SEARCH_MAX_LIST]; /**< flow counts */
	char results_buf[PATH_MAX];		 /**< storage for a default results */
	unsigned int repeat;			 /**< searches per point, >= 1 */
	const char *preset;			 /**< --preset NAME, or NULL */
	bool latency;				 /**< latency trials after each point */
	unsigned int nb_lat_loads;		 /**< entries in lat_loads[] */
	double lat_loads[CMD_LAT_MAX_LOADS];	 /**< % of the reference rate; 0 = low rate */
	double lat_duration;			 /**< s per latency trial */
	double lat_low_rate;			 /**< pps of the 0 % load */
	const char *lat_floor;			 /**< results of a wire run, or NULL */
	const char *dut;			 /**< --dut: what the user measures */
};

/** The searches of one point, for the line that sums them up. */
struct cmd_repeats {
	unsigned int n;			   /**< searches added */
	const struct pvp_search_params *p; /**< their goals */
	/** Per search, per goal: its bounds and conditional throughput. */
	struct pvp_search_goal_result goal[CMD_SEARCH_MAX_REPEAT][PVP_SEARCH_MAX_GOALS];
	unsigned int remeasured;    /**< generator-limited trials measured again */
	unsigned int recovered;	    /**< of those, sent cleanly */
	unsigned int checks_failed; /**< trials with a failed check, all searches */
	unsigned int burst_warned;  /**< searches that ended with a burst warning */
};

/**
 * The "run" record that makes results comparable, appended first:
 * pvpkit's version, the topology, the user's DUT description, the host
 * (CPU model, CPUs, kernel) and every hop's context (OVS: its version,
 * DPDK's, other_config and the PMD rxq assignment).
 * @return 0, or 1 after a message (not written).
 */
int cmd_search_run_record(struct cmd_search_args *a, struct coord_topology *t);

/** Print "== repeats GROUP: ..." and a line per goal: median, min, max, spread. */
void cmd_repeats_show(const struct cmd_repeats *r, const char *group);

/**
 * The latency step of a point: a trial at each load of @p a (percent of
 * the reference rate its searches @p reps found, 0 = the low fixed rate;
 * a line says it is skipped when they found none), in @p a->repeat rounds
 * of every load, each appended to the results with its "latency" member
 * (load, reference, set, round, rounds), and a line of figures per trial. A
 * trial the results file cannot take is printed whole on stdout.
 * @p checks_failed is incremented for each trial measured with a failed
 * check (its line says "[checks failed]").
 * @return 0, or 1 (a trial not measured or not kept).
 */
int cmd_latency_point(struct cmd_search_args *a, struct coord_topology *t, unsigned int size,
		      unsigned int flows, const struct cmd_repeats *reps,
		      unsigned int *checks_failed);

/**
 * --latency-floor FILE: the tester's floor from a wire run's latency
 * trials (the lowest load), printed and appended to the results as a
 * "latency_floor" record. @return 0, or 1 after a message.
 */
int cmd_latency_floor(struct cmd_search_args *a);

/** One search at one point of the matrix (cmd_search_point.c). */
struct cmd_search_point {
	struct cmd_search_args *a;	/* the command line */
	struct cli_progress *progress;	/* the live progress line */
	struct coord_topology *t;	/* opened topology */
	unsigned int size;		/* frame size with FCS */
	unsigned int flows;		/* flow count */
	const char *id;			/* search id in the results */
	char started[32];		/* UTC, ISO 8601 */
	unsigned int nb_kept;		/* trials in the results file, whole run */
	unsigned int interrupted_trial; /* trial a signal stopped (from 1), or 0 */
	char error[640];		/* why the search stopped early, or "" */
	const char *group;		/* repeat group (the point's id), NULL: no repeats */
	unsigned int repeat;		/* 1-based index of this search in the group */
	struct pvp_search_result last;	/* the last search's result (trials not kept) */
	json_t *checks_failed;		/* this search's trials (from 1) with a failed check */
	json_t *lossy_bursts;		/* [trial, largest burst, rate] of its lossy trials */
	bool has_absorbed;		/* a trial without loss said its largest burst */
	uint64_t absorbed;		/* the largest burst of such a trial, */
	unsigned int absorbed_trial;	/* and which (from 1) */
	bool burst_warned;		/* this search ended with a burst warning */
	unsigned int run_checks_failed; /* trials with a failed check, whole run */
	bool has_lowest;		/* a trial of this search was fed to it */
	double lowest_rate;		/* the lowest rate such a trial ran at, */
	unsigned int lowest_trial;	/* which (from 1), */
	double lowest_loss;		/* its loss ratio, */
	char lowest_where[256];		/* and where it lost ("guest 9, unattributed 0") */
};

/**
 * One search at @p sp's point: its trials, each kept before the next, and
 * the search record; @p sp->last gets the result (without its trials).
 * @return 0, 1 (a trial failed or was not kept, or a signal came) or -errno.
 */
int cmd_search_point_run(struct cmd_search_point *sp);

/**
 * A ratio written plain ("0.005") or in percent ("0.5%"), plain within
 * [@p min, @p max] or percent within 100 times that. @return 0 or -EINVAL.
 */
int cmd_search_parse_ratio(const char *s, double min, double max, double *v);

/**
 * Parse the command line of search (@p run false) or run into @p a, with
 * every default filled in. Errors are printed.
 * @return 0, -1 after --help (exit 0), or 2 (bad usage).
 */
int cmd_search_parse_args(int argc, char **argv, bool run, struct cmd_search_args *a);

#endif /* CMD_SEARCH_H */
