/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Progress of a run of searches: which point (size, flows) of how many,
 * which trial, at what rate, the last loss, and an estimate of the time
 * left. On a terminal one status line is redrawn in place (on stderr,
 * cleared before anything else is printed); otherwise every update is a
 * plain line, so logs and pipes get one line per trial.
 */

#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

/** State of the progress display. */
struct cli_progress {
	FILE *f;		/**< where the status goes (stderr) */
	bool tty;		/**< f is a terminal: redraw one line */
	bool drawn;		/**< a status line is on the screen now */
	unsigned int nb_points; /**< searches in the run */
	unsigned int point;	/**< current search, 0-based */
	double point_budget_s;	/**< trial-seconds budget per search, 0: none */
	double t_run;		/**< when the run started (monotonic s) */
	double t_point;		/**< when the current search started */
	double done_s;		/**< wall time of the finished searches */
	double trial_s_point;	/**< trial-seconds of the current search so far */
	char what[64];		/**< "64 B, 1,000 flows" */
};

/**
 * Start a run of @p nb_points searches with a budget of
 * @p point_budget_s trial-seconds each (0: none), reporting to @p f.
 */
void cli_progress_init(struct cli_progress *p, FILE *f, unsigned int nb_points,
		       double point_budget_s);

/** A search starts at @p size B and @p flows flows. */
void cli_progress_point(struct cli_progress *p, unsigned int size, unsigned int flows);

/** Trial @p n (1-based) starts: @p rate pps for @p duration s. */
void cli_progress_trial(struct cli_progress *p, unsigned int n, double rate, double duration);

/** The trial ended with @p loss_pct % lost (negative: not measured). */
void cli_progress_result(struct cli_progress *p, unsigned int n, double rate, double duration,
			 double loss_pct);

/** The current search is over. */
void cli_progress_point_done(struct cli_progress *p);

/** Remove the status line before other output (no-op off a terminal). */
void cli_progress_clear(struct cli_progress *p);

/**
 * Seconds of the run left: the finished searches' average wall time for
 * every search still to come, less what the current one has used; before
 * any search finished, the trial-seconds budget with the overhead seen
 * so far. @return seconds, or a negative value when it cannot be told.
 */
double cli_progress_eta(const struct cli_progress *p, double now);

/** "1h02m", "3m05s", "42s" or "?" into @p buf. */
const char *cli_progress_fmt_s(double s, char *buf, size_t len);

#endif /* CLI_PROGRESS_H */
