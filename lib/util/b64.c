/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * base64 (RFC 4648, standard alphabet, padded): TRex's packet bytes and
 * HdrHistogram's encoded histograms both travel in JSON this way.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pvp_util.h"

static const char b64_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *
pvp_b64_encode(const void *in, size_t len)
{
	const uint8_t *p = in;
	size_t i, o = 0;
	char *out;

	if (len > (SIZE_MAX - 1) / 4 * 3 - 2) {
		errno = ENOMEM;
		return NULL;
	}
	out = malloc((len + 2) / 3 * 4 + 1);
	if (out == NULL)
		return NULL;
	/* The last group pads what it lacks with '='. */
	for (i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < len ? (uint32_t)p[i + 1] << 8 : 0) |
			     (i + 2 < len ? p[i + 2] : 0);

		out[o++] = b64_alphabet[v >> 18];
		out[o++] = b64_alphabet[(v >> 12) & 63];
		out[o++] = i + 1 < len ? b64_alphabet[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < len ? b64_alphabet[v & 63] : '=';
	}
	out[o] = '\0';
	return out;
}

/* The value of digit @p c, or -1 (the string's NUL is no digit). */
static int
b64_val(int c)
{
	const char *p = c != '\0' ? strchr(b64_alphabet, c) : NULL;

	return p != NULL ? (int)(p - b64_alphabet) : -1;
}

uint8_t *
pvp_b64_decode(const char *in, size_t n, size_t *len)
{
	size_t i, o = 0;
	uint32_t acc = 0;
	int bits = 0, pad = 0;
	uint8_t *out = NULL;

	if (n % 4 != 0)
		goto bad;
	out = malloc(n / 4 * 3 + 1);
	if (out == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		int v;

		if (in[i] == '=') {
			pad++;
			continue;
		}
		v = b64_val((unsigned char)in[i]);
		if (v < 0 || pad != 0)
			goto bad;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (uint8_t)(acc >> bits);
		}
	}
	if (pad > 2)
		goto bad;
	*len = o;
	return out;
bad:
	free(out);
	errno = EINVAL;
	return NULL;
}
