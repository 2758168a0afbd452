/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/* Internals of lib/pkt shared by its files; never installed. */

#ifndef PKT_PRIVATE_H
#define PKT_PRIVATE_H

#include <stdint.h>

#include "pvp_pkt.h"
#include "pvp_util.h"

#define PKT_VXLAN_HLEN 8  /* VXLAN header */
#define PKT_TCP_HLEN   20 /* TCP header without options */
#define PKT_UDP_HLEN   8  /* UDP header */

/* Big-endian 16-bit read at any alignment. */
static inline uint16_t
pkt_rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* Big-endian 16-bit write at any alignment. */
static inline void
pkt_wr16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/* Whether [a, a + alen) and [b, b + blen) share a byte. */
static inline bool
pkt_overlap(uint32_t a, uint32_t alen, uint32_t b, uint32_t blen)
{
	return a < b + blen && b < a + alen;
}

/* Ones' complement sum of bytes at absolute offset @off of a frame whose
 * checksummed regions all start at even offsets: a byte at an even offset
 * is the high half of a 16-bit word. Not folded. */
static inline uint32_t
pkt_sum(const uint8_t *p, uint32_t off, uint32_t len)
{
	uint32_t s = 0, i;

	/* Fields at even offsets with even lengths (all named fields and
	 * the signature) sum as whole big-endian words. */
	if (((off | len) & 1) == 0) {
		for (i = 0; i < len; i += 2)
			s += (uint32_t)p[i] << 8 | p[i + 1];
		return s;
	}
	for (i = 0; i < len; i++)
		s += ((off + i) & 1) ? p[i] : (uint32_t)p[i] << 8;
	return s;
}

static inline uint16_t
pkt_fold(uint32_t s)
{
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/* Build the templates, the IMIX order and the slots of a parsed stream.
 * Returns 0 or -errno with a message in @msg. */
int pkt_stream_build(struct pvp_stream *s, char *msg, size_t msglen, char *where, size_t wherelen);

/* Sign template @t of @s at @off: magic, stream id, sequence and timestamp 0. */
void pkt_sig_put(const struct pvp_stream *s, struct pvp_tmpl *t, uint32_t off);

/* Resolve variable @vi of @s on template @t (parsed as @lay). */
int pkt_slot_resolve(const struct pvp_stream *s, unsigned int vi, struct pvp_tmpl *t,
		     const struct pvp_pkt_layout *lay, char *msg, size_t msglen);

/*
 * Where the signature of an IP packet with no UDP/TCP header goes: its
 * last PVP_SIG_LEN bytes, where TRex puts its own latency payload when
 * there is no room after L4. A VXLAN packet whose inner packet has no
 * UDP/TCP header has it there too, over the inner IP header when nothing
 * follows it (TRex counts all after the outer UDP header as payload).
 * 0 when the frame has an L4 header (and is no such VXLAN packet) or its
 * IP payload is shorter than the signature.
 */
uint16_t pkt_sig_tail_off(const struct pvp_pkt_layout *lay);

/* Checksum fields covering [off, off + len) of @t. */
void pkt_csum_cover(const uint8_t *data, const struct pvp_pkt_layout *lay, uint32_t off,
		    uint32_t len, struct pvp_csum_loc *loc);

/* Recompute every IPv4 header and L4 checksum of a frame from scratch
 * (a zero UDP checksum over IPv4 stays zero). */
void pkt_csum_full(uint8_t *data, const struct pvp_pkt_layout *lay);

/* Apply the ones' complement change @d of written bytes to the checksum
 * fields of @loc. */
void pkt_csum_apply(uint8_t *pkt, const struct pvp_csum_loc *loc, uint16_t d);

#endif /* PKT_PRIVATE_H */
