/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex's packet as pvpkit-gen sends it: a checked stream (trex_stream.c)
 * made into a lib/pkt stream with TRex's port MACs, its PTP frame, the
 * checksums TRex leaves as the packet has them, and the marks its
 * flow-stat rules put on a stream's packet.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>

#include "trex.h"

static bool
trex_csum_is_fixed(const struct trex_stream *ts, uint16_t off)
{
	unsigned int i;

	for (i = 0; i < ts->n_csum_fixed; i++)
		if (ts->csum_fixed[i] == off)
			return true;
	return false;
}

/* Put back the bytes of checksum field @p off as the packet has them, unless fixed. */
static void
trex_csum_restore(const struct trex_stream *ts, uint8_t *data, uint32_t off)
{
	if (off != 0 && off + 2 <= ts->len && !trex_csum_is_fixed(ts, (uint16_t)off))
		memcpy(data + off, ts->pkt + off, 2);
}

/*
 * A field engine in closed form (trex_vm.c) writes through lib/pkt, which
 * makes every checksum valid; TRex fixes only the checksums its
 * instructions name and sends the others as the packet has them (the TCP
 * checksum of trex-core's burst_split, whose IPv4 source changes). So the
 * others go back to the packet's bytes and no write updates them.
 */
static void
trex_csum_as_trex(const struct trex_stream *ts, struct pvp_stream *s)
{
	struct pvp_tmpl *t = &s->tmpl[0];
	struct pvp_pkt_layout lay;
	uint32_t i;

	if (pvp_pkt_parse(ts->pkt, ts->len, &lay) != 0)
		return;
	if (lay.ip_ver == 4)
		trex_csum_restore(ts, t->data, lay.l3_off + 10u);
	if (lay.l4_off != 0)
		trex_csum_restore(ts, t->data,
				  lay.l4_off + (lay.l4_proto == IPPROTO_UDP ? 6u : 16u));
	if (lay.in_ip_ver == 4)
		trex_csum_restore(ts, t->data, lay.in_l3_off + 10u);
	if (lay.in_l4_off != 0)
		trex_csum_restore(ts, t->data,
				  lay.in_l4_off + (lay.in_l4_proto == IPPROTO_UDP ? 6u : 16u));
	for (i = 0; i < s->n_vars; i++) {
		struct pvp_csum_loc *loc = &t->slot[i].csum, kept = {.n = 0};
		uint8_t map[RTE_DIM(loc->off)];
		unsigned int j, k;

		for (j = 0; j < loc->n; j++) {
			uint8_t f = loc->flags[j] & PVP_CSUM_F_DATA;

			map[j] = UINT8_MAX;
			if (!trex_csum_is_fixed(ts, loc->off[j]))
				continue;
			/* Inner checksum fields it covers that still change. */
			for (k = 0; k < j; k++)
				if ((loc->flags[j] & PVP_CSUM_F_PREV(k)) && map[k] != UINT8_MAX)
					f |= PVP_CSUM_F_PREV(map[k]);
			if (f == 0)
				continue;
			map[j] = kept.n;
			kept.off[kept.n] = loc->off[j];
			kept.flags[kept.n++] = f | (loc->flags[j] & PVP_CSUM_F_UDP);
		}
		*loc = kept;
	}
}

/* PTP: a Sync message, TRex's 44 bytes of it, and the 16 of its latency header. */
#define TREX_PTP_SYNC_LEN 44
#define TREX_PTP_TAIL_LEN (TREX_PTP_SYNC_LEN + 16)

/*
 * @p frame, a copy of @p ts's packet, gets the PTP Sync message TRex puts
 * before its latency header at the end of an ieee_1588 frame: version 2,
 * length 60, the two-step flag, the clock identity from the port's MAC.
 * The 16 bytes after it carry pvpkit's signature (the last 14), not TRex's header, and TRex's seq_id
 * (its latency seq) stays 0: pvpkit-gen has no NIC timestamp to send in
 * a Follow_Up, so it sends none.
 */
static int
trex_ptp_frame(const struct trex_stream *ts, uint8_t *frame, char *msg, size_t len)
{
	const uint8_t *mac = trex.g->port[ts->port].mac.addr_bytes;
	struct pvp_pkt_layout lay;
	uint8_t *m;

	if (pvp_pkt_parse(frame, ts->len, &lay) != 0 || lay.l4_proto != IPPROTO_UDP ||
	    lay.l3_end < lay.payload_off + TREX_PTP_TAIL_LEN)
		return pvp_fail(msg, len, -EINVAL,
				"flow_stats 'ieee_1588' needs a UDP packet with %u payload bytes: "
				"the PTP Sync message (%u B) and the latency header (16 B), as "
				"TRex's 106 B frames have",
				TREX_PTP_TAIL_LEN, TREX_PTP_SYNC_LEN);
	m = frame + lay.l3_end - TREX_PTP_TAIL_LEN;
	memset(m, 0, TREX_PTP_TAIL_LEN);
	m[1] = 2;		  /* versionPTP */
	m[3] = TREX_PTP_TAIL_LEN; /* messageLength, big endian */
	m[6] = 0x2;		  /* flagField: twoStepFlag */
	memcpy(m + 20, mac, 3);	  /* clockIdentity: EUI-64 of the MAC */
	m[23] = 0xff;
	m[24] = 0xfe;
	memcpy(m + 25, mac + 3, 3);
	return 0;
}

/*
 * A lib/pkt stream for @p ts (the template is built: callers free it);
 * @p msg, given empty, gets the first error.
 * The port's MACs go over the packet's as the stream's flags ask, before
 * the field engine's writes, as TRex's update_mac_addr() does when it
 * compiles a stream: the source unless flags bit 0, the destination
 * unless bits 1-2 are 1 (the packet's); 0 (the config file's) and 2
 * ("ARP") both take the port's, its set_l2 or resolved set_l3 MAC.
 */
int
trex_stream_fill(const struct trex_stream *ts, struct pvp_stream *s, uint16_t id, char *msg,
		 size_t len)
{
	struct rte_ether_addr src, dst;
	uint8_t pkt[PVP_PKT_RAW_MAX_LEN];
	int ret;

	memcpy(pkt, ts->pkt, ts->len);
	trex_service_macs(ts->port, &src, &dst);
	if (!ts->mac_dst_pkt)
		memcpy(pkt, &dst, RTE_ETHER_ADDR_LEN);
	if (!ts->mac_src_pkt)
		memcpy(pkt + RTE_ETHER_ADDR_LEN, &src, RTE_ETHER_ADDR_LEN);
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "port%u.stream%u", ts->port, ts->id);
	s->id = id;
	s->port = ts->port;
	s->mode = ts->mode;
	s->burst_packets = ts->burst_pkts;
	s->burst_count = ts->burst_count;
	s->burst_gap_us = (uint64_t)(ts->ibg_us + 0.5);
	s->n_vars = ts->n_vars;
	memcpy(s->vars, ts->vars, sizeof(s->vars));
	s->flows = ts->flows;
	s->flow_len = ts->vm_len;
	/*
	 * TRex sends a packet's bytes as given: the signature only where
	 * flow_stats asks, and without it, checksums as TRex leaves them
	 * (its engine's tables carry every byte that changes).
	 */
	s->keep_csum = !ts->fs && (ts->n_vars == 0 || ts->vm_table != NULL);
	/* An ieee_1588 stream is a latency one (fs), a tpg one is none. */
	if (ts->ieee_1588) {
		ret = trex_ptp_frame(ts, pkt, msg, len);
		if (ret != 0)
			return ret;
		s->sig_tail = true;
	}
	ret = pvp_stream_build_raw(s, pkt, ts->len, ts->fs, msg, len);
	if (ret == 0 && ts->tpg)
		return trex_tpg_frame(ts, s, msg, len);
	if (ret == 0 && !ts->fs && !s->keep_csum)
		trex_csum_as_trex(ts, s);
	/* Several lengths: the pacing's mean frame is TRex's expected one. */
	if (ret == 0 && s->flow_len != NULL)
		s->avg_size = RTE_MAX(ts->rate_len, 60.0) + PVP_FCS_LEN;
	return ret;
}

/* TRex's first IPv4 identification of stats pgids (its simulator's ip_id_base). */
#define TREX_FS_IP_ID_BASE 0xff00
/* TRex's IPv4 identification of latency streams (FLOW_STAT_PAYLOAD_IP_ID). */
#define TREX_FS_IP_ID_LATENCY 0xffff
/* What TRex keeps of a reserved identification in a stream without flow_stats. */
#define TREX_FS_IP_ID_FREE 0xefff
/* TRex's mark of flow-stat packets in the IPv4 TOS / IPv6 traffic class. */
#define TREX_FS_TOS_BIT 0x01

/*
 * Set the 16-bit word at @p at of the IPv4 header at @p ip to @p v and
 * update its checksum by the change (RFC 1624), as TRex's
 * updateCheckSum(old, new) does: a checksum that was wrong stays wrong.
 */
static void
trex_ip4_set16(uint8_t *ip, unsigned int at, uint16_t v)
{
	const struct pvp_csum_loc loc = {.off = {10}, .flags = {PVP_CSUM_F_DATA}, .n = 1};
	uint32_t d = (uint16_t) ~(ip[at] << 8 | ip[at + 1]) + (uint32_t)v;

	ip[at] = (uint8_t)(v >> 8);
	ip[at + 1] = (uint8_t)v;
	pvp_csum_apply(ip, &loc, (uint16_t)((d & 0xffff) + (d >> 16)));
}

/*
 * What TRex's flow-stat rules do to a stream's packet when it starts
 * (trex-core src/stx/stl/trex_stl_fs.cpp, start_stream(), and
 * src/flow_stat_parser.cpp). A flow_stats stream: the lowest bit of the
 * IPv4 TOS (IPv6 traffic class) set, and the IPv4 identification (IPv6
 * flow label) 0xffff in a latency stream, 0xff00 + the pgid's counter
 * index in a stats one. Any other stream whose identification (flow
 * label) is in that reserved range, 0xff00 and up: bit 12 cleared (and
 * the bits above 16 of a flow label), so that it is not counted as one.
 * The IPv4 checksum follows each change. Done before the field engine
 * is run, as in TRex, so that its checksum fixes see it. A packet that is
 * not IP is left alone (a flow_stats one is refused for want of a
 * signature).
 */
void
trex_fs_mark(struct trex_stream *s)
{
	struct pvp_pkt_layout lay;
	uint8_t *ip = s->pkt;
	uint32_t id;

	if (pvp_pkt_parse(s->pkt, s->len, &lay) != 0)
		return;
	ip += lay.l3_off;
	id = lay.ip_ver == 4 ? (uint32_t)(ip[4] << 8 | ip[5])
			     : (uint32_t)(ip[1] & 0x0f) << 16 | (uint32_t)(ip[2] << 8 | ip[3]);
	if (!s->fs) {
		if (id < TREX_FS_IP_ID_BASE)
			return;
		id &= TREX_FS_IP_ID_FREE;
	} else if (s->fs_latency) {
		id = TREX_FS_IP_ID_LATENCY;
	} else {
		id = TREX_FS_IP_ID_BASE + s->fs_hw_id;
	}
	if (lay.ip_ver == 4) {
		if (s->fs)
			trex_ip4_set16(ip, 0, (uint16_t)(ip[0] << 8 | ip[1] | TREX_FS_TOS_BIT));
		trex_ip4_set16(ip, 4, (uint16_t)id);
	} else {
		/* Version 4 bits, traffic class 8, flow label 20. */
		if (s->fs)
			ip[1] |= TREX_FS_TOS_BIT << 4;
		ip[1] = (uint8_t)(ip[1] & 0xf0) | (uint8_t)(id >> 16 & 0x0f);
		ip[2] = (uint8_t)(id >> 8);
		ip[3] = (uint8_t)id;
	}
}
