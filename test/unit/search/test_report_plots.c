/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * report_rebuild() from a JSON-lines file alone, with plots. Needs
 * gnuplot with a png or svg terminal; exits 77 (skipped) and says why
 * when there is none. Set PVP_REPORT_OUT=DIR to keep the files and look
 * at the pictures.
 */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "pvp_util.h"

#include "report.h"
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
listed(const struct report_info *info, const char *name)
{
	unsigned int i;

	for (i = 0; i < info->nb_files; i++)
		if (strcmp(info->files[i], name) == 0)
			return true;
	return false;
}

/* Write @p text to @p path; true on success. */
static bool
put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	return f != NULL && fputs(text, f) >= 0 && fclose(f) == 0;
}

/* Remove the files in @p dir, then @p dir (no subdirectories expected). */
static void
rm_dir(const char *dir)
{
	char path[1024];
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d != NULL && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d != NULL)
		closedir(d);
	rmdir(dir);
}

/* Text that ends a gnuplot string and runs a command, if it can. */
static const char *const hostile[][2] = {
	{"tsc\" noenhanced\nsystem \"touch ", "\"\n#"},
	{"`touch ", "`"},
	{"x\\\"; system \"touch ", "\"; #"},
};

/* Append the records of a run whose every name is @p h; 0 or -1. */
static int
hostile_results(const char *path, const char *h)
{
	json_t *recs[6];
	unsigned int i;
	int ret = 0;

	recs[0] = json_pack("{s:s,s:s,s:[{s:s,s:i},{s:s,s:i},{s:s,s:i}]}", "type", "run", "title",
			    h, "goals", "name", "ndr", "loss_ratio", 0, "name", "../../../escaped",
			    "loss_ratio", 0, "name", h, "loss_ratio", 0);
	recs[1] = json_pack("{s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:{s:i,s:i,s:i},s:i}", "type", "trial",
			    "size", 64, "flows", 10, "requested_pps", 1000, "duration_s", 1,
			    "tx_packets", 1000, "rx_packets", 990, "hop_lost", h, 5, "ovs", 5,
			    "../x", 0, "unattributed", 0);
	recs[2] = json_pack("{s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:{s:f,s:s},s:[{s:i,s:s,s:{s:s,s:{s:s,"
			    "s:i,s:i,s:i,s:i,s:i,s:i,s:[[i,i]]}}}]}",
			    "type", "trial", "size", 64, "flows", 10, "requested_pps", 100,
			    "duration_s", 1, "tx_packets", 100, "rx_packets", 100, "latency",
			    "load_pct", 10.0, "reference", h, "streams", "stream", 0, "name", h,
			    "latency_ns", "clock", h, "histogram", "unit", "ns", "sub_bits", 5,
			    "count", 100, "sum", 1024000, "min", 10240, "max", 10240, "jitter", 0,
			    "buckets", 10240, 100);
	recs[3] = json_pack("{s:s,s:i,s:i,s:[{s:s,s:i,s:s,s:i},{s:s,s:i,s:s,s:i},{s:s,s:i,s:s,"
			    "s:i}]}",
			    "type", "search", "size", 64, "flows", 10, "goals", "name", "ndr",
			    "loss_ratio", 0, "status", "ok", "lower_pps", 900, "name",
			    "../../../escaped", "loss_ratio", 0, "status", "ok", "lower_pps", 900,
			    "name", h, "loss_ratio", 0, "status", "ok", "lower_pps", 900);
	recs[4] =
		json_pack("{s:s,s:f,s:f,s:i,s:i,s:f}", "type", "soak_interval", "t_s", 1.0,
			  "interval_s", 1.0, "tx_packets", 10, "rx_packets", 10, "loss_ratio", 0.0);
	recs[5] = json_pack("{s:s,s:s,s:f,s:s}", "type", "latency_floor", "source", h, "rate_pps",
			    1000.0, "clock", h);
	for (i = 0; i < 6; i++) {
		if (recs[i] == NULL || pvp_jsonl_append(path, recs[i]) != 0)
			ret = -1;
		json_decref(recs[i]);
	}
	return ret;
}

/*
 * Every plot with hostile names: a run title, goal, hop, clock,
 * reference and stream name that end a gnuplot string and run a command
 * (the marker file must not appear), and a goal that names a path out of
 * the output directory (no CSV there). Then compare, titled with run
 * paths that do the same.
 */
static void
check_hostile(const char *dir)
{
	char out[300], results[400], mark[400], esc[400], h[600], title[1400];
	struct report_info info;
	struct report_opts o;
	unsigned int regr, progr, k;
	json_t *recs, *sum, *cmp;
	struct stat st;
	int ret;

	snprintf(out, sizeof(out), "%s/a/b/c", dir);
	snprintf(mark, sizeof(mark), "%s/marker", dir);
	snprintf(esc, sizeof(esc), "%s/escaped.csv", dir);
	snprintf(results, sizeof(results), "%s/a/hostile.jsonl", dir);
	snprintf(h, sizeof(h), "%s/a", dir);
	mkdir(h, 0755);
	snprintf(h, sizeof(h), "%s/a/b", dir);
	mkdir(h, 0755);
	mkdir(out, 0755);
	for (k = 0; k < sizeof(hostile) / sizeof(hostile[0]); k++) {
		snprintf(h, sizeof(h), "%s%s%s", hostile[k][0], mark, hostile[k][1]);
		unit_check_case = h;
		unlink(results);
		CHECK(hostile_results(results, h) == 0);
		report_opts_init(&o);
		ret = report_rebuild(results, out, &o, &info);
		CHECK(ret == 0, "rebuild: %s", strerror(-ret));
		CHECK(info.plots_done, "plots: %s", info.plot_note);
		CHECK(stat(mark, &st) < 0, "a plot script ran a command");
		CHECK(stat(esc, &st) < 0, "a goal's CSV was written outside the output directory");

		recs = report_load(results, NULL);
		sum = report_summary(recs, NULL);
		cmp = report_compare(sum, sum, &regr, &progr);
		CHECK(cmp != NULL);
		snprintf(title, sizeof(title), "pvpkit compare: %s (old) vs %s (new)", h, h);
		memset(&info, 0, sizeof(info));
		ret = report_compare_plot(cmp, out, NULL, title, &info);
		CHECK(ret == 0 && info.plots_done, "compare plot: %d %s", ret, info.plot_note);
		CHECK(stat(mark, &st) < 0, "compare's plot script ran a command");
		json_decref(cmp);
		json_decref(sum);
		json_decref(recs);
		unlink(mark);
		unlink(esc);
	}
	unit_check_case = NULL;
	if (unit_check_failures == 0) {
		rm_dir(out);
		snprintf(out, sizeof(out), "%s/a/b", dir);
		rm_dir(out);
		snprintf(out, sizeof(out), "%s/a", dir);
		rm_dir(out);
	}
}

/*
 * Names planted in the output directory as symlinks to a file of the
 * caller's: each report file replaces its link, the file stays as it was.
 * A directory of another owner, or one that others can write, is refused.
 */
static void
check_links(const char *dir, const char *results)
{
	static const char *const names[] = {"summary.json",	  "ndr.csv",
					    "gnuplot.log",	  "throughput_ndr.gp",
					    "throughput_ndr.png", "loss_per_hop.dat"};
	char out[300], victim[300], path[400], buf[16];
	struct report_info info;
	struct report_opts o;
	struct stat st;
	unsigned int k;
	FILE *f;
	int ret;

	snprintf(out, sizeof(out), "%s/links", dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	mkdir(out, 0755);
	CHECK(put_file(victim, "precious"));
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		snprintf(path, sizeof(path), "%s/%s", out, names[k]);
		CHECK(symlink(victim, path) == 0, "%s", names[k]);
	}
	report_opts_init(&o);
	ret = report_rebuild(results, out, &o, &info);
	CHECK(ret == 0 && info.plots_done, "rebuild: %s %s", strerror(-ret), info.plot_note);
	f = fopen(victim, "r");
	CHECK(f != NULL && fgets(buf, sizeof(buf), f) != NULL && strcmp(buf, "precious") == 0 &&
		      stat(victim, &st) == 0 && st.st_size == 8,
	      "a report wrote through a planted link");
	if (f != NULL)
		fclose(f);
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		snprintf(path, sizeof(path), "%s/%s", out, names[k]);
		CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode), "%s is still a link", names[k]);
	}

	/* Others may write the directory: refused, with the reason. */
	chmod(out, 0777);
	ret = report_rebuild(results, out, &o, &info);
	CHECK(ret == -EPERM && strstr(info.error, "writable by others") != NULL, "%d '%s'", ret,
	      info.error);
	chmod(out, 0755);
	/* Another user's directory (the test runs as root: give it away). */
	if (geteuid() == 0 && chown(out, 4242, (gid_t)-1) == 0) {
		ret = report_rebuild(results, out, &o, &info);
		CHECK(ret == -EPERM && strstr(info.error, "owned by uid 4242") != NULL, "%d '%s'",
		      ret, info.error);
		CHECK(chown(out, 0, (gid_t)-1) == 0);
	}
	if (unit_check_failures == 0) {
		rm_dir(out);
		unlink(victim);
	}
}

/* More trials than the loss plot shows: the last ones, and its title says so. */
static void
check_many_trials(const char *dir)
{
	char out[300], results[400], path[400], line[256];
	struct report_info info;
	struct report_opts o;
	unsigned int i, rows = 0;
	bool said = false;
	json_t *rec;
	FILE *f;
	int ret;

	snprintf(out, sizeof(out), "%s/many", dir);
	snprintf(results, sizeof(results), "%s/many/results.jsonl", dir);
	mkdir(out, 0755);
	for (i = 0; i < 2001; i++) {
		rec = json_pack("{s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:{s:i},s:i}", "type", "trial",
				"size", 64, "flows", 1, "requested_pps", 1000, "duration_s", 1,
				"tx_packets", 1000, "rx_packets", 999, "hop_lost", "ovs", 1,
				"unattributed", 0);
		CHECK(rec != NULL && pvp_jsonl_append(results, rec) == 0);
		json_decref(rec);
	}
	report_opts_init(&o);
	ret = report_rebuild(results, out, &o, &info);
	CHECK(ret == 0 && info.plots_done, "rebuild: %s %s", strerror(-ret), info.plot_note);
	snprintf(path, sizeof(path), "%s/loss_per_hop.dat", out);
	f = fopen(path, "r");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		rows += line[0] != '#';
	if (f != NULL)
		fclose(f);
	CHECK(rows == 2000, "%u rows", rows);
	snprintf(path, sizeof(path), "%s/loss_per_hop.gp", out);
	f = fopen(path, "r");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		said |= strstr(line, "the last 2000 of 2001 trials") != NULL;
	if (f != NULL)
		fclose(f);
	CHECK(said, "the title does not say which trials");
	if (unit_check_failures == 0)
		rm_dir(out);
}

/*
 * A gnuplot that never finishes (a stand-in that names a png terminal,
 * then sleeps): killed after the timeout, the note says so.
 */
static void
check_timeout(const char *dir, const char *results)
{
	char out[300], prog[300];
	struct report_info info;
	struct report_opts o;
	uint64_t t0;
	int ret;

	snprintf(out, sizeof(out), "%s/slow", dir);
	snprintf(prog, sizeof(prog), "%s/slow-gnuplot", dir);
	mkdir(out, 0755);
	CHECK(put_file(prog, "#!/bin/sh\n[ \"$1\" = -e ] && { echo ' png'; exit 0; }\n"
			     "exec sleep 30\n") &&
	      chmod(prog, 0755) == 0);
	report_opts_init(&o);
	o.gnuplot = prog;
	o.gnuplot_timeout_s = 1;
	t0 = pvp_now_ms();
	ret = report_rebuild(results, out, &o, &info);
	CHECK(ret == 0 && !info.plots_done &&
		      strstr(info.plot_note, "did not finish in 1 s: stopped") != NULL,
	      "%d '%s'", ret, info.plot_note);
	/* One script after another, each stopped after a second, not 30. */
	CHECK(pvp_now_ms() - t0 < 20000, "%" PRIu64 " ms", pvp_now_ms() - t0);
	if (unit_check_failures == 0) {
		rm_dir(out);
		unlink(prog);
	}
}

int
main(void)
{
	static const char *const images[] = {"throughput_ndr", "throughput_pdr", "loss_per_hop"};
	char tmpdir[] = "/tmp/pvp-test-plots-XXXXXX";
	char results[1024], outdir[256], name[64], png[16];
	struct report_info info;
	struct report_opts o;
	const char *keep = getenv("PVP_REPORT_OUT");
	json_t *rec;
	unsigned int i;
	long sz;
	bool svg;
	int ret;

	ret = report_gnuplot_terminals(NULL, png, sizeof(png), &svg);
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
		CHECK(rec != NULL && pvp_jsonl_append(results, rec) == 0, "fixture %u", i);
		json_decref(rec);
	}

	report_opts_init(&o);
	ret = report_rebuild(results, outdir, &o, &info);
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
	ret = report_rebuild(results, outdir, &o, &info);
	CHECK(ret == 0 && !info.plots_done && info.plot_note[0] != '\0', "no plots");

	check_hostile(outdir);
	check_links(outdir, results);
	check_many_trials(outdir);
	check_timeout(outdir, results);

	/* A missing gnuplot is a note, not a failure. */
	o.plots = true;
	o.gnuplot = "/nonexistent/gnuplot";
	ret = report_rebuild(results, outdir, &o, &info);
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
