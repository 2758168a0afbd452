/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Streams: a lib/pkt profile (from --profile, the shortcut options, a
 * pcap or a profile.load request) becomes wire streams, one per profile
 * stream and TX queue of its port, each with its own sequence space, its
 * share of the flows, and a mempool whose mbufs hold the stream's
 * template from the start (filled by the pool's obj_init callback).
 *
 * Wire stream id = profile stream id + queue * number of streams, so with
 * one TX core per port the signature's stream id is the profile's.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "pvp_util.h"

#include "gen.h"

static unsigned int gen_pool_gen; /* makes pool names unique across loads */

/* Set the signature's stream id in a frame of template @p t, fixing checksums. */
static void
gen_patch_sid(const struct pvp_tmpl *t, uint8_t *buf, uint16_t wire_id)
{
	uint16_t *w;
	uint16_t nv = rte_cpu_to_be_16(wire_id);

	if (t->sig_off == 0)
		return;
	w = (uint16_t *)(buf + t->sig_off + 4);
	if (*w == nv)
		return;
	gen_csum_fix(buf, &t->sig_csum, (uint16_t) ~*w + nv);
	*w = nv;
}

/* Fill a new mbuf with flow flow_lo of the first template (obj_init). */
static void
gen_ws_obj_init(struct rte_mempool *mp, void *arg, void *obj, unsigned int idx)
{
	struct gen_wstream *w = arg;
	const struct pvp_stream *ps = w->st->ps;
	const struct pvp_tmpl *t = &ps->tmpl[ps->order[0]];
	struct rte_mbuf *m = obj;
	uint8_t *d;

	rte_pktmbuf_init(mp, NULL, obj, idx);
	d = rte_pktmbuf_mtod(m, uint8_t *);
	memcpy(d, w->tdata[t - ps->tmpl], t->len);
	if (!ps->replay && ps->flows > 1) {
		pvp_flow_build(ps, t, w->flow_lo, d);
		gen_patch_sid(t, d, w->wire_id);
	}
	m->data_len = t->len;
	m->pkt_len = t->len;
}

/* Fill a new mbuf of a per-template pool with its template (obj_init). */
static void
gen_tmpl_obj_init(struct rte_mempool *mp, void *arg, void *obj, unsigned int idx)
{
	const struct gen_tmpl_init *ti = arg;
	const struct pvp_tmpl *t = &ti->w->st->ps->tmpl[ti->tmpl];
	struct rte_mbuf *m = obj;

	rte_pktmbuf_init(mp, NULL, obj, idx);
	memcpy(rte_pktmbuf_mtod(m, uint8_t *), ti->w->tdata[ti->tmpl], t->len);
	m->data_len = t->len;
	m->pkt_len = t->len;
}

/*
 * The unfolded one's complement sum of what the checksum at @p csum_off
 * of @p buf covers, less the @p n 16-bit words at @p offs[] (a checksum
 * field holds the complement of its sum). Words as loaded from memory,
 * as the TX lcore adds them.
 */
static uint32_t
gen_sum_less(const uint8_t *buf, uint16_t csum_off, const uint16_t *offs, unsigned int n)
{
	uint16_t v;
	uint32_t s;
	unsigned int i;

	memcpy(&v, buf + csum_off, 2);
	s = (uint16_t)~v;
	for (i = 0; i < n; i++) {
		memcpy(&v, buf + offs[i], 2);
		s += (uint16_t)~v;
	}
	return gen_fold(s);
}

/*
 * Base sums of wire stream @p w (gen_wstream.sig_sum, ip_sum, l4_sum) from
 * the frames its pools are filled with. Returns 0 or -ENOMEM.
 */
static int
gen_ws_sums(struct gen_wstream *w)
{
	const struct gen_stream *st = w->st;
	const struct pvp_stream *ps = st->ps;
	const struct pvp_tmpl *t = &ps->tmpl[0];
	uint16_t offs[6];
	uint32_t i, k;
	uint8_t *tmp;

	for (i = 0; st->sig_base && i < ps->n_tmpl; i++) {
		const struct pvp_tmpl *ti = &ps->tmpl[i];

		for (k = 0; k < 4; k++)
			offs[k] = ti->sig_off + 6 + 2 * k; /* seq, then tx_ts */
		w->sig_sum[i] = gen_sum_less(w->tdata[i], ti->sig_csum.off[0], offs, 4);
	}
	if (!st->inc1_merge)
		return 0;
	/* The pool's frames hold flow flow_lo (gen_ws_obj_init). */
	tmp = malloc(t->len);
	if (tmp == NULL)
		return -ENOMEM;
	memcpy(tmp, w->tdata[0], t->len);
	pvp_flow_build(ps, t, w->flow_lo, tmp);
	gen_patch_sid(t, tmp, w->wire_id);
	offs[0] = t->slot[0].off;
	offs[1] = t->slot[0].off + 2;
	w->ip_sum = gen_sum_less(tmp, t->slot[0].csum.off[0], offs, 2);
	for (k = 0; k < 4; k++)
		offs[2 + k] = t->sig_off + 6 + 2 * k;
	w->l4_sum = gen_sum_less(tmp, t->sig_csum.off[0], offs, 6);
	free(tmp);
	return 0;
}

/* Whether every template's signature is covered by one data checksum only. */
static bool
gen_sig_one_csum(const struct pvp_stream *ps)
{
	uint32_t i;

	for (i = 0; i < ps->n_tmpl; i++) {
		const struct pvp_tmpl *t = &ps->tmpl[i];

		if (t->sig_off == 0 || t->sig_csum.n != 1 ||
		    (t->sig_csum.flags[0] & ~PVP_CSUM_F_UDP) != PVP_CSUM_F_DATA ||
		    t->sig_csum.flags[0] != ps->tmpl[0].sig_csum.flags[0])
			return false;
	}
	return true;
}

/* Bytes that differ between flows of template @p t (from its start). */
static uint16_t
gen_hdr_copy(const struct pvp_stream *ps, const struct pvp_tmpl *t)
{
	uint32_t end, i;

	if (t->sig_off == 0)
		return t->len;
	end = t->sig_off + PVP_SIG_LEN;
	for (i = 0; i < ps->n_vars; i++)
		end = RTE_MAX(end, (uint32_t)t->slot[i].off + t->slot[i].len);
	return (uint16_t)RTE_MIN(end, (uint32_t)t->len);
}

/* Whether the per-packet path can move every variable incrementally. */
static bool
gen_vars_fast(const struct pvp_stream *ps)
{
	const struct pvp_tmpl *t = &ps->tmpl[0];
	uint32_t i;

	for (i = 0; i < ps->n_vars; i++) {
		const struct pvp_var *v = &ps->vars[i];
		const struct pvp_slot *sl = &t->slot[i];
		uint64_t range = (uint64_t)v->max - v->min + 1;

		if (v->op != PVP_VAR_INC && v->op != PVP_VAR_DEC)
			return false;
		if (v->step >= range || v->div == 0)
			return false;
		if (sl->len != 1 && (sl->off & 1) != 0)
			return false;
	}
	return true;
}

static void
gen_ws_free(struct gen_ctx *g, struct gen_wstream *w)
{
	uint32_t i;

	if (w == NULL)
		return;
	if (w->mp != NULL && g->nb_retired < RTE_DIM(g->retired))
		g->retired[g->nb_retired++] = w->mp;
	for (i = 0; i < GEN_TMPL_POOLS; i++)
		if (w->tmpl_mp[i] != NULL && g->nb_retired < RTE_DIM(g->retired))
			g->retired[g->nb_retired++] = w->tmpl_mp[i];
	if (w->tdata != NULL) {
		for (i = 0; i < w->st->ps->n_tmpl; i++)
			rte_free(w->tdata[i]);
		rte_free(w->tdata);
	}
	rte_free(w->cache);
	rte_free(w);
}

/* Free the pools of replaced profiles whose mbufs have all come back. */
static void
gen_retired_reap(struct gen_ctx *g)
{
	unsigned int i, j = 0;

	for (i = 0; i < g->nb_retired; i++) {
		struct rte_mempool *mp = g->retired[i];

		if (rte_mempool_in_use_count(mp) == 0)
			rte_mempool_free(mp);
		else
			g->retired[j++] = mp;
	}
	g->nb_retired = j;
}

void
gen_streams_release(struct gen_ctx *g)
{
	uint16_t i;

	for (i = 0; i < g->nb_tx; i++)
		g->tx[i]->nb_ws = 0;
	for (i = 0; i < g->nb_ws; i++) {
		gen_ws_free(g, g->ws[i]);
		g->ws[i] = NULL;
	}
	g->nb_ws = 0;
	pvp_profile_free(g->profile);
	g->profile = NULL;
	gen_retired_reap(g);
}

static struct gen_wstream *
gen_ws_create(struct gen_ctx *g, struct gen_stream *st, uint16_t queue, uint16_t wire_id, char *err,
	      size_t errlen)
{
	const struct pvp_stream *ps = st->ps;
	uint16_t nq = g->opt.tx_cores;
	int socket = rte_eth_dev_socket_id(g->port[ps->port].eth_port);
	char name[RTE_MEMPOOL_NAMESIZE];
	struct gen_wstream *w;
	uint64_t block;
	uint32_t i, n, cache;
	uint8_t *tmp;

	if (socket < 0)
		socket = SOCKET_ID_ANY;
	w = rte_zmalloc_socket("gen_ws", sizeof(*w), RTE_CACHE_LINE_SIZE, socket);
	if (w == NULL)
		goto nomem;
	w->wire_id = wire_id;
	w->st = st;
	w->port = ps->port;
	w->queue = queue;
	/* A routed stream follows its gateway's MAC (neigh.c). */
	if (g->opt.l3 && g->neigh[ps->port].resolved) {
		w->gw = &g->neigh[ps->port].gw_mac;
		w->gw_tmpl = gen_mac_word(ps->tmpl[0].data);
	}
	/* Flows are split in contiguous blocks over the port's TX lcores. */
	if (ps->flows < nq) {
		w->flow_lo = queue % ps->flows;
		w->flow_hi = w->flow_lo + 1;
	} else {
		block = (ps->flows + nq - 1) / nq;
		w->flow_lo = block * queue;
		w->flow_hi = RTE_MIN(ps->flows, block * (queue + 1));
		if (w->flow_lo >= w->flow_hi) {
			w->flow_lo = 0;
			w->flow_hi = 1;
		}
	}
	w->tdata = rte_zmalloc_socket("gen_tdata", sizeof(*w->tdata) * ps->n_tmpl, 0, socket);
	if (w->tdata == NULL)
		goto nomem;
	for (i = 0; i < ps->n_tmpl; i++) {
		const struct pvp_tmpl *t = &ps->tmpl[i];

		w->tdata[i] = rte_malloc_socket("gen_tmpl", t->len, RTE_CACHE_LINE_SIZE, socket);
		if (w->tdata[i] == NULL)
			goto nomem;
		memcpy(w->tdata[i], t->data, t->len);
		gen_patch_sid(t, w->tdata[i], wire_id);
	}
	if (st->cache_flows != 0) {
		const struct pvp_tmpl *t = &ps->tmpl[0];
		uint64_t f;

		w->cache = rte_malloc_socket("gen_cache", (w->flow_hi - w->flow_lo) * st->hdr_copy,
					     RTE_CACHE_LINE_SIZE, socket);
		tmp = malloc(t->len);
		if (w->cache == NULL || tmp == NULL) {
			free(tmp);
			goto nomem;
		}
		for (f = w->flow_lo; f < w->flow_hi; f++) {
			pvp_flow_build(ps, t, f, tmp);
			gen_patch_sid(t, tmp, wire_id);
			memcpy(w->cache + (f - w->flow_lo) * st->hdr_copy, tmp, st->hdr_copy);
		}
		free(tmp);
	}
	n = g->opt.pool_size;
	cache = RTE_MIN(512u, n / 2);
	snprintf(name, sizeof(name), "gen_w%u_%u", gen_pool_gen, wire_id);
	/* With per-template pools this one only keeps its place: a few mbufs. */
	w->mp = rte_mempool_create(
		name, st->tmpl_pools ? 64 : n,
		sizeof(struct rte_mbuf) + RTE_PKTMBUF_HEADROOM + RTE_ALIGN_CEIL(st->max_len, 64u),
		st->tmpl_pools ? 0 : cache, sizeof(struct rte_pktmbuf_pool_private),
		rte_pktmbuf_pool_init, NULL, gen_ws_obj_init, w, socket, 0);
	if (w->mp == NULL) {
		snprintf(err, errlen,
			 "stream %u: no memory for %u mbufs of %u B (give -m more): %s", ps->id, n,
			 st->max_len, rte_strerror(rte_errno));
		gen_ws_free(g, w);
		return NULL;
	}
	/*
	 * IMIX: one pool per size whose mbufs hold that template from the
	 * start, so a packet costs what a single-size one does (no copy of
	 * the template per packet). The pool above stays (unused by TX).
	 */
	for (i = 0; st->tmpl_pools && i < ps->n_tmpl; i++) {
		const struct pvp_tmpl *t = &ps->tmpl[i];

		w->tmpl_init[i].w = w;
		w->tmpl_init[i].tmpl = (uint16_t)i;
		snprintf(name, sizeof(name), "gen_t%u_%u_%u", gen_pool_gen, wire_id, i);
		w->tmpl_mp[i] = rte_mempool_create(name, n,
						   sizeof(struct rte_mbuf) + RTE_PKTMBUF_HEADROOM +
							   RTE_ALIGN_CEIL(t->len, 64u),
						   cache, sizeof(struct rte_pktmbuf_pool_private),
						   rte_pktmbuf_pool_init, NULL, gen_tmpl_obj_init,
						   &w->tmpl_init[i], socket, 0);
		if (w->tmpl_mp[i] == NULL) {
			snprintf(err, errlen,
				 "stream %u: no memory for %u mbufs of %u B (give -m more): %s",
				 ps->id, n, t->len, rte_strerror(rte_errno));
			gen_ws_free(g, w);
			return NULL;
		}
	}
	if (gen_ws_sums(w) != 0)
		goto nomem;
	gen_ws_reset(w);
	return w;
nomem:
	snprintf(err, errlen, "stream %u: out of memory", ps->id);
	gen_ws_free(g, w);
	return NULL;
}

/*
 * What the MTU of a port counts of a template: the IP packet, the frame
 * less its Ethernet header and VLAN tags (and the FCS, not in the
 * template). A frame that is not IP counts from after 14 bytes.
 */
static uint32_t
gen_tmpl_l3_len(const struct pvp_tmpl *t)
{
	struct pvp_pkt_layout lay;

	if (pvp_pkt_parse(t->data, t->len, &lay) == 0)
		return t->len - lay.l3_off;
	return t->len > RTE_ETHER_HDR_LEN ? t->len - RTE_ETHER_HDR_LEN : 0;
}

/* What pvpkit-gen can send of @p p on its ports: stream count, ports, MTU. */
static int
gen_profile_check(const struct gen_ctx *g, const struct pvp_profile *p, char *err, size_t errlen)
{
	uint32_t s, i;

	if (p->n_streams == 0 || p->n_streams > GEN_MAX_STREAMS)
		return pvp_fail(err, errlen, -EINVAL, "%s: %u streams, pvpkit-gen takes 1..%d",
				p->source, p->n_streams, GEN_MAX_STREAMS);
	if (p->n_streams * g->opt.tx_cores > GEN_MAX_WSTREAMS)
		return pvp_fail(err, errlen, -EINVAL, "%s: %u streams x %u TX cores is over %d",
				p->source, p->n_streams, g->opt.tx_cores, GEN_MAX_WSTREAMS);
	for (s = 0; s < p->n_streams; s++) {
		const struct pvp_stream *ps = &p->streams[s];
		uint16_t mtu = 0;

		if (ps->port >= g->nb_ports)
			return pvp_fail(err, errlen, -ENODEV,
					"%s: stream %u (%s): unknown port %u (%u ports)", p->source,
					s, ps->name, ps->port, g->nb_ports);
		rte_eth_dev_get_mtu(g->port[ps->port].eth_port, &mtu);
		for (i = 0; i < ps->n_tmpl; i++) {
			uint32_t l3 = gen_tmpl_l3_len(&ps->tmpl[i]);

			if (mtu != 0 && l3 > mtu)
				return pvp_fail(
					err, errlen, -EINVAL,
					"%s: stream %u (%s): frame of %u B is over the MTU %u of "
					"port %u (start pvpkit-gen with --mtu %u)",
					p->source, s, ps->name, ps->tmpl[i].size, mtu, ps->port,
					l3);
		}
	}
	return 0;
}

/*
 * The TX path stream @p st takes (the flags of struct gen_stream), from
 * its templates, flows and vars, for @p tx_cores TX lcores.
 */
static void
gen_stream_paths(struct gen_stream *st, struct pvp_stream *ps, uint16_t tx_cores)
{
	const struct pvp_tmpl *t0 = &ps->tmpl[0];
	const struct pvp_csum_loc *vc = &t0->slot[0].csum;
	const struct pvp_csum_loc *sc = &t0->sig_csum;
	uint64_t per_lcore = (ps->flows + tx_cores - 1) / tx_cores;
	uint32_t i;
	bool fast;

	memset(st, 0, sizeof(*st));
	st->ps = ps;
	for (i = 0; i < ps->n_tmpl; i++)
		st->max_len = RTE_MAX(st->max_len, ps->tmpl[i].len);
	st->multi_tmpl = ps->n_order > 1 || ps->n_tmpl > 1;
	st->tmpl_pools =
		st->multi_tmpl && !ps->replay && ps->flows == 1 && ps->n_tmpl <= GEN_TMPL_POOLS;
	/* Frames that only ever hold their template (one flow, a pool per template). */
	st->sig_base = !ps->replay && ps->flows == 1 && (!st->multi_tmpl || st->tmpl_pools) &&
		       gen_sig_one_csum(ps);
	/* TRex's trim_pkt_size: a path of its own, so others test nothing per packet. */
	st->var_len = ps->flow_len != NULL;
	if (st->multi_tmpl || ps->flows <= 1 || st->var_len)
		return;
	fast = gen_vars_fast(ps);
	st->hdr_copy = gen_hdr_copy(ps, t0);
	/* IPv4 source +1: IP header checksum + the L4 one (pseudo header). */
	st->inc1_merge = fast && ps->n_vars == 1 && ps->vars[0].op == PVP_VAR_INC &&
			 ps->vars[0].step == 1 && ps->vars[0].div == 1 && t0->slot[0].len == 4 &&
			 t0->sig_off != 0 && (t0->slot[0].off & 1) == 0 && vc->n == 2 &&
			 vc->flags[0] == PVP_CSUM_F_DATA &&
			 (vc->flags[1] & ~PVP_CSUM_F_UDP) == PVP_CSUM_F_DATA && sc->n == 1 &&
			 sc->off[0] == vc->off[1] && sc->flags[0] == vc->flags[1];
	/*
	 * inc1_merge writes fewer bytes than a cached image and reads none:
	 * it is used whatever the number of flows.
	 */
	if (!st->inc1_merge && per_lcore <= GEN_CACHE_FLOWS &&
	    per_lcore * st->hdr_copy <= GEN_CACHE_BYTES)
		st->cache_flows = (uint32_t)per_lcore;
	else
		st->fast_vars = fast;
	st->fast_inc1 = st->fast_vars && ps->n_vars == 1 && ps->vars[0].op == PVP_VAR_INC &&
			ps->vars[0].step == 1 && ps->vars[0].div == 1 && t0->slot[0].len == 4;
}

/* One wire stream per stream and TX queue, handed to its TX lcore. */
static int
gen_streams_wire(struct gen_ctx *g, const struct pvp_profile *p, char *err, size_t errlen)
{
	struct gen_tx_lcore *tl;
	uint32_t s;
	uint16_t q;

	for (q = 0; q < g->opt.tx_cores; q++) {
		for (s = 0; s < p->n_streams; s++) {
			uint16_t wire_id = (uint16_t)(s + q * p->n_streams);
			struct gen_wstream *w;

			w = gen_ws_create(g, &g->streams[s], q, wire_id, err, errlen);
			if (w == NULL) {
				g->nb_ws = wire_id;
				gen_streams_release(g);
				return -ENOMEM;
			}
			g->ws[wire_id] = w;
			tl = gen_tx_of(g, w->port, q);
			tl->ws[tl->nb_ws++] = w;
		}
	}
	g->nb_ws = (uint16_t)(p->n_streams * g->opt.tx_cores);
	return 0;
}

int
gen_streams_setup(struct gen_ctx *g, struct pvp_profile *p, char *err, size_t errlen)
{
	uint32_t s;
	int ret;

	ret = gen_profile_check(g, p, err, errlen);
	if (ret != 0)
		return ret;
	gen_streams_release(g);
	gen_pool_gen++;
	g->profile = p;
	for (s = 0; s < p->n_streams; s++)
		gen_stream_paths(&g->streams[s], &p->streams[s], g->opt.tx_cores);
	ret = gen_streams_wire(g, p, err, errlen);
	if (ret != 0)
		return ret;
	for (s = 0; s < p->n_streams; s++) {
		char line[256];

		pvp_stream_summary(&p->streams[s], line, sizeof(line));
		GEN_LOG(INFO, "%s%s", line,
			g->streams[s].cache_flows ? " (flow cache)"
			: g->streams[s].inc1_merge
				? " (incremental address, one L4 checksum update)"
			: g->streams[s].fast_vars ? " (incremental fields)"
						  : "");
	}
	return 0;
}
