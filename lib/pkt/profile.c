/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The JSON profile parser (doc/profiles.rst): the entry points, one
 * stream member by member, and the summary line. Strict: unknown
 * members, wrong types and out-of-range values are errors, reported as
 * "file:line:col: streams[1].size: message" (profile_json.c).
 */

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "profile_private.h"

/* Defaults, the members allowed, "name" and "port". */
static int
parse_stream_id(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s,
		uint16_t id)
{
	static const char *const keys[] = {"name",   "port",  "size",  "imix", "pcap",
					   "replay", "loop",  "rate",  "mode", "headers",
					   "vars",   "tuple", "flows", NULL};
	char sub[256];
	json_t *v;

	s->id = id;
	prof_fmt(s->name, sizeof(s->name), "stream%u", id);
	prof_hdr_defaults(&s->outer, false);
	if (prof_check_keys(c, o, path, keys) != 0)
		return -EINVAL;
	if ((v = json_object_get(o, "name")) != NULL) {
		prof_fmt(sub, sizeof(sub), "%s.name", path);
		if (!json_is_string(v) || json_string_length(v) == 0 ||
		    json_string_length(v) >= sizeof(s->name))
			return prof_fail(c, -EINVAL, sub, "must be a string of 1..%zu characters",
					 sizeof(s->name) - 1);
		prof_fmt(s->name, sizeof(s->name), "%s", json_string_value(v));
	}
	return prof_get_u16(c, o, "port", path, 0, RTE_MAX_ETHPORTS - 1, &s->port);
}

/* "headers", refused with "pcap" (the frames come from the file). */
static int
parse_stream_headers(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s)
{
	json_t *v = json_object_get(o, "headers");
	char sub[256];

	if (v == NULL)
		return 0;
	prof_fmt(sub, sizeof(sub), "%s.headers", path);
	if (json_object_get(o, "pcap") != NULL)
		return prof_fail(
			c, -EINVAL, sub,
			"\"headers\" and \"pcap\" are exclusive: the frames come from the file");
	return prof_parse_hdr(c, v, sub, s, false);
}

/*
 * One stream, in the order its members depend on each other: headers
 * before the vars that write into them, vars before the flows they make,
 * all of them before the frames are checked against the headers' size
 * and built.
 */
static int
parse_stream(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s,
	     uint16_t id)
{
	char sub[256], msg[PVP_PKT_ERR_LEN] = "", where[64] = "";
	int rc;

	if ((rc = parse_stream_id(c, o, path, s, id)) != 0 ||
	    (rc = prof_parse_frames_kind(c, o, path)) != 0 ||
	    (rc = prof_parse_rate(c, o, path, s)) != 0 ||
	    (rc = prof_parse_mode(c, o, path, s)) != 0 ||
	    (rc = parse_stream_headers(c, o, path, s)) != 0 ||
	    (rc = prof_parse_replay(c, o, path, s)) != 0 ||
	    (rc = prof_parse_vars(c, o, path, s)) != 0 ||
	    (rc = prof_parse_flows(c, o, path, s)) != 0 ||
	    (rc = prof_parse_frames(c, o, path, s)) != 0)
		return rc;
	/* The templates; an error names the member at fault. */
	rc = pkt_stream_build(s, msg, sizeof(msg), where, sizeof(where));
	if (rc == 0)
		return 0;
	prof_fmt(sub, sizeof(sub), "%s%s%s", path, where[0] != '\0' ? "." : "", where);
	return prof_fail(c, rc, sub, "%s", rc == -ENOMEM ? "out of memory" : msg);
}

/* ---- entry points ---- */

static struct pvp_profile *
parse_root(struct prof_ctx *c, const json_t *root)
{
	static const char *const keys[] = {"streams", NULL};
	struct pvp_profile *p;
	json_t *arr;
	size_t i;
	int rc;

	if (c->err != NULL)
		c->err[0] = '\0';
	rc = prof_check_keys(c, root, "", keys);
	arr = json_object_get(root, "streams");
	if (rc == 0 && (!json_is_array(arr) || json_array_size(arr) == 0 ||
			json_array_size(arr) > PVP_PKT_MAX_STREAMS))
		rc = prof_fail(c, -EINVAL, arr == NULL ? "" : "streams",
			       "\"streams\" must be a list of 1..%d streams", PVP_PKT_MAX_STREAMS);
	if (rc != 0) {
		errno = EINVAL;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return NULL;
	prof_fmt(p->source, sizeof(p->source), "%s", c->source);
	p->streams = calloc(json_array_size(arr), sizeof(*p->streams));
	rc = p->streams != NULL ? 0 : -ENOMEM;
	for (i = 0; rc == 0 && i < json_array_size(arr); i++) {
		char path[32];

		prof_fmt(path, sizeof(path), "streams[%zu]", i);
		p->n_streams = i + 1;
		rc = parse_stream(c, json_array_get(arr, i), path, &p->streams[i], i);
	}
	if (rc != 0) {
		pvp_profile_free(p);
		errno = -rc;
		return NULL;
	}
	return p;
}

struct pvp_profile *
pvp_profile_parse(const json_t *root, const char *source, char *err, size_t err_len)
{
	struct prof_ctx c = {.source = source != NULL ? source : "<profile>",
			     .err = err_len > 0 ? err : NULL,
			     .err_len = err_len};

	return parse_root(&c, root);
}

static struct pvp_profile *
load_text(const char *text, size_t len, const char *source, const char *dir, char *err,
	  size_t err_len)
{
	struct prof_ctx c = {.source = source,
			     .text = text,
			     .err = err_len > 0 ? err : NULL,
			     .err_len = err_len};
	struct pvp_profile *p;
	json_error_t jerr;
	json_t *root;

	prof_fmt(c.dir, sizeof(c.dir), "%s", dir != NULL ? dir : "");
	if (c.err != NULL)
		c.err[0] = '\0';
	/* jansson stops at a NUL as at the end: a binary file would be
	 * misread as the text before it. */
	if (memchr(text, '\0', len) != NULL) {
		pvp_err(err, err_len, "%s: not a JSON text file (a NUL byte at offset %zu)", source,
			(size_t)((const char *)memchr(text, '\0', len) - text));
		errno = EINVAL;
		return NULL;
	}
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL) {
		/* Without jansson's "near 'root'": the file may be a secret. */
		pvp_json_load_err(err, err_len, source, &jerr);
		errno = EINVAL;
		return NULL;
	}
	p = parse_root(&c, root);
	json_decref(root);
	return p;
}

struct pvp_profile *
pvp_profile_load_str(const char *text, const char *source, char *err, size_t err_len)
{
	return load_text(text, strlen(text), source != NULL ? source : "<profile>", NULL, err,
			 err_len);
}

struct pvp_profile *
pvp_profile_load(const char *path, char *err, size_t err_len)
{
	char emsg[PVP_PKT_ERR_LEN];
	struct pvp_profile *p;
	char *text, *dcopy;
	size_t n;
	int rc, e;

	if (err != NULL && err_len > 0)
		err[0] = '\0';
	/* Never blocks on a FIFO, refuses devices and huge files. */
	rc = pvp_file_read(path, PVP_PKT_MAX_FILE, &text, &n, emsg, sizeof(emsg));
	if (rc != 0) {
		pvp_err(err, err_len, "%s", emsg);
		errno = -rc;
		return NULL;
	}
	dcopy = strdup(path);
	p = load_text(text, n, path, dcopy != NULL ? dirname(dcopy) : NULL, err, err_len);
	e = errno;
	free(dcopy);
	free(text);
	errno = e;
	return p;
}

struct pvp_profile *
pvp_profile_quick(uint16_t size, uint64_t flows, const uint16_t *ports, unsigned int n_ports,
		  char *err, size_t err_len)
{
	struct pvp_profile *p;
	json_t *root, *arr;
	unsigned int i;

	if (err != NULL && err_len > 0)
		err[0] = '\0';
	if (n_ports == 0 || ports == NULL || flows == 0 ||
	    (size != 0 && (size < PVP_PKT_MIN_SIZE || size > PVP_PKT_MAX_SIZE))) {
		if (n_ports == 0 || ports == NULL)
			pvp_err(err, err_len, "no TX port");
		else if (flows == 0)
			pvp_err(err, err_len, "flows must be at least 1");
		else
			pvp_err(err, err_len,
				"size %u is out of range %u..%u (frame size with FCS)", size,
				PVP_PKT_MIN_SIZE, PVP_PKT_MAX_SIZE);
		errno = EINVAL;
		return NULL;
	}
	arr = json_array();
	for (i = 0; i < n_ports; i++)
		json_array_append_new(
			arr, json_pack("{s:I, s:I, s:o}", "port", (json_int_t)ports[i], "flows",
				       (json_int_t)flows, size != 0 ? "size" : "imix",
				       size != 0 ? json_integer(size) : json_string("trex")));
	root = json_pack("{s:o}", "streams", arr);
	p = pvp_profile_parse(root, "command line", err, err_len);
	json_decref(root);
	return p;
}

void
pvp_stream_free(struct pvp_stream *s)
{
	uint32_t i;

	for (i = 0; i < s->n_tmpl; i++)
		free(s->tmpl[i].data);
	free(s->tmpl);
	free(s->order);
}

void
pvp_profile_free(struct pvp_profile *p)
{
	uint32_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->n_streams; i++)
		pvp_stream_free(&p->streams[i]);
	free(p->streams);
	free(p);
}

int
pvp_stream_summary(const struct pvp_stream *s, char *buf, size_t len)
{
	char frames[160], hdrs[96], mode[64], rate[32], d1[40], d2[40];
	unsigned int i;
	int n = 0;

	if (s->pcap[0] != '\0') {
		const char *base = strrchr(s->pcap, '/');

		prof_fmt(frames, sizeof(frames), "pcap %s frames %u%s",
			 base != NULL ? base + 1 : s->pcap, s->n_tmpl, s->replay ? " replay" : "");
		if (s->replay) {
			size_t k = strlen(frames);

			prof_fmt(frames + k, sizeof(frames) - k, " loop %" PRIu64, s->loop);
		}
		prof_fmt(hdrs, sizeof(hdrs), "-");
	} else {
		if (s->n_imix != 0) {
			n = prof_fmt(frames, sizeof(frames), "imix ");
			for (i = 0; i < s->n_imix && n < (int)sizeof(frames); i++)
				n += prof_fmt(frames + n, sizeof(frames) - n, "%s%u:%u",
					      i ? "," : "", s->imix[i].size, s->imix[i].weight);
			if (n < (int)sizeof(frames))
				prof_fmt(frames + n, sizeof(frames) - n, " cycle %u avg %.1f",
					 s->n_order, s->avg_size);
		} else {
			prof_fmt(frames, sizeof(frames), "size %u", s->size);
		}
		if (s->vxlan)
			prof_fmt(hdrs, sizeof(hdrs), "%s/vxlan(%u)/%s",
				 prof_hdr_desc(&s->outer, d1, sizeof(d1)), s->vni,
				 prof_hdr_desc(&s->inner, d2, sizeof(d2)));
		else
			prof_fmt(hdrs, sizeof(hdrs), "%s",
				 prof_hdr_desc(&s->outer, d1, sizeof(d1)));
	}
	switch (s->mode) {
	case PVP_MODE_BURST:
		prof_fmt(mode, sizeof(mode), "burst %" PRIu64, s->burst_packets);
		break;
	case PVP_MODE_MULTI_BURST:
		prof_fmt(mode, sizeof(mode), "multi_burst %ux%" PRIu64 " gap %" PRIu64 "us",
			 s->burst_count, s->burst_packets, s->burst_gap_us);
		break;
	default:
		prof_fmt(mode, sizeof(mode), "continuous");
		break;
	}
	if (s->has_rate)
		pvp_rate_format(&s->rate, rate, sizeof(rate));
	else
		prof_fmt(rate, sizeof(rate), "-");
	return prof_fmt(buf, len,
			"stream %u \"%s\" port %u %s %s flows %" PRIu64 " vars %u mode %s rate %s",
			s->id, s->name, s->port, frames, hdrs, s->flows, s->n_vars, mode, rate);
}
