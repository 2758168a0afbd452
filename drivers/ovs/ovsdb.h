/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * A minimal OVSDB client (RFC 7047 JSON-RPC 1.0) for the ovs hop driver:
 * one connection, one request at a time, answers "echo" probes from the
 * server while it waits. Private to drivers/ovs (and its unit tests).
 */

#ifndef OVSDB_CLIENT_H
#define OVSDB_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/** One connection to an ovsdb-server. */
struct ovsdb_client {
	int fd;			 /**< connected socket, -1 when closed */
	char remote[256];	 /**< "unix:PATH" or "tcp:HOST:PORT" */
	unsigned int timeout_ms; /**< bound on connect and on each reply */
	uint64_t next_id;	 /**< id of the next request */
	char *buf;		 /**< received bytes not parsed yet */
	size_t len;		 /**< bytes in buf */
	size_t cap;		 /**< size of buf */
};

/**
 * Set up @p db for @p remote ("unix:PATH", "tcp:HOST:PORT" or a plain
 * path) without connecting. @return 0 or -EINVAL (err set).
 */
int ovsdb_client_init(struct ovsdb_client *db, const char *remote, unsigned int timeout_ms,
		      char *err, size_t err_len);

/** Close the connection and free the buffer; @p db can be reused. */
void ovsdb_client_close(struct ovsdb_client *db);

/**
 * Send {"method": @p method, "params": @p params, "id": n} and wait for
 * the reply with that id (connecting first if needed). @p params is
 * borrowed.
 *
 * @param result
 *   Set to the reply's "result" (a new reference) on success.
 * @return
 *   0; -ECONNREFUSED/-ENOENT/-ECONNRESET... ("hop unreachable: ..." in
 *   @p err) when the server cannot be reached or went away; -ETIMEDOUT;
 *   -EPROTO for a malformed reply; -EREMOTEIO when the reply carries a
 *   non-null "error".
 */
int ovsdb_client_call(struct ovsdb_client *db, const char *method, json_t *params, json_t **result,
		      char *err, size_t err_len);

#endif /* OVSDB_CLIENT_H */
