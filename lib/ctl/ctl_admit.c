/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Who may connect: accepting newcomers, naming the peer for logs,
 * the per-address and total connection limits, and which idle
 * connection makes room for a newcomer (evicted with one error line)
 * or why the newcomer is refused.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "ctl_private.h"

void
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
bool
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
