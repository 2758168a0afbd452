/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The command line of pvpkit search and pvpkit run: one table of long
 * options, one handler per kind of value (lists, rates, goals, seconds,
 * ratios, counts), and the defaults that depend on the command.
 */

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pvp_util.h"

#include "coord.h"
#include "cmd.h"
#include "cmd_search.h"

/* Where usage errors point. */
#define SEARCH_SEE "--help"

#define search_bad(...) cli_usage_error(SEARCH_SEE, __VA_ARGS__)

/*
 * search's and run's own options (the shared ones come from cli_opts):
 * the enum value (from 256), the name and whether it takes a value. One
 * list, so the two cannot drift. The latency step's come in a row
 * (LATENCY..LAT_FLOOR): each implies --latency (search_option()).
 */
#define SEARCH_OPTIONS(X)                                                                          \
	X(SIZE, "size", required_argument)                                                         \
	X(SIZES, "sizes", required_argument)                                                       \
	X(FLOWS, "flows", required_argument)                                                       \
	X(MIN_RATE, "min-rate", required_argument)                                                 \
	X(MAX_RATE, "max-rate", required_argument)                                                 \
	X(GOAL, "goal", required_argument)                                                         \
	X(ALGO, "algo", required_argument)                                                         \
	X(WIDTH, "width", required_argument)                                                       \
	X(INITIAL, "initial-duration", required_argument)                                          \
	X(FINAL, "final-duration", required_argument)                                              \
	X(PHASES, "phases", required_argument)                                                     \
	X(MAX_TRIALS, "max-trials", required_argument)                                             \
	X(MAX_TIME, "max-time", required_argument)                                                 \
	X(EXCEED_RATIO, "exceed-ratio", required_argument)                                         \
	X(DURATION_SUM, "duration-sum", required_argument)                                         \
	X(OUT, "out", required_argument)                                                           \
	X(MAX_BURST, "max-burst", required_argument)                                               \
	X(NO_TABLES, "no-tables", no_argument)                                                     \
	X(REPEAT, "repeat", required_argument)                                                     \
	X(PRESET, "preset", required_argument)                                                     \
	X(GEN_REMEASURE, "gen-remeasure", required_argument)                                       \
	X(LATENCY, "latency", no_argument)                                                         \
	X(LAT_LOADS, "latency-loads", required_argument)                                           \
	X(LAT_DURATION, "latency-duration", required_argument)                                     \
	X(LAT_LOW_RATE, "latency-low-rate", required_argument)                                     \
	X(LAT_FLOOR, "latency-floor", required_argument)                                           \
	X(DUT, "dut", required_argument)                                                           \
	X(HELP, "help", no_argument)

enum {
	SOPT_BASE = 255,
#define SEARCH_OPT_ENUM(id, name, has_arg) SOPT_##id,
	SEARCH_OPTIONS(SEARCH_OPT_ENUM)
#undef SEARCH_OPT_ENUM
};

/* clang-format off: it reads the list's expansion as a call and indents the end. */
static const struct option search_own_opts[] = {
#define SEARCH_OPT_LONG(id, name, has_arg) {name, has_arg, NULL, SOPT_##id},
	SEARCH_OPTIONS(SEARCH_OPT_LONG)
#undef SEARCH_OPT_LONG
};
/* clang-format on */

#define SEARCH_NB_OWN (sizeof(search_own_opts) / sizeof(search_own_opts[0]))

static void
search_usage(FILE *f, bool run)
{
	if (run)
		fprintf(f, "Usage: pvpkit run --max-rate RATE [OPTIONS]\n"
			   "\n"
			   "A search per packet size x flow count (like ovs_perf), every trial\n"
			   "appended to --results, then the reports (summary JSON, CSV, plots) in "
			   "--out.\n"
			   "\n"
			   "  --sizes LIST          frame sizes with FCS (default "
			   "64,128,256,512,1024,1514)\n"
			   "  --flows LIST          flow counts (default "
			   "10,1000,10000,100000,1000000)\n"
			   "  --out DIR             reports directory (default results)\n");
	else
		fprintf(f,
			"Usage: pvpkit search --max-rate RATE [OPTIONS]\n"
			"\n"
			"Search one point for the highest rate meeting each goal; every trial is\n"
			"appended to --results with its per-hop table, then the search record.\n"
			"\n"
			"  --size BYTES          frame size with FCS (default 64)\n"
			"  --flows N             flow count (default 1)\n");
	cli_opts_usage(f, run ? CLI_OPT_RUN : CLI_OPT_SEARCH, 24);
	fprintf(f,
		"  --max-rate RATE       highest rate per TX port in pps (1Mpps, 500kpps ...)\n"
		"  --min-rate RATE       lowest rate (default 1kpps)\n"
		"  --goal GOAL           ndr, pdr=0.1%% ... (repeat; default ndr); a latency\n"
		"                        bound after a comma: pdr=0.5%%,p99=100us (p50, p90,\n"
		"                        p99, p999, max; us or ms)\n"
		"  --algo mlr|binary     search algorithm (default mlr)\n"
		"  --width W             relative width goal, e.g. 0.005 or 0.5%% (default 0.5%%)\n"
		"  --initial-duration S  MLR's first trials (default 1)\n"
		"  --final-duration S    final trial duration (default 10)\n"
		"                        (0.01..86400 s; every duration takes ms s m h)\n"
		"  --phases N            MLR intermediate phases, 0..100000 (default 0)\n"
		"  --max-trials N        trial budget per search, 0..100000 (default none)\n"
		"  --max-time S          trial-seconds budget per search (default none)\n"
		"  --exceed-ratio R      share of a rate's trial time that may miss the\n"
		"                        goal (RFC 9971; default 0: no trial may)\n"
		"  --duration-sum S      trial time that decides a rate (RFC 9971;\n"
		"                        default the final duration)\n"
		"  --gen-remeasure N     run a generator-limited trial again up to N times\n"
		"                        before the ceiling moves (default 1)\n"
		"  --repeat N            search each point N times: median, min, max\n"
		"                        and spread in the reports (default 1)\n"
		"  --preset csit         FD.io CSIT's settings for noisy DUTs: goals ndr and\n"
		"                        pdr=0.5%%, 1 s trials, duration sum 21 s, exceed\n"
		"                        ratio 0.5, 1 s warm-up; later options override\n"
		"  --latency             after each point, latency trials at fractions of\n"
		"                        the PDR (NDR without a PDR goal) found\n"
		"  --latency-loads LIST  percent of that rate, 0 = the low rate (default\n"
		"                        0,10,50,90; implies --latency)\n"
		"  --latency-duration S  per latency trial (default 5)\n"
		"  --latency-low-rate R  the 0 %% load (default 1kpps)\n"
		"  --latency-floor FILE  results of a --latency run on a wire topology:\n"
		"                        the tester's floor, stated in the reports\n"
		"  --dut TEXT            what is measured (\"OVS 3.1, 2 PMDs on cores 2,3\"),\n"
		"                        kept in the results for compare\n"
		"  --max-burst N|auto|off  a check on the generator's largest burst after\n"
		"                        a stall: N fails every trial over N packets;\n"
		"                        auto (default) warns of lossy trials whose burst\n"
		"                        is over the largest the path took without loss;\n"
		"                        off only records it\n"
		"  --no-tables           one progress line per trial, no per-hop tables\n"
		"  --help                this text\n");
}

int
cmd_search_parse_ratio(const char *s, double min, double max, double *v)
{
	size_t n = strlen(s);
	bool pct = n > 0 && s[n - 1] == '%';
	char tmp[64];
	double d;

	if (snprintf(tmp, sizeof(tmp), "%.*s", (int)(pct ? n - 1 : n), s) >= (int)sizeof(tmp))
		return -EINVAL;
	if (pvp_parse_double(NULL, tmp, pct ? min * 100 : min, pct ? max * 100 : max, &d, NULL, 0) <
	    0)
		return -EINVAL;
	*v = pct ? d / 100 : d;
	return 0;
}

/* "ndr", "pdr=0.1%", "pdr=0.001" into a loss ratio in [0, 1). */
static bool
search_parse_loss(const char *s, double *ratio)
{
	*ratio = 0;
	return strcasecmp(s, "ndr") == 0 ||
	       (strncasecmp(s, "pdr=", 4) == 0 && cmd_search_parse_ratio(s + 4, 0, 1, ratio) == 0 &&
		*ratio > 0 && *ratio < 1);
}

/* Longest latency bound: ten seconds is no packet's latency through a path. */
#define SEARCH_MAX_LAT_NS 1e10

/*
 * A goal: a loss goal, optionally followed by a latency bound,
 * "pdr=0.5%,p99=100us" (TRex's --max-latency, PROX rapid's thresholds).
 * The statistics: p50, p90, p99, p999 (or p99.9), max.
 */
static int
search_parse_goal(struct cmd_search_args *a, const char *arg)
{
	static const struct {
		const char *name;
		enum pvp_search_lat_stat st;
	} stats[] = {
		{"p50", PVP_SEARCH_LAT_P50},	{"p90", PVP_SEARCH_LAT_P90},
		{"p99", PVP_SEARCH_LAT_P99},	{"p999", PVP_SEARCH_LAT_P999},
		{"p99.9", PVP_SEARCH_LAT_P999}, {"max", PVP_SEARCH_LAT_MAX},
	};
	unsigned int g = a->p.nb_goals, i;
	const char *comma = strchr(arg, ',');
	char loss[64], err[160];
	const char *eq;
	double ns;
	size_t n;

	n = comma != NULL ? (size_t)(comma - arg) : strlen(arg);
	snprintf(loss, sizeof(loss), "%.*s", (int)n, arg);
	if (n >= sizeof(loss) || g >= PVP_SEARCH_MAX_GOALS ||
	    !search_parse_loss(loss, &a->p.loss_ratio[g]))
		return search_bad("--goal: \"%s\" must be ndr or pdr=RATIO (0.1%%, 0.001)", arg);
	a->p.lat_stat[g] = PVP_SEARCH_LAT_NONE;
	a->p.lat_bound_ns[g] = 0;
	if (comma != NULL) {
		eq = strchr(comma + 1, '=');
		n = eq != NULL ? (size_t)(eq - comma - 1) : 0;
		for (i = 0; i < sizeof(stats) / sizeof(stats[0]); i++)
			if (strlen(stats[i].name) == n && strncmp(comma + 1, stats[i].name, n) == 0)
				break;
		if (eq == NULL || i == sizeof(stats) / sizeof(stats[0]))
			return search_bad("--goal: \"%s\": a latency bound is p50, p90, p99, p999 "
					  "or max=TIME (pdr=0.5%%,p99=100us)",
					  arg);
		if (pvp_parse_latency(stats[i].name, eq + 1, 1, SEARCH_MAX_LAT_NS, &ns, err,
				      sizeof(err)) < 0)
			return search_bad("--goal: %s", err);
		a->p.lat_stat[g] = stats[i].st;
		a->p.lat_bound_ns[g] = (uint64_t)llround(ns);
	}
	a->p.nb_goals++;
	return 0;
}

/* --size, --sizes, --flows: lists, in the ranges of the shared table's rows. */
static int
search_opt_list(struct cmd_search_args *a, int opt, const char *arg, const char *oname)
{
	const struct cli_opt_desc *size = &cli_opts[CLI_OPT_SIZE];
	const struct cli_opt_desc *flows = &cli_opts[CLI_OPT_FLOWS];

	if (opt == SOPT_FLOWS) {
		if (cli_opt_u32_list(oname, arg, (uint32_t)flows->min, (uint32_t)flows->max,
				     a->flows, CMD_SEARCH_MAX_LIST, &a->nb_flows) < 0)
			return 2;
		if (!a->run && a->nb_flows != 1)
			return search_bad("--flows: one flow count for search (a list for run)");
		return 0;
	}
	if ((opt == SOPT_SIZE) == a->run)
		return search_bad("%s: use --sizes for run, --size for search", oname);
	return cli_opt_u32_list(oname, arg, (uint32_t)size->min, (uint32_t)size->max, a->sizes,
				CMD_SEARCH_MAX_LIST, &a->nb_sizes) < 0
		       ? 2
		       : 0;
}

#define SEARCH_OFF(m) offsetof(struct cmd_search_args, m)

/*
 * The options that are one number: a packet rate (the search counts
 * packets; a packet rate is never 0), seconds or a count, where it lands
 * and its range. A trial lasts at most a day, as pvpkit trial's and the
 * generator's --duration; budgets and sums of trials may be longer.
 */
static const struct {
	int opt;		/* its getopt value */
	enum cli_opt_kind kind; /* RATE, SECONDS or COUNT */
	double min, max;	/* SECONDS and COUNT: the range */
	size_t off;		/* where it lands in struct cmd_search_args */
} search_numbers[] = {
	{SOPT_MIN_RATE, CLI_OPTK_RATE, 0, 0, SEARCH_OFF(p.min_rate)},
	{SOPT_MAX_RATE, CLI_OPTK_RATE, 0, 0, SEARCH_OFF(p.max_rate)},
	{SOPT_INITIAL, CLI_OPTK_SECONDS, 0.01, 86400, SEARCH_OFF(p.initial_duration)},
	{SOPT_FINAL, CLI_OPTK_SECONDS, 0.01, 86400, SEARCH_OFF(p.final_duration)},
	{SOPT_MAX_TIME, CLI_OPTK_SECONDS, 0.01, 1e6, SEARCH_OFF(p.max_time)},
	{SOPT_DURATION_SUM, CLI_OPTK_SECONDS, 0.01, 1e6, SEARCH_OFF(p.duration_sum)},
	{SOPT_PHASES, CLI_OPTK_COUNT, 0, 100000, SEARCH_OFF(p.intermediate_phases)},
	{SOPT_MAX_TRIALS, CLI_OPTK_COUNT, 0, 100000, SEARCH_OFF(p.max_trials)},
	{SOPT_REPEAT, CLI_OPTK_COUNT, 1, CMD_SEARCH_MAX_REPEAT, SEARCH_OFF(repeat)},
	{SOPT_GEN_REMEASURE, CLI_OPTK_COUNT, 0, PVP_SEARCH_MAX_GEN_REMEASURE,
	 SEARCH_OFF(p.gen_remeasure)},
	{SOPT_LAT_DURATION, CLI_OPTK_SECONDS, 0.01, 86400, SEARCH_OFF(lat_duration)},
	{SOPT_LAT_LOW_RATE, CLI_OPTK_RATE, 0, 0, SEARCH_OFF(lat_low_rate)},
};

/*
 * Option @p opt into @p a if search_numbers has it.
 * @return 0 stored, 2 after a message, -ENOENT not one of them.
 */
static int
search_opt_number(struct cmd_search_args *a, int opt, const char *arg, const char *oname)
{
	void *dst;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(search_numbers) / sizeof(search_numbers[0]); i++)
		if (search_numbers[i].opt == opt)
			break;
	if (i == sizeof(search_numbers) / sizeof(search_numbers[0]))
		return -ENOENT;
	dst = (char *)a + search_numbers[i].off;
	if (search_numbers[i].kind == CLI_OPTK_RATE)
		ret = cli_opt_rate(oname, arg, true, dst);
	else if (search_numbers[i].kind == CLI_OPTK_SECONDS)
		ret = cli_opt_duration(oname, arg, search_numbers[i].min, search_numbers[i].max,
				       dst);
	else
		ret = cli_opt_u32(oname, arg, (uint32_t)search_numbers[i].min,
				  (uint32_t)search_numbers[i].max, dst);
	return ret < 0 ? 2 : 0;
}

/*
 * --preset: settings under a name instead of folklore. csit: FD.io CSIT's
 * MLRsearch for noisy DUTs (NDR and PDR 0.5 %, 1 s trials decided over
 * 21 s with half of the time allowed to miss the goal, a warm-up trial).
 */
static int
search_preset(struct cmd_search_args *a, const char *name)
{
	if (strcmp(name, "csit") != 0)
		return search_bad("--preset: \"%s\" must be csit", name);
	a->preset = "csit";
	a->p.nb_goals = 2;
	a->p.loss_ratio[0] = 0;
	a->p.loss_ratio[1] = 0.005;
	a->p.initial_duration = 1;
	a->p.final_duration = 1;
	a->p.duration_sum = 21;
	a->p.exceed_ratio = 0.5;
	a->p.warmup_duration = 1;
	a->p.width_goal = 0.005;
	return 0;
}

/* --latency-loads. */
static int
search_opt_lat_loads(struct cmd_search_args *a, const char *arg, const char *oname)
{
	char *copy, *tok, *save = NULL, err[160];
	int ret = 0;

	copy = strdup(arg);
	if (copy == NULL)
		return search_bad("out of memory");
	a->nb_lat_loads = 0;
	for (tok = strtok_r(copy, ",", &save); tok != NULL && ret == 0;
	     tok = strtok_r(NULL, ",", &save)) {
		if (a->nb_lat_loads >= CMD_LAT_MAX_LOADS ||
		    pvp_parse_double(oname, tok, 0, 100, &a->lat_loads[a->nb_lat_loads++], err,
				     sizeof(err)) < 0)
			ret = -EINVAL;
	}
	free(copy);
	if (ret < 0 || a->nb_lat_loads == 0)
		return search_bad("--latency-loads: \"%s\" must be up to %d percentages"
				  " in 0..100 (0: the low rate)",
				  arg, CMD_LAT_MAX_LOADS);
	return 0;
}

/*
 * One option into @p a; @p oname is its name for messages, @p word the
 * command-line word it came from. @return 0, -1 (--help) or 2.
 */
static int
search_option(struct cmd_search_args *a, const struct option *opts, int opt, const char *arg,
	      const char *oname, const char *word)
{
	char err[128];
	int rc;

	rc = cli_opts_parse(&a->o, opt, arg, SEARCH_SEE);
	if (rc != 0)
		return rc == 1 ? 0 : rc;
	/* Every latency option implies --latency. */
	if (opt >= SOPT_LATENCY && opt <= SOPT_LAT_FLOOR)
		a->latency = true;
	rc = search_opt_number(a, opt, arg, oname);
	if (rc != -ENOENT)
		return rc;
	switch (opt) {
	case SOPT_SIZE:
	case SOPT_SIZES:
	case SOPT_FLOWS:
		return search_opt_list(a, opt, arg, oname);
	case SOPT_GOAL:
		/* Repeatable: the first one replaces the default (ndr). */
		if (!a->goals_given)
			a->p.nb_goals = 0;
		a->goals_given = true;
		return search_parse_goal(a, arg);
	case SOPT_ALGO:
		if (strcmp(arg, "mlr") == 0)
			a->p.algo = PVP_SEARCH_MLR;
		else if (strcmp(arg, "binary") == 0)
			a->p.algo = PVP_SEARCH_BINARY;
		else
			return search_bad("--algo: \"%s\" must be mlr or binary", arg);
		return 0;
	case SOPT_WIDTH:
		if (cmd_search_parse_ratio(arg, 1e-6, 0.99, &a->p.width_goal) < 0)
			return search_bad("--width: \"%s\" must be like 0.005 or 0.5%%", arg);
		return 0;
	case SOPT_EXCEED_RATIO:
		if (cmd_search_parse_ratio(arg, 0, 0.9999, &a->p.exceed_ratio) < 0)
			return search_bad(
				"--exceed-ratio: \"%s\" must be in [0, 1), like 0.5 or 50%%", arg);
		return 0;
	case SOPT_MAX_BURST:
		/* The words first; else a count, with the count's own message. */
		a->burst_auto = strcmp(arg, "auto") == 0;
		a->max_burst = 0;
		if (a->burst_auto || strcmp(arg, "off") == 0)
			return 0;
		return cli_opt_u32("--max-burst", arg, 1, 100000000, &a->max_burst) < 0 ? 2 : 0;
	case SOPT_PRESET: /* applied before the other options */
	case SOPT_LATENCY:
		return 0;
	case SOPT_LAT_LOADS:
		return search_opt_lat_loads(a, arg, oname);
	case SOPT_LAT_FLOOR:
		a->lat_floor = arg;
		return 0;
	case SOPT_DUT:
		if (strlen(arg) > 1024)
			return search_bad("--dut: at most 1024 characters");
		a->dut = arg;
		return 0;
	case SOPT_OUT:
		if (!a->run)
			return search_bad("%s: only for run", "--out");
		a->out = arg;
		return 0;
	case SOPT_NO_TABLES:
		a->tables = false;
		return 0;
	case SOPT_HELP:
		search_usage(stdout, a->run);
		return -1;
	default:
		pvp_opt_error(opts, optopt, word, err, sizeof(err));
		return search_bad("%s", err);
	}
}

/* What was not given: the matrix (or point) and the results file. */
static void
search_defaults(struct cmd_search_args *a)
{
	static const unsigned int def_sizes[] = {64, 128, 256, 512, 1024, 1514};
	static const unsigned int def_flows[] = {10, 1000, 10000, 100000, 1000000};

	if (a->nb_sizes == 0 && a->run) {
		memcpy(a->sizes, def_sizes, sizeof(def_sizes));
		a->nb_sizes = sizeof(def_sizes) / sizeof(def_sizes[0]);
	} else if (a->nb_sizes == 0) {
		a->sizes[0] = 64;
		a->nb_sizes = 1;
	}
	if (a->nb_flows == 0 && a->run) {
		memcpy(a->flows, def_flows, sizeof(def_flows));
		a->nb_flows = sizeof(def_flows) / sizeof(def_flows[0]);
	} else if (a->nb_flows == 0) {
		a->flows[0] = 1;
		a->nb_flows = 1;
	}
	/* run: OUT/results.jsonl, search: results.jsonl. */
	if (a->o.results == NULL) {
		snprintf(a->results_buf, sizeof(a->results_buf), "%s%sresults.jsonl",
			 a->run ? a->out : "", a->run ? "/" : "");
		a->o.results = a->results_buf;
	}
}

int
cmd_search_parse_args(int argc, char **argv, bool run, struct cmd_search_args *a)
{
	static const double lat_loads[] = {0, 10, 50, 90};
	struct option opts[SEARCH_NB_OWN + CLI_OPT_NB + 1];
	char perr[128] = "";
	char oname[40];
	int opt, li = 0, rc;

	memset(a, 0, sizeof(*a));
	cli_opts_init(&a->o);
	cli_opts_longopts(run ? CLI_OPT_RUN : CLI_OPT_SEARCH, search_own_opts, SEARCH_NB_OWN, opts);
	a->run = run;
	a->tables = true;
	a->out = "results";
	pvp_search_params_init(&a->p);
	a->repeat = 1;
	/* A lossy trial's burst is compared with what the path took without
	 * loss, so a tester's catch-up burst is not read as DUT loss unseen. */
	a->burst_auto = true;
	/* Latency: CSIT's loads (0 = a low fixed rate), 5 s each. */
	memcpy(a->lat_loads, lat_loads, sizeof(lat_loads));
	a->nb_lat_loads = sizeof(lat_loads) / sizeof(lat_loads[0]);
	a->lat_duration = 5;
	a->lat_low_rate = 1000;
	/* The preset first, whatever its place: every other option overrides it. */
	optind = 1;
	opterr = 0;
	while ((opt = pvp_getopt(argc, argv, opts, &li)) != -1) {
		if (opt == SOPT_PRESET && search_preset(a, optarg) != 0)
			return 2;
	}
	optind = 1;
	while ((opt = pvp_getopt(argc, argv, opts, &li)) != -1) {
		/* The option's name for messages, whether --opt=V or --opt V. */
		snprintf(oname, sizeof(oname), "--%s", opt != '?' ? opts[li].name : "");
		rc = search_option(a, opts, opt, optarg, oname, argv[optind - 1]);
		if (rc != 0)
			return rc;
	}
	if (optind < argc)
		return search_bad("unexpected argument '%.40s'", argv[optind]);
	/*
	 * A search's warm-up is a trial of its own at --max-rate (0 turns a
	 * preset's off); every trial after it starts from the shared conf.
	 */
	if ((a->o.given & (1u << CLI_OPT_WARMUP)) != 0)
		a->p.warmup_duration = a->o.conf.warmup_s;
	a->o.conf.warmup_s = 0;
	a->o.conf.max_burst = a->max_burst;
	if (a->p.max_rate <= 0)
		return search_bad("%s is required", "--max-rate");
	if (pvp_search_params_check(&a->p, perr, sizeof(perr)) < 0)
		return search_bad("search parameters: %s", perr);
	search_defaults(a);
	return 0;
}
