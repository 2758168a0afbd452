/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The impairment stage of pvpkit-fwd (--mode impair, --impair): between
 * an engine's rewrite and the TX burst, per stream, in this order: the
 * rate cap (token bucket), the loss model (Bernoulli or Gilbert-Elliott),
 * duplication, reordering (a packet held and sent after the next one) and
 * the fixed delay (a FIFO of packets with the TSC they are due at, since
 * one delay per direction keeps due times in order). Random numbers come
 * from one splitmix64 sequence per stream, seeded from the settings, so a
 * run of the same packets gives the same drops, copies and swaps.
 *
 * Settings change at run time (impair.set) through a sequence count: the
 * control thread writes the pending settings between two increments, the
 * lcore copies them when the count is even and unchanged across the copy.
 */

#ifndef FWD_IMPAIR_H
#define FWD_IMPAIR_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>

#include <jansson.h>

#include "pvp_fwd_impair.h"

struct fwd_stream;
struct fwd_lcore;
struct fwd_app;
struct fwd_conf;

/** Default of --impair-ring: packets one stream can hold delayed. */
#define FWD_IMPAIR_RING_DEFAULT 16384
/** A packet held for reordering that no packet followed within this is sent. */
#define FWD_IMPAIR_REORDER_US 10000

/** One delayed packet and the TSC it is due at. */
struct fwd_impair_slot {
	struct rte_mbuf *m; /**< the packet */
	uint64_t due;	    /**< rte_rdtsc() value it may leave at */
};

/** The stage of one stream: settings in effect, state, counters. */
struct fwd_impair {
	/* Settings in effect, in the lcore's units. */
	uint64_t delay_cyc;    /**< delay in TSC cycles */
	uint64_t loss_thr;     /**< drop when 53 random bits < this */
	uint64_t ge_p_thr;     /**< good -> bad threshold, 0: Bernoulli */
	uint64_t ge_r_thr;     /**< bad -> good threshold */
	uint64_t ge_loss_thr;  /**< loss threshold in the bad state */
	uint64_t dup_thr;      /**< duplication threshold */
	uint64_t reorder_thr;  /**< reordering threshold */
	double tokens_per_cyc; /**< rate cap per TSC cycle, 0: none */
	double depth;	       /**< token bucket depth, packets */
	/* State. */
	double tokens;		      /**< tokens in the bucket */
	uint64_t last_tsc;	      /**< when the bucket was last filled */
	uint64_t rng;		      /**< splitmix64 state */
	bool ge_bad;		      /**< Gilbert-Elliott: in the bad state */
	struct rte_mbuf *held;	      /**< packet waiting for reordering, or NULL */
	uint64_t held_tsc;	      /**< when it was held */
	uint32_t mask;		      /**< ring size - 1 */
	uint32_t head;		      /**< next slot to send */
	uint32_t tail;		      /**< next slot to fill */
	struct fwd_impair_slot *ring; /**< the delay FIFO */
	uint32_t seen;		      /**< sequence count last applied */
	uint64_t mix;		      /**< the stream's part of its seed */
	uint64_t reorder_cyc;	      /**< FWD_IMPAIR_REORDER_US in TSC cycles */
	/* Counters: written by the lcore only, read by the control thread. */
	struct pvp_impair_counters c; /**< since the start */
	/* Written by the control thread (fwd_impair_set()). */
	uint32_t seq __rte_cache_aligned; /**< odd while pending is written */
	struct pvp_impair_conf pending;	  /**< the settings to apply */
	struct pvp_impair_conf cur;	  /**< the settings last set, for impair.get */
} __rte_cache_aligned;

/**
 * Impair, then send (or hold) the @p n packets of @p fs; the engines'
 * fwd_tx_burst() calls it when the stream has a stage.
 */
void fwd_impair_burst(struct fwd_stream *fs, struct rte_mbuf **pkts, uint16_t n);

/**
 * Send what is due on the streams of @p lc: delayed packets, a packet held
 * for reordering too long, new settings. Called every loop of the lcore.
 * @p due: set to the TSC the first packet still held is due at, or
 * UINT64_MAX when none is held: an idle lcore sleeps no longer than that.
 * @return packets sent.
 */
uint32_t fwd_impair_poll(struct fwd_lcore *lc, uint64_t *due);

/**
 * With conf->impair_on, give every stream of @p app a stage with the
 * settings of conf->impair (allocated on the lcore's socket).
 * @return 0, or -EINVAL (an --impair port=N beyond the ports) or -ENOMEM,
 *   with one line in @p err.
 */
int fwd_impair_setup(struct fwd_app *app, char *err, size_t err_len);

/** Free the stages and the packets they still hold. */
void fwd_impair_free(struct fwd_app *app);

/**
 * Parse one --impair SPEC ("key=value,...", the keys of
 * pvp_impair_conf_members, probabilities also as "0.1%") into @p out.
 * @return 0 or -EINVAL with one line in @p err.
 */
int fwd_impair_parse(const char *spec, struct pvp_impair_conf *out, char *err, size_t err_len);

/**
 * impair.set: hand settings to the lcores of the streams they name.
 * @return 0 or -EINVAL (a port the forwarder does not have) with @p err.
 */
int fwd_impair_set(struct fwd_app *app, const struct pvp_impair_conf *c, char *err, size_t err_len);

/**
 * The counters of every RX port (streams summed), minus the baseline
 * stats.clear took: stats.get's "impair" list; with @p settings each
 * port's settings, its counters in their "counters" (impair.get).
 * NULL when out of memory.
 */
json_t *fwd_impair_json(const struct fwd_app *app, bool settings);

/** stats.clear: take the baseline the counters are reported from. */
void fwd_impair_clear(const struct fwd_app *app);

/** Totals at exit: one "total impair port N: ..." line per port. */
void fwd_impair_print(const struct fwd_app *app);

#endif /* FWD_IMPAIR_H */
