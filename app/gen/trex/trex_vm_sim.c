/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex's field engine run packet by packet at setup, as the TRex server's
 * data path runs it (trex-core src/stx/stl/trex_stl_stream_vm.h): the
 * variables' state, next_var chains skipping the variables they drive,
 * value lists, TRex's own random generator and seeds, flow_var_rand_limit
 * restarting its seed, tuples with limit_flows, writes with add_value
 * wrapping in the variable's size, masked writes with either shift, and
 * fix_checksum_icmpv6. The bytes the writes change become lib/pkt TABLE
 * variables holding one whole cycle of the engine (the state after packet
 * 0 seen again), so any mix of cycles and limits repeats exactly as
 * TRex's does. trex_vm.c uses this where its closed form has no
 * equivalent (or TRex's random sequence is asked for by a seed).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ip.h>

#include "trex.h"
#include "trex_vm_private.h"

/* Packets of one cycle kept at most: 2^18, 1 MiB per written word. */
#define SIM_MAX_CYCLE (UINT32_C(1) << 18)
/* Most instructions one stream may have (TRex's own bound is its bss size). */
#define SIM_MAX_INS 64
/* Value list entries, TRex's bound. */
#define SIM_MAX_LIST UINT16_MAX

enum sim_kind {
	SIM_VAR,    /* flow_var: inc, dec or random, range or value_list */
	SIM_RLIMIT, /* flow_var_rand_limit */
	SIM_TUPLE,  /* tuple_flow_var */
	SIM_WRITE,  /* write_flow_var */
	SIM_MASK,   /* write_mask_flow_var */
	SIM_ICMP6,  /* fix_checksum_icmpv6 */
	SIM_CSUM4,  /* fix_checksum_ipv4, without flow_stats */
	SIM_CSUMHW, /* fix_checksum_hw, without flow_stats: what the NIC sends */
	SIM_NOP,    /* checksums lib/pkt keeps (flow_stats streams) */
};

enum sim_op { SIM_INC, SIM_DEC, SIM_RAND };

/* One instruction; the state that moves lives in struct sim_state. */
struct sim_ins {
	enum sim_kind kind;
	char name[64];
	char next[64];
	enum sim_op op;
	unsigned int size; /* variable bytes */
	uint64_t min, max; /* range (a list: indices) */
	uint64_t step;	   /* step % range */
	uint64_t init;	   /* bss value before packet 0, or list index */
	uint64_t *list;	   /* value_list, NULL for a range */
	uint32_t n_list;
	uint32_t skip;				  /* instructions a non-wrapping variable skips */
	bool has_prev;				  /* moved by the variable before it */
	uint64_t limit;				  /* rand_limit / tuple limit_flows */
	uint32_t seed;				  /* rand_limit seed */
	uint64_t pmin, pmax, pinit, pprev, pstep; /* tuple port */
	uint64_t ipstep;    /* tuple IP step (0 when the range is one address) */
	unsigned int var;   /* writes: instruction index of the variable */
	unsigned int field; /* writes of a tuple: 0 ip, 1 port, 2 flow_limit */
	uint64_t off;	    /* writes: packet offset; icmpv6: l2_len */
	uint64_t l3;	    /* icmpv6, hw: l3_len */
	uint64_t l4;	    /* hw: l4_type */
	int64_t add;
	bool be;
	unsigned int cast; /* masked: packet bytes */
	uint32_t mask;
	int shift;
};

/* Everything that moves: compared after each packet to find the cycle. */
struct sim_state {
	uint64_t val[SIM_MAX_INS];  /* variable value (tuple: IP) */
	uint64_t aux[SIM_MAX_INS];  /* list index, rand_limit count, tuple port */
	uint64_t aux2[SIM_MAX_INS]; /* rand_limit seed, tuple flow id */
	uint32_t rnd;		    /* the per-stream random generator */
	uint32_t pad;		    /* zero: states are compared with memcmp */
};

struct sim {
	struct vm_ctx *c;
	struct sim_ins in[SIM_MAX_INS];
	unsigned int n;
	uint32_t rnd_seed;
};

/* TRex's fastrand (Intel's LCG), 15 bits a call. */
static uint32_t
sim_rand16(uint32_t *seed)
{
	*seed = 214013 * *seed + 2531011;
	return (*seed >> 16) & 0x7fff;
}

static uint32_t
sim_rand32(uint32_t *seed)
{
	uint32_t hi = sim_rand16(seed);

	return (hi << 16) + sim_rand16(seed);
}

static uint64_t
sim_rand64(uint32_t *seed)
{
	uint64_t hi = sim_rand32(seed);

	return (hi << 32) + sim_rand32(seed);
}

/* A random value in [min, max] for a @p size-byte variable, as TRex draws it. */
static uint64_t
sim_rand_range(uint32_t *seed, unsigned int size, uint64_t min, uint64_t max)
{
	if (size <= 2)
		return min + sim_rand16(seed) % (max - min + 1);
	if (size == 4)
		return min + sim_rand32(seed) % (max - min + 1);
	if (max - min == UINT64_MAX)
		return sim_rand64(seed);
	return min + sim_rand64(seed) % (max - min + 1);
}

/* TRex's inc_mod_of: @p c up by @p step within [a, b], *of when it wrapped. */
static uint64_t
sim_inc_mod(uint64_t a, uint64_t b, uint64_t c, uint64_t step, bool *of)
{
	*of = step > b - c;
	return *of ? a + (step - (b - c) - 1) : c + step;
}

/* TRex's dec_mod_of: @p c down by @p step within [a, b], *of when it wrapped. */
static uint64_t
sim_dec_mod(uint64_t a, uint64_t b, uint64_t c, uint64_t step, bool *of)
{
	*of = step > c - a;
	return *of ? b - (step - (c - a) - 1) : c - step;
}

/*
 * The variable a write names ("x", or "t.ip", "t.port", "t.flow_limit" of
 * a tuple "t"), and in *field which of a tuple's fields. NULL if none.
 */
static struct sim_ins *
sim_find(struct sim *m, const char *name, unsigned int *field)
{
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		struct sim_ins *x = &m->in[i];
		size_t l = strlen(x->name);

		if (x->kind > SIM_TUPLE)
			continue;
		*field = 0;
		if (x->kind != SIM_TUPLE && strcmp(x->name, name) == 0)
			return x;
		if (x->kind == SIM_TUPLE && strncmp(x->name, name, l) == 0 && name[l] == '.') {
			if (strcmp(name + l + 1, "ip") == 0)
				return x;
			*field = strcmp(name + l + 1, "port") == 0 ? 1 : 2;
			if (*field == 2 && strcmp(name + l + 1, "flow_limit") != 0)
				continue;
			return x;
		}
	}
	return NULL;
}

/* flow_var and flow_var_rand_limit, checked as TRex's add_stream checks them. */
static int
sim_parse_var(struct sim *m, struct sim_ins *x, const json_t *in, bool rlimit)
{
	struct vm_ctx *c = m->c;
	const char *name = trex_vm_str(c, in, "name", NULL), *next, *op = "";
	const json_t *vl = json_object_get(in, "value_list");
	uint64_t size = 0, range, vmax, pad, seed = 0;
	bool of;

	if (name == NULL || (next = trex_vm_str(c, in, "next_var", "")) == NULL ||
	    trex_vm_uint(c, in, "size", -1, &size) != 0)
		return -EINVAL;
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return trex_vm_fail(c, "'size' must be 1, 2, 4 or 8");
	if (strlen(name) >= sizeof(x->name) || strlen(next) >= sizeof(x->next))
		return trex_vm_fail(c, "variable names are at most %zu characters",
				    sizeof(x->name) - 1);
	snprintf(x->name, sizeof(x->name), "%s", name);
	snprintf(x->next, sizeof(x->next), "%s", next);
	x->size = (unsigned int)size;
	vmax = trex_vm_size_max(x->size);
	if (rlimit) {
		x->kind = SIM_RLIMIT;
		if (trex_vm_uint(c, in, "limit", -1, &x->limit) != 0 ||
		    trex_vm_uint(c, in, "seed", -1, &seed) != 0 ||
		    trex_vm_uint(c, in, "min_value", -1, &x->min) != 0 ||
		    trex_vm_uint(c, in, "max_value", -1, &x->max) != 0)
			return -EINVAL;
		if (x->limit == 0 || x->limit > vmax)
			return trex_vm_fail(c,
					    "flow_var_rand_limit '%s': limit %" PRIu64
					    " must be 1..%" PRIu64,
					    name, x->limit, vmax);
		if (x->min > x->max || x->max > vmax)
			return trex_vm_fail(c,
					    "flow_var_rand_limit '%s': min_value %" PRIu64
					    ", max_value %" PRIu64
					    " do not fit %u byte(s) in order",
					    name, x->min, x->max, x->size);
		x->seed = (uint32_t)seed;
		return 0;
	}
	x->kind = SIM_VAR;
	op = trex_vm_str(c, in, "op", NULL);
	if (op == NULL || trex_vm_uint(c, in, "step", 1, &x->step) != 0)
		return -EINVAL;
	if (strcmp(op, "inc") == 0)
		x->op = SIM_INC;
	else if (strcmp(op, "dec") == 0)
		x->op = SIM_DEC;
	else if (strcmp(op, "random") == 0)
		x->op = SIM_RAND;
	else
		return trex_vm_fail(c, "flow_var '%s': 'op' must be inc, dec or random", name);
	if (x->step == 0)
		return trex_vm_fail(c, "flow_var '%s': step cannot be 0", name);
	if (vl != NULL && !json_is_null(vl)) {
		size_t i;
		const json_t *v;

		if (!json_is_array(vl) || json_array_size(vl) == 0 ||
		    json_array_size(vl) > SIM_MAX_LIST)
			return trex_vm_fail(c, "flow_var '%s': value_list must hold 1..%u values",
					    name, SIM_MAX_LIST);
		if (x->step > json_array_size(vl))
			return trex_vm_fail(
				c, "flow_var '%s': step cannot be bigger than list size", name);
		x->n_list = (uint32_t)json_array_size(vl);
		x->list = calloc(x->n_list, sizeof(*x->list));
		if (x->list == NULL)
			return -ENOMEM;
		json_array_foreach(vl, i, v) {
			if (!json_is_integer(v) || json_integer_value(v) < 0 ||
			    (uint64_t)json_integer_value(v) > vmax)
				return trex_vm_fail(
					c, "flow_var '%s': value_list[%zu] must be 0..%" PRIu64,
					name, i, vmax);
			x->list[i] = (uint64_t)json_integer_value(v);
		}
		x->min = 0;
		x->max = x->n_list - 1;
		x->step %= x->n_list;
		/* The list index is TRex's state: it starts at either end. */
		x->init = x->op == SIM_DEC ? x->n_list - 1 : 0;
		return 0;
	}
	if (trex_vm_uint(c, in, "min_value", -1, &x->min) != 0 ||
	    trex_vm_uint(c, in, "max_value", -1, &x->max) != 0 ||
	    trex_vm_uint(c, in, "init_value", (int64_t)x->min, &x->init) != 0)
		return -EINVAL;
	if (x->min > x->max || x->max > vmax)
		return trex_vm_fail(c,
				    "flow_var '%s': min_value %" PRIu64 ", max_value %" PRIu64
				    " do not fit %u byte(s) in order",
				    name, x->min, x->max, x->size);
	if (x->init < x->min || x->init > x->max)
		return trex_vm_fail(c,
				    "flow_var '%s': init_value %" PRIu64
				    " should be in range from min value %" PRIu64
				    " to max value %" PRIu64,
				    name, x->init, x->min, x->max);
	/* TRex pads a range the step does not divide into a true cycle. */
	range = x->max - x->min + 1;
	pad = range != 0 ? range % x->step : 0;
	if (x->op != SIM_RAND && pad != 0) {
		if (x->op == SIM_INC && x->max + (x->step - pad) <= vmax)
			x->max += x->step - pad;
		else if (x->op == SIM_DEC && x->min >= x->step - pad)
			x->min -= x->step - pad;
		else
			return trex_vm_fail(c,
					    "flow_var '%s': could not pad range to be a true "
					    "cycle - '(max_value - min_value + 1) %% step' should "
					    "be zero",
					    name);
	}
	range = x->max - x->min + 1;
	if (range != 0)
		x->step %= range;
	/* The bss holds the value before init_value: packet 0 moves to it. */
	if (x->op == SIM_INC)
		x->init = sim_dec_mod(x->min, x->max, x->init, x->step, &of);
	else if (x->op == SIM_DEC)
		x->init = sim_inc_mod(x->min, x->max, x->init, x->step, &of);
	return 0;
}

static int
sim_parse_tuple(struct sim *m, struct sim_ins *x, const json_t *in)
{
	struct vm_ctx *c = m->c;
	const char *name = trex_vm_str(c, in, "name", NULL);
	uint64_t flags = 0;
	bool of;

	x->kind = SIM_TUPLE;
	if (name == NULL || trex_vm_uint(c, in, "ip_min", -1, &x->min) != 0 ||
	    trex_vm_uint(c, in, "ip_max", -1, &x->max) != 0 ||
	    trex_vm_uint(c, in, "port_min", -1, &x->pmin) != 0 ||
	    trex_vm_uint(c, in, "port_max", -1, &x->pmax) != 0 ||
	    trex_vm_uint(c, in, "limit_flows", 0, &x->limit) != 0 ||
	    trex_vm_uint(c, in, "flags", 0, &flags) != 0)
		return -EINVAL;
	if (flags & 1)
		return trex_vm_fail(c,
				    "tuple_flow_var '%s': unlimited flows (flags 1) are not "
				    "supported by pvpkit-gen",
				    name);
	if (x->max < x->min || x->max > UINT32_MAX || x->pmax < x->pmin || x->pmax > UINT16_MAX)
		return trex_vm_fail(c, "tuple_flow_var '%s': bad IP or port range", name);
	if (strlen(name) >= sizeof(x->name))
		return trex_vm_fail(c, "variable names are at most %zu characters",
				    sizeof(x->name) - 1);
	snprintf(x->name, sizeof(x->name), "%s", name);
	/* One core: the IP moves by 1 (0 for one address, the port moving each packet). */
	x->ipstep = 1 % (x->max - x->min + 1);
	x->pstep = x->max == x->min ? 1 % (x->pmax - x->pmin + 1) : 0;
	x->init = sim_dec_mod(x->min, x->max, x->min, x->ipstep, &of);
	x->pinit = x->pmin;
	x->pprev = sim_dec_mod(x->pmin, x->pmax, x->pmin,
			       (x->pstep + (of ? 1 : 0)) % (x->pmax - x->pmin + 1), &of);
	return 0;
}

static int
sim_parse_write(struct sim *m, struct sim_ins *x, const json_t *in, bool masked)
{
	struct vm_ctx *c = m->c;
	const char *name = trex_vm_str(c, in, "name", NULL);
	const json_t *be;
	uint64_t mask = 0;
	int64_t shift = 0;

	x->kind = masked ? SIM_MASK : SIM_WRITE;
	if (name == NULL || trex_vm_uint(c, in, "pkt_offset", -1, &x->off) != 0 ||
	    trex_vm_int(c, in, "add_value", 0, &x->add) != 0)
		return -EINVAL;
	/* TRex reads add_value as a 32-bit int. */
	if (x->add < INT32_MIN || x->add > INT32_MAX)
		return trex_vm_fail(c,
				    "write of '%s': add_value %" PRId64 " must be a 32-bit integer",
				    name, x->add);
	/* The variable may come later: sim_parse() resolves it once all are read. */
	if (strlen(name) >= sizeof(x->name))
		return trex_vm_fail(c, "write of '%s': no such flow variable", name);
	snprintf(x->name, sizeof(x->name), "%s", name);
	be = json_object_get(in, "is_big_endian");
	x->be = be == NULL || json_is_null(be) || json_is_true(be);
	if (be != NULL && !json_is_null(be) && !json_is_boolean(be))
		return trex_vm_fail(c, "'is_big_endian' must be a boolean");
	if (!masked)
		return 0;
	if (trex_vm_uint(c, in, "pkt_cast_size", -1, &mask) != 0)
		return -EINVAL;
	x->cast = (unsigned int)mask;
	if (trex_vm_uint(c, in, "mask", -1, &mask) != 0 ||
	    trex_vm_int(c, in, "shift", 0, &shift) != 0)
		return -EINVAL;
	if (x->cast != 1 && x->cast != 2 && x->cast != 4)
		return trex_vm_fail(c, "'pkt_cast_size' must be 1, 2 or 4");
	if (mask > UINT32_MAX || shift <= -32 || shift >= 32)
		return trex_vm_fail(c,
				    "write_mask_flow_var of '%s': mask must fit 32 bits and "
				    "shift be -31..31",
				    name);
	x->mask = (uint32_t)mask;
	x->shift = (int)shift;
	return 0;
}

static int
sim_parse(struct sim *m, const json_t *ins)
{
	struct vm_ctx *c = m->c;
	const json_t *in;
	unsigned int skip = 0;
	size_t i;
	int ret;

	if (json_array_size(ins) > SIM_MAX_INS)
		return trex_vm_fail(c, "at most %d instructions", SIM_MAX_INS);
	json_array_foreach(ins, i, in) {
		struct sim_ins *x = &m->in[m->n];
		const char *type;

		c->ins = (unsigned int)i;
		if (!json_is_object(in) || (type = trex_vm_str(c, in, "type", NULL)) == NULL)
			return trex_vm_fail(c, "expected an object with a 'type'");
		m->n++;
		if (strcmp(type, "flow_var") == 0)
			ret = sim_parse_var(m, x, in, false);
		else if (strcmp(type, "flow_var_rand_limit") == 0)
			ret = sim_parse_var(m, x, in, true);
		else if (strcmp(type, "tuple_flow_var") == 0)
			ret = sim_parse_tuple(m, x, in);
		else if (strcmp(type, "write_flow_var") == 0)
			ret = sim_parse_write(m, x, in, false);
		else if (strcmp(type, "write_mask_flow_var") == 0)
			ret = sim_parse_write(m, x, in, true);
		else if (strcmp(type, "fix_checksum_icmpv6") == 0) {
			x->kind = SIM_ICMP6;
			ret = trex_vm_uint(c, in, "l2_len", -1, &x->off);
			if (ret == 0)
				ret = trex_vm_uint(c, in, "l3_len", -1, &x->l3);
		} else if (strcmp(type, "trim_pkt_size") == 0) {
			ret = trex_vm_fail(c, "'trim_pkt_size' is not supported by pvpkit-gen");
		} else if (strcmp(type, "fix_checksum_ipv4") == 0) {
			/* With flow_stats, lib/pkt keeps every checksum (the signature moves). */
			x->kind = c->s->fs ? SIM_NOP : SIM_CSUM4;
			ret = trex_vm_checksum(c, in, type);
			if (ret == 0)
				ret = trex_vm_uint(c, in, "pkt_offset", -1, &x->off);
		} else if (strcmp(type, "fix_checksum_hw") == 0) {
			x->kind = c->s->fs ? SIM_NOP : SIM_CSUMHW;
			ret = trex_vm_checksum(c, in, type);
			if (ret == 0)
				ret = trex_vm_uint(c, in, "l2_len", -1, &x->off);
			if (ret == 0)
				ret = trex_vm_uint(c, in, "l3_len", -1, &x->l3);
			if (ret == 0)
				ret = trex_vm_uint(c, in, "l4_type", -1, &x->l4);
		} else {
			ret = trex_vm_fail(c, "unknown instruction type '%s'", type);
		}
		if (ret != 0)
			return ret;
	}
	/* Writes name their variable; TRex's rule: a next_var names the one right after it. */
	for (i = 0; i < m->n; i++) {
		struct sim_ins *x = &m->in[i];
		const struct sim_ins *v;

		c->ins = (unsigned int)i;
		if (x->kind == SIM_WRITE || x->kind == SIM_MASK) {
			v = sim_find(m, x->name, &x->field);
			if (v == NULL)
				return trex_vm_fail(c, "write of '%s': no such flow variable",
						    x->name);
			x->var = (unsigned int)(v - m->in);
			x->size = v->kind == SIM_TUPLE ? (x->field == 1 ? 2 : 4) : v->size;
		}
		if ((x->kind != SIM_VAR && x->kind != SIM_RLIMIT) || x->next[0] == '\0')
			continue;
		if (i + 1 == m->n ||
		    (m->in[i + 1].kind != SIM_VAR && m->in[i + 1].kind != SIM_RLIMIT) ||
		    strcmp(m->in[i + 1].name, x->next) != 0)
			return trex_vm_fail(c,
					    "next_var '%s' of '%s' must be the variable right "
					    "after it",
					    x->next, x->name);
		m->in[i + 1].has_prev = true;
	}
	/* How many chained variables a non-wrapping one skips (TRex's m_skip). */
	for (i = m->n; i-- > 0;) {
		struct sim_ins *x = &m->in[i];

		if (x->kind != SIM_VAR && x->kind != SIM_RLIMIT) {
			skip = 0;
			continue;
		}
		x->skip = skip;
		skip = x->has_prev ? skip + 1 : 0;
	}
	return 0;
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

/* The value a write reads from its variable. */
static uint64_t
sim_value(const struct sim_ins *v, const struct sim_state *st, unsigned int i, unsigned int field)
{
	if (v->kind != SIM_TUPLE)
		return st->val[i];
	return field == 0 ? st->val[i] : field == 1 ? st->aux[i] : st->aux2[i];
}

/* ICMPv6's checksum over the pseudo header and the IPv6 payload, as TRex computes it. */
static void
sim_icmp6(uint8_t *pkt, uint32_t len, const struct sim_ins *x)
{
	const struct rte_ipv6_hdr *ip6 = (const struct rte_ipv6_hdr *)(pkt + x->off);
	uint8_t *icmp = pkt + x->off + x->l3;
	uint32_t plen = rte_be_to_cpu_16(ip6->payload_len), sum;
	uint16_t ck;

	if (x->off + x->l3 + plen > len)
		plen = len - (uint32_t)(x->off + x->l3);
	icmp[2] = icmp[3] = 0;
	sum = rte_ipv6_phdr_cksum(ip6, 0);
	sum += rte_raw_cksum(icmp, plen);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	/* Sums of memory-order words: the result goes in as it is. */
	ck = (uint16_t)~sum;
	memcpy(icmp + 2, &ck, 2);
}

/* The checksum of a folded sum @p sum into the 2 bytes at @p at (memory order). */
static void
sim_csum_put(uint8_t *at, uint16_t sum)
{
	uint16_t ck = (uint16_t)~sum;

	memcpy(at, &ck, 2);
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

/* One packet: TRex's program over @p st, its writes into @p pkt. */
static void
sim_packet(const struct sim *m, struct sim_state *st, uint8_t *pkt, uint32_t len)
{
	unsigned int i;
	bool of;

	for (i = 0; i < m->n; i++) {
		const struct sim_ins *x = &m->in[i];
		const struct sim_ins *v;
		uint64_t val, *p = &st->val[i], *idx = &st->aux[i];
		bool skip = false;

		switch (x->kind) {
		case SIM_VAR:
			if (x->op == SIM_RAND) {
				*p = x->list != NULL
					     ? x->list[sim_rand16(&st->rnd) % x->n_list]
					     : sim_rand_range(&st->rnd, x->size, x->min, x->max);
			} else if (x->list != NULL && x->op == SIM_INC) {
				skip = *idx >= x->step;
				*p = x->list[*idx];
				*idx = *idx + x->step >= x->n_list ? *idx + x->step - x->n_list
								   : *idx + x->step;
			} else if (x->list != NULL) {
				skip = *idx + x->step < x->n_list;
				*p = x->list[*idx];
				*idx = *idx >= x->step ? *idx - x->step
						       : x->n_list + *idx - x->step;
			} else if (x->op == SIM_INC) {
				skip = x->max - *p >= x->step;
				*p = sim_inc_mod(x->min, x->max, *p, x->step, &of);
			} else {
				skip = *p - x->min >= x->step;
				*p = sim_dec_mod(x->min, x->max, *p, x->step, &of);
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
			*idx = sim_inc_mod(x->pmin, x->pmax, *idx, x->pstep, &skip);
			if (of)
				*idx = sim_inc_mod(x->pmin, x->pmax, *idx, 1, &skip);
			skip = false;
			if (x->limit != 0 && ++st->aux2[i] > x->limit) {
				st->aux2[i] = 1;
				*p = x->min;
				*idx = x->pinit;
			}
			break;
		case SIM_WRITE:
			v = &m->in[x->var];
			val = sim_value(v, st, x->var, x->field) + (uint64_t)x->add;
			sim_store(pkt + x->off, x->size, val, x->be);
			break;
		case SIM_MASK: {
			uint32_t w, old;

			v = &m->in[x->var];
			/* An 8-byte variable is read as its low 4 bytes. */
			w = (uint32_t)sim_value(v, st, x->var, x->field);
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
			pkt[x->off + 10] = pkt[x->off + 11] = 0;
			sim_csum_put(pkt + x->off + 10,
				     rte_raw_cksum(pkt + x->off, sim_ihl(pkt + x->off)));
			break;
		case SIM_CSUMHW:
			sim_hw(x, pkt);
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
}

/* Whether the IP packet fix_checksum_hw @p x covers lies in the packet: 0 or -EINVAL. */
static int
sim_hw_check(const struct trex_stream *s, const struct sim_ins *x)
{
	const uint8_t *ip = s->pkt + x->off;
	uint32_t ck, end;

	if (x->off > s->len || s->len - x->off < sizeof(struct rte_ipv6_hdr) ||
	    x->l3 > s->len - x->off)
		return -EINVAL;
	if ((ip[0] >> 4) == 4)
		end = (uint32_t)(ip[2] << 8 | ip[3]);
	else if ((ip[0] >> 4) == 6)
		end = sizeof(struct rte_ipv6_hdr) + (uint32_t)(ip[4] << 8 | ip[5]);
	else
		return -EINVAL;
	ck = sim_hw_l4(x, s->pkt);
	if (end > s->len - x->off || ((ip[0] >> 4) == 4 && sim_ihl(ip) > end) ||
	    (ck != 0 && ck + 2 > x->off + end))
		return -EINVAL;
	return 0;
}

/* Offsets and sizes checked against the packet before anything runs. */
static int
sim_check(struct sim *m, uint32_t len)
{
	struct vm_ctx *c = m->c;
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		const struct sim_ins *x = &m->in[i];
		uint64_t n = x->kind == SIM_MASK ? x->cast : x->size;

		c->ins = i;
		if ((x->kind == SIM_WRITE || x->kind == SIM_MASK) &&
		    (x->off > len || n > len - x->off))
			return trex_vm_fail(c,
					    "write of '%s': offset %" PRIu64 " + %" PRIu64
					    " bytes is past the %u B packet",
					    m->in[x->var].name, x->off, n, len);
		if (x->kind == SIM_ICMP6 &&
		    (x->off > len || x->l3 > len - x->off || len - x->off - x->l3 < 4 ||
		     x->l3 < sizeof(struct rte_ipv6_hdr) || (m->c->s->pkt[x->off] >> 4) != 6 ||
		     m->c->s->pkt[x->off + 6] != IPPROTO_ICMPV6))
			return trex_vm_fail(c,
					    "fix_checksum_icmpv6: no IPv6 header with ICMPv6 "
					    "after it at l2_len %" PRIu64 ", l3_len %" PRIu64,
					    x->off, x->l3);
		if (x->kind == SIM_CSUM4 && (x->off > len || len - x->off < 20 ||
					     sim_ihl(m->c->s->pkt + x->off) > len - x->off))
			return trex_vm_fail(c,
					    "fix_checksum_ipv4: the IPv4 header at %" PRIu64
					    " is past the %u B packet",
					    x->off, len);
		if (x->kind == SIM_CSUMHW && sim_hw_check(m->c->s, x) != 0)
			return trex_vm_fail(c,
					    "fix_checksum_hw: the IP packet at l2_len %" PRIu64
					    " is past the %u B packet",
					    x->off, len);
	}
	return 0;
}

/*
 * Bytes any write (or the ICMPv6 checksum) may change, in order, into
 * @p fp. @return how many.
 */
static uint32_t
sim_footprint(const struct sim *m, uint32_t len, uint16_t *fp)
{
	bool *hit = calloc(len, sizeof(*hit));
	uint32_t n = 0, b;
	unsigned int i;

	if (hit == NULL)
		return 0;
	for (i = 0; i < m->n; i++) {
		const struct sim_ins *x = &m->in[i];

		if (x->kind == SIM_WRITE || x->kind == SIM_MASK)
			for (b = 0; b < (x->kind == SIM_MASK ? x->cast : x->size); b++)
				hit[x->off + b] = true;
		else if (x->kind == SIM_ICMP6)
			hit[x->off + x->l3 + 2] = hit[x->off + x->l3 + 3] = true;
		else if (x->kind == SIM_CSUM4 ||
			 (x->kind == SIM_CSUMHW && (m->c->s->pkt[x->off] >> 4) == 4))
			hit[x->off + 10] = hit[x->off + 11] = true;
		if (x->kind == SIM_CSUMHW && (b = sim_hw_l4(x, m->c->s->pkt)) != 0)
			hit[b] = hit[b + 1] = true;
	}
	for (b = 0; b < len; b++)
		if (hit[b])
			fp[n++] = (uint16_t)b;
	free(hit);
	return n;
}

/*
 * The bytes of the footprint @p fp (@p nfp of them) that vary over the
 * cycle as lib/pkt TABLE vars of 4, 2 or 1 contiguous bytes, with the
 * values of each packet taken from @p img (@p nfp bytes a packet).
 * @return 0 or -EINVAL (more words than lib/pkt's vars; message set).
 */
static int
sim_tables(struct sim *m, const uint8_t *img, const uint16_t *fp, uint32_t nfp, uint32_t cycle,
	   const bool *varies, uint32_t *tab)
{
	struct trex_stream *s = m->c->s;
	uint32_t i = 0, j, k, n;

	s->n_vars = 0;
	while (i < nfp) {
		struct pvp_var *v;
		uint32_t *t;

		if (!varies[i]) {
			i++;
			continue;
		}
		n = 1;
		while (n < 4 && i + n < nfp && varies[i + n] && fp[i + n] == fp[i] + n)
			n++;
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
	}
	return 0;
}

int
trex_vm_sim(struct vm_ctx *c, const json_t *ins, bool need_cycle)
{
	struct trex_stream *s = c->s;
	struct sim_state *st = NULL, *first = NULL;
	uint8_t *pkt = NULL, *img = NULL;
	uint16_t *fp = NULL;
	uint32_t *tab = NULL;
	bool *varies = NULL;
	uint32_t cycle = 0, nfp = 0, k, b;
	struct sim *m;
	int ret;

	m = calloc(1, sizeof(*m));
	if (m == NULL)
		return -ENOMEM;
	m->c = c;
	/* TRex's seed for one core (thread 0): the stream's, spread by 514229. */
	m->rnd_seed = (s->random_seed != 0 ? s->random_seed : 1) * 514229u;
	ret = sim_parse(m, ins);
	if (ret == 0)
		ret = sim_check(m, s->len);
	if (ret != 0)
		goto out;
	st = malloc(sizeof(*st));
	first = malloc(sizeof(*first));
	pkt = malloc(s->len);
	fp = malloc(s->len * sizeof(*fp));
	if (st == NULL || first == NULL || pkt == NULL || fp == NULL)
		goto nomem;
	nfp = sim_footprint(m, s->len, fp);
	img = malloc((size_t)SIM_MAX_CYCLE * RTE_MAX(nfp, 1u));
	varies = calloc(RTE_MAX(nfp, 1u), sizeof(*varies));
	if (img == NULL || varies == NULL)
		goto nomem;
	sim_reset(m, st);
	memcpy(pkt, s->pkt, s->len);
	/* Run until the state after packet 0 comes back: that is the cycle. */
	for (k = 0; k < SIM_MAX_CYCLE; k++) {
		/* Each packet starts from the stream's bytes, as TRex's copy does. */
		for (b = 0; b < nfp; b++)
			pkt[fp[b]] = s->pkt[fp[b]];
		sim_packet(m, st, pkt, s->len);
		for (b = 0; b < nfp; b++)
			img[(size_t)k * nfp + b] = pkt[fp[b]];
		if (k == 0)
			*first = *st;
		else if (memcmp(st, first, sizeof(*st)) == 0) {
			cycle = k;
			break;
		}
	}
	if (cycle == 0 && need_cycle) {
		ret = -ERANGE;
		goto out;
	}
	if (cycle == 0)
		cycle = SIM_MAX_CYCLE;
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
	goto out;
nomem:
	ret = -ENOMEM;
out:
	for (k = 0; k < m->n; k++)
		free(m->in[k].list);
	free(tab);
	free(varies);
	free(img);
	free(fp);
	free(pkt);
	free(first);
	free(st);
	free(m);
	return ret;
}
