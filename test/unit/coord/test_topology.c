/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Data-driven topology parser tests: every folder under the cases
 * directory holds input.json and expected (one line: the error message,
 * or "ok: NAME, H hops, C chains, P points").
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coord.h"

static int
fake_snapshot(struct coord_hop *hop, struct coord_snap *snap, char *err, size_t err_len)
{
	(void)hop;
	(void)snap;
	(void)err;
	(void)err_len;
	return 0;
}

#define FAKE_COUNTERS(n)                                                                           \
	{                                                                                          \
		.name = n, .roles = COORD_ROLE_COUNTERS, .snapshot = fake_snapshot                 \
	}

static const struct coord_driver fake_gen = FAKE_COUNTERS("gen");
static const struct coord_driver fake_fwd = FAKE_COUNTERS("fwd");
static const struct coord_driver fake_ovs = FAKE_COUNTERS("ovs");
static const struct coord_driver fake_testpmd = FAKE_COUNTERS("testpmd");
static const struct coord_driver fake_trex = FAKE_COUNTERS("trex");
static const struct coord_driver fake_wire = {.name = "wire", .roles = COORD_ROLE_PASSIVE};
/* A driver that declares its members: the loader checks them all. */
static const char *const strict_modes[] = {"fast", "slow", NULL};
static const struct pvp_schema_member strict_sub[] = {
	{.name = "port", .type = PVP_SCHEMA_UINT, .min = 1, .max = 65535},
	{.name = NULL},
};
static const struct pvp_schema_member strict_item = {
	.name = "", .type = PVP_SCHEMA_STRING, .min = 1, .max = 8};
static const struct pvp_schema_member strict_conf[] = {
	{.name = "addr", .type = PVP_SCHEMA_STRING, .required = true, .min = 1, .max = 32},
	{.name = "timeout_ms", .type = PVP_SCHEMA_UINT, .min = 1, .max = 600000},
	{.name = "mode", .type = PVP_SCHEMA_STRING, .max = 8, .values = strict_modes},
	{.name = "verbose", .type = PVP_SCHEMA_BOOL},
	{.name = "ssh", .type = PVP_SCHEMA_OBJECT, .members = strict_sub},
	{.name = "tags", .type = PVP_SCHEMA_ARRAY, .min = 1, .max = 2, .members = &strict_item},
	{.name = NULL},
};
static const struct coord_driver fake_strict = {.name = "strict",
						.roles = COORD_ROLE_COUNTERS,
						.conf = strict_conf,
						.snapshot = fake_snapshot};
/* Drivers that break the contract (coord_driver_check): refused by name. */
static const struct coord_driver fake_mute = {.name = "mute", .roles = COORD_ROLE_COUNTERS};
static const struct coord_driver fake_nosource = {.name = "nosource",
						  .roles = COORD_ROLE_SOURCE | COORD_ROLE_COUNTERS,
						  .snapshot = fake_snapshot};

static const struct coord_driver *
fake_lookup(const char *name)
{
	const struct coord_driver *all[] = {&fake_gen,	   &fake_fwd,	   &fake_ovs,
					    &fake_testpmd, &fake_trex,	   &fake_wire,
					    &fake_mute,	   &fake_nosource, &fake_strict};
	unsigned int i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

static char *
slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];
	FILE *f, *m;

	f = fopen(path, "r");
	if (f == NULL)
		return NULL;
	m = open_memstream(&buf, &len);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(f);
	fclose(m);
	return buf;
}

static int
run_case(const char *dir, const char *name)
{
	char path[1024], err[512], got[600];
	char *input, *expected, *nl;
	struct coord_topology *t;
	unsigned int c, points = 0;
	int ok;

	snprintf(path, sizeof(path), "%s/%s/input.json", dir, name);
	input = slurp(path);
	snprintf(path, sizeof(path), "%s/%s/expected", dir, name);
	expected = slurp(path);
	if (input == NULL || expected == NULL) {
		fprintf(stderr, "%s: missing input.json or expected\n", name);
		free(input);
		free(expected);
		return 1;
	}
	nl = strchr(expected, '\n');
	if (nl != NULL)
		*nl = '\0';
	t = coord_topology_parse(input, "input.json", fake_lookup, err, sizeof(err));
	if (t != NULL) {
		for (c = 0; c < t->nb_chains; c++)
			points += t->chains[c].nb_points;
		snprintf(got, sizeof(got), "ok: %s, %u hops, %u chains, %u points", t->name,
			 t->nb_hops, t->nb_chains, points);
		coord_topology_free(t);
	} else {
		snprintf(got, sizeof(got), "%s", err);
	}
	ok = strcmp(got, expected) == 0;
	printf("%s %s\n", ok ? "ok  " : "FAIL", name);
	if (!ok)
		printf("     got:      %s\n     expected: %s\n", got, expected);
	free(input);
	free(expected);
	return ok ? 0 : 1;
}

static int
cmp_names(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every *.json in @p dir (the shipped examples) must parse. */
static int
check_examples(const char *dir)
{
	struct dirent **ents;
	struct coord_topology *t;
	char path[1024], err[512];
	int n, i, fails = 0;
	size_t len;

	n = scandir(dir, &ents, NULL, cmp_names);
	if (n < 0) {
		perror(dir);
		return 1;
	}
	for (i = 0; i < n; i++) {
		len = strlen(ents[i]->d_name);
		if (len > 5 && strcmp(ents[i]->d_name + len - 5, ".json") == 0) {
			snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
			t = coord_topology_load(path, fake_lookup, err, sizeof(err));
			printf("%s example %s%s%s\n", t != NULL ? "ok  " : "FAIL", ents[i]->d_name,
			       t != NULL ? "" : ": ", t != NULL ? "" : err);
			fails += t == NULL;
			coord_topology_free(t);
		}
		free(ents[i]);
	}
	free(ents);
	return fails;
}

int
main(int argc, char **argv)
{
	struct dirent **ents;
	int n, i, fails = 0, cases = 0;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: %s CASES_DIR [EXAMPLES_DIR]\n", argv[0]);
		return 2;
	}
	if (argc == 3)
		fails += check_examples(argv[2]);
	n = scandir(argv[1], &ents, NULL, cmp_names);
	if (n < 0) {
		perror(argv[1]);
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.' && ents[i]->d_type == DT_DIR) {
			fails += run_case(argv[1], ents[i]->d_name);
			cases++;
		}
		free(ents[i]);
	}
	free(ents);
	printf("%d cases, %d failed\n", cases, fails);
	return fails != 0 || cases == 0;
}
