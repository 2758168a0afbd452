/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Hop driver "wire": a passive link. Opening checks that "links", when
 * given, is a list of two-element lists of "hop:port" strings, so a typo
 * in a calibration topology is reported rather than ignored.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "wire_driver.h"

/* The hop's topology members, decoded. */
struct wire_conf {
	char links[64][2][128]; /* "links": [["hop:port", "hop:port"], ...] */
	unsigned int nb_links;	/* its entries */
};

static const struct pvp_schema_member wire_end = {
	.name = "", .type = PVP_SCHEMA_STRING, .min = 3, .max = 127, .size = 128};
static const struct pvp_schema_member wire_link = {.name = "",
						   .type = PVP_SCHEMA_ARRAY,
						   .min = 2,
						   .max = 2,
						   .members = &wire_end,
						   .size = 2 * 128};
static const struct pvp_schema_member wire_conf_members[] = {
	COORD_HOP_PORTS_MEMBER(0, "its port names (optional: a wire counts nothing)"),
	{PVP_SCHEMA_MEMBER(struct wire_conf, links, PVP_SCHEMA_ARRAY, 0, 64,
			   "the link's two ends, [\"hop:port\", \"hop:port\"]"),
	 .members = &wire_link, .count_offset = offsetof(struct wire_conf, nb_links)},
	{.name = NULL},
};

static int
wire_open(struct coord_hop *hop, const json_t *conf, char *err, size_t err_len)
{
	struct wire_conf *c = calloc(1, sizeof(*c));
	unsigned int i;
	int ret;

	if (c == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "hop %s: out of memory", hop->name);
	ret = coord_hop_conf(hop, wire_conf_members, conf, c, err, err_len);
	for (i = 0; ret == 0 && i < c->nb_links; i++)
		if (strchr(c->links[i][0], ':') == NULL || strchr(c->links[i][1], ':') == NULL)
			ret = pvp_fail(err, err_len, -EINVAL,
				       "hop %s: \"links\" must be [[\"hop:port\", \"hop:port\"], "
				       "...]",
				       hop->name);
	free(c);
	return ret;
}

static void
wire_close(struct coord_hop *hop)
{
	hop->priv = NULL;
}

const struct coord_driver hop_driver_wire = {
	.name = "wire",
	.roles = COORD_ROLE_PASSIVE,
	.conf = wire_conf_members,
	.open = wire_open,
	.close = wire_close,
};
