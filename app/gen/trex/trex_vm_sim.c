/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex's field engine run packet by packet at setup, as the TRex server's
 * data path runs it (trex-core src/stx/stl/trex_stl_stream_vm.h): the
 * variables' state, next_var chains skipping the variables they drive,
 * value lists, TRex's own random generator and seeds, flow_var_rand_limit
 * restarting its seed, tuples with limit_flows, writes with add_value
 * wrapping in the variable's size, masked writes with either shift,
 * fix_checksum_icmpv6, and trim_pkt_size (each packet's length, kept per
 * flow in s->vm_len for lib/pkt's flow_len). The bytes the writes change become lib/pkt TABLE
 * variables holding one whole cycle of the engine (the state after packet
 * 0 seen again), so any mix of cycles and limits repeats exactly as
 * TRex's does; a cycle longer than that takes trex_vm.c's closed form
 * where it has one (and TRex's random sequence is not asked for by a
 * seed): trex_vm_translate(), add_stream's, is here. The instructions
 * are read by trex_vm_sim_parse.c, split_to_cores is trex_vm_sim_split.c's.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ip.h>

#include "trex.h"
#include "trex_vm_private.h"

/* Draws TRex averages for the expected length of a random size. */
#define SIM_TRIM_SAMPLES 10000

/* Everything that moves: compared after each packet to find the cycle. */
struct sim_state {
	uint64_t val[SIM_MAX_INS];  /* variable value (tuple: IP) */
	uint64_t aux[SIM_MAX_INS];  /* list index, rand_limit count, tuple port */
	uint64_t aux2[SIM_MAX_INS]; /* rand_limit seed, tuple flow id */
	uint32_t rnd;		    /* the per-stream random generator */
	uint32_t pad;		    /* zero: states are compared with memcmp */
};

/* TRex's fastrand (Intel's LCG), 15 bits a call. */
static uint32_t
sim_rand16(uint32_t *seed)
{
	*seed = 214013 * *seed + 2531011;
	return (*seed >> 16) & 0x7fff;
}

/*
 * A random value in [min, max] for a @p size-byte variable, as TRex draws
 * it: its 16-bit draws put together, one for 1 or 2 bytes, two for 4 and
 * four for 8; the full 64-bit range is taken as drawn.
 */
static uint64_t
sim_rand_range(uint32_t *seed, unsigned int size, uint64_t min, uint64_t max)
{
	uint64_t v = 0;
	unsigned int k;

	for (k = 0; k < RTE_MAX(size / 2, 1u); k++)
		v = v << 16 | sim_rand16(seed);
	return max - min == UINT64_MAX ? v : min + v % (max - min + 1);
}

static void
sim_reset(const struct sim *m, struct sim_state *st)
{
	unsigned int i;

	memset(st, 0, sizeof(*st));
	st->rnd = m->rnd_seed;
	for (i = 0; i < m->n; i++) {
		const struct sim_ins *x = &m->in[i];

		if (x->kind == SIM_VAR && x->list != NULL)
			st->aux[i] = x->init;
		else if (x->kind == SIM_VAR)
			st->val[i] = x->init;
		else if (x->kind == SIM_RLIMIT)
			st->aux2[i] = x->seed;
		else if (x->kind == SIM_TUPLE) {
			st->val[i] = x->init;
			st->aux[i] = x->pprev;
		}
	}
}

/* Write @p v as @p n bytes at @p p, big or little endian. */
static void
sim_store(uint8_t *p, unsigned int n, uint64_t v, bool be)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		p[be ? n - 1 - k : k] = (uint8_t)(v >> (8 * k));
}

static uint64_t
sim_load(const uint8_t *p, unsigned int n, bool be)
{
	uint64_t v = 0;
	unsigned int k;

	for (k = 0; k < n; k++)
		v |= (uint64_t)p[be ? n - 1 - k : k] << (8 * k);
	return v;
}

/* The value write @p x reads: its variable's, or the tuple field's it names (x->field). */
static uint64_t
sim_value(const struct sim_state *st, const struct sim_ins *x)
{
	return x->field == 0 ? st->val[x->var] : x->field == 1 ? st->aux[x->var] : st->aux2[x->var];
}

/* The checksum of a folded sum @p sum into the 2 bytes at @p at (memory order). */
static void
sim_csum_put(uint8_t *at, uint16_t sum)
{
	uint16_t ck = (uint16_t)~sum;

	memcpy(at, &ck, 2);
}

/* ICMPv6's checksum over the pseudo header and the IPv6 payload, as TRex computes it. */
static void
sim_icmp6(uint8_t *pkt, uint32_t len, const struct sim_ins *x)
{
	const struct rte_ipv6_hdr *ip6 = (const struct rte_ipv6_hdr *)(pkt + x->off);
	uint8_t *icmp = pkt + x->off + x->l3;
	uint32_t plen = rte_be_to_cpu_16(ip6->payload_len), sum;

	if (x->off + x->l3 + plen > len)
		plen = len - (uint32_t)(x->off + x->l3);
	icmp[2] = icmp[3] = 0;
	sum = rte_ipv6_phdr_cksum(ip6, 0);
	sum += rte_raw_cksum(icmp, plen);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	/* Sums of memory-order words: the result goes in as it is. */
	sim_csum_put(icmp + 2, (uint16_t)sum);
}

/* IPv4 header length at @p ip as TRex's fix_checksum_ipv4 reads it. */
static uint32_t
sim_ihl(const uint8_t *ip)
{
	return ip[0] == 0x45 ? 20 : (uint32_t)(ip[0] & 0xf) * 4;
}

/*
 * Offset of the L4 checksum fix_checksum_hw @p x fixes in @p pkt, 0 for
 * none: from the IPv4 protocol, or the l4_type TRex is given for IPv6.
 */
static uint32_t
sim_hw_l4(const struct sim_ins *x, const uint8_t *pkt)
{
	const uint8_t *ip = pkt + x->off;
	uint32_t l4 = (uint32_t)(x->off + x->l3);
	uint8_t proto;

	if ((ip[0] >> 4) == 4)
		proto = ip[9];
	else
		proto = x->l4 == 11 ? IPPROTO_UDP : x->l4 == 13 ? IPPROTO_TCP : 0;
	return proto == IPPROTO_UDP ? l4 + 6 : proto == IPPROTO_TCP ? l4 + 16 : 0;
}

/*
 * Whether fix_checksum_hw @p x may run on @p pkt of @p len bytes: the IP
 * header, and the L4 bytes its length gives read from l3_len on, lie in
 * the packet. Checked on the template before anything runs, and again
 * on every packet, since a write may change a length.
 */
static bool
sim_hw_fits(const struct sim_ins *x, const uint8_t *pkt, uint32_t len)
{
	const uint8_t *ip = pkt + x->off;
	uint32_t ck, end, hl, room;

	if (x->off > len || len - x->off < sizeof(struct rte_ipv6_hdr) || x->l3 > len - x->off)
		return false;
	room = len - (uint32_t)x->off;
	if ((ip[0] >> 4) == 4) {
		end = (uint32_t)(ip[2] << 8 | ip[3]);
		hl = sim_ihl(ip);
	} else if ((ip[0] >> 4) == 6) {
		end = sizeof(struct rte_ipv6_hdr) + (uint32_t)(ip[4] << 8 | ip[5]);
		hl = sizeof(struct rte_ipv6_hdr);
	} else {
		return false;
	}
	if (end > room || hl > end || x->l3 + (end - hl) > room)
		return false;
	ck = sim_hw_l4(x, pkt);
	return ck == 0 || ck + 2 <= x->off + end;
}

/* fix_checksum_hw as a NIC's checksum offload leaves the packet. */
static void
sim_hw(const struct sim_ins *x, uint8_t *pkt)
{
	uint8_t *ip = pkt + x->off, *l4 = pkt + x->off + x->l3;
	uint32_t ck = sim_hw_l4(x, pkt);
	uint16_t v;

	if ((ip[0] >> 4) == 4) {
		ip[10] = ip[11] = 0;
		sim_csum_put(ip + 10, rte_raw_cksum(ip, sim_ihl(ip)));
	}
	if (ck == 0)
		return;
	pkt[ck] = pkt[ck + 1] = 0;
	if ((ip[0] >> 4) == 4)
		v = rte_ipv4_udptcp_cksum((const struct rte_ipv4_hdr *)ip, l4);
	else
		v = rte_ipv6_udptcp_cksum((const struct rte_ipv6_hdr *)ip, l4);
	memcpy(pkt + ck, &v, 2);
}

/*
 * One packet: TRex's program over @p st, its writes into @p pkt of @p len
 * bytes. @return the bytes sent: @p len, or less when trim_pkt_size cuts it.
 */
static uint32_t
sim_packet(const struct sim *m, struct sim_state *st, uint8_t *pkt, uint32_t len)
{
	const uint32_t size = len; /* the buffer's, whatever trim_pkt_size sends */
	unsigned int i;
	bool of;

	for (i = 0; i < m->n; i++) {
		const struct sim_ins *x = &m->in[i];
		uint64_t val, *p = &st->val[i], *idx = &st->aux[i];
		bool skip = false;

		switch (x->kind) {
		case SIM_VAR:
			if (x->op == SIM_RAND) {
				*p = x->list != NULL
					     ? x->list[sim_rand16(&st->rnd) % x->n_list]
					     : sim_rand_range(&st->rnd, x->size, x->min, x->max);
			} else if (x->list != NULL) {
				/* The index moves within the list's range, [0, n_list - 1]. */
				skip = x->op == SIM_INC ? *idx >= x->step
							: *idx + x->step < x->n_list;
				*p = x->list[*idx];
				*idx = sim_move(x, *idx, x->step, false);
			} else {
				skip = (x->op == SIM_INC ? x->max - *p : *p - x->min) >= x->step;
				*p = sim_move(x, *p, x->step, false);
			}
			break;
		case SIM_RLIMIT: {
			uint32_t seed;

			if (*idx == x->limit) {
				st->aux2[i] = x->seed;
				*idx = 0;
			}
			skip = *idx != 0;
			seed = (uint32_t)st->aux2[i];
			*p = sim_rand_range(&seed, x->size, x->min, x->max);
			st->aux2[i] = seed;
			(*idx)++;
			break;
		}
		case SIM_TUPLE:
			*p = sim_inc_mod(x->min, x->max, *p, x->ipstep, &of);
			/* The port by its step, one more when the IP wrapped (pstep < its range). */
			*idx = sim_inc_mod(x->pmin, x->pmax, *idx, x->pstep + of, &of);
			if (x->limit != 0 && ++st->aux2[i] > x->limit) {
				st->aux2[i] = 1;
				*p = x->ipinit;
				*idx = x->pinit;
			}
			break;
		case SIM_WRITE:
			val = sim_value(st, x) + (uint64_t)x->add;
			sim_store(pkt + x->off, x->size, val, x->be);
			break;
		case SIM_MASK: {
			uint32_t w, old;

			/* An 8-byte variable is read as its low 4 bytes. */
			w = (uint32_t)sim_value(st, x);
			if (x->size < 4)
				w &= (uint32_t)trex_vm_size_max(x->size);
			w += (uint32_t)x->add;
			w = x->shift >= 0 ? w << x->shift : w >> -x->shift;
			old = (uint32_t)sim_load(pkt + x->off, x->cast, x->be);
			sim_store(pkt + x->off, x->cast, (old & ~x->mask) | (w & x->mask), x->be);
			break;
		}
		case SIM_ICMP6:
			sim_icmp6(pkt, len, x);
			break;
		case SIM_CSUM4:
			/* A write may have made the header longer than the packet. */
			if (sim_ihl(pkt + x->off) > size - x->off)
				break;
			pkt[x->off + 10] = pkt[x->off + 11] = 0;
			sim_csum_put(pkt + x->off + 10,
				     rte_raw_cksum(pkt + x->off, sim_ihl(pkt + x->off)));
			break;
		case SIM_CSUMHW:
			/* Or an IP length longer: the checksums are left as they are. */
			if (sim_hw_fits(x, pkt, size))
				sim_hw(x, pkt);
			break;
		case SIM_TRIM:
			/* TRex's data path: a value of 0 leaves the packet whole. */
			val = st->val[x->var] & UINT16_MAX;
			if (val != 0 && val < len)
				len = (uint32_t)val;
			break;
		case SIM_NOP:
			break;
		}
		if (skip && x->skip != 0)
			i += x->skip;
	}
	/* Values live in the variable's size, as TRex's bss does. */
	for (i = 0; i < m->n; i++)
		if (m->in[i].kind == SIM_VAR || m->in[i].kind == SIM_RLIMIT)
			st->val[i] &= trex_vm_size_max(m->in[i].size);
	return len;
}

/*
 * Offsets and sizes checked against the packet before anything runs, and
 * the bytes any write (or the ICMPv6 checksum) may change, in order, into
 * @p fp (*@p nfp of them). @return 0, -EINVAL (message set) or -ENOMEM.
 */
static int
sim_footprint(struct sim *m, uint32_t len, uint16_t *fp, uint32_t *nfp)
{
	struct vm_ctx *c = m->c;
	const uint8_t *pkt = c->s->pkt;
	bool *hit = calloc(len, sizeof(*hit));
	unsigned int i;
	uint32_t b;
	int ret = 0;

	if (hit == NULL)
		return -ENOMEM;
	for (i = 0; i < m->n && ret == 0; i++) {
		const struct sim_ins *x = &m->in[i];
		uint64_t n = x->kind == SIM_MASK ? x->cast : x->size;

		c->ins = i;
		if ((x->kind == SIM_WRITE || x->kind == SIM_MASK) &&
		    (x->off > len || n > len - x->off))
			ret = trex_vm_fail(c,
					   "write of '%s': offset %" PRIu64 " + %" PRIu64
					   " bytes is past the %u B packet",
					   m->in[x->var].name, x->off, n, len);
		else if (x->kind == SIM_ICMP6 &&
			 (x->off > len || x->l3 > len - x->off || len - x->off - x->l3 < 4 ||
			  x->l3 < sizeof(struct rte_ipv6_hdr) || (pkt[x->off] >> 4) != 6 ||
			  pkt[x->off + 6] != IPPROTO_ICMPV6))
			ret = trex_vm_fail(c,
					   "fix_checksum_icmpv6: no IPv6 header with ICMPv6 "
					   "after it at l2_len %" PRIu64 ", l3_len %" PRIu64,
					   x->off, x->l3);
		else if (x->kind == SIM_CSUM4 && sim_ihl(pkt + x->off) > len - x->off)
			ret = trex_vm_fail(c,
					   "fix_checksum_ipv4: the IPv4 header at %" PRIu64
					   " is past the %u B packet",
					   x->off, len);
		else if (x->kind == SIM_CSUMHW && !sim_hw_fits(x, pkt, len))
			ret = trex_vm_fail(c,
					   "fix_checksum_hw: the IP packet at l2_len %" PRIu64
					   " is past the %u B packet",
					   x->off, len);
		else if (x->kind == SIM_WRITE || x->kind == SIM_MASK)
			for (b = 0; b < n; b++)
				hit[x->off + b] = true;
		else if (x->kind == SIM_ICMP6)
			hit[x->off + x->l3 + 2] = hit[x->off + x->l3 + 3] = true;
		else if (x->kind == SIM_CSUM4 || (x->kind == SIM_CSUMHW && (pkt[x->off] >> 4) == 4))
			hit[x->off + 10] = hit[x->off + 11] = true;
		if (ret == 0 && x->kind == SIM_CSUMHW && (b = sim_hw_l4(x, pkt)) != 0)
			hit[b] = hit[b + 1] = true;
	}
	*nfp = 0;
	for (b = 0; b < len; b++)
		if (hit[b])
			fp[(*nfp)++] = (uint16_t)b;
	free(hit);
	return ret;
}

/*
 * The bytes of the footprint @p fp (@p nfp of them) that vary over the
 * cycle as lib/pkt TABLE vars of 4, 2 or 1 contiguous bytes, with the
 * values of each packet taken from @p img (@p nfp bytes a packet). A var
 * may also cover footprint bytes that do not vary (they are written with
 * their one value), so that three varying bytes of a field (a 24-bit
 * VNI, a MAC's low half, an address over 2^16 values) take one var of 4
 * rather than two: CSIT's Geneve profiles vary 8 such fields.
 * @return 0 or -EINVAL (more words than lib/pkt's vars; message set).
 */
static int
sim_tables(struct sim *m, const uint8_t *img, const uint16_t *fp, uint32_t nfp, uint32_t cycle,
	   const bool *varies, uint32_t *tab)
{
	struct trex_stream *s = m->c->s;
	uint32_t i = 0, j, k, n, done = 0;

	s->n_vars = 0;
	while (i < nfp) {
		struct pvp_var *v;
		uint32_t *t;

		if (!varies[i]) {
			i++;
			continue;
		}
		/* Contiguous footprint bytes from here, up to 4, less those at
		 * the end that do not vary. */
		n = 1;
		while (n < 4 && i + n < nfp && fp[i + n] == fp[i] + n)
			n++;
		while (!varies[i + n - 1])
			n--;
		/* Three: one more footprint byte after, or one before that no
		 * var has taken yet, makes a var of 4. */
		if (n == 3 && i + 3 < nfp && fp[i + 3] == fp[i] + 3)
			n = 4;
		else if (n == 3 && i > done && fp[i - 1] == fp[i] - 1) {
			i--;
			n = 4;
		}
		n = n == 3 ? 2 : n;
		if (s->n_vars == PVP_PKT_MAX_VARS)
			return trex_vm_fail(m->c,
					    "the field engine changes more than %d words of the "
					    "packet, pvpkit-gen's bound",
					    PVP_PKT_MAX_VARS);
		v = &s->vars[s->n_vars];
		t = tab + (size_t)s->n_vars * cycle;
		memset(v, 0, sizeof(*v));
		v->op = PVP_VAR_TABLE;
		v->offset = fp[i];
		v->len = (uint8_t)n;
		v->step = 1;
		v->div = 1;
		v->period = cycle;
		v->min = UINT32_MAX;
		v->table = t;
		for (k = 0; k < cycle; k++) {
			uint32_t x = 0;

			for (j = 0; j < n; j++)
				x = x << 8 | img[(size_t)k * nfp + i + j];
			t[k] = x;
			v->min = RTE_MIN(v->min, x);
			v->max = RTE_MAX(v->max, x);
		}
		s->n_vars++;
		i += n;
		done = i;
	}
	return 0;
}

/*
 * One core's packets: run @p m from its start until the state after
 * packet 0 comes back (the cycle), at most @p cap packets, the footprint
 * bytes of each into @p img and its length into @p lens (when not NULL).
 * @return the cycle, 0 when longer than @p cap.
 */
uint32_t
trex_sim_run(const struct sim *m, const struct trex_stream *s, uint8_t *pkt, const uint16_t *fp,
	     uint32_t nfp, uint8_t *img, uint16_t *lens, uint32_t cap)
{
	struct sim_state st, first;
	uint32_t k, b;

	sim_reset(m, &st);
	for (k = 0; k < cap; k++) {
		/* Each packet starts from the stream's bytes, as TRex's copy does. */
		for (b = 0; b < nfp; b++)
			pkt[fp[b]] = s->pkt[fp[b]];
		b = sim_packet(m, &st, pkt, s->len);
		if (lens != NULL)
			lens[k] = (uint16_t)b;
		for (b = 0; b < nfp; b++)
			img[(size_t)k * nfp + b] = pkt[fp[b]];
		if (k == 0)
			first = st;
		else if (memcmp(&st, &first, sizeof(st)) == 0)
			return k;
	}
	return 0;
}

/*
 * The packet length TRex's rates count for a trim_pkt_size stream (its
 * m_expected_pkt_len): a value list's mean, a range's middle, and for a
 * random range the mean of TRex's own fastrand over it (seed 1, 10,000
 * draws, as TRex computes it).
 */
static double
sim_trim_expected(const struct sim *m)
{
	const struct sim_ins *v = &m->in[m->in[m->trim].var];
	uint64_t sum = 0, range;
	uint32_t i, seed = 1;

	if (v->list != NULL) {
		for (i = 0; i < v->n_list; i++)
			sum += v->list[i];
		return (double)sum / v->n_list;
	}
	if (v->op != SIM_RAND)
		return (double)(v->min + v->max) / 2.0;
	range = v->max - v->min;
	for (i = 0; i < SIM_TRIM_SAMPLES; i++)
		sum += sim_rand16(&seed) % (range + 1);
	return (double)v->min + (double)sum / SIM_TRIM_SAMPLES;
}

/* Whether @p m asks for TRex's own random sequence: a random flow_var and a seed. */
static bool
sim_seeded(const struct sim *m)
{
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (m->in[i].kind == SIM_VAR && m->in[i].op == SIM_RAND &&
		    m->c->s->random_seed != 0)
			return true;
	return false;
}

/*
 * Run TRex's engine packet by packet over one cycle of its state and make
 * @p s's vars TABLE vars of it (s->vm_table), or where the cycle is longer
 * than pvpkit keeps, the closed form when it has one (trex_vm_closed()).
 */
int
trex_vm_translate(const json_t *vm, struct trex_stream *s, char *msg, size_t len)
{
	const json_t *ins = json_object_get(vm, "instructions");
	uint8_t *pkt = NULL, *img = NULL;
	uint16_t *fp = NULL, *lens = NULL;
	uint32_t *tab = NULL;
	bool *varies = NULL;
	uint32_t cycle = 0, nfp = 0, k, b;
	struct sim *m;
	int ret;

	s->n_vars = 0;
	s->n_csum_fixed = 0;
	s->flows = 1;
	if (ins == NULL || json_is_null(ins))
		return 0;
	if (!json_is_array(ins))
		return pvp_fail(msg, len, -EINVAL, "vm.instructions must be an array");
	m = calloc(1, sizeof(*m));
	if (m == NULL)
		return -ENOMEM;
	m->c = &m->ctx;
	m->ctx = (struct vm_ctx){.s = s, .msg = msg, .len = len};
	/* TRex's seed for one core (thread 0): the stream's, spread by 514229. */
	m->rnd_seed = (s->random_seed != 0 ? s->random_seed : 1) * 514229u;
	ret = trex_vm_sim_parse(m, ins);
	if (ret != 0)
		goto out;
	pkt = malloc(s->len);
	fp = malloc(s->len * sizeof(*fp));
	if (pkt == NULL || fp == NULL)
		goto nomem;
	ret = sim_footprint(m, s->len, fp, &nfp);
	if (ret != 0)
		goto out;
	img = malloc((size_t)SIM_MAX_CYCLE * RTE_MAX(nfp, 1u));
	varies = calloc(RTE_MAX(nfp, 1u), sizeof(*varies));
	if (img == NULL || varies == NULL)
		goto nomem;
	if (m->trim >= 0 && (lens = malloc(SIM_MAX_CYCLE * sizeof(*lens))) == NULL)
		goto nomem;
	memcpy(pkt, s->pkt, s->len);
	ret = trex_sim_cores(m, s, pkt, fp, nfp, img, lens, &cycle);
	/*
	 * A cycle longer than the tables pvpkit keeps: the closed form where
	 * it holds, unless a seed asks for TRex's own random sequence; the
	 * cycle's first packets where it does not.
	 */
	if (ret == -ERANGE && !sim_seeded(m) && trex_vm_closed(m->c, m, ins) == 0) {
		ret = 0;
		goto out;
	}
	if (ret == -ERANGE)
		ret = 0;
	if (ret != 0)
		goto out;
	for (k = 1; k < cycle; k++)
		for (b = 0; b < nfp; b++)
			varies[b] |= img[(size_t)k * nfp + b] != img[b];
	/* Packet 0's bytes go into the stream: what never changes stays there. */
	for (b = 0; b < nfp; b++)
		s->pkt[fp[b]] = img[b];
	/* A var per varying byte at most. */
	b = RTE_MIN(nfp, (uint32_t)PVP_PKT_MAX_VARS);
	tab = malloc((size_t)RTE_MAX(b, 1u) * cycle * sizeof(*tab));
	if (tab == NULL)
		goto nomem;
	ret = sim_tables(m, img, fp, nfp, cycle, varies, tab);
	if (ret != 0)
		goto out;
	free(s->vm_table);
	s->vm_table = tab;
	tab = NULL;
	s->flows = s->n_vars == 0 ? 1 : cycle;
	if (lens != NULL) {
		/* The lengths vary with the cycle even where no byte is written. */
		free(s->vm_len);
		s->vm_len = lens;
		lens = NULL;
		s->flows = cycle;
		s->rate_len = sim_trim_expected(m);
	}
	goto out;
nomem:
	ret = -ENOMEM;
out:
	for (k = 0; k < m->n; k++)
		free(m->in[k].list);
	free(lens);
	free(tab);
	free(varies);
	free(img);
	free(fp);
	free(pkt);
	free(m);
	return ret;
}
