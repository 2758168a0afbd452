/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Streams, profiles, packet templates and the field engine of pvpkit-gen
 * (doc/profiles.rst describes the JSON format with examples).
 *
 * Life cycle:
 *
 *   pvp_profile_load() / pvp_profile_parse() / pvp_profile_quick()
 *       parse and validate a profile, and build every stream's templates
 *       (one per frame size or pcap frame) with flow 0 applied, valid
 *       checksums and a signature with seq = 0, tx_ts = 0.
 *   For packet n of a stream (n counted by the sender):
 *       t    = pvp_stream_tmpl(s, n)        template (IMIX/pcap order)
 *       flow = n % s->flows                 (or any split over lcores)
 *       pvp_flow_build(s, t, flow, buf)     whole image (setup: flow cache)
 *     or pvp_flow_apply(s, t, flow, pkt)    only the varying fields of a
 *                                           packet that holds t (any flow)
 *       pvp_sig_stamp(t, pkt, seq, tx_ts)   per packet, fixes L4 checksum
 *   pvp_profile_free().
 *
 * Sizes: every frame size here INCLUDES the 4 B FCS (64..9216); the bytes
 * of a template (pvp_tmpl::len) are size - 4. TRex's IMIX 60/590/1514 is
 * 64/594/1518 here.
 *
 * Checksums: IPv4 header, UDP and TCP checksums are always valid in
 * templates, after pvp_flow_apply() and after pvp_sig_stamp(), all
 * updated incrementally (RFC 1624). The one exception is the outer UDP
 * checksum of VXLAN over IPv4, which is 0 as RFC 7348 recommends; over
 * IPv6 the outer UDP checksum is valid too.
 *
 * The library allocates with malloc (no EAL needed): the sender copies
 * template or flow-cache images into its own mbufs.
 */

#ifndef PVP_PKT_H
#define PVP_PKT_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#include <rte_common.h>
#include <rte_ether.h>

#include <jansson.h>

#include "pvp_sig.h"
#include "pvp_rate.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Smallest frame size, FCS included. */
#define PVP_PKT_MIN_SIZE 64
/** Largest frame size (jumbo), FCS included. */
#define PVP_PKT_MAX_SIZE 9216
/**
 * Most bytes of a frame given as bytes (pvp_stream_build_raw()), FCS not
 * included: TRex's MAX_PKT_SIZE (9 KiB of IP, the Ethernet header, 8 B
 * spare), so that TRex's 9230 B profiles load unchanged.
 */
#define PVP_PKT_RAW_MAX_LEN (9u * 1024 + 22)
/** Most variables per stream (tuple members included). */
#define PVP_PKT_MAX_VARS 8
/** Most entries in an IMIX list. */
#define PVP_PKT_MAX_IMIX 16
/** Most streams in a profile. */
#define PVP_PKT_MAX_STREAMS 1024
/** Most flows of a stream (a tuple's product, "flows", loop and burst
 *  packet counts stay within it too): 2^48. */
#define PVP_PKT_MAX_FLOWS (UINT64_C(1) << 48)
/** Longest gap between the bursts of a multi-burst stream, us (2^40: 12.7 days). */
#define PVP_PKT_MAX_GAP_US (UINT64_C(1) << 40)
/** UDP destination port of VXLAN. */
#define PVP_PKT_VXLAN_PORT 4789
/** Largest profile or pcap file read (bytes). */
#define PVP_PKT_MAX_FILE (UINT64_C(64) << 20)
/**
 * Size of an error buffer that holds any message of the profile parsers,
 * one line ready to print: "file:line:col: streams[1].size: must be
 * 64..9216 ...". The parsers clear the buffer they are given, then keep
 * the first error (jansson style).
 */
#define PVP_PKT_ERR_LEN 384

/** One header stack: the outer headers, or the inner frame of VXLAN. */
struct pvp_hdr {
	struct rte_ether_addr eth_src; /**< source MAC */
	struct rte_ether_addr eth_dst; /**< destination MAC */
	uint8_t n_vlan;		       /**< 0, 1 or 2 tags (2 = QinQ: outer TPID 0x88a8) */
	uint16_t vlan[2];	       /**< VLAN ids, vlan[0] outermost */
	uint8_t ip_ver;		       /**< 4 or 6 */
	uint8_t ip_src[16];	       /**< network order; IPv4 uses the first 4 bytes */
	uint8_t ip_dst[16];	       /**< network order; IPv4 uses the first 4 bytes */
	uint8_t ttl;		       /**< IPv4 TTL / IPv6 hop limit */
	uint8_t tos;		       /**< IPv4 TOS / IPv6 traffic class */
	uint8_t l4_proto;	       /**< IPPROTO_UDP or IPPROTO_TCP */
	uint16_t sport;		       /**< L4 source port */
	uint16_t dport;		       /**< L4 destination port */
};

/** Field engine operations. */
enum pvp_var_op {
	PVP_VAR_INC = 0, /**< min, min+step, ... wrapping within [min, max] */
	PVP_VAR_DEC,	 /**< max, max-step, ... wrapping within [min, max] */
	PVP_VAR_RANDOM,	 /**< a seeded pseudo-random permutation of [min, max] */
	PVP_VAR_TABLE,	 /**< table[k % period]: a sequence computed at setup */
};

/**
 * One variable of the field engine. Its value for flow f is a function of
 * k = (f / div): INC gives min + (k * step mod range), DEC the mirror from
 * max, RANDOM a permutation of [min, max] seeded by @c seed (so distinct
 * k within a range give distinct values, and runs are repeatable).
 * TABLE gives table[k % period]: a sequence another engine computed at
 * setup (TRex's field engine run packet by packet), which the caller
 * owns and keeps while the stream is sent.
 * Values are at most 32 bits; for IPv6 addresses and MACs the variable
 * covers the low 32 bits (min and max must share the high bytes).
 */
struct pvp_var {
	char field[32];	    /**< "ipv4.src", "inner.udp.dport", ... or "" */
	uint16_t offset;    /**< raw: byte offset from the frame start */
	uint8_t len;	    /**< bytes written, big endian: 1, 2 or 4 */
	enum pvp_var_op op; /**< how the value moves */
	uint32_t min;	    /**< smallest value (host order) */
	uint32_t max;	    /**< largest value, >= min */
	uint32_t step;	    /**< INC/DEC step, >= 1 */
	uint64_t seed;	    /**< RANDOM seed */
	uint64_t div;	    /**< flow-index divisor: 1, or the product of the
			     *   ranges before it in a tuple */
	uint64_t period;    /**< distinct values over consecutive k */
	bool tuple;	    /**< made by the stream's "tuple" member */
	uint32_t *table;    /**< TABLE: @c period values in [min, max], never written */
};

/** Transmission modes. */
enum pvp_mode {
	PVP_MODE_CONTINUOUS = 0, /**< until stopped or the duration ends */
	PVP_MODE_BURST,		 /**< burst_packets, then stop */
	PVP_MODE_MULTI_BURST,	 /**< burst_count bursts of burst_packets,
				  *   burst_gap_us apart */
};

/** One IMIX entry. */
struct pvp_imix {
	uint16_t size;	 /**< frame size, FCS included */
	uint32_t weight; /**< relative weight, >= 1 */
};

/** pvp_csum_loc::flags: the written bytes are in this checksum's range. */
#define PVP_CSUM_F_DATA 0x01
/** pvp_csum_loc::flags: covers the checksum field of entry k (bit 1 << (k + 1)). */
#define PVP_CSUM_F_PREV(k) (0x02 << (k))
/** pvp_csum_loc::flags: a UDP checksum (a result of 0 is sent as 0xffff). */
#define PVP_CSUM_F_UDP 0x80

/**
 * Checksum fields that one write must update, innermost first (internal
 * to the engine). An outer UDP checksum (VXLAN over IPv6) also covers
 * the inner checksum fields, so their changes feed into it.
 */
struct pvp_csum_loc {
	uint16_t off[4];  /**< offsets of the 16-bit checksum fields */
	uint8_t flags[4]; /**< PVP_CSUM_F_* per field */
	uint8_t n;	  /**< number of fields */
};

/** Where a variable lands in one template. */
struct pvp_slot {
	uint16_t off;		  /**< first byte written */
	uint8_t len;		  /**< bytes written (1, 2 or 4) */
	struct pvp_csum_loc csum; /**< checksums covering those bytes */
};

/** One packet template: the frame of one size (IMIX) or one pcap frame. */
struct pvp_tmpl {
	uint8_t *data;				/**< frame bytes without FCS, flow 0 applied */
	uint16_t len;				/**< bytes in @c data: frame size - 4 */
	uint16_t size;				/**< frame size with FCS: len + 4 */
	uint16_t sig_off;			/**< offset of the signature; 0 = none (replay) */
	struct pvp_csum_loc sig_csum;		/**< checksums covering the signature */
	struct pvp_slot slot[PVP_PKT_MAX_VARS]; /**< per stream var */
	uint64_t ts_ns;				/**< pcap frames: capture time (ns), 0 else */
};

/** One stream: configuration from the profile, then what was built. */
struct pvp_stream {
	char name[64];		/**< "name", default "stream<id>" */
	uint16_t id;		/**< signature stream id: index in the profile */
	uint16_t port;		/**< TX port index */
	bool has_rate;		/**< "rate" given */
	struct pvp_rate rate;	/**< the stream's rate when has_rate */
	enum pvp_mode mode;	/**< transmission mode */
	uint64_t burst_packets; /**< BURST / MULTI_BURST: packets per burst */
	uint32_t burst_count;	/**< MULTI_BURST: number of bursts */
	uint64_t burst_gap_us;	/**< MULTI_BURST: gap between bursts, us */

	/* Frames. Exactly one of size / imix / pcap. */
	uint16_t size;				/**< fixed frame size (FCS included), 0 if none */
	uint32_t n_imix;			/**< IMIX entries, 0 if none */
	struct pvp_imix imix[PVP_PKT_MAX_IMIX]; /**< IMIX list */
	char pcap[256];				/**< pcap path as resolved, "" if none */
	bool replay;				/**< pcap frames sent as captured: no signature,
			      *   no vars */
	uint64_t loop;				/**< replay: passes over the file, 0 = forever */
	bool keep_csum; /**< raw frames: checksums as given, the vars carry every byte
			 *   that changes (checksums included); no signature */
	bool sig_tail;	/**< raw frames: the signature in the L4 payload's last bytes
			 *   (TRex's ieee_1588 latency: a PTP message follows the L4
			 *   header) */

	/* Headers (not used for pcap). */
	struct pvp_hdr outer; /**< outer (or only) headers */
	bool vxlan;	      /**< VXLAN encapsulation of @c inner */
	uint32_t vni;	      /**< VXLAN network identifier */
	struct pvp_hdr inner; /**< inner frame when @c vxlan */

	/* Field engine. */
	uint32_t n_vars;		       /**< variables, tuple members included */
	struct pvp_var vars[PVP_PKT_MAX_VARS]; /**< variables */
	uint64_t flows;			       /**< distinct flows; flow index runs 0..flows-1 */

	/* Built. */
	uint32_t n_tmpl;       /**< templates */
	struct pvp_tmpl *tmpl; /**< templates: one per IMIX size / pcap frame */
	uint32_t n_order;      /**< packets in one size cycle */
	uint32_t *order;       /**< template index of each packet of the cycle
			      *   (IMIX interleaved with exact proportions) */
	double avg_size;       /**< mean frame size over a cycle, FCS included */
	/**
	 * Raw streams of several lengths (TRex's trim_pkt_size): the bytes
	 * sent of flow f, FCS not included, at most the one template's len,
	 * are flow_len[f % flows]; NULL: the template's len. The caller owns
	 * it and keeps it while the stream is sent.
	 */
	const uint16_t *flow_len;
};

/** A parsed profile. */
struct pvp_profile {
	char source[256];	    /**< file name, or "<profile>" */
	uint32_t n_streams;	    /**< streams */
	struct pvp_stream *streams; /**< streams[i].id == i */
};

/**
 * Load, validate and build a profile from a JSON file (jansson, duplicate
 * keys rejected). Relative pcap paths are relative to the file's folder.
 *
 * @param path
 *   The file.
 * @param err
 *   Optional error: text is "path:line:col: member.path: message".
 * @return
 *   The profile, or NULL with errno set (EINVAL for bad content, ENOENT
 *   and friends for files, ENOMEM).
 */
struct pvp_profile *pvp_profile_load(const char *path, char *err, size_t err_len);

/**
 * Same as pvp_profile_load() from a string in memory.
 * @param source name used in messages (e.g. "<rpc>").
 */
struct pvp_profile *pvp_profile_load_str(const char *text, const char *source, char *err,
					 size_t err_len);

/**
 * Same from an already parsed object (e.g. the "profile" member of a
 * profile.load request). Errors carry no line/column.
 */
struct pvp_profile *pvp_profile_parse(const json_t *root, const char *source, char *err,
				      size_t err_len);

/**
 * The command-line shortcut: one UDP/IPv4 stream per port in @p ports,
 * each of @p size bytes (0 = TRex IMIX 64/594/1518 at 28:16:4) and
 * @p flows flows (the source IPv4 address increments from 16.0.0.1, one
 * per flow, 1..3758096383 flows). Stream i goes to ports[i], MACs and IPs are the
 * defaults of doc/profiles.rst.
 */
struct pvp_profile *pvp_profile_quick(uint16_t size, uint64_t flows, const uint16_t *ports,
				      unsigned int n_ports, char *err, size_t err_len);

/** Free a profile and its templates. NULL is a no-op. */
void pvp_profile_free(struct pvp_profile *p);

/** Free what building stream @p s allocated (its templates), not @p s itself. */
void pvp_stream_free(struct pvp_stream *s);

/**
 * Build a stream from a frame given as bytes (lib/pkt/raw.c), for senders
 * that get frames rather than headers (pvpkit-gen --trex). The caller
 * fills @p s (zeroed) with name, id, port, mode and its vars, each a raw
 * byte offset (field "", len 1, 2 or 4, min, max, step, div, period) and
 * sets flows; this makes the one template: the frame padded with zeros
 * to 60 B, every IPv4/UDP/TCP checksum valid (a zero UDP checksum over
 * IPv4 stays zero), the signature after the last L4 header when @p sign,
 * the IP payload has room and no var writes there (t->sig_off is 0
 * otherwise), and flow 0 applied. With s->keep_csum the frame's bytes
 * stay as given (checksums too, no signature) and the vars only write
 * their bytes. Free it with its profile, or alone with pvp_stream_free().
 *
 * @param len
 *   Bytes of @p frame, FCS not included: 14..PVP_PKT_RAW_MAX_LEN.
 * @return
 *   0, or -EINVAL (bad frame or var: @p msg says which), -E2BIG, -ENOMEM.
 */
int pvp_stream_build_raw(struct pvp_stream *s, const uint8_t *frame, uint32_t len, bool sign,
			 char *msg, size_t msglen);

/**
 * One line describing a stream, for logs and tests, e.g.
 * "stream 0 \"s0\" port 0 size 64 ipv4/udp flows 1000 vars 1
 * mode continuous rate 1Mpps".
 * @return snprintf's result.
 */
int pvp_stream_summary(const struct pvp_stream *s, char *buf, size_t len);

/** Template of packet @p n of a stream (IMIX/pcap order). */
static inline const struct pvp_tmpl *
pvp_stream_tmpl(const struct pvp_stream *s, uint64_t n)
{
	return &s->tmpl[s->order[n % s->n_order]];
}

/**
 * Smallest frame size (FCS included) that holds the headers of @p s
 * and the signature; at least PVP_PKT_MIN_SIZE.
 */
uint16_t pvp_stream_min_size(const struct pvp_stream *s);

/**
 * Value of variable @p v for flow @p flow (host order).
 */
uint32_t pvp_var_value(const struct pvp_var *v, uint64_t flow);

/**
 * Write the full image of flow @p flow of template @p t into @p buf
 * (t->len bytes): the template, the variables' values, valid checksums.
 * Used at setup to prebuild a flow cache.
 */
void pvp_flow_build(const struct pvp_stream *s, const struct pvp_tmpl *t, uint64_t flow,
		    uint8_t *buf);

/**
 * Turn a packet that holds template @p t for any flow into flow @p flow:
 * rewrites only the variables' bytes and updates the checksums that cover
 * them incrementally (RFC 1624). The per-packet path for large flow counts.
 */
void pvp_flow_apply(const struct pvp_stream *s, const struct pvp_tmpl *t, uint64_t flow,
		    uint8_t *pkt);

/**
 * Stamp sequence number and TX timestamp into the signature of a packet
 * that holds template @p t (any flow, any previous stamp), and update the
 * L4 checksum(s) covering them incrementally. No-op when t->sig_off is 0.
 */
void pvp_sig_stamp(const struct pvp_tmpl *t, uint8_t *pkt, uint32_t seq, uint32_t tx_ts);

/**
 * Set the signature's stream id of a packet that holds template @p t
 * (e.g. one id per TX lcore of a stream), fixing the checksums. No-op
 * when t->sig_off is 0.
 */
void pvp_sig_set_stream(const struct pvp_tmpl *t, uint8_t *pkt, uint16_t stream);

/**
 * Apply a change of covered bytes to the checksum fields of @p loc
 * (RFC 1624), for senders that write fields themselves.
 *
 * @param d
 *   The ones' complement difference new - old of the changed bytes,
 *   summed as 16-bit big-endian words at their frame offsets (an even
 *   offset is the high byte), folded: fold(~fold(old) + fold(new)).
 */
void pvp_csum_apply(uint8_t *pkt, const struct pvp_csum_loc *loc, uint16_t d);

/**
 * Expand an IMIX list into a cycle of entry indices with exact
 * proportions, interleaved (smooth weighted round robin): weights 28:16:4
 * give a cycle of 12 (after dividing by the gcd) with 7, 4 and 1 of each.
 *
 * @param order
 *   Output array of at least pvp_imix_cycle_len() entries.
 * @return the cycle length.
 */
uint32_t pvp_imix_expand(const struct pvp_imix *imix, uint32_t n, uint32_t *order);

/** Length of the cycle of an IMIX list: sum of weights / their gcd,
 *  saturated at UINT32_MAX. */
uint32_t pvp_imix_cycle_len(const struct pvp_imix *imix, uint32_t n);

/** Largest weight of an IMIX entry. */
#define PVP_PKT_MAX_IMIX_WEIGHT 1000000

/**
 * Parse an IMIX list as users write it: "64:7,570:4,1518:1", size[:weight]
 * entries (weight 1 when left out), plain decimals, no empty entry.
 *
 * @param what
 *   Names the input in messages, e.g. "--imix-sizes".
 * @param out
 *   At least PVP_PKT_MAX_IMIX entries.
 * @param n
 *   Entries written, on success.
 * @param err
 *   On failure, one line: `--imix-sizes: "x" must be a whole number in 1..1000000`.
 * @return
 *   0, -EINVAL (not a number), -ERANGE (outside its range) or -E2BIG (more
 *   than PVP_PKT_MAX_IMIX entries, or too long).
 */
int pvp_imix_parse(const char *what, const char *s, struct pvp_imix *out, uint32_t *n, char *err,
		   size_t errlen);

/** TRex's IMIX: 64/594/1518 (60/590/1514 without FCS) at 28:16:4. */
extern const struct pvp_imix pvp_imix_trex[3];

/**
 * Parse a frame without FCS: offsets of the (inner, after VXLAN) L3 and
 * L4 headers. Used for pcap templates and by pvp_sig_find_buf().
 */
struct pvp_pkt_layout {
	uint16_t l3_off;      /**< outer L3 header */
	uint16_t l4_off;      /**< outer L4 header, 0 if none */
	uint8_t ip_ver;	      /**< outer: 4, 6 or 0 */
	uint8_t l4_proto;     /**< outer: IPPROTO_UDP/TCP or 0 */
	uint16_t in_l3_off;   /**< VXLAN inner L3, 0 if not VXLAN */
	uint16_t in_l4_off;   /**< VXLAN inner L4, 0 if none */
	uint8_t in_ip_ver;    /**< inner: 4, 6 or 0 */
	uint8_t in_l4_proto;  /**< inner: IPPROTO_UDP/TCP or 0 */
	uint16_t payload_off; /**< first byte after the last L4 header, 0 if none */
	uint16_t l3_end;      /**< outer: end of the IP packet (total length) */
	uint16_t in_l3_end;   /**< inner: end of the IP packet, 0 if none */
	uint8_t ihl;	      /**< outer IPv4 header length, 0 for IPv6 */
	uint8_t in_ihl;	      /**< inner IPv4 header length */
	uint16_t in_l2_off;   /**< VXLAN inner Ethernet header, 0 if none */
};

/**
 * Parse Ethernet, up to two VLAN tags, IPv4 (with options) or IPv6 (no
 * extension headers), UDP/TCP and VXLAN on UDP 4789.
 * @return 0, or -EINVAL when the frame is not IP or truncated.
 */
int pvp_pkt_parse(const uint8_t *data, uint32_t len, struct pvp_pkt_layout *lay);

/**
 * Find the signature in a contiguous frame (see pvp_sig_find()).
 * @return a pointer into @p data or NULL.
 */
const struct pvp_sig *pvp_sig_find_buf(const uint8_t *data, uint32_t len);

#ifdef __cplusplus
}
#endif

#endif /* PVP_PKT_H */
