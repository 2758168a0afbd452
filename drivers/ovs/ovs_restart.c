/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * A restarted ovs-vswitchd. Its Interface counters start again from 0 and
 * its OpenFlow tables start empty (they are not kept in OVSDB), so a
 * trial across a restart subtracts counters of two different daemons
 * (negative losses that cancel into a small figure) and the trial after
 * it runs on whatever rules, or none, the new daemon has. The hop keeps
 * what its last snapshot saw: every port's age (OpenFlow port stats
 * "duration", which a new daemon restarts from 0 when it creates the
 * port) and its counters; a port younger than its old age plus the time
 * since (or, where an age is unknown, a counter lower than before) ends
 * the trial with a line that says so. Rules pvpkit put in (install_flows)
 * are put back before the next trial; others it cannot know, so every
 * later trial fails until the user restores them.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ovs_private.h"

/*
 * How much younger than expected a port must look to count as re-created.
 * The time between two readings is taken from the end of the first to the
 * start of the second (an age is only known to be read between a request
 * and its reply, which can be a second apart on a loaded machine), so a
 * port of the same daemon never looks younger; ages are exact to the ms,
 * a restart takes seconds.
 */
#define OVS_BORN_SLACK_S 0.5

/* The first counter of @p now below @p last, or NULL. */
static const char *
ovs_counter_back(const struct coord_port *last, const struct coord_port *now, uint64_t *was,
		 uint64_t *is)
{
	unsigned int i;

	for (i = 0; i < PVP_STATS_NB_COUNTERS; i++)
		if (now->c[i] < last->c[i]) {
			*was = last->c[i];
			*is = now->c[i];
			return pvp_stats_counter_names[i];
		}
	return NULL;
}

/* What became of the rules, for the restart message. */
static void
ovs_rules_fate(const struct ovs_hop *h, char *buf, size_t len)
{
	if (h->rules_type[0] != '\0')
		snprintf(buf, len,
			 "the %s rules pvpkit installed on %s are gone (put back before the "
			 "next trial)",
			 h->rules_type, h->bridge);
	else
		snprintf(buf, len,
			 "the OpenFlow rules on %s are gone and pvpkit did not install them "
			 "(restore them, e.g. pvpkit testbed down and up, or use --flow-type)",
			 h->bridge[0] != '\0' ? h->bridge : "the bridge");
}

int
ovs_restart_check(struct ovs_hop *h, const struct coord_snap *snap, char *err, size_t err_len)
{
	/*
	 * The local time between the end of the last reading and the start
	 * of this one: every port of the same daemon aged at least that
	 * much. Both ends are this host's clock, so the difference is exact
	 * whatever the clock's origin; the ports' ages are the remote
	 * host's and are never subtracted from it (a port may be older than
	 * this host's uptime).
	 */
	double gap = (double)(int64_t)(snap->t_ns - h->ident.t_end_ns) / 1e9;
	char why[192] = "", fate[224];
	unsigned int i;

	for (i = 0; i < snap->nb_ports && i < COORD_MAX_PORTS; i++) {
		bool known = h->age_known[i] && h->ident.age_known[i];
		const char *ctr;
		uint64_t was, is;

		/*
		 * A restart: the port is younger than its old age plus the
		 * time since, so it was born after the old port. Counters that
		 * went back on a port of unchanged age are not one: OVS resets
		 * a vhost port's counters when its peer goes away (a guest
		 * killed), and that peer's own hop says so. Only where an age
		 * is unknown ("stats": "ovsdb") are they the sign of a restart.
		 */
		if (h->ident.valid && why[0] == '\0') {
			if (known && h->ident.age[i] + gap - h->duration[i] > OVS_BORN_SLACK_S)
				snprintf(why, sizeof(why),
					 "ovs-vswitchd restarted (port %s was created again %.1f s "
					 "ago)",
					 h->hop->ports[i], h->duration[i]);
			else if (!known &&
				 (ctr = ovs_counter_back(&h->ident.last[i], &snap->port[i], &was,
							 &is)) != NULL)
				snprintf(
					why, sizeof(why),
					"ovs-vswitchd restarted or port %s was reset (%s went back "
					"from %llu to %llu)",
					h->hop->ports[i], ctr, (unsigned long long)was,
					(unsigned long long)is);
		}
		h->ident.age_known[i] = h->age_known[i];
		h->ident.age[i] = h->duration[i];
		h->ident.last[i] = snap->port[i];
	}
	h->ident.t_end_ns = h->read_end_ns;
	h->ident.valid = true;
	if (why[0] != '\0') {
		h->restarted = true;
		ovs_rules_fate(h, fate, sizeof(fate));
		return pvp_fail(
			err, err_len, -ESTALE,
			"%s: counters across a restart cannot be compared, trial not valid; "
			"%s",
			why, fate);
	}
	if (h->restarted && h->rules_type[0] == '\0') {
		/* Nothing put the rules back: every trial on this bridge is
		 * wrong until the user does. */
		ovs_rules_fate(h, fate, sizeof(fate));
		return pvp_fail(err, err_len, -ESTALE, "ovs-vswitchd restarted earlier: %s", fate);
	}
	if (h->restarted && h->recover_failed)
		return pvp_fail(
			err, err_len, -ESTALE,
			"ovs-vswitchd restarted earlier and pvpkit could not install its %s "
			"rules on %s again",
			h->rules_type, h->bridge);
	return 0;
}

int
ovs_restart_recover(struct coord_hop *hop, char *err, size_t err_len)
{
	struct ovs_hop *h = hop->priv;
	char type[sizeof(h->rules_type)];
	int rc;

	h->note[0] = '\0';
	if (!h->restarted || h->rules_type[0] == '\0')
		return 0;
	snprintf(type, sizeof(type), "%s", h->rules_type);
	rc = ovs_install_flows(hop, type, h->rules_flows, err, err_len);
	if (rc < 0) {
		/* The trial's snapshots fail on it (ovs_restart_check). */
		h->recover_failed = true;
		return rc;
	}
	snprintf(h->note, sizeof(h->note),
		 "ovs-vswitchd restarted before this trial; pvpkit installed its %s rules for %u "
		 "flows again",
		 type, h->rules_flows);
	return 0;
}
