/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The server without its sockets: per-connection buffers,
 * line splitting and JSON-RPC 2.0 dispatch. Kept apart from the socket
 * code so the fuzz harness can drive exactly what a client reaches.
 */

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "ctl_private.h"

#ifndef PVP_VERSION
#define PVP_VERSION "unknown"
#endif

/*
 * The request a method callback is serving, for pvp_ctl_file_read(): set
 * around each callback on the control thread (or the fuzz harness's).
 */
static __thread struct pvp_ctl_server *ctl_cur_srv;
static __thread struct ctl_conn *ctl_cur_conn;

void
ctl_current(struct pvp_ctl_server **srv, struct ctl_conn **c)
{
	*srv = ctl_cur_srv;
	*c = ctl_cur_conn;
}

void
ctl_conn_init(const struct pvp_ctl_server *srv, struct ctl_conn *c, int fd)
{
	*c = (struct ctl_conn){.fd = fd, .authed = !srv->need_token};
}

void
ctl_conn_release(struct ctl_conn *c)
{
	/* Every caller frees or drops @p c next: nothing is reset. */
	if (c->fd >= 0)
		close(c->fd);
	free(c->rbuf);
	free(c->wbuf);
}

size_t
ctl_conn_max_line(const struct pvp_ctl_server *srv, const struct ctl_conn *c)
{
	if (!c->authed && srv->max_request > CTL_PREAUTH_MAX_REQUEST)
		return CTL_PREAUTH_MAX_REQUEST;
	return srv->max_request;
}

bool
ctl_conn_gone(struct ctl_conn *c)
{
	struct pollfd p = {.fd = c->fd, .events = 0};

	if (c->gone)
		return true;
	/*
	 * Only a socket closed both ways (or failed) counts: a client that
	 * shut down its sending side (nc -N, socat at the end of its input)
	 * still waits for the answers. A TCP peer that closed shows up once
	 * an answer has been sent and reset; the batch limit bounds the
	 * work done meanwhile.
	 */
	if (c->fd >= 0 && poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR)) != 0)
		c->gone = true;
	return c->gone;
}

int
ctl_conn_received(struct ctl_conn *c, const void *data, size_t len)
{
	if (pvp_buf_reserve(&c->rbuf, &c->rcap, c->rlen + len) < 0)
		return -ENOMEM;
	memcpy(c->rbuf + c->rlen, data, len);
	c->rlen += len;
	return 0;
}

static int
ctl_conn_send(struct ctl_conn *c, const char *s, size_t len)
{
	/* Drop what was written already before growing the buffer. */
	if (c->woff > 0 && c->wlen + len + 1 > c->wcap) {
		memmove(c->wbuf, c->wbuf + c->woff, c->wlen - c->woff);
		c->wlen -= c->woff;
		c->woff = 0;
	}
	if (pvp_buf_reserve(&c->wbuf, &c->wcap, c->wlen + len + 1) < 0)
		return -ENOMEM;
	memcpy(c->wbuf + c->wlen, s, len);
	c->wbuf[c->wlen + len] = '\n';
	c->wlen += len + 1;
	return 0;
}

static json_t *
ctl_error_response(json_t *id, int code, const char *message)
{
	return json_pack("{s:s, s:O, s:{s:i, s:s}}", "jsonrpc", "2.0", "id",
			 id != NULL ? id : json_null(), "error", "code", code, "message", message);
}

static int
ctl_builtin_info(struct pvp_ctl_server *srv, json_t **result, char *err, size_t err_len)
{
	json_t *info, *methods;
	size_t i;
	int ret;

	methods = json_array();
	for (i = 0; methods != NULL && i < srv->n_methods; i++)
		json_array_append_new(methods, json_string(srv->methods[i].name));
	info = json_pack("{s:s, s:s, s:I, s:o*}", "app", srv->app_name, "version", PVP_VERSION,
			 "pid", (json_int_t)getpid(), "methods", methods);
	if (info == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "out of memory");
	if (srv->info_cb != NULL) {
		ret = srv->info_cb(info, srv->info_arg);
		if (ret < 0) {
			json_decref(info);
			pvp_err(err, err_len, "info: %s", strerror(-ret));
			/* Whatever the app's errno, its failure is the server's own. */
			return -EIO;
		}
	}
	*result = info;
	return 0;
}

static int
ctl_builtin_auth(struct pvp_ctl_server *srv, struct ctl_conn *c, json_t *params, json_t **result,
		 char *err, size_t err_len)
{
	json_t *tok = json_is_object(params) ? json_object_get(params, "token") : NULL;

	if (!json_is_string(tok))
		return pvp_fail(err, err_len, -EINVAL, "auth: params must be {\"token\": string}");
	if (srv->need_token && !ctl_token_equal(json_string_value(tok), json_string_length(tok),
						srv->token, srv->token_len)) {
		/* One guess per connection: makes guessing slow. */
		c->authed = false;
		c->closing = true;
		ctl_log(srv, PVP_CTL_LOG_WARNING, "ctl: %s: wrong token, closing", c->peer);
		return pvp_fail(err, err_len, -EACCES, "wrong token");
	}
	c->authed = true;
	*result = json_true();
	return 0;
}

/*
 * Answer one request object (or batch element). Returns the response, or
 * NULL for a notification (or when out of memory, which also drops it).
 * With @p refuse, a valid request is answered -32003 with that message
 * instead of being run.
 */
static json_t *
ctl_handle_request(struct pvp_ctl_server *srv, struct ctl_conn *c, json_t *req, const char *refuse)
{
	char err[PVP_CTL_ERR_LEN] = "";
	const struct ctl_method *m;
	json_t *id, *ver, *jm, *params, *result = NULL;
	const char *method;
	bool notification;
	int ret, code;

	if (!json_is_object(req))
		return ctl_error_response(NULL, PVP_CTL_INVALID_REQUEST,
					  "invalid request: not a JSON object");
	id = json_object_get(req, "id");
	notification = id == NULL;
	if (id != NULL && !json_is_string(id) && !json_is_number(id) && !json_is_null(id))
		return ctl_error_response(
			NULL, PVP_CTL_INVALID_REQUEST,
			"invalid request: \"id\" must be a number, string or null");
	ver = json_object_get(req, "jsonrpc");
	if (!json_is_string(ver) || strcmp(json_string_value(ver), "2.0") != 0)
		return ctl_error_response(id, PVP_CTL_INVALID_REQUEST,
					  "invalid request: \"jsonrpc\" must be \"2.0\"");
	jm = json_object_get(req, "method");
	if (!json_is_string(jm))
		return ctl_error_response(id, PVP_CTL_INVALID_REQUEST,
					  "invalid request: \"method\" must be a string");
	params = json_object_get(req, "params");
	if (params != NULL && !json_is_object(params) && !json_is_array(params))
		return ctl_error_response(id, PVP_CTL_INVALID_REQUEST,
					  "invalid request: \"params\" must be an object or array");
	method = json_string_value(jm);

	m = ctl_find_method(srv, method);
	if (refuse != NULL) {
		ret = pvp_fail(err, sizeof(err), -EBUSY, "%s", refuse);
	} else if (!c->authed && strcmp(method, "auth") != 0) {
		ret = pvp_fail(err, sizeof(err), -EACCES,
			       "unauthorized: call \"auth\" with the token first");
	} else if (m == NULL) {
		ret = pvp_fail(err, sizeof(err), -ENOSYS, "method not found: %.200s", method);
	} else if (m->cb != NULL) {
		ctl_cur_srv = srv;
		ctl_cur_conn = c;
		ret = m->cb(params, m->arg, &result, err, sizeof(err));
		ctl_cur_srv = NULL;
		ctl_cur_conn = NULL;
	} else if (strcmp(method, "ping") == 0) {
		result = json_string("pong");
		ret = 0;
	} else if (strcmp(method, "info") == 0) {
		ret = ctl_builtin_info(srv, &result, err, sizeof(err));
	} else {
		ret = ctl_builtin_auth(srv, c, params, &result, err, sizeof(err));
	}
	/* A method that "succeeded" without a result could not build it. */
	if (ret == 0 && result == NULL)
		ret = -ENOMEM;

	if (notification) {
		json_decref(result);
		return NULL;
	}
	if (ret == 0)
		return json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id, "result", result);
	json_decref(result);
	/* The one place a method's -errno becomes the answer's code. */
	code = pvp_ctl_code(ret);
	ctl_one_line(err);
	return ctl_error_response(id, code, err[0] != '\0' ? err : ctl_code_message(code));
}

/* Serialize @p resp (stolen); an answer that cannot be written becomes -32603. */
static char *
ctl_dump(json_t *resp)
{
	char *s;

	if (resp == NULL)
		return NULL;
	s = json_dumps(resp, JSON_COMPACT);
	if (s == NULL) {
		json_t *id = json_is_object(resp) ? json_object_get(resp, "id") : NULL;
		json_t *e = ctl_error_response(id, PVP_CTL_INTERNAL_ERROR,
					       "internal error: the result is not serializable");

		s = e != NULL ? json_dumps(e, JSON_COMPACT) : NULL;
		json_decref(e);
	}
	json_decref(resp);
	return s;
}

/* A growing string: the answer to a batch, element by element. */
struct ctl_str {
	char *p;
	size_t len;
	size_t cap;
};

static int
ctl_str_add(struct ctl_str *b, const char *s, size_t len)
{
	if (pvp_buf_reserve(&b->p, &b->cap, b->len + len + 1) < 0)
		return -ENOMEM;
	memcpy(b->p + b->len, s, len);
	b->len += len;
	b->p[b->len] = '\0';
	return 0;
}

/*
 * A batch: the array of the answers, NULL if all were notifications.
 * At most max_batch requests; once the answers reach max_queued bytes
 * the remaining requests are not run but answered -32003, so one line
 * cannot make an answer of any size. A client that left gets no more
 * work done for it.
 */
static char *
ctl_handle_batch(struct pvp_ctl_server *srv, struct ctl_conn *c, json_t *req)
{
	struct ctl_str out = {NULL, 0, 0};
	char refuse[128], msg[128], *s;
	const char *why = NULL;
	size_t i, n = json_array_size(req);

	if (n == 0)
		return ctl_dump(ctl_error_response(NULL, PVP_CTL_INVALID_REQUEST,
						   "invalid request: empty batch"));
	if (n > srv->max_batch) {
		snprintf(msg, sizeof(msg), "invalid request: a batch of %zu requests; at most %u",
			 n, srv->max_batch);
		return ctl_dump(ctl_error_response(NULL, PVP_CTL_INVALID_REQUEST, msg));
	}
	for (i = 0; i < n; i++) {
		/* A failed auth closes the connection: answer nothing after it. */
		if (c->closing)
			break;
		if (i > 0 && ctl_conn_gone(c))
			break;
		if (why == NULL && out.len >= srv->max_queued) {
			snprintf(refuse, sizeof(refuse),
				 "not run: the answers to this batch reached %zu bytes", out.len);
			why = refuse;
		}
		s = ctl_dump(ctl_handle_request(srv, c, json_array_get(req, i), why));
		if (s == NULL)
			continue;
		if (ctl_str_add(&out, out.len == 0 ? "[" : ",", 1) < 0 ||
		    ctl_str_add(&out, s, strlen(s)) < 0) {
			free(s);
			free(out.p);
			return NULL;
		}
		free(s);
	}
	if (c->gone || out.len == 0 || ctl_str_add(&out, "]", 1) < 0) {
		free(out.p);
		return NULL;
	}
	return out.p;
}

char *
ctl_handle_line(struct pvp_ctl_server *srv, struct ctl_conn *c, const char *line, size_t len)
{
	json_error_t jerr;
	json_t *req;
	char *s;

	req = json_loadb(line, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &jerr);
	if (req == NULL) {
		char msg[256];

		snprintf(msg, sizeof(msg), "parse error: %s at column %d", jerr.text, jerr.column);
		return ctl_dump(ctl_error_response(NULL, PVP_CTL_PARSE_ERROR, msg));
	}
	s = json_is_array(req) ? ctl_handle_batch(srv, c, req)
			       : ctl_dump(ctl_handle_request(srv, c, req, NULL));
	json_decref(req);
	return s;
}

static int
ctl_conn_answer(struct ctl_conn *c, char *s)
{
	int ret;

	if (s == NULL)
		return 0;
	ret = ctl_conn_send(c, s, strlen(s));
	free(s);
	return ret;
}

int
ctl_conn_process(struct pvp_ctl_server *srv, struct ctl_conn *c)
{
	size_t start = 0, end, len, max = ctl_conn_max_line(srv, c);
	unsigned int lines = 0;
	char *nl, msg[128];
	int ret = 0;

	c->partial = false;
	while (!c->closing && c->wlen - c->woff < srv->max_queued) {
		/* Pipelined requests of a client that left: stop working for it. */
		if (++lines % CTL_GONE_CHECK == 0 && ctl_conn_gone(c))
			break;
		nl = c->rlen > c->scan ? memchr(c->rbuf + c->scan, '\n', c->rlen - c->scan) : NULL;
		if (nl == NULL) {
			c->scan = c->rlen;
			if (c->rlen - start > max)
				goto too_big;
			c->partial = c->rlen > start;
			break;
		}
		end = (size_t)(nl - c->rbuf);
		len = end - start;
		c->scan = end + 1;
		if (len > max)
			goto too_big;
		if (len > 0 && c->rbuf[end - 1] == '\r')
			len--;
		/* Blank lines are not requests: people type them in nc. */
		if (len > 0 && strspn(c->rbuf + start, " \t\r") < len) {
			ret = ctl_conn_answer(c, ctl_handle_line(srv, c, c->rbuf + start, len));
			if (ret < 0)
				break;
			/* Proven: not a stranger holding a slot without a word. */
			c->proven = c->authed;
			c->t_done = pvp_now_ms();
			/* The token may have changed the limit. */
			max = ctl_conn_max_line(srv, c);
		}
		start = end + 1;
	}
	if (start > 0) {
		memmove(c->rbuf, c->rbuf + start, c->rlen - start);
		c->rlen -= start;
		c->scan -= start;
		/* A line was taken: the next one starts its clock now. */
		c->t_line = 0;
	}
	return ret;

too_big:
	snprintf(msg, sizeof(msg), "request too big: over %zu bytes%s; closing", max,
		 c->authed ? "" : " before \"auth\"");
	ctl_log_limited(srv, PVP_CTL_LOG_INFO, "ctl: %s: request over %zu bytes, closing", c->peer,
			max);
	c->closing = true;
	c->partial = false;
	c->rlen = c->scan = 0;
	return ctl_conn_answer(c, ctl_dump(ctl_error_response(NULL, PVP_CTL_REQUEST_TOO_BIG, msg)));
}
