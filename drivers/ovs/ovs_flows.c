/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * install_flows for the ovs hop: the rule table of a flow type (the same
 * bases as the gen driver's traffic, coord_flows.h), installed as one
 * OpenFlow bundle and counted afterwards.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovs_private.h"

/* Most flows install_flows writes per direction. */
#define OVS_MAX_FLOWS 1000000u

/* Append one formatted line to a growing buffer. */
static int ovs_buf_add(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
ovs_buf_add(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*cap - *len < 256) {
		size_t nc = *cap != 0 ? *cap * 2 : 65536;
		char *nb = realloc(*buf, nc);

		if (nb == NULL)
			return -ENOMEM;
		*buf = nb;
		*cap = nc;
	}
	va_start(ap, fmt);
	n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= *cap - *len)
		return -EOVERFLOW;
	*len += (size_t)n;
	return 0;
}

/*
 * The flow table text for ovs-ofctl add-flows. ports[0] is the physical
 * port, ports[1] the virtual one. Flow i matches base + i; the rules back
 * from the guest match the same value (l3/l4: the guest changes no IP or
 * port; l2: by default dl_src, since the PVP guest swaps the MACs).
 */
static int
ovs_flow_text(const struct ovs_hop *h, const char *type, unsigned int flows, char **text,
	      size_t *len, unsigned int *expect, char *err, size_t err_len)
{
	const char *phy = h->ports[0], *vm = h->ports[1];
	size_t cap = 0;
	unsigned int i;
	int rc = 0;

	*text = NULL;
	*len = 0;
	if (strcmp(type, "normal") == 0) {
		*expect = 1;
		rc = ovs_buf_add(text, len, &cap, "priority=0,actions=NORMAL\n");
		goto out;
	}
	if (h->nb_ports != 2)
		return ovs_fail(
			err, err_len, -EINVAL,
			"ovs: %s rules need exactly 2 ports (physical, virtual), hop has %u", type,
			h->nb_ports);
	if (flows == 0 || flows > OVS_MAX_FLOWS)
		return ovs_fail(err, err_len, -EINVAL, "ovs: flows must be 1..%u", OVS_MAX_FLOWS);
	*expect = 2 * flows;
	if (strcmp(type, "l2") == 0) {
		if (h->l2_base + flows - 1 > 0xffffffffffffull)
			return ovs_fail(err, err_len, -ERANGE,
					"ovs: %u flows overflow the MAC range", flows);
		for (i = 0; i < flows && rc == 0; i++) {
			char mac[24];

			pvp_mac_format(h->l2_base + i, mac, sizeof(mac));
			rc = ovs_buf_add(text, len, &cap,
					 "priority=10,in_port=%s,dl_dst=%s,actions=output:%s\n"
					 "priority=10,in_port=%s,%s=%s,actions=output:%s\n",
					 phy, mac, vm, vm, h->l2_reverse_dst ? "dl_dst" : "dl_src",
					 mac, phy);
		}
	} else if (strcmp(type, "l3") == 0) {
		if ((uint64_t)h->l3_base + flows - 1 > 0xffffffffull)
			return ovs_fail(err, err_len, -ERANGE,
					"ovs: %u flows overflow the IPv4 range", flows);
		for (i = 0; i < flows && rc == 0; i++) {
			uint32_t a = h->l3_base + i;
			char ip[20];

			snprintf(ip, sizeof(ip), "%u.%u.%u.%u", a >> 24, (a >> 16) & 0xff,
				 (a >> 8) & 0xff, a & 0xff);
			rc = ovs_buf_add(text, len, &cap,
					 "priority=10,ip,in_port=%s,nw_dst=%s,actions=output:%s\n"
					 "priority=10,ip,in_port=%s,nw_dst=%s,actions=output:%s\n",
					 phy, ip, vm, vm, ip, phy);
		}
	} else if (strcmp(type, "l4") == 0) {
		if (h->l4_base + flows - 1 > 65535)
			return ovs_fail(err, err_len, -ERANGE,
					"ovs: %u flows from UDP port %u overflow 65535", flows,
					h->l4_base);
		for (i = 0; i < flows && rc == 0; i++)
			rc = ovs_buf_add(text, len, &cap,
					 "priority=10,udp,in_port=%s,tp_dst=%u,actions=output:%s\n"
					 "priority=10,udp,in_port=%s,tp_dst=%u,actions=output:%s\n",
					 phy, h->l4_base + i, vm, vm, h->l4_base + i, phy);
	} else {
		return ovs_fail(err, err_len, -EINVAL,
				"ovs: unknown rule type \"%s\" (normal, l2, l3, l4)", type);
	}
out:
	if (rc < 0) {
		free(*text);
		*text = NULL;
		return ovs_fail(err, err_len, rc, "ovs: out of memory building %u flows", flows);
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
	struct coord_ovs_out out;
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
		return ovs_fail(err, err_len, -EPROTO,
				"ovs: no flow_count in ovs-ofctl dump-aggregate");
	}
	free(out.out);
	if (got != expect)
		return ovs_fail(err, err_len, -EIO,
				"ovs: %s has %llu rules after installing %u (%s)", h->bridge, got,
				expect, rule_type);
	/* Remembered to put them back after a restart (ovs_restart.c). */
	snprintf(h->rules_type, sizeof(h->rules_type), "%s", rule_type);
	h->rules_flows = flows;
	h->restarted = false;
	h->recover_failed = false;
	return 0;
}
