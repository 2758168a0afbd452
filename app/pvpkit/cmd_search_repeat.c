/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What pvpkit search | run adds for repeated searches, presets and the
 * generator-limited rule: the tags on trial and search records, and the
 * line that sums up the searches of one point.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <stdint.h>

#include <jansson.h>

#include "pvp_util.h"

#include "coord.h"
#include "coord_record.h"
#include "report.h"
#include "cmd_search.h"
#include "pvp_search.h"

void
cmd_repeats_show(const struct cmd_repeats *r, const char *group)
{
	double v[CMD_SEARCH_MAX_REPEAT], d[CMD_SEARCH_MAX_REPEAT];
	struct report_stats st, ds;
	char a[32], b[32], c[32], dl[32], e[32], name[32];
	unsigned int g, i, n;
	int w = 8;

	/* One column for the names, as the search's summary (pdr+p99-100us). */
	for (g = 0; g < r->p->nb_goals; g++)
		if ((int)strlen(report_goal_label(r->p, g, name, sizeof(name))) > w)
			w = (int)strlen(name);
	printf("== repeats %s: %u searches\n", group, r->n);
	for (g = 0; g < r->p->nb_goals; g++) {
		report_goal_label(r->p, g, name, sizeof(name));
		for (i = n = 0; i < r->n; i++) {
			if (!r->goal[i][g].has_lower)
				continue;
			v[n] = r->goal[i][g].lower_bound;
			d[n++] = r->goal[i][g].conditional_throughput;
		}
		report_stats(v, n, &st);
		report_stats(d, n, &ds);
		if (n == 0) {
			printf("   %-*s no lower bound in any search\n", w, name);
			continue;
		}
		if (st.has_spread)
			snprintf(e, sizeof(e), "spread %.1f %%", 100 * st.spread);
		else
			snprintf(e, sizeof(e), "spread needs 3 searches");
		printf("   %-*s median %s pps (min %s, max %s, %s) over %u; delivered %s pps\n", w,
		       name, pvp_fmt_count((int64_t)st.median, a, sizeof(a)),
		       pvp_fmt_count((int64_t)st.min, b, sizeof(b)),
		       pvp_fmt_count((int64_t)st.max, c, sizeof(c)), e, n,
		       pvp_fmt_count((int64_t)ds.median, dl, sizeof(dl)));
	}
	if (r->remeasured > 0)
		printf("   generator-limited trials measured again: %u, sent cleanly then: %u\n",
		       r->remeasured, r->recovered);
	/* What the searches' own summaries said, so the figures above are not
	 * taken for clean ones. */
	if (r->checks_failed > 0)
		printf("   CHECK FAILED in %u trial(s) of these searches\n", r->checks_failed);
	if (r->burst_warned > 0)
		printf("   warning: %u search(es) had a bound set by lossy trials with bursts over "
		       "what the path took without loss\n",
		       r->burst_warned);
	fflush(stdout);
}

int
cmd_search_run_record(struct cmd_search_args *a, struct coord_topology *t)
{
	struct coord_run_record *rr;
	json_t *rec, *hops, *ctx;
	struct utsname u;
	unsigned int i;
	int ret;

	rr = calloc(1, sizeof(*rr));
	if (rr == NULL)
		return 0;
	pvp_utc_now(rr->started, sizeof(rr->started));
	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	rr->nb_goals = a->p.nb_goals;
	for (i = 0; i < a->p.nb_goals; i++)
		report_goal_asked(&a->p, i, &rr->goals[i]);
	/* Every hop's context once: for OVS its versions, other_config and PMDs. */
	hops = json_object();
	for (i = 0; i < t->nb_hops; i++) {
		const struct coord_topo_hop *h = &t->hops[i];

		ctx = h->opened && h->hop.driver->context != NULL
			      ? h->hop.driver->context((struct coord_hop *)(uintptr_t)&h->hop)
			      : NULL;
		json_object_set_new(
			hops, h->hop.name,
			json_pack("{s:s,s:o*}", "driver", h->hop.driver->name, "context", ctx));
	}
	/* Written through the record's table (coord_record.c), as it is checked. */
	rr->schema = COORD_RECORD_SCHEMA;
	rr->has_schema = true;
	rr->command = a->run ? 1 : 0;
	snprintf(rr->pvpkit_version, sizeof(rr->pvpkit_version), "%s", PVP_VERSION);
	snprintf(rr->topology, sizeof(rr->topology), "%s", t->name);
	rr->has_dut = a->dut != NULL;
	snprintf(rr->dut, sizeof(rr->dut), "%s", a->dut != NULL ? a->dut : "");
	rr->has_host = true;
	pvp_cpu_model(rr->host.cpu_model, sizeof(rr->host.cpu_model));
	rr->host.cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(rr->host.kernel, sizeof(rr->host.kernel), "%s", u.release);
	snprintf(rr->host.machine, sizeof(rr->host.machine), "%s", u.machine);
	rr->hops = hops;
	rr->has_flow_type = a->o.conf.traffic.flow_type != NULL;
	snprintf(rr->flow_type, sizeof(rr->flow_type), "%s",
		 a->o.conf.traffic.flow_type != NULL ? a->o.conf.traffic.flow_type : "");
	rec = pvp_schema_encode(coord_run_record_members, rr);
	json_decref(hops);
	free(rr);
	if (rec == NULL)
		return 0;
	ret = cli_sink_keep(&a->sink, rec, "run record");
	json_decref(rec);
	return ret < 0 ? 1 : 0;
}
