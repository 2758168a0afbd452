/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: results files as `pvpkit report` reads them (JSON lines
 * written by pvpkit trial/search, possibly on another machine, cut short
 * by a crash or edited by hand). The input is the file: it is loaded with
 * report_load(), summarised with report_summary() and each
 * goal the summary has is written as CSV, as `pvpkit report` does
 * (plots excepted: they run gnuplot).
 *
 * Loading must account for every line (records + bad lines + blank lines
 * = lines), the summary must be an object, and a CSV either written or
 * refused with -ENOENT (no point has the goal).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "report.h"

#include "fuzz.h"

static char scratch[256], results[300], csv[300];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report_load_info info;
	struct report_opts opts;
	json_t *records, *summary, *goals;
	const char *goal;
	json_t *v;
	size_t i;
	FILE *f;

	if (scratch[0] == '\0')
		LLVMFuzzerInitialize(NULL, NULL);
	f = fopen(results, "wb");
	if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	records = report_load(results, &info);
	if (records == NULL) {
		/* Only a file with lines and not one record is refused, and
		 * then with its reason. */
		FUZZ_CHECK(errno == EINVAL && info.records == 0 && info.bad_lines > 0,
			   "load failed: %s", strerror(errno));
		fuzz_check_message(info.warning, sizeof(info.warning));
		return 0;
	}
	FUZZ_CHECK(json_array_size(records) == info.records, "%zu records, info says %u",
		   json_array_size(records), info.records);
	if (info.bad_lines > 0) {
		fuzz_check_message(info.warning, sizeof(info.warning));
		FUZZ_CHECK(info.first_bad >= 1, "bad lines but none first");
	}
	report_opts_init(&opts);
	opts.plots = false;
	summary = report_summary(records, &opts);
	FUZZ_CHECK(json_is_object(summary), "summary is not an object");
	goals = json_object_get(summary, "goals");
	json_array_foreach(goals, i, v) {
		int rc;

		goal = json_string_value(v);
		FUZZ_CHECK(goal != NULL, "goal %zu is not a name", i);
		rc = report_write_csv(summary, goal, csv);
		FUZZ_CHECK(rc == 0 || rc == -ENOENT, "CSV of %s: %d", goal, rc);
	}
	FUZZ_CHECK(report_write_csv(summary, "ndr", csv) <= 0, "CSV of ndr");
	json_decref(summary);
	json_decref(records);
	return 0;
}

void
fuzz_cleanup(void)
{
	if (scratch[0] == '\0')
		return;
	unlink(results);
	unlink(csv);
	rmdir(scratch);
	scratch[0] = '\0';
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(scratch, sizeof(scratch), "%s/pvp-report-fuzz.XXXXXX",
		 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if (mkdtemp(scratch) == NULL) {
		perror(scratch);
		abort();
	}
	snprintf(results, sizeof(results), "%s/results.jsonl", scratch);
	snprintf(csv, sizeof(csv), "%s/out.csv", scratch);
	atexit(fuzz_cleanup);
	return 0;
}
