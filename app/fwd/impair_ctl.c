/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The impairment stage (impair.h) as the user sees it: --impair parsed
 * with the settings' schema, impair.set handing settings to the lcores,
 * and the counters of stats.get, impair.get and the totals at exit.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fwd.h"

/* Baseline of the counters taken by stats.clear, by RX port (control thread). */
static struct pvp_impair_counters impair_zero[FWD_MAX_PORTS];

int
fwd_impair_parse(const char *spec, struct pvp_impair_conf *out, char *err, size_t err_len)
{
	char buf[1024], e[256] = "", *tok, *save = NULL;
	const struct pvp_schema_member *m;
	json_t *o, *v;
	size_t len;
	int ret;

	if (strlen(spec) >= sizeof(buf))
		return pvp_fail(err, err_len, -EINVAL, "--impair: longer than %zu characters",
				sizeof(buf) - 1);
	o = json_object();
	if (o == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "--impair: out of memory");
	strcpy(buf, spec);
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		bool percent = false;

		if (eq == NULL) {
			pvp_err(err, err_len, "--impair %s: expected KEY=VALUE", tok);
			goto bad;
		}
		*eq = '\0';
		for (m = pvp_impair_conf_members; m->name != NULL; m++)
			if (strcmp(m->name, tok) == 0)
				break;
		if (m->name == NULL) {
			pvp_err(err, err_len, "--impair: unknown key \"%s\" (see --help)", tok);
			goto bad;
		}
		len = strlen(eq + 1);
		/* A probability may be written as a percentage: "0.1%". */
		if (m->type == PVP_SCHEMA_DOUBLE && len > 1 && eq[len] == '%') {
			eq[len] = '\0';
			percent = true;
		}
		v = json_loads(eq + 1, JSON_DECODE_ANY, NULL);
		if (v == NULL || !json_is_number(v)) {
			json_decref(v);
			pvp_err(err, err_len, "--impair %s=%s: not a number", tok, eq + 1);
			goto bad;
		}
		json_object_set_new(
			o, tok, percent ? json_real(json_number_value(v) / 100.0) : json_incref(v));
		json_decref(v);
	}
	ret = pvp_schema_decode(pvp_impair_conf_members, o, NULL, out, e, sizeof(e));
	json_decref(o);
	if (ret < 0)
		pvp_err(err, err_len, "--impair %s", e);
	return ret;
bad:
	json_decref(o);
	return -EINVAL;
}

int
fwd_impair_set(struct fwd_app *app, const struct pvp_impair_conf *c, char *err, size_t err_len)
{
	uint16_t s;

	if (c->port >= (int32_t)app->nb_ports)
		return pvp_fail(err, err_len, -EINVAL, "port %d: the forwarder has %u ports",
				c->port, app->nb_ports);
	for (s = 0; s < app->nb_streams; s++) {
		struct fwd_impair *im = app->streams[s]->imp;
		uint32_t seq;

		if (c->port >= 0 && app->streams[s]->rx_idx != c->port)
			continue;
		/* Odd while the pending settings are written (impair.h). */
		seq = im->seq;
		__atomic_store_n(&im->seq, seq + 1, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_RELEASE);
		im->pending = *c;
		im->cur = *c;
		__atomic_store_n(&im->seq, seq + 2, __ATOMIC_RELEASE);
	}
	return 0;
}

/* Counter @p m of @p c (read or written): every member but "port" is a uint64_t. */
static uint64_t *
impair_ctr(const struct pvp_impair_counters *c, const struct pvp_schema_member *m)
{
	return (uint64_t *)((uintptr_t)c + m->offset);
}

/* The counters of RX port @p port: its streams summed, less @p zero (NULL: none). */
static void
impair_port_counters(const struct fwd_app *app, uint16_t port,
		     const struct pvp_impair_counters *zero, struct pvp_impair_counters *c)
{
	const struct pvp_schema_member *m;
	uint16_t s;

	memset(c, 0, sizeof(*c));
	c->port = port;
	for (s = 0; s < app->nb_streams; s++) {
		const struct fwd_impair *im = app->streams[s]->imp;

		if (im == NULL || app->streams[s]->rx_idx != port)
			continue;
		for (m = &pvp_impair_counter_members[1]; m->name != NULL; m++)
			*impair_ctr(c, m) +=
				__atomic_load_n(impair_ctr(&im->c, m), __ATOMIC_RELAXED);
	}
	/* A counter below its baseline cannot happen; never wrap if it did. */
	for (m = &pvp_impair_counter_members[1]; zero != NULL && m->name != NULL; m++)
		*impair_ctr(c, m) -= RTE_MIN(*impair_ctr(zero, m), *impair_ctr(c, m));
}

void
fwd_impair_clear(const struct fwd_app *app)
{
	uint16_t p;

	/* The new baseline is what the streams have counted so far. */
	for (p = 0; p < app->nb_ports; p++) {
		impair_port_counters(app, p, NULL, &impair_zero[p]);
		/* "held" counts the packets held now: it has no baseline. */
		impair_zero[p].held = 0;
	}
}

/* The settings last set for RX port @p port (its first stream's). */
static const struct pvp_impair_conf *
impair_port_conf(const struct fwd_app *app, uint16_t port)
{
	uint16_t s;

	for (s = 0; s < app->nb_streams; s++)
		if (app->streams[s]->rx_idx == port && app->streams[s]->imp != NULL)
			return &app->streams[s]->imp->cur;
	return &app->conf->impair[port];
}

json_t *
fwd_impair_json(const struct fwd_app *app, bool settings)
{
	struct pvp_impair_counters c;
	json_t *list = json_array(), *o;
	uint16_t p;

	for (p = 0; list != NULL && p < app->nb_ports; p++) {
		struct pvp_impair_conf conf = *impair_port_conf(app, p);

		conf.port = p;
		impair_port_counters(app, p, &impair_zero[p], &c);
		o = pvp_schema_encode(pvp_impair_counter_members, &c);
		if (settings && o != NULL) {
			json_t *counters = o;

			o = pvp_schema_encode(pvp_impair_conf_members, &conf);
			if (json_object_set_new(o, "counters", counters) != 0) {
				json_decref(o);
				o = NULL;
			}
		}
		if (json_array_append_new(list, o) != 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

void
fwd_impair_print(const struct fwd_app *app)
{
	const struct pvp_schema_member *m;
	struct pvp_impair_counters c;
	uint16_t p;

	for (p = 0; p < app->nb_ports; p++) {
		impair_port_counters(app, p, &impair_zero[p], &c);
		printf("total impair port %u:", p);
		for (m = &pvp_impair_counter_members[1]; m->name != NULL; m++)
			printf(" %s=%" PRIu64, m->name, *impair_ctr(&c, m));
		printf("\n");
	}
}
