/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Neighbour responder and resolver: ARP (RFC 826) and IPv6 neighbour
 * discovery (RFC 4861) for a port that owns a few addresses, the same code
 * in pvpkit-gen and pvpkit-fwd. It works on frame bytes, never on a queue:
 * the caller receives, hands an ARP/ND frame in, and sends what it gets
 * back (a reply, or a learnt neighbour for its resolver). Requests it
 * builds (ARP request, neighbour solicitation, gratuitous ARP, unsolicited
 * neighbour advertisement) are frame bytes too. Untagged, one 802.1Q tag,
 * or QinQ's two tags: an 802.1ad outer tag (TPID 0x88a8) and an 802.1Q
 * inner one, as TRex tags its service packets; on receive either TPID is
 * taken at either place, as TRex's stack takes them.
 * ICMP and ICMPv6 echo requests to the port's addresses (for IPv6 also its
 * link-local address and all-nodes, ff02::1) get their echo reply the same
 * way, so that a peer's ping and IPv6 scan find the port.
 */

#ifndef PVP_NEIGH_H
#define PVP_NEIGH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ether.h>

/** VLAN tags a port's ARP/ND frames carry at most: QinQ's outer and inner. */
#define PVP_NEIGH_VLAN_MAX 2

/**
 * Longest frame the builders and the responder write, bytes without FCS:
 * an echo reply is as long as its request, up to a full Ethernet frame
 * with two tags (longer echo requests are ignored).
 */
#define PVP_NEIGH_FRAME_MAX                                                                        \
	(RTE_ETHER_MAX_LEN - RTE_ETHER_CRC_LEN + PVP_NEIGH_VLAN_MAX * RTE_VLAN_HLEN)

/** Length of the text of one address option (--addr), NUL included. */
#define PVP_NEIGH_OPT_MAX 512

/** An IPv4 range, host order, both ends included; empty when !set. */
struct pvp_neigh_range4 {
	uint32_t lo; /**< first address */
	uint32_t hi; /**< last address */
	bool set;    /**< the range holds addresses */
};

/** An IPv6 range, network order, both ends included; empty when !set. */
struct pvp_neigh_range6 {
	uint8_t lo[16]; /**< first address */
	uint8_t hi[16]; /**< last address */
	bool set;	/**< the range holds addresses */
};

/** What a port owns and whom it resolves (one --addr option). */
struct pvp_neigh_cfg {
	struct rte_ether_addr mac; /**< the port's MAC, set by the caller */
	union {
		/** VLAN ids, outer first: {0, 0} untagged, {V, 0} one 802.1Q tag, {OUTER, INNER} QinQ. */
		uint16_t vlan[PVP_NEIGH_VLAN_MAX];
		/** Both ids as one word, for a writer that changes them while the responder reads. */
		uint32_t vlan_word;
	};
	uint32_t ip4;		      /**< own IPv4 address, host order, 0: none */
	uint32_t gw4;		      /**< IPv4 gateway to resolve, 0: none */
	struct pvp_neigh_range4 ans4; /**< further IPv4 addresses answered for */
	uint8_t ip6[16];	      /**< own IPv6 address */
	bool has_ip6;		      /**< ip6 is set */
	uint8_t gw6[16];	      /**< IPv6 gateway to resolve */
	bool has_gw6;		      /**< gw6 is set */
	struct pvp_neigh_range6 ans6; /**< further IPv6 addresses answered for */
	uint32_t announce_ms;	      /**< gratuitous ARP / unsolicited NA period, 0: none */
};

/* clang-format off: one counter a line. */
/** Counters of the responder, X(name, help): an enum-free list in step with the struct. */
#define PVP_NEIGH_COUNTERS(X)                                                                      \
	X(arp_rx, "ARP frames received")                                                           \
	X(arp_answered, "ARP requests for an address of ours: a reply written")                    \
	X(arp_learnt, "ARP replies and gratuitous ARPs that named a watched address")              \
	X(nd_rx, "ICMPv6 neighbour discovery frames received")                                     \
	X(ns_answered, "neighbour solicitations for an address of ours: a reply written")          \
	X(na_learnt, "neighbour advertisements that named a watched address")                      \
	X(echo, "ICMP/ICMPv6 echo requests to an address of ours received")                        \
	X(echo_answered, "echo requests to an address of ours: a reply written")                   \
	X(ignored, "ARP/ND/echo frames not for us, of another VLAN, or malformed")
/* clang-format on */

/** The responder's counters; one writer each (the lcore that calls pvp_neigh_input()). */
struct pvp_neigh_stats {
#define PVP_NEIGH_FIELD(name, help) uint64_t name;
	PVP_NEIGH_COUNTERS(PVP_NEIGH_FIELD)
#undef PVP_NEIGH_FIELD
};

/** What pvp_neigh_input() made of a frame. */
enum pvp_neigh_verdict {
	PVP_NEIGH_NONE = 0, /**< neither ARP, ND nor an echo request to us: the caller's */
	PVP_NEIGH_REPLY,    /**< a request for one of our addresses: the reply is written */
	PVP_NEIGH_LEARNT,   /**< a reply or announcement: the neighbour is written */
	PVP_NEIGH_IGNORED,  /**< ARP/ND that asks nothing of us */
};

/** A neighbour an ARP reply or an advertisement named. */
struct pvp_neigh_peer {
	int family;		   /**< AF_INET or AF_INET6 */
	uint32_t ip4;		   /**< AF_INET: host order */
	uint8_t ip6[16];	   /**< AF_INET6 */
	struct rte_ether_addr mac; /**< its link-layer address */
};

/**
 * Whether a frame is ARP or ICMPv6 neighbour discovery, looking at its
 * EtherType (after up to two VLAN tags) and, for IPv6, at its next header and
 * ICMPv6 type. Cheap enough for a receive path's unsigned frames. Echo
 * requests are not in it: whether one is ours depends on the port's
 * addresses (pvp_neigh_input() decides).
 */
bool pvp_neigh_is_neigh(const uint8_t *frame, uint32_t len);

/**
 * Handle one received frame: an ARP request or a neighbour solicitation
 * for an address of @p c (its own, or in its answer ranges, on its VLAN)
 * gets its reply written to @p out; an ARP reply, gratuitous ARP or
 * neighbour advertisement is written to @p peer; an ICMP/ICMPv6 echo
 * request to an address of @p c (for IPv6 also the link-local address of
 * its MAC and ff02::1) gets its echo reply, the request's identifier,
 * sequence and data, written to @p out. Counts in @p st.
 *
 * @param out
 *   PVP_NEIGH_FRAME_MAX bytes for the reply.
 * @param out_len
 *   Set to the reply's length with PVP_NEIGH_REPLY.
 * @param peer
 *   Set with PVP_NEIGH_LEARNT; may be NULL (nothing is learnt then).
 * @return
 *   The verdict; PVP_NEIGH_NONE counts nothing.
 */
enum pvp_neigh_verdict pvp_neigh_input(const struct pvp_neigh_cfg *c, const uint8_t *frame,
				       uint32_t len, uint8_t *out, uint16_t *out_len,
				       struct pvp_neigh_peer *peer, struct pvp_neigh_stats *st);

/**
 * An ARP request from @p c for @p target (host order), broadcast.
 * @return its length in @p out (PVP_NEIGH_FRAME_MAX bytes).
 */
uint16_t pvp_neigh_arp_request(const struct pvp_neigh_cfg *c, uint32_t target, uint8_t *out);

/**
 * A neighbour solicitation from @p c for @p target, sent to its
 * solicited-node multicast address.
 * @return its length in @p out.
 */
uint16_t pvp_neigh_ns(const struct pvp_neigh_cfg *c, const uint8_t target[16], uint8_t *out);

/**
 * A gratuitous ARP (a broadcast request for @p c's own IPv4 address).
 * @return its length in @p out, 0 when @p c has no IPv4 address.
 */
uint16_t pvp_neigh_garp(const struct pvp_neigh_cfg *c, uint8_t *out);

/**
 * An unsolicited neighbour advertisement of @p c's IPv6 address to all
 * nodes (override flag set).
 * @return its length in @p out, 0 when @p c has no IPv6 address.
 */
uint16_t pvp_neigh_unsolicited_na(const struct pvp_neigh_cfg *c, uint8_t *out);

/**
 * Parse an address option into @p c (the MAC is left alone):
 * "ip=A[,gw=G][,ip6=A6][,gw6=G6][,vlan=V|OUTER/INNER][,answer=LO-HI]
 * [,answer6=LO-HI][,announce=S]", keys in any order, each once. @p what names the option
 * in the message ("--addr 0").
 *
 * @return 0, or -EINVAL with one line in @p err.
 */
int pvp_neigh_parse(const char *what, const char *s, struct pvp_neigh_cfg *c, char *err,
		    size_t errlen);

/**
 * Parse "PORT:KEY=VALUE,..." (an --addr option of @p opt, e.g. "--addr"):
 * the port index, at most @p max_port, into @p port, the rest by
 * pvp_neigh_parse() into @p c with "@p opt PORT" in its messages.
 *
 * @return 0, or -EINVAL with one line in @p err.
 */
int pvp_neigh_parse_port(const char *opt, const char *s, uint32_t max_port, uint32_t *port,
			 struct pvp_neigh_cfg *c, char *err, size_t errlen);

/**
 * @p c's VLAN ids as the address option writes them: "0" untagged, "V",
 * or "OUTER/INNER".
 * @return @p buf.
 */
const char *pvp_neigh_vlan_format(const struct pvp_neigh_cfg *c, char *buf, size_t len);

/** The link-local address of @p mac into @p ip6 (modified EUI-64, RFC 4291 2.5.1). */
void pvp_neigh_link_local(const struct rte_ether_addr *mac, uint8_t ip6[16]);

#endif /* PVP_NEIGH_H */
