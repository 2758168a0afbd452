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

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "coord_driver.h"

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
static inline void
coord_flow_base_default(struct coord_flow_base *b)
{
	b->l2 = COORD_FLOW_BASE_L2;
	b->l3 = COORD_FLOW_BASE_L3;
	b->l4 = COORD_FLOW_BASE_L4;
}

/** "flow_base" in a topology file, checked when the file is loaded. */
static const struct coord_conf_member coord_flow_base_conf[] = {
	{.name = "l2", .type = COORD_CONF_STRING, .min = 11, .max = 17},
	{.name = "l3", .type = COORD_CONF_STRING, .min = 7, .max = 15},
	{.name = "l4", .type = COORD_CONF_UINT, .min = 0, .max = 65535},
	{.name = NULL},
};

/**
 * Read a hop's "flow_base" member: {"l2": "02:00:00:00:00:00", "l3":
 * "10.0.0.0", "l4": 1024}, each optional (defaults as above). The ovs and
 * gen hops take the same member, so a topology that moves the rules moves
 * the traffic with them. Inline so that a driver built on its own (unit
 * tests, drv_probe) needs no other object.
 * @param fb the member, or NULL: @p b gets the defaults.
 * @return 0, or -EINVAL with @p err set ("flow_base.l2: not a MAC").
 */
static inline int
coord_flow_base_parse(const json_t *fb, struct coord_flow_base *b, char *err, size_t err_len)
{
	const json_t *l2, *l3, *l4;
	unsigned int m[6], a[4];
	char extra;
	int i;

	coord_flow_base_default(b);
	if (fb == NULL)
		return 0;
	if (!json_is_object(fb)) {
		snprintf(err, err_len, "flow_base: must be an object {\"l2\", \"l3\", \"l4\"}");
		return -EINVAL;
	}
	l2 = json_object_get(fb, "l2");
	l3 = json_object_get(fb, "l3");
	l4 = json_object_get(fb, "l4");
	if (l2 != NULL) {
		if (!json_is_string(l2) ||
		    sscanf(json_string_value(l2), "%2x:%2x:%2x:%2x:%2x:%2x%c", &m[0], &m[1], &m[2],
			   &m[3], &m[4], &m[5], &extra) != 6) {
			snprintf(err, err_len, "flow_base.l2: not a MAC");
			return -EINVAL;
		}
		b->l2 = 0;
		for (i = 0; i < 6; i++)
			b->l2 = (b->l2 << 8) | m[i];
	}
	if (l3 != NULL) {
		if (!json_is_string(l3) ||
		    sscanf(json_string_value(l3), "%u.%u.%u.%u%c", &a[0], &a[1], &a[2], &a[3],
			   &extra) != 4 ||
		    a[0] > 255 || a[1] > 255 || a[2] > 255 || a[3] > 255) {
			snprintf(err, err_len, "flow_base.l3: not an IPv4 address");
			return -EINVAL;
		}
		b->l3 = (a[0] << 24) | (a[1] << 16) | (a[2] << 8) | a[3];
	}
	if (l4 != NULL) {
		if (!json_is_integer(l4) || json_integer_value(l4) < 0 ||
		    json_integer_value(l4) > 65535) {
			snprintf(err, err_len, "flow_base.l4: 0..65535");
			return -EINVAL;
		}
		b->l4 = (unsigned int)json_integer_value(l4);
	}
	return 0;
}

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
