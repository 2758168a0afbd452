/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Traffic that matches the vswitch's per-flow rules (flows.h). Pure
 * JSON building, no I/O: the gen driver sends the result in profile.load.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pvp_util.h"

#include "flows.h"

const struct pvp_schema_member flows_base_members[] = {
	{PVP_SCHEMA_MEMBER(struct flows_base, l2, PVP_SCHEMA_MAC, 0, 0,
			   "destination MAC of l2 flow 0"),
	 .def = "02:00:00:00:00:00"},
	{PVP_SCHEMA_MEMBER(struct flows_base, l3, PVP_SCHEMA_IPV4, 0, 0,
			   "destination IPv4 of l3 flow 0"),
	 .def = "10.0.0.0"},
	{PVP_SCHEMA_MEMBER(struct flows_base, l4, PVP_SCHEMA_UINT, 0, 65535,
			   "destination UDP port of l4 flow 0"),
	 .def = "1024"},
	{.name = NULL},
};

int
flows_check(enum coord_flow_type type, unsigned int flows, const struct flows_base *b, char *err,
	    size_t err_len)
{
	if (flows == 0)
		return pvp_fail(err, err_len, -EINVAL, "flows must be at least 1");
	/* The sources vary the low 32 bits of a MAC; the high 16 come from
	 * the base, so the walk may not carry into them. */
	if (type == COORD_FLOW_l2 && (b->l2 & 0xffffffffull) + flows - 1 > 0xffffffffull)
		return pvp_fail(err, err_len, -ERANGE,
				"%u l2 flows overflow the low 32 bits of the MAC", flows);
	if (type == COORD_FLOW_l3 && (uint64_t)b->l3 + flows - 1 > 0xffffffffull)
		return pvp_fail(err, err_len, -ERANGE, "%u l3 flows overflow the IPv4 range",
				flows);
	if (type == COORD_FLOW_l4 && b->l4 + (uint64_t)flows - 1 > 65535)
		return pvp_fail(err, err_len, -ERANGE,
				"%u l4 flows from UDP port %u overflow 65535", flows, b->l4);
	return 0;
}

int
flows_remember(const struct coord_hop *hop, const char *rule_type, char *kept, size_t kept_len,
	       char *err, size_t err_len)
{
	enum coord_flow_type ft;

	if (coord_flow_type_parse(rule_type, &ft) < 0)
		return pvp_fail(err, err_len, -EINVAL,
				"hop %s: unknown flow type \"%s\" (normal, l2, l3, l4)", hop->name,
				rule_type != NULL ? rule_type : "");
	snprintf(kept, kept_len, "%s", ft == COORD_FLOW_normal ? "" : rule_type);
	return 0;
}

/* The one variable of every stream: the field the rules match. */
static json_t *
flows_var(enum coord_flow_type type, unsigned int flows, const struct flows_base *b)
{
	char lo[24], hi[24];

	if (type == COORD_FLOW_l2) {
		pvp_mac_format(b->l2, lo, sizeof(lo));
		pvp_mac_format(b->l2 + flows - 1, hi, sizeof(hi));
		return json_pack("{s:s,s:s,s:s,s:s}", "field", "eth.dst", "op", "inc", "min", lo,
				 "max", hi);
	}
	if (type == COORD_FLOW_l3) {
		pvp_ipv4_format(b->l3, lo, sizeof(lo));
		pvp_ipv4_format(b->l3 + flows - 1, hi, sizeof(hi));
		return json_pack("{s:s,s:s,s:s,s:s}", "field", "ipv4.dst", "op", "inc", "min", lo,
				 "max", hi);
	}
	return json_pack("{s:s,s:s,s:I,s:I}", "field", "udp.dport", "op", "inc", "min",
			 (json_int_t)b->l4, "max", (json_int_t)(b->l4 + flows - 1));
}

json_t *
flows_profile(enum coord_flow_type type, unsigned int size, unsigned int flows,
	      const unsigned int *ports, unsigned int nb_ports, const struct flows_base *b,
	      char *err, size_t err_len)
{
	json_t *streams, *s;
	unsigned int i;

	if (type == COORD_FLOW_normal) {
		snprintf(err, err_len, "flow type \"normal\" matches no field (l2, l3, l4)");
		return NULL;
	}
	if (nb_ports == 0 || ports == NULL) {
		snprintf(err, err_len, "no TX port");
		return NULL;
	}
	if (flows_check(type, flows, b, err, err_len) < 0)
		return NULL;
	streams = json_array();
	if (streams == NULL)
		goto nomem;
	for (i = 0; i < nb_ports; i++) {
		/* A size, or else TRex's IMIX. */
		s = json_pack("{s:I,s:I,s:[o],s:o*,s:s*}", "port", (json_int_t)ports[i], "flows",
			      (json_int_t)flows, "vars", flows_var(type, flows, b), "size",
			      size != 0 ? json_integer(size) : NULL, "imix",
			      size != 0 ? NULL : "trex");
		if (s == NULL || json_array_append_new(streams, s) < 0)
			goto nomem_streams;
	}
	s = json_pack("{s:o}", "streams", streams);
	if (s == NULL)
		goto nomem;
	return s;
nomem_streams:
	json_decref(streams);
nomem:
	snprintf(err, err_len, "out of memory");
	return NULL;
}
