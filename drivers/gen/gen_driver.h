/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Hop driver "gen": pvpkit-gen as a measured hop and the trial's traffic
 * source. Topology members: gen_conf (COORD_CTL_HOP_MEMBERS and
 * "flow_base"), in doc/hop-members.rst; "token_file" is required by the
 * app off loopback.
 */

#ifndef COORD_GEN_DRIVER_H
#define COORD_GEN_DRIVER_H

#include "coord_driver.h"

/** The driver. */
extern const struct coord_driver coord_driver_gen;

#endif /* COORD_GEN_DRIVER_H */
