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
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "ctl_private.h"

struct pvp_ctl_server *
pvp_ctl_server_create(const struct pvp_ctl_server_conf *conf, char *err, size_t err_len)
{
	struct pvp_ctl_server *srv;
	int ret;

	if (err != NULL && err_len > 0)
		err[0] = '\0';
	srv = ctl_server_alloc(conf, err, err_len);
	if (srv == NULL)
		return NULL;
	if (pipe2(srv->wake, O_NONBLOCK | O_CLOEXEC) < 0) {
		ret = pvp_fail(err, err_len, -errno, "pipe: %s", strerror(errno));
		goto fail;
	}
	if (srv->addr.is_unix)
		ret = ctl_bind_unix(srv, err, err_len);
	else
		ret = ctl_bind_tcp(srv, conf->listen, err, err_len);
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
	/* The first of the clocks that run; on a tie, the earlier row says why. */
	const struct {
		bool runs;
		uint64_t at;
		const char *why;
	} clocks[] = {
		{true, c->t_active + (uint64_t)srv->idle_timeout_s * 1000, "idle timeout"},
		{!c->authed, c->t_open + srv->auth_timeout_ms, "no valid token in time"},
		{c->t_line != 0, c->t_line + srv->line_timeout_ms,
		 "request line not finished in time"},
		{c->woff < c->wlen, c->t_write + srv->write_timeout_ms,
		 "does not read its answers"},
	};
	uint64_t best = UINT64_MAX;
	size_t i;

	if (c->draining) {
		*why = "closed after an error";
		return c->t_drain;
	}
	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (clocks[i].runs && clocks[i].at < best) {
			best = clocks[i].at;
			*why = clocks[i].why;
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
