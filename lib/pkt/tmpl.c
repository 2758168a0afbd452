/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Templates: the frames of a stream built from its headers (one per IMIX
 * size) or taken from a pcap file, with valid checksums, the signature,
 * the place of every variable and flow 0 applied.
 */

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_tcp.h>

#include "pkt_private.h"

static uint32_t
hdr_len(const struct pvp_hdr *h)
{
	return RTE_ETHER_HDR_LEN + 4u * h->n_vlan + (h->ip_ver == 4 ? 20u : 40u) +
	       (h->l4_proto == IPPROTO_TCP ? PKT_TCP_HLEN : PKT_UDP_HLEN);
}

uint16_t
pvp_stream_min_size(const struct pvp_stream *s)
{
	uint32_t n = hdr_len(&s->outer) + PVP_SIG_LEN + PVP_FCS_LEN;

	if (s->vxlan)
		n += PKT_VXLAN_HLEN + hdr_len(&s->inner);
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
		pkt_wr16(b + off,
			 (h->n_vlan == 2 && i == 0) ? RTE_ETHER_TYPE_QINQ : RTE_ETHER_TYPE_VLAN);
		pkt_wr16(b + off + 2, h->vlan[i] & 0xfff);
		off += 4;
	}
	pkt_wr16(b + off, h->ip_ver == 4 ? RTE_ETHER_TYPE_IPV4 : RTE_ETHER_TYPE_IPV6);
	off += 2;
	l3 = off;
	if (h->ip_ver == 4) {
		b[l3] = 0x45;
		b[l3 + 1] = h->tos;
		pkt_wr16(b + l3 + 2, end - l3);
		pkt_wr16(b + l3 + 4, 0);
		pkt_wr16(b + l3 + 6, 0);
		b[l3 + 8] = h->ttl;
		b[l3 + 9] = h->l4_proto;
		pkt_wr16(b + l3 + 10, 0);
		memcpy(b + l3 + 12, h->ip_src, 4);
		memcpy(b + l3 + 16, h->ip_dst, 4);
		l4 = l3 + 20;
	} else {
		uint32_t flow = 6u << 28 | (uint32_t)h->tos << 20;

		pkt_wr16(b + l3, flow >> 16);
		pkt_wr16(b + l3 + 2, flow & 0xffff);
		pkt_wr16(b + l3 + 4, end - l3 - 40);
		b[l3 + 6] = h->l4_proto;
		b[l3 + 7] = h->ttl;
		memcpy(b + l3 + 8, h->ip_src, 16);
		memcpy(b + l3 + 24, h->ip_dst, 16);
		l4 = l3 + 40;
	}
	pkt_wr16(b + l4, h->sport);
	pkt_wr16(b + l4 + 2, dport != 0 ? dport : h->dport);
	if (h->l4_proto == IPPROTO_UDP) {
		pkt_wr16(b + l4 + 4, end - l4);
		pkt_wr16(b + l4 + 6, 0);
		return l4 + PKT_UDP_HLEN;
	}
	memset(b + l4 + 4, 0, PKT_TCP_HLEN - 4);
	b[l4 + 7] = 1; /* seq 1 */
	b[l4 + 12] = (PKT_TCP_HLEN / 4) << 4;
	b[l4 + 13] = RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG;
	pkt_wr16(b + l4 + 14, 65535); /* window */
	return l4 + PKT_TCP_HLEN;
}

/* Build the template of one frame size from the stream's headers. */
static int
build_frame(const struct pvp_stream *s, uint16_t size, struct pvp_tmpl *t)
{
	uint32_t len = size - PVP_FCS_LEN, off;

	t->data = calloc(1, len);
	if (t->data == NULL)
		return -ENOMEM;
	t->len = len;
	t->size = size;
	if (s->vxlan) {
		off = put_hdrs(&s->outer, t->data, 0, len, PVP_PKT_VXLAN_PORT);
		/* Flags: I (VNI valid); the VNI in the top 24 bits of word 2. */
		t->data[off] = 0x08;
		pkt_wr16(t->data + off + 4, s->vni >> 8);
		t->data[off + 6] = s->vni & 0xff;
		off += PKT_VXLAN_HLEN;
		off = put_hdrs(&s->inner, t->data, off, len, 0);
	} else {
		off = put_hdrs(&s->outer, t->data, 0, len, 0);
	}
	pkt_sig_put(s, t, off);
	/* VXLAN over IPv4: outer UDP checksum 0 (RFC 7348); elsewhere a
	 * non-zero placeholder so pkt_csum_full() computes it. */
	if (s->vxlan && s->outer.ip_ver == 6)
		pkt_wr16(t->data + RTE_ETHER_HDR_LEN + 4 * s->outer.n_vlan + 40 + 6, 1);
	else if (!s->vxlan && s->outer.l4_proto == IPPROTO_UDP)
		pkt_wr16(t->data + RTE_ETHER_HDR_LEN + 4 * s->outer.n_vlan +
				 (s->outer.ip_ver == 4 ? 20 : 40) + 6,
			 1);
	if (s->vxlan && s->inner.l4_proto == IPPROTO_UDP)
		pkt_wr16(t->data + t->sig_off - PKT_UDP_HLEN + 6, 1);
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
	if (t->sig_off != 0 && pkt_overlap(off, len, t->sig_off, PVP_SIG_LEN)) {
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
			if (pkt_overlap(off, len, sl->csum.off[j], 2)) {
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
	uint32_t end;

	if (pvp_pkt_parse(t->data, t->len, &lay) != 0 || lay.payload_off == 0)
		return;
	end = lay.in_l3_off != 0 ? lay.in_l3_end : lay.l3_end;
	if ((uint32_t)lay.payload_off + PVP_SIG_LEN > end)
		return;
	pkt_sig_put(s, t, lay.payload_off);
}

void
pkt_sig_put(const struct pvp_stream *s, struct pvp_tmpl *t, uint32_t off)
{
	struct pvp_sig *sig = (struct pvp_sig *)(t->data + off);

	sig->magic = rte_cpu_to_be_32(PVP_SIG_MAGIC);
	sig->stream = rte_cpu_to_be_16(s->id);
	sig->seq = 0;
	sig->tx_ts = 0;
	t->sig_off = (uint16_t)off;
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
