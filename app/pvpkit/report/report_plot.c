/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Plots through gnuplot. Each plot is a data file and a script written
 * next to the images, so a user can restyle it and run `gnuplot x.gp` by
 * hand; gnuplot itself runs by fork/exec with an argv, never through a
 * shell, and its messages go to gnuplot.log in the output directory.
 */

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "pvp_util.h"

#include "report.h"
#include "report_private.h"

/* Most hops a loss plot shows as separate segments. */
#define PLOT_MAX_HOPS 32
/* Widest loss plot, in pixels; more trials thin out the x labels. */
#define PLOT_MAX_WIDTH 2400
/*
 * Most trials the loss plot shows (the last ones): more bars than pixels
 * show nothing more, and 200,000 took gnuplot minutes.
 */
#define PLOT_MAX_TRIALS 2000

/*
 * Text safe inside a gnuplot double-quoted string or a quoted data
 * field: names come from user files and must not end the string.
 */
void
report_plot_clean(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; src[i] != '\0' && i + 1 < len; i++)
		dst[i] = (src[i] == '"' || src[i] == '\\' || src[i] == '`' ||
			  (unsigned char)src[i] < 0x20)
				 ? '_'
				 : src[i];
	dst[i] = '\0';
}

/*
 * Run gnuplot, @p argv (the program first), in @p dir, for at
 * most @p timeout_s seconds (killed then, with its helpers: a huge plot
 * must not hold the report for good). Its stdout and stderr go to
 * @p out_fd, or when it is negative into @p out (the caller frees
 * out->out). Returns its exit status (127: it could not be run),
 * -ETIMEDOUT, or -errno.
 */
static int
plot_exec(char *const argv[], const char *dir, int out_fd, unsigned int timeout_s,
	  struct pvp_child_out *out)
{
	struct pvp_child_out local;
	struct pvp_child c = {
		.argv = argv,
		.dir = dir,
		.out_fd = out_fd,
		.err_to_out = true,
		.timeout_ms = timeout_s * 1000,
		.max_out = 65536,
	};
	int ret;

	if (out == NULL)
		out = &local;
	ret = pvp_child_run(&c, out, NULL, 0);
	if (ret < 0)
		return ret;
	if (out == &local)
		free(local.out);
	return out->status < 0 ? 128 : out->status;
}

int
report_gnuplot_terminals(const char *gnuplot, char *png, size_t png_len, bool *svg)
{
	char *const argv[] = {(char *)(uintptr_t)(gnuplot != NULL ? gnuplot : "gnuplot"), "-e",
			      "set terminal", NULL};
	char *line, *save = NULL, word[32];
	struct pvp_child_out out;
	int st;

	if (png_len > 0)
		png[0] = '\0';
	*svg = false;
	/* Captured: stdout is drained as gnuplot writes, whatever it writes. */
	st = plot_exec(argv, NULL, -1, REPORT_GNUPLOT_TIMEOUT_S, &out);
	if (st != 0) {
		if (st > 0)
			free(out.out);
		return st == 127 ? -ENOENT : -EIO;
	}
	for (line = strtok_r(out.out, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, " %31s", word) != 1)
			continue;
		/* pngcairo draws better than gd's png, wherever each is listed. */
		if (strcmp(word, "pngcairo") == 0 ||
		    (strcmp(word, "png") == 0 && png_len > 0 && png[0] == '\0'))
			snprintf(png, png_len, "%s", word);
		else if (strcmp(word, "svg") == 0)
			*svg = true;
	}
	free(out.out);
	return 0;
}

/* Terminal @p term (a PNG one, or "svg") writing @p base.png or .svg, @p width pixels wide. */
static void
plot_output(FILE *f, const char *term, const char *base, unsigned int width)
{
	bool svg = strcmp(term, "svg") == 0;

	fprintf(f, "set terminal %s size %u,600%s font \",10\"\nset output \"%s.%s\"\n", term,
		width, svg ? " dynamic" : "", base, svg ? "svg" : "png");
}

/*
 * The plot command of every script is issued for the first image format
 * and replotted for the second.
 */
void
report_plot_begin(FILE *f, const struct report_gp *gp, const char *base, unsigned int width)
{
	if (gp->png[0] != '\0' || gp->svg)
		plot_output(f, gp->png[0] != '\0' ? gp->png : "svg", base, width);
}

int
report_plot_end(struct pvp_out *o, const struct report_gp *gp, const char *base, unsigned int width,
		bool run)
{
	int ret;

	fputc('\n', o->f);
	if (gp->png[0] != '\0' && gp->svg) {
		plot_output(o->f, "svg", base, width);
		fputs("replot\n", o->f);
	}
	fputs("unset output\n", o->f);
	ret = pvp_out_commit(o, NULL, 0);
	return ret < 0 || !run ? ret : report_plot_run(gp, base);
}

/* Goal @p goal of the point (@p sz, @p fl) of @p summary, or NULL. */
static const json_t *
plot_goal_at(const json_t *summary, const char *goal, const json_t *sz, const json_t *fl)
{
	const json_t *p = report_point(summary, (double)json_integer_value(sz),
				       (double)json_integer_value(fl));

	return json_object_get(json_object_get(p, "goals"), goal);
}

/* Start @p outdir/@p base.@p ext (pvp_out_open()); its FILE, or NULL with errno set. */
FILE *
report_plot_file(struct pvp_out *o, const char *outdir, const char *base, const char *ext)
{
	char path[4096];
	int ret;

	if (snprintf(path, sizeof(path), "%s/%s.%s", outdir, base, ext) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	ret = pvp_out_open(o, path, NULL, 0);
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	return o->f;
}

/*
 * Finish the .dat file and start the gnuplot script next to it, in @p o.
 * NULL with errno set.
 */
FILE *
report_plot_script(struct pvp_out *o, const char *outdir, const char *base)
{
	int ret = pvp_out_commit(o, NULL, 0);
	FILE *f;

	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	f = report_plot_file(o, outdir, base, "gp");
	if (f != NULL)
		fprintf(f, "# Written by pvpkit report; run again with: gnuplot %s.gp\n", base);
	return f;
}

/* Throughput vs packet size for one goal, one line per flow count. */
static int
plot_throughput(const json_t *summary, const char *goal, const struct report_gp *gp)
{
	const json_t *sizes, *flows, *sz, *fl, *g;
	double vmin = INFINITY, vmax = 0, v, m;
	double line_rate = report_num(summary, "line_rate_bps", REPORT_DEFAULT_LINE_RATE);
	/* Repeated searches: each flow count gets min and max for error bars. */
	bool rep = report_summary_has_repeats(summary, goal);
	struct pvp_out out;
	char gname[32], base[64];
	size_t i, j;
	FILE *f;

	snprintf(base, sizeof(base), "throughput_%s", goal);
	report_plot_clean(gname, sizeof(gname), goal);
	for (i = 0; gname[i] != '\0'; i++)
		if (gname[i] >= 'a' && gname[i] <= 'z')
			gname[i] = (char)(gname[i] - 32);
	sizes = json_object_get(summary, "sizes");
	flows = json_object_get(summary, "flow_counts");
	f = report_plot_file(&out, gp->outdir, base, "dat");
	if (f == NULL)
		return -errno;
	fprintf(f,
		"# pvpkit %s throughput in Mpps%s; sizes include the 4 B FCS; \"?\" = not "
		"measured\n# size theoretical_max",
		gname, rep ? " (median, min, max of the repeated searches)" : "");
	json_array_foreach(flows, j, fl) {
		fprintf(f, " %" JSON_INTEGER_FORMAT "_flows", json_integer_value(fl));
		if (rep)
			fprintf(f, " min max");
	}
	fputc('\n', f);
	json_array_foreach(sizes, i, sz) {
		m = report_max_pps(line_rate, (double)json_integer_value(sz)) / 1e6;
		vmax = fmax(vmax, m);
		fprintf(f, "%" JSON_INTEGER_FORMAT " %.6f", json_integer_value(sz), m);
		json_array_foreach(flows, j, fl) {
			g = plot_goal_at(summary, goal, sz, fl);
			if (json_is_number(json_object_get(g, "mpps"))) {
				v = report_num(g, "mpps", 0);
				if (v > 0)
					vmin = fmin(vmin, v);
				fprintf(f, " %.6f", v);
				if (rep)
					fprintf(f, " %.6f %.6f",
						report_num(g, "min_pps", v * 1e6) / 1e6,
						report_num(g, "max_pps", v * 1e6) / 1e6);
			} else {
				fprintf(f, rep ? " ? ? ?" : " ?");
			}
		}
		fputc('\n', f);
	}
	f = report_plot_script(&out, gp->outdir, base);
	if (f == NULL)
		return -errno;
	fprintf(f, "set datafile missing \"?\"\n");
	fprintf(f, "set title \"%s: %s throughput vs packet size\" noenhanced\n", gp->title, gname);
	fprintf(f, "set xlabel \"Packet size (bytes, including 4 B FCS)\"\n");
	fprintf(f, "set ylabel \"Throughput (Mpps)\"\n");
	fprintf(f, "set grid\nset key outside right top noenhanced\nset bmargin 7\n");
	fprintf(f,
		"set label 1 \"L1 overhead 20 B preamble+IFG, sizes include 4 B FCS: "
		"max pps = %g Gbit/s / ((size + 20) * 8)\" at screen 0.02, screen 0.03 "
		"noenhanced\n",
		line_rate / 1e9);
	fprintf(f, "set xtics (");
	json_array_foreach(sizes, i, sz)
		fprintf(f, "%s%" JSON_INTEGER_FORMAT, i ? ", " : "", json_integer_value(sz));
	fprintf(f, ") rotate by 45 right\n");
	/*
	 * Rates measured on a small testbed can be 1000x below line rate: a
	 * log axis keeps both the measurements and the maximum readable.
	 */
	if (isfinite(vmin) && vmax / vmin > 20)
		fprintf(f, "set logscale y\n");
	else
		fprintf(f, "set yrange [0:*]\n");
	report_plot_begin(f, gp, base, 1000);
	fprintf(f,
		"plot \"%s.dat\" using 1:2 with lines dashtype 2 lw 2 lc rgb \"black\" "
		"title \"theoretical max (%g Gbit/s)\"",
		base, line_rate / 1e9);
	json_array_foreach(flows, j, fl) {
		if (rep)
			fprintf(f,
				", \\\n  \"\" using 1:%zu:%zu:%zu with yerrorlines lw 2 pt 7 "
				"lc %zu title \"%" JSON_INTEGER_FORMAT
				" flows (median, min..max)\"",
				3 * j + 3, 3 * j + 4, 3 * j + 5, j + 1, json_integer_value(fl));
		else
			fprintf(f,
				", \\\n  \"\" using 1:%zu with linespoints lw 2 pt 7 "
				"title \"%" JSON_INTEGER_FORMAT " flows\"",
				j + 3, json_integer_value(fl));
	}
	return report_plot_end(&out, gp, base, 1000, true);
}

/* Index of @p name in @p hops, added if new; -1 when full. */
static int
plot_hop_index(char hops[][64], unsigned int *nb, const char *name)
{
	unsigned int i;

	for (i = 0; i < *nb; i++)
		if (strncmp(hops[i], name, 63) == 0)
			return (int)i;
	if (*nb == PLOT_MAX_HOPS)
		return -1;
	snprintf(hops[*nb], 64, "%s", name);
	return (int)(*nb)++;
}

/* Lost packets per hop, one stacked bar per trial. */
static int
plot_loss(const json_t *records, const struct report_gp *gp)
{
	static const char base[] = "loss_per_hop";
	struct coord_trial_record t;
	char hops[PLOT_MAX_HOPS][64], label[96], clean[64];
	unsigned int nb_hops = 0, nb_trials = 0, every, n, h, width, skip, seen = 0;
	const json_t *rec, *v;
	const char *key;
	double total = 0, vals[PLOT_MAX_HOPS + 1];
	struct pvp_out out;
	size_t i;
	FILE *f;
	int idx;

	json_array_foreach(records, i, rec) {
		if (!report_trial(rec, &t) || t.hop_lost == NULL)
			continue;
		nb_trials++;
		json_object_foreach(t.hop_lost, key, v)
			plot_hop_index(hops, &nb_hops, key);
	}
	if (nb_trials == 0)
		return 0;
	skip = nb_trials > PLOT_MAX_TRIALS ? nb_trials - PLOT_MAX_TRIALS : 0;
	nb_trials -= skip;
	/*
	 * A long run gets a wider picture, up to a limit, and one x label
	 * every few trials so that the labels never overlap.
	 */
	width = 300 + 12 * nb_trials;
	width = width < 1000 ? 1000 : width > PLOT_MAX_WIDTH ? PLOT_MAX_WIDTH : width;
	every = (nb_trials * 24 + (width - 300) - 1) / (width - 300);
	if (every == 0)
		every = 1;

	f = report_plot_file(&out, gp->outdir, base, "dat");
	if (f == NULL)
		return -errno;
	fprintf(f, "# pvpkit lost packets per hop, one row per trial (negative counts shown as "
		   "0)\n# trial label tester_tx");
	for (h = 0; h < nb_hops; h++) {
		report_plot_clean(clean, sizeof(clean), hops[h]);
		fprintf(f, " \"%s\"", clean);
	}
	fprintf(f, " unattributed\n");
	n = 0;
	json_array_foreach(records, i, rec) {
		if (!report_trial(rec, &t) || t.hop_lost == NULL || seen++ < skip)
			continue;
		memset(vals, 0, sizeof(vals));
		json_object_foreach(t.hop_lost, key, v) {
			idx = plot_hop_index(hops, &nb_hops, key);
			if (idx >= 0)
				vals[idx] = fmax(0, json_number_value(v));
		}
		vals[nb_hops] = fmax(0, (double)t.unattributed);
		label[0] = '\0';
		if (n % every == 0) {
			if (t.size > 0)
				snprintf(label, sizeof(label), "%u: %uB %uf %.3gMpps%s",
					 skip + n + 1, t.size, t.flows, t.requested_pps / 1e6,
					 t.generator_limited ? " (gen)" : "");
			else
				snprintf(label, sizeof(label), "%u", skip + n + 1);
		}
		report_plot_clean(clean, sizeof(clean), label);
		fprintf(f, "%u \"%s\" %.0f", skip + n + 1, clean, (double)t.tx_packets);
		for (h = 0; h <= nb_hops; h++) {
			fprintf(f, " %.0f", vals[h]);
			total += vals[h];
		}
		fputc('\n', f);
		n++;
	}
	f = report_plot_script(&out, gp->outdir, base);
	if (f == NULL)
		return -errno;
	if (skip > 0)
		fprintf(f,
			"set title \"%s: lost packets per hop, the last %u of %u trials\" "
			"noenhanced\n",
			gp->title, nb_trials, nb_trials + skip);
	else
		fprintf(f, "set title \"%s: lost packets per hop, per trial\" noenhanced\n",
			gp->title);
	/*
	 * Percent of what the tester sent: trials at different rates and
	 * durations stay comparable on one axis; the .dat has the packets.
	 */
	fprintf(f, "set ylabel \"Lost (%% of tester TX packets)\"\nset xlabel \"Trial\"\n");
	fprintf(f, "set style data histograms\nset style histogram rowstacked\n");
	fprintf(f, "set style fill solid 0.85 border -1\nset boxwidth 0.8\n");
	fprintf(f, "set key outside right top noenhanced\nset grid ytics\n");
	fprintf(f, "set xtics rotate by 45 right noenhanced font \",8\"\nset bmargin 10\nset "
		   "lmargin 14\n");
	/* All zero: give the axis a height so the empty bars still show. */
	fprintf(f, "set yrange [0:%s]\n", total > 0 ? "*" : "1");
	if (total == 0)
		fprintf(f, "set label 1 \"no loss in any trial\" at graph 0.5, graph 0.5 center\n");
	report_plot_begin(f, gp, base, width);
	for (h = 0; h <= nb_hops; h++) {
		if (h < nb_hops)
			report_plot_clean(clean, sizeof(clean), hops[h]);
		else
			snprintf(clean, sizeof(clean), "unattributed");
		/* The first series names the file and the x labels; unattributed is grey. */
		fprintf(f, "%s using ($3 > 0 ? 100 * $%u / $3 : 0)%s title \"%s\"%s",
			h == 0 ? "plot \"loss_per_hop.dat\"" : ", \\\n  \"\"", h + 4,
			h == 0 ? ":xtic(2)" : "", clean,
			h > 0 && h == nb_hops ? " lc rgb \"gray40\"" : "");
	}
	return report_plot_end(&out, gp, base, width, true);
}

int
report_plot_run(const struct report_gp *gp, const char *base)
{
	static const char *const images[] = {"png", "svg"};
	const bool want[] = {gp->png[0] != '\0', gp->svg};
	char script[80], name[80], path[4096];
	char *const argv[] = {(char *)(uintptr_t)gp->prog, script, NULL};
	struct stat st;
	unsigned int k;
	int ret;

	snprintf(script, sizeof(script), "%s.gp", base);
	/* gnuplot opens its outputs by name: a link left there is not followed. */
	for (k = 0; k < sizeof(images) / sizeof(images[0]); k++) {
		snprintf(path, sizeof(path), "%s/%s.%s", gp->outdir, base, images[k]);
		unlink(path);
	}
	ret = plot_exec(argv, gp->outdir, gp->log_fd, gp->timeout_s, NULL);
	if (ret == -ETIMEDOUT) {
		snprintf(gp->info->plot_note, sizeof(gp->info->plot_note),
			 "gnuplot %s did not finish in %u s: stopped, its plot not made", script,
			 gp->timeout_s);
		return -EIO;
	}
	if (ret != 0) {
		snprintf(gp->info->plot_note, sizeof(gp->info->plot_note),
			 "gnuplot %s exited with status %d: see gnuplot.log", script, ret);
		return -EIO;
	}
	snprintf(name, sizeof(name), "%s.dat", base);
	report_add_file(gp->info, name);
	report_add_file(gp->info, script);
	/* Each image asked for is listed as written if gnuplot made it. */
	for (k = 0; k < sizeof(images) / sizeof(images[0]); k++) {
		if (!want[k])
			continue;
		snprintf(name, sizeof(name), "%s.%s", base, images[k]);
		snprintf(path, sizeof(path), "%s/%s", gp->outdir, name);
		if (stat(path, &st) < 0 || st.st_size == 0) {
			snprintf(gp->info->plot_note, sizeof(gp->info->plot_note),
				 "gnuplot made no %s", name);
			return -EIO;
		}
		report_add_file(gp->info, name);
	}
	return 0;
}

int
report_plot_log_open(struct pvp_out *log, struct report_gp *gp)
{
	char path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/gnuplot.log", gp->outdir);
	ret = pvp_out_open(log, path, gp->info->plot_note, sizeof(gp->info->plot_note));
	if (ret == 0)
		gp->log_fd = fileno(log->f);
	return ret;
}

int
report_plots(const json_t *records, const json_t *summary, const char *outdir,
	     const struct report_opts *o, struct report_info *info)
{
	char title[128];
	struct report_gp gp = {
		.prog = o->gnuplot != NULL ? o->gnuplot : "gnuplot",
		.timeout_s =
			o->gnuplot_timeout_s > 0 ? o->gnuplot_timeout_s : REPORT_GNUPLOT_TIMEOUT_S,
		.outdir = outdir,
		.title = title,
		.info = info,
	};
	struct pvp_out log;
	const json_t *g;
	size_t i;
	int ret, failed = 0;

	ret = report_gnuplot_terminals(gp.prog, gp.png, sizeof(gp.png), &gp.svg);
	if (ret < 0) {
		snprintf(info->plot_note, sizeof(info->plot_note),
			 "plots skipped: cannot run %s (Debian: apt-get install gnuplot-nox)",
			 gp.prog);
		return ret;
	}
	if (gp.png[0] == '\0' && !gp.svg) {
		snprintf(info->plot_note, sizeof(info->plot_note),
			 "plots skipped: %s has neither a png nor an svg terminal", gp.prog);
		return -ENOTSUP;
	}
	ret = report_plot_log_open(&log, &gp);
	if (ret < 0)
		return ret;
	report_plot_clean(title, sizeof(title), report_str(summary, "title", "pvpkit"));

	if (json_array_size(json_object_get(summary, "points")) > 0) {
		json_array_foreach(json_object_get(summary, "goals"), i, g) {
			ret = plot_throughput(summary, json_string_value(g), &gp);
			if (ret < 0)
				failed = ret;
		}
	}
	ret = report_plot_latency(summary, &gp);
	if (ret < 0)
		failed = ret;
	ret = report_write_soak(records, &gp, true);
	if (ret < 0)
		failed = ret;
	ret = plot_loss(records, &gp);
	if (ret < 0)
		failed = ret;
	ret = pvp_out_commit(&log, info->plot_note, sizeof(info->plot_note));
	if (ret < 0)
		failed = ret;
	if (failed == 0)
		info->plots_done = true;
	return failed;
}
