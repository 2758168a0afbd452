/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * pvpkit counter snapshots and their JSON form, without DPDK.
 *
 * A snapshot is what one hop reports: per port the 8 counters of the
 * counter contract (doc/stats.rst), their detail and per-queue sums. The
 * apps take snapshots with pvp_stats.h (which includes this header and
 * needs DPDK); the coordinator only reads them back from JSON, so it
 * links this part alone (pvp_stats_json_dep) and needs no DPDK.
 *
 * Bytes are counted without the 4 B FCS, as DPDK ports and mbufs do;
 * the L2 and L1 rates add it back per frame.
 */

#ifndef PVP_STATS_JSON_H
#define PVP_STATS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
 * The port counters every hop reports (doc/stats.rst), as an X-macro
 * list so the enum, the names, the JSON members and the coordinator's
 * per-port counters stay in step.
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

#ifdef __cplusplus
}
#endif

#endif /* PVP_STATS_JSON_H */
