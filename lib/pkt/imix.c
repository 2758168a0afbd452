/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * IMIX: the size[:weight] list a user writes, and the cycle of template
 * indices that gives its frame sizes in their exact proportions,
 * interleaved.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pvp_util.h"

#include "pkt_private.h"

const struct pvp_imix pvp_imix_trex[3] = {
	{.size = 64, .weight = 28},
	{.size = 594, .weight = 16},
	{.size = 1518, .weight = 4},
};

static uint32_t
imix_gcd(const struct pvp_imix *imix, uint32_t n)
{
	uint32_t g = 0, i;

	for (i = 0; i < n; i++)
		g = (uint32_t)pvp_gcd64(g, imix[i].weight);
	return g == 0 ? 1 : g;
}

uint32_t
pvp_imix_cycle_len(const struct pvp_imix *imix, uint32_t n)
{
	uint32_t g = imix_gcd(imix, n), i;
	uint64_t sum = 0;

	/* 16 weights of up to 2^32 - 1 would wrap 32 bits: saturate, the
	 * parser refuses cycles over 1,000,000 anyway. */
	for (i = 0; i < n; i++)
		sum += imix[i].weight / g;
	return sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
}

uint32_t
pvp_imix_expand(const struct pvp_imix *imix, uint32_t n, uint32_t *order)
{
	uint32_t g = imix_gcd(imix, n), total = pvp_imix_cycle_len(imix, n), i, k;
	int64_t cur[PVP_PKT_MAX_IMIX] = {0};

	if (n > PVP_PKT_MAX_IMIX)
		return 0;
	/* Smooth weighted round robin: every step each entry gains its
	 * weight, the largest is picked and pays the total. Over a cycle
	 * each entry is picked exactly weight times, spread out. */
	for (k = 0; k < total; k++) {
		uint32_t best = 0;

		for (i = 0; i < n; i++) {
			cur[i] += imix[i].weight / g;
			if (cur[i] > cur[best])
				best = i;
		}
		cur[best] -= total;
		order[k] = best;
	}
	return total;
}

int
pvp_imix_parse(const char *what, const char *s, struct pvp_imix *out, uint32_t *n, char *err,
	       size_t errlen)
{
	char buf[PVP_PKT_MAX_IMIX * 20], *tok, *rest, *colon;
	uint32_t count = 0, size, weight;
	int ret;

	if (strlen(s) >= sizeof(buf)) {
		snprintf(err, errlen, "%s: list too long", what);
		return -E2BIG;
	}
	strcpy(buf, s);
	/* strsep, not strtok: an empty entry (",,") is an error, not skipped. */
	for (rest = buf; (tok = strsep(&rest, ",")) != NULL;) {
		if (count == PVP_PKT_MAX_IMIX) {
			snprintf(err, errlen, "%s: at most %d sizes", what, PVP_PKT_MAX_IMIX);
			return -E2BIG;
		}
		colon = strchr(tok, ':');
		if (colon != NULL)
			*colon = '\0';
		weight = 1;
		ret = pvp_parse_u32(what, tok, PVP_PKT_MIN_SIZE, PVP_PKT_MAX_SIZE, &size, err,
				    errlen);
		if (ret == 0 && colon != NULL)
			ret = pvp_parse_u32(what, colon + 1, 1, PVP_PKT_MAX_IMIX_WEIGHT, &weight,
					    err, errlen);
		if (ret != 0)
			return ret;
		out[count].size = (uint16_t)size;
		out[count].weight = weight;
		count++;
	}
	*n = count;
	return 0;
}
