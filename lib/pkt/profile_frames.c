/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Which frames a stream sends: one "size", the sizes of an "imix" list or
 * the frames of a "pcap" file (one template each), and whether the
 * headers leave room for the signature in them.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "profile_private.h"

/* The frames of pcap @file (relative to the profile's folder) as the
 * templates of @s. */
static int
load_pcap(struct prof_ctx *c, const char *path, struct pvp_stream *s, const char *file)
{
	char ebuf[PCAP_ERRBUF_SIZE], emsg[PVP_PKT_ERR_LEN];
	struct pcap_pkthdr *ph;
	const u_char *data;
	uint32_t cap = 0;
	pcap_t *pc;
	int rc, fd;
	FILE *fp;

	if (file[0] == '/' || c->dir[0] == '\0' || strcmp(c->dir, ".") == 0)
		prof_fmt(s->pcap, sizeof(s->pcap), "%s", file);
	else
		prof_fmt(s->pcap, sizeof(s->pcap), "%s/%s", c->dir, file);
	/* Never blocks on a FIFO, refuses devices and huge files. */
	fd = pvp_file_open(s->pcap, PVP_PKT_MAX_FILE, NULL, emsg, sizeof(emsg));
	if (fd < 0)
		return prof_fail(c, fd, path, "%s", emsg);
	fp = fdopen(fd, "rb");
	if (fp == NULL) {
		close(fd);
		return prof_fail(c, -ENOMEM, path, "cannot read pcap \"%s\": %s", s->pcap,
				 strerror(errno));
	}
	pc = pcap_fopen_offline(fp, ebuf); /* closes fp with pcap_close() */
	if (pc == NULL) {
		fclose(fp);
		return prof_fail(c, -EINVAL, path, "cannot read pcap \"%s\": %s", s->pcap, ebuf);
	}
	if (pcap_datalink(pc) != DLT_EN10MB) {
		prof_fail(c, -EINVAL, path, "pcap \"%s\": link type %s, expected Ethernet (EN10MB)",
			  s->pcap, pcap_datalink_val_to_name(pcap_datalink(pc)));
		pcap_close(pc);
		return -EINVAL;
	}
	while ((rc = pcap_next_ex(pc, &ph, &data)) == 1) {
		struct pvp_tmpl *t;

		if (ph->caplen < ph->len) {
			rc = prof_fail(c, -EINVAL, path,
				       "pcap \"%s\": frame %u was cut to %u of %u bytes (snaplen)",
				       s->pcap, s->n_tmpl + 1, ph->caplen, ph->len);
			break;
		}
		if (ph->len < RTE_ETHER_HDR_LEN || ph->len > PVP_PKT_MAX_SIZE - PVP_FCS_LEN) {
			rc = prof_fail(c, -EINVAL, path,
				       "pcap \"%s\": frame %u has %u bytes, expected %u..%u",
				       s->pcap, s->n_tmpl + 1, ph->len, RTE_ETHER_HDR_LEN,
				       PVP_PKT_MAX_SIZE - PVP_FCS_LEN);
			break;
		}
		if (s->n_tmpl == cap) {
			uint32_t ncap = cap == 0 ? 64 : cap * 2;
			struct pvp_tmpl *nt = realloc(s->tmpl, ncap * sizeof(*nt));

			if (nt == NULL) {
				rc = -ENOMEM;
				break;
			}
			memset(nt + cap, 0, (ncap - cap) * sizeof(*nt));
			s->tmpl = nt;
			cap = ncap;
		}
		t = &s->tmpl[s->n_tmpl];
		t->data = malloc(ph->len);
		if (t->data == NULL) {
			rc = -ENOMEM;
			break;
		}
		memcpy(t->data, data, ph->len);
		t->len = ph->len;
		t->size = ph->len + PVP_FCS_LEN;
		/* A pcap replay (pvpkit-gen's push) keeps the file's gaps. */
		t->ts_ns = (uint64_t)ph->ts.tv_sec * 1000000000u + (uint64_t)ph->ts.tv_usec * 1000u;
		s->n_tmpl++;
	}
	if (rc == PCAP_ERROR)
		rc = prof_fail(c, -EINVAL, path, "pcap \"%s\": %s", s->pcap, pcap_geterr(pc));
	pcap_close(pc);
	if (rc == -ENOMEM)
		prof_fail(c, -ENOMEM, path, "out of memory");
	if (rc < 0 && rc != PCAP_ERROR_BREAK)
		return rc;
	if (s->n_tmpl == 0)
		return prof_fail(c, -EINVAL, path, "pcap \"%s\" holds no frames", s->pcap);
	return 0;
}

/* Message for a frame size below what the headers and the signature need; -EINVAL. */
static int
too_small(struct prof_ctx *c, const char *path, const struct pvp_stream *s, uint16_t size)
{
	char d1[40], d2[40];

	return prof_fail(
		c, -EINVAL, path,
		"%u is too small for %s%s%s + %d B signature: minimum %u (frame size with FCS)",
		size, prof_hdr_desc(&s->outer, d1, sizeof(d1)), s->vxlan ? "/vxlan/" : "",
		s->vxlan ? prof_hdr_desc(&s->inner, d2, sizeof(d2)) : "", PVP_SIG_LEN,
		pvp_stream_min_size(s));
}

int
prof_parse_frames_kind(struct prof_ctx *c, const json_t *o, const char *path)
{
	bool size = json_object_get(o, "size") != NULL, imix = json_object_get(o, "imix") != NULL,
	     pcap = json_object_get(o, "pcap") != NULL;
	char sub[256];

	if (size + imix + pcap <= 1)
		return 0;
	prof_fmt(sub, sizeof(sub), "%s.%s", path, pcap ? "pcap" : "imix");
	return prof_fail(c, -EINVAL, sub, "\"size\", \"imix\" and \"pcap\" are exclusive");
}

/* "pcap", and "loop" passes over its frames within the 2^48 bound. */
static int
parse_stream_pcap(struct prof_ctx *c, const json_t *pcap, const char *path, struct pvp_stream *s)
{
	char sub[256];
	int rc;

	prof_fmt(sub, sizeof(sub), "%s.pcap", path);
	if (!json_is_string(pcap))
		return prof_fail(c, -EINVAL, sub, "must be a file name");
	rc = load_pcap(c, sub, s, json_string_value(pcap));
	if (rc != 0)
		return rc;
	if (s->loop > PVP_PKT_MAX_FLOWS / s->n_tmpl) {
		prof_fmt(sub, sizeof(sub), "%s.loop", path);
		return prof_fail(c, -ERANGE, sub,
				 "%" PRIu64 " passes over %u frames is more than 2^48 packets",
				 s->loop, s->n_tmpl);
	}
	return 0;
}

/* "imix": "trex" or a list of {size, weight}, every size large enough for the headers. */
static int
parse_stream_imix(struct prof_ctx *c, const json_t *v, const char *path, struct pvp_stream *s)
{
	static const char *const keys[] = {"size", "weight", NULL};
	char sub[256], isub[280];
	uint64_t x;
	size_t i;
	json_t *e;

	prof_fmt(sub, sizeof(sub), "%s.imix", path);
	if (json_is_string(v)) {
		if (strcmp(json_string_value(v), "trex") != 0)
			return prof_fail(c, -EINVAL, sub,
					 "must be \"trex\" or a list of {\"size\", \"weight\"}");
		memcpy(s->imix, pvp_imix_trex, sizeof(pvp_imix_trex));
		s->n_imix = RTE_DIM(pvp_imix_trex);
	} else if (!json_is_array(v) || json_array_size(v) == 0 ||
		   json_array_size(v) > PVP_PKT_MAX_IMIX) {
		return prof_fail(c, -EINVAL, sub,
				 "must be \"trex\" or a list of 1..%d {\"size\", \"weight\"}",
				 PVP_PKT_MAX_IMIX);
	}
	/* No element in "trex": json_array_foreach() passes over a string. */
	json_array_foreach(v, i, e) {
		prof_fmt(isub, sizeof(isub), "%s[%zu]", sub, i);
		if (prof_check_keys(c, e, isub, keys) != 0 ||
		    prof_get_u64(c, e, "size", isub, true, PVP_PKT_MIN_SIZE, PVP_PKT_MAX_SIZE,
				 &x) != 0)
			return -EINVAL;
		s->imix[i].size = x;
		if (prof_get_u64(c, e, "weight", isub, true, 1, 1000000, &x) != 0)
			return -EINVAL;
		s->imix[i].weight = x;
		s->n_imix = i + 1;
	}
	if (pvp_imix_cycle_len(s->imix, s->n_imix) > 1000000)
		return prof_fail(c, -ERANGE, sub,
				 "the weights make a cycle of more than 1000000 packets");
	for (i = 0; i < s->n_imix; i++) {
		if (s->imix[i].size >= pvp_stream_min_size(s))
			continue;
		if (json_is_string(v))
			prof_fmt(isub, sizeof(isub), "%s", sub);
		else
			prof_fmt(isub, sizeof(isub), "%s[%zu].size", sub, i);
		return too_small(c, isub, s, s->imix[i].size);
	}
	return 0;
}

/* "size"; without it the smallest frame the headers allow (64 B for
 * plain Ethernet/IPv4/UDP). */
static int
parse_stream_size(struct prof_ctx *c, const json_t *size, const char *path, struct pvp_stream *s)
{
	char sub[256];
	uint64_t x;

	s->size = pvp_stream_min_size(s);
	prof_fmt(sub, sizeof(sub), "%s.%s", path, size != NULL ? "size" : "headers");
	if (size != NULL) {
		if (prof_get_uint(c, size, sub, PVP_PKT_MIN_SIZE, PVP_PKT_MAX_SIZE, &x) != 0) {
			if (c->err != NULL) {
				size_t n = strlen(c->err);

				prof_fmt(c->err + n, c->err_len - n, " (frame size with FCS)");
			}
			return -EINVAL;
		}
		s->size = x;
	}
	if (s->size < pvp_stream_min_size(s))
		return too_small(c, sub, s, s->size);
	return 0;
}

int
prof_parse_frames(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s)
{
	json_t *v;

	if ((v = json_object_get(o, "pcap")) != NULL)
		return parse_stream_pcap(c, v, path, s);
	if ((v = json_object_get(o, "imix")) != NULL)
		return parse_stream_imix(c, v, path, s);
	return parse_stream_size(c, json_object_get(o, "size"), path, s);
}
