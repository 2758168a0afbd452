/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The trex hop's topology members (trex_driver.h lists them). Strict: a
 * member the driver does not know is refused by name, since a misspelt
 * "force" or "sync_port" silently ignored would send traffic somewhere
 * else than the user meant.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "pvp_util.h"

#include "trex_private.h"

/* Members of a trex hop, the common ones ("name", "driver", "ports", "comment") first. */
static const char *const trex_conf_members[] = {
	"comment",    "name",	    "driver",	 "ports",   "server",  "sync_port",
	"timeout_ms", "user",	    "force",	 "src_mac", "dst_mac", "flow_stats",
	"pgid_base",  "backstop_s", "flow_base", NULL,
};

static int __attribute__((format(printf, 6, 7)))
conf_fail(char *path, size_t path_len, const char *member, char *why, size_t why_len,
	  const char *fmt, ...)
{
	va_list ap;

	snprintf(path, path_len, "%s", member);
	va_start(ap, fmt);
	vsnprintf(why, why_len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* "xx:xx:xx:xx:xx:xx" as a number. */
static int
conf_mac(const char *s, uint64_t *mac)
{
	unsigned int m[6];
	char extra;
	int i;

	if (s == NULL || sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &m[0], &m[1], &m[2], &m[3], &m[4],
				&m[5], &extra) != 6)
		return -EINVAL;
	*mac = 0;
	for (i = 0; i < 6; i++)
		*mac = (*mac << 8) | m[i];
	return 0;
}

/* Host names and addresses only: the value ends up in a ZeroMQ endpoint. */
static bool
conf_host_ok(const char *s)
{
	size_t i;

	if (s == NULL || s[0] == '\0' || strlen(s) >= 256)
		return false;
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

	if (n == NULL)
		return -EINVAL;
	if (n[0] == 'p')
		n++;
	if (pvp_parse_u32(NULL, n, 0, 254, &v, NULL, 0) < 0)
		return -EINVAL;
	*id = v;
	return 0;
}

static int
conf_int(const json_t *conf, const char *name, long long min, long long max, long long *v,
	 char *path, size_t path_len, char *why, size_t why_len)
{
	const json_t *x = json_object_get(conf, name);

	if (x == NULL)
		return 0;
	if (!json_is_integer(x) || json_integer_value(x) < min || json_integer_value(x) > max)
		return conf_fail(path, path_len, name, why, why_len,
				 "must be a whole number in %lld..%lld", min, max);
	*v = json_integer_value(x);
	return 0;
}

static int
conf_ports(const json_t *ports, struct trex_conf *c, char *path, size_t path_len, char *why,
	   size_t why_len)
{
	const json_t *v;
	unsigned int j;
	size_t i;

	if (!json_is_array(ports) || json_array_size(ports) == 0 ||
	    json_array_size(ports) > COORD_MAX_PORTS)
		return conf_fail(path, path_len, "ports", why, why_len,
				 "must list 1..%d TRex ports (\"0\", \"1\" ... or \"p0\" ...)",
				 COORD_MAX_PORTS);
	json_array_foreach(ports, i, v) {
		const char *n = json_string_value(v);
		char member[32];

		snprintf(member, sizeof(member), "ports[%zu]", i);
		if (conf_port_id(n, &c->port_id[i]) < 0 || strlen(n) >= sizeof(c->port_name[0]))
			return conf_fail(
				path, path_len, member, why, why_len,
				"a TRex port id is required: \"N\" or \"pN\", N in 0..254");
		for (j = 0; j < i; j++)
			if (c->port_id[j] == c->port_id[i])
				return conf_fail(path, path_len, member, why, why_len,
						 "TRex port %u listed twice", c->port_id[i]);
		snprintf(c->port_name[i], sizeof(c->port_name[i]), "%s", n);
		c->nb_ports = i + 1;
	}
	return 0;
}

int
trex_conf_parse(const json_t *conf, struct trex_conf *c, char *path, size_t path_len, char *why,
		size_t why_len)
{
	const char *key, *s;
	const json_t *v;
	long long n;
	unsigned int i;
	int ret;

	memset(c, 0, sizeof(*c));
	snprintf(c->server, sizeof(c->server), "127.0.0.1");
	c->sync_port = TREX_DEF_SYNC_PORT;
	c->timeout_ms = TREX_DEF_TIMEOUT_MS;
	snprintf(c->user, sizeof(c->user), "pvpkit");
	c->src_mac = 0x020000000001ull;
	c->dst_mac = 0x020000000002ull;
	c->pgid_base = TREX_DEF_PGID_BASE;
	c->backstop_s = 10;
	if (!json_is_object(conf))
		return conf_fail(path, path_len, "", why, why_len, "a hop must be an object");
	json_object_foreach((json_t *)conf, key, v) {
		for (i = 0; trex_conf_members[i] != NULL; i++)
			if (strcmp(key, trex_conf_members[i]) == 0)
				break;
		if (trex_conf_members[i] == NULL)
			return conf_fail(path, path_len, key, why, why_len,
					 "unknown member of a trex hop (server, sync_port, "
					 "timeout_ms, user, force, src_mac, dst_mac, flow_stats, "
					 "pgid_base, backstop_s, flow_base)");
	}
	ret = conf_ports(json_object_get(conf, "ports"), c, path, path_len, why, why_len);
	if (ret < 0)
		return ret;
	v = json_object_get(conf, "server");
	if (v != NULL) {
		s = json_string_value(v);
		if (!conf_host_ok(s))
			return conf_fail(path, path_len, "server", why, why_len,
					 "a host name or address is required");
		snprintf(c->server, sizeof(c->server), "%s", s);
	}
	n = c->sync_port;
	if (conf_int(conf, "sync_port", 1, 65535, &n, path, path_len, why, why_len) < 0)
		return -EINVAL;
	c->sync_port = (unsigned int)n;
	n = c->timeout_ms;
	if (conf_int(conf, "timeout_ms", 100, 600000, &n, path, path_len, why, why_len) < 0)
		return -EINVAL;
	c->timeout_ms = (int)n;
	n = c->pgid_base;
	if (conf_int(conf, "pgid_base", 0, 1000000, &n, path, path_len, why, why_len) < 0)
		return -EINVAL;
	c->pgid_base = (uint32_t)n;
	n = (long long)c->backstop_s;
	if (conf_int(conf, "backstop_s", 1, 3600, &n, path, path_len, why, why_len) < 0)
		return -EINVAL;
	c->backstop_s = (double)n;
	v = json_object_get(conf, "user");
	if (v != NULL) {
		s = json_string_value(v);
		if (s == NULL || s[0] == '\0' || strlen(s) >= sizeof(c->user))
			return conf_fail(path, path_len, "user", why, why_len,
					 "a name of 1..%zu characters is required",
					 sizeof(c->user) - 1);
		snprintf(c->user, sizeof(c->user), "%s", s);
	}
	v = json_object_get(conf, "force");
	if (v != NULL) {
		if (!json_is_boolean(v))
			return conf_fail(path, path_len, "force", why, why_len,
					 "must be true or false");
		c->force = json_is_true(v);
	}
	v = json_object_get(conf, "src_mac");
	if (v != NULL && conf_mac(json_string_value(v), &c->src_mac) < 0)
		return conf_fail(path, path_len, "src_mac", why, why_len,
				 "a MAC address \"xx:xx:xx:xx:xx:xx\" is required");
	v = json_object_get(conf, "dst_mac");
	if (v != NULL && conf_mac(json_string_value(v), &c->dst_mac) < 0)
		return conf_fail(path, path_len, "dst_mac", why, why_len,
				 "a MAC address \"xx:xx:xx:xx:xx:xx\" is required");
	v = json_object_get(conf, "flow_stats");
	if (v != NULL) {
		s = json_string_value(v);
		if (s != NULL && strcmp(s, "stats") == 0)
			c->fs = TREX_FS_STATS;
		else if (s != NULL && strcmp(s, "latency") == 0)
			c->fs = TREX_FS_LATENCY;
		else if (s != NULL && strcmp(s, "off") == 0)
			c->fs = TREX_FS_OFF;
		else
			return conf_fail(path, path_len, "flow_stats", why, why_len,
					 "must be \"stats\", \"latency\" or \"off\"");
	}
	if (coord_flow_base_parse(json_object_get(conf, "flow_base"), &c->flow_base, why, why_len) <
	    0) {
		/* coord_flow_base_parse() says "flow_base.l2: not a MAC": split it. */
		const char *colon = strstr(why, ": ");

		if (colon != NULL && (size_t)(colon - why) < path_len) {
			snprintf(path, path_len, "%.*s", (int)(colon - why), why);
			memmove(why, colon + 2, strlen(colon + 2) + 1);
		} else {
			snprintf(path, path_len, "flow_base");
		}
		return -EINVAL;
	}
	return 0;
}
