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
 * vars that move it. Each write becomes one lib/pkt var; the flow count is
 * the least common multiple of the cycles, so the sequence repeats
 * exactly as TRex's does. lib/pkt keeps the IPv4, UDP and TCP checksums
 * that fix_checksum_ipv4 and fix_checksum_hw name valid after a write;
 * the others stay as the packet has them, as in TRex (trex_stream.c).
 *
 * What has no exact equivalent is refused with a message naming it:
 * value_list, an init_value other than the start of the cycle, little
 * endian writes, right shifts, masks the values do not fit, values that
 * wrap through add_value, 8-byte vars whose high half varies,
 * trim_pkt_size, fix_checksum_icmpv6, unlimited tuples, and a limit
 * (flow_var_rand_limit, tuple limit_flows) other vars' cycles do not
 * divide.
 */

#include <errno.h>
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

struct vm_def *
trex_vm_find(struct vm_ctx *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < c->nb; i++)
		if (strcmp(c->def[i].name, name) == 0)
			return &c->def[i];
	return NULL;
}

/* Members as TRex's parser reads them; @p what names the instruction. */
int
trex_vm_uint(struct vm_ctx *c, const json_t *o, const char *key, int64_t def, uint64_t *v)
{
	json_t *x = json_object_get(o, key);

	if (x == NULL || json_is_null(x)) {
		if (def < 0)
			return trex_vm_fail(c, "'%s' is missing", key);
		*v = (uint64_t)def;
		return 0;
	}
	if (!json_is_integer(x) || json_integer_value(x) < 0)
		return trex_vm_fail(c, "'%s' must be a non-negative integer", key);
	*v = (uint64_t)json_integer_value(x);
	return 0;
}

int
trex_vm_int(struct vm_ctx *c, const json_t *o, const char *key, int64_t def, int64_t *v)
{
	json_t *x = json_object_get(o, key);

	if (x == NULL || json_is_null(x)) {
		*v = def;
		return 0;
	}
	if (!json_is_integer(x))
		return trex_vm_fail(c, "'%s' must be an integer", key);
	*v = json_integer_value(x);
	return 0;
}

const char *
trex_vm_str(struct vm_ctx *c, const json_t *o, const char *key, const char *def)
{
	json_t *x = json_object_get(o, key);

	if (x == NULL || json_is_null(x)) {
		if (def == NULL)
			trex_vm_fail(c, "'%s' is missing", key);
		return def;
	}
	if (!json_is_string(x)) {
		trex_vm_fail(c, "'%s' must be a string", key);
		return NULL;
	}
	return json_string_value(x);
}

static struct vm_def *
vm_new(struct vm_ctx *c, const char *name)
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
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	return d;
}

static int
vm_flow_var(struct vm_ctx *c, const json_t *in, bool rand_limit)
{
	const char *name = trex_vm_str(c, in, "name", NULL), *op, *next;
	uint64_t size = 0, init = 0, step = 0, range, pad;
	struct vm_def *d;

	if (name == NULL || (next = trex_vm_str(c, in, "next_var", "")) == NULL ||
	    trex_vm_uint(c, in, "size", -1, &size) != 0)
		return -EINVAL;
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return trex_vm_fail(c, "'size' must be 1, 2, 4 or 8");
	if (json_object_get(in, "value_list") != NULL &&
	    !json_is_null(json_object_get(in, "value_list")))
		return trex_vm_fail(c, "flow_var '%s': value_list is not supported by pvpkit-gen",
				    name);
	d = vm_new(c, name);
	if (d == NULL)
		return -EINVAL;
	d->size = (unsigned int)size;
	snprintf(d->next, sizeof(d->next), "%s", next);
	if (trex_vm_uint(c, in, "min_value", -1, &d->min) != 0 ||
	    trex_vm_uint(c, in, "max_value", -1, &d->max) != 0)
		return -EINVAL;
	if (d->max < d->min || d->max > trex_vm_size_max(d->size))
		return trex_vm_fail(c,
				    "flow_var '%s': min_value %" PRIu64 ", max_value %" PRIu64
				    " do not fit %u byte(s) in order",
				    name, d->min, d->max, d->size);
	range = d->max - d->min + 1;
	if (rand_limit) {
		if (trex_vm_uint(c, in, "limit", -1, &d->limit) != 0 ||
		    trex_vm_uint(c, in, "seed", 0, &d->seed) != 0)
			return -EINVAL;
		if (d->limit == 0)
			return trex_vm_fail(c, "flow_var_rand_limit '%s': 'limit' must be >= 1",
					    name);
		d->op = PVP_VAR_RANDOM;
		d->step = 1;
		/* lib/pkt's random is a permutation: a limit above the range repeats it. */
		d->period = range != 0 && d->limit > range ? range : d->limit;
		if (d->limit > range)
			d->limit = 0;
		return 0;
	}
	op = trex_vm_str(c, in, "op", NULL);
	if (op == NULL || trex_vm_uint(c, in, "step", 1, &step) != 0 ||
	    trex_vm_uint(c, in, "init_value", (int64_t)d->min, &init) != 0)
		return -EINVAL;
	if (step == 0)
		return trex_vm_fail(c, "flow_var '%s': step cannot be 0", name);
	if (init < d->min || init > d->max)
		return trex_vm_fail(c,
				    "flow_var '%s': init_value %" PRIu64
				    " should be in range from min value %" PRIu64
				    " to max value %" PRIu64,
				    name, init, d->min, d->max);
	d->step = step;
	if (strcmp(op, "random") == 0) {
		d->op = PVP_VAR_RANDOM;
		d->period = range;
		d->seed = c->s->id * 1000003u + c->nb;
		return 0;
	}
	if (strcmp(op, "inc") != 0 && strcmp(op, "dec") != 0)
		return trex_vm_fail(c, "flow_var '%s': 'op' must be inc, dec or random", name);
	d->op = op[0] == 'i' ? PVP_VAR_INC : PVP_VAR_DEC;
	/* TRex pads a range the step does not divide into a true cycle. */
	pad = range % step;
	if (pad != 0) {
		if (d->op == PVP_VAR_INC && d->max + (step - pad) <= trex_vm_size_max(d->size))
			d->max += step - pad;
		else if (d->op == PVP_VAR_DEC && d->min >= step - pad)
			d->min -= step - pad;
		else
			return trex_vm_fail(
				c,
				"flow_var '%s': could not pad range to be a true cycle - "
				"'(max_value - min_value + 1) %% step' should be zero",
				name);
		range = d->max - d->min + 1;
	}
	if ((d->op == PVP_VAR_INC && init != d->min) || (d->op == PVP_VAR_DEC && init != d->max))
		return trex_vm_fail(c,
				    "flow_var '%s': an init_value other than %s_value (%" PRIu64
				    ") is not supported by pvpkit-gen",
				    name, d->op == PVP_VAR_INC ? "min" : "max",
				    d->op == PVP_VAR_INC ? d->min : d->max);
	d->period = range / step;
	return 0;
}

static int
vm_tuple(struct vm_ctx *c, const json_t *in)
{
	const char *name = trex_vm_str(c, in, "name", NULL);
	uint64_t ipmin = 0, ipmax = 0, pmin = 0, pmax = 0, limit = 0, flags = 0;
	struct vm_def *ip, *port;
	char n[80];

	if (name == NULL || trex_vm_uint(c, in, "ip_min", -1, &ipmin) != 0 ||
	    trex_vm_uint(c, in, "ip_max", -1, &ipmax) != 0 ||
	    trex_vm_uint(c, in, "port_min", -1, &pmin) != 0 ||
	    trex_vm_uint(c, in, "port_max", -1, &pmax) != 0 ||
	    trex_vm_uint(c, in, "limit_flows", 0, &limit) != 0 ||
	    trex_vm_uint(c, in, "flags", 0, &flags) != 0)
		return -EINVAL;
	if (flags & 1)
		return trex_vm_fail(
			c,
			"tuple_flow_var '%s': unlimited flows (flags 1) are not supported "
			"by pvpkit-gen",
			name);
	if (ipmax < ipmin || ipmax > UINT32_MAX || pmax < pmin || pmax > UINT16_MAX)
		return trex_vm_fail(c, "tuple_flow_var '%s': bad IP or port range", name);
	snprintf(n, sizeof(n), "%s.ip", name);
	ip = vm_new(c, n);
	if (ip == NULL)
		return -EINVAL;
	snprintf(n, sizeof(n), "%s.port", name);
	port = vm_new(c, n);
	if (port == NULL)
		return -EINVAL;
	ip->size = 4;
	ip->op = PVP_VAR_INC;
	ip->min = ipmin;
	ip->max = ipmax;
	ip->step = 1;
	ip->period = ipmax - ipmin + 1;
	ip->div = 1;
	ip->div_set = true;
	port->size = 2;
	port->op = PVP_VAR_INC;
	port->min = pmin;
	port->max = pmax;
	port->step = 1;
	port->period = pmax - pmin + 1;
	/* The port moves when the IP wraps. */
	port->div = ip->period;
	port->div_set = true;
	if (limit != 0 && limit < ip->period * port->period)
		ip->limit = port->limit = limit;
	return 0;
}

/* Divisors from the next_var chains: a var moves when the one naming it wraps. */
static int
vm_chain(struct vm_ctx *c)
{
	unsigned int i, k, pass;

	for (i = 0; i < c->nb; i++) {
		struct vm_def *b;

		if (c->def[i].next[0] == '\0')
			continue;
		b = trex_vm_find(c, c->def[i].next);
		if (b == NULL)
			return trex_vm_fail(c, "next_var '%s' of '%s' is not defined",
					    c->def[i].next, c->def[i].name);
		/* A tuple's fields move on their own (their div is set already). */
		if (b->div_set)
			return trex_vm_fail(
				c, "next_var '%s' of '%s': a tuple's field cannot be chained",
				c->def[i].next, c->def[i].name);
	}
	/* Roots (named by nobody) move every packet; then follow the chains. */
	for (i = 0; i < c->nb; i++) {
		bool named = false;

		if (c->def[i].div_set)
			continue;
		for (k = 0; k < c->nb; k++)
			if (strcmp(c->def[k].next, c->def[i].name) == 0)
				named = true;
		if (!named) {
			c->def[i].div = 1;
			c->def[i].div_set = true;
		}
	}
	for (pass = 0; pass < VM_MAX_DEFS; pass++)
		for (i = 0; i < c->nb; i++) {
			struct vm_def *a = &c->def[i], *b;

			if (!a->div_set || a->next[0] == '\0')
				continue;
			b = trex_vm_find(c, a->next);
			if (b->div_set)
				continue;
			if (a->div > VM_MAX_FLOWS / a->period)
				return trex_vm_fail(
					c,
					"the next_var chain through '%s' makes more than "
					"2^48 flows",
					a->name);
			b->div = a->div * a->period;
			b->div_set = true;
		}
	for (i = 0; i < c->nb; i++)
		if (!c->def[i].div_set)
			return trex_vm_fail(c, "variable '%s' is in a next_var loop",
					    c->def[i].name);
	return 0;
}

/* Note a checksum field the field engine fixes (what TRex leaves alone stays as given). */
static int
vm_csum_fixed(struct vm_ctx *c, uint64_t off)
{
	struct trex_stream *s = c->s;
	unsigned int i;

	for (i = 0; i < s->n_csum_fixed; i++)
		if (s->csum_fixed[i] == off)
			return 0;
	if (s->n_csum_fixed == TREX_MAX_CSUM_FIXED)
		return trex_vm_fail(c, "more than %d checksums to fix", TREX_MAX_CSUM_FIXED);
	s->csum_fixed[s->n_csum_fixed++] = (uint16_t)off;
	return 0;
}

/*
 * Checksum instructions: check what is asked is there and note the fields
 * they fix; lib/pkt keeps those valid.
 */
int
trex_vm_checksum(struct vm_ctx *c, const json_t *in, const char *type)
{
	struct trex_stream *s = c->s;
	uint64_t off = 0, l2 = 0, l3 = 0, l4 = 0;

	if (strcmp(type, "fix_checksum_ipv4") == 0) {
		if (trex_vm_uint(c, in, "pkt_offset", -1, &off) != 0)
			return -EINVAL;
		if (off > s->len || s->len - off < 20 || (s->pkt[off] >> 4) != 4)
			return trex_vm_fail(
				c, "fix_checksum_ipv4: no IPv4 header at offset %" PRIu64, off);
		return vm_csum_fixed(c, off + 10);
	}
	if (trex_vm_uint(c, in, "l2_len", -1, &l2) != 0 ||
	    trex_vm_uint(c, in, "l3_len", -1, &l3) != 0 ||
	    trex_vm_uint(c, in, "l4_type", -1, &l4) != 0)
		return -EINVAL;
	/*
	 * Each length against what the packet has left, never their sum:
	 * lengths near 2^63 made l2 + l3 wrap to just before the packet.
	 */
	if (l2 > s->len || l3 > s->len - l2)
		return trex_vm_fail(c,
				    "fix_checksum_hw: l2_len %" PRIu64 " + l3_len %" PRIu64
				    " is past the %u B packet",
				    l2, l3, s->len);
	off = l2 + l3;
	/* A UDP checksum of 0 means "none" to lib/pkt: give it one to compute. */
	if (l4 == 11 && s->len - off >= 8 && s->pkt[off + 6] == 0 && s->pkt[off + 7] == 0)
		s->pkt[off + 7] = 1;
	/* TRex's l4_type: 11 UDP, 13 TCP; the IPv4 header's checksum with them. */
	if (l3 >= 20 && (s->pkt[l2] >> 4) == 4 && vm_csum_fixed(c, l2 + 10) != 0)
		return -EINVAL;
	if (l4 == 11 && s->len - off >= 8)
		return vm_csum_fixed(c, off + 6);
	if (l4 == 13 && s->len - off >= 20)
		return vm_csum_fixed(c, off + 16);
	return 0;
}

/* Whether @p ins asks for TRex's own random sequence: a random var and a seed. */
static bool
vm_wants_sim(const json_t *ins, const struct trex_stream *s)
{
	const json_t *in;
	size_t i;

	json_array_foreach(ins, i, in) {
		const char *type = json_string_value(json_object_get(in, "type"));
		const char *op = json_string_value(json_object_get(in, "op"));

		if (type != NULL && strcmp(type, "flow_var") == 0 && op != NULL &&
		    strcmp(op, "random") == 0 && s->random_seed != 0)
			return true;
	}
	return false;
}

int
trex_vm_translate(const json_t *vm, struct trex_stream *s, char *msg, size_t len)
{
	struct vm_ctx *c;
	const json_t *ins, *in;
	uint64_t flows = 1, limit = 0;
	size_t i;
	unsigned int k;
	int ret = 0;

	s->n_vars = 0;
	s->n_csum_fixed = 0;
	s->flows = 1;
	ins = json_object_get(vm, "instructions");
	if (ins == NULL || json_is_null(ins))
		return 0;
	if (!json_is_array(ins)) {
		snprintf(msg, len, "vm.instructions must be an array");
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	c->s = s;
	c->msg = msg;
	c->len = len;
	/* Definitions first: writes may come in any order after them. */
	json_array_foreach(ins, i, in) {
		const char *type;

		c->ins = (unsigned int)i;
		if (!json_is_object(in) || (type = trex_vm_str(c, in, "type", NULL)) == NULL) {
			ret = trex_vm_fail(c, "expected an object with a 'type'");
			goto out;
		}
		if (strcmp(type, "flow_var") == 0)
			ret = vm_flow_var(c, in, false);
		else if (strcmp(type, "flow_var_rand_limit") == 0)
			ret = vm_flow_var(c, in, true);
		else if (strcmp(type, "tuple_flow_var") == 0)
			ret = vm_tuple(c, in);
		else if (strcmp(type, "write_flow_var") == 0 ||
			 strcmp(type, "write_mask_flow_var") == 0 ||
			 strcmp(type, "fix_checksum_ipv4") == 0 ||
			 strcmp(type, "fix_checksum_hw") == 0)
			ret = 0;
		else if (strcmp(type, "trim_pkt_size") == 0 ||
			 strcmp(type, "fix_checksum_icmpv6") == 0)
			ret = trex_vm_fail(c, "'%s' is not supported by pvpkit-gen", type);
		else
			ret = trex_vm_fail(c, "unknown instruction type '%s'", type);
		if (ret != 0)
			goto out;
	}
	c->ins = 0;
	ret = vm_chain(c);
	if (ret != 0)
		goto out;
	json_array_foreach(ins, i, in) {
		const char *type = json_string_value(json_object_get(in, "type"));

		c->ins = (unsigned int)i;
		if (strcmp(type, "write_flow_var") == 0)
			ret = trex_vm_write(c, in, false);
		else if (strcmp(type, "write_mask_flow_var") == 0)
			ret = trex_vm_write(c, in, true);
		else if (strcmp(type, "fix_checksum_ipv4") == 0 ||
			 strcmp(type, "fix_checksum_hw") == 0)
			ret = trex_vm_checksum(c, in, type);
		if (ret != 0)
			goto out;
	}
	/* The stream's cycle: every written var's, and a limit's hard reset. */
	for (k = 0; k < c->nb; k++) {
		const struct vm_def *d = &c->def[k];
		bool written = false;
		unsigned int w;

		for (w = 0; w < s->n_vars; w++)
			if (c->src[w] == k)
				written = true;
		if (!written)
			continue;
		if (d->limit != 0) {
			if (limit != 0 && limit != d->limit) {
				ret = trex_vm_fail(c,
						   "two different flow limits (%" PRIu64
						   ", %" PRIu64 ") are not supported by pvpkit-gen",
						   limit, d->limit);
				goto out;
			}
			limit = d->limit;
			continue;
		}
		flows = vm_lcm(flows, d->div * d->period);
		if (flows == 0) {
			ret = trex_vm_fail(c, "the variables make more than 2^48 flows");
			goto out;
		}
	}
	if (limit != 0) {
		if (limit % flows != 0) {
			ret = trex_vm_fail(c,
					   "a flow limit of %" PRIu64 " that the other variables' "
					   "cycle of %" PRIu64
					   " does not divide is not supported by "
					   "pvpkit-gen",
					   limit, flows);
			goto out;
		}
		flows = limit;
	}
	s->flows = flows;
out:
	/*
	 * TRex's engine run as TRex runs it (trex_vm_sim.c) gives its bytes
	 * exactly, checksums included. The closed form is kept where it
	 * holds and the cycle is longer than the tables pvpkit keeps, unless
	 * a seed asks for TRex's own random sequence.
	 */
	if (ret == 0 || ret == -EINVAL) {
		int r = trex_vm_sim(c, ins, ret == 0 && !vm_wants_sim(ins, s));

		if (r != -ERANGE || ret != 0)
			ret = r;
	}
	free(c);
	return ret;
}
