/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What the two lib/stats tests share: the check macros and the JSON
 * round trip that must give a snapshot back byte for byte.
 */

#ifndef STATS_CHECK_H
#define STATS_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_stats_json.h"

#include "../unit_check.h"

#define CHECK_EQ_U64(a, b)                                                                         \
	CHECK((uint64_t)(a) == (uint64_t)(b), "%" PRIu64 " != %" PRIu64, (uint64_t)(a),            \
	      (uint64_t)(b))

static inline void
check_snap_equal(const struct pvp_stats_snap *a, const struct pvp_stats_snap *b, const char *what)
{
	CHECK(strcmp(a->name, b->name) == 0, "%s: name", what);
	CHECK(a->tsc == b->tsc && a->hz == b->hz, "%s: tsc/hz", what);
	CHECK(a->nb_ports == b->nb_ports, "%s: nb_ports", what);
	for (uint16_t p = 0; p < a->nb_ports; p++) {
		const struct pvp_stats_port_snap *x = &a->port[p], *y = &b->port[p];

		CHECK(strcmp(x->name, y->name) == 0, "%s: port %u name", what, p);
		CHECK(x->eth_port_id == y->eth_port_id, "%s: port %u eth_port_id", what, p);
		for (int c = 0; c < PVP_STATS_NB_COUNTERS; c++)
			CHECK(x->c[c] == y->c[c], "%s: port %u %s", what, p,
			      pvp_stats_counter_names[c]);
		CHECK(x->rx_missed == y->rx_missed && x->rx_nombuf == y->rx_nombuf &&
			      x->rx_sw_dropped == y->rx_sw_dropped,
		      "%s: port %u breakdown", what, p);
		CHECK(x->nb_rxq == y->nb_rxq && x->nb_txq == y->nb_txq, "%s: port %u queues", what,
		      p);
		for (uint16_t q = 0; q < x->nb_rxq; q++)
			CHECK(memcmp(&x->rxq[q], &y->rxq[q], sizeof(x->rxq[q])) == 0,
			      "%s: port %u rxq %u", what, p, q);
		for (uint16_t q = 0; q < x->nb_txq; q++)
			CHECK(memcmp(&x->txq[q], &y->txq[q], sizeof(x->txq[q])) == 0,
			      "%s: port %u txq %u", what, p, q);
		CHECK(x->nb_xstats == y->nb_xstats, "%s: port %u nb_xstats", what, p);
		for (uint16_t i = 0; i < x->nb_xstats; i++)
			CHECK(strcmp(x->xstats[i].name, y->xstats[i].name) == 0 &&
				      x->xstats[i].value == y->xstats[i].value,
			      "%s: port %u xstat %u", what, p, i);
	}
	/* Everything, padding and unused slots included, is zeroed in both. */
	CHECK(memcmp(a, b, sizeof(*a)) == 0, "%s: whole struct", what);
}

/* Snapshot -> JSON text -> JSON -> snapshot. */
static inline void
roundtrip(const struct pvp_stats_snap *in, const char *what)
{
	struct pvp_stats_snap *out = malloc(sizeof(*out));
	json_t *j = pvp_stats_snap_to_json(in), *back;
	char err[160] = "";
	char *text;

	CHECK(j != NULL, "%s: to_json", what);
	text = json_dumps(j, JSON_COMPACT);
	back = json_loads(text, 0, NULL);
	CHECK(back != NULL, "%s: reparse", what);
	CHECK(pvp_stats_snap_from_json(back, out, err, sizeof(err)) == 0, "%s: from_json: %s", what,
	      err);
	check_snap_equal(in, out, what);
	free(text);
	json_decref(j);
	json_decref(back);
	free(out);
}

#endif /* STATS_CHECK_H */
