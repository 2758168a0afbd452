/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * pvpkit counters shared by pvpkit-gen and pvpkit-fwd.
 *
 * Rules (DESIGN.md "Counters"): every RX queue and every TX queue has one
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

#ifdef __cplusplus
extern "C" {
#endif

/** Most ports one stats object can hold. */
#define PVP_STATS_MAX_PORTS 32
/** Most RX (and TX) queues per port. */
#define PVP_STATS_MAX_QUEUES 16
/** Bytes of preamble, SFD and inter-frame gap added per frame for L1 rates. */
#define PVP_STATS_L1_OVERHEAD 20
/** Bytes of FCS: counted in L1/L2 rates when the port does not count it. */
#define PVP_STATS_FCS_LEN 4
/** Most chosen xstats per port (see pvp_stats_set_xstats()). */
#define PVP_STATS_MAX_XSTATS 16
/** Longest xstat name plus its NUL (RTE_ETH_XSTATS_NAME_SIZE). */
#define PVP_STATS_XSTAT_NAME_LEN 64

/**
 * The port counters of the DESIGN.md contract, as an X-macro list so the
 * enum and the names stay in step.
 */
/* X-macro lists read best one entry per line. */
/* clang-format off */
#define PVP_STATS_FOREACH_COUNTER(X) \
	X(rx_packets)                \
	X(rx_bytes)                  \
	X(tx_packets)                \
	X(tx_bytes)                  \
	X(rx_dropped)                \
	X(tx_dropped)                \
	X(rx_errors)                 \
	X(tx_errors)

/** Index of one counter in pvp_stats_port_snap::c. */
enum pvp_stats_counter {
#define PVP_STATS_X_ENUM(name) PVP_STATS_##name,
	PVP_STATS_FOREACH_COUNTER(PVP_STATS_X_ENUM)
#undef PVP_STATS_X_ENUM
	PVP_STATS_NB_COUNTERS /**< number of counters */
};
/* clang-format on */

/** Names of the counters, indexed by enum pvp_stats_counter. */
extern const char *const pvp_stats_counter_names[PVP_STATS_NB_COUNTERS];

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

/** Name given at creation ("" if none), or NULL when @p st is NULL. */
const char *pvp_stats_name(const struct pvp_stats *st);

/** Number of ports of @p st, 0 when NULL. */
uint16_t pvp_stats_nb_ports(const struct pvp_stats *st);

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

/** Give a port a display name (e.g. "net_null0" or "vhost0"). @return 0 or -EINVAL. */
int pvp_stats_set_port_name(struct pvp_stats *st, uint16_t port, const char *name);

/** One queue's counters in a snapshot (RX or TX direction). */
struct pvp_stats_queue_snap {
	uint64_t packets; /**< packets */
	uint64_t bytes;	  /**< bytes, without FCS */
	uint64_t dropped; /**< dropped by the application */
	uint64_t errors;  /**< errors */
};

/** One chosen xstat of a port in a snapshot, baseline already subtracted. */
struct pvp_stats_xstat_snap {
	char name[PVP_STATS_XSTAT_NAME_LEN]; /**< xstat name, as the PMD spells it */
	uint64_t value;			     /**< count since bind or clear */
};

/** One port in a snapshot, baseline already subtracted. */
struct pvp_stats_port_snap {
	char name[64];			   /**< display name, may be empty */
	int32_t eth_port_id;		   /**< bound ethdev, or -1 */
	uint64_t c[PVP_STATS_NB_COUNTERS]; /**< totals: software + port's own */
	uint64_t rx_missed;		   /**< part of rx_dropped: port imissed */
	uint64_t rx_nombuf;		   /**< part of rx_dropped: no mbuf */
	uint64_t rx_sw_dropped;		   /**< part of rx_dropped: by the app */
	uint16_t nb_rxq;		   /**< RX queues in rxq[] */
	uint16_t nb_txq;		   /**< TX queues in txq[] */
	struct pvp_stats_queue_snap rxq[PVP_STATS_MAX_QUEUES]; /**< per RX queue */
	struct pvp_stats_queue_snap txq[PVP_STATS_MAX_QUEUES]; /**< per TX queue */
	uint16_t nb_xstats;				       /**< entries in xstats[] */
	/** Chosen xstats the bound ethdev has: detail, not added to c[]. */
	struct pvp_stats_xstat_snap xstats[PVP_STATS_MAX_XSTATS];
};

/** A consistent-enough reading of every port at one TSC instant. */
struct pvp_stats_snap {
	char name[64];					      /**< name of the counter set */
	uint64_t tsc;					      /**< TSC when taken */
	uint64_t hz;					      /**< TSC frequency */
	uint16_t nb_ports;				      /**< ports in port[] */
	struct pvp_stats_port_snap port[PVP_STATS_MAX_PORTS]; /**< per port */
};

/** Rates over an interval, per port. */
struct pvp_stats_port_rates {
	double rx_pps;	  /**< RX packets per second */
	double tx_pps;	  /**< TX packets per second */
	double rx_l2_bps; /**< RX bits per second counting frame + FCS */
	double tx_l2_bps; /**< TX bits per second counting frame + FCS */
	double rx_l1_bps; /**< RX bits per second also counting 20 B preamble+IFG */
	double tx_l1_bps; /**< TX bits per second also counting 20 B preamble+IFG */
};

/**
 * Take a snapshot: sums every queue block of every port, adds the bound
 * ethdev's own counters, reads its chosen xstats, subtracts the baseline. Reader side only; safe
 * while writers run. Takes a reader-side lock, never blocks writers.
 * Every counter of a later snapshot is >= the same counter of an earlier
 * one unless pvp_stats_clear() ran in between. hz is rte_get_tsc_hz(), or,
 * before rte_eal_init(), a frequency measured once (20 ms) on first use.
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
 * @p out = @p later - @p earlier, counter by counter (tsc too, hz and
 * names from @p later). A counter smaller in @p later (a clear in
 * between) gives 0, never a wrapped value. @p out may be @p later or
 * @p earlier.
 * @return 0, or -EINVAL if the snapshots do not have the same shape
 *   (ports, queues per port).
 */
int pvp_stats_diff(const struct pvp_stats_snap *later, const struct pvp_stats_snap *earlier,
		   struct pvp_stats_snap *out);

/**
 * Rates of one port of a difference snapshot (its tsc is the interval).
 * L2 counts bytes + 4 B FCS per frame, L1 adds 20 B more per frame.
 * @return 0, or -EINVAL (bad port, zero interval or hz).
 */
int pvp_stats_rates(const struct pvp_stats_snap *diff, uint16_t port,
		    struct pvp_stats_port_rates *rates);

/**
 * JSON form of a snapshot (schema in doc/stats.rst):
 * {"name","tsc","hz","ports":[{"port","name","eth_port_id", the 8
 * counters by name, "rx_missed","rx_nombuf","rx_sw_dropped",
 * "rxq":[{"packets","bytes","dropped","errors"}],"txq":[...]}]}.
 * @return a new reference, or NULL on allocation failure.
 */
json_t *pvp_stats_snap_to_json(const struct pvp_stats_snap *snap);

/**
 * Parse the JSON form back (the coordinator reads other hops with it).
 * Required: "name", "tsc", "hz", "ports", and in each port "port" (its
 * index in "ports") and the 8 counters. Optional: the port "name",
 * "eth_port_id" (default -1), "rx_missed", "rx_nombuf", "rx_sw_dropped"
 * (default 0), "rxq", "txq", "xstats" (default none). Unknown members are ignored,
 * so the stats.get answers of every app (with "streams", "traffic" …)
 * parse as they are.
 *
 * @param err
 *   Optional: on failure, a one-line message naming the bad member,
 *   e.g. "ports[1].rx_packets: expected a non-negative integer, got a string".
 * @param err_len
 *   Size of @p err.
 * @return 0, or -EINVAL (@p snap is then zeroed or partly filled).
 */
int pvp_stats_snap_from_json(const json_t *json, struct pvp_stats_snap *snap, char *err,
			     size_t err_len);

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
