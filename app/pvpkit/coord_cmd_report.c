/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit report RESULTS.jsonl [--out DIR]: rebuild summary.json, the CSV
 * per goal and the plots from a results file alone (app/pvpkit/report),
 * for instance on another machine than the one that measured.
 */

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "coord_cmd.h"
#include "coord_report.h"

#define REPORT_USAGE "pvpkit report RESULTS.jsonl [--out DIR]"

int
coord_cmd_report(int argc, char **argv)
{
	struct coord_report_info info;
	const char *out = NULL;
	char dir[PATH_MAX], *slash;
	unsigned int i;
	int ret;

	if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
		printf("Usage: " REPORT_USAGE "\n"
		       "Rebuild summary.json, <goal>.csv and the plots from a results file alone\n"
		       "(default DIR: the results file's directory).\n");
		return 0;
	}
	if (argc == 4 && strcmp(argv[2], "--out") == 0)
		out = argv[3];
	else if (argc != 2)
		return coord_cli_usage_error("--help", "report: usage: %s", REPORT_USAGE);
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
	ret = coord_report_rebuild(argv[1], out, NULL, &info);
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
