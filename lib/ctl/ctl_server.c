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

static void
ctl_peer_name(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);

	struct ucred cred;
	socklen_t clen = sizeof(cred);

	if (getpeername(fd, (struct sockaddr *)&ss, &sslen) < 0 || ss.ss_family == AF_UNIX) {
		/* Unix peers have no address worth printing; their pid is. */
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0)
			snprintf(buf, len, "unix pid %d", (int)cred.pid);
		else
			snprintf(buf, len, "unix fd %d", fd);
		return;
	}
	ctl_sockaddr_format((struct sockaddr *)&ss, buf, len);
}

/* Returns false when accept() runs out of descriptors (retry later). */
static bool
ctl_accept(struct pvp_ctl_server *srv)
{
	static const char busy[] = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32003,"
				   "\"message\":\"too many clients; try again later\"}}\n";
	struct ctl_conn *c, **conns;
	char drain[4096];
	int fd;

	for (;;) {
		fd = accept4(srv->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			    errno == ENOMEM) {
				ctl_log(srv, PVP_CTL_LOG_ERR, "ctl: accept: %s", strerror(errno));
				return false;
			}
			return true;
		}
		if (srv->n_conns >= srv->max_clients) {
			ctl_log(srv, PVP_CTL_LOG_WARNING,
				"ctl: refusing a connection: %u clients connected",
				srv->max_clients);
			/*
			 * Best effort: the line fits any socket buffer. Reading
			 * what the client sent already avoids a reset that
			 * would discard the line before the client reads it.
			 */
			if (send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL) < 0)
				errno = 0;
			shutdown(fd, SHUT_WR);
			while (recv(fd, drain, sizeof(drain), 0) > 0)
				;
			close(fd);
			continue;
		}
		c = malloc(sizeof(*c));
		conns = realloc(srv->conns, (srv->n_conns + 1) * sizeof(*conns));
		if (conns != NULL)
			srv->conns = conns;
		if (c == NULL || conns == NULL) {
			ctl_log(srv, PVP_CTL_LOG_ERR, "ctl: out of memory, refusing a connection");
			free(c);
			close(fd);
			continue;
		}
		ctl_conn_init(srv, c, fd);
		ctl_peer_name(fd, c->peer, sizeof(c->peer));
		c->deadline_ms = ctl_now_ms() + (uint64_t)srv->idle_timeout_s * 1000;
		srv->conns[srv->n_conns++] = c;
		ctl_log(srv, PVP_CTL_LOG_DEBUG, "ctl: %s: connected", c->peer);
	}
}

/* Write what is pending. Returns -1 when the connection is dead. */
static int
ctl_conn_flush(struct ctl_conn *c)
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
		c->woff += (size_t)n;
	}
	c->woff = c->wlen = 0;
	return 0;
}

/* Rounds of answer-then-write per connection per poll() wake-up. */
#define CTL_ROUNDS 8

/* Lines may wait unanswered while nothing is left to write: don't sleep. */
static bool
ctl_conn_has_work(const struct ctl_conn *c)
{
	return !c->closing && c->woff == c->wlen && c->scan < c->rlen;
}

/*
 * Serve one connection that poll() flagged. Returns NULL to keep it, or
 * why it must be closed.
 */
static const char *
ctl_conn_event(struct pvp_ctl_server *srv, struct ctl_conn *c, short revents, uint64_t now)
{
	char chunk[CTL_READ_CHUNK];
	unsigned int round;
	ssize_t n;

	if (revents & (POLLIN | POLLHUP | POLLERR)) {
		if (c->draining) {
			n = recv(c->fd, chunk, sizeof(chunk), 0);
			if (n <= 0 && !(n < 0 && (errno == EAGAIN || errno == EINTR)))
				return "closed after an error";
			if (n > 0)
				c->drained += (uint64_t)n;
			if (c->drained > CTL_DRAIN_MAX)
				return "closed after an error";
		} else if (!c->closing && c->wlen - c->woff < CTL_WBUF_HIGH) {
			n = recv(c->fd, chunk, sizeof(chunk), 0);
			if (n == 0)
				return "peer closed";
			if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
				return "read error";
			if (n > 0) {
				c->deadline_ms = now + (uint64_t)srv->idle_timeout_s * 1000;
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

		if (ctl_conn_process(srv, c) < 0)
			return "out of memory";
		pending = c->wlen - c->woff;
		if (pending == 0)
			break;
		if (ctl_conn_flush(c) < 0)
			return "write error";
		if (c->wlen - c->woff < pending)
			c->deadline_ms = now + (uint64_t)srv->idle_timeout_s * 1000;
		if (c->woff < c->wlen || c->closing || c->scan == c->rlen)
			break;
	}
	if (c->closing && !c->draining && c->woff == c->wlen) {
		/*
		 * Everything is said: half-close and read until the client
		 * closes too, so unread input does not turn close() into a
		 * reset that would discard our last answer at the client.
		 */
		shutdown(c->fd, SHUT_WR);
		c->draining = true;
		c->deadline_ms = now + CTL_DRAIN_MS;
	}
	return NULL;
}

static void *
ctl_thread(void *arg)
{
	struct pvp_ctl_server *srv = arg;
	struct pollfd *pfd = NULL, *np;
	size_t cap = 0, i, n;
	uint64_t now, wake_at, accept_retry = 0;
	bool more = false;
	const char *why;
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
		now = ctl_now_ms();
		pfd[0].fd = srv->wake[0];
		pfd[0].events = POLLIN;
		pfd[1].fd = now >= accept_retry ? srv->lfd : -1;
		pfd[1].events = POLLIN;
		n = srv->n_conns;
		/* Sleep until the nearest deadline: no wake-ups while idle. */
		wake_at = accept_retry > now ? accept_retry : UINT64_MAX;
		for (i = 0; i < n; i++) {
			struct ctl_conn *c = srv->conns[i];

			if (c->deadline_ms < wake_at)
				wake_at = c->deadline_ms;
			pfd[2 + i].fd = c->fd;
			pfd[2 + i].events = 0;
			if (c->draining || (!c->closing && c->wlen - c->woff < CTL_WBUF_HIGH))
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
		now = ctl_now_ms();
		/* From the end: closing swaps the last connection into slot i. */
		for (i = n; i-- > 0;) {
			struct ctl_conn *c = srv->conns[i];

			why = ctl_conn_event(srv, c, pfd[2 + i].revents, now);
			if (why == NULL && now >= c->deadline_ms)
				why = c->draining ? "closed after an error" : "idle timeout";
			if (why != NULL)
				ctl_conn_close(srv, i, why);
			else if (ctl_conn_has_work(c))
				more = true;
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
