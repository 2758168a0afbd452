/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * A fake server on a unix socket for the hop harnesses: a thread accepts
 * connections and hands each to the harness's serve() callback, which
 * plays the input's bytes back. Between two inputs the harness calls
 * fuzz_server_sync(), which waits until every connection the code under
 * test made (fuzz_sandbox_connects()) was served to its end, so no
 * connection of one input is ever served with the next one's bytes.
 */

#ifndef FUZZ_SERVER_H
#define FUZZ_SERVER_H

#include <pthread.h>

struct fuzz_server;

/** Serve one connection; the caller closes @p fd afterwards. */
typedef void (*fuzz_serve_t)(struct fuzz_server *s, int fd);

/** A fake server. */
struct fuzz_server {
	char path[108];	      /**< socket path (inside fuzz_sandbox_dir) */
	int lfd;	      /**< listening socket */
	fuzz_serve_t serve;   /**< what to do with a connection */
	void *arg;	      /**< for serve() */
	pthread_t thread;     /**< the accept loop */
	pthread_mutex_t lock; /**< protects served and stop */
	pthread_cond_t cond;  /**< signalled when served changes */
	unsigned long served; /**< connections served to their end */
	int stop;	      /**< ask the thread to leave */
};

/** Listen on @p path (SOCK_STREAM or SOCK_SEQPACKET) and start the thread. */
void fuzz_server_start(struct fuzz_server *s, const char *path, int type, fuzz_serve_t serve,
		       void *arg);

/** Wait until every connection made to the server so far was served. */
void fuzz_server_sync(struct fuzz_server *s);

/** Stop the thread, close and remove the socket. */
void fuzz_server_stop(struct fuzz_server *s);

/** Write all of @p len bytes (MSG_NOSIGNAL); @return 0 or -1 (peer gone). */
int fuzz_send_all(int fd, const void *buf, size_t len);

/** Read and drop everything until the peer closes. */
void fuzz_drain(int fd);

#endif /* FUZZ_SERVER_H */
