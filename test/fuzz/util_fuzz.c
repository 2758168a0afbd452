/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: lib/util's strict readers of what users and peers type
 * or send: numbers (pvp_parse_u64/u32/u32_list/double/duration/latency/count),
 * rates (pvp_rate_parse) and positions in JSON text (pvp_json_locate,
 * pvp_json_path_err, pvp_json_load_err). Byte 0 of the input picks the
 * reader (and the bounds), the rest is the string.
 *
 * What each promises (pvp_util.h) is checked: an accepted number is
 * written the way the grammar allows (digits, an optional '-' and
 * fraction and exponent for doubles, a known unit) and equals what
 * strtoull()/strtod() make of it, within the bounds asked; a refusal is
 * -EINVAL or -ERANGE with one line that names what was read; a position
 * is inside the text.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_util.h"

#include "fuzz.h"

#define FUZZ_UTIL_MAX 4096

static const uint64_t bounds64[][2] = {
	{0, UINT64_MAX}, {1, 16777216}, {64, 9216}, {0, 0}, {5, 4},
};
static const double boundsd[][2] = {
	{0, 1e300},
	{0.001, 31536000},
	{-1, 1},
	{1e-9, 1e-3},
};

static bool
only(const char *s, const char *set)
{
	return s[strspn(s, set)] == '\0';
}

static void
check_refusal(int rc, const char *err, size_t cap, const uint8_t *data, size_t size,
	      const char *what)
{
	FUZZ_CHECK(rc == -EINVAL || rc == -ERANGE, "%s: returned %d", what, rc);
	fuzz_check_message_in(err, cap, data, size);
}

static void
fuzz_u64(const char *s, unsigned int sel, const uint8_t *data, size_t size)
{
	const uint64_t *b = bounds64[sel % 5];
	char err[256] = "";
	uint64_t v = 12345;
	int rc;

	rc = pvp_parse_u64("--n", s, b[0], b[1], &v, err, sizeof(err));
	if (rc != 0) {
		check_refusal(rc, err, sizeof(err), data, size, "u64");
		FUZZ_CHECK(v == 12345, "output written on failure");
		return;
	}
	FUZZ_CHECK(s[0] != '\0' && only(s, "0123456789"), "\"%s\" accepted as a whole number", s);
	FUZZ_CHECK(v == strtoull(s, NULL, 10), "\"%s\" read as %llu", s, (unsigned long long)v);
	FUZZ_CHECK(v >= b[0] && v <= b[1], "%llu outside %llu..%llu", (unsigned long long)v,
		   (unsigned long long)b[0], (unsigned long long)b[1]);
}

static void
fuzz_u32(const char *s, unsigned int sel, const uint8_t *data, size_t size)
{
	uint32_t v = 7, list[8];
	unsigned int n = 99, i;
	char err[256] = "";
	int rc;

	rc = pvp_parse_u32("--n", s, sel & 1, sel & 2 ? 9216 : UINT32_MAX, &v, err, sizeof(err));
	if (rc != 0)
		check_refusal(rc, err, sizeof(err), data, size, "u32");
	else
		FUZZ_CHECK(only(s, "0123456789") && v == strtoull(s, NULL, 10), "\"%s\" read as %u",
			   s, v);
	err[0] = '\0';
	rc = pvp_parse_u32_list("--sizes", s, 64, 9216, list, 8, &n, err, sizeof(err));
	if (rc != 0) {
		check_refusal(rc, err, sizeof(err), data, size, "u32 list");
		return;
	}
	FUZZ_CHECK(n >= 1 && n <= 8, "%u items", n);
	FUZZ_CHECK(only(s, "0123456789,") && s[0] != ',' && strstr(s, ",,") == NULL &&
			   s[strlen(s) - 1] != ',',
		   "\"%s\" accepted as a list", s);
	for (i = 0; i < n; i++)
		FUZZ_CHECK(list[i] >= 64 && list[i] <= 9216, "item %u: %u", i, list[i]);
}

static void
fuzz_double(const char *s, unsigned int sel, const uint8_t *data, size_t size)
{
	const double *b = boundsd[sel % 4];
	char err[256] = "";
	double v = 42, d;
	int rc;

	rc = pvp_parse_double("--x", s, b[0], b[1], &v, err, sizeof(err));
	if (rc == 0) {
		FUZZ_CHECK(only(s, "0123456789.-eE+") && s[0] != '+', "\"%s\" accepted", s);
		FUZZ_CHECK(isfinite(v) && v >= b[0] && v <= b[1], "\"%s\": %g outside %g..%g", s, v,
			   b[0], b[1]);
		FUZZ_CHECK(v == strtod(s, NULL), "\"%s\" read as %.17g", s, v);
	} else {
		check_refusal(rc, err, sizeof(err), data, size, "double");
		FUZZ_CHECK(v == 42, "output written on failure");
	}
	err[0] = '\0';
	rc = pvp_parse_duration("--duration", s, b[0], b[1], &d, err, sizeof(err));
	if (rc == 0)
		FUZZ_CHECK(isfinite(d) && d >= b[0] && d <= b[1], "\"%s\": %g s", s, d);
	else
		check_refusal(rc, err, sizeof(err), data, size, "duration");
	err[0] = '\0';
	rc = pvp_parse_latency("p99", s, b[0], b[1], &d, err, sizeof(err));
	if (rc == 0)
		FUZZ_CHECK(isfinite(d) && d >= b[0] && d <= b[1] &&
				   (strstr(s, "us") != NULL || strstr(s, "ms") != NULL),
			   "\"%s\": %g ns", s, d);
	else
		check_refusal(rc, err, sizeof(err), data, size, "latency");
}

static void
fuzz_count(const char *s, unsigned int sel, const uint8_t *data, size_t size)
{
	const uint64_t *b = bounds64[sel % 5];
	char err[256] = "";
	uint64_t v;
	int rc;

	rc = pvp_parse_count("--flows", s, b[0], b[1], &v, err, sizeof(err));
	if (rc == 0)
		FUZZ_CHECK(v >= b[0] && v <= b[1] && only(s, "0123456789.kKmMgGeE-+"),
			   "\"%s\" read as %llu", s, (unsigned long long)v);
	else
		check_refusal(rc, err, sizeof(err), data, size, "count");
}

static void
fuzz_rate(const char *s, const uint8_t *data, size_t size)
{
	char err[256] = "", canon[128];
	struct pvp_rate r, back;
	int rc;

	rc = pvp_rate_parse(s, &r, err, sizeof(err));
	if (rc != 0) {
		check_refusal(rc, err, sizeof(err), data, size, "rate");
		return;
	}
	if (r.unit == PVP_RATE_MAX)
		return;
	FUZZ_CHECK(isfinite(r.value) && r.value > 0, "\"%s\": %g", s, r.value);
	pvp_rate_format(&r, canon, sizeof(canon));
	FUZZ_CHECK(pvp_rate_parse(canon, &back, err, sizeof(err)) == 0 && back.unit == r.unit &&
			   fabs(back.value - r.value) <= 1e-9 * r.value,
		   "\"%s\" -> \"%s\" does not read back: %s", s, canon, err);
}

static void
fuzz_json_pos(const char *s, size_t len)
{
	/* The first line is the path, the rest the JSON text. */
	const char *nl = memchr(s, '\n', len);
	char path[256], err[384];
	const char *text = nl != NULL ? nl + 1 : "";
	json_error_t jerr;
	int line = -1, col = -1, lines = 1;
	const char *p;
	json_t *j;

	snprintf(path, sizeof(path), "%.*s", nl != NULL ? (int)(nl - s) : (int)len, s);
	for (p = text; *p != '\0'; p++)
		lines += *p == '\n';
	pvp_json_locate(text, path, &line, &col);
	FUZZ_CHECK(line >= 1 && line <= lines && col >= 1, "%s: at %d:%d of %d lines", path, line,
		   col, lines);
	err[0] = '\0';
	pvp_json_path_err(err, sizeof(err), "f.json", text, path, "must be %d", 1);
	fuzz_check_message(err, sizeof(err));
	j = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	if (j == NULL) {
		err[0] = '\0';
		pvp_json_load_err(err, sizeof(err), "f.json", &jerr);
		fuzz_check_message(err, sizeof(err));
	}
	json_decref(j);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int sel;
	char *s;

	if (size < 1 || size > FUZZ_UTIL_MAX)
		return 0;
	sel = data[0];
	s = fuzz_strndup(data + 1, size - 1);
	switch (sel % 6) {
	case 0:
		fuzz_u64(s, sel / 6, data + 1, size - 1);
		break;
	case 1:
		fuzz_u32(s, sel / 6, data + 1, size - 1);
		break;
	case 2:
		fuzz_double(s, sel / 6, data + 1, size - 1);
		break;
	case 3:
		fuzz_count(s, sel / 6, data + 1, size - 1);
		break;
	case 4:
		fuzz_rate(s, data + 1, size - 1);
		break;
	default:
		fuzz_json_pos(s, strlen(s));
		break;
	}
	free(s);
	return 0;
}
