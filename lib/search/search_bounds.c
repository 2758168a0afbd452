/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What the trials so far say of a load and of a goal's bounds, and the
 * next rate each algorithm asks for, recomputed from the trial list at
 * every step (pvp_search.c).
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search_private.h"

/*
 * A DUT result: neither generator-limited nor the warm-up trial, which
 * only primes caches and flow tables and says nothing about a load.
 */
bool
search_trial_counts(const struct pvp_search_trial_rec *t)
{
	return !t->generator_limited && !t->warmup;
}

/* Whether any trial so far is a DUT result. */
bool
search_any_counted(const struct pvp_search *s)
{
	unsigned int i;

	for (i = 0; i < s->nb_trials; i++)
		if (search_trial_counts(&s->trials[i]))
			return true;
	return false;
}

/* The trial counts as a pass for the lower bound at this duration. */
bool
search_trial_long_enough(const struct pvp_search_trial_rec *t, double duration)
{
	return t->duration >= duration * (1 - SEARCH_EPS);
}

bool
search_same_rate(double a, double b)
{
	return fabs(a - b) <= SEARCH_EPS * fmax(fabs(a), fabs(b));
}

/* Trial time that decides a load in a phase of trials @p d s long. */
static double
search_duration_sum(const struct pvp_search *s, double d)
{
	double sum = s->p.duration_sum > 0 ? s->p.duration_sum : s->p.final_duration;

	return sum * d / s->p.final_duration;
}

/*
 * RFC 9971's load classification for goal g at @p rate, with trials of
 * @p d s and a duration sum @p dsum; *measured says whether any trial
 * counted.
 */
static enum search_load_class
search_load_class(const struct pvp_search *s, unsigned int g, double rate, double d, double dsum,
		  bool *measured)
{
	const struct pvp_search_trial_rec *t;
	double good = 0, bad = 0, total, denom, missing, allowed;
	unsigned int i;

	for (i = 0; i < s->nb_trials; i++) {
		t = &s->trials[i];
		if (!search_trial_counts(t) || !search_same_rate(t->rate, rate))
			continue;
		if (!(t->met & (1u << g))) {
			/* Loss in a short trial is real: count it in full. */
			bad += fmax(t->duration, d);
		} else if (search_trial_long_enough(t, d)) {
			good += t->duration;
		}
	}
	total = good + bad;
	*measured = total > 0;
	denom = fmax(dsum, total);
	allowed = s->p.exceed_ratio * denom * (1 + SEARCH_EPS);
	missing = dsum - total > dsum * SEARCH_EPS ? dsum - total : 0;
	if (bad > allowed)
		return LOAD_FAILS; /* even if all the missing time passed */
	if (bad + missing <= allowed)
		return LOAD_PASSES; /* even if all the missing time failed */
	return LOAD_UNDECIDED;
}

/*
 * Bounds of goal g with trials of @p d s: the lowest load that fails, the
 * highest load below it that passes (a pass above a failure is noise and
 * proves nothing), and the highest undecided load between them.
 */
void
search_bounds(const struct pvp_search *s, unsigned int g, double d, struct search_bounds *b)
{
	double dsum = search_duration_sum(s, d);
	const struct pvp_search_trial_rec *t;
	enum search_load_class c;
	bool measured;
	unsigned int i;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < s->nb_trials; i++) {
		t = &s->trials[i];
		if (!search_trial_counts(t) || (t->met & (1u << g)))
			continue;
		if (b->has_upper && t->rate >= b->upper)
			continue;
		if (search_load_class(s, g, t->rate, d, dsum, &measured) == LOAD_FAILS) {
			b->has_upper = true;
			b->upper = t->rate;
		}
	}
	for (i = 0; i < s->nb_trials; i++) {
		t = &s->trials[i];
		if (!search_trial_counts(t) || (b->has_upper && t->rate >= b->upper))
			continue;
		if (b->has_lower && t->rate <= b->lower)
			continue;
		c = search_load_class(s, g, t->rate, d, dsum, &measured);
		if (c == LOAD_PASSES) {
			b->has_lower = true;
			b->lower = t->rate;
		}
	}
	for (i = 0; i < s->nb_trials; i++) {
		t = &s->trials[i];
		if (!search_trial_counts(t) || (b->has_upper && t->rate >= b->upper) ||
		    (b->has_lower && t->rate <= b->lower) ||
		    (b->has_undecided && t->rate <= b->undecided))
			continue;
		if (search_load_class(s, g, t->rate, d, dsum, &measured) == LOAD_UNDECIDED &&
		    measured) {
			b->has_undecided = true;
			b->undecided = t->rate;
		}
	}
}

/*
 * The failed trial of goal g nearest to the bound at each of the two
 * longest durations with one: *a the longest, *b the next (NULL if none).
 */
static void
search_failures(const struct pvp_search *s, unsigned int g, const struct pvp_search_trial_rec **a,
		const struct pvp_search_trial_rec **b)
{
	const struct pvp_search_trial_rec *t;
	unsigned int i;

	*a = NULL;
	*b = NULL;
	for (i = 0; i < s->nb_trials; i++) {
		t = &s->trials[i];
		if (!search_trial_counts(t) || (t->met & (1u << g)) || t->rx == 0)
			continue;
		if (*a == NULL || search_same_rate(t->duration, (*a)->duration)) {
			if (*a == NULL || t->rate < (*a)->rate)
				*a = t;
		} else if (t->duration > (*a)->duration) {
			*b = *a;
			*a = t;
		} else if (*b == NULL || t->duration > (*b)->duration * (1 + SEARCH_EPS) ||
			   (search_same_rate(t->duration, (*b)->duration) &&
			    t->rate < (*b)->rate)) {
			*b = t;
		}
	}
}

/*
 * The rate goal g should pass at in trials of @p d s, from what the DUT
 * forwarded in the trials that failed it. A DUT with a buffer (a
 * policer's bucket, a vswitch's queues) forwards C d + B packets in an
 * overloaded trial of d s, so what came back per second in a short trial
 * overestimates what a longer one passes. Two failures at different
 * durations tell C from B; with one duration, B is taken as 0. *fitted
 * says whether two durations gave the estimate. @return false without a
 * failed trial.
 */
bool
search_estimate(const struct pvp_search *s, unsigned int g, double d, double *est, bool *fitted)
{
	const struct pvp_search_trial_rec *a, *b;
	double c, buf;

	*fitted = false;
	search_failures(s, g, &a, &b);
	if (a == NULL)
		return false;
	c = (double)a->rx / a->duration;
	if (b != NULL) {
		/*
		 * A fit that says the DUT forwards less per second in longer
		 * trials (noise, not a buffer) is not used, nor one whose
		 * buffer is under a packet (rounding: no buffer) or a good
		 * part of what a trial forwarded: a DUT that forwards more
		 * the more it is offered (it loses only part of the excess)
		 * gives such a fit, and its estimate would be far too low.
		 */
		double rate = ((double)a->rx - (double)b->rx) / (a->duration - b->duration);

		buf = (double)a->rx - rate * a->duration;
		if (rate > 0 && buf >= 1 && buf <= (double)b->rx / 4) {
			c = rate + buf / d;
			*fitted = true;
		}
	}
	*est = c / (1 - s->p.loss_ratio[g]);
	return true;
}

/* Highest pass of goal g shorter than min_duration inside (lo, hi). */
static bool
search_candidate(const struct pvp_search *s, unsigned int g, double min_duration, double lo,
		 double hi, double *rate)
{
	const struct pvp_search_trial_rec *t;
	bool found = false;
	unsigned int i;

	for (i = 0; i < s->nb_trials; i++) {
		t = &s->trials[i];
		if (!search_trial_counts(t) || !(t->met & (1u << g)) ||
		    search_trial_long_enough(t, min_duration))
			continue;
		if (t->rate <= lo || t->rate >= hi || t->rate > s->eff_max)
			continue;
		if (!found || t->rate > *rate) {
			found = true;
			*rate = t->rate;
		}
	}
	return found;
}

bool
search_rate_at_least(double a, double b)
{
	return a >= b * (1 - SEARCH_EPS);
}

/* The goal needs no more trials in the current phase. */
bool
search_goal_done(const struct pvp_search *s, const struct search_bounds *b, double width)
{
	if (b->has_lower && search_rate_at_least(b->lower, s->eff_max))
		return true;
	if (b->has_upper && search_rate_at_least(s->p.min_rate, b->upper))
		return true;
	if (b->has_lower && b->has_upper && (b->upper - b->lower) / b->upper <= width + SEARCH_EPS)
		return true;
	return false;
}

static double
clip_rate(const struct pvp_search *s, double r)
{
	if (r > s->eff_max)
		r = s->eff_max;
	if (r < s->p.min_rate)
		r = s->p.min_rate;
	return r;
}

/* RFC 2544: halve [lower or min_rate, upper] until narrow enough. */
void
search_binary_next(const struct pvp_search *s, const struct search_bounds *b, double *rate,
		   enum search_kind *kind)
{
	double lo;

	if (!b->has_upper) {
		*rate = s->eff_max;
		*kind = KIND_MAX;
		return;
	}
	lo = b->has_lower ? b->lower : s->p.min_rate;
	if ((b->upper - lo) / b->upper <= s->p.width_goal) {
		/* Narrow, but the floor was never measured: measure it. */
		*rate = s->p.min_rate;
		*kind = KIND_MIN;
		return;
	}
	*rate = (lo + b->upper) / 2;
	*kind = KIND_MID;
}

/*
 * MLR, one goal, one phase. A pass at a shorter duration is the best
 * guess for the lower bound and is re-measured first, unless failures at
 * two durations show a buffer that makes it too high: then the estimate
 * for this duration is measured instead (search_estimate()), when it
 * lies between the bounds. Without a lower bound, the first step below
 * a failure aims at the estimate, then the step doubles ("external
 * search"). Above a lower bound the step starts at the phase width and
 * doubles while trials pass, then the search bisects ("internal
 * search").
 */
void
search_mlr_next(struct pvp_search *s, unsigned int g, const struct search_bounds *b, double *rate,
		enum search_kind *kind)
{
	struct search_goal_state *st = &s->gs[g];
	double d = s->phase_duration[s->phase];
	double w = s->phase_width[s->phase];
	double lo = b->has_lower ? b->lower : 0;
	double hi = b->has_upper ? b->upper : INFINITY;
	double c = 0, est = 0, mid;
	bool fitted = false;

	if (!b->has_upper) {
		*rate = s->eff_max;
		*kind = KIND_MAX;
		return;
	}
	/* A DUT that forwarded nothing: the estimate is 0, the minimum rate. */
	search_estimate(s, g, d, &est, &fitted);
	if (!st->cand_tried && search_candidate(s, g, d, lo, hi, &c)) {
		st->cand_tried = true;
		if (fitted && est < c) {
			c = clip_rate(s, est);
			if (c <= lo || c >= hi)
				c = 0;
		}
		if (c > 0) {
			*rate = c;
			*kind = KIND_CANDIDATE;
			return;
		}
	}
	if (!b->has_lower) {
		if (st->down_w == 0 || (fitted && !st->fit_down)) {
			/*
			 * What came back in the failing trials is roughly
			 * what the DUT can forward; for a loss-ratio goal the
			 * offered rate may be that much higher. The first
			 * estimate that tells a buffer from the rate is worth
			 * a step of its own before the step doubles.
			 */
			if (st->down_w == 0)
				st->down_w = w;
			st->fit_down = fitted;
			*rate = fmin(est, b->upper * (1 - w));
		} else {
			/* At most halve: a bigger jump lands far below the bound. */
			*rate = b->upper * (1 - fmin(st->down_w, 0.5));
		}
		*rate = clip_rate(s, *rate);
		*kind = KIND_DOWN;
		return;
	}
	mid = (b->lower + b->upper) / 2;
	if (isfinite(st->up_w) && b->lower / (1 - fmin(st->up_w, 0.5)) < mid) {
		*rate = clip_rate(s, b->lower / (1 - fmin(st->up_w, 0.5)));
		*kind = KIND_UP;
		return;
	}
	*rate = clip_rate(s, mid);
	*kind = KIND_MID;
}

/*
 * The width goal g must reach in the current phase. A phase before the
 * last narrows to the final width only where its bounds say something of
 * the final duration's: when failures at two durations show a buffer
 * that puts this phase's capacity more than the final width above the
 * final duration's, the last phase starts from the estimate instead
 * (search_mlr_next()) and this phase stops at twice its width.
 */
double
search_phase_width(const struct pvp_search *s, unsigned int g)
{
	double w = s->phase_width[s->phase], here, final;
	bool fitted;

	if (s->phase + 1 >= s->nb_phases ||
	    !search_estimate(s, g, s->phase_duration[s->phase], &here, &fitted) || !fitted ||
	    !search_estimate(s, g, s->p.final_duration, &final, &fitted))
		return w;
	return here - final > s->p.width_goal * final ? fmin(0.5, 2 * w) : w;
}

/* Stop before a trial the budget cannot pay for. */
bool
search_budget_left(struct pvp_search *s, double duration)
{
	if (s->p.max_trials > 0 && s->nb_trials >= s->p.max_trials)
		return false;
	if (s->nb_trials >= SEARCH_HARD_MAX_TRIALS)
		return false;
	if (s->p.max_time > 0 && s->total_time + duration > s->p.max_time * (1 + SEARCH_EPS))
		return false;
	return true;
}
