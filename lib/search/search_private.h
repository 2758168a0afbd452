/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * lib/search's state and the arithmetic of loads and bounds
 * (search_bounds.c) that pvp_search.c's iterator uses. Private to
 * lib/search.
 */

#ifndef SEARCH_PRIVATE_H
#define SEARCH_PRIVATE_H

#include <stdbool.h>

#include "pvp_search.h"

/* Relative slack when comparing rates computed in floating point. */
#define SEARCH_EPS 1e-9
/* Packets a buffer fitted from one rate must hold to be one. */
#define SEARCH_MIN_FIT_BUFFER 8
/*
 * Losses a search measures again (search_loss_suspect()): a stall is
 * rare; a host that loses at every rate would double every trial.
 */
#define SEARCH_MAX_LOSS_REMEASURE 2
/* A search that needs more trials than this has a bug; stop it. */
#define SEARCH_HARD_MAX_TRIALS 10000

/* Why a trial was asked for: decides what its outcome changes. */
enum search_kind {
	KIND_MAX,	/* the maximum rate */
	KIND_CANDIDATE, /* a shorter trial's pass, re-measured longer */
	KIND_DOWN,	/* external search below the upper bound */
	KIND_UP,	/* external search above the lower bound */
	KIND_MID,	/* bisection */
	KIND_MIN,	/* the minimum rate (binary search's last resort) */
	KIND_REPEAT,	/* an undecided load measured again (exceed ratio) */
	KIND_WARMUP,	/* the warm-up trial, whose result is ignored */
	KIND_PROBE,	/* twice the phase's duration, to fit a buffer (search_mlr_next()) */
};

/* What the trials at one load say of one goal (RFC 9971). */
enum search_load_class {
	LOAD_UNDECIDED, /* measured, but not enough to tell */
	LOAD_FAILS,	/* an upper bound */
	LOAD_PASSES,	/* a lower bound */
};

/* Per goal, per phase: progress of the external search. */
struct search_goal_state {
	bool cand_tried; /* a candidate was re-measured in this phase */
	bool fit_down;	 /* the external search down stepped to a fitted estimate */
	bool probed;	 /* a probe at twice the phase's duration was asked for */
	double down_w;	 /* relative step below the upper bound; 0: not started */
	double up_w;	 /* relative step above the lower bound; INFINITY: bisect */
};

/* Bounds of one goal as the trials so far give them. */
struct search_bounds {
	bool has_lower;
	double lower;
	bool has_upper;
	double upper;
	bool has_undecided;
	double undecided; /* highest undecided load between the bounds */
};

struct pvp_search {
	struct pvp_search_params p;
	struct pvp_search_trial_rec *trials; /* recorded trials */
	unsigned int nb_trials;
	unsigned int cap_trials;
	double eff_max; /* max_rate, lowered when the generator falls short */
	unsigned int gen_in_row;
	unsigned int gen_retries; /* re-measures of the current limited rate */
	bool warmup_done;	  /* the warm-up trial ran (or none was asked) */
	bool retry;		  /* next trial: the limited or loss_suspect one again */
	unsigned int nb_phases;
	double phase_duration[PVP_SEARCH_MAX_PHASES + 2];
	double phase_width[PVP_SEARCH_MAX_PHASES + 2];
	unsigned int phase;
	struct search_goal_state gs[PVP_SEARCH_MAX_GOALS];
	bool pending;
	struct pvp_search_trial pending_trial;
	enum search_kind pending_kind;
	/* The result's counters and flags as they go; pvp_search_get_result() adds the rest. */
	struct pvp_search_result res;
};

/* Loads and bounds (search_bounds.c). */
bool search_trial_counts(const struct pvp_search_trial_rec *t);
bool search_any_counted(const struct pvp_search *s);
bool search_trial_long_enough(const struct pvp_search_trial_rec *t, double duration);
bool search_same_rate(double a, double b);
void search_bounds(const struct pvp_search *s, unsigned int g, double d, struct search_bounds *b);
bool search_rate_at_least(double a, double b);
bool search_goal_done(const struct pvp_search *s, const struct search_bounds *b, double width);
void search_binary_next(const struct pvp_search *s, const struct search_bounds *b, double *rate,
			enum search_kind *kind);
void search_mlr_next(struct pvp_search *s, unsigned int g, const struct search_bounds *b,
		     double *rate, enum search_kind *kind);
bool search_loss_suspect(const struct pvp_search *s, const struct pvp_search_trial_rec *t);
bool search_budget_left(struct pvp_search *s, double duration);
bool search_phase_goal_done(const struct pvp_search *s, unsigned int g,
			    const struct search_bounds *b);
bool search_estimate(const struct pvp_search *s, unsigned int g, double d, double *est,
		     bool *fitted, bool *one_rate);

#endif /* SEARCH_PRIVATE_H */
