/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex's field engine ("vm" of a stream) as lib/pkt variables, so a TRex
 * stream takes the TX path of a profile stream.
 *
 * TRex runs its instructions on every packet: a flow_var moves by its
 * step from init_value, wrapping within [min_value, max_value] (a range
 * that is no multiple of the step is padded first, as the TRex server
 * does), a var named by another's next_var moves only when that one
 * wraps, a tuple_flow_var's port moves when its IP wraps, and each write
 * puts (value + add_value), big endian, at a byte offset. lib/pkt's
 * variable of flow index f is the same sequence: min + (k * step mod
 * range) with k = f / div, div being the product of the periods of the
 * vars that move it. Each write becomes one lib/pkt var (shifted into its
 * mask, or split off the constant high half of an 8-byte variable); the
 * flow count is the least common multiple of the cycles, so the sequence
 * repeats exactly as TRex's does. lib/pkt keeps the IPv4, UDP and TCP
 * checksums that fix_checksum_ipv4 and fix_checksum_hw name valid after a
 * write; the others stay as the packet has them, as in TRex
 * (trex_stream.c).
 *
 * The instructions are read and checked once, by the simulator's parser
 * (trex_vm_sim_parse.c); the closed form is made of what it read, and
 * only where the simulator's cycle is longer than the tables pvpkit keeps
 * (trex_vm_sim.c). What has no exact equivalent has no closed form:
 * value_list, an init_value other than the start of the cycle, little
 * endian writes, right shifts, masks the values do not fit, values that
 * wrap through add_value, 8-byte vars whose high half varies,
 * trim_pkt_size, fix_checksum_icmpv6, unlimited tuples, and a limit
 * (flow_var_rand_limit, tuple limit_flows) other vars' cycles do not
 * divide.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvp_util.h"

#include "trex.h"
#include "trex_vm_private.h"

int
trex_vm_fail(struct vm_ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(c->msg, c->len, "vm.instructions[%u]: ", c->ins);
	if (n < 0 || (size_t)n >= c->len)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(c->msg + n, c->len - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* lcm of a and b, or 0 past VM_MAX_FLOWS. */
static uint64_t
vm_lcm(uint64_t a, uint64_t b)
{
	uint64_t g = pvp_gcd64(a, b), q = a / g;

	if (q != 0 && b > VM_MAX_FLOWS / q)
		return 0;
	return q * b;
}

uint64_t
trex_vm_size_max(unsigned int size)
{
	return size >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * size)) - 1;
}

/* The variable named @p name, or NULL. */
static struct vm_def *
trex_vm_find(struct vm_ctx *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < c->nb; i++)
		if (strcmp(c->def[i].name, name) == 0)
			return &c->def[i];
	return NULL;
}

/* A new def @p name, a copy of @p init; NULL (c's message set) when it cannot be. */
static struct vm_def *
vm_new(struct vm_ctx *c, const char *name, const struct vm_def *init)
{
	struct vm_def *d;

	if (trex_vm_find(c, name) != NULL) {
		trex_vm_fail(c, "variable '%s' is defined twice", name);
		return NULL;
	}
	if (c->nb == VM_MAX_DEFS || strlen(name) >= sizeof(d->name)) {
		trex_vm_fail(c, "variable '%s': at most %d variables of up to %zu characters", name,
			     VM_MAX_DEFS, sizeof(d->name) - 1);
		return NULL;
	}
	d = &c->def[c->nb++];
	*d = *init;
	snprintf(d->name, sizeof(d->name), "%s", name);
	return d;
}

/*
 * A flow_var or flow_var_rand_limit @p x (@p in as given) as a def; a
 * variable another's next_var names moves when the one before it wraps.
 */
static int
vm_flow_var(struct vm_ctx *c, const struct sim_ins *x, const json_t *in)
{
	const struct vm_def *prev = x->has_prev ? &c->def[c->nb - 1] : NULL;
	const json_t *vl = json_object_get(in, "value_list");
	uint64_t range, init;
	struct vm_def *d;

	if (vl != NULL && !json_is_null(vl))
		return trex_vm_fail(c, "flow_var '%s': value_list is not supported by pvpkit-gen",
				    x->name);
	d = vm_new(
		c, x->name,
		&(struct vm_def){
			.size = x->size, .min = x->min, .max = x->max, .step = x->step0, .div = 1});
	if (d == NULL)
		return -EINVAL;
	if (prev != NULL) {
		if (prev->div > VM_MAX_FLOWS / prev->period)
			return trex_vm_fail(c,
					    "the next_var chain through '%s' makes more than "
					    "2^48 flows",
					    prev->name);
		d->div = prev->div * prev->period;
	}
	/* The simulator's parser padded an inc or dec range as the TRex server does. */
	range = d->max - d->min + 1;
	if (x->kind == SIM_RLIMIT) {
		d->op = PVP_VAR_RANDOM;
		d->limit = x->limit;
		d->seed = x->seed;
		d->step = 1;
		/* lib/pkt's random is a permutation: a limit above the range repeats it. */
		d->period = range != 0 && d->limit > range ? range : d->limit;
		if (d->limit > range)
			d->limit = 0;
		return 0;
	}
	if (x->op == SIM_RAND) {
		d->op = PVP_VAR_RANDOM;
		d->period = range;
		d->seed = c->s->id * 1000003u + c->nb;
		return 0;
	}
	d->op = x->op == SIM_INC ? PVP_VAR_INC : PVP_VAR_DEC;
	/* The parser keeps the value before init_value: one step on is init_value. */
	init = sim_move(x, x->init, x->step, false);
	if ((d->op == PVP_VAR_INC && init != d->min) || (d->op == PVP_VAR_DEC && init != d->max))
		return trex_vm_fail(c,
				    "flow_var '%s': an init_value other than %s_value (%" PRIu64
				    ") is not supported by pvpkit-gen",
				    x->name, d->op == PVP_VAR_INC ? "min" : "max",
				    d->op == PVP_VAR_INC ? d->min : d->max);
	d->period = range / d->step;
	return 0;
}

static int
vm_tuple(struct vm_ctx *c, const struct sim_ins *x)
{
	struct vm_def ip = {.size = 4,
			    .op = PVP_VAR_INC,
			    .min = x->min,
			    .max = x->max,
			    .step = 1,
			    .period = x->max - x->min + 1,
			    .div = 1};
	/* The port moves when the IP wraps. */
	struct vm_def port = {.size = 2,
			      .op = PVP_VAR_INC,
			      .min = x->pmin,
			      .max = x->pmax,
			      .step = 1,
			      .period = x->pmax - x->pmin + 1,
			      .div = ip.period};
	char n[80];

	if (x->limit != 0 && x->limit < ip.period * port.period)
		ip.limit = port.limit = x->limit;
	snprintf(n, sizeof(n), "%s.ip", x->name);
	if (vm_new(c, n, &ip) == NULL)
		return -EINVAL;
	snprintf(n, sizeof(n), "%s.port", x->name);
	return vm_new(c, n, &port) == NULL ? -EINVAL : 0;
}

/*
 * write_mask_flow_var @p x: the values of @p d, already moved to [*lo,
 * *hi] by add_value, shifted into the mask of the pkt_cast_size field at
 * its offset; the packet's bits outside the mask stay. Sets *lo and *hi to
 * what the field then holds. @return 0 or -EINVAL (c's message set).
 */
static int
vm_write_masked(struct vm_ctx *c, const struct vm_def *d, const struct sim_ins *x, uint64_t *lo,
		uint64_t *hi)
{
	const uint64_t cmax = trex_vm_size_max(x->cast), mask = x->mask;
	const int shift = x->shift;
	uint64_t orig = 0, bits, span;
	unsigned int i;

	for (i = 0; i < x->cast; i++)
		orig = orig << 8 | c->s->pkt[x->off + i];
	bits = ((*hi == 0 ? 1 : UINT64_C(1) << (64 - __builtin_clzll(*hi))) - 1);
	if (shift >= 32 || (bits << shift) > cmax || ((bits << shift) & ~mask & cmax) != 0)
		return trex_vm_fail(c,
				    "write_mask_flow_var of '%s': values up to %" PRIu64
				    " shifted by %d do not fit mask 0x%" PRIx64
				    ": not supported by pvpkit-gen",
				    x->name, *hi, shift, mask);
	if (d->op == PVP_VAR_RANDOM && shift != 0)
		return trex_vm_fail(c,
				    "write_mask_flow_var of '%s': a shifted random variable "
				    "is not supported by pvpkit-gen",
				    x->name);
	/* The bits outside the mask stay as in the packet. */
	orig &= ~mask & cmax;
	span = ((d->max - d->min + 1) << shift) - 1;
	*lo = orig + (*lo << shift);
	*hi = *lo + span;
	if (*hi > cmax)
		return trex_vm_fail(c,
				    "write_mask_flow_var of '%s': the values overflow %u byte(s)",
				    x->name, x->cast);
	return 0;
}

/*
 * An 8-byte variable: only its low 4 bytes may change. The constant high
 * half goes into the packet at *off, and the var (4 bytes at *off + 4)
 * writes the low half. @return 0 or -EINVAL (c's message set).
 */
static int
vm_write_wide(struct vm_ctx *c, const char *name, uint64_t *off, uint64_t *lo, uint64_t *hi)
{
	struct trex_stream *s = c->s;
	uint32_t high = (uint32_t)(*lo >> 32);
	unsigned int i;

	if (high != (uint32_t)(*hi >> 32))
		return trex_vm_fail(c,
				    "write of '%s': an 8-byte variable whose high 4 bytes "
				    "change is not supported by pvpkit-gen",
				    name);
	/* The constant high half goes into the packet, the var writes the low. */
	for (i = 0; i < 4; i++)
		s->pkt[*off + i] = (uint8_t)(high >> (24 - 8 * i));
	*off += 4;
	*lo &= UINT32_MAX;
	*hi &= UINT32_MAX;
	return 0;
}

/*
 * One write (plain or masked) into a lib/pkt var; the simulator's parser
 * read it and checked that its bytes lie in the packet.
 */
static int
trex_vm_write(struct vm_ctx *c, const struct sim_ins *x)
{
	struct trex_stream *s = c->s;
	const bool masked = x->kind == SIM_MASK;
	const char *name = x->name;
	const int64_t add = x->add, shift = masked ? x->shift : 0;
	struct vm_def *d = trex_vm_find(c, name);
	uint64_t off = x->off, lo, hi, step;
	unsigned int len;

	if (d == NULL)
		return trex_vm_fail(c, "write of '%s': no such flow variable", name);
	len = masked ? x->cast : d->size;
	if (shift < 0)
		return trex_vm_fail(c,
				    "write_mask_flow_var of '%s': a right shift is not "
				    "supported by pvpkit-gen",
				    name);
	if (!x->be && len > 1)
		return trex_vm_fail(c,
				    "write of '%s': little endian writes are not supported by "
				    "pvpkit-gen",
				    name);
	if (s->n_vars == PVP_PKT_MAX_VARS)
		return trex_vm_fail(c, "write of '%s': at most %d writes per stream", name,
				    PVP_PKT_MAX_VARS);
	/* The values written, before any mask. */
	/* Negated unsigned: -add overflows for -2^63. */
	if ((add < 0 && d->min < -(uint64_t)add) ||
	    (add > 0 && d->max > trex_vm_size_max(d->size) - (uint64_t)add))
		return trex_vm_fail(c,
				    "write of '%s': add_value %" PRId64 " makes the values wrap, "
				    "which pvpkit-gen does not support",
				    name, add);
	lo = d->min + (uint64_t)add;
	hi = d->max + (uint64_t)add;
	if (masked && vm_write_masked(c, d, x, &lo, &hi) != 0)
		return -EINVAL;
	if (!masked && d->size == 8) {
		if (vm_write_wide(c, name, &off, &lo, &hi) != 0)
			return -EINVAL;
		len = 4;
	}
	step = d->step << shift;
	if (step == 0 || step > UINT32_MAX)
		return trex_vm_fail(c, "write of '%s': step %" PRIu64 " is too large", name,
				    d->step);
	c->src[s->n_vars] = (uint8_t)(d - c->def);
	s->vars[s->n_vars++] = (struct pvp_var){.offset = (uint16_t)off,
						.len = (uint8_t)len,
						.op = d->op,
						.min = (uint32_t)lo,
						.max = (uint32_t)hi,
						.step = (uint32_t)step,
						.seed = d->seed,
						.div = d->div,
						.period = d->period};
	return 0;
}

/*
 * The closed form of @p m (the instructions @p ins as the simulator's
 * parser read them and checked them, checksums included) into c->s's
 * vars. @return 0, or -EINVAL (c's message set) where it has none.
 */
int
trex_vm_closed(struct vm_ctx *c, const struct sim *m, const json_t *ins)
{
	struct trex_stream *s = c->s;
	uint64_t flows = 1, limit = 0;
	unsigned int i, k;
	int ret = 0;

	/* Definitions first: writes may come in any order after them. */
	for (i = 0; i < m->n && ret == 0; i++) {
		const struct sim_ins *x = &m->in[i];

		c->ins = i;
		if (x->kind == SIM_VAR || x->kind == SIM_RLIMIT)
			ret = vm_flow_var(c, x, json_array_get(ins, i));
		else if (x->kind == SIM_TUPLE)
			ret = vm_tuple(c, x);
		else if (x->kind == SIM_TRIM || x->kind == SIM_ICMP6)
			ret = trex_vm_fail(c, "'%s' is not supported by pvpkit-gen",
					   x->kind == SIM_TRIM ? "trim_pkt_size"
							       : "fix_checksum_icmpv6");
	}
	for (i = 0; i < m->n && ret == 0; i++) {
		c->ins = i;
		if (m->in[i].kind == SIM_WRITE || m->in[i].kind == SIM_MASK)
			ret = trex_vm_write(c, &m->in[i]);
	}
	if (ret != 0)
		return ret;
	/* The stream's cycle: every written var's (the lcm: twice is once), and a limit's hard reset. */
	for (k = 0; k < s->n_vars; k++) {
		const struct vm_def *d = &c->def[c->src[k]];

		if (d->limit != 0) {
			if (limit != 0 && limit != d->limit)
				return trex_vm_fail(c,
						    "two different flow limits (%" PRIu64
						    ", %" PRIu64
						    ") are not supported by pvpkit-gen",
						    limit, d->limit);
			limit = d->limit;
			continue;
		}
		flows = vm_lcm(flows, d->div * d->period);
		if (flows == 0)
			return trex_vm_fail(c, "the variables make more than 2^48 flows");
	}
	if (limit != 0) {
		if (limit % flows != 0)
			return trex_vm_fail(c,
					    "a flow limit of %" PRIu64 " that the other variables' "
					    "cycle of %" PRIu64
					    " does not divide is not supported by "
					    "pvpkit-gen",
					    limit, flows);
		flows = limit;
	}
	s->flows = flows;
	return 0;
}
