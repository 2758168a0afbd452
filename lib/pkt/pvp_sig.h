/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * The pvpkit payload signature (doc/profiles.rst, "The payload signature").
 *
 * pvpkit-gen writes 14 bytes right after the L4 header (UDP/TCP, or the
 * inner L4 header of a VXLAN packet) of every packet it sends, or, in an
 * IP packet with no UDP/TCP header (pvpkit-gen --trex), in its last 14
 * bytes, as TRex places its latency payload; in the last 14 bytes of the
 * L4 payload too when a TRex field engine writes right after the L4
 * header (a Geneve header it varies), and in the last 14 bytes of a VXLAN
 * packet whose inner packet has no UDP/TCP header, over the inner IP
 * header when nothing follows it (TRex's latency payload goes there too):
 *
 *   offset 0  magic   4 B big endian  PVP_SIG_MAGIC
 *   offset 4  stream  2 B big endian  stream id, unique per generator
 *   offset 6  seq     4 B big endian  per-stream sequence, from 0, wraps
 *   offset 10 tx_ts   4 B host order  low 32 bits of the sender's TSC
 *
 * 14 bytes fit a 64 B frame (60 B without FCS) of Ethernet + one VLAN +
 * IPv4 + UDP. Receivers locate it by parsing the headers they get
 * (rte_net_get_ptype), so header rewrites on the way (macswap, NAT,
 * VLAN push/pop) do not matter. Sequence numbers compare with serial
 * arithmetic; latency is (rx_tsc - tx_ts) mod 2^32, so it is valid up
 * to 2^32 TSC cycles (about 1.4 s at 3 GHz).
 *
 * The guest stamp (optional, after the 14 bytes, so readers that know
 * only the signature read it as before):
 *
 *   offset 14 rx_ts   4 B host order  low 32 bits of the forwarder's TSC
 *                                     when it received the packet, never 0
 *
 * pvpkit-fwd --stamp writes it where the signature lies right after the
 * L4 header and the L3 packet has 4 bytes after the signature (a 64 B
 * frame of Ethernet + IPv4 + UDP has exactly 4; one VLAN tag leaves
 * none), and updates the L4 checksum. pvpkit-gen's payload is zero
 * there, so 0 reads as "not stamped".
 */

#ifndef PVP_SIG_H
#define PVP_SIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include <jansson.h>

#include "pvp_lat.h"

#ifdef __cplusplus
extern "C" {
#endif

/** "PVP!" */
#define PVP_SIG_MAGIC 0x50565021u

/** Bytes the signature takes after the L4 header. */
#define PVP_SIG_LEN 14

/** Bytes of the guest stamp after the signature. */
#define PVP_SIG_STAMP_LEN 4

/** Wire layout of the signature. */
struct pvp_sig {
	rte_be32_t magic;  /**< PVP_SIG_MAGIC, big endian */
	rte_be16_t stream; /**< stream id, big endian */
	rte_be32_t seq;	   /**< sequence number, big endian */
	uint32_t tx_ts;	   /**< low 32 bits of TX TSC, host order */
} __rte_packed;

/**
 * Find the signature in a received packet: parses Ethernet, VLAN/QinQ,
 * IPv4/IPv6, UDP/TCP and VXLAN (UDP port 4789, then the inner headers).
 *
 * @return a pointer into the first segment's data, or NULL when the
 *   packet is too short, not UDP/TCP, or the magic matches neither right
 *   after the L4 header nor at the end of the L4 payload (nor at the end
 *   of a VXLAN packet whose inner packet has no UDP/TCP header).
 */
const struct pvp_sig *pvp_sig_find(const struct rte_mbuf *m);

/**
 * pvp_sig_find() for the packet path: the same answer, with pvpkit-gen's
 * common frames recognised inline (untagged or single-VLAN IPv4 without
 * options, not a fragment, UDP but not VXLAN: the signature is at a fixed
 * offset) and frames that are not IP at all refused inline. Everything
 * else (IPv6, TCP, QinQ, VXLAN, IP options, truncated headers) goes
 * through pvp_sig_find().
 */
static __rte_always_inline const struct pvp_sig *
pvp_sig_find_inline(const struct rte_mbuf *m)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const uint32_t len = rte_pktmbuf_data_len(m);
	const uint32_t l4_end = sizeof(struct rte_ipv4_hdr) + sizeof(struct rte_udp_hdr);
	uint32_t l3 = RTE_ETHER_HDR_LEN;
	rte_be16_t et;

	if (unlikely(len < RTE_ETHER_HDR_LEN))
		return NULL; /* no parse can find one */
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	/*
	 * The commonest frame in two masked compares: bytes 12..14 are
	 * EtherType 0x0800 and version/IHL 0x45, bytes 20..23 hold a zero
	 * fragment offset and protocol 17 (loaded little endian).
	 */
	if (likely(len >= RTE_ETHER_HDR_LEN + l4_end + PVP_SIG_LEN)) {
		uint64_t a, b;

		memcpy(&a, p + 12, 8);
		memcpy(&b, p + 20, 8);
		if (likely((a & 0xffffff) == 0x450008 && (b & 0xff00ff1f) == 0x11000000)) {
			const uint32_t tot = rte_be_to_cpu_16((uint16_t)(a >> 32));
			const struct pvp_sig *sig =
				(const struct pvp_sig *)(p + RTE_ETHER_HDR_LEN + l4_end);
			const struct rte_udp_hdr *udp =
				(const struct rte_udp_hdr *)(p + RTE_ETHER_HDR_LEN +
							     sizeof(struct rte_ipv4_hdr));

			if (likely(udp->dst_port != RTE_BE16(4789) &&
				   RTE_ETHER_HDR_LEN + tot <= len && tot >= l4_end + PVP_SIG_LEN)) {
				if (likely(sig->magic == RTE_BE32(PVP_SIG_MAGIC)))
					return sig;
				sig = (const struct pvp_sig *)(p + RTE_ETHER_HDR_LEN + tot -
							       PVP_SIG_LEN);
				return sig->magic == RTE_BE32(PVP_SIG_MAGIC) ? sig : NULL;
			}
			return pvp_sig_find(m);
		}
	}
#endif
	et = ((const struct rte_ether_hdr *)p)->ether_type;
	if (et == RTE_BE16(RTE_ETHER_TYPE_VLAN) && len >= RTE_ETHER_HDR_LEN + 4) {
		et = ((const struct rte_vlan_hdr *)(p + RTE_ETHER_HDR_LEN))->eth_proto;
		l3 += 4;
	}
	if (likely(et == RTE_BE16(RTE_ETHER_TYPE_IPV4)) && len >= l3 + l4_end + PVP_SIG_LEN) {
		const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(p + l3);
		const struct rte_udp_hdr *udp = (const struct rte_udp_hdr *)(ip + 1);
		const struct pvp_sig *sig = (const struct pvp_sig *)(udp + 1);
		const uint32_t tot = rte_be_to_cpu_16(ip->total_length);

		/* The parser's own checks, for this one layout. */
		if (likely(ip->version_ihl == 0x45 && ip->next_proto_id == IPPROTO_UDP &&
			   (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_OFFSET_MASK)) == 0 &&
			   udp->dst_port != RTE_BE16(4789) && l3 + tot <= len &&
			   tot >= l4_end + PVP_SIG_LEN)) {
			if (likely(sig->magic == RTE_BE32(PVP_SIG_MAGIC)))
				return sig;
			sig = (const struct pvp_sig *)(p + l3 + tot - PVP_SIG_LEN);
			return sig->magic == RTE_BE32(PVP_SIG_MAGIC) ? sig : NULL;
		}
		return pvp_sig_find(m);
	}
	/* Only IP, bare or behind VLAN tags, can carry one. */
	if (et != RTE_BE16(RTE_ETHER_TYPE_IPV4) && et != RTE_BE16(RTE_ETHER_TYPE_IPV6) &&
	    et != RTE_BE16(RTE_ETHER_TYPE_VLAN) && et != RTE_BE16(RTE_ETHER_TYPE_QINQ) &&
	    et != RTE_BE16(RTE_ETHER_TYPE_QINQ1))
		return NULL;
	return pvp_sig_find(m);
}

/**
 * Write @p tsc (the forwarder's receive time, low 32 bits; 0 is written
 * as 1) as the guest stamp of @p m, updating its L4 checksum (RFC 1624).
 * Only where the signature is right after the L4 header of an untunnelled
 * IPv4/IPv6 UDP or TCP packet whose L3 packet holds the stamp too, in
 * the first segment.
 * @return 1 stamped, 0 no room or no signature there (left as it came).
 */
int pvp_sig_guest_stamp(struct rte_mbuf *m, uint32_t tsc);

/**
 * The guest stamp after @p sig (found in @p m by pvp_sig_find*()).
 * @return the stamp, or 0 when the frame has no room for one or it is 0.
 */
static __rte_always_inline uint32_t
pvp_sig_guest_stamp_read(const struct rte_mbuf *m, const struct pvp_sig *sig)
{
	const uint8_t *s = (const uint8_t *)sig + PVP_SIG_LEN;
	uint32_t ts;

	if (s + PVP_SIG_STAMP_LEN > rte_pktmbuf_mtod(m, const uint8_t *) + rte_pktmbuf_data_len(m))
		return 0;
	memcpy(&ts, s, sizeof(ts));
	return ts;
}

/** Most two TSC frequencies may differ and still be one clock (relative). */
#define PVP_CLOCK_MAX_HZ_DIFF 0.001
/** Most two TSCs may be apart (ns) and still be one clock. */
#define PVP_CLOCK_MAX_OFFSET_NS 2000

/**
 * One process's clock sample: what pvpkit-fwd's and pvpkit-gen's
 * clock.get answer, compared by pvp_clock_same().
 */
struct pvp_clock_sample {
	uint64_t hz;	  /**< rte_get_tsc_hz() */
	uint64_t tsc;	  /**< TSC at mono_ns */
	uint64_t mono_ns; /**< CLOCK_MONOTONIC */
	char boot_id[40]; /**< the kernel's boot id, "" when unreadable */
};

/** Take a sample of this process's clocks. */
void pvp_clock_sample_take(struct pvp_clock_sample *c);

/**
 * The sample as JSON: {"tsc_hz", "tsc", "mono_ns", "boot_id"}.
 * @return a new object, or NULL when out of memory.
 */
json_t *pvp_clock_sample_json(const struct pvp_clock_sample *c);

/**
 * Read pvp_clock_sample_json()'s form.
 * @return 0, or -EINVAL with one line in @p err.
 */
int pvp_clock_sample_from_json(const json_t *j, struct pvp_clock_sample *c, char *err,
			       size_t err_len);

/**
 * Whether the TSC of @p peer is the TSC of @p own: the same boot of the
 * same host (boot ids equal, so CLOCK_MONOTONIC is one clock), TSC
 * frequencies within PVP_CLOCK_MAX_HZ_DIFF, and the peer's TSC carried
 * forward by the monotonic time between the samples within
 * PVP_CLOCK_MAX_OFFSET_NS of ours.
 * @param base
 *   An earlier sample of ours (0.1 s or more before @p own), to carry
 *   the peer's TSC forward at the rate measured since; NULL or too
 *   recent: at own->hz.
 * @param offset_ns
 *   Set to how far our TSC is ahead of the peer's (0 when not compared).
 * @param why
 *   One line when not: what differs.
 */
bool pvp_clock_same(const struct pvp_clock_sample *own, const struct pvp_clock_sample *base,
		    const struct pvp_clock_sample *peer, double *offset_ns, char *why,
		    size_t why_len);

/** Size of the duplicate/reorder window of a sequence tracker, in packets. */
#define PVP_SEQ_WINDOW 4096

/**
 * Per-stream sequence tracker. Exact for duplicates and reordering within
 * PVP_SEQ_WINDOW sequence numbers of the highest seen; older arrivals
 * count as late (out of order, cannot be told from duplicates).
 *
 * The first packet after pvp_seq_init() is the baseline: numbers before
 * it are not counted as gaps, so a tracker reset in the middle of a
 * stream (stats.clear) starts clean. A packet below the highest seen and
 * not seen before counts once in @c ooo and fills one gap. At the end of
 * a run, pvp_seq_lost() with the sender's count is the exact loss.
 */
struct pvp_seq {
	uint64_t rx;			      /**< packets seen, duplicates included */
	uint64_t dup;			      /**< duplicates (seq already seen, within window) */
	uint64_t ooo;			      /**< out of order: arrived after a higher seq */
	uint64_t gaps;			      /**< sequence numbers skipped so far (lower bound of
			     *   loss while running; late arrivals reduce it) */
	uint64_t jumps;			      /**< arrivals that skipped numbers (gap events: TRex's
			     *   seq_too_high) */
	uint32_t next;			      /**< highest seq seen + 1 */
	uint32_t started;		      /**< 0 until the first packet */
	uint64_t window[PVP_SEQ_WINDOW / 64]; /**< seen-bits, indexed seq % window */
};

/** Reset a tracker to "nothing seen". */
void pvp_seq_init(struct pvp_seq *s);

/** Account one received sequence number. Single writer (the RX lcore). */
void pvp_seq_update(struct pvp_seq *s, uint32_t seq);

/**
 * pvp_seq_update() for the packet path, with the two common cases inline:
 * the next number in order (set its window bit: it was cleared when the
 * window last moved past it) and a duplicate within the window. The rest
 * (first packet, gaps, late arrivals) calls pvp_seq_update().
 *
 * The inline cases add to @p rx and @p dup instead of s->rx and s->dup:
 * a caller accounting a burst passes locals and adds them to the tracker
 * once, which takes a memory round trip per packet off the packet path.
 * pvp_seq_update() itself still counts in s->rx and s->dup.
 */
static __rte_always_inline void
pvp_seq_update_burst(struct pvp_seq *s, uint32_t seq, uint64_t *rx, uint64_t *dup)
{
	const uint32_t i = seq & (PVP_SEQ_WINDOW - 1);
	const uint64_t bit = UINT64_C(1) << (i & 63);
	uint64_t *w = &s->window[i >> 6];

	if (likely(seq == s->next && s->started != 0)) {
		(*rx)++;
		*w |= bit;
		s->next = seq + 1;
		return;
	}
	if (s->started != 0 && (uint32_t)(s->next - seq - 1) < PVP_SEQ_WINDOW && (*w & bit) != 0) {
		(*rx)++;
		(*dup)++;
		return;
	}
	pvp_seq_update(s, seq);
}

/** pvp_seq_update() with the common cases inline (pvp_seq_update_burst()). */
static __rte_always_inline void
pvp_seq_update_inline(struct pvp_seq *s, uint32_t seq)
{
	pvp_seq_update_burst(s, seq, &s->rx, &s->dup);
}

/**
 * Exact loss at the end of a run: packets @p sent minus unique packets
 * received (rx - dup); 0 when more arrived than were sent.
 */
static inline uint64_t
pvp_seq_lost(const struct pvp_seq *s, uint64_t sent)
{
	uint64_t unique = s->rx - s->dup;

	return sent > unique ? sent - unique : 0;
}

#ifdef __cplusplus
}
#endif

#endif /* PVP_SIG_H */
