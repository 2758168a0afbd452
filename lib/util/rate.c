/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The one rate parser of pvpkit: the generator's options, its control
 * channel, stream profiles and the coordinator all read rates here, so
 * "1e-300" or "nan" is refused the same way everywhere.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pvp_util.h"
#include "util_private.h"

#define RATE_SYNTAX "expected e.g. 1Mpps, 500kpps, 10Gbps, 9Gbps-l2, 50%, max or a number (pps)"

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

/* k, M, G at the end of @p buf: strip it and return its multiplier. */
static double
strip_prefix(char *buf)
{
	static const char prefixes[] = "kKmMgG";
	static const double mults[] = {1e3, 1e3, 1e6, 1e6, 1e9, 1e9};
	size_t n = strlen(buf);
	const char *p = n > 0 ? strchr(prefixes, buf[n - 1]) : NULL;

	if (p == NULL)
		return 1;
	buf[n - 1] = '\0';
	return mults[p - prefixes];
}

/* "nan", "inf", "infinity" in any case: a number, just not a finite one. */
static bool
is_nonfinite_word(const char *s)
{
	if (*s == '-')
		s++;
	return strcasecmp(s, "nan") == 0 || strcasecmp(s, "inf") == 0 ||
	       strcasecmp(s, "infinity") == 0;
}

void
pvp_rate_bounds(enum pvp_rate_unit unit, double *lo, double *hi)
{
	switch (unit) {
	case PVP_RATE_PERCENT:
		*lo = PVP_RATE_MIN_PERCENT;
		*hi = 100;
		break;
	case PVP_RATE_BPS_L1:
	case PVP_RATE_BPS_L2:
		*lo = PVP_RATE_MIN_BPS;
		*hi = PVP_RATE_MAX_BPS;
		break;
	case PVP_RATE_PPS:
		*lo = PVP_RATE_MIN_PPS;
		*hi = PVP_RATE_MAX_PPS;
		break;
	default:
		*lo = *hi = 0;
		break;
	}
}

int
pvp_rate_parse(const char *s, struct pvp_rate *r, char *err, size_t errlen)
{
	char buf[64], q[UTIL_QUOTE_LEN];
	double mult = 1, v, lo, hi;
	enum pvp_rate_unit unit;
	size_t n;
	int ret;

	if (s == NULL || *s == '\0')
		return util_seterr(err, errlen, -EINVAL, "empty rate");
	util_quote(s, q, sizeof(q));
	n = strlen(s);
	if (n >= sizeof(buf))
		return util_seterr(err, errlen, -EINVAL, "bad rate \"%s\": %s", q, RATE_SYNTAX);
	memcpy(buf, s, n + 1);

	if (strcasecmp(buf, "max") == 0) {
		r->unit = PVP_RATE_MAX;
		r->value = 0;
		return 0;
	}
	if (strip_suffix(buf, "%")) {
		unit = PVP_RATE_PERCENT;
	} else if (strip_suffix(buf, "bps-l2")) {
		unit = PVP_RATE_BPS_L2;
	} else if (strip_suffix(buf, "bps-l1") || strip_suffix(buf, "bps")) {
		unit = PVP_RATE_BPS_L1;
	} else {
		strip_suffix(buf, "pps");
		unit = PVP_RATE_PPS;
	}
	if (unit != PVP_RATE_PERCENT)
		mult = strip_prefix(buf);
	if (is_nonfinite_word(buf))
		return util_seterr(err, errlen, -ERANGE,
				   "rate \"%s\" must be a positive finite number", q);
	/* Any decimal number, bounded by unit below; the message is ours. */
	ret = pvp_parse_double(NULL, buf, -HUGE_VAL, HUGE_VAL, &v, NULL, 0);
	if (ret == -EINVAL)
		return util_seterr(err, errlen, -EINVAL, "bad rate \"%s\": %s", q, RATE_SYNTAX);
	/* Beyond a double (1e400) or below a normal one (1e-320): out of range. */
	if (ret == -ERANGE)
		v = buf[0] == '-' ? -1 : NAN;
	v *= mult;
	if (v <= 0)
		return util_seterr(err, errlen, -ERANGE,
				   "rate \"%s\" must be a positive finite number", q);
	pvp_rate_bounds(unit, &lo, &hi);
	if (!(v >= lo && v <= hi)) {
		if (unit == PVP_RATE_PERCENT)
			return util_seterr(
				err, errlen, -ERANGE,
				"rate \"%s\": a percentage of line rate must be in %g..100", q, lo);
		return util_seterr(err, errlen, -ERANGE, "rate \"%s\" must be in %g..%g %s", q, lo,
				   hi, unit == PVP_RATE_PPS ? "pps" : "bps");
	}
	r->unit = unit;
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
