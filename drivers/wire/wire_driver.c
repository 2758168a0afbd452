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
#include <string.h>

#include <jansson.h>

#include "wire_driver.h"

static int
wire_open(struct coord_hop *hop, const json_t *conf, char *err, size_t err_len)
{
	const json_t *links, *l;
	size_t i;

	links = json_object_get(conf, "links");
	if (links == NULL)
		return 0;
	if (!json_is_array(links))
		goto bad;
	json_array_foreach(links, i, l) {
		const char *a = json_string_value(json_array_get(l, 0));
		const char *b = json_string_value(json_array_get(l, 1));

		if (json_array_size(l) != 2 || a == NULL || b == NULL || strchr(a, ':') == NULL ||
		    strchr(b, ':') == NULL)
			goto bad;
	}
	return 0;
bad:
	snprintf(err, err_len, "hop %s: \"links\" must be [[\"hop:port\", \"hop:port\"], ...]",
		 hop->name);
	return -EINVAL;
}

static void
wire_close(struct coord_hop *hop)
{
	hop->priv = NULL;
}

/* "links": [["hop:port", "hop:port"], ...], checked when the file is loaded. */
static const struct coord_conf_member wire_end = {
	.name = "", .type = COORD_CONF_STRING, .min = 3, .max = 127};
static const struct coord_conf_member wire_link = {
	.name = "", .type = COORD_CONF_ARRAY, .min = 2, .max = 2, .members = &wire_end};
static const struct coord_conf_member wire_conf[] = {
	{.name = "links", .type = COORD_CONF_ARRAY, .min = 0, .max = 64, .members = &wire_link},
	{.name = NULL},
};

const struct coord_driver coord_driver_wire = {
	.name = "wire",
	.roles = COORD_ROLE_PASSIVE,
	.conf = wire_conf,
	.open = wire_open,
	.close = wire_close,
};
