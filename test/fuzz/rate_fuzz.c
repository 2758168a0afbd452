/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: rate strings (--rate, "rate" in profiles, traffic.start
 * and traffic.update over the control channel, pvpkit trial --rate).
 * A string that parses must give a usable rate: positive and finite (a
 * percentage at most 100), a canonical form that parses back to the same
 * rate, and packets per second that are positive for any frame size and
 * link speed. A string that does not parse must say why in one line.
 */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvp_util.h"

#include "fuzz.h"

/* Longer strings are refused by length alone; a few past it suffice. */
#define FUZZ_RATE_MAX 256

static void
check_rate(const char *s, const struct pvp_rate *r)
{
	static const double sizes[] = {64, 594, 1518, 9216, 353.8};
	static const uint64_t links[] = {0, 10000000000ull, 1000, UINT64_MAX};
	char canon[128], err[256];
	struct pvp_rate back;
	double pps;
	unsigned int i, j;
	int n, rc;

	FUZZ_CHECK(r->unit <= PVP_RATE_MAX, "\"%s\": unit %d", s, (int)r->unit);
	if (r->unit != PVP_RATE_MAX) {
		FUZZ_CHECK(isfinite(r->value) && r->value > 0, "\"%s\": value %g", s, r->value);
		if (r->unit == PVP_RATE_PERCENT)
			FUZZ_CHECK(r->value <= 100, "\"%s\": %g %%", s, r->value);
	}

	n = pvp_rate_format(r, canon, sizeof(canon));
	FUZZ_CHECK(n > 0 && (size_t)n < sizeof(canon), "\"%s\": formatted in %d chars", s, n);
	rc = pvp_rate_parse(canon, &back, err, sizeof(err));
	FUZZ_CHECK(rc == 0, "\"%s\": canonical form \"%s\" does not parse: %s", s, canon, err);
	FUZZ_CHECK(back.unit == r->unit, "\"%s\" -> \"%s\": unit %d, was %d", s, canon,
		   (int)back.unit, (int)r->unit);
	if (r->unit != PVP_RATE_MAX)
		FUZZ_CHECK(fabs(back.value - r->value) <= 1e-9 * r->value,
			   "\"%s\" -> \"%s\" -> %.17g, was %.17g", s, canon, back.value, r->value);

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (j = 0; j < sizeof(links) / sizeof(links[0]); j++) {
			rc = pvp_rate_to_pps(r, sizes[i], links[j], &pps);
			if (r->unit == PVP_RATE_PERCENT && links[j] == 0) {
				FUZZ_CHECK(rc == -EINVAL, "\"%s\": percent without a link: %d", s,
					   rc);
				continue;
			}
			FUZZ_CHECK(rc == 0, "\"%s\": to_pps(%g, %llu) = %d", s, sizes[i],
				   (unsigned long long)links[j], rc);
			FUZZ_CHECK(pps > 0 && !isnan(pps), "\"%s\": %g pps at %g B, link %llu", s,
				   pps, sizes[i], (unsigned long long)links[j]);
			if (r->unit != PVP_RATE_MAX)
				FUZZ_CHECK(isfinite(pps), "\"%s\": infinite pps", s);
		}
	}
	FUZZ_CHECK(pvp_rate_to_pps(r, 0, 0, &pps) == -EINVAL, "\"%s\": size 0 accepted", s);
	FUZZ_CHECK(pvp_rate_to_pps(r, NAN, 0, &pps) == -EINVAL, "\"%s\": size nan accepted", s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pvp_rate r;
	char err[256], small[8];
	char *s;
	int rc;

	if (size > FUZZ_RATE_MAX)
		return 0;
	s = fuzz_strndup(data, size);
	memset(&r, 0xa5, sizeof(r));
	memset(err, 0, sizeof(err));
	rc = pvp_rate_parse(s, &r, err, sizeof(err));
	if (rc == 0) {
		check_rate(s, &r);
	} else {
		FUZZ_CHECK(rc == -EINVAL || rc == -ERANGE, "\"%s\": returned %d", s, rc);
		fuzz_check_message_in(err, sizeof(err), data, size);
	}
	/* A short error buffer is cut, never overrun; NULL is allowed. */
	pvp_rate_parse(s, &r, small, sizeof(small));
	pvp_rate_parse(s, &r, NULL, 0);
	free(s);
	return 0;
}
