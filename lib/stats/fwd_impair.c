/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The schemas of pvp_fwd_impair.h: pvpkit-fwd decodes --impair and
 * impair.set with the first and encodes stats.get's "impair" items with
 * the second; the fwd hop driver decodes those items with it again.
 */

#include <stddef.h>
#include <stdint.h>

#include "pvp_fwd_impair.h"

#define IMPAIR_PROB(field, what)                                                                   \
	{                                                                                          \
		.name = #field, .type = PVP_SCHEMA_DOUBLE, .min = 0, .max = 1, .def = "0",         \
		PVP_SCHEMA_AT(struct pvp_impair_conf, field), .help = what                         \
	}

const struct pvp_schema_member pvp_impair_conf_members[] = {
	{.name = "port",
	 .type = PVP_SCHEMA_INT,
	 .min = -1,
	 .max = 31,
	 .def = "-1",
	 PVP_SCHEMA_AT(struct pvp_impair_conf, port),
	 .help = "RX port index the settings apply to, -1: every port"},
	{.name = "delay_us",
	 .type = PVP_SCHEMA_UINT,
	 .min = 0,
	 .max = PVP_IMPAIR_MAX_DELAY_US,
	 .def = "0",
	 PVP_SCHEMA_AT(struct pvp_impair_conf, delay_us),
	 .help = "fixed delay added to every packet, microseconds"},
	IMPAIR_PROB(loss, "loss probability (Gilbert-Elliott: in the good state)"),
	IMPAIR_PROB(ge_p, "Gilbert-Elliott: good to bad per packet, 0: Bernoulli loss"),
	IMPAIR_PROB(ge_r, "Gilbert-Elliott: bad to good per packet"),
	{.name = "ge_loss",
	 .type = PVP_SCHEMA_DOUBLE,
	 .min = 0,
	 .max = 1,
	 .def = "1",
	 PVP_SCHEMA_AT(struct pvp_impair_conf, ge_loss),
	 .help = "Gilbert-Elliott: loss probability in the bad state"},
	IMPAIR_PROB(dup, "probability a packet is sent twice"),
	IMPAIR_PROB(reorder, "probability a packet is sent after the next one"),
	{.name = "rate_pps",
	 .type = PVP_SCHEMA_UINT,
	 .min = 0,
	 .max = 1000000000,
	 .def = "0",
	 PVP_SCHEMA_AT(struct pvp_impair_conf, rate_pps),
	 .help = "rate cap, packets per second (token bucket), 0: none"},
	{.name = "burst",
	 .type = PVP_SCHEMA_UINT,
	 .min = 1,
	 .max = 1000000,
	 .def = "32",
	 PVP_SCHEMA_AT(struct pvp_impair_conf, burst),
	 .help = "token bucket depth, packets"},
	{.name = "seed",
	 .type = PVP_SCHEMA_UINT,
	 .min = 0,
	 .max = INT64_MAX,
	 .def = "1",
	 PVP_SCHEMA_AT(struct pvp_impair_conf, seed),
	 .help = "seed of the direction's random numbers"},
	{.name = NULL},
};

#define IMPAIR_COUNT(field, what)                                                                  \
	{                                                                                          \
		.name = #field, .type = PVP_SCHEMA_UINT, .required = true, .min = 0,               \
		.max = INT64_MAX, PVP_SCHEMA_AT(struct pvp_impair_counters, field), .help = what   \
	}

const struct pvp_schema_member pvp_impair_counter_members[] = {
	{.name = "port",
	 .type = PVP_SCHEMA_UINT,
	 .required = true,
	 .min = 0,
	 .max = 31,
	 PVP_SCHEMA_AT(struct pvp_impair_counters, port),
	 .help = "RX port index (the direction)"},
	IMPAIR_COUNT(loss_dropped, "dropped by the loss model"),
	IMPAIR_COUNT(rate_dropped, "dropped by the rate cap"),
	IMPAIR_COUNT(overflow_dropped, "dropped: the delay ring was full"),
	IMPAIR_COUNT(duplicated, "extra copies sent"),
	IMPAIR_COUNT(reordered, "packets sent after the packet that followed them"),
	IMPAIR_COUNT(delayed, "packets that went through the delay ring"),
	IMPAIR_COUNT(held, "packets held now (delay ring, reorder slot)"),
	{.name = NULL},
};
