/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * ARP and IPv6 neighbour discovery on frame bytes (pvp_neigh.h). Frames
 * come from a wire: every field is read with memcpy (no alignment is
 * assumed) and every length is checked before it is read. ICMPv6
 * checksums are DPDK's (rte_ipv6_udptcp_cksum, rte_ipv4_cksum,
 * rte_raw_cksum), so what the responder writes is what any DPDK user
 * would check it against. An echo reply is the request with its type,
 * addresses and checksums changed; what it carries is the peer's.
 */

#include <string.h>

#include <rte_arp.h>
#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_icmp.h>
#include <rte_ip.h>

#include "pvp_util.h"

#include "pvp_neigh.h"

/* ICMPv6 neighbour discovery (RFC 4861 section 4). */
#define ND_TYPE_RS	   133 /* router solicitation: the first type of ND */
#define ND_TYPE_NS	   135
#define ND_TYPE_NA	   136
#define ND_TYPE_REDIRECT   137 /* the last one */
#define ND_HOP_LIMIT	   255 /* every ND frame has it: proof it was not routed */
#define ND_OPT_SLLA	   1   /* source link-layer address option */
#define ND_OPT_TLLA	   2   /* target link-layer address option */
#define ND_NA_ROUTER	   0x80
#define ND_NA_SOLICITED	   0x40
#define ND_NA_OVERRIDE	   0x20
#define ND_MSG_LEN	   24 /* type, code, cksum, flags/reserved, target */
#define ND_OPT_LLA_LEN	   8  /* a link-layer address option for Ethernet */
#define ARP_LEN		   28 /* an Ethernet/IPv4 ARP packet */
#define NEIGH_CTL_MAX	   96 /* longest ARP/ND frame written: what neigh_eth() clears */
#define ICMP_ECHO_REQUEST  8  /* RFC 792 */
#define ICMP_ECHO_REPLY	   0
#define ICMP6_ECHO_REQUEST 128 /* RFC 4443 4.1 */
#define ICMP6_ECHO_REPLY   129
#define ECHO_HDR_LEN	   8  /* type, code, checksum, identifier, sequence */
#define ECHO_TTL	   64 /* what a Linux host sends its replies with */

static const uint8_t neigh_bcast[RTE_ETHER_ADDR_LEN] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
static const uint8_t neigh_all_nodes[16] = {0xff, 0x02, [15] = 0x01};
static const uint8_t neigh_all_nodes_mac[RTE_ETHER_ADDR_LEN] = {0x33, 0x33, 0, 0, 0, 1};
static const uint8_t neigh_unspec[16]; /* "::" */

/* A VLAN tag's TPID: 802.1Q's, or 802.1ad's (QinQ's outer tag). */
static bool
neigh_is_tpid(uint16_t etype)
{
	return etype == RTE_ETHER_TYPE_VLAN || etype == RTE_ETHER_TYPE_QINQ;
}

/*
 * The frame's L3 offset, EtherType and VLAN ids, outer first ({0, 0}:
 * untagged), up to two tags of either TPID; false if too short. A third
 * tag is left as the EtherType: no port of ours is on it.
 */
static bool
neigh_l2(const uint8_t *f, uint32_t len, uint32_t *l3, uint16_t *etype,
	 uint16_t vlan[PVP_NEIGH_VLAN_MAX])
{
	unsigned int i;

	if (len < RTE_ETHER_HDR_LEN)
		return false;
	*etype = pvp_get_be16(f + 12);
	vlan[0] = vlan[1] = 0;
	*l3 = RTE_ETHER_HDR_LEN;
	for (i = 0; i < PVP_NEIGH_VLAN_MAX && neigh_is_tpid(*etype); i++) {
		if (len < *l3 + RTE_VLAN_HLEN)
			return false;
		vlan[i] = pvp_get_be16(f + *l3) & 0xfff;
		*etype = pvp_get_be16(f + *l3 + 2);
		*l3 += RTE_VLAN_HLEN;
	}
	return true;
}

/*
 * @p c's VLAN ids in one read: a TRex client's set_vlan changes both while
 * the RX lcores answer, and a frame must see the old pair or the new one.
 */
static void
neigh_vlan_get(const struct pvp_neigh_cfg *c, uint16_t vlan[PVP_NEIGH_VLAN_MAX])
{
	uint32_t w = __atomic_load_n(&c->vlan_word, __ATOMIC_ACQUIRE);

	memcpy(vlan, &w, sizeof(w));
}

/* Whether a frame's tags are @p c's: the same ids, outer first, none more. */
static bool
neigh_vlan_ours(const struct pvp_neigh_cfg *c, const uint16_t vlan[PVP_NEIGH_VLAN_MAX])
{
	uint16_t own[PVP_NEIGH_VLAN_MAX];

	neigh_vlan_get(c, own);
	return vlan[0] == own[0] && vlan[1] == own[1];
}

/*
 * An Ethernet header (and @p c's tags) into @p out, cleared to an ARP/ND
 * frame; the L3 offset. QinQ's outer tag is 802.1ad's, as TRex writes it;
 * an NA in QinQ, the longest, is 94 bytes: within NEIGH_CTL_MAX.
 */
static uint32_t
neigh_eth(const struct pvp_neigh_cfg *c, const uint8_t *dst, uint16_t etype, uint8_t *out)
{
	uint16_t vlan[PVP_NEIGH_VLAN_MAX];
	uint32_t l3 = 12;
	unsigned int i;

	neigh_vlan_get(c, vlan);
	/* Not all of PVP_NEIGH_FRAME_MAX: a flood of requests would clear 1.5 kB each. */
	memset(out, 0, NEIGH_CTL_MAX);
	memcpy(out, dst, RTE_ETHER_ADDR_LEN);
	memcpy(out + RTE_ETHER_ADDR_LEN, &c->mac, RTE_ETHER_ADDR_LEN);
	for (i = 0; i < PVP_NEIGH_VLAN_MAX && vlan[i] != 0; i++) {
		bool outer = i + 1 < PVP_NEIGH_VLAN_MAX && vlan[i + 1] != 0;

		pvp_put_be16(out + l3, outer ? RTE_ETHER_TYPE_QINQ : RTE_ETHER_TYPE_VLAN);
		pvp_put_be16(out + l3 + 2, vlan[i]);
		l3 += RTE_VLAN_HLEN;
	}
	pvp_put_be16(out + l3, etype);
	return l3 + 2;
}

/* Frames shorter than Ethernet's minimum are padded (the zeros are there already). */
static uint16_t
neigh_pad(uint32_t len)
{
	return (uint16_t)RTE_MAX(len, (uint32_t)(RTE_ETHER_MIN_LEN - RTE_ETHER_CRC_LEN));
}

/* Whether @p c owns or answers for @p ip (host order). */
static bool
neigh_owns4(const struct pvp_neigh_cfg *c, uint32_t ip)
{
	return (c->ip4 != 0 && ip == c->ip4) ||
	       (c->ans4.set && ip >= c->ans4.lo && ip <= c->ans4.hi);
}

/* Whether @p c owns or answers for @p ip6. */
static bool
neigh_owns6(const struct pvp_neigh_cfg *c, const uint8_t ip6[16])
{
	return (c->has_ip6 && memcmp(ip6, c->ip6, 16) == 0) ||
	       (c->ans6.set && memcmp(ip6, c->ans6.lo, 16) >= 0 &&
		memcmp(ip6, c->ans6.hi, 16) <= 0);
}

/* An ARP packet of @p op at @p a. Addresses in network order as they go on the wire. */
static void
neigh_arp_write(uint8_t *a, uint16_t op, const void *sha, uint32_t sip, const void *tha,
		uint32_t tip)
{
	pvp_put_be16(a, RTE_ARP_HRD_ETHER);
	pvp_put_be16(a + 2, RTE_ETHER_TYPE_IPV4);
	a[4] = RTE_ETHER_ADDR_LEN;
	a[5] = 4;
	pvp_put_be16(a + 6, op);
	memcpy(a + 8, sha, RTE_ETHER_ADDR_LEN);
	pvp_put_be32(a + 14, sip);
	memcpy(a + 18, tha, RTE_ETHER_ADDR_LEN);
	pvp_put_be32(a + 24, tip);
}

/* An ARP packet at @p a (@p n bytes) of a frame tagged @p vlan: ignored on another VLAN. */
static enum pvp_neigh_verdict
neigh_arp_input(const struct pvp_neigh_cfg *c, const uint16_t *vlan, const uint8_t *a, uint32_t n,
		uint8_t *out, uint16_t *out_len, struct pvp_neigh_peer *peer,
		struct pvp_neigh_stats *st)
{
	uint32_t sip, tip, l3;
	uint16_t op;

	st->arp_rx++;
	if (!neigh_vlan_ours(c, vlan) || n < ARP_LEN || pvp_get_be16(a) != RTE_ARP_HRD_ETHER ||
	    pvp_get_be16(a + 2) != RTE_ETHER_TYPE_IPV4 || a[4] != RTE_ETHER_ADDR_LEN || a[5] != 4)
		goto ignore;
	op = pvp_get_be16(a + 6);
	sip = pvp_get_be32(a + 14);
	tip = pvp_get_be32(a + 24);
	if (op == RTE_ARP_OP_REQUEST && neigh_owns4(c, tip) && sip != tip) {
		l3 = neigh_eth(c, a + 8, RTE_ETHER_TYPE_ARP, out);
		neigh_arp_write(out + l3, RTE_ARP_OP_REPLY, &c->mac, tip, a + 8, sip);
		*out_len = neigh_pad(l3 + ARP_LEN);
		st->arp_answered++;
		return PVP_NEIGH_REPLY;
	}
	/* A reply, or a gratuitous request (sender and target the same). */
	if (peer != NULL && c->gw4 != 0 && sip == c->gw4 &&
	    (op == RTE_ARP_OP_REPLY || (op == RTE_ARP_OP_REQUEST && sip == tip))) {
		*peer = (struct pvp_neigh_peer){.family = AF_INET, .ip4 = sip};
		memcpy(&peer->mac, a + 8, RTE_ETHER_ADDR_LEN);
		st->arp_learnt++;
		return PVP_NEIGH_LEARNT;
	}
ignore:
	st->ignored++;
	return PVP_NEIGH_IGNORED;
}

/* The link-layer address option of @p type in ND options @p o (@p n bytes), or NULL. */
static const uint8_t *
neigh_nd_lla(const uint8_t *o, uint32_t n, uint8_t type)
{
	while (n >= 8) {
		uint32_t olen = (uint32_t)o[1] * 8;

		/* A zero length would loop for ever: RFC 4861 says drop the frame. */
		if (olen == 0 || olen > n)
			return NULL;
		if (o[0] == type && olen == ND_OPT_LLA_LEN)
			return o + 2;
		o += olen;
		n -= olen;
	}
	return NULL;
}

/* An IPv6 ND frame from @p src to @p dst (@p dmac) with @p c's tag: type, flags, target, option. */
static uint16_t
neigh_nd_write(const struct pvp_neigh_cfg *c, const uint8_t *dmac, const uint8_t *src,
	       const uint8_t *dst, uint8_t type, uint8_t flags, const uint8_t *target, uint8_t opt,
	       uint8_t *out)
{
	uint32_t l3 = neigh_eth(c, dmac, RTE_ETHER_TYPE_IPV6, out);
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(out + l3);
	uint8_t *icmp = out + l3 + sizeof(*ip);
	uint16_t cksum;

	ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16(ND_MSG_LEN + ND_OPT_LLA_LEN);
	ip->proto = IPPROTO_ICMPV6;
	ip->hop_limits = ND_HOP_LIMIT;
	memcpy(ip->src_addr, src, 16);
	memcpy(ip->dst_addr, dst, 16);
	icmp[0] = type;
	icmp[4] = flags;
	memcpy(icmp + 8, target, 16);
	icmp[ND_MSG_LEN] = opt;
	icmp[ND_MSG_LEN + 1] = 1;
	memcpy(icmp + ND_MSG_LEN + 2, &c->mac, RTE_ETHER_ADDR_LEN);
	/* Stored as computed: the sum is over memory words, as it is checked. */
	cksum = rte_ipv6_udptcp_cksum(ip, icmp);
	memcpy(icmp + 2, &cksum, 2);
	return neigh_pad(l3 + sizeof(*ip) + ND_MSG_LEN + ND_OPT_LLA_LEN);
}

/* An ND message in frame @p f tagged @p vlan: ignored on another VLAN. */
static enum pvp_neigh_verdict
neigh_nd_input(const struct pvp_neigh_cfg *c, const uint16_t *vlan, const uint8_t *f, uint32_t l3,
	       uint32_t len, uint8_t *out, uint16_t *out_len, struct pvp_neigh_peer *peer,
	       struct pvp_neigh_stats *st)
{
	const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)(f + l3);
	const uint8_t *icmp = f + l3 + sizeof(*ip), *target, *lla;
	uint32_t plen;

	st->nd_rx++;
	plen = pvp_get_be16(f + l3 + 4);
	if (!neigh_vlan_ours(c, vlan) || f[l3 + 7] != ND_HOP_LIMIT || plen < ND_MSG_LEN ||
	    plen > len - l3 - (uint32_t)sizeof(*ip) || icmp[1] != 0 ||
	    rte_ipv6_udptcp_cksum_verify(ip, icmp) != 0)
		goto ignore;
	target = icmp + 8;
	if (icmp[0] == ND_TYPE_NS && neigh_owns6(c, target)) {
		const uint8_t *dmac = f + RTE_ETHER_ADDR_LEN, *dst = f + l3 + 8;
		uint8_t flags = ND_NA_OVERRIDE | ND_NA_SOLICITED;

		lla = neigh_nd_lla(icmp + ND_MSG_LEN, plen - ND_MSG_LEN, ND_OPT_SLLA);
		if (lla != NULL)
			dmac = lla;
		/* Duplicate address detection asks from "::": answer all nodes (4.4). */
		if (memcmp(dst, neigh_unspec, 16) == 0) {
			dmac = neigh_all_nodes_mac;
			dst = neigh_all_nodes;
			flags = ND_NA_OVERRIDE;
		}
		*out_len = neigh_nd_write(c, dmac, target, dst, ND_TYPE_NA, flags, target,
					  ND_OPT_TLLA, out);
		st->ns_answered++;
		return PVP_NEIGH_REPLY;
	}
	if (icmp[0] == ND_TYPE_NA && peer != NULL && c->has_gw6 &&
	    memcmp(target, c->gw6, 16) == 0) {
		lla = neigh_nd_lla(icmp + ND_MSG_LEN, plen - ND_MSG_LEN, ND_OPT_TLLA);
		*peer = (struct pvp_neigh_peer){.family = AF_INET6};
		memcpy(peer->ip6, target, 16);
		/* An advertisement without the option comes from the target itself. */
		memcpy(&peer->mac, lla != NULL ? lla : f + RTE_ETHER_ADDR_LEN, RTE_ETHER_ADDR_LEN);
		st->na_learnt++;
		return PVP_NEIGH_LEARNT;
	}
ignore:
	st->ignored++;
	return PVP_NEIGH_IGNORED;
}

/* IPv6 carrying ICMPv6 of a neighbour discovery type, without extension headers. */
static bool
neigh_is_nd(const uint8_t *f, uint32_t l3, uint32_t len)
{
	uint8_t type;

	if (len < l3 + sizeof(struct rte_ipv6_hdr) + ND_MSG_LEN || f[l3 + 6] != IPPROTO_ICMPV6)
		return false;
	type = f[l3 + sizeof(struct rte_ipv6_hdr)];
	return type >= ND_TYPE_RS && type <= ND_TYPE_REDIRECT;
}

void
pvp_neigh_link_local(const struct rte_ether_addr *mac, uint8_t ip6[16])
{
	memset(ip6, 0, 16);
	ip6[0] = 0xfe;
	ip6[1] = 0x80;
	/* The universal/local bit inverted, ff:fe in the middle. */
	ip6[8] = mac->addr_bytes[0] ^ 0x02;
	memcpy(ip6 + 9, mac->addr_bytes + 1, 2);
	ip6[11] = 0xff;
	ip6[12] = 0xfe;
	memcpy(ip6 + 13, mac->addr_bytes + 3, 3);
}

/* An IPv4 frame carrying an ICMP echo request to an address of @p c. */
static bool
neigh_is_echo4(const struct pvp_neigh_cfg *c, const uint8_t *f, uint32_t l3, uint32_t len)
{
	uint32_t ihl;

	if (len < l3 + sizeof(struct rte_ipv4_hdr) || f[l3 + 9] != IPPROTO_ICMP)
		return false;
	ihl = (f[l3] & 0xfu) * 4;
	return len >= l3 + ihl + ECHO_HDR_LEN && f[l3 + ihl] == ICMP_ECHO_REQUEST &&
	       neigh_owns4(c, pvp_get_be32(f + l3 + 16));
}

/* Whether an echo request to @p dst is ours: our addresses, link-local, all nodes. */
static bool
neigh_echo6_dst(const struct pvp_neigh_cfg *c, const uint8_t dst[16])
{
	uint8_t ll[16];

	if (neigh_owns6(c, dst))
		return true;
	/* Only a port with an IPv6 address of its own is an IPv6 node. */
	if (!c->has_ip6)
		return false;
	pvp_neigh_link_local(&c->mac, ll);
	return memcmp(dst, neigh_all_nodes, 16) == 0 || memcmp(dst, ll, 16) == 0;
}

/* An IPv6 frame carrying an ICMPv6 echo request (no extension header) to @p c. */
static bool
neigh_is_echo6(const struct pvp_neigh_cfg *c, const uint8_t *f, uint32_t l3, uint32_t len)
{
	return len >= l3 + sizeof(struct rte_ipv6_hdr) + ECHO_HDR_LEN &&
	       f[l3 + 6] == IPPROTO_ICMPV6 &&
	       f[l3 + sizeof(struct rte_ipv6_hdr)] == ICMP6_ECHO_REQUEST &&
	       neigh_echo6_dst(c, f + l3 + 24);
}

/* The reply to an ICMP echo request neigh_is_echo4() claimed: its length, 0 if none. */
static uint16_t
neigh_echo4_reply(const struct pvp_neigh_cfg *c, const uint16_t *vlan, const uint8_t *f,
		  uint32_t l3, uint32_t len, uint8_t *out)
{
	const uint32_t ihl = sizeof(struct rte_ipv4_hdr);
	const uint8_t *ip = f + l3;
	uint32_t tot = pvp_get_be16(ip + 2), src = pvp_get_be32(ip + 12), ol3;
	uint16_t cksum;
	uint8_t *o;

	/* On our VLAN, whole, unfragmented, without options (a reply would
	 * have to reflect them: pings carry none), from a host's unicast address. */
	if (!neigh_vlan_ours(c, vlan) || ip[0] != (4 << 4 | ihl / 4) || tot < ihl + ECHO_HDR_LEN ||
	    tot > len - l3 || l3 + tot > PVP_NEIGH_FRAME_MAX ||
	    (pvp_get_be16(ip + 6) & 0x3fff) != 0 || ip[ihl + 1] != 0 || src == 0 ||
	    src >= 0xe0000000 || (f[RTE_ETHER_ADDR_LEN] & 1) != 0 ||
	    rte_raw_cksum(ip, ihl) != 0xffff || rte_raw_cksum(ip + ihl, tot - ihl) != 0xffff)
		return 0;
	ol3 = neigh_eth(c, f + RTE_ETHER_ADDR_LEN, RTE_ETHER_TYPE_IPV4, out);
	o = out + ol3;
	memcpy(o, ip, tot);
	memcpy(o + 12, ip + 16, 4);
	memcpy(o + 16, ip + 12, 4);
	o[8] = ECHO_TTL;
	o[10] = o[11] = 0;
	/* Stored as computed: the sums are over memory words, as they are checked. */
	cksum = rte_ipv4_cksum((const struct rte_ipv4_hdr *)o);
	memcpy(o + 10, &cksum, 2);
	o[ihl] = ICMP_ECHO_REPLY;
	o[ihl + 2] = o[ihl + 3] = 0;
	cksum = (uint16_t)~rte_raw_cksum(o + ihl, tot - ihl);
	memcpy(o + ihl + 2, &cksum, 2);
	return neigh_pad(ol3 + tot);
}

/* The reply to an ICMPv6 echo request neigh_is_echo6() claimed: its length, 0 if none. */
static uint16_t
neigh_echo6_reply(const struct pvp_neigh_cfg *c, const uint16_t *vlan, const uint8_t *f,
		  uint32_t l3, uint32_t len, uint8_t *out)
{
	const uint32_t hl = sizeof(struct rte_ipv6_hdr);
	const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)(f + l3);
	const uint8_t *src = f + l3 + 8, *dst = f + l3 + 24;
	uint32_t plen = pvp_get_be16(f + l3 + 4), ol3;
	struct rte_ipv6_hdr *oip;
	uint16_t cksum;
	uint8_t *o;

	if (!neigh_vlan_ours(c, vlan) || (f[l3] >> 4) != 6 || plen < ECHO_HDR_LEN ||
	    plen > len - l3 - hl || l3 + hl + plen > PVP_NEIGH_FRAME_MAX || f[l3 + hl + 1] != 0 ||
	    src[0] == 0xff || memcmp(src, neigh_unspec, 16) == 0 ||
	    (f[RTE_ETHER_ADDR_LEN] & 1) != 0 || rte_ipv6_udptcp_cksum_verify(ip, f + l3 + hl) != 0)
		return 0;
	ol3 = neigh_eth(c, f + RTE_ETHER_ADDR_LEN, RTE_ETHER_TYPE_IPV6, out);
	o = out + ol3;
	oip = (struct rte_ipv6_hdr *)o;
	memcpy(o, f + l3, hl + plen);
	/* To a group (all nodes) the port answers from its own address (RFC 4443 4.2). */
	memcpy(oip->src_addr, dst[0] == 0xff ? c->ip6 : dst, 16);
	memcpy(oip->dst_addr, src, 16);
	oip->hop_limits = ECHO_TTL;
	o[hl] = ICMP6_ECHO_REPLY;
	o[hl + 2] = o[hl + 3] = 0;
	cksum = rte_ipv6_udptcp_cksum(oip, o + hl);
	memcpy(o + hl + 2, &cksum, 2);
	return neigh_pad(ol3 + hl + plen);
}

bool
pvp_neigh_is_neigh(const uint8_t *frame, uint32_t len)
{
	uint16_t etype, vlan[PVP_NEIGH_VLAN_MAX];
	uint32_t l3;

	if (!neigh_l2(frame, len, &l3, &etype, vlan))
		return false;
	return etype == RTE_ETHER_TYPE_ARP ||
	       (etype == RTE_ETHER_TYPE_IPV6 && neigh_is_nd(frame, l3, len));
}

enum pvp_neigh_verdict
pvp_neigh_input(const struct pvp_neigh_cfg *c, const uint8_t *frame, uint32_t len, uint8_t *out,
		uint16_t *out_len, struct pvp_neigh_peer *peer, struct pvp_neigh_stats *st)
{
	uint16_t etype, vlan[PVP_NEIGH_VLAN_MAX];
	uint32_t l3;
	bool echo4;

	if (!neigh_l2(frame, len, &l3, &etype, vlan))
		return PVP_NEIGH_NONE;
	if (etype == RTE_ETHER_TYPE_ARP)
		return neigh_arp_input(c, vlan, frame + l3, len - l3, out, out_len, peer, st);
	echo4 = etype == RTE_ETHER_TYPE_IPV4 && neigh_is_echo4(c, frame, l3, len);
	if (echo4 || (etype == RTE_ETHER_TYPE_IPV6 && neigh_is_echo6(c, frame, l3, len))) {
		uint16_t n = echo4 ? neigh_echo4_reply(c, vlan, frame, l3, len, out)
				   : neigh_echo6_reply(c, vlan, frame, l3, len, out);

		st->echo++;
		if (n == 0) {
			st->ignored++;
			return PVP_NEIGH_IGNORED;
		}
		*out_len = n;
		st->echo_answered++;
		return PVP_NEIGH_REPLY;
	}
	if (etype != RTE_ETHER_TYPE_IPV6 || !neigh_is_nd(frame, l3, len))
		return PVP_NEIGH_NONE;
	return neigh_nd_input(c, vlan, frame, l3, len, out, out_len, peer, st);
}

uint16_t
pvp_neigh_arp_request(const struct pvp_neigh_cfg *c, uint32_t target, uint8_t *out)
{
	static const uint8_t zero[RTE_ETHER_ADDR_LEN];
	uint32_t l3 = neigh_eth(c, neigh_bcast, RTE_ETHER_TYPE_ARP, out);

	neigh_arp_write(out + l3, RTE_ARP_OP_REQUEST, &c->mac, c->ip4, zero, target);
	return neigh_pad(l3 + ARP_LEN);
}

uint16_t
pvp_neigh_garp(const struct pvp_neigh_cfg *c, uint8_t *out)
{
	if (c->ip4 == 0)
		return 0;
	return pvp_neigh_arp_request(c, c->ip4, out);
}

uint16_t
pvp_neigh_ns(const struct pvp_neigh_cfg *c, const uint8_t target[16], uint8_t *out)
{
	/* The solicited-node multicast address and its MAC (RFC 4291 2.7.1, RFC 2464 7). */
	uint8_t dst[16] = {0xff, 0x02, [11] = 0x01, [12] = 0xff};
	uint8_t dmac[RTE_ETHER_ADDR_LEN] = {0x33, 0x33, 0xff};

	memcpy(dst + 13, target + 13, 3);
	memcpy(dmac + 3, target + 13, 3);
	return neigh_nd_write(c, dmac, c->ip6, dst, ND_TYPE_NS, 0, target, ND_OPT_SLLA, out);
}

uint16_t
pvp_neigh_unsolicited_na(const struct pvp_neigh_cfg *c, uint8_t *out)
{
	if (!c->has_ip6)
		return 0;
	return neigh_nd_write(c, neigh_all_nodes_mac, c->ip6, neigh_all_nodes, ND_TYPE_NA,
			      ND_NA_OVERRIDE, c->ip6, ND_OPT_TLLA, out);
}
