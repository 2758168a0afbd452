/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit testbed up|down|status: runs tools/testbed.sh, the local
 * OVS-DPDK testbed, with the apps of the build this pvpkit comes from.
 */

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coord_cmd.h"

#ifndef COORD_SOURCE_ROOT
#define COORD_SOURCE_ROOT "."
#endif
#ifndef COORD_BUILD_ROOT
#define COORD_BUILD_ROOT "build"
#endif

/* Where tools/testbed.sh is: $PVP_TESTBED_SCRIPT, else the source tree. */
int
coord_cmd_testbed(int argc, char **argv)
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
		return coord_cli_usage_error("pvpkit --help",
					     "testbed: unknown action \"%s\" (up, down or status)",
					     argv[1]);
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
