/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Frame parsing, template building, the field engine and the signature
 * stamp. Everything here works on plain byte buffers so the unit tests
 * need no EAL; the sender copies the results into mbufs.
 */

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "pkt_private.h"

RTE_LOG_REGISTER_DEFAULT(pvp_pkt_logtype, INFO);

#define VXLAN_HLEN 8
#define TCP_HLEN   20
#define UDP_HLEN   8

static inline uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline void
wr16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

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
	et = rd16(d + off + 12);
	off += RTE_ETHER_HDR_LEN;
	while ((et == RTE_ETHER_TYPE_VLAN || et == RTE_ETHER_TYPE_QINQ ||
		et == RTE_ETHER_TYPE_QINQ1) &&
	       ntag < 2) {
		if (off + 4 > len)
			return 0;
		et = rd16(d + off + 2);
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
		end = off + rd16(d + off + 2);
		if (end > len || end < off + *ihl)
			return 0;
		*l3_end = end;
		p = d[off + 9];
		l4off = off + *ihl;
		frag = rd16(d + off + 6);
		/* Only a first (or no) fragment has an L4 header. */
		if ((frag & RTE_IPV4_HDR_OFFSET_MASK) != 0)
			return l4off;
	} else if (et == RTE_ETHER_TYPE_IPV6) {
		if (off + 40 > len || (d[off] >> 4) != 6)
			return 0;
		*ver = 6;
		*ihl = 0;
		end = off + 40 + rd16(d + off + 4);
		if (end > len)
			return 0;
		*l3_end = end;
		p = d[off + 6];
		l4off = off + 40;
	} else {
		return 0;
	}
	if (p == IPPROTO_UDP) {
		if (l4off + UDP_HLEN > end)
			return l4off;
		*l4 = l4off;
		*proto = p;
		return l4off + UDP_HLEN;
	}
	if (p == IPPROTO_TCP) {
		uint32_t doff;

		if (l4off + TCP_HLEN > end)
			return l4off;
		doff = (d[l4off + 12] >> 4) * 4;
		if (doff < TCP_HLEN || l4off + doff > end)
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
	if (lay->l4_proto == IPPROTO_UDP && rd16(data + lay->l4_off + 2) == PVP_PKT_VXLAN_PORT &&
	    pay + VXLAN_HLEN + RTE_ETHER_HDR_LEN <= lay->l3_end) {
		uint32_t ipay;

		ipay = parse_one(data, pay + VXLAN_HLEN, lay->l3_end, &lay->in_l3_off,
				 &lay->in_l4_off, &lay->in_ip_ver, &lay->in_l4_proto,
				 &lay->in_l3_end, &lay->in_ihl);
		if (ipay == 0) {
			lay->in_l3_off = 0;
			return 0;
		}
		lay->in_l2_off = pay + VXLAN_HLEN;
		lay->payload_off = lay->in_l4_off != 0 ? ipay : 0;
	}
	return 0;
}

const struct pvp_sig *
pvp_sig_find_buf(const uint8_t *data, uint32_t len)
{
	struct pvp_pkt_layout lay;
	uint32_t end;

	if (pvp_pkt_parse(data, len, &lay) != 0 || lay.payload_off == 0)
		return NULL;
	end = lay.in_l3_off != 0 ? lay.in_l3_end : lay.l3_end;
	if ((uint32_t)lay.payload_off + PVP_SIG_LEN > end)
		return NULL;
	if (rd16(data + lay.payload_off) != PVP_SIG_MAGIC >> 16 ||
	    rd16(data + lay.payload_off + 2) != (PVP_SIG_MAGIC & 0xffff))
		return NULL;
	return (const struct pvp_sig *)(data + lay.payload_off);
}

const struct pvp_sig *
pvp_sig_find(const struct rte_mbuf *m)
{
	/* Our own parser rather than rte_net_get_ptype(): it must also
	 * step into VXLAN, and only the first segment is looked at (the
	 * signature sits within the first 128 bytes of any frame we send). */
	return pvp_sig_find_buf(rte_pktmbuf_mtod(m, const uint8_t *), rte_pktmbuf_data_len(m));
}

/* ---- checksums ---- */

static void
add_loc(struct pvp_csum_loc *loc, uint16_t off, uint8_t flags)
{
	if (loc->n < RTE_DIM(loc->off)) {
		loc->off[loc->n] = off;
		loc->flags[loc->n] = flags;
		loc->n++;
	}
}

static inline bool
overlap(uint32_t a, uint32_t alen, uint32_t b, uint32_t blen)
{
	return a < b + blen && b < a + alen;
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

	if (ver == 4 && overlap(off, len, l3, ihl))
		add_loc(loc, l3 + 10, PVP_CSUM_F_DATA);
	if (l4 == 0)
		return;
	if (proto == IPPROTO_UDP && rd16(d + l4 + 6) == 0)
		return; /* no UDP checksum (IPv4 only): nothing to keep */
	flags = 0;
	/* The L4 range and the addresses of the pseudo header. */
	if (overlap(off, len, l4, l3_end - l4) || (ver == 4 && overlap(off, len, l3 + 12, 8)) ||
	    (ver == 6 && overlap(off, len, l3 + 8, 32)))
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
		old = rd16(pkt + loc->off[j]);
		/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'). */
		nv = (uint16_t)~pkt_fold((uint16_t)~old + acc);
		if (nv == 0 && (f & PVP_CSUM_F_UDP))
			nv = 0xffff;
		wr16(pkt + loc->off[j], nv);
		chg[j] = pkt_fold((uint32_t)(uint16_t)~old + nv);
	}
}

/* Full L4 checksum of one level, the checksum field zeroed first. */
static void
l4_full(uint8_t *d, uint16_t l3, uint8_t ver, uint16_t l4, uint8_t proto)
{
	uint8_t *ck = d + l4 + (proto == IPPROTO_UDP ? 6 : 16);
	uint16_t c;

	if (proto == IPPROTO_UDP && ver == 4 && rd16(ck) == 0)
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

/* ---- the field engine ---- */

static inline uint64_t
splitmix64(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

/*
 * A seeded permutation of [0, range): a 4-round balanced Feistel network
 * on the smallest even number of bits that holds range, with cycle
 * walking back into the range (at most 4 tries on average). Distinct
 * inputs give distinct outputs, so "random" still makes exactly N flows.
 */
static uint64_t
permute(uint64_t x, uint64_t range, uint64_t seed)
{
	unsigned int bits, h, r;
	uint64_t mask;

	if (range <= 1)
		return 0;
	bits = 64 - __builtin_clzll(range - 1);
	h = (bits + 1) / 2;
	mask = (UINT64_C(1) << h) - 1;
	do {
		uint64_t l = x >> h, rr = x & mask;

		for (r = 0; r < 4; r++) {
			uint64_t t = l ^ (splitmix64(seed ^ ((uint64_t)r << 56) ^ rr) & mask);

			l = rr;
			rr = t;
		}
		x = l << h | rr;
	} while (x >= range);
	return x;
}

uint32_t
pvp_var_value(const struct pvp_var *v, uint64_t flow)
{
	uint64_t range = (uint64_t)v->max - v->min + 1;
	uint64_t k = v->div > 1 ? flow / v->div : flow;

	/* Divisions are the cost here: skip those that change nothing
	 * (the usual case is flow < range and step 1). */
	if (k >= range)
		k %= range;
	if (v->op == PVP_VAR_RANDOM)
		return v->min + (uint32_t)permute(k, range, v->seed);
	if (v->step != 1) {
		k *= v->step % range;
		if (k >= range)
			k %= range;
	}
	return v->op == PVP_VAR_DEC ? v->max - (uint32_t)k : v->min + (uint32_t)k;
}

static inline void
write_field(uint8_t *pkt, const struct pvp_slot *sl, uint32_t val)
{
	uint8_t *p = pkt + sl->off;
	uint32_t olds, news;
	uint8_t nb[4];
	unsigned int i;

	for (i = 0; i < sl->len; i++)
		nb[i] = (uint8_t)(val >> (8 * (sl->len - 1 - i)));
	olds = pkt_sum(p, sl->off, sl->len);
	memcpy(p, nb, sl->len);
	if (sl->csum.n == 0)
		return;
	news = pkt_sum(p, sl->off, sl->len);
	pkt_csum_apply(pkt, &sl->csum, pkt_fold((uint16_t)~pkt_fold(olds) + pkt_fold(news)));
}

void
pvp_flow_apply(const struct pvp_stream *s, const struct pvp_tmpl *t, uint64_t flow, uint8_t *pkt)
{
	unsigned int i;

	for (i = 0; i < s->n_vars; i++)
		write_field(pkt, &t->slot[i], pvp_var_value(&s->vars[i], flow));
}

void
pvp_flow_build(const struct pvp_stream *s, const struct pvp_tmpl *t, uint64_t flow, uint8_t *buf)
{
	memcpy(buf, t->data, t->len);
	pvp_flow_apply(s, t, flow, buf);
}

void
pvp_sig_stamp(const struct pvp_tmpl *t, uint8_t *pkt, uint32_t seq, uint32_t tx_ts)
{
	struct pvp_sig *sig;
	uint32_t olds, news;
	uint16_t off = t->sig_off + offsetof(struct pvp_sig, seq);

	if (t->sig_off == 0)
		return;
	sig = (struct pvp_sig *)(pkt + t->sig_off);
	/* seq and tx_ts are 8 contiguous bytes at an even offset. */
	olds = pkt_sum(pkt + off, off, 8);
	sig->seq = rte_cpu_to_be_32(seq);
	sig->tx_ts = tx_ts;
	if (t->sig_csum.n == 0)
		return;
	news = pkt_sum(pkt + off, off, 8);
	pkt_csum_apply(pkt, &t->sig_csum, pkt_fold((uint16_t)~pkt_fold(olds) + pkt_fold(news)));
}

/* ---- IMIX ---- */

const struct pvp_imix pvp_imix_trex[3] = {
	{.size = 64, .weight = 28},
	{.size = 594, .weight = 20},
	{.size = 1518, .weight = 4},
};

static uint32_t
gcd32(uint32_t a, uint32_t b)
{
	while (b != 0) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static uint32_t
imix_gcd(const struct pvp_imix *imix, uint32_t n)
{
	uint32_t g = 0, i;

	for (i = 0; i < n; i++)
		g = gcd32(g, imix[i].weight);
	return g == 0 ? 1 : g;
}

uint32_t
pvp_imix_cycle_len(const struct pvp_imix *imix, uint32_t n)
{
	uint32_t g = imix_gcd(imix, n), i;
	uint64_t sum = 0;

	/* 16 weights of up to 2^32 - 1 would wrap 32 bits: saturate, the
	 * parser refuses cycles over 1,000,000 anyway. */
	for (i = 0; i < n; i++)
		sum += imix[i].weight / g;
	return sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
}

uint32_t
pvp_imix_expand(const struct pvp_imix *imix, uint32_t n, uint32_t *order)
{
	uint32_t g = imix_gcd(imix, n), total = pvp_imix_cycle_len(imix, n), i, k;
	int64_t cur[PVP_PKT_MAX_IMIX] = {0};

	if (n > PVP_PKT_MAX_IMIX)
		return 0;
	/* Smooth weighted round robin: every step each entry gains its
	 * weight, the largest is picked and pays the total. Over a cycle
	 * each entry is picked exactly weight times, spread out. */
	for (k = 0; k < total; k++) {
		uint32_t best = 0;

		for (i = 0; i < n; i++) {
			cur[i] += imix[i].weight / g;
			if (cur[i] > cur[best])
				best = i;
		}
		cur[best] -= total;
		order[k] = best;
	}
	return total;
}

/* ---- templates ---- */

static uint32_t
hdr_len(const struct pvp_hdr *h)
{
	return RTE_ETHER_HDR_LEN + 4u * h->n_vlan + (h->ip_ver == 4 ? 20u : 40u) +
	       (h->l4_proto == IPPROTO_TCP ? TCP_HLEN : UDP_HLEN);
}

uint16_t
pvp_stream_min_size(const struct pvp_stream *s)
{
	uint32_t n = hdr_len(&s->outer) + PVP_SIG_LEN + PVP_FCS_LEN;

	if (s->vxlan)
		n += VXLAN_HLEN + hdr_len(&s->inner);
	return n < PVP_PKT_MIN_SIZE ? PVP_PKT_MIN_SIZE : (uint16_t)n;
}

/* Write Ethernet to L4 of @h at @off for an IP packet ending at @end;
 * returns the offset after the L4 header. */
static uint32_t
put_hdrs(const struct pvp_hdr *h, uint8_t *b, uint32_t off, uint32_t end, uint16_t dport)
{
	uint32_t l3, l4;
	unsigned int i;

	memcpy(b + off, &h->eth_dst, 6);
	memcpy(b + off + 6, &h->eth_src, 6);
	off += 12;
	for (i = 0; i < h->n_vlan; i++) {
		/* QinQ: 802.1ad outer tag, 802.1Q inner, as rte_net expects. */
		wr16(b + off,
		     (h->n_vlan == 2 && i == 0) ? RTE_ETHER_TYPE_QINQ : RTE_ETHER_TYPE_VLAN);
		wr16(b + off + 2, h->vlan[i] & 0xfff);
		off += 4;
	}
	wr16(b + off, h->ip_ver == 4 ? RTE_ETHER_TYPE_IPV4 : RTE_ETHER_TYPE_IPV6);
	off += 2;
	l3 = off;
	if (h->ip_ver == 4) {
		b[l3] = 0x45;
		b[l3 + 1] = h->tos;
		wr16(b + l3 + 2, end - l3);
		wr16(b + l3 + 4, 0);
		wr16(b + l3 + 6, 0);
		b[l3 + 8] = h->ttl;
		b[l3 + 9] = h->l4_proto;
		wr16(b + l3 + 10, 0);
		memcpy(b + l3 + 12, h->ip_src, 4);
		memcpy(b + l3 + 16, h->ip_dst, 4);
		l4 = l3 + 20;
	} else {
		uint32_t flow = 6u << 28 | (uint32_t)h->tos << 20;

		wr16(b + l3, flow >> 16);
		wr16(b + l3 + 2, flow & 0xffff);
		wr16(b + l3 + 4, end - l3 - 40);
		b[l3 + 6] = h->l4_proto;
		b[l3 + 7] = h->ttl;
		memcpy(b + l3 + 8, h->ip_src, 16);
		memcpy(b + l3 + 24, h->ip_dst, 16);
		l4 = l3 + 40;
	}
	wr16(b + l4, h->sport);
	wr16(b + l4 + 2, dport != 0 ? dport : h->dport);
	if (h->l4_proto == IPPROTO_UDP) {
		wr16(b + l4 + 4, end - l4);
		wr16(b + l4 + 6, 0);
		return l4 + UDP_HLEN;
	}
	memset(b + l4 + 4, 0, TCP_HLEN - 4);
	b[l4 + 7] = 1; /* seq 1 */
	b[l4 + 12] = (TCP_HLEN / 4) << 4;
	b[l4 + 13] = RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG;
	wr16(b + l4 + 14, 65535); /* window */
	return l4 + TCP_HLEN;
}

/* Build the template of one frame size from the stream's headers. */
static int
build_frame(const struct pvp_stream *s, uint16_t size, struct pvp_tmpl *t)
{
	uint32_t len = size - PVP_FCS_LEN, off;
	struct pvp_sig *sig;

	t->data = calloc(1, len);
	if (t->data == NULL)
		return -ENOMEM;
	t->len = len;
	t->size = size;
	if (s->vxlan) {
		off = put_hdrs(&s->outer, t->data, 0, len, PVP_PKT_VXLAN_PORT);
		/* Flags: I (VNI valid); the VNI in the top 24 bits of word 2. */
		t->data[off] = 0x08;
		wr16(t->data + off + 4, s->vni >> 8);
		t->data[off + 6] = s->vni & 0xff;
		off += VXLAN_HLEN;
		off = put_hdrs(&s->inner, t->data, off, len, 0);
	} else {
		off = put_hdrs(&s->outer, t->data, 0, len, 0);
	}
	sig = (struct pvp_sig *)(t->data + off);
	sig->magic = rte_cpu_to_be_32(PVP_SIG_MAGIC);
	sig->stream = rte_cpu_to_be_16(s->id);
	t->sig_off = off;
	/* VXLAN over IPv4: outer UDP checksum 0 (RFC 7348); elsewhere a
	 * non-zero placeholder so pkt_csum_full() computes it. */
	if (s->vxlan && s->outer.ip_ver == 6)
		wr16(t->data + RTE_ETHER_HDR_LEN + 4 * s->outer.n_vlan + 40 + 6, 1);
	else if (!s->vxlan && s->outer.l4_proto == IPPROTO_UDP)
		wr16(t->data + RTE_ETHER_HDR_LEN + 4 * s->outer.n_vlan +
			     (s->outer.ip_ver == 4 ? 20 : 40) + 6,
		     1);
	if (s->vxlan && s->inner.l4_proto == IPPROTO_UDP)
		wr16(t->data + t->sig_off - UDP_HLEN + 6, 1);
	return 0;
}

/* Offset of the Ethernet header (0 or inner) and VLAN count of a level. */
static void
level_l2(const struct pvp_pkt_layout *lay, bool inner, uint32_t *l2, uint32_t *nvlan)
{
	uint32_t l3 = inner ? lay->in_l3_off : lay->l3_off;

	*l2 = inner ? lay->in_l2_off : 0;
	*nvlan = (l3 - *l2 - RTE_ETHER_HDR_LEN) / 4;
}

int
pkt_slot_resolve(const struct pvp_stream *s, unsigned int vi, struct pvp_tmpl *t,
		 const struct pvp_pkt_layout *lay, char *msg, size_t msglen)
{
	const struct pvp_var *v = &s->vars[vi];
	struct pvp_slot *sl = &t->slot[vi];
	const char *f = v->field;
	bool inner = false;
	uint32_t l2, nvlan, l3, l4, off = 0, len = 0;
	uint8_t ver, proto;

	if (f[0] == '\0') {
		off = v->offset;
		len = v->len;
		goto check;
	}
	if (strncmp(f, "inner.", 6) == 0) {
		inner = true;
		f += 6;
		if (lay->in_l3_off == 0) {
			snprintf(msg, msglen, "\"inner.%s\": the frame has no VXLAN inner frame",
				 f);
			return -EINVAL;
		}
	}
	level_l2(lay, inner, &l2, &nvlan);
	l3 = inner ? lay->in_l3_off : lay->l3_off;
	l4 = inner ? lay->in_l4_off : lay->l4_off;
	ver = inner ? lay->in_ip_ver : lay->ip_ver;
	proto = inner ? lay->in_l4_proto : lay->l4_proto;

	if (strcmp(f, "eth.dst") == 0) {
		off = l2 + 2, len = 4;
	} else if (strcmp(f, "eth.src") == 0) {
		off = l2 + 8, len = 4;
	} else if (strcmp(f, "vlan.id") == 0 || strcmp(f, "vlan2.id") == 0) {
		unsigned int k = f[4] == '2' ? 1 : 0;

		if (nvlan <= k) {
			snprintf(msg, msglen, "\"%s\": the frame has %u VLAN tag(s)", v->field,
				 nvlan);
			return -EINVAL;
		}
		off = l2 + RTE_ETHER_HDR_LEN + 4 * k, len = 2;
	} else if (strcmp(f, "ipv4.src") == 0 || strcmp(f, "ipv4.dst") == 0) {
		if (ver != 4)
			goto missing;
		off = l3 + (f[5] == 's' ? 12 : 16), len = 4;
	} else if (strcmp(f, "ipv6.src") == 0 || strcmp(f, "ipv6.dst") == 0) {
		if (ver != 6)
			goto missing;
		off = l3 + (f[5] == 's' ? 8 : 24) + 12, len = 4;
	} else if (strcmp(f, "udp.sport") == 0 || strcmp(f, "udp.dport") == 0 ||
		   strcmp(f, "tcp.sport") == 0 || strcmp(f, "tcp.dport") == 0) {
		if (l4 == 0 || proto != (f[0] == 'u' ? IPPROTO_UDP : IPPROTO_TCP))
			goto missing;
		off = l4 + (f[4] == 's' ? 0 : 2), len = 2;
	} else {
		snprintf(msg, msglen, "unknown field \"%s\"", v->field);
		return -EINVAL;
	}
check:
	if (off + len > t->len) {
		snprintf(msg, msglen, "offset %u + %u bytes is past the end of the %u B frame", off,
			 len, t->len);
		return -EINVAL;
	}
	if (t->sig_off != 0 && overlap(off, len, t->sig_off, PVP_SIG_LEN)) {
		snprintf(msg, msglen, "bytes %u..%u overlap the signature at %u..%u", off,
			 off + len - 1, t->sig_off, t->sig_off + PVP_SIG_LEN - 1);
		return -EINVAL;
	}
	sl->off = off;
	sl->len = len;
	pkt_csum_cover(t->data, lay, off, len, &sl->csum);
	{
		unsigned int j;

		for (j = 0; j < sl->csum.n; j++)
			if (overlap(off, len, sl->csum.off[j], 2)) {
				snprintf(msg, msglen, "bytes %u..%u overlap a checksum field at %u",
					 off, off + len - 1, sl->csum.off[j]);
				return -EINVAL;
			}
	}
	return 0;
missing:
	snprintf(msg, msglen, "the frame has no %s header for \"%s\"",
		 strncmp(f, "ipv", 3) == 0 ? (f[3] == '4' ? "IPv4" : "IPv6")
					   : (f[0] == 'u' ? "UDP" : "TCP"),
		 v->field);
	return -EINVAL;
}

/* Finish one template: parse it back, checksums, slots, flow 0. */
static int
finish_tmpl(const struct pvp_stream *s, struct pvp_tmpl *t, char *msg, size_t msglen, char *where,
	    size_t wherelen)
{
	struct pvp_pkt_layout lay;
	unsigned int i;
	int rc;

	if (pvp_pkt_parse(t->data, t->len, &lay) != 0) {
		if (s->n_vars != 0) {
			snprintf(msg, msglen, "frame is not Ethernet/IP: cannot apply vars");
			snprintf(where, wherelen, "vars");
			return -EINVAL;
		}
		return 0;
	}
	pkt_csum_full(t->data, &lay);
	if (t->sig_off != 0)
		pkt_csum_cover(t->data, &lay, t->sig_off, PVP_SIG_LEN, &t->sig_csum);
	for (i = 0; i < s->n_vars; i++) {
		rc = pkt_slot_resolve(s, i, t, &lay, msg, msglen);
		if (rc != 0) {
			if (s->vars[i].tuple)
				snprintf(where, wherelen, "tuple");
			else
				snprintf(where, wherelen, "vars[%u].field", i);
			return rc;
		}
	}
	pvp_flow_apply(s, t, 0, t->data);
	return 0;
}

/* Put the signature into a pcap frame that has room for it. */
static void
pcap_sign(const struct pvp_stream *s, struct pvp_tmpl *t)
{
	struct pvp_pkt_layout lay;
	struct pvp_sig *sig;
	uint32_t end;

	if (pvp_pkt_parse(t->data, t->len, &lay) != 0 || lay.payload_off == 0)
		return;
	end = lay.in_l3_off != 0 ? lay.in_l3_end : lay.l3_end;
	if ((uint32_t)lay.payload_off + PVP_SIG_LEN > end)
		return;
	sig = (struct pvp_sig *)(t->data + lay.payload_off);
	sig->magic = rte_cpu_to_be_32(PVP_SIG_MAGIC);
	sig->stream = rte_cpu_to_be_16(s->id);
	sig->seq = 0;
	sig->tx_ts = 0;
	t->sig_off = lay.payload_off;
}

int
pkt_stream_build(struct pvp_stream *s, char *msg, size_t msglen, char *where, size_t wherelen)
{
	uint32_t i, cyc;
	double sum = 0;
	int rc;

	if (s->pcap[0] == '\0') {
		struct pvp_imix one = {.size = s->size, .weight = 1};
		const struct pvp_imix *list = s->n_imix != 0 ? s->imix : &one;
		uint32_t n = s->n_imix != 0 ? s->n_imix : 1;

		s->tmpl = calloc(n, sizeof(*s->tmpl));
		if (s->tmpl == NULL)
			return -ENOMEM;
		s->n_tmpl = n;
		for (i = 0; i < n; i++) {
			rc = build_frame(s, list[i].size, &s->tmpl[i]);
			if (rc != 0)
				return rc;
			rc = finish_tmpl(s, &s->tmpl[i], msg, msglen, where, wherelen);
			if (rc != 0)
				return rc;
		}
		cyc = s->n_imix != 0 ? pvp_imix_cycle_len(list, n) : 1;
		s->order = calloc(cyc, sizeof(*s->order));
		if (s->order == NULL)
			return -ENOMEM;
		s->n_order = s->n_imix != 0 ? pvp_imix_expand(list, n, s->order) : 1;
	} else {
		/* Templates were loaded from the pcap file by the parser. */
		for (i = 0; i < s->n_tmpl; i++) {
			if (s->replay)
				continue;
			pcap_sign(s, &s->tmpl[i]);
			rc = finish_tmpl(s, &s->tmpl[i], msg, msglen, where, wherelen);
			if (rc != 0) {
				size_t n = strlen(msg);

				snprintf(msg + n, msglen - n, " (pcap frame %u)", i + 1);
				return rc;
			}
		}
		s->order = calloc(s->n_tmpl, sizeof(*s->order));
		if (s->order == NULL)
			return -ENOMEM;
		for (i = 0; i < s->n_tmpl; i++)
			s->order[i] = i;
		s->n_order = s->n_tmpl;
	}
	for (i = 0; i < s->n_order; i++)
		sum += s->tmpl[s->order[i]].size;
	s->avg_size = sum / s->n_order;
	return 0;
}

void
pvp_sig_set_stream(const struct pvp_tmpl *t, uint8_t *pkt, uint16_t stream)
{
	uint16_t off = t->sig_off + offsetof(struct pvp_sig, stream);
	uint32_t olds, news;

	if (t->sig_off == 0)
		return;
	olds = pkt_sum(pkt + off, off, 2);
	wr16(pkt + off, stream);
	news = pkt_sum(pkt + off, off, 2);
	pkt_csum_apply(pkt, &t->sig_csum, pkt_fold((uint16_t)~pkt_fold(olds) + pkt_fold(news)));
}

void
pvp_csum_apply(uint8_t *pkt, const struct pvp_csum_loc *loc, uint16_t d)
{
	pkt_csum_apply(pkt, loc, d);
}
