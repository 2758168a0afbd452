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

/* A member of struct pvp_impair_conf: optional, with its range and default. */
#define IMPAIR(field, t, lo, hi, d, what)                                                          \
	{                                                                                          \
		.name = #field, .type = PVP_SCHEMA_##t, .min = lo, .max = hi, .def = d,            \
		PVP_SCHEMA_AT(struct pvp_impair_conf, field), .help = what                         \
	}
#define IMPAIR_PROB(field, what) IMPAIR(field, DOUBLE, 0, 1, "0", what)

const struct pvp_schema_member pvp_impair_conf_members[] = {
	IMPAIR(port, INT, -1, 31, "-1", "RX port index the settings apply to, -1: every port"),
	IMPAIR(delay_us, UINT, 0, PVP_IMPAIR_MAX_DELAY_US, "0",
	       "fixed delay added to every packet, microseconds"),
	IMPAIR_PROB(loss, "loss probability (Gilbert-Elliott: in the good state)"),
	IMPAIR_PROB(ge_p, "Gilbert-Elliott: good to bad per packet, 0: Bernoulli loss"),
	IMPAIR_PROB(ge_r, "Gilbert-Elliott: bad to good per packet"),
	IMPAIR(ge_loss, DOUBLE, 0, 1, "1", "Gilbert-Elliott: loss probability in the bad state"),
	IMPAIR_PROB(dup, "probability a packet is sent twice"),
	IMPAIR_PROB(reorder, "probability a packet is sent after the next one"),
	IMPAIR(rate_pps, UINT, 0, 1000000000, "0",
	       "rate cap, packets per second (token bucket), 0: none"),
	IMPAIR(burst, UINT, 1, 1000000, "32", "token bucket depth, packets"),
	IMPAIR(seed, UINT, 0, INT64_MAX, "1", "seed of the direction's random numbers"),
	{.name = NULL},
};

/* A member of struct pvp_impair_counters: required, from 0 to @p hi. */
#define IMPAIR_COUNTER(field, hi, what)                                                            \
	{                                                                                          \
		.name = #field, .type = PVP_SCHEMA_UINT, .required = true, .min = 0, .max = hi,    \
		PVP_SCHEMA_AT(struct pvp_impair_counters, field), .help = what                     \
	}
#define IMPAIR_COUNT(field, what) IMPAIR_COUNTER(field, INT64_MAX, what)

const struct pvp_schema_member pvp_impair_counter_members[] = {
	IMPAIR_COUNTER(port, 31, "RX port index (the direction)"),
	IMPAIR_COUNT(loss_dropped, "dropped by the loss model"),
	IMPAIR_COUNT(rate_dropped, "dropped by the rate cap"),
	IMPAIR_COUNT(overflow_dropped, "dropped: the delay ring was full"),
	IMPAIR_COUNT(duplicated, "extra copies sent"),
	IMPAIR_COUNT(reordered, "packets sent after the packet that followed them"),
	IMPAIR_COUNT(delayed, "packets that went through the delay ring"),
	IMPAIR_COUNT(held, "packets held now (delay ring, reorder slot)"),
	{.name = NULL},
};
