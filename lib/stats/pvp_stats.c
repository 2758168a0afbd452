/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Counter sets: creation, the writer blocks, snapshots, the reader-side
 * baseline, differences and rates.
 */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_string_fns.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_log.h>

#include "pvp_stats.h"
#include "stats_private.h"

RTE_LOG_REGISTER_DEFAULT(pvp_stats_logtype, INFO);

/*
 * Drop and error xstats worth seeing per hop, by the names PMDs give
 * them. Short on purpose: each is read at every snapshot. Which
 * rte_eth_stats field already holds each one is in doc/stats.rst.
 */
const char *const pvp_stats_default_xstats[] = {
	"rx_missed_errors",	     /* ethdev generic: = imissed */
	"rx_mbuf_allocation_errors", /* ethdev generic: = rx_nombuf */
	"rx_crc_errors",	     /* ixgbe, i40e, ice: in ierrors */
	"rx_length_errors",	     /* ixgbe, i40e, ice: in ierrors */
	"rx_undersize_errors",	     /* ixgbe, i40e, ice: in ierrors */
	"rx_oversize_errors",	     /* ixgbe, i40e, ice: in ierrors */
	"rx_dropped_packets",	     /* i40e, ice: rx discards, in imissed */
	"rx_discards_phy",	     /* mlx5: port buffer full */
	"rx_out_of_buffer",	     /* mlx5: no RX descriptor, = imissed */
	"tx_dropped_packets",	     /* i40e, ice: TX discards */
	"mac_local_errors",	     /* ixgbe: link faults, not packets */
	"rx_q0_errors",		     /* ethdev generic per queue: in ierrors */
	NULL,
};

/*
 * aligned_alloc() wants a size that is a multiple of the alignment; the
 * blocks are whole cache lines already, but round up anyway so a change
 * of the block structs cannot break it.
 */
static void *
stats_zalloc_aligned(size_t size)
{
	size_t sz = RTE_ALIGN_CEIL(size, RTE_CACHE_LINE_SIZE);
	void *p;

	if (sz == 0)
		return NULL;
	p = aligned_alloc(RTE_CACHE_LINE_SIZE, sz);
	if (p != NULL)
		memset(p, 0, sz);
	return p;
}

struct pvp_stats *
pvp_stats_create(const char *name, uint16_t nb_ports, uint16_t nb_rxq, uint16_t nb_txq)
{
	struct pvp_stats *st;
	uint16_t p;

	if (nb_ports == 0 || nb_ports > PVP_STATS_MAX_PORTS || nb_rxq > PVP_STATS_MAX_QUEUES ||
	    nb_txq > PVP_STATS_MAX_QUEUES) {
		errno = EINVAL;
		return NULL;
	}
	/* Measure the TSC now, not in the first snapshot a trial times. */
	(void)pvp_stats_tsc_hz();
	st = calloc(1, sizeof(*st));
	if (st == NULL || pthread_mutex_init(&st->lock, NULL) != 0) {
		free(st);
		errno = ENOMEM;
		return NULL;
	}
	if (name != NULL)
		strlcpy(st->name, name, sizeof(st->name));
	st->nb_ports = nb_ports;
	st->nb_rxq = nb_rxq;
	st->nb_txq = nb_txq;
	for (p = 0; p < PVP_STATS_MAX_PORTS; p++)
		st->meta[p].eth_port_id = -1;
	/* No queues is no block: stats_zalloc_aligned(0) is NULL. */
	st->rxq = stats_zalloc_aligned(sizeof(*st->rxq) * nb_ports * nb_rxq);
	st->txq = stats_zalloc_aligned(sizeof(*st->txq) * nb_ports * nb_txq);
	st->last = calloc(nb_ports, sizeof(*st->last));
	st->base = calloc(nb_ports, sizeof(*st->base));
	if ((nb_rxq > 0 && st->rxq == NULL) || (nb_txq > 0 && st->txq == NULL) ||
	    st->last == NULL || st->base == NULL) {
		pvp_stats_destroy(st);
		errno = ENOMEM;
		return NULL;
	}
	/* The default xstats: no port is bound yet, none is looked up. */
	pvp_stats_set_xstats(st, NULL, 0);
	return st;
}

void
pvp_stats_destroy(struct pvp_stats *st)
{
	if (st == NULL)
		return;
	/* Telemetry must stop reading this set before it goes away. */
	pvp_stats_telemetry_forget(st);
	pthread_mutex_destroy(&st->lock);
	free(st->rxq);
	free(st->txq);
	free(st->last);
	free(st->base);
	free(st);
}

struct pvp_stats_rxq *
pvp_stats_rxq(struct pvp_stats *st, uint16_t port, uint16_t queue)
{
	if (st == NULL || port >= st->nb_ports || queue >= st->nb_rxq) {
		errno = EINVAL;
		return NULL;
	}
	return &st->rxq[port * st->nb_rxq + queue];
}

struct pvp_stats_txq *
pvp_stats_txq(struct pvp_stats *st, uint16_t port, uint16_t queue)
{
	if (st == NULL || port >= st->nb_ports || queue >= st->nb_txq) {
		errno = EINVAL;
		return NULL;
	}
	return &st->txq[port * st->nb_txq + queue];
}

/*
 * Read what the ethdev bound to @p port counts itself, and its resolved
 * xstats, into st->last. A port that cannot answer (stopped, closed)
 * keeps its last reading, so the totals never go backwards. Called with
 * st->lock held.
 */
static void
stats_read_ethdev(struct pvp_stats *st, uint16_t port)
{
	struct stats_port_meta *m = &st->meta[port];
	struct stats_raw_port *last = &st->last[port];
	uint64_t vals[PVP_STATS_MAX_XSTATS];
	struct rte_eth_stats es;

	if (m->eth_port_id < 0)
		return;
	if (rte_eth_stats_get((uint16_t)m->eth_port_id, &es) == 0) {
		last->eth.imissed = es.imissed;
		last->eth.rx_nombuf = es.rx_nombuf;
		last->eth.ierrors = es.ierrors;
		last->eth.oerrors = es.oerrors;
	}
	if (m->nb_xstats != 0 && rte_eth_xstats_get_by_id((uint16_t)m->eth_port_id, m->xstat_ids,
							  vals, m->nb_xstats) == (int)m->nb_xstats)
		memcpy(last->xstats, vals, sizeof(vals[0]) * m->nb_xstats);
}

/*
 * Look the chosen names up on the bound ethdev once, so snapshots read
 * by id (a name lookup walks every xstat name of the port), and take
 * their baseline (the port's reading is taken again). Called with
 * st->lock held.
 */
static void
stats_resolve_xstats(struct pvp_stats *st, uint16_t port)
{
	struct stats_port_meta *m = &st->meta[port];
	unsigned int i;
	uint64_t id;

	m->nb_xstats = 0;
	memset(st->last[port].xstats, 0, sizeof(st->last[port].xstats));
	if (m->eth_port_id < 0)
		return;
	for (i = 0; i < st->nb_xstat_sel; i++) {
		if (rte_eth_xstats_get_id_by_name((uint16_t)m->eth_port_id, st->xstat_sel[i],
						  &id) != 0)
			continue;
		m->xstat_ids[m->nb_xstats] = id;
		strlcpy(m->xstat_names[m->nb_xstats], st->xstat_sel[i], sizeof(m->xstat_names[0]));
		m->nb_xstats++;
	}
	STATS_LOG(DEBUG, "port %u (ethdev %d): %u of %u chosen xstats", port, m->eth_port_id,
		  m->nb_xstats, st->nb_xstat_sel);
	stats_read_ethdev(st, port);
	memcpy(st->base[port].xstats, st->last[port].xstats, sizeof(st->base[port].xstats));
}

int
pvp_stats_set_xstats(struct pvp_stats *st, const char *const *names, unsigned int n)
{
	unsigned int i;
	uint16_t p;

	if (st == NULL || (names != NULL && n > PVP_STATS_MAX_XSTATS))
		return -EINVAL;
	if (names == NULL) {
		names = pvp_stats_default_xstats;
		for (n = 0; names[n] != NULL; n++)
			;
	}
	for (i = 0; i < n; i++)
		if (names[i] == NULL || names[i][0] == '\0' ||
		    strlen(names[i]) >= PVP_STATS_XSTAT_NAME_LEN)
			return -EINVAL;
	pthread_mutex_lock(&st->lock);
	for (i = 0; i < n; i++)
		strlcpy(st->xstat_sel[i], names[i], sizeof(st->xstat_sel[0]));
	st->nb_xstat_sel = n;
	for (p = 0; p < st->nb_ports; p++)
		stats_resolve_xstats(st, p);
	pthread_mutex_unlock(&st->lock);
	return 0;
}

int
pvp_stats_bind_ethdev(struct pvp_stats *st, uint16_t port, uint16_t eth_port_id)
{
	if (st == NULL || port >= st->nb_ports || !rte_eth_dev_is_valid_port(eth_port_id))
		return -EINVAL;
	pthread_mutex_lock(&st->lock);
	st->meta[port].eth_port_id = eth_port_id;
	/*
	 * Start from what the port has counted so far, as if cleared at
	 * bind time: counts from before this application owned the port
	 * (a previous run, another process) are not ours.
	 */
	memset(&st->last[port], 0, sizeof(st->last[port]));
	stats_resolve_xstats(st, port);
	st->base[port].eth = st->last[port].eth;
	if (st->meta[port].name[0] == '\0') {
		char name[RTE_ETH_NAME_MAX_LEN];

		if (rte_eth_dev_get_name_by_port(eth_port_id, name) == 0)
			strlcpy(st->meta[port].name, name, sizeof(st->meta[port].name));
	}
	pthread_mutex_unlock(&st->lock);
	return 0;
}

int
pvp_stats_set_port_name(struct pvp_stats *st, uint16_t port, const char *name)
{
	if (st == NULL || port >= st->nb_ports || name == NULL)
		return -EINVAL;
	pthread_mutex_lock(&st->lock);
	strlcpy(st->meta[port].name, name, sizeof(st->meta[port].name));
	pthread_mutex_unlock(&st->lock);
	return 0;
}

/*
 * Read one port's raw counters. The relaxed loads pair with the writers'
 * relaxed stores: each value is whole, and a later reading of the same
 * counter is never smaller than an earlier one (single writer, monotonic
 * values, coherent caches). Called with st->lock held.
 */
static void
stats_read_raw(struct pvp_stats *st, uint16_t port, struct stats_raw_port *raw)
{
	uint16_t q;

	memset(raw, 0, sizeof(*raw));
	for (q = 0; q < st->nb_rxq; q++) {
		const struct pvp_stats_rxq *b = &st->rxq[port * st->nb_rxq + q];

		raw->rxq[q].packets = __atomic_load_n(&b->packets, __ATOMIC_RELAXED);
		raw->rxq[q].bytes = __atomic_load_n(&b->bytes, __ATOMIC_RELAXED);
		raw->rxq[q].dropped = __atomic_load_n(&b->dropped, __ATOMIC_RELAXED);
		raw->rxq[q].errors = __atomic_load_n(&b->errors, __ATOMIC_RELAXED);
	}
	for (q = 0; q < st->nb_txq; q++) {
		const struct pvp_stats_txq *b = &st->txq[port * st->nb_txq + q];

		raw->txq[q].packets = __atomic_load_n(&b->packets, __ATOMIC_RELAXED);
		raw->txq[q].bytes = __atomic_load_n(&b->bytes, __ATOMIC_RELAXED);
		raw->txq[q].dropped = __atomic_load_n(&b->dropped, __ATOMIC_RELAXED);
		raw->txq[q].errors = __atomic_load_n(&b->errors, __ATOMIC_RELAXED);
	}
	stats_read_ethdev(st, port);
	raw->eth = st->last[port].eth;
	memcpy(raw->xstats, st->last[port].xstats, sizeof(raw->xstats));
}

/*
 * raw - base. A value below its baseline means the counter was reset
 * under us (a PMD that zeroes its counters on restart): count from that
 * reset instead of wrapping around to 2^64.
 */
static inline uint64_t
stats_sub(uint64_t raw, uint64_t base)
{
	return raw >= base ? raw - base : raw;
}

static void
stats_compose_port(const struct pvp_stats *st, const struct stats_raw_port *raw,
		   const struct stats_raw_port *base, uint16_t port, struct pvp_stats_port_snap *ps)
{
	uint64_t sw_rx_err = 0, sw_tx_err = 0, sw_rx_drop = 0, sw_tx_drop = 0;
	uint64_t *c = ps->c;
	uint16_t q;

	memset(ps, 0, sizeof(*ps));
	strlcpy(ps->name, st->meta[port].name, sizeof(ps->name));
	ps->eth_port_id = st->meta[port].eth_port_id;
	ps->nb_rxq = st->nb_rxq;
	ps->nb_txq = st->nb_txq;
	for (q = 0; q < st->nb_rxq; q++) {
		struct pvp_stats_queue_snap *s = &ps->rxq[q];

		s->packets = stats_sub(raw->rxq[q].packets, base->rxq[q].packets);
		s->bytes = stats_sub(raw->rxq[q].bytes, base->rxq[q].bytes);
		s->dropped = stats_sub(raw->rxq[q].dropped, base->rxq[q].dropped);
		s->errors = stats_sub(raw->rxq[q].errors, base->rxq[q].errors);
		c[PVP_STATS_rx_packets] += s->packets;
		c[PVP_STATS_rx_bytes] += s->bytes;
		sw_rx_drop += s->dropped;
		sw_rx_err += s->errors;
	}
	for (q = 0; q < st->nb_txq; q++) {
		struct pvp_stats_queue_snap *s = &ps->txq[q];

		s->packets = stats_sub(raw->txq[q].packets, base->txq[q].packets);
		s->bytes = stats_sub(raw->txq[q].bytes, base->txq[q].bytes);
		s->dropped = stats_sub(raw->txq[q].dropped, base->txq[q].dropped);
		s->errors = stats_sub(raw->txq[q].errors, base->txq[q].errors);
		c[PVP_STATS_tx_packets] += s->packets;
		c[PVP_STATS_tx_bytes] += s->bytes;
		sw_tx_drop += s->dropped;
		sw_tx_err += s->errors;
	}
	ps->rx_missed = stats_sub(raw->eth.imissed, base->eth.imissed);
	ps->rx_nombuf = stats_sub(raw->eth.rx_nombuf, base->eth.rx_nombuf);
	ps->rx_sw_dropped = sw_rx_drop;
	c[PVP_STATS_rx_dropped] = ps->rx_missed + ps->rx_nombuf + sw_rx_drop;
	c[PVP_STATS_tx_dropped] = sw_tx_drop;
	c[PVP_STATS_rx_errors] = sw_rx_err + stats_sub(raw->eth.ierrors, base->eth.ierrors);
	c[PVP_STATS_tx_errors] = sw_tx_err + stats_sub(raw->eth.oerrors, base->eth.oerrors);
	/* Detail only: each is already inside one of the counters above. */
	ps->nb_xstats = st->meta[port].nb_xstats;
	for (q = 0; q < ps->nb_xstats; q++) {
		strlcpy(ps->xstats[q].name, st->meta[port].xstat_names[q],
			sizeof(ps->xstats[q].name));
		ps->xstats[q].value = stats_sub(raw->xstats[q], base->xstats[q]);
	}
}

static pthread_once_t stats_hz_once = PTHREAD_ONCE_INIT;
static uint64_t stats_hz_measured;

/* Longest a clock read may bracket a TSC read, and tries to get one. */
#define STATS_HZ_BRACKET_NS 20000
#define STATS_HZ_TRIES	    20

/*
 * A TSC reading and the CLOCK_MONOTONIC_RAW nanosecond it was taken at:
 * the clock is read before and after, and a pair whose reads lie far
 * apart (the thread was preempted in between) is taken again.
 */
static void
stats_hz_pair(uint64_t *ns, uint64_t *tsc)
{
	struct timespec a, b;
	uint64_t na, nb;
	int i;

	for (i = 0; i < STATS_HZ_TRIES; i++) {
		clock_gettime(CLOCK_MONOTONIC_RAW, &a);
		*tsc = rte_rdtsc();
		clock_gettime(CLOCK_MONOTONIC_RAW, &b);
		na = (uint64_t)a.tv_sec * 1000000000ull + (uint64_t)a.tv_nsec;
		nb = (uint64_t)b.tv_sec * 1000000000ull + (uint64_t)b.tv_nsec;
		*ns = na + (nb - na) / 2;
		if (nb - na <= STATS_HZ_BRACKET_NS)
			return;
	}
}

/*
 * The TSC frequency against the monotonic clock, over 200 ms (at most
 * 2e-4 off with the brackets above). DPDK only knows the frequency
 * exactly where the CPU states it; elsewhere (AMD, most VMs) it measures
 * it and rounds to 10 MHz: 2.600 GHz for a TSC of 2.596 GHz, so rates
 * were 0.15 % slow and a start 0.6 s ahead came 0.9 ms late. Without
 * rte_eal_init() (unit tests) DPDK knows nothing at all.
 */
static void
stats_hz_measure(void)
{
	struct timespec req = {.tv_sec = 0, .tv_nsec = 200 * 1000 * 1000};
	uint64_t n0, n1, c0, c1, dpdk = rte_get_tsc_hz();
	double hz, off;

	stats_hz_pair(&n0, &c0);
	nanosleep(&req, NULL);
	stats_hz_pair(&n1, &c1);
	hz = n1 > n0 ? (double)(c1 - c0) * 1e9 / (double)(n1 - n0) : 0;
	/* DPDK's own figure where it agrees: it is exact when the CPU says. */
	off = hz > (double)dpdk ? hz - (double)dpdk : (double)dpdk - hz;
	if (dpdk != 0 && (hz == 0 || off < 1e-4 * (double)dpdk))
		stats_hz_measured = dpdk;
	else
		stats_hz_measured = (uint64_t)hz;
}

uint64_t
pvp_stats_tsc_hz(void)
{
	pthread_once(&stats_hz_once, stats_hz_measure);
	return stats_hz_measured;
}

int
pvp_stats_snapshot(struct pvp_stats *st, struct pvp_stats_snap *snap)
{
	struct stats_raw_port raw;
	uint16_t p;

	if (st == NULL || snap == NULL)
		return -EINVAL;
	snap->hz = pvp_stats_tsc_hz();
	pthread_mutex_lock(&st->lock);
	strlcpy(snap->name, st->name, sizeof(snap->name));
	snap->nb_ports = st->nb_ports;
	snap->tsc = rte_rdtsc();
	for (p = 0; p < st->nb_ports; p++) {
		stats_read_raw(st, p, &raw);
		stats_compose_port(st, &raw, &st->base[p], p, &snap->port[p]);
	}
	pthread_mutex_unlock(&st->lock);
	/* Leave no stale ports from an earlier, bigger snapshot behind. */
	if (st->nb_ports < PVP_STATS_MAX_PORTS)
		memset(&snap->port[st->nb_ports], 0,
		       sizeof(snap->port[0]) * (PVP_STATS_MAX_PORTS - st->nb_ports));
	return 0;
}

int
pvp_stats_clear(struct pvp_stats *st)
{
	uint16_t p;

	if (st == NULL)
		return -EINVAL;
	pthread_mutex_lock(&st->lock);
	for (p = 0; p < st->nb_ports; p++)
		stats_read_raw(st, p, &st->base[p]);
	pthread_mutex_unlock(&st->lock);
	return 0;
}
