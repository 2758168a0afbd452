/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit trial: one trial through a topology (coord_trial_run) and the
 * per-hop table, optionally kept as JSON and appended to a results file.
 */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_util.h"

#include "coord.h"
#include "cmd.h"
#include "cli_opts.h"
#include "report.h"

/* Where usage errors point. */
#define TRIAL_SEE "pvpkit --help"

/* The command line of a trial. */
struct trial_args {
	struct cli_opts o;	 /* the shared options: the trial's conf */
	const char *json;	 /* --json FILE, or NULL */
	unsigned int flow_rules; /* --flow-rules, 0 = as many as --flows */
	unsigned int max_burst;	 /* --max-burst, 0 = only record it */
};

static void
trial_usage(FILE *f)
{
	fputs("Usage: pvpkit trial [OPTIONS]\n"
	      "\n"
	      "Clear all hops, (warm up,) send at RATE for DURATION, stop, wait until every\n"
	      "hop's counters are quiet, snapshot all hops and print where packets were lost.\n"
	      "\n",
	      f);
	cli_opts_usage(f, CLI_OPT_TRIAL, 22);
	fputs("  --flow-rules N      with --flow-type: install rules for N flows\n"
	      "                      (default --flows; fewer shows table misses)\n"
	      "  --max-burst N       flag the trial if the generator sent more than N packets\n"
	      "                      back to back ahead of its schedule (catch-up after a\n"
	      "                      stall; default: only record the largest burst)\n"
	      "  --json FILE         write the trial as JSON\n"
	      "  --help              this text\n"
	      "\n"
	      "Exit status: 0 measured, 1 not measured (hop unreachable...), not kept or\n"
	      "invalid (a hop restarted or its counters went backwards), 2 bad usage,\n"
	      "130/143 stopped by SIGINT/SIGTERM.\n",
	      f);
}

enum {
	OPT_JSON = 256,
	OPT_FLOW_RULES,
	OPT_MAX_BURST,
	OPT_HELP,
};

/* trial's own options; the shared ones come from cli_opts. */
static const struct option trial_own_opts[] = {
	{"json", required_argument, NULL, OPT_JSON},
	{"flow-rules", required_argument, NULL, OPT_FLOW_RULES},
	{"max-burst", required_argument, NULL, OPT_MAX_BURST},
	{"help", no_argument, NULL, OPT_HELP},
};

#define TRIAL_NB_OWN (sizeof(trial_own_opts) / sizeof(trial_own_opts[0]))

/*
 * One option into @p a. @return 0 to go on, or the exit status: -1 for
 * --help (exit 0 after the usage), 2 for a bad value.
 */
static int
trial_option(struct trial_args *a, const struct option *opts, int opt, const char *arg,
	     const char *word)
{
	char err[128];
	int rc;

	rc = cli_opts_parse(&a->o, opt, arg, TRIAL_SEE);
	if (rc != 0)
		return rc == 1 ? 0 : rc;
	switch (opt) {
	case OPT_JSON:
		a->json = arg;
		return 0;
	case OPT_FLOW_RULES:
		return cli_opt_u32("--flow-rules", arg, 1, 16777216, &a->flow_rules) < 0 ? 2 : 0;
	case OPT_MAX_BURST:
		if (cli_opt_u32("--max-burst", arg, 1, 100000000, &a->max_burst) < 0)
			return 2;
		a->o.conf.max_burst = a->max_burst;
		return 0;
	case OPT_HELP:
		trial_usage(stdout);
		return -1;
	default:
		pvp_opt_error(opts, optopt, word, err, sizeof(err));
		return cli_usage_error(TRIAL_SEE, "trial: %s", err);
	}
}

/* The command line into @p a. @return 0, or the exit status (-1: exit 0). */
static int
trial_parse_args(int argc, char **argv, struct trial_args *a)
{
	struct option opts[TRIAL_NB_OWN + CLI_OPT_NB + 1];
	int opt, rc;

	memset(a, 0, sizeof(*a));
	cli_opts_init(&a->o);
	a->o.conf.traffic.rate = "100kpps";
	a->o.conf.traffic.rate_pps = 100000;
	a->o.conf.traffic.duration_s = 10;
	cli_opts_longopts(CLI_OPT_TRIAL, trial_own_opts, TRIAL_NB_OWN, opts);
	optind = 1;
	opterr = 0;
	while ((opt = pvp_getopt(argc, argv, opts, NULL)) != -1) {
		rc = trial_option(a, opts, opt, optarg, argv[optind - 1]);
		if (rc != 0)
			return rc;
	}
	if (optind < argc)
		return cli_usage_error(TRIAL_SEE, "trial: unexpected argument '%.40s'",
				       argv[optind]);
	if (a->flow_rules != 0 && a->o.conf.traffic.flow_type == NULL)
		return cli_usage_error(TRIAL_SEE, "--flow-rules needs --flow-type");
	return 0;
}

/*
 * Keep and show a measured trial: the results file first (whatever
 * happens next, the trial is kept), then the table, then --json.
 * @return the exit status.
 */
static int
trial_output(const struct trial_args *a, const struct coord_topology *t,
	     const struct coord_trial_result *r)
{
	struct cli_sink sink = {.path = a->o.results};
	json_t *j;
	int rc = 0;

	j = coord_trial_to_json(t, r);
	if (j == NULL) {
		fprintf(stderr, "pvpkit: out of memory\n");
		return 1;
	}
	if (cli_sink_keep(&sink, j, "trial") < 0)
		rc = 1;
	coord_table_print(stdout, t, r);
	fflush(stdout);
	if (a->json != NULL && json_dump_file(j, a->json, JSON_INDENT(2) | JSON_SORT_KEYS) < 0) {
		fprintf(stderr, "pvpkit: %s: cannot write\n", a->json);
		rc = 1;
	}
	json_decref(j);
	if (coord_trial_invalid(r)) {
		/* Kept and shown for the record, but it measured nothing. */
		fprintf(stderr, "pvpkit: trial invalid: %s\n", coord_trial_invalid_reason(r));
		rc = 1;
	} else if (!coord_trial_reconciled(r)) {
		/* A measurement, but not one a CI may take as clean. */
		fprintf(stderr,
			"pvpkit: trial measured, but %u check(s) failed (CHECK FAILED above)\n",
			r->nb_findings + r->nb_lost_findings);
		if (rc == 0)
			rc = CMD_EXIT_CHECK_FAILED;
	}
	return rc;
}

int
cmd_trial(int argc, char **argv)
{
	struct coord_trial_result r;
	struct coord_topology *t;
	struct trial_args a;
	const struct coord_trial_conf *c = &a.o.conf;
	char err[512];
	int rc;

	rc = trial_parse_args(argc, argv, &a);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	/* Before any hop is contacted, not after the trial. */
	if (cli_check_output("--results", a.o.results) != 0 ||
	    cli_check_output("--json", a.json) != 0)
		return 1;
	t = cli_open_topology(a.o.topology, &rc);
	if (t == NULL)
		return rc;
	if (c->traffic.flow_type != NULL &&
	    cli_install_flows(t, c->traffic.flow_type,
			      a.flow_rules != 0 ? a.flow_rules : c->traffic.flows) < 0) {
		coord_topology_free(t);
		return 1;
	}
	if (coord_trial_run(t, c, &r, err, sizeof(err)) < 0) {
		coord_topology_free(t);
		if (coord_interrupted) {
			fprintf(stderr,
				"pvpkit: interrupted by %s: trial not measured (traffic "
				"stopped)\n",
				cli_signal_name(coord_interrupted));
			return 128 + coord_interrupted;
		}
		fprintf(stderr, "pvpkit: trial not measured: %s\n", err);
		return 1;
	}
	rc = trial_output(&a, t, &r);
	coord_trial_result_clear(&r);
	coord_topology_free(t);
	return rc;
}
