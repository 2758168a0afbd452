/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * fork/exec with pipes and a deadline. posix_spawn would do for the exec,
 * but stdin may carry megabytes of flows while stdout fills up, so the
 * parent has to poll both pipes anyway.
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

#include "ovs_cmd.h"

/* Output above this is cut (pmd-stats-show of many PMDs is a few KiB). */
#define CMD_MAX_OUT (8u << 20)

char *
coord_ovs_sh_quote(const char *s)
{
	size_t n = 3, i;
	char *q, *p;

	for (i = 0; s[i] != '\0'; i++)
		n += s[i] == '\'' ? 4 : 1;
	q = malloc(n);
	if (q == NULL)
		return NULL;
	p = q;
	*p++ = '\'';
	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = s[i];
		}
	}
	*p++ = '\'';
	*p = '\0';
	return q;
}

void
coord_ovs_argv_free(char **argv)
{
	size_t i;

	if (argv == NULL)
		return;
	for (i = 0; argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}

char **
coord_ovs_cmd_argv(const struct coord_ovs_ssh *ssh, const char *const argv[])
{
	size_t n = 0, k = 0, i;
	char **v;
	char buf[600];

	while (argv[n] != NULL)
		n++;
	v = calloc(n + 16, sizeof(*v));
	if (v == NULL)
		return NULL;
	if (ssh != NULL && ssh->host[0] != '\0') {
		/* BatchMode: never prompt for a password; keys only. */
		v[k++] = strdup("ssh");
		v[k++] = strdup("-o");
		v[k++] = strdup("BatchMode=yes");
		if (ssh->port != 0) {
			snprintf(buf, sizeof(buf), "%u", ssh->port);
			v[k++] = strdup("-p");
			v[k++] = strdup(buf);
		}
		if (ssh->key[0] != '\0') {
			v[k++] = strdup("-i");
			v[k++] = strdup(ssh->key);
		}
		if (ssh->user[0] != '\0')
			snprintf(buf, sizeof(buf), "%s@%s", ssh->user, ssh->host);
		else
			snprintf(buf, sizeof(buf), "%s", ssh->host);
		v[k++] = strdup(buf);
		v[k++] = strdup("--");
		/* sshd hands the words to the remote user's shell: quote each. */
		for (i = 0; i < n; i++)
			v[k++] = coord_ovs_sh_quote(argv[i]);
	} else {
		for (i = 0; i < n; i++)
			v[k++] = strdup(argv[i]);
	}
	for (i = 0; i < k; i++) {
		if (v[i] == NULL) {
			coord_ovs_argv_free(v);
			return NULL;
		}
	}
	return v;
}

static void
cmd_child(char **argv, int in_fd, int out_fd, int err_fd)
{
	dup2(in_fd, STDIN_FILENO);
	dup2(out_fd, STDOUT_FILENO);
	dup2(err_fd, STDERR_FILENO);
	execvp(argv[0], argv);
	dprintf(STDERR_FILENO, "%s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* The child's three pipes and what goes through them. */
struct cmd_io {
	int pin[2];		   /* stdin: a socket pair (see cmd_spawn) */
	int pout[2];		   /* stdout */
	int perr[2];		   /* stderr */
	const char *in;		   /* what to write to stdin, or NULL */
	size_t in_len;		   /* bytes of in */
	size_t in_off;		   /* bytes of in written */
	size_t cap;		   /* bytes allocated for out->out */
	size_t elen;		   /* bytes in out->err */
	struct coord_ovs_out *out; /* the caller's result */
};

static void
cmd_close_pipes(struct cmd_io *io)
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

/* Start @p v (the command @p name, maybe through ssh) with its pipes.
 * @return the child's pid, or -errno. */
static pid_t
cmd_spawn(char **v, const char *name, struct cmd_io *io, char *err, size_t err_len)
{
	pid_t pid;
	int rc;

	/* stdin is a socket pair, not a pipe: send(MSG_NOSIGNAL) to a child
	 * that exited early fails with EPIPE instead of killing us with
	 * SIGPIPE (a library must not change signal dispositions). */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, io->pin) < 0 ||
	    pipe2(io->pout, O_CLOEXEC) < 0 || pipe2(io->perr, O_CLOEXEC) < 0) {
		rc = -errno;
		snprintf(err, err_len, "%s: pipe: %s", name, strerror(-rc));
		return rc;
	}
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		snprintf(err, err_len, "%s: fork: %s", name, strerror(-rc));
		return rc;
	}
	if (pid == 0)
		cmd_child(v, io->pin[0], io->pout[1], io->perr[1]);
	close(io->pin[0]);
	close(io->pout[1]);
	close(io->perr[1]);
	io->pin[0] = io->pout[1] = io->perr[1] = -1;
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
cmd_feed_stdin(struct cmd_io *io)
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

/* Read stdout into out->out, growing it up to CMD_MAX_OUT. */
static void
cmd_read_stdout(struct cmd_io *io)
{
	struct coord_ovs_out *out = io->out;
	char tmp[512];
	ssize_t n;

	if (out->len + 1 == io->cap && io->cap < CMD_MAX_OUT) {
		char *nb = realloc(out->out, io->cap * 2);

		if (nb != NULL) {
			out->out = nb;
			io->cap *= 2;
		}
	}
	if (out->len + 1 < io->cap) {
		n = read(io->pout[0], out->out + out->len, io->cap - 1 - out->len);
		if (n > 0)
			out->len += (size_t)n;
	} else {
		n = read(io->pout[0], tmp, sizeof(tmp)); /* over the cap: dropped */
	}
	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
		close(io->pout[0]);
		io->pout[0] = -1;
	}
	out->out[out->len] = '\0';
}

/* Read stderr into out->err, keeping what fits. */
static void
cmd_read_stderr(struct cmd_io *io)
{
	struct coord_ovs_out *out = io->out;
	char tmp[512];
	ssize_t n;

	n = read(io->perr[0], tmp, sizeof(tmp));
	if (n > 0 && io->elen + 1 < sizeof(out->err)) {
		size_t c = (size_t)n < sizeof(out->err) - 1 - io->elen
				   ? (size_t)n
				   : sizeof(out->err) - 1 - io->elen;

		memcpy(out->err + io->elen, tmp, c);
		io->elen += c;
		out->err[io->elen] = '\0';
	}
	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
		close(io->perr[0]);
		io->perr[0] = -1;
	}
}

/*
 * Feed stdin and drain stdout and stderr until the child closes both or
 * @p deadline passes. @return 0, -ETIMEDOUT or -errno.
 */
static int
cmd_pump(struct cmd_io *io, uint64_t deadline)
{
	while (io->pout[0] >= 0 || io->perr[0] >= 0) {
		struct pollfd pfd[3];
		int nfd = 0, i_in = -1, i_out = -1, i_err = -1;
		uint64_t now = pvp_now_ms();

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
		if (poll(pfd, nfd, (int)(deadline - now)) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (i_in >= 0 && pfd[i_in].revents != 0)
			cmd_feed_stdin(io);
		if (i_out >= 0 && pfd[i_out].revents != 0)
			cmd_read_stdout(io);
		if (i_err >= 0 && pfd[i_err].revents != 0)
			cmd_read_stderr(io);
	}
	return 0;
}

int
coord_ovs_cmd_run(const struct coord_ovs_ssh *ssh, const char *const argv[], const char *in,
		  size_t in_len, unsigned int timeout_ms, struct coord_ovs_out *out, char *err,
		  size_t err_len)
{
	struct cmd_io io = {
		.pin = {-1, -1},
		.pout = {-1, -1},
		.perr = {-1, -1},
		.in = in,
		.in_len = in_len,
		.cap = 4096,
		.out = out,
	};
	uint64_t deadline = pvp_now_ms() + (timeout_ms != 0 ? timeout_ms : 10000);
	char **v;
	pid_t pid;
	int rc = 0, status;

	memset(out, 0, sizeof(*out));
	out->status = -1;
	v = coord_ovs_cmd_argv(ssh, argv);
	out->out = malloc(io.cap);
	if (v == NULL || out->out == NULL) {
		coord_ovs_argv_free(v);
		free(out->out);
		out->out = NULL;
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	out->out[0] = '\0';
	pid = cmd_spawn(v, argv[0], &io, err, err_len);
	if (pid < 0) {
		rc = (int)pid;
		goto close_pipes;
	}
	rc = cmd_pump(&io, deadline);
	if (rc < 0)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc == 0)
		out->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	out->err[strcspn(out->err, "\n")] = '\0';
	if (rc == -ETIMEDOUT)
		snprintf(err, err_len, "%s: no answer within %u ms", argv[0], timeout_ms);
	else if (rc < 0)
		snprintf(err, err_len, "%s: %s", argv[0], strerror(-rc));

close_pipes:
	cmd_close_pipes(&io);
	coord_ovs_argv_free(v);
	if (rc < 0) {
		free(out->out);
		out->out = NULL;
		out->len = 0;
	}
	return rc;
}
