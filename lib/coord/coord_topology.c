/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Topology files (see doc/pvp.rst and /examples/topologies). The parser
 * checks everything a trial relies on before any hop is contacted: each
 * hop's driver exists, port names are unique, and every chain point names
 * an existing hop, one of its ports, and a direction. The first error
 * wins, jansson style.
 */

#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "coord.h"

static int __attribute__((format(printf, 4, 5)))
topo_fail(const char *source, char *err, size_t err_len, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, err_len, "%s: %s", source, msg);
	return -EINVAL;
}

static int
topo_find_hop(const struct coord_topology *t, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->nb_hops; i++)
		if (strcmp(t->hops[i].hop.name, name) == 0)
			return (int)i;
	return -1;
}

static int
topo_find_port(const struct coord_topo_hop *h, const char *name)
{
	unsigned int i;

	for (i = 0; i < h->nb_ports; i++)
		if (strcmp(h->ports[i], name) == 0)
			return (int)i;
	return -1;
}

static int
topo_parse_hop(struct coord_topology *t, json_t *o, size_t i, coord_driver_lookup_t lookup,
	       char *err, size_t err_len)
{
	struct coord_topo_hop *h = &t->hops[i];
	const char *name, *driver, *src = t->source;
	json_t *ports, *p;
	char why[160];
	size_t j;

	if (!json_is_object(o))
		return topo_fail(src, err, err_len, "hops[%zu]: must be an object", i);
	name = json_string_value(json_object_get(o, "name"));
	if (name == NULL || name[0] == '\0')
		return topo_fail(src, err, err_len,
				 "hops[%zu].name: a non-empty string is required", i);
	if (strlen(name) >= sizeof(h->hop.name))
		return topo_fail(src, err, err_len, "hops[%zu].name: longer than %zu characters", i,
				 sizeof(h->hop.name) - 1);
	if (topo_find_hop(t, name) >= 0)
		return topo_fail(src, err, err_len, "hops[%zu].name: hop \"%s\" defined twice", i,
				 name);
	driver = json_string_value(json_object_get(o, "driver"));
	if (driver == NULL)
		return topo_fail(src, err, err_len, "hops[%zu].driver: a string is required", i);
	h->hop.driver = lookup(driver);
	if (h->hop.driver == NULL)
		return topo_fail(src, err, err_len, "hops[%zu].driver: unknown driver \"%s\"", i,
				 driver);
	if (coord_driver_check(h->hop.driver, why, sizeof(why)) < 0)
		return topo_fail(src, err, err_len, "hops[%zu].driver: %s", i, why);
	ports = json_object_get(o, "ports");
	if (ports == NULL) {
		ports = json_array();
		json_object_set_new(o, "ports", ports);
	}
	if (!json_is_array(ports))
		return topo_fail(src, err, err_len, "hops[%zu].ports: must be a list of names", i);
	if (json_array_size(ports) > COORD_MAX_PORTS)
		return topo_fail(src, err, err_len, "hops[%zu].ports: more than %d ports", i,
				 COORD_MAX_PORTS);
	snprintf(h->hop.name, sizeof(h->hop.name), "%s", name);
	json_array_foreach(ports, j, p)
	{
		const char *pn = json_string_value(p);

		if (pn == NULL || pn[0] == '\0' || strlen(pn) >= sizeof(h->ports[0]))
			return topo_fail(
				src, err, err_len,
				"hops[%zu].ports[%zu]: a port name (1..63 characters) is required",
				i, j);
		if (topo_find_port(h, pn) >= 0)
			return topo_fail(src, err, err_len,
					 "hops[%zu].ports[%zu]: port \"%s\" listed twice", i, j,
					 pn);
		snprintf(h->ports[j], sizeof(h->ports[j]), "%s", pn);
		h->nb_ports = j + 1;
	}
	h->conf = o;
	t->nb_hops = i + 1;
	return 0;
}

static int
topo_parse_point(struct coord_topology *t, json_t *o, size_t c, size_t k, char *err, size_t err_len)
{
	struct coord_point *pt = &t->chains[c].points[k];
	const char *hop, *port, *dir, *label, *src = t->source;
	int hi, pi;

	if (!json_is_object(o))
		return topo_fail(src, err, err_len, "chains[%zu][%zu]: must be an object", c, k);
	hop = json_string_value(json_object_get(o, "hop"));
	if (hop == NULL)
		return topo_fail(src, err, err_len, "chains[%zu][%zu].hop: a hop name is required",
				 c, k);
	hi = topo_find_hop(t, hop);
	if (hi < 0)
		return topo_fail(src, err, err_len, "chains[%zu][%zu].hop: no hop named \"%s\"", c,
				 k, hop);
	if (!coord_driver_has(t->hops[hi].hop.driver, COORD_ROLE_COUNTERS))
		return topo_fail(
			src, err, err_len,
			"chains[%zu][%zu].hop: hop \"%s\" (driver %s) has no counters to measure",
			c, k, hop, t->hops[hi].hop.driver->name);
	port = json_string_value(json_object_get(o, "port"));
	if (port == NULL)
		return topo_fail(src, err, err_len,
				 "chains[%zu][%zu].port: a port name is required", c, k);
	pi = topo_find_port(&t->hops[hi], port);
	if (pi < 0)
		return topo_fail(src, err, err_len,
				 "chains[%zu][%zu].port: hop \"%s\" has no port \"%s\"", c, k, hop,
				 port);
	dir = json_string_value(json_object_get(o, "dir"));
	if (dir == NULL || (strcmp(dir, "rx") != 0 && strcmp(dir, "tx") != 0))
		return topo_fail(src, err, err_len,
				 "chains[%zu][%zu].dir: must be \"rx\" or \"tx\"", c, k);
	label = json_string_value(json_object_get(o, "label"));
	if (json_object_get(o, "label") != NULL && label == NULL)
		return topo_fail(src, err, err_len, "chains[%zu][%zu].label: must be a string", c,
				 k);
	pt->hop = (unsigned int)hi;
	pt->port = (unsigned int)pi;
	pt->tx = strcmp(dir, "tx") == 0;
	if (label != NULL)
		snprintf(pt->label, sizeof(pt->label), "%s", label);
	else
		snprintf(pt->label, sizeof(pt->label), "%s by %s %s", pt->tx ? "sent" : "received",
			 hop, port);
	return 0;
}

struct coord_topology *
coord_topology_parse(const char *text, const char *source, coord_driver_lookup_t lookup, char *err,
		     size_t err_len)
{
	struct coord_topology *t;
	json_t *hops, *chains, *v, *pts, *p;
	json_error_t je;
	const char *name;
	size_t i, k;
	char *tmp;

	t = calloc(1, sizeof(*t));
	if (t == NULL) {
		snprintf(err, err_len, "%s: out of memory", source);
		return NULL;
	}
	snprintf(t->source, sizeof(t->source), "%s", source);
	t->root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	if (t->root == NULL) {
		snprintf(err, err_len, "%s:%d:%d: %s", source, je.line, je.column, je.text);
		goto fail;
	}
	if (!json_is_object(t->root)) {
		topo_fail(source, err, err_len, "the topology must be a JSON object");
		goto fail;
	}
	name = json_string_value(json_object_get(t->root, "name"));
	if (name != NULL) {
		snprintf(t->name, sizeof(t->name), "%s", name);
	} else {
		tmp = strdup(source);
		if (tmp != NULL) {
			char *dot, *b = basename(tmp);

			dot = strrchr(b, '.');
			if (dot != NULL && dot != b)
				*dot = '\0';
			snprintf(t->name, sizeof(t->name), "%s", b);
			free(tmp);
		}
	}
	hops = json_object_get(t->root, "hops");
	if (!json_is_array(hops) || json_array_size(hops) == 0) {
		topo_fail(source, err, err_len, "hops: a non-empty list of hops is required");
		goto fail;
	}
	if (json_array_size(hops) > COORD_MAX_HOPS) {
		topo_fail(source, err, err_len, "hops: more than %d hops", COORD_MAX_HOPS);
		goto fail;
	}
	json_array_foreach(hops, i,
			   v) if (topo_parse_hop(t, v, i, lookup, err, err_len) < 0) goto fail;
	chains = json_object_get(t->root, "chains");
	if (!json_is_array(chains) || json_array_size(chains) == 0) {
		topo_fail(source, err, err_len, "chains: a non-empty list of chains is required");
		goto fail;
	}
	if (json_array_size(chains) > COORD_MAX_CHAINS) {
		topo_fail(source, err, err_len, "chains: more than %d chains", COORD_MAX_CHAINS);
		goto fail;
	}
	json_array_foreach(chains, i, pts)
	{
		if (!json_is_array(pts) || json_array_size(pts) < 2) {
			topo_fail(source, err, err_len,
				  "chains[%zu]: a list of at least 2 points is required", i);
			goto fail;
		}
		if (json_array_size(pts) > COORD_MAX_POINTS) {
			topo_fail(source, err, err_len, "chains[%zu]: more than %d points", i,
				  COORD_MAX_POINTS);
			goto fail;
		}
		json_array_foreach(pts, k,
				   p) if (topo_parse_point(t, p, i, k, err, err_len) < 0) goto fail;
		t->chains[i].nb_points = json_array_size(pts);
		t->nb_chains = i + 1;
	}
	return t;
fail:
	coord_topology_free(t);
	return NULL;
}

struct coord_topology *
coord_topology_load(const char *path, coord_driver_lookup_t lookup, char *err, size_t err_len)
{
	struct coord_topology *t;
	char *text = NULL;
	size_t len = 0;
	FILE *f, *m;
	char buf[4096];
	size_t n;

	f = fopen(path, "r");
	if (f == NULL) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return NULL;
	}
	m = open_memstream(&text, &len);
	if (m == NULL) {
		fclose(f);
		snprintf(err, err_len, "%s: out of memory", path);
		return NULL;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, m);
	fclose(f);
	fclose(m);
	t = coord_topology_parse(text, path, lookup, err, err_len);
	free(text);
	return t;
}

int
coord_topology_open(struct coord_topology *t, char *err, size_t err_len)
{
	unsigned int i;
	int ret;

	for (i = 0; i < t->nb_hops; i++) {
		struct coord_topo_hop *h = &t->hops[i];

		if (h->opened)
			continue;
		/* A driver without open() has nothing to connect: open at once. */
		if (h->hop.driver->open != NULL) {
			ret = h->hop.driver->open(&h->hop, h->conf, err, err_len);
			if (ret < 0)
				return ret;
		}
		h->opened = true;
	}
	return 0;
}

void
coord_topology_free(struct coord_topology *t)
{
	unsigned int i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nb_hops; i++) {
		struct coord_topo_hop *h = &t->hops[i];

		if (h->opened && h->hop.driver->close != NULL)
			h->hop.driver->close(&h->hop);
	}
	json_decref(t->root);
	free(t);
}

int
coord_install_flows(struct coord_topology *t, const char *type, unsigned int flows)
{
	char err[512];
	unsigned int i;
	int ret;

	for (i = 0; i < t->nb_hops; i++) {
		struct coord_topo_hop *h = &t->hops[i];

		/* Vswitches install the rules, sources remember the type. */
		if (!h->opened ||
		    (h->hop.driver->roles & (COORD_ROLE_VSWITCH | COORD_ROLE_SOURCE)) == 0 ||
		    h->hop.driver->install_flows == NULL)
			continue;
		ret = h->hop.driver->install_flows(&h->hop, type, flows, err, sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "pvpkit: %s\n", err);
			return ret;
		}
	}
	return 0;
}
