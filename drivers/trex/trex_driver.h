/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Hop driver "trex": a TRex server (real TRex in stateless mode, or
 * pvpkit-gen --trex) as the trial's traffic source and a hop with
 * per-port counters, over TRex's RPC (ZeroMQ REQ, compressed JSON-RPC).
 * Topology members (doc/trex.rst):
 *
 * - "ports": TRex port ids, "0" or "p0" ..., topology order (required);
 * - "server": host name or address (default "127.0.0.1");
 * - "sync_port": TRex's RPC port (default 4501);
 * - "timeout_ms": bound on every request (default 3000, TRex's client's);
 * - "user": owner name the ports are acquired as (default "pvpkit");
 * - "force": take ports another user holds (default false);
 * - "src_mac", "dst_mac": the frames' MACs (default 02:00:00:00:00:01 and
 *   02:00:00:00:00:02, pvpkit-gen's);
 * - "flow_stats": "stats" (default), "latency" or "off": the per-stream
 *   counts (pgids) asked of TRex;
 * - "pgid_base": first pgid used (default 1000);
 * - "backstop_s": TRex stops by itself this long after a trial's end if
 *   the coordinator has not stopped it (default 10);
 * - "flow_base": where l2/l3/l4 flows start, as the ovs hop's.
 *
 * Any other member is refused.
 */

#ifndef COORD_TREX_DRIVER_H
#define COORD_TREX_DRIVER_H

#include "coord_driver.h"

/** The driver. */
extern const struct coord_driver coord_driver_trex;

#endif /* COORD_TREX_DRIVER_H */
