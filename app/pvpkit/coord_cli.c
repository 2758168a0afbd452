/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What every pvpkit command shares: strict number parsing with one-line
 * errors, the default topology, loading and opening a topology, writing
 * JSON. Numbers are base 10 and plain: strtod and strtoul alone would
 * take "nan", "inf", " 5", "+5" and hexadecimal ("0x10" as sixteen).
 */

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "coord_cmd.h"
#include "coord_driver.h"

int
coord_cli_usage_error(const char *see, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pvpkit: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see %s)\n", see);
	return 2;
}

/* Skip a run of decimal digits; @return how many there were. */
static size_t
cli_digits(const char **p)
{
	const char *s = *p;

	while (isdigit((unsigned char)**p))
		(*p)++;
	return (size_t)(*p - s);
}

int
coord_cli_parse_uint(const char *s, unsigned long min, unsigned long max, unsigned int *v)
{
	const char *p = s;
	unsigned long x;

	if (s == NULL || cli_digits(&p) == 0 || *p != '\0')
		return -EINVAL;
	errno = 0;
	x = strtoul(s, NULL, 10);
	if (errno != 0 || x < min || x > max || x > 0xffffffffUL)
		return -EINVAL;
	*v = (unsigned int)x;
	return 0;
}

int
coord_cli_parse_double(const char *s, double min, double max, double *v)
{
	const char *p = s;
	size_t n;
	double x;

	if (s == NULL)
		return -EINVAL;
	if (*p == '-')
		p++;
	n = cli_digits(&p);
	if (*p == '.') {
		p++;
		n += cli_digits(&p);
	}
	if (n == 0)
		return -EINVAL;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '-' || *p == '+')
			p++;
		if (cli_digits(&p) == 0)
			return -EINVAL;
	}
	if (*p != '\0')
		return -EINVAL;
	errno = 0;
	x = strtod(s, NULL);
	if (errno != 0 || !isfinite(x) || x < min || x > max)
		return -EINVAL;
	*v = x;
	return 0;
}

int
coord_cli_opt_uint(const char *opt, const char *s, unsigned long min, unsigned long max,
		   unsigned int *v)
{
	if (coord_cli_parse_uint(s, min, max, v) == 0)
		return 0;
	fprintf(stderr, "pvpkit: %s: \"%s\" must be an integer in %lu..%lu\n", opt, s, min, max);
	return -EINVAL;
}

int
coord_cli_opt_double(const char *opt, const char *s, double min, double max, double *v)
{
	if (coord_cli_parse_double(s, min, max, v) == 0)
		return 0;
	fprintf(stderr, "pvpkit: %s: \"%s\" must be a number in %g..%g\n", opt, s, min, max);
	return -EINVAL;
}

/* The default topology: the one the local testbed wrote. */
const char *
coord_default_topology(char *buf, size_t len)
{
	const char *rundir = getenv("PVP_TESTBED_RUNDIR");

	snprintf(buf, len, "%s/topology.json",
		 rundir != NULL && rundir[0] != '\0' ? rundir : COORD_TESTBED_RUNDIR);
	return buf;
}

struct coord_topology *
coord_cli_open_topology(const char *path, int *status)
{
	char buf[4096], err[512];
	struct coord_topology *t;

	if (path == NULL)
		path = coord_default_topology(buf, sizeof(buf));
	t = coord_topology_load(path, coord_driver_find, err, sizeof(err));
	if (t == NULL) {
		fprintf(stderr, "pvpkit: %s\n", err);
		*status = 2;
		return NULL;
	}
	if (coord_topology_open(t, err, sizeof(err)) < 0) {
		fprintf(stderr, "pvpkit: %s\n", err);
		coord_topology_free(t);
		*status = 1;
		return NULL;
	}
	*status = 0;
	return t;
}

int
coord_cli_write_json(const char *path, const json_t *j)
{
	if (json_dump_file(j, path, JSON_INDENT(2) | JSON_SORT_KEYS) < 0) {
		fprintf(stderr, "pvpkit: %s: cannot write\n", path);
		return -EIO;
	}
	return 0;
}
