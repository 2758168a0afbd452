/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What pvpkit-fwd reports: one line per port every --stats-period
 * seconds, the totals at the end, and the summary JSON (--json FILE, the
 * same object stats.get answers): lib/stats' snapshot of every port and
 * queue, with --seq-check the streams, unsigned_rx and untracked_rx, and
 * with the impairment stage its counters per RX port ("impair").
 * With --seq-check every packet received is in exactly one of a stream's
 * rx_packets, unsigned_rx and untracked_rx.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fwd.h"

/*
 * The periodic lines' snapshots: the main lcore's alone (stats.get and
 * --metrics take their own on other threads).
 */
static struct pvp_stats_snap snaps[3];
static struct pvp_stats_snap *snap_prev = &snaps[0], *snap_now = &snaps[1], *snap_diff = &snaps[2];

void
fwd_report_init(const struct fwd_app *app)
{
	pvp_stats_snapshot(app->stats, snap_prev);
}

void
fwd_report_period(const struct fwd_app *app)
{
	uint16_t p;

	if (pvp_stats_snapshot(app->stats, snap_now) != 0)
		return;
	if (pvp_stats_diff(snap_now, snap_prev, snap_diff) == 0) {
		for (p = 0; p < snap_now->nb_ports; p++) {
			const struct pvp_stats_port_snap *ps = &snap_now->port[p];
			struct pvp_stats_port_rates r;

			if (pvp_stats_rates(snap_diff, p, &r) != 0)
				memset(&r, 0, sizeof(r));
			printf("port %u %s: rx %.3f Mpps tx %.3f Mpps | rx_packets %" PRIu64
			       " tx_packets %" PRIu64 " rx_dropped %" PRIu64 " tx_dropped %" PRIu64
			       "\n",
			       p, ps->name, r.rx_pps / 1e6, r.tx_pps / 1e6,
			       ps->c[PVP_STATS_rx_packets], ps->c[PVP_STATS_tx_packets],
			       ps->c[PVP_STATS_rx_dropped], ps->c[PVP_STATS_tx_dropped]);
		}
		fflush(stdout);
	}
	RTE_SWAP(snap_prev, snap_now);
}

void
fwd_report_totals(const struct fwd_app *app)
{
	uint16_t p;
	int c;

	if (pvp_stats_snapshot(app->stats, snap_now) != 0)
		return;
	for (p = 0; p < snap_now->nb_ports; p++) {
		printf("total port %u %s:", p, snap_now->port[p].name);
		for (c = 0; c < PVP_STATS_NB_COUNTERS; c++)
			printf(" %s=%" PRIu64, pvp_stats_counter_names[c], snap_now->port[p].c[c]);
		printf("\n");
	}
	if (app->conf->seq_check) {
		uint64_t unsigned_rx, untracked;
		json_t *streams = fwd_seq_streams_json(app, &unsigned_rx, &untracked);
		size_t i;
		json_t *s;

		json_array_foreach(streams, i, s)
			printf("total stream %" JSON_INTEGER_FORMAT
			       ": rx_packets=%" JSON_INTEGER_FORMAT " gaps=%" JSON_INTEGER_FORMAT
			       " dup=%" JSON_INTEGER_FORMAT " ooo=%" JSON_INTEGER_FORMAT "\n",
			       json_integer_value(json_object_get(s, "stream")),
			       json_integer_value(json_object_get(s, "rx_packets")),
			       json_integer_value(json_object_get(s, "gaps")),
			       json_integer_value(json_object_get(s, "dup")),
			       json_integer_value(json_object_get(s, "ooo")));
		printf("total unsigned_rx=%" PRIu64 " untracked_rx=%" PRIu64 "\n", unsigned_rx,
		       untracked);
		json_decref(streams);
	}
	if (app->conf->impair_on)
		fwd_impair_print(app);
	fflush(stdout);
}

/* --addr: "neigh_rx" (ARP/ND frames, never forwarded) and per port "neigh". */
static void
fwd_report_neigh(const struct fwd_app *app, json_t *res)
{
	json_t *arr = json_array();
	uint64_t total = 0;
	uint16_t p, s;

	for (p = 0; p < app->nb_ports; p++) {
		struct pvp_neigh_stats sum;
		uint64_t unsent = 0;
		json_t *o;

		if (!app->conf->addr_set[p])
			continue;
		memset(&sum, 0, sizeof(sum));
		for (s = 0; s < app->nb_streams; s++) {
			const struct fwd_stream *fs = app->streams[s];

			if (fs->rx_idx != p)
				continue;
				/* Torn reads of live counters are off by a frame at most. */
#define FWD_NEIGH_ADD(name, help) sum.name += fs->nst.name;
			PVP_NEIGH_COUNTERS(FWD_NEIGH_ADD)
#undef FWD_NEIGH_ADD
			total += __atomic_load_n(&fs->neigh_rx, __ATOMIC_RELAXED);
			unsent += __atomic_load_n(&fs->neigh_unsent, __ATOMIC_RELAXED);
		}
		o = json_pack("{s:i}", "port", p);
#define FWD_NEIGH_JSON(name, help)                                                                 \
	json_object_set_new(o, #name, json_integer((json_int_t)sum.name));
		PVP_NEIGH_COUNTERS(FWD_NEIGH_JSON)
#undef FWD_NEIGH_JSON
		json_object_set_new(o, "unanswered", json_integer((json_int_t)unsent));
		json_array_append_new(arr, o);
	}
	if (json_array_size(arr) == 0)
		json_decref(arr);
	else
		json_object_update_new(
			res, json_pack("{s:I, s:o}", "neigh_rx", (json_int_t)total, "neigh", arr));
}

json_t *
fwd_report_json(const struct fwd_app *app)
{
	struct pvp_stats_snap *snap;
	uint64_t unsigned_rx, untracked;
	json_t *res, *streams;

	snap = malloc(sizeof(*snap));
	res = snap != NULL && pvp_stats_snapshot(app->stats, snap) == 0
		      ? pvp_stats_snap_to_json(snap)
		      : NULL;
	free(snap);
	if (res == NULL)
		return NULL;
	fwd_report_neigh(app, res);
	if (app->conf->impair_on &&
	    json_object_set_new(res, PVP_FWD_K_IMPAIR, fwd_impair_json(app, false)) != 0)
		goto fail;
	if (!app->conf->seq_check)
		return res;
	/* The pack fails on a NULL list (out of memory), and takes it in any case. */
	streams = fwd_seq_streams_json(app, &unsigned_rx, &untracked);
	if (json_object_update_new(res, json_pack("{s:o, s:I, s:I}", "streams", streams,
						  "unsigned_rx", (json_int_t)unsigned_rx,
						  "untracked_rx", (json_int_t)untracked)) != 0)
		goto fail;
	return res;
fail:
	json_decref(res);
	return NULL;
}
