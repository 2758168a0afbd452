/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * How the TX engine builds packets, one builder per kind of stream
 * (testpmd's macswap.h shape): the signature stamp and the checksum
 * arithmetic, the field engine's incremental moves, the mbuf reset, and
 * gen_build() which picks the path a stream takes (gen_stream's flags,
 * set once at setup by stream.c). Inline, for tx.c only: the per-packet
 * cost of a call was visible in the benchmark, and the noinline
 * builders keep their state in registers of their own.
 */

#ifndef GEN_TX_BUILD_H
#define GEN_TX_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>
#include <rte_vect.h>

#include "gen.h"
#include "tpg.h"

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
 * IMIX of one flow whose templates sit under more than one checksum: each
 * mbuf of its template's pool already holds it (gen_ws_get_tmpl()); the
 * signature is stamped. Adds the bytes to @p bytes. Returns the next seq.
 */
static __rte_always_inline uint32_t
gen_build_pools(struct gen_wstream *w, struct rte_mbuf **pkts, unsigned int n, uint64_t rearm,
		uint32_t seq, uint32_t ts, uint64_t *bytes)
{
	const struct pvp_stream *ps = w->st->ps;
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct pvp_tmpl *t = &ps->tmpl[ps->order[w->order_idx]];

		if (++w->order_idx == ps->n_order)
			w->order_idx = 0;
		gen_mbuf_prep(pkts[i], rearm, t->len);
		if (t->sig_off != 0)
			gen_stamp(t, rte_pktmbuf_mtod(pkts[i], uint8_t *), seq++, ts);
		*bytes += t->len;
	}
	return seq;
}

/*
 * Several templates (IMIX, pcap) with flows, or too many for a pool each:
 * the template is copied into every packet, then its flow applied.
 */
static __rte_always_inline uint32_t
gen_build_multi(struct gen_wstream *w, struct rte_mbuf **pkts, unsigned int n, uint64_t rearm,
		uint32_t seq, uint32_t ts, uint64_t *bytes)
{
	const struct pvp_stream *ps = w->st->ps;
	unsigned int i;

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
		*bytes += t->len;
	}
	return seq;
}

/* One template, one flow, a signature under more than one checksum. */
static __rte_always_inline uint32_t
gen_build_stamp(const struct pvp_tmpl *t, struct rte_mbuf **pkts, unsigned int n, uint64_t rearm,
		uint32_t seq, uint32_t ts)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		gen_mbuf_prep(pkts[i], rearm, t->len);
		gen_stamp(t, rte_pktmbuf_mtod(pkts[i], uint8_t *), seq++, ts);
	}
	return seq;
}

/* One template, its flows' varying bytes copied from the flow cache. */
static __rte_always_inline uint32_t
gen_build_cached(struct gen_wstream *w, const struct pvp_tmpl *t, struct rte_mbuf **pkts,
		 unsigned int n, uint64_t rearm, uint32_t seq, uint32_t ts)
{
	const struct gen_stream *st = w->st;
	const uint8_t *img = w->cache + (w->flow - w->flow_lo) * st->hdr_copy;
	const uint8_t *end = w->cache + (w->flow_hi - w->flow_lo) * st->hdr_copy;
	uint16_t hc = st->hdr_copy, len = t->len;
	unsigned int i;

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
	return seq;
}

/* One template, one address +1 per flow, wrapping: no per-var loop. */
static __rte_always_inline uint32_t
gen_build_fast_inc1(struct gen_wstream *w, const struct pvp_tmpl *t, struct rte_mbuf **pkts,
		    unsigned int n, uint64_t rearm, uint32_t seq, uint32_t ts)
{
	const struct pvp_stream *ps = w->st->ps;
	const struct pvp_slot *sl = &t->slot[0];
	uint32_t v = w->vs[0].cur, vmin = ps->vars[0].min, vmax = ps->vars[0].max;
	uint64_t flow = w->flow, hi = w->flow_hi;
	uint16_t len = t->len;
	unsigned int i;

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
	return seq;
}

/*
 * One template, any other case: a cached image, the fast vars moved
 * incrementally, or the field engine's pvp_flow_apply(); a replayed
 * frame gets no stamp.
 */
static __rte_always_inline uint32_t
gen_build_generic(struct gen_wstream *w, const struct pvp_tmpl *t, struct rte_mbuf **pkts,
		  unsigned int n, uint64_t rearm, uint32_t seq, uint32_t ts)
{
	const struct gen_stream *st = w->st;
	const struct pvp_stream *ps = st->ps;
	uint16_t len = t->len;
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		uint8_t *d;

		gen_mbuf_prep(pkts[i], rearm, len);
		d = rte_pktmbuf_mtod(pkts[i], uint8_t *);
		if (st->cache_flows != 0) {
			rte_memcpy(d, w->cache + (w->flow - w->flow_lo) * st->hdr_copy,
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
	return seq;
}

/*
 * TRex tpg stream (trex/trex_tpg.c): one template without a pvpkit
 * signature, so it always comes here, after the signed streams' cases
 * (they never test for it). Its frames as any unsigned stream's, then
 * the TPG header's seq, little endian as TRex writes it, from @p seq on;
 * no checksum covers it in TRex's frames either. Returns the next seq.
 */
static __rte_noinline uint32_t
gen_build_tpg(struct gen_wstream *w, const struct pvp_tmpl *t, struct rte_mbuf **pkts,
	      unsigned int n, uint64_t rearm, uint32_t seq, uint32_t ts)
{
	const uint16_t off = w->st->tpg_off;
	unsigned int i;

	gen_build_generic(w, t, pkts, n, rearm, seq, ts);
	for (i = 0; i < n; i++) {
		uint32_t v = rte_cpu_to_le_32(seq++);

		memcpy(rte_pktmbuf_mtod_offset(pkts[i], uint8_t *, off), &v, 4);
	}
	return seq;
}

/*
 * Packets of their flow's own length (TRex's trim_pkt_size): the frame
 * holds the whole template, the flow's bytes are applied and the mbuf
 * cut to the flow's length. No signature: such streams have no
 * flow_stats. A tpg stream's (tpg_off != 0) end in the template's TPG
 * header with the seq, from @p seq on, where TRex puts it: the last 16
 * bytes of each frame; the template's bytes from tpg_off (the lowest
 * place a header goes) up to it come back first, since a frame of
 * another length may have left its header there in this mbuf. Adds the
 * bytes built to @p bytes; returns the next seq.
 */
static __rte_noinline uint32_t
gen_build_varlen(struct gen_wstream *w, struct rte_mbuf **pkts, unsigned int n, uint64_t rearm,
		 uint32_t seq, uint64_t *bytes)
{
	const struct pvp_stream *ps = w->st->ps;
	const struct pvp_tmpl *t = &ps->tmpl[0];
	const uint16_t lo = w->st->tpg_off;
	uint64_t b = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint16_t len = ps->flow_len[w->flow];
		uint8_t *p;

		gen_mbuf_prep(pkts[i], rearm, len);
		p = rte_pktmbuf_mtod(pkts[i], uint8_t *);
		if (lo != 0)
			memcpy(p + lo, t->data + lo, len - GEN_TPG_HDR_LEN - lo);
		if (ps->n_vars != 0)
			pvp_flow_apply(ps, t, w->flow, p);
		if (lo != 0) {
			uint32_t v = rte_cpu_to_le_32(seq++);

			memcpy(p + len - GEN_TPG_HDR_LEN, t->data + t->len - GEN_TPG_HDR_LEN,
			       GEN_TPG_HDR_LEN);
			memcpy(p + len - GEN_TPG_HDR_LEN + 8, &v, 4);
		}
		if (++w->flow == w->flow_hi)
			w->flow = w->flow_lo;
		b += len;
	}
	*bytes += b;
	return seq;
}

/*
 * Build @p n packets of wire stream @p w into @p pkts (taken from its
 * pool). Returns the bytes built. One loop per case, state in locals:
 * byte stores into the packet may alias anything, so fields of *w would
 * be reloaded after every one.
 */
static __rte_always_inline uint64_t
gen_build(struct gen_wstream *w, struct rte_mbuf **pkts, unsigned int n, uint64_t rearm,
	  uint32_t ts)
{
	const struct gen_stream *st = w->st;
	const struct pvp_stream *ps = st->ps;
	const struct pvp_tmpl *t = &ps->tmpl[0];
	uint32_t seq = w->seq;
	uint64_t bytes = 0;

	if (st->var_len) {
		seq = gen_build_varlen(w, pkts, n, rearm, seq, &bytes);
	} else if (st->tmpl_pools && st->sig_base) {
		seq = gen_build_tmpl(w, pkts, n, rearm, seq, ts, &bytes);
	} else if (st->tmpl_pools) {
		seq = gen_build_pools(w, pkts, n, rearm, seq, ts, &bytes);
	} else if (st->multi_tmpl) {
		seq = gen_build_multi(w, pkts, n, rearm, seq, ts, &bytes);
	} else {
		if (st->sig_base)
			seq = gen_build_one(w, pkts, n, rearm, seq, ts);
		else if (ps->flows == 1 && t->sig_off != 0)
			seq = gen_build_stamp(t, pkts, n, rearm, seq, ts);
		else if (st->cache_flows != 0 && t->sig_off != 0)
			seq = gen_build_cached(w, t, pkts, n, rearm, seq, ts);
		else if (st->inc1_merge)
			seq = gen_build_inc1(w, pkts, n, rearm, seq, ts);
		else if (st->fast_inc1 && t->sig_off != 0)
			seq = gen_build_fast_inc1(w, t, pkts, n, rearm, seq, ts);
		else if (unlikely(st->tpg_off != 0))
			seq = gen_build_tpg(w, t, pkts, n, rearm, seq, ts);
		else
			seq = gen_build_generic(w, t, pkts, n, rearm, seq, ts);
		bytes = (uint64_t)t->len * n;
	}
	w->seq = seq;
	return bytes;
}

#endif /* GEN_TX_BUILD_H */
