/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Latency under load (pvpkit search | run --latency): after a point's
 * searches, one trial at each load, in percent of the reference goal's
 * rate (0 % = a low fixed rate), as CSIT measures latency at fixed
 * fractions of PDR; with --repeat N, N rounds of all loads, so that
 * compare knows the run's own latency noise. The figures come from
 * pvpkit-gen's per-stream histograms (lib/lat), which the trial record
 * keeps whole.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "pvp_util.h"

#include "coord.h"
#include "cmd.h"
#include "report.h"
#include "cmd_search.h"
#include "pvp_lat.h"

/*
 * The reference of the latency step from a point's searches: the last
 * PDR goal (the first NDR when there is none), median of the lower
 * bounds. @return true with @p name and @p pps set, false when no search
 * found a lower bound.
 */
static bool
lat_reference(const struct cmd_repeats *r, char *name, size_t len, double *pps)
{
	double v[CMD_SEARCH_MAX_REPEAT];
	struct report_stats st;
	unsigned int g, i, n, pick = 0;

	/* The last PDR goal: the highest load a latency figure is asked for. */
	for (g = 0; g < r->p->nb_goals; g++)
		if (r->p->loss_ratio[g] != 0)
			pick = g;
	report_goal_label(r->p, pick, name, len);
	for (i = n = 0; i < r->n; i++)
		if (r->goal[i][pick].has_lower)
			v[n++] = r->goal[i][pick].lower_bound;
	report_stats(v, n, &st);
	*pps = st.median;
	return n > 0 && st.median > 0;
}

/* "12.3" us, or "-" with no samples. */
static const char *
lat_us(uint64_t ns, bool any, char *buf, size_t len)
{
	if (!any)
		return "-";
	snprintf(buf, len, "%.1f", (double)ns / 1e3);
	return buf;
}

/* The figures of one latency trial, one line. */
static void
lat_show(const char *load, double rate, const struct coord_trial_result *r, const json_t *trial)
{
	char a[8][24], tx[32], lost[32];
	struct pvp_lat *h = malloc(sizeof(*h));
	struct pvp_lat_summary s;
	const char *clock = "";
	bool any;

	memset(&s, 0, sizeof(s));
	if (h != NULL && report_trial_latency(trial, h, &clock) > 0)
		pvp_lat_read(h, &s);
	free(h);
	any = s.count > 0;
	printf("-- latency %s (%s pps): lost %s of %s; us min %s p50 %s p90 %s p99 %s p99.9 %s "
	       "p99.99 %s max %s (%s clock)%s\n",
	       load, pvp_fmt_count((int64_t)rate, a[0], sizeof(a[0])),
	       pvp_fmt_count((int64_t)coord_trial_tx_packets(r) -
				     (int64_t)coord_trial_rx_packets(r),
			     lost, sizeof(lost)),
	       pvp_fmt_count((int64_t)coord_trial_tx_packets(r), tx, sizeof(tx)),
	       lat_us(s.min, any, a[1], sizeof(a[1])), lat_us(s.p50, any, a[2], sizeof(a[2])),
	       lat_us(s.p90, any, a[3], sizeof(a[3])), lat_us(s.p99, any, a[4], sizeof(a[4])),
	       lat_us(s.p99_9, any, a[5], sizeof(a[5])), lat_us(s.p99_99, any, a[6], sizeof(a[6])),
	       lat_us(s.max, any, a[7], sizeof(a[7])), clock[0] != '\0' ? clock : "no",
	       !coord_trial_invalid(r) && !coord_trial_reconciled(r) ? " [checks failed]" : "");
	fflush(stdout);
}

int
cmd_latency_point(struct cmd_search_args *a, struct coord_topology *t, unsigned int size,
		  unsigned int flows, const struct cmd_repeats *reps, unsigned int *checks_failed)
{
	unsigned int i, round, rounds = a->repeat > 1 ? a->repeat : 1;
	char err[512], buf[32], set[64], load[48], ref_name[32];
	struct coord_trial_result r;
	struct coord_trial_conf c;
	double ref_pps;
	json_t *j;
	int ret;

	if (!lat_reference(reps, ref_name, sizeof(ref_name), &ref_pps)) {
		printf("== latency %u B, %u flows: skipped, no search found a %s rate\n", size,
		       flows, ref_name);
		return 0;
	}
	/*
	 * With --repeat N the loads are measured in N rounds, all loads in
	 * each: the spread between rounds is the run's own latency noise,
	 * which compare weighs a change against. The set names the rounds
	 * that belong together, so a later rerun in the same file replaces
	 * them all.
	 */
	snprintf(set, sizeof(set), "%ld-%u-%u", (long)time(NULL), size, flows);
	printf("== latency %u B, %u flows: %u loads of %s %s pps, %.1f s each", size, flows,
	       a->nb_lat_loads, ref_name, pvp_fmt_count((int64_t)ref_pps, buf, sizeof(buf)),
	       a->lat_duration);
	if (rounds > 1)
		printf(", %u rounds", rounds);
	printf("\n");
	for (round = 1; round <= rounds && !coord_interrupted; round++) {
		for (i = 0; i < a->nb_lat_loads && !coord_interrupted; i++) {
			c = a->o.conf;
			c.traffic.size = size;
			c.traffic.flows = flows;
			c.traffic.duration_s = a->lat_duration;
			c.traffic.rate_pps = a->lat_loads[i] > 0 ? ref_pps * a->lat_loads[i] / 100
								 : a->lat_low_rate;
			ret = coord_trial_run(t, &c, &r, err, sizeof(err));
			if (ret < 0) {
				fprintf(stderr, "pvpkit: latency trial at %g %% not measured: %s\n",
					a->lat_loads[i], err);
				return 1;
			}
			j = coord_trial_to_json(t, &r);
			if (j == NULL) {
				coord_trial_result_clear(&r);
				continue;
			}
			json_object_set_new(j, "latency",
					    json_pack("{s:f,s:s,s:f,s:s,s:I,s:I}", "load_pct",
						      a->lat_loads[i], "reference", ref_name,
						      "reference_pps", ref_pps, "set", set, "round",
						      (json_int_t)round, "rounds",
						      (json_int_t)rounds));
			snprintf(load, sizeof(load), "latency trial at %g %%", a->lat_loads[i]);
			ret = cli_sink_keep(&a->sink, j, load);
			if (rounds > 1)
				snprintf(load, sizeof(load), "%g %%, round %u/%u", a->lat_loads[i],
					 round, rounds);
			else
				snprintf(load, sizeof(load), "%g %%", a->lat_loads[i]);
			lat_show(load, c.traffic.rate_pps, &r, j);
			if (!coord_trial_invalid(&r) && !coord_trial_reconciled(&r))
				(*checks_failed)++;
			json_decref(j);
			if (ret < 0) {
				/* Nothing measured is lost, and nothing more is run. */
				coord_trial_result_clear(&r);
				return 1;
			}
			if (a->tables)
				coord_table_print(stdout, t, &r);
			coord_trial_result_clear(&r);
		}
	}
	return 0;
}

int
cmd_latency_floor(struct cmd_search_args *a)
{
	struct report_load_info li;
	const json_t *rec, *best = NULL;
	struct pvp_lat *h;
	struct pvp_lat_summary s;
	const char *clock = "", *base;
	json_t *recs, *fl;
	char u[3][24];
	size_t i;
	int ret;

	recs = report_load(a->lat_floor, &li);
	if (recs == NULL) {
		fprintf(stderr, "pvpkit: --latency-floor: %s: %s\n", a->lat_floor,
			li.warning[0] != '\0' ? li.warning : strerror(errno));
		return 1;
	}
	/* The wire run's lowest load: the tester's own path, least queueing. */
	json_array_foreach(recs, i, rec) {
		const json_t *lm = json_object_get(rec, "latency");

		if (!json_is_object(lm))
			continue;
		if (best == NULL || json_number_value(json_object_get(lm, "load_pct")) <
					    json_number_value(json_object_get(
						    json_object_get(best, "latency"), "load_pct")))
			best = rec;
	}
	h = malloc(sizeof(*h));
	if (best == NULL || h == NULL || report_trial_latency(best, h, &clock) <= 0) {
		fprintf(stderr,
			"pvpkit: --latency-floor: %s has no latency trial (run pvpkit search"
			" --latency on a wire topology)\n",
			a->lat_floor);
		free(h);
		json_decref(recs);
		return 1;
	}
	pvp_lat_read(h, &s);
	free(h);
	base = strrchr(a->lat_floor, '/') != NULL ? strrchr(a->lat_floor, '/') + 1 : a->lat_floor;
	fl = json_pack("{s:s,s:s,s:f,s:I,s:I,s:I,s:I,s:I,s:s}", "type", "latency_floor", "source",
		       base, "rate_pps", json_number_value(json_object_get(best, "requested_pps")),
		       "count", (json_int_t)s.count, "min_ns", (json_int_t)s.min, "p50_ns",
		       (json_int_t)s.p50, "p99_ns", (json_int_t)s.p99, "max_ns", (json_int_t)s.max,
		       "clock", clock);
	json_decref(recs);
	if (fl == NULL)
		return 1;
	ret = cli_sink_keep(&a->sink, fl, "latency floor");
	json_decref(fl);
	if (ret < 0)
		return 1;
	printf("== latency floor (%s, %s clock): min %s us, p50 %s us, p99 %s us\n", base, clock,
	       lat_us(s.min, true, u[0], sizeof(u[0])), lat_us(s.p50, true, u[1], sizeof(u[1])),
	       lat_us(s.p99, true, u[2], sizeof(u[2])));
	return 0;
}
