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
 * only primes caches and flow tables and says nothing about a load, nor a
 * loss measured again (search_loss_suspect()).
 */
bool
search_trial_counts(const struct pvp_search_trial_rec *t)
{
	return !t->generator_limited && !t->warmup && !t->loss_suspect;
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
 * says whether two durations gave the estimate, *one_rate whether both
 * were offered the same rate: only then does nothing but a buffer explain
 * the difference. A DUT that forwards more the more it is offered fits a
 * buffer from two rates too, and after a trial far above the capacity
 * the queues of the tester and the path drain into the DUT (the policed
 * testbed's first trial, at 2.5 times the capacity, forwarded some 370
 * packets more than C d + B, which put C 1 % low). @return false
 * without a failed trial.
 */
bool
search_estimate(const struct pvp_search *s, unsigned int g, double d, double *est, bool *fitted,
		bool *one_rate)
{
	const struct pvp_search_trial_rec *a, *b;
	double c, buf;

	*fitted = false;
	*one_rate = false;
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
			/*
			 * From one rate, a buffer of a few packets is two
			 * counts rounded (a DUT that loses a part of the
			 * excess fits one of a packet or two).
			 */
			*one_rate =
				search_same_rate(a->rate, b->rate) && buf >= SEARCH_MIN_FIT_BUFFER;
		}
	}
	*est = c / (1 - s->p.loss_ratio[g]);
	return true;
}

/*
 * The lowest rate that failed goal g by losing packets in a trial of
 * @p d s (a latency goal fails without loss: no buffer shows in those).
 */
static bool
search_failure_at(const struct pvp_search *s, unsigned int g, double d, double *rate)
{
	const struct pvp_search_trial_rec *t;
	bool found = false;
	unsigned int i;

	for (i = 0; i < s->nb_trials; i++) {
		t = &s->trials[i];
		if (!search_trial_counts(t) || (t->met & (1u << g)) || t->rx >= t->tx ||
		    !search_same_rate(t->duration, d))
			continue;
		if (!found || t->rate < *rate) {
			found = true;
			*rate = t->rate;
		}
	}
	return found;
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

/* @p r within [min_rate, eff_max] (eff_max is never below min_rate). */
static double
clip_rate(const struct pvp_search *s, double r)
{
	return fmax(fmin(r, s->eff_max), s->p.min_rate);
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
	bool fitted = false, one_rate = false;

	if (!b->has_upper) {
		*rate = s->eff_max;
		*kind = KIND_MAX;
		return;
	}
	/* A DUT that forwarded nothing: the estimate is 0, the minimum rate. */
	search_estimate(s, g, d, &est, &fitted, &one_rate);
	/*
	 * A fit from one rate is close (the policed testbed's within 0.2 %):
	 * aim a quarter of the width below it, so that the trial passes and
	 * the next, one width up, brackets the goal. At the estimate itself
	 * a fit a few packets high fails, and the search walks down.
	 */
	if (one_rate)
		est *= 1 - w / 4;
	if (fitted && !one_rate && !st->probed && s->phase + 1 < s->nb_phases &&
	    search_failure_at(s, g, d, &c)) {
		/*
		 * A buffer fitted from two rates: offer this phase's lowest
		 * failing rate again for twice as long. On a DUT with a
		 * buffer it fails and forwards less per second, which fits
		 * the buffer from one rate; on one that forwards more the
		 * more it is offered, it forwards as much per second and
		 * the fit goes (no buffer).
		 */
		st->probed = true;
		*rate = c;
		*kind = KIND_PROBE;
		return;
	}
	c = 0;
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
 * Goal g needs no more trials in the current phase. A phase before the
 * last ends for a goal once failures at two durations of one rate fit a
 * buffer (search_estimate()): its bounds say nothing of the final duration's, and the
 * last phase starts from the estimate instead (search_mlr_next()).
 * Narrowing here would be paid for again at the final duration.
 */
bool
search_phase_goal_done(const struct pvp_search *s, unsigned int g, const struct search_bounds *b)
{
	bool fitted, one_rate;
	double est;

	if (search_goal_done(s, b, s->phase_width[s->phase]))
		return true;
	return s->phase + 1 < s->nb_phases &&
	       search_estimate(s, g, s->phase_duration[s->phase], &est, &fitted, &one_rate) &&
	       fitted && one_rate;
}

/*
 * Trial @p t (the last one, not counted yet) lost packets at a rate that
 * a buffer fitted from one rate says the DUT forwards in trials this
 * long, for a goal it failed: measure it again, once, and let that trial
 * decide. On a loaded host a stall loses packets at any rate; counted,
 * one such loss walks the NDR down (the policed testbed's 10 s trials
 * lost 0.01-0.3 % at 1-4 % below the cap, binary's NDR once came out
 * 15 % low). The fit is what makes the loss doubtful: two trials at one
 * rate and two durations forwarded C d + B, and this rate is at or below
 * the estimate aimed at (a quarter of the width under it). At most
 * SEARCH_MAX_LOSS_REMEASURE times a search.
 */
bool
search_loss_suspect(const struct pvp_search *s, const struct pvp_search_trial_rec *t)
{
	bool fitted, one_rate;
	unsigned int g;
	double est;

	if (s->p.algo != PVP_SEARCH_MLR || t->loss_remeasure || t->rx >= t->tx ||
	    s->res.nb_loss_remeasured >= SEARCH_MAX_LOSS_REMEASURE)
		return false;
	for (g = 0; g < s->p.nb_goals; g++) {
		if ((t->met & (1u << g)) ||
		    !search_estimate(s, g, t->duration, &est, &fitted, &one_rate) || !one_rate)
			continue;
		if (search_rate_at_least(est * (1 - s->phase_width[t->phase] / 4), t->rate))
			return true;
	}
	return false;
}

/* Stop before a trial the budget cannot pay for. */
bool
search_budget_left(struct pvp_search *s, double duration)
{
	if (s->p.max_trials > 0 && s->nb_trials >= s->p.max_trials)
		return false;
	if (s->nb_trials >= SEARCH_HARD_MAX_TRIALS)
		return false;
	if (s->p.max_time > 0 && s->res.total_time + duration > s->p.max_time * (1 + SEARCH_EPS))
		return false;
	return true;
}
