/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

#include <stdarg.h>
#include <stdio.h>

#include "pvp_util.h"
#include "util_private.h"

void
pvp_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pvp_verr(err, len, fmt, ap);
	va_end(ap);
}

void
pvp_verr(char *err, size_t len, const char *fmt, va_list ap)
{
	if (err == NULL || len == 0 || err[0] != '\0')
		return;
	vsnprintf(err, len, fmt, ap);
}

int
pvp_fail(char *err, size_t len, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pvp_verr(err, len, fmt, ap);
	va_end(ap);
	return code;
}

int
util_seterr(char *err, size_t len, int code, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || len == 0)
		return code;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return code;
}

const char *
util_quote(const char *s, char *buf, size_t len)
{
	size_t i, o = 0;

	if (len == 0)
		return buf;
	for (i = 0; s[i] != '\0' && o + 1 < len; i++) {
		if (i == UTIL_QUOTE_MAX) {
			if (o + 4 > len)
				break;
			buf[o++] = '.';
			buf[o++] = '.';
			buf[o++] = '.';
			break;
		}
		buf[o++] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	}
	buf[o] = '\0';
	return buf;
}
