/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Hop driver "trex": a TRex server (real TRex in stateless mode, or
 * pvpkit-gen --trex) as the trial's traffic source and a hop with
 * per-port counters, over TRex's RPC (ZeroMQ REQ, compressed JSON-RPC).
 * Topology members: trex_conf_members (trex_conf.c), their types,
 * ranges and defaults in doc/hop-members.rst, what they do in
 * doc/trex.rst. Any other member is refused.
 */

#ifndef TREX_DRIVER_H
#define TREX_DRIVER_H

#include "coord_driver.h"

/** The driver. */
extern const struct coord_driver hop_driver_trex;

#endif /* TREX_DRIVER_H */
