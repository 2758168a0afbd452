/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The table of hop drivers the coordinator knows, by topology name. A new
 * driver is one line here and one folder under drivers/. A driver that
 * was renamed keeps its old name as an alias, so topology files written
 * for it still load.
 */

#include <stddef.h>
#include <string.h>

#include "fwd/fwd_driver.h"
#include "gen/gen_driver.h"
#include "ovs/ovs_driver.h"
#include "telemetry/telemetry_driver.h"
#include "trex/trex_driver.h"
#include "wire/wire_driver.h"

#include "registry.h"

const struct coord_driver *const hop_drivers[] = {
	&hop_driver_gen,
	&hop_driver_fwd,
	&hop_driver_ovs,
	&hop_driver_telemetry,
	&hop_driver_trex,
	&hop_driver_wire,
	NULL,
};

/* Old names still accepted in topology files. */
static const struct {
	const char *name;		   /* the old name */
	const struct coord_driver *driver; /* the driver it now is */
} hop_aliases[] = {
	/* A DPDK telemetry client reads any DPDK app, not only testpmd. */
	{"testpmd", &hop_driver_telemetry},
};

const struct coord_driver *
hop_driver_find(const char *name)
{
	unsigned int i;

	if (name == NULL)
		return NULL;
	for (i = 0; hop_drivers[i] != NULL; i++)
		if (strcmp(hop_drivers[i]->name, name) == 0)
			return hop_drivers[i];
	for (i = 0; i < sizeof(hop_aliases) / sizeof(hop_aliases[0]); i++)
		if (strcmp(hop_aliases[i].name, name) == 0)
			return hop_aliases[i].driver;
	return NULL;
}
