/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What every part of the profile parser uses: errors with the position of
 * the value they are about, and typed getters that check a member's type
 * and range. jansson keeps no positions per value, so the position of a
 * semantic error is found again by walking the text along the member
 * path (lib/util's pvp_json_path_err()).
 */

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ether.h>

#include "profile_private.h"

int
prof_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

int
prof_fail(struct prof_ctx *c, int code, const char *path, const char *fmt, ...)
{
	char msg[PVP_PKT_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pvp_json_path_err(c->err, c->err_len, c->source, c->text, path, "%s", msg);
	return code;
}

/* ---- typed getters ---- */

int
prof_check_keys(struct prof_ctx *c, const json_t *o, const char *path, const char *const *allowed)
{
	const char *key;
	json_t *v;

	if (!json_is_object(o))
		return prof_fail(c, -EINVAL, path, "must be an object");
	json_object_foreach((json_t *)o, key, v) {
		const char *const *a;
		char sub[256];

		for (a = allowed; *a != NULL; a++)
			if (strcmp(*a, key) == 0)
				break;
		if (*a == NULL) {
			prof_fmt(sub, sizeof(sub), "%s%s%s", path, *path != '\0' ? "." : "", key);
			return prof_fail(c, -EINVAL, sub, "unknown member");
		}
	}
	return 0;
}

int
prof_get_uint(struct prof_ctx *c, const json_t *v, const char *path, uint64_t min, uint64_t max,
	      uint64_t *out)
{
	json_int_t i;

	if (!json_is_integer(v))
		return prof_fail(c, -EINVAL, path, "must be an integer in %" PRIu64 "..%" PRIu64,
				 min, max);
	i = json_integer_value(v);
	if (i < 0 || (uint64_t)i < min || (uint64_t)i > max)
		return prof_fail(c, -ERANGE, path,
				 "%" JSON_INTEGER_FORMAT " is out of range %" PRIu64 "..%" PRIu64,
				 i, min, max);
	*out = (uint64_t)i;
	return 0;
}

int
prof_get_u64(struct prof_ctx *c, const json_t *o, const char *key, const char *path, bool need,
	     uint64_t min, uint64_t max, uint64_t *out)
{
	json_t *v = json_object_get(o, key);
	char sub[300];

	if (v == NULL && !need)
		return 0;
	prof_fmt(sub, sizeof(sub), "%s.%s", path, key);
	return prof_get_uint(c, v, sub, min, max, out);
}

int
prof_get_u16(struct prof_ctx *c, const json_t *o, const char *key, const char *path, uint16_t min,
	     uint16_t max, uint16_t *out)
{
	uint64_t x = *out;

	if (prof_get_u64(c, o, key, path, false, min, max, &x) != 0)
		return -EINVAL;
	*out = (uint16_t)x;
	return 0;
}

int
prof_get_addr(struct prof_ctx *c, const json_t *o, const char *key, const char *path, int ver,
	      void *out)
{
	json_t *v = json_object_get(o, key);
	const char *s = json_string_value(v);
	char sub[256];

	if (v == NULL)
		return 0;
	prof_fmt(sub, sizeof(sub), "%s.%s", path, key);
	if (ver == 0 && (s == NULL || rte_ether_unformat_addr(s, out) != 0))
		return prof_fail(c, -EINVAL, sub,
				 "must be a MAC address string like \"02:00:00:00:00:01\"");
	if (ver != 0 && (s == NULL || inet_pton(ver == 4 ? AF_INET : AF_INET6, s, out) != 1))
		return prof_fail(c, -EINVAL, sub, "must be an IPv%d address string", ver);
	return 0;
}
