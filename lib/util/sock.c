/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Stream sockets with a deadline, for every client in pvpkit (lib/ctl's,
 * the OVSDB one of the ovs driver, lib/metrics' Pushgateway one) and the
 * /metrics server's answers: a peer that never answers, a connect to a
 * host that drops SYNs, a listener with a full backlog all end at the
 * caller's deadline, never later.
 */

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "pvp_util.h"

int
pvp_sock_wait(int fd, short events, uint64_t deadline_ms)
{
	struct pollfd p = {.fd = fd, .events = events};
	uint64_t now;
	int left, r;

	for (;;) {
		left = -1;
		if (deadline_ms != 0) {
			now = pvp_now_ms();
			if (now >= deadline_ms)
				return -ETIMEDOUT;
			/* Bounded, so a clock step is noticed within a minute. */
			left = deadline_ms - now > 60000 ? 60000 : (int)(deadline_ms - now);
		}
		r = poll(&p, 1, left);
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
	}
}

int
pvp_sock_send_all(int fd, const void *buf, size_t len, uint64_t deadline_ms, size_t *sent)
{
	size_t off = 0;
	ssize_t n;
	int ret = 0;

	while (ret == 0 && off < len) {
		n = send(fd, (const char *)buf + off, len - off, MSG_NOSIGNAL);
		if (n > 0)
			off += (size_t)n;
		else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			ret = pvp_sock_wait(fd, POLLOUT, deadline_ms);
		else if (n < 0 && errno != EINTR)
			ret = -errno;
	}
	if (sent != NULL)
		*sent = off;
	return ret;
}

int
pvp_sock_connect(const struct sockaddr *sa, socklen_t salen, uint64_t deadline_ms)
{
	socklen_t len = sizeof(int);
	int fd, r, soerr = 0;

	fd = socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	for (;;) {
		if (connect(fd, sa, salen) == 0)
			return fd;
		if (errno == EINTR)
			continue;
		/* A unix listener with a full backlog says EAGAIN: try again. */
		if (errno == EAGAIN && sa->sa_family == AF_UNIX) {
			if (deadline_ms != 0 && pvp_now_ms() >= deadline_ms) {
				r = -ETIMEDOUT;
				goto fail;
			}
			usleep(5000);
			continue;
		}
		break;
	}
	if (errno != EINPROGRESS) {
		r = -errno;
		goto fail;
	}
	r = pvp_sock_wait(fd, POLLOUT, deadline_ms);
	if (r < 0)
		goto fail;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) < 0)
		soerr = errno;
	if (soerr == 0)
		return fd;
	r = -soerr;
fail:
	close(fd);
	return r;
}

int
pvp_sock_connect_tcp(const char *spec, uint64_t deadline_ms, char *err, size_t err_len)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
	struct addrinfo *res, *ai;
	char host[256], *port;
	int fd = -EHOSTUNREACH, r;

	if (strncmp(spec, "tcp:", 4) != 0 || strlen(spec + 4) >= sizeof(host))
		return pvp_fail(err, err_len, -EINVAL, "\"%s\": not tcp:HOST:PORT", spec);
	snprintf(host, sizeof(host), "%s", spec + 4);
	port = strrchr(host, ':');
	if (port == NULL || port[1] == '\0')
		return pvp_fail(err, err_len, -EINVAL, "\"%s\": no port", spec);
	*port++ = '\0';
	/* "[v6addr]:PORT" */
	if (host[0] == '[' && port - host >= 3 && port[-2] == ']') {
		port[-2] = '\0';
		memmove(host, host + 1, strlen(host));
	}
	r = getaddrinfo(host, port, &hints, &res);
	if (r != 0)
		return pvp_fail(err, err_len, -EHOSTUNREACH, "%s: %s", spec, gai_strerror(r));
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = pvp_sock_connect(ai->ai_addr, ai->ai_addrlen, deadline_ms);
		if (fd >= 0)
			break;
	}
	freeaddrinfo(res);
	if (fd < 0)
		pvp_err(err, err_len, "%s: %s", spec, strerror(-fd));
	return fd;
}
