/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Summaries computed from the records alone: the summary JSON that the
 * CSV files, the plots and the page are written from (report_write.c).
 */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_lat.h"
#include "pvp_util.h"

#include "report.h"
#include "report_private.h"

/* One (size, flows) point while summarising. */
struct sum_point {
	unsigned int size;
	unsigned int flows;
	unsigned int trials;
	double trial_seconds;
	bool gen_limited;
	bool has_search;		   /* a search record of the point was read */
	struct coord_search_record search; /* the last, its values borrowed from records */
	const json_t *search_rec;	   /* that last search's record */
	json_t *recs;			   /* its trial and search records, in order */
};

struct sum_state {
	struct sum_point *pts;
	unsigned int nb_pts;
	unsigned int cap_pts;
	unsigned int last; /* the point found last: records of one point come together */
	bool too_many_pts; /* a record of a point past REPORT_MAX_POINTS */
	struct coord_record_goal
		goals[PVP_SEARCH_MAX_GOALS]; /* as asked; latency.stat "": no bound */
	unsigned int nb_goals;
};

double
report_max_pps(double line_rate_bps, double size)
{
	return line_rate_bps / ((size + REPORT_L1_OVERHEAD) * 8);
}

static void
sum_state_free(struct sum_state *s)
{
	unsigned int i;

	for (i = 0; i < s->nb_pts; i++)
		json_decref(s->pts[i].recs);
	free(s->pts);
}

static struct sum_point *
sum_point_get(struct sum_state *s, unsigned int size, unsigned int flows)
{
	struct sum_point *p;
	unsigned int i;

	/* A profile trial (no size, no flows): no point in the size x flows grid. */
	if (size == 0 || flows == 0)
		return NULL;
	if (s->last < s->nb_pts && s->pts[s->last].size == size && s->pts[s->last].flows == flows)
		return &s->pts[s->last];
	for (i = 0; i < s->nb_pts; i++) {
		if (s->pts[i].size == size && s->pts[i].flows == flows) {
			s->last = i;
			return &s->pts[i];
		}
	}
	if (s->nb_pts == REPORT_MAX_POINTS) {
		s->too_many_pts = true;
		return NULL;
	}
	if (s->nb_pts == s->cap_pts) {
		unsigned int cap = s->cap_pts ? 2 * s->cap_pts : 16;

		p = realloc(s->pts, cap * sizeof(*p));
		if (p == NULL)
			return NULL;
		s->pts = p;
		s->cap_pts = cap;
	}
	p = &s->pts[s->nb_pts];
	memset(p, 0, sizeof(*p));
	p->recs = json_array();
	if (p->recs == NULL)
		return NULL;
	p->size = size;
	p->flows = flows;
	s->last = s->nb_pts++;
	return p;
}

/* A goal of a "search" or "run" record (one without a name is refused as any bad name). */
static void
sum_goal_add(struct sum_state *s, const struct coord_record_goal *g)
{
	unsigned int i;

	/* A name that is no goal's would name a file anywhere ("../x"). */
	if (!report_goal_name_ok(g->name))
		return;
	for (i = 0; i < s->nb_goals; i++)
		if (strcmp(s->goals[i].name, g->name) == 0)
			return;
	if (s->nb_goals == PVP_SEARCH_MAX_GOALS)
		return;
	s->goals[s->nb_goals++] = *g;
}

static int
point_cmp(const void *a, const void *b)
{
	const struct sum_point *x = a, *y = b;

	if (x->flows != y->flows)
		return x->flows < y->flows ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return 0;
}

static bool
trial_is_dut_result(const struct coord_trial_record *t)
{
	return !t->generator_limited && t->dut_result && !t->search.warmup;
}

/*
 * Whether the latency of trial @p rec is within the bound of @p goal,
 * from its streams' histograms as the search read them; a trial without
 * latency misses it, as in the search.
 */
static bool
trial_meets_latency(const json_t *rec, const struct coord_record_goal *goal)
{
	struct pvp_lat_summary ls;
	/* The statistics in the order of their enum, whose names the goal uses. */
	const uint64_t *v[PVP_SEARCH_LAT_NB] = {NULL,	 &ls.p50,   &ls.p90,
						&ls.p99, &ls.p99_9, &ls.max};
	struct pvp_lat h;
	unsigned int st;

	for (st = PVP_SEARCH_LAT_P50; st < PVP_SEARCH_LAT_NB; st++)
		if (strcmp(goal->latency.stat, pvp_search_lat_stat_name(st)) == 0)
			break;
	if (st == PVP_SEARCH_LAT_NB || report_trial_latency(rec, &h, NULL) <= 0)
		return false;
	pvp_lat_read(&h, &ls);
	return ls.count > 0 && (double)*v[st] <= goal->latency.bound_us * 1e3;
}

static bool
trial_meets(const struct coord_trial_record *t, const json_t *rec,
	    const struct coord_record_goal *goal)
{
	double tx = (double)t->tx_packets, rx = (double)t->rx_packets;
	double lost = tx - rx;

	if (goal->loss_ratio == 0 ? lost > 0 : !(tx > 0 && lost / tx <= goal->loss_ratio))
		return false;
	return goal->latency.stat[0] == '\0' || trial_meets_latency(rec, goal);
}

/*
 * A goal's bounds from a point's records, by the rules of the search:
 * the upper bound is the lowest failing rate of any duration, the lower
 * bound the highest passing rate below it at the longest duration tried.
 */
static void
goal_from_trials(const json_t *recs, const struct coord_record_goal *goal, bool *has_lo, double *lo,
		 bool *has_hi, double *hi)
{
	struct coord_trial_record t;
	double dmax = 0, rate;
	const json_t *rec;
	size_t i;

	*has_lo = *has_hi = false;
	*lo = *hi = 0;
	json_array_foreach(recs, i, rec) {
		if (!report_trial(rec, &t) || !trial_is_dut_result(&t))
			continue;
		dmax = fmax(dmax, t.duration_s);
		rate = t.has_requested ? t.requested_pps : t.achieved_pps;
		if (!trial_meets(&t, rec, goal) && (!*has_hi || rate < *hi)) {
			*has_hi = true;
			*hi = rate;
		}
	}
	json_array_foreach(recs, i, rec) {
		if (!report_trial(rec, &t) || !trial_is_dut_result(&t))
			continue;
		rate = t.has_requested ? t.requested_pps : t.achieved_pps;
		if (t.duration_s < dmax * (1 - 1e-9) || !trial_meets(&t, rec, goal) ||
		    (*has_hi && rate >= *hi))
			continue;
		if (!*has_lo || rate > *lo) {
			*has_lo = true;
			*lo = rate;
		}
	}
}

static const struct coord_record_goal *
search_goal(const struct coord_search_record *sr, const char *name)
{
	unsigned int i;

	for (i = 0; i < sr->nb_goals; i++)
		if (strcmp(sr->goals[i].name, name) == 0)
			return &sr->goals[i];
	return NULL;
}

/*
 * Median, min, max and spread of a goal's lower bound, upper bound and
 * conditional throughput into @p st[0], [1] and [2], over the searches
 * that make a point: every search of the last one's repeat group
 * ("repeat": {"group": ...}, one `--repeat N`; at most REPORT_MAX_REPEAT),
 * else the last search alone, so a rerun appended to the same file
 * replaces the older one. Each search's lower bound (null where it has
 * none) is appended to @p all. Returns how many searches.
 */
static unsigned int
group_stats(const struct sum_point *p, const char *goal, json_t *all, struct report_stats st[3])
{
	const struct coord_search_record *last = &p->search;
	unsigned int n[3] = {0, 0, 0}, nb = 0, k;
	const struct coord_record_goal *g;
	double v[3][REPORT_MAX_REPEAT];
	struct coord_search_record sr;
	const json_t *rec;
	size_t i;

	json_array_foreach(p->recs, i, rec) {
		if (nb == REPORT_MAX_REPEAT)
			break;
		if (!report_search(rec, &sr) ||
		    (last->has_repeat
			     ? !sr.has_repeat || strcmp(sr.repeat.group, last->repeat.group) != 0
			     : rec != p->search_rec))
			continue;
		nb++;
		g = search_goal(&sr, goal);
		if (g != NULL && g->has_lower)
			v[0][n[0]++] = g->lower_pps;
		if (g != NULL && g->has_upper)
			v[1][n[1]++] = g->upper_pps;
		if (g != NULL && g->has_conditional)
			v[2][n[2]++] = g->conditional_pps;
		json_array_append_new(all, g != NULL && g->has_lower ? json_real(g->lower_pps)
								     : json_null());
	}
	for (k = 0; k < 3; k++)
		report_stats(v[k], n[k], &st[k]);
	return nb;
}

static json_t *
goal_json(const struct sum_point *p, const struct coord_record_goal *goal, double line_rate)
{
	bool has_lo, has_hi, at_max = false, gen = false;
	struct report_stats st[3]; /* lower, upper, conditional: group_stats() */
	const struct coord_record_goal *sg;
	const char *status, *source;
	json_t *all = NULL, *j;
	double lo, hi, maxpps;
	unsigned int n = 0;

	sg = p->has_search ? search_goal(&p->search, goal->name) : NULL;
	memset(st, 0, sizeof(st));
	if (sg != NULL) {
		/*
		 * One search gives its bounds; repeats give their medians,
		 * status and flags of the last.
		 */
		all = json_array();
		n = group_stats(p, goal->name, all, st);
		has_lo = st[0].n > 0;
		lo = st[0].median;
		has_hi = st[1].n > 0;
		hi = st[1].median;
		status = sg->status[0] != '\0' ? sg->status : "unknown";
		at_max = sg->reached_max_rate;
		gen = sg->generator_limited;
		source = "search";
	} else {
		goal_from_trials(p->recs, goal, &has_lo, &lo, &has_hi, &hi);
		if (!has_lo && !has_hi)
			return NULL;
		status = "from-trials";
		source = "trials";
	}
	maxpps = report_max_pps(line_rate, p->size);
	j = json_pack(
		"{s:f,s:o,s:o,s:o,s:o,s:o,s:o,s:s,s:s,s:b,s:b,s:I}", "loss_ratio", goal->loss_ratio,
		"pps", has_lo ? json_real(lo) : json_null(), "mpps",
		has_lo ? json_real(lo / 1e6) : json_null(), "l1_gbps",
		has_lo ? json_real(lo * (p->size + REPORT_L1_OVERHEAD) * 8 / 1e9) : json_null(),
		"line_rate_pct", has_lo ? json_real(100 * lo / maxpps) : json_null(), "lower_pps",
		has_lo ? json_real(lo) : json_null(), "upper_pps",
		has_hi ? json_real(hi) : json_null(), "status", status, "source", source,
		"reached_max_rate", at_max, "generator_limited", gen, "repeats", (json_int_t)n);
	if (j != NULL && goal->latency.stat[0] != '\0')
		json_object_set_new(j, "latency",
				    json_pack("{s:s,s:f}", "stat", goal->latency.stat, "bound_us",
					      goal->latency.bound_us));
	if (j != NULL && sg != NULL)
		json_object_update_new(
			j, json_pack("{s:O,s:o*,s:o*,s:o*,s:o*}", "searches_pps", all, "min_pps",
				     st[0].n ? json_real(st[0].min) : json_null(), "max_pps",
				     st[0].n ? json_real(st[0].max) : json_null(), "spread",
				     st[0].has_spread ? json_real(st[0].spread) : json_null(),
				     "conditional_pps",
				     st[2].n ? json_real(st[2].median) : json_null()));
	json_decref(all);
	return j;
}

/* Sorted distinct values of a member of the points. */
static json_t *
distinct(const struct sum_state *s, bool sizes)
{
	json_t *arr = json_array();
	unsigned int i, x;
	size_t j, n;

	for (i = 0; arr != NULL && i < s->nb_pts; i++) {
		x = sizes ? s->pts[i].size : s->pts[i].flows;
		n = json_array_size(arr);
		for (j = 0; j < n && json_integer_value(json_array_get(arr, j)) < x; j++)
			;
		if (j == n || json_integer_value(json_array_get(arr, j)) != x)
			json_array_insert_new(arr, j, json_integer(x));
	}
	return arr;
}

/*
 * What makes a run comparable, from its "run" record: pvpkit's version,
 * the topology, the DUT as the user described it, the host, and each
 * vswitch hop's versions, other_config and PMD rxq assignment.
 */
static json_t *
report_metadata(const struct coord_run_record *rr)
{
	json_t *vs = json_object();
	const json_t *h;
	const char *name;

	json_object_foreach(rr->hops, name, h) {
		const json_t *v = json_object_get(json_object_get(h, "context"), "vswitch");

		if (v != NULL)
			json_object_set(vs, name, (json_t *)(uintptr_t)v);
	}
	/* pvpkit writes a null dut when --dut was not given; a record without a schema may not. */
	return json_pack("{s:s*,s:s*,s:s*,s:o*,s:o*,s:o}", "pvpkit_version",
			 rr->pvpkit_version[0] != '\0' ? rr->pvpkit_version : NULL, "started",
			 rr->started[0] != '\0' ? rr->started : NULL, "topology",
			 rr->topology[0] != '\0' ? rr->topology : NULL, "dut",
			 rr->has_dut	  ? json_string(rr->dut)
			 : rr->has_schema ? json_null()
					  : NULL,
			 "host",
			 rr->has_host ? pvp_schema_encode(coord_record_host_members, &rr->host)
				      : NULL,
			 "vswitch", vs);
}

json_t *
report_summary(const json_t *records, const struct report_opts *o)
{
	struct report_opts dflt;
	struct coord_run_record next, last_run, *run = NULL;
	struct coord_search_record sr;
	const json_t *rec;
	struct coord_trial_record tr;
	struct sum_state s;
	struct sum_point *p;
	json_t *sum = NULL, *pts, *pj, *goals, *gj, *names;
	double line_rate, total_s = 0;
	unsigned int i, g, trials = 0, searches = 0, remeasured = 0, recovered = 0;
	const char *title;
	size_t k;

	if (o == NULL) {
		report_opts_init(&dflt);
		o = &dflt;
	}
	memset(&s, 0, sizeof(s));
	json_array_foreach(records, k, rec) {
		if (report_run(rec, &next)) {
			last_run = next;
			run = &last_run;
		} else if (report_trial(rec, &tr)) {
			trials++;
			total_s += tr.duration_s;
			p = sum_point_get(&s, tr.size, tr.flows);
			if (p == NULL)
				continue;
			json_array_append(p->recs, (json_t *)(uintptr_t)rec);
			p->trials++;
			p->trial_seconds += tr.duration_s;
			if (tr.generator_limited)
				p->gen_limited = true;
		} else if (report_search(rec, &sr)) {
			searches++;
			remeasured += sr.generator_remeasured;
			recovered += sr.generator_recovered;
			for (g = 0; g < sr.nb_goals; g++)
				sum_goal_add(&s, &sr.goals[g]);
			p = sum_point_get(&s, sr.size, sr.flows);
			if (p != NULL) {
				json_array_append(p->recs, (json_t *)(uintptr_t)rec);
				p->search = sr;
				p->search_rec = rec;
				p->has_search = true;
			}
		}
	}
	if (s.too_many_pts) {
		sum_state_free(&s);
		errno = E2BIG;
		return NULL;
	}
	if (s.nb_goals == 0 && run != NULL)
		for (g = 0; g < run->nb_goals; g++)
			sum_goal_add(&s, &run->goals[g]);
	if (s.nb_goals == 0)
		sum_goal_add(&s, &(const struct coord_record_goal){.name = "ndr"});
	if (s.nb_pts > 1)
		qsort(s.pts, s.nb_pts, sizeof(*s.pts), point_cmp);

	line_rate = run != NULL && run->has_line_rate ? run->line_rate_bps : o->line_rate_bps;
	/* Below 1 kbit/s (1e-300) the share of the line rate would be infinite. */
	if (!(line_rate >= PVP_RATE_MIN_BPS))
		line_rate = REPORT_DEFAULT_LINE_RATE;
	title = o->title != NULL ? o->title : run != NULL && run->has_title ? run->title : "pvpkit";

	pts = json_array();
	names = json_array();
	for (g = 0; g < s.nb_goals; g++)
		json_array_append_new(names, json_string(s.goals[g].name));
	for (i = 0; pts != NULL && i < s.nb_pts; i++) {
		p = &s.pts[i];
		goals = json_object();
		for (g = 0; goals != NULL && g < s.nb_goals; g++) {
			gj = goal_json(p, &s.goals[g], line_rate);
			if (gj != NULL)
				json_object_set_new(goals, s.goals[g].name, gj);
		}
		/* Latency and one-way latency only where the point's records have them. */
		pj = json_pack(
			"{s:I,s:I,s:I,s:f,s:b,s:f,s:o,s:o*,s:o*}", "size", (json_int_t)p->size,
			"flows", (json_int_t)p->flows, "trials", (json_int_t)p->trials,
			"trial_seconds", p->trial_seconds, "generator_limited",
			p->gen_limited || (p->has_search && p->search.generator_limited_trials > 0),
			"theoretical_max_pps", report_max_pps(line_rate, p->size), "goals", goals,
			"latency", report_latency_point(p->recs), "oneway",
			report_oneway_point(p->recs));
		if (pj == NULL || json_array_append_new(pts, pj) < 0) {
			json_decref(pts);
			pts = NULL;
		}
	}
	/*
	 * The members a run may not have are left out; last, how often a
	 * generator-limited trial was measured again, and came back clean.
	 */
	if (pts != NULL && names != NULL)
		sum = json_pack(
			"{s:i,s:s,s:f,s:i,s:b,s:s,s:I,s:I,s:f,s:o*,s:o*,s:o,s:o,s:o*,s:o*,s:o*,s:I,"
			"s:I}",
			"schema", COORD_RECORD_SCHEMA, "title", title, "line_rate_bps", line_rate,
			"l1_overhead_bytes", REPORT_L1_OVERHEAD, "sizes_include_fcs", 1,
			"flow_type", run != NULL && run->has_flow_type ? run->flow_type : "",
			"trials", (json_int_t)trials, "searches", (json_int_t)searches,
			"trial_seconds", total_s, "sizes", distinct(&s, true), "flow_counts",
			distinct(&s, false), "goals", names, "points", pts, "metadata",
			run != NULL ? report_metadata(run) : NULL, "soak",
			report_soak_summary(records), "latency_floor",
			report_latency_floor(records), "generator_remeasured",
			(json_int_t)remeasured, "generator_recovered", (json_int_t)recovered);
	else {
		json_decref(pts);
		json_decref(names);
	}
	sum_state_free(&s);
	if (sum == NULL)
		errno = ENOMEM;
	return sum;
}
