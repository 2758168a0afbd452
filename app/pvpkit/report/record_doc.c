/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit-record-doc: write doc/record-members.rst, the members of the
 * results file's "trial", "search", "run" and soak records, from the tables the
 * coordinator writes them with and the report reads them through
 * (lib/coord/coord_record.c). The unit test record-doc fails when the
 * committed file is not what this writes: change a table, then run
 *
 *   build/app/pvpkit/report/pvpkit-record-doc > doc/record-members.rst
 */

#include <stdio.h>

#include "coord_record.h"

/*
 * A section: its title underlined, then @p text, its table. A record's
 * (@p suffix " records") says what writes it, @p text being the writer.
 */
static int
doc_section(const char *title, const char *suffix, const char *text,
	    const struct pvp_schema_member *members)
{
	int n;

	n = printf("\n%s%s\n", title, suffix);
	while (--n > 1)
		putchar('-');
	if (suffix[0] != '\0')
		printf("\n\nWritten by %s. A member left out reads as its default\n"
		       "(``-``: zero, false, empty or null).\n\n",
		       text);
	else
		printf("\n\n%s\n\n", text);
	return pvp_schema_doc(members, stdout);
}

int
main(void)
{
	printf(".. SPDX-License-Identifier: BSD-3-Clause\n"
	       "   Copyright (c) 2026 The pvpkit authors\n"
	       "\n"
	       ".. Written by build/app/pvpkit/report/pvpkit-record-doc from the records'\n"
	       "   tables; the unit test record-doc fails when this file differs. Do not edit.\n"
	       "\n"
	       "Results records by type\n"
	       "=======================\n"
	       "\n"
	       "The coordinator writes the ``trial``, ``search``, ``run`` and soak records of a\n"
	       "results file through these tables and ``pvpkit report`` reads them\n"
	       "through the same ones (lib/coord/coord_record.c, doc/reports.rst).\n"
	       "A reader lets members it does not know be, so records can grow; a\n"
	       "member of the wrong type or out of range makes its line a warning\n"
	       "naming the line and the member, and the line is skipped. ``schema``\n"
	       "is %d; a record without one is version 1. ``NAME`` in a type is the\n"
	       "user's (a hop name, a check name).\n",
	       COORD_RECORD_SCHEMA);
	if (doc_section("``\"trial\"``", " records",
			"``coord_trial_to_json()``; ``search`` is added by ``pvpkit\n"
			"search`` and ``latency`` by the latency step",
			coord_trial_record_members) < 0 ||
	    doc_section("``\"search\"``", " records",
			"``report_search_record()``; ``id`` and the members after\n"
			"it are added by ``pvpkit search``",
			coord_search_record_members) < 0 ||
	    doc_section("``\"run\"``", " records",
			"``pvpkit search`` and ``pvpkit run``, first, before any\n"
			"trial",
			coord_run_record_members) < 0 ||
	    doc_section("``\"soak_interval\"`` and ``\"soak\"``", " records",
			"``pvpkit soak``: one reading every ``--interval``, then the\n"
			"totals",
			coord_soak_record_members) < 0 ||
	    doc_section("A trial's ``oneway``", "",
			"Written by ``coord_oneway_prepare()`` when a guest stamps; read\n"
			"by ``pvpkit report`` (doc/reports.rst, \"One-way latency\").",
			coord_record_oneway_members) < 0 ||
	    doc_section("One-way latency in a trial's ``streams[]``", "",
			"Written by pvpkit-gen (``oneway_ns``, doc/gen.rst) where its clock\n"
			"is the guest's; the other members of a stream are pvpkit-gen's own.",
			coord_record_stream_members) < 0 ||
	    doc_section("The summary (``summary.json``)", "",
			"Written by ``pvpkit report`` (doc/reports.rst, \"Summary JSON\"); read\n"
			"back by ``pvpkit compare`` from earlier runs, which refuses a member of\n"
			"the wrong type with the file, line, column and the member's path.",
			coord_summary_members) < 0 ||
	    doc_section(
		    "A goal of a summary's ``points[].goals``", "",
		    "Per goal name (``ndr``, ``pdr``, ``pdr0.5%``...): its figures at the point.",
		    coord_summary_goal_members) < 0) {
		fprintf(stderr, "pvpkit-record-doc: cannot write a table\n");
		return 1;
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
