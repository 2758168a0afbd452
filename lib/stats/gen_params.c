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

/* Member @p f of struct pvp_gen_@p m, given or not as its has_@p f says. */
#define GEN_OPT(m, f, ...)                                                                         \
	PVP_SCHEMA_MEMBER(struct pvp_gen_##m, f, __VA_ARGS__),                                     \
		PVP_SCHEMA_PRESENT(struct pvp_gen_##m, has_##f)

const struct pvp_schema_member pvp_gen_profile_load_members[] = {
	{GEN_OPT(profile_load, path, PVP_SCHEMA_STRING, 1, 4095,
		 "profile file (doc/profiles.rst), read under the files policy")},
	{GEN_OPT(profile_load, profile, PVP_SCHEMA_JSON, 0, 0, "the profile itself, inline")},
	{GEN_OPT(profile_load, size, PVP_SCHEMA_UINT, 0, PVP_GEN_MAX_SIZE,
		 "frame size with FCS, 64.., 0: IMIX; one UDP stream per port"),
	 .def = "64"},
	{GEN_OPT(profile_load, flows, PVP_SCHEMA_UINT, 1, 1 << 24,
		 "flows (source addresses) of those streams"),
	 .def = "1"},
	{.name = NULL},
};

/* The rate of traffic.start and traffic.update: its grammar is checked by hand. */
#define GEN_RATE                                                                                   \
	PVP_SCHEMA_MEMBER(struct pvp_gen_traffic_start, rate, PVP_SCHEMA_JSON, 0, 0,               \
			  "pps (a number), or as --rate (\"1Mpps\", \"10%\"); none: \"max\"")

const struct pvp_schema_member pvp_gen_traffic_start_members[] = {
	{GEN_RATE},
	{PVP_SCHEMA_MEMBER(struct pvp_gen_traffic_start, duration, PVP_SCHEMA_DOUBLE, 0,
			   PVP_GEN_MAX_DURATION_S,
			   "seconds, at least 0.001; 0: until traffic.stop"),
	 .def = "0"},
	{GEN_OPT(traffic_start, start_at, PVP_SCHEMA_DOUBLE, 0, GEN_TIME_MAX,
		 "CLOCK_REALTIME second to start at, -10..+60 s from this host's clock")},
	{.name = NULL},
};

const struct pvp_schema_member pvp_gen_traffic_update_members[] = {
	{GEN_RATE, .required = true},
	{.name = NULL},
};

static const char *const gen_dir_words[] = {"rx", "tx", NULL};

#define GEN_CAP(f, ...) PVP_SCHEMA_MEMBER(struct pvp_gen_capture_start, f, __VA_ARGS__)

const struct pvp_schema_member pvp_gen_capture_start_members[] = {
	{GEN_CAP(file, PVP_SCHEMA_STRING, 1, 255,
		 "new pcap file in --ctl-files-dir: a plain name, no '/', no leading '.'"),
	 .required = true},
	{GEN_CAP(filter, PVP_SCHEMA_STRING, 0, 1023,
		 "pcap-filter(7) expression, none: every frame")},
	{GEN_CAP(count, PVP_SCHEMA_UINT, 1, PVP_GEN_CAP_MAX_COUNT,
		 "frames to keep, none: no limit")},
	{GEN_CAP(bytes, PVP_SCHEMA_UINT, 1, PVP_GEN_CAP_MAX_BYTES, "frame bytes to keep"),
	 .def = GEN_STR(PVP_GEN_CAP_DEF_BYTES)},
	{GEN_CAP(port, PVP_SCHEMA_INT, -1, PVP_GEN_MAX_PORTS - 1,
		 "port index (below the generator's port count), -1: every port"),
	 .def = "-1"},
	{GEN_CAP(dir, PVP_SCHEMA_STRING, 0, 7, "frames received or sent, none: both"),
	 .values = gen_dir_words},
	{.name = NULL},
};

const struct pvp_schema_member pvp_gen_capture_stop_members[] = {
	{.name = "id",
	 .type = PVP_SCHEMA_UINT,
	 .required = true,
	 .min = 1,
	 .max = UINT32_MAX,
	 .size = sizeof(uint32_t),
	 .help = "the capture, as capture.start answered"},
	{.name = NULL},
};

const struct pvp_schema_member pvp_gen_neigh_set_members[] = {
	{PVP_SCHEMA_MEMBER(struct pvp_gen_neigh_set, port, PVP_SCHEMA_UINT, 0,
			   PVP_GEN_MAX_PORTS - 1, "an --addr port"),
	 .required = true},
	{PVP_SCHEMA_MEMBER(struct pvp_gen_neigh_set, responder, PVP_SCHEMA_BOOL, 0, 0,
			   "answer ARP/ND and announce on it, or stop"),
	 .required = true},
	{.name = NULL},
};

const struct pvp_schema_member pvp_gen_oneway_set_members[] = {
	{GEN_OPT(oneway_set, peer, PVP_SCHEMA_JSON, 0, 0,
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
