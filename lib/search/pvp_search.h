/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Throughput searches: RFC 2544 binary search and an MLRsearch-style
 * multi-goal search (RFC 9971, FD.io CSIT MLRsearch).
 *
 * The library is pure C: it never sleeps, sends traffic or does I/O. A
 * search is an iterator the caller steps:
 *
 * @code
 *	struct pvp_search *s = pvp_search_create(&params);
 *	struct pvp_search_trial t;
 *	while (pvp_search_next(s, &t) == 0) {
 *		struct pvp_search_measurement m = run_trial(t.rate, t.duration);
 *		write_trial_to_disk(...);          // the caller's business
 *		pvp_search_feed(s, &m);
 *	}
 *	pvp_search_get_result(s, &res);
 *	pvp_search_destroy(s);
 * @endcode
 *
 * so the coordinator can record every trial (and its per-hop table) before
 * the next one starts. pvp_search_run() wraps the loop around a callback
 * for callers that do not need to.
 *
 * Terms. A *goal* is a loss ratio: 0 for NDR (no drop rate), e.g. 0.001
 * for PDR at 0.1 %. A trial *meets* a goal when lost / tx <= loss ratio
 * (for NDR: no packet lost). Whether a rate (a *load*) meets a goal is
 * decided from the trials at that load as RFC 9971 (MLRsearch) does,
 * with a *duration sum* D (default: the final duration) and an *exceed
 * ratio* E (default 0): summing the durations of the load's trials, "bad"
 * ones (goal not met; a trial shorter than the phase's duration counts
 * as one of that duration: loss seen in a short trial is real loss) and
 * "good" ones (goal met, at least the phase's duration; shorter passes
 * prove nothing), and counting the missing time up to D once as good
 * (optimistic) and once as bad (pessimistic):
 * - the load *fails* when even the optimistic share of bad time exceeds E;
 * - the load *passes* when even the pessimistic share does not;
 * - otherwise it is undecided and is measured again.
 * With E = 0 and D = the final duration one failed trial fails a load and
 * one passed final trial passes it (RFC 2544's rule). For each goal the
 * search reports:
 * - the *upper bound*: the lowest load that fails;
 * - the *lower bound*: the highest load below the upper bound that passes
 *   at the final duration.
 * The search ends when (upper - lower) / upper <= the width goal for every
 * goal, when the lower bound is the maximum rate, when even the minimum
 * rate fails, or when the trial or time budget runs out.
 *
 * A goal may also bound latency (TRex's NDR --max-latency, PROX rapid's
 * thresholds): a statistic of the trial's latency (p50, p90, p99,
 * p99.9 or the maximum) at most a bound. A trial then meets the goal
 * only when it meets the loss ratio and its measured statistic is within
 * the bound; a trial measured without latency misses it. Everything else
 * (loads, bounds, phases) is the same as for a loss goal.
 *
 * Rates are in packets per second; the library does not care about the
 * unit as long as it is the same everywhere.
 */

#ifndef PVP_SEARCH_H
#define PVP_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most goals (loss ratios) one search handles. */
#define PVP_SEARCH_MAX_GOALS 8
/** Most intermediate phases of the MLR search. */
#define PVP_SEARCH_MAX_PHASES 8
/** Most re-measures of a generator-limited trial (gen_remeasure). */
#define PVP_SEARCH_MAX_GEN_REMEASURE 8
/** Default relative width goal: 0.5 %. */
#define PVP_SEARCH_DEFAULT_WIDTH 0.005

/** The latency statistics a goal can bound. */
enum pvp_search_lat_stat {
	PVP_SEARCH_LAT_NONE, /**< no latency bound */
	PVP_SEARCH_LAT_P50,  /**< the median */
	PVP_SEARCH_LAT_P90,  /**< 90th percentile */
	PVP_SEARCH_LAT_P99,  /**< 99th percentile */
	PVP_SEARCH_LAT_P999, /**< 99.9th percentile */
	PVP_SEARCH_LAT_MAX,  /**< the largest latency */
	PVP_SEARCH_LAT_NB,   /**< number of entries, not a statistic */
};

/** The search algorithms. */
enum pvp_search_algo {
	/**
	 * RFC 2544 binary search: every trial at the final duration; start
	 * at the maximum rate, then halve the interval until it is narrower
	 * than the width goal. Goals are searched one after the other (NDR
	 * first); trials already run count for later goals.
	 */
	PVP_SEARCH_BINARY,
	/**
	 * MLRsearch-style: one trial at the maximum rate, then short trials
	 * that narrow quickly (external search doubling the step away from a
	 * bound, then bisection), then phases of longer trials with tighter
	 * widths. What the DUT forwarded in failed trials at two durations
	 * (C d + B in d s: a rate and a buffer) gives the estimate the
	 * longer trials start from. All goals in one pass: every trial
	 * counts for every goal.
	 */
	PVP_SEARCH_MLR,
};

/** Parameters of a search. Fill with pvp_search_params_init() first. */
struct pvp_search_params {
	enum pvp_search_algo algo; /**< algorithm; default PVP_SEARCH_MLR */
	double min_rate;	   /**< lowest rate tried, > 0; default 1000 */
	double max_rate;	   /**< highest rate tried; required */
	double width_goal;	   /**< relative width, (0, 1); default 0.005 */
	double initial_duration;   /**< s, MLR's first phase; default 1 */
	double final_duration;	   /**< s, binary's trials and MLR's last; default 10 */
	/**
	 * MLR phases between the initial and the final one; their durations
	 * are spaced geometrically. Default 0. At most PVP_SEARCH_MAX_PHASES.
	 * Without one, MLR's first trial (at max_rate) lasts half the
	 * initial duration, so that failures at two durations come early.
	 */
	unsigned int intermediate_phases;
	unsigned int nb_goals;			 /**< goals used; default 1 */
	double loss_ratio[PVP_SEARCH_MAX_GOALS]; /**< per goal, [0, 1); default {0} */
	/** Per goal, the latency statistic it bounds; default PVP_SEARCH_LAT_NONE. */
	enum pvp_search_lat_stat lat_stat[PVP_SEARCH_MAX_GOALS];
	/** Per goal with a lat_stat, the most that statistic may be, ns, > 0. */
	uint64_t lat_bound_ns[PVP_SEARCH_MAX_GOALS];
	/**
	 * RFC 9971 goal exceed ratio, [0, 1): the share of a load's trial
	 * time that may miss the goal while the load still passes. Default 0.
	 */
	double exceed_ratio;
	/**
	 * RFC 9971 goal duration sum, s: trial time at a load needed to
	 * decide it; 0 (default) means final_duration. Phases before the
	 * last scale it by their duration over the final one.
	 */
	double duration_sum;
	unsigned int max_trials; /**< 0: no limit */
	double max_time;	 /**< total trial s, 0: no limit */
	/**
	 * After this many generator-limited trials in a row the search gives
	 * up (the generator cannot reach even the reduced rate). Default 5.
	 */
	unsigned int max_gen_limited;
	/**
	 * How often a generator-limited trial is run again, at the same
	 * rate and duration, before the search lowers its ceiling to what
	 * the generator sent: one stall of a busy tester must not cap the
	 * search. 0..PVP_SEARCH_MAX_GEN_REMEASURE; default 1.
	 */
	unsigned int gen_remeasure;
	/**
	 * Seconds of a warm-up trial at max_rate before the search, whose
	 * result is ignored (it only primes caches and flow tables, as
	 * CSIT's warm-up does); 0 (default): none.
	 */
	double warmup_duration;
};

/** The trial the caller must run next. */
struct pvp_search_trial {
	double rate;	 /**< packets per second to offer */
	double duration; /**< seconds */
	/* For progress lines; the search needs nothing back from them. */
	unsigned int index;	/**< 0-based number of this trial */
	unsigned int phase;	/**< MLR phase, 0 = initial; 0 for binary */
	unsigned int nb_phases; /**< phases in this search (1 for binary) */
	unsigned int goal;	/**< index of the goal this trial narrows */
	bool warmup;		/**< the warm-up trial: its result is ignored */
	bool gen_remeasure;	/**< a generator-limited trial measured again */
	bool loss_remeasure;	/**< a loss the fitted estimate doubts, measured again */
};

/** What the caller measured in that trial. */
struct pvp_search_measurement {
	/**
	 * Rate the generator really sent (tx / duration). Used when the
	 * trial is generator-limited, to lower the ceiling; 0 if unknown.
	 */
	double achieved_rate;
	uint64_t tx; /**< packets the generator sent */
	uint64_t rx; /**< packets the generator received back */
	/**
	 * True if the generator could not send what was asked: the trial is
	 * recorded but is not a DUT result and moves no bound. A trial with
	 * tx == 0 counts as generator-limited whatever this says.
	 */
	bool generator_limited;
	/**
	 * The trial's latency was measured: lat_ns holds it. Needed by a
	 * goal with a latency bound, which a trial without misses.
	 */
	bool has_latency;
	/** ns, indexed by enum pvp_search_lat_stat (entry NONE unused). */
	uint64_t lat_ns[PVP_SEARCH_LAT_NB];
};

/** One trial as the search recorded it. */
struct pvp_search_trial_rec {
	double rate;		/**< rate asked */
	double duration;	/**< seconds */
	uint64_t tx;		/**< as measured */
	uint64_t rx;		/**< as measured */
	double loss_ratio;	/**< (tx - rx) / tx, 0 when rx >= tx */
	bool generator_limited; /**< not a DUT result */
	unsigned int phase;	/**< MLR phase (0 = initial); 0 for binary */
	uint32_t met;		/**< bit g set: the trial met goal g */
	bool warmup;		/**< the warm-up trial, not a DUT result */
	bool gen_remeasure;	/**< re-measure of a generator-limited trial */
	bool loss_suspect;	/**< lost below a one-rate fit: not counted */
	bool loss_remeasure;	/**< re-measure of a loss_suspect trial */
};

/** How a goal's search ended. */
enum pvp_search_goal_status {
	PVP_SEARCH_GOAL_OK,	    /**< bounds within the width goal */
	PVP_SEARCH_GOAL_AT_MAX,	    /**< the maximum rate met the goal */
	PVP_SEARCH_GOAL_BELOW_MIN,  /**< even the minimum rate failed */
	PVP_SEARCH_GOAL_INCOMPLETE, /**< budget spent or search aborted */
};

/** The answer for one goal. */
struct pvp_search_goal_result {
	double loss_ratio;		    /**< the goal */
	enum pvp_search_goal_status status; /**< how it ended */
	bool has_lower;			    /**< lower_bound is valid */
	double lower_bound;		    /**< see the file comment; 0 if none */
	bool has_upper;			    /**< upper_bound is valid */
	double upper_bound;		    /**< see the file comment; 0 if none */
	double rel_width;		    /**< (upper-lower)/upper, 0 if not both */
	/** The lower bound is the maximum rate (max_rate or the generator's). */
	bool reached_max_rate;
	/**
	 * The lower bound is the generator's ceiling, below max_rate: the
	 * DUT may do more; the generator, not the DUT, was the limit.
	 */
	bool generator_limited;
	/**
	 * Conditional throughput (CSIT): the rate the DUT delivered at the
	 * lower bound, packets received back over the time of the
	 * final-duration trials at that load; 0 without a lower bound.
	 */
	double conditional_throughput;
};

/** The answer of a whole search. Pointers stay valid until destroy. */
struct pvp_search_result {
	unsigned int nb_goals;					  /**< goals */
	struct pvp_search_goal_result goal[PVP_SEARCH_MAX_GOALS]; /**< per goal */
	unsigned int nb_trials;					  /**< trials run */
	const struct pvp_search_trial_rec *trials;		  /**< in the order run */
	double total_time;					  /**< sum of trial durations, s */
	unsigned int nb_gen_limited;				  /**< generator-limited trials */
	unsigned int nb_gen_remeasured;	 /**< limited trials measured again */
	unsigned int nb_gen_recovered;	 /**< of those, sent cleanly the second time */
	unsigned int nb_loss_remeasured; /**< loss_suspect trials measured again */
	/** Highest rate the generator proved it can send; max_rate if never limited. */
	double gen_ceiling;
	bool budget_exhausted; /**< max_trials or max_time stopped it */
	bool aborted;	       /**< too many generator-limited trials in a row */
	bool done;	       /**< pvp_search_next() has returned 1 */
};

/** Opaque search state. */
struct pvp_search;

/**
 * Set the defaults documented in struct pvp_search_params. max_rate is
 * left 0 and must be set.
 *
 * @param p
 *   Parameters to fill.
 */
void pvp_search_params_init(struct pvp_search_params *p);

/**
 * Check parameters.
 *
 * @param p
 *   Parameters.
 * @param err
 *   What is wrong, one line (the first error kept: pvp_err()); may be
 *   NULL.
 * @param err_len
 *   Size of @p err.
 * @return
 *   0 or -EINVAL.
 */
int pvp_search_params_check(const struct pvp_search_params *p, char *err, size_t err_len);

/**
 * Create a search.
 *
 * @param p
 *   Parameters, copied.
 * @return
 *   The search, or NULL with errno set (EINVAL, ENOMEM).
 */
struct pvp_search *pvp_search_create(const struct pvp_search_params *p);

/**
 * Free a search. NULL is a no-op.
 *
 * @param s
 *   The search.
 */
void pvp_search_destroy(struct pvp_search *s);

/**
 * The next trial to run. Calling it again without pvp_search_feed()
 * returns the same trial.
 *
 * @param s
 *   The search.
 * @param t
 *   Receives the trial.
 * @return
 *   0: run @p t and feed the measurement; 1: the search is over (see
 *   pvp_search_get_result()); -EINVAL on NULL arguments.
 */
int pvp_search_next(struct pvp_search *s, struct pvp_search_trial *t);

/**
 * Give the measurement of the trial pvp_search_next() returned.
 *
 * @param s
 *   The search.
 * @param m
 *   The measurement.
 * @return
 *   0; -EINVAL on NULL arguments; -EPROTO if no trial was pending.
 */
int pvp_search_feed(struct pvp_search *s, const struct pvp_search_measurement *m);

/**
 * The current answer; final once pvp_search_next() returned 1.
 *
 * @param s
 *   The search.
 * @param r
 *   Receives the answer; r->trials points into @p s.
 * @return
 *   0 or -EINVAL.
 */
int pvp_search_get_result(const struct pvp_search *s, struct pvp_search_result *r);

/**
 * The measurement callback of pvp_search_run().
 *
 * @return
 *   0, or a negative errno that stops the search and is returned.
 */
typedef int (*pvp_search_measure_t)(double rate, double duration, void *arg,
				    struct pvp_search_measurement *m);

/**
 * Run a whole search through a callback.
 *
 * @param p
 *   Parameters.
 * @param measure
 *   Runs one trial.
 * @param arg
 *   Passed to @p measure.
 * @param r
 *   Receives the answer; r->trials is NULL (the search is freed), use the
 *   iterator to keep the trials.
 * @return
 *   0, -EINVAL, -ENOMEM, or the callback's error.
 */
int pvp_search_run(const struct pvp_search_params *p, pvp_search_measure_t measure, void *arg,
		   struct pvp_search_result *r);

/**
 * Whether a measurement meets a goal, and if not, why.
 *
 * @param p
 *   Parameters (the goal's loss ratio and latency bound).
 * @param g
 *   Index of the goal.
 * @param m
 *   The measurement.
 * @param why
 *   If not met, one reason without a newline: "lost 25 packets",
 *   "loss 1.2 % > 0.5 %", "p99 123 us > 100 us" or "no latency
 *   measured"; "" when met. May be NULL.
 * @param why_len
 *   Size of @p why.
 * @return
 *   true when the goal is met.
 */
bool pvp_search_goal_met(const struct pvp_search_params *p, unsigned int g,
			 const struct pvp_search_measurement *m, char *why, size_t why_len);

/**
 * Name of a latency statistic ("p50", "p90", "p99", "p99.9", "max";
 * "" for PVP_SEARCH_LAT_NONE).
 */
const char *pvp_search_lat_stat_name(enum pvp_search_lat_stat st);

/**
 * Name of an algorithm ("binary", "mlr").
 */
const char *pvp_search_algo_name(enum pvp_search_algo a);

/**
 * Name of a goal status ("ok", "at-max", "below-min", "incomplete").
 */
const char *pvp_search_goal_status_name(enum pvp_search_goal_status st);

#ifdef __cplusplus
}
#endif

#endif /* PVP_SEARCH_H */
