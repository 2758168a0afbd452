/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The server's sockets and its control thread: one poll() over the
 * listening socket, a wake-up pipe and every client socket, all
 * non-blocking. The thread owns every connection; the caller's thread
 * only creates, starts and destroys.
 */

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "ctl_private.h"

/* mkdir the directory holding @p path; 0 if it was made. */
static int
ctl_mkdir_parent(const char *path)
{
	char dir[sizeof(((struct sockaddr_un *)NULL)->sun_path)];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir)
		return -ENOENT;
	*slash = '\0';
	return mkdir(dir, 0755) == 0 ? 0 : -errno;
}

static int
ctl_bind_unix(struct pvp_ctl_server *srv, struct pvp_ctl_error *err)
{
	struct sockaddr_un sun;
	struct stat st;
	int fd, probe, ret;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strcpy(sun.sun_path, srv->addr.path);

	if (lstat(srv->addr.path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
					  "unix:%s exists and is not a socket; not replacing it",
					  srv->addr.path);
			return -EEXIST;
		}
		/* A socket file: replace it unless a live server answers on it. */
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe < 0)
			goto sock_fail;
		ret = connect(probe, (struct sockaddr *)&sun, sizeof(sun));
		close(probe);
		if (ret == 0) {
			pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
					  "unix:%s is in use by a running server", srv->addr.path);
			return -EADDRINUSE;
		}
		if (unlink(srv->addr.path) < 0 && errno != ENOENT) {
			ret = -errno;
			pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
					  "unix:%s: cannot remove the stale socket: %s",
					  srv->addr.path, strerror(errno));
			return ret;
		}
	}

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto sock_fail;
	ret = bind(fd, (struct sockaddr *)&sun, sizeof(sun));
	/*
	 * The usual places (/run/pvpkit/NAME.sock) do not survive a reboot:
	 * make the last directory level, never more.
	 */
	if (ret < 0 && errno == ENOENT && ctl_mkdir_parent(srv->addr.path) == 0)
		ret = bind(fd, (struct sockaddr *)&sun, sizeof(sun));
	if (ret < 0) {
		ret = -errno;
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS, "unix:%s: bind: %s", srv->addr.path,
				  strerror(errno));
		close(fd);
		return ret;
	}
	/*
	 * A unix socket needs no token: whoever can open the file controls
	 * the app. Keep that to the owner and its group.
	 */
	if (chmod(srv->addr.path, 0660) < 0 || stat(srv->addr.path, &st) < 0 ||
	    listen(fd, SOMAXCONN) < 0) {
		ret = -errno;
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS, "unix:%s: %s", srv->addr.path,
				  strerror(errno));
		unlink(srv->addr.path);
		close(fd);
		return ret;
	}
	srv->unlink_path = true;
	srv->sock_dev = st.st_dev;
	srv->sock_ino = st.st_ino;
	srv->lfd = fd;
	snprintf(srv->address, sizeof(srv->address), "unix:%s", srv->addr.path);
	return 0;

sock_fail:
	ret = -errno;
	pvp_ctl_error_set(err, PVP_CTL_INTERNAL_ERROR, "socket: %s", strerror(errno));
	return ret;
}

static int
ctl_bind_tcp(struct pvp_ctl_server *srv, const char *spec, struct pvp_ctl_error *err)
{
	struct addrinfo hints, *res = NULL, *ai;
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);
	int fd = -1, ret, one = 1;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	ret = getaddrinfo(srv->addr.host, srv->addr.port, &hints, &res);
	if (ret != 0) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS, "%s: %s", spec, gai_strerror(ret));
		return -EINVAL;
	}
	/* Every address the name gives must be loopback, or a token is needed. */
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if (!srv->need_token && !ctl_sockaddr_is_loopback(ai->ai_addr)) {
			pvp_ctl_error_set(err, PVP_CTL_UNAUTHORIZED,
					  "%s: a token file is required to listen beyond loopback",
					  spec);
			freeaddrinfo(res);
			return -EACCES;
		}
	}
	ret = -EADDRNOTAVAIL;
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
			    ai->ai_protocol);
		if (fd < 0) {
			ret = -errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, SOMAXCONN) == 0)
			break;
		ret = -errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS, "%s: %s", spec, strerror(-ret));
		return ret;
	}
	if (getsockname(fd, (struct sockaddr *)&ss, &sslen) < 0) {
		ret = -errno;
		pvp_ctl_error_set(err, PVP_CTL_INTERNAL_ERROR, "%s: getsockname: %s", spec,
				  strerror(errno));
		close(fd);
		return ret;
	}
	ctl_sockaddr_format((struct sockaddr *)&ss, srv->address, sizeof(srv->address));
	srv->lfd = fd;
	return 0;
}

struct pvp_ctl_server *
pvp_ctl_server_create(const struct pvp_ctl_server_conf *conf, struct pvp_ctl_error *err)
{
	struct pvp_ctl_server *srv;
	int ret;

	if (err != NULL) {
		err->code = 0;
		err->message[0] = '\0';
	}
	srv = ctl_server_alloc(conf, err);
	if (srv == NULL)
		return NULL;
	if (pipe2(srv->wake, O_NONBLOCK | O_CLOEXEC) < 0) {
		ret = -errno;
		pvp_ctl_error_set(err, PVP_CTL_INTERNAL_ERROR, "pipe: %s", strerror(errno));
		goto fail;
	}
	if (srv->addr.is_unix)
		ret = ctl_bind_unix(srv, err);
	else
		ret = ctl_bind_tcp(srv, conf->listen, err);
	if (ret < 0)
		goto fail;
	return srv;

fail:
	pvp_ctl_server_destroy(srv);
	errno = -ret;
	return NULL;
}

const char *
pvp_ctl_server_address(const struct pvp_ctl_server *srv)
{
	return srv != NULL ? srv->address : NULL;
}

static void
ctl_conn_close(struct pvp_ctl_server *srv, size_t i, const char *why)
{
	struct ctl_conn *c = srv->conns[i];

	ctl_log(srv, PVP_CTL_LOG_DEBUG, "ctl: %s: closed (%s)", c->peer, why);
	ctl_conn_release(c);
	free(c);
	srv->conns[i] = srv->conns[--srv->n_conns];
}

/*
 * Name the peer for logs, and tell whether it is local (unix socket or
 * loopback TCP) and, if not, its address without the port.
 */
static void
ctl_peer_identify(struct ctl_conn *c, const struct sockaddr_storage *ss)
{
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	char *colon;

	if (ss->ss_family == AF_UNIX) {
		/* Unix peers have no address worth printing; their pid is. */
		c->is_unix = c->local = true;
		if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0)
			snprintf(c->peer, sizeof(c->peer), "unix pid %d", (int)cred.pid);
		else
			snprintf(c->peer, sizeof(c->peer), "unix fd %d", c->fd);
		return;
	}
	ctl_sockaddr_format((const struct sockaddr *)ss, c->peer, sizeof(c->peer));
	c->local = ctl_sockaddr_is_loopback((const struct sockaddr *)ss);
	if (c->local)
		return;
	/* "tcp:192.0.2.1:5000" -> "192.0.2.1", "tcp:[2001:db8::1]:5000" -> "[2001:db8::1]" */
	snprintf(c->host, sizeof(c->host), "%s", c->peer + 4);
	colon = strrchr(c->host, ':');
	if (colon != NULL)
		*colon = '\0';
}

/*
 * The connection to close for a newcomer, among those of @p host (all
 * when NULL): one whose client is gone already; else the oldest that has
 * not proven itself (no token given, or no request yet) and is older
 * than CTL_EVICT_GRACE_MS (a client that just connected is about to
 * send its first request: a burst of them must not evict each other);
 * else the one whose last request is oldest, if that was at least
 * CTL_EVICT_IDLE_MS ago. Returns its index, or -1 when every connection
 * is at work.
 */
static long
ctl_pick_victim(struct pvp_ctl_server *srv, const char *host, uint64_t now)
{
	long stranger = -1, idle = -1;
	size_t i;

	for (i = 0; i < srv->n_conns; i++) {
		struct ctl_conn *c = srv->conns[i];

		if (host != NULL && strcmp(c->host, host) != 0)
			continue;
		if (c->closing || c->draining || ctl_conn_gone(c))
			return (long)i; /* on its way out anyway */
		if (!c->proven) {
			if (now - c->t_open >= CTL_EVICT_GRACE_MS &&
			    (stranger < 0 || c->t_open < srv->conns[stranger]->t_open))
				stranger = (long)i;
		} else if (now - c->t_done >= CTL_EVICT_IDLE_MS) {
			if (idle < 0 || c->t_done < srv->conns[idle]->t_done)
				idle = (long)i;
		}
	}
	return stranger >= 0 ? stranger : idle;
}

/* Tell a connection why it is closed (best effort) and close it. */
static void
ctl_evict(struct pvp_ctl_server *srv, size_t i, const char *why)
{
	static const char line[] = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32003,"
				   "\"message\":\"closed to make room for another client\"}}\n";
	struct ctl_conn *c = srv->conns[i];

	ctl_log_limited(srv, PVP_CTL_LOG_WARNING, "ctl: %s: closed to make room (%s)", c->peer,
			why);
	/* Only if nothing else is half written: the line must stand alone. */
	if (c->woff == c->wlen &&
	    send(c->fd, line, sizeof(line) - 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		errno = 0;
	ctl_conn_close(srv, i, why);
}

/* Refuse @p fd with one error line. */
static void
ctl_refuse(int fd, const char *message)
{
	char line[256], drain[4096];
	int n;

	n = snprintf(line, sizeof(line),
		     "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32003,"
		     "\"message\":\"%s\"}}\n",
		     message);
	/*
	 * Best effort: the line fits any socket buffer. Reading what the
	 * client sent already avoids a reset that would discard the line
	 * before the client reads it.
	 */
	if (send(fd, line, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		errno = 0;
	shutdown(fd, SHUT_WR);
	while (recv(fd, drain, sizeof(drain), MSG_DONTWAIT) > 0)
		;
	close(fd);
}

/*
 * Make room for a newcomer. Returns false when it must be refused (every
 * slot, or every slot of its address, is held by a client at work).
 */
static bool
ctl_admit(struct pvp_ctl_server *srv, const struct ctl_conn *nc, uint64_t now)
{
	unsigned int same = 0;
	size_t i;
	long v;

	if (!nc->local) {
		for (i = 0; i < srv->n_conns; i++)
			same += strcmp(srv->conns[i]->host, nc->host) == 0;
		if (same >= srv->max_per_peer) {
			v = ctl_pick_victim(srv, nc->host, now);
			if (v < 0) {
				ctl_log_limited(
					srv, PVP_CTL_LOG_WARNING,
					"ctl: refusing %s: %u connections from that address",
					nc->peer, same);
				return false;
			}
			ctl_evict(srv, (size_t)v, "too many connections from its address");
		}
	}
	if (srv->n_conns >= srv->max_clients) {
		v = ctl_pick_victim(srv, NULL, now);
		if (v < 0) {
			ctl_log_limited(srv, PVP_CTL_LOG_WARNING,
					"ctl: refusing %s: %u clients connected, all at work",
					nc->peer, srv->max_clients);
			return false;
		}
		ctl_evict(srv, (size_t)v, "server full");
	}
	return true;
}

/* Connections accepted per poll() wake-up. */
#define CTL_ACCEPT_ROUNDS 64

/* Returns false when accept() runs out of descriptors (retry later). */
static bool
ctl_accept(struct pvp_ctl_server *srv)
{
	struct sockaddr_storage ss;
	socklen_t sslen;
	struct ctl_conn *c, **conns;
	unsigned int round;
	uint64_t now;
	int fd;

	/* A bounded number per wake-up: a flood of connects must not starve the clients. */
	for (round = 0; round < CTL_ACCEPT_ROUNDS; round++) {
		sslen = sizeof(ss);
		fd = accept4(srv->lfd, (struct sockaddr *)&ss, &sslen,
			     SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			    errno == ENOMEM) {
				ctl_log_limited(srv, PVP_CTL_LOG_ERR, "ctl: accept: %s",
						strerror(errno));
				return false;
			}
			return true;
		}
		c = malloc(sizeof(*c));
		if (c == NULL) {
			ctl_log(srv, PVP_CTL_LOG_ERR, "ctl: out of memory, refusing a connection");
			close(fd);
			continue;
		}
		ctl_conn_init(srv, c, fd);
		if (sslen == 0 || sslen > sizeof(ss))
			ss.ss_family = AF_UNIX; /* unnamed unix peer */
		ctl_peer_identify(c, &ss);
		now = pvp_now_ms();
		c->t_open = c->t_active = c->t_done = now;
		if (!ctl_admit(srv, c, now)) {
			ctl_refuse(fd, srv->n_conns >= srv->max_clients
					       ? "too many clients; try again later"
					       : "too many connections from your address");
			free(c);
			continue;
		}
		conns = realloc(srv->conns, (srv->n_conns + 1) * sizeof(*conns));
		if (conns == NULL) {
			ctl_log(srv, PVP_CTL_LOG_ERR, "ctl: out of memory, refusing a connection");
			ctl_conn_release(c);
			free(c);
			continue;
		}
		srv->conns = conns;
		srv->conns[srv->n_conns++] = c;
		ctl_log(srv, PVP_CTL_LOG_DEBUG, "ctl: %s: connected", c->peer);
	}
	return true;
}

/* Write what is pending. Returns -1 when the connection is dead. */
static int
ctl_conn_flush(struct ctl_conn *c, uint64_t now)
{
	ssize_t n;

	while (c->woff < c->wlen) {
		n = send(c->fd, c->wbuf + c->woff, c->wlen - c->woff, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return -1;
		}
		if (n > 0)
			c->t_write = c->t_active = now;
		c->woff += (size_t)n;
	}
	c->woff = c->wlen = 0;
	/* A burst of answers once must not pin its buffer for good. */
	if (c->wcap > CTL_BUF_KEEP) {
		free(c->wbuf);
		c->wbuf = NULL;
		c->wcap = 0;
	}
	return 0;
}

/* Rounds of answer-then-write per connection per poll() wake-up. */
#define CTL_ROUNDS 8

/*
 * Totals over every connection, kept while the loop goes through them:
 * what many clients together may make the server hold.
 */
struct ctl_totals {
	size_t queued; /* answers not yet written */
	size_t input;  /* request bytes buffered */
};

/* May the server answer more of @p c's requests now? */
static bool
ctl_conn_may_answer(const struct pvp_ctl_server *srv, const struct ctl_conn *c,
		    const struct ctl_totals *t)
{
	size_t pending = c->wlen - c->woff;

	if (c->closing || c->draining || c->gone || pending >= srv->max_queued)
		return false;
	/* Over the total, only clients that read what they asked get more. */
	return pending == 0 || t->queued < CTL_QUEUED_TOTAL(srv->max_queued);
}

/* May the server read more of @p c's bytes now? */
static bool
ctl_conn_may_read(const struct pvp_ctl_server *srv, const struct ctl_conn *c,
		  const struct ctl_totals *t)
{
	if (c->draining)
		return true;
	if (!ctl_conn_may_answer(srv, c, t))
		return false;
	/* Long unfinished lines wait while the total input is over budget. */
	return c->rlen < CTL_INPUT_SMALL || t->input < CTL_INPUT_TOTAL;
}

/* Lines may wait unanswered while nothing is left to write: don't sleep. */
static bool
ctl_conn_has_work(const struct pvp_ctl_server *srv, const struct ctl_conn *c,
		  const struct ctl_totals *t)
{
	return ctl_conn_may_answer(srv, c, t) && c->woff == c->wlen && c->scan < c->rlen;
}

/* When @p c must be closed if nothing happens, and why. */
static uint64_t
ctl_conn_deadline(const struct pvp_ctl_server *srv, const struct ctl_conn *c, const char **why)
{
	uint64_t d, best;

	if (c->draining) {
		*why = "closed after an error";
		return c->t_drain;
	}
	best = c->t_active + (uint64_t)srv->idle_timeout_s * 1000;
	*why = "idle timeout";
	if (!c->authed) {
		d = c->t_open + srv->auth_timeout_ms;
		if (d < best) {
			best = d;
			*why = "no valid token in time";
		}
	}
	if (c->t_line != 0) {
		d = c->t_line + srv->line_timeout_ms;
		if (d < best) {
			best = d;
			*why = "request line not finished in time";
		}
	}
	if (c->woff < c->wlen) {
		d = c->t_write + srv->write_timeout_ms;
		if (d < best) {
			best = d;
			*why = "does not read its answers";
		}
	}
	return best;
}

/*
 * Serve one connection that poll() flagged. Returns NULL to keep it, or
 * why it must be closed.
 */
static const char *
ctl_conn_event(struct pvp_ctl_server *srv, struct ctl_conn *c, short revents, uint64_t now,
	       const struct ctl_totals *t)
{
	char chunk[CTL_READ_CHUNK];
	unsigned int round;
	bool had_pending = c->woff < c->wlen;
	ssize_t n;

	/*
	 * Hung up both ways (a client that only stopped sending shows
	 * POLLIN and an end of file instead): what it asked can no longer
	 * be answered, so none of it is run.
	 */
	if ((revents & (POLLHUP | POLLERR)) != 0)
		return c->draining ? "closed after an error" : "peer gone";
	if (revents & (POLLIN | POLLHUP | POLLERR)) {
		if (c->draining) {
			n = recv(c->fd, chunk, sizeof(chunk), 0);
			if (n <= 0 && !(n < 0 && (errno == EAGAIN || errno == EINTR)))
				return "closed after an error";
			if (n > 0)
				c->drained += (uint64_t)n;
			if (c->drained > CTL_DRAIN_MAX)
				return "closed after an error";
		} else if (ctl_conn_may_read(srv, c, t)) {
			n = recv(c->fd, chunk, sizeof(chunk), 0);
			if (n == 0)
				return "peer closed";
			if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
				return "read error";
			if (n > 0) {
				c->t_active = now;
				if (ctl_conn_received(c, chunk, (size_t)n) < 0)
					return "out of memory";
			}
		}
	}
	/*
	 * Answer and write in turns while the socket takes it, a few rounds
	 * at most so one busy client cannot starve the others; the poll
	 * loop comes back at once for what is left (ctl_conn_has_work).
	 */
	for (round = 0; !c->draining && round < CTL_ROUNDS; round++) {
		size_t pending;

		if (ctl_conn_may_answer(srv, c, t) && ctl_conn_process(srv, c) < 0)
			return "out of memory";
		if (c->gone)
			return "peer gone";
		pending = c->wlen - c->woff;
		if (pending == 0)
			break;
		if (!had_pending) {
			/* The write clock starts when answers start to wait. */
			c->t_write = now;
			had_pending = true;
		}
		if (ctl_conn_flush(c, now) < 0)
			return "write error";
		if (c->woff < c->wlen || c->closing || c->scan == c->rlen)
			break;
	}
	/* An unfinished line has its own clock: a byte a second is not a request. */
	if (c->partial && c->t_line == 0)
		c->t_line = now;
	else if (!c->partial)
		c->t_line = 0;
	/* Nothing buffered: give back what a big request took. */
	if (c->rlen == 0 && c->rcap > CTL_BUF_KEEP) {
		free(c->rbuf);
		c->rbuf = NULL;
		c->rcap = 0;
	}
	if (c->closing && !c->draining && c->woff == c->wlen) {
		/*
		 * Everything is said: half-close and read until the client
		 * closes too, so unread input does not turn close() into a
		 * reset that would discard our last answer at the client.
		 */
		shutdown(c->fd, SHUT_WR);
		c->draining = true;
		c->t_drain = now + CTL_DRAIN_MS;
	}
	return NULL;
}

static void *
ctl_thread(void *arg)
{
	struct pvp_ctl_server *srv = arg;
	struct pollfd *pfd = NULL, *np;
	struct ctl_totals tot;
	size_t cap = 0, i, n, before_q, before_in;
	uint64_t now, d, wake_at, accept_retry = 0;
	bool more = false;
	const char *why, *late;
	char b[64];
	int timeout;

	for (;;) {
		if (cap < srv->n_conns + 2) {
			np = realloc(pfd, (srv->n_conns + 2) * sizeof(*pfd));
			if (np == NULL) {
				ctl_log(srv, PVP_CTL_LOG_ERR, "ctl: out of memory; retrying");
				usleep(100000);
				continue;
			}
			pfd = np;
			cap = srv->n_conns + 2;
		}
		now = pvp_now_ms();
		pfd[0].fd = srv->wake[0];
		pfd[0].events = POLLIN;
		pfd[1].fd = now >= accept_retry ? srv->lfd : -1;
		pfd[1].events = POLLIN;
		n = srv->n_conns;
		tot.queued = tot.input = 0;
		for (i = 0; i < n; i++) {
			tot.queued += srv->conns[i]->wlen - srv->conns[i]->woff;
			tot.input += srv->conns[i]->rlen;
		}
		/* Sleep until the nearest deadline: no wake-ups while idle. */
		wake_at = accept_retry > now ? accept_retry : UINT64_MAX;
		for (i = 0; i < n; i++) {
			struct ctl_conn *c = srv->conns[i];

			d = ctl_conn_deadline(srv, c, &late);
			if (d < wake_at)
				wake_at = d;
			pfd[2 + i].fd = c->fd;
			pfd[2 + i].events = 0;
			if (ctl_conn_may_read(srv, c, &tot))
				pfd[2 + i].events |= POLLIN;
			if (c->woff < c->wlen)
				pfd[2 + i].events |= POLLOUT;
		}
		if (wake_at == UINT64_MAX)
			timeout = -1;
		else if (wake_at <= now)
			timeout = 0;
		else
			timeout = wake_at - now > 60000 ? 60000 : (int)(wake_at - now) + 1;
		if (more)
			timeout = 0;
		more = false;
		if (poll(pfd, 2 + n, timeout) < 0) {
			if (errno == EINTR)
				continue;
			ctl_log(srv, PVP_CTL_LOG_ERR, "ctl: poll: %s", strerror(errno));
			usleep(100000);
			continue;
		}
		if (pfd[0].revents != 0) {
			if (read(srv->wake[0], b, sizeof(b)) >= 0 || errno != EAGAIN)
				break;
		}
		now = pvp_now_ms();
		/* From the end: closing swaps the last connection into slot i. */
		for (i = n; i-- > 0;) {
			struct ctl_conn *c = srv->conns[i];

			before_q = c->wlen - c->woff;
			before_in = c->rlen;
			why = ctl_conn_event(srv, c, pfd[2 + i].revents, now, &tot);
			if (why == NULL && now >= ctl_conn_deadline(srv, c, &late)) {
				why = late;
				if (!c->draining)
					ctl_log_limited(srv, PVP_CTL_LOG_INFO,
							"ctl: %s: closing: %s", c->peer, why);
			}
			if (why == NULL) {
				tot.queued += c->wlen - c->woff;
				tot.queued -= before_q;
				tot.input += c->rlen;
				tot.input -= before_in;
				if (ctl_conn_has_work(srv, c, &tot))
					more = true;
				continue;
			}
			tot.queued -= before_q;
			tot.input -= before_in;
			ctl_conn_close(srv, i, why);
		}
		if (pfd[1].fd >= 0 && (pfd[1].revents & POLLIN)) {
			/* Out of descriptors: stop accepting for a moment, don't spin. */
			if (!ctl_accept(srv))
				accept_retry = now + 100;
		}
	}
	free(pfd);
	return NULL;
}

int
pvp_ctl_server_start(struct pvp_ctl_server *srv)
{
	sigset_t all, old;
	int ret;

	if (srv == NULL || srv->lfd < 0)
		return -EINVAL;
	if (srv->started)
		return -EALREADY;
	/*
	 * The thread takes no signals: they go to the app's threads, which
	 * may be waiting for them (sigwait, pause).
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&srv->thread, NULL, ctl_thread, srv);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret != 0)
		return -ret;
	pthread_setname_np(srv->thread, "pvp-ctl");
	srv->started = true;
	ctl_log(srv, PVP_CTL_LOG_NOTICE, "ctl: listening on %s%s", srv->address,
		srv->need_token ? " (token required)" : "");
	return 0;
}

void
pvp_ctl_server_destroy(struct pvp_ctl_server *srv)
{
	struct stat st;

	if (srv == NULL)
		return;
	if (srv->started) {
		ssize_t n;

		do {
			n = write(srv->wake[1], "x", 1);
		} while (n < 0 && errno == EINTR);
		pthread_join(srv->thread, NULL);
		srv->started = false;
		ctl_log(srv, PVP_CTL_LOG_NOTICE, "ctl: stopped listening on %s", srv->address);
	}
	if (srv->lfd >= 0)
		close(srv->lfd);
	/* Remove the socket file only if it is still the one we made. */
	if (srv->unlink_path && stat(srv->addr.path, &st) == 0 && st.st_dev == srv->sock_dev &&
	    st.st_ino == srv->sock_ino)
		unlink(srv->addr.path);
	if (srv->wake[0] >= 0)
		close(srv->wake[0]);
	if (srv->wake[1] >= 0)
		close(srv->wake[1]);
	ctl_server_free(srv);
}
