/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * lib/ctl internals shared by its source files and by the fuzz harness
 * (test/fuzz), which drives the line splitter and the dispatcher without
 * sockets. Never installed.
 */

#ifndef CTL_PRIVATE_H
#define CTL_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <jansson.h>

#include "pvp_ctl.h"

#define CTL_DEFAULT_MAX_REQUEST (1024 * 1024)
#define CTL_DEFAULT_MAX_CLIENTS 128
#define CTL_DEFAULT_IDLE_S	300
/** Longest token accepted, in bytes (without the NUL). */
#define CTL_TOKEN_MAX 256
/** Minimum token length. */
#define CTL_TOKEN_MIN 16
/*
 * Answers pending for one connection above which the server stops
 * reading from it until the client has read them: a client that sends
 * and never reads cannot make the server buffer without bound.
 */
#define CTL_WBUF_HIGH (4 * 1024 * 1024)
/** Bytes read from a socket at a time. */
#define CTL_READ_CHUNK (64 * 1024)
/** How long a connection closed for an error may drain its input. */
#define CTL_DRAIN_MS 2000
/** Most bytes discarded while draining before closing anyway. */
#define CTL_DRAIN_MAX (16 * 1024 * 1024)
/** Longest answer line a client accepts (stats of many streams are big). */
#define CTL_CLIENT_MAX_LINE (256 * 1024 * 1024)

/** A parsed control address. */
struct ctl_addr {
	bool is_unix;	/* unix socket (path) or TCP (host, port) */
	char path[108]; /* sizeof(sun_path) */
	char host[256]; /* without the [] of an IPv6 literal */
	char port[8];
};

/** One registered method. */
struct ctl_method {
	char *name;
	pvp_ctl_method_cb cb; /* NULL for built-ins handled by the dispatcher */
	void *arg;
};

/** Connection state of the server, one per client socket. */
struct ctl_conn {
	int fd;		      /* -1 in the fuzz harness */
	char *rbuf;	      /* bytes received, not yet consumed */
	size_t rlen;	      /* bytes in rbuf */
	size_t rcap;	      /* allocated size of rbuf */
	size_t scan;	      /* rbuf[0..scan) holds no newline */
	char *wbuf;	      /* answers not yet written */
	size_t wlen;	      /* bytes in wbuf */
	size_t woff;	      /* bytes of wbuf already written */
	size_t wcap;	      /* allocated size of wbuf */
	bool authed;	      /* "auth" succeeded, or no token needed */
	bool closing;	      /* read no more; close once wbuf is written */
	bool draining;	      /* wbuf written, input discarded until EOF */
	uint64_t drained;     /* bytes discarded while draining */
	uint64_t deadline_ms; /* idle (or drain) deadline, monotonic ms */
	char peer[64];	      /* for logs */
};

/** The server. */
struct pvp_ctl_server {
	struct ctl_addr addr; /* what conf.listen asked for */
	char address[320];    /* what is bound, e.g. tcp:127.0.0.1:41234 */
	bool unlink_path;     /* remove addr.path on destroy */
	dev_t sock_dev;	      /* identity of the socket file we made */
	ino_t sock_ino;
	int lfd;     /* listening socket */
	int wake[2]; /* pipe: destroy wakes the thread */
	pthread_t thread;
	bool started;
	bool need_token;
	char token[CTL_TOKEN_MAX + 1];
	size_t token_len;
	char *app_name;
	size_t max_request;
	unsigned int max_clients;
	unsigned int idle_timeout_s;
	struct ctl_method *methods;
	size_t n_methods;
	pvp_ctl_info_cb info_cb;
	void *info_arg;
	pvp_ctl_log_cb log_cb;
	void *log_arg;
	struct ctl_conn **conns;
	size_t n_conns;
};

/* ctl_common.c */
int ctl_addr_parse(const char *spec, struct ctl_addr *a, struct pvp_ctl_error *err);
bool ctl_sockaddr_is_loopback(const struct sockaddr *sa);
int ctl_sockaddr_format(const struct sockaddr *sa, char *buf, size_t len);
uint64_t ctl_now_ms(void);
bool ctl_token_equal(const char *a, size_t alen, const char *b, size_t blen);

/* ctl_dispatch.c */
void ctl_log(const struct pvp_ctl_server *srv, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ctl_conn_init(const struct pvp_ctl_server *srv, struct ctl_conn *c, int fd);
void ctl_conn_release(struct ctl_conn *c);
/* Append @p len received bytes to the connection's read buffer. */
int ctl_conn_received(struct ctl_conn *c, const void *data, size_t len);
/*
 * Answer the complete lines in the read buffer, into the write buffer,
 * until the write buffer is over CTL_WBUF_HIGH. A line over max_request
 * gets -32002 and sets closing. Returns 0 or -ENOMEM.
 */
int ctl_conn_process(struct pvp_ctl_server *srv, struct ctl_conn *c);
/* Answer one request line (no newline); NULL when nothing is answered. */
char *ctl_handle_line(struct pvp_ctl_server *srv, struct ctl_conn *c, const char *line, size_t len);
/* Create a server object with conf applied but no socket (fuzz harness). */
struct pvp_ctl_server *ctl_server_alloc(const struct pvp_ctl_server_conf *conf,
					struct pvp_ctl_error *err);
void ctl_server_free(struct pvp_ctl_server *srv);

#endif /* CTL_PRIVATE_H */
