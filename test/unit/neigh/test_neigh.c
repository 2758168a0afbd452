/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * lib/neigh without the EAL: ARP and neighbour discovery frames in and
 * out, byte for byte; ICMPv6 checksums checked by a sum of this test's
 * own (not DPDK's, which wrote them); two responders resolving each
 * other; ICMP and ICMPv6 echo replies, byte for byte, and bad requests; VLANs; QinQ; every prefix of every frame handled without a read past
 * its end; the address option's grammar and its messages.
 *
 *   test_neigh [QINQ.pcap]
 *
 * With a file, the QinQ case also writes the frames lib/neigh built there,
 * for tshark to decode (test_neigh_tshark.sh): an independent reading of
 * the tags, the TPIDs and the checksums.
 */

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "pvp_neigh.h"
#include "../unit_check.h"

static const struct rte_ether_addr mac_a = {{0x02, 0, 0, 0, 0, 0x0a}};
static const struct rte_ether_addr mac_b = {{0x02, 0, 0, 0, 0, 0x0b}};

static uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t
rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* RFC 4443 2.3's checksum of the ICMPv6 message at @p l3 + 40, by hand: 0 when right. */
static uint16_t
icmp6_sum(const uint8_t *f, uint32_t l3)
{
	uint32_t plen = rd16(f + l3 + 4), s = 0, i;

	for (i = 0; i < 32; i += 2) /* source and destination addresses */
		s += rd16(f + l3 + 8 + i);
	s += plen + 58;
	for (i = 0; i + 1 < plen; i += 2)
		s += rd16(f + l3 + 40 + i);
	if (plen & 1)
		s += (uint32_t)f[l3 + 40 + plen - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static void
cfg_init(struct pvp_neigh_cfg *c, const char *opt, const struct rte_ether_addr *mac)
{
	char err[256] = "";

	memset(c, 0, sizeof(*c));
	CHECK(pvp_neigh_parse("--addr", opt, c, err, sizeof(err)) == 0, "%s: %s", opt, err);
	c->mac = *mac;
}

static void
test_arp(void)
{
	struct pvp_neigh_cfg a, b;
	struct pvp_neigh_stats sa = {0}, sb = {0};
	struct pvp_neigh_peer peer;
	uint8_t req[PVP_NEIGH_FRAME_MAX], rep[PVP_NEIGH_FRAME_MAX];
	uint16_t n, rn = 0;

	unit_check_case = "arp";
	cfg_init(&a, "ip=10.0.0.1,gw=10.0.0.2", &mac_a);
	cfg_init(&b, "ip=10.0.0.2,answer=16.0.0.1-16.0.0.10", &mac_b);
	n = pvp_neigh_arp_request(&a, 0x0a000002, req);
	CHECK(n == 60, "request of %u B", n);
	CHECK(memcmp(req, "\xff\xff\xff\xff\xff\xff", 6) == 0 && memcmp(req + 6, &mac_a, 6) == 0);
	CHECK(rd16(req + 12) == 0x0806 && rd16(req + 20) == 1);
	CHECK(rd32(req + 28) == 0x0a000001 && rd32(req + 38) == 0x0a000002);
	CHECK(pvp_neigh_is_neigh(req, n));
	/* B answers for its address: to A, from B, the addresses swapped. */
	CHECK(pvp_neigh_input(&b, req, n, rep, &rn, &peer, &sb) == PVP_NEIGH_REPLY);
	CHECK(rn == 60 && memcmp(rep, &mac_a, 6) == 0 && memcmp(rep + 6, &mac_b, 6) == 0);
	CHECK(rd16(rep + 20) == 2 && memcmp(rep + 22, &mac_b, 6) == 0);
	CHECK(rd32(rep + 28) == 0x0a000002 && memcmp(rep + 32, &mac_a, 6) == 0);
	CHECK(rd32(rep + 38) == 0x0a000001);
	/* A learns its gateway's MAC from the reply. */
	memset(&peer, 0, sizeof(peer));
	CHECK(pvp_neigh_input(&a, rep, rn, req, &n, &peer, &sa) == PVP_NEIGH_LEARNT);
	CHECK(peer.family == AF_INET && peer.ip4 == 0x0a000002 &&
	      memcmp(&peer.mac, &mac_b, 6) == 0);
	/* B answers for its range too, not beyond it. */
	n = pvp_neigh_arp_request(&a, 0x1000000a, req);
	CHECK(pvp_neigh_input(&b, req, n, rep, &rn, NULL, &sb) == PVP_NEIGH_REPLY);
	CHECK(rd32(rep + 28) == 0x1000000a);
	n = pvp_neigh_arp_request(&a, 0x1000000b, req);
	CHECK(pvp_neigh_input(&b, req, n, rep, &rn, NULL, &sb) == PVP_NEIGH_IGNORED);
	/* A gratuitous ARP of the gateway is learnt; one of another host is not. */
	n = pvp_neigh_garp(&b, req);
	CHECK(n == 60 && rd32(req + 28) == 0x0a000002 && rd32(req + 38) == 0x0a000002);
	CHECK(pvp_neigh_input(&a, req, n, rep, &rn, &peer, &sa) == PVP_NEIGH_LEARNT);
	CHECK(pvp_neigh_input(&b, req, n, rep, &rn, &peer, &sb) == PVP_NEIGH_IGNORED,
	      "own announcement answered");
	CHECK(sb.arp_rx == 4 && sb.arp_answered == 2 && sb.ignored == 2, "b: %lu %lu %lu",
	      (unsigned long)sb.arp_rx, (unsigned long)sb.arp_answered, (unsigned long)sb.ignored);
	CHECK(sa.arp_rx == 2 && sa.arp_learnt == 2 && sa.ignored == 0);
	unit_check_case = "";
}

static void
test_vlan(void)
{
	struct pvp_neigh_cfg a, b, u;
	struct pvp_neigh_stats st = {0};
	uint8_t req[PVP_NEIGH_FRAME_MAX], rep[PVP_NEIGH_FRAME_MAX];
	uint16_t n, rn = 0;

	unit_check_case = "vlan";
	cfg_init(&a, "ip=10.0.0.1,vlan=100", &mac_a);
	cfg_init(&b, "vlan=100,ip=10.0.0.2", &mac_b);
	cfg_init(&u, "ip=10.0.0.2", &mac_b);
	n = pvp_neigh_arp_request(&a, 0x0a000002, req);
	CHECK(n == 60 && rd16(req + 12) == 0x8100 && rd16(req + 14) == 100 &&
	      rd16(req + 16) == 0x0806);
	CHECK(pvp_neigh_input(&b, req, n, rep, &rn, NULL, &st) == PVP_NEIGH_REPLY);
	CHECK(rd16(rep + 12) == 0x8100 && rd16(rep + 14) == 100 && rd32(rep + 32) == 0x0a000002);
	/* Not on the responder's VLAN (untagged here): not answered. */
	CHECK(pvp_neigh_input(&u, req, n, rep, &rn, NULL, &st) == PVP_NEIGH_IGNORED);
	unit_check_case = "";
}

static void
test_nd(void)
{
	static const uint8_t ip6_b[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};
	static const uint8_t ip6_a[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};
	struct pvp_neigh_cfg a, b;
	struct pvp_neigh_stats sa = {0}, sb = {0};
	struct pvp_neigh_peer peer;
	uint8_t ns[PVP_NEIGH_FRAME_MAX], na[PVP_NEIGH_FRAME_MAX], out[PVP_NEIGH_FRAME_MAX];
	uint16_t n, nn = 0, on = 0;

	unit_check_case = "nd";
	cfg_init(&a, "ip6=2001:db8::1,gw6=2001:db8::2", &mac_a);
	cfg_init(&b, "ip6=2001:db8::2,answer6=2001:db8:1::1-2001:db8:1::ff", &mac_b);
	n = pvp_neigh_ns(&a, ip6_b, ns);
	CHECK(n == 14 + 40 + 32, "NS of %u B", n);
	/* To the solicited-node group ff02::1:ff00:2 and its MAC 33:33:ff:00:00:02. */
	CHECK(memcmp(ns, "\x33\x33\xff\x00\x00\x02", 6) == 0);
	CHECK(memcmp(ns + 14 + 24, "\xff\x02\0\0\0\0\0\0\0\0\0\x01\xff\x00\x00\x02", 16) == 0);
	CHECK(ns[14 + 6] == 58 && ns[14 + 7] == 255 && ns[54] == 135);
	CHECK(icmp6_sum(ns, 14) == 0, "NS checksum off by %#x", icmp6_sum(ns, 14));
	CHECK(ns[54 + 24] == 1 && ns[54 + 25] == 1 && memcmp(ns + 54 + 26, &mac_a, 6) == 0);
	CHECK(pvp_neigh_is_neigh(ns, n));
	/* B advertises itself to A: solicited, override, its MAC as target option. */
	CHECK(pvp_neigh_input(&b, ns, n, na, &nn, NULL, &sb) == PVP_NEIGH_REPLY);
	CHECK(nn == 86 && memcmp(na, &mac_a, 6) == 0 && memcmp(na + 6, &mac_b, 6) == 0);
	CHECK(memcmp(na + 14 + 8, ip6_b, 16) == 0 && memcmp(na + 14 + 24, ip6_a, 16) == 0);
	CHECK(na[54] == 136 && na[54 + 4] == 0x60 && memcmp(na + 54 + 8, ip6_b, 16) == 0);
	CHECK(na[54 + 24] == 2 && memcmp(na + 54 + 26, &mac_b, 6) == 0);
	CHECK(icmp6_sum(na, 14) == 0, "NA checksum off by %#x", icmp6_sum(na, 14));
	CHECK(pvp_neigh_input(&a, na, nn, out, &on, &peer, &sa) == PVP_NEIGH_LEARNT);
	CHECK(peer.family == AF_INET6 && memcmp(peer.ip6, ip6_b, 16) == 0 &&
	      memcmp(&peer.mac, &mac_b, 6) == 0);
	/* A wrong checksum or a routed frame (hop limit below 255) is no ND. */
	ns[56] ^= 1;
	CHECK(pvp_neigh_input(&b, ns, n, na, &nn, NULL, &sb) == PVP_NEIGH_IGNORED);
	ns[56] ^= 1;
	ns[14 + 7] = 64;
	CHECK(pvp_neigh_input(&b, ns, n, na, &nn, NULL, &sb) == PVP_NEIGH_IGNORED);
	ns[14 + 7] = 255;
	/* Duplicate address detection (from ::) is answered to all nodes. */
	memset(ns + 14 + 8, 0, 16);
	ns[56] = ns[57] = 0;
	{
		uint16_t s = icmp6_sum(ns, 14);

		ns[56] = (uint8_t)(s >> 8);
		ns[57] = (uint8_t)s;
	}
	CHECK(pvp_neigh_input(&b, ns, n, na, &nn, NULL, &sb) == PVP_NEIGH_REPLY);
	CHECK(memcmp(na, "\x33\x33\0\0\0\x01", 6) == 0 && na[14 + 24] == 0xff &&
	      na[54 + 4] == 0x20);
	CHECK(icmp6_sum(na, 14) == 0);
	/* The answer range. */
	{
		uint8_t t[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 0x80};

		n = pvp_neigh_ns(&a, t, ns);
		CHECK(pvp_neigh_input(&b, ns, n, na, &nn, NULL, &sb) == PVP_NEIGH_REPLY);
		t[14] = 1;
		n = pvp_neigh_ns(&a, t, ns);
		CHECK(pvp_neigh_input(&b, ns, n, na, &nn, NULL, &sb) == PVP_NEIGH_IGNORED);
	}
	/* The unsolicited advertisement: to all nodes, override, no solicited flag. */
	n = pvp_neigh_unsolicited_na(&b, na);
	CHECK(n == 86 && memcmp(na, "\x33\x33\0\0\0\x01", 6) == 0 && na[54 + 4] == 0x20);
	CHECK(icmp6_sum(na, 14) == 0);
	CHECK(pvp_neigh_input(&a, na, n, out, &on, &peer, &sa) == PVP_NEIGH_LEARNT);
	CHECK(pvp_neigh_garp(&b, out) == 0, "no IPv4 address: no gratuitous ARP");
	CHECK(sb.nd_rx == 6 && sb.ns_answered == 3 && sb.ignored == 3);
	unit_check_case = "";
}

/* RFC 1071's sum of @p n bytes, by hand: 0 when a checksum in them is right. */
static uint16_t
sum16(const uint8_t *p, uint32_t n)
{
	uint32_t s = 0, i;

	for (i = 0; i + 1 < n; i += 2)
		s += rd16(p + i);
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static void
wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/*
 * An ICMP echo request from A (10.0.0.1) to @p dst as ping sends it:
 * identifier 0x1234, sequence 7, @p data_len bytes 0, 1, 2, ...;
 * @p tag: 802.1Q VLAN id, 0 for none. Its length.
 */
static uint16_t
echo4(uint8_t *f, uint32_t dst, uint16_t data_len, uint16_t tag)
{
	uint32_t l3 = tag != 0 ? 18 : 14, i;
	uint8_t *ip = f + l3, *icmp = ip + 20;

	memset(f, 0, l3 + 28u + data_len);
	memcpy(f, &mac_b, 6);
	memcpy(f + 6, &mac_a, 6);
	if (tag != 0) {
		wr16(f + 12, 0x8100);
		wr16(f + 14, tag);
	}
	wr16(f + l3 - 2, 0x0800);
	ip[0] = 0x45;
	wr16(ip + 2, (uint16_t)(28 + data_len));
	wr16(ip + 4, 0xbeef);
	wr16(ip + 6, 0x4000); /* don't fragment, as Linux sends it */
	ip[8] = 17;
	ip[9] = 1;
	memcpy(ip + 12, "\x0a\0\0\x01", 4);
	ip[16] = (uint8_t)(dst >> 24);
	ip[17] = (uint8_t)(dst >> 16);
	ip[18] = (uint8_t)(dst >> 8);
	ip[19] = (uint8_t)dst;
	wr16(ip + 10, sum16(ip, 20));
	icmp[0] = 8;
	wr16(icmp + 4, 0x1234);
	wr16(icmp + 6, 7);
	for (i = 0; i < data_len; i++)
		icmp[8 + i] = (uint8_t)i;
	wr16(icmp + 2, sum16(icmp, 8u + data_len));
	return (uint16_t)(l3 + 28 + data_len);
}

/* An ICMPv6 echo request from 2001:db8::1 to @p dst (MAC @p dmac), as echo4(). */
static uint16_t
echo6(uint8_t *f, const uint8_t dst[16], const void *dmac, uint16_t data_len)
{
	uint8_t *ip = f + 14, *icmp = ip + 40;
	uint32_t i;

	memset(f, 0, 14 + 48u + data_len);
	memcpy(f, dmac, 6);
	memcpy(f + 6, &mac_a, 6);
	wr16(f + 12, 0x86dd);
	ip[0] = 0x60;
	wr16(ip + 4, (uint16_t)(8 + data_len));
	ip[6] = 58;
	ip[7] = 1;
	memcpy(ip + 8, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
	memcpy(ip + 24, dst, 16);
	icmp[0] = 128;
	wr16(icmp + 4, 0x1234);
	wr16(icmp + 6, 7);
	for (i = 0; i < data_len; i++)
		icmp[8 + i] = (uint8_t)i;
	wr16(icmp + 2, icmp6_sum(f, 14));
	return (uint16_t)(14 + 48 + data_len);
}

/* Port B's echo replies: addresses swapped, type 0 / 129, the rest the request's. */
static void
test_echo(void)
{
	static const uint8_t ip6_b[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};
	static const uint8_t ip6_a[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};
	static const uint8_t all_nodes[16] = {0xff, 0x02, [15] = 1};
	static const uint8_t ll_b[16] = {0xfe, 0x80, [8] = 0x00, 0, 0, 0xff, 0xfe, 0, 0, 0x0b};
	static const uint8_t other6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 3};
	struct pvp_neigh_cfg b, b7, b4;
	struct pvp_neigh_stats st = {0};
	uint8_t f[PVP_NEIGH_FRAME_MAX + 64], out[PVP_NEIGH_FRAME_MAX], ll[16];
	uint16_t n, on = 0;
	const uint8_t *o;

	unit_check_case = "echo";
	cfg_init(&b, "ip=10.0.0.2,ip6=2001:db8::2,answer=16.0.0.1-16.0.0.9", &mac_b);
	cfg_init(&b7, "ip=10.0.0.2,vlan=7", &mac_b);
	cfg_init(&b4, "ip=10.0.0.2", &mac_b);
	pvp_neigh_link_local(&mac_b, ll);
	CHECK(memcmp(ll, ll_b, 16) == 0, "link-local of 02:00:00:00:00:0b");
	/* TRex's ping_ip(): 64 B, 22 of them data. */
	n = echo4(f, 0x0a000002, 22, 0);
	CHECK(n == 64 && !pvp_neigh_is_neigh(f, n));
	CHECK(pvp_neigh_input(&b, f, n, out, &on, NULL, &st) == PVP_NEIGH_REPLY);
	o = out + 14;
	CHECK(on == 64 && memcmp(out, &mac_a, 6) == 0 && memcmp(out + 6, &mac_b, 6) == 0 &&
		      rd16(out + 12) == 0x0800,
	      "reply of %u B", on);
	CHECK(o[0] == 0x45 && rd16(o + 2) == 50 && rd16(o + 4) == 0xbeef && o[8] == 64 &&
	      o[9] == 1);
	CHECK(rd32(o + 12) == 0x0a000002 && rd32(o + 16) == 0x0a000001);
	CHECK(sum16(o, 20) == 0, "IPv4 header checksum off by %#x", sum16(o, 20));
	CHECK(o[20] == 0 && o[21] == 0 && rd16(o + 24) == 0x1234 && rd16(o + 26) == 7);
	CHECK(memcmp(o + 28, f + 14 + 28, 22) == 0, "the data echoed");
	CHECK(sum16(o + 20, 30) == 0, "ICMP checksum off by %#x", sum16(o + 20, 30));
	/* The answer range; 1400 B of data (a reply longer than ARP/ND's). */
	n = echo4(f, 0x10000005, 1400, 0);
	CHECK(pvp_neigh_input(&b, f, n, out, &on, NULL, &st) == PVP_NEIGH_REPLY);
	CHECK(on == n && rd32(out + 14 + 12) == 0x10000005 && sum16(out + 34, 1408) == 0);
	/* On the port's VLAN, tagged back. */
	n = echo4(f, 0x0a000002, 22, 7);
	CHECK(pvp_neigh_input(&b7, f, n, out, &on, NULL, &st) == PVP_NEIGH_REPLY);
	CHECK(on == 68 && rd16(out + 12) == 0x8100 && rd16(out + 14) == 7 && out[18 + 20] == 0);
	CHECK(st.echo == 3 && st.echo_answered == 3 && st.ignored == 0);
	/* Not ours: the caller's, counted nowhere here. */
	n = echo4(f, 0x0a000003, 22, 0);
	CHECK(pvp_neigh_input(&b, f, n, out, &on, NULL, &st) == PVP_NEIGH_NONE);
	n = echo4(f, 0x0a000002, 22, 0);
	f[34] = 0; /* an echo reply */
	CHECK(pvp_neigh_input(&b, f, n, out, &on, NULL, &st) == PVP_NEIGH_NONE);
	CHECK(st.echo == 3 && st.ignored == 0);
	/* Ours but bad: ignored and counted. */
	n = echo4(f, 0x0a000002, 22, 0);
	f[14 + 28] ^= 1; /* ICMP checksum */
	CHECK(pvp_neigh_input(&b, f, n, out, &on, NULL, &st) == PVP_NEIGH_IGNORED);
	n = echo4(f, 0x0a000002, 22, 0);
	f[14 + 10] ^= 1; /* IPv4 header checksum */
	CHECK(pvp_neigh_input(&b, f, n, out, &on, NULL, &st) == PVP_NEIGH_IGNORED);
	n = echo4(f, 0x0a000002, 22, 0);
	CHECK(pvp_neigh_input(&b, f, n - 1, out, &on, NULL, &st) == PVP_NEIGH_IGNORED,
	      "shorter than its total length");
	n = echo4(f, 0x0a000002, 22, 0);
	f[14 + 6] = 0x20; /* a first fragment */
	f[14 + 10] = f[14 + 11] = 0;
	wr16(f + 14 + 10, sum16(f + 14, 20));
	CHECK(pvp_neigh_input(&b, f, n, out, &on, NULL, &st) == PVP_NEIGH_IGNORED);
	n = echo4(f, 0x0a000002, 22, 0);
	CHECK(pvp_neigh_input(&b7, f, n, out, &on, NULL, &st) == PVP_NEIGH_IGNORED,
	      "untagged to a port of VLAN 7");
	n = echo4(f, 0x0a000002, (uint16_t)(PVP_NEIGH_FRAME_MAX - 14 - 28 + 1), 0);
	CHECK(pvp_neigh_input(&b, f, n, out, &on, NULL, &st) == PVP_NEIGH_IGNORED,
	      "a reply longer than PVP_NEIGH_FRAME_MAX");
	CHECK(st.echo == 9 && st.echo_answered == 3 && st.ignored == 6, "%lu %lu %lu",
	      (unsigned long)st.echo, (unsigned long)st.echo_answered, (unsigned long)st.ignored);

	/* ICMPv6 to the port's address, its link-local address and all nodes. */
	memset(&st, 0, sizeof(st));
	for (int k = 0; k < 3; k++) {
		const uint8_t *dst = k == 0 ? ip6_b : k == 1 ? ll_b : all_nodes;

		n = echo6(f, dst, k == 2 ? (const void *)"\x33\x33\0\0\0\x01" : &mac_b, 10);
		CHECK(!pvp_neigh_is_neigh(f, n));
		CHECK(pvp_neigh_input(&b, f, n, out, &on, NULL, &st) == PVP_NEIGH_REPLY, "to %d",
		      k);
		o = out + 14;
		CHECK(on == 72 && memcmp(out, &mac_a, 6) == 0 && memcmp(out + 6, &mac_b, 6) == 0);
		CHECK(o[0] == 0x60 && rd16(o + 4) == 18 && o[6] == 58 && o[7] == 64);
		/* From the address asked, or from the port's own for a group. */
		CHECK(memcmp(o + 8, k == 2 ? ip6_b : dst, 16) == 0 &&
		      memcmp(o + 24, ip6_a, 16) == 0);
		CHECK(o[40] == 129 && o[41] == 0 && rd16(o + 44) == 0x1234 && rd16(o + 46) == 7);
		CHECK(memcmp(o + 48, f + 14 + 48, 10) == 0);
		CHECK(icmp6_sum(out, 14) == 0, "ICMPv6 checksum off by %#x", icmp6_sum(out, 14));
	}
	n = echo6(f, other6, &mac_b, 10);
	CHECK(pvp_neigh_input(&b, f, n, out, &on, NULL, &st) == PVP_NEIGH_NONE);
	/* A port without IPv6 is no IPv6 node: all nodes is not it. */
	n = echo6(f, all_nodes, "\x33\x33\0\0\0\x01", 10);
	CHECK(pvp_neigh_input(&b4, f, n, out, &on, NULL, &st) == PVP_NEIGH_NONE);
	f[14 + 40 + 2] ^= 1;
	CHECK(pvp_neigh_input(&b, f, n, out, &on, NULL, &st) == PVP_NEIGH_IGNORED);
	n = echo6(f, ip6_b, &mac_b, 10);
	CHECK(pvp_neigh_input(&b, f, n - 1, out, &on, NULL, &st) == PVP_NEIGH_IGNORED);
	n = echo6(f, ip6_b, &mac_b, 10);
	f[14 + 8] = 0xff; /* from a group */
	f[14 + 40 + 2] = f[14 + 40 + 3] = 0;
	wr16(f + 14 + 40 + 2, icmp6_sum(f, 14));
	CHECK(pvp_neigh_input(&b, f, n, out, &on, NULL, &st) == PVP_NEIGH_IGNORED);
	CHECK(st.echo == 6 && st.echo_answered == 3 && st.ignored == 3);
	/* Every prefix of both requests: ignored or not ours, never answered. */
	memset(&st, 0, sizeof(st));
	for (int k = 0; k < 2; k++) {
		uint8_t *cut;
		uint16_t len;

		n = k == 0 ? echo4(f, 0x0a000002, 22, 0) : echo6(f, ip6_b, &mac_b, 10);
		for (len = 0; len < n; len++) {
			cut = malloc(len + 1u);
			memcpy(cut, f, len);
			(void)pvp_neigh_input(&b, cut, len, out, &on, NULL, &st);
			free(cut);
		}
	}
	CHECK(st.echo_answered == 0 && st.echo == st.ignored, "a cut request answered");
	unit_check_case = "";
}

/* Tags @p outer (TPID @p tpid) and @p inner (802.1Q) put into untagged frame @p f; its new length. */
static uint16_t
qinq_tag(uint8_t *f, uint16_t n, uint16_t tpid, uint16_t outer, uint16_t inner)
{
	memmove(f + 20, f + 12, n - 12u);
	wr16(f + 12, tpid);
	wr16(f + 14, outer);
	wr16(f + 16, 0x8100);
	wr16(f + 18, inner);
	return (uint16_t)(n + 8);
}

/* A frame into the pcap of the QinQ case, if one was asked for. */
static void
qinq_dump(pcap_dumper_t *d, const uint8_t *f, uint16_t n)
{
	struct pcap_pkthdr h = {.caplen = n, .len = n};

	if (d != NULL)
		pcap_dump((u_char *)d, &h, f);
}

/*
 * Two ports in QinQ 10/20 (802.1ad outer, 802.1Q inner, as TRex's
 * set_vlan([10, 20]) tags): requests, replies and echo replies carry both
 * tags; frames with one tag, the tags swapped, or a third tag are not
 * ours; either TPID is taken outside, as TRex's stack takes it.
 */
static void
test_qinq(const char *pcap_path)
{
	static const uint8_t ip6_b[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};
	struct pvp_neigh_cfg a, b, b10, b2010;
	struct pvp_neigh_stats sa = {0}, sb = {0};
	struct pvp_neigh_peer peer;
	uint8_t f[PVP_NEIGH_FRAME_MAX + 64], rep[PVP_NEIGH_FRAME_MAX];
	pcap_dumper_t *d = NULL;
	pcap_t *pc = NULL;
	uint16_t n, rn = 0;
	char vlan[16];

	unit_check_case = "qinq";
	if (pcap_path != NULL) {
		pc = pcap_open_dead(DLT_EN10MB, 65535);
		d = pc != NULL ? pcap_dump_open(pc, pcap_path) : NULL;
		CHECK(d != NULL, "cannot write %s", pcap_path);
	}
	cfg_init(&a, "ip=10.0.0.1,gw=10.0.0.2,ip6=2001:db8::1,gw6=2001:db8::2,vlan=10/20", &mac_a);
	cfg_init(&b, "ip=10.0.0.2,ip6=2001:db8::2,vlan=10/20", &mac_b);
	cfg_init(&b10, "ip=10.0.0.2,ip6=2001:db8::2,vlan=10", &mac_b);
	cfg_init(&b2010, "ip=10.0.0.2,ip6=2001:db8::2,vlan=20/10", &mac_b);
	CHECK(strcmp(pvp_neigh_vlan_format(&a, vlan, sizeof(vlan)), "10/20") == 0, "%s", vlan);
	CHECK(strcmp(pvp_neigh_vlan_format(&b10, vlan, sizeof(vlan)), "10") == 0, "%s", vlan);
	/* ARP: 14 + 8 + 28 = 50 bytes, padded to 60; outer 802.1ad 10, inner 802.1Q 20. */
	n = pvp_neigh_arp_request(&a, 0x0a000002, f);
	qinq_dump(d, f, n);
	CHECK(n == 60 && rd16(f + 12) == 0x88a8 && rd16(f + 14) == 10 && rd16(f + 16) == 0x8100 &&
		      rd16(f + 18) == 20 && rd16(f + 20) == 0x0806,
	      "request of %u B, %04x %u %04x %u %04x", n, rd16(f + 12), rd16(f + 14), rd16(f + 16),
	      rd16(f + 18), rd16(f + 20));
	CHECK(rd32(f + 22 + 14) == 0x0a000001 && rd32(f + 22 + 24) == 0x0a000002);
	CHECK(pvp_neigh_is_neigh(f, n));
	CHECK(pvp_neigh_input(&b10, f, n, rep, &rn, NULL, &sb) == PVP_NEIGH_IGNORED,
	      "QinQ answered on the outer tag alone");
	CHECK(pvp_neigh_input(&b2010, f, n, rep, &rn, NULL, &sb) == PVP_NEIGH_IGNORED,
	      "QinQ answered with the tags swapped");
	CHECK(pvp_neigh_input(&b, f, n, rep, &rn, NULL, &sb) == PVP_NEIGH_REPLY);
	qinq_dump(d, rep, rn);
	CHECK(rn == 60 && rd16(rep + 12) == 0x88a8 && rd16(rep + 14) == 10 &&
	      rd16(rep + 16) == 0x8100 && rd16(rep + 18) == 20 && rd16(rep + 20) == 0x0806);
	CHECK(rd16(rep + 22 + 6) == 2 && rd32(rep + 22 + 14) == 0x0a000002 &&
	      memcmp(rep, &mac_a, 6) == 0);
	CHECK(pvp_neigh_input(&a, rep, rn, f, &n, &peer, &sa) == PVP_NEIGH_LEARNT &&
	      peer.ip4 == 0x0a000002 && memcmp(&peer.mac, &mac_b, 6) == 0);
	/* One tag only, on the QinQ port: not ours. */
	n = pvp_neigh_arp_request(&b10, 0x0a000002, f);
	CHECK(pvp_neigh_input(&b, f, n, rep, &rn, NULL, &sb) == PVP_NEIGH_IGNORED);
	/* Two 802.1Q tags (no 802.1ad): the ids are what counts, as in TRex's stack. */
	n = pvp_neigh_arp_request(&a, 0x0a000002, f);
	wr16(f + 12, 0x8100);
	CHECK(pvp_neigh_input(&b, f, n, rep, &rn, NULL, &sb) == PVP_NEIGH_REPLY &&
	      rd16(rep + 12) == 0x88a8);
	/* A third tag: no port of ours is on it, and it is nobody's ARP. */
	n = pvp_neigh_arp_request(&a, 0x0a000002, f);
	memmove(f + 26, f + 22, n - 22u);
	wr16(f + 20, 0x8100);
	wr16(f + 22, 30);
	n = (uint16_t)(n + 4);
	CHECK(!pvp_neigh_is_neigh(f, n));
	CHECK(pvp_neigh_input(&b, f, n, rep, &rn, NULL, &sb) == PVP_NEIGH_NONE);
	/* ND: a solicitation and its advertisement, 94 bytes, checksums right. */
	n = pvp_neigh_ns(&a, ip6_b, f);
	qinq_dump(d, f, n);
	CHECK(n == 22 + 40 + 32 && rd16(f + 12) == 0x88a8 && rd16(f + 20) == 0x86dd, "NS of %u B",
	      n);
	CHECK(icmp6_sum(f, 22) == 0 && pvp_neigh_is_neigh(f, n));
	CHECK(pvp_neigh_input(&b10, f, n, rep, &rn, NULL, &sb) == PVP_NEIGH_IGNORED);
	CHECK(pvp_neigh_input(&b, f, n, rep, &rn, NULL, &sb) == PVP_NEIGH_REPLY);
	qinq_dump(d, rep, rn);
	CHECK(rn == 94 && rd16(rep + 14) == 10 && rd16(rep + 18) == 20 && rep[62] == 136 &&
		      icmp6_sum(rep, 22) == 0,
	      "NA of %u B", rn);
	CHECK(pvp_neigh_input(&a, rep, rn, f, &n, &peer, &sa) == PVP_NEIGH_LEARNT &&
	      peer.family == AF_INET6 && memcmp(&peer.mac, &mac_b, 6) == 0);
	/* Echo requests in QinQ (TRex's ping_ip() on a QinQ port): replies in QinQ. */
	n = qinq_tag(f, echo4(f, 0x0a000002, 22, 0), 0x88a8, 10, 20);
	qinq_dump(d, f, n);
	CHECK(pvp_neigh_input(&b10, f, n, rep, &rn, NULL, &sb) == PVP_NEIGH_IGNORED);
	CHECK(pvp_neigh_input(&b, f, n, rep, &rn, NULL, &sb) == PVP_NEIGH_REPLY);
	qinq_dump(d, rep, rn);
	CHECK(rn == n && rd16(rep + 12) == 0x88a8 && rd16(rep + 18) == 20 && rep[22 + 20] == 0 &&
		      sum16(rep + 22, 20) == 0 && sum16(rep + 42, 30) == 0,
	      "echo reply of %u B", rn);
	n = qinq_tag(f, echo6(f, ip6_b, &mac_b, 16), 0x88a8, 10, 20);
	qinq_dump(d, f, n);
	CHECK(pvp_neigh_input(&b, f, n, rep, &rn, NULL, &sb) == PVP_NEIGH_REPLY);
	qinq_dump(d, rep, rn);
	CHECK(rn == n && rep[62] == 129 && icmp6_sum(rep, 22) == 0, "echo6 reply of %u B", rn);
	/* A full 1500-byte echo in QinQ still fits a reply. */
	n = qinq_tag(f, echo4(f, 0x0a000002, 1500 - 28, 0), 0x88a8, 10, 20);
	CHECK(n == 1522 && n <= PVP_NEIGH_FRAME_MAX);
	CHECK(pvp_neigh_input(&b, f, n, rep, &rn, NULL, &sb) == PVP_NEIGH_REPLY && rn == n,
	      "reply of %u B to %u", rn, n);
	n = pvp_neigh_garp(&a, f);
	qinq_dump(d, f, n);
	n = pvp_neigh_unsolicited_na(&a, f);
	qinq_dump(d, f, n);
	CHECK(rd16(f + 12) == 0x88a8 && icmp6_sum(f, 22) == 0);
	if (d != NULL)
		pcap_dump_close(d);
	if (pc != NULL)
		pcap_close(pc);
	unit_check_case = "";
}

/* Every prefix of a frame, and a frame whose option says length 0. */
static void
test_short(void)
{
	static const uint8_t ip6_b[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};
	struct pvp_neigh_cfg a, b;
	struct pvp_neigh_stats st = {0};
	uint8_t f[PVP_NEIGH_FRAME_MAX], out[PVP_NEIGH_FRAME_MAX];
	uint16_t n, on = 0, len;
	uint8_t *cut;

	unit_check_case = "short";
	cfg_init(&a, "ip=10.0.0.1,gw=10.0.0.2,ip6=2001:db8::1,gw6=2001:db8::2", &mac_a);
	cfg_init(&b, "ip=10.0.0.2,ip6=2001:db8::2", &mac_b);
	for (int k = 0; k < 2; k++) {
		(void)(k == 0 ? pvp_neigh_arp_request(&a, 0x0a000002, f)
			      : pvp_neigh_ns(&a, ip6_b, f));
		n = k == 0 ? 14 + 28 : 86; /* what is left out is padding */
		for (len = 0; len < n; len++) {
			/* On the heap, so that a read past the end is seen by ASan. */
			cut = malloc(len + 1u);
			memcpy(cut, f, len);
			(void)pvp_neigh_input(&b, cut, len, out, &on, NULL, &st);
			free(cut);
		}
	}
	CHECK(st.arp_answered == 0 && st.ns_answered == 0, "a cut frame answered");
	/* An option of length 0 would loop for ever: the frame is dropped. */
	n = pvp_neigh_ns(&a, ip6_b, f);
	f[54 + 25] = 0;
	f[56] = f[57] = 0;
	{
		uint16_t s = icmp6_sum(f, 14);

		f[56] = (uint8_t)(s >> 8);
		f[57] = (uint8_t)s;
	}
	CHECK(pvp_neigh_input(&b, f, n, out, &on, NULL, &st) == PVP_NEIGH_REPLY,
	      "answered to the frame's source MAC");
	CHECK(memcmp(out, &mac_a, 6) == 0);
	/* Neither ARP nor ND: the caller's, nothing counted. */
	memset(f, 0, sizeof(f));
	f[12] = 0x08;
	memset(&st, 0, sizeof(st));
	CHECK(pvp_neigh_input(&b, f, 60, out, &on, NULL, &st) == PVP_NEIGH_NONE);
	CHECK(!pvp_neigh_is_neigh(f, 60));
	f[12] = 0x86;
	f[13] = 0xdd;
	f[14 + 6] = 58;
	f[54] = 128; /* echo request */
	CHECK(pvp_neigh_input(&b, f, 86, out, &on, NULL, &st) == PVP_NEIGH_NONE);
	CHECK(st.nd_rx == 0 && st.arp_rx == 0 && st.ignored == 0);
	unit_check_case = "";
}

static void
test_parse(void)
{
	static const struct {
		const char *s;
		const char *msg; /* NULL: accepted */
	} cases[] = {
		{"ip=10.0.0.1", NULL},
		{"ip6=2001:db8::1", NULL},
		{"ip=10.0.0.1,gw=10.0.0.254,vlan=4094,announce=500ms,answer=16.0.0.1-16.0.0.255",
		 NULL},
		{"", "--addr 0: give ip or ip6"},
		{"gw=10.0.0.1", "--addr 0: gw needs ip (the address ARP asks from)"},
		{"ip6=2001:db8::1,gw=10.0.0.1",
		 "--addr 0: gw needs ip (the address ARP asks from)"},
		{"ip=10.0.0.1,gw6=fe80::1", "--addr 0: gw6 needs ip6 (the address ND asks from)"},
		{"ip=10.0.0.256", "--addr 0: ip '10.0.0.256' is not an IPv4 address of a host"},
		{"ip=0.0.0.0", "--addr 0: ip '0.0.0.0' is not an IPv4 address of a host"},
		{"ip6=ff02::1", "--addr 0: ip6 'ff02::1' is not a unicast IPv6 address"},
		{"ip=10.0.0.1,ip=10.0.0.2", "--addr 0: ip is given twice"},
		{"ip=10.0.0.1,mac=1",
		 "--addr 0: unknown key 'mac' (ip, gw, ip6, gw6, vlan, answer, "
		 "answer6, announce)"},
		{"ip", "--addr 0: 'ip' is not KEY=VALUE"},
		{"ip=10.0.0.1,answer=16.0.0.9-16.0.0.1",
		 "--addr 0: answer '16.0.0.9-16.0.0.1' is not LO-HI of IPv4 addresses, LO <= HI"},
		{"ip=10.0.0.1,answer=16.0.0.9", "--addr 0: answer '16.0.0.9' is not LO-HI"},
		{"ip6=::1,answer6=::9-::1",
		 "--addr 0: answer6 '::9-::1' is not LO-HI of IPv6 addresses, LO <= HI"},
		{"ip=10.0.0.1,\nvlan=7", "--addr 0: character 0x0a at 13 is not allowed"},
		{"ip=10.0.0.1 ", "--addr 0: character 0x20 at 12 is not allowed"},
		{"ip=10.0.0.1,vlan=4095", NULL /* checked by prefix below */},
		{"ip=10.0.0.1,announce=0", NULL},
		{"ip=10.0.0.1,vlan=10/20", NULL},
		{"ip=10.0.0.1,vlan=10/20/30",
		 "--addr 0: vlan '10/20/30': at most two tags, OUTER/INNER"},
		{"ip=10.0.0.1,vlan=10/0",
		 "--addr 0: vlan: \"0\" must be a whole number in 1..4094"},
		{"ip=10.0.0.1,vlan=/20", "--addr 0: vlan: \"\" must be a whole number in 1..4094"},
		{"vlan=10/20", "--addr 0: give ip or ip6"},
	};
	struct pvp_neigh_cfg c;
	char err[256];
	unsigned int i;
	int rc;

	for (i = 0; i < RTE_DIM(cases); i++) {
		memset(&c, 0, sizeof(c));
		err[0] = '\0';
		rc = pvp_neigh_parse("--addr 0", cases[i].s, &c, err, sizeof(err));
		if (strstr(cases[i].s, "vlan=4095") != NULL || strstr(cases[i].s, "announce=0")) {
			CHECK(rc != 0 && strncmp(err, "--addr 0: ", 10) == 0, "%s: %s", cases[i].s,
			      err);
			continue;
		}
		if (cases[i].msg == NULL)
			CHECK(rc == 0, "%s: %s", cases[i].s, err);
		else
			CHECK(rc == -EINVAL && strcmp(err, cases[i].msg) == 0, "%s: %s", cases[i].s,
			      err);
	}
	/* The PORT: prefix of --addr, for pvpkit-gen and pvpkit-fwd alike. */
	{
		uint32_t port = 0;

		memset(&c, 0, sizeof(c));
		CHECK(pvp_neigh_parse_port("--addr", "3:ip=10.0.0.1", 7, &port, &c, err,
					   sizeof(err)) == 0 &&
		      port == 3 && c.ip4 == 0x0a000001);
		err[0] = '\0';
		CHECK(pvp_neigh_parse_port("--addr", "3:ip=1.2.3", 7, &port, &c, err,
					   sizeof(err)) != 0 &&
			      strcmp(err,
				     "--addr 3: ip '1.2.3' is not an IPv4 address of a host") == 0,
		      "%s", err);
		err[0] = '\0';
		CHECK(pvp_neigh_parse_port("--addr", "ip=10.0.0.1", 7, &port, &c, err,
					   sizeof(err)) != 0 &&
			      strstr(err, "is not PORT:KEY=VALUE") != NULL,
		      "%s", err);
	}
	memset(&c, 0, sizeof(c));
	CHECK(pvp_neigh_parse("x", cases[2].s, &c, err, sizeof(err)) == 0);
	CHECK(c.ip4 == 0x0a000001 && c.gw4 == 0x0a0000fe && c.vlan[0] == 4094 && c.vlan[1] == 0 &&
	      c.announce_ms == 500 && c.ans4.set && c.ans4.lo == 0x10000001 &&
	      c.ans4.hi == 0x100000ff);
}

int
main(int argc, char **argv)
{
	test_arp();
	test_vlan();
	test_qinq(argc > 1 ? argv[1] : NULL);
	test_nd();
	test_echo();
	test_short();
	test_parse();
	return unit_check_end("neigh");
}
