/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The JSON-lines results file: append with fsync, load tolerating what a
 * crash leaves behind, and the records the search and trials produce.
 */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_util.h"

#include "coord_record.h"
#include "report.h"
#include "report_private.h"

/* Count a bad line; keep the message of the first. */
static void
load_warn(struct report_load_info *info, unsigned int line, const char *msg)
{
	info->bad_lines++;
	if (info->first_bad == 0) {
		info->first_bad = line;
		snprintf(info->warning, sizeof(info->warning), "%s", msg);
	}
}

/* The values in @p v, itself included. */
static size_t
load_values(const json_t *v)
{
	const json_t *x;
	const char *key;
	size_t n = 1, i;

	if (json_is_object(v))
		json_object_foreach((json_t *)(uintptr_t)v, key, x)
			n += load_values(x);
	else if (json_is_array(v))
		json_array_foreach(v, i, x)
			n += load_values(x);
	return n;
}

json_t *
report_load(const char *path, struct report_load_info *info)
{
	struct report_load_info dummy;
	char *buf, *p, *nl, *end, what[sizeof(info->warning)];
	unsigned int lineno = 0, max = 0, misshapen = 0;
	char why[160];		 /* "trial record: member: must be ..." */
	const char *over = NULL; /* the bound a record went past */
	size_t values = 0;
	json_error_t jerr;
	json_t *arr, *rec;
	size_t len;
	int ret;

	if (info == NULL)
		info = &dummy;
	memset(info, 0, sizeof(*info));
	/* Not a FIFO or a device (/dev/zero would never end), not unbounded. */
	ret = pvp_file_read(path, REPORT_MAX_FILE, &buf, &len, info->warning,
			    sizeof(info->warning));
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	arr = json_array();
	if (arr == NULL) {
		free(buf);
		errno = ENOMEM;
		return NULL;
	}
	end = buf + len;
	for (p = buf; p < end; p = nl + 1) {
		bool last_unterminated;

		nl = memchr(p, '\n', (size_t)(end - p));
		last_unterminated = nl == NULL;
		if (nl == NULL)
			nl = end;
		*nl = '\0';
		lineno++;
		if (strspn(p, " \t\r") == (size_t)(nl - p))
			continue;
		if (info->records == REPORT_MAX_RECORDS) {
			over = "records";
			max = REPORT_MAX_RECORDS;
			break;
		}
		rec = json_loadb(p, (size_t)(nl - p), 0, &jerr);
		if (rec == NULL && last_unterminated) {
			info->truncated_tail = true;
			snprintf(what, sizeof(what),
				 "%s:%u: last line is cut short (interrupted write?), skipped",
				 path, lineno);
			load_warn(info, lineno, what);
			continue;
		}
		if (rec == NULL) {
			/* jansson's position in the line, never the line's words. */
			what[0] = '\0';
			jerr.line = (int)lineno;
			pvp_json_load_err(what, sizeof(what), path, &jerr);
			snprintf(what + strlen(what), sizeof(what) - strlen(what),
				 ", line skipped");
			load_warn(info, lineno, what);
			continue;
		}
		if (!json_is_object(rec)) {
			json_decref(rec);
			snprintf(what, sizeof(what), "%s:%u: not a JSON object, line skipped", path,
				 lineno);
			load_warn(info, lineno, what);
			continue;
		}
		/* A trial or search record the report cannot read: which member, which line. */
		why[0] = '\0';
		if (coord_record_check(rec, why, sizeof(why)) < 0) {
			json_decref(rec);
			snprintf(what, sizeof(what), "%s:%u: %s, line skipped", path, lineno, why);
			load_warn(info, lineno, what);
			misshapen++;
			continue;
		}
		/* Records bound the count, values the memory (wide records). */
		values += load_values(rec);
		if (values > REPORT_MAX_VALUES) {
			json_decref(rec);
			over = "JSON values";
			max = REPORT_MAX_VALUES;
			break;
		}
		json_array_append_new(arr, rec);
		info->records++;
	}
	free(buf);
	if (over != NULL) {
		snprintf(info->warning, sizeof(info->warning),
			 "%s:%u: more than %u %s, the most a report reads", path, lineno, max,
			 over);
		json_decref(arr);
		errno = EFBIG;
		return NULL;
	}
	/* Records, none of them readable: the first one's reason is the error. */
	if (info->records == 0 && misshapen > 0) {
		json_decref(arr);
		errno = EINVAL;
		return NULL;
	}
	/* Lines, none of them a record: not a results file at all. */
	if (info->records == 0 && info->bad_lines > (info->truncated_tail ? 1u : 0u)) {
		snprintf(info->warning, sizeof(info->warning),
			 "%s: not a results file (none of its %u lines is a JSON record)", path,
			 info->bad_lines);
		json_decref(arr);
		errno = EINVAL;
		return NULL;
	}
	return arr;
}

const char *
report_goal_name(double loss_ratio, unsigned int pdr_index, char *buf, size_t len)
{
	if (loss_ratio == 0)
		snprintf(buf, len, "ndr");
	else if (pdr_index == 0)
		snprintf(buf, len, "pdr");
	else
		snprintf(buf, len, "pdr%g%%", loss_ratio * 100);
	return buf;
}

const char *
report_goal_label(const struct pvp_search_params *p, unsigned int g, char *buf, size_t len)
{
	unsigned int i, pdr = 0;
	size_t n;

	for (i = 0; i < g; i++)
		if (p->loss_ratio[i] != 0)
			pdr++;
	report_goal_name(p->loss_ratio[g], pdr, buf, len);
	n = strlen(buf);
	if (p->lat_stat[g] != PVP_SEARCH_LAT_NONE && n < len)
		snprintf(buf + n, len - n, "+%s-%gus", pvp_search_lat_stat_name(p->lat_stat[g]),
			 (double)p->lat_bound_ns[g] / 1e3);
	return buf;
}

void
report_goal_asked(const struct pvp_search_params *p, unsigned int g, struct coord_record_goal *o)
{
	report_goal_label(p, g, o->name, sizeof(o->name));
	o->loss_ratio = p->loss_ratio[g];
	o->has_latency = p->lat_stat[g] != PVP_SEARCH_LAT_NONE;
	snprintf(o->latency.stat, sizeof(o->latency.stat), "%s",
		 pvp_search_lat_stat_name(p->lat_stat[g]));
	o->latency.bound_us = (double)p->lat_bound_ns[g] / 1e3;
}

bool
report_goal_name_ok(const char *name)
{
	size_t n;

	if (name == NULL || !(name[0] >= 'a' && name[0] <= 'z'))
		return false;
	n = strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789.%+-");
	return name[n] == '\0' && n < 32;
}

_Static_assert(COORD_RECORD_MAX_GOALS == PVP_SEARCH_MAX_GOALS, "a search record holds every goal");

json_t *
report_search_record(const struct pvp_search_params *p, const struct pvp_search_result *r,
		     unsigned int size, unsigned int flows)
{
	struct coord_search_record rec = {
		.schema = COORD_RECORD_SCHEMA,
		.has_schema = true,
		.size = size,
		.has_size = true,
		.flows = flows,
		.has_flows = true,
	};
	unsigned int i;

	if (p == NULL || r == NULL)
		return NULL;
	snprintf(rec.algo, sizeof(rec.algo), "%s", pvp_search_algo_name(p->algo));
	rec.params = (struct coord_record_search_params){
		.min_pps = p->min_rate,
		.max_pps = p->max_rate,
		.width_goal = p->width_goal,
		.initial_duration_s = p->initial_duration,
		.final_duration_s = p->final_duration,
		.intermediate_phases = p->intermediate_phases,
		.max_trials = p->max_trials,
		.max_time_s = p->max_time,
		.exceed_ratio = p->exceed_ratio,
		.duration_sum_s = p->duration_sum > 0 ? p->duration_sum : p->final_duration,
		.warmup_s = p->warmup_duration,
		.gen_remeasure = p->gen_remeasure,
	};
	rec.nb_goals = r->nb_goals;
	for (i = 0; i < r->nb_goals; i++) {
		const struct pvp_search_goal_result *g = &r->goal[i];
		struct coord_record_goal *o = &rec.goals[i];

		report_goal_asked(p, i, o);
		snprintf(o->status, sizeof(o->status), "%s",
			 pvp_search_goal_status_name(g->status));
		/* A rate not known is null rather than a made-up 0. */
		o->has_lower = o->has_conditional = g->has_lower;
		o->lower_pps = g->lower_bound;
		o->has_upper = g->has_upper;
		o->upper_pps = g->upper_bound;
		o->rel_width = g->rel_width;
		o->reached_max_rate = g->reached_max_rate;
		o->generator_limited = g->generator_limited;
		o->conditional_pps = g->conditional_throughput;
	}
	rec.trials = r->nb_trials;
	rec.trial_seconds = r->total_time;
	rec.generator_limited_trials = r->nb_gen_limited;
	rec.generator_remeasured = r->nb_gen_remeasured;
	rec.generator_recovered = r->nb_gen_recovered;
	rec.generator_ceiling_pps = r->gen_ceiling;
	rec.budget_exhausted = r->budget_exhausted;
	rec.aborted = r->aborted;
	return pvp_schema_encode(coord_search_record_members, &rec);
}

bool
report_trial_reconciles(const json_t *trial)
{
	struct coord_trial_record tr;
	const char *key;
	json_int_t sum;
	json_t *v;

	/* Counts a record leaves out read as 0, as the table says; no hop_lost, no check. */
	if (!report_trial(trial, &tr) || tr.hop_lost == NULL)
		return false;
	sum = tr.unattributed;
	json_object_foreach(tr.hop_lost, key, v)
		sum += json_integer_value(v); /* the table: integers */
	return sum == (json_int_t)tr.tx_packets - (json_int_t)tr.rx_packets;
}

double
report_num(const json_t *o, const char *key, double dflt)
{
	json_t *v = json_object_get(o, key);
	double d = json_is_number(v) ? json_number_value(v) : dflt;

	/*
	 * No run writes a figure beyond REPORT_NUM_MAX (a trillion seconds, a
	 * counter at 100 Mpps for 300 years); 1e308 would make sums and
	 * products infinite, which JSON cannot hold.
	 */
	return fabs(d) <= REPORT_NUM_MAX ? d : dflt;
}

const char *
report_str(const json_t *o, const char *key, const char *dflt)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : dflt;
}

bool
report_is_type(const json_t *rec, const char *type)
{
	const char *t = report_str(rec, "type", NULL);

	return t != NULL && strcmp(t, type) == 0;
}

/* Why a record does not decode is report_load()'s to say: these only ask whether it does. */
bool
report_trial(const json_t *rec, struct coord_trial_record *tr)
{
	return report_is_type(rec, "trial") &&
	       pvp_schema_read(coord_trial_record_members, rec, tr, NULL, 0) == 0;
}

bool
report_search(const json_t *rec, struct coord_search_record *sr)
{
	return report_is_type(rec, "search") &&
	       pvp_schema_read(coord_search_record_members, rec, sr, NULL, 0) == 0;
}

bool
report_run(const json_t *rec, struct coord_run_record *rr)
{
	return report_is_type(rec, "run") &&
	       pvp_schema_read(coord_run_record_members, rec, rr, NULL, 0) == 0;
}

bool
report_soak(const json_t *rec, struct coord_soak_record *sr)
{
	return (report_is_type(rec, "soak_interval") || report_is_type(rec, "soak")) &&
	       pvp_schema_read(coord_soak_record_members, rec, sr, NULL, 0) == 0;
}
