/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Hop driver "gen": pvpkit-gen as a measured hop and the trial's traffic
 * source. Topology members: gen_conf (CTL_HOP_MEMBERS and
 * "flow_base"), in doc/hop-members.rst; "token_file" is required by the
 * app off loopback.
 */

#ifndef GEN_DRIVER_H
#define GEN_DRIVER_H

#include "coord_driver.h"

/** The driver. */
extern const struct coord_driver hop_driver_gen;

#endif /* GEN_DRIVER_H */
