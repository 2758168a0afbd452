/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Running a program: fork/exec with an argv (never a shell), pipes and a
 * deadline. posix_spawn would do for the exec, but stdin may carry
 * megabytes (OVS flows) while stdout fills up, so the parent polls every
 * pipe anyway. The child leads a process group of its own, so a command
 * past its deadline is killed with whatever it started (ssh, gnuplot's
 * helpers).
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pvp_util.h"

/* Captured stdout above this is cut, unless the caller says otherwise. */
#define CHILD_MAX_OUT (8u << 20)

/* The child's three pipes and what goes through them. */
struct child_io {
	int pin[2];		   /* stdin: a socket pair (see child_spawn) */
	int pout[2];		   /* stdout, when captured */
	int perr[2];		   /* stderr, when captured */
	const char *in;		   /* what to write to stdin, or NULL */
	size_t in_len;		   /* bytes of in */
	size_t in_off;		   /* bytes of in written */
	size_t cap;		   /* bytes allocated for out->out */
	size_t max;		   /* most bytes of stdout kept */
	size_t elen;		   /* bytes in out->err */
	struct pvp_child_out *out; /* the caller's result */
};

static void
child_exec(const struct pvp_child *c, int in_fd, int out_fd, int err_fd)
{
	/* Its own group: killed with what it starts (see pvp_child_run). */
	setpgid(0, 0);
	dup2(in_fd, STDIN_FILENO);
	dup2(out_fd, STDOUT_FILENO);
	dup2(err_fd, STDERR_FILENO);
	if (c->dir != NULL && chdir(c->dir) < 0) {
		dprintf(STDERR_FILENO, "%s: %s\n", c->dir, strerror(errno));
		_exit(126);
	}
	execvp(c->argv[0], c->argv);
	dprintf(STDERR_FILENO, "%s: %s\n", c->argv[0], strerror(errno));
	_exit(127);
}

static void
child_close_pipes(struct child_io *io)
{
	for (int i = 0; i < 2; i++) {
		if (io->pin[i] >= 0)
			close(io->pin[i]);
		if (io->pout[i] >= 0)
			close(io->pout[i]);
		if (io->perr[i] >= 0)
			close(io->perr[i]);
		io->pin[i] = io->pout[i] = io->perr[i] = -1;
	}
}

/* Start the command with its pipes. @return the child's pid, or -errno. */
static pid_t
child_spawn(const struct pvp_child *c, struct child_io *io, char *err, size_t errlen)
{
	bool capture = c->out_fd < 0;
	pid_t pid;

	/* stdin is a socket pair, not a pipe: send(MSG_NOSIGNAL) to a child
	 * that exited early fails with EPIPE instead of killing us with
	 * SIGPIPE (a library must not change signal dispositions). */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, io->pin) < 0 ||
	    (capture && pipe2(io->pout, O_CLOEXEC) < 0) ||
	    (capture && !c->err_to_out && pipe2(io->perr, O_CLOEXEC) < 0))
		return pvp_fail(err, errlen, -errno, "%s: pipe: %s", c->argv[0], strerror(errno));
	pid = fork();
	if (pid < 0)
		return pvp_fail(err, errlen, -errno, "%s: fork: %s", c->argv[0], strerror(errno));
	if (pid == 0)
		child_exec(c, io->pin[0], capture ? io->pout[1] : c->out_fd,
			   !capture	   ? c->out_fd
			   : c->err_to_out ? io->pout[1]
					   : io->perr[1]);
	close(io->pin[0]);
	io->pin[0] = -1;
	if (io->pout[1] >= 0)
		close(io->pout[1]);
	if (io->perr[1] >= 0)
		close(io->perr[1]);
	io->pout[1] = io->perr[1] = -1;
	if (io->in == NULL || io->in_len == 0) {
		close(io->pin[1]);
		io->pin[1] = -1;
	} else {
		shutdown(io->pin[1], SHUT_RD);
	}
	return pid;
}

/* Write what the child's stdin can take now. */
static void
child_feed_stdin(struct child_io *io)
{
	ssize_t n;

	n = send(io->pin[1], io->in + io->in_off, io->in_len - io->in_off,
		 MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n > 0)
		io->in_off += (size_t)n;
	/* Close when done (the child sees EOF) or when it stopped reading. */
	if ((n < 0 && errno != EAGAIN && errno != EINTR) || io->in_off == io->in_len) {
		close(io->pin[1]);
		io->pin[1] = -1;
	}
}

/*
 * Read what pipe *@p fd holds into @p buf, keeping what fits in @p cap
 * bytes with the NUL (*@p len of them); close it at its end.
 */
static void
child_read(int *fd, char *buf, size_t cap, size_t *len)
{
	char tmp[512];
	ssize_t n;

	if (*len + 1 < cap) {
		n = read(*fd, buf + *len, cap - 1 - *len);
		if (n > 0)
			*len += (size_t)n;
	} else {
		n = read(*fd, tmp, sizeof(tmp)); /* over the cap: dropped */
	}
	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
		close(*fd);
		*fd = -1;
	}
	buf[*len] = '\0';
}

/* Read stdout into out->out, growing it up to io->max. */
static void
child_read_stdout(struct child_io *io)
{
	struct pvp_child_out *out = io->out;

	/* Doubled while under the limit; a failed realloc keeps the buffer. */
	if (out->len + 1 == io->cap && io->cap < io->max)
		pvp_buf_reserve(&out->out, &io->cap, io->cap + 1);
	child_read(&io->pout[0], out->out, io->cap, &out->len);
}

/*
 * Feed stdin and drain stdout and stderr until the child closes both
 * (or, not capturing, exits) or @p deadline passes. *@p st holds its
 * wait status when it was reaped here. @return 0, -ETIMEDOUT or -errno.
 */
static int
child_pump(struct child_io *io, pid_t pid, uint64_t deadline, int *st, bool *reaped)
{
	for (;;) {
		struct pollfd pfd[3];
		int nfd = 0, i_in = -1, i_out = -1, i_err = -1, wait_ms;
		uint64_t now = pvp_now_ms();

		if (io->pout[0] < 0 && io->perr[0] < 0) {
			/* Nothing to read (or nothing captured): watch the child. */
			pid_t w = waitpid(pid, st, WNOHANG);

			if (w == pid || (w < 0 && errno != EINTR)) {
				*reaped = w == pid;
				return w == pid ? 0 : -errno;
			}
		}
		if (now >= deadline)
			return -ETIMEDOUT;
		if (io->pin[1] >= 0) {
			pfd[nfd] = (struct pollfd){.fd = io->pin[1], .events = POLLOUT};
			i_in = nfd++;
		}
		if (io->pout[0] >= 0) {
			pfd[nfd] = (struct pollfd){.fd = io->pout[0], .events = POLLIN};
			i_out = nfd++;
		}
		if (io->perr[0] >= 0) {
			pfd[nfd] = (struct pollfd){.fd = io->perr[0], .events = POLLIN};
			i_err = nfd++;
		}
		/* No pipe tells when the child exits: look again every 10 ms. */
		wait_ms = (int)(deadline - now);
		if (io->pout[0] < 0 && io->perr[0] < 0 && wait_ms > 10)
			wait_ms = 10;
		if (poll(pfd, (nfds_t)nfd, wait_ms) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (i_in >= 0 && pfd[i_in].revents != 0)
			child_feed_stdin(io);
		if (i_out >= 0 && pfd[i_out].revents != 0)
			child_read_stdout(io);
		if (i_err >= 0 && pfd[i_err].revents != 0)
			child_read(&io->perr[0], io->out->err, sizeof(io->out->err), &io->elen);
	}
}

int
pvp_child_run(const struct pvp_child *c, struct pvp_child_out *out, char *err, size_t errlen)
{
	struct child_io io = {
		.pin = {-1, -1},
		.pout = {-1, -1},
		.perr = {-1, -1},
		.in = c->in,
		.in_len = c->in_len,
		.cap = 4096,
		.max = c->max_out != 0 ? c->max_out : CHILD_MAX_OUT,
		.out = out,
	};
	uint64_t deadline = pvp_now_ms() + (c->timeout_ms != 0 ? c->timeout_ms : 10000);
	bool reaped = false;
	int rc, status = 0;
	pid_t pid;

	*out = (struct pvp_child_out){.status = -1};
	out->out = malloc(io.cap);
	if (out->out == NULL)
		return pvp_fail(err, errlen, -ENOMEM, "%s: out of memory", c->argv[0]);
	out->out[0] = '\0';
	pid = child_spawn(c, &io, err, errlen);
	if (pid < 0) {
		rc = (int)pid;
		goto close_pipes;
	}
	rc = child_pump(&io, pid, deadline, &status, &reaped);
	if (rc < 0) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	while (!reaped && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc == 0)
		out->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	out->err[strcspn(out->err, "\n")] = '\0';
	if (rc == -ETIMEDOUT)
		pvp_err(err, errlen, "%s: no answer within %u ms", c->argv[0], c->timeout_ms);
	else if (rc < 0)
		pvp_err(err, errlen, "%s: %s", c->argv[0], strerror(-rc));

close_pipes:
	child_close_pipes(&io);
	if (rc < 0) {
		free(out->out);
		out->out = NULL;
		out->len = 0;
	}
	return rc;
}
