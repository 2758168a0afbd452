/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The JSON-lines results file and rate parsing for the CLI, both on top
 * of lib/util: pvp_jsonl_append() writes a trial as one fsync'd line and
 * takes a line the disk could not hold away again, so the file stays
 * valid JSON lines; pvp_rate_parse() is the one rate grammar of pvpkit.
 */

#include <errno.h>

#include <jansson.h>

#include "pvp_util.h"

#include "coord.h"

int
coord_results_append(const char *path, const json_t *j)
{
	return pvp_jsonl_append(path, j);
}

int
coord_rate_parse(const char *s, double *pps)
{
	struct pvp_rate r;
	int ret;

	*pps = 0;
	ret = pvp_rate_parse(s, &r, NULL, 0);
	if (ret < 0)
		return -EINVAL;
	/* Bits per second and percentages are left to the source, which
	 * knows its link speed and frame sizes. */
	if (r.unit == PVP_RATE_PPS)
		*pps = r.value;
	return 0;
}
