/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The profile parser's parts (doc/profiles.rst), shared by its files and
 * never installed:
 *   profile.c         entry points, one stream, the summary line
 *   profile_json.c    errors with positions, typed getters
 *   profile_hdr.c     "headers"
 *   profile_var.c     "vars", "tuple", "flows"
 *   profile_mode.c    "rate", "mode", "replay", "loop"
 *   profile_frames.c  "size", "imix", "pcap"
 * Every part reports the first error through prof_fail() and returns
 * -errno; the caller only stops.
 */

#ifndef PROFILE_PRIVATE_H
#define PROFILE_PRIVATE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include <jansson.h>

#include "pkt_private.h"

/* One parse. */
struct prof_ctx {
	const char *source; /* name in messages */
	const char *text;   /* the JSON text, NULL when unknown */
	char dir[PATH_MAX]; /* folder for relative pcap paths */
	char *err;	    /* the message, first error kept; may be NULL */
	size_t err_len;	    /* size of err, > 0 when err is set */
};

/* ---- profile_json.c ---- */

/* snprintf for messages and member paths, which may be cut short on
 * purpose; going through vsnprintf keeps -Wformat-truncation quiet. */
int prof_fmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Record the first error: "source:line:col: path: message" (the position
 * of the value at member path @path, when the text is known). Returns
 * @code, so that a part fails in one statement. */
int prof_fail(struct prof_ctx *c, int code, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* @o must be an object whose members are all in the NULL-terminated
 * @allowed. Returns 0 or -EINVAL. */
int prof_check_keys(struct prof_ctx *c, const json_t *o, const char *path,
		    const char *const *allowed);

/* An integer in [@min, @max]. Returns 0, -EINVAL or -ERANGE. */
int prof_get_uint(struct prof_ctx *c, const json_t *v, const char *path, uint64_t min, uint64_t max,
		  uint64_t *out);

/* Member @key of @o as prof_get_uint() reads it; when it is absent, 0
 * and @out untouched, or unless @need an error. */
int prof_get_u64(struct prof_ctx *c, const json_t *o, const char *key, const char *path, bool need,
		 uint64_t min, uint64_t max, uint64_t *out);

/* Member @key of @o, when present, as a number in [@min, @max], or as
 * an IPv@ver address string (@ver 0: a MAC address string). @out is
 * untouched when the member is absent. Return 0 or -EINVAL. */
int prof_get_u16(struct prof_ctx *c, const json_t *o, const char *key, const char *path,
		 uint16_t min, uint16_t max, uint16_t *out);
int prof_get_addr(struct prof_ctx *c, const json_t *o, const char *key, const char *path, int ver,
		  void *out);

/* ---- profile_hdr.c ---- */

/* The default headers of doc/profiles.rst (@inner: of a VXLAN inner frame). */
void prof_hdr_defaults(struct pvp_hdr *h, bool inner);

/* "headers" (@inner: the "inner" member of "vxlan") into @s. */
int prof_parse_hdr(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s,
		   bool inner);

/* "eth/vlan/ipv4/udp" and the like, for messages. Returns @buf. */
const char *prof_hdr_desc(const struct pvp_hdr *h, char *buf, size_t len);

/* ---- profile_var.c ---- */

/* "vars" and "tuple" into s->vars (headers already parsed); refused with
 * "replay". */
int prof_parse_vars(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s);

/* "flows": s->flows, by default the distinct combinations of the vars;
 * without vars, a variable source address. */
int prof_parse_flows(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s);

/* Period of @v over consecutive flow indices; div 1 when unset. */
void prof_var_finish(struct pvp_var *v);

/* ---- profile_mode.c ---- */

/* "rate": a number (pps) or a rate string. */
int prof_parse_rate(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s);

/* "mode": "continuous", {"burst": N} or {"multi_burst": {...}}. */
int prof_parse_mode(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s);

/* "replay" (needs "pcap") and "loop" (needs "replay"). */
int prof_parse_replay(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s);

/* ---- profile_frames.c ---- */

/* At most one of "size", "imix" and "pcap". */
int prof_parse_frames_kind(struct prof_ctx *c, const json_t *o, const char *path);

/* The frames: the pcap file's, the IMIX sizes or the one size, each
 * large enough for the headers and the signature. */
int prof_parse_frames(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s);

#endif /* PROFILE_PRIVATE_H */
