/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * One-way latency per half of the path (doc/gen.rst, "One-way latency").
 * pvpkit-fwd --stamp writes its receive time after each packet's
 * signature; where that time is on our clock, a packet's round trip
 * splits in two: tester to guest (stamp - tx_ts) and guest to tester
 * (rx - stamp). Whether it is our clock is what oneway.set decides, from
 * the guest's clock sample (its clock.get) against ours: the split is
 * counted and reported only when they are one clock; otherwise the
 * report says why and holds the round trip alone.
 *
 * The histograms are allocated at the first oneway.set that finds one
 * clock, before the RX lcores are told to count (a release store they
 * read with acquire), and live until exit: an RX lcore may still hold
 * the pointer when counting is turned off again.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_malloc.h>

#include "gen.h"

static int
gen_oneway_alloc(struct gen_ctx *g)
{
	uint16_t k, i;

	for (k = 0; k < g->rx.nb; k++) {
		struct gen_rx_lcore *rl = g->rx.rl[k];

		if (rl->ow != NULL)
			continue;
		rl->ow = rte_zmalloc_socket(
			"gen_rx_ow", sizeof(*rl->ow) * GEN_MAX_WSTREAMS, RTE_CACHE_LINE_SIZE,
			rl->lcore == RTE_MAX_LCORE ? SOCKET_ID_ANY
						   : (int)rte_lcore_to_socket_id(rl->lcore));
		if (rl->ow == NULL)
			return -ENOMEM;
		for (i = 0; i < GEN_MAX_WSTREAMS; i++) {
			pvp_lat_init(&rl->ow[i].to_guest);
			pvp_lat_init(&rl->ow[i].from_guest);
		}
	}
	return 0;
}

int
gen_oneway_set(struct gen_ctx *g, const json_t *peer, char *err, size_t err_len)
{
	struct gen_oneway *o = &g->oneway;
	struct pvp_clock_sample own, other;
	const char *clock = "off";
	char why[160] = "";
	bool on = false;
	int ret;

	/* offset_ns is only shown while the clock is "shared". */
	if (peer != NULL && !json_is_null(peer)) {
		ret = pvp_clock_sample_from_json(peer, &other, err, err_len);
		if (ret < 0)
			return ret;
		pvp_clock_sample_take(&own);
		on = pvp_clock_same(&own, &o->base, &other, &o->offset_ns, why, sizeof(why));
		clock = on ? "shared" : "differs";
	}
	if (on && g->rx.nb == 0)
		return pvp_fail(err, err_len, -EINVAL,
				"one-way latency needs RX (pvpkit-gen runs with --no-rx)");
	if (on && gen_oneway_alloc(g) != 0)
		return pvp_fail(err, err_len, -ENOMEM, "one-way latency: out of hugepage memory");
	snprintf(o->clock, sizeof(o->clock), "%s", clock);
	snprintf(o->reason, sizeof(o->reason), "%s", on ? "" : why);
	/* After the allocation: the RX lcores count into it once they read true. */
	__atomic_store_n(&o->on, on, __ATOMIC_RELEASE);
	return 0;
}

json_t *
gen_oneway_json(const struct gen_ctx *g)
{
	const struct gen_oneway *o = &g->oneway;
	bool offset = strcmp(o->clock, "off") != 0 && strcmp(o->clock, "differs") != 0;

	/* "*": no reason, or no offset, is left out. */
	return json_pack("{s:s,s:s*,s:o*}", "clock", o->clock, "reason",
			 o->reason[0] != '\0' ? o->reason : NULL, "offset_ns",
			 offset ? json_real(o->offset_ns) : NULL);
}

/* Both halves of wire stream @p i, the RX lcores merged. */
static void
gen_oneway_read(const struct gen_ctx *g, uint16_t i, struct pvp_lat *to, struct pvp_lat *from,
		uint64_t *unstamped)
{
	uint16_t k;

	pvp_lat_init(to);
	pvp_lat_init(from);
	*unstamped = 0;
	for (k = 0; k < g->rx.nb; k++) {
		const struct gen_ws_ow *w = &g->rx.rl[k]->ow[i];

		pvp_lat_merge(to, &w->to_guest);
		pvp_lat_merge(from, &w->from_guest);
		*unstamped += w->unstamped;
	}
}

json_t *
gen_oneway_stream_json(const struct gen_ctx *g, uint16_t i)
{
	struct pvp_lat *h;
	uint64_t unstamped;
	json_t *j;

	if (!__atomic_load_n(&g->oneway.on, __ATOMIC_ACQUIRE))
		return NULL;
	h = malloc(2 * sizeof(*h));
	if (h == NULL)
		return NULL;
	gen_oneway_read(g, i, &h[0], &h[1], &unstamped);
	j = json_pack("{s:o*,s:o*,s:I}", PVP_GEN_K_TO_GUEST, gen_lat_json(&h[0], NULL),
		      PVP_GEN_K_FROM_GUEST, gen_lat_json(&h[1], NULL), "unstamped",
		      (json_int_t)unstamped);
	free(h);
	return j;
}

void
gen_oneway_print(const struct gen_ctx *g, FILE *f)
{
	struct pvp_lat_summary a, b;
	struct pvp_lat *h;
	uint64_t unstamped;
	uint16_t i;

	if (strcmp(g->oneway.clock, "differs") == 0)
		fprintf(f, "one-way latency: not measured, the guest's clock differs (%s)\n",
			g->oneway.reason);
	if (!__atomic_load_n(&g->oneway.on, __ATOMIC_ACQUIRE))
		return;
	h = malloc(2 * sizeof(*h));
	if (h == NULL)
		return;
	fprintf(f, "one-way latency (the guest's TSC is ours, %.0f ns apart):\n",
		g->oneway.offset_ns);
	fprintf(f, "%-6s %10s %10s %10s %10s %10s %10s %10s\n", "stream", "stamped", "to_p50_us",
		"to_p99_us", "to_max_us", "from_p50_us", "from_p99_us", "from_max_us");
	for (i = 0; i < g->nb_ws; i++) {
		gen_oneway_read(g, i, &h[0], &h[1], &unstamped);
		pvp_lat_read(&h[0], &a);
		pvp_lat_read(&h[1], &b);
		fprintf(f, "%-6u %10" PRIu64 " %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f\n",
			g->ws[i]->wire_id, a.count, a.p50 / 1e3, a.p99 / 1e3, a.max / 1e3,
			b.p50 / 1e3, b.p99 / 1e3, b.max / 1e3);
		if (unstamped != 0)
			fprintf(f,
				"%-6u %" PRIu64 " packets without a stamp (no room after "
				"the signature, or the guest does not stamp)\n",
				g->ws[i]->wire_id, unstamped);
	}
	free(h);
}
