/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * The hop drivers app/pvpkit knows, by the name a topology file gives
 * them. The table lives here, beside the drivers, and not in lib/coord:
 * the core only knows the contract (coord_driver.h) and takes a lookup
 * function (coord_driver_lookup_t), so its tests run with mock drivers
 * and without linking any real one.
 */

#ifndef HOP_REGISTRY_H
#define HOP_REGISTRY_H

#include "coord_driver.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Drivers known to the coordinator, NULL-terminated. */
extern const struct coord_driver *const hop_drivers[];

/**
 * Find a driver by the name a topology gives it (a coord_driver_lookup_t).
 *
 * @return the driver, or NULL when none has that name.
 */
const struct coord_driver *hop_driver_find(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* HOP_REGISTRY_H */
