/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The client: one blocking-style call at a time over a non-blocking
 * socket, every wait bounded by poll() against the call's deadline.
 */

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "ctl_private.h"

struct pvp_ctl_client {
	int fd;	    /* -1 once the connection failed */
	char *rbuf; /* received, not yet consumed */
	size_t rlen;
	size_t rcap;
	json_int_t next_id;
	char address[320];
};

/* The monotonic time a call of @p timeout_ms must end by; 0: none. */
static uint64_t
ctl_deadline(int timeout_ms)
{
	return timeout_ms > 0 ? pvp_now_ms() + (uint64_t)timeout_ms : 0;
}

/*
 * Connect to one address of @p address; the descriptor, or -ETIMEDOUT or
 * -ENOTCONN with @p err set.
 */
static int
ctl_connect_one(const struct sockaddr *sa, socklen_t salen, uint64_t deadline, char *err,
		size_t err_len, const char *address)
{
	int fd = pvp_sock_connect(sa, salen, deadline);

	if (fd == -ETIMEDOUT)
		pvp_err(err, err_len, "%s: connect: timed out", address);
	else if (fd < 0)
		pvp_err(err, err_len, "%s: connect: %s", address, strerror(-fd));
	return fd == -ETIMEDOUT || fd >= 0 ? fd : -ENOTCONN;
}

void
pvp_ctl_client_close(struct pvp_ctl_client *c)
{
	if (c == NULL)
		return;
	if (c->fd >= 0)
		close(c->fd);
	free(c->rbuf);
	free(c);
}

static int
ctl_client_fail(struct pvp_ctl_client *c, char *err, size_t err_len, const char *what)
{
	pvp_err(err, err_len, "%s: %s", c->address, what);
	/* The stream is no longer in step: every later call fails fast. */
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	return -ENOTCONN;
}

/*
 * A server's error answer into @p err (after @p prefix) and the -errno
 * the caller gets; a code outside lib/ctl's table is kept in the message.
 */
static int
ctl_remote_error(char *err, size_t err_len, const char *prefix, int code, const json_t *msg,
		 const char *none)
{
	const char *text = json_is_string(msg) ? json_string_value(msg) : none;
	int ret = pvp_ctl_errno(code);

	if (ret == -EREMOTEIO)
		pvp_err(err, err_len, "%serror %d: %s", prefix, code, text);
	else
		pvp_err(err, err_len, "%s%s", prefix, text);
	if (err != NULL)
		ctl_one_line(err);
	return ret;
}

/*
 * The server refused us and closed (too many clients, request too big):
 * its reason may wait in the socket, read it rather than report only
 * "Broken pipe". Returns its -errno, else -ENOTCONN.
 */
static int
ctl_client_salvage(struct pvp_ctl_client *c, char *err, size_t err_len, const char *what)
{
	json_t *j, *msg = NULL;
	char buf[4096], prefix[sizeof(c->address) + 2], *nl;
	json_int_t code;
	size_t len = 0;
	ssize_t n;
	int rc, ret = 0;

	while (len < sizeof(buf) - 1) {
		n = recv(c->fd, buf + len, sizeof(buf) - 1 - len, MSG_DONTWAIT);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	nl = strchr(buf, '\n');
	j = nl != NULL ? json_loadb(buf, (size_t)(nl - buf), 0, NULL) : NULL;
	/* {"id": null, "error": {"code": negative, "message": ...}} */
	rc = json_unpack(j, "{s:n, s:{s:I, s?o}}", "id", "error", "code", &code, "message", &msg);
	if (rc == 0 && code >= INT32_MIN && code < 0) {
		snprintf(prefix, sizeof(prefix), "%s: ", c->address);
		ret = ctl_remote_error(err, err_len, prefix, (int)code, msg, "refused");
	}
	json_decref(j);
	/* Closed either way; the server's reason, when it gave one, is the first error. */
	rc = ctl_client_fail(c, err, err_len, what);
	return ret != 0 ? ret : rc;
}

static int
ctl_client_send(struct pvp_ctl_client *c, const char *s, size_t len, uint64_t deadline, char *err,
		size_t err_len)
{
	char what[128];
	size_t off;
	int r;

	r = pvp_sock_send_all(c->fd, s, len, deadline, &off);
	if (r == -ETIMEDOUT) {
		/* Half a request on the wire cannot be taken back. */
		if (off > 0)
			return ctl_client_fail(c, err, err_len, "send timed out mid-request");
		return pvp_fail(err, err_len, -ETIMEDOUT, "%s: send timed out", c->address);
	}
	if (r < 0) {
		snprintf(what, sizeof(what), "send: %s", strerror(-r));
		return ctl_client_salvage(c, err, err_len, what);
	}
	return 0;
}

/*
 * Read one line (without its newline) into *line, valid until the next
 * read. Returns its length, or a negative error code.
 */
static long long
ctl_client_line(struct pvp_ctl_client *c, char **line, size_t *consumed, uint64_t deadline,
		char *err, size_t err_len)
{
	char what[128], *nl;
	size_t scan = 0;
	ssize_t n;
	int r;

	for (;;) {
		nl = c->rlen > scan ? memchr(c->rbuf + scan, '\n', c->rlen - scan) : NULL;
		if (nl != NULL) {
			*line = c->rbuf;
			*consumed = (size_t)(nl - c->rbuf) + 1;
			return nl - c->rbuf;
		}
		scan = c->rlen;
		/*
		 * A hop that sends without end (hostile, or not a pvpkit app)
		 * must not make the coordinator buffer it all.
		 */
		if (c->rlen > PVP_CTL_CLIENT_MAX_ANSWER) {
			snprintf(what, sizeof(what), "answer over %d MiB: refused",
				 PVP_CTL_CLIENT_MAX_ANSWER >> 20);
			return ctl_client_fail(c, err, err_len, what);
		}
		/* Room for a whole chunk: one recv() takes what the socket holds. */
		if (pvp_buf_reserve(&c->rbuf, &c->rcap, c->rlen + CTL_READ_CHUNK) < 0)
			return ctl_client_fail(c, err, err_len, "out of memory");
		n = recv(c->fd, c->rbuf + c->rlen, c->rcap - c->rlen, 0);
		if (n > 0) {
			c->rlen += (size_t)n;
			continue;
		}
		if (n == 0)
			return ctl_client_fail(c, err, err_len, "connection closed by the server");
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			snprintf(what, sizeof(what), "recv: %s", strerror(errno));
			return ctl_client_fail(c, err, err_len, what);
		}
		r = pvp_sock_wait(c->fd, POLLIN, deadline);
		if (r == -ETIMEDOUT) {
			pvp_err(err, err_len, "%s: no answer in time", c->address);
			return -ETIMEDOUT;
		}
		if (r < 0)
			return ctl_client_fail(c, err, err_len, "poll failed");
	}
}

static void
ctl_client_consume(struct pvp_ctl_client *c, size_t n)
{
	memmove(c->rbuf, c->rbuf + n, c->rlen - n);
	c->rlen -= n;
	/* One big answer must not pin its buffer for the client's life. */
	if (c->rlen == 0 && c->rcap > 4 * CTL_READ_CHUNK) {
		free(c->rbuf);
		c->rbuf = NULL;
		c->rcap = 0;
	}
}

/*
 * Look at one answer line. Returns 1 if it answers request @p id (result,
 * or @p err and the server's -errno in @p rc), 0 to skip it, or -ENOTCONN.
 */
static int
ctl_client_match(struct pvp_ctl_client *c, const char *line, size_t len, json_int_t id,
		 json_t **result, char *err, size_t err_len, int *rc)
{
	json_t *resp, *rid, *e;
	json_error_t jerr;
	int ret = 0;

	if (len == 0)
		return 0;
	resp = json_loadb(line, len, JSON_DECODE_ANY, &jerr);
	if (resp == NULL)
		return ctl_client_fail(c, err, err_len, "the server sent invalid JSON");
	/* Anything but a response object (a notification, a batch) is skipped. */
	if (!json_is_object(resp) || json_object_get(resp, "method") != NULL)
		goto out;
	rid = json_object_get(resp, "id");
	e = json_object_get(resp, "error");
	/*
	 * A response to another id answers an earlier call that timed out.
	 * An error with id null answers whatever we sent last (the server
	 * could not read our id: too big, too many clients).
	 */
	if (!(json_is_integer(rid) && json_integer_value(rid) == id) &&
	    !(json_is_null(rid) && e != NULL))
		goto out;
	ret = 1;
	if (e != NULL) {
		json_t *ecode = json_object_get(e, "code");
		int code = json_is_integer(ecode) && json_integer_value(ecode) != 0 &&
					   json_integer_value(ecode) >= INT32_MIN &&
					   json_integer_value(ecode) <= INT32_MAX
				   ? (int)json_integer_value(ecode)
				   : PVP_CTL_INTERNAL_ERROR;

		*rc = ctl_remote_error(err, err_len, "", code, json_object_get(e, "message"),
				       "error");
	} else {
		json_t *r = json_object_get(resp, "result");

		*rc = 0;
		if (result != NULL)
			*result = json_incref(r != NULL ? r : json_null());
	}
out:
	json_decref(resp);
	return ret;
}

static int
ctl_call(struct pvp_ctl_client *c, const char *method, json_t *params, json_t **result,
	 uint64_t deadline, char *err, size_t err_len)
{
	size_t consumed;
	json_t *req;
	json_int_t id;
	long long n;
	char *s, *line;
	int ret, rc = 0;

	if (result != NULL)
		*result = NULL;
	if (err != NULL && err_len > 0)
		err[0] = '\0';
	if (c == NULL || method == NULL ||
	    (params != NULL && !json_is_object(params) && !json_is_array(params)))
		return pvp_fail(err, err_len, -EINVAL, "pvp_ctl_call: bad arguments");
	if (c->fd < 0)
		return pvp_fail(err, err_len, -ENOTCONN, "%s: connection lost earlier", c->address);
	id = c->next_id++;
	req = json_pack("{s:s, s:I, s:s, s:O*}", "jsonrpc", "2.0", "id", id, "method", method,
			"params", params);
	s = req != NULL ? json_dumps(req, JSON_COMPACT) : NULL;
	json_decref(req);
	if (s == NULL)
		return pvp_fail(err, err_len, -EINVAL, "pvp_ctl_call: cannot encode the request");
	/* Send the line and its newline in one piece. */
	n = (long long)strlen(s);
	line = realloc(s, (size_t)n + 2);
	if (line == NULL) {
		free(s);
		return pvp_fail(err, err_len, -ENOMEM, "out of memory");
	}
	line[n] = '\n';
	line[n + 1] = '\0';
	ret = ctl_client_send(c, line, (size_t)n + 1, deadline, err, err_len);
	free(line);
	if (ret != 0)
		return ret;

	for (;;) {
		n = ctl_client_line(c, &line, &consumed, deadline, err, err_len);
		if (n < 0)
			return (int)n;
		ret = ctl_client_match(c, line, (size_t)n, id, result, err, err_len, &rc);
		if (ret < 0)
			return ret;
		ctl_client_consume(c, consumed);
		if (ret == 1)
			return rc;
	}
}

struct pvp_ctl_client *
pvp_ctl_client_connect(const char *address, const char *token, int timeout_ms, char *err,
		       size_t err_len)
{
	struct pvp_ctl_client *c;
	struct ctl_addr a;
	uint64_t deadline = ctl_deadline(timeout_ms);
	json_t *res = NULL;
	int fd = -ENOTCONN, r;

	if (err != NULL && err_len > 0)
		err[0] = '\0';
	/* A bad address, or a name that does not resolve, leaves fd -ENOTCONN. */
	r = ctl_addr_parse(address, &a, err, err_len);
	if (r == 0 && a.is_unix) {
		struct sockaddr_un sun = {.sun_family = AF_UNIX};

		strcpy(sun.sun_path, a.path);
		fd = ctl_connect_one((struct sockaddr *)&sun, sizeof(sun), deadline, err, err_len,
				     address);
	} else if (r == 0) {
		struct addrinfo hints = {.ai_family = AF_UNSPEC,
					 .ai_socktype = SOCK_STREAM,
					 .ai_flags = AI_NUMERICSERV};
		struct addrinfo *ai, *res0 = NULL;

		r = getaddrinfo(a.host, a.port, &hints, &res0);
		if (r != 0)
			pvp_err(err, err_len, "%s: %s", address, gai_strerror(r));
		for (ai = res0; ai != NULL && fd < 0; ai = ai->ai_next)
			fd = ctl_connect_one(ai->ai_addr, ai->ai_addrlen, deadline, err, err_len,
					     address);
		if (res0 != NULL)
			freeaddrinfo(res0);
	}
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}

	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		close(fd);
		pvp_err(err, err_len, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	c->fd = fd;
	c->next_id = 1;
	snprintf(c->address, sizeof(c->address), "%s", address);
	if (token != NULL) {
		json_t *p = json_pack("{s:s}", "token", token);

		/* The token is sent within the connection's time. */
		r = p != NULL ? ctl_call(c, "auth", p, &res, deadline, err, err_len) : -ENOMEM;
		json_decref(p);
		json_decref(res);
		if (r != 0) {
			pvp_ctl_client_close(c);
			errno = -r;
			return NULL;
		}
	}
	return c;
}

int
pvp_ctl_call(struct pvp_ctl_client *c, const char *method, json_t *params, json_t **result,
	     int timeout_ms, char *err, size_t err_len)
{
	return ctl_call(c, method, params, result, ctl_deadline(timeout_ms), err, err_len);
}
