/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Small helpers shared by the driver unit tests: checks that count
 * unit_check_failures instead of aborting, and loading recorded replies from
 * test/unit/drivers/data.
 */

#ifndef DRV_TEST_H
#define DRV_TEST_H

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "../unit_check.h"

#define CHECK_U64(got, want)                                                                       \
	CHECK((unsigned long long)(got) == (unsigned long long)(want), "%s = %llu, want %llu",     \
	      #got, (unsigned long long)(got), (unsigned long long)(want))

/* Contents of data/NAME (NUL-terminated, malloc'd); exits when missing. */
static inline char *
drv_load(const char *name, size_t *len)
{
	const char *src = getenv("PVP_SOURCE_DIR");
	char path[1024];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/test/unit/drivers/data/%s", src != NULL ? src : ".", name);
	f = fopen(path, "rb");
	if (f == NULL) {
		fprintf(stderr, "cannot open %s (run through meson test)\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(1);
	}
	buf[n] = '\0';
	fclose(f);
	if (len != NULL)
		*len = (size_t)n;
	return buf;
}

/*
 * Listen on a unix socket of @type (SOCK_STREAM, SOCK_SEQPACKET) at @path,
 * replacing a stale file, for a fake server; exits the test on failure.
 */
static inline int
drv_listen_unix(const char *path, int type, const char *who)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	int fd;

	unlink(path);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	fd = socket(AF_UNIX, type, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 || listen(fd, 4) < 0) {
		perror(who);
		exit(1);
	}
	return fd;
}

/*
 * One connection of a fake server's accept loop: waits at most 100 ms so
 * the loop can see its stop flag. @return the connected fd, or -1.
 */
static inline int
drv_accept(int lfd)
{
	struct pollfd p = {.fd = lfd, .events = POLLIN};

	if (poll(&p, 1, 100) <= 0)
		return -1;
	return accept(lfd, NULL, NULL);
}

#endif /* DRV_TEST_H */
