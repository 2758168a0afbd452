/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Hop driver "fwd": pvpkit-fwd (the guest loopback, or the stand-in
 * vswitch). Topology members: CTL_HOP_MEMBERS, in
 * doc/hop-members.rst.
 *
 * Roles: COUNTERS. clear() is stats.clear: the app restarts its port
 * counters (a reader-side baseline).
 */

#ifndef FWD_DRIVER_H
#define FWD_DRIVER_H

#include "coord_driver.h"

/** The driver. */
extern const struct coord_driver hop_driver_fwd;

#endif /* FWD_DRIVER_H */
