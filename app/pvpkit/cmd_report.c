/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit report RESULTS.jsonl [--out DIR] [--html]: rebuild summary.json,
 * the CSV per goal and the plots (and report.html, the page) from a
 * results file alone (app/pvpkit/report), for instance on another machine
 * than the one that measured.
 */

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "report.h"

#define REPORT_USAGE "pvpkit report RESULTS.jsonl [--out DIR] [--html]"

int
cmd_report(int argc, char **argv)
{
	struct report_opts opts;
	struct report_info info;
	const char *out = NULL;
	char dir[PATH_MAX], *slash;
	unsigned int i;
	int a, ret;

	if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
		printf("Usage: " REPORT_USAGE "\n"
		       "Rebuild summary.json, <goal>.csv and the plots from a results file alone\n"
		       "(default DIR: the results file's directory); --html also writes\n"
		       "report.html, one self-contained page (inline CSS and SVG plots).\n");
		return 0;
	}
	report_opts_init(&opts);
	for (a = 2; a < argc; a++) {
		if (strcmp(argv[a], "--out") == 0 && a + 1 < argc && out == NULL)
			out = argv[++a];
		else if (strcmp(argv[a], "--html") == 0 && !opts.html)
			opts.html = true;
		else
			return cli_usage_error("--help", "report: usage: %s", REPORT_USAGE);
	}
	if (argc < 2)
		return cli_usage_error("--help", "report: usage: %s", REPORT_USAGE);
	opts.results = argv[1];
	if (out == NULL) {
		snprintf(dir, sizeof(dir), "%s", argv[1]);
		slash = strrchr(dir, '/');
		if (slash != NULL)
			*slash = '\0';
		else
			snprintf(dir, sizeof(dir), ".");
		out = dir;
	}
	memset(&info, 0, sizeof(info));
	ret = report_rebuild(argv[1], out, &opts, &info);
	/* On failure the report's error or the load's warning is the reason: one line. */
	if (ret < 0) {
		if (info.error[0] != '\0')
			fprintf(stderr, "pvpkit: report: %s\n", info.error);
		else if (info.load.warning[0] != '\0')
			fprintf(stderr, "pvpkit: report: %s\n", info.load.warning);
		else
			fprintf(stderr, "pvpkit: report: %s: %s\n", argv[1], strerror(-ret));
		return 1;
	}
	if (info.load.warning[0] != '\0')
		fprintf(stderr, "pvpkit: warning: %s\n", info.load.warning);
	printf("%u records\n", info.load.records);
	for (i = 0; i < info.nb_files; i++)
		printf("report: %s/%s\n", out, info.files[i]);
	if (info.plot_note[0] != '\0')
		printf("plots: %s\n", info.plot_note);
	return 0;
}
