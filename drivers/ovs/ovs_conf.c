/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The ovs hop's topology members: their table, and what it cannot say.
 * Every name that ends up in an ovs-ofctl/ovs-appctl argument is checked
 * here, so nothing a topology says is read as an option or as flow
 * syntax.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "flows.h"
#include "ovs_private.h"

/* A non-empty word of letters, digits and the characters in @extra, not
 * starting with '-' (it would read as an option). */
static bool
ovs_word_ok(const char *s, const char *extra)
{
	size_t i;

	if (s == NULL || s[0] == '\0' || s[0] == '-')
		return false;
	for (i = 0; s[i] != '\0'; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr(extra, c) != NULL))
			return false;
	}
	return true;
}

/* Names that reach ovs-ofctl/ovs-appctl arguments: keep them to what OVS
 * itself allows in port and bridge names, minus anything a shell or the
 * flow syntax would read specially. */
static bool
ovs_name_ok(const char *s)
{
	return ovs_word_ok(s, "_-.");
}

/* Host names, IPv4 and IPv6 addresses. */
static bool
ovs_host_ok(const char *s)
{
	return ovs_word_ok(s, "-.:");
}

static bool
ovs_path_ok(const char *s)
{
	return s != NULL && s[0] != '\0' && s[0] != '-' && strpbrk(s, "\n\r") == NULL;
}

/* Names that reach commands: the table checked their types and lengths. */
static int
ovs_conf_names(struct ovs_hop *h, char *err, size_t err_len)
{
	unsigned int i;

	for (i = 0; i < h->hop->nb_ports; i++)
		if (!ovs_name_ok(h->hop->ports[i]))
			return pvp_fail(err, err_len, -EINVAL,
					"ovs: ports[%u]: not an Interface name (letters, digits, "
					"'_', '-', '.'; 1..63)",
					i);
	if (!ovs_name_ok(h->bridge))
		return pvp_fail(err, err_len, -EINVAL, "ovs: \"bridge\": not a bridge name");
	if (h->rundir[0] != '\0' && !ovs_path_ok(h->rundir))
		return pvp_fail(err, err_len, -EINVAL, "ovs: \"rundir\": not a path");
	if (h->appctl_target[0] != '\0' && !ovs_path_ok(h->appctl_target))
		return pvp_fail(err, err_len, -EINVAL, "ovs: \"vswitchd_ctl\": not a path");
	if (h->ssh.host[0] != '\0' && !ovs_host_ok(h->ssh.host))
		return pvp_fail(err, err_len, -EINVAL,
				"ovs: \"ssh\" needs a \"host\" (a host name or address)");
	if (h->ssh.user[0] != '\0' && !ovs_name_ok(h->ssh.user))
		return pvp_fail(err, err_len, -EINVAL, "ovs: \"ssh\": bad \"user\"");
	if (h->ssh.key[0] != '\0' && !ovs_path_ok(h->ssh.key))
		return pvp_fail(err, err_len, -EINVAL, "ovs: \"ssh\": bad \"key\" path");
	return 0;
}

/*
 * "forward": [{"in": "phy0", "out": "vhost0"}, {"in": "vhost0", "out":
 * "phy0", "swapped": ["l2"]}, ...]: the port pairs install_flows writes
 * rules for, each in port once (two rules with one match and different
 * outputs would replace each other). "swapped" names the flow types
 * whose value arrives in the source field on "in" (a macswap guest
 * before it: l2; 5tswap: l2, l3, l4).
 */
static int
ovs_conf_forward(struct ovs_hop *h, char *err, size_t err_len)
{
	unsigned int i, k;

	if (h->nb_forward > h->hop->nb_ports)
		return pvp_fail(err, err_len, -EINVAL,
				"ovs: \"forward\" must list 1..%u {\"in\", \"out\"} port pairs",
				h->hop->nb_ports);
	for (i = 0; i < h->nb_forward; i++) {
		const struct ovs_pair_conf *pc = &h->forward[i];
		struct ovs_pair *p = &h->pairs[i];
		int in = coord_hop_port_index(h->hop, pc->in);
		int out = coord_hop_port_index(h->hop, pc->out);

		if (in < 0 || out < 0 || in == out)
			return pvp_fail(err, err_len, -EINVAL,
					"ovs: forward[%u]: \"in\" and \"out\" must be two of the "
					"hop's ports",
					i);
		for (k = 0; k < i; k++)
			if (h->pairs[k].in == (unsigned int)in)
				return pvp_fail(err, err_len, -EINVAL,
						"ovs: forward[%u]: %s is the in port of "
						"forward[%u] already",
						i, h->hop->ports[in], k);
		p->in = (unsigned int)in;
		p->out = (unsigned int)out;
		p->swapped = 0;
		/* Word k of the swapped values is flow type l2 + k: OVS_SWAP_L2
		 * is bit 0. */
		for (k = 0; k < pc->nb_swapped; k++)
			p->swapped |= 1u << pc->swapped[k];
	}
	h->nb_pairs = h->nb_forward;
	return 0;
}

static const char *const ovs_stats_values[] = {"openflow", "ovsdb", NULL};
static const char *const ovs_l2rev_values[] = {"dl_src", "dl_dst", NULL};
static const struct pvp_schema_member ovs_ssh_members[] = {
	{.name = "host",
	 .type = PVP_SCHEMA_STRING,
	 .required = true,
	 .min = 1,
	 .max = 255,
	 PVP_SCHEMA_AT(struct ovs_ssh, host),
	 .help = "host name or address the commands run on"},
	{.name = "user",
	 .type = PVP_SCHEMA_STRING,
	 .min = 1,
	 .max = 63,
	 PVP_SCHEMA_AT(struct ovs_ssh, user),
	 .help = "remote user (ssh's default)"},
	{.name = "key",
	 .type = PVP_SCHEMA_STRING,
	 .min = 1,
	 .max = 255,
	 PVP_SCHEMA_AT(struct ovs_ssh, key),
	 .help = "private key file (ssh's default)"},
	{.name = "port",
	 .type = PVP_SCHEMA_UINT,
	 .min = 1,
	 .max = 65535,
	 PVP_SCHEMA_AT(struct ovs_ssh, port),
	 .help = "ssh port (ssh's default)"},
	{.name = NULL},
};
static const struct pvp_schema_member ovs_swap_item = {
	.name = "",
	.type = PVP_SCHEMA_ENUM,
	.values = &coord_flow_type_names[COORD_FLOW_l2],
	.size = sizeof(unsigned int)};
static const struct pvp_schema_member ovs_pair_members[] = {
	{.name = "in",
	 .type = PVP_SCHEMA_STRING,
	 .required = true,
	 .min = 1,
	 .max = 63,
	 PVP_SCHEMA_AT(struct ovs_pair_conf, in),
	 .help = "the port traffic comes in on"},
	{.name = "out",
	 .type = PVP_SCHEMA_STRING,
	 .required = true,
	 .min = 1,
	 .max = 63,
	 PVP_SCHEMA_AT(struct ovs_pair_conf, out),
	 .help = "the port it goes out on"},
	{.name = "swapped",
	 .type = PVP_SCHEMA_ARRAY,
	 .max = 3,
	 .members = &ovs_swap_item,
	 PVP_SCHEMA_AT(struct ovs_pair_conf, swapped),
	 .count_offset = offsetof(struct ovs_pair_conf, nb_swapped),
	 .help = "flow types whose value arrives in the source field"},
	{.name = NULL},
};
static const struct pvp_schema_member ovs_pair_item = {.name = "",
						       .type = PVP_SCHEMA_OBJECT,
						       .members = ovs_pair_members,
						       .size = sizeof(struct ovs_pair_conf)};

const struct pvp_schema_member ovs_conf_members[] = {
	{.name = "db",
	 .type = PVP_SCHEMA_STRING,
	 .required = true,
	 .min = 1,
	 .max = 255,
	 PVP_SCHEMA_AT(struct ovs_hop, db_remote),
	 .help = "ovsdb-server: unix:PATH or tcp:HOST:PORT"},
	COORD_HOP_PORTS_MEMBER(1, "Interface names, in the order chain points name them"),
	{.name = "bridge",
	 .type = PVP_SCHEMA_STRING,
	 .min = 1,
	 .max = 63,
	 .def = "br-pvp",
	 PVP_SCHEMA_AT(struct ovs_hop, bridge),
	 .help = "the bridge the rules go to"},
	{.name = "rundir",
	 .type = PVP_SCHEMA_STRING,
	 .min = 1,
	 .max = 255,
	 PVP_SCHEMA_AT(struct ovs_hop, rundir),
	 .help = "a private OVS run dir: RUNDIR/BRIDGE.mgmt, RUNDIR/ovs-vswitchd.ctl"},
	{.name = "vswitchd_ctl",
	 .type = PVP_SCHEMA_STRING,
	 .min = 1,
	 .max = 319,
	 PVP_SCHEMA_AT(struct ovs_hop, appctl_target),
	 .help = "ovs-vswitchd's unixctl socket (ovs-appctl -t)"},
	{.name = "stats",
	 .type = PVP_SCHEMA_ENUM,
	 .values = ovs_stats_values,
	 .def = "openflow",
	 PVP_SCHEMA_AT(struct ovs_hop, stats_ovsdb),
	 .help = "live OpenFlow port stats, or OVSDB's (up to 5 s old)"},
	{.name = "l2_reverse_match",
	 .type = PVP_SCHEMA_ENUM,
	 .values = ovs_l2rev_values,
	 .def = "dl_src",
	 PVP_SCHEMA_AT(struct ovs_hop, l2_reverse_dst),
	 .help = "what reverse l2 rules match without \"forward\""},
	COORD_HOP_TIMEOUT_MEMBER(struct ovs_hop, timeout_ms),
	{.name = "ssh",
	 .type = PVP_SCHEMA_OBJECT,
	 .members = ovs_ssh_members,
	 PVP_SCHEMA_AT(struct ovs_hop, ssh),
	 .help = "run ovs-ofctl/ovs-appctl on another host (key only)"},
	{.name = "flow_base",
	 .type = PVP_SCHEMA_OBJECT,
	 .members = flows_base_members,
	 PVP_SCHEMA_AT(struct ovs_hop, flow_base),
	 .help = "where l2/l3/l4 flows start, as the source's traffic"},
	{.name = "forward",
	 .type = PVP_SCHEMA_ARRAY,
	 .min = 1,
	 .max = COORD_MAX_PORTS,
	 .members = &ovs_pair_item,
	 PVP_SCHEMA_AT(struct ovs_hop, forward),
	 .count_offset = offsetof(struct ovs_hop, nb_forward),
	 .help = "the port pairs install_flows writes rules for"},
	{.name = NULL},
};

int
ovs_open_conf(struct coord_hop *hop, struct ovs_hop *h, const json_t *conf, char *err,
	      size_t err_len)
{
	unsigned int i;
	int rc;

	h->hop = hop;
	rc = coord_hop_conf(hop, ovs_conf_members, conf, h, err, err_len);
	if (rc == 0)
		rc = ovs_conf_names(h, err, err_len);
	if (rc == 0)
		rc = ovsdb_client_init(&h->db, h->db_remote, h->timeout_ms, err, err_len);
	if (rc < 0)
		return rc;
	/* Where ovs-ofctl and ovs-appctl go. */
	if (h->rundir[0] != '\0')
		snprintf(h->ofctl_target, sizeof(h->ofctl_target), "unix:%s/%s.mgmt", h->rundir,
			 h->bridge);
	else
		snprintf(h->ofctl_target, sizeof(h->ofctl_target), "%s", h->bridge);
	if (h->appctl_target[0] == '\0' && h->rundir[0] != '\0')
		snprintf(h->appctl_target, sizeof(h->appctl_target), "%s/ovs-vswitchd.ctl",
			 h->rundir);
	for (i = 0; i < COORD_MAX_PORTS; i++) {
		h->ofport[i] = -1;
		h->duration[i] = -1;
	}
	h->nb_pairs = 0;
	if (h->nb_forward == 0)
		return 0;
	if (json_object_get(conf, "l2_reverse_match") != NULL)
		return pvp_fail(err, err_len, -EINVAL,
				"ovs: \"l2_reverse_match\" and \"forward\" together: say which "
				"pairs match dl_src in their \"swapped\"");
	return ovs_conf_forward(h, err, err_len);
}
