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
static bool
conf_host_ok(const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++) {
		char ch = s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == ':' ||
		      ch == '[' || ch == ']'))
			return false;
	}
	return true;
}

/* A TRex port id from a topology port name: "N" or "pN". */
static int
conf_port_id(const char *n, unsigned int *id)
{
	uint32_t v;

	if (n[0] == 'p')
		n++;
	if (pvp_parse_u32(NULL, n, 0, 254, &v, NULL, 0) < 0)
		return -EINVAL;
	*id = v;
	return 0;
}

static const char *const trex_fs_values[] = {"stats", "latency", "off", NULL};

const struct pvp_schema_member trex_conf_members[] = {
	COORD_HOP_PORTS_MEMBER(
		1, "TRex port ids, \"0\" or \"p0\", in the order chain points name them"),
	{.name = "server",
	 .type = PVP_SCHEMA_STRING,
	 .min = 1,
	 .max = 255,
	 .def = "127.0.0.1",
	 PVP_SCHEMA_AT(struct trex_conf, server),
	 .help = "host name or address of the TRex server"},
	{.name = "sync_port",
	 .type = PVP_SCHEMA_UINT,
	 .min = 1,
	 .max = 65535,
	 .def = "4501",
	 PVP_SCHEMA_AT(struct trex_conf, sync_port),
	 .help = "its RPC port (TRex's default)"},
	/* At least 100 ms: TRex answers its own client within 3 s. */
	{.name = "timeout_ms",
	 .type = PVP_SCHEMA_UINT,
	 .min = 100,
	 .max = 600000,
	 .def = COORD_STR(COORD_HOP_TIMEOUT_MS),
	 PVP_SCHEMA_AT(struct trex_conf, timeout_ms),
	 .help = "bound on each request (TRex's client's)"},
	{.name = "user",
	 .type = PVP_SCHEMA_STRING,
	 .min = 1,
	 .max = 63,
	 .def = "pvpkit",
	 PVP_SCHEMA_AT(struct trex_conf, user),
	 .help = "the owner name ports are acquired as"},
	{.name = "force",
	 .type = PVP_SCHEMA_BOOL,
	 .def = "false",
	 PVP_SCHEMA_AT(struct trex_conf, force),
	 .help = "take ports another user holds"},
	{.name = "src_mac",
	 .type = PVP_SCHEMA_MAC,
	 .def = "02:00:00:00:00:01",
	 PVP_SCHEMA_AT(struct trex_conf, src_mac),
	 .help = "the frames' source MAC (pvpkit-gen's)"},
	{.name = "dst_mac",
	 .type = PVP_SCHEMA_MAC,
	 .def = "02:00:00:00:00:02",
	 PVP_SCHEMA_AT(struct trex_conf, dst_mac),
	 .help = "the frames' destination MAC (pvpkit-gen's)"},
	{.name = "flow_stats",
	 .type = PVP_SCHEMA_ENUM,
	 .values = trex_fs_values,
	 .def = "stats",
	 PVP_SCHEMA_AT(struct trex_conf, fs),
	 .help = "per-stream counts asked of TRex (off: none)"},
	{.name = "pgid_base",
	 .type = PVP_SCHEMA_UINT,
	 .min = 0,
	 .max = 1000000,
	 .def = "1000",
	 PVP_SCHEMA_AT(struct trex_conf, pgid_base),
	 .help = "first pgid: port k's streams take pgid_base + 3k ..."},
	{.name = "backstop_s",
	 .type = PVP_SCHEMA_UINT,
	 .min = 1,
	 .max = 3600,
	 .def = "10",
	 PVP_SCHEMA_AT(struct trex_conf, backstop_s),
	 .help = "TRex stops by itself this long after the trial's end (s)"},
	{.name = "flow_base",
	 .type = PVP_SCHEMA_OBJECT,
	 .members = flows_base_members,
	 PVP_SCHEMA_AT(struct trex_conf, flow_base),
	 .help = "where l2/l3/l4 flows start, as the ovs hop's rules"},
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
		if (conf_port_id(hop->ports[i], &c->port_id[i]) < 0)
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
	if (!conf_host_ok(c->server))
		return pvp_fail(err, err_len, -EINVAL,
				"hop %s: server: a host name or address is required", hop->name);
	return 0;
}
