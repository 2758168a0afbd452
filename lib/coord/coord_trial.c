/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * One trial (doc/design.rst, "A trial") and the attribution of every lost packet.
 *
 * The coordinator never trusts hops to clear: it asks them to (so the
 * generator resets its per-stream state) and still works on the
 * difference of two snapshots. Counters are read only once they have
 * stopped moving, so packets still in rings when traffic stops are
 * counted where they end up, not as loss.
 */

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "pvp_util.h"

#include "coord.h"

/** Set from a signal handler: abandon the trial (traffic is still stopped). */
volatile sig_atomic_t coord_interrupted;

int
coord_sleep(double s)
{
	double end = pvp_now_s() + s;
	struct timespec ts;
	double left;

	while ((left = end - pvp_now_s()) > 0) {
		if (coord_interrupted)
			return -EINTR;
		if (left > 0.05)
			left = 0.05;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
	return coord_interrupted ? -EINTR : 0;
}

struct trial_snap_job {
	struct coord_topo_hop *h;
	struct coord_snap *snap;
	char err[256];
	int ret;
};

static void *
trial_snap_thread(void *arg)
{
	struct trial_snap_job *j = arg;

	j->ret = j->h->hop.driver->snapshot(&j->h->hop, j->snap, j->err, sizeof(j->err));
	return NULL;
}

/*
 * Snapshot every hop that has counters, one thread per hop so the
 * readings are as close in time as the slowest hop allows.
 */
static int
trial_snap_all(struct coord_topology *t, struct coord_snap *snaps, double *ms, char *err,
	       size_t err_len)
{
	struct trial_snap_job jobs[COORD_MAX_HOPS];
	pthread_t tid[COORD_MAX_HOPS];
	bool started[COORD_MAX_HOPS] = {false};
	unsigned int i;
	double t0;
	int ret = 0;

	t0 = pvp_now_s();
	for (i = 0; i < t->nb_hops; i++) {
		jobs[i].h = &t->hops[i];
		jobs[i].snap = &snaps[i];
		jobs[i].err[0] = '\0';
		jobs[i].ret = 0;
		memset(&snaps[i], 0, sizeof(snaps[i]));
		if (!coord_driver_has(t->hops[i].hop.driver, COORD_ROLE_COUNTERS))
			continue;
		if (pthread_create(&tid[i], NULL, trial_snap_thread, &jobs[i]) == 0)
			started[i] = true;
		else
			trial_snap_thread(&jobs[i]);
	}
	for (i = 0; i < t->nb_hops; i++)
		if (started[i])
			pthread_join(tid[i], NULL);
	if (ms != NULL)
		*ms = (pvp_now_s() - t0) * 1e3;
	for (i = 0; i < t->nb_hops; i++) {
		if (jobs[i].ret < 0 && ret == 0) {
			ret = jobs[i].ret;
			/* The type is the code (coord_driver.h "Errors"), never the text. */
			if (strncmp(jobs[i].err, "hop ", 4) == 0)
				snprintf(err, err_len, "%s", jobs[i].err);
			else
				snprintf(err, err_len, "hop %s%s: %s", t->hops[i].hop.name,
					 coord_err_unreachable(ret) ? " unreachable" : "",
					 jobs[i].err);
		}
	}
	return ret;
}

/* True when no packet or drop counter of any hop differs. */
static bool
trial_snaps_equal(const struct coord_topology *t, const struct coord_snap *a,
		  const struct coord_snap *b)
{
	unsigned int i, p;

	for (i = 0; i < t->nb_hops; i++) {
		if (a[i].nb_ports != b[i].nb_ports)
			return false;
		for (p = 0; p < a[i].nb_ports; p++) {
			const struct coord_port *x = &a[i].port[p], *y = &b[i].port[p];

			if (x->c[PVP_STATS_rx_packets] != y->c[PVP_STATS_rx_packets] ||
			    x->c[PVP_STATS_tx_packets] != y->c[PVP_STATS_tx_packets] ||
			    x->c[PVP_STATS_rx_dropped] != y->c[PVP_STATS_rx_dropped] ||
			    x->c[PVP_STATS_tx_dropped] != y->c[PVP_STATS_tx_dropped])
				return false;
		}
	}
	return true;
}

/*
 * Poll until two consecutive snapshots of all hops are equal or the
 * timeout passes. @return 1 quiet, 0 still moving, <0 a hop failed.
 */
static int
trial_wait_quiet(struct coord_topology *t, const struct coord_trial_conf *c, double *waited,
		 char *err, size_t err_len)
{
	double timeout = c->quiet_timeout_s > 0 ? c->quiet_timeout_s : 5.0;
	double poll = (c->poll_ms > 0 ? c->poll_ms : 50) / 1e3;
	struct coord_snap *s;
	double t0 = pvp_now_s();
	int cur = 0, ret;

	s = calloc(2 * COORD_MAX_HOPS, sizeof(*s));
	if (s == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "out of memory");
	ret = trial_snap_all(t, s, NULL, err, err_len);
	while (ret == 0) {
		ret = coord_sleep(poll);
		if (ret < 0) {
			snprintf(err, err_len, "interrupted");
			break;
		}
		cur ^= 1;
		ret = trial_snap_all(t, s + cur * COORD_MAX_HOPS, NULL, err, err_len);
		if (ret < 0)
			break;
		if (trial_snaps_equal(t, s, s + COORD_MAX_HOPS)) {
			ret = 1;
			break;
		}
		if (pvp_now_s() - t0 > timeout)
			break;
	}
	if (waited != NULL)
		*waited = pvp_now_s() - t0;
	free(s);
	return ret;
}

/*
 * Add one source's signature accounting. With several sources the sums
 * are checked against the chains' sums, so every source must report it.
 */
static void
trial_add_sig(struct coord_traffic_result *res, const struct coord_traffic_result *one, bool first)
{
	res->has_sig = (first || res->has_sig) && one->has_sig;
	res->sig_offered += one->sig_offered;
	res->sig_rx += one->sig_rx;
	res->sig_lost += one->sig_lost;
	res->sig_dup += one->sig_dup;
	res->unsigned_rx += one->unsigned_rx;
	res->unknown_stream_rx += one->unknown_stream_rx;
	res->neigh_rx += one->neigh_rx;
}

/*
 * How far apart the sources' first packets left. Sources that start
 * later than the trial's duration allows to overlap much are a warning:
 * the chains then carried traffic at different times.
 */
static void
trial_start_skew(const struct coord_topology *t, struct coord_trial_result *r)
{
	double lo = 0, hi = 0;
	unsigned int i, n = 0;

	for (i = 0; i < t->nb_hops; i++) {
		if (!r->has_first_tx[i])
			continue;
		if (n++ == 0 || r->first_tx_s[i] < lo)
			lo = r->first_tx_s[i];
		if (n == 1 || r->first_tx_s[i] > hi)
			hi = r->first_tx_s[i];
	}
	if (r->nb_sources < 2 || n < 2)
		return;
	r->has_start_skew = true;
	r->start_skew_ms = (hi - lo) * 1e3;
	if (r->start_skew_ms > 10 * r->conf.traffic.duration_s) /* 1 % of the trial */
		coord_warn(&r->warnings,
			   "the sources started %.3f ms apart, over 1 %% of the trial",
			   r->start_skew_ms);
}

/* Final per-stream results, once counters are quiet. */
static int
trial_collect(struct coord_topology *t, struct coord_trial_result *r, char *err, size_t err_len)
{
	struct coord_traffic_result *res = &r->traffic;
	unsigned int i, n = 0;
	size_t k;
	json_t *s;
	int ret;

	for (i = 0; i < t->nb_hops; i++) {
		struct coord_topo_hop *h = &t->hops[i];
		struct coord_traffic_result one = {0};

		if (!coord_hop_is_source(h))
			continue;
		r->nb_sources++;
		/* A source without a final read has no signature accounting. */
		if (h->hop.driver->traffic_result == NULL) {
			trial_add_sig(res, &one, n++ == 0);
			continue;
		}
		ret = h->hop.driver->traffic_result(&h->hop, &one, err, err_len);
		if (ret < 0)
			return ret;
		r->has_first_tx[i] = one.has_first_tx;
		r->first_tx_s[i] = one.first_tx_s;
		json_array_foreach(one.warnings, k, s)
			coord_warn(&r->warnings, "%s", json_string_value(s));
		json_decref(one.warnings);
		trial_add_sig(res, &one, n++ == 0);
		coord_traffic_add_burst(res, &one);
		if (one.streams != NULL) {
			if (res->streams == NULL)
				res->streams = json_array();
			json_array_foreach(one.streams, k, s)
				json_array_append(res->streams, s);
			json_decref(one.streams);
		}
	}
	trial_start_skew(t, r);
	return 0;
}

int
coord_trial_result_alloc(struct coord_trial_result *r, const struct coord_topology *t)
{
	size_t nb_points = 0, hops = t->nb_hops, size;
	unsigned int c;
	char *mem;

	for (c = 0; c < t->nb_chains; c++)
		nb_points += t->chains[c].nb_points;
	/* 8-byte members first, the bools last: every array stays aligned. */
	size = t->nb_chains * sizeof(*r->chain) + nb_points * sizeof(struct coord_point_result) +
	       hops * (3 * sizeof(int64_t) + sizeof(double) + sizeof(bool));
	memset(r, 0, sizeof(*r));
	mem = calloc(1, size);
	if (mem == NULL)
		return -ENOMEM;
	r->nb_chains = t->nb_chains;
	r->nb_hops = t->nb_hops;
	r->chain = (struct coord_chain_result *)mem;
	mem += t->nb_chains * sizeof(*r->chain);
	for (c = 0; c < t->nb_chains; c++) {
		r->chain[c].pt = (struct coord_point_result *)mem;
		mem += t->chains[c].nb_points * sizeof(struct coord_point_result);
	}
	r->hop_lost = (int64_t *)mem;
	r->hop_drops = r->hop_lost + hops;
	r->hop_added = r->hop_drops + hops;
	r->first_tx_s = (double *)(r->hop_added + hops);
	r->has_first_tx = (bool *)(r->first_tx_s + hops);
	return 0;
}

void
coord_trial_result_clear(struct coord_trial_result *r)
{
	/* chain is the start of the one allocation of coord_trial_result_alloc(). */
	free(r->chain);
	r->chain = NULL;
	r->hop_lost = r->hop_drops = r->hop_added = NULL;
	r->first_tx_s = NULL;
	r->has_first_tx = NULL;
	r->nb_chains = 0;
	r->nb_hops = 0;
	json_decref(r->traffic.streams);
	r->traffic.streams = NULL;
	json_decref(r->context);
	r->context = NULL;
	json_decref(r->warnings);
	r->warnings = NULL;
	json_decref(r->oneway);
	r->oneway = NULL;
}

static json_t *
trial_context(struct coord_topology *t)
{
	json_t *ctx = json_object();
	unsigned int i;

	for (i = 0; i < t->nb_hops && ctx != NULL; i++) {
		struct coord_topo_hop *h = &t->hops[i];
		json_t *j;

		if (!h->opened || h->hop.driver->context == NULL)
			continue;
		j = h->hop.driver->context(&h->hop);
		if (j != NULL)
			json_object_set_new(ctx, h->hop.name, j);
	}
	return ctx;
}

int
coord_trial_run(struct coord_topology *t, const struct coord_trial_conf *c,
		struct coord_trial_result *r, char *err, size_t err_len)
{
	struct coord_snap *before = NULL, *after = NULL;
	struct coord_traffic tr = c->traffic;
	struct coord_traffic_result ignored;
	double start_at;
	unsigned int i;
	int ret, q;

	/* The first error of the trial is kept: none yet. */
	if (err_len > 0)
		err[0] = '\0';
	if (coord_trial_result_alloc(r, t) < 0)
		return pvp_fail(err, err_len, -ENOMEM, "out of memory");
	r->conf = *c;
	pvp_utc_now(r->started, sizeof(r->started));
	before = calloc(COORD_MAX_HOPS, sizeof(*before));
	after = calloc(COORD_MAX_HOPS, sizeof(*after));
	if (before == NULL || after == NULL) {
		ret = pvp_fail(err, err_len, -ENOMEM, "out of memory");
		goto out;
	}

	if (c->warmup_s > 0) {
		tr.duration_s = c->warmup_s;
		ret = coord_sources_start(t, &tr, &start_at, NULL, err, err_len);
		if (ret < 0)
			goto out;
		ret = coord_sleep_run(start_at, c->warmup_s);
		if (ret < 0) {
			snprintf(err, err_len, "interrupted");
			coord_sources_stop(t, &ignored, err, 0);
			goto out;
		}
		ret = coord_sources_stop(t, &ignored, err, err_len);
		if (ret < 0)
			goto out;
		q = trial_wait_quiet(t, c, NULL, err, err_len);
		if (q < 0) {
			ret = q;
			goto out;
		}
	}

	/* Before the clear: oneway.set's split starts from the cleared state. */
	coord_oneway_prepare(t, r);
	for (i = 0; i < t->nb_hops; i++) {
		struct coord_topo_hop *h = &t->hops[i];

		if (!h->opened || coord_driver_has(h->hop.driver, COORD_ROLE_PASSIVE) ||
		    h->hop.driver->clear == NULL)
			continue;
		ret = h->hop.driver->clear(&h->hop, err, err_len);
		/*
		 * The baseline snapshot makes clearing optional; only a hop
		 * that is gone stops the trial.
		 */
		if (coord_err_unreachable(ret))
			goto out;
		if (ret < 0) {
			coord_warn(&r->warnings, "%s (counters not cleared; the baseline is used)",
				   err);
			err[0] = '\0';
		}
	}
	ret = trial_snap_all(t, before, &r->baseline_ms, err, err_len);
	if (ret < 0)
		goto out;

	tr.duration_s = c->traffic.duration_s;
	ret = coord_sources_start(t, &tr, &r->start_at, &r->warnings, err, err_len);
	if (ret < 0)
		goto out;
	ret = coord_sleep_run(r->start_at, c->traffic.duration_s);
	if (ret < 0) {
		snprintf(err, err_len, "interrupted");
		coord_sources_stop(t, &ignored, err, 0);
		goto out;
	}
	ret = coord_sources_stop(t, &r->traffic, err, err_len);
	if (ret < 0)
		goto out;

	q = trial_wait_quiet(t, c, &r->quiet_s, err, err_len);
	if (q < 0) {
		ret = q;
		goto out;
	}
	r->quiet = q == 1;
	ret = trial_snap_all(t, after, &r->snapshot_ms, err, err_len);
	if (ret < 0)
		goto out;
	ret = trial_collect(t, r, err, err_len);
	if (ret < 0)
		goto out;
	coord_attribute(t, before, after, r);
	r->context = trial_context(t);
	ret = 0;
out:
	if (ret < 0)
		coord_trial_result_clear(r);
	free(before);
	free(after);
	return ret;
}
