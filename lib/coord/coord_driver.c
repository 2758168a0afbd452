/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The check of the hop-driver contract (coord_driver.h, "Roles"): a
 * driver's callbacks must match what its roles promise, so the core can
 * act on roles alone and a driver that would be silently skipped (a
 * source without traffic_stop, counters without snapshot) is refused
 * when a topology names it.
 */

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "coord_driver.h"

int
coord_driver_check(const struct coord_driver *d, char *err, size_t err_len)
{
	const bool source = coord_driver_has(d, COORD_ROLE_SOURCE);
	const bool vswitch = coord_driver_has(d, COORD_ROLE_VSWITCH);
	const bool counters = coord_driver_has(d, COORD_ROLE_COUNTERS);
	const bool passive = coord_driver_has(d, COORD_ROLE_PASSIVE);
	const char *n = d->name != NULL ? d->name : "(unnamed)";

	if (d->name == NULL || d->name[0] == '\0')
		return pvp_fail(err, err_len, -EINVAL, "driver without a name");
	if ((d->roles & ~(unsigned int)(COORD_ROLE_SOURCE | COORD_ROLE_VSWITCH |
					COORD_ROLE_COUNTERS | COORD_ROLE_PASSIVE)) != 0)
		return pvp_fail(err, err_len, -EINVAL, "driver %s: unknown role bits 0x%x", n,
				d->roles);
	if (counters != (d->snapshot != NULL))
		return pvp_fail(err, err_len, -EINVAL, "driver %s: %s", n,
				counters ? "has counters but no snapshot()"
					 : "has snapshot() but not the counters role");
	if (source && (d->traffic_start == NULL || d->traffic_stop == NULL))
		return pvp_fail(err, err_len, -EINVAL,
				"driver %s: a traffic source needs traffic_start() and "
				"traffic_stop()",
				n);
	if (!source && (d->traffic_start != NULL || d->traffic_stop != NULL ||
			d->traffic_result != NULL || d->oneway_set != NULL))
		return pvp_fail(err, err_len, -EINVAL,
				"driver %s: has traffic callbacks but is not a traffic source", n);
	if (vswitch && d->install_flows == NULL)
		return pvp_fail(err, err_len, -EINVAL, "driver %s: a vswitch needs install_flows()",
				n);
	if (!vswitch && !source && d->install_flows != NULL)
		return pvp_fail(err, err_len, -EINVAL,
				"driver %s: has install_flows() but is neither a vswitch nor a "
				"traffic source",
				n);
	if (passive && (source || vswitch || d->clear != NULL))
		return pvp_fail(err, err_len, -EINVAL,
				"driver %s: a passive hop is never cleared, configured or sent "
				"through",
				n);
	return 0;
}

static const struct {
	const char *name;
	enum coord_side side;
} coord_reasons[COORD_NB_REASON_IDS] = {
#define COORD_REASON_X_ENTRY(name, side, what) [COORD_REASON_##name] = {#name, COORD_SIDE_##side},
	COORD_FOREACH_REASON(COORD_REASON_X_ENTRY)
#undef COORD_REASON_X_ENTRY
};

/*
 * The hops' own reason names, each kept once so that a reason is an id
 * everywhere after the driver named it. Entries are written once, under
 * the lock, and never change; snapshots of several hops add to it
 * concurrently.
 */
static char own_reasons[COORD_MAX_OWN_REASONS][COORD_OWN_REASON_LEN];
static unsigned int nb_own_reasons;
static pthread_mutex_t own_reasons_lock = PTHREAD_MUTEX_INITIALIZER;

const char *
coord_reason_name(unsigned int id)
{
	unsigned int n;

	if (id < COORD_NB_REASON_IDS)
		return coord_reasons[id].name;
	pthread_mutex_lock(&own_reasons_lock);
	n = nb_own_reasons;
	pthread_mutex_unlock(&own_reasons_lock);
	return id - COORD_NB_REASON_IDS < n ? own_reasons[id - COORD_NB_REASON_IDS] : NULL;
}

/* The id of a hop's own reason @p name, added if new. @return it, or -ENOSPC. */
static int
own_reason_id(const char *name)
{
	unsigned int i;
	int id = -ENOSPC;

	pthread_mutex_lock(&own_reasons_lock);
	for (i = 0; i < nb_own_reasons; i++)
		if (strncmp(own_reasons[i], name, COORD_OWN_REASON_LEN - 1) == 0) {
			id = (int)(COORD_NB_REASON_IDS + i);
			break;
		}
	if (id < 0 && nb_own_reasons < COORD_MAX_OWN_REASONS) {
		snprintf(own_reasons[nb_own_reasons], COORD_OWN_REASON_LEN, "%s", name);
		id = (int)(COORD_NB_REASON_IDS + nb_own_reasons++);
	}
	pthread_mutex_unlock(&own_reasons_lock);
	return id;
}

enum coord_side
coord_reason_side(enum coord_reason_id id)
{
	return (unsigned int)id < COORD_NB_REASON_IDS ? coord_reasons[id].side : COORD_SIDE_BOTH;
}

static void
port_add(struct coord_port *p, unsigned int id, enum coord_side side, uint64_t value)
{
	struct coord_reason *r;

	if (p->nb_reasons >= COORD_MAX_REASONS)
		return;
	r = &p->reasons[p->nb_reasons++];
	r->id = id;
	r->side = side;
	r->value = value;
}

void
coord_port_add_reason(struct coord_port *p, enum coord_reason_id id, uint64_t value)
{
	if ((unsigned int)id < COORD_NB_REASON_IDS)
		port_add(p, id, coord_reasons[id].side, value);
}

void
coord_port_add_named_reason(struct coord_port *p, const char *name, enum coord_side side,
			    uint64_t value)
{
	unsigned int i;
	int id;

	for (i = 0; i < COORD_NB_REASON_IDS; i++)
		if (strcmp(coord_reasons[i].name, name) == 0) {
			port_add(p, i, coord_reasons[i].side, value);
			return;
		}
	id = own_reason_id(name);
	if (id >= 0)
		port_add(p, (unsigned int)id, side, value);
}

int
coord_traffic_check_rate(const struct coord_hop *hop, const struct coord_traffic *t, char *err,
			 size_t err_len)
{
	if (t->rate != NULL || (isfinite(t->rate_pps) && t->rate_pps > 0))
		return 0;
	return pvp_fail(err, err_len, -EINVAL,
			"hop %s: rate %g pps must be positive (line rate is asked for as "
			"\"max\")",
			hop->name, t->rate_pps);
}

/* Members of every hop, checked by the topology loader, not in coord_driver::conf. */
static const char *const coord_hop_common[] = {"name", "driver", "comment", NULL};

const struct pvp_schema_member coord_hop_port = {
	.name = "", .type = PVP_SCHEMA_STRING, .min = 1, .max = 63, .size = 64};

int
coord_hop_conf(const struct coord_hop *hop, const struct pvp_schema_member *members,
	       const json_t *conf, void *obj, char *err, size_t err_len)
{
	char why[384] = "";

	if (pvp_schema_decode(members, conf, coord_hop_common, obj, why, sizeof(why)) < 0)
		return pvp_fail(err, err_len, -EINVAL, "hop %s: %s", hop->name, why);
	return 0;
}

int
coord_hop_port_index(const struct coord_hop *hop, const char *name)
{
	unsigned int i;

	for (i = 0; i < hop->nb_ports; i++)
		if (strcmp(hop->ports[i], name) == 0)
			return (int)i;
	return -1;
}

int
coord_hop_ports(struct coord_hop *hop, const json_t *ports, int *bad, char *err, size_t err_len)
{
	const json_t *p;
	size_t j;

	hop->nb_ports = 0;
	if (bad != NULL)
		*bad = -1;
	if (ports != NULL && !json_is_array(ports))
		return pvp_fail(err, err_len, -EINVAL, "must be a list of names");
	if (json_array_size(ports) > COORD_MAX_PORTS)
		return pvp_fail(err, err_len, -EINVAL, "more than %d ports", COORD_MAX_PORTS);
	json_array_foreach(ports, j, p) {
		const char *pn = json_string_value(p);

		if (bad != NULL)
			*bad = (int)j;
		if (pn == NULL || pn[0] == '\0' || strlen(pn) >= sizeof(hop->ports[0]))
			return pvp_fail(err, err_len, -EINVAL,
					"a port name (1..63 characters) is required");
		if (coord_hop_port_index(hop, pn) >= 0)
			return pvp_fail(err, err_len, -EINVAL, "port \"%s\" listed twice", pn);
		snprintf(hop->ports[j], sizeof(hop->ports[j]), "%s", pn);
		hop->nb_ports = j + 1;
	}
	return 0;
}

const char *const coord_flow_type_names[] = {
#define COORD_FLOW_NAME(n) #n,
	COORD_FOREACH_FLOW_TYPE(COORD_FLOW_NAME)
#undef COORD_FLOW_NAME
		NULL,
};

int
coord_flow_type_parse(const char *s, enum coord_flow_type *type)
{
	unsigned int i;

	for (i = 0; s != NULL && i < COORD_FLOW_NB; i++)
		if (strcmp(s, coord_flow_type_names[i]) == 0) {
			*type = (enum coord_flow_type)i;
			return 0;
		}
	return -EINVAL;
}
