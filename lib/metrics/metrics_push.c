/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Sending metrics to a Pushgateway (or anything that takes them by HTTP
 * PUT or POST): plain http:// only, one request per connection, every
 * step within one deadline, through lib/util's connect.
 */

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "pvp_util.h"

#include "pvp_metrics.h"

/* Parts of an http:// URL. */
struct mp_url {
	char host[256]; /* without brackets */
	char port[8];	/* "80" when none */
	const char *path;
};

static int
mp_url_parse(const char *url, struct mp_url *u, char *err, size_t err_len)
{
	const char *h, *e, *colon;
	uint64_t port;
	size_t hl;

	if (strncmp(url, "http://", 7) != 0)
		return pvp_fail(err, err_len, -EINVAL,
				"%.200s: only http://HOST[:PORT]/PATH URLs are supported%s", url,
				strncmp(url, "https://", 8) == 0 ? " (https is not)" : "");
	h = url + 7;
	e = strchr(h, '/');
	u->path = e != NULL ? e : "/";
	if (e == NULL)
		e = h + strlen(h);
	if (h[0] == '[') {
		const char *rb = memchr(h, ']', (size_t)(e - h));

		if (rb == NULL)
			goto bad;
		hl = (size_t)(rb - h - 1);
		h++;
		colon = rb[1] == ':' ? rb + 1 : NULL;
		if (colon == NULL && rb + 1 != e)
			goto bad;
	} else {
		colon = memchr(h, ':', (size_t)(e - h));
		hl = (size_t)((colon != NULL ? colon : e) - h);
	}
	if (hl == 0 || hl >= sizeof(u->host))
		goto bad;
	memcpy(u->host, h, hl);
	u->host[hl] = '\0';
	snprintf(u->port, sizeof(u->port), "80");
	if (colon != NULL) {
		if (e - colon - 1 < 1 || e - colon - 1 > 5)
			goto bad;
		memcpy(u->port, colon + 1, (size_t)(e - colon - 1));
		u->port[e - colon - 1] = '\0';
		if (pvp_parse_u64(NULL, u->port, 1, 65535, &port, NULL, 0) != 0)
			goto bad;
	}
	for (h = u->path; *h != '\0'; h++)
		if (*h <= ' ' || *h == 0x7f)
			goto bad;
	return 0;
bad:
	return pvp_fail(err, err_len, -EINVAL,
			"%.200s: not a URL of the form http://HOST[:PORT]/PATH", url);
}

int
pvp_metrics_url_check(const char *url, char *err, size_t err_len)
{
	struct mp_url u;

	return mp_url_parse(url, &u, err, err_len);
}

int
pvp_metrics_http_send(const char *url, const char *method, const char *content_type,
		      const char *body, size_t len, unsigned int timeout_ms, char *err,
		      size_t err_len)
{
	uint64_t deadline = pvp_now_ms() + timeout_ms;
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
	struct addrinfo *res = NULL;
	char head[1024], ans[512], *b;
	size_t got = 0;
	struct mp_url u;
	int fd, ret, n, status;
	ssize_t r;

	ret = mp_url_parse(url, &u, err, err_len);
	if (ret != 0)
		return ret;
	ret = getaddrinfo(u.host, u.port, &hints, &res);
	if (ret != 0)
		return pvp_fail(err, err_len, -EHOSTUNREACH, "%s: %s", u.host, gai_strerror(ret));
	fd = pvp_sock_connect(res->ai_addr, res->ai_addrlen, deadline);
	freeaddrinfo(res);
	if (fd < 0)
		return pvp_fail(err, err_len, fd, "%s:%s: %s", u.host, u.port, strerror(-fd));
	n = snprintf(head, sizeof(head),
		     "%s %s HTTP/1.1\r\nHost: %s:%s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
		     "Connection: close\r\n\r\n",
		     method, u.path, u.host, u.port, content_type, len);
	if (n < 0 || (size_t)n >= sizeof(head)) {
		pvp_err(err, err_len, "%.200s: URL too long", url);
		close(fd);
		return -EINVAL;
	}
	ret = pvp_sock_send_all(fd, head, (size_t)n, deadline, NULL);
	if (ret == 0)
		ret = pvp_sock_send_all(fd, body, len, deadline, NULL);
	/* The status line and what follows, as much as fits. */
	while (ret == 0 && got < sizeof(ans) - 1) {
		r = recv(fd, ans + got, sizeof(ans) - 1 - got, 0);
		if (r > 0)
			got += (size_t)r;
		else if (r == 0)
			break;
		else if (errno == EAGAIN)
			ret = pvp_sock_wait(fd, POLLIN, deadline);
		else if (errno != EINTR)
			ret = -errno;
	}
	close(fd);
	ans[got] = '\0';
	if (ret != 0 && got == 0)
		return pvp_fail(err, err_len, ret, "%s:%s: %s", u.host, u.port, strerror(-ret));
	if (sscanf(ans, "HTTP/1.%*c %d", &status) != 1)
		return pvp_fail(err, err_len, -EPROTO, "%s:%s: not an HTTP answer", u.host, u.port);
	if (status >= 200 && status < 300)
		return 0;
	/* The first line of the body says why (a Pushgateway's parse error). */
	b = strstr(ans, "\r\n\r\n");
	b = b != NULL ? b + 4 : ans + got;
	b[strcspn(b, "\r\n")] = '\0';
	return pvp_fail(err, err_len, -EPROTO, "%.200s: HTTP %d%s%.200s", url, status,
			b[0] != '\0' ? ": " : "", b);
}
