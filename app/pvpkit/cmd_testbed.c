/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit testbed up|down|status: runs tools/testbed.sh, the local
 * OVS-DPDK testbed, with the apps of this pvpkit's own build or install.
 *
 * Which script, in order:
 * 1. $PVP_TESTBED_SCRIPT when set: an explicit choice always wins.
 * 2. Run from its build dir (this binary is BUILD/app/pvpkit/pvpkit): the
 *    source tree's tools/testbed.sh with $PVP_BUILD_DIR defaulting to that
 *    build, so the tree under test is what runs, never an older install.
 * 3. Installed: LIBEXECDIR/pvpkit/testbed.sh found from where this binary
 *    lies (BINDIR/../LIBEXECDIR, so a moved prefix or a DESTDIR staging
 *    works), else at the configured prefix; the script is told
 *    $PVP_BIN_DIR, the directory of this binary and of pvpkit-gen/fwd.
 */

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

#ifndef COORD_SOURCE_ROOT
#define COORD_SOURCE_ROOT "."
#endif
#ifndef COORD_BUILD_ROOT
#define COORD_BUILD_ROOT "build"
#endif
/* Installed script: relative to the binary's directory (absolute when
 * the configured bindir or libexecdir is), and absolute. */
#ifndef COORD_LIBEXEC_REL
#define COORD_LIBEXEC_REL "../libexec/pvpkit"
#endif
#ifndef COORD_LIBEXEC_DIR
#define COORD_LIBEXEC_DIR "/usr/local/libexec/pvpkit"
#endif

/* Where the script comes from, for the help text and the environment. */
enum testbed_from {
	TESTBED_FROM_ENV,   /* $PVP_TESTBED_SCRIPT */
	TESTBED_FROM_TREE,  /* the source tree of this build */
	TESTBED_FROM_PREFIX /* the installed prefix */
};

/* The directory this binary lies in, resolved. @return 0 or -errno. */
static int
testbed_self_dir(char *dir, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -errno;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash == NULL)
		return -ENOENT;
	*slash = '\0';
	if (snprintf(dir, len, "%s", exe) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* True when this binary runs from the build dir it was built in. */
static bool
testbed_in_build_dir(const char *self)
{
	char built[PATH_MAX], want[PATH_MAX];

	snprintf(want, sizeof(want), "%s/app/pvpkit", COORD_BUILD_ROOT);
	return realpath(want, built) != NULL && strcmp(built, self) == 0;
}

/*
 * Choose the script into @p path (see the top of this file); @p self is
 * this binary's directory ("" when unknown), @p in_build whether that is
 * its build dir.
 */
static enum testbed_from
testbed_script(char *path, size_t len, const char *self, bool in_build)
{
	const char *env = getenv("PVP_TESTBED_SCRIPT");
	char resolved[PATH_MAX];

	if (env != NULL && env[0] != '\0') {
		snprintf(path, len, "%s", env);
		return TESTBED_FROM_ENV;
	}
	if (in_build) {
		snprintf(path, len, "%s/tools/testbed.sh", COORD_SOURCE_ROOT);
		return TESTBED_FROM_TREE;
	}
	/* COORD_LIBEXEC_REL is absolute when bindir or libexecdir is. */
	if (COORD_LIBEXEC_REL[0] == '/')
		snprintf(path, len, "%s/testbed.sh", COORD_LIBEXEC_REL);
	else
		snprintf(path, len, "%s/%s/testbed.sh", self, COORD_LIBEXEC_REL);
	if (self[0] == '\0' || access(path, X_OK) != 0)
		snprintf(path, len, "%s/testbed.sh", COORD_LIBEXEC_DIR);
	else if (realpath(path, resolved) != NULL)
		snprintf(path, len, "%s", resolved); /* no "bin/../" in messages */
	return TESTBED_FROM_PREFIX;
}

static void
testbed_usage(FILE *f, const char *script, enum testbed_from from)
{
	static const char *const why[] = {
		[TESTBED_FROM_ENV] = "$PVP_TESTBED_SCRIPT",
		[TESTBED_FROM_TREE] = "the source tree of this build; $PVP_BUILD_DIR "
				      "defaults to " COORD_BUILD_ROOT,
		[TESTBED_FROM_PREFIX] = "installed with pvpkit; the apps next to pvpkit",
	};

	fprintf(f,
		"Usage: pvpkit testbed up|down|status [ARGS...]\n"
		"Runs the testbed script (tools/testbed.sh), here\n"
		"  %s\n"
		"(%s).\n"
		"$PVP_TESTBED_SCRIPT chooses another. ARGS go to the script, plus\n"
		"--dir $PVP_TESTBED_RUNDIR when that is set and ARGS have no --dir;\n"
		"`pvpkit testbed up --help` shows its options.\n",
		script, why[from]);
}

/*
 * The script's argv: ARGS, plus --dir $PVP_TESTBED_RUNDIR unless ARGS
 * name a dir. One variable names the testbed for every command: trial
 * reads $PVP_TESTBED_RUNDIR/topology.json, so the testbed goes there too.
 */
static char **
testbed_argv(const char *script, int argc, char **argv)
{
	const char *rundir = getenv("PVP_TESTBED_RUNDIR");
	char **args;
	int i;

	for (i = 2; i < argc && rundir != NULL; i++)
		if (strcmp(argv[i], "--dir") == 0)
			rundir = NULL;
	if (rundir != NULL && rundir[0] == '\0')
		rundir = NULL;
	args = calloc((size_t)argc + 3, sizeof(*args));
	if (args == NULL)
		return NULL;
	args[0] = (char *)(uintptr_t)script;
	for (i = 1; i < argc; i++)
		args[i] = argv[i];
	if (rundir != NULL) {
		args[i++] = (char *)(uintptr_t) "--dir";
		args[i++] = (char *)(uintptr_t)rundir;
	}
	return args;
}

int
cmd_testbed(int argc, char **argv)
{
	char script[PATH_MAX], self[PATH_MAX];
	enum testbed_from from;
	bool in_build;
	char **args;

	if (testbed_self_dir(self, sizeof(self)) < 0)
		self[0] = '\0';
	in_build = self[0] != '\0' && testbed_in_build_dir(self);
	from = testbed_script(script, sizeof(script), self, in_build);
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		testbed_usage(argc < 2 ? stderr : stdout, script, from);
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "up") != 0 && strcmp(argv[1], "down") != 0 &&
	    strcmp(argv[1], "status") != 0)
		return cli_usage_error("pvpkit --help",
				       "testbed: unknown action \"%s\" (up, down or status)",
				       argv[1]);
	if (access(script, X_OK) != 0) {
		fprintf(stderr, "pvpkit: testbed: %s: %s (set PVP_TESTBED_SCRIPT)\n", script,
			strerror(errno));
		return 1;
	}
	/* The script starts the apps of the build or install this pvpkit is from. */
	if (in_build || self[0] == '\0')
		setenv("PVP_BUILD_DIR", COORD_BUILD_ROOT, 0);
	else
		setenv("PVP_BIN_DIR", self, 0);
	args = testbed_argv(script, argc, argv);
	if (args == NULL)
		return 1;
	execv(script, args);
	fprintf(stderr, "pvpkit: testbed: %s: %s\n", script, strerror(errno));
	free(args);
	return 1;
}
