/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * 5tswap: swap MAC addresses, IPv4/IPv6 addresses and UDP/TCP ports, so
 * the packet goes back as the reply of the flow it belongs to. Packets
 * that are not IP are only MAC-swapped.
 *
 * No checksum is recomputed, and none needs to be. The IPv4 header
 * checksum and the TCP/UDP checksums are ones'-complement sums of 16-bit
 * words, and such a sum does not depend on the order of its words. The
 * IPv4 checksum covers both addresses; the L4 checksum covers both
 * addresses (pseudo-header) and both ports; each swap exchanges words
 * inside the same sum, so every checksum that was valid stays valid (and
 * a UDP checksum of 0, "none", stays 0). SCTP's CRC32c is not such a sum,
 * so SCTP ports are left alone.
 */

#include <rte_ip.h>
#include <rte_prefetch.h>

#include "fwd.h"

/** VLAN tags looked through (one, or QinQ's two). */
#define FTS_MAX_VLAN 2

static inline void
fts_swap_bytes(void *a, void *b, size_t len)
{
	uint8_t *x = a, *y = b, t;
	size_t i;

	for (i = 0; i < len; i++) {
		t = x[i];
		x[i] = y[i];
		y[i] = t;
	}
}

/* Rewrite one packet; only its first segment is looked at. */
static inline void
fts_swap_one(struct rte_mbuf *m)
{
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	uint32_t len = m->data_len;
	uint32_t off = sizeof(struct rte_ether_hdr);
	struct rte_ether_hdr *eth;
	rte_be16_t type;
	uint8_t proto;
	int tags;

	if (unlikely(len < off))
		return;
	eth = (struct rte_ether_hdr *)p;
	fwd_macswap_one(m);

	type = eth->ether_type;
	for (tags = 0; tags < FTS_MAX_VLAN; tags++) {
		struct rte_vlan_hdr *vh;

		if (type != RTE_BE16(RTE_ETHER_TYPE_VLAN) && type != RTE_BE16(RTE_ETHER_TYPE_QINQ))
			break;
		if (off + sizeof(*vh) > len)
			return;
		vh = (struct rte_vlan_hdr *)(p + off);
		type = vh->eth_proto;
		off += sizeof(*vh);
	}

	if (type == RTE_BE16(RTE_ETHER_TYPE_IPV4)) {
		struct rte_ipv4_hdr *ip;
		uint32_t ihl;

		if (off + sizeof(*ip) > len)
			return;
		ip = (struct rte_ipv4_hdr *)(p + off);
		ihl = (ip->version_ihl & RTE_IPV4_HDR_IHL_MASK) * RTE_IPV4_IHL_MULTIPLIER;
		if (ihl < sizeof(*ip) || off + ihl > len)
			return;
		fts_swap_bytes(&ip->src_addr, &ip->dst_addr, sizeof(ip->src_addr));
		/* A non-first fragment carries no L4 header. */
		if ((ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_OFFSET_MASK)) != 0)
			return;
		proto = ip->next_proto_id;
		off += ihl;
	} else if (type == RTE_BE16(RTE_ETHER_TYPE_IPV6)) {
		struct rte_ipv6_hdr *ip6;

		if (off + sizeof(*ip6) > len)
			return;
		ip6 = (struct rte_ipv6_hdr *)(p + off);
		fts_swap_bytes(ip6->src_addr, ip6->dst_addr, sizeof(ip6->src_addr));
		/* Extension headers are not walked: their L4 ports stay. */
		proto = ip6->proto;
		off += sizeof(*ip6);
	} else {
		return;
	}

	if ((proto == IPPROTO_UDP || proto == IPPROTO_TCP) && off + 4 <= len) {
		/* Source and destination ports are the first two words of both. */
		rte_be16_t *ports = (rte_be16_t *)(p + off);
		rte_be16_t t = ports[0];

		ports[0] = ports[1];
		ports[1] = t;
	}
}

static uint16_t
fts_fwd(struct fwd_stream *fs)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	uint64_t bytes;
	uint16_t n, i;

	n = fwd_rx_burst(fs, pkts, &bytes);
	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		fts_swap_one(pkts[i]);
	}
	fwd_tx_burst(fs, pkts, n, bytes);
	return n;
}

const struct fwd_engine fwd_5tswap_engine = {
	.name = "5tswap",
	.help = "swap MACs, IPv4/IPv6 addresses and UDP/TCP ports (checksums stay valid)",
	.packet_fwd = fts_fwd,
};
