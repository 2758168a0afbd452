/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Hop driver "wire": a cable (or a virtual link) between two tester
 * ports, for calibrating the generator alone. Roles: PASSIVE only. It
 * has no counters of its own, so it never appears as a chain point: the
 * chain goes tester TX → tester RX and whatever is lost between them is
 * the link's, shown as unattributed. Nothing to clear. Topology members:
 * optional "ports" and "links" (documentation: [["tester:p0",
 * "tester:p1"]]).
 */

#ifndef WIRE_DRIVER_H
#define WIRE_DRIVER_H

#include "coord_driver.h"

/** The driver. */
extern const struct coord_driver hop_driver_wire;

#endif /* WIRE_DRIVER_H */
