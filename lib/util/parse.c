/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Numbers from the command line, the control channel and config files.
 * The grammar is checked by hand before strtoull()/strtod() convert, so
 * what they would also take (a base prefix, blanks, a sign on an unsigned
 * number, "nan", "inf", hex floats) never gets through.
 */

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "pvp_util.h"
#include "util_private.h"

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits only, at least one. */
static bool
is_whole(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (!is_digit(*s))
			return false;
	return true;
}

/*
 * Length of the decimal number at the start of @p s: ["-"] digits ["."
 * digits] [("e"|"E") ["+"|"-"] digits], with a digit on at least one side
 * of the point. 0 when there is none.
 */
static size_t
decimal_len(const char *s, bool sign, bool exponent)
{
	const char *p = s;
	size_t digits = 0;

	if (sign && *p == '-')
		p++;
	for (; is_digit(*p); p++)
		digits++;
	if (*p == '.')
		for (p++; is_digit(*p); p++)
			digits++;
	if (digits == 0)
		return 0;
	if (exponent && (*p == 'e' || *p == 'E')) {
		const char *e = p + 1;

		if (*e == '+' || *e == '-')
			e++;
		if (is_digit(*e)) {
			while (is_digit(*e))
				e++;
			p = e;
		}
	}
	return (size_t)(p - s);
}

/* True when the digits of a number (before any exponent) are all zero. */
static bool
all_zero(const char *s)
{
	for (; *s != '\0' && *s != 'e' && *s != 'E'; s++)
		if (is_digit(*s) && *s != '0')
			return false;
	return true;
}

int
pvp_parse_u64(const char *what, const char *s, uint64_t min, uint64_t max, uint64_t *out, char *err,
	      size_t errlen)
{
	char q[UTIL_QUOTE_LEN];
	unsigned long long v;
	int ret = 0;

	if (s == NULL)
		s = "";
	if (!is_whole(s)) {
		ret = -EINVAL;
	} else {
		errno = 0;
		v = strtoull(s, NULL, 10);
		if (errno != 0 || v < min || v > max)
			ret = -ERANGE;
	}
	if (ret < 0)
		return util_seterr(err, errlen, ret,
				   "%s%s\"%s\" must be a whole number in %" PRIu64 "..%" PRIu64,
				   UTIL_WHAT(what), util_quote(s, q, sizeof(q)), min, max);
	*out = v;
	return 0;
}

int
pvp_parse_u32(const char *what, const char *s, uint32_t min, uint32_t max, uint32_t *out, char *err,
	      size_t errlen)
{
	uint64_t v;
	int ret = pvp_parse_u64(what, s, min, max, &v, err, errlen);

	if (ret == 0)
		*out = (uint32_t)v;
	return ret;
}

int
pvp_parse_u32_list(const char *what, const char *s, uint32_t min, uint32_t max, uint32_t *out,
		   unsigned int cap, unsigned int *n, char *err, size_t errlen)
{
	char item[UTIL_QUOTE_MAX + 2], q[UTIL_QUOTE_LEN];
	unsigned int count = 0;
	const char *p = s != NULL ? s : "";
	uint32_t v;
	size_t len;
	int ret;

	for (;;) {
		len = strcspn(p, ",");
		if (len == 0)
			return util_seterr(err, errlen, -EINVAL,
					   "%s%s\"%s\": an empty item in the list", UTIL_WHAT(what),
					   util_quote(s != NULL ? s : "", q, sizeof(q)));
		if (count == cap)
			return util_seterr(err, errlen, -EINVAL, "%s%smore than %u values",
					   UTIL_WHAT(what), cap);
		/*
		 * An item longer than a quote is refused as it is quoted (cut,
		 * with "..."): parsing only its first bytes would read
		 * "000...0003120junk" as 3120.
		 */
		if (len >= sizeof(item)) {
			memcpy(item, p, sizeof(item) - 1);
			item[sizeof(item) - 1] = '\0';
			return util_seterr(
				err, errlen, -EINVAL,
				"%s%s\"%s\" must be a whole number in %" PRIu32 "..%" PRIu32,
				UTIL_WHAT(what), util_quote(item, q, sizeof(q)), min, max);
		}
		memcpy(item, p, len);
		item[len] = '\0';
		ret = pvp_parse_u32(what, item, min, max, &v, err, errlen);
		if (ret < 0)
			return ret;
		out[count++] = v;
		p += strcspn(p, ",");
		if (*p == '\0')
			break;
		p++;
	}
	*n = count;
	return 0;
}

/*
 * Convert the decimal number in the first @p n bytes of @p s (checked by
 * decimal_len()); -ERANGE when it is beyond a double or too small to be
 * a normal one without being zero.
 */
static int
decimal_value(const char *s, size_t n, double *v)
{
	char buf[64];
	double d;

	if (n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	d = strtod(buf, NULL);
	if (!isfinite(d))
		return -ERANGE;
	if (d == 0 ? !all_zero(buf) : fabs(d) < DBL_MIN)
		return -ERANGE;
	*v = d;
	return 0;
}

/* A unit after a number, and what it multiplies the number by. */
struct unit {
	const char *name;
	double mult;
};

/* A kind of decimal number: the units it may carry, and how its error names it. */
struct decimal_kind {
	const char *noun;  /* "number", "duration", ... */
	const char *shown; /* the unit the range is shown in, with its space: "", " s" */
	double shown_mult; /* what that unit multiplies by */
	const char *eg;	   /* examples after the range, "" for none */
	size_t nb_units;
	struct unit units[5]; /* "" for a bare number */
};

/*
 * The decimal number @p s of kind @p k, optionally followed by one of its
 * units, in [min, max] after the unit is applied.
 */
static int
decimal_parse(const char *what, const char *s, const struct decimal_kind *k, double min, double max,
	      double *out, char *err, size_t errlen)
{
	char q[UTIL_QUOTE_LEN];
	double v = 0;
	size_t n, i;
	int ret = -EINVAL;

	if (s == NULL)
		s = "";
	n = decimal_len(s, true, true);
	for (i = 0; n > 0 && i < k->nb_units; i++)
		if (strcmp(s + n, k->units[i].name) == 0)
			break;
	if (n > 0 && i < k->nb_units) {
		ret = decimal_value(s, n, &v);
		v *= k->units[i].mult;
		if (ret == 0 && !(v >= min && v <= max))
			ret = -ERANGE;
	}
	if (ret < 0)
		return util_seterr(err, errlen, ret, "%s%s\"%s\" must be a %s in %.15g..%.15g%s%s",
				   UTIL_WHAT(what), util_quote(s, q, sizeof(q)), k->noun,
				   min / k->shown_mult, max / k->shown_mult, k->shown, k->eg);
	*out = v;
	return 0;
}

int
pvp_parse_double(const char *what, const char *s, double min, double max, double *out, char *err,
		 size_t errlen)
{
	static const struct decimal_kind number = {"number", "", 1, "", 1, {{"", 1}}};

	return decimal_parse(what, s, &number, min, max, out, err, errlen);
}

int
pvp_parse_duration(const char *what, const char *s, double min_s, double max_s, double *out_s,
		   char *err, size_t errlen)
{
	static const struct decimal_kind duration = {
		.noun = "duration",
		.shown = " s",
		.shown_mult = 1,
		.eg = " (e.g. 10, 2.5s, 500ms, 1h)",
		.nb_units = 5,
		.units = {{"", 1}, {"ms", 1e-3}, {"s", 1}, {"m", 60}, {"h", 3600}},
	};

	return decimal_parse(what, s, &duration, min_s, max_s, out_s, err, errlen);
}

int
pvp_parse_latency(const char *what, const char *s, double min_ns, double max_ns, double *out_ns,
		  char *err, size_t errlen)
{
	/* A unit is required: a bare "100" could be any of them. */
	static const struct decimal_kind latency = {
		"latency", " us", 1e3, " (e.g. 100us, 2.5ms)", 2, {{"us", 1e3}, {"ms", 1e6}},
	};

	return decimal_parse(what, s, &latency, min_ns, max_ns, out_ns, err, errlen);
}

int
pvp_parse_count(const char *what, const char *s, uint64_t min, uint64_t max, uint64_t *out,
		char *err, size_t errlen)
{
	char q[UTIL_QUOTE_LEN];
	double v = 0, mult = 0;
	size_t n;
	int ret = -EINVAL;

	if (s == NULL)
		s = "";
	if (is_whole(s)) {
		uint64_t u;

		ret = pvp_parse_u64(NULL, s, min, max, &u, NULL, 0);
		if (ret == 0) {
			*out = u;
			return 0;
		}
		goto fail;
	}
	n = decimal_len(s, false, false);
	if (n > 0 && s[n] != '\0' && s[n + 1] == '\0') {
		static const char units[] = "kKMG";
		static const double mults[] = {1e3, 1e3, 1e6, 1e9};
		const char *u = strchr(units, s[n]);

		mult = u != NULL ? mults[u - units] : 0;
	} else if (n > 0 && s[n] == '\0') {
		mult = 1; /* "1.0": whole, checked below */
	}
	if (mult != 0) {
		ret = decimal_value(s, n, &v);
		v *= mult;
		/* Above 2^53 a double no longer holds every whole number. */
		if (ret == 0 &&
		    (v != floor(v) || v > 9007199254740992.0 || v < (double)min || v > (double)max))
			ret = v != floor(v) ? -EINVAL : -ERANGE;
	}
fail:
	if (ret < 0)
		return util_seterr(err, errlen, ret,
				   "%s%s\"%s\" must be a whole count in %" PRIu64 "..%" PRIu64
				   " (e.g. 1000, 10k, 1.5M, 2G)",
				   UTIL_WHAT(what), util_quote(s, q, sizeof(q)), min, max);
	*out = (uint64_t)v;
	return 0;
}

static int
util_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
pvp_parse_mac(const char *s, uint64_t *mac)
{
	uint64_t v = 0;
	int i, d, n;

	if (s == NULL)
		return -EINVAL;
	/* Six octets of one or two hex digits ("2:0:0:0:0:1" as sscanf's
	 * "%2x" read them), colons between, nothing else. */
	for (i = 0; i < 6; i++) {
		unsigned int octet = 0;

		for (n = 0; n < 2 && (d = util_hex_digit(*s)) >= 0; n++, s++)
			octet = octet * 16 + (unsigned int)d;
		if (n == 0 || *s != (i < 5 ? ':' : '\0'))
			return -EINVAL;
		if (i < 5)
			s++;
		v = (v << 8) | octet;
	}
	*mac = v;
	return 0;
}

int
pvp_parse_ipv4(const char *s, uint32_t *ip)
{
	struct in_addr a;

	if (s == NULL || inet_pton(AF_INET, s, &a) != 1)
		return -EINVAL;
	*ip = ntohl(a.s_addr);
	return 0;
}

int
pvp_parse_ipv6(const char *s, uint8_t ip[16])
{
	struct in6_addr a;

	if (s == NULL || inet_pton(AF_INET6, s, &a) != 1)
		return -EINVAL;
	memcpy(ip, &a, sizeof(a));
	return 0;
}
