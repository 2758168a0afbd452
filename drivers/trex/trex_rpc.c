/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex's RPC transport (trex_rpc.h). A ZeroMQ REQ socket must see one
 * reply per request: after a timeout it is stuck waiting, so it is closed
 * and made again (TRex's client reconnects the same way). ZMQ_IMMEDIATE
 * keeps a request out of the queue until a connection exists, so "no
 * server there" (nothing could be sent) and "server does not answer"
 * (sent, no reply) are told apart.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#ifdef TREX_HAVE_ZMQ
#include <zlib.h>
#include <zmq.h>
#endif

#include "pvp_util.h"

#include "trex_rpc.h"

struct trex_rpc {
	char endpoint[300]; /* "tcp://host:port" */
	int timeout_ms;	    /* send and receive bound */
	void *zctx;	    /* ZeroMQ context */
	void *sock;	    /* REQ socket, NULL after a reset that failed */
	json_int_t next_id; /* JSON-RPC id of the next request */
};

const char *
trex_rpc_endpoint(const struct trex_rpc *r)
{
	return r->endpoint;
}

#ifdef TREX_HAVE_ZMQ

int
trex_rpc_compress(const void *msg, size_t len, void **out, size_t *out_len)
{
	uLongf zlen = compressBound((uLong)len);
	uint8_t *buf;

	if (len > UINT32_MAX)
		return -E2BIG;
	buf = malloc(8 + zlen);
	if (buf == NULL)
		return -ENOMEM;
	if (compress(buf + 8, &zlen, msg, (uLong)len) != Z_OK) {
		free(buf);
		return -ENOMEM;
	}
	pvp_put_be32(buf, TREX_RPC_MAGIC);
	pvp_put_be32(buf + 4, (uint32_t)len);
	*out = buf;
	*out_len = 8 + zlen;
	return 0;
}

int
trex_rpc_decompress(const void *msg, size_t len, size_t max, char **out, size_t *out_len)
{
	const uint8_t *m = msg;
	uLongf n;
	char *buf;

	if (len >= 8 && pvp_get_be32(m) == TREX_RPC_MAGIC) {
		n = pvp_get_be32(m + 4);
		/* The header's length is the peer's word: bound it first. */
		if (n > max)
			return -E2BIG;
		buf = malloc(n + 1);
		if (buf == NULL)
			return -ENOMEM;
		if (uncompress((Bytef *)buf, &n, m + 8, (uLong)(len - 8)) != Z_OK ||
		    n != pvp_get_be32(m + 4)) {
			free(buf);
			return -EBADMSG;
		}
	} else {
		if (len > max)
			return -E2BIG;
		n = len;
		buf = malloc(n + 1);
		if (buf == NULL)
			return -ENOMEM;
		memcpy(buf, m, n);
	}
	buf[n] = '\0';
	*out = buf;
	*out_len = n;
	return 0;
}

/* A new REQ socket, connecting. 0 or -errno. */
static int
rpc_socket(struct trex_rpc *r, char *err, size_t err_len)
{
	int64_t maxmsg = TREX_RPC_MAX_REPLY + 64;
	int zero = 0, one = 1;

	r->sock = zmq_socket(r->zctx, ZMQ_REQ);
	if (r->sock == NULL)
		goto fail;
	if (zmq_setsockopt(r->sock, ZMQ_LINGER, &zero, sizeof(zero)) != 0 ||
	    zmq_setsockopt(r->sock, ZMQ_SNDTIMEO, &r->timeout_ms, sizeof(r->timeout_ms)) != 0 ||
	    zmq_setsockopt(r->sock, ZMQ_RCVTIMEO, &r->timeout_ms, sizeof(r->timeout_ms)) != 0 ||
	    zmq_setsockopt(r->sock, ZMQ_IMMEDIATE, &one, sizeof(one)) != 0 ||
	    zmq_setsockopt(r->sock, ZMQ_MAXMSGSIZE, &maxmsg, sizeof(maxmsg)) != 0 ||
	    zmq_connect(r->sock, r->endpoint) != 0)
		goto fail;
	return 0;
fail:
	snprintf(err, err_len, "%s: %s", r->endpoint, zmq_strerror(zmq_errno()));
	if (r->sock != NULL)
		zmq_close(r->sock);
	r->sock = NULL;
	return -EINVAL;
}

struct trex_rpc *
trex_rpc_open(const char *endpoint, int timeout_ms, char *err, size_t err_len)
{
	struct trex_rpc *r = calloc(1, sizeof(*r));

	if (r == NULL) {
		snprintf(err, err_len, "out of memory");
		return NULL;
	}
	snprintf(r->endpoint, sizeof(r->endpoint), "%s", endpoint);
	r->timeout_ms = timeout_ms;
	r->next_id = 1;
	r->zctx = zmq_ctx_new();
	if (r->zctx == NULL) {
		snprintf(err, err_len, "ZeroMQ: %s", zmq_strerror(zmq_errno()));
		free(r);
		return NULL;
	}
	if (rpc_socket(r, err, err_len) < 0) {
		zmq_ctx_term(r->zctx);
		free(r);
		return NULL;
	}
	return r;
}

void
trex_rpc_close(struct trex_rpc *r)
{
	if (r == NULL)
		return;
	if (r->sock != NULL)
		zmq_close(r->sock);
	zmq_ctx_term(r->zctx);
	free(r);
}

/* After a timeout the REQ socket waits for a reply for ever: start over. */
static void
rpc_reset(struct trex_rpc *r)
{
	char e[64] = "";

	if (r->sock != NULL)
		zmq_close(r->sock);
	r->sock = NULL;
	rpc_socket(r, e, sizeof(e));
}

/* Send @p text compressed and read the answer's text. 0 or -errno. */
static int
rpc_exchange(struct trex_rpc *r, const char *what, const char *text, char **reply, char *err,
	     size_t err_len)
{
	zmq_msg_t msg;
	void *z = NULL;
	size_t zlen;
	int ret, n;

	if (r->sock == NULL) {
		rpc_reset(r);
		if (r->sock == NULL)
			return pvp_fail(err, err_len, -ENOTCONN, "%s: cannot make a ZeroMQ socket",
					r->endpoint);
	}
	ret = trex_rpc_compress(text, strlen(text), &z, &zlen);
	if (ret < 0)
		return pvp_fail(err, err_len, ret, "out of memory");
	n = zmq_send(r->sock, z, zlen, 0);
	free(z);
	if (n < 0) {
		rpc_reset(r);
		return pvp_fail(err, err_len, -ENOTCONN,
				"%s: %s: no connection within %d ms (is the TRex server running?)",
				r->endpoint, what, r->timeout_ms);
	}
	zmq_msg_init(&msg);
	n = zmq_msg_recv(&msg, r->sock, 0);
	if (n < 0) {
		zmq_msg_close(&msg);
		rpc_reset(r);
		return pvp_fail(err, err_len, -ETIMEDOUT, "%s: %s: no answer within %d ms",
				r->endpoint, what, r->timeout_ms);
	}
	ret = trex_rpc_decompress(zmq_msg_data(&msg), zmq_msg_size(&msg), TREX_RPC_MAX_REPLY, reply,
				  &zlen);
	zmq_msg_close(&msg);
	if (ret == -EBADMSG || ret == -E2BIG)
		snprintf(err, err_len, "%s: %s: %s", r->endpoint, what,
			 ret == -E2BIG ? "answer over 16 MiB"
				       : "answer's compressed framing is bad");
	else if (ret < 0)
		snprintf(err, err_len, "out of memory");
	return ret;
}

#else /* !TREX_HAVE_ZMQ */

int
trex_rpc_compress(const void *msg, size_t len, void **out, size_t *out_len)
{
	(void)msg;
	(void)len;
	(void)out;
	(void)out_len;
	return -ENOTSUP;
}

int
trex_rpc_decompress(const void *msg, size_t len, size_t max, char **out, size_t *out_len)
{
	(void)msg;
	(void)len;
	(void)max;
	(void)out;
	(void)out_len;
	return -ENOTSUP;
}

struct trex_rpc *
trex_rpc_open(const char *endpoint, int timeout_ms, char *err, size_t err_len)
{
	(void)endpoint;
	(void)timeout_ms;
	snprintf(err, err_len,
		 "pvpkit was built without libzmq or zlib, so it cannot reach a TRex server "
		 "(install libzmq3-dev and zlib1g-dev, then rebuild)");
	return NULL;
}

void
trex_rpc_close(struct trex_rpc *r)
{
	free(r);
}

static int
rpc_exchange(struct trex_rpc *r, const char *what, const char *text, char **reply, char *err,
	     size_t err_len)
{
	(void)text;
	(void)reply;
	return pvp_fail(err, err_len, -ENOTSUP, "%s: %s: built without libzmq", r->endpoint, what);
}

#endif /* TREX_HAVE_ZMQ */

/* A JSON-RPC request object; params copied (NULL: {}). */
static json_t *
rpc_request(struct trex_rpc *r, const char *method, const json_t *params)
{
	json_t *p = params != NULL ? json_deep_copy(params) : json_object();

	if (p == NULL)
		return NULL;
	return json_pack("{s:s,s:I,s:s,s:o}", "jsonrpc", "2.0", "id", r->next_id++, "method",
			 method, "params", p);
}

/* Check one reply object against its request id; 1 ok, 0 error reply, <0 bad. */
static int
rpc_check_reply(const json_t *rep, json_int_t id, const char *method, char *err, size_t err_len)
{
	const json_t *e, *jid;
	const char *m;

	jid = json_object_get(rep, "id");
	if (!json_is_object(rep) ||
	    strcmp(json_string_value(json_object_get(rep, "jsonrpc")) ?: "", "2.0") != 0)
		return pvp_fail(err, err_len, -EBADMSG,
				"%s: the answer is not a JSON-RPC 2.0 object", method);
	if (!json_is_integer(jid) || json_integer_value(jid) != id)
		return pvp_fail(err, err_len, -EBADMSG,
				"%s: the answer's id is not the request's (%" JSON_INTEGER_FORMAT
				")",
				method, id);
	e = json_object_get(rep, "error");
	if (e != NULL) {
		m = json_string_value(json_object_get(e, "specific_err"));
		if (m == NULL)
			m = json_string_value(json_object_get(e, "message"));
		return pvp_fail(err, err_len, 0, "%s", m != NULL ? m : "error without a message");
	}
	if (json_object_get(rep, "result") == NULL)
		return pvp_fail(err, err_len, -EBADMSG,
				"%s: the answer has neither \"result\" nor \"error\"", method);
	return 1;
}

/* Send @p req (object or array), parse the answer. */
static int
rpc_roundtrip(struct trex_rpc *r, const char *what, const json_t *req, json_t **rep, char *err,
	      size_t err_len)
{
	json_error_t je;
	char *text, *reply = NULL;
	int ret;

	text = json_dumps(req, JSON_COMPACT);
	if (text == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "out of memory");
	ret = rpc_exchange(r, what, text, &reply, err, err_len);
	free(text);
	if (ret < 0)
		return ret;
	*rep = json_loads(reply, 0, &je);
	free(reply);
	if (*rep == NULL)
		return pvp_fail(err, err_len, -EBADMSG, "%s: the answer is not JSON (%s)", what,
				je.text);
	return 0;
}

int
trex_rpc_call(struct trex_rpc *r, const char *method, const json_t *params, json_t **result,
	      char *err, size_t err_len)
{
	json_t *req, *rep = NULL;
	json_int_t id;
	int ret;

	req = rpc_request(r, method, params);
	if (req == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "out of memory");
	id = json_integer_value(json_object_get(req, "id"));
	ret = rpc_roundtrip(r, method, req, &rep, err, err_len);
	json_decref(req);
	if (ret < 0)
		return ret;
	ret = rpc_check_reply(rep, id, method, err, err_len);
	if (ret == 1) {
		*result = json_incref(json_object_get(rep, "result"));
		ret = 0;
	} else if (ret == 0) {
		ret = -EREMOTEIO;
	}
	json_decref(rep);
	return ret;
}

int
trex_rpc_batch(struct trex_rpc *r, const json_t *batch, json_t **results, char *err, size_t err_len)
{
	json_t *reqs = json_array(), *rep = NULL, *out = NULL, *x;
	const char *first = "batch";
	json_int_t id0 = r->next_id;
	size_t i;
	int ret;

	if (reqs == NULL)
		goto nomem;
	json_array_foreach(batch, i, x) {
		const char *m = json_string_value(json_object_get(x, "method"));

		if (m == NULL || json_array_append_new(
					 reqs, rpc_request(r, m, json_object_get(x, "params"))) < 0)
			goto nomem;
		if (i == 0)
			first = m;
	}
	ret = rpc_roundtrip(r, first, reqs, &rep, err, err_len);
	if (ret < 0)
		goto out;
	ret = -EBADMSG;
	if (!json_is_array(rep) || json_array_size(rep) != json_array_size(reqs)) {
		snprintf(err, err_len, "%s: the batch answer is not an array of %zu replies", first,
			 json_array_size(reqs));
		goto out;
	}
	out = json_array();
	if (out == NULL)
		goto nomem;
	/* TRex answers a batch in order; ids are checked one by one. */
	json_array_foreach(rep, i, x) {
		const char *m =
			json_string_value(json_object_get(json_array_get(reqs, i), "method"));
		/* Fresh for each reply: a port's error reply must not hide a later bad one. */
		char e[512] = "";
		int c = rpc_check_reply(x, id0 + (json_int_t)i, m, e, sizeof(e));

		if (c < 0) {
			snprintf(err, err_len, "%s", e);
			goto out;
		}
		if (json_array_append(out, c == 1 ? json_object_get(x, "result") : x) < 0)
			goto nomem;
	}
	*results = out;
	out = NULL;
	ret = 0;
	goto out;
nomem:
	snprintf(err, err_len, "out of memory");
	ret = -ENOMEM;
out:
	json_decref(out);
	json_decref(rep);
	json_decref(reqs);
	return ret;
}
