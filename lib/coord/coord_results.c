/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The JSON-lines results file and rate parsing for the CLI. A trial is
 * written with one write() of a whole line on an O_APPEND descriptor and
 * fsync'd before the coordinator does anything else, so a crash or kill
 * at any later point keeps every finished trial, and no line is ever half
 * written by two writers.
 */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <jansson.h>

#include "coord.h"

int
coord_results_append(const char *path, const json_t *j)
{
	char *line;
	size_t len, off = 0;
	ssize_t n;
	int fd, ret = 0;

	line = json_dumps(j, JSON_COMPACT);
	if (line == NULL)
		return -ENOMEM;
	len = strlen(line);
	line[len++] = '\n'; /* replaces the NUL: json_dumps never contains one */
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	while (off < len) {
		n = write(fd, line + off, len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		off += (size_t)n;
	}
	if (ret == 0 && fsync(fd) < 0)
		ret = -errno;
	close(fd);
out:
	free(line);
	return ret;
}

int
coord_rate_parse(const char *s, double *pps)
{
	const char *u;
	char *end;
	double v;

	*pps = 0;
	if (s == NULL || s[0] == '\0')
		return -EINVAL;
	if (strcasecmp(s, "max") == 0)
		return 0;
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v <= 0)
		return -EINVAL;
	u = end;
	if (*u == 'k' || *u == 'K') {
		v *= 1e3;
		u++;
	} else if (*u == 'm' || *u == 'M') {
		v *= 1e6;
		u++;
	} else if (*u == 'g' || *u == 'G') {
		v *= 1e9;
		u++;
	}
	if (*u == '\0' || strcasecmp(u, "pps") == 0) {
		if (*end == '%')
			return -EINVAL;
		*pps = v;
		return 0;
	}
	/* Left to the source, which knows its link speed. */
	if (strcmp(end, "%") == 0)
		return v <= 100 ? 0 : -EINVAL;
	if (strcasecmp(u, "bps") == 0 || strcasecmp(u, "bps-l1") == 0 ||
	    strcasecmp(u, "bps-l2") == 0)
		return 0;
	return -EINVAL;
}
