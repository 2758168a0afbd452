/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * One-way latency per half of the path (doc/reports.rst, "One-way
 * latency"). Before a trial, a guest whose pvpkit-fwd stamps (its
 * clock.get says "stamp": true) hands its clock sample to every source
 * that takes one (coord_driver::oneway_set: pvpkit-gen's oneway.set),
 * which compares it with its own clock and splits latency at the stamps
 * only where the two are one clock.
 * What the sources found goes into the trial record's "oneway"; the
 * halves themselves are in each stream's "oneway_ns".
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "coord.h"
#include "coord_record.h"

/*
 * The first opened guest (driver "fwd") that stamps, and its clock sample;
 * every guest is asked, so that a second one that stamps is said.
 */
static struct coord_topo_hop *
oneway_guest(struct coord_topology *t, json_t **sample, json_t **warnings)
{
	struct coord_topo_hop *guest = NULL;
	char e[256] = "";
	unsigned int i;

	for (i = 0; i < t->nb_hops; i++) {
		struct coord_topo_hop *h = &t->hops[i];
		json_t *res = NULL;

		if (!h->opened || strcmp(h->hop.driver->name, "fwd") != 0 ||
		    h->hop.driver->call == NULL)
			continue;
		/* A pvpkit-fwd without clock.get does not stamp either. */
		if (h->hop.driver->call(&h->hop, "clock.get", NULL, &res, e, sizeof(e)) < 0)
			continue;
		if (json_is_true(json_object_get(res, "stamp"))) {
			json_object_del(res, "stamp");
			if (*sample != NULL) {
				coord_warn(warnings,
					   "more than one guest stamps (--stamp): the one-way "
					   "figures are to and from the last one a packet crossed");
				json_decref(res);
				continue;
			}
			*sample = res;
			guest = h;
			continue;
		}
		json_decref(res);
	}
	return guest;
}

void
coord_oneway_prepare(struct coord_topology *t, struct coord_trial_result *r)
{
	struct coord_topo_hop *guest;
	json_t *sample = NULL;
	unsigned int i;

	guest = oneway_guest(t, &sample, &r->warnings);
	if (guest == NULL)
		return;
	for (i = 0; i < t->nb_hops; i++) {
		struct coord_topo_hop *h = &t->hops[i];
		json_t *res = NULL;
		char e[256] = "";

		if (!h->opened || !coord_hop_is_source(h) || h->hop.driver->oneway_set == NULL)
			continue;
		if (h->hop.driver->oneway_set(&h->hop, sample, &res, e, sizeof(e)) < 0) {
			coord_warn(&r->warnings, "one-way latency: %s", e);
			continue;
		}
		/* One source's answer stands for the trial; the first that differs wins. */
		if (r->oneway == NULL ||
		    strcmp(json_string_value(json_object_get(res, "clock")) ?: "", "shared") != 0) {
			json_decref(r->oneway);
			r->oneway = json_pack("{s:s,s:s,s:O*,s:O*,s:O*}", "guest", guest->hop.name,
					      "source", h->hop.name, "clock",
					      json_object_get(res, "clock"), "reason",
					      json_object_get(res, "reason"), "offset_ns",
					      json_object_get(res, "offset_ns"));
		}
		json_decref(res);
	}
	json_decref(sample);
}

void
coord_oneway_print(FILE *f, const struct coord_trial_result *r)
{
	static const char *const half[] = {"to_guest", "from_guest"};
	struct coord_record_oneway ow;
	struct coord_record_stream st;
	const json_t *s;
	unsigned int k;
	size_t i;

	/* Read through the record's tables, as `pvpkit report` reads it. */
	if (pvp_schema_read(coord_record_oneway_members, r->oneway, &ow, NULL, 0) < 0)
		return;
	if (ow.clock != 0) {
		fprintf(f, "  One-way latency: not measured, %s's clock is not %s's (%s)\n",
			ow.guest, ow.source, ow.reason[0] != '\0' ? ow.reason : "differs");
		return;
	}
	fprintf(f, "  One-way latency (%s's TSC is %s's), us:  p50     p99     max\n", ow.guest,
		ow.source);
	json_array_foreach(r->traffic.streams, i, s) {
		const struct coord_record_oneway_half *h[] = {&st.ns.to_guest, &st.ns.from_guest};

		if (pvp_schema_read(coord_record_stream_members, s, &st, NULL, 0) < 0 || !st.has_ns)
			continue;
		for (k = 0; k < 2; k++)
			fprintf(f, "    stream %u port %u %-10s %7.1f %7.1f %7.1f\n", st.stream,
				st.port, half[k], (double)h[k]->p50 / 1e3, (double)h[k]->p99 / 1e3,
				(double)h[k]->max / 1e3);
	}
}
