/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Checksums of templates: which IPv4 header and L4 checksums cover a
 * byte range (an outer UDP checksum of VXLAN over IPv6 also covers the
 * inner checksum fields), their incremental update (RFC 1624) and their
 * computation from scratch.
 */

#include <netinet/in.h>
#include <string.h>

#include <rte_ip.h>

#include "pkt_private.h"

static void
add_loc(struct pvp_csum_loc *loc, uint16_t off, uint8_t flags)
{
	if (loc->n < RTE_DIM(loc->off)) {
		loc->off[loc->n] = off;
		loc->flags[loc->n] = flags;
		loc->n++;
	}
}

/*
 * One L3/L4 pair: add the IPv4 header checksum and the L4 checksum that
 * cover [off, off+len) or a checksum field added before.
 */
static void
cover_level(const uint8_t *d, struct pvp_csum_loc *loc, uint32_t off, uint32_t len, uint8_t ver,
	    uint16_t l3, uint8_t ihl, uint16_t l4, uint8_t proto, uint16_t l3_end)
{
	uint8_t first = loc->n, k, flags;

	if (ver == 4 && pkt_overlap(off, len, l3, ihl))
		add_loc(loc, l3 + 10, PVP_CSUM_F_DATA);
	if (l4 == 0)
		return;
	if (proto == IPPROTO_UDP && pkt_rd16(d + l4 + 6) == 0)
		return; /* no UDP checksum (IPv4 only): nothing to keep */
	flags = 0;
	/* The L4 range and the addresses of the pseudo header. */
	if (pkt_overlap(off, len, l4, l3_end - l4) ||
	    (ver == 4 && pkt_overlap(off, len, l3 + 12, 8)) ||
	    (ver == 6 && pkt_overlap(off, len, l3 + 8, 32)))
		flags |= PVP_CSUM_F_DATA;
	/* Checksum fields of inner headers lie inside this L4 range. */
	for (k = 0; k < first; k++)
		if (loc->off[k] >= l4 && loc->off[k] < l3_end)
			flags |= PVP_CSUM_F_PREV(k);
	if (flags == 0)
		return;
	if (proto == IPPROTO_UDP)
		flags |= PVP_CSUM_F_UDP;
	add_loc(loc, l4 + (proto == IPPROTO_UDP ? 6 : 16), flags);
}

void
pkt_csum_cover(const uint8_t *data, const struct pvp_pkt_layout *lay, uint32_t off, uint32_t len,
	       struct pvp_csum_loc *loc)
{
	memset(loc, 0, sizeof(*loc));
	if (lay->in_l3_off != 0)
		cover_level(data, loc, off, len, lay->in_ip_ver, lay->in_l3_off, lay->in_ihl,
			    lay->in_l4_off, lay->in_l4_proto, lay->in_l3_end);
	cover_level(data, loc, off, len, lay->ip_ver, lay->l3_off, lay->ihl, lay->l4_off,
		    lay->l4_proto, lay->l3_end);
}

void
pkt_csum_apply(uint8_t *pkt, const struct pvp_csum_loc *loc, uint16_t d)
{
	uint16_t chg[RTE_DIM(loc->off)];
	unsigned int j, k;

	for (j = 0; j < loc->n; j++) {
		uint8_t f = loc->flags[j];
		uint32_t acc = 0;
		uint16_t old, nv;

		if (f & PVP_CSUM_F_DATA)
			acc += d;
		for (k = 0; k < j; k++)
			if (f & PVP_CSUM_F_PREV(k))
				acc += chg[k];
		old = pkt_rd16(pkt + loc->off[j]);
		/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'). */
		nv = (uint16_t)~pkt_fold((uint16_t)~old + acc);
		if (nv == 0 && (f & PVP_CSUM_F_UDP))
			nv = 0xffff;
		pkt_wr16(pkt + loc->off[j], nv);
		chg[j] = pkt_fold((uint32_t)(uint16_t)~old + nv);
	}
}

/* Full L4 checksum of one level, the checksum field zeroed first. */
static void
l4_full(uint8_t *d, uint16_t l3, uint8_t ver, uint16_t l4, uint8_t proto)
{
	uint8_t *ck = d + l4 + (proto == IPPROTO_UDP ? 6 : 16);
	uint16_t c;

	if (proto == IPPROTO_UDP && ver == 4 && pkt_rd16(ck) == 0)
		return;
	ck[0] = ck[1] = 0;
	if (ver == 4)
		c = rte_ipv4_udptcp_cksum((const struct rte_ipv4_hdr *)(d + l3), d + l4);
	else
		c = rte_ipv6_udptcp_cksum((const struct rte_ipv6_hdr *)(d + l3), d + l4);
	/* rte_*_udptcp_cksum return network order already folded, 0 as 0xffff. */
	memcpy(ck, &c, 2);
}

static void
ip4_full(uint8_t *d, uint16_t l3)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(d + l3);

	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
}

void
pkt_csum_full(uint8_t *data, const struct pvp_pkt_layout *lay)
{
	if (lay->in_l3_off != 0) {
		if (lay->in_ip_ver == 4)
			ip4_full(data, lay->in_l3_off);
		if (lay->in_l4_off != 0)
			l4_full(data, lay->in_l3_off, lay->in_ip_ver, lay->in_l4_off,
				lay->in_l4_proto);
	}
	if (lay->ip_ver == 4)
		ip4_full(data, lay->l3_off);
	if (lay->l4_off != 0)
		l4_full(data, lay->l3_off, lay->ip_ver, lay->l4_off, lay->l4_proto);
}

void
pvp_csum_apply(uint8_t *pkt, const struct pvp_csum_loc *loc, uint16_t d)
{
	pkt_csum_apply(pkt, loc, d);
}
