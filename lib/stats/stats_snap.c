/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Snapshot arithmetic: counter names, diff and rates. No DPDK: the
 * coordinator diffs and reads snapshots it got as JSON.
 */

#include <errno.h>
#include <string.h>

#include "pvp_stats_json.h"

const char *const pvp_stats_counter_names[PVP_STATS_NB_COUNTERS] = {
#define PVP_STATS_X_NAME(name) [PVP_STATS_##name] = #name,
	PVP_STATS_FOREACH_COUNTER(PVP_STATS_X_NAME)
#undef PVP_STATS_X_NAME
};

/* later - earlier, 0 when a clear in between made it negative. */
static inline uint64_t
stats_delta(uint64_t later, uint64_t earlier)
{
	return later >= earlier ? later - earlier : 0;
}

static void
stats_diff_queue(const struct pvp_stats_queue_snap *l, const struct pvp_stats_queue_snap *e,
		 struct pvp_stats_queue_snap *o)
{
	o->packets = stats_delta(l->packets, e->packets);
	o->bytes = stats_delta(l->bytes, e->bytes);
	o->dropped = stats_delta(l->dropped, e->dropped);
	o->errors = stats_delta(l->errors, e->errors);
}

/*
 * xstats of later - earlier, matched by position and name: a name the
 * earlier snapshot does not have at that position (a port bound or a
 * list chosen in between) counts from zero.
 */
static void
stats_diff_xstats(const struct pvp_stats_port_snap *l, const struct pvp_stats_port_snap *e,
		  struct pvp_stats_port_snap *o)
{
	uint16_t n = l->nb_xstats < PVP_STATS_MAX_XSTATS ? l->nb_xstats : PVP_STATS_MAX_XSTATS, i;
	uint64_t v;

	for (i = 0; i < n; i++) {
		v = l->xstats[i].value;
		if (i < e->nb_xstats && strcmp(l->xstats[i].name, e->xstats[i].name) == 0)
			v = stats_delta(v, e->xstats[i].value);
		if (o != l)
			memcpy(o->xstats[i].name, l->xstats[i].name, sizeof(o->xstats[i].name));
		o->xstats[i].value = v;
	}
	o->nb_xstats = n;
}

int
pvp_stats_diff(const struct pvp_stats_snap *later, const struct pvp_stats_snap *earlier,
	       struct pvp_stats_snap *out)
{
	uint16_t p, q, i;

	if (later == NULL || earlier == NULL || out == NULL ||
	    later->nb_ports != earlier->nb_ports || later->nb_ports > PVP_STATS_MAX_PORTS)
		return -EINVAL;
	for (p = 0; p < later->nb_ports; p++) {
		const struct pvp_stats_port_snap *l = &later->port[p], *e = &earlier->port[p];

		if (l->nb_rxq != e->nb_rxq || l->nb_txq != e->nb_txq ||
		    l->nb_rxq > PVP_STATS_MAX_QUEUES || l->nb_txq > PVP_STATS_MAX_QUEUES)
			return -EINVAL;
	}
	/* 'out' may alias 'later' or 'earlier': write fields only after reading them. */
	for (p = 0; p < later->nb_ports; p++) {
		const struct pvp_stats_port_snap *l = &later->port[p], *e = &earlier->port[p];
		struct pvp_stats_port_snap *o = &out->port[p];

		if (o != l)
			memcpy(o->name, l->name, sizeof(o->name));
		o->eth_port_id = l->eth_port_id;
		o->nb_rxq = l->nb_rxq;
		o->nb_txq = l->nb_txq;
		for (i = 0; i < PVP_STATS_NB_COUNTERS; i++)
			o->c[i] = stats_delta(l->c[i], e->c[i]);
		o->rx_missed = stats_delta(l->rx_missed, e->rx_missed);
		o->rx_nombuf = stats_delta(l->rx_nombuf, e->rx_nombuf);
		o->rx_sw_dropped = stats_delta(l->rx_sw_dropped, e->rx_sw_dropped);
		for (q = 0; q < l->nb_rxq; q++)
			stats_diff_queue(&l->rxq[q], &e->rxq[q], &o->rxq[q]);
		for (q = 0; q < l->nb_txq; q++)
			stats_diff_queue(&l->txq[q], &e->txq[q], &o->txq[q]);
		stats_diff_xstats(l, e, o);
	}
	if (out != later)
		memcpy(out->name, later->name, sizeof(out->name));
	out->tsc = stats_delta(later->tsc, earlier->tsc);
	out->hz = later->hz;
	out->nb_ports = later->nb_ports;
	return 0;
}

int
pvp_stats_rates(const struct pvp_stats_snap *diff, uint16_t port,
		struct pvp_stats_port_rates *rates)
{
	const struct pvp_stats_port_snap *ps;
	double secs, rxp, txp;

	if (diff == NULL || rates == NULL || port >= diff->nb_ports || diff->tsc == 0 ||
	    diff->hz == 0)
		return -EINVAL;
	ps = &diff->port[port];
	secs = (double)diff->tsc / (double)diff->hz;
	rxp = (double)ps->c[PVP_STATS_rx_packets];
	txp = (double)ps->c[PVP_STATS_tx_packets];
	rates->rx_pps = rxp / secs;
	rates->tx_pps = txp / secs;
	rates->rx_l2_bps =
		((double)ps->c[PVP_STATS_rx_bytes] + rxp * PVP_STATS_FCS_LEN) * 8.0 / secs;
	rates->tx_l2_bps =
		((double)ps->c[PVP_STATS_tx_bytes] + txp * PVP_STATS_FCS_LEN) * 8.0 / secs;
	rates->rx_l1_bps = rates->rx_l2_bps + rxp * PVP_STATS_L1_OVERHEAD * 8.0 / secs;
	rates->tx_l1_bps = rates->tx_l2_bps + txp * PVP_STATS_L1_OVERHEAD * 8.0 / secs;
	return 0;
}
