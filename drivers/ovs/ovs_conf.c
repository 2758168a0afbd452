/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The ovs hop's topology members (ovs_driver.h lists them). Every name
 * that ends up in an ovs-ofctl/ovs-appctl argument is checked here, so
 * nothing a topology says is read as an option or as flow syntax.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "coord_flows.h"
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

/* "ports": the Interface names, topology order. */
static int
ovs_conf_ports(struct ovs_hop *h, const json_t *ports, char *err, size_t err_len)
{
	const json_t *v;
	size_t i;

	if (!json_is_array(ports) || json_array_size(ports) == 0 ||
	    json_array_size(ports) > COORD_MAX_PORTS)
		return ovs_fail(err, err_len, -EINVAL,
				"ovs: \"ports\" must list 1..%d Interface names", COORD_MAX_PORTS);
	json_array_foreach(ports, i, v) {
		const char *p = json_string_value(v);

		if (!ovs_name_ok(p) || strlen(p) >= sizeof(h->ports[0]))
			return ovs_fail(err, err_len, -EINVAL,
					"ovs: ports[%zu]: not an Interface name (letters, digits, "
					"'_', '-', '.'; 1..63)",
					i);
		snprintf(h->ports[i], sizeof(h->ports[i]), "%s", p);
	}
	h->nb_ports = (unsigned int)json_array_size(ports);
	return 0;
}

/* "bridge", "rundir", "vswitchd_ctl": where ovs-ofctl and ovs-appctl go. */
static int
ovs_conf_targets(struct ovs_hop *h, const json_t *conf, char *err, size_t err_len)
{
	const char *bridge = json_string_value(json_object_get(conf, "bridge"));
	const char *rundir = json_string_value(json_object_get(conf, "rundir"));
	const char *ctl = json_string_value(json_object_get(conf, "vswitchd_ctl"));

	if (bridge == NULL)
		bridge = "br-pvp";
	if (!ovs_name_ok(bridge) || strlen(bridge) >= sizeof(h->bridge))
		return ovs_fail(err, err_len, -EINVAL, "ovs: \"bridge\": not a bridge name");
	snprintf(h->bridge, sizeof(h->bridge), "%s", bridge);
	if (rundir != NULL && !ovs_path_ok(rundir))
		return ovs_fail(err, err_len, -EINVAL, "ovs: \"rundir\": not a path");
	if (ctl != NULL && !ovs_path_ok(ctl))
		return ovs_fail(err, err_len, -EINVAL, "ovs: \"vswitchd_ctl\": not a path");
	if (rundir != NULL)
		snprintf(h->ofctl_target, sizeof(h->ofctl_target), "unix:%s/%s.mgmt", rundir,
			 bridge);
	else
		snprintf(h->ofctl_target, sizeof(h->ofctl_target), "%s", bridge);
	if (ctl != NULL)
		snprintf(h->appctl_target, sizeof(h->appctl_target), "%s", ctl);
	else if (rundir != NULL)
		snprintf(h->appctl_target, sizeof(h->appctl_target), "%s/ovs-vswitchd.ctl", rundir);
	return 0;
}

/* "ssh": {"host", "user", "key", "port"}, key authentication only. */
static int
ovs_conf_ssh(struct ovs_hop *h, const json_t *ssh, char *err, size_t err_len)
{
	const char *host = json_string_value(json_object_get(ssh, "host"));
	const char *user = json_string_value(json_object_get(ssh, "user"));
	const char *key = json_string_value(json_object_get(ssh, "key"));
	const json_t *port = json_object_get(ssh, "port");

	if (!json_is_object(ssh) || host == NULL || !ovs_host_ok(host) ||
	    strlen(host) >= sizeof(h->ssh.host))
		return ovs_fail(err, err_len, -EINVAL,
				"ovs: \"ssh\" needs a \"host\" (a host name or address)");
	if (json_object_get(ssh, "password") != NULL)
		return ovs_fail(err, err_len, -EINVAL,
				"ovs: \"ssh\": passwords are not supported, use a key");
	if (user != NULL && (!ovs_name_ok(user) || strlen(user) >= sizeof(h->ssh.user)))
		return ovs_fail(err, err_len, -EINVAL, "ovs: \"ssh\": bad \"user\"");
	if (key != NULL && (!ovs_path_ok(key) || strlen(key) >= sizeof(h->ssh.key)))
		return ovs_fail(err, err_len, -EINVAL, "ovs: \"ssh\": bad \"key\" path");
	if (port != NULL && (!json_is_integer(port) || json_integer_value(port) < 1 ||
			     json_integer_value(port) > 65535))
		return ovs_fail(err, err_len, -EINVAL, "ovs: \"ssh\": bad \"port\"");
	snprintf(h->ssh.host, sizeof(h->ssh.host), "%s", host);
	snprintf(h->ssh.user, sizeof(h->ssh.user), "%s", user != NULL ? user : "");
	snprintf(h->ssh.key, sizeof(h->ssh.key), "%s", key != NULL ? key : "");
	h->ssh.port = port != NULL ? (unsigned int)json_integer_value(port) : 0;
	return 0;
}

/* "flow_base": the same member and bases as the gen driver's traffic
 * (coord_flows.h), so that rule i matches flow i. */
static int
ovs_conf_flow_base(struct ovs_hop *h, const json_t *conf, char *err, size_t err_len)
{
	struct coord_flow_base base;
	char why[128];

	if (coord_flow_base_parse(json_object_get(conf, "flow_base"), &base, why, sizeof(why)) < 0)
		return ovs_fail(err, err_len, -EINVAL, "ovs: %s", why);
	h->l2_base = base.l2;
	h->l3_base = base.l3;
	h->l4_base = base.l4;
	return 0;
}

/* The index of port @p name in the hop's "ports", or -1. */
static int
ovs_port_index(const struct ovs_hop *h, const char *name)
{
	unsigned int i;

	for (i = 0; name != NULL && i < h->nb_ports; i++)
		if (strcmp(h->ports[i], name) == 0)
			return (int)i;
	return -1;
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
ovs_conf_forward(struct ovs_hop *h, const json_t *fwd, char *err, size_t err_len)
{
	static const char *const types[] = {"l2", "l3", "l4"};
	const json_t *pair, *sw, *t;
	size_t i, k, j;

	if (!json_is_array(fwd) || json_array_size(fwd) == 0 || json_array_size(fwd) > h->nb_ports)
		return ovs_fail(err, err_len, -EINVAL,
				"ovs: \"forward\" must list 1..%u {\"in\", \"out\"} port pairs",
				h->nb_ports);
	json_array_foreach(fwd, i, pair) {
		struct ovs_pair *p = &h->pairs[i];
		int in = ovs_port_index(h, json_string_value(json_object_get(pair, "in")));
		int out = ovs_port_index(h, json_string_value(json_object_get(pair, "out")));

		if (in < 0 || out < 0 || in == out)
			return ovs_fail(err, err_len, -EINVAL,
					"ovs: forward[%zu]: \"in\" and \"out\" must be two of the "
					"hop's ports",
					i);
		for (k = 0; k < i; k++)
			if (h->pairs[k].in == (unsigned int)in)
				return ovs_fail(err, err_len, -EINVAL,
						"ovs: forward[%zu]: %s is the in port of "
						"forward[%zu] already",
						i, h->ports[in], k);
		p->in = (unsigned int)in;
		p->out = (unsigned int)out;
		p->swapped = 0;
		sw = json_object_get(pair, "swapped");
		if (sw != NULL && !json_is_array(sw))
			return ovs_fail(err, err_len, -EINVAL,
					"ovs: forward[%zu].swapped: a list of l2, l3, l4", i);
		json_array_foreach(sw, k, t) {
			for (j = 0; j < 3; j++)
				if (json_is_string(t) &&
				    strcmp(json_string_value(t), types[j]) == 0)
					break;
			if (j == 3)
				return ovs_fail(err, err_len, -EINVAL,
						"ovs: forward[%zu].swapped: a list of l2, l3, l4",
						i);
			p->swapped |= 1u << j;
		}
	}
	h->nb_pairs = (unsigned int)json_array_size(fwd);
	return 0;
}

int
ovs_open_conf(struct ovs_hop *h, const json_t *conf, char *err, size_t err_len)
{
	const json_t *ssh = json_object_get(conf, "ssh");
	const json_t *fwd = json_object_get(conf, "forward");
	const json_t *to = json_object_get(conf, "timeout_ms");
	const char *stats, *l2rev;
	unsigned int i;
	int rc;

	if (to != NULL && (!json_is_integer(to) || json_integer_value(to) <= 0 ||
			   json_integer_value(to) > 600000))
		return ovs_fail(err, err_len, -EINVAL, "ovs: \"timeout_ms\" must be 1..600000");
	h->timeout_ms = to != NULL ? (unsigned int)json_integer_value(to) : 5000;
	rc = coord_ovsdb_init(&h->db, json_string_value(json_object_get(conf, "db")), h->timeout_ms,
			      err, err_len);
	if (rc == 0)
		rc = ovs_conf_ports(h, json_object_get(conf, "ports"), err, err_len);
	if (rc == 0)
		rc = ovs_conf_targets(h, conf, err, err_len);
	if (rc == 0 && ssh != NULL)
		rc = ovs_conf_ssh(h, ssh, err, err_len);
	if (rc == 0)
		rc = ovs_conf_flow_base(h, conf, err, err_len);
	if (rc < 0)
		return rc;
	stats = json_string_value(json_object_get(conf, "stats"));
	if (stats != NULL && strcmp(stats, "ovsdb") != 0 && strcmp(stats, "openflow") != 0)
		return ovs_fail(err, err_len, -EINVAL,
				"ovs: \"stats\" must be \"openflow\" or \"ovsdb\"");
	h->stats_ovsdb = stats != NULL && strcmp(stats, "ovsdb") == 0;
	for (i = 0; i < COORD_MAX_PORTS; i++) {
		h->ofport[i] = -1;
		h->duration[i] = -1;
	}
	l2rev = json_string_value(json_object_get(conf, "l2_reverse_match"));
	if (l2rev != NULL && strcmp(l2rev, "dl_src") != 0 && strcmp(l2rev, "dl_dst") != 0)
		return ovs_fail(err, err_len, -EINVAL,
				"ovs: \"l2_reverse_match\" must be \"dl_src\" or \"dl_dst\"");
	h->l2_reverse_dst = l2rev != NULL && strcmp(l2rev, "dl_dst") == 0;
	h->nb_pairs = 0;
	if (fwd == NULL)
		return 0;
	if (l2rev != NULL)
		return ovs_fail(err, err_len, -EINVAL,
				"ovs: \"l2_reverse_match\" and \"forward\" together: say which "
				"pairs match dl_src in their \"swapped\"");
	return ovs_conf_forward(h, fwd, err, err_len);
}
