/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Results and reports of the coordinator: the JSON-lines results file,
 * and the summaries rebuilt from it (summary JSON, CSV in ovs_perf's
 * layout, gnuplot plots).
 *
 * Everything a report shows is computed from the records alone, so
 * `pvpkit report RESULTS` rebuilds the same files after a crash or on
 * another machine (report_rebuild()).
 *
 * Record schema (COORD_RECORD_SCHEMA; doc/reports.rst has the full text).
 * One JSON object per line; "type" says what it is; unknown types and
 * unknown members are ignored, so records can grow.
 *
 * - "trial", "search", "run" (first line of a run: among others
 *   "line_rate_bps", the port speed used for % of line rate and the
 *   theoretical maximum, "title", "flow_type" and "goals"), and the soak's
 *   "soak_interval" and "soak": described once by the tables of
 *   coord_record.h (doc/record-members.rst is written from them); the
 *   coordinator writes them through the tables and the report reads them
 *   through the same ones. A trial reconciles when sum(hop_lost) +
 *   unattributed == tx_packets - rx_packets.
 *
 * Sizes always include the FCS; L1 rates add 20 B per frame (preamble,
 * SFD and inter-frame gap): theoretical max pps = line_rate_bps /
 * ((size + 20) * 8).
 *
 * Nothing here prints: warnings and errors come back to the caller.
 */

#ifndef REPORT_H
#define REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "pvp_lat.h"
#include "pvp_search.h"

#include "coord_record.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes added per frame on the wire: preamble 7, SFD 1, inter-frame gap 12. */
#define REPORT_L1_OVERHEAD 20
/** Line rate assumed when no record gives one: 10 Gbit/s. */
#define REPORT_DEFAULT_LINE_RATE 10e9
/** Most files one report writes. */
#define REPORT_MAX_FILES 32
/** Most repeated searches of one point that a summary takes in. */
#define REPORT_MAX_REPEAT 1000
/** Largest results file report_load() reads (a few KiB per trial). */
#define REPORT_MAX_FILE (256u << 20)
/**
 * Most records report_load() takes: a day's soak at one interval a
 * second is 86,400; a million bounds the memory (each record is a
 * jansson object, hundreds of bytes even when empty) and the time.
 */
#define REPORT_MAX_RECORDS 1000000u
/**
 * Most JSON values (objects, arrays, members' values) report_load()
 * takes from all records together: each is about 140 bytes in memory, so
 * about 560 MB at most; a trial record has tens to a hundred, a day's
 * soak at one interval a second about 2 million in all.
 */
#define REPORT_MAX_VALUES 4000000u
/**
 * Most points (packet size x flow count) a summary or a comparison
 * takes: 64 sizes by 64 flow counts, far more than any search plan.
 */
#define REPORT_MAX_POINTS 4096u
/** Longest one gnuplot script may run by default, in seconds. */
#define REPORT_GNUPLOT_TIMEOUT_S 60

/** What report_load() found besides the records. */
struct report_load_info {
	unsigned int records;	/**< objects loaded */
	unsigned int bad_lines; /**< lines skipped: not a JSON object */
	unsigned int first_bad; /**< line number of the first, 1-based; 0 if none */
	bool truncated_tail;	/**< the last line was cut short and skipped */
	char warning[256];	/**< "results.jsonl:7: ...", empty if none */
};

/**
 * Load every record of a JSON-lines file.
 *
 * A last line with no newline that does not parse is what a crash leaves:
 * it is skipped and reported in @p info (truncated_tail). Other lines
 * that are not JSON objects are skipped and counted. Empty lines are
 * ignored.
 *
 * The file must be a regular file of at most REPORT_MAX_FILE bytes
 * (a FIFO or /dev/zero is refused, not read), with at most
 * REPORT_MAX_RECORDS records of REPORT_MAX_VALUES JSON values
 * in all (what bounds the memory), and a file with lines but no record
 * at all is not a results file.
 *
 * @param path
 *   The file.
 * @param info
 *   If not NULL, receives counts and the first warning; on failure the
 *   warning is the reason, e.g. "/dev/zero: not a regular file (a
 *   character device)".
 * @return
 *   A new JSON array of the records (possibly empty), or NULL with errno
 *   set (ENOENT and the like, EINVAL: not a regular file or not a results
 *   file, EFBIG: too large, too many records or values).
 */
json_t *report_load(const char *path, struct report_load_info *info);

/**
 * Name of a goal: "ndr" for loss ratio 0; "pdr" for @p pdr_index 0; else
 * "pdr" and the ratio in percent, e.g. "pdr0.5%".
 *
 * @param loss_ratio
 *   The goal.
 * @param pdr_index
 *   How many goals with a non-zero ratio came before this one.
 * @param buf
 *   Receives the name.
 * @param len
 *   Size of @p buf.
 * @return
 *   @p buf.
 */
const char *report_goal_name(double loss_ratio, unsigned int pdr_index, char *buf, size_t len);

/**
 * Name of goal @p g of a search: report_goal_name() of its loss
 * ratio (counting the goals with a non-zero ratio before it), then for a
 * goal with a latency bound "+STAT-BOUNDus": "pdr+p99-100us",
 * "ndr+max-2000us".
 * @return @p buf.
 */
const char *report_goal_label(const struct pvp_search_params *p, unsigned int g, char *buf,
			      size_t len);

/**
 * What goal @p g of a search asks, into @p o: name, loss_ratio and, for
 * a goal with a latency bound, latency (has_latency). The run record's
 * goals are these, the search record's add what the search found.
 */
void report_goal_asked(const struct pvp_search_params *p, unsigned int g,
		       struct coord_record_goal *o);

/**
 * Whether @p name can be a goal's name, as report_goal_name()
 * writes them: a lower-case letter, then lower-case letters, digits and
 * ".%+-" ("ndr", "pdr", "pdr0.5%", "pdr1e-05%"), shorter than 32 bytes.
 * A goal names files (<goal>.csv, throughput_<goal>.png) and appears in
 * plot scripts: a record's other names are ignored, never written.
 */
bool report_goal_name_ok(const char *name);

/**
 * Build a "search" record from a finished search.
 *
 * @param p
 *   The search's parameters.
 * @param r
 *   Its result.
 * @param size
 *   Frame size with FCS.
 * @param flows
 *   Flow count.
 * @return
 *   A new object (the caller may add "started", "topology" ... and then
 *   pvp_jsonl_append() it), or NULL on allocation failure.
 */
json_t *report_search_record(const struct pvp_search_params *p, const struct pvp_search_result *r,
			     unsigned int size, unsigned int flows);

/**
 * Whether a trial record's losses add up: sum of "hop_lost" plus
 * "unattributed" equals "tx_packets" - "rx_packets".
 *
 * @param trial
 *   A "trial" record.
 * @return
 *   true if they do; false if not or if a member is missing.
 */
bool report_trial_reconciles(const json_t *trial);

/** Figures over the repeated searches of one point and goal. */
struct report_stats {
	unsigned int n;	 /**< values */
	double median;	 /**< the middle value (mean of the two middle ones) */
	double min;	 /**< smallest */
	double max;	 /**< largest */
	bool has_spread; /**< n >= 3: spread is meaningful */
	double spread;	 /**< (max - min) / median, relative range */
};

/**
 * Median, min, max and (three values or more) the relative range of
 * @p n values, the first REPORT_MAX_REPEAT of them (every caller's most).
 * @p v is not changed; n = 0 gives all zero.
 */
void report_stats(const double *v, unsigned int n, struct report_stats *st);

/**
 * The latency of a trial record, every stream's histogram merged
 * ("streams"[i]."latency_ns"."histogram", as pvpkit-gen reports it).
 *
 * @param trial
 *   A "trial" record.
 * @param lat
 *   Receives the merged histogram (empty when no stream has one).
 * @param clock
 *   If not NULL, receives the streams' clock ("tsc"), "" if none says,
 *   or "unknown" for a name pvp_lat_clock_known() does not know (a
 *   file's text is never passed on).
 * @return
 *   The number of streams merged, or -EINVAL when a histogram is invalid.
 */
int report_trial_latency(const json_t *trial, struct pvp_lat *lat, const char **clock);

/** Report options. */
struct report_opts {
	/** Line rate when no record says; default REPORT_DEFAULT_LINE_RATE. */
	double line_rate_bps;
	/** Title of the CSV and plots; NULL: the run record's, else "pvpkit". */
	const char *title;
	/** gnuplot program (looked up in PATH); default "gnuplot". */
	const char *gnuplot;
	/**
	 * Longest one plot script may run, in seconds, before gnuplot is
	 * killed and the plot noted as not made; 0 (the default):
	 * REPORT_GNUPLOT_TIMEOUT_S.
	 */
	unsigned int gnuplot_timeout_s;
	/** Make plots; default true. */
	bool plots;
	/** Also write report.html (one self-contained page); default false. */
	bool html;
	/** The results file report.html links to, as given; NULL: not linked. */
	const char *results;
};

/** One bar of a throughput plot: a figure in pps and its range. */
struct report_bar {
	char label[64]; /**< under the bar ("64 B, 1 fl", "run 3") */
	double value;	/**< pps; NAN: no bar */
	double lo, hi;	/**< the range drawn as an error bar; NAN: none */
	bool marked;	/**< drawn apart (a regression) */
};

/**
 * Write @p n bars as one standalone SVG file @p path (written anew and
 * renamed over it, pvp_out_open()), titled @p title.
 * @return 0, or -errno with a one-line @p err.
 */
int report_bars_svg(const char *path, const char *title, const struct report_bar *bars, size_t n,
		    char *err, size_t err_len);

/**
 * Set the defaults documented in struct report_opts.
 *
 * @param o
 *   Options to fill.
 */
void report_opts_init(struct report_opts *o);

/**
 * Summarise records: one point per (size, flows), each goal's rate.
 *
 * A point's goals come from its last "search" record; a point with
 * trials but no search record (a run cut short) gets its goals computed
 * from the trials the way the search does (upper bound: lowest failing
 * rate; lower bound: highest passing rate below it, at the longest
 * duration tried), with "source": "trials".
 *
 * @param records
 *   Array of records (report_load()).
 * @param o
 *   Options; NULL for defaults.
 * @return
 *   A new summary object (schema in doc/reports.rst), or NULL with
 *   errno ENOMEM (allocation failure) or E2BIG (records of more than
 *   REPORT_MAX_POINTS points).
 */
json_t *report_summary(const json_t *records, const struct report_opts *o);

/**
 * Write one goal of a summary as CSV in ovs_perf's layout: a title row,
 * ",Packet size", "Number of flows,<size>,...", then one row per flow
 * count with the goal's rate in pps (empty where not measured).
 *
 * @param summary
 *   From report_summary().
 * @param goal
 *   Goal name, e.g. "ndr".
 * @param path
 *   File to (over)write.
 * @return
 *   0, -ENOENT if no point has that goal, or -errno.
 */
int report_write_csv(const json_t *summary, const char *goal, const char *path);

/**
 * Write one goal's repeated searches as CSV, one row per point:
 * "size,flows,repeats,median_pps,min_pps,max_pps,spread_pct,
 * conditional_pps,searches_pps" (the last: every search's lower bound,
 * space-separated, "-" for none). Empty fields where a figure does not
 * exist (spread needs three searches).
 *
 * @return 0 or -errno.
 */
int report_write_repeats_csv(const json_t *summary, const char *goal, const char *path);

/**
 * Write the latency entries of a summary as CSV, one row per point and
 * load: "size,flows,load_pct,rate_pps,reference,loss_ratio,min_us,avg_us,
 * p50_us,p90_us,p99_us,p99_9_us,p99_99_us,max_us,jitter_us,clock", and a
 * last "# tester floor ..." line when the summary has a latency floor.
 *
 * @return 0, -ENOENT if no point has latency entries, or -errno.
 */
int report_write_latency_csv(const json_t *summary, const char *path);

/**
 * Compare two summaries point by point and goal by goal. Each run's
 * figure is a range: min..max of its repeated searches (the lower bound
 * alone for one search), the top widened by the search's width, (upper -
 * lower) / upper. A *regression* is a new range entirely below the old
 * one, a *progression* entirely above; overlapping ranges are
 * "within-noise", a goal without a rate on either side
 * "not-comparable". Points or goals in only one run are left out.
 *
 * Latency, per point both runs have, per load either measured and per
 * figure (p50, p99, p99_99, max): the entries' "range_ns" are the ranges,
 * and a *regression* is a new range entirely above the old one. A load
 * only one run measured is "not-comparable", a figure without a range on
 * either side (the maximum of a single round) "not-judged".
 *
 * @param old_sum
 *   The reference summary (report_summary()).
 * @param new_sum
 *   The summary under test.
 * @param regressions
 *   Receives the number of regressions, throughput and latency.
 * @param progressions
 *   Receives the number of progressions, throughput and latency.
 * @return
 *   {"rows": [{"size", "flows", "goal", "old": {"pps", "lo_pps", "hi_pps",
 *   "repeats"} or null, "new": ..., "change": (new - old) / old,
 *   "verdict"}], "latency_rows": [{"size", "flows", "load_pct", "figure",
 *   "old": {"ns", "lo_ns", "hi_ns", "trials", "rate_pps"} or null, "new":
 *   ..., "change", "verdict"}], "regressions", "progressions",
 *   "latency_regressions", "latency_progressions"}, or NULL on allocation
 *   failure.
 */
json_t *report_compare(const json_t *old_sum, const json_t *new_sum, unsigned int *regressions,
		       unsigned int *progressions);

/** What a report wrote. */
struct report_info {
	struct report_load_info load;	  /**< report_rebuild() only */
	unsigned int nb_files;		  /**< entries in files[] */
	char files[REPORT_MAX_FILES][64]; /**< names written, relative to outdir */
	bool plots_done;		  /**< gnuplot ran and made every image */
	/** Why plots were not made (gnuplot missing or failed), empty if made. */
	char plot_note[256];
	/** Why the report failed, one line ("out: writable by others ..."), or empty. */
	char error[256];
};

/**
 * Plot a comparison (report_compare()) as compare.{dat,gp,png,svg}
 * in @p outdir: per point and goal, old and new medians with their ranges
 * as error bars; with latency rows on both sides also
 * compare_latency.{dat,gp,png,svg}, the latency figures with theirs.
 *
 * @return 0, or -errno with @p info->plot_note saying why.
 */
int report_compare_plot(const json_t *cmp, const char *outdir, const char *gnuplot,
			const char *title, struct report_info *info);

/**
 * Which image terminals a gnuplot has.
 *
 * @param gnuplot
 *   Program name or path; NULL for "gnuplot".
 * @param png
 *   Receives the PNG terminal ("pngcairo" or "png"), or "" if none.
 * @param png_len
 *   Size of @p png.
 * @param svg
 *   Receives true if the "svg" terminal exists.
 * @return
 *   0, or -ENOENT if gnuplot cannot be run.
 */
int report_gnuplot_terminals(const char *gnuplot, char *png, size_t png_len, bool *svg);

/**
 * Write every summary of the records into a directory: summary.json,
 * <goal>.csv for each goal, and, when gnuplot is there,
 * throughput_<goal>.{gp,dat,png,svg} and loss_per_hop.{gp,dat,png,svg}.
 * The gnuplot scripts and data files stay next to the images so a plot
 * can be restyled by hand. gnuplot runs through fork/exec, never a shell.
 *
 * @param records
 *   Array of records.
 * @param outdir
 *   Directory, created if missing.
 * @param o
 *   Options; NULL for defaults.
 * @param info
 *   If not NULL, receives what was written and why plots were skipped.
 * @return
 *   0 (also when plots were skipped: see info->plot_note), or -errno.
 */
int report_write_all(const json_t *records, const char *outdir, const struct report_opts *o,
		     struct report_info *info);

/**
 * Rebuild every report from a results file alone: report_load()
 * then report_write_all().
 *
 * @param results
 *   The JSON-lines file.
 * @param outdir
 *   Directory for the reports.
 * @param o
 *   Options; NULL for defaults.
 * @param info
 *   If not NULL, receives the load warnings and what was written.
 * @return
 *   0 or -errno.
 */
int report_rebuild(const char *results, const char *outdir, const struct report_opts *o,
		   struct report_info *info);

#ifdef __cplusplus
}
#endif

#endif /* REPORT_H */
