/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Tagged packet groups (TRex's "tpg", doc/trex.rst): the RX side. A TPG
 * frame ends in TRex's 16-byte header (magic, tpgid, seq, reserved, each
 * 4 bytes little endian, as TRex writes them on x86); the RX lcores count
 * it per (RX port, tpgid, tag) with TRex's sequence rules
 * (CTPGTagCntr::update_cntrs in trex-core's trex_tpg_stats.cpp). The
 * TRex server (trex/trex_tpg.c) builds a struct gen_tpg and publishes it
 * in gen_ctx.tpg; an RX lcore takes it at the start of its next poll and
 * says so in gen_rx_lcore.tpg, after which a table it replaced may be
 * freed. The counters are per RX lcore (one writer each); readers add
 * them up. Nothing of this runs while no table is published: the RX path
 * then tests one pointer per frame without a pvpkit signature.
 */

#ifndef GEN_TPG_H
#define GEN_TPG_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "gen.h"

/** TRex's TPG_PAYLOAD_MAGIC, first word of the header. */
#define GEN_TPG_MAGIC 0xE50B5CC1u
/** Bytes of the header at the end of a TPG frame. */
#define GEN_TPG_HDR_LEN 16
/** Counters of a tpgid besides its tags: unknown tag, untagged. */
#define GEN_TPG_EXTRA 2
/** Unknown tags a port keeps until cleared (TRex's MAX_UNKNOWN_TAGS). */
#define GEN_TPG_MAX_UNKNOWN 10

/* One (tpgid, tag) as TRex counts it. */
struct gen_tpg_cntr {
	uint64_t pkts;		/* frames */
	uint64_t bytes;		/* bytes, 4 B FCS each included */
	uint64_t seq_err;	/* sequence numbers missed (late ones give one back) */
	uint64_t seq_err_big;	/* arrivals above the expected number */
	uint64_t seq_err_small; /* arrivals below it */
	uint64_t dup;		/* repeats of the previous number */
	uint64_t ooo;		/* other arrivals below it */
	uint32_t exp_seq;	/* next number expected */
};

/*
 * The first TPG frames of unknown tags an RX lcore saw on a port since the
 * port's last clear_tpg_unknown_tags, as TRex lists them: one entry a
 * frame, repeats included. Written by its RX lcore only; the server reads
 * n entries once @c clear equals the port's clear count it keeps.
 */
struct gen_tpg_unk {
	uint32_t clear; /* the clear count the entries are of */
	uint32_t n;	/* entries, at most GEN_TPG_MAX_UNKNOWN */
	struct {
		uint32_t tpgid; /* the frame's tpgid */
		uint16_t vlan;	/* its first VLAN */
		uint16_t vlan2; /* its second one (QinQ), 0: a Dot1Q tag */
	} e[GEN_TPG_MAX_UNKNOWN];
} __rte_cache_aligned;

/* A TPG table: the tag map and where each RX lcore counts. */
struct gen_tpg {
	uint32_t num_tpgids;  /* tpgids 0..num_tpgids-1 */
	uint16_t num_tags;    /* tag ids 0..num_tags-1 */
	uint32_t nb_qinq;     /* entries of qinq_key */
	uint16_t dot1q[4096]; /* VLAN id -> tag id + 1, 0: no tag */
	uint32_t *qinq_key;   /* sorted (first VLAN << 12 | second) */
	uint16_t *qinq_tag;   /* tag id of each qinq_key */
	/* [RX lcore][port]: num_tpgids x (num_tags + GEN_TPG_EXTRA), NULL: not counted there. */
	struct gen_tpg_cntr *cnt[GEN_MAX_RX][GEN_MAX_PORTS];
	/* [RX lcore][port]: its unknown tags, NULL where cnt is. */
	struct gen_tpg_unk *unk[GEN_MAX_RX][GEN_MAX_PORTS];
	/* [port]: clear_tpg_unknown_tags count, the server's to write. */
	const uint32_t *unk_clear;
};

/* Tag id + 1 of a QinQ pair, 0: none. */
static inline uint16_t
gen_tpg_qinq(const struct gen_tpg *t, uint32_t key)
{
	uint32_t lo = 0, hi = t->nb_qinq;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (t->qinq_key[mid] == key)
			return (uint16_t)(t->qinq_tag[mid] + 1);
		if (t->qinq_key[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static inline uint32_t
gen_tpg_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return rte_le_to_cpu_32(v);
}

static inline uint16_t
gen_tpg_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/*
 * Note an unknown tag (VLAN @p v1, then @p v2 when @p qinq) of a TPG frame
 * of @p tpgid in the list of RX lcore @p k on @p port. A list whose port
 * was cleared since starts again. VLANs 0 and 4095 are not listed: TRex's
 * tag objects refuse them.
 */
static inline void
gen_tpg_unknown(const struct gen_tpg *t, uint16_t k, uint16_t port, uint32_t tpgid, uint16_t v1,
		uint16_t v2, bool qinq)
{
	struct gen_tpg_unk *u = t->unk[k][port];
	uint32_t clr = __atomic_load_n(&t->unk_clear[port], __ATOMIC_ACQUIRE);

	if (u->clear != clr) {
		__atomic_store_n(&u->n, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&u->clear, clr, __ATOMIC_RELEASE);
	}
	if (u->n >= GEN_TPG_MAX_UNKNOWN || v1 == 0 || v1 == 0xfff ||
	    (qinq && (v2 == 0 || v2 == 0xfff)))
		return;
	u->e[u->n].tpgid = tpgid;
	u->e[u->n].vlan = v1;
	u->e[u->n].vlan2 = v2;
	__atomic_store_n(&u->n, u->n + 1, __ATOMIC_RELEASE);
}

/*
 * Count frame @p m, received on @p port by RX lcore @p k, when it is a TPG
 * frame of a tpgid that @p t counts there. Returns whether it was counted.
 */
static inline bool
gen_tpg_rx(const struct gen_tpg *t, uint16_t k, uint16_t port, const struct rte_mbuf *m)
{
	uint8_t buf[GEN_TPG_HDR_LEN];
	const uint8_t *h, *p = rte_pktmbuf_mtod(m, const uint8_t *);
	struct gen_tpg_cntr *c = t->cnt[k][port];
	uint32_t tpgid, seq, idx;
	uint16_t et, tag = 0;
	bool untagged = true;

	if (c == NULL || m->pkt_len < RTE_ETHER_HDR_LEN + GEN_TPG_HDR_LEN)
		return false;
	h = rte_pktmbuf_read(m, m->pkt_len - GEN_TPG_HDR_LEN, GEN_TPG_HDR_LEN, buf);
	if (h == NULL || gen_tpg_le32(h) != GEN_TPG_MAGIC)
		return false;
	tpgid = gen_tpg_le32(h + 4);
	seq = gen_tpg_le32(h + 8);
	et = gen_tpg_be16(p + 12);
	if ((et == RTE_ETHER_TYPE_VLAN || et == RTE_ETHER_TYPE_QINQ) &&
	    m->data_len >= RTE_ETHER_HDR_LEN + 8) {
		uint16_t v1 = gen_tpg_be16(p + 14) & 0xfff, v2 = 0;
		bool qinq = gen_tpg_be16(p + 16) == RTE_ETHER_TYPE_VLAN;

		untagged = false;
		if (qinq) {
			v2 = gen_tpg_be16(p + 18) & 0xfff;
			tag = gen_tpg_qinq(t, (uint32_t)v1 << 12 | v2);
		} else {
			tag = t->dot1q[v1];
		}
		/* Listed before the tpgid is checked, as TRex lists them. */
		if (unlikely(tag == 0))
			gen_tpg_unknown(t, k, port, tpgid, v1, v2, qinq);
	}
	if (tpgid >= t->num_tpgids)
		return false;
	idx = untagged ? t->num_tags + 1u : tag != 0 ? tag - 1u : t->num_tags;
	c += (uint64_t)tpgid * (t->num_tags + GEN_TPG_EXTRA) + idx;
	/* TRex's rules: a multicast group syncs to its first frame; unknown tags have no order. */
	if ((p[0] & 1) != 0 && c->pkts == 0) {
		c->exp_seq = seq + 1;
	} else if (untagged || tag != 0) {
		if (seq > c->exp_seq) {
			c->seq_err += seq - c->exp_seq;
			c->seq_err_big++;
			c->exp_seq = seq + 1;
		} else if (seq == c->exp_seq) {
			c->exp_seq = seq + 1;
		} else {
			if (seq == c->exp_seq - 1) {
				c->dup++;
			} else {
				c->ooo++;
				if (c->seq_err > 0)
					c->seq_err--;
			}
			c->seq_err_small++;
		}
	}
	c->pkts++;
	c->bytes += m->pkt_len + RTE_ETHER_CRC_LEN;
	return true;
}

#endif /* GEN_TPG_H */
