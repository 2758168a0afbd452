/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The parameters of pvpkit-gen's methods, described once
 * (pvp_gen_answer.h): pvpkit-gen decodes them, the gen driver encodes its
 * requests and pvpkit-hop-doc writes doc/control-params.rst from these
 * tables.
 */

#include <stddef.h>
#include <stdint.h>

#include "pvp_gen_answer.h"

/* Latest start_at, CLOCK_REALTIME s: far beyond any clock, short to print. */
#define GEN_TIME_MAX 1000000000000

#define GEN_STR(x)  GEN_STR_(x)
#define GEN_STR_(x) #x

/* Member @p field of struct @p st, given or not as its has_@p field says. */
#define GEN_PARAM(st, field, t, lo, hi, what)                                                      \
	.name = #field, .type = t, .min = lo, .max = hi, PVP_SCHEMA_AT(st, field),                 \
	PVP_SCHEMA_PRESENT(st, has_##field), .help = what

const struct pvp_schema_member pvp_gen_profile_load_members[] = {
	{GEN_PARAM(struct pvp_gen_profile_load, path, PVP_SCHEMA_STRING, 1, 4095,
		   "profile file (doc/profiles.rst), read under the files policy")},
	{GEN_PARAM(struct pvp_gen_profile_load, profile, PVP_SCHEMA_JSON, 0, 0,
		   "the profile itself, inline")},
	{GEN_PARAM(struct pvp_gen_profile_load, size, PVP_SCHEMA_UINT, 0, PVP_GEN_MAX_SIZE,
		   "frame size with FCS, 64.., 0: IMIX; one UDP stream per port"),
	 .def = "64"},
	{GEN_PARAM(struct pvp_gen_profile_load, flows, PVP_SCHEMA_UINT, 1, 1 << 24,
		   "flows (source addresses) of those streams"),
	 .def = "1"},
	{.name = NULL},
};

/* The rate of traffic.start and traffic.update: its grammar is checked by hand. */
#define GEN_RATE(required_)                                                                        \
	{                                                                                          \
		.name = "rate", .type = PVP_SCHEMA_JSON, .required = required_,                    \
		PVP_SCHEMA_AT(struct pvp_gen_traffic_start, rate),                                 \
		.help = "pps (a number), or as --rate (\"1Mpps\", \"10%\"); none: \"max\""         \
	}

const struct pvp_schema_member pvp_gen_traffic_start_members[] = {
	GEN_RATE(false),
	{.name = "duration",
	 .type = PVP_SCHEMA_DOUBLE,
	 .max = PVP_GEN_MAX_DURATION_S,
	 .def = "0",
	 PVP_SCHEMA_AT(struct pvp_gen_traffic_start, duration),
	 .help = "seconds, at least 0.001; 0: until traffic.stop"},
	{GEN_PARAM(struct pvp_gen_traffic_start, start_at, PVP_SCHEMA_DOUBLE, 0, GEN_TIME_MAX,
		   "CLOCK_REALTIME second to start at, -10..+60 s from this host's clock")},
	{.name = NULL},
};

const struct pvp_schema_member pvp_gen_traffic_update_members[] = {
	GEN_RATE(true),
	{.name = NULL},
};

static const char *const gen_dir_words[] = {"rx", "tx", NULL};

const struct pvp_schema_member pvp_gen_capture_start_members[] = {
	{.name = "file",
	 .type = PVP_SCHEMA_STRING,
	 .required = true,
	 .min = 1,
	 .max = 255,
	 PVP_SCHEMA_AT(struct pvp_gen_capture_start, file),
	 .help = "new pcap file in --ctl-files-dir: a plain name, no '/', no leading '.'"},
	{.name = "filter",
	 .type = PVP_SCHEMA_STRING,
	 .max = 1023,
	 PVP_SCHEMA_AT(struct pvp_gen_capture_start, filter),
	 .help = "pcap-filter(7) expression, none: every frame"},
	{.name = "count",
	 .type = PVP_SCHEMA_UINT,
	 .min = 1,
	 .max = PVP_GEN_CAP_MAX_COUNT,
	 PVP_SCHEMA_AT(struct pvp_gen_capture_start, count),
	 .help = "frames to keep, none: no limit"},
	{.name = "bytes",
	 .type = PVP_SCHEMA_UINT,
	 .min = 1,
	 .max = PVP_GEN_CAP_MAX_BYTES,
	 .def = GEN_STR(PVP_GEN_CAP_DEF_BYTES),
	 PVP_SCHEMA_AT(struct pvp_gen_capture_start, bytes),
	 .help = "frame bytes to keep"},
	{.name = "port",
	 .type = PVP_SCHEMA_INT,
	 .min = -1,
	 .max = PVP_GEN_MAX_PORTS - 1,
	 .def = "-1",
	 PVP_SCHEMA_AT(struct pvp_gen_capture_start, port),
	 .help = "port index (below the generator's port count), -1: every port"},
	{.name = "dir",
	 .type = PVP_SCHEMA_STRING,
	 .max = 7,
	 .values = gen_dir_words,
	 PVP_SCHEMA_AT(struct pvp_gen_capture_start, dir),
	 .help = "frames received or sent, none: both"},
	{.name = NULL},
};

const struct pvp_schema_member pvp_gen_capture_stop_members[] = {
	{.name = "id",
	 .type = PVP_SCHEMA_UINT,
	 .required = true,
	 .min = 1,
	 .max = UINT32_MAX,
	 .offset = 0,
	 .size = sizeof(uint32_t),
	 .help = "the capture, as capture.start answered"},
	{.name = NULL},
};

const struct pvp_schema_member pvp_gen_neigh_set_members[] = {
	{.name = "port",
	 .type = PVP_SCHEMA_UINT,
	 .required = true,
	 .max = PVP_GEN_MAX_PORTS - 1,
	 PVP_SCHEMA_AT(struct pvp_gen_neigh_set, port),
	 .help = "an --addr port"},
	{.name = "responder",
	 .type = PVP_SCHEMA_BOOL,
	 .required = true,
	 PVP_SCHEMA_AT(struct pvp_gen_neigh_set, responder),
	 .help = "answer ARP/ND and announce on it, or stop"},
	{.name = NULL},
};

const struct pvp_schema_member pvp_gen_oneway_set_members[] = {
	{GEN_PARAM(struct pvp_gen_oneway_set, peer, PVP_SCHEMA_JSON, 0, 0,
		   "the guest's clock.get answer, null: one-way latency off"),
	 .required = true, .nullable = true},
	{.name = NULL},
};

const struct pvp_gen_method_params pvp_gen_method_params[] = {
	{PVP_GEN_M_PROFILE_LOAD, pvp_gen_profile_load_members},
	{PVP_GEN_M_TRAFFIC_START, pvp_gen_traffic_start_members},
	{PVP_GEN_M_TRAFFIC_UPDATE, pvp_gen_traffic_update_members},
	{PVP_GEN_M_CAPTURE_START, pvp_gen_capture_start_members},
	{PVP_GEN_M_CAPTURE_STOP, pvp_gen_capture_stop_members},
	{PVP_GEN_M_NEIGH_SET, pvp_gen_neigh_set_members},
	{PVP_GEN_M_ONEWAY_SET, pvp_gen_oneway_set_members},
	{NULL, NULL},
};
