/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: the RX signature path on arbitrary frames, as a hostile
 * peer or a mangling hop can deliver them to pvpkit-gen. The input is a
 * list of frames (each a 2-byte big-endian length, then its bytes); they
 * go through pvpkit-gen's own RX loop, gen_rx_poll() of app/gen/rx.c,
 * fed by a stand-in ethdev RX burst (rte_eth_fp_ops of port 0) and freed
 * to a stand-in mempool, so no EAL is needed. Then:
 *  - pvp_sig_find_inline() gives the same answer as pvp_sig_find() and
 *    pvp_sig_find_buf() for every frame (the inline fast path claims so);
 *  - every frame is counted exactly once: RX queue packets = frames, and
 *    unsigned + ARP/ND + unknown stream + per-stream rx = frames, each as
 *    the non-inline finder and lib/neigh's classifier predict;
 *  - each stream's tracker equals one fed the same sequence numbers by
 *    the non-inline pvp_seq_update(), and its latency histogram has one
 *    sample per packet with ordered percentiles;
 *  - with one-way latency on (as after oneway.set), each stream's two
 *    halves have one sample per frame with a guest stamp inside the frame
 *    and the rest are unstamped (frames are exact-size buffers: a read past
 *    the end is the sanitizer's to find).
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "capture.h"
#include "gen.h"

#include "fuzz.h"

/* What pvpkit-gen's app/gen/main.c defines. */
int gen_logtype;
struct gen_ctx gen;

/* No capture runs here (app/gen/capture.c): the RX hook stays off. */
volatile uint32_t gen_cap_on;

void
gen_cap_burst_slow(uint16_t port, enum gen_cap_dir dir, struct rte_mbuf **pkts, unsigned int n)
{
	RTE_SET_USED(port);
	RTE_SET_USED(dir);
	RTE_SET_USED(pkts);
	RTE_SET_USED(n);
}

#define FUZZ_RX_MAX_FRAMES 96
#define FUZZ_RX_MAX_LEN	   9216

static struct gen_rx_lcore rl;
static struct rte_mempool pool;
static struct rte_mbuf mbufs[FUZZ_RX_MAX_FRAMES];
static uint8_t *bufs[FUZZ_RX_MAX_FRAMES];
static unsigned int n_frames, next_frame;
static void *rxq_data[RTE_MAX_QUEUES_PER_PORT];
static void *rxq_clbk[RTE_MAX_QUEUES_PER_PORT];
static unsigned long freed;
static bool ready;

/* The stand-in PMD: hands out the input's frames, up to a burst. */
static uint16_t
fuzz_rx_burst(void *rxq, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i = 0;

	while (i < n && next_frame < n_frames)
		pkts[i++] = &mbufs[next_frame++];
	return i;
}

static int
pool_enqueue(struct rte_mempool *mp, void *const *objs, unsigned int n)
{
	freed += n;
	return 0;
}

static int
pool_dequeue(struct rte_mempool *mp, void **objs, unsigned int n)
{
	return -ENOBUFS;
}

static int
pool_alloc(struct rte_mempool *mp)
{
	return 0;
}

static void
pool_free(struct rte_mempool *mp)
{
}

static unsigned int
pool_count(const struct rte_mempool *mp)
{
	return 0;
}

static const struct rte_mempool_ops pool_ops = {
	.name = "pvp_fuzz",
	.alloc = pool_alloc,
	.free = pool_free,
	.enqueue = pool_enqueue,
	.dequeue = pool_dequeue,
	.get_count = pool_count,
};

static void
check_lat(const struct pvp_lat *l, uint64_t want, uint16_t id)
{
	struct pvp_lat_summary s;

	pvp_lat_read(l, &s);
	FUZZ_CHECK(s.count == want, "stream %u: %llu latency samples for %llu packets", id,
		   (unsigned long long)s.count, (unsigned long long)want);
	if (s.count == 0)
		return;
	FUZZ_CHECK(s.min <= s.p50 && s.p50 <= s.p90 && s.p90 <= s.p99 && s.p99 <= s.p99_9 &&
			   s.p99_9 <= s.max && s.min <= s.avg && s.avg <= s.max,
		   "stream %u: latency min %llu p50 %llu p90 %llu p99 %llu p99.9 %llu max %llu avg "
		   "%llu",
		   id, (unsigned long long)s.min, (unsigned long long)s.p50,
		   (unsigned long long)s.p90, (unsigned long long)s.p99,
		   (unsigned long long)s.p99_9, (unsigned long long)s.max,
		   (unsigned long long)s.avg);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pvp_seq shadow[GEN_MAX_WSTREAMS];
	static uint8_t touched[GEN_MAX_WSTREAMS];
	static uint64_t stamped[GEN_MAX_WSTREAMS];
	uint64_t want_nosig = 0, want_neigh = 0, want_bad = 0, want_bytes = 0, signed_rx = 0;
	uint16_t ids[FUZZ_RX_MAX_FRAMES];
	unsigned int i, n_ids = 0;
	struct pvp_stats_rxq *q;
	size_t off = 0;

	if (!ready)
		LLVMFuzzerInitialize(NULL, NULL);

	/* The frames, each in its own buffer of exactly its length. */
	n_frames = next_frame = 0;
	while (size - off >= 2 && n_frames < FUZZ_RX_MAX_FRAMES) {
		size_t len = (size_t)data[off] << 8 | data[off + 1];
		struct rte_mbuf *m = &mbufs[n_frames];
		const struct pvp_sig *sig, *fast;

		off += 2;
		if (len > size - off)
			len = size - off;
		if (len > FUZZ_RX_MAX_LEN)
			len = FUZZ_RX_MAX_LEN;
		bufs[n_frames] = malloc(len > 0 ? len : 1);
		if (bufs[n_frames] == NULL)
			abort();
		memcpy(bufs[n_frames], data + off, len);
		off += len;
		memset(m, 0, sizeof(*m));
		m->buf_addr = bufs[n_frames];
		m->buf_len = (uint16_t)len;
		m->data_off = 0;
		m->data_len = (uint16_t)len;
		m->pkt_len = (uint32_t)len;
		m->nb_segs = 1;
		m->pool = &pool;
		rte_mbuf_refcnt_set(m, 1);

		sig = pvp_sig_find(m);
		fast = pvp_sig_find_inline(m);
		FUZZ_CHECK(fast == sig, "frame %u (%zu B): inline finder says %ld, parser %ld",
			   n_frames, len,
			   fast == NULL ? -1L : (long)((const uint8_t *)fast - bufs[n_frames]),
			   sig == NULL ? -1L : (long)((const uint8_t *)sig - bufs[n_frames]));
		FUZZ_CHECK(pvp_sig_find_buf(bufs[n_frames], (uint32_t)len) == sig,
			   "frame %u: pvp_sig_find_buf disagrees", n_frames);
		want_bytes += len;
		if (sig == NULL && pvp_neigh_is_neigh(bufs[n_frames], (uint32_t)len)) {
			want_neigh++;
		} else if (sig == NULL) {
			want_nosig++;
		} else {
			uint16_t id = rte_be_to_cpu_16(sig->stream);

			FUZZ_CHECK((const uint8_t *)sig + PVP_SIG_LEN <= bufs[n_frames] + len,
				   "frame %u: signature past the end", n_frames);
			if (id >= gen.nb_ws) {
				want_bad++;
			} else {
				if (!touched[id]) {
					touched[id] = 1;
					ids[n_ids++] = id;
					pvp_seq_init(&shadow[id]);
					pvp_seq_init(&rl.ws[id].seq);
					pvp_lat_init(&rl.ws[id].lat);
					rl.ws[id].bytes = 0;
					pvp_lat_init(&rl.ow[id].to_guest);
					pvp_lat_init(&rl.ow[id].from_guest);
					rl.ow[id].unstamped = 0;
					stamped[id] = 0;
				}
				pvp_seq_update(&shadow[id], rte_be_to_cpu_32(sig->seq));
				stamped[id] += pvp_sig_guest_stamp_read(m, sig) != 0;
				signed_rx++;
			}
		}
		n_frames++;
	}

	/* pvpkit-gen's RX loop, until the port is empty. */
	q = rl.srq[0];
	q->packets = q->bytes = 0;
	rl.unsigned_rx = rl.unknown_stream = rl.neigh_rx = 0;
	freed = 0;
	while (gen_rx_poll(&gen, &rl) != 0)
		;

	FUZZ_CHECK(next_frame == n_frames, "%u of %u frames taken", next_frame, n_frames);
	FUZZ_CHECK(freed == n_frames, "%lu of %u mbufs freed", freed, n_frames);
	FUZZ_CHECK(q->packets == n_frames && q->bytes == want_bytes,
		   "RX queue counted %llu packets %llu bytes, want %u %llu",
		   (unsigned long long)q->packets, (unsigned long long)q->bytes, n_frames,
		   (unsigned long long)want_bytes);
	FUZZ_CHECK(rl.neigh_rx == want_neigh, "ARP/ND %llu (want %llu)",
		   (unsigned long long)rl.neigh_rx, (unsigned long long)want_neigh);
	FUZZ_CHECK(rl.unsigned_rx == want_nosig && rl.unknown_stream == want_bad,
		   "unsigned %llu (want %llu), unknown stream %llu (want %llu)",
		   (unsigned long long)rl.unsigned_rx, (unsigned long long)want_nosig,
		   (unsigned long long)rl.unknown_stream, (unsigned long long)want_bad);
	for (i = 0; i < n_ids; i++) {
		const struct gen_ws_rx *r = &rl.ws[ids[i]];
		const struct pvp_seq *s = &shadow[ids[i]];

		FUZZ_CHECK(r->seq.rx == s->rx && r->seq.dup == s->dup && r->seq.ooo == s->ooo &&
				   r->seq.gaps == s->gaps && r->seq.next == s->next &&
				   r->seq.started == s->started &&
				   memcmp(r->seq.window, s->window, sizeof(s->window)) == 0,
			   "stream %u: inline tracker rx %llu dup %llu ooo %llu gaps %llu next %u, "
			   "pvp_seq_update rx %llu dup %llu ooo %llu gaps %llu next %u",
			   ids[i], (unsigned long long)r->seq.rx, (unsigned long long)r->seq.dup,
			   (unsigned long long)r->seq.ooo, (unsigned long long)r->seq.gaps,
			   r->seq.next, (unsigned long long)s->rx, (unsigned long long)s->dup,
			   (unsigned long long)s->ooo, (unsigned long long)s->gaps, s->next);
		FUZZ_CHECK(s->dup <= s->rx && pvp_seq_lost(s, s->rx) == s->dup,
			   "stream %u: dup %llu of rx %llu", ids[i], (unsigned long long)s->dup,
			   (unsigned long long)s->rx);
		check_lat(&r->lat, r->seq.rx, ids[i]);
		FUZZ_CHECK(
			rl.ow[ids[i]].to_guest.count == stamped[ids[i]] &&
				rl.ow[ids[i]].from_guest.count == stamped[ids[i]] &&
				rl.ow[ids[i]].unstamped + stamped[ids[i]] == r->seq.rx,
			"stream %u: one-way %llu/%llu samples, %llu unstamped, want %llu of %llu",
			ids[i], (unsigned long long)rl.ow[ids[i]].to_guest.count,
			(unsigned long long)rl.ow[ids[i]].from_guest.count,
			(unsigned long long)rl.ow[ids[i]].unstamped,
			(unsigned long long)stamped[ids[i]], (unsigned long long)r->seq.rx);
		signed_rx -= r->seq.rx;
		touched[ids[i]] = 0;
	}
	FUZZ_CHECK(signed_rx == 0, "%llu signed frames counted in no stream",
		   (unsigned long long)signed_rx);
	for (i = 0; i < n_frames; i++)
		free(bufs[i]);
	return 0;
}

void
fuzz_cleanup(void)
{
	if (!ready)
		return;
	ready = false;
	free(rl.ws);
	free(rl.ow);
	pvp_stats_destroy(gen.stats);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int ops;

	ops = rte_mempool_register_ops(&pool_ops);
	if (ops < 0)
		abort();
	pool.ops_index = ops;
	pool.cache_size = 0;

	rte_eth_fp_ops[0].rx_pkt_burst = fuzz_rx_burst;
	rte_eth_fp_ops[0].rxq.data = rxq_data;
	rte_eth_fp_ops[0].rxq.clbk = rxq_clbk;

	gen.nb_ports = 1;
	/* The loaded profile's wire streams: signed frames of other ids
	 * count as unknown_stream. */
	gen.nb_ws = 8;
	gen.port[0].eth_port = 0;
	gen.hz = 2000000000;
	gen.stats = pvp_stats_create("rx-fuzz", 1, 1, 1);
	if (gen.stats == NULL)
		abort();
	/* No RX lcore yet: sets the TSC scale and allocates nothing. */
	gen.rx.nb = 0;
	if (gen_rx_setup(&gen) != 0)
		abort();
	rl.queue = 0;
	rl.ws = aligned_alloc(RTE_CACHE_LINE_SIZE, sizeof(*rl.ws) * GEN_MAX_WSTREAMS);
	if (rl.ws == NULL)
		abort();
	/* One-way latency on, as oneway.set leaves it after a shared clock. */
	rl.ow = aligned_alloc(RTE_CACHE_LINE_SIZE, sizeof(*rl.ow) * GEN_MAX_WSTREAMS);
	if (rl.ow == NULL)
		abort();
	gen.oneway.on = true;
	rl.srq[0] = pvp_stats_rxq(gen.stats, 0, 0);
	gen.rx.nb = 1;
	gen.rx.rl[0] = &rl;
	ready = true;
	atexit(fuzz_cleanup);
	return 0;
}
