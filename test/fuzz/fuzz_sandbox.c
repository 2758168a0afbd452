/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Keeps the harnesses that open hops (topology, ovs, telemetry) off the
 * machine and the network: linked with -Wl,--wrap=connect,... (the
 * fuzz_sandbox_link_args of meson.build), every connect() of the code
 * under test goes through here. Only unix sockets inside the harness's
 * own folder (fuzz_sandbox_dir) are reached; anything else is refused
 * at once, as a hop that is not there would be. Names are resolved as
 * numbers only (no DNS), and FIFOs are never opened (an open() of one
 * blocks until a writer comes, which is the bug class of a hang, not
 * something a fuzzer can wait for).
 */

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "fuzz_sandbox.h"

char fuzz_sandbox_dir[128];

/* Successful connects per socket path (the fake servers of one harness). */
static struct {
	char path[108];
	unsigned long n;
} counts[8];
static pthread_mutex_t counts_lock = PTHREAD_MUTEX_INITIALIZER;

static void
count_connect(const char *path)
{
	unsigned int i;

	pthread_mutex_lock(&counts_lock);
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		if (counts[i].path[0] == '\0')
			snprintf(counts[i].path, sizeof(counts[i].path), "%s", path);
		if (strcmp(counts[i].path, path) == 0) {
			counts[i].n++;
			break;
		}
	}
	pthread_mutex_unlock(&counts_lock);
}

unsigned long
fuzz_sandbox_connects(const char *path)
{
	unsigned long n = 0;
	unsigned int i;

	pthread_mutex_lock(&counts_lock);
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (strcmp(counts[i].path, path) == 0)
			n = counts[i].n;
	pthread_mutex_unlock(&counts_lock);
	return n;
}

int __real_connect(int fd, const struct sockaddr *sa, socklen_t len);
int __wrap_connect(int fd, const struct sockaddr *sa, socklen_t len);
int __real_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
		       struct addrinfo **res);
int __wrap_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
		       struct addrinfo **res);
int __real_open64(const char *path, int flags, ...);
int __wrap_open64(const char *path, int flags, ...);
int __real_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...);

int
__wrap_connect(int fd, const struct sockaddr *sa, socklen_t len)
{
	const struct sockaddr_un *sun = (const struct sockaddr_un *)sa;
	size_t n = strlen(fuzz_sandbox_dir);

	if (sa != NULL && sa->sa_family == AF_UNIX && n > 0 &&
	    len > offsetof(struct sockaddr_un, sun_path) + n &&
	    strncmp(sun->sun_path, fuzz_sandbox_dir, n) == 0 && sun->sun_path[n] == '/' &&
	    strstr(sun->sun_path, "..") == NULL) {
		int rc = __real_connect(fd, sa, len);

		if (rc == 0 || errno == EINPROGRESS)
			count_connect(sun->sun_path);
		return rc;
	}
	errno = ECONNREFUSED;
	return -1;
}

int
__wrap_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
		   struct addrinfo **res)
{
	struct addrinfo h = {0};

	if (hints != NULL)
		h = *hints;
	h.ai_flags |= AI_NUMERICHOST | AI_NUMERICSERV;
	return __real_getaddrinfo(node, service, &h, res);
}

static int
fifo(const char *path)
{
	struct stat st;

	if (path != NULL && stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
		errno = ENXIO;
		return 1;
	}
	return 0;
}

int
__wrap_open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (fifo(path))
		return -1;
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return __real_open64(path, flags, mode);
}

int
__wrap_open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (fifo(path))
		return -1;
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return __real_open(path, flags, mode);
}
