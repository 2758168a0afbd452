/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "ctl_test.h"

uint64_t
ct_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

long
ct_rss_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;
	FILE *f;

	if (pid == 0)
		snprintf(path, sizeof(path), "/proc/self/status");
	else
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

int
ct_connect(const char *address, int timeout_ms)
{
	struct timeval tv = {.tv_sec = timeout_ms / 1000, .tv_usec = (timeout_ms % 1000) * 1000};
	int fd = -1;

	if (strncmp(address, "tcp:", 4) == 0) {
		struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
		char host[128];
		const char *colon = strrchr(address, ':');

		snprintf(host, sizeof(host), "%.*s", (int)(colon - address - 4), address + 4);
		if (getaddrinfo(host, colon + 1, &hints, &res) != 0)
			return -1;
		fd = socket(res->ai_family, SOCK_STREAM, 0);
		if (fd >= 0 && connect(fd, res->ai_addr, res->ai_addrlen) < 0) {
			close(fd);
			fd = -1;
		}
		freeaddrinfo(res);
	} else {
		struct sockaddr_un sun = {.sun_family = AF_UNIX};

		if (strncmp(address, "unix:", 5) == 0)
			address += 5;
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", address);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd >= 0 && connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	return fd;
}

int
ct_send(int fd, const void *data, size_t len)
{
	const char *p = data;
	ssize_t n;

	while (len > 0) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
ct_send_str(int fd, const char *s)
{
	return ct_send(fd, s, strlen(s));
}

char *
ct_line(int fd, size_t max)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap), *nl, *nb;
	ssize_t n;

	for (;;) {
		if (cap - len < 4096) {
			nb = realloc(buf, cap * 2);
			if (nb == NULL)
				break;
			buf = nb;
			cap *= 2;
		}
		/* Peek, then take up to the newline only. */
		n = recv(fd, buf + len, cap - len - 1, MSG_PEEK);
		if (n <= 0)
			break;
		nl = memchr(buf + len, '\n', (size_t)n);
		n = recv(fd, buf + len, nl != NULL ? (size_t)(nl - (buf + len)) + 1 : (size_t)n, 0);
		if (n <= 0)
			break;
		len += (size_t)n;
		if (nl != NULL) {
			buf[len - 1] = '\0';
			return buf;
		}
		if (len > max)
			break;
	}
	free(buf);
	return NULL;
}

json_t *
ct_answer(int fd)
{
	char *line = ct_line(fd, 64 << 20);
	json_t *j;

	if (line == NULL)
		return NULL;
	j = json_loads(line, JSON_DECODE_ANY, NULL);
	if (j == NULL) {
		fprintf(stderr, "FAIL the server sent invalid JSON: %.200s\n", line);
		unit_check_failures++;
	}
	free(line);
	return j;
}

int
ct_code(const json_t *a)
{
	const json_t *e;

	if (!json_is_object(a))
		return 1;
	e = json_object_get(a, "error");
	if (e == NULL)
		return json_object_get(a, "result") != NULL ? 0 : 1;
	return (int)json_integer_value(json_object_get(e, "code"));
}

bool
ct_closed_within(int fd, int ms)
{
	uint64_t end = ct_now_ms() + (uint64_t)ms;
	struct pollfd p = {.fd = fd, .events = POLLIN};
	char buf[65536];
	ssize_t n;

	while (ct_now_ms() < end) {
		if (poll(&p, 1, (int)(end - ct_now_ms()) + 1) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			return true;
	}
	return false;
}

int
ct_ping(const char *address, const char *token, int timeout_ms)
{
	struct pvp_ctl_client *c;
	char err[PVP_CTL_ERR_LEN] = "";
	json_t *r = NULL;
	int ret;

	c = pvp_ctl_client_connect(address, token, timeout_ms, err, sizeof(err));
	if (c == NULL)
		return -errno;
	ret = pvp_ctl_call(c, "ping", NULL, &r, timeout_ms, err, sizeof(err));
	if (ret == 0 && !(json_is_string(r) && strcmp(json_string_value(r), "pong") == 0))
		ret = 1;
	json_decref(r);
	pvp_ctl_client_close(c);
	return ret;
}

void
ct_write_file(const char *path, const char *text, mode_t mode)
{
	int fd;

	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		fprintf(stderr, "cannot write %s\n", path);
	if (fd >= 0)
		close(fd);
	chmod(path, mode);
}

pid_t
ct_spawn(const struct pvp_ctl_server_conf *conf, ct_setup_cb setup, char *address, size_t len)
{
	struct pvp_ctl_server *srv;
	char err[PVP_CTL_ERR_LEN] = "";
	sigset_t term;
	int p[2], sig;
	pid_t pid;
	ssize_t n;

	if (pipe(p) < 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(p[0]);
		/* Blocked before anything: sigwait() cannot miss an early SIGTERM. */
		sigemptyset(&term);
		sigaddset(&term, SIGTERM);
		sigprocmask(SIG_BLOCK, &term, NULL);
		srv = pvp_ctl_server_create(conf, err, sizeof(err));
		if (srv == NULL) {
			fprintf(stderr, "child server: %s\n", err);
			_exit(1);
		}
		if (setup != NULL)
			setup(srv);
		if (pvp_ctl_server_start(srv) != 0)
			_exit(1);
		n = write(p[1], pvp_ctl_server_address(srv),
			  strlen(pvp_ctl_server_address(srv)) + 1);
		close(p[1]);
		if (n > 0)
			sigwait(&term, &sig);
		pvp_ctl_server_destroy(srv);
		_exit(0);
	}
	close(p[1]);
	n = read(p[0], address, len - 1);
	close(p[0]);
	if (n <= 0) {
		ct_stop(pid);
		return -1;
	}
	address[n] = '\0';
	return pid;
}

void
ct_stop(pid_t pid)
{
	int i;

	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	/* Bounded: a child that does not stop is killed, never left behind. */
	for (i = 0; i < 500; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return;
		usleep(10000);
	}
	fprintf(stderr, "FAIL child server %d did not stop on SIGTERM; killed\n", (int)pid);
	unit_check_failures++;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}
