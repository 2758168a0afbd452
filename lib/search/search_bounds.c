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
 * counted, *loss is the loss ratio of the last failed one.
 */
static enum search_load_class
search_load_class(const struct pvp_search *s, unsigned int g, double rate, double d, double dsum,
		  bool *measured, double *loss)
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
			*loss = t->loss_ratio;
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
	double dsum = search_duration_sum(s, d), loss = 0;
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
		if (search_load_class(s, g, t->rate, d, dsum, &measured, &loss) == LOAD_FAILS) {
			b->has_upper = true;
			b->upper = t->rate;
			b->upper_loss = loss;
		}
	}
	for (i = 0; i < s->nb_trials; i++) {
		t = &s->trials[i];
		if (!search_trial_counts(t) || (b->has_upper && t->rate >= b->upper))
			continue;
		if (b->has_lower && t->rate <= b->lower)
			continue;
		c = search_load_class(s, g, t->rate, d, dsum, &measured, &loss);
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
		if (search_load_class(s, g, t->rate, d, dsum, &measured, &loss) == LOAD_UNDECIDED &&
		    measured) {
			b->has_undecided = true;
			b->undecided = t->rate;
		}
	}
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
 * guess for the lower bound and is re-measured first; without one, the
 * first step below a failure aims at what the DUT forwarded in it, then
 * the step doubles ("external search"). Above a lower bound the step
 * starts at the phase width and doubles while trials pass, then the
 * search bisects ("internal search").
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
	double c = 0, est, mid;

	if (!b->has_upper) {
		*rate = s->eff_max;
		*kind = KIND_MAX;
		return;
	}
	if (!st->cand_tried && search_candidate(s, g, d, lo, hi, &c)) {
		st->cand_tried = true;
		*rate = c;
		*kind = KIND_CANDIDATE;
		return;
	}
	if (!b->has_lower) {
		if (st->down_w == 0) {
			/*
			 * What came back in the failing trial is roughly what
			 * the DUT can forward; for a loss-ratio goal the
			 * offered rate may be that much higher.
			 */
			est = b->upper * (1 - b->upper_loss) / (1 - s->p.loss_ratio[g]);
			st->down_w = w;
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
