/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * A client of TRex's stateless RPC transport: JSON-RPC 2.0 over a
 * ZeroMQ REQ socket, every request in TRex's compressed framing (magic
 * 0xABE85CEA and the uncompressed length, 4 bytes each big endian, then
 * zlib), as TRex's own Python client sends it; replies are taken plain
 * or compressed. Private to drivers/trex.
 *
 * Built without libzmq or zlib, trex_rpc_open() fails with a line that
 * says so, and the driver refuses every trex hop at open.
 */

#ifndef TREX_RPC_H
#define TREX_RPC_H

#include <stddef.h>

#include <jansson.h>

/** TRex's compressed-message magic. */
#define TREX_RPC_MAGIC 0xABE85CEAu
/** Largest reply taken, compressed or not (pgid stats of 1,000 streams fit). */
#define TREX_RPC_MAX_REPLY (16u << 20)

/** One connection (opaque). */
struct trex_rpc;

/**
 * Create the REQ socket and start connecting to @p endpoint
 * ("tcp://host:port"). ZeroMQ connects in the background: a server that
 * is not there is found by the first call.
 * @param timeout_ms bound on sending (waiting for the connection) and on
 *   waiting for each answer.
 * @return the connection, or NULL with @p err set.
 */
struct trex_rpc *trex_rpc_open(const char *endpoint, int timeout_ms, char *err, size_t err_len);

/** Close the socket and free @p r. NULL is a no-op. */
void trex_rpc_close(struct trex_rpc *r);

/**
 * Send one request and wait for its answer.
 * @param params its params object (not stolen; NULL: {}).
 * @param result on success a new reference to the reply's "result".
 * @return 0; -ENOTCONN when the request could not be sent (no
 *   connection within the timeout) and -ETIMEDOUT when no answer came in
 *   time: the socket is then reset, so the next call starts clean;
 *   -EREMOTEIO when the server answered with a JSON-RPC error (@p err
 *   holds its "specific_err", else its "message"); -EBADMSG for an answer
 *   that is not TRex's (@p err says why); -ENOMEM.
 */
int trex_rpc_call(struct trex_rpc *r, const char *method, const json_t *params, json_t **result,
		  char *err, size_t err_len);

/**
 * Send a batch (a JSON array of {"method", "params"} objects) in one
 * message, as the TRex client does for many ports, and wait for the
 * answer.
 * @param results on success a new array with, per request in order, its
 *   "result", or {"error": {...}} as the server sent it.
 * @return as trex_rpc_call(), -EREMOTEIO excepted (errors are per
 *   request in @p results).
 */
int trex_rpc_batch(struct trex_rpc *r, const json_t *batch, json_t **results, char *err,
		   size_t err_len);

/** The endpoint given to trex_rpc_open(). */
const char *trex_rpc_endpoint(const struct trex_rpc *r);

/**
 * Frame @p len bytes of @p msg as TRex does (header + zlib) into a new
 * buffer. @return 0 with *out (malloc'd) and *out_len, or -ENOMEM /
 * -ENOTSUP (built without zlib).
 */
int trex_rpc_compress(const void *msg, size_t len, void **out, size_t *out_len);

/**
 * Undo trex_rpc_compress(), or copy a plain message, into a new
 * NUL-terminated buffer of at most @p max bytes.
 * @return 0, or -EBADMSG (bad header, length or zlib data), -E2BIG,
 *   -ENOMEM.
 */
int trex_rpc_decompress(const void *msg, size_t len, size_t max, char **out, size_t *out_len);

#endif /* TREX_RPC_H */
