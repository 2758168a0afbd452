/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * How a stream is sent: its "rate", its "mode" (continuous, a burst or
 * several) and, for a pcap file, "replay" (as captured) and "loop".
 */

#include <errno.h>
#include <string.h>

#include "profile_private.h"

/*
 * A rate given as a bare number, in pps: what a link can carry, not a
 * typing mistake (1e-300 pps ended a run early as if nothing were wrong).
 * The bounds of lib/util's rate parser (PVP_RATE_MIN_PPS, _MAX_PPS).
 */
#define PROF_RATE_MIN_PPS 1.0
#define PROF_RATE_MAX_PPS 1e11

int
prof_parse_rate(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s)
{
	json_t *v = json_object_get(o, "rate");
	char sub[256], rerr[200];

	if (v == NULL)
		return 0;
	prof_fmt(sub, sizeof(sub), "%s.rate", path);
	if (json_is_number(v)) {
		s->rate.unit = PVP_RATE_PPS;
		s->rate.value = json_number_value(v);
		if (!(s->rate.value >= PROF_RATE_MIN_PPS && s->rate.value <= PROF_RATE_MAX_PPS))
			return prof_fail(c, -ERANGE, sub, "%g pps is out of range %g..%g",
					 s->rate.value, PROF_RATE_MIN_PPS, PROF_RATE_MAX_PPS);
	} else if (!json_is_string(v)) {
		return prof_fail(
			c, -EINVAL, sub,
			"must be a number (pps) or a string like \"1Mpps\", \"10Gbps\", \"50%%\", "
			"\"max\"");
	} else if (pvp_rate_parse(json_string_value(v), &s->rate, rerr, sizeof(rerr)) != 0) {
		return prof_fail(c, -EINVAL, sub, "%s", rerr);
	}
	s->has_rate = true;
	return 0;
}

/* Any failure is -EINVAL to the caller, -ERANGE ones included. */
int
prof_parse_mode(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s)
{
	static const char *const mkeys[] = {"count", "packets", "gap_us", NULL};
	json_t *v = json_object_get(o, "mode"), *b;
	char msub[256], sub[280];
	uint64_t x;

	if (v == NULL)
		return 0;
	prof_fmt(msub, sizeof(msub), "%s.mode", path);
	if (json_is_string(v) && strcmp(json_string_value(v), "continuous") == 0) {
		s->mode = PVP_MODE_CONTINUOUS;
		return 0;
	}
	if (json_is_object(v) && json_object_size(v) == 1 &&
	    (b = json_object_get(v, "burst")) != NULL) {
		prof_fmt(sub, sizeof(sub), "%s.burst", msub);
		s->mode = PVP_MODE_BURST;
		return prof_get_uint(c, b, sub, 1, PVP_PKT_MAX_FLOWS, &s->burst_packets) != 0
			       ? -EINVAL
			       : 0;
	}
	if (json_is_object(v) && json_object_size(v) == 1 &&
	    (b = json_object_get(v, "multi_burst")) != NULL) {
		prof_fmt(sub, sizeof(sub), "%s.multi_burst", msub);
		if (prof_check_keys(c, b, sub, mkeys) != 0)
			return -EINVAL;
		s->mode = PVP_MODE_MULTI_BURST;
		if (prof_get_u64(c, b, "count", sub, true, 1, UINT32_MAX, &x) != 0)
			return -EINVAL;
		s->burst_count = x;
		if (prof_get_u64(c, b, "packets", sub, true, 1, PVP_PKT_MAX_FLOWS,
				 &s->burst_packets) != 0)
			return -EINVAL;
		if (__builtin_mul_overflow((uint64_t)s->burst_count, s->burst_packets, &x) ||
		    x > PVP_PKT_MAX_FLOWS)
			return prof_fail(c, -EINVAL, sub,
					 "count x packets is more than 2^48 packets");
		s->burst_gap_us = 0;
		return prof_get_u64(c, b, "gap_us", sub, false, 0, PVP_PKT_MAX_GAP_US,
				    &s->burst_gap_us) != 0
			       ? -EINVAL
			       : 0;
	}
	return prof_fail(c, -EINVAL, msub,
			 "must be \"continuous\", {\"burst\": N} or {\"multi_burst\": {\"count\", "
			 "\"packets\", \"gap_us\"}}");
}

int
prof_parse_replay(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s)
{
	bool pcap = json_object_get(o, "pcap") != NULL;
	char sub[256];
	json_t *v;

	if ((v = json_object_get(o, "replay")) != NULL) {
		prof_fmt(sub, sizeof(sub), "%s.replay", path);
		if (!json_is_boolean(v) || !pcap)
			return prof_fail(c, -EINVAL, sub,
					 !pcap ? "needs \"pcap\"" : "must be true or false");
		s->replay = json_is_true(v);
	}
	if ((v = json_object_get(o, "loop")) != NULL) {
		prof_fmt(sub, sizeof(sub), "%s.loop", path);
		if (!s->replay)
			return prof_fail(c, -EINVAL, sub, "needs \"replay\": true");
		if (prof_get_uint(c, v, sub, 0, PVP_PKT_MAX_FLOWS, &s->loop) != 0)
			return -EINVAL;
	}
	return 0;
}
