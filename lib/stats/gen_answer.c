/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit-gen's stats.get answer, described once (pvp_gen_answer.h).
 */

#include <stddef.h>
#include <stdint.h>

#include "pvp_gen_answer.h"

/* Largest count or time in an answer: what a JSON integer holds. */
#define GEN_ANS_MAX INT64_MAX

static const char *const gen_tx_full_words[] = {"retry", "drop", NULL};

/* A member of struct pvp_gen_@p st: a count or a time (or a rate, a flag). */
#define GEN_ANS(st, f, t, what) PVP_SCHEMA_MEMBER(struct pvp_gen_##st, f, t, 0, GEN_ANS_MAX, what)
/* The same, null when not known yet (the has_@p has flag). */
#define GEN_ANS_NULL(f, has, what)                                                                 \
	GEN_ANS(start, f, PVP_SCHEMA_DOUBLE, what), .nullable = true,                              \
						    PVP_SCHEMA_PRESENT(struct pvp_gen_start, has)

static const struct pvp_schema_member gen_start_members[] = {
	{GEN_ANS_NULL(start_at, has_start_at,
		      "the time traffic.start asked for (CLOCK_REALTIME s), null: none")},
	{GEN_ANS_NULL(start_s, has_start_s, "when the run was due here, null before a run")},
	{GEN_ANS_NULL(first_tx_s, has_first_tx,
		      "the first packet any TX lcore sent, null before it")},
	{.name = NULL},
};

const struct pvp_schema_member pvp_gen_traffic_members[] = {
	{GEN_ANS(traffic, running, PVP_SCHEMA_BOOL, "streams are being sent")},
	{GEN_ANS(traffic, tx_full, PVP_SCHEMA_ENUM,
		 "a full TX ring's packet is sent again, or dropped (the next hop's loss)"),
	 .values = gen_tx_full_words, .def = "\"retry\""},
	{PVP_SCHEMA_MEMBER(struct pvp_gen_traffic, rate, PVP_SCHEMA_STRING, 0, 63,
			   "the rate as asked")},
	{GEN_ANS(traffic, requested_pps, PVP_SCHEMA_DOUBLE,
		 "packets per second asked, 0: as fast as it can")},
	{GEN_ANS(traffic, achieved_pps, PVP_SCHEMA_DOUBLE,
		 "packets sent over the time from the start to the last one")},
	{GEN_ANS(traffic, tx_packets, PVP_SCHEMA_UINT, "packets the ports took")},
	{GEN_ANS(traffic, tx_asked, PVP_SCHEMA_UINT,
		 "packets the streams' exact counts ask for, 0: no count")},
	{GEN_ANS(traffic, tx_unsent, PVP_SCHEMA_UINT, "packets a full ring refused")},
	{GEN_ANS(traffic, tx_late, PVP_SCHEMA_UINT, "bursts sent behind their schedule")},
	{GEN_ANS(traffic, max_burst, PVP_SCHEMA_UINT,
		 "the largest burst sent ahead of the schedule, in packets"),
	 PVP_SCHEMA_PRESENT(struct pvp_gen_traffic, has_max_burst)},
	{GEN_ANS(traffic, elapsed_s, PVP_SCHEMA_DOUBLE,
		 "seconds from the start to the last packet")},
	{GEN_ANS(traffic, generator_limited, PVP_SCHEMA_BOOL,
		 "the generator could not send what was asked")},
	{GEN_ANS(traffic, start, PVP_SCHEMA_OBJECT, "when the run began"),
	 .members = gen_start_members},
	{.name = NULL},
};

/* A member of struct pvp_gen_neigh: a string of up to @p hi bytes, or a count. */
#define GEN_NEIGH(f, t, hi, what) PVP_SCHEMA_MEMBER(struct pvp_gen_neigh, f, t, 0, hi, what)
const struct pvp_schema_member pvp_gen_neigh_members[] = {
	{GEN_NEIGH(port, PVP_SCHEMA_UINT, UINT16_MAX, "port index"), .required = true},
	{GEN_NEIGH(ip, PVP_SCHEMA_STRING, 15, "its IPv4 address")},
	{GEN_NEIGH(ip6, PVP_SCHEMA_STRING, 45, "its IPv6 address")},
	{GEN_NEIGH(vlan, PVP_SCHEMA_UINT, 4095, "its 802.1Q VLAN, 0 untagged")},
	{GEN_NEIGH(gateway, PVP_SCHEMA_STRING, 45, "its gateway")},
	{GEN_NEIGH(gateway_mac, PVP_SCHEMA_STRING, 17, "the gateway's MAC, once resolved")},
	{GEN_NEIGH(arp_rx, PVP_SCHEMA_UINT, GEN_ANS_MAX, "ARP frames received")},
	{GEN_NEIGH(nd_rx, PVP_SCHEMA_UINT, GEN_ANS_MAX, "neighbour discovery frames received")},
	{GEN_NEIGH(echo, PVP_SCHEMA_UINT, GEN_ANS_MAX, "echo requests to the port received")},
	{GEN_NEIGH(tx, PVP_SCHEMA_UINT, GEN_ANS_MAX, "ARP/ND frames and echo replies sent")},
	{GEN_NEIGH(silenced, PVP_SCHEMA_UINT, GEN_ANS_MAX, "requests unanswered while stopped")},
	{GEN_NEIGH(responder, PVP_SCHEMA_BOOL, 0, "it answers ARP/ND (neigh.set)"), .def = "true"},
	{.name = NULL},
};
