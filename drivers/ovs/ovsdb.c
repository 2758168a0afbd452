/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * OVSDB JSON-RPC client. ovsdb-server frames nothing: a connection carries
 * a stream of JSON texts back to back. So the received bytes are kept in a
 * growing buffer and parsed with JSON_DISABLE_EOF_CHECK, which stops after
 * the first complete value and says how many bytes it used; a "premature
 * end of input" error means "read more", any other error is a malformed
 * reply.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <jansson.h>

#include "pvp_util.h"

#include "coord_driver.h"
#include "ovsdb.h"

/* A reply bigger than this is refused rather than buffered forever. */
#define OVSDB_MAX_REPLY (64u << 20)

int
ovsdb_client_init(struct ovsdb_client *db, const char *remote, unsigned int timeout_ms, char *err,
		  size_t err_len)
{
	memset(db, 0, sizeof(*db));
	db->fd = -1;
	db->timeout_ms = timeout_ms != 0 ? timeout_ms : 5000;
	db->next_id = 1;
	if (remote == NULL || remote[0] == '\0' || strlen(remote) >= sizeof(db->remote))
		return pvp_fail(err, err_len, -EINVAL,
				"ovsdb: a \"db\" address is required (unix:PATH or tcp:HOST:PORT)");
	if (strncmp(remote, "unix:", 5) != 0 && strncmp(remote, "tcp:", 4) != 0 && remote[0] != '/')
		return pvp_fail(err, err_len, -EINVAL,
				"ovsdb: \"%s\": expected unix:PATH or tcp:HOST:PORT", remote);
	snprintf(db->remote, sizeof(db->remote), "%s", remote);
	return 0;
}

void
ovsdb_client_close(struct ovsdb_client *db)
{
	if (db->fd >= 0)
		close(db->fd);
	db->fd = -1;
	free(db->buf);
	db->buf = NULL;
	db->len = 0;
	db->cap = 0;
}

static int
ovsdb_connect(struct ovsdb_client *db, char *err, size_t err_len)
{
	uint64_t deadline = pvp_now_ms() + db->timeout_ms;
	const char *addr = db->remote;
	int rc;

	if (strncmp(addr, "tcp:", 4) == 0) {
		char why[384] = "";

		rc = pvp_sock_connect_tcp(addr, deadline, why, sizeof(why));
		if (rc == -EINVAL)
			return pvp_fail(err, err_len, rc, "ovsdb: %s", why);
		if (rc < 0)
			return pvp_fail(err, err_len, coord_err_connect(rc), "hop unreachable: %s",
					why);
	} else {
		struct sockaddr_un sun = {.sun_family = AF_UNIX};
		const char *path = strncmp(addr, "unix:", 5) == 0 ? addr + 5 : addr;

		if (strlen(path) >= sizeof(sun.sun_path))
			return pvp_fail(err, err_len, -ENAMETOOLONG, "ovsdb: %s: path too long",
					path);
		memcpy(sun.sun_path, path, strlen(path) + 1);
		rc = pvp_sock_connect((struct sockaddr *)&sun, sizeof(sun), deadline);
		if (rc < 0) {
			snprintf(err, err_len, "hop unreachable: %s: %s", addr, strerror(-rc));
			return coord_err_connect(rc);
		}
	}
	db->fd = rc;
	return 0;
}

static int
ovsdb_send(struct ovsdb_client *db, const json_t *msg, uint64_t deadline, char *err, size_t err_len)
{
	char *text = json_dumps(msg, JSON_COMPACT);
	int rc;

	if (text == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "ovsdb: out of memory");
	rc = pvp_sock_send_all(db->fd, text, strlen(text), deadline, NULL);
	free(text);
	if (rc < 0) {
		snprintf(err, err_len, "hop unreachable: %s: send: %s", db->remote, strerror(-rc));
		rc = coord_err_connect(rc);
	}
	return rc;
}

/*
 * Take the next complete JSON value out of the buffer, reading more as
 * needed. @return 0 with *out set, or -errno with err set.
 */
static int
ovsdb_recv(struct ovsdb_client *db, json_t **out, uint64_t deadline, char *err, size_t err_len)
{
	json_error_t jerr;
	ssize_t n;
	size_t skip;
	int rc;

	for (;;) {
		/* Whitespace between values is allowed and skipped. */
		for (skip = 0; skip < db->len && strchr(" \t\r\n", db->buf[skip]) != NULL; skip++)
			;
		if (skip > 0) {
			memmove(db->buf, db->buf + skip, db->len - skip);
			db->len -= skip;
		}
		if (db->len > 0) {
			*out = json_loadb(db->buf, db->len, JSON_DISABLE_EOF_CHECK, &jerr);
			if (*out != NULL) {
				memmove(db->buf, db->buf + jerr.position, db->len - jerr.position);
				db->len -= jerr.position;
				return 0;
			}
			if (json_error_code(&jerr) != json_error_premature_end_of_input)
				return pvp_fail(err, err_len, -EPROTO,
						"ovsdb: %s: malformed reply: %s (byte %d)",
						db->remote, jerr.text, jerr.position);
		}
		if (db->len == db->cap) {
			size_t cap = db->cap != 0 ? db->cap * 2 : 65536;
			char *nb;

			if (cap > OVSDB_MAX_REPLY)
				return pvp_fail(err, err_len, -EMSGSIZE,
						"ovsdb: %s: reply over %u bytes", db->remote,
						OVSDB_MAX_REPLY);
			nb = realloc(db->buf, cap);
			if (nb == NULL)
				return pvp_fail(err, err_len, -ENOMEM, "ovsdb: out of memory");
			db->buf = nb;
			db->cap = cap;
		}
		n = recv(db->fd, db->buf + db->len, db->cap - db->len, 0);
		if (n > 0) {
			db->len += (size_t)n;
			continue;
		}
		if (n == 0)
			return pvp_fail(err, err_len, -ECONNRESET,
					"hop unreachable: %s: connection closed%s", db->remote,
					db->len > 0 ? " in the middle of a reply" : "");
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			rc = -errno;
			return pvp_fail(err, err_len, coord_err_connect(rc),
					"hop unreachable: %s: %s", db->remote, strerror(-rc));
		}
		rc = pvp_sock_wait(db->fd, POLLIN, deadline);
		if (rc == -ETIMEDOUT)
			return pvp_fail(err, err_len, rc, "ovsdb: %s: no reply within %u ms",
					db->remote, db->timeout_ms);
		if (rc < 0)
			return pvp_fail(err, err_len, coord_err_connect(rc),
					"hop unreachable: %s: %s", db->remote, strerror(-rc));
	}
}

/* Describe an RFC 7047 error value (object with "error"/"details" or a string). */
static void
ovsdb_error_text(const json_t *e, char *buf, size_t len)
{
	const char *what = json_string_value(json_object_get(e, "error"));
	const char *details = json_string_value(json_object_get(e, "details"));
	char *dump;

	if (json_is_string(e)) {
		snprintf(buf, len, "%s", json_string_value(e));
	} else if (what != NULL) {
		snprintf(buf, len, "%s%s%s", what, details != NULL ? ": " : "",
			 details != NULL ? details : "");
	} else {
		dump = json_dumps(e, JSON_COMPACT | JSON_ENCODE_ANY);
		snprintf(buf, len, "%s", dump != NULL ? dump : "?");
		free(dump);
	}
}

static int
ovsdb_call_once(struct ovsdb_client *db, const char *method, json_t *params, json_t **result,
		char *err, size_t err_len)
{
	uint64_t deadline = pvp_now_ms() + db->timeout_ms;
	json_int_t id = (json_int_t)db->next_id++;
	json_t *req, *msg = NULL;
	int rc;

	req = json_pack("{s:s, s:O, s:I}", "method", method, "params", params, "id", id);
	if (req == NULL)
		return pvp_fail(err, err_len, -EINVAL, "ovsdb: cannot build the \"%s\" request",
				method);
	rc = ovsdb_send(db, req, deadline, err, err_len);
	json_decref(req);
	if (rc < 0)
		return rc;

	for (;;) {
		const json_t *jid, *jerr, *m;

		rc = ovsdb_recv(db, &msg, deadline, err, err_len);
		if (rc < 0)
			return rc;
		if (!json_is_object(msg)) {
			json_decref(msg);
			return pvp_fail(err, err_len, -EPROTO,
					"ovsdb: %s: malformed reply: not a JSON object",
					db->remote);
		}
		m = json_object_get(msg, "method");
		if (json_is_string(m)) {
			/* A request from the server: answer "echo" (the
			 * inactivity probe), ignore notifications. */
			if (strcmp(json_string_value(m), "echo") == 0 &&
			    json_object_get(msg, "id") != NULL) {
				json_t *rep = json_pack("{s:O, s:n, s:O}", "result",
							json_object_get(msg, "params"), "error",
							"id", json_object_get(msg, "id"));

				if (rep != NULL)
					rc = ovsdb_send(db, rep, deadline, err, err_len);
				json_decref(rep);
				if (rc < 0) {
					json_decref(msg);
					return rc;
				}
			}
			json_decref(msg);
			continue;
		}
		jid = json_object_get(msg, "id");
		if (!json_is_integer(jid) || json_integer_value(jid) != id) {
			/* A late answer to an earlier, timed-out request. */
			json_decref(msg);
			continue;
		}
		jerr = json_object_get(msg, "error");
		if (jerr != NULL && !json_is_null(jerr)) {
			char text[200];

			ovsdb_error_text(jerr, text, sizeof(text));
			json_decref(msg);
			return pvp_fail(err, err_len, -EREMOTEIO, "ovsdb: %s: %s failed: %s",
					db->remote, method, text);
		}
		if (json_object_get(msg, "result") == NULL) {
			json_decref(msg);
			return pvp_fail(err, err_len, -EPROTO,
					"ovsdb: %s: malformed reply: no \"result\"", db->remote);
		}
		*result = json_incref(json_object_get(msg, "result"));
		json_decref(msg);
		return 0;
	}
}

int
ovsdb_client_call(struct ovsdb_client *db, const char *method, json_t *params, json_t **result,
		  char *err, size_t err_len)
{
	bool fresh = false;
	int rc;

	*result = NULL;
	if (db->fd < 0) {
		rc = ovsdb_connect(db, err, err_len);
		if (rc < 0)
			return rc;
		fresh = true;
	}
	rc = ovsdb_call_once(db, method, params, result, err, err_len);
	if (rc == -ECONNRESET || rc == -EPIPE || rc == -ETIMEDOUT || rc == -EPROTO) {
		/* The stream is in an unknown state now: start over next time.
		 * An old connection the server dropped (restart) gets one
		 * retry on a new one. */
		ovsdb_client_close(db);
		if (!fresh && rc == -ECONNRESET) {
			/* The retry's error, if any, is the one worth reporting. */
			if (err_len > 0)
				err[0] = '\0';
			if (ovsdb_connect(db, err, err_len) == 0) {
				rc = ovsdb_call_once(db, method, params, result, err, err_len);
				if (rc < 0)
					ovsdb_client_close(db);
			}
		}
	}
	return rc;
}
