/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit soak's command line (cmd_soak_args.c) as its run
 * (cmd_soak.c) takes it: the options, the PDR a --pdr-fraction is
 * a fraction of, and the search run first when no results give it.
 */

#ifndef CMD_SOAK_H
#define CMD_SOAK_H

#include <stdbool.h>

#include "cli_opts.h"
#include "coord_record.h"
#include "cmd_soak_metrics.h"

/* Injections a soak takes (--inject, repeatable): as many as its records keep. */
#define SOAK_MAX_INJECT COORD_RECORD_MAX_INJECT

/* One --inject AT:HOP:METHOD[:PARAMS]: a control call at a planned second. */
struct soak_inject {
	double at_s;	    /* seconds after the traffic started */
	char hop[64];	    /* the hop's name in the topology */
	char method[64];    /* its control method ("impair.set") */
	const char *params; /* JSON object text (checked), or NULL */
};

/* The command line. */
struct soak_args {
	struct cli_opts o; /* the shared options; o.conf.traffic.rate_pps: --rate, or the
			       * fraction of the PDR */
	const char *out;
	const char *from;    /* results to take the PDR from (--pdr-fraction) */
	double pdr_fraction; /* 0: --rate given */
	double duration_s;   /* planned */
	double interval_s;   /* between readings */
	/* Passed-on search options ("--max-rate", "1Mpps", ...). */
	const char *search_argv[2 * 64];
	unsigned int nb_search_argv; /* words in search_argv */
	/* --inject, in the order of their seconds. */
	struct soak_inject inject[SOAK_MAX_INJECT];
	unsigned int nb_inject; /* used entries of inject */
	/* --push-metrics, --metrics-file. */
	struct cmd_soak_metrics metrics;
};

/*
 * Parse and check soak's command line into @p a. @return 0, -1 (--help
 * printed), or 2 after a usage message.
 */
int cmd_soak_parse(int argc, char **argv, struct soak_args *a);

/*
 * The PDR of (size, flows) in results file or directory a->from, into
 * @p pps, and the soak's rate, a->pdr_fraction of it. @p searched: the
 * search just run wrote it. @return 0, 1 (the search found none) or 2
 * (bad --from) after a message.
 */
int cmd_soak_pdr(struct soak_args *a, bool searched, double *pps);

/*
 * --pdr-fraction without --from: the point searched first, through the
 * same topology and into the same results file, by pvpkit search itself
 * with the passed-on options (and the default PDR goal when no goal or
 * preset names one). @p run false: only check the options, before any hop
 * is contacted. @return 0, 2 (bad options) or the search's exit status.
 */
int cmd_soak_search(struct soak_args *a, bool run);

#endif /* CMD_SOAK_H */
