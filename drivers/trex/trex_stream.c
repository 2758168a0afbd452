/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * A trial's traffic as TRex streams, in the JSON TRex's Python client
 * sends (STLStream.to_json()): an Ethernet/IPv4/UDP packet in base64 and
 * a field engine whose one variable walks the flows, so the frames are
 * those pvpkit-gen sends for the same trial: "normal" varies the source
 * IPv4 from 16.0.0.1 (pvpkit-gen's --flows), "l2"/"l3"/"l4" the
 * destination MAC, IPv4 or UDP port the vswitch's rules match
 * (flows.h). TRex's packet bytes exclude the FCS; pvpkit's sizes
 * include it.
 *
 * The UDP checksum is left 0 (none, valid over IPv4), so a field engine
 * write needs no L4 checksum fix on any TRex; writes into the IPv4
 * header are followed by fix_checksum_ipv4.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "trex_private.h"

/* Offsets in an untagged Ethernet/IPv4(20 B)/UDP frame. */
#define TREX_OFF_ETH_DST 0
#define TREX_OFF_IP	 14
#define TREX_OFF_IP_SRC	 26
#define TREX_OFF_IP_DST	 30
#define TREX_OFF_UDP	 34
#define TREX_OFF_UDP_DST 36
#define TREX_FCS	 4
/* pvpkit-gen's --flows: the source IPv4 of flow i is 16.0.0.1 + i. */
#define TREX_NORMAL_SRC 0x10000001u
#define TREX_DEF_DST_IP 0x30000001u /* 48.0.0.1, TRex's default */
#define TREX_DEF_SPORT	1025
#define TREX_DEF_DPORT	12

/* pvpkit-gen's "imix": "trex" (lib/pkt), so that a trial is the same
 * traffic whichever tester sends it: sizes with FCS and pps weights. */
static const struct {
	unsigned int size;
	unsigned int weight;
} trex_imix[TREX_MAX_PORT_STREAMS] = {
	{64, 28},
	{594, 16},
	{1518, 4},
};

double
trex_streams_avg_size(unsigned int size)
{
	unsigned int i, w = 0;
	double sum = 0;

	if (size != 0)
		return size;
	for (i = 0; i < TREX_MAX_PORT_STREAMS; i++) {
		sum += (double)trex_imix[i].size * trex_imix[i].weight;
		w += trex_imix[i].weight;
	}
	return sum / w;
}

static void
put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static void
put_mac(uint8_t *p, uint64_t m)
{
	int i;

	for (i = 0; i < 6; i++)
		p[i] = (uint8_t)(m >> (40 - 8 * i));
}

/* The frame of flow 0, @p len bytes without FCS, into @p pkt (zeroed). */
static void
trex_packet(uint8_t *pkt, unsigned int len, uint64_t dst_mac, uint64_t src_mac, uint32_t src_ip,
	    uint32_t dst_ip, unsigned int dport)
{
	uint32_t sum = 0;
	unsigned int i;

	put_mac(pkt + TREX_OFF_ETH_DST, dst_mac);
	put_mac(pkt + 6, src_mac);
	put16(pkt + 12, 0x0800);
	pkt[TREX_OFF_IP] = 0x45;
	put16(pkt + TREX_OFF_IP + 2, len - TREX_OFF_IP);
	pkt[TREX_OFF_IP + 8] = 64; /* TTL */
	pkt[TREX_OFF_IP + 9] = 17; /* UDP */
	put32(pkt + TREX_OFF_IP_SRC, src_ip);
	put32(pkt + TREX_OFF_IP_DST, dst_ip);
	for (i = 0; i < 20; i += 2)
		sum += ((uint32_t)pkt[TREX_OFF_IP + i] << 8) | pkt[TREX_OFF_IP + i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	put16(pkt + TREX_OFF_IP + 10, ~sum & 0xffff);
	put16(pkt + TREX_OFF_UDP, TREX_DEF_SPORT);
	put16(pkt + TREX_OFF_UDP_DST, dport);
	put16(pkt + TREX_OFF_UDP + 4, len - TREX_OFF_UDP);
	/* UDP checksum 0: none (see the top of the file). */
}

/* The field engine: one var of @p size bytes over [min, max] at @p off. */
static json_t *
trex_vm(unsigned int size, uint64_t min, uint64_t max, unsigned int off, bool ip_csum)
{
	json_t *ins;

	if (max == min)
		return json_pack("{s:[]}", "instructions");
	ins = json_pack("[{s:s,s:s,s:i,s:s,s:n,s:b,s:I,s:I,s:I,s:i},{s:s,s:s,s:i,s:i,s:b}]", "type",
			"flow_var", "name", "pvpkit_flow", "size", size, "op", "inc", "next_var",
			"split_to_cores", 1, "init_value", (json_int_t)min, "min_value",
			(json_int_t)min, "max_value", (json_int_t)max, "step", 1, "type",
			"write_flow_var", "name", "pvpkit_flow", "pkt_offset", off, "add_value", 0,
			"is_big_endian", 1);
	if (ins != NULL && ip_csum)
		json_array_append_new(ins, json_pack("{s:s,s:i}", "type", "fix_checksum_ipv4",
						     "pkt_offset", TREX_OFF_IP));
	return ins != NULL ? json_pack("{s:o}", "instructions", ins) : NULL;
}

static json_t *
trex_flow_stats(const struct trex_conf *c, uint32_t pgid)
{
	if (c->fs == TREX_FS_OFF)
		return json_pack("{s:b}", "enabled", 0);
	return json_pack("{s:b,s:I,s:b,s:b,s:s}", "enabled", 1, "stream_id", (json_int_t)pgid,
			 "vxlan", 0, "ieee_1588", 0, "rule_type",
			 c->fs == TREX_FS_LATENCY ? "latency" : "stats");
}

int
trex_streams_build(const struct trex_conf *c, unsigned int k, const char *type, unsigned int size,
		   unsigned int flows, struct trex_port_streams *ps, char *why, size_t why_len)
{
	uint64_t dst_mac = c->dst_mac, min = 0, max = 0;
	uint32_t src_ip = TREX_NORMAL_SRC, dst_ip = TREX_DEF_DST_IP;
	unsigned int dport = TREX_DEF_DPORT, vsize = 4, off = TREX_OFF_IP_SRC, i;
	const struct flows_base *b = &c->flow_base;
	enum coord_flow_type ft = COORD_FLOW_normal;
	bool ip_csum = true;

	memset(ps, 0, sizeof(*ps));
	if (type != NULL && type[0] != '\0' && coord_flow_type_parse(type, &ft) < 0) {
		snprintf(why, why_len, "unknown flow type \"%s\" (normal, l2, l3, l4)", type);
		return -EINVAL;
	}
	if (size != 0 && (size < 64 || size > 9216)) {
		snprintf(why, why_len, "frame size %u is not in 64..9216", size);
		return -EINVAL;
	}
	why[0] = '\0';
	if (flows_check(ft, flows, b, why, why_len) < 0)
		return -EINVAL;
	switch (ft) {
	case COORD_FLOW_l2:
		/* A 4-byte var over the low 32 bits of the MAC, as pvpkit-gen. */
		dst_mac = b->l2;
		min = b->l2 & 0xffffffffull;
		off = TREX_OFF_ETH_DST + 2;
		ip_csum = false;
		break;
	case COORD_FLOW_l3:
		dst_ip = b->l3;
		min = b->l3;
		off = TREX_OFF_IP_DST;
		break;
	case COORD_FLOW_l4:
		dport = b->l4;
		min = b->l4;
		vsize = 2;
		off = TREX_OFF_UDP_DST;
		ip_csum = false;
		break;
	default:
		/* pvpkit-gen's --flows: 16.0.0.1 + i, up to 223.255.255.255. */
		if ((uint64_t)TREX_NORMAL_SRC + flows - 1 > 0xdfffffffull) {
			snprintf(why, why_len, "%u flows overflow the source IPv4 range", flows);
			return -EINVAL;
		}
		min = TREX_NORMAL_SRC;
		break;
	}
	max = min + flows - 1;
	ps->nb = size != 0 ? 1 : TREX_MAX_PORT_STREAMS;
	for (i = 0; i < ps->nb; i++) {
		unsigned int fsize = size != 0 ? size : trex_imix[i].size;
		unsigned int weight = size != 0 ? 1 : trex_imix[i].weight;
		unsigned int len = fsize - TREX_FCS;
		uint8_t *pkt = calloc(1, len);
		char *b64;

		if (pkt == NULL)
			goto nomem;
		trex_packet(pkt, len, dst_mac, c->src_mac, src_ip, dst_ip, dport);
		b64 = pvp_b64_encode(pkt, len);
		free(pkt);
		if (b64 == NULL)
			goto nomem;
		ps->size[i] = fsize;
		ps->pgid[i] = c->pgid_base + k * TREX_MAX_PORT_STREAMS + i;
		/*
		 * flags 3: source and destination MAC from the packet, not
		 * the port's configuration, so l2 flows reach the wire as
		 * built. Base rate: the IMIX weight in pps; start_traffic's
		 * multiplier sets the port's total.
		 */
		ps->stream[i] = json_pack(
			"{s:i,s:i,s:b,s:b,s:b,s:f,s:i,s:{s:{s:s,s:i},s:s},s:{s:s,s:s},s:o*,s:o*,"
			"s:i}",
			"flags", 3, "action_count", 0, "enabled", 1, "self_start", 1,
			"start_paused", 0, "isg", 0.0, "core_id", -1, "mode", "rate", "type", "pps",
			"value", weight, "type", "continuous", "packet", "binary", b64, "meta", "",
			"vm", trex_vm(vsize, min, max, off, ip_csum), "flow_stats",
			trex_flow_stats(c, ps->pgid[i]), "next_stream_id", -1);
		free(b64);
		if (ps->stream[i] == NULL || json_object_get(ps->stream[i], "vm") == NULL ||
		    json_object_get(ps->stream[i], "flow_stats") == NULL)
			goto nomem;
	}
	return 0;
nomem:
	trex_streams_free(ps);
	snprintf(why, why_len, "out of memory");
	return -ENOMEM;
}

void
trex_streams_free(struct trex_port_streams *ps)
{
	unsigned int i;

	for (i = 0; i < TREX_MAX_PORT_STREAMS; i++) {
		json_decref(ps->stream[i]);
		ps->stream[i] = NULL;
	}
	ps->nb = 0;
}
