/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Flow types: what the vswitch's OpenFlow rules match and what the traffic
 * source varies, from one set of bases so the two cannot drift apart.
 *
 * Flow i of N (i = 0..N-1), as in ovs_perf:
 * - "l2": destination MAC  = COORD_FLOW_BASE_L2 + i
 * - "l3": destination IPv4 = COORD_FLOW_BASE_L3 + i
 * - "l4": destination UDP port = COORD_FLOW_BASE_L4 + i
 * - "normal": one actions=NORMAL rule; the traffic varies the source IPv4
 *   (pvpkit-gen's --flows shortcut).
 *
 * The ovs driver installs one rule per flow and direction matching these
 * values (back from a macswap guest the l2 rules match dl_src, which then
 * holds the value sent as dl_dst); the gen driver builds a profile whose
 * variables walk exactly these values.
 */

#ifndef COORD_FLOWS_H
#define COORD_FLOWS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/** First destination MAC of "l2" flows: 02:00:00:00:00:00. */
#define COORD_FLOW_BASE_L2 0x020000000000ull
/** First destination IPv4 address of "l3" flows: 10.0.0.0. */
#define COORD_FLOW_BASE_L3 0x0a000000u
/** First destination UDP port of "l4" flows. */
#define COORD_FLOW_BASE_L4 1024u

/** Where flow 0 of each type starts. */
struct coord_flow_base {
	uint64_t l2;	 /**< MAC as a number */
	uint32_t l3;	 /**< IPv4 address, host order */
	unsigned int l4; /**< UDP port */
};

/** Fill @p b with the COORD_FLOW_BASE_* defaults. */
void coord_flow_base_default(struct coord_flow_base *b);

/**
 * Whether @p type is a known flow type.
 * @return 1 for "l2", "l3", "l4" (rules that match a varied field),
 * 0 for "normal", -EINVAL otherwise.
 */
int coord_flow_type_matched(const char *type);

/**
 * The pvpkit-gen profile ({"streams": [...]}, doc/profiles.rst) for
 * @p flows flows of type @p type: one stream per port in @p ports, frames
 * of @p size bytes (0: TRex IMIX), whose one variable walks the matched
 * field over base .. base + flows - 1 ("inc", step 1), so flow i of the
 * traffic is exactly rule i.
 * @return a new reference, or NULL with @p err set (unknown or "normal"
 * type, flows out of the field's range, no port).
 */
json_t *coord_flows_profile(const char *type, unsigned int size, unsigned int flows,
			    const unsigned int *ports, unsigned int nb_ports,
			    const struct coord_flow_base *b, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* COORD_FLOWS_H */
