/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The table of hop drivers. drivers/meson.build defines COORD_HAVE_OVS /
 * COORD_HAVE_TESTPMD only when those folders build sources, so this file
 * links whatever state the other drivers are in.
 */

#include <stddef.h>
#include <string.h>

#include "coord_driver.h"
#include "fwd/fwd_driver.h"
#include "gen/gen_driver.h"
#include "wire/wire_driver.h"
#ifdef COORD_HAVE_OVS
#include "ovs/ovs_driver.h"
#endif
#ifdef COORD_HAVE_TESTPMD
#include "testpmd/testpmd_driver.h"
#endif

const struct coord_driver *const coord_drivers[] = {
	&coord_driver_gen,     &coord_driver_fwd,
#ifdef COORD_HAVE_OVS
	&coord_driver_ovs,
#endif
#ifdef COORD_HAVE_TESTPMD
	&coord_driver_testpmd,
#endif
	&coord_driver_wire,    NULL,
};

const struct coord_driver *
coord_driver_find(const char *name)
{
	unsigned int i;

	if (name == NULL)
		return NULL;
	for (i = 0; coord_drivers[i] != NULL; i++)
		if (strcmp(coord_drivers[i]->name, name) == 0)
			return coord_drivers[i];
	return NULL;
}
