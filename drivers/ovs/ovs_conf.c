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

#define OVS_ALNUM "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

/* A non-empty word of the characters in @p chars, not starting with '-'
 * (it would read as an option). */
static bool
ovs_word_ok(const char *s, const char *chars)
{
	return s != NULL && s[0] != '\0' && s[0] != '-' && s[strspn(s, chars)] == '\0';
}

/* Names that reach ovs-ofctl/ovs-appctl arguments: keep them to what OVS
 * itself allows in port and bridge names, minus anything a shell or the
 * flow syntax would read specially. */
static bool
ovs_name_ok(const char *s)
{
	return ovs_word_ok(s, OVS_ALNUM "_-.");
}

/* Host names, IPv4 and IPv6 addresses. */
static bool
ovs_host_ok(const char *s)
{
	return ovs_word_ok(s, OVS_ALNUM "-.:");
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
/* A member of struct ovs_@p st of the same name. */
#define OVS_CONF(st, f, t, lo, hi, what) PVP_SCHEMA_MEMBER(struct ovs_##st, f, t, lo, hi, what)
static const struct pvp_schema_member ovs_ssh_members[] = {
	{OVS_CONF(ssh, host, PVP_SCHEMA_STRING, 1, 255, "host name or address the commands run on"),
	 .required = true},
	{OVS_CONF(ssh, user, PVP_SCHEMA_STRING, 1, 63, "remote user (ssh's default)")},
	{OVS_CONF(ssh, key, PVP_SCHEMA_STRING, 1, 255, "private key file (ssh's default)")},
	{OVS_CONF(ssh, port, PVP_SCHEMA_UINT, 1, 65535, "ssh port (ssh's default)")},
	{.name = NULL},
};
static const struct pvp_schema_member ovs_swap_item = {
	.name = "",
	.type = PVP_SCHEMA_ENUM,
	.values = &coord_flow_type_names[COORD_FLOW_l2],
	.size = sizeof(unsigned int)};
static const struct pvp_schema_member ovs_pair_members[] = {
	{OVS_CONF(pair_conf, in, PVP_SCHEMA_STRING, 1, 63, "the port traffic comes in on"),
	 .required = true},
	{OVS_CONF(pair_conf, out, PVP_SCHEMA_STRING, 1, 63, "the port it goes out on"),
	 .required = true},
	{OVS_CONF(pair_conf, swapped, PVP_SCHEMA_ARRAY, 0, 3,
		  "flow types whose value arrives in the source field"),
	 .members = &ovs_swap_item, .count_offset = offsetof(struct ovs_pair_conf, nb_swapped)},
	{.name = NULL},
};
static const struct pvp_schema_member ovs_pair_item = {.name = "",
						       .type = PVP_SCHEMA_OBJECT,
						       .members = ovs_pair_members,
						       .size = sizeof(struct ovs_pair_conf)};

const struct pvp_schema_member ovs_conf_members[] = {
	{PVP_SCHEMA_NAMED("db", struct ovs_hop, db_remote, PVP_SCHEMA_STRING, 1, 255,
			  "ovsdb-server: unix:PATH or tcp:HOST:PORT"),
	 .required = true},
	COORD_HOP_PORTS_MEMBER(1, "Interface names, in the order chain points name them"),
	{OVS_CONF(hop, bridge, PVP_SCHEMA_STRING, 1, 63, "the bridge the rules go to"),
	 .def = "br-pvp"},
	{OVS_CONF(hop, rundir, PVP_SCHEMA_STRING, 1, 255,
		  "a private OVS run dir: RUNDIR/BRIDGE.mgmt, RUNDIR/ovs-vswitchd.ctl")},
	{PVP_SCHEMA_NAMED("vswitchd_ctl", struct ovs_hop, appctl_target, PVP_SCHEMA_STRING, 1, 319,
			  "ovs-vswitchd's unixctl socket (ovs-appctl -t)")},
	{PVP_SCHEMA_NAMED("stats", struct ovs_hop, stats_ovsdb, PVP_SCHEMA_ENUM, 0, 0,
			  "live OpenFlow port stats, or OVSDB's (up to 5 s old)"),
	 .values = ovs_stats_values, .def = "openflow"},
	{PVP_SCHEMA_NAMED("l2_reverse_match", struct ovs_hop, l2_reverse_dst, PVP_SCHEMA_ENUM, 0, 0,
			  "what reverse l2 rules match without \"forward\""),
	 .values = ovs_l2rev_values, .def = "dl_src"},
	COORD_HOP_TIMEOUT_MEMBER(struct ovs_hop, timeout_ms),
	{OVS_CONF(hop, ssh, PVP_SCHEMA_OBJECT, 0, 0,
		  "run ovs-ofctl/ovs-appctl on another host (key only)"),
	 .members = ovs_ssh_members},
	{OVS_CONF(hop, flow_base, PVP_SCHEMA_OBJECT, 0, 0,
		  "where l2/l3/l4 flows start, as the source's traffic"),
	 .members = flows_base_members},
	{OVS_CONF(hop, forward, PVP_SCHEMA_ARRAY, 1, COORD_MAX_PORTS,
		  "the port pairs install_flows writes rules for"),
	 .members = &ovs_pair_item, .count_offset = offsetof(struct ovs_hop, nb_forward)},
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
	if (h->nb_forward == 0)
		return 0;
	if (json_object_get(conf, "l2_reverse_match") != NULL)
		return pvp_fail(err, err_len, -EINVAL,
				"ovs: \"l2_reverse_match\" and \"forward\" together: say which "
				"pairs match dl_src in their \"swapped\"");
	return ovs_conf_forward(h, err, err_len);
}
