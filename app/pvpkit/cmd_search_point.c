/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * One search at one point of pvpkit search's or run's matrix
 * (cmd_search.c walks the matrix): lib/search's iterator fed with
 * trials (coord_trial_run), each appended to the results before the next
 * starts, invalid trials run again, the generator's bursts weighed, and
 * the search record kept and shown at the end.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "coord.h"
#include "cmd.h"
#include "cli_progress.h"
#include "coord_record.h"
#include "report.h"
#include "cmd_search.h"
#include "pvp_lat.h"
#include "pvp_search.h"
#include "pvp_util.h"

/*
 * The trial's JSON with its place in the search, appended to the
 * results. @return the JSON (the caller puts it), NULL on allocation
 * failure; *ret: 0 or the append's -errno.
 */
static json_t *
search_keep_trial(struct cmd_search_point *sp, const struct pvp_search_trial *st,
		  const struct coord_trial_result *r, int *ret)
{
	struct coord_record_search_ref ref = {
		.trial = st->index,
		.phase = st->phase,
		.goal = st->goal,
		.warmup = st->warmup,
		.gen_remeasure = st->gen_remeasure,
		.loss_remeasure = st->loss_remeasure,
	};
	json_t *j = coord_trial_to_json(sp->t, r);
	char what[32];

	*ret = 0;
	if (j == NULL)
		return NULL;
	snprintf(ref.id, sizeof(ref.id), "%s", sp->id);
	json_object_set_new(j, "search", pvp_schema_encode(coord_record_search_ref_members, &ref));
	snprintf(what, sizeof(what), "trial %u", st->index + 1);
	*ret = cli_sink_keep(&sp->a->sink, j, what);
	if (*ret == 0)
		sp->nb_kept++;
	return j;
}

/*
 * The trial's line (and table), then the progress line. @p misses says
 * which latency-bounded goals the trial missed and why, "" for none.
 */
static void
search_show_trial(struct cmd_search_point *sp, const struct pvp_search_trial *st,
		  const struct coord_trial_result *r, const char *misses)
{
	char a[32], b[32], c[32];

	printf("-- trial %u (phase %u/%u): %s pps for %.1f s: lost %s of %s (%.4f %%)%s%s%s%s%s\n",
	       st->index + 1, st->phase, st->nb_phases,
	       pvp_fmt_count((int64_t)st->rate, a, sizeof(a)), st->duration,
	       pvp_fmt_count((int64_t)coord_trial_tx_packets(r) -
				     (int64_t)coord_trial_rx_packets(r),
			     b, sizeof(b)),
	       pvp_fmt_count((int64_t)coord_trial_tx_packets(r), c, sizeof(c)),
	       100 * coord_trial_loss_ratio(r),
	       r->traffic.generator_limited ? " [generator-limited]" : "",
	       coord_trial_invalid(r) ? " [INVALID, not fed to the search]" : "",
	       !coord_trial_invalid(r) && !coord_trial_reconciled(r) ? " [checks failed]" : "",
	       st->warmup	    ? " [warm-up, ignored]"
	       : st->gen_remeasure  ? " [measured again]"
	       : st->loss_remeasure ? " [measured again: the loss before lay below the fitted rate]"
				    : "",
	       misses);
	if (sp->a->tables)
		coord_table_print(stdout, sp->t, r);
	fflush(stdout);
	cli_progress_result(sp->progress, st->index + 1, st->rate, st->duration,
			    100 * coord_trial_loss_ratio(r));
}

/*
 * What a measured trial tells beyond its loss: a failed check (kept,
 * fed to the search, but the search says so and exits
 * CMD_EXIT_CHECK_FAILED), and for --max-burst auto the largest burst
 * the path took without loss, or a lossy trial's burst to weigh against
 * it when the search ends. A warm-up is not a rate the search weighs.
 */
static void
search_note_trial(struct cmd_search_point *sp, const struct pvp_search_trial *st,
		  const struct coord_trial_result *r)
{
	if (!coord_trial_reconciled(r)) {
		json_array_append_new(sp->checks_failed, json_integer(st->index + 1));
		sp->run_checks_failed++;
	}
	if (!sp->a->burst_auto || !r->traffic.has_max_burst || st->warmup)
		return;
	if (coord_trial_tx_packets(r) > coord_trial_rx_packets(r))
		json_array_append_new(sp->lossy_bursts,
				      json_pack("[I,I,f]", (json_int_t)st->index + 1,
						(json_int_t)r->traffic.max_burst, st->rate));
	else if (!sp->has_absorbed || r->traffic.max_burst > sp->absorbed) {
		sp->has_absorbed = true;
		sp->absorbed = r->traffic.max_burst;
		sp->absorbed_trial = st->index + 1;
	}
}

/*
 * The lowest rate the search measured and where that trial lost its
 * packets: when even the minimum rate fails a goal, this is why
 * (search_show_result()). Generator-limited trials say nothing of the
 * DUT, warm-ups are not weighed.
 */
static void
search_note_lowest(struct cmd_search_point *sp, const struct pvp_search_trial *st,
		   const struct coord_trial_result *r)
{
	char a[32], why[160];
	size_t n = 0;
	unsigned int i;

	if (st->warmup || r->traffic.generator_limited ||
	    (sp->has_lowest && st->rate > sp->lowest_rate))
		return;
	sp->has_lowest = true;
	sp->lowest_rate = st->rate;
	sp->lowest_trial = st->index + 1;
	sp->lowest_loss = coord_trial_loss_ratio(r);
	sp->lowest_where[0] = '\0';
	for (i = 0; i < sp->t->nb_hops && n < sizeof(sp->lowest_where); i++)
		if (r->hop_lost[i] != 0) {
			coord_trial_hop_why(sp->t, r, i, why, sizeof(why));
			n += (size_t)snprintf(sp->lowest_where + n, sizeof(sp->lowest_where) - n,
					      "%s %s%s%s%s, ", sp->t->hops[i].hop.name,
					      pvp_fmt_count(r->hop_lost[i], a, sizeof(a)),
					      why[0] != '\0' ? " (" : "", why,
					      why[0] != '\0' ? ")" : "");
		}
	if (n < sizeof(sp->lowest_where))
		snprintf(sp->lowest_where + n, sizeof(sp->lowest_where) - n, "unattributed %s",
			 pvp_fmt_count(r->unattributed, a, sizeof(a)));
}

/*
 * --max-burst auto at the end of a search: the lossy trials, at or below
 * the highest upper bound the search found, whose largest burst was over
 * the largest one a trial without loss came through. Their loss may be
 * the tester's catch-up bursts overflowing a buffer or a policer's bucket
 * that a smooth sender would not, and it set a bound. Lossy trials above
 * every upper bound decided nothing and are not named: a search starts
 * over the capacity, where any path loses.
 * @return {"absorbed", "absorbed_trial", "largest_burst", "trials"}, or
 *   NULL when there is none (or no trial without loss to compare with).
 */
static json_t *
search_burst_warning(const struct cmd_search_point *sp, const struct pvp_search_result *res)
{
	json_int_t most = 0, b;
	double upper = 0;
	const json_t *e;
	json_t *trials;
	unsigned int g;
	size_t i;

	for (g = 0; g < res->nb_goals; g++)
		if (res->goal[g].has_upper && res->goal[g].upper_bound > upper)
			upper = res->goal[g].upper_bound;
	if (!sp->has_absorbed || upper <= 0)
		return NULL;
	trials = json_array();
	json_array_foreach(sp->lossy_bursts, i, e) {
		b = json_integer_value(json_array_get(e, 1));
		if (b <= (json_int_t)sp->absorbed ||
		    json_number_value(json_array_get(e, 2)) > upper * (1 + 1e-9))
			continue;
		json_array_append(trials, json_array_get(e, 0));
		if (b > most)
			most = b;
	}
	if (json_array_size(trials) == 0) {
		json_decref(trials);
		return NULL;
	}
	return json_pack("{s:I,s:I,s:I,s:o}", "absorbed", (json_int_t)sp->absorbed,
			 "absorbed_trial", (json_int_t)sp->absorbed_trial, "largest_burst", most,
			 "trials", trials);
}

/* "2, 4, 5" from a JSON array of trial numbers, "..." at the end when cut. */
static const char *
search_trial_list(const json_t *trials, char *buf, size_t len)
{
	const json_t *e;
	char item[32];
	size_t i, n = 0;

	buf[0] = '\0';
	json_array_foreach(trials, i, e) {
		snprintf(item, sizeof(item), "%s%" JSON_INTEGER_FORMAT, i > 0 ? ", " : "",
			 json_integer_value(e));
		/* Room kept for ", ..." after the last whole number. */
		if (n + strlen(item) + sizeof(", ...") > len) {
			snprintf(buf + n, len - n, ", ...");
			break;
		}
		n += (size_t)snprintf(buf + n, len - n, "%s", item);
	}
	return buf;
}

/*
 * What the search is fed from a trial: its counts and, when a goal bounds
 * latency, the latency of its streams' histograms merged (@p trial is its
 * record), with in @p misses the latency-bounded goals it missed and why,
 * " [pdr+p99-100us: p99 123 us > 100 us]". @return whether a goal bounds
 * latency.
 */
static bool
search_measurement(const struct cmd_search_point *sp, const struct coord_trial_result *r,
		   const json_t *trial, struct pvp_search_measurement *m, char *misses, size_t len)
{
	const struct pvp_search_params *p = &sp->a->p;
	struct pvp_lat_summary ls;
	char name[32], why[96];
	bool lat_goal = false;
	struct pvp_lat *h;
	unsigned int g;
	size_t n = 0;

	memset(m, 0, sizeof(*m));
	misses[0] = '\0';
	m->achieved_rate = r->traffic.achieved_pps;
	m->tx = coord_trial_tx_packets(r);
	m->rx = coord_trial_rx_packets(r);
	m->generator_limited = r->traffic.generator_limited;
	for (g = 0; g < p->nb_goals; g++)
		lat_goal = lat_goal || p->lat_stat[g] != PVP_SEARCH_LAT_NONE;
	if (!lat_goal)
		return false;
	h = malloc(sizeof(*h));
	if (h != NULL && report_trial_latency(trial, h, NULL) > 0) {
		pvp_lat_read(h, &ls);
		m->has_latency = ls.count > 0;
		m->lat_ns[PVP_SEARCH_LAT_P50] = ls.p50;
		m->lat_ns[PVP_SEARCH_LAT_P90] = ls.p90;
		m->lat_ns[PVP_SEARCH_LAT_P99] = ls.p99;
		m->lat_ns[PVP_SEARCH_LAT_P999] = ls.p99_9;
		m->lat_ns[PVP_SEARCH_LAT_MAX] = ls.max;
	}
	free(h);
	for (g = 0; g < p->nb_goals && n < len; g++) {
		if (p->lat_stat[g] == PVP_SEARCH_LAT_NONE ||
		    pvp_search_goal_met(p, g, m, why, sizeof(why)))
			continue;
		n += (size_t)snprintf(misses + n, len - n, " [%s: %s]",
				      report_goal_label(p, g, name, sizeof(name)), why);
	}
	return true;
}

/*
 * Tries of one trial the search asks for while they come out invalid (a
 * hop restarted, counters reset): an invalid trial is neither a pass nor
 * a fail, so it is run again; a hop that keeps doing it stops the search.
 */
#define SEARCH_INVALID_TRIES 3

/*
 * One try of a trial. @return 0 fed to the search, 1 invalid (kept and
 * shown, not fed), -1 not measured or not kept.
 */
static int
search_trial_once(struct cmd_search_point *sp, struct pvp_search *s,
		  const struct pvp_search_trial *st)
{
	struct coord_trial_conf c = sp->a->o.conf;
	struct pvp_search_measurement m;
	struct coord_trial_result r;
	char err[512], misses[256];
	bool lat_goal;
	json_t *j;
	int ret;

	c.traffic.size = sp->size;
	c.traffic.flows = sp->flows;
	c.traffic.rate_pps = st->rate;
	c.traffic.duration_s = st->duration;
	cli_progress_trial(sp->progress, st->index + 1, st->rate, st->duration);
	ret = coord_trial_run(sp->t, &c, &r, err, sizeof(err));
	cli_progress_clear(sp->progress);
	if (ret < 0) {
		cli_progress_result(sp->progress, st->index + 1, st->rate, st->duration, -1);
		cli_progress_clear(sp->progress);
		if (coord_interrupted) {
			/* Said once for the whole run (search_or_run). */
			sp->interrupted_trial = st->index + 1;
			return -1;
		}
		snprintf(sp->error, sizeof(sp->error), "trial %u not measured: %s", st->index + 1,
			 err);
		fprintf(stderr, "pvpkit: %s\n", sp->error);
		return -1;
	}
	/* Kept first, shown whatever became of it: a trial that could not
	 * be written follows its line whole on stdout, and the search stops
	 * there. */
	j = search_keep_trial(sp, st, &r, &ret);
	lat_goal = search_measurement(sp, &r, j, &m, misses, sizeof(misses));
	search_show_trial(sp, st, &r, misses);
	json_decref(j);
	if (ret < 0) {
		snprintf(sp->error, sizeof(sp->error), "%s: %s", sp->a->o.results, strerror(-ret));
		coord_trial_result_clear(&r);
		return -1;
	}
	if (coord_trial_invalid(&r)) {
		fprintf(stderr, "pvpkit: trial %u invalid: %s\n", st->index + 1,
			coord_trial_invalid_reason(&r));
		coord_trial_result_clear(&r);
		return 1;
	}
	search_note_trial(sp, st, &r);
	search_note_lowest(sp, st, &r);
	coord_trial_result_clear(&r);
	/*
	 * A goal that bounds latency cannot be decided by a trial whose
	 * source measured none: stop rather than search down to the
	 * minimum rate on trials that all "miss" it.
	 */
	if (lat_goal && !m.has_latency && m.rx > 0 && !m.generator_limited && !st->warmup) {
		snprintf(sp->error, sizeof(sp->error),
			 "trial %u measured no latency, which a latency-bounded goal needs (a "
			 "source that stamps its packets: pvpkit-gen, or trex with flow stats "
			 "\"latency\")",
			 st->index + 1);
		fprintf(stderr, "pvpkit: %s\n", sp->error);
		return -1;
	}
	pvp_search_feed(s, &m);
	return 0;
}

/*
 * Run the trial the search asks for, keep it, show it and feed the
 * search its measurement; an invalid trial is kept and shown but not fed,
 * and run again. @return 0, or 1 (not measured, not kept, or invalid
 * SEARCH_INVALID_TRIES times).
 */
static int
search_trial(struct cmd_search_point *sp, struct pvp_search *s, const struct pvp_search_trial *st)
{
	unsigned int tries;
	int ret = 1;

	for (tries = 0; tries < SEARCH_INVALID_TRIES && ret > 0; tries++)
		ret = search_trial_once(sp, s, st);
	if (ret <= 0)
		return -ret;
	snprintf(sp->error, sizeof(sp->error), "trial %u invalid %u times in a row; search stopped",
		 st->index + 1, SEARCH_INVALID_TRIES);
	fprintf(stderr, "pvpkit: %s\n", sp->error);
	return 1;
}

/* The search record, appended after its trials. @return 0 or 1. */
static int
search_keep_result(struct cmd_search_point *sp, const struct pvp_search_result *res, bool failed,
		   const json_t *burst)
{
	json_t *rec;
	int ret;

	rec = report_search_record(&sp->a->p, res, sp->size, sp->flows);
	if (rec == NULL)
		return 0;
	/* The optional members only when there is something to say: older
	 * readers see what they know. */
	json_object_update_new(
		rec, json_pack("{s:s,s:s,s:s,s:o*,s:O*,s:O*}", "id", sp->id, "started", sp->started,
			       "topology", sp->t->name, "failed", failed ? json_true() : NULL,
			       "checks_failed",
			       json_array_size(sp->checks_failed) > 0 ? sp->checks_failed : NULL,
			       "burst_warning", burst));
	/* A search cut short says why, so it is never read as complete. */
	if (coord_interrupted || sp->error[0] != '\0') {
		json_object_set_new(rec, coord_interrupted ? "interrupted" : "error",
				    json_string(coord_interrupted
							? cli_signal_name(coord_interrupted)
							: sp->error));
		json_object_set_new(rec, "partial", json_true());
	}
	/* A preset's name, and a repeated search's place in its group. */
	json_object_update_new(
		rec, json_pack("{s:s*,s:o*}", "preset", sp->a->preset, "repeat",
			       sp->group != NULL ? json_pack("{s:s,s:I,s:I}", "group", sp->group,
							     "index", (json_int_t)sp->repeat, "of",
							     (json_int_t)sp->a->repeat)
						 : NULL));
	ret = cli_sink_keep(&sp->a->sink, rec, "search record");
	json_decref(rec);
	return ret < 0 ? 1 : 0;
}

/* The search's summary: one line, then one per goal, then what to doubt. */
static void
search_show_result(const struct cmd_search_point *sp, const struct pvp_search_result *res,
		   const json_t *burst)
{
	const char *id = sp->id;
	char a[32], b[32], list[160], name[32];
	unsigned int g;
	int w = 8;

	printf("== search %s: %u trials, %.1f trial-seconds%s%s%s%s\n", id, res->nb_trials,
	       res->total_time, res->budget_exhausted ? ", budget exhausted" : "",
	       res->aborted ? ", aborted: the generator could not send" : "",
	       coord_interrupted ? ", interrupted by " : "",
	       coord_interrupted ? cli_signal_name(coord_interrupted) : "");
	/* One column for the names: a latency bound makes them long (pdr+p99-100us). */
	for (g = 0; g < res->nb_goals; g++)
		if ((int)strlen(report_goal_label(&sp->a->p, g, name, sizeof(name))) > w)
			w = (int)strlen(name);
	for (g = 0; g < res->nb_goals; g++) {
		const struct pvp_search_goal_result *gr = &res->goal[g];

		report_goal_label(&sp->a->p, g, name, sizeof(name));
		printf("   %-*s %s: lower %s pps, upper %s pps, width %.2f %%%s%s\n", w, name,
		       pvp_search_goal_status_name(gr->status),
		       gr->has_lower ? pvp_fmt_count((int64_t)gr->lower_bound, a, sizeof(a)) : "-",
		       gr->has_upper ? pvp_fmt_count((int64_t)gr->upper_bound, b, sizeof(b)) : "-",
		       gr->rel_width * 100,
		       gr->reached_max_rate ? " (reached the maximum rate)" : "",
		       gr->generator_limited ? " (the generator, not the DUT, was the limit)" : "");
		/* No rate passes: say the rate that failed last and where it lost. */
		if (gr->status == PVP_SEARCH_GOAL_BELOW_MIN && sp->has_lowest)
			printf("   %-*s no rate passes: at %s pps (trial %u, the lowest tried) "
			       "the loss was %.4f %%, over the goal's %.4f %%; lost at: %s\n",
			       w, name, pvp_fmt_count((int64_t)sp->lowest_rate, a, sizeof(a)),
			       sp->lowest_trial, 100 * sp->lowest_loss, 100 * gr->loss_ratio,
			       sp->lowest_where);
	}
	if (res->nb_gen_limited > 0)
		printf("   %u generator-limited trial(s), not counted as DUT results; measured"
		       " again %u, sent cleanly %u; generator ceiling %s pps\n",
		       res->nb_gen_limited, res->nb_gen_remeasured, res->nb_gen_recovered,
		       pvp_fmt_count((int64_t)res->gen_ceiling, a, sizeof(a)));
	if (res->nb_loss_remeasured > 0)
		printf("   %u trial(s) lost packets below the rate a buffer fitted at one rate "
		       "passes: measured again, not counted\n",
		       res->nb_loss_remeasured);
	if (json_array_size(sp->checks_failed) > 0)
		printf("   CHECK FAILED in %zu trial(s): %s (see their tables; measured and fed "
		       "to the search)\n",
		       json_array_size(sp->checks_failed),
		       search_trial_list(sp->checks_failed, list, sizeof(list)));
	if (burst != NULL)
		printf("   warning: trial(s) %s, at or below an upper bound, lost packets after "
		       "bursts of up to %s packets, over the %s the path took without loss "
		       "(trial %" JSON_INTEGER_FORMAT "): the bound may be the tester's, not the "
		       "DUT's (--max-burst, doc/search.rst)\n",
		       search_trial_list(json_object_get(burst, "trials"), list, sizeof(list)),
		       pvp_fmt_count(json_integer_value(json_object_get(burst, "largest_burst")), a,
				     sizeof(a)),
		       pvp_fmt_count((int64_t)sp->absorbed, b, sizeof(b)),
		       json_integer_value(json_object_get(burst, "absorbed_trial")));
	fflush(stdout);
}

int
cmd_search_point_run(struct cmd_search_point *sp)
{
	struct cmd_search_args *o = sp->a;
	struct pvp_search_result res;
	struct pvp_search_trial st;
	struct pvp_search *s;
	json_t *burst;
	char a[32], what[96];
	const char *base;
	int rc = 0;

	json_decref(sp->checks_failed);
	json_decref(sp->lossy_bursts);
	sp->checks_failed = json_array();
	sp->lossy_bursts = json_array();
	sp->has_absorbed = false;
	sp->has_lowest = false;
	sp->burst_warned = false;
	pvp_utc_now(sp->started, sizeof(sp->started));
	sp->error[0] = '\0';
	if (o->o.conf.traffic.flow_type != NULL &&
	    cli_install_flows(sp->t, o->o.conf.traffic.flow_type, sp->flows) < 0)
		return 1;
	s = pvp_search_create(&o->p);
	if (s == NULL) {
		fprintf(stderr, "pvpkit: search: %s\n", strerror(errno));
		return -errno;
	}
	cli_progress_point(sp->progress, sp->size, sp->flows);
	/* What is sent: a profile's sizes and flows are its own. */
	base = o->o.conf.traffic.profile != NULL ? strrchr(o->o.conf.traffic.profile, '/') : NULL;
	if (o->o.conf.traffic.profile != NULL)
		snprintf(what, sizeof(what), "profile %.64s",
			 base != NULL ? base + 1 : o->o.conf.traffic.profile);
	else
		snprintf(what, sizeof(what), "%u B, %u flows", sp->size, sp->flows);
	printf("== search %s: %s, %s, max %s pps, width %.2f %%\n", sp->id, what,
	       o->p.algo == PVP_SEARCH_MLR ? "mlr" : "binary",
	       pvp_fmt_count((int64_t)o->p.max_rate, a, sizeof(a)), o->p.width_goal * 100);
	while (rc == 0 && !coord_interrupted && pvp_search_next(s, &st) == 0)
		rc = search_trial(sp, s, &st);
	if (coord_interrupted)
		rc = 1;
	cli_progress_clear(sp->progress);
	cli_progress_point_done(sp->progress);
	pvp_search_get_result(s, &res);
	burst = search_burst_warning(sp, &res);
	sp->burst_warned = burst != NULL;
	if (search_keep_result(sp, &res, rc != 0, burst) != 0)
		rc = 1;
	search_show_result(sp, &res, burst);
	json_decref(burst);
	sp->last = res;
	sp->last.trials = NULL;
	pvp_search_destroy(s);
	return rc;
}
