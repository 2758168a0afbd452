/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pvp_rate.h"

static void __attribute__((format(printf, 3, 4)))
rate_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Strip a case-insensitive suffix; returns true when it was there. */
static bool
strip_suffix(char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	if (n < m || strcasecmp(s + n - m, suffix) != 0)
		return false;
	s[n - m] = '\0';
	return true;
}

int
pvp_rate_parse(const char *s, struct pvp_rate *r, char *err, size_t errlen)
{
	char buf[64], *end;
	double mult = 1, v;
	size_t n;

	if (s == NULL || *s == '\0') {
		rate_err(err, errlen, "empty rate");
		return -EINVAL;
	}
	n = strlen(s);
	if (n >= sizeof(buf)) {
		rate_err(err, errlen, "rate \"%.20s...\" is too long", s);
		return -EINVAL;
	}
	memcpy(buf, s, n + 1);

	if (strcasecmp(buf, "max") == 0) {
		r->unit = PVP_RATE_MAX;
		r->value = 0;
		return 0;
	}
	if (strip_suffix(buf, "%")) {
		r->unit = PVP_RATE_PERCENT;
	} else if (strip_suffix(buf, "bps-l2")) {
		r->unit = PVP_RATE_BPS_L2;
	} else if (strip_suffix(buf, "bps-l1") || strip_suffix(buf, "bps")) {
		r->unit = PVP_RATE_BPS_L1;
	} else {
		strip_suffix(buf, "pps");
		r->unit = PVP_RATE_PPS;
	}
	n = strlen(buf);
	if (n > 0 && r->unit != PVP_RATE_PERCENT) {
		switch (buf[n - 1]) {
		case 'k':
		case 'K':
			mult = 1e3;
			break;
		case 'm':
		case 'M':
			mult = 1e6;
			break;
		case 'g':
		case 'G':
			mult = 1e9;
			break;
		default:
			break;
		}
		if (mult != 1)
			buf[n - 1] = '\0';
	}
	if (buf[0] == '\0' || buf[0] == ' ') {
		rate_err(err, errlen,
			 "bad rate \"%s\": expected e.g. 1Mpps, 500kpps, 10Gbps, 9Gbps-l2, 50%%, "
			 "max or a number (pps)",
			 s);
		return -EINVAL;
	}
	errno = 0;
	v = strtod(buf, &end);
	if (*end != '\0' || (errno == ERANGE && v != 0)) {
		rate_err(err, errlen,
			 "bad rate \"%s\": expected e.g. 1Mpps, 500kpps, 10Gbps, 9Gbps-l2, 50%%, "
			 "max or a number (pps)",
			 s);
		return -EINVAL;
	}
	v *= mult;
	if (!isfinite(v) || v <= 0) {
		rate_err(err, errlen, "rate \"%s\" must be a positive finite number", s);
		return -ERANGE;
	}
	if (r->unit == PVP_RATE_PERCENT && v > 100) {
		rate_err(err, errlen, "rate \"%s\": a percentage of line rate must be in (0, 100]",
			 s);
		return -ERANGE;
	}
	r->value = v;
	return 0;
}

/* "1.5M" style number with the largest prefix that keeps it >= 1. */
static int
fmt_si(char *buf, size_t len, double v, const char *unit)
{
	static const struct {
		double mult;
		const char *prefix;
	} si[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}};
	unsigned int i;

	for (i = 0; i < sizeof(si) / sizeof(si[0]) - 1; i++)
		if (v >= si[i].mult)
			break;
	return snprintf(buf, len, "%.10g%s%s", v / si[i].mult, si[i].prefix, unit);
}

int
pvp_rate_format(const struct pvp_rate *r, char *buf, size_t len)
{
	switch (r->unit) {
	case PVP_RATE_PPS:
		return fmt_si(buf, len, r->value, "pps");
	case PVP_RATE_BPS_L1:
		return fmt_si(buf, len, r->value, "bps");
	case PVP_RATE_BPS_L2:
		return fmt_si(buf, len, r->value, "bps-l2");
	case PVP_RATE_PERCENT:
		return snprintf(buf, len, "%.10g%%", r->value);
	case PVP_RATE_MAX:
	default:
		return snprintf(buf, len, "max");
	}
}

int
pvp_rate_to_pps(const struct pvp_rate *r, double avg_size, uint64_t link_bps, double *pps)
{
	if (!(avg_size > 0))
		return -EINVAL;
	switch (r->unit) {
	case PVP_RATE_PPS:
		*pps = r->value;
		return 0;
	case PVP_RATE_BPS_L1:
		*pps = r->value / ((avg_size + PVP_L1_OVERHEAD) * 8.0);
		return 0;
	case PVP_RATE_BPS_L2:
		*pps = r->value / (avg_size * 8.0);
		return 0;
	case PVP_RATE_PERCENT:
		if (link_bps == 0)
			return -EINVAL;
		*pps = pvp_rate_line_pps(link_bps, avg_size) * r->value / 100.0;
		return 0;
	case PVP_RATE_MAX:
	default:
		*pps = link_bps != 0 ? pvp_rate_line_pps(link_bps, avg_size) : INFINITY;
		return 0;
	}
}
