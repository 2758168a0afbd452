/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit-hop-doc: write doc/hop-members.rst, every driver's topology
 * members as a table, from the tables the topology loader checks and the
 * drivers decode (coord_driver::conf), and the answers the drivers read
 * back through tables their peers write with; with "control", write
 * doc/control-params.rst, the parameters of pvpkit-gen's and pvpkit-fwd's
 * control methods from the tables both ends decode and encode them with.
 * The unit tests hop-doc and control-doc fail when the committed files
 * are not what this writes, so the doc cannot drift from the code: change
 * a table, then run
 *
 *   build/drivers/pvpkit-hop-doc > doc/hop-members.rst
 *   build/drivers/pvpkit-hop-doc control > doc/control-params.rst
 */

#include <stdio.h>
#include <string.h>

#include "pvp_fwd_impair.h"
#include "pvp_gen_answer.h"

#include "coord_driver.h"
#include "registry.h"

/*
 * An RST section: @p title, underlined with @p rule, @p intro, then
 * @p members as a table. 0 or -1.
 */
static int
section(const char *title, char rule, const char *intro, const struct pvp_schema_member *members)
{
	size_t k;

	printf("\n%s\n", title);
	for (k = 0; k < strlen(title); k++)
		putchar(rule);
	printf("\n\n%s", intro);
	if (members == NULL || pvp_schema_doc(members, stdout) == 0)
		return 0;
	fprintf(stderr, "pvpkit-hop-doc: cannot write the table of %s\n", title);
	return -1;
}

/* doc/control-params.rst: one table per method that takes parameters. */
static int
control_doc(void)
{
	const struct pvp_gen_method_params *mp;
	char title[64];

	printf(".. SPDX-License-Identifier: BSD-3-Clause\n"
	       "   Copyright (c) 2026 The pvpkit authors\n"
	       "\n"
	       ".. Written by build/drivers/pvpkit-hop-doc control from the methods' tables\n"
	       "   (lib/stats); the unit test control-doc fails when this file differs.\n"
	       "   Do not edit. doc/control.rst includes it.\n");
	for (mp = pvp_gen_method_params; mp->method != NULL; mp++) {
		snprintf(title, sizeof(title), "``%s`` (pvpkit-gen)", mp->method);
		if (section(title, '~', "", mp->members) < 0)
			return 1;
	}
	if (section("``" PVP_FWD_M_IMPAIR_SET "`` (pvpkit-fwd)", '~', "", pvp_impair_conf_members) <
	    0)
		return 1;
	return fflush(stdout) == 0 ? 0 : 1;
}

int
main(int argc, char **argv)
{
	char title[64];
	unsigned int i;

	if (argc > 1 && strcmp(argv[1], "control") == 0)
		return control_doc();
	printf(".. SPDX-License-Identifier: BSD-3-Clause\n"
	       "   Copyright (c) 2026 The pvpkit authors\n"
	       "\n"
	       ".. Written by build/drivers/pvpkit-hop-doc from the drivers' tables;\n"
	       "   the unit test hop-doc fails when this file differs. Do not edit.\n"
	       "\n"
	       "Hop members by driver\n"
	       "=====================\n"
	       "\n"
	       "Every hop of a topology file has ``name`` and ``driver`` and may have\n"
	       "``ports`` and ``comment``; the members below are its driver's. The\n"
	       "topology loader checks each hop against its driver's table before any\n"
	       "hop is contacted (an unknown member, a wrong type or a value out of\n"
	       "range is an error with the file's line and column), and the driver\n"
	       "reads the hop through the same table, defaults included\n"
	       "(doc/design.rst, \"Writing a hop driver\").\n");
	for (i = 0; hop_drivers[i] != NULL; i++) {
		const struct coord_driver *d = hop_drivers[i];

		snprintf(title, sizeof(title), "``%s``", d->name);
		if (section(title, '-', d->conf != NULL ? "" : "No members of its own.\n",
			    d->conf) < 0)
			return 1;
	}
	/* The answers the drivers read, through the tables their peers write with. */
	printf("\nAnswers the drivers read\n"
	       "========================\n");
	if (section("``gen``: pvpkit-gen's ``stats.get`` answer, member ``traffic``", '-',
		    "pvpkit-gen writes it and the gen driver reads it through this one\n"
		    "table; members the table does not name are let be (a newer\n"
		    "pvpkit-gen may say more), a value of the wrong type is an error\n"
		    "naming the member (doc/control.rst).\n\n",
		    pvp_gen_traffic_members) < 0 ||
	    section("``fwd``: pvpkit-fwd's ``stats.get`` answer, member ``impair``", '-',
		    "With the impairment stage (doc/fwd.rst) pvpkit-fwd writes one item\n"
		    "per RX port; the fwd driver reads them through this table and names\n"
		    "the stage's drops ``impair_dropped`` instead of ``rx_sw_dropped``.\n\n",
		    pvp_impair_counter_members) < 0)
		return 1;
	return fflush(stdout) == 0 ? 0 : 1;
}
