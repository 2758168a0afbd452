/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The writes of TRex's field engine (write_flow_var, write_mask_flow_var)
 * as lib/pkt variables: one var per write, its values the flow
 * variable's plus add_value, shifted into a mask or split off the
 * constant high half of an 8-byte variable. What TRex does that has no
 * exact equivalent here is refused with a message naming it.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "trex.h"
#include "trex_vm_private.h"

/*
 * write_mask_flow_var: the values of @p d, already moved to [*lo, *hi]
 * by add_value, shifted into @p mask of the @p cast-byte field at @p off;
 * the packet's bits outside the mask stay. Sets *lo and *hi to what the
 * field then holds, and v->step. @return 0 or -EINVAL (c's message set).
 */
static int
vm_write_masked(struct vm_ctx *c, const struct vm_def *d, const char *name, uint64_t off,
		uint64_t cast, uint64_t mask, int64_t shift, uint64_t *lo, uint64_t *hi,
		struct pvp_var *v)
{
	struct trex_stream *s = c->s;
	uint64_t cmax = trex_vm_size_max((unsigned int)cast), orig = 0, bits, span;
	unsigned int i;

	for (i = 0; i < cast; i++)
		orig = orig << 8 | s->pkt[off + i];
	bits = ((*hi == 0 ? 1 : UINT64_C(1) << (64 - __builtin_clzll(*hi))) - 1);
	if (shift >= 32 || (bits << shift) > cmax || ((bits << shift) & ~mask & cmax) != 0)
		return trex_vm_fail(c,
				    "write_mask_flow_var of '%s': values up to %" PRIu64
				    " shifted by %" PRId64 " do not fit mask 0x%" PRIx64
				    ": not supported by pvpkit-gen",
				    name, *hi, shift, mask);
	if (d->op == PVP_VAR_RANDOM && shift != 0)
		return trex_vm_fail(c,
				    "write_mask_flow_var of '%s': a shifted random variable "
				    "is not supported by pvpkit-gen",
				    name);
	/* The bits outside the mask stay as in the packet. */
	orig &= ~mask & cmax;
	span = ((d->max - d->min + 1) << shift) - 1;
	*lo = orig + (*lo << shift);
	*hi = *lo + span;
	if (*hi > cmax)
		return trex_vm_fail(
			c, "write_mask_flow_var of '%s': the values overflow %" PRIu64 " byte(s)",
			name, cast);
	v->step = (uint32_t)(d->step << shift);
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
int
trex_vm_write(struct vm_ctx *c, const struct sim_ins *x)
{
	struct trex_stream *s = c->s;
	const bool masked = x->kind == SIM_MASK;
	const char *name = x->name;
	const int64_t add = x->add, shift = masked ? x->shift : 0;
	struct vm_def *d = trex_vm_find(c, name);
	uint64_t off = x->off, cast, lo, hi;
	struct pvp_var *v;
	unsigned int len;

	if (d == NULL)
		return trex_vm_fail(c, "write of '%s': no such flow variable", name);
	cast = masked ? x->cast : d->size;
	if (shift < 0)
		return trex_vm_fail(c,
				    "write_mask_flow_var of '%s': a right shift is not "
				    "supported by pvpkit-gen",
				    name);
	if (!x->be && cast > 1)
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
	v = &s->vars[s->n_vars];
	memset(v, 0, sizeof(*v));
	v->op = d->op;
	v->step = (uint32_t)d->step;
	v->seed = d->seed;
	v->div = d->div;
	v->period = d->period;
	if (masked) {
		if (vm_write_masked(c, d, name, off, cast, x->mask, shift, &lo, &hi, v) != 0)
			return -EINVAL;
		len = (unsigned int)cast;
	} else if (d->size == 8) {
		if (vm_write_wide(c, name, &off, &lo, &hi) != 0)
			return -EINVAL;
		len = 4;
	} else {
		len = d->size;
	}
	if (v->step == 0 || (uint64_t)v->step != (d->step << shift))
		return trex_vm_fail(c, "write of '%s': step %" PRIu64 " is too large", name,
				    d->step);
	c->src[s->n_vars] = (uint8_t)(d - c->def);
	v->offset = (uint16_t)off;
	v->len = (uint8_t)len;
	v->min = (uint32_t)lo;
	v->max = (uint32_t)hi;
	s->n_vars++;
	return 0;
}
