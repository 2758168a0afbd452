/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * install_flows for the ovs hop: the rule table of a flow type (the same
 * bases as the gen driver's traffic, flows.h), installed as one
 * OpenFlow bundle and counted afterwards.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovs_private.h"

/* Most flows install_flows writes per pair, and most rules in all. */
#define OVS_MAX_FLOWS 1000000u
#define OVS_MAX_RULES 2000000u

/*
 * The pairs rules are written for: the "forward" member, or without it
 * the one-port PVP, ports[0] (physical) <-> ports[1] (virtual), whose
 * way back comes from a macswap guest (l2 value in dl_src) unless
 * "l2_reverse_match" says dl_dst. @return the pair count, or -EINVAL.
 */
static int
ovs_rule_pairs(const struct ovs_hop *h, const char *type, struct ovs_pair *pairs, char *err,
	       size_t err_len)
{
	if (h->nb_pairs > 0) {
		memcpy(pairs, h->pairs, h->nb_pairs * sizeof(pairs[0]));
		return (int)h->nb_pairs;
	}
	if (h->hop->nb_ports != 2)
		return pvp_fail(err, err_len, -EINVAL,
				"ovs: %s rules on %u ports need \"forward\" (the in/out port "
				"pairs); without it exactly 2 ports (physical, virtual)",
				type, h->hop->nb_ports);
	pairs[0] = (struct ovs_pair){.in = 0, .out = 1, .swapped = 0};
	pairs[1] = (struct ovs_pair){
		.in = 1, .out = 0, .swapped = h->l2_reverse_dst ? 0 : OVS_SWAP_L2};
	return 2;
}

/*
 * NORMAL learns MACs and floods the unknown to every port of the VLAN:
 * with several forwarding pairs it is right only if they are separate
 * segments of two ports each ({in, out} of one pair, both ways), each in
 * its own VLAN (tools/testbed.sh gives each an access tag). A port in
 * two pairs with different peers (PVVP through one tester port: phy0 ->
 * vhost0 and vhost3 -> phy0) would make NORMAL flood around the loop.
 */
static int
ovs_normal_check(const struct ovs_hop *h, char *err, size_t err_len)
{
	unsigned int i, k;

	for (i = 0; i < h->nb_pairs; i++) {
		const struct ovs_pair *a = &h->pairs[i];

		for (k = 0; k < h->nb_pairs; k++) {
			const struct ovs_pair *b = &h->pairs[k];
			bool shares = b->in == a->in || b->in == a->out || b->out == a->in ||
				      b->out == a->out;
			bool same = (b->in == a->in && b->out == a->out) ||
				    (b->in == a->out && b->out == a->in);

			if (shares && !same)
				return pvp_fail(
					err, err_len, -EINVAL,
					"ovs: normal rules cannot keep %s -> %s apart from %s -> "
					"%s (NORMAL floods to every port of a segment): use l2, "
					"l3 or l4",
					h->hop->ports[a->in], h->hop->ports[a->out],
					h->hop->ports[b->in], h->hop->ports[b->out]);
		}
	}
	return 0;
}

/* The rule of flow @p i on @p pair, into @p f. @return fprintf()'s. */
static int
ovs_pair_rule(const struct ovs_hop *h, enum coord_flow_type type, const struct ovs_pair *pair,
	      unsigned int i, FILE *f)
{
	const char *in = h->hop->ports[pair->in], *out = h->hop->ports[pair->out];

	if (type == COORD_FLOW_l2) {
		char mac[24];

		pvp_mac_format(h->flow_base.l2 + i, mac, sizeof(mac));
		return fprintf(f, "priority=10,in_port=%s,%s=%s,actions=output:%s\n", in,
			       pair->swapped & OVS_SWAP_L2 ? "dl_src" : "dl_dst", mac, out);
	}
	if (type == COORD_FLOW_l3) {
		uint32_t a = h->flow_base.l3 + i;

		return fprintf(f, "priority=10,ip,in_port=%s,%s=%u.%u.%u.%u,actions=output:%s\n",
			       in, pair->swapped & OVS_SWAP_L3 ? "nw_src" : "nw_dst", a >> 24,
			       (a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff, out);
	}
	return fprintf(f, "priority=10,udp,in_port=%s,%s=%u,actions=output:%s\n", in,
		       pair->swapped & OVS_SWAP_L4 ? "tp_src" : "tp_dst", h->flow_base.l4 + i, out);
}

/*
 * The flow table text for ovs-ofctl add-flows: for flow i (i = 0 ..
 * flows - 1), one rule per pair matching base + i in the field that
 * holds it on that pair's in port (dst, or src where "swapped" says a
 * guest swapped it).
 */
static int
ovs_flow_text(const struct ovs_hop *h, const char *type_name, unsigned int flows, char **text,
	      size_t *len, unsigned int *expect, char *err, size_t err_len)
{
	struct ovs_pair pairs[COORD_MAX_PORTS];
	enum coord_flow_type type;
	unsigned int i, k, n;
	char why[160] = "";
	FILE *f;
	int rc = 0;

	if (coord_flow_type_parse(type_name, &type) < 0)
		return pvp_fail(err, err_len, -EINVAL,
				"ovs: unknown rule type \"%s\" (normal, l2, l3, l4)", type_name);
	if (type == COORD_FLOW_normal) {
		rc = ovs_normal_check(h, err, err_len);
		if (rc < 0)
			return rc;
		*expect = 1;
		n = 0;
		goto out;
	}
	rc = ovs_rule_pairs(h, type_name, pairs, err, err_len);
	if (rc < 0)
		return rc;
	n = (unsigned int)rc;
	rc = 0;
	if (flows == 0 || flows > OVS_MAX_FLOWS)
		return pvp_fail(err, err_len, -EINVAL, "ovs: flows must be 1..%u", OVS_MAX_FLOWS);
	if ((uint64_t)flows * n > OVS_MAX_RULES)
		return pvp_fail(err, err_len, -EINVAL,
				"ovs: %u flows on %u port pairs are %llu rules (at most %u)", flows,
				n, (unsigned long long)flows * n, OVS_MAX_RULES);
	rc = flows_check(type, flows, &h->flow_base, why, sizeof(why));
	if (rc < 0)
		return pvp_fail(err, err_len, rc, "ovs: %s", why);
	*expect = flows * n;
out:
	f = open_memstream(text, len);
	if (f == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "ovs: out of memory building %u flows",
				flows);
	if (type == COORD_FLOW_normal)
		rc = fprintf(f, "priority=0,actions=NORMAL\n");
	for (i = 0; n > 0 && i < flows && rc >= 0; i++)
		for (k = 0; k < n && rc >= 0; k++)
			rc = ovs_pair_rule(h, type, &pairs[k], i, f);
	if (fclose(f) != 0 || rc < 0) {
		free(*text);
		return pvp_fail(err, err_len, -ENOMEM, "ovs: out of memory building %u flows",
				flows);
	}
	return 0;
}

int
ovs_install_flows(struct coord_hop *hop, const char *rule_type, unsigned int flows, char *err,
		  size_t err_len)
{
	struct ovs_hop *h = hop->priv;
	const char *del[] = {"ovs-ofctl", "del-flows", h->ofctl_target, NULL};
	/* One OpenFlow 1.4 bundle: ovs-vswitchd commits the whole table at
	 * once. Flow mods one by one took 10 s for 2000 rules on the 2-core
	 * testbed (the 5 s timeout killed it half way); the bundle 0.2 s. */
	const char *add[] = {"ovs-ofctl", "--bundle", "add-flows", h->ofctl_target, "-", NULL};
	const char *agg[] = {"ovs-ofctl", "dump-aggregate", h->ofctl_target, NULL};
	struct ovs_out out;
	unsigned int expect = 0, timeout;
	unsigned long long got;
	const char *fc;
	size_t len;
	char *text;
	int rc;

	rc = ovs_flow_text(h, rule_type != NULL ? rule_type : "", flows, &text, &len, &expect, err,
			   err_len);
	if (rc < 0)
		return rc;
	/* Large tables take a while to parse and install: 100 us per rule
	 * in a bundle on the 2-core testbed (200000 rules: 21 s); allow 2x. */
	timeout = h->timeout_ms + expect / 5;
	rc = ovs_tool(h, del, NULL, 0, h->timeout_ms, &out, err, err_len);
	free(out.out);
	if (rc == 0) {
		/* The table goes in on stdin ("-"): no temp file, works over ssh. */
		rc = ovs_tool(h, add, text, len, timeout, &out, err, err_len);
		free(out.out);
	}
	free(text);
	if (rc < 0)
		return rc;
	/* dump-aggregate rather than dump-flows: one line whatever the size. */
	rc = ovs_tool(h, agg, NULL, 0, timeout, &out, err, err_len);
	if (rc < 0)
		return rc;
	fc = strstr(out.out, "flow_count=");
	if (fc == NULL || sscanf(fc, "flow_count=%llu", &got) != 1) {
		free(out.out);
		return pvp_fail(err, err_len, -EPROTO,
				"ovs: no flow_count in ovs-ofctl dump-aggregate");
	}
	free(out.out);
	if (got != expect)
		return pvp_fail(err, err_len, -EIO,
				"ovs: %s has %llu rules after installing %u (%s)", h->bridge, got,
				expect, rule_type);
	/* Remembered to put them back after a restart (ovs_restart.c). */
	snprintf(h->rules_type, sizeof(h->rules_type), "%s", rule_type);
	h->rules_flows = flows;
	h->restarted = false;
	h->recover_failed = false;
	return 0;
}
