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
 * the events of runs that ended and the rates are looked after in
 * between (the TX lcores end a run on time by themselves), and no method
 * waits on the data path for more than a few hundred ms.
 */

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* One entry of the method table. */
struct trex_method {
	const char *name;
	trex_method_fn *fn;
	bool needs_api;		  /* params.api_h must match */
	bool owned;		  /* params.handler must own params.port_id */
	trex_port_method_fn *pfn; /* instead of fn: a method of one port */
	enum {
		TREX_ARG_PORT = 1,    /* pfn's port: "port_id" */
		TREX_ARG_PROFILE,     /* and "profile_id" "_" */
		TREX_ARG_PROFILE_ALL, /* and "profile_id" "_" or "*" */
	} arg;
};

static const struct trex_method trex_methods[] = {
	{"api_sync_v2", trex_m_api_sync_v2, false, false},
	{"api_sync", trex_m_api_sync, false, false},
	{"get_version", trex_m_get_version, false, false},
	{"ping", trex_m_ping, false, false},
	{"get_system_info", trex_m_get_system_info, true, false},
	{"get_supported_cmds", trex_m_get_supported_cmds, true, false},
	{"get_port_status", NULL, true, false, trex_m_get_port_status, TREX_ARG_PROFILE_ALL},
	{"get_owner", NULL, true, false, trex_m_get_owner, TREX_ARG_PORT},
	{"acquire", NULL, true, false, trex_m_acquire, TREX_ARG_PORT},
	{"release", NULL, true, true, trex_m_release, TREX_ARG_PROFILE},
	{"set_port_attr", NULL, true, true, trex_m_set_port_attr, TREX_ARG_PORT},
	{"service", NULL, true, true, trex_m_service, TREX_ARG_PORT},
	{"set_rx_feature", NULL, true, true, trex_m_set_rx_feature, TREX_ARG_PORT},
	{"remove_rx_filters", NULL, true, true, trex_m_remove_rx_filters, TREX_ARG_PROFILE},
	{"set_l2", NULL, true, true, trex_m_set_l2, TREX_ARG_PORT},
	{"set_l3", NULL, true, true, trex_m_set_l3, TREX_ARG_PORT},
	{"conf_ipv6", NULL, true, true, trex_m_conf_ipv6, TREX_ARG_PORT},
	{"set_vlan", NULL, true, true, trex_m_set_vlan, TREX_ARG_PORT},
	{"get_rx_queue_pkts", NULL, true, false, trex_m_get_rx_queue_pkts, TREX_ARG_PORT},
	{"push_pkts", NULL, true, false, trex_m_push_pkts, TREX_ARG_PORT},
	{"capture", trex_m_capture, true, false},
	{"start_capture_port", NULL, true, false, trex_m_start_capture_port, TREX_ARG_PORT},
	{"stop_capture_port", NULL, true, false, trex_m_stop_capture_port, TREX_ARG_PORT},
	{"set_capture_port_bpf", NULL, true, false, trex_m_set_capture_port_bpf, TREX_ARG_PORT},
	{"get_tpg_status", trex_m_get_tpg_status, true, false},
	{"enable_tpg", trex_m_enable_tpg, true, false},
	{"disable_tpg", trex_m_disable_tpg, true, false},
	{"get_tpg_state", trex_m_get_tpg_state, true, false},
	{"update_tpg_tags", trex_m_update_tpg_tags, true, false},
	{"clear_updated", trex_m_clear_updated, true, false},
	{"get_tpg_tags", trex_m_get_tpg_tags, true, false},
	{"get_tpg_stats", NULL, true, false, trex_m_get_tpg_stats, TREX_ARG_PORT},
	{"clear_tpg_stats", trex_m_clear_tpg_stats, true, false},
	{"get_tpg_tx_stats", NULL, true, false, trex_m_get_tpg_tx_stats, TREX_ARG_PORT},
	{"clear_tpg_tx_stats", NULL, true, false, trex_m_clear_tpg_tx_stats, TREX_ARG_PORT},
	{"get_tpg_unknown_tags", NULL, true, false, trex_m_get_tpg_unknown_tags, TREX_ARG_PORT},
	{"clear_tpg_unknown_tags", NULL, true, false, trex_m_clear_tpg_unknown_tags, TREX_ARG_PORT},
	{"publish_now", trex_m_publish_now, true, false},
	{"get_async_events", trex_m_get_async_events, true, false},
	{"add_stream", NULL, true, true, trex_m_add_stream, TREX_ARG_PROFILE},
	{"remove_stream", NULL, true, true, trex_m_remove_stream, TREX_ARG_PROFILE},
	{"remove_all_streams", NULL, true, true, trex_m_remove_all_streams, TREX_ARG_PROFILE},
	{"get_stream_list", NULL, true, false, trex_m_get_stream_list, TREX_ARG_PROFILE_ALL},
	{"get_all_streams", NULL, true, false, trex_m_get_all_streams, TREX_ARG_PROFILE_ALL},
	{"get_stream", NULL, true, false, trex_m_get_stream, TREX_ARG_PROFILE},
	{"start_traffic", NULL, true, true, trex_m_start_traffic, TREX_ARG_PROFILE},
	{"stop_traffic", NULL, true, true, trex_m_stop_traffic, TREX_ARG_PROFILE_ALL},
	{"pause_traffic", NULL, true, true, trex_m_pause_traffic, TREX_ARG_PROFILE_ALL},
	{"resume_traffic", NULL, true, true, trex_m_resume_traffic, TREX_ARG_PROFILE_ALL},
	{"update_traffic", NULL, true, true, trex_m_update_traffic, TREX_ARG_PROFILE_ALL},
	{"pause_streams", NULL, true, true, trex_m_pause_streams, TREX_ARG_PROFILE},
	{"resume_streams", NULL, true, true, trex_m_resume_streams, TREX_ARG_PROFILE},
	{"update_streams", NULL, true, true, trex_m_update_streams, TREX_ARG_PROFILE},
	{"validate", NULL, true, true, trex_m_validate, TREX_ARG_PROFILE},
	{"push_remote", NULL, true, true, trex_m_push_remote, TREX_ARG_PORT},
	{"get_utilization", trex_m_get_utilization, true, false},
	{"get_global_stats", trex_m_get_global_stats, true, false},
	{"get_port_stats", NULL, true, false, trex_m_get_port_stats, TREX_ARG_PORT},
	{"get_port_xstats_names", NULL, true, false, trex_m_get_port_xstats_names, TREX_ARG_PORT},
	{"get_port_xstats_values", NULL, true, false, trex_m_get_port_xstats_values, TREX_ARG_PORT},
	{"get_active_pgids", trex_m_get_active_pgids, true, false},
	{"get_pgid_stats", trex_m_get_pgid_stats, true, false},
};

/*
 * Methods of a real TRex server that pvpkit-gen does not have: they get
 * their own "not supported" error rather than "not registered", so a
 * user can tell a missing feature from a typo.
 */
static const char *const trex_refused[] = {
	"shutdown",	  "get_async_results", "cancel_async_task", "conf_ns_batch",
	"set_global_cfg", "get_global_cfg",    "get_profile_list",
};

/* ---- requests ---- */

int
trex_m_get_supported_cmds(json_t *p, json_t **res, char *err, size_t err_len)
{
	unsigned int i;

	*res = json_array();
	for (i = 0; i < RTE_DIM(trex_methods); i++)
		json_array_append_new(*res, json_string(trex_methods[i].name));
	return 0;
}

/*
 * The answer's code and title for a method's -errno (trex.h): the one
 * place a TRex error code comes from. Any other errno: the last one.
 */
static const struct {
	int ret;
	int code;
	const char *title;
} trex_codes[] = {
	{-EBADMSG, TREX_E_PARSE, "Bad JSON Format"},
	{-EPROTO, TREX_E_INVALID_REQ, "Invalid Request"},
	{-ENOSYS, TREX_E_NO_METHOD, "Method not found"},
	{-EINVAL, TREX_E_PARAMS, "Bad parameters for method"},
	{-EIO, TREX_E_INTERNAL, "Internal Server Error"},
	{-ENOMEM, TREX_E_INTERNAL, "Internal Server Error"},
	{0, TREX_E_EXEC, "Failed To Execute Method"},
};

/* An error response for -errno @p ret and line @p msg; @p id is borrowed (NULL: null). */
static json_t *
trex_error_reply(json_t *id, int ret, const char *msg)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(trex_codes) - 1 && trex_codes[i].ret != ret; i++)
		;
	return json_pack("{s:s,s:O,s:{s:i,s:s,s:s}}", "jsonrpc", "2.0", "id",
			 id != NULL ? id : json_null(), "error", "code", trex_codes[i].code,
			 "message", trex_codes[i].title, "specific_err", msg);
}

/* One request object in, one response object out. */
static json_t *
trex_handle_one(json_t *req)
{
	const struct trex_method *m;
	char err[TREX_ERR_LEN] = "";
	json_t *id, *params, *res = NULL;
	unsigned int i, k;
	uint16_t port = 0;
	const char *name, *h;
	int ret = 0;

	if (!json_is_object(req))
		return trex_error_reply(NULL, -EPROTO, "a request must be a JSON object");
	id = json_object_get(req, "id");
	if (id == NULL || json_is_null(id))
		return trex_error_reply(NULL, -EPROTO, "Missing 'id' field");
	if (!json_is_string(json_object_get(req, "jsonrpc")) ||
	    strcmp(json_string_value(json_object_get(req, "jsonrpc")), "2.0") != 0)
		return trex_error_reply(id, -EPROTO, "Invalid JSONRPC Version");
	name = json_string_value(json_object_get(req, "method"));
	if (name == NULL || name[0] == '\0')
		return trex_error_reply(id, -EPROTO, "Missing Method Name");
	for (i = 0; i < RTE_DIM(trex_methods) && strcmp(trex_methods[i].name, name) != 0; i++)
		;
	if (i == RTE_DIM(trex_methods)) {
		for (k = 0; k < RTE_DIM(trex_refused) && strcmp(trex_refused[k], name) != 0; k++)
			;
		ret = pvp_fail(err, sizeof(err), -ENOSYS,
			       k < RTE_DIM(trex_refused)
				       ? "Method '%s' is not supported by pvpkit-gen"
				       : "Method '%s' not registered",
			       name);
		return trex_error_reply(id, ret, err);
	}
	m = &trex_methods[i];
	params = json_object_get(req, "params");
	if (params == NULL || json_is_null(params)) {
		params = json_object();
		json_object_set_new(req, "params", params);
	}
	if (!json_is_object(params))
		return trex_error_reply(id, -EPERM,
					"JSON-RPC2 params should be object in TRex case ");
	/* The checks the method's entry asks for, in TRex's order, then the method. */
	if (m->needs_api) {
		h = trex_param_str(params, "api_h", NULL, err, sizeof(err));
		if (h == NULL)
			ret = -EINVAL;
		else if (strcmp(h, trex.api_h) != 0)
			ret = pvp_fail(err, sizeof(err), -EPERM,
				       "API verification failed - API handler provided mismatch "
				       "for class: '%s'",
				       TREX_API_NAME);
	}
	/* TRex's verify_ownership: params.handler must own params.port_id. */
	if (ret == 0 && m->owned &&
	    (h = trex_param_str(params, "handler", NULL, err, sizeof(err))) == NULL)
		ret = -EINVAL;
	if (ret == 0 && (m->owned || m->pfn != NULL))
		ret = trex_param_port(params, &port, err, sizeof(err));
	if (ret == 0 && m->owned && !trex.port[port].owned)
		ret = pvp_fail(err, sizeof(err), -EPERM,
			       "please acquire the port before modifying port state");
	else if (ret == 0 && m->owned && strcmp(trex.port[port].handler, h) != 0)
		ret = pvp_fail(err, sizeof(err), -EPERM,
			       "port is not owned by you or your current executing session");
	if (ret == 0 && m->pfn != NULL && m->arg != TREX_ARG_PORT)
		ret = trex_param_profile(params, m->arg == TREX_ARG_PROFILE_ALL, err, sizeof(err));
	if (ret == 0)
		ret = m->pfn != NULL ? m->pfn(port, params, &res, err, sizeof(err))
				     : m->fn(params, &res, err, sizeof(err));
	/* A method that failed without saying why (an answer jansson could not build). */
	if ((ret != 0 || res == NULL) && err[0] == '\0')
		ret = pvp_fail(err, sizeof(err), -EIO, "%s: the answer could not be built", name);
	if (ret != 0 || res == NULL) {
		json_decref(res);
		return trex_error_reply(id, ret != 0 ? ret : -EIO, err);
	}
	return json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id, "result", res);
}

/* Reply to a message that could not be read: plain JSON, id null (malloc'd, or NULL). */
static char *trex_error_text(int ret, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static char *
trex_error_text(int ret, const char *fmt, ...)
{
	char err[TREX_ERR_LEN];
	va_list ap;
	json_t *r;
	char *s;

	va_start(ap, fmt);
	vsnprintf(err, sizeof(err), fmt, ap);
	va_end(ap);
	r = trex_error_reply(NULL, ret, err);
	s = json_dumps(r, JSON_COMPACT);
	json_decref(r);
	return s;
}

static char *
trex_handle_text(const char *text, size_t len)
{
	json_error_t jerr;
	json_t *req, *rsp, *r;
	size_t n, i;
	char *out;

	/*
	 * A batch is counted before it is parsed: 16 MiB of "1," made 8
	 * million requests, 12 GB and minutes of the only server thread.
	 */
	n = trex_batch_size(text, len);
	if (n > TREX_MAX_BATCH)
		return trex_error_text(-EPROTO, "a batch of %zu requests; at most %u", n,
				       TREX_MAX_BATCH);
	req = json_loadb(text, len, 0, &jerr);
	if (req == NULL && strstr(jerr.text, "too big integer") != NULL) {
		size_t nl;
		char *fixed = trex_big_ints(text, len, &nl);

		if (fixed != NULL) {
			req = json_loadb(fixed, nl, 0, &jerr);
			free(fixed);
		}
	}
	if (req == NULL)
		return trex_error_text(-EBADMSG, "line %d column %d: %s", jerr.line, jerr.column,
				       jerr.text);
	pthread_mutex_lock(&gen_lock);
	if (!json_is_array(req)) {
		rsp = trex_handle_one(req);
	} else if (json_array_size(req) == 0) {
		rsp = trex_error_reply(NULL, -EPROTO, "empty batch");
	} else {
		rsp = json_array();
		json_array_foreach(req, i, r)
			json_array_append_new(rsp, trex_handle_one(r));
	}
	pthread_mutex_unlock(&gen_lock);
	json_decref(req);
	out = json_dumps(rsp, JSON_COMPACT);
	json_decref(rsp);
	return out;
}

/* @p reply in the compressed framing, or NULL (then it goes plain). */
static char *
trex_zip(const char *reply, size_t rlen, size_t *zlen)
{
	uLongf zl = compressBound(rlen);
	uint8_t *z = malloc(zl + 8);

	if (z == NULL || compress(z + 8, &zl, (const Bytef *)reply, rlen) != Z_OK) {
		free(z);
		return NULL;
	}
	pvp_put_be32(z, TREX_ZIP_MAGIC);
	pvp_put_be32(z + 4, (uint32_t)rlen);
	*zlen = zl + 8;
	return (char *)z;
}

char *
trex_handle_msg(const uint8_t *data, size_t len, size_t *rlen)
{
	bool zip = len >= 8 && pvp_get_be32(data) == TREX_ZIP_MAGIC;
	/* The request's own size: a compressed one's as its framing gives it. */
	uLongf out = zip ? pvp_get_be32(data + 4) : len;
	char *reply, *zreply = NULL;
	uint8_t *plain = NULL;
	size_t zlen;

	if (out > TREX_MSG_MAX) {
		reply = trex_error_text(-EPROTO,
					"request of %lu bytes is over the limit of %u bytes",
					(unsigned long)out, TREX_MSG_MAX);
	} else if (!zip) {
		reply = trex_handle_text((const char *)data, len);
	} else if ((plain = malloc(out + 1)) == NULL ||
		   uncompress(plain, &out, data + 8, len - 8) != Z_OK ||
		   out != pvp_get_be32(data + 4)) {
		reply = trex_error_text(-EBADMSG,
					"compressed request: bad zlib data or length mismatch");
	} else {
		/* The answer to a compressed request goes compressed, or plain if it cannot. */
		reply = trex_handle_text((const char *)plain, out);
		zreply = reply != NULL ? trex_zip(reply, strlen(reply), &zlen) : NULL;
	}
	free(plain);
	if (zreply != NULL) {
		free(reply);
		*rlen = zlen;
		return zreply;
	}
	if (reply != NULL)
		*rlen = strlen(reply);
	return reply;
}

/* Receive one request, answer it. */
static void
trex_serve_one(void)
{
	char *reply;
	size_t rlen = 0;
	zmq_msg_t msg;
	int more = 0;
	size_t ml = sizeof(more);

	zmq_msg_init(&msg);
	if (zmq_msg_recv(&msg, trex.rep, ZMQ_DONTWAIT) < 0) {
		zmq_msg_close(&msg);
		return;
	}
	/* A REQ peer sends one part; any others are drained before the one reply. */
	zmq_getsockopt(trex.rep, ZMQ_RCVMORE, &more, &ml);
	if (more)
		reply = trex_error_text(-EPROTO, "a request is one message part");
	else
		reply = trex_handle_msg(zmq_msg_data(&msg), zmq_msg_size(&msg), &rlen);
	while (more) {
		zmq_msg_close(&msg);
		zmq_msg_init(&msg);
		zmq_msg_recv(&msg, trex.rep, 0);
		zmq_getsockopt(trex.rep, ZMQ_RCVMORE, &more, &ml);
	}
	zmq_msg_close(&msg);
	/* No reply (out of memory): that error instead. */
	if (reply == NULL)
		reply = trex_error_text(-ENOMEM, "out of memory");
	/* The server's own errors are plain text; trex_handle_msg() gave its reply's length. */
	if (rlen == 0 && reply != NULL)
		rlen = strlen(reply);
	zmq_send(trex.rep, reply != NULL ? reply : "", rlen, 0);
	free(reply);
}

static void *
trex_thread(void *arg)
{
	zmq_pollitem_t it = {.socket = trex.rep, .events = ZMQ_POLLIN};

	RTE_SET_USED(arg);
	while (!trex.stop) {
		int ms = trex_run_next_ms(), cp = trex_capport_next_ms();
		int64_t us = trex_service_next_us();

		/* A capture port's frames move at least every millisecond. */
		if (cp >= 0 && cp < ms)
			ms = cp;

		/* push_pkts' gaps are kept to the microsecond, not zmq_poll's millisecond. */
		if (us >= 0 && us < 1000) {
			rte_delay_us_sleep(us != 0 ? (unsigned int)us : 20);
			ms = 0;
		} else if (us >= 1000 && us / 1000 < ms) {
			ms = (int)(us / 1000);
		}
		if (zmq_poll(&it, 1, ms) > 0 && (it.revents & ZMQ_POLLIN))
			trex_serve_one();
		pthread_mutex_lock(&gen_lock);
		trex_run_tick();
		trex_stats_tick();
		trex_service_tick();
		trex_capport_tick();
		pthread_mutex_unlock(&gen_lock);
	}
	return NULL;
}

/* ---- start and stop ---- */

static int
trex_bind(void *sock, const char *ep, char *err, size_t errlen)
{
	if (zmq_bind(sock, ep) != 0)
		return pvp_fail(err, errlen, -EADDRINUSE, "--trex: cannot bind %s: %s", ep,
				zmq_strerror(zmq_errno()));
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
	ret = trex_service_init(err, errlen);
	if (ret != 0)
		return ret;
	snprintf(trex.rpc_ep, sizeof(trex.rpc_ep), "tcp://%s:%u", host, rpc);
	snprintf(trex.pub_ep, sizeof(trex.pub_ep), "tcp://%s:%u", host, pub);
	trex.zctx = zmq_ctx_new();
	if (trex.zctx == NULL)
		return pvp_fail(err, errlen, -ENOMEM, "--trex: ZeroMQ: %s",
				zmq_strerror(zmq_errno()));
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
		/* The capture ports' sockets first: the context waits for every socket to close. */
		trex_tpg_free();
		trex_capport_fini();
	}
	trex_sessions_free();
	if (trex.rep != NULL)
		zmq_close(trex.rep);
	if (trex.pub != NULL)
		zmq_close(trex.pub);
	if (trex.zctx != NULL)
		zmq_ctx_term(trex.zctx);
	trex.rep = trex.pub = trex.zctx = NULL;
	trex.g = NULL;
}
