/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * The pvpkit commands beyond trial (private to app/pvpkit).
 */

#ifndef COORD_CMD_H
#define COORD_CMD_H

#include <stddef.h>

/** Default run dir of the local testbed (tools/testbed.sh). */
#define COORD_TESTBED_RUNDIR "/run/pvpkit/testbed"

/**
 * The local testbed's topology file: $PVP_TESTBED_RUNDIR/topology.json,
 * else COORD_TESTBED_RUNDIR/topology.json. @return @p buf.
 */
const char *coord_default_topology(char *buf, size_t len);

/** pvpkit search: one point. @return the exit status. */
int coord_cmd_search(int argc, char **argv);

/** pvpkit run: the size x flows matrix and the reports. @return the exit status. */
int coord_cmd_run(int argc, char **argv);

/** pvpkit report RESULTS: rebuild the reports. @return the exit status. */
int coord_cmd_report(int argc, char **argv);

#endif /* COORD_CMD_H */
