/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Flow types: what the vswitch's OpenFlow rules match and what the traffic
 * source varies, from one set of bases so the two cannot drift apart.
 *
 * Flow i of N (i = 0..N-1), as in ovs_perf:
 * - "l2": destination MAC  = flow_base.l2 + i (02:00:00:00:00:00)
 * - "l3": destination IPv4 = flow_base.l3 + i (10.0.0.0)
 * - "l4": destination UDP port = flow_base.l4 + i (1024)
 * - "normal": one actions=NORMAL rule; the traffic varies the source IPv4
 *   (pvpkit-gen's --flows shortcut).
 *
 * The ovs driver installs one rule per flow and direction matching these
 * values (back from a macswap guest the l2 rules match dl_src, which then
 * holds the value sent as dl_dst); the gen driver builds a profile whose
 * variables walk exactly these values.
 */

#ifndef FLOWS_H
#define FLOWS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "coord_driver.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where flow 0 of each type starts. */
struct flows_base {
	uint64_t l2;	 /**< MAC as a number */
	uint32_t l3;	 /**< IPv4 address, host order */
	unsigned int l4; /**< UDP port */
};

/**
 * A hop's "flow_base" member: {"l2": "02:00:00:00:00:00", "l3":
 * "10.0.0.0", "l4": 1024}, each optional (those are the defaults),
 * decoded into a struct flows_base (pvp_schema_decode() of NULL
 * gives the defaults). The ovs, gen and trex hops nest it in
 * their tables, so a topology that moves the rules moves the traffic
 * with them.
 */
extern const struct pvp_schema_member flows_base_members[];

/**
 * The one check of @p flows flows of @p type from bases @p b, for the
 * vswitch's rules and the source's traffic alike: at least one flow, and
 * the varied field may not leave its range. An l2 walk may not carry out
 * of the MAC's low 32 bits, since pvpkit-gen and TRex vary a 4-byte
 * field there; rules past that would match traffic no source sends.
 * @return 0, or -ERANGE (-EINVAL for 0 flows) with @p err set.
 */
int flows_check(enum coord_flow_type type, unsigned int flows, const struct flows_base *b,
		char *err, size_t err_len);

/**
 * install_flows() of a source: keep @p rule_type in @p kept ("" for
 * "normal"), so that the next trials' traffic matches the rules a
 * vswitch hop installs in the same pass.
 * @return 0, or -EINVAL with "hop NAME: unknown flow type ..." in @p err.
 */
int flows_remember(const struct coord_hop *hop, const char *rule_type, char *kept, size_t kept_len,
		   char *err, size_t err_len);

/**
 * The pvpkit-gen profile ({"streams": [...]}, doc/profiles.rst) for
 * @p flows flows of type @p type: one stream per port in @p ports, frames
 * of @p size bytes (0: TRex IMIX), whose one variable walks the matched
 * field over base .. base + flows - 1 ("inc", step 1), so flow i of the
 * traffic is exactly rule i.
 * @return a new reference, or NULL with @p err set (unknown or "normal"
 * type, flows out of the field's range, no port).
 */
json_t *flows_profile(enum coord_flow_type type, unsigned int size, unsigned int flows,
		      const unsigned int *ports, unsigned int nb_ports, const struct flows_base *b,
		      char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* FLOWS_H */
