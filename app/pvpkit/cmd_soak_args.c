/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit soak's command line: its own options, the search options it
 * passes on word for word, and where the rate comes from (--rate, or a
 * fraction of a PDR found in results or by a search run first).
 */

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_util.h"

#include "coord.h"
#include "cmd.h"
#include "report.h"
#include "cmd_search.h"
#include "cmd_soak.h"

#define SOAK_SEE "pvpkit soak --help"

/*
 * The search options soak passes on, word for word, to the search it
 * runs first when --pdr-fraction comes without --from: pvpkit search
 * parses and checks them, so both commands mean the same by each.
 */
static const char *const soak_search_opts[] = {
	"--max-rate",	      "--min-rate",	  "--goal",	 "--algo",	    "--width",
	"--initial-duration", "--final-duration", "--phases",	 "--max-trials",    "--max-time",
	"--exceed-ratio",     "--duration-sum",	  "--warmup",	 "--gen-remeasure", "--repeat",
	"--preset",	      "--quiet-timeout",  "--max-burst", "--dut",	    "--no-tables",
};

/* soak's own options (cmd_soak_parse()); the shared ones come from cli_opts. */
#define SOAK_NB_OWN_OPTS    9
#define SOAK_NB_SEARCH_OPTS (sizeof(soak_search_opts) / sizeof(soak_search_opts[0]))
/* getopt values of the passed-on options: SOAK_OPT_SEARCH + their index. */
#define SOAK_OPT_SEARCH 1000
/* Words of the search's command line: ours, each passed-on option twice, the goal. */
#define SOAK_SEARCH_ARGV (24 + 2 * 64)

/* The PDR goal a search for a soak looks for when none is given: CSIT's. */
#define SOAK_DEFAULT_PDR "pdr=0.5%"

static void
soak_usage(FILE *f)
{
	fprintf(f, "Usage: pvpkit soak (--rate RATE | --pdr-fraction F [--from RESULTS])\n"
		   "                   --duration D [OPTIONS]\n"
		   "\n"
		   "One long trial at a fixed load, read every --interval without stopping: per\n"
		   "interval the per-hop loss and the latency (from pvpkit-gen's histograms)\n"
		   "are appended to --results as they are read (Ctrl-C keeps them), then the\n"
		   "reports: soak.csv and a plot of loss and latency over time in --out.\n"
		   "\n"
		   "  --pdr-fraction F      a fraction (0.9 or 90%%) of the PDR of this point:\n"
		   "                        the one a run or search found in --from RESULTS,\n"
		   "                        else a search run first through the same topology\n"
		   "                        and kept in --results (PDR goal pdr=0.5%% unless\n"
		   "                        --goal or --preset names one); a PDR of loss\n"
		   "                        alone, never one with a latency bound\n"
		   "  --from RESULTS        results file (or directory) of that run\n"
		   "  --duration D          how long: 90, 30m, 2h (up to 7 days)\n"
		   "  --interval S          between readings (default 1, at least 0.1)\n"
		   "  --out DIR             reports directory (default soak)\n"
		   "  --push-metrics URL    PUT each interval's figures to a Pushgateway:\n"
		   "                        http://HOST:9091/metrics/job/NAME (doc/metrics.rst)\n"
		   "  --metrics-file FILE   replace FILE with each interval's figures\n"
		   "                        (OpenMetrics text)\n"
		   "  --inject AT:HOP:METHOD[:PARAMS]\n"
		   "                        at AT (5, 5.5s, 2m) after the traffic started,\n"
		   "                        call METHOD with the JSON object PARAMS on\n"
		   "                        HOP's control channel: a fault at a known\n"
		   "                        second (5s:guest:impair.set:{\"loss\":1});\n"
		   "                        repeatable, up to 16\n");
	cli_opts_usage(f, CLI_OPT_SOAK, 24);
	fprintf(f, "\n"
		   "The search before the soak (--pdr-fraction without --from) takes pvpkit\n"
		   "search's options: --max-rate (required), --min-rate, --goal, --algo, --width,\n"
		   "--initial-duration, --final-duration, --phases, --max-trials, --max-time,\n"
		   "--exceed-ratio, --duration-sum, --warmup, --gen-remeasure, --repeat,\n"
		   "--preset, --quiet-timeout, --max-burst, --dut, --no-tables (see pvpkit\n"
		   "search --help).\n");
}

int
cmd_soak_pdr(struct soak_args *a, bool searched, double *pps)
{
	struct report_load_info li;
	char path[4096];
	json_t *recs, *sum;
	const json_t *p, *g, *best = NULL;
	char bounded[64] = "";
	const char *name;
	size_t i;

	recs = report_load(a->from, &li);
	if (recs == NULL && errno == EINVAL) {
		struct report_load_info dir_li;

		/* A run's folder; a file that is no results file keeps its own reason. */
		snprintf(path, sizeof(path), "%s/results.jsonl", a->from);
		recs = report_load(path, &dir_li);
		if (recs != NULL || errno != ENOTDIR)
			li = dir_li;
	}
	if (recs == NULL) {
		fprintf(stderr, "pvpkit: --from: %s\n",
			li.warning[0] != '\0' ? li.warning : strerror(errno));
		return 2;
	}
	sum = report_summary(recs, NULL);
	json_decref(recs);
	json_array_foreach(json_object_get(sum, "points"), i, p) {
		if (json_integer_value(json_object_get(p, "size")) != a->o.conf.traffic.size ||
		    json_integer_value(json_object_get(p, "flows")) != a->o.conf.traffic.flows)
			continue;
		/*
		 * The last goal with a loss ratio: the PDR the run searched.
		 * One that bounds latency too (pdr+p99-100us) is the rate
		 * where the latency still held, not where loss set in: a
		 * soak at a fraction of it measures something else.
		 */
		json_object_foreach(json_object_get(p, "goals"), name, g) {
			if (json_number_value(json_object_get(g, "loss_ratio")) <= 0 ||
			    !json_is_number(json_object_get(g, "pps")))
				continue;
			if (json_object_get(g, "latency") != NULL)
				snprintf(bounded, sizeof(bounded), "%s", name);
			else
				best = g;
		}
		if (best != NULL)
			*pps = json_number_value(json_object_get(best, "pps"));
	}
	json_decref(sum);
	if (best == NULL && searched) {
		fprintf(stderr, "pvpkit: soak: the search found no PDR for %u B, %u flows\n",
			a->o.conf.traffic.size, a->o.conf.traffic.flows);
		return 1;
	}
	if (best == NULL) {
		fprintf(stderr,
			"pvpkit: --from: %s has no PDR for %u B, %u flows%s%s%s (search with "
			"--goal pdr=...)\n",
			a->from, a->o.conf.traffic.size, a->o.conf.traffic.flows,
			bounded[0] != '\0' ? ", only " : "", bounded,
			bounded[0] != '\0' ? ", which bounds latency too" : "");
		return 2;
	}
	/*
	 * A PDR of 0 or below (a hand-edited or broken file) is no rate to
	 * soak at: refused as --rate would be, never sent as "max".
	 */
	if (!(*pps * a->pdr_fraction >= PVP_RATE_MIN_PPS &&
	      *pps * a->pdr_fraction <= PVP_RATE_MAX_PPS)) {
		fprintf(stderr,
			"pvpkit: --from: %s: the PDR for %u B, %u flows is %g pps; %g of it is "
			"not a rate (%g..%g pps)\n",
			a->from, a->o.conf.traffic.size, a->o.conf.traffic.flows, *pps,
			a->pdr_fraction, PVP_RATE_MIN_PPS, PVP_RATE_MAX_PPS);
		return searched ? 1 : 2;
	}
	a->o.conf.traffic.rate_pps = *pps * a->pdr_fraction;
	return 0;
}

/*
 * One --inject AT:HOP:METHOD[:PARAMS] into a->inject, kept in the order
 * of their seconds (equal seconds: as given). PARAMS is the rest of the
 * word, colons and all: JSON has them. 0, or 2 after a usage message.
 */
static int
soak_parse_inject(struct soak_args *a, const char *arg)
{
	struct soak_inject in;
	const char *hop, *method, *params;
	char at[32], err[160];
	json_error_t je;
	json_t *j;
	unsigned int i;

	memset(&in, 0, sizeof(in));
	hop = strchr(arg, ':');
	method = hop != NULL ? strchr(hop + 1, ':') : NULL;
	if (method == NULL || hop == arg || method == hop + 1 || method[1] == '\0' ||
	    method[1] == ':')
		goto usage;
	params = strchr(method + 1, ':');
	if ((size_t)(hop - arg) >= sizeof(at) || (size_t)(method - hop - 1) >= sizeof(in.hop) ||
	    (size_t)((params != NULL ? params : method + strlen(method)) - method - 1) >=
		    sizeof(in.method))
		goto usage;
	snprintf(at, sizeof(at), "%.*s", (int)(hop - arg), arg);
	if (pvp_parse_duration("--inject", at, 0, 7 * 86400, &in.at_s, err, sizeof(err)) < 0)
		return cli_usage_error(SOAK_SEE, "%s", err);
	snprintf(in.hop, sizeof(in.hop), "%.*s", (int)(method - hop - 1), hop + 1);
	snprintf(in.method, sizeof(in.method), "%.*s",
		 (int)((params != NULL ? params : method + strlen(method)) - method - 1),
		 method + 1);
	if (params != NULL) {
		in.params = params + 1;
		j = json_loads(in.params, 0, &je);
		if (!json_is_object(j)) {
			json_decref(j);
			return cli_usage_error(SOAK_SEE,
					       "--inject: %s: the parameters must be a JSON "
					       "object (%s)",
					       arg, j == NULL ? je.text : "not an object");
		}
		json_decref(j);
	}
	if (a->nb_inject == SOAK_MAX_INJECT)
		return cli_usage_error(SOAK_SEE, "--inject: at most %d", SOAK_MAX_INJECT);
	for (i = a->nb_inject; i > 0 && a->inject[i - 1].at_s > in.at_s; i--)
		a->inject[i] = a->inject[i - 1];
	a->inject[i] = in;
	a->nb_inject++;
	return 0;
usage:
	return cli_usage_error(SOAK_SEE,
			       "--inject: \"%s\" is not AT:HOP:METHOD[:PARAMS] "
			       "(5s:guest:impair.set:{\"loss\":1})",
			       arg);
}

int
cmd_soak_parse(int argc, char **argv, struct soak_args *a)
{
	struct option opts[SOAK_NB_OWN_OPTS + SOAK_NB_SEARCH_OPTS + CLI_OPT_NB + 1];
	static const struct option own[] = {
		{"pdr-fraction", required_argument, NULL, 'F'},
		{"from", required_argument, NULL, 'f'},
		{"duration", required_argument, NULL, 'd'},
		{"interval", required_argument, NULL, 'i'},
		{"out", required_argument, NULL, 'o'},
		{"push-metrics", required_argument, NULL, 'P'},
		{"metrics-file", required_argument, NULL, 'M'},
		{"inject", required_argument, NULL, 'I'},
		{"help", no_argument, NULL, 'h'},
	};
	char err[160];
	size_t i;
	int opt, rc;

	/* Ours, then the search's that are passed on, then the shared ones and the end. */
	_Static_assert(sizeof(own) / sizeof(own[0]) == SOAK_NB_OWN_OPTS, "soak options");
	memcpy(opts, own, sizeof(own));
	for (i = 0; i < SOAK_NB_SEARCH_OPTS; i++)
		opts[SOAK_NB_OWN_OPTS + i] =
			(struct option){.name = soak_search_opts[i] + 2,
					.has_arg = strcmp(soak_search_opts[i], "--no-tables") == 0
							   ? no_argument
							   : required_argument,
					.val = SOAK_OPT_SEARCH + (int)i};
	cli_opts_longopts(CLI_OPT_SOAK, NULL, 0, &opts[SOAK_NB_OWN_OPTS + SOAK_NB_SEARCH_OPTS]);

	memset(a, 0, sizeof(*a));
	cli_opts_init(&a->o);
	/* A soak's records and its PDR fraction are in packets per second. */
	a->o.pps_only = true;
	a->interval_s = 1;
	a->out = "soak";
	optind = 1;
	opterr = 0;
	while ((opt = pvp_getopt(argc, argv, opts, NULL)) != -1) {
		rc = cli_opts_parse(&a->o, opt, optarg, SOAK_SEE);
		if (rc == 2)
			return 2;
		if (rc == 1)
			continue;
		switch (opt) {
		case 'F':
			if (cmd_search_parse_ratio(optarg, 0.0001, 1, &a->pdr_fraction) < 0)
				return cli_usage_error(SOAK_SEE,
						       "--pdr-fraction: \"%s\" must be in "
						       "(0, 1], like 0.9 or 90%%",
						       optarg);
			break;
		case 'f':
			a->from = optarg;
			break;
		case 'd':
			if (pvp_parse_duration("--duration", optarg, 0.1, 7 * 86400, &a->duration_s,
					       err, sizeof(err)) < 0)
				return cli_usage_error(SOAK_SEE, "%s", err);
			break;
		case 'i':
			if (pvp_parse_duration("--interval", optarg, 0.1, 3600, &a->interval_s, err,
					       sizeof(err)) < 0)
				return cli_usage_error(SOAK_SEE, "%s", err);
			break;
		case 'o':
			a->out = optarg;
			break;
		case 'P':
			a->metrics.push_url = optarg;
			break;
		case 'M':
			a->metrics.file = optarg;
			break;
		case 'I':
			if (soak_parse_inject(a, optarg) != 0)
				return 2;
			break;
		case 'h':
			soak_usage(stdout);
			return -1;
		case '?':
			pvp_opt_error(opts, optopt, argv[optind - 1], err, sizeof(err));
			return cli_usage_error(SOAK_SEE, "soak: %s", err);
		default:
			/* A search option, kept as given for the search. */
			i = (size_t)(opt - SOAK_OPT_SEARCH);
			if (i >= SOAK_NB_SEARCH_OPTS ||
			    a->nb_search_argv + 2 > sizeof(a->search_argv) / sizeof(char *))
				return cli_usage_error(SOAK_SEE, "soak: too many search options");
			a->search_argv[a->nb_search_argv++] = soak_search_opts[i];
			if (opts[SOAK_NB_OWN_OPTS + i].has_arg == required_argument)
				a->search_argv[a->nb_search_argv++] = optarg;
			break;
		}
	}
	if (optind < argc)
		return cli_usage_error(SOAK_SEE, "soak: unexpected argument \"%s\"", argv[optind]);
	if ((a->o.conf.traffic.rate_pps > 0) == (a->pdr_fraction > 0))
		return cli_usage_error(SOAK_SEE, "soak: give --rate or --pdr-fraction, not both");
	if (a->nb_search_argv > 0 && (a->pdr_fraction <= 0 || a->from != NULL))
		return cli_usage_error(SOAK_SEE,
				       "soak: search options (%s ...) are for --pdr-fraction "
				       "without --from",
				       a->search_argv[0]);
	if (a->duration_s <= 0)
		return cli_usage_error(SOAK_SEE, "soak: --duration is required");
	for (i = 0; i < a->nb_inject; i++)
		if (a->inject[i].at_s >= a->duration_s)
			return cli_usage_error(SOAK_SEE,
					       "--inject: at %g s, not within the %g s "
					       "soak",
					       a->inject[i].at_s, a->duration_s);
	return cmd_soak_metrics_check(&a->metrics, SOAK_SEE);
}

int
cmd_soak_search(struct soak_args *a, bool run)
{
	char size[16], flows[16];
	/* The point and the results file (7 words), then what is passed on. */
	const char *argv[SOAK_SEARCH_ARGV] = {
		"search", "--size", size, "--flows", flows, "--results", a->o.results,
	};
	struct cmd_search_args *sa;
	unsigned int i, g;
	bool pdr = false, bounded = false, goal;
	int argc = 7, rc;

	snprintf(size, sizeof(size), "%u", a->o.conf.traffic.size);
	snprintf(flows, sizeof(flows), "%u", a->o.conf.traffic.flows);
	if (a->o.topology != NULL) {
		argv[argc++] = "--topology";
		argv[argc++] = a->o.topology;
	}
	if (a->o.conf.traffic.flow_type != NULL) {
		argv[argc++] = "--flow-type";
		argv[argc++] = a->o.conf.traffic.flow_type;
	}
	for (i = 0; i < a->nb_search_argv; i++)
		argv[argc++] = a->search_argv[i];
	argv[argc] = NULL;
	sa = calloc(1, sizeof(*sa));
	if (sa == NULL) {
		fprintf(stderr, "pvpkit: out of memory\n");
		return 1;
	}
	rc = cmd_search_parse_args(argc, (char **)(uintptr_t)argv, false, sa);
	/* A PDR of loss alone, as cmd_soak_pdr() takes. */
	for (g = 0; rc == 0 && g < sa->p.nb_goals; g++) {
		if (sa->p.loss_ratio[g] <= 0)
			continue;
		if (sa->p.lat_stat[g] == PVP_SEARCH_LAT_NONE)
			pdr = true;
		else
			bounded = true;
	}
	goal = sa->goals_given;
	free(sa);
	if (rc != 0)
		return 2;
	if (!pdr && goal)
		return cli_usage_error(SOAK_SEE,
				       "soak: --pdr-fraction needs a PDR %samong the goals "
				       "(--goal pdr=0.5%%)",
				       bounded ? "without a latency bound " : "");
	if (!pdr) {
		argv[argc++] = "--goal";
		argv[argc++] = SOAK_DEFAULT_PDR;
		argv[argc] = NULL;
	}
	if (!run)
		return 0;
	printf("== soak: searching %u B, %u flows first, for the PDR\n", a->o.conf.traffic.size,
	       a->o.conf.traffic.flows);
	fflush(stdout);
	return cmd_search(argc, (char **)(uintptr_t)argv);
}
