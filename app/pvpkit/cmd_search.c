/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit search | run: throughput searches (lib/search) made of trials
 * (coord_trial_run), every trial appended to the results file before the
 * next starts; run then rebuilds the reports from that file alone
 * (app/pvpkit/report). The command line is cmd_search_args.c, one
 * point's search cmd_search_point.c; this file walks the matrix.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "coord.h"
#include "cmd.h"
#include "cli_progress.h"
#include "report.h"
#include "cmd_search.h"
#include "pvp_search.h"
#include "pvp_util.h"

/* run: the reports, rebuilt from the results file alone. @return 0 or 1. */
static int
search_reports(const struct cmd_search_args *a)
{
	struct report_opts opts;
	struct report_info info;
	unsigned int i;
	int ret;

	/* A run's reports include the page people read (report.html). */
	report_opts_init(&opts);
	opts.html = true;
	opts.results = a->o.results;
	memset(&info, 0, sizeof(info));
	ret = report_rebuild(a->o.results, a->out, &opts, &info);
	if (ret < 0) {
		fprintf(stderr, "pvpkit: report: %s\n",
			info.error[0] != '\0'	       ? info.error
			: info.load.warning[0] != '\0' ? info.load.warning
						       : strerror(-ret));
		return 1;
	}
	for (i = 0; i < info.nb_files; i++)
		printf("report: %s/%s\n", a->out, info.files[i]);
	if (info.plot_note[0] != '\0')
		printf("plots: %s\n", info.plot_note);
	return 0;
}

/*
 * Every point of the matrix in turn, until one fails or a signal comes.
 * @return 0 or 1; *kept: whether the results file holds everything;
 *   *checks_failed: trials measured with a failed check.
 */
static int
search_matrix(struct cmd_search_args *a, struct coord_topology *t, bool *kept,
	      unsigned int *checks_failed)
{
	struct cli_progress progress;
	struct cmd_search_point sp = {.a = a, .progress = &progress, .t = t};
	struct cmd_repeats reps;
	unsigned int i, k, r;
	char id[80], group[64];
	int rc = 0;

	/*
	 * The status line: redrawn on stderr when that is a terminal, else
	 * plain lines in order with the trials on stdout.
	 */
	cli_progress_init(&progress, isatty(STDERR_FILENO) ? stderr : stdout,
			  a->nb_sizes * a->nb_flows * a->repeat, a->p.max_time);
	if (cmd_search_run_record(a, t) != 0)
		return 1;
	if (a->lat_floor != NULL && cmd_latency_floor(a) != 0)
		return 1;
	for (i = 0; i < a->nb_sizes && rc == 0 && !coord_interrupted; i++) {
		for (k = 0; k < a->nb_flows && rc == 0 && !coord_interrupted; k++) {
			snprintf(group, sizeof(group), "%ld-%u-%u", (long)time(NULL), a->sizes[i],
				 a->flows[k]);
			sp.size = a->sizes[i];
			sp.flows = a->flows[k];
			sp.group = a->repeat > 1 ? group : NULL;
			memset(&reps, 0, sizeof(reps));
			reps.p = &a->p;
			/* Every search of a point is kept, each under its own id. */
			for (r = 1; r <= a->repeat && rc == 0 && !coord_interrupted; r++) {
				if (a->repeat > 1)
					snprintf(id, sizeof(id), "%s-r%u", group, r);
				else
					snprintf(id, sizeof(id), "%s", group);
				sp.id = id;
				sp.repeat = r;
				/* A search that never started adds an empty result. */
				memset(&sp.last, 0, sizeof(sp.last));
				rc = cmd_search_point_run(&sp) != 0 ? 1 : 0;
				memcpy(reps.goal[reps.n++], sp.last.goal, sizeof(reps.goal[0]));
				reps.remeasured += sp.last.nb_gen_remeasured;
				reps.recovered += sp.last.nb_gen_recovered;
				reps.checks_failed += json_array_size(sp.checks_failed);
				reps.burst_warned += sp.burst_warned;
			}
			if (a->repeat > 1)
				cmd_repeats_show(&reps, group);
			if (a->latency && rc == 0 && !coord_interrupted)
				rc = cmd_latency_point(a, t, sp.size, sp.flows, &reps,
						       &sp.run_checks_failed);
		}
	}
	*kept = !a->sink.not_kept;
	*checks_failed = sp.run_checks_failed;
	json_decref(sp.checks_failed);
	json_decref(sp.lossy_bursts);
	if (coord_interrupted) {
		char at[48] = "";

		if (sp.interrupted_trial != 0)
			snprintf(at, sizeof(at), " during trial %u (traffic stopped)",
				 sp.interrupted_trial);
		fprintf(stderr,
			"pvpkit: interrupted by %s%s: %u finished trial(s) kept in %s, the "
			"search marked partial\n",
			cli_signal_name(coord_interrupted), at, sp.nb_kept, a->o.results);
	}
	return rc;
}

static int
search_or_run(int argc, char **argv, bool run)
{
	struct cmd_search_args *a;
	struct coord_topology *t;
	unsigned int checks_failed = 0;
	bool kept = true;
	int rc, ret;

	a = calloc(1, sizeof(*a));
	if (a == NULL) {
		fprintf(stderr, "pvpkit: out of memory\n");
		return 1;
	}
	rc = cmd_search_parse_args(argc, argv, run, a);
	if (rc == 0 && run && (ret = pvp_mkdir_p(a->out, 0755)) < 0) {
		fprintf(stderr, "pvpkit: %s: %s\n", a->out, strerror(-ret));
		rc = 1;
	}
	/* Before any hop is contacted: a run must not end with nowhere to
	 * put its results. */
	a->sink.path = a->o.results;
	if (rc == 0 && cli_check_output("--results", a->o.results) != 0)
		rc = 1;
	if (rc != 0) {
		free(a);
		return rc < 0 ? 0 : rc;
	}
	t = cli_open_topology(a->o.topology, &rc);
	if (t != NULL) {
		rc = search_matrix(a, t, &kept, &checks_failed);
		coord_topology_free(t);
		printf("results: %s\n", a->o.results);
		/* What is known, also after a signal; nothing when the results
		 * could not be written (the reports would lack them). */
		if (run && kept && search_reports(a) != 0)
			rc = 1;
	}
	free(a);
	if (coord_interrupted)
		return 128 + coord_interrupted;
	/* Measured and kept, but not clean: a CI gating on the exit status sees it. */
	if (rc == 0 && checks_failed > 0) {
		fprintf(stderr,
			"pvpkit: %u trial(s) measured with a failed check (\"[checks failed]\" "
			"above)\n",
			checks_failed);
		rc = CMD_EXIT_CHECK_FAILED;
	}
	return rc;
}

int
cmd_search(int argc, char **argv)
{
	return search_or_run(argc, argv, false);
}

int
cmd_run(int argc, char **argv)
{
	return search_or_run(argc, argv, true);
}
