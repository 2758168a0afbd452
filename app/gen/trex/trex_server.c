/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The TRex RPC server: a ZeroMQ REP socket for JSON-RPC 2.0 requests
 * (single or batched, plain or in TRex's compressed framing: a 4-byte
 * magic 0xABE85CEA and the 4-byte uncompressed length, both big endian,
 * then a zlib stream) and a PUB socket on which a "{}" tells subscribed
 * clients to pull their events with get_async_events. One thread owns
 * both sockets: it waits for a request at most a few milliseconds, so
 * the ends of runs and the rates are looked after in between, and no
 * method waits on the data path for more than a few hundred ms.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <rte_cycles.h>
#include <rte_random.h>

#include <zlib.h>
#include <zmq.h>

#include "trex.h"

#define TREX_ZIP_MAGIC 0xABE85CEAu

struct trex_ctx trex;

extern pthread_mutex_t gen_lock;

static pthread_t trex_thr;
static bool trex_thr_started;

/* A session: a client's event queue (TRex's publisher context). */
struct trex_session {
	bool used;
	uint32_t id;	   /* client's session_id */
	uint32_t seq;	   /* next event's seq */
	json_t *queue;	   /* events not yet pulled */
	double last_query; /* when it last pulled, s */
	bool reader;	   /* owns no port: dropped once gone */
};

static struct trex_session trex_sess[TREX_MAX_SESSIONS];

/* One entry of the method table. */
struct trex_method {
	const char *name;
	trex_method_fn fn;
	bool needs_api; /* params.api_h must match */
	bool owned;	/* params.handler must own params.port_id */
};

static const struct trex_method trex_methods[] = {
	{"api_sync_v2", trex_m_api_sync_v2, false, false},
	{"api_sync", trex_m_api_sync, false, false},
	{"get_version", trex_m_get_version, false, false},
	{"ping", trex_m_ping, false, false},
	{"get_system_info", trex_m_get_system_info, true, false},
	{"get_supported_cmds", trex_m_get_supported_cmds, true, false},
	{"get_port_status", trex_m_get_port_status, true, false},
	{"get_owner", trex_m_get_owner, true, false},
	{"acquire", trex_m_acquire, true, false},
	{"release", trex_m_release, true, true},
	{"set_port_attr", trex_m_set_port_attr, true, true},
	{"service", trex_m_service, true, true},
	{"set_rx_feature", trex_m_set_rx_feature, true, true},
	{"remove_rx_filters", trex_m_remove_rx_filters, true, true},
	{"capture", trex_m_capture, true, false},
	{"get_tpg_status", trex_m_get_tpg_status, true, false},
	{"publish_now", NULL, true, false},
	{"get_async_events", NULL, true, false},
	{"add_stream", trex_m_add_stream, true, true},
	{"remove_stream", trex_m_remove_stream, true, true},
	{"remove_all_streams", trex_m_remove_all_streams, true, true},
	{"get_stream_list", trex_m_get_stream_list, true, false},
	{"get_all_streams", trex_m_get_all_streams, true, false},
	{"get_stream", trex_m_get_stream, true, false},
	{"start_traffic", trex_m_start_traffic, true, true},
	{"stop_traffic", trex_m_stop_traffic, true, true},
	{"pause_traffic", trex_m_pause_traffic, true, true},
	{"resume_traffic", trex_m_resume_traffic, true, true},
	{"update_traffic", trex_m_update_traffic, true, true},
	{"pause_streams", trex_m_pause_streams, true, true},
	{"resume_streams", trex_m_resume_streams, true, true},
	{"update_streams", trex_m_update_streams, true, true},
	{"validate", trex_m_validate, true, true},
	{"get_global_stats", trex_m_get_global_stats, true, false},
	{"get_port_stats", trex_m_get_port_stats, true, false},
	{"get_port_xstats_names", trex_m_get_port_xstats_names, true, false},
	{"get_port_xstats_values", trex_m_get_port_xstats_values, true, false},
	{"get_active_pgids", trex_m_get_active_pgids, true, false},
	{"get_pgid_stats", trex_m_get_pgid_stats, true, false},
};

/*
 * Methods of a real TRex server that pvpkit-gen does not have: they get
 * their own "not supported" error rather than "not registered", so a
 * user can tell a missing feature from a typo.
 */
static const char *const trex_refused[] = {
	"shutdown",
	"get_async_results",
	"cancel_async_task",
	"set_l2",
	"set_l3",
	"conf_ipv6",
	"conf_ns_batch",
	"start_capture_port",
	"stop_capture_port",
	"set_capture_port_bpf",
	"set_vlan",
	"get_rx_queue_pkts",
	"push_pkts",
	"set_global_cfg",
	"get_global_cfg",
	"get_utilization",
	"get_profile_list",
	"push_remote",
	"enable_tpg",
	"disable_tpg",
	"get_tpg_state",
	"update_tpg_tags",
	"clear_updated",
	"get_tpg_tags",
	"get_tpg_stats",
	"clear_tpg_stats",
	"get_tpg_tx_stats",
	"clear_tpg_tx_stats",
	"get_tpg_unknown_tags",
	"clear_tpg_unknown_tags",
};

/* ---- errors and parameters ---- */

json_t *
trex_fail(struct trex_err *e, int code, const char *fmt, ...)
{
	va_list ap;

	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return NULL;
}

double
trex_now_sec(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static const char *
trex_json_type(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "object";
	case JSON_ARRAY:
		return "array";
	case JSON_STRING:
		return "string";
	case JSON_INTEGER:
		return json_integer_value(v) < 0 ? "int" : "uint";
	case JSON_REAL:
		return "double";
	case JSON_TRUE:
	case JSON_FALSE:
		return "boolean";
	default:
		return "null";
	}
}

/* The member, or NULL with a "missing" error (TRex's wording). */
static json_t *
trex_member(json_t *p, const char *name, struct trex_err *e)
{
	json_t *v = json_object_get(p, name);

	if (v == NULL || json_is_null(v))
		trex_fail(e, TREX_E_PARAMS, "field '%s' is missing", name);
	return v != NULL && !json_is_null(v) ? v : NULL;
}

static int
trex_bad_type(json_t *v, const char *name, const char *want, struct trex_err *e)
{
	trex_fail(e, TREX_E_PARAMS, "'%s' is '%s', expecting '%s'", name, trex_json_type(v), want);
	return -EINVAL;
}

int
trex_param_port(json_t *p, uint16_t *port, struct trex_err *e)
{
	uint64_t v;
	char list[64];
	int n = 0;
	uint16_t i;

	if (trex_param_uint(p, "port_id", 255, -1, &v, e) != 0)
		return -EINVAL;
	if (v >= trex.g->nb_ports) {
		for (i = 0; i < trex.g->nb_ports && n < (int)sizeof(list) - 4; i++)
			n += snprintf(list + n, sizeof(list) - n, " %u", i);
		trex_fail(e, TREX_E_EXEC, "invalid port id - should be:%s", list);
		return -EINVAL;
	}
	*port = (uint16_t)v;
	return 0;
}

int
trex_param_bool(json_t *p, const char *name, int def, bool *v, struct trex_err *e)
{
	json_t *x = json_object_get(p, name);

	if ((x == NULL || json_is_null(x)) && def >= 0) {
		*v = def != 0;
		return 0;
	}
	x = trex_member(p, name, e);
	if (x == NULL)
		return -EINVAL;
	if (!json_is_boolean(x))
		return trex_bad_type(x, name, "bool", e);
	*v = json_is_true(x);
	return 0;
}

int
trex_param_uint(json_t *p, const char *name, uint64_t max, int64_t def, uint64_t *v,
		struct trex_err *e)
{
	json_t *x = json_object_get(p, name);

	if ((x == NULL || json_is_null(x)) && def >= 0) {
		*v = (uint64_t)def;
		return 0;
	}
	x = trex_member(p, name, e);
	if (x == NULL)
		return -EINVAL;
	if (!json_is_integer(x) || json_integer_value(x) < 0)
		return trex_bad_type(x, name,
				     max <= 0xff	 ? "byte"
				     : max <= 0xffff	 ? "uint16"
				     : max <= 0xffffffff ? "uint32"
							 : "uint64",
				     e);
	if ((uint64_t)json_integer_value(x) > max) {
		trex_fail(e, TREX_E_PARAMS, "'%s' has size bigger than %s.", name,
			  max <= 0xff	  ? "uint8"
			  : max <= 0xffff ? "uint16"
					  : "uint32");
		return -ERANGE;
	}
	*v = (uint64_t)json_integer_value(x);
	return 0;
}

int
trex_param_int(json_t *p, const char *name, int64_t def_set, int64_t def, int64_t *v,
	       struct trex_err *e)
{
	json_t *x = json_object_get(p, name);

	if ((x == NULL || json_is_null(x)) && def_set) {
		*v = def;
		return 0;
	}
	x = trex_member(p, name, e);
	if (x == NULL)
		return -EINVAL;
	if (!json_is_integer(x))
		return trex_bad_type(x, name, "int", e);
	*v = json_integer_value(x);
	return 0;
}

int
trex_param_double(json_t *p, const char *name, bool has_def, double def, double *v,
		  struct trex_err *e)
{
	json_t *x = json_object_get(p, name);

	if ((x == NULL || json_is_null(x)) && has_def) {
		*v = def;
		return 0;
	}
	x = trex_member(p, name, e);
	if (x == NULL)
		return -EINVAL;
	if (!json_is_number(x))
		return trex_bad_type(x, name, "double", e);
	*v = json_number_value(x);
	return 0;
}

const char *
trex_param_str(json_t *p, const char *name, const char *def, struct trex_err *e)
{
	json_t *x = json_object_get(p, name);

	if ((x == NULL || json_is_null(x)) && def != NULL)
		return def;
	x = trex_member(p, name, e);
	if (x == NULL)
		return NULL;
	if (!json_is_string(x)) {
		trex_bad_type(x, name, "string", e);
		return NULL;
	}
	return json_string_value(x);
}

json_t *
trex_param_obj(json_t *p, const char *name, struct trex_err *e)
{
	json_t *x = trex_member(p, name, e);

	if (x != NULL && !json_is_object(x)) {
		trex_bad_type(x, name, "object", e);
		return NULL;
	}
	return x;
}

json_t *
trex_param_array(json_t *p, const char *name, struct trex_err *e)
{
	json_t *x = trex_member(p, name, e);

	if (x != NULL && !json_is_array(x)) {
		trex_bad_type(x, name, "array", e);
		return NULL;
	}
	return x;
}

/*
 * "profile_id": pvpkit-gen has TRex's default profile "_" only (it does
 * not announce get_profile_list, so clients do not use others); "*"
 * (all profiles) is taken where @p allow_all.
 */
int
trex_param_profile(json_t *p, bool allow_all, struct trex_err *e)
{
	json_t *x = json_object_get(p, "profile_id");
	const char *s;

	if (x == NULL || json_is_null(x))
		return 0;
	s = json_is_string(x) ? json_string_value(x) : NULL;
	if (s != NULL && (strcmp(s, "_") == 0 || (allow_all && strcmp(s, "*") == 0)))
		return 0;
	trex_fail(e, TREX_E_EXEC, "profile_id '%s': pvpkit-gen has the default profile '_' only",
		  s != NULL ? s : trex_json_type(x));
	return -ENOTSUP;
}

/* ---- sessions and async events ---- */

static struct trex_session *
trex_session_find(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < TREX_MAX_SESSIONS; i++)
		if (trex_sess[i].used && trex_sess[i].id == id)
			return &trex_sess[i];
	return NULL;
}

static struct trex_session *
trex_session_add(uint32_t id, bool reader)
{
	struct trex_session *s = trex_session_find(id);
	unsigned int i;

	if (s != NULL) {
		if (!reader)
			s->reader = false;
		return s;
	}
	for (i = 0; i < TREX_MAX_SESSIONS; i++) {
		s = &trex_sess[i];
		if (!s->used)
			break;
	}
	if (i == TREX_MAX_SESSIONS) {
		/* Full: the session idle longest makes room. */
		struct trex_session *old = &trex_sess[0];

		for (i = 1; i < TREX_MAX_SESSIONS; i++)
			if (trex_sess[i].last_query < old->last_query)
				old = &trex_sess[i];
		s = old;
		json_decref(s->queue);
	}
	memset(s, 0, sizeof(*s));
	s->used = true;
	s->id = id;
	s->queue = json_array();
	s->last_query = trex_now_sec();
	s->reader = reader;
	return s;
}

static void
trex_publish_trigger(void)
{
	if (trex.pub != NULL)
		zmq_send(trex.pub, "{}", 2, ZMQ_DONTWAIT);
}

/*
 * Queue an event for every session and trigger the subscribers. As TRex
 * does, a session that has not pulled for 10 s gets nothing more (a
 * client that went away), and a reader-only one is then forgotten.
 */
void
trex_event(enum trex_event type, json_t *data)
{
	double now = trex_now_sec();
	unsigned int i;

	for (i = 0; i < TREX_MAX_SESSIONS; i++) {
		struct trex_session *s = &trex_sess[i];
		json_t *ev;

		if (!s->used)
			continue;
		if (json_array_size(s->queue) != 0 && now - s->last_query >= 10.0) {
			if (s->reader) {
				json_decref(s->queue);
				memset(s, 0, sizeof(*s));
			}
			continue;
		}
		if (json_array_size(s->queue) >= TREX_SESSION_QUEUE)
			continue;
		if (json_array_size(s->queue) == 0)
			s->last_query = now;
		ev = json_pack("{s:s,s:i,s:O,s:I}", "name", "trex-event", "type", (int)type, "data",
			       data, "seq", (json_int_t)s->seq++);
		if (ev != NULL)
			json_array_append_new(s->queue, ev);
	}
	json_decref(data);
	trex_publish_trigger();
}

/* A port event and the matching event of its default profile "_". */
void
trex_event_port(enum trex_event port_ev, enum trex_event profile_ev, uint16_t port)
{
	trex_event(profile_ev, json_pack("{s:i,s:s}", "port_id", port, "profile_id", "_"));
	trex_event(port_ev, json_pack("{s:i}", "port_id", port));
}

static json_t *
trex_m_publish_now(json_t *p, struct trex_err *e)
{
	uint64_t key;
	bool baseline;

	if (trex_param_uint(p, "key", UINT32_MAX, -1, &key, e) != 0 ||
	    trex_param_bool(p, "baseline", 0, &baseline, e) != 0)
		return NULL;
	trex_publish_trigger();
	return json_object();
}

static json_t *
trex_m_get_async_events(json_t *p, struct trex_err *e)
{
	struct trex_session *s;
	uint64_t id;
	json_t *data;

	if (trex_param_uint(p, "session_id", UINT32_MAX, -1, &id, e) != 0)
		return NULL;
	s = trex_session_find((uint32_t)id);
	if (s == NULL) {
		/* A new client: it reads from now on. */
		trex_session_add((uint32_t)id, true);
		return json_pack("{s:[]}", "data");
	}
	data = s->queue;
	s->queue = json_array();
	s->last_query = trex_now_sec();
	return json_pack("{s:o}", "data", data);
}

/* acquire makes the client's session an owner's (TRex's add_session_id). */
void
trex_session_owner(uint32_t id)
{
	trex_session_add(id, false);
}

/* ---- requests ---- */

static const struct trex_method *
trex_method_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(trex_methods); i++)
		if (strcmp(trex_methods[i].name, name) == 0)
			return &trex_methods[i];
	return NULL;
}

json_t *
trex_supported_list(void)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < RTE_DIM(trex_methods); i++)
		json_array_append_new(a, json_string(trex_methods[i].name));
	return a;
}

static bool
trex_is_refused(const char *name)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(trex_refused); i++)
		if (strcmp(trex_refused[i], name) == 0)
			return true;
	return false;
}

static const char *
trex_err_title(int code)
{
	switch (code) {
	case TREX_E_PARSE:
		return "Bad JSON Format";
	case TREX_E_INVALID_REQ:
		return "Invalid Request";
	case TREX_E_NO_METHOD:
		return "Method not found";
	case TREX_E_PARAMS:
		return "Bad parameters for method";
	case TREX_E_INTERNAL:
		return "Internal Server Error";
	default:
		return "Failed To Execute Method";
	}
}

/* An error response; @p id is borrowed (NULL: null). */
static json_t *
trex_error_reply(json_t *id, const struct trex_err *e)
{
	return json_pack("{s:s,s:O,s:{s:i,s:s,s:s}}", "jsonrpc", "2.0", "id",
			 id != NULL ? id : json_null(), "error", "code", e->code, "message",
			 trex_err_title(e->code), "specific_err", e->msg);
}

/* Ownership of params.port_id by params.handler (TRex's verify_ownership). */
static int
trex_check_owner(json_t *p, struct trex_err *e)
{
	const char *h = trex_param_str(p, "handler", NULL, e);
	uint16_t port;

	if (h == NULL || trex_param_port(p, &port, e) != 0)
		return -EINVAL;
	if (!trex.port[port].owned) {
		trex_fail(e, TREX_E_EXEC, "please acquire the port before modifying port state");
		return -EPERM;
	}
	if (strcmp(trex.port[port].handler, h) != 0) {
		trex_fail(e, TREX_E_EXEC,
			  "port is not owned by you or your current executing session");
		return -EPERM;
	}
	return 0;
}

/* One request object in, one response object out. */
static json_t *
trex_handle_one(json_t *req)
{
	const struct trex_method *m;
	struct trex_err e = {.code = TREX_E_INTERNAL};
	json_t *id, *params, *res;
	const char *name;

	if (!json_is_object(req)) {
		trex_fail(&e, TREX_E_INVALID_REQ, "a request must be a JSON object");
		return trex_error_reply(NULL, &e);
	}
	id = json_object_get(req, "id");
	if (id == NULL || json_is_null(id)) {
		trex_fail(&e, TREX_E_INVALID_REQ, "Missing 'id' field");
		return trex_error_reply(NULL, &e);
	}
	if (!json_is_string(json_object_get(req, "jsonrpc")) ||
	    strcmp(json_string_value(json_object_get(req, "jsonrpc")), "2.0") != 0) {
		trex_fail(&e, TREX_E_INVALID_REQ, "Invalid JSONRPC Version");
		return trex_error_reply(id, &e);
	}
	name = json_string_value(json_object_get(req, "method"));
	if (name == NULL || name[0] == '\0') {
		trex_fail(&e, TREX_E_INVALID_REQ, "Missing Method Name");
		return trex_error_reply(id, &e);
	}
	m = trex_method_find(name);
	if (m == NULL) {
		if (trex_is_refused(name))
			trex_fail(&e, TREX_E_NO_METHOD,
				  "Method '%s' is not supported by pvpkit-gen", name);
		else
			trex_fail(&e, TREX_E_NO_METHOD, "Method '%s' not registered", name);
		return trex_error_reply(id, &e);
	}
	params = json_object_get(req, "params");
	if (params == NULL || json_is_null(params)) {
		params = json_object();
		json_object_set_new(req, "params", params);
	}
	if (!json_is_object(params)) {
		trex_fail(&e, TREX_E_EXEC, "JSON-RPC2 params should be object in TRex case ");
		return trex_error_reply(id, &e);
	}
	if (m->needs_api) {
		const char *h = trex_param_str(params, "api_h", NULL, &e);

		if (h == NULL)
			return trex_error_reply(id, &e);
		if (strcmp(h, trex.api_h) != 0) {
			trex_fail(&e, TREX_E_EXEC,
				  "API verification failed - API handler provided mismatch for "
				  "class: '%s'",
				  TREX_API_NAME);
			return trex_error_reply(id, &e);
		}
	}
	if (m->owned && trex_check_owner(params, &e) != 0)
		return trex_error_reply(id, &e);
	if (m->fn != NULL)
		res = m->fn(params, &e);
	else if (strcmp(name, "publish_now") == 0)
		res = trex_m_publish_now(params, &e);
	else
		res = trex_m_get_async_events(params, &e);
	if (res == NULL)
		return trex_error_reply(id, &e);
	return json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id, "result", res);
}

/*
 * jansson's integers are signed 64-bit; TRex clients send some unsigned
 * ones above that (core_mask is 2^64 - 1). Such a literal becomes a real
 * (".0" appended): read where a real is fine, refused by name where an
 * integer is needed. Returns a new text, or NULL when there is none.
 */
static char *
trex_big_ints(const char *text, size_t len, size_t *olen)
{
	char *out = malloc(len + len / 4 + 16);
	bool str = false;
	size_t i = 0, o = 0;

	if (out == NULL)
		return NULL;
	while (i < len) {
		char ch = text[i];

		if (str) {
			out[o++] = text[i++];
			if (ch == '\\' && i < len)
				out[o++] = text[i++];
			else if (ch == '"')
				str = false;
			continue;
		}
		if (ch == '"') {
			str = true;
			out[o++] = text[i++];
			continue;
		}
		if (ch >= '0' && ch <= '9') {
			size_t j = i;
			bool big;

			while (j < len && text[j] >= '0' && text[j] <= '9')
				j++;
			big = j - i > 19 ||
			      (j - i == 19 && memcmp(text + i, "9223372036854775807", 19) > 0);
			memcpy(out + o, text + i, j - i);
			o += j - i;
			if (big &&
			    (j == len || (text[j] != '.' && text[j] != 'e' && text[j] != 'E'))) {
				if (o + 2 > len + len / 4 + 16)
					break;
				out[o++] = '.';
				out[o++] = '0';
			}
			i = j;
			continue;
		}
		out[o++] = text[i++];
		if (o + 2 > len + len / 4 + 16)
			break;
	}
	if (i < len) {
		free(out);
		return NULL;
	}
	*olen = o;
	return out;
}

/* A whole message: a request or a batch; the reply text (malloc'd). */
static char *
trex_handle_text(const char *text, size_t len)
{
	struct trex_err e = {0};
	json_error_t jerr;
	json_t *req, *rsp;
	char *out;

	req = json_loadb(text, len, 0, &jerr);
	if (req == NULL && strstr(jerr.text, "too big integer") != NULL) {
		size_t nl;
		char *fixed = trex_big_ints(text, len, &nl);

		if (fixed != NULL) {
			req = json_loadb(fixed, nl, 0, &jerr);
			free(fixed);
		}
	}
	if (req == NULL) {
		trex_fail(&e, TREX_E_PARSE, "line %d column %d: %s", jerr.line, jerr.column,
			  jerr.text);
		rsp = trex_error_reply(NULL, &e);
	} else if (json_is_array(req)) {
		size_t i;
		json_t *r;

		if (json_array_size(req) == 0) {
			trex_fail(&e, TREX_E_INVALID_REQ, "empty batch");
			rsp = trex_error_reply(NULL, &e);
		} else {
			rsp = json_array();
			pthread_mutex_lock(&gen_lock);
			json_array_foreach(req, i, r)
				json_array_append_new(rsp, trex_handle_one(r));
			pthread_mutex_unlock(&gen_lock);
		}
	} else {
		pthread_mutex_lock(&gen_lock);
		rsp = trex_handle_one(req);
		pthread_mutex_unlock(&gen_lock);
	}
	json_decref(req);
	out = json_dumps(rsp, JSON_COMPACT);
	json_decref(rsp);
	return out;
}

/* Reply to a request that could not be read: plain JSON, id null. */
static void trex_send_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
trex_send_error(int code, const char *fmt, ...)
{
	struct trex_err e = {.code = code};
	va_list ap;
	json_t *r;
	char *s;

	va_start(ap, fmt);
	vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
	va_end(ap);
	r = trex_error_reply(NULL, &e);
	s = json_dumps(r, JSON_COMPACT);
	json_decref(r);
	if (s == NULL) {
		zmq_send(trex.rep, "", 0, 0);
		return;
	}
	zmq_send(trex.rep, s, strlen(s), 0);
	free(s);
}

static uint32_t
trex_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Receive one request, answer it. */
static void
trex_serve_one(void)
{
	const uint8_t *data;
	uint8_t *plain = NULL;
	char *reply, *zreply = NULL;
	bool zipped = false;
	size_t len, rlen;
	zmq_msg_t msg;
	int more = 0;
	size_t ml = sizeof(more);

	zmq_msg_init(&msg);
	if (zmq_msg_recv(&msg, trex.rep, ZMQ_DONTWAIT) < 0) {
		zmq_msg_close(&msg);
		return;
	}
	/* A REQ peer sends one part; drain any others before the one reply. */
	zmq_getsockopt(trex.rep, ZMQ_RCVMORE, &more, &ml);
	if (more) {
		zmq_msg_t x;

		do {
			zmq_msg_init(&x);
			zmq_msg_recv(&x, trex.rep, 0);
			zmq_msg_close(&x);
			zmq_getsockopt(trex.rep, ZMQ_RCVMORE, &more, &ml);
		} while (more);
		zmq_msg_close(&msg);
		trex_send_error(TREX_E_INVALID_REQ, "a request is one message part");
		return;
	}
	data = zmq_msg_data(&msg);
	len = zmq_msg_size(&msg);
	if (len >= 8 && trex_be32(data) == TREX_ZIP_MAGIC) {
		uLongf out = trex_be32(data + 4);

		if (out > TREX_MSG_MAX) {
			zmq_msg_close(&msg);
			trex_send_error(TREX_E_INVALID_REQ,
					"request of %lu bytes is over the limit of %u bytes",
					(unsigned long)out, TREX_MSG_MAX);
			return;
		}
		plain = malloc(out + 1);
		if (plain == NULL || uncompress(plain, &out, data + 8, len - 8) != Z_OK ||
		    out != trex_be32(data + 4)) {
			free(plain);
			zmq_msg_close(&msg);
			trex_send_error(TREX_E_PARSE,
					"compressed request: bad zlib data or length mismatch");
			return;
		}
		zipped = true;
		data = plain;
		len = out;
	} else if (len > TREX_MSG_MAX) {
		zmq_msg_close(&msg);
		trex_send_error(TREX_E_INVALID_REQ,
				"request of %zu bytes is over the limit of %u bytes", len,
				TREX_MSG_MAX);
		return;
	}
	reply = trex_handle_text((const char *)data, len);
	free(plain);
	zmq_msg_close(&msg);
	if (reply == NULL) {
		trex_send_error(TREX_E_INTERNAL, "out of memory");
		return;
	}
	rlen = strlen(reply);
	if (zipped) {
		uLongf zl = compressBound(rlen);

		zreply = malloc(zl + 8);
		if (zreply != NULL &&
		    compress((Bytef *)zreply + 8, &zl, (Bytef *)reply, rlen) == Z_OK) {
			uint32_t m = htonl(TREX_ZIP_MAGIC), n = htonl((uint32_t)rlen);

			memcpy(zreply, &m, 4);
			memcpy(zreply + 4, &n, 4);
			zmq_send(trex.rep, zreply, zl + 8, 0);
			free(zreply);
			free(reply);
			return;
		}
		free(zreply);
	}
	zmq_send(trex.rep, reply, rlen, 0);
	free(reply);
}

static void *
trex_thread(void *arg)
{
	zmq_pollitem_t it = {.socket = trex.rep, .events = ZMQ_POLLIN};

	RTE_SET_USED(arg);
	while (!trex.stop) {
		int ms = trex_run_next_ms();

		if (zmq_poll(&it, 1, ms) > 0 && (it.revents & ZMQ_POLLIN))
			trex_serve_one();
		pthread_mutex_lock(&gen_lock);
		trex_run_tick();
		trex_stats_tick();
		pthread_mutex_unlock(&gen_lock);
	}
	return NULL;
}

/* ---- start and stop ---- */

static int
trex_bind(void *sock, const char *ep, char *err, size_t errlen)
{
	if (zmq_bind(sock, ep) != 0) {
		snprintf(err, errlen, "--trex: cannot bind %s: %s", ep, zmq_strerror(zmq_errno()));
		return -EADDRINUSE;
	}
	return 0;
}

int
gen_trex_start(struct gen_ctx *g, char *err, size_t errlen)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
	char host[64];
	uint16_t rpc, pub, i;
	int64_t maxmsg = 2 * (int64_t)TREX_MSG_MAX, linger = 0;
	int ret;

	memset(&trex, 0, sizeof(trex));
	trex.g = g;
	trex.boot_tsc = rte_rdtsc();
	ret = gen_trex_parse_addr(g->opt.trex, g->opt.trex_remote, host, sizeof(host), &rpc, &pub,
				  err, errlen);
	if (ret != 0)
		return ret;
	for (i = 0; i < 10; i++)
		trex.api_h[i] = abc[rte_rand_max(sizeof(abc) - 1)];
	for (i = 0; i < g->nb_ports; i++)
		trex.port[i].state = TREX_PORT_IDLE;
	snprintf(trex.rpc_ep, sizeof(trex.rpc_ep), "tcp://%s:%u", host, rpc);
	snprintf(trex.pub_ep, sizeof(trex.pub_ep), "tcp://%s:%u", host, pub);
	trex.zctx = zmq_ctx_new();
	if (trex.zctx == NULL) {
		snprintf(err, errlen, "--trex: ZeroMQ: %s", zmq_strerror(zmq_errno()));
		return -ENOMEM;
	}
	trex.rep = zmq_socket(trex.zctx, ZMQ_REP);
	trex.pub = zmq_socket(trex.zctx, ZMQ_PUB);
	if (trex.rep == NULL || trex.pub == NULL) {
		snprintf(err, errlen, "--trex: ZeroMQ sockets: %s", zmq_strerror(zmq_errno()));
		gen_trex_stop();
		return -ENOMEM;
	}
	/* A message far over the limit is dropped by ZeroMQ, not read into memory. */
	zmq_setsockopt(trex.rep, ZMQ_MAXMSGSIZE, &maxmsg, sizeof(maxmsg));
	zmq_setsockopt(trex.rep, ZMQ_LINGER, &linger, sizeof(linger));
	zmq_setsockopt(trex.pub, ZMQ_LINGER, &linger, sizeof(linger));
	if (trex_bind(trex.rep, trex.rpc_ep, err, errlen) != 0 ||
	    trex_bind(trex.pub, trex.pub_ep, err, errlen) != 0) {
		gen_trex_stop();
		return -EADDRINUSE;
	}
	ret = pthread_create(&trex_thr, NULL, trex_thread, NULL);
	if (ret != 0) {
		snprintf(err, errlen, "--trex: thread: %s", strerror(ret));
		gen_trex_stop();
		return -ret;
	}
	trex_thr_started = true;
	GEN_LOG(INFO, "TRex RPC on %s, async on %s", trex.rpc_ep, trex.pub_ep);
	printf("pvpkit-gen: TRex stateless server (API %s %d.%d) on %s, async events on %s\n",
	       TREX_API_NAME, TREX_API_MAJOR, TREX_API_MINOR, trex.rpc_ep, trex.pub_ep);
	fflush(stdout);
	return 0;
}

void
gen_trex_stop(void)
{
	unsigned int i;
	uint16_t p;

	if (trex_thr_started) {
		trex.stop = true;
		pthread_join(trex_thr, NULL);
		trex_thr_started = false;
	}
	if (trex.g != NULL) {
		pthread_mutex_lock(&gen_lock);
		for (p = 0; p < trex.g->nb_ports; p++) {
			trex_port_halt(p);
			trex_streams_clear(p);
		}
		if (trex.pub != NULL)
			trex_event(TREX_EV_SERVER_STOPPED,
				   json_pack("{s:s}", "cause", "pvpkit-gen is shutting down"));
		pthread_mutex_unlock(&gen_lock);
	}
	for (i = 0; i < TREX_MAX_SESSIONS; i++)
		json_decref(trex_sess[i].queue);
	memset(trex_sess, 0, sizeof(trex_sess));
	if (trex.rep != NULL)
		zmq_close(trex.rep);
	if (trex.pub != NULL)
		zmq_close(trex.pub);
	if (trex.zctx != NULL)
		zmq_ctx_term(trex.zctx);
	trex.rep = trex.pub = trex.zctx = NULL;
	trex.g = NULL;
}
