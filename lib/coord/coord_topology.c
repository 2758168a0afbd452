/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Topology files (see doc/pvp.rst and /examples/topologies). The parser
 * checks everything a trial relies on before any hop is contacted: each
 * hop's driver exists, its members are those its driver declares, with
 * the right types and ranges (coord_driver::conf), port names are unique,
 * and every chain point names an existing hop, one of its ports, and a
 * direction. Errors give file:line:col of the value; the first one wins,
 * jansson style.
 */

#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_util.h"

#include "coord.h"

/* Largest topology file read. */
#define TOPO_MAX_BYTES (4 * 1024 * 1024)

/* What the parse of one file carries around. */
struct topo_ctx {
	struct coord_topology *t;     /* being filled */
	const char *text;	      /* the file's text, for positions */
	coord_driver_lookup_t lookup; /* driver by name */
	char *err;		      /* first error wins */
	size_t err_len;		      /* size of err */
};

/* "source:line:col: path: message" at the value @p path; -EINVAL. */
static int __attribute__((format(printf, 3, 4)))
topo_fail(struct topo_ctx *c, const char *path, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pvp_json_path_err(c->err, c->err_len, c->t->source, c->text, path, "%s", msg);
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

/* Members every hop and every chain point may have, whatever the driver. */
static const char *const topo_hop_common[] = {"name", "driver", "ports", "comment", NULL};
static const char *const topo_point_members[] = {"hop", "port", "dir", "label", "comment", NULL};
static const char *const topo_root_members[] = {"name", "comment", "hops", "chains", NULL};
/* QEMU guests (testbed up --vm): with KVM, or emulated (TCG). */
static const char *const topo_vm_kinds[] = {"vm-kvm", "vm-tcg", NULL};
/* What `pvpkit testbed up` says of the machine it set up (its cores, its guests). */
static const struct pvp_schema_member topo_testbed_members[] = {
	{.name = "shared_cores", .type = PVP_SCHEMA_BOOL},
	{.name = "vm", .type = PVP_SCHEMA_STRING, .max = 16, .values = topo_vm_kinds},
	{.name = "cpus", .type = PVP_SCHEMA_STRING, .max = 1024},
	{.name = "pollers", .type = PVP_SCHEMA_UINT, .max = 1024},
	{.name = "pmds", .type = PVP_SCHEMA_UINT, .max = 1024},
	{.name = NULL},
};
static const struct pvp_schema_member topo_root_conf[] = {
	{.name = "testbed", .type = PVP_SCHEMA_OBJECT, .members = topo_testbed_members},
	/* Several sources start together this long after they are asked to. */
	{.name = "start_lead_ms", .type = PVP_SCHEMA_UINT, .min = 1, .max = 30000},
	{.name = NULL},
};

/* The members of object @p o: only @p common and those in @p members. */
static int
topo_check_object(struct topo_ctx *c, const json_t *o, const char *path, const char *const *common,
		  const struct pvp_schema_member *members)
{
	const struct pvp_schema_src src = {.source = c->t->source, .text = c->text, .skip = common};

	return pvp_schema_check(members, o, path, &src, c->err, c->err_len);
}

static int
topo_parse_hop(struct topo_ctx *c, json_t *o, size_t i)
{
	struct coord_topology *t = c->t;
	struct coord_topo_hop *h = &t->hops[i];
	const char *name, *driver;
	char why[160] = "", path[64], sub[96];
	int bad;

	snprintf(path, sizeof(path), "hops[%zu]", i);
	if (!json_is_object(o))
		return topo_fail(c, path, "must be an object");
	snprintf(sub, sizeof(sub), "%s.name", path);
	name = json_string_value(json_object_get(o, "name"));
	if (name == NULL || name[0] == '\0')
		return topo_fail(c, sub, "a non-empty string is required");
	if (strlen(name) >= sizeof(h->hop.name))
		return topo_fail(c, sub, "longer than %zu characters", sizeof(h->hop.name) - 1);
	if (topo_find_hop(t, name) >= 0)
		return topo_fail(c, sub, "hop \"%s\" defined twice", name);
	snprintf(sub, sizeof(sub), "%s.driver", path);
	driver = json_string_value(json_object_get(o, "driver"));
	if (driver == NULL)
		return topo_fail(c, sub, "a string is required");
	h->hop.driver = c->lookup(driver);
	if (h->hop.driver == NULL)
		return topo_fail(c, sub, "unknown driver \"%s\"", driver);
	if (coord_driver_check(h->hop.driver, why, sizeof(why)) < 0)
		return topo_fail(c, sub, "%s", why);
	/* The driver's members: every hop's, before any hop is opened. */
	if (h->hop.driver->conf != NULL &&
	    topo_check_object(c, o, path, topo_hop_common, h->hop.driver->conf) < 0)
		return -EINVAL;
	/* A hop without ports (a wire) has none. Its driver gets them here,
	 * decoded once, and the rest of its object through its own table. */
	if (coord_hop_ports(&h->hop, json_object_get(o, "ports"), &bad, why, sizeof(why)) < 0) {
		int n = snprintf(sub, sizeof(sub), "%s.ports", path);

		if (bad >= 0)
			snprintf(sub + n, sizeof(sub) - (size_t)n, "[%d]", bad);
		return topo_fail(c, sub, "%s", why);
	}
	snprintf(h->hop.name, sizeof(h->hop.name), "%s", name);
	h->conf = o;
	t->nb_hops = i + 1;
	return 0;
}

static int
topo_parse_point(struct topo_ctx *c, json_t *o, size_t ci, size_t k)
{
	struct coord_topology *t = c->t;
	struct coord_point *pt = &t->chains[ci].points[k];
	const char *hop, *port, *dir, *label;
	char path[64], sub[96];
	int hi, pi;

	snprintf(path, sizeof(path), "chains[%zu][%zu]", ci, k);
	if (topo_check_object(c, o, path, topo_point_members, NULL) < 0)
		return -EINVAL;
	snprintf(sub, sizeof(sub), "%s.hop", path);
	hop = json_string_value(json_object_get(o, "hop"));
	if (hop == NULL)
		return topo_fail(c, sub, "a hop name is required");
	hi = topo_find_hop(t, hop);
	if (hi < 0)
		return topo_fail(c, sub, "no hop named \"%s\"", hop);
	if (!coord_driver_has(t->hops[hi].hop.driver, COORD_ROLE_COUNTERS))
		return topo_fail(c, sub, "hop \"%s\" (driver %s) has no counters to measure", hop,
				 t->hops[hi].hop.driver->name);
	snprintf(sub, sizeof(sub), "%s.port", path);
	port = json_string_value(json_object_get(o, "port"));
	if (port == NULL)
		return topo_fail(c, sub, "a port name is required");
	pi = coord_hop_port_index(&t->hops[hi].hop, port);
	if (pi < 0)
		return topo_fail(c, sub, "hop \"%s\" has no port \"%s\"", hop, port);
	snprintf(sub, sizeof(sub), "%s.dir", path);
	dir = json_string_value(json_object_get(o, "dir"));
	if (dir == NULL || (strcmp(dir, "rx") != 0 && strcmp(dir, "tx") != 0))
		return topo_fail(c, sub, "must be \"rx\" or \"tx\"");
	snprintf(sub, sizeof(sub), "%s.label", path);
	label = json_string_value(json_object_get(o, "label"));
	if (json_object_get(o, "label") != NULL && label == NULL)
		return topo_fail(c, sub, "must be a string");
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

/* "name", or the file's base name without its extension. */
static void
topo_name(struct coord_topology *t, const char *source)
{
	const char *name = json_string_value(json_object_get(t->root, "name"));
	char *tmp, *dot, *b;

	if (name != NULL) {
		snprintf(t->name, sizeof(t->name), "%s", name);
		return;
	}
	tmp = strdup(source);
	if (tmp == NULL)
		return;
	b = basename(tmp);
	dot = strrchr(b, '.');
	if (dot != NULL && dot != b)
		*dot = '\0';
	snprintf(t->name, sizeof(t->name), "%s", b);
	free(tmp);
}

static int
topo_parse_chains(struct topo_ctx *c)
{
	json_t *chains = json_object_get(c->t->root, "chains"), *pts, *p;
	char path[32];
	size_t i, k;

	if (!json_is_array(chains) || json_array_size(chains) == 0)
		return topo_fail(c, "chains", "a non-empty list of chains is required");
	if (json_array_size(chains) > COORD_MAX_CHAINS)
		return topo_fail(c, "chains", "more than %d chains", COORD_MAX_CHAINS);
	json_array_foreach(chains, i, pts) {
		snprintf(path, sizeof(path), "chains[%zu]", i);
		if (!json_is_array(pts) || json_array_size(pts) < 2)
			return topo_fail(c, path, "a list of at least 2 points is required");
		if (json_array_size(pts) > COORD_MAX_POINTS)
			return topo_fail(c, path, "more than %d points", COORD_MAX_POINTS);
		json_array_foreach(pts, k, p) {
			if (topo_parse_point(c, p, i, k) < 0)
				return -EINVAL;
		}
		c->t->chains[i].nb_points = json_array_size(pts);
		c->t->nb_chains = i + 1;
	}
	return 0;
}

struct coord_topology *
coord_topology_parse(const char *text, const char *source, coord_driver_lookup_t lookup, char *err,
		     size_t err_len)
{
	struct topo_ctx c = {.text = text, .lookup = lookup, .err = err, .err_len = err_len};
	json_t *hops, *v;
	json_error_t je;
	size_t i;

	if (err != NULL && err_len > 0)
		err[0] = '\0';
	c.t = calloc(1, sizeof(*c.t));
	if (c.t == NULL) {
		pvp_err(err, err_len, "%s: out of memory", source);
		return NULL;
	}
	snprintf(c.t->source, sizeof(c.t->source), "%s", source);
	c.t->root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	if (c.t->root == NULL) {
		/* Without jansson's "near 'root'": the file may be a secret. */
		pvp_json_load_err(err, err_len, source, &je);
		goto fail;
	}
	if (!json_is_object(c.t->root)) {
		topo_fail(&c, "", "the topology must be a JSON object");
		goto fail;
	}
	if (topo_check_object(&c, c.t->root, "", topo_root_members, topo_root_conf) < 0)
		goto fail;
	topo_name(c.t, source);
	v = json_object_get(c.t->root, "start_lead_ms");
	c.t->start_lead_ms = v != NULL ? (unsigned int)json_integer_value(v) : COORD_START_LEAD_MS;
	hops = json_object_get(c.t->root, "hops");
	if (!json_is_array(hops) || json_array_size(hops) == 0) {
		topo_fail(&c, "hops", "a non-empty list of hops is required");
		goto fail;
	}
	if (json_array_size(hops) > COORD_MAX_HOPS) {
		topo_fail(&c, "hops", "more than %d hops", COORD_MAX_HOPS);
		goto fail;
	}
	json_array_foreach(hops, i, v) {
		if (topo_parse_hop(&c, v, i) < 0)
			goto fail;
	}
	if (topo_parse_chains(&c) < 0)
		goto fail;
	return c.t;
fail:
	coord_topology_free(c.t);
	return NULL;
}

struct coord_topology *
coord_topology_load(const char *path, coord_driver_lookup_t lookup, char *err, size_t err_len)
{
	struct coord_topology *t;
	char *text = NULL;
	size_t len = 0;

	/* Never blocks on a FIFO, never reads /dev/zero or a huge file. */
	if (pvp_file_read(path, TOPO_MAX_BYTES, &text, &len, err, err_len) < 0)
		return NULL;
	/* The parser reads up to the first NUL: a binary file would pass as
	 * its text before it. */
	if (memchr(text, '\0', len) != NULL) {
		snprintf(err, err_len, "%s: not a JSON text file (a NUL byte at offset %zu)", path,
			 (size_t)((char *)memchr(text, '\0', len) - text));
		free(text);
		return NULL;
	}
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
coord_install_flows(struct coord_topology *t, const char *type, unsigned int flows, char *err,
		    size_t err_len)
{
	unsigned int i;
	int ret;

	for (i = 0; i < t->nb_hops; i++) {
		struct coord_topo_hop *h = &t->hops[i];

		/* Vswitches install the rules, sources remember the type. */
		if (!h->opened ||
		    (h->hop.driver->roles & (COORD_ROLE_VSWITCH | COORD_ROLE_SOURCE)) == 0 ||
		    h->hop.driver->install_flows == NULL)
			continue;
		ret = h->hop.driver->install_flows(&h->hop, type, flows, err, err_len);
		if (ret < 0)
			return ret;
	}
	return 0;
}
