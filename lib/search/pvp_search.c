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
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pvp_util.h"

#include "pvp_search.h"

#include "search_private.h"

/* The names: tables indexed by the enums, "unknown" outside them. */
const char *
pvp_search_algo_name(enum pvp_search_algo a)
{
	static const char *const names[] = {
		[PVP_SEARCH_BINARY] = "binary", [PVP_SEARCH_MLR] = "mlr"};

	return (unsigned int)a < sizeof(names) / sizeof(names[0]) ? names[a] : "unknown";
}

const char *
pvp_search_goal_status_name(enum pvp_search_goal_status st)
{
	static const char *const names[] = {"ok", "at-max", "below-min", "incomplete"};

	_Static_assert(PVP_SEARCH_GOAL_INCOMPLETE == 3, "goal status names");
	return (unsigned int)st < sizeof(names) / sizeof(names[0]) ? names[st] : "unknown";
}

const char *
pvp_search_lat_stat_name(enum pvp_search_lat_stat st)
{
	static const char *const names[PVP_SEARCH_LAT_NB] = {"",    "p50",   "p90",
							     "p99", "p99.9", "max"};

	_Static_assert(PVP_SEARCH_LAT_NB == 6, "latency statistic names");
	return (unsigned int)st < PVP_SEARCH_LAT_NB ? names[st] : "unknown";
}

bool
pvp_search_goal_met(const struct pvp_search_params *p, unsigned int g,
		    const struct pvp_search_measurement *m, char *why, size_t why_len)
{
	double ratio = m->tx > m->rx ? (double)(m->tx - m->rx) / (double)m->tx : 0;
	enum pvp_search_lat_stat st = p->lat_stat[g];

	if (why != NULL && why_len > 0)
		why[0] = '\0';
	/* NDR is "no packet lost", not a ratio rounded to zero. */
	if (p->loss_ratio[g] == 0 && m->rx < m->tx) {
		pvp_err(why, why_len, "lost %" PRIu64 " packets", m->tx - m->rx);
		return false;
	}
	if (p->loss_ratio[g] > 0 && ratio > p->loss_ratio[g]) {
		pvp_err(why, why_len, "loss %.4g %% > %.4g %%", 100 * ratio,
			100 * p->loss_ratio[g]);
		return false;
	}
	if (st == PVP_SEARCH_LAT_NONE)
		return true;
	if (!m->has_latency) {
		pvp_err(why, why_len, "no latency measured");
		return false;
	}
	if (m->lat_ns[st] > p->lat_bound_ns[g]) {
		pvp_err(why, why_len, "%s %.6g us > %.6g us", pvp_search_lat_stat_name(st),
			(double)m->lat_ns[st] / 1e3, (double)p->lat_bound_ns[g] / 1e3);
		return false;
	}
	return true;
}

void
pvp_search_params_init(struct pvp_search_params *p)
{
	memset(p, 0, sizeof(*p));
	p->algo = PVP_SEARCH_MLR;
	p->min_rate = 1000;
	p->width_goal = PVP_SEARCH_DEFAULT_WIDTH;
	p->initial_duration = 1;
	p->final_duration = 10;
	p->nb_goals = 1; /* ndr: loss ratio 0 */
	p->max_gen_limited = 5;
	p->gen_remeasure = 1;
}

int
pvp_search_params_check(const struct pvp_search_params *p, char *err, size_t err_len)
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
	for (i = 0; e == NULL && i < p->nb_goals; i++) {
		if (!(p->loss_ratio[i] >= 0 && p->loss_ratio[i] < 1))
			e = "loss ratio must be in [0, 1)";
		else if ((unsigned int)p->lat_stat[i] >= PVP_SEARCH_LAT_NB)
			e = "unknown latency statistic";
		else if (p->lat_stat[i] != PVP_SEARCH_LAT_NONE && p->lat_bound_ns[i] == 0)
			e = "a latency bound must be > 0";
	}
	if (e == NULL)
		return 0;
	pvp_err(err, err_len, "%s", e);
	return -EINVAL;
}

/* Start a phase: the external search of every goal starts afresh. */
static void
search_phase_reset(struct pvp_search *s)
{
	unsigned int g;

	for (g = 0; g < s->p.nb_goals; g++)
		s->gs[g] = (struct search_goal_state){.up_w = s->phase_width[s->phase]};
}

struct pvp_search *
pvp_search_create(const struct pvp_search_params *p)
{
	struct pvp_search *s;
	unsigned int i, last;

	if (pvp_search_params_check(p, NULL, 0) < 0) {
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
	 * trials, where it is cheap. Where a buffer makes the shorter
	 * trials' bounds too high, a phase ends once two trials of one rate
	 * fit the buffer (search_phase_goal_done()).
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
 * Make @p next (its rate, duration, phase, goal and flags) the pending
 * trial, asked for as @p kind, when the budget pays for it.
 * @return 0 with *t set, or 1 (the budget is exhausted: the search is done).
 */
static int
search_pend(struct pvp_search *s, const struct pvp_search_trial *next, enum search_kind kind,
	    struct pvp_search_trial *t)
{
	if (!search_budget_left(s, next->duration)) {
		s->res.budget_exhausted = true;
		s->res.done = true;
		return 1;
	}
	s->pending_trial = *next;
	s->pending_trial.index = s->nb_trials;
	s->pending_trial.nb_phases = s->nb_phases;
	s->pending_kind = kind;
	s->pending = true;
	*t = s->pending_trial;
	return 0;
}

int
pvp_search_next(struct pvp_search *s, struct pvp_search_trial *t)
{
	struct search_bounds b;
	enum search_kind kind;
	unsigned int g;
	double d, rate;

	if (s == NULL || t == NULL)
		return -EINVAL;
	if (s->pending) {
		*t = s->pending_trial;
		return 0;
	}
	if (!s->res.done && !s->warmup_done) {
		const struct pvp_search_trial w = {
			.rate = s->p.max_rate, .duration = s->p.warmup_duration, .warmup = true};

		return search_pend(s, &w, KIND_WARMUP, t);
	}
	if (!s->res.done && s->retry) {
		/* The same trial again: one stall must not lower the ceiling. */
		s->retry = false;
		return search_pend(s, &s->pending_trial, s->pending_kind, t);
	}
	while (!s->res.done) {
		d = s->phase_duration[s->phase];
		for (g = 0; g < s->p.nb_goals; g++) {
			search_bounds(s, g, d, &b);
			if (!search_phase_goal_done(s, g, &b))
				break;
		}
		if (g == s->p.nb_goals) {
			if (s->phase + 1 >= s->nb_phases) {
				s->res.done = true;
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
			search_binary_next(s, &b, &rate, &kind);
		} else {
			search_mlr_next(s, g, &b, &rate, &kind);
		}
		/*
		 * Without an intermediate phase, MLR's first trial at the
		 * maximum rate lasts half the initial duration: a DUT with a
		 * buffer forwards C d + B in d s, and the estimate measured
		 * next at the full initial duration then fails at a second
		 * duration, which tells C from B (search_estimate()) before
		 * the first final trial. An intermediate phase gives that
		 * second duration otherwise.
		 */
		if (kind == KIND_MAX && s->p.algo == PVP_SEARCH_MLR && s->nb_phases == 2 &&
		    !search_any_counted(s))
			d /= 2;
		if (kind == KIND_PROBE)
			d *= 2;
		return search_pend(
			s,
			&(const struct pvp_search_trial){
				.rate = rate, .duration = d, .phase = s->phase, .goal = g},
			kind, t);
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

/*
 * The next trial is the one just fed, again (@p loss: for a doubted
 * loss): pending_trial and pending_kind still hold it until then.
 */
static void
search_retry(struct pvp_search *s, bool loss)
{
	s->retry = true;
	s->pending_trial.gen_remeasure = !loss;
	s->pending_trial.loss_remeasure = loss;
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
	t->tx = m->tx;
	t->rx = m->rx;
	t->loss_ratio = m->tx > m->rx ? (double)(m->tx - m->rx) / (double)m->tx : 0;
	/* A trial that sent nothing proves nothing about the DUT. */
	t->generator_limited = m->generator_limited || m->tx == 0;
	t->phase = s->phase;
	t->warmup = s->pending_kind == KIND_WARMUP;
	t->gen_remeasure = s->pending_trial.gen_remeasure;
	t->loss_remeasure = s->pending_trial.loss_remeasure;
	s->res.total_time += t->duration;

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
		s->res.nb_gen_limited++;
		if (s->gen_retries < s->p.gen_remeasure) {
			s->gen_retries++;
			s->res.nb_gen_remeasured++;
			search_retry(s, false);
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
			s->res.aborted = true;
			s->res.done = true;
		}
		return 0;
	}
	if (t->gen_remeasure)
		s->res.nb_gen_recovered++;
	s->gen_retries = 0;
	s->gen_in_row = 0;

	for (g = 0; g < s->p.nb_goals; g++)
		if (pvp_search_goal_met(&s->p, g, m, NULL, 0))
			t->met |= 1u << g;
	/* Out of the fit while it is judged: its own loss proves nothing. */
	t->loss_suspect = true;
	t->loss_suspect = search_loss_suspect(s, t);
	if (t->loss_suspect) {
		s->res.nb_loss_remeasured++;
		search_retry(s, true);
		return 0;
	}

	st = &s->gs[s->pending_trial.goal];
	switch (s->pending_kind) {
	case KIND_DOWN:
		if (!(t->met & (1u << s->pending_trial.goal)))
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
		if (t->met & (1u << s->pending_trial.goal))
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
		if (!search_trial_counts(t) || !search_same_rate(t->rate, rate) ||
		    !search_trial_long_enough(t, s->p.final_duration))
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
	*r = s->res;
	r->nb_goals = s->p.nb_goals;
	r->nb_trials = s->nb_trials;
	r->trials = s->trials;
	r->gen_ceiling = s->eff_max;
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
		if (b.has_lower && search_rate_at_least(b.lower, s->eff_max)) {
			gr->status = PVP_SEARCH_GOAL_AT_MAX;
			gr->reached_max_rate = true;
			gr->generator_limited = !search_rate_at_least(b.lower, s->p.max_rate);
		} else if (b.has_upper && search_rate_at_least(s->p.min_rate, b.upper)) {
			gr->status = PVP_SEARCH_GOAL_BELOW_MIN;
		} else if (final_phase && search_goal_done(s, &b, s->p.width_goal)) {
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
