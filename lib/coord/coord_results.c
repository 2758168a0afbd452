/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The JSON-lines results file on top of lib/util: pvp_jsonl_append()
 * writes a trial as one fsync'd line and takes a line the disk could not
 * hold away again, so the file stays valid JSON lines.
 */

#include <jansson.h>

#include "pvp_util.h"

#include "coord.h"

int
coord_results_append(const char *path, const json_t *j)
{
	return pvp_jsonl_append(path, j);
}
