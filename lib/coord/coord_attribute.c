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
 *
 * Attribution alone always adds up (each point's loss is the previous
 * count minus its own), so it proves nothing. The checks below compare
 * figures that come from different counters and can disagree: the
 * source's per-stream signature accounting against the port counters,
 * each hop's loss against its own drop counters, each count against the
 * one before it on the path, each counter against its value before.
 */

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pvp_util.h"

#include "coord.h"

static const char *const attr_check_names[COORD_CHECK_MAX] = {
	[COORD_CHECK_SIGNATURE] = "signature",
	[COORD_CHECK_DROPS] = "drops",
	[COORD_CHECK_NEGATIVE] = "negative_loss",
	[COORD_CHECK_BACKWARDS] = "counter_backwards",
	[COORD_CHECK_BURST] = "burst",
};

const char *
coord_check_name(enum coord_check c)
{
	return (unsigned int)c < COORD_CHECK_MAX ? attr_check_names[c] : "unknown";
}

const char *
coord_trial_invalid_reason(const struct coord_trial_result *r)
{
	unsigned int i;

	for (i = 0; i < r->nb_findings; i++)
		if (r->findings[i].invalid)
			return r->findings[i].text;
	return coord_trial_invalid(r) ? "a check failed (see the table)" : "";
}

bool
coord_trial_reconciled(const struct coord_trial_result *r)
{
	return r->nb_findings == 0 && r->nb_lost_findings == 0;
}

bool
coord_trial_invalid(const struct coord_trial_result *r)
{
	unsigned int i;

	for (i = 0; i < r->nb_findings; i++)
		if (r->findings[i].invalid)
			return true;
	return r->nb_lost_invalid > 0;
}

/* The chains' first (tx) or last (rx) points, summed. */
static uint64_t
attr_chains_sum(const struct coord_trial_result *r, bool tx)
{
	uint64_t n = 0;
	unsigned int c;

	for (c = 0; c < r->nb_chains; c++)
		n += tx ? r->chain[c].tx : r->chain[c].rx;
	return n;
}

uint64_t
coord_trial_tx_packets(const struct coord_trial_result *r)
{
	return attr_chains_sum(r, true);
}

uint64_t
coord_trial_rx_packets(const struct coord_trial_result *r)
{
	return attr_chains_sum(r, false);
}

bool
coord_trial_dut_result(const struct coord_trial_result *r)
{
	return !r->traffic.generator_limited && r->quiet && !coord_trial_invalid(r);
}

/* Record a failed check; the first COORD_MAX_FINDINGS are kept. */
static void __attribute__((format(printf, 5, 6)))
attr_finding(struct coord_trial_result *r, enum coord_check check, int hop, bool invalid,
	     const char *fmt, ...)
{
	struct coord_finding *f;
	va_list ap;

	if (r->nb_findings >= COORD_MAX_FINDINGS) {
		r->nb_lost_findings++;
		r->nb_lost_invalid += invalid;
		return;
	}
	f = &r->findings[r->nb_findings++];
	f->check = check;
	f->hop = hop;
	f->invalid = invalid;
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof(f->text), fmt, ap);
	va_end(ap);
}

static uint64_t
attr_diff(uint64_t after, uint64_t before)
{
	/* A counter that went backwards (hop restarted) reads as zero. */
	return after >= before ? after - before : 0;
}

/* Is reason @p r shown at a tx (or rx) point? Its side says (coord_driver.h). */
static bool
attr_reason_side(const struct coord_reason *r, bool tx)
{
	return r->side == COORD_SIDE_BOTH || r->side == (tx ? COORD_SIDE_TX : COORD_SIDE_RX);
}

static void
attr_point_drops(const struct coord_port *a, const struct coord_port *b, bool tx,
		 struct coord_point_result *pr)
{
	unsigned int i, j;

	pr->drop = tx ? attr_diff(a->c[PVP_STATS_tx_dropped], b->c[PVP_STATS_tx_dropped])
		      : attr_diff(a->c[PVP_STATS_rx_dropped], b->c[PVP_STATS_rx_dropped]);
	pr->nb_reasons = 0;
	for (i = 0; i < a->nb_reasons; i++) {
		uint64_t before = 0, v;

		if (!attr_reason_side(&a->reasons[i], tx))
			continue;
		for (j = 0; j < b->nb_reasons; j++)
			if (b->reasons[j].id == a->reasons[i].id)
				before = b->reasons[j].value;
		v = attr_diff(a->reasons[i].value, before);
		if (v == 0 || pr->nb_reasons >= COORD_MAX_REASONS)
			continue;
		pr->reasons[pr->nb_reasons] = a->reasons[i];
		pr->reasons[pr->nb_reasons].value = v;
		pr->nb_reasons++;
	}
}

/* Count @p value more under reason @p id at a point. */
static void
attr_add_reason(struct coord_point_result *pr, enum coord_reason_id id, uint64_t value)
{
	unsigned int i;

	for (i = 0; i < pr->nb_reasons; i++)
		if (pr->reasons[i].id == (unsigned int)id) {
			pr->reasons[i].value += value;
			return;
		}
	if (pr->nb_reasons >= COORD_MAX_REASONS)
		return;
	pr->reasons[pr->nb_reasons].id = id;
	pr->reasons[pr->nb_reasons].side = COORD_SIDE_RX;
	pr->reasons[pr->nb_reasons++].value = value;
}

/*
 * A counter that went backwards between the snapshots: the hop restarted
 * or its counters were reset, and no difference of this hop means
 * anything. Marks every chain point on such a port.
 */
static void
attr_check_backwards(const struct coord_topology *t, const struct coord_snap *before,
		     const struct coord_snap *after, struct coord_trial_result *r)
{
	unsigned int h, p, i, j, c, k;
	char a[32], b[32];

	for (h = 0; h < t->nb_hops; h++) {
		const struct coord_snap *sb = &before[h], *sa = &after[h];
		unsigned int n = sb->nb_ports < sa->nb_ports ? sb->nb_ports : sa->nb_ports;
		unsigned int nb_back = 0;
		char first[160] = "";

		if (!coord_driver_has(t->hops[h].hop.driver, COORD_ROLE_COUNTERS))
			continue;
		for (p = 0; p < n && p < COORD_MAX_PORTS; p++) {
			const struct coord_port *pb = &sb->port[p], *pa = &sa->port[p];
			bool back = false;

			for (i = 0; i < PVP_STATS_NB_COUNTERS; i++) {
				uint64_t vb = pb->c[i], va = pa->c[i];

				if (va >= vb)
					continue;
				back = true;
				if (nb_back++ == 0)
					snprintf(first, sizeof(first),
						 "%s %s went backwards (%s -> %s)",
						 t->hops[h].hop.ports[p],
						 pvp_stats_counter_names[i],
						 pvp_fmt_count((int64_t)vb, b, sizeof(b)),
						 pvp_fmt_count((int64_t)va, a, sizeof(a)));
			}
			for (i = 0; i < pa->nb_reasons; i++)
				for (j = 0; j < pb->nb_reasons; j++) {
					if (pa->reasons[i].id != pb->reasons[j].id ||
					    pa->reasons[i].value >= pb->reasons[j].value)
						continue;
					back = true;
					if (nb_back++ == 0)
						snprintf(
							first, sizeof(first),
							"%s %s went backwards (%s -> %s)",
							t->hops[h].hop.ports[p],
							coord_reason_name(pa->reasons[i].id),
							pvp_fmt_count((int64_t)pb->reasons[j].value,
								      b, sizeof(b)),
							pvp_fmt_count((int64_t)pa->reasons[i].value,
								      a, sizeof(a)));
				}
			if (!back)
				continue;
			for (c = 0; c < t->nb_chains; c++)
				for (k = 0; k < t->chains[c].nb_points; k++)
					if (t->chains[c].points[k].hop == h &&
					    t->chains[c].points[k].port == p)
						r->chain[c].pt[k].flags |= 1u
									   << COORD_CHECK_BACKWARDS;
		}
		if (nb_back == 0)
			continue;
		if (nb_back > 1)
			snprintf(a, sizeof(a), " (and %u more counters)", nb_back - 1);
		else
			a[0] = '\0';
		attr_finding(r, COORD_CHECK_BACKWARDS, (int)h, true,
			     "hop %s: %s%s: the hop restarted or its counters were reset",
			     t->hops[h].hop.name, first, a);
	}
}

/* How many times (hop, port, dir) of point @p pt appears in all chains. */
static unsigned int
attr_point_uses(const struct coord_topology *t, const struct coord_point *pt)
{
	unsigned int c, k, n = 0;

	for (c = 0; c < t->nb_chains; c++)
		for (k = 0; k < t->chains[c].nb_points; k++) {
			const struct coord_point *q = &t->chains[c].points[k];

			n += q->hop == pt->hop && q->port == pt->port && q->tx == pt->tx;
		}
	return n;
}

/*
 * More packets at a point than at the one before. Inside a hop it
 * emitted more than it received (flooding, packets of its own, a wrong
 * counter): flagged. On a link the receiver counted more than its sender
 * sent, which no link does: the two counters are not of one trial (a
 * reset, a restart, other traffic on the port), so the trial is invalid.
 * Points shared by several chains carry their traffic together, and
 * points whose counters went backwards are already invalid: neither is
 * judged here.
 */
static void
attr_check_negative(const struct coord_topology *t, struct coord_trial_result *r)
{
	unsigned int c, k;
	char a[32], b[32], d[32];

	for (c = 0; c < t->nb_chains; c++)
		for (k = 1; k < t->chains[c].nb_points; k++) {
			const struct coord_point *pt = &t->chains[c].points[k];
			const struct coord_point *prev = &t->chains[c].points[k - 1];
			struct coord_point_result *pr = &r->chain[c].pt[k];
			bool in_hop = prev->hop == pt->hop && !prev->tx && pt->tx;

			/* A counter that went backwards already says why. */
			if (pr->lost + (int64_t)pr->added >= 0 || attr_point_uses(t, pt) > 1 ||
			    attr_point_uses(t, prev) > 1 ||
			    ((pr->flags | r->chain[c].pt[k - 1].flags) &
			     (1u << COORD_CHECK_BACKWARDS)))
				continue;
			pr->flags |= 1u << COORD_CHECK_NEGATIVE;
			pvp_fmt_count(-pr->lost, a, sizeof(a));
			pvp_fmt_count((int64_t)pr->packets, b, sizeof(b));
			pvp_fmt_count((int64_t)r->chain[c].pt[k - 1].packets, d, sizeof(d));
			if (in_hop)
				attr_finding(r, COORD_CHECK_NEGATIVE, (int)pt->hop, false,
					     "hop %s emitted %s more than it received (%s \"%s\", "
					     "%s \"%s\")",
					     t->hops[pt->hop].hop.name, a, d, prev->label, b,
					     pt->label);
			else
				attr_finding(
					r, COORD_CHECK_NEGATIVE, (int)pt->hop, true,
					"hop %s counted %s more than hop %s sent it (%s \"%s\", "
					"%s \"%s\"): the counters are not of one trial",
					t->hops[pt->hop].hop.name, a, t->hops[prev->hop].hop.name,
					d, prev->label, b, pt->label);
		}
}

/*
 * Each hop's loss against its own drop counters: a hop cannot have
 * counted more drops on the path than the packets it lost there. The
 * rest of its loss (an OpenFlow drop rule, a table miss) is loss no
 * counter of its own explains, reported but not a failure.
 */
static void
attr_check_drops(const struct coord_topology *t, struct coord_trial_result *r)
{
	unsigned int h;
	char a[32], b[32];

	for (h = 0; h < t->nb_hops; h++) {
		if (r->hop_drops[h] <= r->hop_lost[h] + r->hop_added[h])
			continue;
		attr_finding(r, COORD_CHECK_DROPS, (int)h, false,
			     "hop %s counted %s drops on the path but lost %s packets there",
			     t->hops[h].hop.name, pvp_fmt_count(r->hop_drops[h], a, sizeof(a)),
			     pvp_fmt_count(r->hop_lost[h], b, sizeof(b)));
	}
}

/* Does every chain start and end at a traffic source? */
static bool
attr_chains_at_source(const struct coord_topology *t)
{
	unsigned int c;

	for (c = 0; c < t->nb_chains; c++) {
		const struct coord_chain *ch = &t->chains[c];

		if (!coord_driver_has(t->hops[ch->points[0].hop].hop.driver, COORD_ROLE_SOURCE) ||
		    !coord_driver_has(t->hops[ch->points[ch->nb_points - 1].hop].hop.driver,
				      COORD_ROLE_SOURCE))
			return false;
	}
	return true;
}

/*
 * The chains' tester TX and RX (port counters) against the source's own
 * accounting by signature: TX must be what its streams offered, and every
 * frame it received must be in exactly one of its counters, so that the
 * chain's loss is its streams' loss less duplicates, unsigned frames,
 * ARP/ND frames (a routed DUT's neighbour traffic; less those the
 * tester's RX points left out already, @p neigh_rx_out) and frames of
 * unknown streams.
 */
static void
attr_check_signature(const struct coord_topology *t, struct coord_trial_result *r,
		     uint64_t neigh_rx_out)
{
	const struct coord_traffic_result *s = &r->traffic;
	uint64_t rx_acc, neigh_rx;
	int64_t lost, sig_net;
	char a[32], b[32], c[32], d[32], e[32], f[32], g[32];

	r->sig_checked = s->has_sig && attr_chains_at_source(t);
	if (!r->sig_checked)
		return;
	/* ARP/ND frames the tester's RX points already left out. */
	neigh_rx = s->neigh_rx > neigh_rx_out ? s->neigh_rx - neigh_rx_out : 0;
	rx_acc = s->sig_rx + s->unsigned_rx + neigh_rx + s->unknown_stream_rx;
	lost = (int64_t)coord_trial_tx_packets(r) - (int64_t)coord_trial_rx_packets(r);
	sig_net = (int64_t)s->sig_lost - (int64_t)s->sig_dup - (int64_t)s->unsigned_rx -
		  (int64_t)neigh_rx - (int64_t)s->unknown_stream_rx;
	if (coord_trial_tx_packets(r) != s->sig_offered)
		attr_finding(r, COORD_CHECK_SIGNATURE, -1, false,
			     "signature: tester TX counted %s, its streams offered %s",
			     pvp_fmt_count((int64_t)coord_trial_tx_packets(r), a, sizeof(a)),
			     pvp_fmt_count((int64_t)s->sig_offered, b, sizeof(b)));
	if (coord_trial_rx_packets(r) != rx_acc)
		attr_finding(r, COORD_CHECK_SIGNATURE, -1, false,
			     "signature: tester RX counted %s, its streams account for %s (%s "
			     "signed, %s unsigned, %s unknown stream%s%s%s)",
			     pvp_fmt_count((int64_t)coord_trial_rx_packets(r), a, sizeof(a)),
			     pvp_fmt_count((int64_t)rx_acc, b, sizeof(b)),
			     pvp_fmt_count((int64_t)s->sig_rx, c, sizeof(c)),
			     pvp_fmt_count((int64_t)s->unsigned_rx, d, sizeof(d)),
			     pvp_fmt_count((int64_t)s->unknown_stream_rx, e, sizeof(e)),
			     neigh_rx != 0 ? ", " : "",
			     neigh_rx != 0 ? pvp_fmt_count((int64_t)neigh_rx, f, sizeof(f)) : "",
			     neigh_rx != 0 ? " ARP/ND" : "");
	if (lost != sig_net)
		attr_finding(r, COORD_CHECK_SIGNATURE, -1, false,
			     "signature: chain lost %s, the streams %s (lost %s - duplicates %s - "
			     "unsigned %s - unknown stream %s%s%s)",
			     pvp_fmt_count(lost, a, sizeof(a)),
			     pvp_fmt_count(sig_net, b, sizeof(b)),
			     pvp_fmt_count((int64_t)s->sig_lost, c, sizeof(c)),
			     pvp_fmt_count((int64_t)s->sig_dup, d, sizeof(d)),
			     pvp_fmt_count((int64_t)s->unsigned_rx, e, sizeof(e)),
			     pvp_fmt_count((int64_t)s->unknown_stream_rx, f, sizeof(f)),
			     neigh_rx != 0 ? " - ARP/ND " : "",
			     neigh_rx != 0 ? pvp_fmt_count((int64_t)neigh_rx, g, sizeof(g)) : "");
}

/* The source's largest burst ahead of its schedule against the limit. */
static void
attr_check_burst(struct coord_trial_result *r)
{
	char a[32], b[32];

	if (r->conf.max_burst == 0 || !r->traffic.has_max_burst ||
	    r->traffic.max_burst <= r->conf.max_burst)
		return;
	attr_finding(r, COORD_CHECK_BURST, -1, false,
		     "burst: the generator sent %s packets back to back ahead of its schedule "
		     "(catch-up after a stall), over --max-burst %s",
		     pvp_fmt_count((int64_t)r->traffic.max_burst, a, sizeof(a)),
		     pvp_fmt_count((int64_t)r->conf.max_burst, b, sizeof(b)));
}

/* ARP/ND frames point @p pt's hop counted there between the snapshots. */
static uint64_t
attr_neigh(const struct coord_point *pt, const struct coord_snap *before,
	   const struct coord_snap *after)
{
	const struct coord_port *a = &after[pt->hop].port[pt->port];
	const struct coord_port *b = &before[pt->hop].port[pt->port];

	return pt->tx ? attr_diff(a->neigh_tx, b->neigh_tx) : attr_diff(a->neigh_rx, b->neigh_rx);
}

/*
 * Of @p n ARP/ND frames hop @p h counted on a link between its two
 * readings, how many can have crossed the link between its reading and
 * the other end's, at the baseline or at the final snapshot: every hop
 * is read within the time a snapshot of all hops took (baseline_ms,
 * snapshot_ms), and the frames come at the rate the count shows (over
 * the time between the hop's readings, else over the trial, which is
 * shorter). Rounded up: a periodic announcement can fall in a window
 * much shorter than its period. 0 when the snapshots were not timed.
 */
static uint64_t
attr_in_flight(uint64_t n, unsigned int h, const struct coord_snap *before,
	       const struct coord_snap *after, const struct coord_trial_result *r)
{
	double span = r->conf.traffic.duration_s;

	if (before[h].t_ns != 0 && after[h].t_ns > before[h].t_ns)
		span = (double)(after[h].t_ns - before[h].t_ns) / 1e9;
	if (n == 0 || span <= 0)
		return 0;
	return (uint64_t)ceil((double)n * r->baseline_ms / 1e3 / span) +
	       (uint64_t)ceil((double)n * r->snapshot_ms / 1e3 / span);
}

/*
 * ARP/ND frames in the packets of point @p k of chain @p ch, the end of
 * a link (a TX point and the RX point after it). Neighbour frames are
 * link-local: a routed DUT answers or consumes the tester's and sends
 * its own only to it, so they are no chain's traffic and must not read
 * as loss on one side of a hop and a negative loss on the other. The
 * hop's own count, read with its packet counter, is exact; a hop that
 * does not know says 0 and takes the other end's count, read at another
 * instant: @p slack is set to how far off that can be (attr_in_flight()),
 * else 0. 0 for a point inside a hop.
 */
static uint64_t
attr_link_local(const struct coord_chain *ch, unsigned int k, const struct coord_snap *before,
		const struct coord_snap *after, const struct coord_trial_result *r, uint64_t *slack)
{
	const struct coord_point *peer;
	uint64_t own, other;

	*slack = 0;
	if (ch->points[k].tx) {
		if (k + 1 >= ch->nb_points || ch->points[k + 1].tx)
			return 0;
		peer = &ch->points[k + 1];
	} else {
		if (k == 0 || !ch->points[k - 1].tx)
			return 0;
		peer = &ch->points[k - 1];
	}
	own = attr_neigh(&ch->points[k], before, after);
	other = attr_neigh(peer, before, after);
	if (own != 0 || other == 0)
		return own;
	*slack = attr_in_flight(other, peer->hop, before, after, r);
	return other;
}

/*
 * Point @p k took the other end's ARP/ND count (@p slack frames off at
 * most): an announcement that crossed the link between the two ends'
 * readings is in one count and not the other, a negative loss on the
 * link and as much loss of the hop (or the reverse). Move up to @p slack
 * packets between the two only where that cancels a negative loss: no
 * loss of the chain changes, none becomes negative, and a real loss is
 * never cancelled by another.
 */
static void
attr_settle(const struct coord_chain *ch, struct coord_chain_result *cr, unsigned int k,
	    uint64_t slack)
{
	const struct coord_point *pt = &ch->points[k];
	unsigned int o = pt->tx ? k - 1 : k + 1; /* the hop's other point */
	int64_t link, hop, d;

	if (slack == 0 || (pt->tx ? k == 0 : k + 1 >= ch->nb_points) ||
	    ch->points[o].hop != pt->hop || ch->points[o].tx == pt->tx)
		return;
	link = pt->tx ? (int64_t)cr->pt[k].packets - (int64_t)cr->pt[k + 1].packets
		      : (int64_t)cr->pt[k - 1].packets - (int64_t)cr->pt[k].packets;
	hop = pt->tx ? (int64_t)cr->pt[o].packets - (int64_t)cr->pt[k].packets
		     : (int64_t)cr->pt[k].packets - (int64_t)cr->pt[o].packets;
	/* d more loss on the link, d less in the hop. */
	if (link < 0 && hop > 0)
		d = -link < hop ? -link : hop;
	else if (link > 0 && hop < 0)
		d = link < -hop ? -link : hop;
	else
		return;
	if (d > (int64_t)slack)
		d = (int64_t)slack;
	else if (d < -(int64_t)slack)
		d = -(int64_t)slack;
	cr->pt[k].packets = pt->tx ? (uint64_t)((int64_t)cr->pt[k].packets + d)
				   : (uint64_t)((int64_t)cr->pt[k].packets - d);
}

void
coord_attribute(const struct coord_topology *t, const struct coord_snap *before,
		const struct coord_snap *after, struct coord_trial_result *r)
{
	unsigned int c, k;
	int64_t total_hops = 0;
	uint64_t neigh_rx_out = 0, ll, slack[COORD_MAX_POINTS];

	for (c = 0; c < t->nb_chains; c++)
		memset(r->chain[c].pt, 0, t->chains[c].nb_points * sizeof(*r->chain[c].pt));
	memset(r->hop_lost, 0, t->nb_hops * sizeof(*r->hop_lost));
	memset(r->hop_drops, 0, t->nb_hops * sizeof(*r->hop_drops));
	memset(r->hop_added, 0, t->nb_hops * sizeof(*r->hop_added));
	r->nb_findings = 0;
	r->nb_lost_findings = 0;
	r->nb_lost_invalid = 0;
	r->sig_checked = false;
	r->unattributed = 0;
	for (c = 0; c < t->nb_chains; c++) {
		const struct coord_chain *ch = &t->chains[c];
		struct coord_chain_result *cr = &r->chain[c];

		for (k = 0; k < ch->nb_points; k++) {
			const struct coord_point *pt = &ch->points[k];
			const struct coord_port *a = &after[pt->hop].port[pt->port];
			const struct coord_port *b = &before[pt->hop].port[pt->port];
			struct coord_point_result *pr = &cr->pt[k];

			pr->packets = pt->tx ? attr_diff(a->c[PVP_STATS_tx_packets],
							 b->c[PVP_STATS_tx_packets])
					     : attr_diff(a->c[PVP_STATS_rx_packets],
							 b->c[PVP_STATS_rx_packets]);
			ll = attr_link_local(ch, k, before, after, r, &slack[k]);
			ll = ll < pr->packets ? ll : pr->packets;
			pr->packets -= ll;
			if (k + 1 == ch->nb_points)
				neigh_rx_out += ll;
			attr_point_drops(a, b, pt->tx, pr);
			pr->owner = -1;
			pr->refused = 0;
			pr->added = 0;
			if (pt->tx && a->tx_refused_by_peer) {
				/* Offered, then refused by the next hop: sent here. */
				pr->refused = pr->drop;
				pr->packets += pr->refused;
			}
		}
		/* All of a link's packets are known before any is settled. */
		for (k = 0; k < ch->nb_points; k++)
			attr_settle(ch, cr, k, slack[k]);
		for (k = 1; k < ch->nb_points; k++) {
			const struct coord_point *pt = &ch->points[k];
			const struct coord_point *prev = &ch->points[k - 1];
			struct coord_point_result *pr = &cr->pt[k];

			if (!pt->tx && cr->pt[k - 1].refused != 0) {
				/* The receiver's ring was full: its drop. */
				pr->drop += cr->pt[k - 1].refused;
				attr_add_reason(pr, COORD_REASON_rx_ring_full,
						cr->pt[k - 1].refused);
			}
			/* Refused packets are the next hop's drops, not this one's. */
			if (pr->refused == 0)
				r->hop_drops[pt->hop] += (int64_t)pr->drop;
			pr->lost = (int64_t)cr->pt[k - 1].packets - (int64_t)pr->packets;
			if (prev->hop == pt->hop && !prev->tx && pt->tx) {
				/*
				 * In one side, out the other: the hop lost it,
				 * net of the copies it made on purpose.
				 */
				pr->owner = (int)pt->hop;
				pr->added = attr_diff(after[prev->hop].port[prev->port].added,
						      before[prev->hop].port[prev->port].added);
				pr->attributed = pr->lost > 0 ? pr->lost
						 : pr->lost > -(int64_t)pr->added
							 ? pr->lost
							 : -(int64_t)pr->added;
				r->hop_added[pr->owner] += (int64_t)pr->added;
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
	}
	/* An identity of the arithmetic above, kept as a guard against bugs. */
	if (total_hops + r->unattributed !=
	    (int64_t)coord_trial_tx_packets(r) - (int64_t)coord_trial_rx_packets(r))
		attr_finding(r, COORD_CHECK_DROPS, -1, false,
			     "per-hop losses + unattributed do not add up to tester TX - RX "
			     "(a pvpkit bug: please report it)");
	attr_check_backwards(t, before, after, r);
	attr_check_negative(t, r);
	attr_check_drops(t, r);
	attr_check_signature(t, r, neigh_rx_out);
	attr_check_burst(r);
}
