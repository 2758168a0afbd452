/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * pvpkit search and run (private to app/pvpkit): their command line
 * (coord_search_args.c) and the searches it asks for (coord_cmd_search.c).
 */

#ifndef COORD_SEARCH_H
#define COORD_SEARCH_H

#include <limits.h>
#include <stdbool.h>

#include "pvp_search.h"

/** Most sizes / flow counts in a matrix. */
#define COORD_SEARCH_MAX_LIST 16

/** The command line of search (one point) or run (a matrix). */
struct coord_search_args {
	bool run;				   /**< run: a matrix and the reports */
	const char *topology;			   /**< topology file, NULL = the testbed's */
	const char *results;			   /**< JSON-lines results file */
	const char *profile;			   /**< generator profile, or NULL */
	const char *flow_type;			   /**< rule type for install_flows, or NULL */
	const char *out;			   /**< run: reports directory */
	struct pvp_search_params p;		   /**< the search's parameters */
	double quiet_timeout_s;			   /**< per trial; 0 = the core's default */
	unsigned int max_burst;			   /**< --max-burst, 0 = only record it */
	bool tables;				   /**< print every trial's per-hop table */
	bool goals_given;			   /**< --goal seen: it replaces the default */
	unsigned int nb_sizes;			   /**< entries in sizes[] */
	unsigned int sizes[COORD_SEARCH_MAX_LIST]; /**< frame sizes with FCS */
	unsigned int nb_flows;			   /**< entries in flows[] */
	unsigned int flows[COORD_SEARCH_MAX_LIST]; /**< flow counts */
	char results_buf[PATH_MAX];		   /**< storage for a default results */
};

/**
 * Parse the command line of search (@p run false) or run into @p a, with
 * every default filled in. Errors are printed.
 * @return 0, -1 after --help (exit 0), or 2 (bad usage).
 */
int coord_search_parse_args(int argc, char **argv, bool run, struct coord_search_args *a);

#endif /* COORD_SEARCH_H */
