/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Export of one counter set through DPDK telemetry, so that
 * dpdk-telemetry.py (or any client of the telemetry socket) can read a
 * running application without the control channel.
 *
 * DPDK 22.11 telemetry nests containers one level deep only, so the
 * commands return flat dictionaries of counters with one level of
 * per-port or per-queue dictionaries inside.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_string_fns.h>
#include <rte_telemetry.h>

#include "pvp_stats.h"
#include "pvp_util.h"
#include "stats_private.h"

#ifndef PVP_VERSION
#define PVP_VERSION "unknown"
#endif

/*
 * The exported set. The handlers run on the telemetry thread, so the
 * pointer is only used under this lock, and destroy() clears it under
 * the same lock before freeing.
 */
static pthread_mutex_t stats_tel_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pvp_stats *stats_tel_set;
static bool stats_tel_registered;

/* Port @p port of a snapshot into dictionary @p d: its index, names and counters. */
static void
stats_tel_port_counters(struct rte_tel_data *d, const struct pvp_stats_port_snap *ps, uint16_t port)
{
	unsigned int i;

	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "port", port);
	rte_tel_data_add_dict_string(d, "name", ps->name);
	rte_tel_data_add_dict_int(d, "eth_port_id", ps->eth_port_id);
	for (i = 0; i < PVP_STATS_NB_COUNTERS; i++)
		rte_tel_data_add_dict_u64(d, pvp_stats_counter_names[i], ps->c[i]);
	rte_tel_data_add_dict_u64(d, "rx_missed", ps->rx_missed);
	rte_tel_data_add_dict_u64(d, "rx_nombuf", ps->rx_nombuf);
	rte_tel_data_add_dict_u64(d, "rx_sw_dropped", ps->rx_sw_dropped);
}

/*
 * Snapshot the exported set into a heap buffer (a snapshot is ~40 KiB:
 * too big for the telemetry thread's stack). NULL with *rc set when
 * nothing is exported or memory is short.
 */
static struct pvp_stats_snap *
stats_tel_snapshot(int *rc)
{
	struct pvp_stats_snap *snap = malloc(sizeof(*snap));

	if (snap == NULL) {
		*rc = -ENOMEM;
		return NULL;
	}
	pthread_mutex_lock(&stats_tel_lock);
	*rc = stats_tel_set == NULL ? -ENODEV : pvp_stats_snapshot(stats_tel_set, snap);
	pthread_mutex_unlock(&stats_tel_lock);
	if (*rc < 0) {
		free(snap);
		return NULL;
	}
	return snap;
}

/*
 * /pvpkit/stats: {"name", "tsc", "hz", "nb_ports", "<port name or
 * port<N>>": {counters}, ...}.
 */
static int
stats_tel_all(const char *cmd __rte_unused, const char *params __rte_unused, struct rte_tel_data *d)
{
	struct pvp_stats_snap *snap;
	uint16_t p;
	int rc;

	snap = stats_tel_snapshot(&rc);
	if (snap == NULL)
		return rc;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", snap->name);
	rte_tel_data_add_dict_u64(d, "tsc", snap->tsc);
	rte_tel_data_add_dict_u64(d, "hz", snap->hz);
	rte_tel_data_add_dict_u64(d, "nb_ports", snap->nb_ports);
	for (p = 0; p < snap->nb_ports; p++) {
		struct rte_tel_data *pd = rte_tel_data_alloc();
		char key[16];

		if (pd == NULL) {
			free(snap);
			return -ENOMEM;
		}
		/*
		 * Keyed by index, not by name: names may repeat or be
		 * empty, indexes are what /pvpkit/stats/port takes.
		 */
		snprintf(key, sizeof(key), "port%u", p);
		stats_tel_port_counters(pd, &snap->port[p], p);
		rte_tel_data_add_dict_container(d, key, pd, 0);
	}
	free(snap);
	return 0;
}

/* Each queue's counters as a nested dictionary named @p dir and its number. */
static int
stats_tel_queues(struct rte_tel_data *d, const char *dir, const struct pvp_stats_queue_snap *qs,
		 uint16_t nb)
{
	struct rte_tel_data *qd;
	char key[16];
	uint16_t q;
	int rc = 0;

	for (q = 0; q < nb && rc == 0; q++) {
		qd = rte_tel_data_alloc();
		if (qd == NULL)
			return -ENOMEM;
		snprintf(key, sizeof(key), "%s%u", dir, q);
		rte_tel_data_start_dict(qd);
		rte_tel_data_add_dict_u64(qd, "packets", qs[q].packets);
		rte_tel_data_add_dict_u64(qd, "bytes", qs[q].bytes);
		rte_tel_data_add_dict_u64(qd, "dropped", qs[q].dropped);
		rte_tel_data_add_dict_u64(qd, "errors", qs[q].errors);
		rc = rte_tel_data_add_dict_container(d, key, qd, 0);
	}
	return rc;
}

/*
 * /pvpkit/stats/port,<n>: {"port", "name", "eth_port_id", counters...,
 * "rxq0": {packets, bytes, dropped, errors}, ..., "txq0": {...}, ...}.
 */
static int
stats_tel_port(const char *cmd __rte_unused, const char *params, struct rte_tel_data *d)
{
	const struct pvp_stats_port_snap *ps;
	struct pvp_stats_snap *snap;
	uint32_t port;
	int rc;

	if (params == NULL || pvp_parse_u32(NULL, params, 0, UINT16_MAX, &port, NULL, 0) != 0)
		return -EINVAL;
	snap = stats_tel_snapshot(&rc);
	if (snap == NULL)
		return rc;
	if (port >= snap->nb_ports) {
		free(snap);
		return -EINVAL;
	}
	ps = &snap->port[port];
	stats_tel_port_counters(d, ps, (uint16_t)port);
	rc = stats_tel_queues(d, "rxq", ps->rxq, ps->nb_rxq);
	if (rc == 0)
		rc = stats_tel_queues(d, "txq", ps->txq, ps->nb_txq);
	free(snap);
	return rc;
}

/* /pvpkit/info: what is exported and by whom. */
static int
stats_tel_info(const char *cmd __rte_unused, const char *params __rte_unused,
	       struct rte_tel_data *d)
{
	int rc = 0;

	pthread_mutex_lock(&stats_tel_lock);
	if (stats_tel_set == NULL) {
		rc = -ENODEV;
	} else {
		rte_tel_data_start_dict(d);
		rte_tel_data_add_dict_string(d, "name", stats_tel_set->name);
		rte_tel_data_add_dict_string(d, "version", PVP_VERSION);
		rte_tel_data_add_dict_int(d, "pid", (int)getpid());
		rte_tel_data_add_dict_u64(d, "hz", pvp_stats_tsc_hz());
		rte_tel_data_add_dict_int(d, "nb_ports", stats_tel_set->nb_ports);
		rte_tel_data_add_dict_int(d, "nb_rxq", stats_tel_set->nb_rxq);
		rte_tel_data_add_dict_int(d, "nb_txq", stats_tel_set->nb_txq);
	}
	pthread_mutex_unlock(&stats_tel_lock);
	return rc;
}

int
pvp_stats_telemetry_register(struct pvp_stats *st)
{
	int rc = 0;

	if (st == NULL)
		return -EINVAL;
	pthread_mutex_lock(&stats_tel_lock);
	/* Telemetry has no unregister: register once, then swap the set. */
	if (!stats_tel_registered) {
		rc = rte_telemetry_register_cmd("/pvpkit/stats", stats_tel_all,
						"Counters of every port. No parameters");
		if (rc == 0)
			rc = rte_telemetry_register_cmd(
				"/pvpkit/stats/port", stats_tel_port,
				"Counters of one port, with its queues. Parameter: port index");
		if (rc == 0)
			rc = rte_telemetry_register_cmd(
				"/pvpkit/info", stats_tel_info,
				"Name, version and shape of the exported counters. No parameters");
		if (rc == 0)
			stats_tel_registered = true;
		else
			STATS_LOG(ERR, "cannot register telemetry commands: %s", strerror(-rc));
	}
	if (rc == 0)
		stats_tel_set = st;
	pthread_mutex_unlock(&stats_tel_lock);
	return rc;
}

void
pvp_stats_telemetry_forget(const struct pvp_stats *st)
{
	pthread_mutex_lock(&stats_tel_lock);
	if (stats_tel_set == st)
		stats_tel_set = NULL;
	pthread_mutex_unlock(&stats_tel_lock);
}
