/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What every pvpkit command shares: option values read by lib/util's
 * parsers with one-line errors (the same grammar, ranges and words as
 * pvpkit-gen and pvpkit-fwd), the default topology, loading and opening
 * a topology, writing JSON.
 */

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "pvp_util.h"

#include "cmd.h"
#include "coord_driver.h"
#include "cli_opts.h"
#include "report.h"
#include "registry.h"

int
cli_usage_error(const char *see, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pvpkit: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see %s)\n", see);
	return 2;
}

/* The message of a bad value, one line: "pvpkit: " and lib/util's words. */
static int
cli_bad_value(const char *err)
{
	fprintf(stderr, "pvpkit: %s\n", err);
	return -EINVAL;
}

int
cli_opt_u32(const char *opt, const char *s, uint32_t min, uint32_t max, unsigned int *v)
{
	char err[256];
	uint32_t x;

	if (pvp_parse_u32(opt, s, min, max, &x, err, sizeof(err)) < 0)
		return cli_bad_value(err);
	*v = x;
	return 0;
}

int
cli_opt_u32_list(const char *opt, const char *s, uint32_t min, uint32_t max, unsigned int *out,
		 unsigned int cap, unsigned int *n)
{
	char err[256];

	if (pvp_parse_u32_list(opt, s, min, max, out, cap, n, err, sizeof(err)) < 0)
		return cli_bad_value(err);
	return 0;
}

int
cli_opt_duration(const char *opt, const char *s, double min_s, double max_s, double *v)
{
	char err[256];

	if (pvp_parse_duration(opt, s, min_s, max_s, v, err, sizeof(err)) < 0)
		return cli_bad_value(err);
	return 0;
}

int
cli_opt_rate(const char *opt, const char *s, bool pps_only, double *pps)
{
	struct pvp_rate r;
	char err[256];

	if (pvp_rate_parse(s, &r, err, sizeof(err)) < 0) {
		fprintf(stderr, "pvpkit: %s: %s\n", opt, err);
		return -EINVAL;
	}
	/* Bits per second and percentages are left to the source, which
	 * knows its link speed and frame sizes; a search counts packets. */
	*pps = r.unit == PVP_RATE_PPS ? r.value : 0;
	if (pps_only && r.unit != PVP_RATE_PPS) {
		char q[48];

		snprintf(q, sizeof(q), "%.40s", s);
		fprintf(stderr,
			"pvpkit: %s: \"%s\" must be a packet rate (100000, 500kpps, 1Mpps)\n", opt,
			q);
		return -EINVAL;
	}
	return 0;
}

void
cli_opts_init(struct cli_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->conf.traffic.size = 64;
	o->conf.traffic.flows = 1;
}

void
cli_opts_longopts(unsigned int cmd, const struct option *own, size_t nb_own, struct option *out)
{
	unsigned int i;

	if (nb_own > 0)
		memcpy(out, own, nb_own * sizeof(*own));
	for (i = 0; i < CLI_OPT_NB; i++)
		if ((cli_opts[i].cmds & cmd) != 0)
			out[nb_own++] = (struct option){.name = cli_opts[i].name,
							.has_arg = required_argument,
							.val = CLI_OPT_VAL + (int)i};
	memset(&out[nb_own], 0, sizeof(*out));
}

int
cli_opts_parse(struct cli_opts *o, int val, const char *arg, const char *see)
{
	const struct cli_opt_desc *d;
	enum coord_flow_type ft;
	char opt[40];
	void *dst;
	int ret = 0;

	if (val < CLI_OPT_VAL || val >= CLI_OPT_VAL + CLI_OPT_NB)
		return 0;
	d = &cli_opts[val - CLI_OPT_VAL];
	dst = (char *)o + d->off;
	snprintf(opt, sizeof(opt), "--%s", d->name);
	switch (d->kind) {
	case CLI_OPTK_PATH:
		*(const char **)dst = arg;
		break;
	case CLI_OPTK_COUNT:
		ret = cli_opt_u32(opt, arg, (uint32_t)d->min, (uint32_t)d->max, dst);
		break;
	case CLI_OPTK_SECONDS:
		ret = cli_opt_duration(opt, arg, d->min, d->max, dst);
		break;
	case CLI_OPTK_RATE:
		ret = cli_opt_rate(opt, arg, o->pps_only, &o->conf.traffic.rate_pps);
		if (ret == 0)
			*(const char **)dst = arg;
		break;
	case CLI_OPTK_FTYPE:
		/* One of coord_flow_type_names: the one parser. */
		if (coord_flow_type_parse(arg, &ft) < 0)
			return cli_usage_error(
				see, "--flow-type: \"%s\" is not normal, l2, l3 or l4", arg);
		*(const char **)dst = arg;
		break;
	}
	if (ret < 0)
		return 2;
	o->given |= 1u << (val - CLI_OPT_VAL);
	return 1;
}

struct coord_topology *
cli_open_topology(const char *path, int *status)
{
	const char *rundir = getenv("PVP_TESTBED_RUNDIR");
	char buf[4096], err[512];
	struct coord_topology *t;

	/* The default topology: the one the local testbed wrote. */
	if (path == NULL) {
		snprintf(buf, sizeof(buf), "%s/topology.json",
			 rundir != NULL && rundir[0] != '\0' ? rundir : COORD_TESTBED_RUNDIR);
		path = buf;
	}
	t = coord_topology_load(path, hop_driver_find, err, sizeof(err));
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
cli_install_flows(struct coord_topology *t, const char *type, unsigned int flows)
{
	char err[512] = "";
	int ret;

	ret = coord_install_flows(t, type, flows, err, sizeof(err));
	if (ret < 0)
		fprintf(stderr, "pvpkit: %s\n", err);
	return ret;
}

int
cli_sink_keep(struct cli_sink *s, const json_t *j, const char *what)
{
	char *line;
	int ret;

	if (s->path == NULL)
		return 0;
	ret = s->not_kept ? -EIO : pvp_jsonl_append(s->path, j);
	if (ret == 0)
		return 0;
	if (!s->not_kept)
		fprintf(stderr, "pvpkit: %s: %s: %s not kept; its JSON line follows on stdout\n",
			s->path, strerror(-ret), what);
	s->not_kept = true;
	line = json_dumps(j, JSON_COMPACT);
	if (line != NULL)
		printf("%s\n", line);
	fflush(stdout);
	free(line);
	return ret;
}
