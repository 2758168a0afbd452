/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The /metrics server: one thread of its own, so nothing of it runs on
 * a TX or RX lcore; a poll() over the listening socket, a stop pipe and
 * at most PVP_METRICS_MAX_CLIENTS connections. Each connection sends one
 * request head of at most PVP_METRICS_MAX_REQUEST bytes within
 * PVP_METRICS_IO_TIMEOUT_MS, gets one answer and is closed
 * ("Connection: close"): a scraper reconnects each time, and a client
 * that sends slowly or never holds one slot until its deadline, never
 * the thread.
 */

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "pvp_util.h"

#include "pvp_metrics.h"

/* ---- the request parser ---- */

/* The end of the head: "\r\n\r\n" or "\n\n" (bare newlines are accepted). */
static const char *
mh_head_end(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i++) {
		if (buf[i] == '\n' && buf[i + 1] == '\n')
			return buf + i + 2;
		if (i + 3 < len && memcmp(buf + i, "\r\n\r\n", 4) == 0)
			return buf + i + 4;
	}
	return NULL;
}

/* RFC 9110 tchar: the characters of a method and a header name. */
static bool
mh_tchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* Whether [s, e) holds @p word, ASCII case ignored. */
static bool
mh_contains(const char *s, const char *e, const char *word)
{
	size_t n = strlen(word);

	for (; s + n <= e; s++)
		if (strncasecmp(s, word, n) == 0)
			return true;
	return false;
}

/* The answer's status, and 1: the head was read (or never will be). */
static int
mh_status(struct pvp_metrics_req *req, int status)
{
	req->status = status;
	return 1;
}

int
pvp_metrics_http_parse(const char *buf, size_t len, struct pvp_metrics_req *req)
{
	const char *end = mh_head_end(buf, len), *p, *sp1, *sp2, *eol, *colon;
	size_t n;

	*req = (struct pvp_metrics_req){.fmt = PVP_OM_PROMETHEUS};
	if (end == NULL && len < PVP_METRICS_MAX_REQUEST)
		return 0;
	if (end == NULL || end - buf > PVP_METRICS_MAX_REQUEST)
		return mh_status(req, 431);
	/* Request line: METHOD SP TARGET SP HTTP/1.x */
	eol = memchr(buf, '\n', (size_t)(end - buf));
	for (sp1 = buf; sp1 < eol && mh_tchar(*sp1); sp1++)
		;
	if (sp1 == buf || sp1 >= eol || *sp1 != ' ')
		return mh_status(req, 400);
	for (sp2 = sp1 + 1; sp2<eol && * sp2> ' ' && *sp2 < 0x7f; sp2++)
		;
	if (sp2 == sp1 + 1 || sp2 >= eol || *sp2 != ' ' || sp1[1] != '/')
		return mh_status(req, 400);
	n = (size_t)(eol - (sp2 + 1));
	if (n > 0 && sp2[n] == '\r')
		n--;
	/* HTTP/D.D: 1.0 and 1.1 are served, another version is 505. */
	if (n != 8 || memcmp(sp2 + 1, "HTTP/", 5) != 0 || sp2[6] < '0' || sp2[6] > '9' ||
	    sp2[7] != '.' || sp2[8] < '0' || sp2[8] > '9')
		return mh_status(req, 400);
	if (sp2[6] != '1' || sp2[8] > '1')
		return mh_status(req, 505);
	/* Headers: NAME ":" VALUE, one a line; only Accept matters. */
	for (p = eol + 1; p < end; p = eol + 1) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == p || (eol == p + 1 && *p == '\r'))
			break;
		for (colon = p; colon < eol && mh_tchar(*colon); colon++)
			;
		if (colon == p || colon >= eol || *colon != ':')
			return mh_status(req, 400);
		if (colon - p == 6 && strncasecmp(p, "accept", 6) == 0 &&
		    mh_contains(colon + 1, eol, "application/openmetrics-text"))
			req->fmt = PVP_OM_OPENMETRICS;
	}
	if ((size_t)(sp1 - buf) == 4 && memcmp(buf, "HEAD", 4) == 0)
		req->head = true;
	else if ((size_t)(sp1 - buf) != 3 || memcmp(buf, "GET", 3) != 0)
		return mh_status(req, 405);
	n = (size_t)(sp2 - (sp1 + 1));
	if (!((n == 8 && memcmp(sp1 + 1, "/metrics", 8) == 0) ||
	      (n > 8 && memcmp(sp1 + 1, "/metrics?", 9) == 0)))
		return mh_status(req, 404);
	return mh_status(req, 200);
}

/* ---- addresses ---- */

int
pvp_metrics_addr_parse(const char *addr, char *host, size_t host_len, uint16_t *port, char *err,
		       size_t err_len)
{
	const char *colon, *h;
	struct in6_addr a6;
	struct in_addr a4;
	char ps[8], hb[64];
	uint64_t v;
	size_t hl;

	colon = strrchr(addr, ':');
	if (colon == NULL) {
		h = "127.0.0.1";
		hl = strlen(h);
		colon = addr - 1;
	} else {
		h = addr;
		hl = (size_t)(colon - addr);
		if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']') {
			h++;
			hl -= 2;
		} else if (memchr(h, ':', hl) != NULL) {
			return pvp_fail(err, err_len, -EINVAL,
					"--metrics \"%s\": an IPv6 address goes in brackets, "
					"[::1]:PORT",
					addr);
		}
	}
	if (hl == 0 || hl >= sizeof(hb) || hl >= host_len)
		return pvp_fail(err, err_len, -EINVAL,
				"--metrics \"%s\": expected PORT, HOST:PORT or [V6]:PORT", addr);
	memcpy(hb, h, hl);
	hb[hl] = '\0';
	if (strcmp(hb, "localhost") == 0)
		snprintf(hb, sizeof(hb), "127.0.0.1");
	if (inet_pton(AF_INET, hb, &a4) != 1 && inet_pton(AF_INET6, hb, &a6) != 1)
		return pvp_fail(err, err_len, -EINVAL,
				"--metrics \"%s\": HOST must be an IP address or localhost", addr);
	snprintf(ps, sizeof(ps), "%.7s", colon + 1);
	if (strlen(colon + 1) > 5 || pvp_parse_u64(NULL, ps, 0, 65535, &v, NULL, 0) != 0)
		return pvp_fail(err, err_len, -EINVAL,
				"--metrics \"%s\": PORT must be a whole number in 0..65535", addr);
	snprintf(host, host_len, "%s", hb);
	*port = (uint16_t)v;
	return 0;
}

/* ---- the server ---- */

struct mh_client {
	int fd;		      /* -1: free */
	uint64_t deadline_ms; /* the request must be in by then */
	size_t len;	      /* bytes in buf */
	char buf[PVP_METRICS_MAX_REQUEST];
};

struct pvp_metrics_server {
	int lfd;     /* listening socket */
	int stop[2]; /* a byte on stop[1] ends the thread */
	pthread_t thread;
	pvp_metrics_collect_cb collect;
	void *arg;
	char url[128];
	struct mh_client cl[PVP_METRICS_MAX_CLIENTS];
};

static const char *
mh_reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 431:
		return "Request Header Fields Too Large";
	case 505:
		return "HTTP Version Not Supported";
	default:
		return "Internal Server Error";
	}
}

static void
mh_answer(struct pvp_metrics_server *srv, struct mh_client *c, const struct pvp_metrics_req *req)
{
	uint64_t deadline = pvp_now_ms() + PVP_METRICS_IO_TIMEOUT_MS;
	const char *ct = "text/plain; charset=utf-8", *body;
	int status = req->status;
	struct pvp_om om;
	char head[512], msg[64];
	size_t blen;
	int n;

	pvp_om_init(&om, req->fmt);
	if (status == 200) {
		if (srv->collect(&om, srv->arg) != 0 || pvp_om_finish(&om) != 0)
			status = 500;
		else
			ct = req->fmt == PVP_OM_OPENMETRICS ? PVP_OM_CT_OPENMETRICS
							    : PVP_OM_CT_PROMETHEUS;
	}
	if (status == 200) {
		body = om.buf;
		blen = om.len;
	} else {
		snprintf(msg, sizeof(msg), "%d %s\n", status, mh_reason(status));
		body = msg;
		blen = strlen(msg);
	}
	n = snprintf(head, sizeof(head),
		     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
		     "%sConnection: close\r\n\r\n",
		     status, mh_reason(status), ct, blen,
		     status == 405 ? "Allow: GET, HEAD\r\n" : "");
	if (pvp_sock_send_all(c->fd, head, (size_t)n, deadline, NULL) == 0 && !req->head)
		pvp_sock_send_all(c->fd, body, blen, deadline, NULL);
	pvp_om_free(&om);
}

static void
mh_close(struct mh_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->len = 0;
}

/* Read what @p c sent; answer once the head is whole. */
static void
mh_read(struct pvp_metrics_server *srv, struct mh_client *c)
{
	struct pvp_metrics_req req;
	ssize_t r;

	r = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len, 0);
	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (r <= 0) {
		mh_close(c);
		return;
	}
	c->len += (size_t)r;
	if (pvp_metrics_http_parse(c->buf, c->len, &req) == 0)
		return;
	/* What else it sent (a body) is not read: shut down before close, so no reset. */
	mh_answer(srv, c, &req);
	shutdown(c->fd, SHUT_WR);
	mh_close(c);
}

static void
mh_accept(struct pvp_metrics_server *srv)
{
	unsigned int i;
	int fd;

	for (i = 0; i < PVP_METRICS_MAX_CLIENTS && srv->cl[i].fd >= 0; i++)
		;
	/* No free slot: leave it in the backlog; poll() stops asking (see mh_thread). */
	if (i == PVP_METRICS_MAX_CLIENTS)
		return;
	fd = accept4(srv->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	srv->cl[i].fd = fd;
	srv->cl[i].len = 0;
	srv->cl[i].deadline_ms = pvp_now_ms() + PVP_METRICS_IO_TIMEOUT_MS;
}

static void *
mh_thread(void *arg)
{
	struct pvp_metrics_server *srv = arg;
	struct pollfd pfd[PVP_METRICS_MAX_CLIENTS + 2];
	unsigned int i, n, busy, slot[PVP_METRICS_MAX_CLIENTS];
	uint64_t now;

	for (;;) {
		busy = 0;
		n = 0;
		pfd[n++] = (struct pollfd){.fd = srv->stop[0], .events = POLLIN};
		for (i = 0; i < PVP_METRICS_MAX_CLIENTS; i++) {
			if (srv->cl[i].fd < 0)
				continue;
			busy++;
			slot[n - 1] = i;
			pfd[n++] = (struct pollfd){.fd = srv->cl[i].fd, .events = POLLIN};
		}
		pfd[n] = (struct pollfd){.fd = busy < PVP_METRICS_MAX_CLIENTS ? srv->lfd : -1,
					 .events = POLLIN};
		if (poll(pfd, n + 1, 200) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents != 0)
			break;
		for (i = 1; i < n; i++)
			if (pfd[i].revents != 0)
				mh_read(srv, &srv->cl[slot[i - 1]]);
		if (pfd[n].revents != 0)
			mh_accept(srv);
		/* A client that did not send its request in time is closed unanswered. */
		now = pvp_now_ms();
		for (i = 0; i < PVP_METRICS_MAX_CLIENTS; i++)
			if (srv->cl[i].fd >= 0 && now >= srv->cl[i].deadline_ms)
				mh_close(&srv->cl[i]);
	}
	return NULL;
}

struct pvp_metrics_server *
pvp_metrics_server_start(const char *addr, pvp_metrics_collect_cb collect, void *arg, char *err,
			 size_t err_len)
{
	struct pvp_metrics_server *srv;
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM,
				 .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE};
	struct addrinfo *res = NULL;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[64], ps[8], hs[INET6_ADDRSTRLEN];
	int one = 1, ret, e;
	uint16_t port;
	unsigned int i;

	if (pvp_metrics_addr_parse(addr, host, sizeof(host), &port, err, err_len) != 0) {
		errno = EINVAL;
		return NULL;
	}
	srv = calloc(1, sizeof(*srv));
	if (srv == NULL) {
		pvp_err(err, err_len, "out of memory");
		return NULL;
	}
	srv->lfd = srv->stop[0] = srv->stop[1] = -1;
	for (i = 0; i < PVP_METRICS_MAX_CLIENTS; i++)
		srv->cl[i].fd = -1;
	srv->collect = collect;
	srv->arg = arg;
	snprintf(ps, sizeof(ps), "%u", port);
	ret = getaddrinfo(host, ps, &hints, &res);
	if (ret != 0) {
		pvp_err(err, err_len, "--metrics %s: %s", addr, gai_strerror(ret));
		errno = EINVAL;
		goto fail;
	}
	srv->lfd = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (srv->lfd < 0 || setsockopt(srv->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(srv->lfd, res->ai_addr, res->ai_addrlen) < 0 || listen(srv->lfd, 64) < 0 ||
	    getsockname(srv->lfd, (struct sockaddr *)&ss, &sl) < 0 ||
	    pipe2(srv->stop, O_CLOEXEC) < 0) {
		pvp_err(err, err_len, "--metrics %s: %s", addr, strerror(errno));
		goto fail;
	}
	getnameinfo((struct sockaddr *)&ss, sl, hs, sizeof(hs), ps, sizeof(ps),
		    NI_NUMERICHOST | NI_NUMERICSERV);
	snprintf(srv->url, sizeof(srv->url), "http://%s%s%s:%s/metrics",
		 ss.ss_family == AF_INET6 ? "[" : "", hs, ss.ss_family == AF_INET6 ? "]" : "", ps);
	e = pthread_create(&srv->thread, NULL, mh_thread, srv);
	if (e != 0) {
		pvp_err(err, err_len, "--metrics %s: cannot start its thread: %s", addr,
			strerror(e));
		errno = e;
		goto fail;
	}
	/* Named, so top -H and /proc say which thread serves and on which CPU. */
	pthread_setname_np(srv->thread, "pvp-metrics");
	freeaddrinfo(res);
	return srv;
fail:
	e = errno;
	if (res != NULL)
		freeaddrinfo(res);
	if (srv->lfd >= 0)
		close(srv->lfd);
	if (srv->stop[0] >= 0) {
		close(srv->stop[0]);
		close(srv->stop[1]);
	}
	free(srv);
	errno = e;
	return NULL;
}

const char *
pvp_metrics_server_url(const struct pvp_metrics_server *srv)
{
	return srv->url;
}

void
pvp_metrics_server_stop(struct pvp_metrics_server *srv)
{
	unsigned int i;
	ssize_t w;

	if (srv == NULL)
		return;
	do
		w = write(srv->stop[1], "x", 1);
	while (w < 0 && errno == EINTR);
	pthread_join(srv->thread, NULL);
	for (i = 0; i < PVP_METRICS_MAX_CLIENTS; i++)
		mh_close(&srv->cl[i]);
	close(srv->lfd);
	close(srv->stop[0]);
	close(srv->stop[1]);
	free(srv);
}
