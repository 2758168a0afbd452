/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The parser of TRex's field engine simulator (trex_vm_sim.c): a stream's
 * vm.instructions read into struct sim and checked as TRex's add_stream
 * checks them, each write tied to the variable it names and the next_var
 * chains resolved into the skips TRex's data path makes.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "trex.h"
#include "trex_vm_private.h"

/* Value list entries, TRex's bound. */
#define SIM_MAX_LIST UINT16_MAX

/* Member @p key of @p o as an unsigned integer (@p def < 0: required), as TRex reads it. */
static int
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

/* Member @p key of @p o as a signed integer. */
static int
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

/* Member @p key of @p o as a string (@p def NULL: required). */
static const char *
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

/*
 * The variable a write names ("x", or "t.ip", "t.port", "t.flow_limit" of
 * a tuple "t"), and in *field which of a tuple's fields. NULL if none.
 */
static struct sim_ins *
sim_find(struct sim *m, const char *name, unsigned int *field)
{
	static const char *const tuple_field[] = {"ip", "port", "flow_limit"};
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		struct sim_ins *x = &m->in[i];
		size_t l = strlen(x->name);

		*field = 0;
		if ((x->kind == SIM_VAR || x->kind == SIM_RLIMIT) && strcmp(x->name, name) == 0)
			return x;
		if (x->kind != SIM_TUPLE || strncmp(x->name, name, l) != 0 || name[l] != '.')
			continue;
		for (; *field < RTE_DIM(tuple_field); (*field)++)
			if (strcmp(name + l + 1, tuple_field[*field]) == 0)
				return x;
	}
	return NULL;
}

/* TRex's shortest packet a trim_pkt_size leaves. */
#define SIM_TRIM_MIN 60

/*
 * The range of a variable a trim_pkt_size names, as TRex's compile fixes
 * it up: both ends at most the packet's length, then the smallest at
 * least 60 (init_value follows into the range). @return 0 or -EINVAL.
 */
static int
sim_trim_range(struct sim *m, struct sim_ins *x)
{
	uint64_t len = m->c->s->len;

	x->max = RTE_MIN(x->max, len);
	x->min = RTE_MIN(x->min, len);
	if (x->min >= x->max)
		return trex_vm_fail(m->c,
				    "trim_pkt_size: min packet size %" PRIu64
				    " is bigger or eq to max packet size %" PRIu64,
				    x->min, x->max);
	x->min = RTE_MAX(x->min, (uint64_t)SIM_TRIM_MIN);
	if (x->init < x->min)
		x->init = x->min;
	else if (x->init > x->max)
		x->init = x->max;
	return 0;
}

/* The value list of a variable a trim_pkt_size names, checked as TRex does. */
static int
sim_trim_list(struct sim *m, const struct sim_ins *x)
{
	uint32_t i;

	for (i = 0; i < x->n_list; i++)
		if (x->list[i] > m->c->s->len || x->list[i] < SIM_TRIM_MIN)
			return trex_vm_fail(m->c,
					    "trim_pkt_size: packet size in value_list %" PRIu64
					    " is bigger than packet size %u or smaller than %d",
					    x->list[i], m->c->s->len, SIM_TRIM_MIN);
	return 0;
}

/* Whether a trim_pkt_size of @p ins names the variable @p name. */
static bool
sim_is_trimmed(const json_t *ins, const char *name)
{
	const json_t *in;
	size_t i;

	json_array_foreach(ins, i, in) {
		const char *type = json_string_value(json_object_get(in, "type"));
		const char *n = json_string_value(json_object_get(in, "name"));

		if (type != NULL && n != NULL && strcmp(type, "trim_pkt_size") == 0 &&
		    strcmp(n, name) == 0)
			return true;
	}
	return false;
}

/*
 * trim_pkt_size: its variable is a plain flow_var of 2 bytes, as TRex's
 * compile asks, and the stream has no flow_stats (lib/pkt keeps the
 * signature's checksums for the one length of its template).
 */
static int
sim_trim_check(struct sim *m, struct sim_ins *x)
{
	const struct sim_ins *v;
	unsigned int field;

	if (m->trim >= 0)
		return trex_vm_fail(m->c, "more than one trim_pkt_size is not supported by "
					  "pvpkit-gen");
	m->trim = (int)(x - m->in);
	v = sim_find(m, x->name, &field);
	if (v == NULL)
		return trex_vm_fail(m->c, "packet size with no valid flow variable name '%s'",
				    x->name);
	if ((v->kind == SIM_TUPLE ? (field == 1 ? 2 : 4) : v->size) != 2)
		return trex_vm_fail(m->c, "packet size change should point to a flow variable "
					  "with size 2");
	if (v->kind != SIM_VAR)
		return trex_vm_fail(m->c,
				    "packet size change should point to a simple flow variable "
				    "type (Random/Client) types are not supported");
	if (m->c->s->fs)
		return trex_vm_fail(m->c,
				    "trim_pkt_size with flow_stats is not supported by pvpkit-gen");
	x->var = (unsigned int)(v - m->in);
	return 0;
}

/* flow_var and flow_var_rand_limit, checked as TRex's add_stream checks them. */
static int
sim_parse_var(struct sim *m, struct sim_ins *x, const json_t *in, const json_t *ins, bool rlimit)
{
	struct vm_ctx *c = m->c;
	const char *name = trex_vm_str(c, in, "name", NULL), *next, *op = "";
	const json_t *vl = json_object_get(in, "value_list");
	uint64_t size = 0, range, vmax, pad;

	if (name == NULL || (next = trex_vm_str(c, in, "next_var", "")) == NULL ||
	    trex_vm_uint(c, in, "size", -1, &size) != 0)
		return -EINVAL;
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return trex_vm_fail(c, "'size' must be 1, 2, 4 or 8");
	if (strlcpy(x->name, name, sizeof(x->name)) >= sizeof(x->name) ||
	    strlcpy(x->next, next, sizeof(x->next)) >= sizeof(x->next))
		return trex_vm_fail(c, "variable names are at most %zu characters",
				    sizeof(x->name) - 1);
	x->size = (unsigned int)size;
	x->trimmed = !rlimit && size == 2 && sim_is_trimmed(ins, name);
	/* TRex's default: split over the cores. */
	x->split = !json_is_false(json_object_get(in, "split_to_cores"));
	vmax = trex_vm_size_max(x->size);
	if (rlimit) {
		x->kind = SIM_RLIMIT;
		if (trex_vm_uint(c, in, "limit", -1, &x->limit) != 0 ||
		    trex_vm_uint(c, in, "seed", -1, &x->seed) != 0 ||
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
	x->step0 = x->step;
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
		if (x->trimmed && sim_trim_list(m, x) != 0)
			return -EINVAL;
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
	/* TRex's compile fixes a trimmed range up after the padding. */
	if (x->trimmed && sim_trim_range(m, x) != 0)
		return -EINVAL;
	range = x->max - x->min + 1;
	if (range != 0)
		x->step %= range;
	/* The bss holds the value before init_value: packet 0 moves to it. */
	if (x->op != SIM_RAND)
		x->init = sim_move(x, x->init, x->step, true);
	return 0;
}

static int
sim_parse_tuple(struct sim *m, struct sim_ins *x, const json_t *in)
{
	struct vm_ctx *c = m->c;
	const char *name = trex_vm_str(c, in, "name", NULL);
	uint64_t flags = 0;

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
	if (strlcpy(x->name, name, sizeof(x->name)) >= sizeof(x->name))
		return trex_vm_fail(c, "variable names are at most %zu characters",
				    sizeof(x->name) - 1);
	/* One core's: the IP moves by 1 (0 for one address, the port moving each packet). */
	trex_sim_split_tuple(x, 0, 1);
	return 0;
}

/*
 * Whether lib/pkt keeps the checksum of the IPv4 header at @p off itself:
 * a flow_stats stream's outer header, or its VXLAN inner one (its writes
 * and signature are followed incrementally there, so TRex's value would
 * count them twice). Any other header (inside Geneve, say) is fixed as
 * TRex fixes it.
 */
static bool
sim_pkt_keeps_ipv4(const struct trex_stream *s, uint64_t off)
{
	struct pvp_pkt_layout lay;

	if (!s->fs)
		return false;
	if (pvp_pkt_parse(s->pkt, s->len, &lay) != 0)
		return true;
	return (lay.ip_ver == 4 && off == lay.l3_off) ||
	       (lay.in_l3_off != 0 && lay.in_ip_ver == 4 && off == lay.in_l3_off);
}

/* Note a checksum field the field engine fixes (what TRex leaves alone stays as given). */
static int
sim_csum_fixed(struct vm_ctx *c, uint64_t off)
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
 * fix_checksum_ipv4, or fix_checksum_hw when @p hw: check what it fixes is
 * there and note the fields it fixes, which lib/pkt keeps valid after a
 * write in a closed form. The simulator fixes them itself unless lib/pkt
 * keeps them (sim_pkt_keeps_ipv4()).
 */
static int
sim_parse_csum(struct sim *m, struct sim_ins *x, const json_t *in, bool hw)
{
	struct vm_ctx *c = m->c;
	struct trex_stream *s = c->s;
	uint64_t off, l2, l3;

	if (!hw) {
		if (trex_vm_uint(c, in, "pkt_offset", -1, &x->off) != 0)
			return -EINVAL;
		off = x->off;
		x->kind = sim_pkt_keeps_ipv4(s, off) ? SIM_NOP : SIM_CSUM4;
		if (off > s->len || s->len - off < 20 || (s->pkt[off] >> 4) != 4)
			return trex_vm_fail(
				c, "fix_checksum_ipv4: no IPv4 header at offset %" PRIu64, off);
		return sim_csum_fixed(c, off + 10);
	}
	x->kind = s->fs ? SIM_NOP : SIM_CSUMHW;
	if (trex_vm_uint(c, in, "l2_len", -1, &x->off) != 0 ||
	    trex_vm_uint(c, in, "l3_len", -1, &x->l3) != 0 ||
	    trex_vm_uint(c, in, "l4_type", -1, &x->l4) != 0)
		return -EINVAL;
	l2 = x->off;
	l3 = x->l3;
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
	if (x->l4 == 11 && s->len - off >= 8 && s->pkt[off + 6] == 0 && s->pkt[off + 7] == 0)
		s->pkt[off + 7] = 1;
	/* TRex's l4_type: 11 UDP, 13 TCP; the IPv4 header's checksum with them. */
	if (l3 >= 20 && (s->pkt[l2] >> 4) == 4 && sim_csum_fixed(c, l2 + 10) != 0)
		return -EINVAL;
	if (x->l4 == 11 && s->len - off >= 8)
		return sim_csum_fixed(c, off + 6);
	if (x->l4 == 13 && s->len - off >= 20)
		return sim_csum_fixed(c, off + 16);
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
	/* The variable may come later: trex_vm_sim_parse() resolves it once all are read. */
	if (strlcpy(x->name, name, sizeof(x->name)) >= sizeof(x->name))
		return trex_vm_fail(c, "write of '%s': no such flow variable", name);
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

int
trex_vm_sim_parse(struct sim *m, const json_t *ins)
{
	struct vm_ctx *c = m->c;
	const json_t *in;
	unsigned int skip = 0;
	size_t i;
	int ret;

	m->trim = -1;
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
			ret = sim_parse_var(m, x, in, ins, false);
		else if (strcmp(type, "flow_var_rand_limit") == 0)
			ret = sim_parse_var(m, x, in, ins, true);
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
			const char *name = trex_vm_str(c, in, "name", NULL);

			x->kind = SIM_TRIM;
			ret = name == NULL ? -EINVAL : 0;
			/* No variable has a longer name: it names none. */
			if (ret == 0 && strlcpy(x->name, name, sizeof(x->name)) >= sizeof(x->name))
				ret = trex_vm_fail(
					c, "packet size with no valid flow variable name '%s'",
					name);
		} else if (strcmp(type, "fix_checksum_ipv4") == 0) {
			ret = sim_parse_csum(m, x, in, false);
		} else if (strcmp(type, "fix_checksum_hw") == 0) {
			ret = sim_parse_csum(m, x, in, true);
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
		if (x->kind == SIM_TRIM && (ret = sim_trim_check(m, x)) != 0)
			return ret;
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
