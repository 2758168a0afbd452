/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The profile the command line asks for: --profile FILE, --pcap FILE,
 * --imix / --imix-sizes, or the --size / --flows shortcut (one stream per
 * port), with --src-mac / --dst-mac written into its templates.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_ether.h>

#include <jansson.h>

#include "gen.h"

/* --imix-sizes (parsed by args.c) as a profile's "imix" list. */
static json_t *
gen_imix_json(const struct gen_opts *o)
{
	json_t *arr = json_array();
	unsigned int i;

	for (i = 0; i < o->n_imix; i++)
		json_array_append_new(arr, json_pack("{s:i,s:I}", "size", o->imix_list[i].size,
						     "weight", (json_int_t)o->imix_list[i].weight));
	return arr;
}

/* Overwrite the outer MACs of every template (--src-mac/--dst-mac). */
static int
gen_profile_set_macs(struct gen_ctx *g, struct pvp_profile *p, char *err, size_t errlen)
{
	struct rte_ether_addr src, dst;
	uint32_t s, i;

	if (g->opt.src_mac != NULL && rte_ether_unformat_addr(g->opt.src_mac, &src) != 0)
		return pvp_fail(err, errlen, -EINVAL, "--src-mac: '%s' is not a MAC address",
				g->opt.src_mac);
	if (g->opt.dst_mac != NULL && rte_ether_unformat_addr(g->opt.dst_mac, &dst) != 0)
		return pvp_fail(err, errlen, -EINVAL, "--dst-mac: '%s' is not a MAC address",
				g->opt.dst_mac);
	for (s = 0; s < p->n_streams; s++) {
		for (i = 0; i < p->streams[s].n_tmpl; i++) {
			uint8_t *d = p->streams[s].tmpl[i].data;

			if (g->opt.dst_mac != NULL)
				memcpy(d, &dst, RTE_ETHER_ADDR_LEN);
			if (g->opt.src_mac != NULL)
				memcpy(d + RTE_ETHER_ADDR_LEN, &src, RTE_ETHER_ADDR_LEN);
		}
	}
	return 0;
}

struct pvp_profile *
gen_profile_from_opts(struct gen_ctx *g, char *err, size_t errlen)
{
	char e[PVP_PKT_ERR_LEN] = "";
	struct pvp_profile *p = NULL;
	uint16_t ports[GEN_MAX_PORTS];
	uint16_t i;
	for (i = 0; i < g->nb_ports; i++)
		ports[i] = i;
	if (g->opt.profile != NULL) {
		p = pvp_profile_load(g->opt.profile, e, sizeof(e));
	} else if (g->opt.pcap != NULL || g->opt.n_imix != 0) {
		json_t *root = json_pack("{s:[]}", "streams");
		bool imix = g->opt.pcap == NULL;

		/* A stream per port: {port, pcap[, replay]} or {port, imix[, flows]}. */
		for (i = 0; i < g->nb_ports; i++)
			json_array_append_new(
				json_object_get(root, "streams"),
				json_pack("{s:i,s:s*,s:o*,s:o*,s:o*}", "port", i, "pcap",
					  g->opt.pcap, "replay",
					  g->opt.pcap_as_is ? json_true() : NULL, "imix",
					  imix ? gen_imix_json(&g->opt) : NULL, "flows",
					  imix && g->opt.flows > 1
						  ? json_integer((json_int_t)g->opt.flows)
						  : NULL));
		p = pvp_profile_parse(root, g->opt.pcap != NULL ? "--pcap" : "--imix-sizes", e,
				      sizeof(e));
		json_decref(root);
	} else {
		p = pvp_profile_quick(g->opt.imix ? 0 : g->opt.size, g->opt.flows, ports,
				      g->nb_ports, e, sizeof(e));
	}
	if (p == NULL) {
		snprintf(err, errlen, "%s", e[0] != '\0' ? e : strerror(errno));
		return NULL;
	}
	if (gen_profile_set_macs(g, p, err, errlen) != 0) {
		pvp_profile_free(p);
		return NULL;
	}
	gen_neigh_apply(g, p);
	return p;
}
