/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/* Helpers shared by the report sources; not part of the API. */

#ifndef REPORT_PRIVATE_H
#define REPORT_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "pvp_util.h"

#include "report.h"

/** Largest magnitude report_num() takes from a record. */
#define REPORT_NUM_MAX 1e18

/** Number member of @p o, or @p dflt if absent, not a number or beyond ±REPORT_NUM_MAX. */
double report_num(const json_t *o, const char *key, double dflt);

/** String member of @p o, or @p dflt. */
const char *report_str(const json_t *o, const char *key, const char *dflt);

/** Whether @p rec has "type" == @p type. */
bool report_is_type(const json_t *rec, const char *type);

/** @p rec as a trial record, read through its table; false when it is none or does not fit. */
bool report_trial(const json_t *rec, struct coord_trial_record *tr);

/** @p rec as a search record, as report_trial(). */
bool report_search(const json_t *rec, struct coord_search_record *sr);

/** @p rec as a run record, as report_trial(). */
bool report_run(const json_t *rec, struct coord_run_record *rr);

/** @p rec as a "soak_interval" or "soak" record, as report_trial(). */
bool report_soak(const json_t *rec, struct coord_soak_record *sr);

/** Theoretical maximum pps of @p size-byte frames (with FCS) at @p line_rate_bps. */
double report_max_pps(double line_rate_bps, double size);

/**
 * Make the throughput plot of one goal and the loss-per-hop plot in
 * @p outdir; adds the names written to @p info.
 * @return 0, or -errno (info->plot_note says why).
 */
int report_plots(const json_t *records, const json_t *summary, const char *outdir,
		 const struct report_opts *o, struct report_info *info);

/**
 * The latency entries of a point from its records @p recs (its trials
 * and searches, as report_oneway_point()), sorted by load: per load
 * the trials of the last set (the rounds of one --repeat; a trial without
 * a set alone), their histograms merged, with "trials" and "range_ns"
 * (each percentile's confidence interval per trial, lowest to highest
 * over the rounds). @return a new array, or NULL if none.
 */
json_t *report_latency_point(const json_t *recs);

/**
 * One-way latency of a point from its records @p recs (report_oneway.c):
 * the last trial with "oneway", its rate_pps, guest and source, and
 * either "measured": true with per stream to_guest and from_guest
 * (count, p50_us, p99_us, max_us) or "measured": false with "reason".
 * @return a new object, or NULL when no trial has "oneway".
 */
json_t *report_oneway_point(const json_t *recs);

/** report.html's one-way latency table from the points' "oneway". */
void report_html_oneway(FILE *f, const json_t *summary);

/** The last "latency_floor" record's figures, or NULL. */
json_t *report_latency_floor(const json_t *records);

/* SVG plots drawn by the report itself (report_svg.c): the plot area, in SVG user units. */
#define REPORT_SVG_W	  720
#define REPORT_SVG_H	  300
#define REPORT_SVG_L	  80 /* left margin: the y labels */
#define REPORT_SVG_B	  50 /* bottom margin: the x labels */
#define REPORT_SVG_T	  20
#define REPORT_SVG_R	  20
#define REPORT_SVG_YTICKS 5

/** @p s as HTML/XML text (also safe inside a quoted attribute). */
void report_html_text(FILE *f, const char *s);

/** A round upper bound for an axis from 0 to @p v. */
double report_svg_axis_max(double v);

/** An <svg> plot's frame, grid and y labels; @p ymax in the labels' unit. */
void report_svg_open(FILE *f, const char *id, const char *title, const char *ylabel, double ymax);

/**
 * A whole <svg> plot of @p n bars in packets per second (drawn in Mpps):
 * each bar's value, its lo..hi as an error bar where both are numbers,
 * and a marked bar in red with class "bar marked".
 */
void report_svg_bars(FILE *f, const char *id, const char *title, const struct report_bar *bars,
		     size_t n);

/** How gnuplot runs and where the plots of one report or comparison go. */
struct report_gp {
	const char *prog;	  /**< program name or path */
	int log_fd;		  /**< gnuplot.log: its stdout and stderr */
	unsigned int timeout_s;	  /**< longest one script may run before it is killed */
	const char *outdir;	  /**< the directory of the scripts, data and images */
	char png[16];		  /**< the PNG terminal ("pngcairo", "png"), "" for none */
	bool svg;		  /**< gnuplot has the svg terminal */
	const char *title;	  /**< the plots' title, safe in a script (report_plot_clean()) */
	struct report_info *info; /**< what was written, why a plot was not made */
};

/** Make latency.{dat,gp,png,svg} when a point has latency entries. @return 0 or -errno. */
int report_plot_latency(const json_t *summary, const struct report_gp *gp);

/**
 * soak.csv from the "soak_interval" records in @p gp->outdir or, when
 * @p plots, the plot of loss and latency over time (soak.{dat,gp,png,svg}).
 * Nothing when there are no such records. @return 0 or -errno.
 */
int report_write_soak(const json_t *records, const struct report_gp *gp, bool plots);

/** The soak's totals and its worst interval, or NULL when no soak records. */
json_t *report_soak_summary(const json_t *records);

/**
 * report.html in @p outdir from @p summary and @p records, linking
 * o->results and the files already in @p info; adds its name to @p info.
 * @return 0, or -errno with info->error saying why.
 */
int report_write_html(const json_t *records, const json_t *summary, const char *outdir,
		      const struct report_opts *o, struct report_info *info);

/**
 * Before a script's plot command: the terminal and output of the first
 * image format for @p base, @p width pixels wide.
 */
void report_plot_begin(FILE *f, const struct report_gp *gp, const char *base, unsigned int width);

/**
 * After the plot command in @p o: its end, the second image format
 * replotted; then the script is closed (pvp_out_commit()) and, when
 * @p run, run (report_plot_run()).
 * @return 0 or -errno.
 */
int report_plot_end(struct pvp_out *o, const struct report_gp *gp, const char *base,
		    unsigned int width, bool run);

/**
 * Run @p base.gp (old images removed first, so gnuplot never writes
 * through a link left there); list what it made in @p gp->info.
 * @return 0, or -EIO (failed, or killed after @p gp->timeout_s) with a note.
 */
int report_plot_run(const struct report_gp *gp, const char *base);

/** Create gnuplot.log in @p gp->outdir into @p log, @p gp->log_fd its descriptor. 0 or -errno with a note. */
int report_plot_log_open(struct pvp_out *log, struct report_gp *gp);

/** Record @p name as written in @p info. */
void report_add_file(struct report_info *info, const char *name);

/** The point (@p size, @p flows) of @p summary, or NULL (report_csv.c). */
const json_t *report_point(const json_t *summary, double size, double flows);

/**
 * True when a point of @p summary was searched more than once for
 * @p goal, or for any goal when it is NULL (report_csv.c).
 */
bool report_summary_has_repeats(const json_t *summary, const char *goal);

/* gnuplot helpers shared by the plots (report_plot.c). */

/** @p v as one CSV field: quoted when it holds a comma, quote or newline. */
void report_csv_field(FILE *f, const char *v);

/**
 * Text safe inside a gnuplot double-quoted string or a quoted data
 * field: names come from user files and must not end the string.
 */
void report_plot_clean(char *dst, size_t len, const char *src);

/**
 * Start writing @p outdir/@p base.@p ext into @p o (pvp_out_open(): a
 * new file renamed over the name when done, never through a link).
 * @return its FILE, or NULL with errno set.
 */
FILE *report_plot_file(struct pvp_out *o, const char *outdir, const char *base, const char *ext);

/** Finish the .dat file in @p o and start the gnuplot script next to it; NULL with errno set. */
FILE *report_plot_script(struct pvp_out *o, const char *outdir, const char *base);

#endif /* REPORT_PRIVATE_H */
