/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * A pcap file pushed on a port (push.h). The file is read with lib/pkt's
 * pcap reader (a "replay" stream: the frames as captured, with their
 * times) and turned into a plan: per frame its time within a pass, and
 * the length of a pass, as TRex's CGenNodePCAP times them: the first
 * frame at once, then after each frame the fixed gap, or the file's gap
 * to the next one (to the first again after the last, which is never
 * positive) divided by the speedup, and never less than the minimum gap.
 * Frame k of pass n leaves at start + n x pass + offset(k).
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>

#include "capture.h"
#include "push.h"

/* Mbufs of a port's push pool: a full TX ring and then some. */
#define GEN_PUSH_POOL_EXTRA 512

/* One frame of the plan. */
struct gen_push_frame {
	const uint8_t *data; /* bytes without FCS (the profile's template) */
	uint16_t len;	     /* bytes in data */
	uint64_t off_tsc;    /* when it leaves, from the start of its pass */
};

struct gen_push {
	struct gen_push_conf c;	  /* as asked; c.file is the caller's, read at the load only */
	struct pvp_profile *prof; /* the file's frames, owned */
	uint32_t n;		  /* frames per pass */
	struct gen_push_frame *f; /* [n] */
	uint64_t period_tsc;	  /* one pass */
	struct rte_mempool *mp;	  /* the port's push pool */
	struct gen_tx_lcore *tl;  /* the lcore that sends it */
	/* TX lcore state. */
	uint64_t t0;   /* start of the current pass */
	uint64_t pass; /* passes done */
	uint32_t idx;  /* next frame */
};

/* One pool per port, made at its first push and kept: mbufs may still sit in a TX ring. */
static struct rte_mempool *gen_push_mp[GEN_MAX_PORTS];

static struct rte_mempool *
gen_push_pool(struct gen_ctx *g, uint16_t port, uint32_t room, char *err, size_t errlen)
{
	struct rte_mempool *mp = gen_push_mp[port];
	char name[RTE_MEMPOOL_NAMESIZE];

	if (mp != NULL && rte_pktmbuf_data_room_size(mp) >= room + RTE_PKTMBUF_HEADROOM)
		return mp;
	if (mp != NULL) {
		/* Too small for these frames: the old one stays (it may be in use), unused. */
		snprintf(name, sizeof(name), "gen_push%u_%u", port, room);
	} else {
		snprintf(name, sizeof(name), "gen_push%u", port);
	}
	mp = rte_pktmbuf_pool_create(name, g->opt.nb_txd + GEN_PUSH_POOL_EXTRA, 0, 0,
				     (uint16_t)(room + RTE_PKTMBUF_HEADROOM),
				     (int)rte_eth_dev_socket_id(g->port[port].eth_port));
	if (mp == NULL) {
		snprintf(err, errlen, "push: no memory for a pool of %u frames of port %u: %s",
			 g->opt.nb_txd + GEN_PUSH_POOL_EXTRA, port, rte_strerror(rte_errno));
		return NULL;
	}
	gen_push_mp[port] = mp;
	return mp;
}

/* The file's frames as a "replay" stream of lib/pkt. */
static struct pvp_profile *
gen_push_read(const char *file, char *err, size_t errlen)
{
	static const char where[] = "push: streams[0].pcap: ";
	char e[PVP_PKT_ERR_LEN] = "";
	struct pvp_profile *prof;
	json_t *root;

	root = json_pack("{s:[{s:s,s:b}]}", "streams", "pcap", file, "replay", 1);
	if (root == NULL) {
		snprintf(err, errlen, "push: out of memory");
		return NULL;
	}
	prof = pvp_profile_parse(root, "push", e, sizeof(e));
	json_decref(root);
	/* The stream lib/pkt names is ours, not the user's: the file and the fault only. */
	if (prof == NULL)
		snprintf(err, errlen, "push: %s",
			 e[0] == '\0'				     ? strerror(errno)
			 : strncmp(e, where, sizeof(where) - 1) == 0 ? e + sizeof(where) - 1
								     : e);
	return prof;
}

/* Seconds from frame @p a to frame @p b as the push spaces them. */
static double
gen_push_gap(const struct gen_push_conf *c, const struct pvp_tmpl *a, const struct pvp_tmpl *b)
{
	double gap;

	if (c->ipg_us >= 0)
		gap = c->ipg_us / c->speedup / 1e6;
	else
		gap = ((double)b->ts_ns - (double)a->ts_ns) / 1e9 / c->speedup;
	return RTE_MAX(gap, c->min_ipg_us / 1e6);
}

struct gen_push *
gen_push_load(struct gen_ctx *g, const struct gen_push_conf *c, char *err, size_t errlen)
{
	const struct pvp_stream *s;
	struct gen_push *p;
	uint16_t mtu = 0;
	uint32_t i, max_len;
	double t = 0;

	if (rte_eth_dev_get_mtu(g->port[c->port].eth_port, &mtu) != 0)
		mtu = RTE_ETHER_MTU;
	max_len = (uint32_t)mtu + RTE_ETHER_HDR_LEN;
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		snprintf(err, errlen, "push: out of memory");
		return NULL;
	}
	p->prof = gen_push_read(c->file, err, errlen);
	if (p->prof == NULL)
		goto fail;
	s = &p->prof->streams[0];
	p->n = s->n_tmpl;
	p->f = calloc(p->n, sizeof(*p->f));
	if (p->f == NULL) {
		snprintf(err, errlen, "push: out of memory");
		goto fail;
	}
	for (i = 0; i < p->n; i++) {
		const struct pvp_tmpl *k = &s->tmpl[i];

		/* A VLAN tag is not counted in the MTU. */
		if (k->len > max_len + (k->len >= 14 && k->data[12] == 0x81 && k->data[13] == 0
						? RTE_VLAN_HLEN
						: 0)) {
			snprintf(err, errlen,
				 "push: pcap \"%s\": frame %u is %u B, over port %u's MTU of %u "
				 "(frames up to %u B)",
				 c->file, i + 1, k->len, c->port, mtu, max_len);
			goto fail;
		}
		p->f[i].data = k->data;
		p->f[i].len = k->len;
		p->f[i].off_tsc = (uint64_t)(t * (double)g->hz);
		t += gen_push_gap(c, k, &s->tmpl[(i + 1) % p->n]);
	}
	p->period_tsc = (uint64_t)(t * (double)g->hz);
	p->mp = gen_push_pool(g, c->port, max_len + RTE_VLAN_HLEN, err, errlen);
	if (p->mp == NULL)
		goto fail;
	p->c = *c;
	return p;
fail:
	pvp_profile_free(p->prof);
	free(p->f);
	free(p);
	return NULL;
}

uint32_t
gen_push_frames(const struct gen_push *p)
{
	return p->n;
}

void
gen_push_start(struct gen_ctx *g, struct gen_push *p, uint64_t stop_tsc)
{
	p->tl = gen_tx_of(g, p->c.port, 0);
	p->t0 = rte_rdtsc();
	p->pass = 0;
	p->idx = 0;
	/* The lcore reads it once it sees the run start (gen_tx_lcore_go orders the stores). */
	p->tl->push = p;
	gen_tx_lcore_go(p->tl, 0, stop_tsc);
}

int
gen_push_end(struct gen_push *p)
{
	if (p == NULL)
		return 0;
	if (!gen_tx_lcore_idle(p->tl))
		return -EBUSY;
	p->tl->push = NULL;
	pvp_profile_free(p->prof);
	free(p->f);
	free(p);
	return 0;
}

/* Past frame @p idx of pass @p pass starting at @p t0: the next one. */
static __rte_always_inline void
gen_push_step(const struct gen_push *p, uint32_t *idx, uint64_t *pass, uint64_t *t0)
{
	if (++*idx == p->n) {
		*idx = 0;
		++*pass;
		*t0 += p->period_tsc;
	}
}

bool
gen_push_tx(struct gen_ctx *g, struct gen_tx_lcore *tl, struct gen_push *p, uint64_t now)
{
	struct rte_mbuf *m[GEN_BURST];
	uint32_t idx = p->idx;
	uint64_t pass = p->pass, t0 = p->t0, bytes = 0, due;
	unsigned int n = 0, sent, k;

	if (p->c.passes != 0 && p->pass >= p->c.passes)
		return false;
	while (n < GEN_BURST && (p->c.passes == 0 || pass < p->c.passes)) {
		const struct gen_push_frame *f = &p->f[idx];
		uint8_t *d;

		if (t0 + f->off_tsc > now)
			break;
		m[n] = rte_pktmbuf_alloc(p->mp);
		if (m[n] == NULL)
			break; /* all in the TX ring: later */
		d = (uint8_t *)rte_pktmbuf_append(m[n], f->len);
		rte_memcpy(d, f->data, f->len);
		if (!p->c.dst_from_pcap)
			rte_ether_addr_copy(&p->c.dst, (struct rte_ether_addr *)d);
		if (!p->c.src_from_pcap)
			rte_ether_addr_copy(&p->c.src,
					    (struct rte_ether_addr *)(d + RTE_ETHER_ADDR_LEN));
		bytes += f->len;
		n++;
		gen_push_step(p, &idx, &pass, &t0);
	}
	if (n != 0) {
		gen_cap_burst(tl->port, GEN_CAP_TX, m, n);
		sent = rte_eth_tx_burst(tl->eth_port, tl->queue, m, (uint16_t)n);
		/* What the port did not take goes again at the next turn, as TRex's node waits. */
		for (k = sent; k < n; k++) {
			bytes -= m[k]->pkt_len;
			rte_pktmbuf_free(m[k]);
		}
		for (k = 0; k < sent; k++)
			gen_push_step(p, &p->idx, &p->pass, &p->t0);
		pvp_stats_txq_add(tl->stq, sent, bytes, 0);
		if (sent != 0 && tl->first_tsc == 0)
			tl->first_tsc = now;
		return p->c.passes == 0 || p->pass < p->c.passes;
	}
	/* Nothing due: sleep while the next frame is far (--idle-sleep). */
	due = p->t0 + p->f[p->idx].off_tsc;
	if (g->opt.idle_sleep_us != 0 && due > now &&
	    due - now > gen_ns_to_tsc(4000 * (uint64_t)g->opt.idle_sleep_us, g->hz))
		usleep(g->opt.idle_sleep_us);
	return true;
}
