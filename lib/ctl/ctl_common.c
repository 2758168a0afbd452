/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Pieces the server and the client share: errors, addresses, tokens,
 * time, the decoding of a method's params.
 */

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/un.h>

#include "ctl_private.h"

/*
 * The protocol's codes and the -errno each stands for: the server answers
 * with the code of a method's -errno, the client returns the -errno of an
 * answer's code. Both directions read this one table.
 */
static const struct {
	int err;	 /* negative errno */
	int code;	 /* JSON-RPC error code */
	const char *msg; /* the answer's message when the method gave none */
} ctl_codes[] = {
	{-EINVAL, PVP_CTL_INVALID_PARAMS, "invalid params"},
	{-ENOSYS, PVP_CTL_METHOD_NOT_FOUND, "method not found"},
	{-EBUSY, PVP_CTL_BUSY, "busy"},
	{-EACCES, PVP_CTL_UNAUTHORIZED, "unauthorized"},
	{-EMSGSIZE, PVP_CTL_REQUEST_TOO_BIG, "request too big"},
	{-EBADMSG, PVP_CTL_PARSE_ERROR, "parse error"},
	{-EPROTO, PVP_CTL_INVALID_REQUEST, "invalid request"},
	{-EIO, PVP_CTL_INTERNAL_ERROR, "internal error"},
};

int
pvp_ctl_code(int ret)
{
	size_t i;

	for (i = 0; i < sizeof(ctl_codes) / sizeof(ctl_codes[0]); i++)
		if (ctl_codes[i].err == ret)
			return ctl_codes[i].code;
	return PVP_CTL_INTERNAL_ERROR;
}

int
pvp_ctl_errno(int code)
{
	size_t i;

	for (i = 0; i < sizeof(ctl_codes) / sizeof(ctl_codes[0]); i++)
		if (ctl_codes[i].code == code)
			return ctl_codes[i].err;
	return -EREMOTEIO;
}

const char *
ctl_code_message(int code)
{
	size_t i;

	for (i = 0; i < sizeof(ctl_codes) / sizeof(ctl_codes[0]); i++)
		if (ctl_codes[i].code == code)
			return ctl_codes[i].msg;
	return "internal error";
}

void
ctl_one_line(char *s)
{
	/* A message is documented as one line: keep it one. */
	while ((s = strpbrk(s, "\r\n")) != NULL)
		*s = ' ';
}

int
ctl_addr_parse(const char *spec, struct ctl_addr *a, char *err, size_t err_len)
{
	const char *p, *colon, *host;
	size_t hlen;
	char *end;
	unsigned long port;

	memset(a, 0, sizeof(*a));
	if (spec == NULL || spec[0] == '\0')
		return pvp_fail(err, err_len, -EINVAL, "empty control address");
	if (strncmp(spec, "tcp:", 4) != 0) {
		p = spec;
		if (strncmp(spec, "unix:", 5) == 0)
			p = spec + 5;
		else if (spec[0] != '/' && spec[0] != '.')
			goto bad;
		if (p[0] == '\0')
			goto bad;
		if (strlen(p) >= sizeof(a->path))
			return pvp_fail(err, err_len, -ENAMETOOLONG,
					"%s: unix socket path longer than %zu bytes", spec,
					sizeof(a->path) - 1);
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
	return pvp_fail(err, err_len, -EINVAL,
			"%s: bad control address (want unix:/path, /path, tcp:HOST:PORT or "
			"tcp:[V6ADDR]:PORT)",
			spec);
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

int
pvp_ctl_params(const char *method, const struct pvp_schema_member *members, const json_t *params,
	       void *obj, char *err, size_t err_len)
{
	char e[PVP_CTL_ERR_LEN] = "";

	/* JSON-RPC allows a list; a client without parameters may send []. */
	if (json_is_array(params) && json_array_size(params) == 0)
		params = NULL;
	if (params != NULL && !json_is_object(params))
		return pvp_fail(err, err_len, -EINVAL, "%s: params must be an object", method);
	if (pvp_schema_decode(members, params, NULL, obj, e, sizeof(e)) < 0)
		return pvp_fail(err, err_len, -EINVAL, "%s: %s", method, e);
	return 0;
}
