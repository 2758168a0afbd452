/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * pvpkit control channel: JSON-RPC 2.0, one JSON object per line ("\n"
 * terminated), over a unix socket or TCP.
 *
 * The server runs on its own control thread (a plain pthread, never an
 * lcore that forwards packets); method callbacks run on that thread. It
 * binds a unix socket or a loopback TCP address by default; any other TCP
 * address requires a token read from a file. A client with a token must
 * call "auth" {"token": "..."} before anything else (the client API does
 * it for you). No DPDK dependency: the coordinator uses the client without
 * an EAL.
 *
 * Addresses: "unix:/path/to.sock", "/path/to.sock", "tcp:HOST:PORT",
 * "tcp:[v6addr]:PORT".
 *
 * Requests without "id" are notifications and get no answer. A batch (a
 * JSON array of at most max_batch requests) gets one line with the array
 * of the answers. A wrong token in "auth" closes the connection after the
 * error answer. Clients that never authenticate, never finish a line or
 * never read their answers are closed, and evicted first when the server
 * is full, so they cannot lock out the others or make it grow without
 * bound. Protocol, limits and examples: doc/control.rst.
 */

#ifndef PVP_CTL_H
#define PVP_CTL_H

#include <stddef.h>

#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/** JSON-RPC 2.0 standard error codes. */
#define PVP_CTL_PARSE_ERROR	 -32700 /**< invalid JSON */
#define PVP_CTL_INVALID_REQUEST	 -32600 /**< not a JSON-RPC request */
#define PVP_CTL_METHOD_NOT_FOUND -32601 /**< unknown method */
#define PVP_CTL_INVALID_PARAMS	 -32602 /**< bad params */
#define PVP_CTL_INTERNAL_ERROR	 -32603 /**< the method failed */
/** pvpkit server errors (-32000..-32099 is the implementation range). */
#define PVP_CTL_UNAUTHORIZED	-32001 /**< token required / wrong */
#define PVP_CTL_REQUEST_TOO_BIG -32002 /**< request over the size limit */
#define PVP_CTL_BUSY		-32003 /**< state does not allow it now */

/**
 * The JSON-RPC code a method's -errno is answered with: -EINVAL
 * PVP_CTL_INVALID_PARAMS, -ENOSYS PVP_CTL_METHOD_NOT_FOUND, -EBUSY
 * PVP_CTL_BUSY, -EACCES PVP_CTL_UNAUTHORIZED, -EMSGSIZE
 * PVP_CTL_REQUEST_TOO_BIG, any other PVP_CTL_INTERNAL_ERROR. The server
 * takes every code it answers from here, so this table is the protocol's.
 */
int pvp_ctl_code(int ret);

/**
 * The -errno a client returns for the JSON-RPC code @p code: the inverse of
 * pvp_ctl_code() (PVP_CTL_INTERNAL_ERROR is -EIO, PVP_CTL_PARSE_ERROR
 * -EBADMSG, PVP_CTL_INVALID_REQUEST -EPROTO), -EREMOTEIO for a code
 * pvpkit's servers never send.
 */
int pvp_ctl_errno(int code);

/**
 * A method. Runs on the server's control thread.
 *
 * @param params
 *   The request's "params" (object or array), or NULL when absent.
 * @param arg
 *   The pointer given at registration.
 * @param result
 *   On success, the result (a new reference, stolen by the server).
 * @param err
 *   On failure, one line for the answer's "message" (pvp_err(): the first
 *   error kept); left empty, the code's standard words are sent.
 * @param err_len
 *   Size of @p err (PVP_CTL_ERR_LEN).
 * @return
 *   0, or a negative errno that pvp_ctl_code() turns into the answer's
 *   "code" (-EINVAL bad params, -EBUSY not now, -ENOMEM ...).
 */
typedef int (*pvp_ctl_method_cb)(json_t *params, void *arg, json_t **result, char *err,
				 size_t err_len);

/** Size of the message buffer a method gets: longer messages are cut. */
#define PVP_CTL_ERR_LEN 256

struct pvp_schema_member;

/**
 * A method's params decoded into @p obj through the method's schema
 * table (pvp_schema.h): absent or [] is {}, anything else but an object
 * is refused, and so is a member the table does not name, a wrong type or
 * a value out of range, as "METHOD: path: must be ...". A method without
 * parameters passes NULL tables.
 * @return 0, or -EINVAL (answered -32602) with @p err set.
 */
int pvp_ctl_params(const char *method, const struct pvp_schema_member *members,
		   const json_t *params, void *obj, char *err, size_t err_len);

/**
 * Server settings. Zero values mean the defaults given. The limits keep
 * one client, or many that never authenticate, never read or send slowly,
 * from locking the others out or making the server grow without bound;
 * doc/control.rst explains each.
 */
struct pvp_ctl_server_conf {
	const char *listen;	       /**< address (see @file); required */
	const char *token_file;	       /**< file holding the token; required off loopback */
	const char *app_name;	       /**< "info" returns it, e.g. "pvpkit-fwd" */
	size_t max_request;	       /**< bytes per request line; default 1 MiB
					  (4 KiB until a token is given) */
	unsigned int max_clients;      /**< concurrent connections; default 128 */
	unsigned int idle_timeout_s;   /**< close idle connections after; default 300 */
	unsigned int auth_timeout_ms;  /**< with a token: "auth" must succeed this
					   soon after connecting; default 5000 */
	unsigned int line_timeout_ms;  /**< a request line, once begun, must end
					   this soon; default 10000 */
	unsigned int write_timeout_ms; /**< answers waiting with no byte taken by
					    the client this long close it;
					    default 10000 */
	unsigned int max_per_peer;     /**< connections per remote (non-loopback)
					    address; default 16 */
	unsigned int max_batch;	       /**< requests per batch; default 64 */
	size_t max_queued;	       /**< answer bytes queued per client before
					    its requests wait; default 1 MiB */
	const char *files_dir;	       /**< if set, files named in requests must
					    lie under it (any client); if NULL,
					    only unix-socket clients may name
					    files. See pvp_ctl_file_read(). */
};

/** Opaque server. */
struct pvp_ctl_server;

/**
 * Create a server and bind its socket (a stale unix socket file is
 * replaced, a live one or a non-socket file is not; a missing last
 * directory level of a unix path is created). Methods "ping", "info" (app
 * name, version, pid, methods; the app may add to it with
 * pvp_ctl_server_set_info) and "auth" are built in. Nothing is served
 * until pvp_ctl_server_start().
 *
 * @return the server, or NULL with errno set (EINVAL bad address or
 *   settings, EACCES no token file off loopback or a token file others can
 *   read, EADDRINUSE a live server on the unix path, ...); @p err (may be
 *   NULL) gets a one-line reason (e.g. "tcp:0.0.0.0:7000: a token file is
 *   required to listen beyond loopback").
 */
struct pvp_ctl_server *pvp_ctl_server_create(const struct pvp_ctl_server_conf *conf, char *err,
					     size_t err_len);

/**
 * Register @p method. Must be called before pvp_ctl_server_start().
 * @return 0, -EEXIST (taken, built-ins included), -EINVAL, -ENOMEM, or
 *   -EBUSY once the server is started.
 */
int pvp_ctl_server_register(struct pvp_ctl_server *srv, const char *method, pvp_ctl_method_cb cb,
			    void *arg);

/**
 * Callback that adds app members to the "info" result object (ports,
 * mode, ...). Runs on the control thread. @return 0 or a negative errno.
 */
typedef int (*pvp_ctl_info_cb)(json_t *info, void *arg);

/** Set the info callback (optional); call it before pvp_ctl_server_start(). */
void pvp_ctl_server_set_info(struct pvp_ctl_server *srv, pvp_ctl_info_cb cb, void *arg);

/**
 * Log levels given to a pvp_ctl_log_cb. They have the numeric values of
 * DPDK's RTE_LOG_* levels, so an app can hand them to rte_log() as they are.
 */
#define PVP_CTL_LOG_ERR	    4 /**< the server cannot do something it should */
#define PVP_CTL_LOG_WARNING 5 /**< a client was refused (auth, limits) */
#define PVP_CTL_LOG_NOTICE  6 /**< start/stop of the server */
#define PVP_CTL_LOG_INFO    7 /**< connections closed by the server */
#define PVP_CTL_LOG_DEBUG   8 /**< connect/disconnect of each client */

/**
 * Log sink. The library never prints; without a callback it says
 * nothing. Runs on the control thread (or the caller's for create and
 * destroy).
 *
 * @param level
 *   One of PVP_CTL_LOG_*.
 * @param msg
 *   One line, no trailing newline.
 */
typedef void (*pvp_ctl_log_cb)(int level, const char *msg, void *arg);

/** Set the log callback (optional); call it before pvp_ctl_server_start(). */
void pvp_ctl_server_set_log(struct pvp_ctl_server *srv, pvp_ctl_log_cb cb, void *arg);

/** Start the control thread. @return 0 or a negative errno. */
int pvp_ctl_server_start(struct pvp_ctl_server *srv);

/** The bound address, e.g. "tcp:127.0.0.1:41234" when port 0 was asked. */
const char *pvp_ctl_server_address(const struct pvp_ctl_server *srv);

/**
 * Stop the thread, close every connection and the socket, remove the unix
 * socket file, free. NULL is a no-op.
 */
void pvp_ctl_server_destroy(struct pvp_ctl_server *srv);

/** Opaque client connection. */
struct pvp_ctl_client;

/**
 * Connect to @p address and, if @p token is not NULL, authenticate.
 *
 * @param timeout_ms
 *   Time allowed for connecting and authenticating; 0 or negative: no limit.
 * @return the client, or NULL with errno set as pvp_ctl_call() returns
 *   it (ENOTCONN not reachable, ETIMEDOUT, EACCES wrong token) and @p err
 *   (may be NULL) filled.
 */
struct pvp_ctl_client *pvp_ctl_client_connect(const char *address, const char *token,
					      int timeout_ms, char *err, size_t err_len);

/**
 * Call @p method and wait for its answer.
 *
 * @param params
 *   Object, array or NULL; not stolen.
 * @param result
 *   On success, the result (a new reference the caller must json_decref).
 * @param timeout_ms
 *   Time allowed for the whole call; 0 or negative: no limit.
 * @param err
 *   The server's "message" (or what went wrong here); may be NULL.
 * @return 0; the server's error as pvp_ctl_errno() of its code (-EINVAL
 *   for -32602, -ENOSYS for -32601, -EBUSY for -32003 ...; a code outside
 *   the table is -EREMOTEIO and @p err then begins "error CODE: "); or,
 *   never from a server, -ENOTCONN when the connection failed and
 *   -ETIMEDOUT when no answer came in time. After a timeout the client
 *   stays usable (the late answer is skipped by its id); after -ENOTCONN
 *   every later call fails at once. One client must not be used by two
 *   threads at the same time.
 */
int pvp_ctl_call(struct pvp_ctl_client *c, const char *method, json_t *params, json_t **result,
		 int timeout_ms, char *err, size_t err_len);

/** Close and free. NULL is a no-op. */
void pvp_ctl_client_close(struct pvp_ctl_client *c);

/** Longest answer line a client accepts; a longer one fails the call. */
#define PVP_CTL_CLIENT_MAX_ANSWER (8 * 1024 * 1024)

/**
 * Read a file a client named in the request being served (call it only
 * from a method callback, on the control thread), under the server's
 * file policy:
 *
 * - with pvp_ctl_server_conf::files_dir, the file must lie under that
 *   directory once every symbolic link is resolved, whoever asks; a
 *   relative path is relative to it (or to @p rel_dir);
 * - without it, only clients on a unix socket may name files (the
 *   socket's mode decides who they are); TCP clients, loopback included,
 *   are refused (-EPERM).
 *
 * Only regular files of at most @p max_bytes are read: a FIFO, a device,
 * a directory or a bigger file is refused without being opened for
 * reading, so nothing a client names can block the control thread.
 *
 * @param path
 *   As the client gave it.
 * @param rel_dir
 *   Directory a relative @p path is relative to (e.g. the folder of the
 *   profile that names it); NULL for files_dir or, without one, the
 *   server's working directory.
 * @param max_bytes
 *   Largest size accepted.
 * @param buf
 *   The content, malloc'd with a NUL after it (the caller frees it).
 * @param len
 *   Bytes read (the NUL not counted); may be NULL.
 * @param resolved
 *   Receives the canonical path (no links); may be NULL.
 * @param rlen
 *   Size of @p resolved.
 * @param err
 *   A one-line reason naming @p path, never the content.
 * @param err_len
 *   Size of @p err.
 * @return 0, -EPERM (policy), -EINVAL (not a regular file), -EFBIG,
 *   -ENOMEM, or -errno of the file system (-ENOENT ...). A method
 *   answers any of them as bad params (-EINVAL).
 */
int pvp_ctl_file_read(const char *path, const char *rel_dir, size_t max_bytes, char **buf,
		      size_t *len, char *resolved, size_t rlen, char *err, size_t err_len);

/**
 * The checks of pvp_ctl_file_read() without reading: for a file that
 * another library will open by name (a pcap named in a profile).
 * @return as pvp_ctl_file_read().
 */
int pvp_ctl_file_check(const char *path, const char *rel_dir, size_t max_bytes, char *resolved,
		       size_t rlen, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* PVP_CTL_H */
