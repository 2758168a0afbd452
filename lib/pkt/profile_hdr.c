/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The "headers" member of a stream: Ethernet, VLAN tags, IPv4 or IPv6,
 * UDP or TCP, and VXLAN with its inner frame, over the defaults of
 * doc/profiles.rst.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include "profile_private.h"

/* ---- headers ---- */

void
prof_hdr_defaults(struct pvp_hdr *h, bool inner)
{
	uint8_t i = inner ? 1 : 0;

	memset(h, 0, sizeof(*h));
	h->eth_src = (struct rte_ether_addr){{0x02, 0, 0, 0, i, 0x01}};
	h->eth_dst = (struct rte_ether_addr){{0x02, 0, 0, 0, i, 0x02}};
	h->ip_ver = 4;
	h->ip_src[0] = 16, h->ip_src[3] = 1;
	h->ip_dst[0] = 48, h->ip_dst[3] = 1;
	h->ip_src[2] = h->ip_dst[2] = i;
	h->ttl = 64;
	h->l4_proto = IPPROTO_UDP;
	h->sport = 1025;
	h->dport = 12;
}

static void
hdr_v6_defaults(struct pvp_hdr *h, bool inner)
{
	static const uint8_t v6s[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};
	static const uint8_t v6d[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};

	memcpy(h->ip_src, v6s, 16);
	memcpy(h->ip_dst, v6d, 16);
	if (inner)
		h->ip_src[13] = h->ip_dst[13] = 1;
}

static int
parse_ip(struct prof_ctx *c, const json_t *o, const char *path, int ver, struct pvp_hdr *h)
{
	static const char *const keys[] = {"src", "dst", "ttl", "tos", NULL};
	uint16_t ttl = h->ttl, tos = h->tos;

	if (prof_check_keys(c, o, path, keys) != 0 ||
	    prof_get_addr(c, o, "src", path, ver, h->ip_src) != 0 ||
	    prof_get_addr(c, o, "dst", path, ver, h->ip_dst) != 0 ||
	    prof_get_u16(c, o, "ttl", path, 1, 255, &ttl) != 0 ||
	    prof_get_u16(c, o, "tos", path, 0, 255, &tos) != 0)
		return -EINVAL;
	h->ttl = ttl;
	h->tos = tos;
	return 0;
}

/* "vlan": one id, or a list of up to two (QinQ). */
static int
parse_vlan(struct prof_ctx *c, const json_t *v, const char *path, struct pvp_hdr *h)
{
	char esub[280];
	uint64_t id;
	size_t i;
	json_t *e;

	if (json_is_integer(v)) {
		if (prof_get_uint(c, v, path, 0, 4095, &id) != 0)
			return -EINVAL;
		h->n_vlan = 1;
		h->vlan[0] = id;
		return 0;
	}
	if (!json_is_array(v) || json_array_size(v) > 2)
		return prof_fail(c, -EINVAL, path,
				 "must be a VLAN id or a list of 0..2 ids (2 = QinQ)");
	json_array_foreach(v, i, e) {
		prof_fmt(esub, sizeof(esub), "%s[%zu]", path, i);
		if (prof_get_uint(c, e, esub, 0, 4095, &id) != 0)
			return -EINVAL;
		h->vlan[i] = id;
	}
	h->n_vlan = json_array_size(v);
	return 0;
}

/* "ipv4" or "ipv6". */
static int
parse_l3(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_hdr *h, bool inner)
{
	json_t *v4 = json_object_get(o, "ipv4"), *v6 = json_object_get(o, "ipv6");
	char sub[256];

	prof_fmt(sub, sizeof(sub), "%s.%s", path, v6 != NULL ? "ipv6" : "ipv4");
	if (v4 != NULL && v6 != NULL)
		return prof_fail(c, -EINVAL, sub, "\"ipv4\" and \"ipv6\" are exclusive");
	if (v6 == NULL)
		return v4 != NULL ? parse_ip(c, v4, sub, 4, h) : 0;
	h->ip_ver = 6;
	hdr_v6_defaults(h, inner);
	return parse_ip(c, v6, sub, 6, h);
}

/* "udp" or "tcp", with their ports. */
static int
parse_l4(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_hdr *h)
{
	static const char *const l4keys[] = {"sport", "dport", NULL};
	json_t *tcp = json_object_get(o, "tcp"), *udp = json_object_get(o, "udp");
	json_t *v = tcp != NULL ? tcp : udp;
	char sub[256];

	prof_fmt(sub, sizeof(sub), "%s.%s", path, tcp != NULL ? "tcp" : "udp");
	if (tcp != NULL && udp != NULL)
		return prof_fail(c, -EINVAL, sub, "\"udp\" and \"tcp\" are exclusive");
	if (tcp != NULL)
		h->l4_proto = IPPROTO_TCP;
	if (v == NULL)
		return 0;
	if (prof_check_keys(c, v, sub, l4keys) != 0 ||
	    prof_get_u16(c, v, "sport", sub, 0, 65535, &h->sport) != 0 ||
	    prof_get_u16(c, v, "dport", sub, 0, 65535, &h->dport) != 0)
		return -EINVAL;
	return 0;
}

/*
 * "vxlan" of the outer headers @o (member @v): the VNI, the VTEP and
 * entropy-port defaults where the outer headers give none, and the inner
 * frame over its own defaults.
 */
static int
parse_vxlan(struct prof_ctx *c, const json_t *o, const json_t *v, const char *path,
	    struct pvp_stream *s)
{
	static const char *const xkeys[] = {"vni", "inner", NULL};
	struct pvp_hdr *h = &s->outer;
	char sub[280];
	uint64_t vni = 0;
	json_t *in;

	if (prof_check_keys(c, v, path, xkeys) != 0)
		return -EINVAL;
	if (h->l4_proto != IPPROTO_UDP)
		return prof_fail(c, -EINVAL, path, "VXLAN needs outer \"udp\", not \"tcp\"");
	if (prof_get_u64(c, v, "vni", path, false, 0, 0xffffff, &vni) != 0)
		return -EINVAL;
	s->vxlan = true;
	s->vni = vni;
	if (json_object_get(o, "ipv4") == NULL && json_object_get(o, "ipv6") == NULL) {
		static const uint8_t a[4] = {10, 0, 0, 1}, b[4] = {10, 0, 0, 2};

		memcpy(h->ip_src, a, 4);
		memcpy(h->ip_dst, b, 4);
	}
	if (json_object_get(o, "udp") == NULL)
		h->sport = 49152;
	prof_hdr_defaults(&s->inner, true);
	in = json_object_get(v, "inner");
	if (in == NULL)
		return 0;
	prof_fmt(sub, sizeof(sub), "%s.inner", path);
	return prof_parse_hdr(c, in, sub, s, true);
}

int
prof_parse_hdr(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s,
	       bool inner)
{
	static const char *const keys[] = {"eth", "vlan", "ipv4",  "ipv6",
					   "udp", "tcp",  "vxlan", NULL};
	static const char *const ekeys[] = {"src", "dst", NULL};
	struct pvp_hdr *h = inner ? &s->inner : &s->outer;
	char sub[256];
	json_t *v;

	if (prof_check_keys(c, o, path, keys) != 0)
		return -EINVAL;
	if ((v = json_object_get(o, "eth")) != NULL) {
		prof_fmt(sub, sizeof(sub), "%s.eth", path);
		if (prof_check_keys(c, v, sub, ekeys) != 0 ||
		    prof_get_addr(c, v, "src", sub, 0, &h->eth_src) ||
		    prof_get_addr(c, v, "dst", sub, 0, &h->eth_dst) != 0)
			return -EINVAL;
	}
	if ((v = json_object_get(o, "vlan")) != NULL) {
		prof_fmt(sub, sizeof(sub), "%s.vlan", path);
		if (parse_vlan(c, v, sub, h) != 0)
			return -EINVAL;
	}
	if (parse_l3(c, o, path, h, inner) != 0 || parse_l4(c, o, path, h) != 0)
		return -EINVAL;
	if ((v = json_object_get(o, "vxlan")) != NULL) {
		prof_fmt(sub, sizeof(sub), "%s.vxlan", path);
		if (inner)
			return prof_fail(c, -EINVAL, sub, "VXLAN cannot be nested");
		if (parse_vxlan(c, o, v, sub, s) != 0)
			return -EINVAL;
	}
	return 0;
}

const char *
prof_hdr_desc(const struct pvp_hdr *h, char *buf, size_t len)
{
	prof_fmt(buf, len, "eth%s/%s/%s",
		 h->n_vlan == 2	  ? "/qinq"
		 : h->n_vlan == 1 ? "/vlan"
				  : "",
		 h->ip_ver == 4 ? "ipv4" : "ipv6", h->l4_proto == IPPROTO_TCP ? "tcp" : "udp");
	return buf;
}
