/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Writing every report file of a results file into a directory: the
 * summary JSON (report_summary.c computes it), the CSV files, soak.csv,
 * the plots and the page, each a new file renamed over the name, and the
 * list of what was written for the command to print.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "pvp_util.h"

#include "report.h"
#include "report_private.h"

void
report_opts_init(struct report_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->line_rate_bps = REPORT_DEFAULT_LINE_RATE;
	o->title = NULL;
	o->gnuplot = "gnuplot";
	o->plots = true;
}

void
report_add_file(struct report_info *info, const char *name)
{
	if (info == NULL || info->nb_files >= REPORT_MAX_FILES)
		return;
	snprintf(info->files[info->nb_files++], sizeof(info->files[0]), "%s", name);
}

int
report_write_all(const json_t *records, const char *outdir, const struct report_opts *o,
		 struct report_info *info)
{
	struct report_opts dflt;
	struct report_info local;
	char path[4096], name[64];
	struct pvp_out out;
	json_t *summary;
	const json_t *g;
	size_t i;
	int ret;

	if (records == NULL || outdir == NULL)
		return -EINVAL;
	if (o == NULL) {
		report_opts_init(&dflt);
		o = &dflt;
	}
	if (info == NULL)
		info = &local;
	info->nb_files = 0;
	info->plots_done = false;
	info->plot_note[0] = '\0';
	info->error[0] = '\0';
	ret = pvp_mkdir_p(outdir, 0755);
	if (ret < 0) {
		pvp_err(info->error, sizeof(info->error), "%s: %s", outdir, strerror(-ret));
		return ret;
	}
	/* Nobody else may plant names (links) where the report writes. */
	ret = pvp_out_dir_check(outdir, info->error, sizeof(info->error));
	if (ret < 0)
		return ret;
	summary = report_summary(records, o);
	if (summary == NULL && errno == E2BIG) {
		pvp_err(info->error, sizeof(info->error),
			"more than %u points (packet size x flows), the most a report takes",
			REPORT_MAX_POINTS);
		return -E2BIG;
	}
	if (summary == NULL) {
		pvp_err(info->error, sizeof(info->error), "summary: out of memory");
		return -ENOMEM;
	}

	snprintf(path, sizeof(path), "%s/summary.json", outdir);
	ret = pvp_out_open(&out, path, info->error, sizeof(info->error));
	if (ret < 0)
		goto out;
	if (json_dumpf(summary, out.f, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) < 0) {
		pvp_out_abort(&out);
		pvp_err(info->error, sizeof(info->error), "%s: cannot write", path);
		ret = -EIO;
		goto out;
	}
	ret = pvp_out_commit(&out, info->error, sizeof(info->error));
	if (ret < 0)
		goto out;
	report_add_file(info, "summary.json");
	json_array_foreach(json_object_get(summary, "goals"), i, g) {
		snprintf(name, sizeof(name), "%s.csv", json_string_value(g));
		snprintf(path, sizeof(path), "%s/%s", outdir, name);
		ret = report_write_csv(summary, json_string_value(g), path);
		if (ret == -ENOENT)
			continue;
		if (ret < 0)
			goto out_file;
		report_add_file(info, name);
		if (!report_summary_has_repeats(summary, NULL))
			continue;
		snprintf(name, sizeof(name), "%s_repeats.csv", json_string_value(g));
		snprintf(path, sizeof(path), "%s/%s", outdir, name);
		ret = report_write_repeats_csv(summary, json_string_value(g), path);
		if (ret < 0)
			goto out_file;
		report_add_file(info, name);
	}
	snprintf(path, sizeof(path), "%s/latency.csv", outdir);
	ret = report_write_latency_csv(summary, path);
	if (ret == 0)
		report_add_file(info, "latency.csv");
	else if (ret != -ENOENT)
		goto out_file;
	snprintf(path, sizeof(path), "%s/soak.csv", outdir);
	ret = report_write_soak(records, &(struct report_gp){.outdir = outdir, .info = info},
				false);
	if (ret < 0)
		goto out_file;
	if (o->plots)
		report_plots(records, summary, outdir, o, info); /* a missing plot is a note */
	else
		snprintf(info->plot_note, sizeof(info->plot_note), "plots not asked for");
	/* Last, so that the page links every file written. */
	if (o->html)
		ret = report_write_html(records, summary, outdir, o, info);
	goto out;
out_file:
	pvp_err(info->error, sizeof(info->error), "%s: cannot write: %s", path, strerror(-ret));
out:
	json_decref(summary);
	return ret;
}

int
report_rebuild(const char *results, const char *outdir, const struct report_opts *o,
	       struct report_info *info)
{
	struct report_load_info li;
	json_t *records;
	int ret;

	records = report_load(results, &li);
	if (info != NULL) {
		info->load = li;
		info->error[0] = '\0';
	}
	if (records == NULL)
		return -errno;
	ret = report_write_all(records, outdir, o, info);
	json_decref(records);
	return ret;
}
