/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * pvpkit counters shared by pvpkit-gen and pvpkit-fwd (needs DPDK). The
 * snapshot structs, diff, rates and the JSON form are in
 * pvp_stats_json.h, which this header includes and which the coordinator
 * uses alone, without DPDK.
 *
 * Rules (doc/stats.rst "Counting rules"): every RX queue and every TX queue has one
 * cache-aligned block of counters written by exactly one lcore, the one
 * that polls that queue. Readers (the control thread, telemetry) sum the
 * blocks of a port and add what the port itself counts (rte_eth_stats:
 * imissed, rx_nombuf, ierrors, oerrors). There are no atomics or locks on
 * the packet path: the writer counts in locals during a burst and
 * publishes once per burst with plain (relaxed) 64-bit stores. Clearing
 * never writes into a writer's block: the reader keeps a baseline and
 * subtracts it.
 *
 * Bytes are counted without the 4 B FCS, as DPDK ports and mbufs do
 * (rte_pktmbuf_pkt_len()); the L2 and L1 rates add it back per frame.
 *
 * Snapshots, clear and telemetry are reader side: they take a mutex of
 * their own and may run on any thread; the writers never see it. The
 * library logs under the logtype "pvp.stats" and never prints.
 */

#ifndef PVP_STATS_H
#define PVP_STATS_H

#include <stdint.h>
#include <stdbool.h>

#include <rte_common.h>

#include <jansson.h>

#include "pvp_stats_json.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Counters of one RX queue. Written only by the lcore polling it. */
struct pvp_stats_rxq {
	uint64_t packets; /**< packets received */
	uint64_t bytes;	  /**< bytes received, without FCS */
	uint64_t dropped; /**< received, then dropped by the application */
	uint64_t errors;  /**< received, then found malformed */
} __rte_cache_aligned;

/** Counters of one TX queue. Written only by the lcore sending on it. */
struct pvp_stats_txq {
	uint64_t packets; /**< packets the PMD accepted */
	uint64_t bytes;	  /**< bytes the PMD accepted, without FCS */
	uint64_t dropped; /**< packets not sent: TX queue full after retries */
	uint64_t errors;  /**< packets not sent for another reason */
} __rte_cache_aligned;

/** Opaque counter set: ports × queues, plus the reader-side baseline. */
struct pvp_stats;

/**
 * Publish one burst worth of RX counts. Called only by the owning lcore.
 * Plain relaxed stores: a reader on x86-64 or arm64 sees either the old
 * or the new value, never a torn one.
 */
static inline void
pvp_stats_rxq_add(struct pvp_stats_rxq *q, uint64_t packets, uint64_t bytes)
{
	__atomic_store_n(&q->packets, q->packets + packets, __ATOMIC_RELAXED);
	__atomic_store_n(&q->bytes, q->bytes + bytes, __ATOMIC_RELAXED);
}

/** Publish packets the application dropped after receiving them. */
static inline void
pvp_stats_rxq_drop(struct pvp_stats_rxq *q, uint64_t dropped, uint64_t errors)
{
	__atomic_store_n(&q->dropped, q->dropped + dropped, __ATOMIC_RELAXED);
	__atomic_store_n(&q->errors, q->errors + errors, __ATOMIC_RELAXED);
}

/** Publish one burst worth of TX counts. Called only by the owning lcore. */
static inline void
pvp_stats_txq_add(struct pvp_stats_txq *q, uint64_t packets, uint64_t bytes, uint64_t dropped)
{
	__atomic_store_n(&q->packets, q->packets + packets, __ATOMIC_RELAXED);
	__atomic_store_n(&q->bytes, q->bytes + bytes, __ATOMIC_RELAXED);
	if (dropped != 0)
		__atomic_store_n(&q->dropped, q->dropped + dropped, __ATOMIC_RELAXED);
}

/** Publish packets not sent for a reason other than a full queue. */
static inline void
pvp_stats_txq_error(struct pvp_stats_txq *q, uint64_t errors)
{
	__atomic_store_n(&q->errors, q->errors + errors, __ATOMIC_RELAXED);
}

/**
 * Create a counter set.
 *
 * @param name
 *   Name shown in JSON and telemetry (e.g. "pvpkit-fwd").
 * @param nb_ports
 *   Number of ports, 1..PVP_STATS_MAX_PORTS.
 * @param nb_rxq
 *   RX queues per port, 0..PVP_STATS_MAX_QUEUES.
 * @param nb_txq
 *   TX queues per port, 0..PVP_STATS_MAX_QUEUES.
 * @return
 *   The set, zeroed, or NULL with errno set (EINVAL, ENOMEM).
 *   Works without rte_eal_init(); memory comes from the C heap, cache aligned.
 */
struct pvp_stats *pvp_stats_create(const char *name, uint16_t nb_ports, uint16_t nb_rxq,
				   uint16_t nb_txq);

/**
 * Free a counter set. NULL is a no-op. Stops its telemetry export if it
 * was the exported set. No writer may still use its blocks.
 */
void pvp_stats_destroy(struct pvp_stats *st);

/**
 * The RX queue block of (port, queue), for the lcore that will own it.
 * @return the block, or NULL with errno EINVAL when out of range.
 */
struct pvp_stats_rxq *pvp_stats_rxq(struct pvp_stats *st, uint16_t port, uint16_t queue);

/**
 * The TX queue block of (port, queue), for the lcore that will own it.
 * @return the block, or NULL with errno EINVAL when out of range.
 */
struct pvp_stats_txq *pvp_stats_txq(struct pvp_stats *st, uint16_t port, uint16_t queue);

/**
 * Bind stats port @p port to DPDK ethdev @p eth_port_id so snapshots merge
 * what the port itself counts (imissed and rx_nombuf into rx_dropped,
 * ierrors into rx_errors, oerrors into tx_errors). Optional; an unbound
 * port reports software counters only. What the ethdev counted before
 * the bind is not reported (it starts from a baseline taken at bind).
 * Also names the port after the ethdev if it has no name yet.
 *
 * @return 0, or -EINVAL (bad port, or @p eth_port_id not a valid ethdev,
 *   which is always the case before rte_eal_init()).
 */
int pvp_stats_bind_ethdev(struct pvp_stats *st, uint16_t port, uint16_t eth_port_id);

/**
 * Choose the extended statistics (xstats) snapshots read from bound
 * ethdevs. At bind time each name is looked up on the port
 * (rte_eth_xstats_get_id_by_name()); the ones it has are read by id at
 * every snapshot and clear, baseline-subtracted like the other counters,
 * and reported per port in pvp_stats_port_snap::xstats (JSON "xstats").
 * Names the port does not have are skipped silently.
 *
 * They are detail only: they never add to the 8 counters, because the
 * chosen ones are already inside rte_eth_stats' imissed, rx_nombuf,
 * ierrors or oerrors on the PMDs that have them (doc/stats.rst has the
 * list and the exceptions).
 *
 * Without a call the default list of pvp_stats_default_xstats applies.
 * Ports bound already are looked up again, with a fresh baseline for
 * their xstats.
 *
 * @param names
 *   Names, or NULL for the default list.
 * @param n
 *   Number of names, 0..PVP_STATS_MAX_XSTATS (0 with non-NULL @p names:
 *   read no xstats).
 * @return 0, or -EINVAL (too many names, an empty or too long name).
 */
int pvp_stats_set_xstats(struct pvp_stats *st, const char *const *names, unsigned int n);

/** The default chosen xstats, NULL-terminated (doc/stats.rst says why each). */
extern const char *const pvp_stats_default_xstats[];

/**
 * The TSC frequency in Hz, measured against CLOCK_MONOTONIC_RAW once
 * (200 ms, on the first call): rte_get_tsc_hz() where the measurement
 * agrees with it to 1e-4 (the CPU stated it), the measurement where it
 * does not (DPDK's own estimate is rounded to 10 MHz). Call it once
 * before the data path starts; every later call returns at once.
 */
uint64_t pvp_stats_tsc_hz(void);

/** Give a port a display name (e.g. "net_null0" or "vhost0"). @return 0 or -EINVAL. */
int pvp_stats_set_port_name(struct pvp_stats *st, uint16_t port, const char *name);

/**
 * Take a snapshot: sums every queue block of every port, adds the bound
 * ethdev's own counters, reads its chosen xstats, subtracts the baseline. Reader side only; safe
 * while writers run. Takes a reader-side lock, never blocks writers.
 * Every counter of a later snapshot is >= the same counter of an earlier
 * one unless pvp_stats_clear() ran in between. hz is pvp_stats_tsc_hz().
 * When a bound ethdev cannot be read (stopped, closed), its last reading
 * is used.
 *
 * @return 0, or -EINVAL.
 */
int pvp_stats_snapshot(struct pvp_stats *st, struct pvp_stats_snap *snap);

/**
 * Clear: the current raw values (software and ethdev) become the
 * baseline that later snapshots subtract. Writers' blocks are never
 * written. @return 0 or -EINVAL.
 */
int pvp_stats_clear(struct pvp_stats *st);

/**
 * Export @p st through DPDK telemetry: "/pvpkit/stats" (all ports),
 * "/pvpkit/stats/port,<n>" (one port with its queues) and "/pvpkit/info".
 * Call after rte_eal_init() (the socket exists only then). One counter set
 * per process is exported: registering another replaces it, and
 * pvp_stats_destroy() of the exported set stops the export (the commands
 * then fail). Answers are described in doc/stats.rst.
 *
 * @return 0, or -errno.
 */
int pvp_stats_telemetry_register(struct pvp_stats *st);

#ifdef __cplusplus
}
#endif

#endif /* PVP_STATS_H */
