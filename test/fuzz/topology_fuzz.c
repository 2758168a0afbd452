/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: topology files (pvpkit trial/search --topology) and the
 * hop configurations in them, as far as they go without a live hop. The
 * input is the file's text: coord_topology_parse() with the real driver
 * table, then every hop's driver open() on its object (gen, fwd, ovs,
 * testpmd, wire), each of which checks its members before it connects.
 * The sandbox (fuzz_sandbox.c) refuses every connection, so each open
 * ends at "unreachable" at the latest, having parsed everything.
 *
 * A topology that parses must be what coord.h promises: hops, ports,
 * chains and points within their limits, every point naming an existing
 * hop and port of that hop. Every failure is one line.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "coord.h"
#include "coord_driver.h"
#include "registry.h"

#include "fuzz.h"
#include "fuzz_sandbox.h"

static void
check_topology(const struct coord_topology *t)
{
	unsigned int i, j, k;

	FUZZ_CHECK(t->nb_hops >= 1 && t->nb_hops <= COORD_MAX_HOPS, "%u hops", t->nb_hops);
	FUZZ_CHECK(t->nb_chains >= 1 && t->nb_chains <= COORD_MAX_CHAINS, "%u chains",
		   t->nb_chains);
	FUZZ_CHECK(strnlen(t->name, sizeof(t->name)) < sizeof(t->name), "name not terminated");
	for (i = 0; i < t->nb_hops; i++) {
		const struct coord_topo_hop *h = &t->hops[i];

		FUZZ_CHECK(h->hop.driver != NULL && h->conf != NULL, "hop %u: no driver", i);
		FUZZ_CHECK(h->hop.name[0] != '\0', "hop %u: no name", i);
		FUZZ_CHECK(h->hop.nb_ports <= COORD_MAX_PORTS, "hop %u: %u ports", i,
			   h->hop.nb_ports);
		for (j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(t->hops[j].hop.name, h->hop.name) != 0,
				   "hops %u and %u both named %s", j, i, h->hop.name);
		for (j = 0; j < h->hop.nb_ports; j++)
			for (k = 0; k < j; k++)
				FUZZ_CHECK(strcmp(h->hop.ports[j], h->hop.ports[k]) != 0,
					   "hop %u: port %s twice", i, h->hop.ports[j]);
	}
	for (i = 0; i < t->nb_chains; i++) {
		const struct coord_chain *c = &t->chains[i];

		FUZZ_CHECK(c->nb_points >= 2 && c->nb_points <= COORD_MAX_POINTS,
			   "chain %u: %u points", i, c->nb_points);
		for (j = 0; j < c->nb_points; j++) {
			const struct coord_point *p = &c->points[j];

			FUZZ_CHECK(p->hop < t->nb_hops, "chain %u point %u: hop %u", i, j, p->hop);
			FUZZ_CHECK(p->port < t->hops[p->hop].hop.nb_ports,
				   "chain %u point %u: port %u of %u", i, j, p->port,
				   t->hops[p->hop].hop.nb_ports);
			FUZZ_CHECK(t->hops[p->hop].hop.driver->snapshot != NULL,
				   "chain %u point %u: hop without counters", i, j);
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct coord_topology *t;
	char err[512];
	unsigned int i;
	char *text;

	text = fuzz_strndup(data, size);
	memset(err, 0, sizeof(err));
	t = coord_topology_parse(text, "fuzz.json", hop_driver_find, err, sizeof(err));
	if (t == NULL) {
		fuzz_check_message(err, sizeof(err));
		free(text);
		return 0;
	}
	check_topology(t);
	for (i = 0; i < t->nb_hops; i++) {
		struct coord_topo_hop *h = &t->hops[i];
		int rc;

		if (h->hop.driver->open == NULL)
			continue;
		memset(err, 0, sizeof(err));
		rc = h->hop.driver->open(&h->hop, h->conf, err, sizeof(err));
		if (rc == 0) {
			h->opened = true; /* closed by coord_topology_free() */
			continue;
		}
		FUZZ_CHECK(rc < 0, "hop %u: open returned %d", i, rc);
		fuzz_check_message(err, sizeof(err));
	}
	coord_topology_free(t);
	free(text);
	return 0;
}
