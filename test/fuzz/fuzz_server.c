/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "fuzz_sandbox.h"
#include "fuzz_server.h"

int
fuzz_send_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

void
fuzz_drain(int fd)
{
	char buf[4096];
	ssize_t n;

	do
		n = recv(fd, buf, sizeof(buf), 0);
	while (n > 0 || (n < 0 && errno == EINTR));
}

static void *
server_thread(void *arg)
{
	struct fuzz_server *s = arg;

	for (;;) {
		struct pollfd p = {.fd = s->lfd, .events = POLLIN};
		int fd, stop;

		pthread_mutex_lock(&s->lock);
		stop = s->stop;
		pthread_mutex_unlock(&s->lock);
		if (stop)
			break;
		if (poll(&p, 1, 50) <= 0)
			continue;
		fd = accept(s->lfd, NULL, NULL);
		if (fd < 0)
			continue;
		s->serve(s, fd);
		close(fd);
		pthread_mutex_lock(&s->lock);
		s->served++;
		pthread_cond_broadcast(&s->cond);
		pthread_mutex_unlock(&s->lock);
	}
	return NULL;
}

void
fuzz_server_start(struct fuzz_server *s, const char *path, int type, fuzz_serve_t serve, void *arg)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};

	snprintf(s->path, sizeof(s->path), "%s", path);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	s->serve = serve;
	s->arg = arg;
	s->served = 0;
	s->stop = 0;
	unlink(path);
	s->lfd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
	if (s->lfd < 0 || bind(s->lfd, (struct sockaddr *)&sun, sizeof(sun)) != 0 ||
	    listen(s->lfd, 64) != 0) {
		perror(path);
		abort();
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	if (pthread_create(&s->thread, NULL, server_thread, s) != 0)
		abort();
}

void
fuzz_server_sync(struct fuzz_server *s)
{
	unsigned long want = fuzz_sandbox_connects(s->path);

	pthread_mutex_lock(&s->lock);
	while (s->served < want)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
}

void
fuzz_server_stop(struct fuzz_server *s)
{
	pthread_mutex_lock(&s->lock);
	s->stop = 1;
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	close(s->lfd);
	unlink(s->path);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
}
