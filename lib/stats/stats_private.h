/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Internals of lib/stats shared by its source files. Never installed.
 */

#ifndef PVP_STATS_PRIVATE_H
#define PVP_STATS_PRIVATE_H

#include <pthread.h>
#include <stdint.h>

#include <rte_log.h>

#include "pvp_stats.h"

extern int pvp_stats_logtype;

#define STATS_LOG(level, fmt, ...)                                                                 \
	rte_log(RTE_LOG_##level, pvp_stats_logtype, "pvp.stats: " fmt "\n", ##__VA_ARGS__)

/*
 * Raw (never baseline-subtracted) reading of one port: the software
 * queue sums and what the bound ethdev counts itself. The baseline is
 * one of these per port, so clear() covers the ethdev counters too.
 */
struct stats_raw_port {
	/* Software counters of each RX queue. */
	struct pvp_stats_queue_snap rxq[PVP_STATS_MAX_QUEUES];
	/* Software counters of each TX queue. */
	struct pvp_stats_queue_snap txq[PVP_STATS_MAX_QUEUES];
	/* What the bound ethdev counts itself: these of its rte_eth_stats. */
	struct {
		uint64_t imissed;
		uint64_t rx_nombuf;
		uint64_t ierrors;
		uint64_t oerrors;
	} eth;
	/* Chosen xstats, in stats_port_meta::xstat_ids order. */
	uint64_t xstats[PVP_STATS_MAX_XSTATS];
};

/* Reader-side description of one port. */
struct stats_port_meta {
	char name[64];	     /* display name, may be empty */
	int32_t eth_port_id; /* bound ethdev, or -1 */
	/* Chosen xstats the bound ethdev has, resolved once at bind. */
	uint16_t nb_xstats;
	uint64_t xstat_ids[PVP_STATS_MAX_XSTATS];
	char xstat_names[PVP_STATS_MAX_XSTATS][PVP_STATS_XSTAT_NAME_LEN];
};

struct pvp_stats {
	char name[64];	   /* name shown in JSON and telemetry */
	uint16_t nb_ports; /* ports in use */
	uint16_t nb_rxq;   /* RX queues per port */
	uint16_t nb_txq;   /* TX queues per port */
	/*
	 * Writer blocks, port-major: block (p, q) is [p * nb_rxq + q]. Each
	 * is one cache line so two lcores never share a line. Only the
	 * owning lcore writes them; this library only reads them.
	 */
	struct pvp_stats_rxq *rxq;
	struct pvp_stats_txq *txq;
	/* Everything below is reader side, under 'lock'. */
	pthread_mutex_t lock;
	struct stats_port_meta meta[PVP_STATS_MAX_PORTS];
	/* xstat names to look up at bind (pvp_stats_set_xstats()). */
	unsigned int nb_xstat_sel;
	char xstat_sel[PVP_STATS_MAX_XSTATS][PVP_STATS_XSTAT_NAME_LEN];
	/* Last ethdev reading that succeeded, reused while a port is closed. */
	struct stats_raw_port *last;
	/* Raw values at the last clear; subtracted from every snapshot. */
	struct stats_raw_port *base;
};

/* Stop exporting 'st' through telemetry if it is the exported set. */
void pvp_stats_telemetry_forget(const struct pvp_stats *st);

#endif /* PVP_STATS_PRIVATE_H */
