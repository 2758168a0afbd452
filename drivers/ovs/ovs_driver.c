/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Hop driver "ovs". Counters are read from OVSDB rather than by parsing
 * `ovs-vsctl` text: one "transact" with one select per port returns every
 * port's statistics map in topology order, in a single round trip.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "coord_flows.h"
#include "ovs_cmd.h"
#include "ovs_driver.h"
#include "ovsdb.h"

/* Most flows install_flows writes per direction. */
#define OVS_MAX_FLOWS 1000000u

/* Drop reasons in OVS 3.1 Interface statistics, in the order reported.
 * ovs_tx_retries is not a drop (the packet went out on a retry): it is
 * given in context() instead. */
static const char *const ovs_drop_reasons[] = {
	"ovs_rx_qos_drops",	     /* ingress policing */
	"rx_missed_errors",	     /* NIC ring full (physical DPDK ports) */
	"ovs_tx_failure_drops",	     /* guest/NIC TX ring full */
	"ovs_tx_mtu_exceeded_drops", /* frame over the port MTU */
	"ovs_tx_qos_drops",	     /* egress policing */
	"ovs_tx_invalid_hwol_drops", /* bad offload metadata */
	"rx_mbuf_allocation_errors", /* no mbuf (physical DPDK ports) */
};
#define OVS_NB_REASONS (sizeof(ovs_drop_reasons) / sizeof(ovs_drop_reasons[0]))

struct ovs_hop {
	struct coord_ovsdb db;		 /* ovsdb-server connection */
	unsigned int nb_ports;		 /* entries in ports[] */
	char ports[COORD_MAX_PORTS][64]; /* Interface names */
	char bridge[64];		 /* for ovs-ofctl */
	char ofctl_target[320];		 /* BRIDGE or unix:RUNDIR/BRIDGE.mgmt */
	char appctl_target[320];	 /* vswitchd unixctl, or "" */
	struct coord_ovs_ssh ssh;	 /* where commands run */
	unsigned int timeout_ms;	 /* per reply / command */
	uint64_t l2_base;		 /* first MAC, as a number */
	uint32_t l3_base;		 /* first IPv4 address */
	unsigned int l4_base;		 /* first UDP port */
	bool l2_reverse_dst;		 /* reverse l2 rules match dl_dst */
	bool stats_ovsdb;		 /* counters from OVSDB, not OpenFlow */
	long ofport[COORD_MAX_PORTS];	 /* OpenFlow port numbers, -1 unknown */
};

static int ovs_load_ofports(struct ovs_hop *h, char *err, size_t err_len);

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

static int ovs_fail(char *err, size_t err_len, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
ovs_fail(char *err, size_t err_len, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
	return rc;
}

static int
ovs_open_conf(struct ovs_hop *h, const json_t *conf, char *err, size_t err_len)
{
	const char *db = json_string_value(json_object_get(conf, "db"));
	const char *bridge = json_string_value(json_object_get(conf, "bridge"));
	const char *rundir = json_string_value(json_object_get(conf, "rundir"));
	const char *ctl = json_string_value(json_object_get(conf, "vswitchd_ctl"));
	const json_t *ports = json_object_get(conf, "ports");
	const json_t *ssh = json_object_get(conf, "ssh");
	const json_t *fb = json_object_get(conf, "flow_base");
	const json_t *to = json_object_get(conf, "timeout_ms");
	const json_t *v;
	const char *l2rev, *stats;
	size_t i;
	int rc;

	if (to != NULL && (!json_is_integer(to) || json_integer_value(to) <= 0 ||
			   json_integer_value(to) > 600000))
		return ovs_fail(err, err_len, -EINVAL, "ovs: \"timeout_ms\" must be 1..600000");
	h->timeout_ms = to != NULL ? (unsigned int)json_integer_value(to) : 5000;
	rc = coord_ovsdb_init(&h->db, db, h->timeout_ms, err, err_len);
	if (rc < 0)
		return rc;

	if (!json_is_array(ports) || json_array_size(ports) == 0 ||
	    json_array_size(ports) > COORD_MAX_PORTS)
		return ovs_fail(err, err_len, -EINVAL,
				"ovs: \"ports\" must list 1..%d Interface names", COORD_MAX_PORTS);
	json_array_foreach(ports, i, v)
	{
		const char *p = json_string_value(v);

		if (!ovs_name_ok(p) || strlen(p) >= sizeof(h->ports[0]))
			return ovs_fail(err, err_len, -EINVAL,
					"ovs: ports[%zu]: not an Interface name (letters, digits, "
					"'_', '-', '.'; 1..63)",
					i);
		snprintf(h->ports[i], sizeof(h->ports[i]), "%s", p);
	}
	h->nb_ports = (unsigned int)json_array_size(ports);

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

	if (ssh != NULL) {
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
	}

	/* The same bases, and the same member, as the gen driver's traffic
	 * (coord_flows.h). */
	{
		struct coord_flow_base base;
		char why[128];

		if (coord_flow_base_parse(fb, &base, why, sizeof(why)) < 0)
			return ovs_fail(err, err_len, -EINVAL, "ovs: %s", why);
		h->l2_base = base.l2;
		h->l3_base = base.l3;
		h->l4_base = base.l4;
	}
	stats = json_string_value(json_object_get(conf, "stats"));
	if (stats != NULL && strcmp(stats, "ovsdb") != 0 && strcmp(stats, "openflow") != 0)
		return ovs_fail(err, err_len, -EINVAL,
				"ovs: \"stats\" must be \"openflow\" or \"ovsdb\"");
	h->stats_ovsdb = stats != NULL && strcmp(stats, "ovsdb") == 0;
	for (i = 0; i < COORD_MAX_PORTS; i++)
		h->ofport[i] = -1;
	l2rev = json_string_value(json_object_get(conf, "l2_reverse_match"));
	if (l2rev != NULL && strcmp(l2rev, "dl_src") != 0 && strcmp(l2rev, "dl_dst") != 0)
		return ovs_fail(err, err_len, -EINVAL,
				"ovs: \"l2_reverse_match\" must be \"dl_src\" or \"dl_dst\"");
	h->l2_reverse_dst = l2rev != NULL && strcmp(l2rev, "dl_dst") == 0;
	return 0;
}

/* The transact params: one select per port, so result[i] is port i. */
static json_t *
ovs_select_params(const struct ovs_hop *h)
{
	json_t *params = json_pack("[s]", "Open_vSwitch");
	unsigned int i;

	for (i = 0; params != NULL && i < h->nb_ports; i++) {
		json_t *op =
			json_pack("{s:s, s:s, s:[[s,s,s]], s:[s,s,s,s,s]}", "op", "select", "table",
				  "Interface", "where", "name", "==", h->ports[i], "columns",
				  "name", "statistics", "ofport", "link_state", "options");

		if (op == NULL || json_array_append_new(params, op) < 0) {
			json_decref(params);
			return NULL;
		}
	}
	return params;
}

/*
 * Run the select and check its shape. @return 0 with *rows an array of
 * nb_ports row objects (new reference), or -errno with err set.
 */
static int
ovs_select(struct ovs_hop *h, json_t **rows, char *err, size_t err_len)
{
	json_t *params = ovs_select_params(h), *result = NULL, *out;
	unsigned int i;
	int rc;

	*rows = NULL;
	if (params == NULL)
		return ovs_fail(err, err_len, -ENOMEM, "ovs: out of memory");
	rc = coord_ovsdb_call(&h->db, "transact", params, &result, err, err_len);
	json_decref(params);
	if (rc < 0)
		return rc;
	if (!json_is_array(result) || json_array_size(result) < h->nb_ports) {
		json_decref(result);
		return ovs_fail(err, err_len, -EPROTO,
				"ovs: %s: malformed transact result (expected %u select results)",
				h->db.remote, h->nb_ports);
	}
	out = json_array();
	for (i = 0; i < h->nb_ports; i++) {
		const json_t *r = json_array_get(result, i);
		const json_t *e = json_object_get(r, "error");
		const json_t *rs = json_object_get(r, "rows");

		if (e != NULL) {
			const char *d = json_string_value(json_object_get(r, "details"));

			rc = ovs_fail(err, err_len, -EREMOTEIO, "ovs: %s: select %s: %s%s%s",
				      h->db.remote, h->ports[i],
				      json_is_string(e) ? json_string_value(e) : "error",
				      d != NULL ? ": " : "", d != NULL ? d : "");
			break;
		}
		if (!json_is_array(rs)) {
			rc = ovs_fail(err, err_len, -EPROTO,
				      "ovs: %s: malformed select result for %s (no \"rows\")",
				      h->db.remote, h->ports[i]);
			break;
		}
		if (json_array_size(rs) == 0) {
			rc = ovs_fail(err, err_len, -ENOENT,
				      "ovs: no Interface \"%s\" in %s (ovs-vsctl list-ifaces)",
				      h->ports[i], h->db.remote);
			break;
		}
		if (!json_is_object(json_array_get(rs, 0))) {
			rc = ovs_fail(err, err_len, -EPROTO, "ovs: %s: malformed row for %s",
				      h->db.remote, h->ports[i]);
			break;
		}
		json_array_append(out, json_array_get(rs, 0));
	}
	json_decref(result);
	if (rc < 0) {
		json_decref(out);
		return rc;
	}
	*rows = out;
	return 0;
}

/*
 * Look up @p key in an OVSDB map value ["map", [[k, v], ...]].
 * @return 1 found (*v set), 0 absent, -EPROTO malformed.
 */
static int
ovs_map_get(const json_t *map, const char *key, uint64_t *v)
{
	const json_t *pairs, *pair;
	size_t i;

	if (!json_is_array(map) || json_array_size(map) != 2 ||
	    !json_is_string(json_array_get(map, 0)) ||
	    strcmp(json_string_value(json_array_get(map, 0)), "map") != 0)
		return -EPROTO;
	pairs = json_array_get(map, 1);
	if (!json_is_array(pairs))
		return -EPROTO;
	json_array_foreach(pairs, i, pair)
	{
		const json_t *k = json_array_get(pair, 0), *val = json_array_get(pair, 1);

		if (!json_is_array(pair) || json_array_size(pair) != 2 || !json_is_string(k))
			return -EPROTO;
		if (strcmp(json_string_value(k), key) != 0)
			continue;
		if (!json_is_integer(val) || json_integer_value(val) < 0)
			return -EPROTO;
		*v = (uint64_t)json_integer_value(val);
		return 1;
	}
	return 0;
}

static int
ovs_row_to_port(const struct ovs_hop *h, const json_t *row, const char *name, struct coord_port *p,
		char *err, size_t err_len)
{
	static const struct {
		const char *key;
		size_t off;
	} fields[] = {
		{"rx_packets", offsetof(struct coord_port, rx_packets)},
		{"rx_bytes", offsetof(struct coord_port, rx_bytes)},
		{"tx_packets", offsetof(struct coord_port, tx_packets)},
		{"tx_bytes", offsetof(struct coord_port, tx_bytes)},
		{"rx_dropped", offsetof(struct coord_port, rx_dropped)},
		{"tx_dropped", offsetof(struct coord_port, tx_dropped)},
		{"rx_errors", offsetof(struct coord_port, rx_errors)},
		{"tx_errors", offsetof(struct coord_port, tx_errors)},
	};
	const json_t *stats = json_object_get(row, "statistics");
	unsigned int found = 0;
	size_t i;
	uint64_t v;
	int rc;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		rc = ovs_map_get(stats, fields[i].key, &v);
		if (rc < 0)
			return ovs_fail(err, err_len, -EPROTO,
					"ovs: %s: malformed statistics of Interface %s",
					h->db.remote, name);
		if (rc == 1) {
			*(uint64_t *)((char *)p + fields[i].off) = v;
			found++;
		}
	}
	/* A port whose netdev failed (or is still being created) has an
	 * empty map: report it rather than zeros that look like a result. */
	if (found == 0)
		return ovs_fail(err, err_len, -ENODATA,
				"ovs: Interface %s has no statistics (link_state %s)", name,
				json_is_string(json_object_get(row, "link_state"))
					? json_string_value(json_object_get(row, "link_state"))
					: "unknown");
	for (i = 0; i < sizeof(ovs_drop_reasons) / sizeof(ovs_drop_reasons[0]); i++) {
		if (ovs_map_get(stats, ovs_drop_reasons[i], &v) != 1 ||
		    p->nb_reasons == COORD_MAX_REASONS)
			continue;
		snprintf(p->reasons[p->nb_reasons].name, sizeof(p->reasons[0].name), "%s",
			 ovs_drop_reasons[i]);
		p->reasons[p->nb_reasons].value = v;
		p->nb_reasons++;
	}
	return 0;
}

/* Counters as ovs-vswitchd last wrote them to OVSDB. */
static int
ovs_snapshot_ovsdb(struct ovs_hop *h, struct coord_snap *snap, char *err, size_t err_len)
{
	struct timespec ts;
	json_t *rows;
	unsigned int i;
	int rc;

	rc = ovs_select(h, &rows, err, err_len);
	if (rc < 0)
		return rc;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snap->t_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	snap->nb_ports = h->nb_ports;
	for (i = 0; i < h->nb_ports && rc == 0; i++)
		rc = ovs_row_to_port(h, json_array_get(rows, i), h->ports[i], &snap->port[i], err,
				     err_len);
	json_decref(rows);
	return rc;
}

static void
ovs_close(struct coord_hop *hop)
{
	struct ovs_hop *h = hop->priv;

	if (h == NULL)
		return;
	coord_ovsdb_close(&h->db);
	free(h);
	hop->priv = NULL;
}

static int
ovs_open(struct coord_hop *hop, const json_t *conf, char *err, size_t err_len)
{
	struct ovs_hop *h = calloc(1, sizeof(*h));
	json_t *dbs = NULL, *params;
	size_t i;
	bool found = false;
	int rc;

	if (h == NULL)
		return ovs_fail(err, err_len, -ENOMEM, "ovs: out of memory");
	h->db.fd = -1;
	hop->priv = h;
	rc = ovs_open_conf(h, conf, err, err_len);
	if (rc < 0)
		goto fail;
	/* Connect now so a wrong address shows up before any trial. */
	params = json_array();
	rc = coord_ovsdb_call(&h->db, "list_dbs", params, &dbs, err, err_len);
	json_decref(params);
	if (rc < 0)
		goto fail;
	for (i = 0; i < json_array_size(dbs); i++) {
		const char *n = json_string_value(json_array_get(dbs, i));

		found |= n != NULL && strcmp(n, "Open_vSwitch") == 0;
	}
	json_decref(dbs);
	if (!found) {
		rc = ovs_fail(err, err_len, -ENOENT, "ovs: %s serves no Open_vSwitch database",
			      h->db.remote);
		goto fail;
	}
	/* Every port must exist now; the OpenFlow numbers map dump-ports. */
	rc = ovs_load_ofports(h, err, err_len);
	if (rc < 0)
		goto fail;
	return 0;
fail:
	ovs_close(hop);
	return rc;
}

/* Run an OVS tool; a non-zero exit becomes an error with its stderr. */
static int
ovs_tool(struct ovs_hop *h, const char *const argv[], const char *in, size_t in_len,
	 unsigned int timeout_ms, struct coord_ovs_out *out, char *err, size_t err_len)
{
	int rc;

	rc = coord_ovs_cmd_run(&h->ssh, argv, in, in_len, timeout_ms, out, err, err_len);
	if (rc < 0)
		return rc;
	if (out->status != 0) {
		rc = ovs_fail(err, err_len, -EIO, "ovs: %s %s failed (exit %d)%s%s", argv[0],
			      argv[1], out->status, out->err[0] != '\0' ? ": " : "", out->err);
		free(out->out);
		out->out = NULL;
	}
	return rc;
}

/* ovs-appctl [-t TARGET] CMD: argv with the optional target. */
static int
ovs_appctl(struct ovs_hop *h, const char *cmd, struct coord_ovs_out *out, char *err, size_t err_len)
{
	const char *argv[6];
	unsigned int n = 0;

	argv[n++] = "ovs-appctl";
	if (h->appctl_target[0] != '\0') {
		argv[n++] = "-t";
		argv[n++] = h->appctl_target;
	}
	argv[n++] = cmd;
	argv[n] = NULL;
	return ovs_tool(h, argv, NULL, 0, h->timeout_ms, out, err, err_len);
}

/* Refresh the OpenFlow port numbers of the hop's ports from OVSDB. */
static int
ovs_load_ofports(struct ovs_hop *h, char *err, size_t err_len)
{
	json_t *rows;
	unsigned int i;
	int rc;

	rc = ovs_select(h, &rows, err, err_len);
	if (rc < 0)
		return rc;
	for (i = 0; i < h->nb_ports; i++) {
		const json_t *of = json_object_get(json_array_get(rows, i), "ofport");

		/* An Interface without a port number yet is ["set", []]. */
		h->ofport[i] = json_is_integer(of) && json_integer_value(of) > 0
				       ? (long)json_integer_value(of)
				       : -1;
	}
	json_decref(rows);
	return 0;
}

/* One port of `ovs-ofctl dump-ports` output. */
struct ovs_ofp {
	long ofport;	     /* OpenFlow number; OFPP_LOCAL = 65534 */
	struct coord_port p; /* rx/tx counters */
	bool has_reason[sizeof(ovs_drop_reasons) / sizeof(ovs_drop_reasons[0])];
	uint64_t reason[sizeof(ovs_drop_reasons) / sizeof(ovs_drop_reasons[0])];
};

/*
 * OpenFlow 1.4 port statistics spoken directly to the bridge's management
 * socket (unix:RUNDIR/BRIDGE.mgmt): the same numbers as `ovs-ofctl -O
 * OpenFlow14 dump-ports`, without starting a process per snapshot (tens
 * to hundreds of ms on a busy box, against ~1 ms here). OVS puts its
 * custom counters (ovs_tx_failure_drops ...) in an Intel experimenter
 * property of each port's entry: a count, then (name length, name,
 * big-endian u64 value) records.
 */
#define OFP14_VERSION		    0x05
#define OFPT_HELLO		    0
#define OFPT_ERROR		    1
#define OFPT_ECHO_REQUEST	    2
#define OFPT_ECHO_REPLY		    3
#define OFPT_MULTIPART_REQUEST	    18
#define OFPT_MULTIPART_REPLY	    19
#define OFPMP_PORT_STATS	    4
#define OFPMPF_REPLY_MORE	    1
#define OFPPSPT_EXPERIMENTER	    0xffff
#define OFP_INTEL_VENDOR_ID	    0x0000aa01
#define OFP_INTEL_PORT_STATS_CUSTOM 2
#define OFP_MAX_MSG		    65536

static uint16_t
ofp_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t
ofp_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t
ofp_be64(const uint8_t *p)
{
	return (uint64_t)ofp_be32(p) << 32 | ofp_be32(p + 4);
}

/* All-ones is OpenFlow's "this port has no such counter". */
static uint64_t
ofp_counter(const uint8_t *p)
{
	uint64_t v = ofp_be64(p);

	return v == UINT64_MAX ? 0 : v;
}

/* Read exactly @p len bytes before @p deadline. 0 or -errno. */
static int
ofp_read_full(int fd, uint8_t *buf, size_t len, uint64_t deadline)
{
	size_t off = 0;

	while (off < len) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		struct timespec ts;
		uint64_t now;
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
		if (now >= deadline)
			return -ETIMEDOUT;
		if (poll(&pfd, 1, (int)(deadline - now)) <= 0)
			continue;
		n = read(fd, buf + off, len - off);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (n > 0)
			off += (size_t)n;
	}
	return 0;
}

/* One OpenFlow message into @p buf (OFP_MAX_MSG). @return its length or -errno. */
static int
ofp_read_msg(int fd, uint8_t *buf, uint64_t deadline)
{
	uint16_t len;
	int rc;

	rc = ofp_read_full(fd, buf, 8, deadline);
	if (rc < 0)
		return rc;
	len = ofp_be16(buf + 2);
	if (len < 8)
		return -EPROTO;
	rc = ofp_read_full(fd, buf + 8, len - 8u, deadline);
	return rc < 0 ? rc : len;
}

/* Parse the port entries of one OFPMP_PORT_STATS reply body. */
static int
ofp_parse_port_stats(const uint8_t *b, size_t len, struct ovs_ofp *o, unsigned int max, int *n)
{
	while (len > 0) {
		size_t elen, off;
		struct ovs_ofp *e;

		if (len < 80)
			return -EPROTO;
		elen = ofp_be16(b);
		if (elen < 80 || elen > len || (unsigned int)*n == max)
			return -EPROTO;
		e = &o[(*n)++];
		memset(e, 0, sizeof(*e));
		e->ofport = (long)ofp_be32(b + 4);
		if (e->ofport == 0xfffffffe)
			e->ofport = 65534; /* OFPP_LOCAL as OpenFlow 1.0 numbers it */
		e->p.rx_packets = ofp_counter(b + 16);
		e->p.tx_packets = ofp_counter(b + 24);
		e->p.rx_bytes = ofp_counter(b + 32);
		e->p.tx_bytes = ofp_counter(b + 40);
		e->p.rx_dropped = ofp_counter(b + 48);
		e->p.tx_dropped = ofp_counter(b + 56);
		e->p.rx_errors = ofp_counter(b + 64);
		e->p.tx_errors = ofp_counter(b + 72);
		/* Properties, each padded to 8 bytes. */
		for (off = 80; off + 4 <= elen;) {
			size_t plen = ofp_be16(b + off + 2), k, q, cnt, i;

			if (plen < 4 || off + plen > elen)
				return -EPROTO;
			if (ofp_be16(b + off) == OFPPSPT_EXPERIMENTER && plen >= 16 &&
			    ofp_be32(b + off + 4) == OFP_INTEL_VENDOR_ID &&
			    ofp_be32(b + off + 8) == OFP_INTEL_PORT_STATS_CUSTOM) {
				/* pad[2], then the number of counters. */
				cnt = ofp_be16(b + off + 14);
				q = off + 16;
				for (i = 0; i < cnt; i++) {
					char name[64];
					size_t nl;

					if (q + 1 > off + plen)
						return -EPROTO;
					nl = b[q];
					if (q + 1 + nl + 8 > off + plen)
						return -EPROTO;
					snprintf(name, sizeof(name), "%.*s", (int)nl,
						 (const char *)b + q + 1);
					for (k = 0; k < OVS_NB_REASONS; k++) {
						if (strcmp(name, ovs_drop_reasons[k]) == 0) {
							e->has_reason[k] = true;
							e->reason[k] = ofp_be64(b + q + 1 + nl);
						}
					}
					q += 1 + nl + 8;
				}
			}
			off += (plen + 7) & ~(size_t)7;
		}
		b += elen;
		len -= elen;
	}
	return 0;
}

/*
 * Port stats of every port over OpenFlow 1.4 on the unix socket @p path.
 * @return the number of ports in @p o, or -errno with err set.
 */
static int
ofp_dump_ports(const char *path, unsigned int timeout_ms, struct ovs_ofp *o, unsigned int max,
	       char *err, size_t err_len)
{
	static const uint8_t hello[8] = {OFP14_VERSION, OFPT_HELLO, 0, 8, 0, 0, 0, 1};
	static const uint8_t req[24] = {OFP14_VERSION,
					OFPT_MULTIPART_REQUEST,
					0,
					24,
					0,
					0,
					0,
					2,
					0,
					OFPMP_PORT_STATS,
					0,
					0,
					0,
					0,
					0,
					0,
					0xff,
					0xff,
					0xff,
					0xff,
					0,
					0,
					0,
					0};
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	struct timespec ts;
	uint64_t deadline;
	uint8_t *buf;
	int fd, n = 0, len, rc = 0;
	bool more = true;

	if (strlen(path) >= sizeof(sun.sun_path))
		return ovs_fail(err, err_len, -ENAMETOOLONG, "ovs: %s: path too long", path);
	memcpy(sun.sun_path, path, strlen(path) + 1);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	deadline = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000 + timeout_ms;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return ovs_fail(err, err_len, -errno, "ovs: socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		rc = -errno;
		close(fd);
		return ovs_fail(err, err_len, rc, "hop unreachable: unix:%s: %s", path,
				strerror(-rc));
	}
	buf = malloc(OFP_MAX_MSG);
	if (buf == NULL) {
		close(fd);
		return ovs_fail(err, err_len, -ENOMEM, "ovs: out of memory");
	}
	if (send(fd, hello, sizeof(hello), MSG_NOSIGNAL) != sizeof(hello) ||
	    send(fd, req, sizeof(req), MSG_NOSIGNAL) != sizeof(req)) {
		rc = ovs_fail(err, err_len, -errno, "hop unreachable: unix:%s: %s", path,
			      strerror(errno));
		goto out;
	}
	while (more) {
		len = ofp_read_msg(fd, buf, deadline);
		if (len < 0) {
			rc = ovs_fail(err, err_len, len, "%sunix:%s: OpenFlow: %s",
				      len == -ETIMEDOUT ? "ovs: " : "hop unreachable: ", path,
				      strerror(-len));
			goto out;
		}
		switch (buf[1]) {
		case OFPT_HELLO:
			break;
		case OFPT_ECHO_REQUEST:
			buf[1] = OFPT_ECHO_REPLY;
			send(fd, buf, (size_t)len, MSG_NOSIGNAL);
			break;
		case OFPT_ERROR:
			/* An OpenFlow 1.4 bridge refusal (protocols column). */
			rc = ovs_fail(err, err_len, -EPROTO,
				      "ovs: unix:%s: OpenFlow error %u/%u (does the bridge allow "
				      "OpenFlow14?)",
				      path, len >= 12 ? ofp_be16(buf + 8) : 0,
				      len >= 12 ? ofp_be16(buf + 10) : 0);
			goto out;
		case OFPT_MULTIPART_REPLY:
			if (buf[0] != OFP14_VERSION || len < 16 || ofp_be32(buf + 4) != 2 ||
			    ofp_be16(buf + 8) != OFPMP_PORT_STATS ||
			    ofp_parse_port_stats(buf + 16, (size_t)len - 16, o, max, &n) < 0) {
				rc = ovs_fail(err, err_len, -EPROTO,
					      "ovs: unix:%s: malformed OpenFlow port stats reply",
					      path);
				goto out;
			}
			more = (ofp_be16(buf + 10) & OFPMPF_REPLY_MORE) != 0;
			break;
		default:
			break;
		}
	}
	rc = n;
out:
	free(buf);
	close(fd);
	return rc;
}

/*
 * Parse "k=v, k=v, ..." into the rx or tx counters (dir 'r'/'t') or the
 * custom statistics (dir 'c'). "?" is a counter the port does not have.
 * @return 0 or -EPROTO.
 */
static int
ovs_ofp_pairs(char *s, char dir, struct ovs_ofp *o)
{
	char *save = NULL, *tok;

	for (tok = strtok_r(s, ", \t", &save); tok != NULL; tok = strtok_r(NULL, ", \t", &save)) {
		char *eq = strchr(tok, '='), *end;
		uint64_t v = 0;
		size_t i;

		if (eq == NULL)
			return -EPROTO;
		*eq++ = '\0';
		if (strcmp(eq, "?") != 0) {
			errno = 0;
			v = strtoull(eq, &end, 10);
			if (errno != 0 || end == eq || *end != '\0')
				return -EPROTO;
		}
		if (dir == 'c') {
			for (i = 0; i < sizeof(ovs_drop_reasons) / sizeof(ovs_drop_reasons[0]);
			     i++) {
				if (strcmp(tok, ovs_drop_reasons[i]) == 0) {
					o->has_reason[i] = true;
					o->reason[i] = v;
				}
			}
			continue;
		}
		if (strcmp(tok, "pkts") == 0)
			*(dir == 'r' ? &o->p.rx_packets : &o->p.tx_packets) = v;
		else if (strcmp(tok, "bytes") == 0)
			*(dir == 'r' ? &o->p.rx_bytes : &o->p.tx_bytes) = v;
		else if (strcmp(tok, "drop") == 0)
			*(dir == 'r' ? &o->p.rx_dropped : &o->p.tx_dropped) = v;
		else if (strcmp(tok, "errs") == 0)
			*(dir == 'r' ? &o->p.rx_errors : &o->p.tx_errors) = v;
	}
	return 0;
}

/*
 * Parse the text of `ovs-ofctl -O OpenFlow14 --no-names dump-ports`:
 *   port  1: rx pkts=N, bytes=N, drop=N, errs=?, ...
 *            tx pkts=N, bytes=N, drop=N, errs=?, coll=?
 *            duration=...s / rx rfc2819 ... / tx rfc2819 ...
 *            CUSTOM Statistics
 *                       ovs_tx_retries=0, ovs_tx_failure_drops=0, ...
 * @return the number of ports in @p o (at most @p max), or -EPROTO.
 */
static int
ovs_parse_dump_ports(char *text, struct ovs_ofp *o, unsigned int max)
{
	char *save = NULL, *line;
	int n = 0;
	char mode = 0; /* 'c' inside CUSTOM Statistics */

	if (strncmp(text, "OFPST_PORT reply", 16) != 0)
		return -EPROTO;
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		char *l = line + strspn(line, " \t");

		if (strncmp(l, "OFPST_PORT reply", 16) == 0 || l[0] == '\0')
			continue;
		if (strncmp(l, "port ", 5) == 0) {
			char *colon = strchr(l, ':'), *num = l + 5 + strspn(l + 5, " "), *end;

			if (colon == NULL || (unsigned int)n == max)
				return -EPROTO;
			memset(&o[n], 0, sizeof(o[n]));
			if (strncmp(num, "LOCAL", 5) == 0) {
				o[n].ofport = 65534;
			} else {
				o[n].ofport = strtol(num, &end, 10);
				if (end == num || end != colon)
					return -EPROTO;
			}
			n++;
			mode = 0;
			l = colon + 1 + strspn(colon + 1, " ");
		}
		if (n == 0)
			return -EPROTO;
		if (strncmp(l, "rx pkts=", 8) == 0 || strncmp(l, "tx pkts=", 8) == 0) {
			if (ovs_ofp_pairs(l + 3, l[0], &o[n - 1]) < 0)
				return -EPROTO;
		} else if (strncmp(l, "CUSTOM Statistics", 17) == 0) {
			mode = 'c';
		} else if (mode == 'c' && strchr(l, '=') != NULL) {
			if (ovs_ofp_pairs(l, 'c', &o[n - 1]) < 0)
				return -EPROTO;
		}
		/* duration=, rx/tx rfc2819 ...: not needed. */
	}
	return n;
}

/*
 * Live counters from OpenFlow port stats. OVSDB's statistics column is
 * refreshed only every stats-update-interval (at least 5 s), so right
 * after a trial it still holds numbers from before the traffic stopped;
 * the OpenFlow reply is read from the netdevs at the time of the request.
 */
static int
ovs_snapshot_openflow(struct ovs_hop *h, struct coord_snap *snap, char *err, size_t err_len)
{
	const char *argv[] = {"ovs-ofctl",     "-O", "OpenFlow14", "--no-names", "dump-ports",
			      h->ofctl_target, NULL};
	struct ovs_ofp *o;
	struct coord_ovs_out out;
	struct timespec ts;
	unsigned int i, k, max = 1024;
	bool reloaded = false;
	int n, rc;

	for (i = 0; i < h->nb_ports; i++) {
		if (h->ofport[i] < 0 && !reloaded) {
			rc = ovs_load_ofports(h, err, err_len);
			if (rc < 0)
				return rc;
			reloaded = true;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	o = calloc(max, sizeof(*o));
	if (o == NULL)
		return ovs_fail(err, err_len, -ENOMEM, "ovs: out of memory");
	if (h->ssh.host[0] == '\0' && strncmp(h->ofctl_target, "unix:", 5) == 0) {
		/* A local management socket: speak OpenFlow ourselves. */
		n = ofp_dump_ports(h->ofctl_target + 5, h->timeout_ms, o, max, err, err_len);
		if (n < 0) {
			free(o);
			return n;
		}
		goto map;
	}
	rc = ovs_tool(h, argv, NULL, 0, h->timeout_ms, &out, err, err_len);
	if (rc < 0) {
		free(o);
		if (rc == -EIO && strstr(err, "No such file") != NULL) {
			char e2[200];

			snprintf(e2, sizeof(e2), "%s", err);
			snprintf(err, err_len, "hop unreachable: %s", e2);
		}
		return rc;
	}
	n = ovs_parse_dump_ports(out.out, o, max);
	free(out.out);
	if (n < 0) {
		free(o);
		return ovs_fail(err, err_len, -EPROTO,
				"ovs: unexpected ovs-ofctl dump-ports output from %s",
				h->ofctl_target);
	}
map:
	snap->t_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	snap->nb_ports = h->nb_ports;
	for (i = 0; i < h->nb_ports; i++) {
		struct coord_port *p = &snap->port[i];
		int j;

		for (j = 0; j < n && o[j].ofport != h->ofport[i]; j++)
			;
		if (j == n) {
			/* Renumbered (port re-added)? Look again once. */
			h->ofport[i] = -1;
			free(o);
			return ovs_fail(err, err_len, -ENOENT,
					"ovs: Interface %s is not on bridge %s (dump-ports)",
					h->ports[i], h->bridge);
		}
		*p = o[j].p;
		snprintf(p->name, sizeof(p->name), "%s", h->ports[i]);
		for (k = 0; k < sizeof(ovs_drop_reasons) / sizeof(ovs_drop_reasons[0]); k++) {
			if (!o[j].has_reason[k] || p->nb_reasons == COORD_MAX_REASONS)
				continue;
			snprintf(p->reasons[p->nb_reasons].name, sizeof(p->reasons[0].name), "%s",
				 ovs_drop_reasons[k]);
			p->reasons[p->nb_reasons].value = o[j].reason[k];
			p->nb_reasons++;
		}
	}
	free(o);
	return 0;
}

static int
ovs_snapshot(struct coord_hop *hop, struct coord_snap *snap, char *err, size_t err_len)
{
	struct ovs_hop *h = hop->priv;

	if (h->stats_ovsdb)
		return ovs_snapshot_ovsdb(h, snap, err, err_len);
	return ovs_snapshot_openflow(h, snap, err, err_len);
}

static int
ovs_clear(struct coord_hop *hop, char *err, size_t err_len)
{
	struct coord_ovs_out out;
	int rc;

	/* Interface statistics cannot be cleared (the coordinator works on
	 * differences); the PMD counters can, so context() covers one trial. */
	rc = ovs_appctl(hop->priv, "dpif-netdev/pmd-stats-clear", &out, err, err_len);
	free(out.out);
	return rc;
}

static json_t *
ovs_context(struct coord_hop *hop)
{
	struct ovs_hop *h = hop->priv;
	struct coord_ovs_out out;
	char err[256];
	json_t *ctx = json_object(), *ports = json_object(), *rows;
	unsigned int i;

	if (ovs_appctl(h, "dpif-netdev/pmd-stats-show", &out, err, sizeof(err)) == 0)
		json_object_set_new(ctx, "pmd_stats_show", json_string(out.out));
	else
		json_object_set_new(ctx, "pmd_stats_show_error", json_string(err));
	free(out.out);

	if (ovs_select(h, &rows, err, sizeof(err)) == 0) {
		for (i = 0; i < h->nb_ports; i++) {
			const json_t *row = json_array_get(rows, i);
			json_t *p = json_object();
			uint64_t v;

			json_object_set(p, "ofport", json_object_get(row, "ofport"));
			json_object_set(p, "link_state", json_object_get(row, "link_state"));
			if (ovs_map_get(json_object_get(row, "statistics"), "ovs_tx_retries", &v) ==
			    1)
				json_object_set_new(p, "ovs_tx_retries",
						    json_integer((json_int_t)v));
			json_object_set_new(ports, h->ports[i], p);
		}
		json_decref(rows);
	}
	json_object_set_new(ctx, "ports", ports);
	return ctx;
}

/* Append one formatted line to a growing buffer. */
static int ovs_buf_add(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
ovs_buf_add(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*cap - *len < 256) {
		size_t nc = *cap != 0 ? *cap * 2 : 65536;
		char *nb = realloc(*buf, nc);

		if (nb == NULL)
			return -ENOMEM;
		*buf = nb;
		*cap = nc;
	}
	va_start(ap, fmt);
	n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= *cap - *len)
		return -EOVERFLOW;
	*len += (size_t)n;
	return 0;
}

static void
ovs_fmt_mac(uint64_t m, char *s, size_t len)
{
	snprintf(s, len, "%02x:%02x:%02x:%02x:%02x:%02x", (unsigned int)(m >> 40) & 0xff,
		 (unsigned int)(m >> 32) & 0xff, (unsigned int)(m >> 24) & 0xff,
		 (unsigned int)(m >> 16) & 0xff, (unsigned int)(m >> 8) & 0xff,
		 (unsigned int)m & 0xff);
}

/*
 * The flow table text for ovs-ofctl add-flows. ports[0] is the physical
 * port, ports[1] the virtual one. Flow i matches base + i; the rules back
 * from the guest match the same value (l3/l4: the guest changes no IP or
 * port; l2: by default dl_src, since the PVP guest swaps the MACs).
 */
static int
ovs_flow_text(const struct ovs_hop *h, const char *type, unsigned int flows, char **text,
	      size_t *len, unsigned int *expect, char *err, size_t err_len)
{
	const char *phy = h->ports[0], *vm = h->ports[1];
	size_t cap = 0;
	unsigned int i;
	int rc = 0;

	*text = NULL;
	*len = 0;
	if (strcmp(type, "normal") == 0) {
		*expect = 1;
		rc = ovs_buf_add(text, len, &cap, "priority=0,actions=NORMAL\n");
		goto out;
	}
	if (h->nb_ports != 2)
		return ovs_fail(
			err, err_len, -EINVAL,
			"ovs: %s rules need exactly 2 ports (physical, virtual), hop has %u", type,
			h->nb_ports);
	if (flows == 0 || flows > OVS_MAX_FLOWS)
		return ovs_fail(err, err_len, -EINVAL, "ovs: flows must be 1..%u", OVS_MAX_FLOWS);
	*expect = 2 * flows;
	if (strcmp(type, "l2") == 0) {
		if (h->l2_base + flows - 1 > 0xffffffffffffull)
			return ovs_fail(err, err_len, -ERANGE,
					"ovs: %u flows overflow the MAC range", flows);
		for (i = 0; i < flows && rc == 0; i++) {
			char mac[24];

			ovs_fmt_mac(h->l2_base + i, mac, sizeof(mac));
			rc = ovs_buf_add(text, len, &cap,
					 "priority=10,in_port=%s,dl_dst=%s,actions=output:%s\n"
					 "priority=10,in_port=%s,%s=%s,actions=output:%s\n",
					 phy, mac, vm, vm, h->l2_reverse_dst ? "dl_dst" : "dl_src",
					 mac, phy);
		}
	} else if (strcmp(type, "l3") == 0) {
		if ((uint64_t)h->l3_base + flows - 1 > 0xffffffffull)
			return ovs_fail(err, err_len, -ERANGE,
					"ovs: %u flows overflow the IPv4 range", flows);
		for (i = 0; i < flows && rc == 0; i++) {
			uint32_t a = h->l3_base + i;
			char ip[20];

			snprintf(ip, sizeof(ip), "%u.%u.%u.%u", a >> 24, (a >> 16) & 0xff,
				 (a >> 8) & 0xff, a & 0xff);
			rc = ovs_buf_add(text, len, &cap,
					 "priority=10,ip,in_port=%s,nw_dst=%s,actions=output:%s\n"
					 "priority=10,ip,in_port=%s,nw_dst=%s,actions=output:%s\n",
					 phy, ip, vm, vm, ip, phy);
		}
	} else if (strcmp(type, "l4") == 0) {
		if (h->l4_base + flows - 1 > 65535)
			return ovs_fail(err, err_len, -ERANGE,
					"ovs: %u flows from UDP port %u overflow 65535", flows,
					h->l4_base);
		for (i = 0; i < flows && rc == 0; i++)
			rc = ovs_buf_add(text, len, &cap,
					 "priority=10,udp,in_port=%s,tp_dst=%u,actions=output:%s\n"
					 "priority=10,udp,in_port=%s,tp_dst=%u,actions=output:%s\n",
					 phy, h->l4_base + i, vm, vm, h->l4_base + i, phy);
	} else {
		return ovs_fail(err, err_len, -EINVAL,
				"ovs: unknown rule type \"%s\" (normal, l2, l3, l4)", type);
	}
out:
	if (rc < 0) {
		free(*text);
		*text = NULL;
		return ovs_fail(err, err_len, rc, "ovs: out of memory building %u flows", flows);
	}
	return 0;
}

static int
ovs_install_flows(struct coord_hop *hop, const char *rule_type, unsigned int flows, char *err,
		  size_t err_len)
{
	struct ovs_hop *h = hop->priv;
	const char *del[] = {"ovs-ofctl", "del-flows", h->ofctl_target, NULL};
	/* One OpenFlow 1.4 bundle: ovs-vswitchd commits the whole table at
	 * once. Flow mods one by one took 10 s for 2000 rules on the 2-core
	 * testbed (the 5 s timeout killed it half way); the bundle 0.2 s. */
	const char *add[] = {"ovs-ofctl", "--bundle", "add-flows", h->ofctl_target, "-", NULL};
	const char *agg[] = {"ovs-ofctl", "dump-aggregate", h->ofctl_target, NULL};
	struct coord_ovs_out out;
	unsigned int expect = 0, timeout;
	unsigned long long got;
	const char *fc;
	size_t len;
	char *text;
	int rc;

	rc = ovs_flow_text(h, rule_type != NULL ? rule_type : "", flows, &text, &len, &expect, err,
			   err_len);
	if (rc < 0)
		return rc;
	/* Large tables take a while to parse and install: 100 us per rule
	 * in a bundle on the 2-core testbed (200000 rules: 21 s); allow 2x. */
	timeout = h->timeout_ms + expect / 5;
	rc = ovs_tool(h, del, NULL, 0, h->timeout_ms, &out, err, err_len);
	free(out.out);
	if (rc == 0) {
		/* The table goes in on stdin ("-"): no temp file, works over ssh. */
		rc = ovs_tool(h, add, text, len, timeout, &out, err, err_len);
		free(out.out);
	}
	free(text);
	if (rc < 0)
		return rc;
	/* dump-aggregate rather than dump-flows: one line whatever the size. */
	rc = ovs_tool(h, agg, NULL, 0, timeout, &out, err, err_len);
	if (rc < 0)
		return rc;
	fc = strstr(out.out, "flow_count=");
	if (fc == NULL || sscanf(fc, "flow_count=%llu", &got) != 1) {
		free(out.out);
		return ovs_fail(err, err_len, -EPROTO,
				"ovs: no flow_count in ovs-ofctl dump-aggregate");
	}
	free(out.out);
	if (got != expect)
		return ovs_fail(err, err_len, -EIO,
				"ovs: %s has %llu rules after installing %u (%s)", h->bridge, got,
				expect, rule_type);
	return 0;
}

const struct coord_driver coord_driver_ovs = {
	.name = "ovs",
	.roles = COORD_ROLE_VSWITCH | COORD_ROLE_COUNTERS,
	.open = ovs_open,
	.close = ovs_close,
	.snapshot = ovs_snapshot,
	.clear = ovs_clear,
	.install_flows = ovs_install_flows,
	.context = ovs_context,
};
