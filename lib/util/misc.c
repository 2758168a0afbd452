/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvp_util.h"

uint64_t
pvp_gcd64(uint64_t a, uint64_t b)
{
	while (b != 0) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

int
pvp_buf_reserve(char **buf, size_t *cap, size_t need)
{
	size_t ncap;
	char *n;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : 4096;
	while (ncap < need)
		ncap *= 2;
	n = realloc(*buf, ncap);
	if (n == NULL)
		return -ENOMEM;
	*buf = n;
	*cap = ncap;
	return 0;
}

const char *
pvp_mac_format(uint64_t mac, char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", (unsigned int)(mac >> 40) & 0xff,
		 (unsigned int)(mac >> 32) & 0xff, (unsigned int)(mac >> 24) & 0xff,
		 (unsigned int)(mac >> 16) & 0xff, (unsigned int)(mac >> 8) & 0xff,
		 (unsigned int)mac & 0xff);
	return buf;
}

const char *
pvp_ipv4_format(uint32_t ip, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 0xff, (ip >> 8) & 0xff, ip & 0xff);
	return buf;
}

const char *
pvp_fmt_count(int64_t v, char *buf, size_t len)
{
	char digits[32];
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	size_t n, i, o = 0;

	if (len == 0)
		return buf;
	n = (size_t)snprintf(digits, sizeof(digits), "%" PRIu64, u);
	if (v < 0 && o + 1 < len)
		buf[o++] = '-';
	for (i = 0; i < n && o + 1 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = ',';
		if (o + 1 < len)
			buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

void
pvp_cpu_model(char *buf, size_t len)
{
	char line[512], *v;
	FILE *f = fopen("/proc/cpuinfo", "re");

	buf[0] = '\0';
	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "model name", 10) != 0 || (v = strchr(line, ':')) == NULL)
			continue;
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, len, "%s", v);
		break;
	}
	if (f != NULL)
		fclose(f);
}
