/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Pieces the server and the client share: errors, addresses, tokens,
 * time.
 */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "ctl_private.h"

void
pvp_ctl_error_set(struct pvp_ctl_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	char *nl;

	if (err == NULL)
		return;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	/* The message is documented as one line: keep it one. */
	while ((nl = strpbrk(err->message, "\r\n")) != NULL)
		*nl = ' ';
}

int
ctl_addr_parse(const char *spec, struct ctl_addr *a, struct pvp_ctl_error *err)
{
	const char *p, *colon, *host;
	size_t hlen;
	char *end;
	unsigned long port;

	memset(a, 0, sizeof(*a));
	if (spec == NULL || spec[0] == '\0') {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS, "empty control address");
		return -EINVAL;
	}
	if (strncmp(spec, "tcp:", 4) != 0) {
		p = spec;
		if (strncmp(spec, "unix:", 5) == 0)
			p = spec + 5;
		else if (spec[0] != '/' && spec[0] != '.')
			goto bad;
		if (p[0] == '\0')
			goto bad;
		if (strlen(p) >= sizeof(a->path)) {
			pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
					  "%s: unix socket path longer than %zu bytes", spec,
					  sizeof(a->path) - 1);
			return -ENAMETOOLONG;
		}
		a->is_unix = true;
		strcpy(a->path, p);
		return 0;
	}

	p = spec + 4;
	if (p[0] == '[') {
		const char *rb = strchr(p, ']');

		if (rb == NULL || rb[1] != ':')
			goto bad;
		host = p + 1;
		hlen = (size_t)(rb - host);
		colon = rb + 1;
	} else {
		colon = strrchr(p, ':');
		if (colon == NULL)
			goto bad;
		host = p;
		hlen = (size_t)(colon - p);
		/* An IPv6 literal must be bracketed: "tcp:::1:80" is ambiguous. */
		if (memchr(host, ':', hlen) != NULL)
			goto bad;
	}
	if (hlen == 0 || hlen >= sizeof(a->host))
		goto bad;
	if (!isdigit((unsigned char)colon[1]))
		goto bad;
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (errno != 0 || *end != '\0' || port > 65535)
		goto bad;
	memcpy(a->host, host, hlen);
	a->host[hlen] = '\0';
	snprintf(a->port, sizeof(a->port), "%lu", port);
	return 0;

bad:
	pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
			  "%s: bad control address (want unix:/path, /path, tcp:HOST:PORT or "
			  "tcp:[V6ADDR]:PORT)",
			  spec);
	return -EINVAL;
}

bool
ctl_sockaddr_is_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_UNIX)
		return true;
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;

		return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
		const uint8_t *b = in6->sin6_addr.s6_addr;

		if (IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr))
			return true;
		/* ::ffff:127.x.y.z is IPv4 loopback too. */
		return IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr) && b[12] == 127;
	}
	return false;
}

int
ctl_sockaddr_format(const struct sockaddr *sa, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN];

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;

		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		snprintf(buf, len, "tcp:%s:%u", host, ntohs(in->sin_port));
		return 0;
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;

		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		snprintf(buf, len, "tcp:[%s]:%u", host, ntohs(in6->sin6_port));
		return 0;
	}
	if (sa->sa_family == AF_UNIX) {
		snprintf(buf, len, "unix:%s", ((const struct sockaddr_un *)sa)->sun_path);
		return 0;
	}
	snprintf(buf, len, "?");
	return -EAFNOSUPPORT;
}

/*
 * Compare in time that depends only on the length of @p b (the secret's
 * length is not hidden, its content is): no early exit on the first
 * different byte.
 */
bool
ctl_token_equal(const char *a, size_t alen, const char *b, size_t blen)
{
	volatile unsigned char diff = 0;
	size_t i;

	diff |= alen != blen;
	for (i = 0; i < blen; i++)
		diff |= (unsigned char)b[i] ^ (unsigned char)(i < alen ? a[i] : 0);
	return diff == 0;
}

/* What a file that is not a regular one is, for messages. */
static const char *
ctl_token_kind(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/*
 * The file's kind, owner and mode, before and after open(): a token file
 * is a secret of the user who runs us, like an ssh key.
 */
static int
ctl_token_stat_ok(const char *path, const struct stat *st, struct pvp_ctl_error *err)
{
	uid_t me = geteuid();

	if (!S_ISREG(st->st_mode)) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS, "token file %s: %s, not read", path,
				  ctl_token_kind(st->st_mode));
		return -EINVAL;
	}
	if (st->st_uid != me && st->st_uid != 0) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
				  "token file %s is owned by uid %u, not by you (uid %u) or root",
				  path, (unsigned int)st->st_uid, (unsigned int)me);
		return -EACCES;
	}
	if ((st->st_mode & 077) != 0) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
				  "token file %s is accessible by %s (mode %03o); chmod 600 it",
				  path, (st->st_mode & 007) != 0 ? "other users" : "its group",
				  (unsigned int)(st->st_mode & 0777));
		return -EACCES;
	}
	if (st->st_size > CTL_TOKEN_FILE_MAX) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
				  "token file %s: %lld bytes; a token file is one line of at most "
				  "%d characters",
				  path, (long long)st->st_size, CTL_TOKEN_MAX);
		return -EFBIG;
	}
	return 0;
}

int
pvp_ctl_read_token(const char *path, char *token, size_t len, struct pvp_ctl_error *err)
{
	char buf[CTL_TOKEN_FILE_MAX + 1];
	struct stat st, fst;
	size_t got = 0, i, start, end;
	ssize_t n;
	int fd, ret;

	if (path == NULL || token == NULL || len == 0) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS, "token file: bad arguments");
		return -EINVAL;
	}
	/* Judged before it is opened: opening a FIFO or a device may block or act. */
	if (stat(path, &st) < 0)
		goto sys_error;
	ret = ctl_token_stat_ok(path, &st, err);
	if (ret < 0)
		return ret;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		goto sys_error;
	if (fstat(fd, &fst) < 0) {
		close(fd);
		goto sys_error;
	}
	ret = ctl_token_stat_ok(path, &fst, err);
	if (ret < 0) {
		close(fd);
		return ret;
	}
	while (got < sizeof(buf)) {
		n = read(fd, buf + got, sizeof(buf) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			goto sys_error;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	ret = 0;
	if (got > CTL_TOKEN_FILE_MAX) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
				  "token file %s grew over %d bytes while being read", path,
				  CTL_TOKEN_FILE_MAX);
		ret = -EFBIG;
		goto out;
	}
	/* One line; blanks around it are allowed, anything after it is not. */
	for (start = 0; start < got && isspace((unsigned char)buf[start]); start++)
		;
	for (end = start; end < got && buf[end] != '\n' && buf[end] != '\r'; end++)
		;
	for (i = end; i < got; i++) {
		if (!isspace((unsigned char)buf[i])) {
			pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
					  "token file %s holds more than one line; a token file "
					  "is the token alone",
					  path);
			ret = -EINVAL;
			goto out;
		}
	}
	while (end > start && isspace((unsigned char)buf[end - 1]))
		end--;
	for (i = start; i < end; i++) {
		if ((unsigned char)buf[i] <= ' ' || (unsigned char)buf[i] >= 0x7f) {
			pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
					  "token file %s: the token must be printable ASCII "
					  "without blanks",
					  path);
			ret = -EINVAL;
			goto out;
		}
	}
	if (end - start < CTL_TOKEN_MIN) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
				  "token file %s: the token must be at least %d characters", path,
				  CTL_TOKEN_MIN);
		ret = -EINVAL;
		goto out;
	}
	if (end - start > CTL_TOKEN_MAX || end - start >= len) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
				  "token file %s: the token is longer than %zu characters", path,
				  len - 1 < CTL_TOKEN_MAX ? len - 1 : (size_t)CTL_TOKEN_MAX);
		ret = -ENAMETOOLONG;
		goto out;
	}
	memcpy(token, buf + start, end - start);
	token[end - start] = '\0';
out:
	explicit_bzero(buf, sizeof(buf));
	return ret;

sys_error:
	ret = -errno;
	pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS, "token file %s: %s", path, strerror(-ret));
	return ret;
}
