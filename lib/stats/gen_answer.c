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

static const struct pvp_schema_member gen_start_members[] = {
	{.name = "start_at",
	 .type = PVP_SCHEMA_DOUBLE,
	 .max = GEN_ANS_MAX,
	 .nullable = true,
	 PVP_SCHEMA_AT(struct pvp_gen_start, start_at),
	 PVP_SCHEMA_PRESENT(struct pvp_gen_start, has_start_at),
	 .help = "the time traffic.start asked for (CLOCK_REALTIME s), null: none"},
	{.name = "start_s",
	 .type = PVP_SCHEMA_DOUBLE,
	 .max = GEN_ANS_MAX,
	 .nullable = true,
	 PVP_SCHEMA_AT(struct pvp_gen_start, start_s),
	 PVP_SCHEMA_PRESENT(struct pvp_gen_start, has_start_s),
	 .help = "when the run was due here, null before a run"},
	{.name = "first_tx_s",
	 .type = PVP_SCHEMA_DOUBLE,
	 .max = GEN_ANS_MAX,
	 .nullable = true,
	 PVP_SCHEMA_AT(struct pvp_gen_start, first_tx_s),
	 PVP_SCHEMA_PRESENT(struct pvp_gen_start, has_first_tx),
	 .help = "the first packet any TX lcore sent, null before it"},
	{.name = NULL},
};

const struct pvp_schema_member pvp_gen_traffic_members[] = {
	{.name = "running",
	 .type = PVP_SCHEMA_BOOL,
	 PVP_SCHEMA_AT(struct pvp_gen_traffic, running),
	 .help = "streams are being sent"},
	{.name = "tx_full",
	 .type = PVP_SCHEMA_ENUM,
	 .values = gen_tx_full_words,
	 PVP_SCHEMA_AT(struct pvp_gen_traffic, tx_full),
	 .def = "\"retry\"",
	 .help = "a full TX ring's packet is sent again, or dropped (the next hop's loss)"},
	{.name = "rate",
	 .type = PVP_SCHEMA_STRING,
	 .max = 63,
	 PVP_SCHEMA_AT(struct pvp_gen_traffic, rate),
	 .help = "the rate as asked"},
	{.name = "requested_pps",
	 .type = PVP_SCHEMA_DOUBLE,
	 .max = GEN_ANS_MAX,
	 PVP_SCHEMA_AT(struct pvp_gen_traffic, requested_pps),
	 .help = "packets per second asked, 0: as fast as it can"},
	{.name = "achieved_pps",
	 .type = PVP_SCHEMA_DOUBLE,
	 .max = GEN_ANS_MAX,
	 PVP_SCHEMA_AT(struct pvp_gen_traffic, achieved_pps),
	 .help = "packets sent over the time from the start to the last one"},
	{.name = "tx_packets",
	 .type = PVP_SCHEMA_UINT,
	 .max = GEN_ANS_MAX,
	 PVP_SCHEMA_AT(struct pvp_gen_traffic, tx_packets),
	 .help = "packets the ports took"},
	{.name = "tx_asked",
	 .type = PVP_SCHEMA_UINT,
	 .max = GEN_ANS_MAX,
	 PVP_SCHEMA_AT(struct pvp_gen_traffic, tx_asked),
	 .help = "packets the streams' exact counts ask for, 0: no count"},
	{.name = "tx_unsent",
	 .type = PVP_SCHEMA_UINT,
	 .max = GEN_ANS_MAX,
	 PVP_SCHEMA_AT(struct pvp_gen_traffic, tx_unsent),
	 .help = "packets a full ring refused"},
	{.name = "tx_late",
	 .type = PVP_SCHEMA_UINT,
	 .max = GEN_ANS_MAX,
	 PVP_SCHEMA_AT(struct pvp_gen_traffic, tx_late),
	 .help = "bursts sent behind their schedule"},
	{.name = "max_burst",
	 .type = PVP_SCHEMA_UINT,
	 .max = GEN_ANS_MAX,
	 PVP_SCHEMA_AT(struct pvp_gen_traffic, max_burst),
	 PVP_SCHEMA_PRESENT(struct pvp_gen_traffic, has_max_burst),
	 .help = "the largest burst sent ahead of the schedule, in packets"},
	{.name = "elapsed_s",
	 .type = PVP_SCHEMA_DOUBLE,
	 .max = GEN_ANS_MAX,
	 PVP_SCHEMA_AT(struct pvp_gen_traffic, elapsed_s),
	 .help = "seconds from the start to the last packet"},
	{.name = "generator_limited",
	 .type = PVP_SCHEMA_BOOL,
	 PVP_SCHEMA_AT(struct pvp_gen_traffic, generator_limited),
	 .help = "the generator could not send what was asked"},
	{.name = "start",
	 .type = PVP_SCHEMA_OBJECT,
	 .members = gen_start_members,
	 PVP_SCHEMA_AT(struct pvp_gen_traffic, start),
	 .help = "when the run began"},
	{.name = NULL},
};
