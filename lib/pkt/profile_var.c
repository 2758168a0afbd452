/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The field engine's configuration: "vars" (variables that move
 * together), "tuple" (ranges that nest, like TRex's STLVmTupleGen) and
 * the number of distinct flows they make.
 */

#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <string.h>

#include <rte_ether.h>

#include "profile_private.h"

/* ---- vars and tuple ---- */

enum fkind { F_RAW, F_MAC, F_VLAN, F_IP4, F_IP6, F_PORT };

static int
field_kind(const char *f, enum fkind *k)
{
	static const struct {
		const char *name;
		enum fkind kind;
	} names[] = {
		{"eth.src", F_MAC},    {"eth.dst", F_MAC},    {"vlan.id", F_VLAN},
		{"vlan2.id", F_VLAN},  {"ipv4.src", F_IP4},   {"ipv4.dst", F_IP4},
		{"ipv6.src", F_IP6},   {"ipv6.dst", F_IP6},   {"udp.sport", F_PORT},
		{"udp.dport", F_PORT}, {"tcp.sport", F_PORT}, {"tcp.dport", F_PORT},
	};
	unsigned int i;

	if (strncmp(f, "inner.", 6) == 0)
		f += 6;
	for (i = 0; i < RTE_DIM(names); i++)
		if (strcmp(f, names[i].name) == 0) {
			*k = names[i].kind;
			return 0;
		}
	return -EINVAL;
}

/* Header address a MAC or IPv6 var's high bytes go to. */
static uint8_t *
var_hdr_bytes(struct pvp_stream *s, const char *f)
{
	struct pvp_hdr *h = &s->outer;

	if (strncmp(f, "inner.", 6) == 0) {
		h = &s->inner;
		f += 6;
	}
	if (strcmp(f, "eth.src") == 0)
		return h->eth_src.addr_bytes;
	if (strcmp(f, "eth.dst") == 0)
		return h->eth_dst.addr_bytes;
	if (strcmp(f, "ipv6.src") == 0)
		return h->ip_src;
	return h->ip_dst;
}

/* min/max of a var: a number, or an address string for MAC/IP fields.
 * @hi receives the bytes above the low 32 bits (MAC: 2, IPv6: 12). */
static int
get_var_bound(struct prof_ctx *c, const json_t *v, const char *path, enum fkind k, uint8_t len,
	      uint32_t *out, uint8_t *hi)
{
	uint64_t max = k == F_VLAN ? 4095 : k == F_PORT ? 65535 : (UINT64_C(1) << (8 * len)) - 1;
	const char *str = json_string_value(v);
	uint8_t b[16];
	uint64_t x;

	if (json_is_integer(v)) {
		if (prof_get_uint(c, v, path, 0, max, &x) != 0)
			return -EINVAL;
		*out = (uint32_t)x;
		return 0;
	}
	if (k == F_IP4 && pvp_parse_ipv4(str, out) == 0)
		return 0;
	if (k == F_IP6 && pvp_parse_ipv6(str, b) == 0) {
		memcpy(hi, b, 12);
		*out = pvp_get_be32(b + 12);
		return 0;
	}
	if (str != NULL && k == F_MAC && rte_ether_unformat_addr(str, (void *)b) == 0) {
		memcpy(hi, b, 2);
		*out = pvp_get_be32(b + 2);
		return 0;
	}
	return prof_fail(c, -EINVAL, path, "must be %s",
			 k == F_IP4   ? "an IPv4 address string or an integer"
			 : k == F_IP6 ? "an IPv6 address string or an integer (low 32 bits)"
			 : k == F_MAC ? "a MAC address string or an integer (low 32 bits)"
				      : "an integer");
}

void
prof_var_finish(struct pvp_var *v)
{
	uint64_t range = (uint64_t)v->max - v->min + 1;

	v->period =
		v->op == PVP_VAR_RANDOM
			? range
			: range / pvp_gcd64(range, v->step % range == 0 ? range : v->step % range);
	if (v->div == 0)
		v->div = 1;
}

/*
 * A var's "field" given by name (@p sub: its path for messages): known,
 * allowed on this stream's headers, and its length into @p v and kind
 * into @p k.
 */
static int
parse_var_name(struct prof_ctx *c, const char *name, const char *sub, const struct pvp_stream *s,
	       struct pvp_var *v, enum fkind *k)
{
	if (strncmp(name, "inner.", 6) == 0 && !s->vxlan && s->pcap[0] == '\0' &&
	    field_kind(name, k) == 0)
		return prof_fail(c, -EINVAL, sub, "\"%s\": \"inner.\" fields need headers.vxlan",
				 name);
	if (field_kind(name, k) != 0)
		return prof_fail(c, -EINVAL, sub,
				 "unknown field \"%s\": expected "
				 "eth.src|eth.dst|vlan.id|vlan2.id|ipv4.src|ipv4.dst|ipv6.src|"
				 "ipv6.dst|"
				 "udp.sport|udp.dport|tcp.sport|tcp.dport (\"inner.\" prefix for "
				 "VXLAN) or {\"offset\": N, \"len\": 1|2|4}",
				 name);
	/*
	 * Port 4789 is what makes the frame VXLAN to every receiver (ours
	 * included): varied, the frames are no longer VXLAN and the
	 * signature after the inner headers is never found.
	 */
	if (s->vxlan && strcmp(name, "udp.dport") == 0)
		return prof_fail(c, -EINVAL, sub,
				 "\"udp.dport\" is VXLAN's port 4789 and cannot vary; vary "
				 "\"udp.sport\" (the entropy port) or \"inner.udp.dport\"");
	prof_fmt(v->field, sizeof(v->field), "%s", name);
	v->len = *k == F_VLAN || *k == F_PORT ? 2 : 4;
	return 0;
}

/*
 * A var's bounds @p jmin and @p jmax (their paths: @p path and @p at's
 * suffixes) into @p v: max not below min and, for MAC and IPv6 address
 * strings, the same high bytes in both.
 */
static int
var_bounds(struct prof_ctx *c, const json_t *jmin, const json_t *jmax, const char *path,
	   const char *const at[2], enum fkind k, struct pvp_stream *s, struct pvp_var *v)
{
	uint8_t hmin[12] = {0}, hmax[12] = {0};
	size_t n = k == F_MAC ? 2 : 12;
	char pmin[280], pmax[280];

	prof_fmt(pmin, sizeof(pmin), "%s%s", path, at[0]);
	prof_fmt(pmax, sizeof(pmax), "%s%s", path, at[1]);
	if (get_var_bound(c, jmin, pmin, k, v->len, &v->min, hmin) != 0 ||
	    get_var_bound(c, jmax, pmax, k, v->len, &v->max, hmax) != 0)
		return -EINVAL;
	if (v->max < v->min)
		return prof_fail(c, -ERANGE, pmax, "must be >= min (%u)", v->min);
	if ((k == F_MAC || k == F_IP6) && json_is_string(jmin)) {
		if (json_is_string(jmax) && memcmp(hmin, hmax, n) != 0)
			return prof_fail(c, -EINVAL, pmax,
					 "must differ from min only in the low 32 bits");
		/* The var writes the low 32 bits; min's high bytes go into
		 * the header so the whole address is what was asked. */
		memcpy(var_hdr_bytes(s, v->field), hmin, n);
	}
	return 0;
}

/* One member of "vars" into @v (headers already parsed). */
static int
parse_var(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s,
	  struct pvp_var *v)
{
	static const char *const keys[] = {"field", "op", "min", "max", "step", "seed", NULL};
	static const char *const rkeys[] = {"offset", "len", NULL};
	static const char *const ops[] = {
		[PVP_VAR_INC] = "inc", [PVP_VAR_DEC] = "dec", [PVP_VAR_RANDOM] = "random"};
	json_t *f = json_object_get(o, "field"), *op = json_object_get(o, "op");
	enum fkind k = F_RAW;
	static const char *const minmax[] = {".min", ".max"};
	char sub[256];
	uint64_t x;

	*v = (struct pvp_var){.step = 1, .div = 1};
	if (prof_check_keys(c, o, path, keys) != 0)
		return -EINVAL;
	prof_fmt(sub, sizeof(sub), "%s.field", path);
	if (json_is_string(f)) {
		if (parse_var_name(c, json_string_value(f), sub, s, v, &k) != 0)
			return -EINVAL;
	} else if (json_is_object(f)) {
		char rsub[280];

		if (prof_check_keys(c, f, sub, rkeys) != 0)
			return -EINVAL;
		if (prof_get_u64(c, f, "offset", sub, true, 0, PVP_PKT_MAX_SIZE, &x) != 0)
			return -EINVAL;
		v->offset = x;
		if (prof_get_u64(c, f, "len", sub, true, 1, 4, &x) != 0)
			return -EINVAL;
		if (x == 3) {
			prof_fmt(rsub, sizeof(rsub), "%s.len", sub);
			return prof_fail(c, -EINVAL, rsub, "must be 1, 2 or 4");
		}
		v->len = x;
	} else {
		return prof_fail(c, -EINVAL, f == NULL ? path : sub,
				 "needs \"field\": a field name or {\"offset\", \"len\"}");
	}
	if (op != NULL) {
		unsigned int i;

		prof_fmt(sub, sizeof(sub), "%s.op", path);
		for (i = 0; i < RTE_DIM(ops); i++)
			if (json_is_string(op) && strcmp(json_string_value(op), ops[i]) == 0)
				break;
		if (i == RTE_DIM(ops))
			return prof_fail(c, -EINVAL, sub, "must be \"inc\", \"dec\" or \"random\"");
		v->op = i;
	}
	if (json_object_get(o, "min") == NULL || json_object_get(o, "max") == NULL)
		return prof_fail(c, -EINVAL, path, "needs \"min\" and \"max\"");
	if (var_bounds(c, json_object_get(o, "min"), json_object_get(o, "max"), path, minmax, k, s,
		       v) != 0)
		return -EINVAL;
	x = v->step;
	if (prof_get_u64(c, o, "step", path, false, 1, UINT32_MAX, &x) != 0 ||
	    prof_get_u64(c, o, "seed", path, false, 0, INT64_MAX, &v->seed) != 0)
		return -EINVAL;
	v->step = x;
	prof_var_finish(v);
	return 0;
}

/* "tuple": appended to s->vars, nested: src_ip varies fastest. */
static int
parse_tuple(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s)
{
	static const char *const keys[] = {"src_ip", "dst_ip", "sport", "dport", NULL};
	static const char *const at[] = {"[0]", "[1]"};
	const struct pvp_hdr *h = s->vxlan ? &s->inner : &s->outer;
	const char *pre = s->vxlan ? "inner." : "";
	const char *ip = h->ip_ver == 4 ? "ipv4" : "ipv6";
	const char *l4 = h->l4_proto == IPPROTO_TCP ? "tcp" : "udp";
	uint64_t div = 1;
	unsigned int i;

	if (prof_check_keys(c, o, path, keys) != 0)
		return -EINVAL;
	/* Nesting order: src_ip varies fastest, then dst_ip, sport, dport. */
	for (i = 0; keys[i] != NULL; i++) {
		json_t *r = json_object_get(o, keys[i]);
		struct pvp_var *v;
		enum fkind k = F_RAW;
		char sub[256];
		int rc;

		if (r == NULL)
			continue;
		prof_fmt(sub, sizeof(sub), "%s.%s", path, keys[i]);
		if (!json_is_array(r) || json_array_size(r) != 2)
			return prof_fail(c, -EINVAL, sub, "must be [min, max]");
		if (s->n_vars >= PVP_PKT_MAX_VARS)
			return prof_fail(c, -E2BIG, sub,
					 "too many vars (at most %d with the tuple)",
					 PVP_PKT_MAX_VARS);
		v = &s->vars[s->n_vars];
		*v = (struct pvp_var){.tuple = true, .step = 1};
		if (i < 2)
			prof_fmt(v->field, sizeof(v->field), "%s%s.%s", pre, ip,
				 i == 0 ? "src" : "dst");
		else
			prof_fmt(v->field, sizeof(v->field), "%s%s.%s", pre, l4, keys[i]);
		field_kind(v->field, &k);
		v->len = k == F_PORT ? 2 : 4;
		rc = var_bounds(c, json_array_get(r, 0), json_array_get(r, 1), sub, at, k, s, v);
		if (rc != 0)
			return rc;
		v->div = div;
		prof_var_finish(v);
		/* Full IPv4 source and destination ranges make 2^64: checked,
		 * never wrapped (a product of 0 is divided by later). */
		if (__builtin_mul_overflow(div, v->period, &div) || div > PVP_PKT_MAX_FLOWS)
			return prof_fail(c, -ERANGE, sub,
					 "the tuple's ranges make more than 2^48 flows (%" PRIu64
					 "): narrow them",
					 PVP_PKT_MAX_FLOWS);
		s->n_vars++;
	}
	return 0;
}

/* lcm(a, b) of two periods (both >= 1), saturated at VARS_MANY. */
#define VARS_MANY (UINT64_C(1) << 62)

static uint64_t
lcm_sat(uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_mul_overflow(a / pvp_gcd64(a, b), b, &r) || r > VARS_MANY)
		return VARS_MANY;
	return r;
}

/* Distinct combinations the vars make over consecutive flow indices:
 * the lcm of the plain vars' periods and the tuple's product, saturated
 * at VARS_MANY (far above PVP_PKT_MAX_FLOWS, so "flows" never exceeds it). */
static uint64_t
vars_distinct(const struct pvp_stream *s)
{
	uint64_t l = 1, tup = 1;
	unsigned int i;

	for (i = 0; i < s->n_vars; i++) {
		uint64_t p = s->vars[i].period;

		if (!s->vars[i].tuple)
			l = lcm_sat(l, p);
		else if (__builtin_mul_overflow(tup, p, &tup) || tup > VARS_MANY)
			tup = VARS_MANY;
	}
	return lcm_sat(l, tup);
}

int
prof_parse_vars(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s)
{
	char sub[256], esub[280];
	json_t *v, *e;
	size_t i;

	if ((v = json_object_get(o, "vars")) != NULL) {
		prof_fmt(sub, sizeof(sub), "%s.vars", path);
		if (!json_is_array(v) || json_array_size(v) > PVP_PKT_MAX_VARS)
			return prof_fail(c, -EINVAL, sub, "must be a list of at most %d vars",
					 PVP_PKT_MAX_VARS);
		json_array_foreach(v, i, e) {
			prof_fmt(esub, sizeof(esub), "%s[%zu]", sub, i);
			if (parse_var(c, e, esub, s, &s->vars[s->n_vars]) != 0)
				return -EINVAL;
			s->n_vars++;
		}
	}
	if ((v = json_object_get(o, "tuple")) != NULL) {
		prof_fmt(sub, sizeof(sub), "%s.tuple", path);
		if (json_object_get(o, "pcap") != NULL)
			return prof_fail(c, -EINVAL, sub, "not available with \"pcap\": use vars");
		if (parse_tuple(c, v, sub, s) != 0)
			return -EINVAL;
	}
	if (s->replay && s->n_vars != 0) {
		prof_fmt(sub, sizeof(sub), "%s.vars", path);
		return prof_fail(c, -EINVAL, sub,
				 "not available with \"replay\": frames are sent as captured");
	}
	return 0;
}

/* "flows" without vars: @x source addresses of the (inner) header, one per flow. */
static int
flows_var(struct prof_ctx *c, const char *path, struct pvp_stream *s, uint64_t x)
{
	struct pvp_hdr *h = s->vxlan ? &s->inner : &s->outer;
	struct pvp_var *fv = &s->vars[0];
	const uint8_t *a = h->ip_ver == 4 ? h->ip_src : h->ip_src + 12;
	uint32_t base = pvp_get_be32(a);

	if (x - 1 > UINT32_MAX - base)
		return prof_fail(c, -ERANGE, path,
				 "%" PRIu64
				 " flows from source address %u.%u.%u.%u run past the end of "
				 "the address space",
				 x, a[0], a[1], a[2], a[3]);
	*fv = (struct pvp_var){.len = 4,
			       .op = PVP_VAR_INC,
			       .min = base,
			       .max = base + (uint32_t)(x - 1),
			       .step = 1,
			       .div = 1};
	prof_fmt(fv->field, sizeof(fv->field), "%s%s.src", s->vxlan ? "inner." : "",
		 h->ip_ver == 4 ? "ipv4" : "ipv6");
	prof_var_finish(fv);
	s->n_vars = 1;
	return 0;
}

int
prof_parse_flows(struct prof_ctx *c, const json_t *o, const char *path, struct pvp_stream *s)
{
	json_t *v = json_object_get(o, "flows");
	uint64_t x, distinct = s->n_vars != 0 ? vars_distinct(s) : 1;
	char sub[256];
	int rc;

	s->flows = distinct;
	if (v == NULL)
		return 0;
	prof_fmt(sub, sizeof(sub), "%s.flows", path);
	if (prof_get_uint(c, v, sub, 1, PVP_PKT_MAX_FLOWS, &x) != 0)
		return -EINVAL;
	if (s->n_vars == 0 && x > 1) {
		if (json_object_get(o, "pcap") != NULL || s->replay)
			return prof_fail(c, -EINVAL, sub, "with \"pcap\", \"flows\" needs vars");
		rc = flows_var(c, sub, s, x);
		if (rc != 0)
			return rc;
		distinct = x;
	}
	if (x > distinct)
		return prof_fail(c, -ERANGE, sub,
				 "%" PRIu64 " flows, but the vars make only %" PRIu64
				 " distinct combinations",
				 x, distinct);
	s->flows = x;
	return 0;
}
