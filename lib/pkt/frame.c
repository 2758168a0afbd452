/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Reading frames: the offsets of their headers (Ethernet, up to two VLAN
 * tags, IPv4/IPv6, UDP/TCP, VXLAN) and the payload signature. Plain byte
 * buffers, no EAL: pvp_sig_find() only looks at an mbuf's first segment.
 */

#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "pkt_private.h"

/*
 * Parse one Ethernet frame (L2 at @off) up to the end of its L4 header.
 * Fills the offsets and returns the payload offset, or 0 when the frame
 * is not IPv4/IPv6 or truncated (a frame without L4 sets l4 to 0 and
 * returns the end of the L3 header).
 */
static uint32_t
parse_one(const uint8_t *d, uint32_t off, uint32_t len, uint16_t *l3, uint16_t *l4, uint8_t *ver,
	  uint8_t *proto, uint16_t *l3_end, uint8_t *ihl)
{
	uint32_t et, ntag = 0, end, l4off;
	uint8_t p;

	*l4 = 0;
	*proto = 0;
	if (off + RTE_ETHER_HDR_LEN > len)
		return 0;
	et = pkt_rd16(d + off + 12);
	off += RTE_ETHER_HDR_LEN;
	while ((et == RTE_ETHER_TYPE_VLAN || et == RTE_ETHER_TYPE_QINQ ||
		et == RTE_ETHER_TYPE_QINQ1) &&
	       ntag < 2) {
		if (off + 4 > len)
			return 0;
		et = pkt_rd16(d + off + 2);
		off += 4;
		ntag++;
	}
	*l3 = off;
	if (et == RTE_ETHER_TYPE_IPV4) {
		uint16_t frag;

		if (off + 20 > len || (d[off] >> 4) != 4 || (d[off] & 0xf) < 5)
			return 0;
		*ver = 4;
		*ihl = (d[off] & 0xf) * 4;
		end = off + pkt_rd16(d + off + 2);
		if (end > len || end < off + *ihl)
			return 0;
		*l3_end = end;
		p = d[off + 9];
		l4off = off + *ihl;
		frag = pkt_rd16(d + off + 6);
		/* Only a first (or no) fragment has an L4 header. */
		if ((frag & RTE_IPV4_HDR_OFFSET_MASK) != 0)
			return l4off;
	} else if (et == RTE_ETHER_TYPE_IPV6) {
		if (off + 40 > len || (d[off] >> 4) != 6)
			return 0;
		*ver = 6;
		*ihl = 0;
		end = off + 40 + pkt_rd16(d + off + 4);
		if (end > len)
			return 0;
		*l3_end = end;
		p = d[off + 6];
		l4off = off + 40;
	} else {
		return 0;
	}
	if (p == IPPROTO_UDP) {
		if (l4off + PKT_UDP_HLEN > end)
			return l4off;
		*l4 = l4off;
		*proto = p;
		return l4off + PKT_UDP_HLEN;
	}
	if (p == IPPROTO_TCP) {
		uint32_t doff;

		if (l4off + PKT_TCP_HLEN > end)
			return l4off;
		doff = (d[l4off + 12] >> 4) * 4;
		if (doff < PKT_TCP_HLEN || l4off + doff > end)
			return l4off;
		*l4 = l4off;
		*proto = p;
		return l4off + doff;
	}
	return l4off;
}

int
pvp_pkt_parse(const uint8_t *data, uint32_t len, struct pvp_pkt_layout *lay)
{
	uint32_t pay;

	memset(lay, 0, sizeof(*lay));
	pay = parse_one(data, 0, len, &lay->l3_off, &lay->l4_off, &lay->ip_ver, &lay->l4_proto,
			&lay->l3_end, &lay->ihl);
	if (pay == 0)
		return -EINVAL;
	if (lay->l4_off == 0)
		return 0;
	lay->payload_off = pay;
	if (lay->l4_proto == IPPROTO_UDP &&
	    pkt_rd16(data + lay->l4_off + 2) == PVP_PKT_VXLAN_PORT &&
	    pay + PKT_VXLAN_HLEN + RTE_ETHER_HDR_LEN <= lay->l3_end) {
		uint32_t ipay;

		ipay = parse_one(data, pay + PKT_VXLAN_HLEN, lay->l3_end, &lay->in_l3_off,
				 &lay->in_l4_off, &lay->in_ip_ver, &lay->in_l4_proto,
				 &lay->in_l3_end, &lay->in_ihl);
		if (ipay == 0) {
			lay->in_l3_off = 0;
			return 0;
		}
		lay->in_l2_off = pay + PKT_VXLAN_HLEN;
		lay->payload_off = lay->in_l4_off != 0 ? ipay : 0;
	}
	return 0;
}

uint16_t
pkt_sig_tail_off(const struct pvp_pkt_layout *lay)
{
	uint32_t hdr_end =
		lay->l3_off + (lay->ip_ver == 4 ? lay->ihl : sizeof(struct rte_ipv6_hdr));

	/*
	 * An inner IP header is at least 20 B, so this stays after the VXLAN
	 * header. Once written, the magic's "PV" in an inner IPv4 header's
	 * fragment field makes the receiver's parse stop there as well.
	 */
	if (lay->in_l3_off != 0 && lay->in_l4_off == 0)
		return (uint16_t)(lay->in_l3_end - PVP_SIG_LEN);
	if (lay->l4_off != 0 || lay->in_l3_off != 0 || hdr_end + PVP_SIG_LEN > lay->l3_end)
		return 0;
	return (uint16_t)(lay->l3_end - PVP_SIG_LEN);
}

/* Whether the signature's magic is at @p off of @p data. */
static bool
pkt_sig_at(const uint8_t *data, uint32_t off)
{
	return pkt_rd16(data + off) == PVP_SIG_MAGIC >> 16 &&
	       pkt_rd16(data + off + 2) == (PVP_SIG_MAGIC & 0xffff);
}

const struct pvp_sig *
pvp_sig_find_buf(const uint8_t *data, uint32_t len)
{
	struct pvp_pkt_layout lay;
	uint32_t end, off;

	if (pvp_pkt_parse(data, len, &lay) != 0)
		return NULL;
	off = lay.payload_off != 0 ? lay.payload_off : pkt_sig_tail_off(&lay);
	end = lay.in_l3_off != 0 ? lay.in_l3_end : lay.l3_end;
	if (off == 0 || off + PVP_SIG_LEN > end)
		return NULL;
	if (pkt_sig_at(data, off))
		return (const struct pvp_sig *)(data + off);
	/* After a varied tunnel header it is at the payload's end (raw.c). */
	off = end - PVP_SIG_LEN;
	if (lay.payload_off != 0 && off > lay.payload_off && pkt_sig_at(data, off))
		return (const struct pvp_sig *)(data + off);
	return NULL;
}

const struct pvp_sig *
pvp_sig_find(const struct rte_mbuf *m)
{
	/* Our own parser rather than rte_net_get_ptype(): it must also
	 * step into VXLAN, and only the first segment is looked at (the
	 * signature sits within the first 128 bytes of any frame we send). */
	return pvp_sig_find_buf(rte_pktmbuf_mtod(m, const uint8_t *), rte_pktmbuf_data_len(m));
}
