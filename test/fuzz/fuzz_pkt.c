/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pkt_private.h"
#include "pvp_pkt.h"

#include "fuzz.h"
#include "fuzz_pkt.h"

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/*
 * Two frames that should be the same but for how a checksum field spells
 * zero: 0x0000 and 0xffff are the same ones' complement number (and a
 * full recomputation and an incremental update may pick either, except
 * for UDP, where both sides use 0xffff). Checksum fields sit at even
 * offsets in every layout lib/pkt builds or accepts.
 */
static bool
same_frame(const uint8_t *a, const uint8_t *b, uint32_t len, uint32_t *where)
{
	uint32_t i;

	for (i = 0; i < len; i++) {
		uint32_t j = i & ~1u;
		uint16_t x, y;

		if (a[i] == b[i])
			continue;
		if (j + 1 >= len) {
			*where = i;
			return false;
		}
		x = (uint16_t)(a[j] << 8 | a[j + 1]);
		y = (uint16_t)(b[j] << 8 | b[j + 1]);
		if (!((x == 0 || x == 0xffff) && (y == 0 || y == 0xffff))) {
			*where = i;
			return false;
		}
	}
	return true;
}

/* Every checksum of @p buf equals a full recomputation over @p lay. */
static void
check_csums(const struct pvp_stream *s, const uint8_t *buf, uint32_t len,
	    const struct pvp_pkt_layout *lay, const char *what)
{
	uint8_t *copy = malloc(len);
	uint32_t at = 0;

	if (copy == NULL)
		abort();
	memcpy(copy, buf, len);
	pkt_csum_full(copy, lay);
	FUZZ_CHECK(same_frame(buf, copy, len, &at),
		   "stream %u: %s: checksum at byte %u is 0x%02x%02x, recomputed 0x%02x%02x", s->id,
		   what, at & ~1u, buf[at & ~1u], buf[(at & ~1u) + 1], copy[at & ~1u],
		   copy[(at & ~1u) + 1]);
	free(copy);
}

void
fuzz_check_tmpl(const struct pvp_stream *s, const struct pvp_tmpl *t)
{
	struct pvp_pkt_layout lay;
	const struct pvp_sig *sig;
	uint8_t *a, *b;
	bool raw = false, parsed;
	uint64_t flows[4];
	uint32_t at = 0;
	unsigned int i, k;

	FUZZ_CHECK(t->data != NULL, "stream %u: template without data", s->id);
	FUZZ_CHECK(t->size == t->len + PVP_FCS_LEN, "stream %u: size %u, len %u", s->id, t->size,
		   t->len);
	FUZZ_CHECK(t->len >= 14 && t->size <= PVP_PKT_MAX_SIZE, "stream %u: template of %u B",
		   s->id, t->size);
	if (s->pcap[0] == '\0')
		FUZZ_CHECK(t->size >= PVP_PKT_MIN_SIZE && t->size >= pvp_stream_min_size(s),
			   "stream %u: template of %u B, minimum %u", s->id, t->size,
			   pvp_stream_min_size(s));
	if (s->replay) {
		FUZZ_CHECK(t->sig_off == 0 && s->n_vars == 0, "stream %u: replay with sig/vars",
			   s->id);
		return;
	}
	for (i = 0; i < s->n_vars; i++) {
		/* Raw bytes past the MAC addresses may rewrite headers. */
		raw |= s->vars[i].field[0] == '\0' && t->slot[i].off + t->slot[i].len > 12;
		FUZZ_CHECK(t->slot[i].len == s->vars[i].len &&
				   t->slot[i].off + t->slot[i].len <= t->len,
			   "stream %u: slot %u at %u+%u of %u B", s->id, i, t->slot[i].off,
			   t->slot[i].len, t->len);
	}
	if (t->sig_off != 0) {
		FUZZ_CHECK((uint32_t)t->sig_off + PVP_SIG_LEN <= t->len,
			   "stream %u: signature at %u of %u B", s->id, t->sig_off, t->len);
		/* Raw vars may write anywhere outside the signature and the
		 * checksums, headers included: then the frame is the user's. */
		if (!raw) {
			sig = pvp_sig_find_buf(t->data, t->len);
			FUZZ_CHECK(sig == (const void *)(t->data + t->sig_off),
				   "stream %u: the receiver finds the signature at %ld, not %u",
				   s->id,
				   sig == NULL ? -1L : (long)((const uint8_t *)sig - t->data),
				   t->sig_off);
			FUZZ_CHECK(rte_be_to_cpu_16(sig->stream) == s->id,
				   "stream %u: signature says stream %u", s->id,
				   rte_be_to_cpu_16(sig->stream));
		}
	}
	parsed = pvp_pkt_parse(t->data, t->len, &lay) == 0;
	if (s->pcap[0] == '\0' && !raw)
		FUZZ_CHECK(parsed, "stream %u: a built template does not parse", s->id);

	a = malloc(t->len);
	b = malloc(t->len);
	if (a == NULL || b == NULL)
		abort();
	flows[0] = 0;
	flows[1] = s->flows - 1;
	flows[2] = s->flows / 2 + 1;
	flows[3] = s->flows * 7 / 13;
	for (k = 0; k < 4; k++) {
		uint64_t f = flows[k] % s->flows, g = flows[(k + 1) % 4] % s->flows;

		pvp_flow_build(s, t, f, a);
		if (parsed && !raw)
			check_csums(s, a, t->len, &lay, "pvp_flow_build");
		/* The packet path: any flow's packet turned into flow g. */
		pvp_flow_apply(s, t, g, a);
		pvp_flow_build(s, t, g, b);
		FUZZ_CHECK(same_frame(a, b, t->len, &at),
			   "stream %u: flow %llu applied on flow %llu differs from its build at "
			   "byte %u",
			   s->id, (unsigned long long)g, (unsigned long long)f, at);
		if (t->sig_off == 0)
			continue;
		pvp_sig_stamp(t, a, (uint32_t)(f * 2654435761u), (uint32_t)~g);
		pvp_sig_set_stream(t, a, (uint16_t)(s->id + k));
		sig = (const struct pvp_sig *)(a + t->sig_off);
		FUZZ_CHECK(rte_be_to_cpu_32(sig->seq) == (uint32_t)(f * 2654435761u) &&
				   sig->tx_ts == (uint32_t)~g &&
				   rte_be_to_cpu_16(sig->stream) == (uint16_t)(s->id + k),
			   "stream %u: stamp not read back", s->id);
		if (parsed && !raw)
			check_csums(s, a, t->len, &lay, "pvp_sig_stamp");
	}
	free(a);
	free(b);
}

/* ---- seed frames and pcap files ---- */

/* Ethernet + optional tags; returns the offset after the EtherType. */
static size_t
eth(uint8_t *b, unsigned int tags, uint16_t type)
{
	static const uint8_t macs[12] = {0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01};
	size_t off = 12;
	unsigned int i;

	memcpy(b, macs, 12);
	for (i = 0; i < tags; i++) {
		put16(b + off, tags == 2 && i == 0 ? 0x88a8 : 0x8100);
		put16(b + off + 2, 100 + i);
		off += 4;
	}
	put16(b + off, type);
	return off + 2;
}

static size_t
ipv4(uint8_t *b, size_t off, uint8_t proto, uint16_t total, unsigned int opt_words, uint16_t frag)
{
	b[off] = (uint8_t)(0x45 + opt_words);
	put16(b + off + 2, total);
	put16(b + off + 6, frag);
	b[off + 8] = 64;
	b[off + 9] = proto;
	memcpy(b + off + 12, "\x10\x00\x00\x01\x30\x00\x00\x01", 8);
	memset(b + off + 20, 1, 4 * opt_words); /* NOP options */
	return off + 20 + 4 * opt_words;
}

static size_t
udp(uint8_t *b, size_t off, uint16_t dport, uint16_t len)
{
	put16(b + off, 1025);
	put16(b + off + 2, dport);
	put16(b + off + 4, len);
	put16(b + off + 6, 0);
	return off + 8;
}

const unsigned int fuzz_seed_frames = 6;

size_t
fuzz_seed_frame(unsigned int i, uint8_t *b)
{
	size_t off, l4;

	memset(b, 0, 256);
	switch (i) {
	case 0: /* IPv4/UDP, 60 B, room for the signature */
		off = eth(b, 0, 0x0800);
		off = ipv4(b, off, 17, 46, 0, 0);
		udp(b, off, 1024, 26);
		return 60;
	case 1: /* VLAN, IPv6/TCP, 100 B */
		off = eth(b, 1, 0x86dd);
		b[off] = 0x60;
		put16(b + off + 4, 100 - off - 40);
		b[off + 6] = 6;
		b[off + 7] = 64;
		b[off + 8] = 0x20;
		b[off + 24] = 0x20;
		b[off + 39] = 2;
		l4 = off + 40;
		put16(b + l4, 1025);
		put16(b + l4 + 2, 80);
		b[l4 + 12] = 0x50;
		b[l4 + 13] = 0x18;
		return 100;
	case 2: /* QinQ, IPv4 with options, UDP, 90 B */
		off = eth(b, 2, 0x0800);
		off = ipv4(b, off, 17, 90 - 22, 2, 0);
		udp(b, off, 53, 90 - (uint16_t)off);
		return 90;
	case 3: /* VXLAN over IPv4: inner IPv4/UDP, 110 B */
		off = eth(b, 0, 0x0800);
		off = ipv4(b, off, 17, 110 - 14, 0, 0);
		off = udp(b, off, 4789, 110 - 34);
		b[off] = 0x08;
		b[off + 6] = 42;
		off += 8;
		off = eth(b + off, 0, 0x0800) + off;
		off = ipv4(b, off, 17, (uint16_t)(110 - off), 0, 0);
		udp(b, off, 1024, (uint16_t)(110 - off));
		return 110;
	case 4: /* A second IPv4 fragment: no L4 header */
		off = eth(b, 0, 0x0800);
		ipv4(b, off, 17, 46, 0, 0x0010);
		return 60;
	default: /* ARP */
		off = eth(b, 0, 0x0806);
		memcpy(b + off, "\x00\x01\x08\x00\x06\x04\x00\x01", 8);
		return 60;
	}
}

size_t
fuzz_pcap_build(const uint8_t *frames, const size_t *lens, unsigned int n, uint8_t **out)
{
	/* Classic pcap, microsecond, little endian, snaplen 65535, EN10MB. */
	static const uint8_t ghdr[24] = {0xd4, 0xc3, 0xb2, 0xa1, 2,    0,    4, 0, 0, 0, 0, 0,
					 0,    0,    0,	   0,	 0xff, 0xff, 0, 0, 1, 0, 0, 0};
	size_t total = sizeof(ghdr), off, i;
	uint8_t *p;

	for (i = 0; i < n; i++)
		total += 16 + lens[i];
	p = malloc(total);
	if (p == NULL)
		abort();
	memcpy(p, ghdr, sizeof(ghdr));
	off = sizeof(ghdr);
	for (i = 0; i < n; i++) {
		uint32_t l = (uint32_t)lens[i], ts = (uint32_t)i;

		memcpy(p + off, &ts, 4); /* seconds */
		memset(p + off + 4, 0, 4);
		memcpy(p + off + 8, &l, 4);
		memcpy(p + off + 12, &l, 4);
		memcpy(p + off + 16, frames, l);
		frames += l;
		off += 16 + l;
	}
	*out = p;
	return total;
}

void
fuzz_write_seed_pcap(const char *dir, const char *name)
{
	uint8_t frames[6 * 256], *file;
	size_t lens[6], n = 0, len;
	char path[512];
	unsigned int i;
	FILE *f;

	for (i = 0; i < fuzz_seed_frames; i++) {
		lens[i] = fuzz_seed_frame(i, frames + n);
		n += lens[i];
	}
	len = fuzz_pcap_build(frames, lens, fuzz_seed_frames, &file);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(file, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		abort();
	}
	free(file);
}
