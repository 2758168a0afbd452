/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: stream profiles (lib/pkt), the JSON a user gives with
 * --profile or a client sends with profile.load. The input is written to
 * a file and loaded with pvp_profile_load(), the path pvpkit-gen takes,
 * so the file reading, jansson, every member check, the error locator
 * (file:line:col from the raw text) and the template builder all run.
 *
 * A profile that loads must also keep the promises of pvp_pkt.h, checked
 * on every stream (a few templates and flows each):
 *  - the templates and the IMIX order are consistent (sizes, cycle);
 *  - every var's value is within [min, max], and the first flows make
 *    distinct combinations (the stream claims `flows` distinct flows);
 *  - pvp_flow_apply() on a packet of another flow gives the same bytes as
 *    pvp_flow_build(), and both leave valid checksums (compared with a
 *    full recomputation), as does pvp_sig_stamp();
 *  - the signature is where the receiver will look for it.
 * A profile that does not load must say why in one line.
 *
 * Pcap members may only name files inside the harness's scratch folder
 * (relative, no '/'): it holds a copy of the seed pcap as "frames.pcap".
 * Anything else is skipped, so the fuzzer never opens files of the
 * machine (the pcap harness fuzzes pcap contents).
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "pkt_private.h"
#include "pvp_pkt.h"

#include "fuzz.h"
#include "fuzz_pkt.h"

/* Bound the work per input: a profile of 1024 IMIX streams is legal. */
#define FUZZ_MAX_STREAMS 8
#define FUZZ_MAX_TMPL	 4
#define FUZZ_MAX_FLOWS	 64

static char scratch[256];
static char profile_path[300];

/* Only pcap names that resolve inside the scratch folder. */
static bool
pcap_names_safe(const uint8_t *data, size_t size)
{
	json_t *root, *streams, *s;
	bool ok = true;
	size_t i;

	/* Cheap first: no "pcap" key, nothing to check. */
	if (memmem(data, size, "pcap", 4) == NULL && memmem(data, size, "\\u", 2) == NULL)
		return true;
	root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
	if (root == NULL)
		return true; /* the profile parser fails before any file */
	streams = json_object_get(root, "streams");
	json_array_foreach(streams, i, s) {
		const char *p = json_string_value(json_object_get(s, "pcap"));

		if (p != NULL && (p[0] == '\0' || strchr(p, '/') != NULL || strcmp(p, ".") == 0 ||
				  strcmp(p, "..") == 0))
			ok = false;
	}
	json_decref(root);
	return ok;
}

static void
check_stream(const struct pvp_stream *s)
{
	uint64_t nflows = s->flows < FUZZ_MAX_FLOWS ? s->flows : FUZZ_MAX_FLOWS;
	uint32_t vals[FUZZ_MAX_FLOWS][PVP_PKT_MAX_VARS];
	char summary[512];
	uint32_t i, ti, ntmpl;
	uint64_t f, g;
	int n;

	n = pvp_stream_summary(s, summary, sizeof(summary));
	FUZZ_CHECK(n > 0 && strchr(summary, '\n') == NULL, "bad summary");
	FUZZ_CHECK(s->n_tmpl >= 1 && s->tmpl != NULL, "stream %u: no templates", s->id);
	FUZZ_CHECK(s->n_order >= 1 && s->order != NULL, "stream %u: no order", s->id);
	FUZZ_CHECK(s->flows >= 1, "stream %u: 0 flows", s->id);
	FUZZ_CHECK(s->n_vars <= PVP_PKT_MAX_VARS, "stream %u: %u vars", s->id, s->n_vars);
	FUZZ_CHECK(s->avg_size >= 18 && s->avg_size <= PVP_PKT_MAX_SIZE, "stream %u: avg size %g",
		   s->id, s->avg_size);
	for (i = 0; i < s->n_order && i < 4096; i++)
		FUZZ_CHECK(s->order[i] < s->n_tmpl, "stream %u: order[%u] = %u of %u", s->id, i,
			   s->order[i], s->n_tmpl);
	if (s->n_imix != 0) {
		FUZZ_CHECK(s->n_order == pvp_imix_cycle_len(s->imix, s->n_imix),
			   "stream %u: IMIX cycle %u", s->id, s->n_order);
	}

	/* Var values in range; the first flows pairwise distinct. */
	for (f = 0; f < nflows; f++) {
		for (i = 0; i < s->n_vars; i++) {
			const struct pvp_var *v = &s->vars[i];

			vals[f][i] = pvp_var_value(v, f);
			FUZZ_CHECK(vals[f][i] >= v->min && vals[f][i] <= v->max,
				   "stream %u var %u flow %llu: %u outside %u..%u", s->id, i,
				   (unsigned long long)f, vals[f][i], v->min, v->max);
		}
		for (g = 0; g < f && s->n_vars > 0; g++)
			FUZZ_CHECK(memcmp(vals[f], vals[g], s->n_vars * sizeof(vals[0][0])) != 0,
				   "stream %u: flows %llu and %llu of %llu are the same", s->id,
				   (unsigned long long)g, (unsigned long long)f,
				   (unsigned long long)s->flows);
	}
	/* Values far out, where the wrap-around arithmetic matters. */
	for (i = 0; i < s->n_vars; i++) {
		const struct pvp_var *v = &s->vars[i];
		uint32_t x = pvp_var_value(v, s->flows - 1);

		FUZZ_CHECK(x >= v->min && x <= v->max, "stream %u var %u: last flow out of range",
			   s->id, i);
		x = pvp_var_value(v, UINT64_MAX);
		FUZZ_CHECK(x >= v->min && x <= v->max, "stream %u var %u: flow 2^64-1 out of range",
			   s->id, i);
	}

	ntmpl = s->n_tmpl < FUZZ_MAX_TMPL ? s->n_tmpl : FUZZ_MAX_TMPL;
	for (ti = 0; ti < ntmpl; ti++)
		fuzz_check_tmpl(s, &s->tmpl[ti]);
	FUZZ_CHECK(pvp_stream_tmpl(s, UINT64_MAX) != NULL, "no template");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[PVP_PKT_ERR_LEN] = "";
	struct pvp_profile *p;
	uint32_t i;
	FILE *f;

	if (scratch[0] == '\0')
		LLVMFuzzerInitialize(NULL, NULL);
	if (!pcap_names_safe(data, size))
		return 0;
	f = fopen(profile_path, "wb");
	if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();

	memset(err, 0x5a, sizeof(err));
	p = pvp_profile_load(profile_path, err, sizeof(err));
	if (p == NULL) {
		FUZZ_CHECK(errno != 0, "NULL profile without errno");
		fuzz_check_message(err, sizeof(err));
		FUZZ_CHECK(strncmp(err, profile_path, strlen(profile_path)) == 0,
			   "message does not name the file: %s", err);
		return 0;
	}
	FUZZ_CHECK(p->n_streams >= 1 && p->n_streams <= PVP_PKT_MAX_STREAMS, "%u streams",
		   p->n_streams);
	for (i = 0; i < p->n_streams && i < FUZZ_MAX_STREAMS; i++) {
		FUZZ_CHECK(p->streams[i].id == i, "stream %u has id %u", i, p->streams[i].id);
		check_stream(&p->streams[i]);
	}
	pvp_profile_free(p);
	return 0;
}

void
fuzz_cleanup(void)
{
	char path[300];

	if (scratch[0] == '\0')
		return;
	unlink(profile_path);
	snprintf(path, sizeof(path), "%s/frames.pcap", scratch);
	unlink(path);
	rmdir(scratch);
	scratch[0] = '\0';
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(scratch, sizeof(scratch), "%s/pvp-profile-fuzz.XXXXXX",
		 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if (mkdtemp(scratch) == NULL) {
		perror(scratch);
		abort();
	}
	snprintf(profile_path, sizeof(profile_path), "%s/profile.json", scratch);
	fuzz_write_seed_pcap(scratch, "frames.pcap");
	atexit(fuzz_cleanup);
	return 0;
}
