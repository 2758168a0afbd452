/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The --trex address, checked when the options are read. Built with or
 * without libzmq: without it --trex is refused with a line that says
 * why, and the server entry points are not there to call.
 *
 * ADDR is [HOST][:PORT[:PUB_PORT]]: HOST an IPv4 address, "localhost" or
 * "*" (every address); PORT the request port (TRex's 4501), PUB_PORT the
 * async port (default PORT - 1, TRex's 4500). A HOST other than a
 * loopback address needs --trex-remote: TRex clients send no token, so
 * anyone who reaches the port may drive the generator.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

/* A port number 1..65535 from @p s (up to @p end), or -1. */
static long
trex_opt_port(const char *s, const char *end)
{
	char buf[8];
	char *e;
	long v;

	if (end - s <= 0 || end - s >= (long)sizeof(buf))
		return -1;
	memcpy(buf, s, end - s);
	buf[end - s] = '\0';
	if (buf[0] < '0' || buf[0] > '9')
		return -1;
	v = strtol(buf, &e, 10);
	return *e == '\0' && v >= 1 && v <= 65535 ? v : -1;
}

int
gen_trex_parse_addr(const char *addr, bool remote, char *host, size_t hostlen, uint16_t *rpc,
		    uint16_t *pub, char *err, size_t errlen)
{
	const char *a = addr != NULL ? addr : "";
	const char *c1 = strchr(a, ':'), *c2 = c1 != NULL ? strchr(c1 + 1, ':') : NULL;
	size_t hl = c1 != NULL ? (size_t)(c1 - a) : strlen(a);
	struct in_addr in;
	long r = 4501, p;

	if (hl >= hostlen || hl >= 64)
		return pvp_fail(err, errlen, -EINVAL, "--trex: '%s': host too long", a);
	memcpy(host, a, hl);
	host[hl] = '\0';
	if (host[0] == '\0' || strcmp(host, "localhost") == 0)
		snprintf(host, hostlen, "127.0.0.1");
	if (strcmp(host, "*") != 0 && inet_pton(AF_INET, host, &in) != 1)
		return pvp_fail(err, errlen, -EINVAL,
				"--trex: '%s': expected [HOST][:PORT[:PUB_PORT]] with HOST an IPv4 "
				"address, localhost or *",
				a);
	if (c1 != NULL) {
		r = trex_opt_port(c1 + 1, c2 != NULL ? c2 : c1 + strlen(c1));
		if (r < 0)
			return pvp_fail(err, errlen, -EINVAL, "--trex: '%s': PORT must be 1..65535",
					a);
	}
	p = r - 1;
	if (c2 != NULL) {
		p = trex_opt_port(c2 + 1, c2 + strlen(c2));
		if (p < 0)
			return pvp_fail(err, errlen, -EINVAL,
					"--trex: '%s': PUB_PORT must be 1..65535", a);
	}
	if (p < 1 || p == r)
		return pvp_fail(err, errlen, -EINVAL,
				"--trex: '%s': the async port must differ from PORT (1..65535)", a);
	if (!remote && (strcmp(host, "*") == 0 || (ntohl(in.s_addr) >> 24) != 127))
		return pvp_fail(err, errlen, -EPERM,
				"--trex: '%s' is not a loopback address: TRex clients send no "
				"token, so give --trex-remote to serve it anyway",
				host);
	*rpc = (uint16_t)r;
	*pub = (uint16_t)p;
	return 0;
}

int
gen_trex_check_opt(const char *addr, bool remote, char *err, size_t errlen)
{
#ifndef GEN_HAVE_TREX
	return pvp_fail(err, errlen, -ENOTSUP,
			"--trex: this pvpkit-gen was built without its TRex server "
			"(meson -Dtrex=disabled); rebuild with -Dtrex=enabled (needs libzmq3-dev "
			"and zlib1g-dev)");
#else
	char host[64];
	uint16_t r, p;

	return gen_trex_parse_addr(addr, remote, host, sizeof(host), &r, &p, err, errlen);
#endif
}

#ifndef GEN_HAVE_TREX
int
gen_trex_start(struct gen_ctx *g, char *err, size_t errlen)
{
	return gen_trex_check_opt(NULL, false, err, errlen);
}

void
gen_trex_stop(void)
{
}
#endif
