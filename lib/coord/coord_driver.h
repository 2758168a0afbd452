/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Coordinator hop drivers: one struct of documented callbacks per kind of
 * hop, like Open vSwitch's struct netdev_class. A NULL callback means
 * "not supported by this kind of hop".
 *
 * The coordinator never trusts a hop to clear its counters: a trial takes
 * one snapshot of every hop before traffic and one after, and works on
 * the difference (drivers may still implement clear for hops that can).
 */

#ifndef COORD_DRIVER_H
#define COORD_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most ports a hop reports. */
#define COORD_MAX_PORTS 16
/** Most named drop reasons per port. */
#define COORD_MAX_REASONS 8

/** A named drop counter (e.g. "ovs_tx_failure_drops", "rx_missed"). */
struct coord_reason {
	char name[48];	/**< reason, as the hop names it */
	uint64_t value; /**< packets */
};

/** The DESIGN.md counters of one port of a hop. */
struct coord_port {
	char name[64];	     /**< port name as in the topology file */
	uint64_t rx_packets; /**< packets received */
	uint64_t rx_bytes;   /**< bytes received */
	uint64_t tx_packets; /**< packets sent */
	uint64_t tx_bytes;   /**< bytes sent */
	uint64_t rx_dropped; /**< dropped on receive (missed + no-mbuf + policing ...) */
	uint64_t tx_dropped; /**< dropped on send (queue full ...) */
	uint64_t rx_errors;  /**< receive errors */
	uint64_t tx_errors;  /**< send errors */
	/**
	 * tx_dropped are packets the next hop refused: the TX ring is the
	 * peer's RX ring (virtio-user, memif) and the sender gave them up
	 * (pvpkit-gen --tx-full drop). They count as sent at this point and
	 * as the next hop's loss on receive ("rx_ring_full"), as rx_missed
	 * would on a NIC.
	 */
	bool tx_refused_by_peer;
	unsigned int nb_reasons;			/**< entries in reasons[] */
	struct coord_reason reasons[COORD_MAX_REASONS]; /**< drops by reason */
};

/** One reading of every port of a hop. */
struct coord_snap {
	uint64_t t_ns;				 /**< CLOCK_MONOTONIC when read */
	unsigned int nb_ports;			 /**< entries in port[] */
	struct coord_port port[COORD_MAX_PORTS]; /**< per port, topology order */
};

/** What a traffic source is asked to send (gen and similar drivers). */
struct coord_traffic {
	double rate_pps;       /**< packets per second per TX port; 0 = max */
	double duration_s;     /**< seconds */
	unsigned int size;     /**< frame size with FCS (64..9216) */
	unsigned int flows;    /**< flow count */
	const char *profile;   /**< profile file instead of size/flows, or NULL */
	const char *rate;      /**< rate as the user wrote it ("1Mpps", "10%",
			       *   "5Gbps", "max"), given to the source as is;
			       *   NULL: use rate_pps */
	const char *flow_type; /**< rules the traffic must match (coord_flows.h):
				 *   "l2", "l3", "l4" vary the destination MAC,
				 *   IPv4 or UDP port like the vswitch's rules;
				 *   "normal" the source IPv4; NULL: the type
				 *   the source's install_flows was last given,
				 *   else "normal". Ignored with a profile. */
};

/** What a traffic source measured (only sources fill it). */
struct coord_traffic_result {
	double requested_pps;	/**< rate asked for, all TX ports */
	double achieved_pps;	/**< rate achieved, all TX ports */
	bool generator_limited; /**< could not send what was asked */
	json_t *streams;	/**< per-stream loss/latency from the source, or NULL */
};

struct coord_hop;

/** A kind of hop. */
struct coord_driver {
	/** Driver name used in topology files: "gen", "fwd", "ovs", ... */
	const char *name;

	/**
	 * Connect to the hop described by @p conf (the hop's object in the
	 * topology file) and store private state in hop->priv.
	 * @return 0, or -errno with @p err set to one line.
	 */
	int (*open)(struct coord_hop *hop, const json_t *conf, char *err, size_t err_len);

	/** Disconnect and free hop->priv. */
	void (*close)(struct coord_hop *hop);

	/**
	 * Read every port's counters into @p snap, in the order of the hop's
	 * ports in the topology. The values must be live (read at the call),
	 * never a cached copy: the trial polls snapshots until they stop
	 * changing, so a copy refreshed every few seconds (OVSDB Interface
	 * statistics: every 5 s) looks quiet at once and gives a wrong table.
	 * Drop reasons whose name contains "rx" are shown at rx points,
	 * "tx" at tx points, others at both.
	 * @return 0, or -errno with @p err set (an unreachable hop returns
	 * -ENOTCONN or -ETIMEDOUT and says "hop <name> unreachable: ...").
	 */
	int (*snapshot)(struct coord_hop *hop, struct coord_snap *snap, char *err, size_t err_len);

	/** Clear the hop's counters if it can. */
	int (*clear)(struct coord_hop *hop, char *err, size_t err_len);

	/** Start sending (traffic sources only). */
	int (*traffic_start)(struct coord_hop *hop, const struct coord_traffic *t, char *err,
			     size_t err_len);

	/** Stop sending and fill @p res (traffic sources only). */
	int (*traffic_stop)(struct coord_hop *hop, struct coord_traffic_result *res, char *err,
			    size_t err_len);

	/**
	 * Install forwarding rules for @p flows flows of kind @p rule_type
	 * ("normal", "l2", "l3", "l4") and check they are in place
	 * (vswitch drivers). A traffic source that implements it only
	 * remembers @p rule_type, so that its traffic matches the rules
	 * when coord_traffic::flow_type is NULL.
	 */
	int (*install_flows)(struct coord_hop *hop, const char *rule_type, unsigned int flows,
			     char *err, size_t err_len);

	/** Extra context for reports (e.g. PMD stats) as JSON, or NULL. */
	json_t *(*context)(struct coord_hop *hop);

	/**
	 * Read the source's final measurement into @p res once every hop's
	 * counters are quiet (per-stream counts are complete only then).
	 * Optional: without it, what traffic_stop filled is used. The
	 * caller owns res->streams afterwards (json_decref).
	 */
	int (*traffic_result)(struct coord_hop *hop, struct coord_traffic_result *res, char *err,
			      size_t err_len);
};

/** One hop of a topology. */
struct coord_hop {
	char name[64];			   /**< hop name from the topology */
	const struct coord_driver *driver; /**< its kind */
	void *priv;			   /**< driver state */
};

/** Drivers known to the coordinator, NULL-terminated. */
extern const struct coord_driver *const coord_drivers[];

/** Find a driver by name. @return it, or NULL. */
const struct coord_driver *coord_driver_find(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* COORD_DRIVER_H */
