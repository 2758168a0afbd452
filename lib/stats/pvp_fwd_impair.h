/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * pvpkit-fwd's impairment stage as it crosses the control channel: the
 * settings of one direction (--impair, impair.set, impair.get) and the
 * counters of its stats.get answer ("impair"), each described once as a
 * lib/util schema table, so the forwarder that writes them, the driver
 * that reads them and doc/fwd.rst cannot say different things. No DPDK:
 * the coordinator links it too.
 */

#ifndef PVP_FWD_IMPAIR_H
#define PVP_FWD_IMPAIR_H

#include <stdint.h>

#include "pvp_schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Control methods of pvpkit-fwd's impairment stage. */
#define PVP_FWD_M_IMPAIR_SET "impair.set"
#define PVP_FWD_M_IMPAIR_GET "impair.get"
/** Member of pvpkit-fwd's stats.get answer: one object per RX port. */
#define PVP_FWD_K_IMPAIR "impair"

/** Longest fixed delay, microseconds (one second). */
#define PVP_IMPAIR_MAX_DELAY_US 1000000

/**
 * Settings of one direction: the packets received on one port. A
 * probability is a fraction (0.001 is 0.1 %); 0 turns its impairment off.
 */
struct pvp_impair_conf {
	int32_t port;	   /**< RX port index it applies to, -1: every port */
	uint32_t delay_us; /**< fixed delay added to every packet */
	double loss;	   /**< loss probability (Gilbert-Elliott: in the good state) */
	double ge_p;	   /**< Gilbert-Elliott: good -> bad, per packet; 0 = Bernoulli */
	double ge_r;	   /**< Gilbert-Elliott: bad -> good, per packet */
	double ge_loss;	   /**< Gilbert-Elliott: loss probability in the bad state */
	double dup;	   /**< probability a packet is sent twice */
	double reorder;	   /**< probability a packet is sent after the next one */
	uint64_t rate_pps; /**< rate cap (token bucket), 0 = none */
	uint32_t burst;	   /**< token bucket depth, packets */
	uint64_t seed;	   /**< seed of the direction's random numbers */
};

/** The settings' schema (impair.set's parameters, --impair's keys). */
extern const struct pvp_schema_member pvp_impair_conf_members[];

/** What the stage did to one direction, since the start or stats.clear. */
struct pvp_impair_counters {
	uint32_t port;		   /**< RX port index */
	uint64_t loss_dropped;	   /**< dropped by the loss model */
	uint64_t rate_dropped;	   /**< dropped by the rate cap */
	uint64_t overflow_dropped; /**< dropped: the delay ring was full */
	uint64_t duplicated;	   /**< extra copies sent */
	uint64_t reordered;	   /**< packets sent after the packet that followed them */
	uint64_t delayed;	   /**< packets that went through the delay ring */
	uint64_t held;		   /**< packets held right now (delay ring, reorder) */
};

/** The schema of one item of stats.get's "impair" list. */
extern const struct pvp_schema_member pvp_impair_counter_members[];

/**
 * Packets the stage dropped on purpose (loss, rate cap, full ring): part of
 * the port's rx_dropped (rx_sw_dropped), which pvpkit-fwd also counts them in.
 */
static inline uint64_t
pvp_impair_dropped(const struct pvp_impair_counters *c)
{
	return c->loss_dropped + c->rate_dropped + c->overflow_dropped;
}

#ifdef __cplusplus
}
#endif

#endif /* PVP_FWD_IMPAIR_H */
