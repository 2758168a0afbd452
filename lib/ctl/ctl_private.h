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

#include "pvp_util.h"

#include "pvp_ctl.h"

#define CTL_DEFAULT_MAX_REQUEST	 (1024 * 1024)
#define CTL_DEFAULT_MAX_CLIENTS	 128
#define CTL_DEFAULT_IDLE_S	 300
#define CTL_DEFAULT_AUTH_MS	 5000
#define CTL_DEFAULT_LINE_MS	 10000
#define CTL_DEFAULT_WRITE_MS	 10000
#define CTL_DEFAULT_MAX_PER_PEER 16
#define CTL_DEFAULT_MAX_BATCH	 64
#define CTL_DEFAULT_MAX_QUEUED	 (1024 * 1024)
/*
 * Before a connection has given the token, its lines are "auth" calls:
 * they need little room, and a stranger gets no more.
 */
#define CTL_PREAUTH_MAX_REQUEST 4096
/*
 * Answers queued for all clients together above which only clients with
 * nothing queued are served: many clients that never read cannot add up
 * to more than this (plus one answer each).
 */
#define CTL_QUEUED_TOTAL(max_queued) ((max_queued)*16)
/*
 * Partial request lines buffered for all clients together above which the
 * server stops reading from clients whose partial line is already long.
 */
#define CTL_INPUT_TOTAL (32 * 1024 * 1024)
#define CTL_INPUT_SMALL (64 * 1024)
/** A proven connection must have been quiet this long before it may be evicted. */
#define CTL_EVICT_IDLE_MS 1000
/** A connection that has not proven itself may be evicted once this old. */
#define CTL_EVICT_GRACE_MS 200
/** Pipelined lines answered between two checks that the client is still there. */
#define CTL_GONE_CHECK 16
/** Bytes read from a socket at a time. */
#define CTL_READ_CHUNK (64 * 1024)
/** Buffers above this size are freed once empty. */
#define CTL_BUF_KEEP (64 * 1024)
/** How long a connection closed for an error may drain its input. */
#define CTL_DRAIN_MS 2000
/** Most bytes discarded while draining before closing anyway. */
#define CTL_DRAIN_MAX (16 * 1024 * 1024)

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
	int fd;		   /* -1 in the fuzz harness */
	char *rbuf;	   /* bytes received, not yet consumed */
	size_t rlen;	   /* bytes in rbuf */
	size_t rcap;	   /* allocated size of rbuf */
	size_t scan;	   /* rbuf[0..scan) holds no newline */
	char *wbuf;	   /* answers not yet written */
	size_t wlen;	   /* bytes in wbuf */
	size_t woff;	   /* bytes of wbuf already written */
	size_t wcap;	   /* allocated size of wbuf */
	bool authed;	   /* "auth" succeeded, or no token needed */
	bool proven;	   /* authed and sent a whole request: not evicted first */
	bool partial;	   /* rbuf ends with an unfinished line */
	bool closing;	   /* read no more; close once wbuf is written */
	bool draining;	   /* wbuf written, input discarded until EOF */
	bool gone;	   /* the client left: do no more work for it */
	bool is_unix;	   /* connected over a unix socket */
	bool local;	   /* unix socket or loopback TCP */
	uint64_t drained;  /* bytes discarded while draining */
	uint64_t t_open;   /* accepted, monotonic ms */
	uint64_t t_active; /* last byte received or sent */
	uint64_t t_done;   /* last request answered (or t_open) */
	uint64_t t_line;   /* first byte of the unfinished line, 0 if none */
	uint64_t t_write;  /* last write progress while answers wait */
	uint64_t t_drain;  /* end of draining */
	char host[48];	   /* remote address without port; "" when local */
	char peer[64];	   /* for logs */
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
	char token[PVP_SECRET_SIZE];
	size_t token_len;
	char *app_name;
	char *files_dir; /* canonical, or NULL */
	size_t max_request;
	size_t max_queued;
	unsigned int max_clients;
	unsigned int max_per_peer;
	unsigned int max_batch;
	unsigned int idle_timeout_s;
	unsigned int auth_timeout_ms;
	unsigned int line_timeout_ms;
	unsigned int write_timeout_ms;
	struct ctl_method *methods;
	size_t n_methods;
	pvp_ctl_info_cb info_cb;
	void *info_arg;
	pvp_ctl_log_cb log_cb;
	void *log_arg;
	struct ctl_conn **conns;
	size_t n_conns;
	uint64_t warn_ms;	 /* last rate-limited warning */
	unsigned int warn_quiet; /* warnings not logged since */
};

/* ctl_common.c */
/* Make @p s one line: CR and LF become blanks. */
void ctl_one_line(char *s);
/* The default message of an error answer of @p code. */
const char *ctl_code_message(int code);
int ctl_addr_parse(const char *spec, struct ctl_addr *a, char *err, size_t err_len);
bool ctl_sockaddr_is_loopback(const struct sockaddr *sa);
int ctl_sockaddr_format(const struct sockaddr *sa, char *buf, size_t len);
bool ctl_token_equal(const char *a, size_t alen, const char *b, size_t blen);

/* ctl_listen.c: bind the listening socket; 0 or -errno with @p err set. */
int ctl_bind_unix(struct pvp_ctl_server *srv, char *err, size_t err_len);
int ctl_bind_tcp(struct pvp_ctl_server *srv, const char *spec, char *err, size_t err_len);

/* ctl_admit.c */
/* Close connection @p i (logging @p why) and drop it from srv->conns. */
void ctl_conn_close(struct pvp_ctl_server *srv, size_t i, const char *why);
/* Accept newcomers; false when accept() ran out of descriptors. */
bool ctl_accept(struct pvp_ctl_server *srv);

/* ctl_dispatch.c */
void ctl_log(const struct pvp_ctl_server *srv, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* ctl_log() at most once a second, saying how many were left out. */
void ctl_log_limited(struct pvp_ctl_server *srv, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ctl_conn_init(const struct pvp_ctl_server *srv, struct ctl_conn *c, int fd);
void ctl_conn_release(struct ctl_conn *c);
/* Append @p len received bytes to the connection's read buffer. */
int ctl_conn_received(struct ctl_conn *c, const void *data, size_t len);
/*
 * Answer the complete lines in the read buffer, into the write buffer,
 * until the write buffer holds max_queued bytes. A line over max_request
 * (CTL_PREAUTH_MAX_REQUEST before the token) gets -32002 and sets
 * closing. Sets c->partial. Returns 0 or -ENOMEM.
 */
int ctl_conn_process(struct pvp_ctl_server *srv, struct ctl_conn *c);
/* The server and connection of the request a method callback serves. */
void ctl_current(struct pvp_ctl_server **srv, struct ctl_conn **c);
/* Longest line the connection may send now. */
size_t ctl_conn_max_line(const struct pvp_ctl_server *srv, const struct ctl_conn *c);
/* True when the client has left (its socket says so); sets c->gone. */
bool ctl_conn_gone(struct ctl_conn *c);
/* Answer one request line (no newline); NULL when nothing is answered. */
char *ctl_handle_line(struct pvp_ctl_server *srv, struct ctl_conn *c, const char *line, size_t len);
/* Create a server object with conf applied but no socket (fuzz harness). */
struct pvp_ctl_server *ctl_server_alloc(const struct pvp_ctl_server_conf *conf, char *err,
					size_t err_len);
void ctl_server_free(struct pvp_ctl_server *srv);
/* The registered method (or built-in) called @p name, or NULL. */
const struct ctl_method *ctl_find_method(const struct pvp_ctl_server *srv, const char *name);

#endif /* CTL_PRIVATE_H */
