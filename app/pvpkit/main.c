/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit: the coordinator command. No EAL: it only talks to the hops.
 *
 *   pvpkit trial   one trial with the per-hop table
 *   pvpkit testbed up|down|status   the local testbed (tools/testbed.sh)
 *
 * Exit status: 0 done, 1 the trial could not be measured (a hop
 * unreachable, traffic refused), 2 bad command line or topology.
 */

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "coord.h"
#include "coord_driver.h"
#include "coord_cmd.h"
#include "coord_report.h"

#ifndef COORD_SOURCE_ROOT
#define COORD_SOURCE_ROOT "."
#endif
#ifndef COORD_BUILD_ROOT
#define COORD_BUILD_ROOT "build"
#endif

extern volatile sig_atomic_t coord_interrupted;

static void
coord_on_signal(int sig)
{
	(void)sig;
	coord_interrupted = 1;
}

static int __attribute__((format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pvpkit: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see pvpkit --help)\n");
	return 2;
}

static void
main_usage(FILE *f)
{
	fprintf(f, "Usage: pvpkit COMMAND [OPTIONS]\n"
		   "\n"
		   "Commands:\n"
		   "  trial     run one trial through a topology and print the per-hop table\n"
		   "  search    zero-loss throughput search (NDR/PDR) at one point\n"
		   "  run       searches over packet sizes x flow counts, then the reports\n"
		   "  report    rebuild summary JSON, CSV and plots from a results file\n"
		   "  testbed   up|down|status: the local OVS-DPDK testbed (tools/testbed.sh)\n"
		   "  help      this text; `pvpkit COMMAND --help` for a command's options\n");
}

static void
trial_usage(FILE *f)
{
	fprintf(f,
		"Usage: pvpkit trial [OPTIONS]\n"
		"\n"
		"Clear all hops, (warm up,) send at RATE for DURATION, stop, wait until every\n"
		"hop's counters are quiet, snapshot all hops and print where packets were lost.\n"
		"\n"
		"  --topology FILE     topology JSON (default: $PVP_TESTBED_RUNDIR/topology.json,\n"
		"                      $PVP_TESTBED_RUNDIR defaults to " COORD_TESTBED_RUNDIR ")\n"
		"  --size BYTES        frame size with FCS, 64..9216 (default 64)\n"
		"  --flows N           flows, 1..16777216 (default 1)\n"
		"  --profile FILE      generator profile instead of --size/--flows\n"
		"  --flow-type TYPE    have the vswitch install TYPE rules (normal, l2, l3,\n"
		"                      l4) for the flows and check them, and send traffic\n"
		"                      that matches them (doc/pvp.rst, \"Flow types\")\n"
		"  --flow-rules N      with --flow-type: install rules for N flows\n"
		"                      (default --flows; fewer shows table misses)\n"
		"  --rate RATE         per TX port: 100000, 500kpps, 1Mpps, 10%%, 5Gbps, max\n"
		"                      (default 100kpps)\n"
		"  --duration S        traffic time in seconds (default 10)\n"
		"  --warmup S          warm-up traffic before the measured trial (default 0)\n"
		"  --quiet-timeout S   wait at most S for counters to stop (default 5)\n"
		"  --json FILE         write the trial as JSON\n"
		"  --results FILE      append the trial as one JSON line (fsync'd)\n"
		"  --help              this text\n"
		"\n"
		"Exit status: 0 measured, 1 not measured (hop unreachable...), 2 bad usage.\n");
}

static int
parse_double(const char *opt, const char *s, double min, double max, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || *v < min || *v > max) {
		fprintf(stderr, "pvpkit: %s: \"%s\" must be a number in %g..%g\n", opt, s, min,
			max);
		return -EINVAL;
	}
	return 0;
}

static int
parse_uint(const char *opt, const char *s, unsigned long min, unsigned long max, unsigned int *v)
{
	unsigned long x;
	char *end;

	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || x < min || x > max) {
		fprintf(stderr, "pvpkit: %s: \"%s\" must be an integer in %lu..%lu\n", opt, s, min,
			max);
		return -EINVAL;
	}
	*v = (unsigned int)x;
	return 0;
}

/* The default topology: the one the local testbed wrote. */
const char *
coord_default_topology(char *buf, size_t len)
{
	const char *rundir = getenv("PVP_TESTBED_RUNDIR");

	snprintf(buf, len, "%s/topology.json",
		 rundir != NULL && rundir[0] != '\0' ? rundir : COORD_TESTBED_RUNDIR);
	return buf;
}

static int
write_json_file(const char *path, const json_t *j)
{
	if (json_dump_file(j, path, JSON_INDENT(2) | JSON_SORT_KEYS) < 0) {
		fprintf(stderr, "pvpkit: %s: cannot write\n", path);
		return -EIO;
	}
	return 0;
}

enum {
	OPT_TOPOLOGY = 256,
	OPT_SIZE,
	OPT_FLOWS,
	OPT_PROFILE,
	OPT_RATE,
	OPT_DURATION,
	OPT_WARMUP,
	OPT_QUIET_TIMEOUT,
	OPT_JSON,
	OPT_RESULTS,
	OPT_FLOW_TYPE,
	OPT_FLOW_RULES,
	OPT_HELP,
};

static int
cmd_trial(int argc, char **argv)
{
	static const struct option opts[] = {
		{"topology", required_argument, NULL, OPT_TOPOLOGY},
		{"size", required_argument, NULL, OPT_SIZE},
		{"flows", required_argument, NULL, OPT_FLOWS},
		{"profile", required_argument, NULL, OPT_PROFILE},
		{"rate", required_argument, NULL, OPT_RATE},
		{"duration", required_argument, NULL, OPT_DURATION},
		{"warmup", required_argument, NULL, OPT_WARMUP},
		{"quiet-timeout", required_argument, NULL, OPT_QUIET_TIMEOUT},
		{"json", required_argument, NULL, OPT_JSON},
		{"results", required_argument, NULL, OPT_RESULTS},
		{"flow-type", required_argument, NULL, OPT_FLOW_TYPE},
		{"flow-rules", required_argument, NULL, OPT_FLOW_RULES},
		{"help", no_argument, NULL, OPT_HELP},
		{NULL, 0, NULL, 0},
	};
	unsigned int flow_rules = 0;
	struct coord_trial_conf c = {
		.size = 64,
		.flows = 1,
		.rate = "100kpps",
		.duration_s = 10,
	};
	const char *topo_path = NULL, *json_path = NULL, *results_path = NULL;
	struct coord_trial_result r;
	struct coord_topology *t;
	char topo_buf[PATH_MAX], err[512];
	json_t *j;
	int opt, ret, rc = 0;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case OPT_TOPOLOGY:
			topo_path = optarg;
			break;
		case OPT_SIZE:
			if (parse_uint("--size", optarg, 64, 9216, &c.size) < 0)
				return 2;
			break;
		case OPT_FLOWS:
			if (parse_uint("--flows", optarg, 1, 16777216, &c.flows) < 0)
				return 2;
			break;
		case OPT_PROFILE:
			c.profile = optarg;
			break;
		case OPT_RATE:
			c.rate = optarg;
			break;
		case OPT_DURATION:
			if (parse_double("--duration", optarg, 0.001, 86400, &c.duration_s) < 0)
				return 2;
			break;
		case OPT_WARMUP:
			if (parse_double("--warmup", optarg, 0, 3600, &c.warmup_s) < 0)
				return 2;
			break;
		case OPT_QUIET_TIMEOUT:
			if (parse_double("--quiet-timeout", optarg, 0.1, 600, &c.quiet_timeout_s) <
			    0)
				return 2;
			break;
		case OPT_JSON:
			json_path = optarg;
			break;
		case OPT_RESULTS:
			results_path = optarg;
			break;
		case OPT_FLOW_TYPE:
			if (strcmp(optarg, "normal") != 0 && strcmp(optarg, "l2") != 0 &&
			    strcmp(optarg, "l3") != 0 && strcmp(optarg, "l4") != 0)
				return usage_error(
					"--flow-type: \"%s\" is not normal, l2, l3 or l4", optarg);
			c.flow_type = optarg;
			break;
		case OPT_FLOW_RULES:
			if (parse_uint("--flow-rules", optarg, 1, 16777216, &flow_rules) < 0)
				return 2;
			break;
		case OPT_HELP:
			trial_usage(stdout);
			return 0;
		default:
			return usage_error("trial: unknown option or missing value: %s",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("trial: unexpected argument \"%s\"", argv[optind]);
	if (flow_rules != 0 && c.flow_type == NULL)
		return usage_error("--flow-rules needs --flow-type");
	if (coord_rate_parse(c.rate, &c.rate_pps) < 0)
		return usage_error("--rate: \"%s\" is not a rate (e.g. 100000, 500kpps, 1Mpps, "
				   "10%%, 5Gbps, max)",
				   c.rate);
	if (topo_path == NULL)
		topo_path = coord_default_topology(topo_buf, sizeof(topo_buf));

	t = coord_topology_load(topo_path, coord_driver_find, err, sizeof(err));
	if (t == NULL) {
		fprintf(stderr, "pvpkit: %s\n", err);
		return 2;
	}
	ret = coord_topology_open(t, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "pvpkit: %s\n", err);
		coord_topology_free(t);
		return 1;
	}
	if (c.flow_type != NULL &&
	    coord_install_flows(t, c.flow_type, flow_rules != 0 ? flow_rules : c.flows) < 0) {
		coord_topology_free(t);
		return 1;
	}
	ret = coord_trial_run(t, &c, &r, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "pvpkit: trial not measured: %s\n", err);
		coord_topology_free(t);
		return 1;
	}
	j = coord_trial_to_json(t, &r);
	if (j == NULL) {
		fprintf(stderr, "pvpkit: out of memory\n");
		rc = 1;
		goto out;
	}
	/* The results file first: whatever happens next, the trial is kept. */
	if (results_path != NULL) {
		ret = coord_report_append(results_path, j);
		if (ret < 0) {
			fprintf(stderr, "pvpkit: %s: %s\n", results_path, strerror(-ret));
			rc = 1;
		}
	}
	coord_table_print(stdout, t, &r);
	fflush(stdout);
	if (json_path != NULL && write_json_file(json_path, j) < 0)
		rc = 1;
	json_decref(j);
out:
	coord_trial_result_clear(&r);
	coord_topology_free(t);
	return rc;
}

/* Where tools/testbed.sh is: $PVP_TESTBED_SCRIPT, else the source tree. */
static int
cmd_testbed(int argc, char **argv)
{
	const char *script = getenv("PVP_TESTBED_SCRIPT");
	const char *rundir;
	char path[PATH_MAX];
	char **args;
	int i;

	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		FILE *f = argc < 2 ? stderr : stdout;

		fprintf(f,
			"Usage: pvpkit testbed up|down|status [ARGS...]\n"
			"Runs tools/testbed.sh: $PVP_TESTBED_SCRIPT if set, else\n"
			"  %s/tools/testbed.sh\n"
			"(the source tree pvpkit was built from), with $PVP_BUILD_DIR\n"
			"defaulting to %s. ARGS go to the script, plus\n"
			"--dir $PVP_TESTBED_RUNDIR when that is set and ARGS have no --dir;\n"
			"`pvpkit testbed up --help` shows its options.\n",
			COORD_SOURCE_ROOT, COORD_BUILD_ROOT);
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "up") != 0 && strcmp(argv[1], "down") != 0 &&
	    strcmp(argv[1], "status") != 0)
		return usage_error("testbed: unknown action \"%s\" (up, down or status)", argv[1]);
	if (script == NULL || script[0] == '\0') {
		snprintf(path, sizeof(path), "%s/tools/testbed.sh", COORD_SOURCE_ROOT);
		script = path;
	}
	if (access(script, X_OK) != 0) {
		fprintf(stderr, "pvpkit: testbed: %s: %s (set PVP_TESTBED_SCRIPT)\n", script,
			strerror(errno));
		return 1;
	}
	/* The script starts the apps of the build this pvpkit comes from. */
	setenv("PVP_BUILD_DIR", COORD_BUILD_ROOT, 0);
	/*
	 * One variable names the testbed for every command: trial reads
	 * $PVP_TESTBED_RUNDIR/topology.json, so the testbed goes there too.
	 */
	rundir = getenv("PVP_TESTBED_RUNDIR");
	for (i = 2; i < argc && rundir != NULL; i++)
		if (strcmp(argv[i], "--dir") == 0)
			rundir = NULL;
	if (rundir != NULL && rundir[0] == '\0')
		rundir = NULL;
	args = calloc((size_t)argc + 3, sizeof(*args));
	if (args == NULL)
		return 1;
	args[0] = (char *)(uintptr_t)script;
	for (i = 1; i < argc; i++)
		args[i] = argv[i];
	if (rundir != NULL) {
		args[i++] = (char *)(uintptr_t) "--dir";
		args[i++] = (char *)(uintptr_t)rundir;
	}
	execv(script, args);
	fprintf(stderr, "pvpkit: testbed: %s: %s\n", script, strerror(errno));
	free(args);
	return 1;
}

int
main(int argc, char **argv)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = coord_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (argc < 2) {
		main_usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		main_usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("pvpkit %s\n", PVP_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "trial") == 0)
		return cmd_trial(argc - 1, argv + 1);
	if (strcmp(argv[1], "search") == 0)
		return coord_cmd_search(argc - 1, argv + 1);
	if (strcmp(argv[1], "run") == 0)
		return coord_cmd_run(argc - 1, argv + 1);
	if (strcmp(argv[1], "report") == 0)
		return coord_cmd_report(argc - 1, argv + 1);
	if (strcmp(argv[1], "testbed") == 0)
		return cmd_testbed(argc - 1, argv + 1);
	return usage_error("unknown command \"%s\"", argv[1]);
}
