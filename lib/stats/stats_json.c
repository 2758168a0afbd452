/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The JSON form of a snapshot (schema: doc/stats.rst) and its parser.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "pvp_stats_json.h"

#define STATS_DIM(a)	(sizeof(a) / sizeof((a)[0]))
#define STATS_MIN(a, b) ((a) < (b) ? (a) : (b))

/* Names of the queue members, in struct pvp_stats_queue_snap order. */
static const char *const stats_queue_names[] = {"packets", "bytes", "dropped", "errors"};

static uint64_t *
stats_queue_field(struct pvp_stats_queue_snap *q, unsigned int i)
{
	uint64_t *f[] = {&q->packets, &q->bytes, &q->dropped, &q->errors};

	return f[i];
}

/*
 * json_integer() takes a signed 64-bit value. Counters and TSC values
 * stay below 2^63 for centuries; clamp rather than emit a negative.
 */
static json_int_t
stats_int(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)v;
}

static json_t *
stats_queues_to_json(const struct pvp_stats_queue_snap *qs, uint16_t nb)
{
	json_t *arr = json_array();
	uint16_t q;

	for (q = 0; arr != NULL && q < STATS_MIN(nb, PVP_STATS_MAX_QUEUES); q++)
		if (json_array_append_new(arr, json_pack("{s:I, s:I, s:I, s:I}", "packets",
							 stats_int(qs[q].packets), "bytes",
							 stats_int(qs[q].bytes), "dropped",
							 stats_int(qs[q].dropped), "errors",
							 stats_int(qs[q].errors))) != 0) {
			json_decref(arr);
			return NULL;
		}
	return arr;
}

static json_t *
stats_xstats_to_json(const struct pvp_stats_port_snap *ps)
{
	json_t *o = json_object();
	uint16_t i;

	for (i = 0; o != NULL && i < STATS_MIN(ps->nb_xstats, PVP_STATS_MAX_XSTATS); i++)
		if (json_object_set_new(o, ps->xstats[i].name,
					json_integer(stats_int(ps->xstats[i].value))) != 0) {
			json_decref(o);
			return NULL;
		}
	return o;
}

static json_t *
stats_port_to_json(const struct pvp_stats_port_snap *ps, uint16_t port)
{
	json_t *o = json_pack("{s:i, s:s, s:i}", "port", port, "name", ps->name, "eth_port_id",
			      ps->eth_port_id);
	unsigned int i;

	for (i = 0; o != NULL && i < PVP_STATS_NB_COUNTERS; i++)
		if (json_object_set_new(o, pvp_stats_counter_names[i],
					json_integer(stats_int(ps->c[i]))) != 0)
			goto fail;
	/* json_object_update_new() refuses a NULL (failed) pack, and frees it. */
	if (json_object_update_new(o, json_pack("{s:I, s:I, s:I, s:o, s:o, s:o}", "rx_missed",
						stats_int(ps->rx_missed), "rx_nombuf",
						stats_int(ps->rx_nombuf), "rx_sw_dropped",
						stats_int(ps->rx_sw_dropped), "rxq",
						stats_queues_to_json(ps->rxq, ps->nb_rxq), "txq",
						stats_queues_to_json(ps->txq, ps->nb_txq), "xstats",
						stats_xstats_to_json(ps))) != 0)
		goto fail;
	return o;
fail:
	json_decref(o);
	return NULL;
}

json_t *
pvp_stats_snap_to_json(const struct pvp_stats_snap *snap)
{
	json_t *root, *ports;
	uint16_t p;

	if (snap == NULL)
		return NULL;
	root = json_pack("{s:s, s:I, s:I, s:[]}", "name", snap->name, "tsc", stats_int(snap->tsc),
			 "hz", stats_int(snap->hz), "ports");
	ports = json_object_get(root, "ports");
	for (p = 0; root != NULL && p < STATS_MIN(snap->nb_ports, PVP_STATS_MAX_PORTS); p++)
		if (json_array_append_new(ports, stats_port_to_json(&snap->port[p], p)) != 0) {
			json_decref(root);
			return NULL;
		}
	return root;
}

/* Parser state: where we are, for the one-line error message. */
struct stats_parse {
	char *err;	/* caller's buffer, may be NULL */
	size_t err_len; /* its size */
	char path[128]; /* member being read, "ports[1].rx_packets" */
};

/* What a JSON value is, for messages: "expected ..., got a string". */
static const char *
stats_json_type(const json_t *v)
{
	static const char *const names[] = {
		[JSON_OBJECT] = "an object", [JSON_ARRAY] = "an array",
		[JSON_STRING] = "a string",  [JSON_INTEGER] = "an integer",
		[JSON_REAL] = "a real",	     [JSON_TRUE] = "a boolean",
		[JSON_FALSE] = "a boolean",  [JSON_NULL] = "null",
	};

	return names[json_typeof(v)];
}

static int stats_fail(struct stats_parse *ps, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
stats_fail(struct stats_parse *ps, const char *path, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (ps->err == NULL || ps->err_len == 0)
		return -EINVAL;
	if (path != NULL && path[0] != '\0')
		n = snprintf(ps->err, ps->err_len, "%s: ", path);
	if (n >= 0 && (size_t)n < ps->err_len) {
		va_start(ap, fmt);
		vsnprintf(ps->err + n, ps->err_len - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/*
 * Member 'key' of 'obj' into *v, its path into ps->path. Absent: 1 (and
 * no message) when optional, else an error.
 */
static int
stats_member(struct stats_parse *ps, const json_t *obj, const char *prefix, const char *key,
	     bool optional, const json_t **v)
{
	snprintf(ps->path, sizeof(ps->path), "%s%s", prefix, key);
	*v = json_object_get(obj, key);
	if (*v != NULL)
		return 0;
	return optional ? 1 : stats_fail(ps, ps->path, "missing");
}

/* Member 'key' of 'obj' as a non-negative integer; an optional one absent: 0, *out kept. */
static int
stats_get_u64(struct stats_parse *ps, const json_t *obj, const char *prefix, const char *key,
	      bool optional, uint64_t *out)
{
	const json_t *v;
	int rc = stats_member(ps, obj, prefix, key, optional, &v);

	if (rc != 0)
		return rc < 0 ? rc : 0;
	if (!json_is_integer(v))
		return stats_fail(ps, ps->path, "expected a non-negative integer, got %s",
				  stats_json_type(v));
	if (json_integer_value(v) < 0)
		return stats_fail(ps, ps->path,
				  "expected a non-negative integer, got %" JSON_INTEGER_FORMAT,
				  json_integer_value(v));
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* Member 'key' of 'obj' as a string shorter than 'len' (as stats_get_u64()). */
static int
stats_get_string(struct stats_parse *ps, const json_t *obj, const char *prefix, const char *key,
		 bool optional, char *out, size_t len)
{
	const json_t *v;
	int rc = stats_member(ps, obj, prefix, key, optional, &v);

	if (rc != 0)
		return rc < 0 ? rc : 0;
	if (!json_is_string(v))
		return stats_fail(ps, ps->path, "expected a string, got %s", stats_json_type(v));
	if (json_string_length(v) >= len)
		return stats_fail(ps, ps->path, "longer than %zu bytes", len - 1);
	snprintf(out, len, "%s", json_string_value(v));
	return 0;
}

static int
stats_queues_from_json(struct stats_parse *ps, const json_t *port, const char *prefix,
		       const char *key, struct pvp_stats_queue_snap *qs, uint16_t *nb)
{
	const json_t *arr = json_object_get(port, key);
	char path[64], qprefix[96];
	size_t q;
	unsigned int i;
	int rc;

	*nb = 0;
	snprintf(path, sizeof(path), "%s%s", prefix, key);
	if (arr == NULL)
		return 0;
	if (!json_is_array(arr))
		return stats_fail(ps, path, "expected an array, got %s", stats_json_type(arr));
	if (json_array_size(arr) > PVP_STATS_MAX_QUEUES)
		return stats_fail(ps, path, "%zu queues, at most %d", json_array_size(arr),
				  PVP_STATS_MAX_QUEUES);
	for (q = 0; q < json_array_size(arr); q++) {
		const json_t *o = json_array_get(arr, q);

		snprintf(qprefix, sizeof(qprefix), "%s[%u].", path, (unsigned int)(uint16_t)q);
		if (!json_is_object(o)) {
			qprefix[strlen(qprefix) - 1] = '\0';
			return stats_fail(ps, qprefix, "expected an object, got %s",
					  stats_json_type(o));
		}
		for (i = 0; i < STATS_DIM(stats_queue_names); i++) {
			rc = stats_get_u64(ps, o, qprefix, stats_queue_names[i], false,
					   stats_queue_field(&qs[q], i));
			if (rc < 0)
				return rc;
		}
	}
	*nb = (uint16_t)q;
	return 0;
}

/* Optional "xstats": {name: count}, at most PVP_STATS_MAX_XSTATS members. */
static int
stats_xstats_from_json(struct stats_parse *ps, const json_t *port, const char *prefix,
		       struct pvp_stats_port_snap *out)
{
	const json_t *obj = json_object_get(port, "xstats");
	char path[64], xprefix[80];
	const char *key;
	const json_t *v;
	int rc;

	out->nb_xstats = 0;
	snprintf(path, sizeof(path), "%sxstats", prefix);
	if (obj == NULL)
		return 0;
	if (!json_is_object(obj))
		return stats_fail(ps, path, "expected an object, got %s", stats_json_type(obj));
	if (json_object_size(obj) > PVP_STATS_MAX_XSTATS)
		return stats_fail(ps, path, "%zu xstats, at most %d", json_object_size(obj),
				  PVP_STATS_MAX_XSTATS);
	snprintf(xprefix, sizeof(xprefix), "%s.", path);
	json_object_foreach((json_t *)(uintptr_t)obj, key, v) {
		struct pvp_stats_xstat_snap *x = &out->xstats[out->nb_xstats];

		if (key[0] == '\0' || strlen(key) >= sizeof(x->name))
			return stats_fail(ps, path, "xstat name empty or longer than %zu bytes",
					  sizeof(x->name) - 1);
		rc = stats_get_u64(ps, obj, xprefix, key, false, &x->value);
		if (rc < 0)
			return rc;
		snprintf(x->name, sizeof(x->name), "%s", key);
		out->nb_xstats++;
	}
	return 0;
}

static int
stats_port_from_json(struct stats_parse *ps, const json_t *o, size_t idx,
		     struct pvp_stats_port_snap *port)
{
	char prefix[48];
	const json_t *v;
	uint64_t u;
	unsigned int i;
	int rc;

	memset(port, 0, sizeof(*port));
	snprintf(prefix, sizeof(prefix), "ports[%zu]", idx);
	if (!json_is_object(o))
		return stats_fail(ps, prefix, "expected an object, got %s", stats_json_type(o));
	strcat(prefix, ".");
	rc = stats_get_u64(ps, o, prefix, "port", false, &u);
	if (rc < 0)
		return rc;
	if (u != idx)
		return stats_fail(ps, NULL, "%sport: is %" PRIu64 ", expected %zu (ports in order)",
				  prefix, u, idx);
	rc = stats_get_string(ps, o, prefix, "name", true, port->name, sizeof(port->name));
	if (rc < 0)
		return rc;
	v = json_object_get(o, "eth_port_id");
	port->eth_port_id = -1;
	if (v != NULL) {
		if (!json_is_integer(v))
			return stats_fail(ps, NULL, "%seth_port_id: expected -1..65535, got %s",
					  prefix, stats_json_type(v));
		if (json_integer_value(v) < -1 || json_integer_value(v) > UINT16_MAX)
			return stats_fail(
				ps, NULL,
				"%seth_port_id: expected -1..65535, got %" JSON_INTEGER_FORMAT,
				prefix, json_integer_value(v));
		port->eth_port_id = (int32_t)json_integer_value(v);
	}
	for (i = 0; i < PVP_STATS_NB_COUNTERS; i++) {
		rc = stats_get_u64(ps, o, prefix, pvp_stats_counter_names[i], false, &port->c[i]);
		if (rc < 0)
			return rc;
	}
	/* The breakdown and the queues are optional: other hops may not have them. */
	rc = stats_get_u64(ps, o, prefix, "rx_missed", true, &port->rx_missed);
	if (rc == 0)
		rc = stats_get_u64(ps, o, prefix, "rx_nombuf", true, &port->rx_nombuf);
	if (rc == 0)
		rc = stats_get_u64(ps, o, prefix, "rx_sw_dropped", true, &port->rx_sw_dropped);
	if (rc == 0)
		rc = stats_queues_from_json(ps, o, prefix, "rxq", port->rxq, &port->nb_rxq);
	if (rc == 0)
		rc = stats_xstats_from_json(ps, o, prefix, port);
	return rc < 0 ? rc : stats_queues_from_json(ps, o, prefix, "txq", port->txq, &port->nb_txq);
}

int
pvp_stats_snap_from_json(const json_t *json, struct pvp_stats_snap *snap, char *err, size_t err_len)
{
	struct stats_parse ps = {.err = err, .err_len = err_len};
	const json_t *ports;
	size_t p;
	int rc;

	if (err != NULL && err_len > 0)
		err[0] = '\0';
	if (snap == NULL)
		return stats_fail(&ps, NULL, "no snapshot to fill");
	memset(snap, 0, sizeof(*snap));
	if (json == NULL)
		return stats_fail(&ps, NULL, "no JSON value");
	if (!json_is_object(json))
		return stats_fail(&ps, NULL, "snapshot: expected an object, got %s",
				  stats_json_type(json));
	rc = stats_get_string(&ps, json, "", "name", false, snap->name, sizeof(snap->name));
	if (rc == 0)
		rc = stats_get_u64(&ps, json, "", "tsc", false, &snap->tsc);
	if (rc == 0)
		rc = stats_get_u64(&ps, json, "", "hz", false, &snap->hz);
	if (rc < 0)
		return rc;
	ports = json_object_get(json, "ports");
	if (ports == NULL)
		return stats_fail(&ps, "ports", "missing");
	if (!json_is_array(ports))
		return stats_fail(&ps, "ports", "expected an array, got %s",
				  stats_json_type(ports));
	if (json_array_size(ports) > PVP_STATS_MAX_PORTS)
		return stats_fail(&ps, "ports", "%zu ports, at most %d", json_array_size(ports),
				  PVP_STATS_MAX_PORTS);
	for (p = 0; p < json_array_size(ports); p++) {
		rc = stats_port_from_json(&ps, json_array_get(ports, p), p, &snap->port[p]);
		if (rc < 0)
			return rc;
	}
	snap->nb_ports = (uint16_t)p;
	return 0;
}
