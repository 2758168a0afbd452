/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Attribution: from the snapshots of every hop before and after a trial,
 * the packets counted at each point of each chain, the drops each hop
 * counted there, and which hop every lost packet belongs to. Pure: no
 * I/O, no clock, so the unit tests feed it snapshots directly.
 *
 * Between two points of one hop (in one side, out the other) the loss is
 * that hop's. Across a link (a tx point, then the next hop's rx point)
 * the receiver owns what it counted as dropped on arrival; the rest no
 * counter explains and is reported as unattributed, never hidden.
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "coord.h"

static uint64_t
attr_diff(uint64_t after, uint64_t before)
{
	/* A counter that went backwards (hop restarted) reads as zero. */
	return after >= before ? after - before : 0;
}

/* Does reason @p name belong to the rx or tx side of a port? */
static bool
attr_reason_side(const char *name, bool tx)
{
	bool has_tx = strstr(name, "tx") != NULL, has_rx = strstr(name, "rx") != NULL;

	if (has_tx == has_rx)
		return true;
	return tx ? has_tx : has_rx;
}

static void
attr_point_drops(const struct coord_port *a, const struct coord_port *b, bool tx,
		 struct coord_point_result *pr)
{
	unsigned int i, j;

	pr->drop = tx ? attr_diff(a->tx_dropped, b->tx_dropped)
		      : attr_diff(a->rx_dropped, b->rx_dropped);
	pr->nb_reasons = 0;
	for (i = 0; i < a->nb_reasons; i++) {
		uint64_t before = 0, v;

		if (!attr_reason_side(a->reasons[i].name, tx))
			continue;
		for (j = 0; j < b->nb_reasons; j++)
			if (strcmp(b->reasons[j].name, a->reasons[i].name) == 0)
				before = b->reasons[j].value;
		v = attr_diff(a->reasons[i].value, before);
		if (v == 0 || pr->nb_reasons >= COORD_MAX_REASONS)
			continue;
		pr->reasons[pr->nb_reasons] = a->reasons[i];
		pr->reasons[pr->nb_reasons].value = v;
		pr->nb_reasons++;
	}
}

/* Count @p value more under reason @p name at a point. */
static void
attr_add_reason(struct coord_point_result *pr, const char *name, uint64_t value)
{
	unsigned int i;

	for (i = 0; i < pr->nb_reasons; i++)
		if (strcmp(pr->reasons[i].name, name) == 0) {
			pr->reasons[i].value += value;
			return;
		}
	if (pr->nb_reasons >= COORD_MAX_REASONS)
		return;
	snprintf(pr->reasons[pr->nb_reasons].name, sizeof(pr->reasons[0].name), "%s", name);
	pr->reasons[pr->nb_reasons++].value = value;
}

void
coord_attribute(const struct coord_topology *t, const struct coord_snap *before,
		const struct coord_snap *after, struct coord_trial_result *r)
{
	unsigned int c, k;
	int64_t total_hops = 0;

	memset(r->chain, 0, sizeof(r->chain));
	memset(r->hop_lost, 0, sizeof(r->hop_lost));
	r->unattributed = 0;
	r->tx_packets = 0;
	r->rx_packets = 0;
	r->nb_chains = t->nb_chains;
	for (c = 0; c < t->nb_chains; c++) {
		const struct coord_chain *ch = &t->chains[c];
		struct coord_chain_result *cr = &r->chain[c];

		for (k = 0; k < ch->nb_points; k++) {
			const struct coord_point *pt = &ch->points[k];
			const struct coord_port *a = &after[pt->hop].port[pt->port];
			const struct coord_port *b = &before[pt->hop].port[pt->port];
			struct coord_point_result *pr = &cr->pt[k];
			const struct coord_point *prev;

			pr->packets = pt->tx ? attr_diff(a->tx_packets, b->tx_packets)
					     : attr_diff(a->rx_packets, b->rx_packets);
			attr_point_drops(a, b, pt->tx, pr);
			pr->owner = -1;
			pr->refused = 0;
			if (pt->tx && a->tx_refused_by_peer) {
				/* Offered, then refused by the next hop: sent here. */
				pr->refused = pr->drop;
				pr->packets += pr->refused;
			}
			if (k == 0)
				continue;
			prev = &ch->points[k - 1];
			if (!pt->tx && cr->pt[k - 1].refused != 0) {
				/* The receiver's ring was full: its drop. */
				pr->drop += cr->pt[k - 1].refused;
				attr_add_reason(pr, "rx_ring_full", cr->pt[k - 1].refused);
			}
			pr->lost = (int64_t)cr->pt[k - 1].packets - (int64_t)pr->packets;
			if (prev->hop == pt->hop && !prev->tx && pt->tx) {
				/* In one side, out the other: the hop lost it. */
				pr->owner = (int)pt->hop;
				pr->attributed = pr->lost > 0 ? pr->lost : 0;
			} else if (!pt->tx) {
				/*
				 * A link: what the receiver counted as dropped
				 * on arrival is the receiver's; the rest no
				 * one saw.
				 */
				pr->owner = (int)pt->hop;
				pr->attributed = pr->lost > 0 ? (pr->lost < (int64_t)pr->drop
									 ? pr->lost
									 : (int64_t)pr->drop)
							      : 0;
			}
			pr->unattributed = pr->lost - pr->attributed;
			if (pr->owner >= 0)
				r->hop_lost[pr->owner] += pr->attributed;
			r->unattributed += pr->unattributed;
			total_hops += pr->attributed;
		}
		cr->tx = cr->pt[0].packets;
		cr->rx = cr->pt[ch->nb_points - 1].packets;
		r->tx_packets += cr->tx;
		r->rx_packets += cr->rx;
	}
	/* Checked, not assumed: a bug here must show, not hide loss. */
	r->reconciled =
		total_hops + r->unattributed == (int64_t)r->tx_packets - (int64_t)r->rx_packets;
}
