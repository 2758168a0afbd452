/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Both algorithms are written as "look at every trial so far, decide the
 * next one": bounds are recomputed from the trial list each step, and the
 * only state kept besides it is the current phase and, per goal, how far
 * the external search has stepped. That keeps the iterator trivially
 * resumable and the bounds always consistent with the recorded trials.
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pvp_search.h"

/* Relative slack when comparing rates computed in floating point. */
#define SEARCH_EPS 1e-9
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
	double down_w;	 /* relative step below the upper bound; 0: not started */
	double up_w;	 /* relative step above the lower bound; INFINITY: bisect */
};

/* Bounds of one goal as the trials so far give them. */
struct search_bounds {
	bool has_lower;
	double lower;
	bool has_upper;
	double upper;
	double upper_loss; /* loss ratio of the upper bound's last failed trial */
	bool has_undecided;
	double undecided; /* highest undecided load between the bounds */
};

struct pvp_search {
	struct pvp_search_params p;
	struct pvp_search_trial_rec *trials; /* recorded trials */
	unsigned int nb_trials;
	unsigned int cap_trials;
	double total_time;
	double eff_max; /* max_rate, lowered when the generator falls short */
	unsigned int gen_in_row;
	unsigned int nb_gen_limited;
	unsigned int gen_retries;	/* re-measures of the current limited rate */
	unsigned int nb_gen_remeasured; /* re-measures asked, all rates */
	unsigned int nb_gen_recovered;	/* re-measures the generator sent cleanly */
	bool warmup_done;		/* the warm-up trial ran (or none was asked) */
	bool retry;			/* next trial: the limited one again */
	struct pvp_search_trial retry_trial;
	enum search_kind retry_kind;
	unsigned int retry_goal;
	unsigned int nb_phases;
	double phase_duration[PVP_SEARCH_MAX_PHASES + 2];
	double phase_width[PVP_SEARCH_MAX_PHASES + 2];
	unsigned int phase;
	struct search_goal_state gs[PVP_SEARCH_MAX_GOALS];
	bool pending;
	struct pvp_search_trial pending_trial;
	enum search_kind pending_kind;
	unsigned int pending_goal;
	bool done;
	bool budget_exhausted;
	bool aborted;
};

const char *
pvp_search_algo_name(enum pvp_search_algo a)
{
	switch (a) {
	case PVP_SEARCH_BINARY:
		return "binary";
	case PVP_SEARCH_MLR:
		return "mlr";
	}
	return "unknown";
}

const char *
pvp_search_goal_status_name(enum pvp_search_goal_status st)
{
	switch (st) {
	case PVP_SEARCH_GOAL_OK:
		return "ok";
	case PVP_SEARCH_GOAL_AT_MAX:
		return "at-max";
	case PVP_SEARCH_GOAL_BELOW_MIN:
		return "below-min";
	case PVP_SEARCH_GOAL_INCOMPLETE:
		return "incomplete";
	}
	return "unknown";
}

void
pvp_search_params_init(struct pvp_search_params *p)
{
	memset(p, 0, sizeof(*p));
	p->algo = PVP_SEARCH_MLR;
	p->min_rate = 1000;
	p->max_rate = 0;
	p->width_goal = PVP_SEARCH_DEFAULT_WIDTH;
	p->initial_duration = 1;
	p->final_duration = 10;
	p->intermediate_phases = 1;
	p->nb_goals = 1;
	p->loss_ratio[0] = 0;
	p->max_gen_limited = 5;
	p->gen_remeasure = 1;
}

int
pvp_search_params_check(const struct pvp_search_params *p, const char **err)
{
	const char *e = NULL;
	unsigned int i;

	if (p == NULL)
		e = "no parameters";
	else if (p->algo != PVP_SEARCH_BINARY && p->algo != PVP_SEARCH_MLR)
		e = "unknown algorithm";
	else if (!(p->min_rate > 0))
		e = "min_rate must be > 0";
	else if (!(p->max_rate >= p->min_rate) || !isfinite(p->max_rate))
		e = "max_rate must be >= min_rate";
	else if (!(p->width_goal > 0 && p->width_goal < 1))
		e = "width_goal must be in (0, 1)";
	else if (!(p->final_duration > 0) || !isfinite(p->final_duration))
		e = "final_duration must be > 0";
	else if (!(p->initial_duration > 0) || !isfinite(p->initial_duration))
		e = "initial_duration must be > 0";
	else if (p->intermediate_phases > PVP_SEARCH_MAX_PHASES)
		e = "too many intermediate phases";
	else if (p->nb_goals < 1 || p->nb_goals > PVP_SEARCH_MAX_GOALS)
		e = "nb_goals must be 1..PVP_SEARCH_MAX_GOALS";
	else if (!(p->max_time >= 0))
		e = "max_time must be >= 0";
	else if (p->max_gen_limited < 1)
		e = "max_gen_limited must be >= 1";
	else if (!(p->exceed_ratio >= 0 && p->exceed_ratio < 1))
		e = "exceed_ratio must be in [0, 1)";
	else if (!(p->duration_sum >= 0) || !isfinite(p->duration_sum))
		e = "duration_sum must be >= 0";
	else if (!(p->warmup_duration >= 0) || !isfinite(p->warmup_duration))
		e = "warmup_duration must be >= 0";
	else if (p->gen_remeasure > PVP_SEARCH_MAX_GEN_REMEASURE)
		e = "gen_remeasure must be 0..PVP_SEARCH_MAX_GEN_REMEASURE";
	for (i = 0; e == NULL && i < p->nb_goals; i++)
		if (!(p->loss_ratio[i] >= 0 && p->loss_ratio[i] < 1))
			e = "loss ratio must be in [0, 1)";
	if (err != NULL)
		*err = e;
	return e == NULL ? 0 : -EINVAL;
}

/* Start a phase: the external search of every goal starts afresh. */
static void
search_phase_reset(struct pvp_search *s)
{
	unsigned int g;

	for (g = 0; g < s->p.nb_goals; g++) {
		s->gs[g].cand_tried = false;
		s->gs[g].down_w = 0;
		s->gs[g].up_w = s->phase_width[s->phase];
	}
}

struct pvp_search *
pvp_search_create(const struct pvp_search_params *p)
{
	struct pvp_search *s;
	unsigned int i, last;

	if (pvp_search_params_check(p, NULL) < 0) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return NULL;
	s->p = *p;
	s->eff_max = p->max_rate;
	s->warmup_done = !(p->warmup_duration > 0);

	/*
	 * Phases: binary search has one, at the final duration. MLR goes
	 * from the initial to the final duration in geometric steps. The
	 * width halves at each phase and reaches the goal one phase before
	 * the last, so that the long trials of the last phase mostly confirm
	 * bounds found with shorter ones: narrowing is paid for in short
	 * trials, where it is cheap.
	 */
	if (p->algo == PVP_SEARCH_BINARY || p->initial_duration >= p->final_duration)
		s->nb_phases = 1;
	else
		s->nb_phases = p->intermediate_phases + 2;
	last = s->nb_phases - 1;
	for (i = 0; i < s->nb_phases; i++) {
		if (last == 0)
			s->phase_duration[i] = p->final_duration;
		else
			s->phase_duration[i] =
				p->initial_duration *
				pow(p->final_duration / p->initial_duration, (double)i / last);
		s->phase_width[i] = fmin(
			0.5, p->width_goal * ldexp(1.0, i + 1 >= last ? 0 : (int)(last - 1 - i)));
	}
	s->phase_duration[last] = p->final_duration;
	s->phase_width[last] = p->width_goal;
	search_phase_reset(s);
	return s;
}

void
pvp_search_destroy(struct pvp_search *s)
{
	if (s == NULL)
		return;
	free(s->trials);
	free(s);
}

/*
 * A DUT result: neither generator-limited nor the warm-up trial, which
 * only primes caches and flow tables and says nothing about a load.
 */
static bool
trial_counts(const struct pvp_search_trial_rec *t)
{
	return !t->generator_limited && !t->warmup;
}

/* The trial counts as a pass for the lower bound at this duration. */
static bool
trial_long_enough(const struct pvp_search_trial_rec *t, double duration)
{
	return t->duration >= duration * (1 - SEARCH_EPS);
}

static bool
same_rate(double a, double b)
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
		if (!trial_counts(t) || !same_rate(t->rate, rate))
			continue;
		if (!(t->met & (1u << g))) {
			/* Loss in a short trial is real: count it in full. */
			bad += fmax(t->duration, d);
			*loss = t->loss_ratio;
		} else if (trial_long_enough(t, d)) {
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
static void
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
		if (!trial_counts(t) || (t->met & (1u << g)))
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
		if (!trial_counts(t) || (b->has_upper && t->rate >= b->upper))
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
		if (!trial_counts(t) || (b->has_upper && t->rate >= b->upper) ||
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
		if (!trial_counts(t) || !(t->met & (1u << g)) || trial_long_enough(t, min_duration))
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

static bool
rate_at_least(double a, double b)
{
	return a >= b * (1 - SEARCH_EPS);
}

/* The goal needs no more trials in the current phase. */
static bool
goal_done(const struct pvp_search *s, const struct search_bounds *b, double width)
{
	if (b->has_lower && rate_at_least(b->lower, s->eff_max))
		return true;
	if (b->has_upper && rate_at_least(s->p.min_rate, b->upper))
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
static void
binary_next(const struct pvp_search *s, const struct search_bounds *b, double *rate,
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
static void
mlr_next(struct pvp_search *s, unsigned int g, const struct search_bounds *b, double *rate,
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
static bool
budget_left(struct pvp_search *s, double duration)
{
	if (s->p.max_trials > 0 && s->nb_trials >= s->p.max_trials)
		return false;
	if (s->nb_trials >= SEARCH_HARD_MAX_TRIALS)
		return false;
	if (s->p.max_time > 0 && s->total_time + duration > s->p.max_time * (1 + SEARCH_EPS))
		return false;
	return true;
}

int
pvp_search_next(struct pvp_search *s, struct pvp_search_trial *t)
{
	struct search_bounds b;
	enum search_kind kind;
	unsigned int g;
	double d, w, rate;

	if (s == NULL || t == NULL)
		return -EINVAL;
	if (s->pending) {
		*t = s->pending_trial;
		return 0;
	}
	if (!s->done && !s->warmup_done) {
		if (!budget_left(s, s->p.warmup_duration)) {
			s->budget_exhausted = true;
			s->done = true;
			return 1;
		}
		memset(&s->pending_trial, 0, sizeof(s->pending_trial));
		s->pending_trial.rate = s->p.max_rate;
		s->pending_trial.duration = s->p.warmup_duration;
		s->pending_trial.index = s->nb_trials;
		s->pending_trial.nb_phases = s->nb_phases;
		s->pending_trial.warmup = true;
		s->pending_kind = KIND_WARMUP;
		s->pending_goal = 0;
		s->pending = true;
		*t = s->pending_trial;
		return 0;
	}
	if (!s->done && s->retry) {
		/* The same trial again: one stall must not lower the ceiling. */
		s->retry = false;
		if (!budget_left(s, s->retry_trial.duration)) {
			s->budget_exhausted = true;
			s->done = true;
			return 1;
		}
		s->pending_trial = s->retry_trial;
		s->pending_trial.index = s->nb_trials;
		s->pending_trial.gen_remeasure = true;
		s->pending_kind = s->retry_kind;
		s->pending_goal = s->retry_goal;
		s->pending = true;
		*t = s->pending_trial;
		return 0;
	}
	while (!s->done) {
		d = s->phase_duration[s->phase];
		w = s->phase_width[s->phase];
		for (g = 0; g < s->p.nb_goals; g++) {
			search_bounds(s, g, d, &b);
			if (!goal_done(s, &b, w))
				break;
		}
		if (g == s->p.nb_goals) {
			if (s->phase + 1 >= s->nb_phases) {
				s->done = true;
				break;
			}
			s->phase++;
			search_phase_reset(s);
			continue;
		}
		if (b.has_undecided) {
			/* Finish what was started: the load needs more time. */
			rate = b.undecided;
			kind = KIND_REPEAT;
		} else if (s->p.algo == PVP_SEARCH_BINARY) {
			binary_next(s, &b, &rate, &kind);
		} else {
			mlr_next(s, g, &b, &rate, &kind);
		}
		if (!budget_left(s, d)) {
			s->budget_exhausted = true;
			s->done = true;
			break;
		}
		s->pending = true;
		memset(&s->pending_trial, 0, sizeof(s->pending_trial));
		s->pending_trial.rate = rate;
		s->pending_trial.duration = d;
		s->pending_trial.index = s->nb_trials;
		s->pending_trial.phase = s->phase;
		s->pending_trial.nb_phases = s->nb_phases;
		s->pending_trial.goal = g;
		s->pending_kind = kind;
		s->pending_goal = g;
		*t = s->pending_trial;
		return 0;
	}
	return 1;
}

static int
search_grow(struct pvp_search *s)
{
	struct pvp_search_trial_rec *n;
	unsigned int cap;

	if (s->nb_trials < s->cap_trials)
		return 0;
	cap = s->cap_trials ? s->cap_trials * 2 : 32;
	n = realloc(s->trials, cap * sizeof(*n));
	if (n == NULL)
		return -ENOMEM;
	s->trials = n;
	s->cap_trials = cap;
	return 0;
}

int
pvp_search_feed(struct pvp_search *s, const struct pvp_search_measurement *m)
{
	struct pvp_search_trial_rec *t;
	struct search_goal_state *st;
	unsigned int g;
	int ret;

	if (s == NULL || m == NULL)
		return -EINVAL;
	if (!s->pending)
		return -EPROTO;
	ret = search_grow(s);
	if (ret < 0)
		return ret;
	s->pending = false;
	t = &s->trials[s->nb_trials++];
	memset(t, 0, sizeof(*t));
	t->rate = s->pending_trial.rate;
	t->duration = s->pending_trial.duration;
	t->achieved_rate = m->achieved_rate;
	t->tx = m->tx;
	t->rx = m->rx;
	t->loss_ratio = m->tx > m->rx ? (double)(m->tx - m->rx) / (double)m->tx : 0;
	/* A trial that sent nothing proves nothing about the DUT. */
	t->generator_limited = m->generator_limited || m->tx == 0;
	t->phase = s->phase;
	t->warmup = s->pending_kind == KIND_WARMUP;
	t->gen_remeasure = s->pending_trial.gen_remeasure;
	s->total_time += t->duration;

	if (t->warmup) {
		/* Primes the path; neither a bound nor the generator's ceiling. */
		s->warmup_done = true;
		return 0;
	}
	if (t->generator_limited) {
		/*
		 * Not a DUT result: it moves no bound. A stall of the tester
		 * (a busy host) can starve one trial of a rate it sends well
		 * otherwise: measure the same trial again, a bounded number
		 * of times, before the ceiling moves.
		 */
		s->nb_gen_limited++;
		if (s->gen_retries < s->p.gen_remeasure) {
			s->gen_retries++;
			s->nb_gen_remeasured++;
			s->retry = true;
			s->retry_trial = s->pending_trial;
			s->retry_kind = s->pending_kind;
			s->retry_goal = s->pending_goal;
			return 0;
		}
		/*
		 * Limited again: the generator showed what it can send; never
		 * ask for more than that again.
		 */
		s->gen_retries = 0;
		s->gen_in_row++;
		if (m->achieved_rate > 0 && m->achieved_rate < t->rate)
			s->eff_max = fmin(s->eff_max, m->achieved_rate * (1 - s->p.width_goal));
		else
			s->eff_max = fmin(s->eff_max, t->rate * 0.95);
		if (s->eff_max < s->p.min_rate)
			s->eff_max = s->p.min_rate;
		if (s->gen_in_row >= s->p.max_gen_limited) {
			s->aborted = true;
			s->done = true;
		}
		return 0;
	}
	if (t->gen_remeasure)
		s->nb_gen_recovered++;
	s->gen_retries = 0;
	s->gen_in_row = 0;

	for (g = 0; g < s->p.nb_goals; g++) {
		/* NDR is "no packet lost", not a ratio rounded to zero. */
		if (s->p.loss_ratio[g] == 0 ? m->rx >= m->tx : t->loss_ratio <= s->p.loss_ratio[g])
			t->met |= 1u << g;
	}

	st = &s->gs[s->pending_goal];
	switch (s->pending_kind) {
	case KIND_DOWN:
		if (!(t->met & (1u << s->pending_goal)))
			st->down_w *= 2;
		else if (st->down_w > s->phase_width[s->phase])
			/*
			 * Found by a doubled step, the bound is anywhere in the
			 * last step: bisect. Found by the first step (the
			 * estimate), it is likely close: step up from it.
			 */
			st->up_w = INFINITY;
		break;
	case KIND_UP:
		if (t->met & (1u << s->pending_goal))
			st->up_w *= 2;
		else
			st->up_w = INFINITY;
		break;
	default:
		break;
	}
	return 0;
}

/*
 * CSIT's conditional throughput, simply: what the DUT delivered at a
 * load, the packets received back over the time of the final-duration
 * DUT trials at that load.
 */
static double
search_delivered(const struct pvp_search *s, double rate)
{
	const struct pvp_search_trial_rec *t;
	double rx = 0, secs = 0;
	unsigned int i;

	for (i = 0; i < s->nb_trials; i++) {
		t = &s->trials[i];
		if (!trial_counts(t) || !same_rate(t->rate, rate) ||
		    !trial_long_enough(t, s->p.final_duration))
			continue;
		rx += (double)t->rx;
		secs += t->duration;
	}
	return secs > 0 ? rx / secs : 0;
}

int
pvp_search_get_result(const struct pvp_search *s, struct pvp_search_result *r)
{
	struct pvp_search_goal_result *gr;
	struct search_bounds b;
	unsigned int g;
	bool final_phase;

	if (s == NULL || r == NULL)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->nb_goals = s->p.nb_goals;
	r->nb_trials = s->nb_trials;
	r->trials = s->trials;
	r->total_time = s->total_time;
	r->nb_gen_limited = s->nb_gen_limited;
	r->nb_gen_remeasured = s->nb_gen_remeasured;
	r->nb_gen_recovered = s->nb_gen_recovered;
	r->gen_ceiling = s->eff_max;
	r->budget_exhausted = s->budget_exhausted;
	r->aborted = s->aborted;
	r->done = s->done;
	final_phase = s->phase + 1 >= s->nb_phases;

	for (g = 0; g < s->p.nb_goals; g++) {
		gr = &r->goal[g];
		search_bounds(s, g, s->p.final_duration, &b);
		gr->loss_ratio = s->p.loss_ratio[g];
		gr->has_lower = b.has_lower;
		gr->lower_bound = b.has_lower ? b.lower : 0;
		gr->has_upper = b.has_upper;
		gr->upper_bound = b.has_upper ? b.upper : 0;
		if (b.has_lower && b.has_upper)
			gr->rel_width = (b.upper - b.lower) / b.upper;
		if (b.has_lower)
			gr->conditional_throughput = search_delivered(s, b.lower);
		if (b.has_lower && rate_at_least(b.lower, s->eff_max)) {
			gr->status = PVP_SEARCH_GOAL_AT_MAX;
			gr->reached_max_rate = true;
			gr->generator_limited = !rate_at_least(b.lower, s->p.max_rate);
		} else if (b.has_upper && rate_at_least(s->p.min_rate, b.upper)) {
			gr->status = PVP_SEARCH_GOAL_BELOW_MIN;
		} else if (final_phase && goal_done(s, &b, s->p.width_goal)) {
			gr->status = PVP_SEARCH_GOAL_OK;
		} else {
			gr->status = PVP_SEARCH_GOAL_INCOMPLETE;
		}
	}
	return 0;
}

int
pvp_search_run(const struct pvp_search_params *p, pvp_search_measure_t measure, void *arg,
	       struct pvp_search_result *r)
{
	struct pvp_search_measurement m;
	struct pvp_search_trial t;
	struct pvp_search *s;
	int ret;

	if (measure == NULL || r == NULL)
		return -EINVAL;
	s = pvp_search_create(p);
	if (s == NULL)
		return -errno;
	while ((ret = pvp_search_next(s, &t)) == 0) {
		memset(&m, 0, sizeof(m));
		ret = measure(t.rate, t.duration, arg, &m);
		if (ret < 0)
			break;
		ret = pvp_search_feed(s, &m);
		if (ret < 0)
			break;
	}
	if (ret >= 0)
		ret = 0;
	pvp_search_get_result(s, r);
	r->trials = NULL;
	pvp_search_destroy(s);
	return ret;
}
