/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Hop driver "telemetry": any DPDK application (dpdk-testpmd as the guest
 * or as the vswitch) read through its DPDK telemetry socket, so users can
 * keep testpmd and still get per-hop numbers. No EAL in the coordinator:
 * the driver speaks the telemetry v2 protocol (SOCK_SEQPACKET, a greeting
 * JSON, then one JSON reply per command) itself. Topology files may still
 * name it "testpmd", its first name (drivers/registry.c keeps the alias).
 *
 * Topology members: tp_conf (doc/hop-members.rst). "telemetry" names the
 * socket, or "file_prefix" the app's --file-prefix (the socket is then
 * looked for in /var/run/dpdk/PREFIX, or $XDG_RUNTIME_DIR/dpdk/PREFIX
 * when not root).
 *
 * Counters: ipackets/ibytes/opackets/obytes -> rx/tx packets/bytes,
 * imissed + rx_nombuf -> rx_dropped, ierrors -> rx_errors, oerrors ->
 * tx_errors. ethdev has no TX drop counter: what testpmd itself frees
 * when a TX ring is full is not visible here (it shows as loss between
 * this hop's rx and tx points).
 */

#ifndef TELEMETRY_DRIVER_H
#define TELEMETRY_DRIVER_H

#include "coord_driver.h"

/** The driver. */
extern const struct coord_driver hop_driver_telemetry;

#endif /* TELEMETRY_DRIVER_H */
