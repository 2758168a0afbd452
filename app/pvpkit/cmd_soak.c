/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit soak: one long trial at a fixed load, read every interval
 * without stopping the traffic, so that periodic drops, leaks and slowly
 * growing latency show up as a time series. Each interval's per-hop loss
 * (coord_attribute() between two snapshots) and latency (the difference
 * of pvpkit-gen's cumulative histograms) is appended to the results file
 * as it is read, so Ctrl-C keeps everything measured; the reports
 * (soak.csv, a plot of loss and latency over time) are rebuilt from that
 * file alone.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_lat.h"
#include "pvp_util.h"

#include "coord.h"
#include "cmd.h"
#include "coord_record.h"
#include "report.h"
#include "cmd_search.h"
#include "cmd_soak.h"

/* The state while soaking. */
struct soak_run {
	struct soak_args *a;
	struct coord_topology *t;
	struct coord_snap first[COORD_MAX_HOPS]; /* after the clear */
	struct coord_snap prev[COORD_MAX_HOPS];	 /* last reading */
	struct coord_snap now[COORD_MAX_HOPS];	 /* this reading */
	struct pvp_lat lat_prev;		 /* cumulative histogram at the last reading */
	struct pvp_lat lat_now;			 /* cumulative now */
	struct pvp_lat lat_int;			 /* this interval */
	double t0;				 /* pvp_now_s() at the start */
	double t_stop;				 /* pvp_now_s() when the sources stopped */
	unsigned int n;				 /* intervals read */
	int interrupted;			 /* the signal that ended it (SIGINT ...), or 0 */
	struct cli_sink sink;			 /* the results, else stdout */
	bool checks_failed;			 /* a check failed on the totals */
	struct coord_topo_hop *inject_hop[SOAK_MAX_INJECT];	   /* each --inject's hop */
	unsigned int nb_injected;				   /* --inject entries done */
	struct coord_record_soak_inject injected[SOAK_MAX_INJECT]; /* what each did */
	unsigned int nb_recorded; /* of them, in an interval's record already */
};

/* Snapshot every hop with counters into @p snap. 0 or -errno after a message. */
static int
soak_snapshot(struct soak_run *s, struct coord_snap *snap)
{
	char err[256] = "";
	unsigned int i;
	int ret;

	for (i = 0; i < s->t->nb_hops; i++) {
		struct coord_topo_hop *h = &s->t->hops[i];

		memset(&snap[i], 0, sizeof(snap[i]));
		if (!coord_driver_has(h->hop.driver, COORD_ROLE_COUNTERS) ||
		    h->hop.driver->snapshot == NULL)
			continue;
		ret = h->hop.driver->snapshot(&h->hop, &snap[i], err, sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "pvpkit: soak: %s\n", err);
			return ret;
		}
	}
	return 0;
}

/* Every source's cumulative histogram, merged. Streams missing: empty. */
static void
soak_latency(struct soak_run *s, struct pvp_lat *out)
{
	struct coord_traffic_result res;
	json_t *trial;
	char err[256] = "";
	unsigned int i;

	pvp_lat_init(out);
	for (i = 0; i < s->t->nb_hops; i++) {
		struct coord_topo_hop *h = &s->t->hops[i];
		struct pvp_lat one;

		if (!coord_driver_has(h->hop.driver, COORD_ROLE_SOURCE) ||
		    h->hop.driver->traffic_result == NULL)
			continue;
		memset(&res, 0, sizeof(res));
		if (h->hop.driver->traffic_result(&h->hop, &res, err, sizeof(err)) < 0)
			continue;
		trial = json_pack("{s:O*}", "streams", res.streams);
		json_decref(res.streams);
		if (trial != NULL && report_trial_latency(trial, &one, NULL) > 0)
			pvp_lat_merge(out, &one);
		json_decref(trial);
	}
}

/* @p now minus @p prev, bucket by bucket: the interval's samples. */
static void
soak_lat_diff(const struct pvp_lat *now, const struct pvp_lat *prev, struct pvp_lat *d)
{
	unsigned int b;
	bool first = true;

	pvp_lat_init(d);
	for (b = 0; b < PVP_LAT_NB_BUCKETS; b++) {
		d->bucket[b] =
			now->bucket[b] >= prev->bucket[b] ? now->bucket[b] - prev->bucket[b] : 0;
		d->count += d->bucket[b];
		if (d->bucket[b] == 0)
			continue;
		/* Min and max of an interval: its extreme buckets. */
		if (first)
			d->min_ns = pvp_lat_bucket_low(b);
		first = false;
		d->max_ns =
			b + 1 < PVP_LAT_NB_BUCKETS ? pvp_lat_bucket_low(b + 1) - 1 : now->max_ns;
	}
	d->sum_ns = now->sum_ns >= prev->sum_ns ? now->sum_ns - prev->sum_ns : 0;
	if (d->count > 0) {
		d->min_ns = d->min_ns > now->min_ns ? d->min_ns : now->min_ns;
		d->max_ns = d->max_ns < now->max_ns ? d->max_ns : now->max_ns;
	}
}

/*
 * Loss between two readings as a record, an interval's or (@p totals) the
 * soak's; 0 or 1 (not kept: it is on stdout).
 */
static int
soak_keep(struct soak_run *s, const struct coord_snap *from, bool totals, double t_s, double span_s,
	  const struct pvp_lat *lat)
{
	struct coord_trial_result r;
	struct coord_soak_record sr;
	struct pvp_lat_summary ls;
	json_t *rec, *hops;
	char a[32], b[32];
	unsigned int i, first;
	int ret;

	if (coord_trial_result_alloc(&r, s->t) < 0) {
		fprintf(stderr, "pvpkit: soak: out of memory\n");
		return 1;
	}
	coord_attribute(s->t, from, s->now, &r);
	hops = json_object();
	for (i = 0; i < s->t->nb_hops; i++)
		if (coord_driver_has(s->t->hops[i].hop.driver, COORD_ROLE_COUNTERS))
			json_object_set_new(hops, s->t->hops[i].hop.name,
					    json_integer((json_int_t)r.hop_lost[i]));
	pvp_lat_read(lat, &ls);
	/* Written through the record's table (coord_record.c), as it is read. */
	memset(&sr, 0, sizeof(sr));
	sr.type = totals ? COORD_SOAK_TOTALS : COORD_SOAK_INTERVAL;
	sr.n = s->n;
	sr.t_s = t_s;
	sr.interval_s = span_s;
	sr.rate_pps = s->a->o.conf.traffic.rate_pps;
	sr.tx_packets = coord_trial_tx_packets(&r);
	sr.rx_packets = coord_trial_rx_packets(&r);
	sr.lost = (int64_t)sr.tx_packets - (int64_t)sr.rx_packets;
	sr.loss_ratio = sr.tx_packets > 0 ? (double)sr.lost / (double)sr.tx_packets : 0.0;
	sr.hop_lost = hops;
	sr.unattributed = r.unattributed;
	sr.reconciled = coord_trial_reconciled(&r);
	sr.tx_pps = span_s > 0 ? (double)sr.tx_packets / span_s : 0.0;
	sr.rx_pps = span_s > 0 ? (double)sr.rx_packets / span_s : 0.0;
	sr.size = s->a->o.conf.traffic.size;
	sr.flows = s->a->o.conf.traffic.flows;
	sr.has_planned = sr.has_interrupted = totals;
	sr.planned_s = s->a->duration_s;
	sr.interrupted = s->interrupted != 0;
	sr.has_latency = ls.count > 0;
	sr.latency_ns = (struct coord_record_soak_latency){
		.count = ls.count,
		.min = ls.min,
		.avg = ls.avg,
		.p50 = ls.p50,
		.p99 = ls.p99,
		.p99_9 = ls.p99_9,
		.p99_99 = ls.p99_99,
		.max = ls.max,
		.clock = "tsc",
	};
	/* An interval keeps the calls made since the last reading, the totals all of them. */
	first = totals ? 0 : s->nb_recorded;
	for (i = first; i < s->nb_injected; i++)
		sr.injected[sr.nb_injected++] = s->injected[i];
	s->nb_recorded = s->nb_injected;
	rec = pvp_schema_encode(coord_soak_record_members, &sr);
	json_decref(hops);
	if (rec == NULL) {
		coord_trial_result_clear(&r);
		return 0;
	}
	/* Kept first (or on stdout), shown whatever became of it. */
	if (totals)
		snprintf(a, sizeof(a), "soak totals");
	else
		snprintf(a, sizeof(a), "soak interval %u", s->n);
	ret = cli_sink_keep(&s->sink, rec, a);
	/*
	 * Pushed once kept: a kill during the push loses nothing. A quarter
	 * of the interval at most, so the next reading is on time.
	 */
	if (!totals)
		cmd_soak_metrics_interval(&s->a->metrics, rec, s->a->interval_s / 4);
	printf("%s %6.1f s: tx %s rx %s lost %" PRId64 " (%.4f %%)",
	       totals ? "soak" : "soak_interval", t_s,
	       pvp_fmt_count((int64_t)sr.tx_packets, a, sizeof(a)),
	       pvp_fmt_count((int64_t)sr.rx_packets, b, sizeof(b)), sr.lost,
	       sr.tx_packets > 0 ? 100.0 * (double)sr.lost / (double)sr.tx_packets : 0.0);
	if (ls.count > 0)
		printf("; latency us p50 %.1f p99 %.1f max %.1f", ls.p50 / 1e3, ls.p99 / 1e3,
		       ls.max / 1e3);
	printf("\n");
	/*
	 * The totals are read once the counters settled, so their checks
	 * hold as a trial's do; an interval's readings are taken one hop
	 * after the other while traffic runs and only add up.
	 */
	if (totals && !coord_trial_reconciled(&r)) {
		s->checks_failed = true;
		for (i = 0; i < r.nb_findings; i++)
			printf("CHECK FAILED: %s\n", r.findings[i].text);
	}
	json_decref(rec);
	coord_trial_result_clear(&r);
	fflush(stdout);
	return ret < 0 ? 1 : 0;
}

/* Clear, start the sources. 0, or 1 after a message. */
static int
soak_start(struct soak_run *s)
{
	struct coord_traffic tr = s->a->o.conf.traffic;
	json_t *warnings = NULL, *w;
	double at = 0, ahead;
	char err[256] = "";
	size_t i;

	/* Soak's own length; its records give pps, so the sources get the
	 * packet rate (a PDR fraction has no --rate text). */
	tr.duration_s = s->a->duration_s;
	tr.rate = NULL;
	for (i = 0; i < s->t->nb_hops; i++) {
		struct coord_topo_hop *h = &s->t->hops[i];

		if (h->hop.driver->clear != NULL &&
		    !coord_driver_has(h->hop.driver, COORD_ROLE_PASSIVE) &&
		    h->hop.driver->clear(&h->hop, err, sizeof(err)) < 0) {
			fprintf(stderr, "pvpkit: soak: %s\n", err);
			return 1;
		}
	}
	if (soak_snapshot(s, s->first) < 0)
		return 1;
	memcpy(s->prev, s->first, sizeof(s->prev));
	/* Several sources start together, as in a trial (lib/coord). */
	if (coord_sources_start(s->t, &tr, &at, &warnings, err, sizeof(err)) < 0) {
		fprintf(stderr, "pvpkit: soak: %s\n", err);
		json_decref(warnings);
		return 1;
	}
	json_array_foreach(warnings, i, w)
		fprintf(stderr, "pvpkit: soak: warning: %s\n", json_string_value(w));
	json_decref(warnings);
	/* The intervals count from when the traffic starts: at the start time, if ahead. */
	ahead = at > 0 ? at - pvp_realtime_s() : 0;
	s->t0 = pvp_now_s() + (ahead > 0 ? ahead : 0);
	return 0;
}

/* Stop every source; the last counters settle for a moment. */
static void
soak_stop(struct soak_run *s)
{
	struct coord_traffic_result res;
	char err[256];

	if (coord_sources_stop(s->t, &res, err, sizeof(err)) < 0)
		fprintf(stderr, "pvpkit: soak: %s\n", err);
}

/*
 * Each --inject's hop, before any traffic: a name not in the topology or
 * a hop that takes no calls is refused now, not at its second.
 * 0, or 2 after a message.
 */
static int
soak_inject_hops(struct soak_run *s)
{
	const struct soak_inject *in;
	unsigned int i, k;

	for (i = 0; i < s->a->nb_inject; i++) {
		in = &s->a->inject[i];
		s->inject_hop[i] = NULL;
		for (k = 0; k < s->t->nb_hops; k++)
			if (strcmp(s->t->hops[k].hop.name, in->hop) == 0)
				s->inject_hop[i] = &s->t->hops[k];
		if (s->inject_hop[i] == NULL) {
			fprintf(stderr, "pvpkit: soak: --inject: no hop \"%s\" in the topology\n",
				in->hop);
			return 2;
		}
		if (s->inject_hop[i]->hop.driver->call == NULL) {
			fprintf(stderr,
				"pvpkit: soak: --inject: hop %s (driver %s) takes no control "
				"calls\n",
				in->hop, s->inject_hop[i]->hop.driver->name);
			return 2;
		}
	}
	return 0;
}

/*
 * The --inject calls due by now, each said on stdout with the second it
 * was made at. A call that fails is said and the soak goes on: the fault
 * is then missing from the series, which the line explains.
 */
static void
soak_inject_due(struct soak_run *s)
{
	struct coord_record_soak_inject *rec;
	const struct soak_inject *in;
	struct coord_hop *hop;
	char err[256];
	double t;

	while (s->nb_injected < s->a->nb_inject &&
	       (t = pvp_now_s() - s->t0) >= s->a->inject[s->nb_injected].at_s) {
		in = &s->a->inject[s->nb_injected];
		hop = &s->inject_hop[s->nb_injected]->hop;
		/* Kept for the records: the fault is in the results, not only on stdout. */
		rec = &s->injected[s->nb_injected++];
		rec->t_s = t;
		snprintf(rec->hop, sizeof(rec->hop), "%s", in->hop);
		snprintf(rec->method, sizeof(rec->method), "%s", in->method);
		rec->params = in->params != NULL ? json_loads(in->params, 0, NULL) : NULL;
		rec->result = NULL;
		err[0] = '\0';
		rec->ok = hop->driver->call(hop, in->method, rec->params, &rec->result, err,
					    sizeof(err)) == 0;
		if (!rec->ok)
			snprintf(rec->error, sizeof(rec->error), "%s", err);
		printf("soak inject %6.1f s: %s %s %s%s\n", t, in->hop, in->method,
		       rec->ok ? "" : "failed: ", rec->ok ? (in->params ?: "") : err);
		fflush(stdout);
	}
}

/* Sleep until @p until, making the --inject calls due on the way. */
static void
soak_wait(struct soak_run *s, double until)
{
	double at;

	for (;;) {
		soak_inject_due(s);
		if (s->nb_injected == s->a->nb_inject)
			break;
		at = s->t0 + s->a->inject[s->nb_injected].at_s;
		if (at >= until)
			break;
		if (coord_sleep(at - pvp_now_s()) < 0)
			return;
	}
	coord_sleep(until - pvp_now_s());
}

/* The soak itself. 0 done, 1 not measured, 128 + N after signal N (all kept). */
static int
soak_run(struct soak_run *s)
{
	double next, now, end;
	unsigned int k;

	if (soak_start(s) != 0)
		return 1;
	soak_latency(s, &s->lat_prev);
	end = s->t0 + s->a->duration_s;
	for (k = 1; !coord_interrupted; k++) {
		/* From the start, not from the last reading: no drift; the last is the end. */
		next = s->t0 + k * s->a->interval_s;
		if (next > end - s->a->interval_s * 1e-3)
			next = end;
		soak_wait(s, next);
		if (coord_interrupted)
			break;
		if (soak_snapshot(s, s->now) < 0) {
			soak_stop(s);
			return 1;
		}
		now = pvp_now_s();
		soak_latency(s, &s->lat_now);
		soak_lat_diff(&s->lat_now, &s->lat_prev, &s->lat_int);
		s->n++;
		/* Not kept: it is on stdout, and the soak ends with its totals. */
		if (soak_keep(s, s->prev, false, now - s->t0,
			      (double)(s->now[0].t_ns - s->prev[0].t_ns) / 1e9, &s->lat_int) != 0)
			break;
		memcpy(s->prev, s->now, sizeof(s->prev));
		s->lat_prev = s->lat_now;
		if (next >= end)
			break;
	}
	s->interrupted = coord_interrupted;
	soak_stop(s);
	s->t_stop = pvp_now_s();
	/* In flight at the stop: give it a moment to arrive, then the totals. */
	coord_interrupted = 0;
	coord_sleep(0.5);
	if (soak_snapshot(s, s->now) < 0)
		return 1;
	soak_latency(s, &s->lat_now);
	if (soak_keep(s, s->first, true, s->t_stop - s->t0, s->t_stop - s->t0, &s->lat_now) != 0 ||
	    s->sink.not_kept)
		return 1;
	if (s->interrupted) {
		printf("soak interrupted by %s after %.1f s of %.1f s: every interval read is "
		       "kept\n",
		       cli_signal_name(s->interrupted), s->t_stop - s->t0, s->a->duration_s);
		/* As an interrupted search: 128 + the signal. */
		return 128 + s->interrupted;
	}
	return 0;
}

int
cmd_soak(int argc, char **argv)
{
	struct report_info info;
	struct soak_args a;
	struct soak_run *s;
	char results[4096];
	bool searched = false, search_checks = false;
	double pdr = 0;
	unsigned int i;
	int rc;

	rc = cmd_soak_parse(argc, argv, &a);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	if (a.o.results == NULL) {
		snprintf(results, sizeof(results), "%s/soak.jsonl", a.out);
		a.o.results = results;
	}
	/* A bad --from, or bad search options, are refused before anything runs. */
	if (a.pdr_fraction > 0) {
		rc = a.from != NULL ? cmd_soak_pdr(&a, false, &pdr) : cmd_soak_search(&a, false);
		if (rc != 0)
			return rc;
	}
	rc = pvp_mkdir_p(a.out, 0755);
	if (rc < 0) {
		fprintf(stderr, "pvpkit: %s: %s\n", a.out, strerror(-rc));
		return 1;
	}
	if (a.pdr_fraction > 0 && a.from == NULL) {
		rc = cmd_soak_search(&a, true);
		/* A check failed in some trial: the PDR stands, said at the end. */
		search_checks = rc == CMD_EXIT_CHECK_FAILED;
		if (rc != 0 && !search_checks)
			return rc;
		/* The PDR that search found, from the file it was kept in. */
		a.from = a.o.results;
		searched = true;
		rc = cmd_soak_pdr(&a, true, &pdr);
		if (rc != 0)
			return rc;
	}
	/* On the heap: the snapshots and histograms are large. */
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		fprintf(stderr, "pvpkit: out of memory\n");
		rc = 1;
		goto out;
	}
	s->a = &a;
	s->sink.path = a.o.results;
	s->t = cli_open_topology(a.o.topology, &rc);
	if (s->t == NULL)
		goto out;
	rc = soak_inject_hops(s);
	if (rc != 0)
		goto out;
	if (a.o.conf.traffic.flow_type != NULL &&
	    cli_install_flows(s->t, a.o.conf.traffic.flow_type, a.o.conf.traffic.flows) < 0) {
		rc = 1;
		goto out;
	}
	printf("== soak: %u B, %u flows at %.0f pps%s for %.0f s, read every %.1f s\n",
	       a.o.conf.traffic.size, a.o.conf.traffic.flows, a.o.conf.traffic.rate_pps,
	       a.pdr_fraction > 0 ? " (a fraction of the PDR)" : "", a.duration_s, a.interval_s);
	if (a.pdr_fraction > 0)
		printf("   %.4g of the PDR %.0f pps %s %s\n", a.pdr_fraction, pdr,
		       searched ? "the search found, kept in" : "in", a.from);
	fflush(stdout);
	rc = soak_run(s);
	if (rc == 0 && (search_checks || s->checks_failed)) {
		fprintf(stderr,
			"pvpkit: soak measured, but a check failed in %s (CHECK FAILED above)\n",
			s->checks_failed ? "its totals" : "the search before it");
		rc = CMD_EXIT_CHECK_FAILED;
	}
	printf("results: %s\n", a.o.results);
	memset(&info, 0, sizeof(info));
	if (report_rebuild(a.o.results, a.out, NULL, &info) == 0) {
		for (i = 0; i < info.nb_files; i++)
			printf("report: %s/%s\n", a.out, info.files[i]);
		if (info.plot_note[0] != '\0')
			printf("plots: %s\n", info.plot_note);
	} else if (info.error[0] != '\0') {
		fprintf(stderr, "pvpkit: report: %s\n", info.error);
	}
out:
	if (s != NULL) {
		for (i = 0; i < s->nb_injected; i++) {
			json_decref(s->injected[i].params);
			json_decref(s->injected[i].result);
		}
		coord_topology_free(s->t);
		free(s);
	}
	return rc;
}
