/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit: the coordinator command. No EAL: it only talks to the hops.
 * One command per file (cmd_<name>.c), found through the table
 * below; what they share is in cli.c.
 *
 * Exit status: 0 done, 1 the trial could not be measured (a hop
 * unreachable, traffic refused) or kept, 2 bad command line or topology,
 * 3 (compare) a regression, 128 + N after signal N (SIGINT 130, SIGTERM
 * 143) stopped a trial or search.
 */

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "pvp_util.h"

#include "coord.h"
#include "cmd.h"

/* A pvpkit command. */
struct cli_command {
	const char *name;		   /* as typed: pvpkit NAME ... */
	const char *help;		   /* one line for pvpkit --help */
	int (*run)(int argc, char **argv); /* argv[0] is NAME; the exit status */
};

static const struct cli_command cli_commands[] = {
	{"trial", "run one trial through a topology and print the per-hop table", cmd_trial},
	{"search", "zero-loss throughput search (NDR/PDR) at one point", cmd_search},
	{"run", "searches over packet sizes x flow counts, then the reports", cmd_run},
	{"report", "rebuild summary JSON, CSV and plots from a results file", cmd_report},
	{"soak", "a long trial at a fixed load, read every interval; Ctrl-C keeps it", cmd_soak},
	{"compare", "two runs side by side; exit 3 on a regression beyond their noise",
	 cmd_compare},
	{"history", "add|list|trend|compare: runs kept in a SQLite database over time",
	 cmd_history},
	{"testbed", "up|down|status: the local OVS-DPDK testbed (tools/testbed.sh)", cmd_testbed},
	{NULL, NULL, NULL},
};

/* The first SIGINT/SIGTERM asks the command to stop cleanly (traffic
 * stopped, finished trials kept); SA_RESETHAND lets a second one kill. */
static void
cli_on_signal(int sig)
{
	coord_interrupted = sig;
}

const char *
cli_signal_name(int sig)
{
	if (sig == SIGINT)
		return "SIGINT";
	if (sig == SIGTERM)
		return "SIGTERM";
	return "a signal";
}

int
cli_check_output(const char *opt, const char *path)
{
	char err[512];

	if (path == NULL || pvp_path_check_writable(path, err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "pvpkit: %s: %s\n", opt, err);
	return 1;
}

static void
main_usage(FILE *f)
{
	const struct cli_command *c;

	fprintf(f, "Usage: pvpkit COMMAND [OPTIONS]\n"
		   "\n"
		   "Commands:\n");
	for (c = cli_commands; c->name != NULL; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->help);
	fprintf(f, "  %-9s %s\n", "help",
		"this text; `pvpkit COMMAND --help` for a command's options");
}

int
main(int argc, char **argv)
{
	const struct cli_command *c;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cli_on_signal;
	sa.sa_flags = SA_RESETHAND;
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
	for (c = cli_commands; c->name != NULL; c++)
		if (strcmp(argv[1], c->name) == 0)
			return c->run(argc - 1, argv + 1);
	return cli_usage_error("pvpkit --help", "unknown command \"%s\"", argv[1]);
}
