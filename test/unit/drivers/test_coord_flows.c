/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * flows_profile(): the traffic of flow type l2/l3/l4 must walk
 * exactly the values the ovs driver's rules match. The profile goes
 * through lib/pkt's own parser and field engine, and every flow's frame
 * is read back byte by byte: flow i carries base + i in the matched field
 * and nothing else changes from flow to flow.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "flows.h"
#include "pvp_pkt.h"
#include "../unit_check.h"

/* Offsets in an untagged Ethernet/IPv4/UDP frame. */
#define OFF_ETH_DST   0
#define OFF_IP_SRC    26
#define OFF_IP_DST    30
#define OFF_UDP_DPORT 36

static uint64_t
rd(const uint8_t *p, unsigned int len)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < len; i++)
		v = (v << 8) | p[i];
	return v;
}

/* The field a type varies: offset, length, and flow 0's value. */
static void
field_of(enum coord_flow_type type, const struct flows_base *b, unsigned int *off,
	 unsigned int *len, uint64_t *base)
{
	if (type == COORD_FLOW_l2) {
		*off = OFF_ETH_DST;
		*len = 6;
		*base = b->l2;
	} else if (type == COORD_FLOW_l3) {
		*off = OFF_IP_DST;
		*len = 4;
		*base = b->l3;
	} else {
		*off = OFF_UDP_DPORT;
		*len = 2;
		*base = b->l4;
	}
}

/* The bases a hop without "flow_base" gets. */
static void
flow_base_default(struct flows_base *b)
{
	char err[128] = "";

	CHECK(pvp_schema_decode(flows_base_members, NULL, NULL, b, err, sizeof(err)) == 0, "%s",
	      err);
}

static void
check_type(enum coord_flow_type type, unsigned int size, unsigned int flows)
{
	const unsigned int ports[2] = {0, 1};
	struct flows_base b;
	char e[PVP_PKT_ERR_LEN] = "";
	struct pvp_profile *p;
	unsigned int off, len, s, k, f, i;
	uint64_t base;
	char err[256];
	json_t *j;

	flow_base_default(&b);
	field_of(type, &b, &off, &len, &base);
	j = flows_profile(type, size, flows, ports, 2, &b, err, sizeof(err));
	CHECK(j != NULL);
	if (j == NULL) {
		fprintf(stderr, "%s: %s\n", coord_flow_type_names[type], err);
		return;
	}
	p = pvp_profile_parse(j, "<test>", e, sizeof(e));
	json_decref(j);
	CHECK(p != NULL);
	if (p == NULL) {
		fprintf(stderr, "%s: %s\n", coord_flow_type_names[type], e);
		return;
	}
	CHECK(p->n_streams == 2);
	for (s = 0; s < p->n_streams; s++) {
		const struct pvp_stream *st = &p->streams[s];

		CHECK(st->port == ports[s]);
		CHECK(st->flows == flows);
		CHECK(st->n_vars == 1);
		CHECK(size == 0 ? st->n_imix > 0 : st->size == size);
		for (k = 0; k < st->n_tmpl; k++) {
			const struct pvp_tmpl *t = &st->tmpl[k];
			uint8_t *img = malloc(t->len), *ref = malloc(t->len);

			pvp_flow_build(st, t, 0, ref);
			for (f = 0; f < flows; f++) {
				pvp_flow_build(st, t, f, img);
				/* flow f is rule f */
				CHECK(rd(img + off, len) == base + f);
				/* and only the matched field (and the checksums) moves */
				for (i = 0; i < OFF_IP_SRC + 4; i++)
					if (i < off || i >= off + len)
						if (i != 24 && i != 25 && img[i] != ref[i])
							break;
				CHECK(i == OFF_IP_SRC + 4);
				if (type != COORD_FLOW_l4)
					CHECK(rd(img + OFF_UDP_DPORT, 2) ==
					      rd(ref + OFF_UDP_DPORT, 2));
			}
			/* the walk wraps: flow "flows" would be flow 0 again */
			pvp_flow_build(st, t, flows, img);
			CHECK(rd(img + off, len) == base);
			free(img);
			free(ref);
		}
	}
	pvp_profile_free(p);
}

static void
check_errors(void)
{
	const unsigned int port = 0;
	struct flows_base b;
	char err[256];
	json_t *j;

	flow_base_default(&b);
	/* exactly as many UDP ports as the ovs driver accepts: 1024..65535 */
	j = flows_profile(COORD_FLOW_l4, 64, 65536 - b.l4, &port, 1, &b, err, sizeof(err));
	CHECK(j != NULL);
	json_decref(j);
	err[0] = '\0';
	j = flows_profile(COORD_FLOW_l4, 64, 65537 - b.l4, &port, 1, &b, err, sizeof(err));
	CHECK(j == NULL && strstr(err, "overflow 65535") != NULL);
	/* a MAC variable covers 32 bits: carrying into the high bytes is refused */
	b.l2 = 0x02000000ffffull << 16 | 0xfff0;
	err[0] = '\0';
	j = flows_profile(COORD_FLOW_l2, 64, 17, &port, 1, &b, err, sizeof(err));
	CHECK(j == NULL && strstr(err, "32 bits") != NULL);
	flow_base_default(&b);
	err[0] = '\0';
	j = flows_profile(COORD_FLOW_normal, 64, 10, &port, 1, &b, err, sizeof(err));
	CHECK(j == NULL && strstr(err, "matches no field") != NULL);
	j = flows_profile(COORD_FLOW_l3, 64, 0, &port, 1, &b, err, sizeof(err));
	CHECK(j == NULL);
	err[0] = '\0';
	j = flows_profile(COORD_FLOW_l3, 64, 10, &port, 0, &b, err, sizeof(err));
	CHECK(j == NULL && strstr(err, "no TX port") != NULL);
}

/* One parser and one check for the command line, the rules and the traffic. */
static void
check_parse(void)
{
	enum coord_flow_type t = COORD_FLOW_NB;
	struct flows_base b;
	char err[256] = "";

	CHECK(coord_flow_type_parse("normal", &t) == 0 && t == COORD_FLOW_normal);
	CHECK(coord_flow_type_parse("l2", &t) == 0 && t == COORD_FLOW_l2);
	CHECK(coord_flow_type_parse("l4", &t) == 0 && t == COORD_FLOW_l4);
	t = COORD_FLOW_NB;
	CHECK(coord_flow_type_parse("L2", &t) == -EINVAL && t == COORD_FLOW_NB);
	CHECK(coord_flow_type_parse("l7", &t) == -EINVAL);
	CHECK(coord_flow_type_parse("", &t) == -EINVAL);
	CHECK(coord_flow_type_parse(NULL, &t) == -EINVAL);
	CHECK(strcmp(coord_flow_type_names[COORD_FLOW_l3], "l3") == 0);
	CHECK(coord_flow_type_names[COORD_FLOW_NB] == NULL);
	flow_base_default(&b);
	CHECK(flows_check(COORD_FLOW_normal, 1, &b, err, sizeof(err)) == 0);
	CHECK(flows_check(COORD_FLOW_l3, 0, &b, err, sizeof(err)) == -EINVAL);
	CHECK(strcmp(err, "flows must be at least 1") == 0, "%s", err);
	/* The l2 limit is the sources' 32 bits, for the rules too. */
	b.l2 = 0x0200fffffff0ull;
	CHECK(flows_check(COORD_FLOW_l2, 16, &b, err, sizeof(err)) == 0);
	err[0] = '\0';
	CHECK(flows_check(COORD_FLOW_l2, 17, &b, err, sizeof(err)) == -ERANGE);
	CHECK(strcmp(err, "17 l2 flows overflow the low 32 bits of the MAC") == 0, "%s", err);
	b.l3 = 0xfffffff0u;
	err[0] = '\0';
	CHECK(flows_check(COORD_FLOW_l3, 17, &b, err, sizeof(err)) == -ERANGE);
	CHECK(strcmp(err, "17 l3 flows overflow the IPv4 range") == 0, "%s", err);
}

int
main(void)
{
	check_type(COORD_FLOW_l2, 64, 100);
	check_type(COORD_FLOW_l3, 64, 100);
	check_type(COORD_FLOW_l4, 64, 100);
	check_type(COORD_FLOW_l3, 1518, 1);
	check_type(COORD_FLOW_l4, 0, 37); /* IMIX: every template */
	check_type(COORD_FLOW_l2, 128, 70000);
	check_errors();
	check_parse();
	return unit_check_end("flows");
}
