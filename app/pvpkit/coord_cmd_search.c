/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit search | run | report: throughput searches (lib/search) made of
 * trials (coord_trial_run), every trial appended to the results file
 * before the next starts, and the reports rebuilt from that file alone
 * (app/pvpkit/report).
 */

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "coord.h"
#include "coord_cmd.h"
#include "coord_progress.h"
#include "coord_report.h"
#include "pvp_search.h"

/** Most sizes / flow counts in a matrix. */
#define CMD_MAX_LIST 16

/** What search and run share. */
struct cmd_search_opts {
	const char *topology;
	const char *results;
	const char *profile;
	const char *flow_type;	    /**< OpenFlow rule type for install_flows, or NULL */
	struct pvp_search_params p; /**< the search's parameters */
	double quiet_timeout_s;
	bool tables;			/**< print every trial's per-hop table */
	struct coord_progress progress; /**< the live progress line */
	bool goals_given;		/**< --goal seen: replace the default */
};

static int __attribute__((format(printf, 1, 2))) cmd_bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pvpkit: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see --help)\n");
	return 2;
}

/* "ndr", "pdr=0.1%", "pdr=0.001" into a loss ratio. */
static int
cmd_parse_goal(const char *s, double *ratio)
{
	char *end;
	double v;

	if (strcasecmp(s, "ndr") == 0) {
		*ratio = 0;
		return 0;
	}
	if (strncasecmp(s, "pdr=", 4) != 0)
		return -EINVAL;
	v = strtod(s + 4, &end);
	if (end == s + 4 || v < 0 || !isfinite(v))
		return -EINVAL;
	if (strcmp(end, "%") == 0)
		v /= 100;
	else if (*end != '\0')
		return -EINVAL;
	if (v <= 0 || v >= 1)
		return -EINVAL;
	*ratio = v;
	return 0;
}

static int
cmd_parse_num(const char *s, double min, double max, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || *v < min || *v > max)
		return -EINVAL;
	return 0;
}

static int
cmd_parse_list(const char *s, unsigned long min, unsigned long max, unsigned int *out,
	       unsigned int *n)
{
	char *copy = strdup(s), *tok, *save = NULL, *end;
	unsigned long v;

	*n = 0;
	if (copy == NULL)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		errno = 0;
		v = strtoul(tok, &end, 10);
		if (errno != 0 || end == tok || *end != '\0' || tok[0] == '-' || v < min ||
		    v > max || *n >= CMD_MAX_LIST) {
			free(copy);
			return -EINVAL;
		}
		out[(*n)++] = (unsigned int)v;
	}
	free(copy);
	return *n > 0 ? 0 : -EINVAL;
}

enum {
	SOPT_TOPOLOGY = 256,
	SOPT_SIZE,
	SOPT_FLOWS,
	SOPT_SIZES,
	SOPT_PROFILE,
	SOPT_MIN_RATE,
	SOPT_MAX_RATE,
	SOPT_GOAL,
	SOPT_ALGO,
	SOPT_WIDTH,
	SOPT_INITIAL,
	SOPT_FINAL,
	SOPT_PHASES,
	SOPT_MAX_TRIALS,
	SOPT_MAX_TIME,
	SOPT_EXCEED_RATIO,
	SOPT_DURATION_SUM,
	SOPT_RESULTS,
	SOPT_OUT,
	SOPT_FLOW_TYPE,
	SOPT_QUIET_TIMEOUT,
	SOPT_NO_TABLES,
	SOPT_HELP,
};

static const struct option search_longopts[] = {
	{"topology", required_argument, NULL, SOPT_TOPOLOGY},
	{"size", required_argument, NULL, SOPT_SIZE},
	{"sizes", required_argument, NULL, SOPT_SIZES},
	{"flows", required_argument, NULL, SOPT_FLOWS},
	{"profile", required_argument, NULL, SOPT_PROFILE},
	{"min-rate", required_argument, NULL, SOPT_MIN_RATE},
	{"max-rate", required_argument, NULL, SOPT_MAX_RATE},
	{"goal", required_argument, NULL, SOPT_GOAL},
	{"algo", required_argument, NULL, SOPT_ALGO},
	{"width", required_argument, NULL, SOPT_WIDTH},
	{"initial-duration", required_argument, NULL, SOPT_INITIAL},
	{"final-duration", required_argument, NULL, SOPT_FINAL},
	{"phases", required_argument, NULL, SOPT_PHASES},
	{"max-trials", required_argument, NULL, SOPT_MAX_TRIALS},
	{"max-time", required_argument, NULL, SOPT_MAX_TIME},
	{"exceed-ratio", required_argument, NULL, SOPT_EXCEED_RATIO},
	{"duration-sum", required_argument, NULL, SOPT_DURATION_SUM},
	{"results", required_argument, NULL, SOPT_RESULTS},
	{"out", required_argument, NULL, SOPT_OUT},
	{"flow-type", required_argument, NULL, SOPT_FLOW_TYPE},
	{"quiet-timeout", required_argument, NULL, SOPT_QUIET_TIMEOUT},
	{"no-tables", no_argument, NULL, SOPT_NO_TABLES},
	{"help", no_argument, NULL, SOPT_HELP},
	{NULL, 0, NULL, 0},
};

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
			   "  --out DIR             reports directory (default results)\n"
			   "  --flow-type TYPE      have the vswitch install TYPE rules (normal, "
			   "l2, l3,\n"
			   "                        l4) for each flow count and check them\n");
	else
		fprintf(f,
			"Usage: pvpkit search --max-rate RATE [OPTIONS]\n"
			"\n"
			"Search one point for the highest rate meeting each goal; every trial is\n"
			"appended to --results with its per-hop table, then the search record.\n"
			"\n"
			"  --size BYTES          frame size with FCS (default 64)\n"
			"  --flows N             flow count (default 1)\n"
			"  --profile FILE        generator profile instead of --size/--flows\n");
	fprintf(f,
		"  --topology FILE       (default: the local testbed's topology.json)\n"
		"  --max-rate RATE       highest rate per TX port in pps (1Mpps, 500kpps ...)\n"
		"  --min-rate RATE       lowest rate (default 1kpps)\n"
		"  --goal GOAL           ndr, pdr=0.1%% ... (repeat; default ndr)\n"
		"  --algo mlr|binary     search algorithm (default mlr)\n"
		"  --width W             relative width goal, e.g. 0.005 or 0.5%% (default 0.5%%)\n"
		"  --initial-duration S  MLR's first trials (default 1)\n"
		"  --final-duration S    final trial duration (default 10)\n"
		"  --phases N            MLR intermediate phases (default 1)\n"
		"  --max-trials N        trial budget per search (default none)\n"
		"  --max-time S          trial-seconds budget per search (default none)\n"
		"  --exceed-ratio R      share of a rate's trial time that may miss the\n"
		"                        goal (RFC 9971; default 0: no trial may)\n"
		"  --duration-sum S      trial time that decides a rate (RFC 9971;\n"
		"                        default the final duration)\n"
		"  --results FILE        JSON-lines results (default results.jsonl, or\n"
		"                        OUT/results.jsonl for run)\n"
		"  --quiet-timeout S     see pvpkit trial --help\n"
		"  --no-tables           one progress line per trial, no per-hop tables\n"
		"  --help                this text\n");
}

/* One search at one point. @return 0, 1 (a trial failed) or -errno. */
static int
search_point(struct coord_topology *t, struct cmd_search_opts *o, unsigned int size,
	     unsigned int flows, const char *id)
{
	struct coord_trial_conf c = {
		.size = size,
		.flows = flows,
		.profile = o->profile,
		.quiet_timeout_s = o->quiet_timeout_s,
		.flow_type = o->flow_type,
	};
	struct pvp_search_measurement m;
	struct pvp_search_result res;
	struct coord_trial_result r;
	struct pvp_search_trial st;
	struct pvp_search *s;
	char err[512], a[32], b[32], started[32];
	unsigned int g, pdr = 0;
	json_t *j, *rec;
	time_t now;
	struct tm tm;
	int ret, rc = 0;

	now = time(NULL);
	gmtime_r(&now, &tm);
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (o->flow_type != NULL && coord_install_flows(t, o->flow_type, flows) < 0)
		return 1;
	s = pvp_search_create(&o->p);
	if (s == NULL) {
		fprintf(stderr, "pvpkit: search: %s\n", strerror(errno));
		return -errno;
	}
	coord_progress_point(&o->progress, size, flows);
	printf("== search %s: %u B, %u flows, %s, max %s pps, width %.2f %%\n", id, size, flows,
	       o->p.algo == PVP_SEARCH_MLR ? "mlr" : "binary",
	       coord_fmt_count((int64_t)o->p.max_rate, a, sizeof(a)), o->p.width_goal * 100);
	while (pvp_search_next(s, &st) == 0) {
		c.rate = NULL;
		c.rate_pps = st.rate;
		c.duration_s = st.duration;
		coord_progress_trial(&o->progress, st.index + 1, st.rate, st.duration);
		ret = coord_trial_run(t, &c, &r, err, sizeof(err));
		coord_progress_clear(&o->progress);
		if (ret < 0) {
			coord_progress_result(&o->progress, st.index + 1, st.rate, st.duration, -1);
			coord_progress_clear(&o->progress);
			fprintf(stderr, "pvpkit: trial %u not measured: %s\n", st.index + 1, err);
			rc = 1;
			break;
		}
		j = coord_trial_to_json(t, &r);
		if (j != NULL) {
			json_object_set_new(j, "search",
					    json_pack("{s:s,s:I,s:I,s:I}", "id", id, "trial",
						      (json_int_t)st.index, "phase",
						      (json_int_t)st.phase, "goal",
						      (json_int_t)st.goal));
			ret = coord_report_append(o->results, j);
			json_decref(j);
			if (ret < 0) {
				fprintf(stderr, "pvpkit: %s: %s\n", o->results, strerror(-ret));
				coord_trial_result_clear(&r);
				rc = 1;
				break;
			}
		}
		printf("-- trial %u (phase %u/%u): %s pps for %.1f s: lost %s of %s (%.4f %%)%s\n",
		       st.index + 1, st.phase, st.nb_phases,
		       coord_fmt_count((int64_t)st.rate, a, sizeof(a)), st.duration,
		       coord_fmt_count((int64_t)r.tx_packets - (int64_t)r.rx_packets, b, sizeof(b)),
		       coord_fmt_count((int64_t)r.tx_packets, err, sizeof(err)),
		       100 * coord_trial_loss_ratio(&r),
		       r.traffic.generator_limited ? " [generator-limited]" : "");
		if (o->tables)
			coord_table_print(stdout, t, &r);
		fflush(stdout);
		coord_progress_result(&o->progress, st.index + 1, st.rate, st.duration,
				      100 * coord_trial_loss_ratio(&r));
		memset(&m, 0, sizeof(m));
		m.achieved_rate = r.traffic.achieved_pps;
		m.tx = r.tx_packets;
		m.rx = r.rx_packets;
		m.generator_limited = r.traffic.generator_limited;
		coord_trial_result_clear(&r);
		pvp_search_feed(s, &m);
	}
	coord_progress_clear(&o->progress);
	coord_progress_point_done(&o->progress);
	pvp_search_get_result(s, &res);
	rec = coord_report_search_record(&o->p, &res, size, flows);
	if (rec != NULL) {
		json_object_set_new(rec, "id", json_string(id));
		json_object_set_new(rec, "started", json_string(started));
		json_object_set_new(rec, "topology", json_string(t->name));
		if (rc != 0)
			json_object_set_new(rec, "failed", json_true());
		ret = coord_report_append(o->results, rec);
		if (ret < 0) {
			fprintf(stderr, "pvpkit: %s: %s\n", o->results, strerror(-ret));
			rc = 1;
		}
		json_decref(rec);
	}
	printf("== search %s: %u trials, %.1f trial-seconds%s%s\n", id, res.nb_trials,
	       res.total_time, res.budget_exhausted ? ", budget exhausted" : "",
	       res.aborted ? ", aborted: the generator could not send" : "");
	for (g = 0; g < res.nb_goals; g++) {
		const struct pvp_search_goal_result *gr = &res.goal[g];
		char name[32];

		coord_report_goal_name(gr->loss_ratio, pdr, name, sizeof(name));
		if (gr->loss_ratio != 0)
			pdr++;
		printf("   %-8s %s: lower %s pps, upper %s pps, width %.2f %%%s%s\n", name,
		       pvp_search_goal_status_name(gr->status),
		       gr->has_lower ? coord_fmt_count((int64_t)gr->lower_bound, a, sizeof(a))
				     : "-",
		       gr->has_upper ? coord_fmt_count((int64_t)gr->upper_bound, b, sizeof(b))
				     : "-",
		       gr->rel_width * 100,
		       gr->reached_max_rate ? " (reached the maximum rate)" : "",
		       gr->generator_limited ? " (the generator, not the DUT, was the limit)" : "");
	}
	if (res.nb_gen_limited > 0)
		printf("   %u generator-limited trial(s), not counted as DUT results; generator"
		       " ceiling %s pps\n",
		       res.nb_gen_limited, coord_fmt_count((int64_t)res.gen_ceiling, a, sizeof(a)));
	fflush(stdout);
	pvp_search_destroy(s);
	return rc;
}

/* mkdir -p for the reports directory. */
static int
mkdir_p(const char *path)
{
	char buf[PATH_MAX], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

static int
cmd_search_or_run(int argc, char **argv, bool run)
{
	static const unsigned int def_sizes[] = {64, 128, 256, 512, 1024, 1514};
	static const unsigned int def_flows[] = {10, 1000, 10000, 100000, 1000000};
	unsigned int sizes[CMD_MAX_LIST], flows[CMD_MAX_LIST], nb_sizes = 0, nb_flows = 0;
	struct cmd_search_opts o = {.tables = true};
	char topo_buf[PATH_MAX], results_buf[PATH_MAX], err[512], id[64];
	const char *out = "results", *perr = NULL;
	struct coord_topology *t;
	unsigned int i, k, v;
	double d, pps;
	int opt, li = 0, rc = 0;
	char oname[40];

	pvp_search_params_init(&o.p);
	o.p.min_rate = 1000;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", search_longopts, &li)) != -1) {
		/* The option's name for messages, whether --opt=V or --opt V. */
		snprintf(oname, sizeof(oname), "--%s",
			 opt >= SOPT_TOPOLOGY && opt < SOPT_HELP ? search_longopts[li].name : "");
		switch (opt) {
		case SOPT_TOPOLOGY:
			o.topology = optarg;
			break;
		case SOPT_SIZE:
		case SOPT_SIZES:
			if ((opt == SOPT_SIZE) == run)
				return cmd_bad("%s: use --sizes for run, --size for search", oname);
			if (cmd_parse_list(optarg, 64, 9216, sizes, &nb_sizes) < 0)
				return cmd_bad("sizes: \"%s\" must be 64..9216 (comma-separated)",
					       optarg);
			break;
		case SOPT_FLOWS:
			if (cmd_parse_list(optarg, 1, 16777216, flows, &nb_flows) < 0 ||
			    (!run && nb_flows != 1))
				return cmd_bad(
					"--flows: \"%s\" must be 1..16777216 (a list for run,"
					" one count for search)",
					optarg);
			break;
		case SOPT_PROFILE:
			o.profile = optarg;
			break;
		case SOPT_MIN_RATE:
		case SOPT_MAX_RATE:
			if (coord_rate_parse(optarg, &pps) < 0 || pps <= 0)
				return cmd_bad(
					"rate: \"%s\" must be a packet rate (100000, 500kpps,"
					" 1Mpps)",
					optarg);
			if (opt == SOPT_MIN_RATE)
				o.p.min_rate = pps;
			else
				o.p.max_rate = pps;
			break;
		case SOPT_GOAL:
			if (!o.goals_given) {
				o.p.nb_goals = 0;
				o.goals_given = true;
			}
			if (o.p.nb_goals >= PVP_SEARCH_MAX_GOALS ||
			    cmd_parse_goal(optarg, &o.p.loss_ratio[o.p.nb_goals]) < 0)
				return cmd_bad(
					"--goal: \"%s\" must be ndr or pdr=RATIO (0.1%%, 0.001)",
					optarg);
			o.p.nb_goals++;
			break;
		case SOPT_ALGO:
			if (strcmp(optarg, "mlr") == 0)
				o.p.algo = PVP_SEARCH_MLR;
			else if (strcmp(optarg, "binary") == 0)
				o.p.algo = PVP_SEARCH_BINARY;
			else
				return cmd_bad("--algo: \"%s\" must be mlr or binary", optarg);
			break;
		case SOPT_WIDTH: {
			char tmp[64];
			size_t n = strlen(optarg);
			bool pct = n > 0 && optarg[n - 1] == '%';

			snprintf(tmp, sizeof(tmp), "%.*s", (int)(pct ? n - 1 : n), optarg);
			if (cmd_parse_num(tmp, 1e-6, pct ? 99 : 0.99, &d) < 0)
				return cmd_bad("--width: \"%s\" must be like 0.005 or 0.5%%",
					       optarg);
			o.p.width_goal = pct ? d / 100 : d;
			break;
		}
		case SOPT_INITIAL:
		case SOPT_FINAL:
		case SOPT_MAX_TIME:
		case SOPT_QUIET_TIMEOUT:
			if (cmd_parse_num(optarg, 0.01, 1e6, &d) < 0)
				return cmd_bad("%s: must be a positive number of seconds", oname);
			if (opt == SOPT_INITIAL)
				o.p.initial_duration = d;
			else if (opt == SOPT_FINAL)
				o.p.final_duration = d;
			else if (opt == SOPT_MAX_TIME)
				o.p.max_time = d;
			else
				o.quiet_timeout_s = d;
			break;
		case SOPT_EXCEED_RATIO: {
			char tmp[64];
			size_t n = strlen(optarg);
			bool pct = n > 0 && optarg[n - 1] == '%';

			snprintf(tmp, sizeof(tmp), "%.*s", (int)(pct ? n - 1 : n), optarg);
			if (cmd_parse_num(tmp, 0, pct ? 99.99 : 0.9999, &d) < 0)
				return cmd_bad("--exceed-ratio: \"%s\" must be in [0, 1), like 0.5 "
					       "or 50%%",
					       optarg);
			o.p.exceed_ratio = pct ? d / 100 : d;
			break;
		}
		case SOPT_DURATION_SUM:
			if (cmd_parse_num(optarg, 0.01, 1e6, &d) < 0)
				return cmd_bad("%s: must be a positive number of seconds", oname);
			o.p.duration_sum = d;
			break;
		case SOPT_PHASES:
		case SOPT_MAX_TRIALS:
			if (cmd_parse_list(optarg, 0, 100000, &v, &k) < 0 || k != 1)
				return cmd_bad("%s: must be a count", oname);
			if (opt == SOPT_PHASES)
				o.p.intermediate_phases = v;
			else
				o.p.max_trials = v;
			break;
		case SOPT_RESULTS:
			o.results = optarg;
			break;
		case SOPT_OUT:
			if (!run)
				return cmd_bad("%s: only for run", "--out");
			out = optarg;
			break;
		case SOPT_FLOW_TYPE:
			o.flow_type = optarg;
			break;
		case SOPT_NO_TABLES:
			o.tables = false;
			break;
		case SOPT_HELP:
			search_usage(stdout, run);
			return 0;
		default:
			return cmd_bad("unknown option or missing value: %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cmd_bad("unexpected argument \"%s\"", argv[optind]);
	if (o.p.max_rate <= 0)
		return cmd_bad("%s is required", "--max-rate");
	if (pvp_search_params_check(&o.p, &perr) < 0)
		return cmd_bad("search parameters: %s", perr);
	if (nb_sizes == 0) {
		if (run) {
			memcpy(sizes, def_sizes, sizeof(def_sizes));
			nb_sizes = sizeof(def_sizes) / sizeof(def_sizes[0]);
		} else {
			sizes[0] = 64;
			nb_sizes = 1;
		}
	}
	if (nb_flows == 0) {
		if (run) {
			memcpy(flows, def_flows, sizeof(def_flows));
			nb_flows = sizeof(def_flows) / sizeof(def_flows[0]);
		} else {
			flows[0] = 1;
			nb_flows = 1;
		}
	}
	if (run && mkdir_p(out) < 0) {
		fprintf(stderr, "pvpkit: %s: %s\n", out, strerror(errno));
		return 1;
	}
	if (o.results == NULL) {
		if (run)
			snprintf(results_buf, sizeof(results_buf), "%s/results.jsonl", out);
		else
			snprintf(results_buf, sizeof(results_buf), "results.jsonl");
		o.results = results_buf;
	}
	if (o.topology == NULL)
		o.topology = coord_default_topology(topo_buf, sizeof(topo_buf));
	t = coord_topology_load(o.topology, coord_driver_find, err, sizeof(err));
	if (t == NULL) {
		fprintf(stderr, "pvpkit: %s\n", err);
		return 2;
	}
	if (coord_topology_open(t, err, sizeof(err)) < 0) {
		fprintf(stderr, "pvpkit: %s\n", err);
		coord_topology_free(t);
		return 1;
	}
	/*
	 * The status line: redrawn on stderr when that is a terminal, else
	 * plain lines in order with the trials on stdout.
	 */
	coord_progress_init(&o.progress, isatty(STDERR_FILENO) ? stderr : stdout,
			    nb_sizes * nb_flows, o.p.max_time);
	for (i = 0; i < nb_sizes && rc == 0; i++) {
		for (k = 0; k < nb_flows && rc == 0; k++) {
			snprintf(id, sizeof(id), "%ld-%u-%u", (long)time(NULL), sizes[i], flows[k]);
			rc = search_point(t, &o, sizes[i], flows[k], id);
			if (rc < 0)
				rc = 1;
		}
	}
	coord_topology_free(t);
	printf("results: %s\n", o.results);
	if (run) {
		struct coord_report_info info;
		int ret;

		memset(&info, 0, sizeof(info));
		ret = coord_report_rebuild(o.results, out, NULL, &info);
		if (ret < 0) {
			fprintf(stderr, "pvpkit: report: %s\n", strerror(-ret));
			return 1;
		}
		for (i = 0; i < info.nb_files; i++)
			printf("report: %s/%s\n", out, info.files[i]);
		if (info.plot_note[0] != '\0')
			printf("plots: %s\n", info.plot_note);
	}
	return rc;
}

int
coord_cmd_search(int argc, char **argv)
{
	return cmd_search_or_run(argc, argv, false);
}

int
coord_cmd_run(int argc, char **argv)
{
	return cmd_search_or_run(argc, argv, true);
}

int
coord_cmd_report(int argc, char **argv)
{
	struct coord_report_info info;
	const char *out = NULL;
	unsigned int i;
	int ret;

	if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
		printf("Usage: pvpkit report RESULTS.jsonl [--out DIR]\n"
		       "Rebuild summary.json, <goal>.csv and the plots from a results file alone\n"
		       "(default DIR: the results file's directory).\n");
		return 0;
	}
	if (argc == 4 && strcmp(argv[2], "--out") == 0)
		out = argv[3];
	else if (argc != 2)
		return cmd_bad("report: usage: %s", "pvpkit report RESULTS.jsonl [--out DIR]");
	if (out == NULL) {
		char *slash;
		static char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%s", argv[1]);
		slash = strrchr(dir, '/');
		if (slash != NULL)
			*slash = '\0';
		else
			snprintf(dir, sizeof(dir), ".");
		out = dir;
	}
	memset(&info, 0, sizeof(info));
	ret = coord_report_rebuild(argv[1], out, NULL, &info);
	if (info.load.warning[0] != '\0')
		fprintf(stderr, "pvpkit: warning: %s\n", info.load.warning);
	if (ret < 0) {
		fprintf(stderr, "pvpkit: report: %s: %s\n", argv[1], strerror(-ret));
		return 1;
	}
	printf("%u records\n", info.load.records);
	for (i = 0; i < info.nb_files; i++)
		printf("report: %s/%s\n", out, info.files[i]);
	if (info.plot_note[0] != '\0')
		printf("plots: %s\n", info.plot_note);
	return 0;
}
