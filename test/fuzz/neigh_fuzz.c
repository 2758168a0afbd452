/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: lib/neigh, the ARP / IPv6 ND responder of pvpkit-gen and
 * pvpkit-fwd, on the frames a hostile or broken peer sends, and its
 * address option (--addr) on any text. The frame goes to a responder
 * with addresses, gateways and answer ranges (untagged, on VLAN 7, then in
 * QinQ 7/8):
 *  - it is classified as ARP/ND exactly when pvp_neigh_is_neigh() says so,
 *    or as an echo request to the port, and counted once (arp_rx, nd_rx or
 *    echo, then answered, learnt or ignored);
 *  - a reply fits PVP_NEIGH_FRAME_MAX, is ARP/ND or an echo reply as long
 *    as its request, comes from the port's MAC, and its checksums are right;
 *  - a learnt neighbour is one of the gateways.
 * The same bytes as text go to pvp_neigh_parse(): accepted, or one line.
 */

#include <arpa/inet.h>
#include <stdint.h>
#include <string.h>

#include <rte_ip.h>

#include "pvp_neigh.h"

#include "fuzz.h"

static void
check_frame(const struct pvp_neigh_cfg *c, const uint8_t *f, size_t size)
{
	struct pvp_neigh_stats st = {0};
	uint8_t out[PVP_NEIGH_FRAME_MAX];
	struct pvp_neigh_peer peer;
	enum pvp_neigh_verdict v;
	uint16_t len = 0;
	uint64_t seen;

	v = pvp_neigh_input(c, f, (uint32_t)size, out, &len, &peer, &st);
	seen = st.arp_rx + st.nd_rx + st.echo;
	FUZZ_CHECK((v != PVP_NEIGH_NONE) == (pvp_neigh_is_neigh(f, (uint32_t)size) || st.echo != 0),
		   "verdict %d, classifier disagrees", (int)v);
	FUZZ_CHECK(seen == (v != PVP_NEIGH_NONE), "counted %llu times", (unsigned long long)seen);
	FUZZ_CHECK(st.arp_answered + st.ns_answered + st.echo_answered + st.arp_learnt +
				   st.na_learnt + st.ignored ==
			   seen,
		   "outcomes do not add up");
	if (v == PVP_NEIGH_REPLY) {
		uint32_t l3 = 14 + (c->vlan[0] != 0) * 4 + (c->vlan[1] != 0) * 4;

		FUZZ_CHECK(len >= 60 && len <= PVP_NEIGH_FRAME_MAX, "reply of %u B", len);
		FUZZ_CHECK(pvp_neigh_is_neigh(out, len) != (st.echo_answered != 0),
			   "the reply is not ARP/ND or an echo reply");
		FUZZ_CHECK(st.echo_answered == 0 || len <= RTE_MAX(size, 60u),
			   "echo reply of %u B to %zu", len, size);
		FUZZ_CHECK(memcmp(out + 6, &c->mac, 6) == 0, "reply not from the port's MAC");
		if (out[l3 - 2] == 0x86)
			FUZZ_CHECK(rte_ipv6_udptcp_cksum_verify(
					   (const struct rte_ipv6_hdr *)(out + l3),
					   out + l3 + 40) == 0,
				   "ICMPv6 checksum wrong");
		if (out[l3 - 2] == 0x08 && out[l3 - 1] == 0x00)
			FUZZ_CHECK(rte_raw_cksum(out + l3, 20) == 0xffff &&
					   rte_raw_cksum(out + l3 + 20,
							 (size_t)(out[l3 + 2] << 8 | out[l3 + 3]) -
								 20) == 0xffff,
				   "echo reply checksums wrong");
	}
	if (v == PVP_NEIGH_LEARNT)
		FUZZ_CHECK((peer.family == AF_INET && peer.ip4 == c->gw4) ||
				   (peer.family == AF_INET6 && memcmp(peer.ip6, c->gw6, 16) == 0),
			   "learnt a neighbour that is no gateway");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const opt[] = {
		"ip=10.0.0.1,gw=10.0.0.2,ip6=2001:db8::1,gw6=2001:db8::2,answer=16.0.0.1-16.0.0."
		"255,"
		"answer6=2001:db8:1::-2001:db8:1::ffff",
		"vlan=7,ip=10.0.0.1,gw=10.0.0.2,ip6=2001:db8::1,gw6=2001:db8::2",
		"vlan=7/8,ip=10.0.0.1,gw=10.0.0.2,ip6=2001:db8::1,gw6=2001:db8::2",
	};
	struct pvp_neigh_cfg c;
	char err[256], *s;
	unsigned int i;

	for (i = 0; i < RTE_DIM(opt); i++) {
		memset(&c, 0, sizeof(c));
		FUZZ_CHECK(pvp_neigh_parse("--addr 0", opt[i], &c, err, sizeof(err)) == 0, "%s",
			   err);
		c.mac.addr_bytes[0] = 0x02;
		c.mac.addr_bytes[5] = 0x0a;
		check_frame(&c, data, size);
	}
	s = fuzz_strndup(data, size);
	memset(&c, 0, sizeof(c));
	err[0] = '\0';
	if (pvp_neigh_parse("--addr 0", s, &c, err, sizeof(err)) != 0)
		FUZZ_CHECK(strncmp(err, "--addr 0: ", 10) == 0 && strchr(err, '\n') == NULL,
			   "message \"%s\"", err);
	else
		FUZZ_CHECK(c.ip4 != 0 || c.has_ip6, "accepted without an address");
	free(s);
	return 0;
}
