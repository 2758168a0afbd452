/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The traffic sources of a topology, started and stopped together: one
 * start time for several sources (doc/design.rst, "Several sources") and
 * the sum of what they say when they stop. Used by a trial and by soak.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "pvp_util.h"

#include "coord.h"

bool
coord_hop_is_source(const struct coord_topo_hop *h)
{
	return h->opened && coord_driver_has(h->hop.driver, COORD_ROLE_SOURCE);
}

void
coord_warn(json_t **warnings, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (*warnings == NULL)
		*warnings = json_array();
	json_array_append_new(*warnings, json_string(msg));
}

void
coord_traffic_add_burst(struct coord_traffic_result *res, const struct coord_traffic_result *one)
{
	if (!one->has_max_burst)
		return;
	if (!res->has_max_burst || one->max_burst > res->max_burst)
		res->max_burst = one->max_burst;
	res->has_max_burst = true;
}

/* Stop the sources marked in @p which (all when NULL); see coord_sources_stop(). */
static int
sources_stop(struct coord_topology *t, const bool *which, struct coord_traffic_result *res,
	     char *err, size_t err_len)
{
	struct coord_traffic_result one;
	unsigned int i;
	int ret = 0, r;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < t->nb_hops; i++) {
		struct coord_topo_hop *h = &t->hops[i];
		char e[256] = "";

		if (!coord_hop_is_source(h) || (which != NULL && !which[i]))
			continue;
		memset(&one, 0, sizeof(one));
		r = h->hop.driver->traffic_stop(&h->hop, &one, e, sizeof(e));
		if (r < 0 && ret == 0) {
			ret = r;
			if (err_len > 0)
				snprintf(err, err_len, "%s", e);
		}
		res->requested_pps += one.requested_pps;
		res->achieved_pps += one.achieved_pps;
		res->generator_limited |= one.generator_limited;
		coord_traffic_add_burst(res, &one);
		json_decref(one.streams);
	}
	return ret;
}

int
coord_sources_stop(struct coord_topology *t, struct coord_traffic_result *res, char *err,
		   size_t err_len)
{
	return sources_stop(t, NULL, res, err, err_len);
}

int
coord_sources_start(struct coord_topology *t, const struct coord_traffic *traffic, double *start_at,
		    json_t **warnings, char *err, size_t err_len)
{
	bool started[COORD_MAX_HOPS] = {false};
	struct coord_traffic tr = *traffic;
	struct coord_traffic_result ignored;
	unsigned int i, n = 0, pass;
	double at = 0, late;
	int ret;

	for (i = 0; i < t->nb_hops; i++)
		n += coord_hop_is_source(&t->hops[i]);
	if (n == 0)
		return pvp_fail(err, err_len, -ENOENT,
				"%s: no hop can send traffic (no \"gen\" hop?)", t->source);
	if (n > 1)
		at = pvp_realtime_s() + t->start_lead_ms / 1e3;
	/* The sources that wait for the time themselves first, then the others at it. */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < t->nb_hops; i++) {
			struct coord_topo_hop *h = &t->hops[i];
			bool timed = h->hop.driver->timed_start;

			if (!coord_hop_is_source(h) || (pass == 0) != timed)
				continue;
			tr.start_at = timed ? at : 0;
			ret = 0;
			if (!timed && at > 0 && (late = at - pvp_realtime_s()) > 0)
				ret = coord_sleep(late);
			if (ret == 0)
				ret = h->hop.driver->traffic_start(&h->hop, &tr, err, err_len);
			else
				snprintf(err, err_len, "interrupted");
			if (ret < 0) {
				char e2[256];

				/* Nothing may be left sending. */
				sources_stop(t, started, &ignored, e2, sizeof(e2));
				return ret;
			}
			started[i] = true;
		}
		late = pvp_realtime_s() - at;
		if (pass == 0 && at > 0 && late > 0 && warnings != NULL)
			coord_warn(warnings,
				   "starting the sources took %.0f ms longer than the topology's"
				   " start_lead_ms (%u): they may have started apart",
				   late * 1e3, t->start_lead_ms);
	}
	*start_at = at;
	return 0;
}

int
coord_sleep_run(double start_at, double duration)
{
	double ahead = start_at > 0 ? start_at - pvp_realtime_s() : 0;

	return coord_sleep(duration + (ahead > 0 ? ahead : 0));
}
