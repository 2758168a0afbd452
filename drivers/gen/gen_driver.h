/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Hop driver "gen": pvpkit-gen as a measured hop and the trial's traffic
 * source. Topology members: "ctl" (control address), optional
 * "token_file" (required by the app off loopback), "timeout_ms",
 * "ports" ("pN" = the generator's port N, or its port display name).
 */

#ifndef COORD_GEN_DRIVER_H
#define COORD_GEN_DRIVER_H

#include "coord_driver.h"

/** The driver. */
extern const struct coord_driver coord_driver_gen;

#endif /* COORD_GEN_DRIVER_H */
