/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The trex hop's topology members (trex_driver.h lists them), as one
 * table: the topology loader checks it, trex_conf_parse() decodes it.
 * Strict: a member the driver does not know is refused by name, since a
 * misspelt "force" or "sync_port" silently ignored would send traffic
 * somewhere else than the user meant.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "pvp_util.h"

#include "trex_private.h"

/* Host names and addresses only: the value ends up in a ZeroMQ endpoint. */
static const char conf_host_chars[] = "abcdefghijklmnopqrstuvwxyz"
				      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]";

static const char *const trex_fs_values[] = {"stats", "latency", "off", NULL};

/* A member of struct trex_conf of the same name. */
#define TREX_CONF(f, t, lo, hi, what) PVP_SCHEMA_MEMBER(struct trex_conf, f, t, lo, hi, what)

const struct pvp_schema_member trex_conf_members[] = {
	COORD_HOP_PORTS_MEMBER(
		1, "TRex port ids, \"0\" or \"p0\", in the order chain points name them"),
	{TREX_CONF(server, PVP_SCHEMA_STRING, 1, 255, "host name or address of the TRex server"),
	 .def = "127.0.0.1"},
	{TREX_CONF(sync_port, PVP_SCHEMA_UINT, 1, 65535, "its RPC port (TRex's default)"),
	 .def = "4501"},
	/* At least 100 ms: TRex answers its own client within 3 s. */
	{TREX_CONF(timeout_ms, PVP_SCHEMA_UINT, 100, 600000,
		   "bound on each request (TRex's client's)"),
	 .def = COORD_STR(COORD_HOP_TIMEOUT_MS)},
	{TREX_CONF(user, PVP_SCHEMA_STRING, 1, 63, "the owner name ports are acquired as"),
	 .def = "pvpkit"},
	{TREX_CONF(force, PVP_SCHEMA_BOOL, 0, 0, "take ports another user holds"), .def = "false"},
	{TREX_CONF(src_mac, PVP_SCHEMA_MAC, 0, 0, "the frames' source MAC (pvpkit-gen's)"),
	 .def = "02:00:00:00:00:01"},
	{TREX_CONF(dst_mac, PVP_SCHEMA_MAC, 0, 0, "the frames' destination MAC (pvpkit-gen's)"),
	 .def = "02:00:00:00:00:02"},
	{PVP_SCHEMA_NAMED("flow_stats", struct trex_conf, fs, PVP_SCHEMA_ENUM, 0, 0,
			  "per-stream counts asked of TRex (off: none)"),
	 .values = trex_fs_values, .def = "stats"},
	{TREX_CONF(pgid_base, PVP_SCHEMA_UINT, 0, 1000000,
		   "first pgid: port k's streams take pgid_base + 3k ..."),
	 .def = "1000"},
	{TREX_CONF(backstop_s, PVP_SCHEMA_UINT, 1, 3600,
		   "TRex stops by itself this long after the trial's end (s)"),
	 .def = "10"},
	{TREX_CONF(flow_base, PVP_SCHEMA_OBJECT, 0, 0,
		   "where l2/l3/l4 flows start, as the ovs hop's rules"),
	 .members = flows_base_members},
	{.name = NULL},
};

int
trex_conf_parse(const struct coord_hop *hop, const json_t *conf, struct trex_conf *c, char *err,
		size_t err_len)
{
	unsigned int i, j;
	int ret;

	memset(c, 0, sizeof(*c));
	ret = coord_hop_conf(hop, trex_conf_members, conf, c, err, err_len);
	if (ret < 0)
		return ret;
	for (i = 0; i < hop->nb_ports; i++) {
		/* A TRex port id from a topology port name: "N" or "pN". */
		const char *n = hop->ports[i] + (hop->ports[i][0] == 'p');

		if (pvp_parse_u32(NULL, n, 0, 254, &c->port_id[i], NULL, 0) < 0)
			return pvp_fail(
				err, err_len, -EINVAL,
				"hop %s: ports[%u]: a TRex port id is required: \"N\" or \"pN\", "
				"N in 0..254",
				hop->name, i);
		for (j = 0; j < i; j++)
			if (c->port_id[j] == c->port_id[i])
				return pvp_fail(err, err_len, -EINVAL,
						"hop %s: ports[%u]: TRex port %u listed twice",
						hop->name, i, c->port_id[i]);
	}
	if (c->server[strspn(c->server, conf_host_chars)] != '\0')
		return pvp_fail(err, err_len, -EINVAL,
				"hop %s: server: a host name or address is required", hop->name);
	return 0;
}
