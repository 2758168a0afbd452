/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: pvpkit-gen's TRex server (app/gen/trex), the one
 * network-facing parser that has no authentication by design, from a
 * message's bytes to its reply: the compressed framing, JSON-RPC requests
 * and batches, every method's params, stream and field engine JSON. No
 * socket and no EAL: trex_handle_msg() is called as the server thread
 * calls it, on one port with no TX lcore; the data path is stood in for
 * below (a profile "loads" without wire streams), so start, pause,
 * resume, update and stop run, and the run's end comes at the next tick.
 *
 * An input is a session: messages separated by a line "----", each sent
 * as it is (a message may be in the compressed framing). The API handler
 * is "fuzzapihnd", and before each message an acquired port's handler is
 * made "fuzzporthd", so inputs reach the methods that need both. Every
 * input starts from a fresh server. Then:
 *  - every message gets a reply that is JSON (unzipped first when it
 *    came compressed): an object, or an array for a batch of at most
 *    TREX_MAX_BATCH requests;
 *  - every write of every stream lies inside its packet (a heap
 *    overflow once), and the JSON kept of a stream is bounded.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>

#include <jansson.h>
#include <zlib.h>

#include "capture.h"
#include "push.h"
#include "trex.h"

#include "fuzz.h"

/* What pvpkit-gen's app/gen/main.c defines. */
int gen_logtype;
pthread_mutex_t gen_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gen_ctx fz_gen;

#define FUZZ_SEP      "\n----\n"
#define FUZZ_API_H    "fuzzapihnd"
#define FUZZ_PORT_H   "fuzzporthd"
#define FUZZ_MAX_MSGS 64

/* ---- the data path, stood in for ---- */

int
gen_streams_setup(struct gen_ctx *g, struct pvp_profile *p, char *err, size_t errlen)
{
	RTE_SET_USED(err);
	RTE_SET_USED(errlen);
	/* Taken over, as the real one does; no wire streams. */
	pvp_profile_free(g->profile);
	g->profile = p;
	return 0;
}

void
gen_ws_program(struct gen_ctx *g, struct gen_wstream *w, const struct gen_ws_plan *pl)
{
	RTE_SET_USED(g);
	RTE_SET_USED(w);
	RTE_SET_USED(pl);
}

void
gen_tx_lcore_go(struct gen_tx_lcore *tl, uint64_t start_tsc, uint64_t stop_tsc)
{
	RTE_SET_USED(tl);
	RTE_SET_USED(start_tsc);
	RTE_SET_USED(stop_tsc);
}

bool
gen_tx_lcore_idle(struct gen_tx_lcore *tl)
{
	RTE_SET_USED(tl);
	return true;
}

int
gen_rx_clear(struct gen_ctx *g)
{
	RTE_SET_USED(g);
	return 0;
}

void
gen_rx_read(struct gen_ctx *g, uint16_t wire_id, struct pvp_seq *seq, struct pvp_lat_summary *lat,
	    uint64_t *bytes)
{
	RTE_SET_USED(g);
	RTE_SET_USED(wire_id);
	memset(seq, 0, sizeof(*seq));
	if (lat != NULL)
		memset(lat, 0, sizeof(*lat));
	*bytes = 0;
}

uint64_t
gen_rx_last_max(const struct gen_ctx *g, uint16_t wire_id)
{
	RTE_SET_USED(g);
	RTE_SET_USED(wire_id);
	return 0;
}

/*
 * Captures (app/gen/capture_ctl.c) need the EAL's pools and rings: none is
 * ever started here, so the capture method's checks of its parameters
 * are what the input reaches.
 */
int
gen_cap_filter_check(const char *filter, char *err, size_t errlen)
{
	RTE_SET_USED(filter);
	RTE_SET_USED(err);
	RTE_SET_USED(errlen);
	return 0;
}

int
gen_cap_start(const struct gen_cap_conf *c, uint32_t *id, double *start_ts, char *err,
	      size_t errlen)
{
	RTE_SET_USED(c);
	RTE_SET_USED(id);
	RTE_SET_USED(start_ts);
	snprintf(err, errlen, "capture: no memory for its ring and copies");
	return -ENOMEM;
}

int
gen_cap_stop(uint32_t id, struct gen_cap_info *info, char *err, size_t errlen)
{
	RTE_SET_USED(id);
	RTE_SET_USED(info);
	snprintf(err, errlen, "capture ID not found");
	return -ENOENT;
}

int
gen_cap_remove(uint32_t id, char *err, size_t errlen)
{
	return gen_cap_stop(id, NULL, err, errlen);
}

int
gen_cap_set_filter(uint32_t id, const char *filter, char *err, size_t errlen)
{
	RTE_SET_USED(filter);
	return gen_cap_stop(id, NULL, err, errlen);
}

unsigned int
gen_cap_status(struct gen_cap_info *out, unsigned int max)
{
	RTE_SET_USED(out);
	RTE_SET_USED(max);
	return 0;
}

int
gen_cap_fetch(uint32_t id, uint32_t max, void (*cb)(void *arg, const struct gen_cap_pkt *p),
	      void *arg, uint64_t *pending, double *start_ts, char *err, size_t errlen)
{
	RTE_SET_USED(max);
	RTE_SET_USED(cb);
	RTE_SET_USED(arg);
	RTE_SET_USED(pending);
	RTE_SET_USED(start_ts);
	return gen_cap_stop(id, NULL, err, errlen);
}

/* A push reads no file: "fuzz.pcap" is a one-frame pcap, every other name is missing. */
struct gen_push {
	uint16_t port;
};

struct gen_push *
gen_push_load(struct gen_ctx *g, const struct gen_push_conf *c, char *err, size_t errlen)
{
	struct gen_push *p;

	RTE_SET_USED(g);
	if (strcmp(c->file, "fuzz.pcap") != 0) {
		snprintf(err, errlen, "push: cannot read pcap \"%.200s\": no such file", c->file);
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		snprintf(err, errlen, "push: out of memory");
	else
		p->port = c->port;
	return p;
}

void
gen_push_start(struct gen_ctx *g, struct gen_push *p, uint64_t stop_tsc)
{
	RTE_SET_USED(g);
	RTE_SET_USED(p);
	RTE_SET_USED(stop_tsc);
}

int
gen_push_end(struct gen_push *p)
{
	free(p);
	return 0;
}

uint32_t
gen_push_frames(const struct gen_push *p)
{
	RTE_SET_USED(p);
	return 1;
}

/* No EAL, no mempools: the walk of get_utilization finds none. */
void __wrap_rte_mempool_walk(void (*func)(struct rte_mempool *, void *), void *arg);

void
__wrap_rte_mempool_walk(void (*func)(struct rte_mempool *, void *), void *arg)
{
	RTE_SET_USED(func);
	RTE_SET_USED(arg);
}

/*
 * ethdev refuses every call on a port that was never probed, except this
 * one, which reads the port's data without EAL (linked with --wrap).
 */
int __wrap_rte_eth_dev_socket_id(uint16_t port_id);

int
__wrap_rte_eth_dev_socket_id(uint16_t port_id)
{
	RTE_SET_USED(port_id);
	return 0;
}

/* ---- the server ---- */

static void
fuzz_server_reset(void)
{
	uint16_t p;

	if (trex.g != NULL) {
		for (p = 0; p < fz_gen.nb_ports; p++)
			trex_streams_clear(p);
		trex_sessions_free();
	}
	pvp_profile_free(fz_gen.profile);
	memset(&fz_gen, 0, sizeof(fz_gen));
	fz_gen.nb_ports = 1;
	fz_gen.hz = 1000000000;
	fz_gen.opt.tx_cores = 1;
	fz_gen.port[0].link_bps = 10000000000ull;
	memset(&trex, 0, sizeof(trex));
	trex.g = &fz_gen;
	snprintf(trex.api_h, sizeof(trex.api_h), "%s", FUZZ_API_H);
	trex.port[0].state = TREX_PORT_IDLE;
}

/* The reply must be JSON: an object, or an array for a batch. */
static void
fuzz_check_reply(const char *r, size_t len)
{
	uint8_t *plain = NULL;
	json_error_t jerr;
	json_t *j;

	if (len >= 8 && (uint8_t)r[0] == 0xAB && (uint8_t)r[1] == 0xE8 && (uint8_t)r[2] == 0x5C &&
	    (uint8_t)r[3] == 0xEA) {
		uint32_t n;
		uLongf out;

		memcpy(&n, r + 4, 4);
		out = ntohl(n);
		plain = malloc(out + 1);
		FUZZ_CHECK(plain != NULL, "out of memory");
		FUZZ_CHECK(uncompress(plain, &out, (const Bytef *)r + 8, len - 8) == Z_OK &&
				   out == ntohl(n),
			   "a compressed reply does not unzip to its declared length");
		r = (const char *)plain;
		len = out;
	}
	j = json_loadb(r, len, 0, &jerr);
	FUZZ_CHECK(j != NULL && (json_is_object(j) || json_is_array(j)),
		   "the reply is no JSON object or array: %s: %.200s", jerr.text, r);
	FUZZ_CHECK(!json_is_array(j) || json_array_size(j) <= TREX_MAX_BATCH,
		   "a reply to a batch of %zu requests", json_array_size(j));
	json_decref(j);
	free(plain);
}

/* What the server keeps holds: writes inside packets, bounded stream JSON. */
static void
fuzz_check_streams(void)
{
	const struct trex_port *tp = &trex.port[0];
	uint32_t i, k;

	FUZZ_CHECK(tp->nb_streams <= TREX_MAX_PORT_STREAMS, "%u streams", tp->nb_streams);
	for (i = 0; i < tp->nb_streams; i++) {
		const struct trex_stream *s = tp->streams[i];

		FUZZ_CHECK(json_dumpb(s->json, NULL, 0, JSON_COMPACT) <= TREX_STREAM_JSON_MAX,
			   "stream %u keeps more than %u bytes of JSON", s->id,
			   TREX_STREAM_JSON_MAX);
		for (k = 0; k < s->n_vars; k++)
			FUZZ_CHECK((uint32_t)s->vars[k].offset + s->vars[k].len <= s->len,
				   "stream %u: write %u at %u + %u is past the %u B packet", s->id,
				   k, s->vars[k].offset, s->vars[k].len, s->len);
	}
}

static void
fuzz_one(const uint8_t *m, size_t len)
{
	size_t rlen = 0;
	char *r;

	if (trex.port[0].owned)
		snprintf(trex.port[0].handler, sizeof(trex.port[0].handler), "%s", FUZZ_PORT_H);
	r = trex_handle_msg(m, len, &rlen);
	FUZZ_CHECK(r != NULL, "no reply");
	fuzz_check_reply(r, rlen);
	free(r);
	/* What the server thread does between requests. */
	pthread_mutex_lock(&gen_lock);
	trex_run_tick();
	trex_stats_tick();
	pthread_mutex_unlock(&gen_lock);
	fuzz_check_streams();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const size_t sl = strlen(FUZZ_SEP);
	unsigned int n = 0;
	size_t at = 0;

	fuzz_server_reset();
	while (at <= size && n++ < FUZZ_MAX_MSGS) {
		const uint8_t *end =
			size - at >= sl ? memmem(data + at, size - at, FUZZ_SEP, sl) : NULL;
		size_t len = end != NULL ? (size_t)(end - (data + at)) : size - at;

		fuzz_one(data + at, len);
		at += len + sl;
	}
	return 0;
}

void
fuzz_cleanup(void)
{
	fuzz_server_reset();
	pvp_profile_free(fz_gen.profile);
	fz_gen.profile = NULL;
	trex.g = NULL;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	/* ethdev says "Invalid port_id=0" for every call on the port that is not there. */
	rte_log_set_global_level(RTE_LOG_EMERG);
	atexit(fuzz_cleanup);
	return 0;
}
