/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: the IMIX strings of pvpkit-gen --imix-sizes
 * ("64:7,570:4,1518:1", size[:weight] with sizes including the FCS), as
 * pvpkit-gen turns its command line into a profile:
 * pvp_imix_parse() of lib/pkt, then gen_profile_from_opts() of app/gen/profile.c, with --flows and
 * --src-mac/--dst-mac picked by the first input byte.
 *
 * A string that is accepted must mean exactly what it says: the streams
 * carry its entries in order, and writing them back as "size:weight"
 * (":1" left out where the string left it out) gives the string again,
 * so no sign, blank, other base or empty entry slips through as some
 * other number. A refused string gets one line.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#include "fuzz.h"

/* What pvpkit-gen's main.c defines. */
int gen_logtype;
struct gen_ctx gen;

/* Stream setup lives in the same file but is not fuzzed here: the TX
 * engine's reset is never reached from gen_profile_from_opts(). */
void
gen_ws_reset(struct gen_wstream *w)
{
	abort();
}

/* Without --l3 (never set here) app/gen/neigh.c leaves a profile alone. */
void
gen_neigh_apply(const struct gen_ctx *g, struct pvp_profile *p)
{
	(void)g;
	(void)p;
}

#define FUZZ_IMIX_MAX 600

static const uint32_t flows[4] = {1, 2, 1000, 16777216};

/* @p tok (@p len bytes) without the leading zeros of its numbers. */
static size_t
strip_zeros(const char *tok, size_t len, char *out)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		bool first = i == 0 || tok[i - 1] == ':';

		while (first && tok[i] == '0' && i + 1 < len && tok[i + 1] >= '0' &&
		       tok[i + 1] <= '9')
			i++;
		out[n++] = tok[i];
	}
	out[n] = '\0';
	return n;
}

static void
check_profile(const struct pvp_profile *p, const char *list)
{
	char canon[FUZZ_IMIX_MAX * 2 + 64], given[FUZZ_IMIX_MAX + 1];
	const struct pvp_stream *s;
	size_t n = 0;
	uint32_t i;

	FUZZ_CHECK(p->n_streams == gen.nb_ports, "%u streams for %u ports", p->n_streams,
		   gen.nb_ports);
	s = &p->streams[0];
	FUZZ_CHECK(s->n_imix >= 1 && s->n_imix <= PVP_PKT_MAX_IMIX, "%u IMIX entries", s->n_imix);
	canon[0] = '\0';
	for (i = 0; i < s->n_imix; i++) {
		const char *tok = list + n;
		size_t tl = strcspn(tok, ",");
		bool has_w = memchr(tok, ':', tl) != NULL;

		strip_zeros(tok, tl, given);

		FUZZ_CHECK(s->imix[i].size >= PVP_PKT_MIN_SIZE &&
				   s->imix[i].size <= PVP_PKT_MAX_SIZE,
			   "entry %u: size %u", i, s->imix[i].size);
		if (has_w)
			snprintf(canon, sizeof(canon), "%u:%u", s->imix[i].size, s->imix[i].weight);
		else
			snprintf(canon, sizeof(canon), "%u", s->imix[i].size);
		FUZZ_CHECK(strcmp(canon, given) == 0, "\"%s\": entry %u \"%.*s\" was read as %u:%u",
			   list, i, (int)tl, tok, s->imix[i].size, s->imix[i].weight);
		n += tl + (tok[tl] == ',');
	}
	FUZZ_CHECK(list[n] == '\0', "\"%s\": \"%s\" was ignored", list, list + n);
	for (i = 0; i < p->n_streams; i++)
		FUZZ_CHECK(p->streams[i].n_tmpl == s->n_imix && p->streams[i].port == i,
			   "stream %u: %u templates, port %u", i, p->streams[i].n_tmpl,
			   p->streams[i].port);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pvp_profile *p;
	char err[512], src_mac[32];
	uint32_t n;
	char *list;

	if (size < 1 || size > FUZZ_IMIX_MAX)
		return 0;
	list = fuzz_strndup(data + 1, size - 1);
	memset(&gen.opt, 0, sizeof(gen.opt));
	gen.nb_ports = 1 + (data[0] >> 7);
	gen.opt.imix = true;
	memset(err, 0, sizeof(err));
	if (pvp_imix_parse("--imix-sizes", list, gen.opt.imix_list, &n, err, sizeof(err)) != 0) {
		fuzz_check_message_in(err, sizeof(err), data, size);
		free(list);
		return 0;
	}
	gen.opt.n_imix = (uint8_t)n;
	gen.opt.flows = flows[data[0] & 3];
	snprintf(src_mac, sizeof(src_mac), "02:00:00:00:00:%02x", data[0]);
	gen.opt.src_mac = data[0] & 4 ? src_mac : NULL;
	gen.opt.dst_mac = !(data[0] & 8) ? NULL : data[0] & 16 ? "not-a-mac" : "ff:ff:ff:ff:ff:ff";
	memset(err, 0, sizeof(err));
	p = gen_profile_from_opts(&gen, err, sizeof(err));
	if (p == NULL) {
		fuzz_check_message_in(err, sizeof(err), data, size);
	} else {
		FUZZ_CHECK(!(data[0] & 8) || !(data[0] & 16), "a bad --dst-mac was accepted");
		check_profile(p, list);
		pvp_profile_free(p);
	}
	free(list);
	return 0;
}
