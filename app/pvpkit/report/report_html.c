/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * report.html: one page people read instead of a folder of CSV files.
 * Self-contained (inline CSS, inline SVG plots, no script, nothing
 * fetched), made from the summary and the records alone like every other
 * report file: the run's metadata, the NDR/PDR table with repeats and
 * spread, a throughput plot per goal, the latency plot, the one-way
 * latency per stream (report_oneway.c), the per-hop loss of the trial
 * nearest each NDR, the truth checks that failed, and links to the files
 * written beside it.
 */

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report_private.h"

static const char html_css[] = "body{font-family:sans-serif;margin:2em;color:#222;max-width:70em}"
			       "table{border-collapse:collapse;margin:1em 0}"
			       "th,td{border:1px solid #bbb;padding:.2em .6em;text-align:right}"
			       "th{background:#eee}td.l,th.l{text-align:left}"
			       "svg.plot{border:1px solid #ccc;margin:.5em 0;background:#fff}"
			       ".fail{color:#b00}.note{color:#666}";

/* A metadata row: @p key, then @p v as text (a string as it is, anything else compact JSON). */
static void
html_meta_row(FILE *f, const char *key, const json_t *v)
{
	char *s = json_is_string(v)
			  ? NULL
			  : json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(10));

	fputs("<tr><th class=\"l\">", f);
	report_html_text(f, key);
	fputs("</th><td class=\"l\">", f);
	if (json_is_string(v) || s != NULL)
		report_html_text(f, s != NULL ? s : json_string_value(v));
	fputs("</td></tr>\n", f);
	free(s);
}

/* A figure cell, @p prec decimals: "-" when the member is not a number. */
static void
html_num_cell(FILE *f, const json_t *o, const char *key, int prec, double scale)
{
	const json_t *v = json_object_get(o, key);

	fputs("<td>", f);
	if (json_is_number(v))
		fprintf(f, "%.*f", prec, json_number_value(v) * scale);
	else
		fputc('-', f);
	fputs("</td>", f);
}

static void
html_metadata(FILE *f, const json_t *summary)
{
	static const char *const top[] = {"title",  "flow_type", "line_rate_bps",
					  "trials", "searches",	 "trial_seconds"};
	json_t *meta = json_object_get(summary, "metadata"), *v;
	const char *key;
	unsigned int i;

	fputs("<h2>Run</h2>\n<table id=\"metadata\">\n", f);
	for (i = 0; i < sizeof(top) / sizeof(top[0]); i++)
		if (json_object_get(summary, top[i]) != NULL)
			html_meta_row(f, top[i], json_object_get(summary, top[i]));
	json_object_foreach(meta, key, v)
		html_meta_row(f, key, v);
	fputs("</table>\n", f);
}

static void
html_goals_table(FILE *f, const json_t *summary)
{
	const json_t *pt, *g;
	const char *name;
	size_t i;

	fputs("<h2>NDR and PDR</h2>\n<table id=\"goals\">\n"
	      "<tr><th>size (B)</th><th>flows</th><th class=\"l\">goal</th><th>rate (pps)</th>"
	      "<th>% of line</th><th>repeats</th><th>min (pps)</th><th>max (pps)</th>"
	      "<th>spread (%)</th><th class=\"l\">status</th></tr>\n",
	      f);
	json_array_foreach(json_object_get(summary, "points"), i, pt) {
		json_object_foreach(json_object_get(pt, "goals"), name, g) {
			fprintf(f, "<tr><td>%.0f</td><td>%.0f</td><td class=\"l\">",
				report_num(pt, "size", 0), report_num(pt, "flows", 0));
			report_html_text(f, name);
			fputs("</td>", f);
			html_num_cell(f, g, "pps", 0, 1);
			html_num_cell(f, g, "line_rate_pct", 2, 1);
			html_num_cell(f, g, "repeats", 0, 1);
			html_num_cell(f, g, "min_pps", 0, 1);
			html_num_cell(f, g, "max_pps", 0, 1);
			html_num_cell(f, g, "spread", 1, 100);
			fputs("<td class=\"l\">", f);
			report_html_text(f, report_str(g, "status", "-"));
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}

/* One goal's median per point as a bar, its repeats' min..max as an error bar. */
static void
html_plot_throughput(FILE *f, const json_t *summary, const char *goal)
{
	const json_t *pts = json_object_get(summary, "points"), *pt, *g;
	struct report_bar *bars;
	char id[64], title[96];
	size_t i, n = json_array_size(pts);

	bars = calloc(n > 0 ? n : 1, sizeof(*bars));
	if (bars == NULL)
		return;
	json_array_foreach(pts, i, pt) {
		g = json_object_get(json_object_get(pt, "goals"), goal);
		snprintf(bars[i].label, sizeof(bars[i].label), "%.0f B, %.0f fl",
			 report_num(pt, "size", 0), report_num(pt, "flows", 0));
		bars[i].value = report_num(g, "pps", NAN);
		bars[i].lo = report_num(g, "min_pps", NAN);
		bars[i].hi = report_num(g, "max_pps", NAN);
	}
	snprintf(id, sizeof(id), "plot-throughput-%s", goal);
	snprintf(title, sizeof(title), "%s per point (median of the repeats, min..max)", goal);
	report_svg_bars(f, id, title, bars, n);
	free(bars);
}

/* p50 and p99 over the load, one line each per point. @return whether drawn. */
static bool
html_plot_latency(FILE *f, const json_t *summary)
{
	static const char *const figs[] = {"p50_ns", "p99_ns"};
	static const char *const colours[] = {"#4a7ebb", "#bb4a4a", "#4abb6b", "#bb9a4a"};
	const double pw = REPORT_SVG_W - REPORT_SVG_L - REPORT_SVG_R;
	const double ph = REPORT_SVG_H - REPORT_SVG_T - REPORT_SVG_B;
	const double y0 = REPORT_SVG_T + ph;
	const json_t *pts = json_object_get(summary, "points"), *pt, *e;
	unsigned int k, line = 0;
	double ymax = 0;
	size_t i, j;

	json_array_foreach(pts, i, pt)
		json_array_foreach(json_object_get(pt, "latency"), j, e)
			for (k = 0; k < 2; k++)
				ymax = fmax(ymax, report_num(e, figs[k], 0) / 1e3);
	if (!(ymax > 0))
		return false;
	ymax = report_svg_axis_max(ymax);
	report_svg_open(f, "plot-latency", "latency over the load (% of the reference rate)",
			"latency (us)", ymax);
	for (k = 0; k <= 10; k += 2)
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%u "
			"%%</text>\n",
			REPORT_SVG_L + pw * k / 10, y0 + 16, k * 10);
	json_array_foreach(pts, i, pt) {
		if (json_array_size(json_object_get(pt, "latency")) == 0)
			continue;
		for (k = 0; k < 2; k++, line++) {
			fprintf(f,
				"<polyline class=\"series\" fill=\"none\" stroke-width=\"2\" "
				"stroke=\"%s\"%s points=\"",
				colours[line % 4], k == 1 ? " stroke-dasharray=\"5 3\"" : "");
			json_array_foreach(json_object_get(pt, "latency"), j, e)
				fprintf(f, "%.1f,%.1f ",
					REPORT_SVG_L + pw * report_num(e, "load_pct", 0) / 100,
					y0 - ph * report_num(e, figs[k], 0) / 1e3 / ymax);
			fprintf(f, "\"><title>%.0f B, %.0f flows, %.3s</title></polyline>\n",
				report_num(pt, "size", 0), report_num(pt, "flows", 0), figs[k]);
			fprintf(f,
				"<text x=\"%d\" y=\"%u\" font-size=\"11\" fill=\"%s\">%.0f B, %.0f "
				"fl, "
				"%.3s</text>\n",
				REPORT_SVG_L + 10, REPORT_SVG_T + 14 * (line + 1),
				colours[line % 4], report_num(pt, "size", 0),
				report_num(pt, "flows", 0), figs[k]);
		}
	}
	fputs("</svg>\n", f);
	return true;
}

/* The DUT trial of (size, flows) whose rate is nearest @p pps, or NULL. */
static const json_t *
html_nearest_trial(const json_t *records, double size, double flows, double pps)
{
	const json_t *rec, *best = NULL;
	double d, best_d = INFINITY;
	struct coord_trial_record t;
	size_t i;

	json_array_foreach(records, i, rec) {
		if (!report_trial(rec, &t) || !t.has_size || t.size != size || !t.has_flows ||
		    t.flows != flows || !t.dut_result || t.has_latency)
			continue;
		d = fabs(t.requested_pps - pps);
		if (d <= best_d) { /* the later trial of equals: the final phase */
			best_d = d;
			best = rec;
		}
	}
	return best;
}

static void
html_hop_loss(FILE *f, const json_t *records, const json_t *summary)
{
	struct coord_trial_record t;
	const json_t *pt, *g, *v;
	const char *hop;
	size_t i;

	fputs("<h2>Per-hop loss of the trial nearest each NDR</h2>\n<table id=\"hop-loss\">\n"
	      "<tr><th>size (B)</th><th>flows</th><th>NDR (pps)</th><th>trial (pps)</th>"
	      "<th>duration (s)</th><th>tx</th><th>rx</th><th class=\"l\">lost by hop</th>"
	      "<th>unattributed</th></tr>\n",
	      f);
	json_array_foreach(json_object_get(summary, "points"), i, pt) {
		g = json_object_get(json_object_get(pt, "goals"), "ndr");
		if (!json_is_number(json_object_get(g, "pps")))
			continue;
		if (!report_trial(html_nearest_trial(records, report_num(pt, "size", 0),
						     report_num(pt, "flows", 0),
						     report_num(g, "pps", 0)),
				  &t))
			continue;
		fprintf(f, "<tr><td>%.0f</td><td>%.0f</td><td>%.0f</td>", report_num(pt, "size", 0),
			report_num(pt, "flows", 0), report_num(g, "pps", 0));
		/* A record may leave the rate it asked for out ("-"). */
		if (t.has_requested)
			fprintf(f, "<td>%.0f</td>", t.requested_pps);
		else
			fputs("<td>-</td>", f);
		fprintf(f, "<td>%.3f</td><td>%.0f</td><td>%.0f</td><td class=\"l\">", t.duration_s,
			(double)t.tx_packets, (double)t.rx_packets);
		json_object_foreach(t.hop_lost, hop, v) {
			report_html_text(f, hop);
			fprintf(f, " %.0f; ", json_number_value(v));
		}
		fprintf(f, "</td><td>%.0f</td></tr>\n", (double)t.unattributed);
	}
	fputs("</table>\n", f);
}

/* Every trial with a truth check "failed", and that check's findings. */
static void
html_failed_checks(FILE *f, const json_t *records)
{
	unsigned int nb = 0, trials = 0;
	struct coord_trial_record t;
	const json_t *rec, *fd;
	const char *check;
	json_t *state;
	size_t i, j;

	fputs("<h2>Truth checks that failed</h2>\n<table id=\"failed-checks\">\n"
	      "<tr><th>size (B)</th><th>flows</th><th>rate (pps)</th><th class=\"l\">check</th>"
	      "<th class=\"l\">findings</th></tr>\n",
	      f);
	json_array_foreach(records, i, rec) {
		if (!report_trial(rec, &t))
			continue;
		trials++;
		json_object_foreach(t.checks, check, state) {
			if (strcmp(json_string_value(state), "failed") != 0)
				continue;
			nb++;
			fprintf(f,
				"<tr class=\"fail\"><td>%.0f</td><td>%.0f</td><td>%.0f</td>"
				"<td class=\"l\">",
				(double)t.size, (double)t.flows, t.requested_pps);
			report_html_text(f, check);
			fputs("</td><td class=\"l\">", f);
			json_array_foreach(t.findings, j, fd) {
				if (strcmp(report_str(fd, "check", ""), check) != 0)
					continue;
				report_html_text(f, report_str(fd, "message", ""));
				fputs("<br>", f);
			}
			fputs("</td></tr>\n", f);
		}
	}
	if (nb == 0)
		fprintf(f, "<tr><td class=\"l\" colspan=\"5\">none failed in %u trials</td></tr>\n",
			trials);
	fputs("</table>\n", f);
}

/*
 * The files beside the page, relative links; the results file by its
 * name when it lies in @p outdir too, else by its absolute path.
 */
static void
html_files(FILE *f, const char *results, const char *outdir, const struct report_info *info)
{
	char res[PATH_MAX], dir[PATH_MAX], *slash;
	const char *link;
	unsigned int i;
	bool in_dir;

	fputs("<h2>Files</h2>\n<ul id=\"files\">\n", f);
	if (results != NULL && realpath(results, res) != NULL && realpath(outdir, dir) != NULL) {
		slash = strrchr(res, '/');
		*slash = '\0';
		in_dir = strcmp(res, dir) == 0;
		*slash = '/';
		link = in_dir ? slash + 1 : res;
		fputs("<li><a href=\"", f);
		report_html_text(f, link);
		fputs("\">", f);
		report_html_text(f, link);
		fputs("</a> (the records)</li>\n", f);
	}
	for (i = 0; i < info->nb_files; i++) {
		fputs("<li><a href=\"", f);
		report_html_text(f, info->files[i]);
		fputs("\">", f);
		report_html_text(f, info->files[i]);
		fputs("</a></li>\n", f);
	}
	fputs("</ul>\n", f);
}

int
report_write_html(const json_t *records, const json_t *summary, const char *outdir,
		  const struct report_opts *o, struct report_info *info)
{
	const json_t *g;
	char path[4096];
	struct pvp_out out;
	const char *title;
	size_t i;
	int ret;

	snprintf(path, sizeof(path), "%s/report.html", outdir);
	ret = pvp_out_open(&out, path, info->error, sizeof(info->error));
	if (ret < 0)
		return ret;
	title = o->title != NULL ? o->title : report_str(summary, "title", "pvpkit");
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
	      out.f);
	report_html_text(out.f, title);
	fprintf(out.f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", html_css);
	report_html_text(out.f, title);
	fputs("</h1>\n", out.f);
	html_metadata(out.f, summary);
	html_goals_table(out.f, summary);
	fputs("<h2>Throughput</h2>\n", out.f);
	json_array_foreach(json_object_get(summary, "goals"), i, g) {
		fputs("<h3>", out.f);
		report_html_text(out.f, json_string_value(g));
		fputs("</h3>\n", out.f);
		html_plot_throughput(out.f, summary, json_string_value(g));
	}
	fputs("<h2>Latency</h2>\n", out.f);
	if (!html_plot_latency(out.f, summary))
		fputs("<p class=\"note\">No latency trials in this run.</p>\n", out.f);
	report_html_oneway(out.f, summary);
	html_hop_loss(out.f, records, summary);
	html_failed_checks(out.f, records);
	html_files(out.f, o->results, outdir, info);
	fputs("</body>\n</html>\n", out.f);
	ret = pvp_out_commit(&out, info->error, sizeof(info->error));
	if (ret < 0)
		return ret;
	report_add_file(info, "report.html");
	return 0;
}
