/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TX engine: one lcore per (port, queue). Each wire stream has its own
 * mempool whose mbufs were filled with the stream's template when the
 * pool was populated (gen_ws_obj_init in stream.c), so per packet only the
 * mbuf fields that free() or a PMD may have changed are reset, the flow's
 * varying bytes are written (from the flow cache, or incrementally), and
 * the signature is stamped. Pacing is a token bucket on the TSC: the
 * target count at time t is base + (t - t0) * pps / hz; a backlog larger
 * than --catchup-us worth of packets (after a stall) is given up and
 * counted as "late" instead of being sent as one long burst.
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>
#include <rte_mempool.h>
#include <rte_pause.h>
#include <rte_vect.h>

#include "gen.h"

/*
 * Stamp seq and tx_ts of the signature and fix the checksums covering
 * them. Inline equivalent of pvp_sig_stamp(): the per-packet cost of a
 * call was visible in the benchmark.
 */
static __rte_always_inline void
gen_stamp(const struct pvp_tmpl *t, uint8_t *pkt, uint32_t seq, uint32_t ts)
{
	uint16_t *w = (uint16_t *)(pkt + t->sig_off + 6);
	uint32_t nseq = rte_cpu_to_be_32(seq);
	uint16_t n[4];
	uint32_t delta;

	memcpy(&n[0], &nseq, 4);
	memcpy(&n[2], &ts, 4);
	delta = (uint16_t)~w[0] + (uint16_t)~w[1] + (uint16_t)~w[2] + (uint16_t)~w[3] + n[0] +
		n[1] + n[2] + n[3];
	memcpy(w, n, 8);
	gen_csum_fix(pkt, &t->sig_csum, delta);
}

/*
 * Stamp seq and tx_ts into a frame whose other bytes are its template's
 * and set the one checksum covering them from @p sum: what it covers less
 * seq, plus this burst's tx_ts words (gen_wstream.sig_sum). Nothing of the
 * frame is read: two stores, and no dependency on the frame's last trip.
 */
static __rte_always_inline void
gen_stamp_sum(uint8_t *pkt, uint16_t sig_off, uint16_t csum_off, uint32_t sum, uint32_t seq,
	      uint64_t ts_hi, bool udp)
{
	uint32_t nseq = rte_cpu_to_be_32(seq);
	uint64_t sig = ts_hi | nseq;
	uint16_t r = (uint16_t)~gen_fold(sum + (nseq & 0xffff) + (nseq >> 16));

	if (udp && r == 0)
		r = 0xffff;
	memcpy(pkt + sig_off + 6, &sig, 8);
	memcpy(pkt + csum_off, &r, 2);
}

/*
 * The checksum field value (host byte order) for a covered sum @p sum
 * (memory order, unfolded) plus the 32-bit big-endian value @p v.
 */
static __rte_always_inline uint32_t
gen_csum_host(uint32_t sum, uint32_t v, bool udp)
{
	uint32_t nv = rte_cpu_to_be_32(v);
	uint16_t r = (uint16_t)~gen_fold(sum + (nv & 0xffff) + (nv >> 16));

	if (udp && r == 0)
		r = 0xffff;
	return rte_be_to_cpu_16(r);
}

/*
 * Checksum @p r (host byte order) of a frame whose covered big-endian
 * 32-bit fields, as a sum, grew by @p d (one's complement: a 32-bit field
 * counts as its value mod 0xffff, so value + 1 adds 1 unless it wraps
 * 2^32). The sum's +d is the checksum's -d, wrapping below @p lim:
 * d + 1 for UDP (0xffff stands for 0, a UDP checksum is never 0), d for
 * TCP and IP (never 0xffff).
 */
static __rte_always_inline uint32_t
gen_csum_sub(uint32_t r, uint32_t d, uint32_t lim)
{
	return r - d + (r < lim ? 0xffff : 0);
}

/* Write one variable's new value (big endian) and fix its checksums. */
static __rte_always_inline void
gen_var_write(uint8_t *pkt, const struct pvp_slot *sl, uint32_t v)
{
	uint32_t delta;

	if (sl->len == 4) {
		uint16_t *w = (uint16_t *)(pkt + sl->off);
		uint32_t nv = rte_cpu_to_be_32(v);
		uint16_t n[2];

		memcpy(n, &nv, 4);
		delta = (uint16_t)~w[0] + (uint16_t)~w[1] + n[0] + n[1];
		w[0] = n[0];
		w[1] = n[1];
	} else if (sl->len == 2) {
		uint16_t *w = (uint16_t *)(pkt + sl->off);
		uint16_t nv = rte_cpu_to_be_16((uint16_t)v);

		delta = (uint16_t) ~*w + nv;
		*w = nv;
	} else {
		/* One byte: work on the aligned 16-bit word holding it. */
		uint16_t *w = (uint16_t *)(pkt + (sl->off & ~1u));
		uint16_t old = *w;

		pkt[sl->off] = (uint8_t)v;
		delta = (uint16_t)~old + *w;
	}
	gen_csum_fix(pkt, &sl->csum, delta);
}

/* Position every fast variable on flow @p f. */
static void
gen_vars_seek(struct gen_wstream *w, uint64_t f)
{
	const struct pvp_stream *ps = w->st->ps;
	uint32_t i;

	for (i = 0; i < ps->n_vars; i++) {
		const struct pvp_var *v = &ps->vars[i];

		w->vs[i].cur = pvp_var_value(v, f);
		w->vs[i].sub = v->div - (f % v->div);
	}
}

/* Move the fast variables to the next flow. */
static __rte_always_inline void
gen_vars_next(struct gen_wstream *w, const struct pvp_stream *ps)
{
	uint32_t i;

	if (unlikely(++w->flow == w->flow_hi)) {
		w->flow = w->flow_lo;
		gen_vars_seek(w, w->flow);
		return;
	}
	for (i = 0; i < ps->n_vars; i++) {
		const struct pvp_var *v = &ps->vars[i];
		struct gen_var_state *s = &w->vs[i];
		uint64_t range = (uint64_t)v->max - v->min + 1;
		int64_t nv;

		if (--s->sub != 0)
			continue;
		s->sub = v->div;
		if (v->op == PVP_VAR_INC) {
			nv = (int64_t)s->cur + v->step;
			if (nv > (int64_t)v->max)
				nv -= (int64_t)range;
		} else {
			nv = (int64_t)s->cur - v->step;
			if (nv < (int64_t)v->min)
				nv += (int64_t)range;
		}
		s->cur = (uint32_t)nv;
	}
}

void
gen_ws_reset(struct gen_wstream *w)
{
	w->flow = w->flow_lo;
	w->order_idx = 0;
	w->seq = 0;
	if (w->st->fast_vars)
		gen_vars_seek(w, w->flow);
}

/* Reset the mbuf fields a previous trip through free() or a PMD may change. */
static __rte_always_inline void
gen_mbuf_prep(struct rte_mbuf *m, uint64_t rearm, uint16_t len)
{
	/*
	 * Two 16 B stores: rearm word + ol_flags, then packet_type,
	 * pkt_len, data_len, vlan_tci and hash (zeroed), as PMDs do on RX.
	 */
	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, ol_flags) !=
			 offsetof(struct rte_mbuf, rearm_data) + 8);
	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, pkt_len) !=
			 offsetof(struct rte_mbuf, rx_descriptor_fields1) + 4);
	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, data_len) !=
			 offsetof(struct rte_mbuf, rx_descriptor_fields1) + 8);
#ifdef RTE_ARCH_X86
	_mm_storeu_si128((__m128i *)RTE_PTR_ADD(m, offsetof(struct rte_mbuf, rearm_data)),
			 _mm_set_epi64x(0, (long long)rearm));
	_mm_storeu_si128(
		(__m128i *)RTE_PTR_ADD(m, offsetof(struct rte_mbuf, rx_descriptor_fields1)),
		_mm_set_epi64x((long long)len, (long long)len << 32));
#else
	*(uint64_t *)RTE_PTR_ADD(m, offsetof(struct rte_mbuf, rearm_data)) = rearm;
	m->ol_flags = 0;
	m->packet_type = 0;
	m->pkt_len = len;
	m->data_len = len;
#endif
}

/*
 * Take @p n mbufs from @p mp: straight from this lcore's cache @p c when
 * it holds enough (the PMD's frees refill it), else rte_mempool_get_bulk().
 * The mempool's own cache path copies the pointers one by one in reverse;
 * this is a forward copy of the cache's top n (the most recently freed,
 * still in the CPU cache). Returns 0, or -ENOBUFS with nothing taken.
 */
static __rte_always_inline int
gen_mp_get(struct rte_mempool *mp, struct rte_mempool_cache *c, struct rte_mbuf **pkts,
	   unsigned int n)
{
	if (likely(c != NULL && c->len >= n)) {
		c->len -= n;
		rte_memcpy(pkts, &c->objs[c->len], n * sizeof(void *));
		return 0;
	}
	return rte_mempool_get_bulk(mp, (void **)pkts, n);
}

/*
 * Take @p n mbufs for the next packets of a tmpl_pools stream: each from
 * the pool of the template its place in the size cycle asks for, one bulk
 * get per template. Returns 0, or -ENOBUFS with nothing taken.
 */
static __rte_always_inline int
gen_ws_get_tmpl(struct gen_wstream *w, struct rte_mbuf **pkts, unsigned int n, unsigned int lcore)
{
	const struct pvp_stream *ps = w->st->ps;
	void *objs[GEN_TMPL_POOLS][GEN_BURST];
	unsigned int cnt[GEN_TMPL_POOLS] = {0}, pos[GEN_TMPL_POOLS] = {0};
	uint8_t *tk = w->burst_tmpl;
	uint32_t idx = w->order_idx;
	unsigned int i, t;

	for (i = 0; i < n; i++) {
		t = ps->order[idx];
		tk[i] = (uint8_t)t;
		cnt[t]++;
		if (++idx == ps->n_order)
			idx = 0;
	}
	for (t = 0; t < ps->n_tmpl; t++) {
		if (cnt[t] != 0 &&
		    gen_mp_get(w->tmpl_mp[t], rte_mempool_default_cache(w->tmpl_mp[t], lcore),
			       (struct rte_mbuf **)objs[t], cnt[t]) != 0) {
			while (t-- > 0)
				if (cnt[t] != 0)
					rte_mempool_put_bulk(w->tmpl_mp[t], objs[t], cnt[t]);
			return -ENOBUFS;
		}
	}
	for (i = 0; i < n; i++) {
		t = tk[i];
		pkts[i] = objs[t][pos[t]++];
	}
	return 0;
}

/*
 * Build @p n packets of a sig_base stream of one template and one flow:
 * only seq and tx_ts change. The checksum is computed for the burst's
 * first packet; each next seq is the checksum - 1 (gen_csum_sub), except
 * across 2^32, where every packet's is computed. Nothing of the frame is
 * read. Not inlined: in the lcore loop its state would not fit in the
 * registers. Returns the next seq.
 */
static __rte_noinline uint32_t
gen_build_one(const struct gen_wstream *w, struct rte_mbuf **pkts, unsigned int n, uint64_t rearm,
	      uint32_t seq, uint32_t ts)
{
	const struct pvp_tmpl *t = &w->st->ps->tmpl[0];
	/* The data starts at data_off, which the rearm word sets. */
	const uint16_t sig_off = RTE_PKTMBUF_HEADROOM + t->sig_off + 6;
	const uint16_t csum_off = RTE_PKTMBUF_HEADROOM + t->sig_csum.off[0];
	const uint16_t len = t->len;
	const bool udp = (t->sig_csum.flags[0] & PVP_CSUM_F_UDP) != 0;
	const uint32_t sum = w->sig_sum[0] + (ts & 0xffff) + (ts >> 16);
	const uint64_t ts_hi = (uint64_t)ts << 32;
	const uint32_t lim = 1 + udp;
	uint32_t r = gen_csum_host(sum, seq, udp);
	unsigned int i;

	if (unlikely(seq > UINT32_MAX - n)) {
		for (i = 0; i < n; i++, seq++) {
			gen_mbuf_prep(pkts[i], rearm, len);
			gen_stamp_sum(rte_pktmbuf_mtod(pkts[i], uint8_t *), t->sig_off,
				      t->sig_csum.off[0], sum, seq, ts_hi, udp);
		}
		return seq;
	}
	for (i = 0; i < n; i++) {
		uint8_t *b = pkts[i]->buf_addr;
		uint64_t sig = ts_hi | rte_cpu_to_be_32(seq + i);
		uint16_t c = rte_cpu_to_be_16((uint16_t)r);

		gen_mbuf_prep(pkts[i], rearm, len);
		memcpy(b + sig_off, &sig, 8);
		memcpy(b + csum_off, &c, 2);
		r = gen_csum_sub(r, 1, lim);
	}
	return seq + n;
}

/*
 * Build @p n packets of an inc1_merge stream (the --flows shortcut): the
 * source address and the signature change. Both checksums are computed
 * from sums (gen_wstream.ip_sum, l4_sum) for a burst's first packet and
 * after a wrap; in between, address + 1 and seq + 1 are IP checksum - 1
 * and L4 checksum - 2. Nothing of the frame is read. Returns the next seq.
 */
static __rte_noinline uint32_t
gen_build_inc1(struct gen_wstream *w, struct rte_mbuf **pkts, unsigned int n, uint64_t rearm,
	       uint32_t seq, uint32_t ts)
{
	const struct pvp_stream *ps = w->st->ps;
	const struct pvp_tmpl *t = &ps->tmpl[0];
	const struct pvp_slot *sl = &t->slot[0];
	const uint32_t vmin = ps->vars[0].min, vmax = ps->vars[0].max;
	const uint64_t hi = w->flow_hi;
	const uint16_t a_off = RTE_PKTMBUF_HEADROOM + sl->off;
	const uint16_t ip_off = RTE_PKTMBUF_HEADROOM + sl->csum.off[0];
	const uint16_t l4_off = RTE_PKTMBUF_HEADROOM + t->sig_csum.off[0];
	const uint16_t sig_off = RTE_PKTMBUF_HEADROOM + t->sig_off + 6;
	const uint16_t len = t->len;
	const bool udp = (t->sig_csum.flags[0] & PVP_CSUM_F_UDP) != 0;
	const uint32_t ip_sum = w->ip_sum;
	const uint32_t l4_sum = w->l4_sum + (ts & 0xffff) + (ts >> 16);
	const uint64_t ts_hi = (uint64_t)ts << 32;
	const uint32_t lim = 2 + udp;
	uint32_t v = w->vs[0].cur;
	uint64_t flow = w->flow;
	unsigned int i = 0;

	while (i < n) {
		/* This packet's checksums from the sums, then as many easy steps as fit. */
		uint32_t nv = rte_cpu_to_be_32(v);
		uint32_t sa = (nv & 0xffff) + (nv >> 16);
		uint32_t ipr = gen_csum_host(ip_sum + sa, 0, false);
		uint32_t l4r = gen_csum_host(l4_sum + sa, seq, udp);
		uint64_t easy = RTE_MIN((uint64_t)vmax - v, hi - flow - 1);
		unsigned int k, end;

		easy = RTE_MIN(easy, (uint64_t)UINT32_MAX - seq);
		end = (unsigned int)RTE_MIN((uint64_t)n - i, easy + 1);
		for (k = 0; k < end; k++) {
			uint8_t *b = pkts[i + k]->buf_addr;
			uint32_t a = rte_cpu_to_be_32(v + k);
			uint64_t sig = ts_hi | rte_cpu_to_be_32(seq + k);
			uint16_t c;

			gen_mbuf_prep(pkts[i + k], rearm, len);
			memcpy(b + a_off, &a, 4);
			memcpy(b + sig_off, &sig, 8);
			c = rte_cpu_to_be_16((uint16_t)ipr);
			memcpy(b + ip_off, &c, 2);
			c = rte_cpu_to_be_16((uint16_t)l4r);
			memcpy(b + l4_off, &c, 2);
			ipr = gen_csum_sub(ipr, 1, 1);
			l4r = gen_csum_sub(l4r, 2, lim);
		}
		/* end - 1 easy steps, then one that may wrap. */
		i += end;
		seq += end;
		v += end - 1;
		flow += end - 1;
		if (unlikely(++flow == hi)) {
			flow = w->flow_lo;
			gen_vars_seek(w, flow);
			v = w->vs[0].cur;
		} else {
			v = v == vmax ? vmin : v + 1;
		}
	}
	w->flow = flow;
	w->vs[0].cur = v;
	return seq;
}

/*
 * Build @p n packets of a sig_base stream with one pool per template
 * (IMIX of one flow): each mbuf already holds its template, noted in
 * w->burst_tmpl by gen_ws_get_tmpl(). Each template's checksum is
 * computed for the burst's first seq; packet i of the burst has it - i
 * (gen_csum_sub). Adds the bytes built to @p bytes. Returns the next seq.
 */
static __rte_noinline uint32_t
gen_build_tmpl(struct gen_wstream *w, struct rte_mbuf **pkts, unsigned int n, uint64_t rearm,
	       uint32_t seq, uint32_t ts, uint64_t *bytes)
{
	const struct pvp_stream *ps = w->st->ps;
	const uint16_t csum_off = RTE_PKTMBUF_HEADROOM + ps->tmpl[0].sig_csum.off[0];
	const bool udp = (ps->tmpl[0].sig_csum.flags[0] & PVP_CSUM_F_UDP) != 0;
	const uint32_t tsum = (ts & 0xffff) + (ts >> 16);
	const uint64_t ts_hi = (uint64_t)ts << 32;
	const bool wraps = seq > UINT32_MAX - n;
	const uint8_t *tk = w->burst_tmpl;
	uint32_t r0[GEN_TMPL_POOLS];
	uint16_t len[GEN_TMPL_POOLS], sig_off[GEN_TMPL_POOLS];
	uint64_t b = 0;
	unsigned int i, k;

	for (k = 0; k < ps->n_tmpl; k++) {
		r0[k] = gen_csum_host(w->sig_sum[k] + tsum, seq, udp);
		len[k] = ps->tmpl[k].len;
		sig_off[k] = RTE_PKTMBUF_HEADROOM + ps->tmpl[k].sig_off + 6;
	}
	for (i = 0; i < n; i++) {
		uint8_t *d = pkts[i]->buf_addr;
		uint64_t sig = ts_hi | rte_cpu_to_be_32(seq + i);
		uint16_t c;

		k = tk[i];
		if (unlikely(wraps))
			c = rte_cpu_to_be_16(
				(uint16_t)gen_csum_host(w->sig_sum[k] + tsum, seq + i, udp));
		else
			c = rte_cpu_to_be_16((uint16_t)gen_csum_sub(r0[k], i, i + udp));
		gen_mbuf_prep(pkts[i], rearm, len[k]);
		memcpy(d + sig_off[k], &sig, 8);
		memcpy(d + csum_off, &c, 2);
		b += len[k];
	}
	w->order_idx = (uint32_t)((w->order_idx + n) % ps->n_order);
	*bytes += b;
	return seq + n;
}

/*
 * Build @p n packets of wire stream @p w into @p pkts (taken from its
 * pool). Returns the bytes built.
 */
static __rte_always_inline uint64_t
gen_build(struct gen_wstream *w, struct rte_mbuf **pkts, unsigned int n, uint64_t rearm,
	  uint32_t ts)
{
	const struct gen_stream *st = w->st;
	const struct pvp_stream *ps = st->ps;
	uint32_t seq = w->seq;
	uint64_t bytes = 0;
	unsigned int i, j;

	if (st->tmpl_pools && st->sig_base) {
		seq = gen_build_tmpl(w, pkts, n, rearm, seq, ts, &bytes);
	} else if (st->tmpl_pools) {
		/* Each mbuf already holds its template (gen_ws_get_tmpl()). */
		for (i = 0; i < n; i++) {
			const struct pvp_tmpl *t = &ps->tmpl[ps->order[w->order_idx]];

			if (++w->order_idx == ps->n_order)
				w->order_idx = 0;
			gen_mbuf_prep(pkts[i], rearm, t->len);
			if (t->sig_off != 0)
				gen_stamp(t, rte_pktmbuf_mtod(pkts[i], uint8_t *), seq++, ts);
			bytes += t->len;
		}
	} else if (st->multi_tmpl) {
		for (i = 0; i < n; i++) {
			const struct pvp_tmpl *t = &ps->tmpl[ps->order[w->order_idx]];
			uint8_t *d;

			if (++w->order_idx == ps->n_order)
				w->order_idx = 0;
			gen_mbuf_prep(pkts[i], rearm, t->len);
			d = rte_pktmbuf_mtod(pkts[i], uint8_t *);
			rte_memcpy(d, w->tdata[t - ps->tmpl], t->len);
			if (ps->flows > 1) {
				pvp_flow_apply(ps, t, w->flow, d);
				if (++w->flow == w->flow_hi)
					w->flow = w->flow_lo;
			}
			if (t->sig_off != 0)
				gen_stamp(t, d, seq++, ts);
			bytes += t->len;
		}
	} else {
		const struct pvp_tmpl *t = &ps->tmpl[0];
		uint16_t len = t->len;

		/*
		 * One loop per case, state in locals: byte stores into the
		 * packet may alias anything, so fields of *w would be reloaded
		 * after every one.
		 */
		if (st->sig_base) {
			seq = gen_build_one(w, pkts, n, rearm, seq, ts);
		} else if (ps->flows == 1 && t->sig_off != 0) {
			for (i = 0; i < n; i++) {
				gen_mbuf_prep(pkts[i], rearm, len);
				gen_stamp(t, rte_pktmbuf_mtod(pkts[i], uint8_t *), seq++, ts);
			}
		} else if (st->cache_flows != 0 && t->sig_off != 0) {
			const uint8_t *img = w->cache + (w->flow - w->flow_lo) * st->hdr_copy;
			const uint8_t *end = w->cache + (w->flow_hi - w->flow_lo) * st->hdr_copy;
			uint16_t hc = st->hdr_copy;

			for (i = 0; i < n; i++) {
				uint8_t *d = rte_pktmbuf_mtod(pkts[i], uint8_t *);

				gen_mbuf_prep(pkts[i], rearm, len);
				rte_memcpy(d, img, hc);
				img += hc;
				if (img == end)
					img = w->cache;
				gen_stamp(t, d, seq++, ts);
			}
			w->flow = w->flow_lo + (uint64_t)(img - w->cache) / hc;
		} else if (st->inc1_merge) {
			seq = gen_build_inc1(w, pkts, n, rearm, seq, ts);
		} else if (st->fast_inc1 && t->sig_off != 0) {
			/* One address +1 per flow, wrapping: no per-var loop. */
			const struct pvp_slot *sl = &t->slot[0];
			uint32_t v = w->vs[0].cur, vmin = ps->vars[0].min, vmax = ps->vars[0].max;
			uint64_t flow = w->flow, hi = w->flow_hi;

			for (i = 0; i < n; i++) {
				uint8_t *d = rte_pktmbuf_mtod(pkts[i], uint8_t *);

				gen_mbuf_prep(pkts[i], rearm, len);
				gen_var_write(d, sl, v);
				if (unlikely(++flow == hi)) {
					w->flow = flow = w->flow_lo;
					gen_vars_seek(w, flow);
					v = w->vs[0].cur;
				} else {
					v = v == vmax ? vmin : v + 1;
				}
				gen_stamp(t, d, seq++, ts);
			}
			w->flow = flow;
			w->vs[0].cur = v;
		} else {
			for (i = 0; i < n; i++) {
				uint8_t *d;

				gen_mbuf_prep(pkts[i], rearm, len);
				d = rte_pktmbuf_mtod(pkts[i], uint8_t *);
				if (st->cache_flows != 0) {
					rte_memcpy(d,
						   w->cache + (w->flow - w->flow_lo) * st->hdr_copy,
						   st->hdr_copy);
					if (++w->flow == w->flow_hi)
						w->flow = w->flow_lo;
				} else if (st->fast_vars) {
					for (j = 0; j < ps->n_vars; j++)
						gen_var_write(d, &t->slot[j], w->vs[j].cur);
					gen_vars_next(w, ps);
				} else if (ps->flows > 1) {
					pvp_flow_apply(ps, t, w->flow, d);
					if (++w->flow == w->flow_hi)
						w->flow = w->flow_lo;
				}
				if (t->sig_off != 0)
					gen_stamp(t, d, seq++, ts);
			}
		}
		bytes = (uint64_t)len * n;
	}
	w->seq = seq;
	return bytes;
}

/* Packets wire stream @p w may send now (pacing, limits, bursts). */
static __rte_always_inline unsigned int
gen_ws_budget(struct gen_tx_lcore *tl, struct gen_wstream *w, uint64_t now, double cyc2pkt,
	      uint64_t catchup)
{
	uint64_t n = GEN_BURST;

	if (w->burst_pkts != 0) {
		if (w->burst_sent == w->burst_pkts) {
			if (w->gap_until == 0) {
				/* A burst just ended. */
				if (++w->bursts_done >= RTE_MAX(w->nb_bursts, 1u)) {
					w->done = true;
					return 0;
				}
				w->gap_until = now + w->gap_tsc + 1;
			}
			if (now < w->gap_until)
				return 0;
			/* Next burst: pacing starts over from here. */
			w->gap_until = 0;
			w->burst_sent = 0;
			w->t0 = now;
			w->n0 = w->sent_run;
		}
		if (n > w->burst_pkts - w->burst_sent)
			n = w->burst_pkts - w->burst_sent;
	}
	if (w->limit != 0) {
		if (w->sent_run >= w->limit) {
			w->done = true;
			return 0;
		}
		if (n > w->limit - w->sent_run)
			n = w->limit - w->sent_run;
	}
	if (cyc2pkt > 0) {
		uint64_t target = w->n0 + (uint64_t)((double)(now - w->t0) * cyc2pkt);

		if (target <= w->sent_run)
			return 0;
		if (target - w->sent_run > catchup) {
			uint64_t skip = target - w->sent_run - catchup;

			/* Give the slots up: n0 moves so target drops by skip. */
			w->n0 -= skip;
			w->tx.late += skip;
			target -= skip;
		}
		if (n > target - w->sent_run)
			n = target - w->sent_run;
	}
	RTE_SET_USED(tl);
	return (unsigned int)n;
}

/* Take in a new run or rate set by the control side. */
static void
gen_tx_take_run(struct gen_tx_lcore *tl, uint64_t now)
{
	uint16_t i;

	for (i = 0; i < tl->nb_ws; i++) {
		struct gen_wstream *w = tl->ws[i];

		w->t0 = now;
		w->n0 = w->sent_run;
	}
}

int
gen_tx_lcore_main(void *arg)
{
	struct gen_tx_lcore *tl = arg;
	struct gen_ctx *g = &gen;
	struct rte_mbuf *pkts[GEN_BURST];
	uint32_t seen_gen = 0;
	uint64_t rearm, prev_tsc = 0;
	unsigned int prev_sent = 0;
	double cyc2pkt[GEN_MAX_STREAMS];
	uint64_t catchup[GEN_MAX_STREAMS];
	struct rte_mbuf tmpl_mbuf;
	const unsigned int lcore = rte_lcore_id();

	/* The rearm word PMDs write: data_off, refcnt 1, one segment, port. */
	memset(&tmpl_mbuf, 0, sizeof(tmpl_mbuf));
	tmpl_mbuf.data_off = RTE_PKTMBUF_HEADROOM;
	rte_mbuf_refcnt_set(&tmpl_mbuf, 1);
	tmpl_mbuf.nb_segs = 1;
	tmpl_mbuf.port = tl->eth_port;
	rearm = *(uint64_t *)RTE_PTR_ADD(&tmpl_mbuf, offsetof(struct rte_mbuf, rearm_data));

	GEN_LOG(INFO, "TX lcore %u: port %u queue %u", rte_lcore_id(), tl->eth_port, tl->queue);
	while (!g->quit) {
		/* State first: control writes run_gen before state. */
		uint32_t state = __atomic_load_n(&tl->state, __ATOMIC_ACQUIRE);
		uint32_t rg = __atomic_load_n(&tl->run_gen, __ATOMIC_ACQUIRE);
		uint64_t now;
		unsigned int sent_any = 0, active = 0;
		uint16_t i;

		if (rg != seen_gen) {
			now = rte_rdtsc();
			for (i = 0; i < tl->nb_ws; i++) {
				struct gen_wstream *w = tl->ws[i];

				cyc2pkt[i] = w->pps > 0 ? w->pps / (double)g->hz : 0;
				catchup[i] = w->pps > 0
						     ? RTE_MAX((uint64_t)GEN_BURST,
							       (uint64_t)(w->pps *
									  g->opt.catchup_us / 1e6))
						     : 0;
			}
			gen_tx_take_run(tl, now);
			seen_gen = rg;
			__atomic_store_n(&tl->acked_gen, rg, __ATOMIC_RELEASE);
		}
		if (state != GEN_TX_RUN) {
			prev_sent = 0;
			__atomic_store_n(&tl->stopped, 1, __ATOMIC_RELEASE);
			if (g->opt.idle_sleep_us != 0)
				usleep(g->opt.idle_sleep_us);
			else
				rte_pause();
			continue;
		}
		__atomic_store_n(&tl->stopped, 0, __ATOMIC_RELEASE);
		/*
		 * One TSC read per turn: pacing, the burst's TX timestamp and
		 * the busy-cycles account all use it (rdtsc traps in some VMs).
		 */
		now = rte_rdtsc();
		if (prev_sent != 0)
			tl->cycles_busy += now - prev_tsc;
		prev_tsc = now;
		for (i = 0; i < tl->nb_ws; i++) {
			struct gen_wstream *w = tl->ws[i];
			unsigned int n, sent, offered, tries;
			uint64_t bytes;

			if (w->done)
				continue;
			active++;
			n = gen_ws_budget(tl, w, now, cyc2pkt[i], catchup[i]);
			if (n == 0)
				continue;
			if (w->st->tmpl_pools) {
				if (gen_ws_get_tmpl(w, pkts, n, lcore) != 0)
					continue; /* all mbufs in flight: try again later */
			} else if (gen_mp_get(w->mp, rte_mempool_default_cache(w->mp, lcore), pkts,
					      n) != 0) {
				continue;
			}
			bytes = gen_build(w, pkts, n, rearm, (uint32_t)now);
			sent = rte_eth_tx_burst(tl->eth_port, tl->queue, pkts, (uint16_t)n);
			for (tries = 0; sent < n && tries < g->opt.tx_retry; tries++)
				sent += rte_eth_tx_burst(tl->eth_port, tl->queue, pkts + sent,
							 (uint16_t)(n - sent));
			offered = sent;
			if (unlikely(sent < n)) {
				unsigned int k;
				uint64_t ub = 0;

				for (k = sent; k < n; k++)
					ub += pkts[k]->pkt_len;
				if (w->st->tmpl_pools)
					for (k = sent; k < n; k++)
						rte_mempool_put(pkts[k]->pool, pkts[k]);
				else
					rte_mempool_put_bulk(w->mp, (void **)pkts + sent, n - sent);
				/*
				 * retry: the tail's sequence numbers and pacing
				 * slots are used again by the next burst. drop:
				 * they are spent, so the receiver sees a gap
				 * and the offered rate is kept.
				 */
				if (g->opt.tx_full_drop)
					offered = n;
				else
					w->seq -= n - sent;
				bytes -= ub;
				w->tx.unsent += n - sent;
			}
			w->sent_run += offered;
			w->burst_sent += offered;
			w->tx.packets += sent;
			w->tx.bytes += bytes;
			pvp_stats_txq_add(tl->stq, sent, bytes, n - sent);
			sent_any += sent;
		}
		/* Cycles of a turn that sent are counted at the next turn. */
		prev_sent = sent_any;
		if (sent_any != 0) {
			tl->pkts_busy += sent_any;
		} else if (active == 0) {
			/* Every stream is done: the run is over for this lcore. */
			tl->finish_tsc = now;
			__atomic_store_n(&tl->state, GEN_TX_IDLE, __ATOMIC_RELEASE);
		} else if (g->opt.idle_sleep_us != 0) {
			usleep(g->opt.idle_sleep_us);
		}
	}
	__atomic_store_n(&tl->stopped, 1, __ATOMIC_RELEASE);
	return 0;
}
