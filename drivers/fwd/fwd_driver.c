/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Hop driver "fwd": pvpkit-fwd read over its control channel. Everything
 * is the shared pvpkit-app code; the driver exists so topology files
 * say what kind of hop they name.
 */

#include "ctl_hop.h"
#include "fwd_driver.h"

static const struct pvp_schema_member fwd_conf[] = {
	COORD_CTL_HOP_MEMBERS,
	COORD_CTL_HOP_L3_MEMBER,
	{.name = NULL},
};

static int
fwd_open(struct coord_hop *hop, const json_t *conf, char *err, size_t err_len)
{
	return coord_ctl_hop_open(hop, conf, fwd_conf, err, err_len);
}

const struct coord_driver coord_driver_fwd = {
	.name = "fwd",
	.roles = COORD_ROLE_COUNTERS,
	.conf = fwd_conf,
	.open = fwd_open,
	.close = coord_ctl_hop_close,
	.snapshot = coord_ctl_hop_snapshot,
	.clear = coord_ctl_hop_clear,
	.context = coord_ctl_hop_context,
	.call = coord_ctl_hop_method,
};
