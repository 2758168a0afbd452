/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The server's listening socket: a unix socket (its directory made when
 * missing, a stale socket file replaced, a live one refused) or TCP.
 */

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "ctl_private.h"

/* mkdir the directory holding @p path; 0 if it was made. */
static int
ctl_mkdir_parent(const char *path)
{
	char dir[sizeof(((struct sockaddr_un *)NULL)->sun_path)];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir)
		return -ENOENT;
	*slash = '\0';
	return mkdir(dir, 0755) == 0 ? 0 : -errno;
}

int
ctl_bind_unix(struct pvp_ctl_server *srv, char *err, size_t err_len)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	struct stat st;
	int fd, probe, ret;

	strcpy(sun.sun_path, srv->addr.path);

	if (lstat(srv->addr.path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode))
			return pvp_fail(err, err_len, -EEXIST,
					"unix:%s exists and is not a socket; not replacing it",
					srv->addr.path);
		/* A socket file: replace it unless a live server answers on it. */
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe < 0)
			goto sock_fail;
		ret = connect(probe, (struct sockaddr *)&sun, sizeof(sun));
		close(probe);
		if (ret == 0)
			return pvp_fail(err, err_len, -EADDRINUSE,
					"unix:%s is in use by a running server", srv->addr.path);
		if (unlink(srv->addr.path) < 0 && errno != ENOENT)
			return pvp_fail(err, err_len, -errno,
					"unix:%s: cannot remove the stale socket: %s",
					srv->addr.path, strerror(errno));
	}

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto sock_fail;
	ret = bind(fd, (struct sockaddr *)&sun, sizeof(sun));
	/*
	 * The usual places (/run/pvpkit/NAME.sock) do not survive a reboot:
	 * make the last directory level, never more.
	 */
	if (ret < 0 && errno == ENOENT && ctl_mkdir_parent(srv->addr.path) == 0)
		ret = bind(fd, (struct sockaddr *)&sun, sizeof(sun));
	if (ret < 0) {
		ret = pvp_fail(err, err_len, -errno, "unix:%s: bind: %s", srv->addr.path,
			       strerror(errno));
		close(fd);
		return ret;
	}
	/*
	 * A unix socket needs no token: whoever can open the file controls
	 * the app. Keep that to the owner and its group.
	 */
	if (chmod(srv->addr.path, 0660) < 0 || stat(srv->addr.path, &st) < 0 ||
	    listen(fd, SOMAXCONN) < 0) {
		ret = pvp_fail(err, err_len, -errno, "unix:%s: %s", srv->addr.path,
			       strerror(errno));
		unlink(srv->addr.path);
		close(fd);
		return ret;
	}
	srv->unlink_path = true;
	srv->sock_dev = st.st_dev;
	srv->sock_ino = st.st_ino;
	srv->lfd = fd;
	snprintf(srv->address, sizeof(srv->address), "unix:%s", srv->addr.path);
	return 0;

sock_fail:
	return pvp_fail(err, err_len, -errno, "socket: %s", strerror(errno));
}

int
ctl_bind_tcp(struct pvp_ctl_server *srv, const char *spec, char *err, size_t err_len)
{
	struct addrinfo hints = {.ai_family = AF_UNSPEC,
				 .ai_socktype = SOCK_STREAM,
				 .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
	struct addrinfo *res = NULL, *ai;
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);
	int fd = -1, ret, one = 1;

	ret = getaddrinfo(srv->addr.host, srv->addr.port, &hints, &res);
	if (ret != 0)
		return pvp_fail(err, err_len, -EINVAL, "%s: %s", spec, gai_strerror(ret));
	/* Every address the name gives must be loopback, or a token is needed. */
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if (!srv->need_token && !ctl_sockaddr_is_loopback(ai->ai_addr)) {
			pvp_err(err, err_len,
				"%s: a token file is required to listen beyond loopback", spec);
			freeaddrinfo(res);
			return -EACCES;
		}
	}
	ret = -EADDRNOTAVAIL;
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
			    ai->ai_protocol);
		if (fd < 0) {
			ret = -errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, SOMAXCONN) == 0)
			break;
		ret = -errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return pvp_fail(err, err_len, ret, "%s: %s", spec, strerror(-ret));
	if (getsockname(fd, (struct sockaddr *)&ss, &sslen) < 0) {
		ret = pvp_fail(err, err_len, -errno, "%s: getsockname: %s", spec, strerror(errno));
		close(fd);
		return ret;
	}
	ctl_sockaddr_format((struct sockaddr *)&ss, srv->address, sizeof(srv->address));
	srv->lfd = fd;
	return 0;
}
