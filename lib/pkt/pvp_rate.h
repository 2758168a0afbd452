/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Rate strings (pvp_rate_parse() and friends) and the frame-size
 * constants live in lib/util's pvp_util.h, so the coordinator reads
 * rates without lib/pkt and its DPDK. This header keeps the old include
 * working for lib/pkt's users.
 */

#ifndef PVP_RATE_H
#define PVP_RATE_H

#include "pvp_util.h"

#endif /* PVP_RATE_H */
