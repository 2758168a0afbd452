/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The field engine and the signature stamp: a variable's value for a
 * flow index (inc, dec, a seeded permutation), the writes that turn a
 * template into one flow, and seq / tx_ts / stream id written into the
 * signature, each with its checksums updated incrementally.
 */

#include <stddef.h>
#include <string.h>

#include <rte_byteorder.h>

#include "pkt_private.h"

static inline uint64_t
splitmix64(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

/*
 * A seeded permutation of [0, range): a 4-round balanced Feistel network
 * on the smallest even number of bits that holds range, with cycle
 * walking back into the range (at most 4 tries on average). Distinct
 * inputs give distinct outputs, so "random" still makes exactly N flows.
 */
static uint64_t
permute(uint64_t x, uint64_t range, uint64_t seed)
{
	unsigned int bits, h, r;
	uint64_t mask;

	if (range <= 1)
		return 0;
	bits = 64 - __builtin_clzll(range - 1);
	h = (bits + 1) / 2;
	mask = (UINT64_C(1) << h) - 1;
	do {
		uint64_t l = x >> h, rr = x & mask;

		for (r = 0; r < 4; r++) {
			uint64_t t = l ^ (splitmix64(seed ^ ((uint64_t)r << 56) ^ rr) & mask);

			l = rr;
			rr = t;
		}
		x = l << h | rr;
	} while (x >= range);
	return x;
}

uint32_t
pvp_var_value(const struct pvp_var *v, uint64_t flow)
{
	uint64_t range = (uint64_t)v->max - v->min + 1;
	uint64_t k = v->div > 1 ? flow / v->div : flow;

	if (v->op == PVP_VAR_TABLE)
		return v->table[k % v->period];
	/* Divisions are the cost here: skip those that change nothing
	 * (the usual case is flow < range and step 1). */
	if (k >= range)
		k %= range;
	if (v->op == PVP_VAR_RANDOM)
		return v->min + (uint32_t)permute(k, range, v->seed);
	if (v->step != 1) {
		k *= v->step % range;
		if (k >= range)
			k %= range;
	}
	return v->op == PVP_VAR_DEC ? v->max - (uint32_t)k : v->min + (uint32_t)k;
}

static inline void
write_field(uint8_t *pkt, const struct pvp_slot *sl, uint32_t val)
{
	uint8_t *p = pkt + sl->off;
	uint32_t olds, news;
	uint8_t nb[4];
	unsigned int i;

	for (i = 0; i < sl->len; i++)
		nb[i] = (uint8_t)(val >> (8 * (sl->len - 1 - i)));
	olds = pkt_sum(p, sl->off, sl->len);
	memcpy(p, nb, sl->len);
	if (sl->csum.n == 0)
		return;
	news = pkt_sum(p, sl->off, sl->len);
	pkt_csum_apply(pkt, &sl->csum, pkt_fold((uint16_t)~pkt_fold(olds) + pkt_fold(news)));
}

void
pvp_flow_apply(const struct pvp_stream *s, const struct pvp_tmpl *t, uint64_t flow, uint8_t *pkt)
{
	unsigned int i;

	for (i = 0; i < s->n_vars; i++)
		write_field(pkt, &t->slot[i], pvp_var_value(&s->vars[i], flow));
}

void
pvp_flow_build(const struct pvp_stream *s, const struct pvp_tmpl *t, uint64_t flow, uint8_t *buf)
{
	memcpy(buf, t->data, t->len);
	pvp_flow_apply(s, t, flow, buf);
}

void
pvp_sig_stamp(const struct pvp_tmpl *t, uint8_t *pkt, uint32_t seq, uint32_t tx_ts)
{
	struct pvp_sig *sig;
	uint32_t olds, news;
	uint16_t off = t->sig_off + offsetof(struct pvp_sig, seq);

	if (t->sig_off == 0)
		return;
	sig = (struct pvp_sig *)(pkt + t->sig_off);
	/* seq and tx_ts are 8 contiguous bytes at an even offset. */
	olds = pkt_sum(pkt + off, off, 8);
	sig->seq = rte_cpu_to_be_32(seq);
	sig->tx_ts = tx_ts;
	if (t->sig_csum.n == 0)
		return;
	news = pkt_sum(pkt + off, off, 8);
	pkt_csum_apply(pkt, &t->sig_csum, pkt_fold((uint16_t)~pkt_fold(olds) + pkt_fold(news)));
}

void
pvp_sig_set_stream(const struct pvp_tmpl *t, uint8_t *pkt, uint16_t stream)
{
	uint16_t off = t->sig_off + offsetof(struct pvp_sig, stream);
	uint32_t olds, news;

	if (t->sig_off == 0)
		return;
	olds = pkt_sum(pkt + off, off, 2);
	pkt_wr16(pkt + off, stream);
	news = pkt_sum(pkt + off, off, 2);
	pkt_csum_apply(pkt, &t->sig_csum, pkt_fold((uint16_t)~pkt_fold(olds) + pkt_fold(news)));
}
