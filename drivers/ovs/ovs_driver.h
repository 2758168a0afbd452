/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Hop driver "ovs": Open vSwitch with DPDK.
 *
 * Ports, their OpenFlow numbers and link states come from OVSDB (RFC 7047
 * JSON-RPC spoken to ovsdb-server with jansson). Counters come, by
 * default, from OpenFlow 1.4 port stats (with OVS's custom drop
 * counters): spoken directly to RUNDIR/BRIDGE.mgmt when "rundir" is
 * given and the hop is local, else `ovs-ofctl -O OpenFlow14 dump-ports`.
 * Not from OVSDB's statistics column: ovs-vswitchd refreshes it only every
 * stats-update-interval (5 s at least), so right after a trial it still
 * holds older numbers; "stats": "ovsdb" reads it anyway. PMD context
 * comes from `ovs-appctl dpif-netdev/pmd-stats-show`; rules go in with
 * `ovs-ofctl`.
 *
 * Roles: VSWITCH | COUNTERS. clear() runs `ovs-appctl
 * dpif-netdev/pmd-stats-clear`, so the PMD statistics in context() cover
 * one trial; OVS cannot clear Interface counters, which the trial's
 * baseline snapshot covers.
 *
 * Topology members: ovs_conf_members (ovs_conf.c), their types, ranges
 * and defaults in doc/hop-members.rst. "forward": [{"in": "phy0", "out":
 * "vhost0"}, {"in": "vhost0", "out": "phy0", "swapped": ["l2"]}] are the
 * port pairs install_flows writes l2/l3/l4 rules for, each in port once;
 * "swapped" names the flow types whose value reaches that in port in the
 * source field (behind a macswap guest: l2; 5tswap: l2, l3, l4). Without
 * it the hop must have two ports, physical then virtual, and
 * "l2_reverse_match" says what the way back matches (dl_src by default).
 */

#ifndef OVS_DRIVER_H
#define OVS_DRIVER_H

#include "coord_driver.h"

/** The driver. */
extern const struct coord_driver hop_driver_ovs;

#endif /* OVS_DRIVER_H */
