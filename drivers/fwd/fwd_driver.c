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
	CTL_HOP_MEMBERS,
	CTL_HOP_L3_MEMBER,
	{.name = NULL},
};

static int
fwd_open(struct coord_hop *hop, const json_t *conf, char *err, size_t err_len)
{
	return ctl_hop_open(hop, conf, fwd_conf, err, err_len);
}

const struct coord_driver hop_driver_fwd = {
	.name = "fwd",
	.roles = COORD_ROLE_COUNTERS,
	.conf = fwd_conf,
	.open = fwd_open,
	.close = ctl_hop_close,
	.snapshot = ctl_hop_snapshot,
	.clear = ctl_hop_clear,
	.context = ctl_hop_context,
	.call = ctl_hop_method,
};
