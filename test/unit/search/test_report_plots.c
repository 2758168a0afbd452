/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * coord_report_rebuild() from a JSON-lines file alone, with plots. Needs
 * gnuplot with a png or svg terminal; exits 77 (skipped) and says why
 * when there is none. Set PVP_REPORT_OUT=DIR to keep the files and look
 * at the pictures.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "coord_report.h"
#include "report_fixture.h"
#include "../unit_check.h"

static long
file_size(const char *dir, const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static bool
listed(const struct coord_report_info *info, const char *name)
{
	unsigned int i;

	for (i = 0; i < info->nb_files; i++)
		if (strcmp(info->files[i], name) == 0)
			return true;
	return false;
}

int
main(void)
{
	static const char *const images[] = {"throughput_ndr", "throughput_pdr", "loss_per_hop"};
	char tmpdir[] = "/tmp/pvp-test-plots-XXXXXX";
	char results[1024], outdir[256], name[64], png[16];
	struct coord_report_info info;
	struct coord_report_opts o;
	const char *keep = getenv("PVP_REPORT_OUT");
	json_t *rec;
	unsigned int i;
	long sz;
	bool svg;
	int ret;

	ret = coord_report_gnuplot_terminals(NULL, png, sizeof(png), &svg);
	if (ret < 0) {
		printf("SKIP: gnuplot cannot be run (%s); apt-get install gnuplot-nox\n",
		       strerror(-ret));
		return 77;
	}
	if (png[0] == '\0' && !svg) {
		printf("SKIP: gnuplot has neither a png nor an svg terminal\n");
		return 77;
	}
	printf("gnuplot terminals: png '%s', svg %s\n", png, svg ? "yes" : "no");

	if (keep != NULL) {
		snprintf(outdir, sizeof(outdir), "%s", keep);
		mkdir(outdir, 0755);
	} else {
		if (mkdtemp(tmpdir) == NULL) {
			perror("mkdtemp");
			return 1;
		}
		snprintf(outdir, sizeof(outdir), "%s", tmpdir);
	}
	snprintf(results, sizeof(results), "%s/results.jsonl", outdir);
	unlink(results);
	for (i = 0; i < FIXTURE_NB_LINES; i++) {
		rec = json_loads(fixture_lines[i], 0, NULL);
		CHECK(rec != NULL && coord_report_append(results, rec) == 0, "fixture %u", i);
		json_decref(rec);
	}

	coord_report_opts_init(&o);
	ret = coord_report_rebuild(results, outdir, &o, &info);
	CHECK(ret == 0, "rebuild: %s", strerror(-ret));
	CHECK(info.load.records == FIXTURE_NB_LINES && info.load.bad_lines == 0, "load");
	CHECK(info.plots_done, "plots not done: %s", info.plot_note);
	for (i = 0; i < info.nb_files; i++)
		printf("wrote %s/%s (%ld bytes)\n", outdir, info.files[i],
		       file_size(outdir, info.files[i]));
	CHECK(file_size(outdir, "summary.json") > 100, "summary.json");
	CHECK(file_size(outdir, "ndr.csv") > 20 && file_size(outdir, "pdr.csv") > 20, "csv");
	for (i = 0; i < sizeof(images) / sizeof(images[0]); i++) {
		snprintf(name, sizeof(name), "%s.gp", images[i]);
		CHECK(file_size(outdir, name) > 100 && listed(&info, name), "%s", name);
		snprintf(name, sizeof(name), "%s.dat", images[i]);
		CHECK(file_size(outdir, name) > 20 && listed(&info, name), "%s", name);
		if (png[0] != '\0') {
			snprintf(name, sizeof(name), "%s.png", images[i]);
			sz = file_size(outdir, name);
			/* A real plot with axes, lines and text is tens of kB. */
			CHECK(sz > 5000 && listed(&info, name), "%s: %ld bytes", name, sz);
		}
		if (svg) {
			snprintf(name, sizeof(name), "%s.svg", images[i]);
			sz = file_size(outdir, name);
			CHECK(sz > 5000 && listed(&info, name), "%s: %ld bytes", name, sz);
		}
	}

	/* Plots off: the rest is still written, and the note says why. */
	o.plots = false;
	ret = coord_report_rebuild(results, outdir, &o, &info);
	CHECK(ret == 0 && !info.plots_done && info.plot_note[0] != '\0', "no plots");

	/* A missing gnuplot is a note, not a failure. */
	o.plots = true;
	o.gnuplot = "/nonexistent/gnuplot";
	ret = coord_report_rebuild(results, outdir, &o, &info);
	CHECK(ret == 0 && !info.plots_done && strstr(info.plot_note, "skipped") != NULL,
	      "missing gnuplot: ret %d note '%s'", ret, info.plot_note);
	printf("missing gnuplot note: %s\n", info.plot_note);

	if (unit_check_failures) {
		printf("%d check(s) failed; files kept in %s\n", unit_check_failures, outdir);
		return 1;
	}
	if (keep == NULL) {
		/* Remove only the files this test made, then its directory. */
		for (i = 0; i < info.nb_files; i++) {
			snprintf(results, sizeof(results), "%s/%s", outdir, info.files[i]);
			unlink(results);
		}
		for (i = 0; i < sizeof(images) / sizeof(images[0]); i++) {
			static const char *const ext[] = {"gp", "dat", "png", "svg"};
			unsigned int e;

			for (e = 0; e < 4; e++) {
				snprintf(results, sizeof(results), "%s/%s.%s", outdir, images[i],
					 ext[e]);
				unlink(results);
			}
		}
		snprintf(results, sizeof(results), "%s/gnuplot.log", outdir);
		unlink(results);
		snprintf(results, sizeof(results), "%s/results.jsonl", outdir);
		unlink(results);
		rmdir(outdir);
	}
	printf("all plot checks passed\n");
	return 0;
}
