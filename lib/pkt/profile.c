/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The JSON profile parser (doc/profiles.rst). Strict: unknown members,
 * wrong types and out-of-range values are errors, reported as
 * "file:line:col: streams[1].size: message". jansson keeps no positions
 * per value, so the position of a semantic error is found again by
 * walking the text along the member path (locate()).
 */

#include <arpa/inet.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_ether.h>

#include <jansson.h>
#include <pcap/pcap.h>

#include "pkt_private.h"

/* snprintf for messages and member paths, which may be cut short on
 * purpose; going through vsnprintf keeps -Wformat-truncation quiet. */
static int __attribute__((format(printf, 3, 4))) pfmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

struct pctx {
	const char *source;	   /* name in messages */
	const char *text;	   /* the JSON text, NULL when unknown */
	char dir[PATH_MAX];	   /* folder for relative pcap paths */
	struct pvp_pkt_error *err; /* may be NULL */
};

/* ---- positions ---- */

static const char *
skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *
skip_string(const char *p)
{
	for (p++; *p != '\0' && *p != '"'; p++)
		if (*p == '\\' && p[1] != '\0')
			p++;
	return *p == '"' ? p + 1 : p;
}

static const char *
skip_value(const char *p)
{
	int depth = 0;

	do {
		p = skip_ws(p);
		if (*p == '"') {
			p = skip_string(p);
		} else if (*p == '{' || *p == '[') {
			depth++;
			p++;
		} else if (*p == '}' || *p == ']') {
			depth--;
			p++;
		} else if (*p == ',' || *p == ':') {
			p++;
		} else if (*p == '\0') {
			return p;
		} else {
			while (*p != '\0' && *p != ',' && *p != '}' && *p != ']' && *p != ' ' &&
			       *p != '\n' && *p != '\t' && *p != '\r')
				p++;
		}
	} while (depth > 0);
	return p;
}

/* Position of the value at @path ("streams[1].headers.ipv4") in valid
 * JSON text; the deepest container found when a member is missing. */
static const char *
locate(const char *text, const char *path)
{
	const char *p = skip_ws(text), *q = path;

	while (*q != '\0') {
		if (*q == '.')
			q++;
		if (*q == '[') {
			unsigned long idx = strtoul(q + 1, (char **)&q, 10), i;

			q = strchr(q, ']');
			if (q == NULL || *p != '[')
				return p;
			q++;
			{
				const char *a = skip_ws(p + 1);

				for (i = 0; i < idx; i++) {
					a = skip_ws(skip_value(a));
					if (*a != ',')
						return p;
					a = skip_ws(a + 1);
				}
				p = a;
			}
		} else {
			size_t klen = strcspn(q, ".[");
			const char *a;

			if (*p != '{')
				return p;
			a = skip_ws(p + 1);
			for (;;) {
				const char *k = a, *v;

				if (*a != '"')
					return p;
				a = skip_string(a);
				v = skip_ws(skip_ws(a) + 1);
				if ((size_t)(a - k - 2) == klen && strncmp(k + 1, q, klen) == 0) {
					a = v;
					break;
				}
				a = skip_ws(skip_value(v));
				if (*a != ',')
					return p;
				a = skip_ws(a + 1);
			}
			p = a;
			q += klen;
		}
	}
	return p;
}

static void __attribute__((format(printf, 3, 4)))
fail(struct pctx *c, const char *path, const char *fmt, ...)
{
	char msg[PVP_PKT_ERR_LEN];
	va_list ap;

	if (c->err == NULL || c->err->text[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->text != NULL) {
		const char *at = locate(c->text, path), *p;
		int line = 1, col = 1;

		for (p = c->text; p < at; p++) {
			if (*p == '\n') {
				line++;
				col = 1;
			} else {
				col++;
			}
		}
		c->err->line = line;
		c->err->column = col;
		pfmt(c->err->text, sizeof(c->err->text), "%s:%d:%d: %s%s%s", c->source, line, col,
		     path, *path != '\0' ? ": " : "", msg);
	} else {
		pfmt(c->err->text, sizeof(c->err->text), "%s: %s%s%s", c->source, path,
		     *path != '\0' ? ": " : "", msg);
	}
}

/* ---- typed getters ---- */

static int
check_keys(struct pctx *c, const json_t *o, const char *path, const char *const *allowed)
{
	const char *key;
	json_t *v;

	if (!json_is_object(o)) {
		fail(c, path, "must be an object");
		return -EINVAL;
	}
	json_object_foreach((json_t *)o, key, v)
	{
		const char *const *a;
		char sub[256];

		for (a = allowed; *a != NULL; a++)
			if (strcmp(*a, key) == 0)
				break;
		if (*a == NULL) {
			pfmt(sub, sizeof(sub), "%s%s%s", path, *path != '\0' ? "." : "", key);
			fail(c, sub, "unknown member");
			return -EINVAL;
		}
	}
	return 0;
}

static int
get_uint(struct pctx *c, const json_t *v, const char *path, uint64_t min, uint64_t max,
	 uint64_t *out)
{
	json_int_t i;

	if (!json_is_integer(v)) {
		fail(c, path, "must be an integer in %" PRIu64 "..%" PRIu64, min, max);
		return -EINVAL;
	}
	i = json_integer_value(v);
	if (i < 0 || (uint64_t)i < min || (uint64_t)i > max) {
		fail(c, path, "%" JSON_INTEGER_FORMAT " is out of range %" PRIu64 "..%" PRIu64, i,
		     min, max);
		return -ERANGE;
	}
	*out = (uint64_t)i;
	return 0;
}

static int
get_u16(struct pctx *c, const json_t *o, const char *key, const char *path, uint16_t min,
	uint16_t max, uint16_t *out)
{
	json_t *v = json_object_get(o, key);
	char sub[256];
	uint64_t x;

	if (v == NULL)
		return 0;
	pfmt(sub, sizeof(sub), "%s.%s", path, key);
	if (get_uint(c, v, sub, min, max, &x) != 0)
		return -EINVAL;
	*out = (uint16_t)x;
	return 0;
}

static int
get_mac(struct pctx *c, const json_t *o, const char *key, const char *path,
	struct rte_ether_addr *out)
{
	json_t *v = json_object_get(o, key);
	char sub[256];

	if (v == NULL)
		return 0;
	pfmt(sub, sizeof(sub), "%s.%s", path, key);
	if (!json_is_string(v) || rte_ether_unformat_addr(json_string_value(v), out) != 0) {
		fail(c, sub, "must be a MAC address string like \"02:00:00:00:00:01\"");
		return -EINVAL;
	}
	return 0;
}

static int
get_ip(struct pctx *c, const json_t *o, const char *key, const char *path, int ver, uint8_t *out)
{
	json_t *v = json_object_get(o, key);
	char sub[256];

	if (v == NULL)
		return 0;
	pfmt(sub, sizeof(sub), "%s.%s", path, key);
	if (!json_is_string(v) ||
	    inet_pton(ver == 4 ? AF_INET : AF_INET6, json_string_value(v), out) != 1) {
		fail(c, sub, "must be an IPv%d address string", ver);
		return -EINVAL;
	}
	return 0;
}

/* ---- headers ---- */

static void
hdr_defaults(struct pvp_hdr *h, bool inner)
{
	uint8_t i = inner ? 1 : 0;

	memset(h, 0, sizeof(*h));
	h->eth_src = (struct rte_ether_addr){{0x02, 0, 0, 0, i, 0x01}};
	h->eth_dst = (struct rte_ether_addr){{0x02, 0, 0, 0, i, 0x02}};
	h->ip_ver = 4;
	h->ip_src[0] = 16, h->ip_src[3] = 1;
	h->ip_dst[0] = 48, h->ip_dst[3] = 1;
	h->ip_src[2] = h->ip_dst[2] = i;
	h->ttl = 64;
	h->l4_proto = IPPROTO_UDP;
	h->sport = 1025;
	h->dport = 12;
}

static void
hdr_v6_defaults(struct pvp_hdr *h, bool inner)
{
	static const uint8_t v6s[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};
	static const uint8_t v6d[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};

	memcpy(h->ip_src, v6s, 16);
	memcpy(h->ip_dst, v6d, 16);
	if (inner)
		h->ip_src[13] = h->ip_dst[13] = 1;
}

static int parse_hdr(struct pctx *c, const json_t *o, const char *path, struct pvp_stream *s,
		     bool inner);

static int
parse_ip(struct pctx *c, const json_t *o, const char *path, int ver, struct pvp_hdr *h)
{
	static const char *const keys[] = {"src", "dst", "ttl", "tos", NULL};
	uint16_t ttl = h->ttl, tos = h->tos;

	if (check_keys(c, o, path, keys) != 0 || get_ip(c, o, "src", path, ver, h->ip_src) != 0 ||
	    get_ip(c, o, "dst", path, ver, h->ip_dst) != 0 ||
	    get_u16(c, o, "ttl", path, 1, 255, &ttl) != 0 ||
	    get_u16(c, o, "tos", path, 0, 255, &tos) != 0)
		return -EINVAL;
	h->ttl = ttl;
	h->tos = tos;
	return 0;
}

static int
parse_hdr(struct pctx *c, const json_t *o, const char *path, struct pvp_stream *s, bool inner)
{
	static const char *const keys[] = {"eth", "vlan", "ipv4",  "ipv6",
					   "udp", "tcp",  "vxlan", NULL};
	static const char *const ekeys[] = {"src", "dst", NULL};
	static const char *const l4keys[] = {"sport", "dport", NULL};
	static const char *const xkeys[] = {"vni", "inner", NULL};
	struct pvp_hdr *h = inner ? &s->inner : &s->outer;
	char sub[256];
	json_t *v;

	if (check_keys(c, o, path, keys) != 0)
		return -EINVAL;
	if ((v = json_object_get(o, "eth")) != NULL) {
		pfmt(sub, sizeof(sub), "%s.eth", path);
		if (check_keys(c, v, sub, ekeys) != 0 || get_mac(c, v, "src", sub, &h->eth_src) ||
		    get_mac(c, v, "dst", sub, &h->eth_dst) != 0)
			return -EINVAL;
	}
	if ((v = json_object_get(o, "vlan")) != NULL) {
		pfmt(sub, sizeof(sub), "%s.vlan", path);
		if (json_is_integer(v)) {
			uint64_t id;

			if (get_uint(c, v, sub, 0, 4095, &id) != 0)
				return -EINVAL;
			h->n_vlan = 1;
			h->vlan[0] = id;
		} else if (json_is_array(v) && json_array_size(v) <= 2) {
			size_t i;
			json_t *e;

			json_array_foreach(v, i, e)
			{
				char esub[280];
				uint64_t id;

				pfmt(esub, sizeof(esub), "%s[%zu]", sub, i);
				if (get_uint(c, e, esub, 0, 4095, &id) != 0)
					return -EINVAL;
				h->vlan[i] = id;
			}
			h->n_vlan = json_array_size(v);
		} else {
			fail(c, sub, "must be a VLAN id or a list of 0..2 ids (2 = QinQ)");
			return -EINVAL;
		}
	}
	if (json_object_get(o, "ipv4") != NULL && json_object_get(o, "ipv6") != NULL) {
		pfmt(sub, sizeof(sub), "%s.ipv6", path);
		fail(c, sub, "\"ipv4\" and \"ipv6\" are exclusive");
		return -EINVAL;
	}
	if ((v = json_object_get(o, "ipv6")) != NULL) {
		h->ip_ver = 6;
		hdr_v6_defaults(h, inner);
		pfmt(sub, sizeof(sub), "%s.ipv6", path);
		if (parse_ip(c, v, sub, 6, h) != 0)
			return -EINVAL;
	} else if ((v = json_object_get(o, "ipv4")) != NULL) {
		pfmt(sub, sizeof(sub), "%s.ipv4", path);
		if (parse_ip(c, v, sub, 4, h) != 0)
			return -EINVAL;
	}
	if (json_object_get(o, "udp") != NULL && json_object_get(o, "tcp") != NULL) {
		pfmt(sub, sizeof(sub), "%s.tcp", path);
		fail(c, sub, "\"udp\" and \"tcp\" are exclusive");
		return -EINVAL;
	}
	if ((v = json_object_get(o, "tcp")) != NULL)
		h->l4_proto = IPPROTO_TCP;
	else
		v = json_object_get(o, "udp");
	if (v != NULL) {
		pfmt(sub, sizeof(sub), "%s.%s", path, h->l4_proto == IPPROTO_TCP ? "tcp" : "udp");
		if (check_keys(c, v, sub, l4keys) != 0 ||
		    get_u16(c, v, "sport", sub, 0, 65535, &h->sport) != 0 ||
		    get_u16(c, v, "dport", sub, 0, 65535, &h->dport) != 0)
			return -EINVAL;
	}
	if ((v = json_object_get(o, "vxlan")) != NULL) {
		json_t *in;
		uint64_t vni = 0;

		pfmt(sub, sizeof(sub), "%s.vxlan", path);
		if (inner) {
			fail(c, sub, "VXLAN cannot be nested");
			return -EINVAL;
		}
		if (check_keys(c, v, sub, xkeys) != 0)
			return -EINVAL;
		if (h->l4_proto != IPPROTO_UDP) {
			fail(c, sub, "VXLAN needs outer \"udp\", not \"tcp\"");
			return -EINVAL;
		}
		if (json_object_get(v, "vni") != NULL) {
			char vsub[280];

			pfmt(vsub, sizeof(vsub), "%s.vni", sub);
			if (get_uint(c, json_object_get(v, "vni"), vsub, 0, 0xffffff, &vni) != 0)
				return -EINVAL;
		}
		s->vxlan = true;
		s->vni = vni;
		/* VTEP addresses by default; the entropy source port. */
		if (json_object_get(o, "ipv4") == NULL && json_object_get(o, "ipv6") == NULL) {
			static const uint8_t a[4] = {10, 0, 0, 1}, b[4] = {10, 0, 0, 2};

			memcpy(h->ip_src, a, 4);
			memcpy(h->ip_dst, b, 4);
		}
		if (json_object_get(o, "udp") == NULL)
			h->sport = 49152;
		hdr_defaults(&s->inner, true);
		in = json_object_get(v, "inner");
		if (in != NULL) {
			char isub[280];

			pfmt(isub, sizeof(isub), "%s.inner", sub);
			if (parse_hdr(c, in, isub, s, true) != 0)
				return -EINVAL;
		}
	}
	return 0;
}

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
get_var_bound(struct pctx *c, const json_t *v, const char *path, enum fkind k, uint8_t len,
	      uint32_t *out, uint8_t *hi)
{
	uint64_t max = k == F_VLAN ? 4095 : k == F_PORT ? 65535 : (UINT64_C(1) << (8 * len)) - 1;
	const char *str = json_string_value(v);
	uint8_t b[16];
	uint64_t x;

	if (json_is_integer(v)) {
		if (get_uint(c, v, path, 0, max, &x) != 0)
			return -EINVAL;
		*out = (uint32_t)x;
		return 0;
	}
	if (str != NULL && k == F_IP4 && inet_pton(AF_INET, str, b) == 1) {
		*out = (uint32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
		return 0;
	}
	if (str != NULL && k == F_IP6 && inet_pton(AF_INET6, str, b) == 1) {
		memcpy(hi, b, 12);
		*out = (uint32_t)b[12] << 24 | b[13] << 16 | b[14] << 8 | b[15];
		return 0;
	}
	if (str != NULL && k == F_MAC && rte_ether_unformat_addr(str, (void *)b) == 0) {
		memcpy(hi, b, 2);
		*out = (uint32_t)b[2] << 24 | b[3] << 16 | b[4] << 8 | b[5];
		return 0;
	}
	fail(c, path, "must be %s",
	     k == F_IP4	  ? "an IPv4 address string or an integer"
	     : k == F_IP6 ? "an IPv6 address string or an integer (low 32 bits)"
	     : k == F_MAC ? "a MAC address string or an integer (low 32 bits)"
			  : "an integer");
	return -EINVAL;
}

static uint64_t
gcd64(uint64_t a, uint64_t b)
{
	while (b != 0) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static void
var_finish(struct pvp_var *v)
{
	uint64_t range = (uint64_t)v->max - v->min + 1;

	v->period = v->op == PVP_VAR_RANDOM
			    ? range
			    : range / gcd64(range, v->step % range == 0 ? range : v->step % range);
	if (v->div == 0)
		v->div = 1;
}

static int
parse_var(struct pctx *c, const json_t *o, const char *path, struct pvp_stream *s,
	  struct pvp_var *v)
{
	static const char *const keys[] = {"field", "op", "min", "max", "step", "seed", NULL};
	static const char *const rkeys[] = {"offset", "len", NULL};
	json_t *f = json_object_get(o, "field"), *op = json_object_get(o, "op");
	uint8_t hmin[12] = {0}, hmax[12] = {0};
	enum fkind k = F_RAW;
	char sub[256];
	uint64_t x;

	memset(v, 0, sizeof(*v));
	v->step = 1;
	v->div = 1;
	if (check_keys(c, o, path, keys) != 0)
		return -EINVAL;
	pfmt(sub, sizeof(sub), "%s.field", path);
	if (json_is_string(f)) {
		if (strncmp(json_string_value(f), "inner.", 6) == 0 && !s->vxlan &&
		    s->pcap[0] == '\0' && json_object_get(o, "field") != NULL &&
		    field_kind(json_string_value(f), &k) == 0) {
			fail(c, sub, "\"%s\": \"inner.\" fields need headers.vxlan",
			     json_string_value(f));
			return -EINVAL;
		}
		if (field_kind(json_string_value(f), &k) != 0) {
			fail(c, sub,
			     "unknown field \"%s\": expected "
			     "eth.src|eth.dst|vlan.id|vlan2.id|ipv4.src|ipv4.dst|ipv6.src|ipv6.dst|"
			     "udp.sport|udp.dport|tcp.sport|tcp.dport (\"inner.\" prefix for "
			     "VXLAN) or {\"offset\": N, \"len\": 1|2|4}",
			     json_string_value(f));
			return -EINVAL;
		}
		pfmt(v->field, sizeof(v->field), "%s", json_string_value(f));
		v->len = k == F_VLAN || k == F_PORT ? 2 : 4;
	} else if (json_is_object(f)) {
		char rsub[280];

		if (check_keys(c, f, sub, rkeys) != 0)
			return -EINVAL;
		pfmt(rsub, sizeof(rsub), "%s.offset", sub);
		if (get_uint(c, json_object_get(f, "offset"), rsub, 0, PVP_PKT_MAX_SIZE, &x) != 0)
			return -EINVAL;
		v->offset = x;
		pfmt(rsub, sizeof(rsub), "%s.len", sub);
		if (get_uint(c, json_object_get(f, "len"), rsub, 1, 4, &x) != 0)
			return -EINVAL;
		if (x == 3) {
			fail(c, rsub, "must be 1, 2 or 4");
			return -EINVAL;
		}
		v->len = x;
	} else {
		fail(c, f == NULL ? path : sub,
		     "needs \"field\": a field name or {\"offset\", \"len\"}");
		return -EINVAL;
	}
	if (op != NULL) {
		const char *ops = json_string_value(op);

		pfmt(sub, sizeof(sub), "%s.op", path);
		if (ops != NULL && strcmp(ops, "inc") == 0) {
			v->op = PVP_VAR_INC;
		} else if (ops != NULL && strcmp(ops, "dec") == 0) {
			v->op = PVP_VAR_DEC;
		} else if (ops != NULL && strcmp(ops, "random") == 0) {
			v->op = PVP_VAR_RANDOM;
		} else {
			fail(c, sub, "must be \"inc\", \"dec\" or \"random\"");
			return -EINVAL;
		}
	}
	pfmt(sub, sizeof(sub), "%s.min", path);
	if (json_object_get(o, "min") == NULL) {
		fail(c, path, "needs \"min\" and \"max\"");
		return -EINVAL;
	}
	if (get_var_bound(c, json_object_get(o, "min"), sub, k, v->len, &v->min, hmin) != 0)
		return -EINVAL;
	pfmt(sub, sizeof(sub), "%s.max", path);
	if (json_object_get(o, "max") == NULL) {
		fail(c, path, "needs \"min\" and \"max\"");
		return -EINVAL;
	}
	if (get_var_bound(c, json_object_get(o, "max"), sub, k, v->len, &v->max, hmax) != 0)
		return -EINVAL;
	if (v->max < v->min) {
		fail(c, sub, "must be >= min (%u)", v->min);
		return -ERANGE;
	}
	if ((k == F_MAC || k == F_IP6) && json_is_string(json_object_get(o, "min"))) {
		size_t n = k == F_MAC ? 2 : 12;

		if (json_is_string(json_object_get(o, "max")) && memcmp(hmin, hmax, n) != 0) {
			fail(c, sub, "must differ from min only in the low 32 bits");
			return -EINVAL;
		}
		/* The var writes the low 32 bits; min's high bytes go into
		 * the header so the whole address is what was asked. */
		memcpy(var_hdr_bytes(s, v->field), hmin, n);
	}
	if (json_object_get(o, "step") != NULL) {
		pfmt(sub, sizeof(sub), "%s.step", path);
		if (get_uint(c, json_object_get(o, "step"), sub, 1, UINT32_MAX, &x) != 0)
			return -EINVAL;
		v->step = x;
	}
	if (json_object_get(o, "seed") != NULL) {
		pfmt(sub, sizeof(sub), "%s.seed", path);
		if (get_uint(c, json_object_get(o, "seed"), sub, 0, INT64_MAX, &x) != 0)
			return -EINVAL;
		v->seed = x;
	}
	var_finish(v);
	return 0;
}

static int
parse_tuple(struct pctx *c, const json_t *o, const char *path, struct pvp_stream *s)
{
	static const char *const keys[] = {"src_ip", "dst_ip", "sport", "dport", NULL};
	const struct pvp_hdr *h = s->vxlan ? &s->inner : &s->outer;
	const char *pre = s->vxlan ? "inner." : "";
	const char *ip = h->ip_ver == 4 ? "ipv4" : "ipv6";
	const char *l4 = h->l4_proto == IPPROTO_TCP ? "tcp" : "udp";
	uint64_t div = 1;
	unsigned int i;

	if (check_keys(c, o, path, keys) != 0)
		return -EINVAL;
	/* Nesting order: src_ip varies fastest, then dst_ip, sport, dport. */
	for (i = 0; keys[i] != NULL; i++) {
		json_t *r = json_object_get(o, keys[i]);
		struct pvp_var *v;
		enum fkind k = F_RAW;
		uint8_t hmin[12], hmax[12];
		char sub[256], esub[280];

		if (r == NULL)
			continue;
		pfmt(sub, sizeof(sub), "%s.%s", path, keys[i]);
		if (!json_is_array(r) || json_array_size(r) != 2) {
			fail(c, sub, "must be [min, max]");
			return -EINVAL;
		}
		if (s->n_vars >= PVP_PKT_MAX_VARS) {
			fail(c, sub, "too many vars (at most %d with the tuple)", PVP_PKT_MAX_VARS);
			return -E2BIG;
		}
		v = &s->vars[s->n_vars];
		memset(v, 0, sizeof(*v));
		v->tuple = true;
		v->step = 1;
		if (i < 2)
			pfmt(v->field, sizeof(v->field), "%s%s.%s", pre, ip,
			     i == 0 ? "src" : "dst");
		else
			pfmt(v->field, sizeof(v->field), "%s%s.%s", pre, l4, keys[i]);
		field_kind(v->field, &k);
		v->len = k == F_PORT ? 2 : 4;
		pfmt(esub, sizeof(esub), "%s[0]", sub);
		if (get_var_bound(c, json_array_get(r, 0), esub, k, v->len, &v->min, hmin) != 0)
			return -EINVAL;
		pfmt(esub, sizeof(esub), "%s[1]", sub);
		if (get_var_bound(c, json_array_get(r, 1), esub, k, v->len, &v->max, hmax) != 0)
			return -EINVAL;
		if (v->max < v->min) {
			fail(c, esub, "must be >= min");
			return -ERANGE;
		}
		if (k == F_IP6 && json_is_string(json_array_get(r, 0))) {
			if (json_is_string(json_array_get(r, 1)) && memcmp(hmin, hmax, 12) != 0) {
				fail(c, esub, "must differ from min only in the low 32 bits");
				return -EINVAL;
			}
			memcpy(var_hdr_bytes(s, v->field), hmin, 12);
		}
		v->div = div;
		var_finish(v);
		/* Full IPv4 source and destination ranges make 2^64: checked,
		 * never wrapped (a product of 0 is divided by later). */
		if (__builtin_mul_overflow(div, v->period, &div) || div > PVP_PKT_MAX_FLOWS) {
			fail(c, sub,
			     "the tuple's ranges make more than 2^48 flows (%" PRIu64
			     "): narrow them",
			     PVP_PKT_MAX_FLOWS);
			return -ERANGE;
		}
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

	if (__builtin_mul_overflow(a / gcd64(a, b), b, &r) || r > VARS_MANY)
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

/* ---- frames: size, imix, pcap ---- */

static int
load_pcap(struct pctx *c, const char *path, struct pvp_stream *s, const char *file)
{
	char ebuf[PCAP_ERRBUF_SIZE], emsg[PVP_PKT_ERR_LEN];
	struct pcap_pkthdr *ph;
	const u_char *data;
	uint32_t cap = 0;
	pcap_t *pc;
	int rc, fd;
	FILE *fp;

	if (file[0] == '/' || c->dir[0] == '\0' || strcmp(c->dir, ".") == 0)
		pfmt(s->pcap, sizeof(s->pcap), "%s", file);
	else
		pfmt(s->pcap, sizeof(s->pcap), "%s/%s", c->dir, file);
	/* Never blocks on a FIFO, refuses devices and huge files. */
	fd = pkt_file_open(s->pcap, PVP_PKT_MAX_FILE, NULL, emsg, sizeof(emsg));
	if (fd < 0) {
		fail(c, path, "%s", emsg);
		return fd;
	}
	fp = fdopen(fd, "rb");
	if (fp == NULL) {
		close(fd);
		fail(c, path, "cannot read pcap \"%s\": %s", s->pcap, strerror(errno));
		return -ENOMEM;
	}
	pc = pcap_fopen_offline(fp, ebuf); /* closes fp with pcap_close() */
	if (pc == NULL) {
		fclose(fp);
		fail(c, path, "cannot read pcap \"%s\": %s", s->pcap, ebuf);
		return -EINVAL;
	}
	if (pcap_datalink(pc) != DLT_EN10MB) {
		fail(c, path, "pcap \"%s\": link type %s, expected Ethernet (EN10MB)", s->pcap,
		     pcap_datalink_val_to_name(pcap_datalink(pc)));
		pcap_close(pc);
		return -EINVAL;
	}
	while ((rc = pcap_next_ex(pc, &ph, &data)) == 1) {
		struct pvp_tmpl *t;

		if (ph->caplen < ph->len) {
			fail(c, path, "pcap \"%s\": frame %u was cut to %u of %u bytes (snaplen)",
			     s->pcap, s->n_tmpl + 1, ph->caplen, ph->len);
			rc = -EINVAL;
			break;
		}
		if (ph->len < RTE_ETHER_HDR_LEN || ph->len > PVP_PKT_MAX_SIZE - PVP_FCS_LEN) {
			fail(c, path, "pcap \"%s\": frame %u has %u bytes, expected %u..%u",
			     s->pcap, s->n_tmpl + 1, ph->len, RTE_ETHER_HDR_LEN,
			     PVP_PKT_MAX_SIZE - PVP_FCS_LEN);
			rc = -EINVAL;
			break;
		}
		if (s->n_tmpl == cap) {
			uint32_t ncap = cap == 0 ? 64 : cap * 2;
			struct pvp_tmpl *nt = realloc(s->tmpl, ncap * sizeof(*nt));

			if (nt == NULL) {
				rc = -ENOMEM;
				break;
			}
			memset(nt + cap, 0, (ncap - cap) * sizeof(*nt));
			s->tmpl = nt;
			cap = ncap;
		}
		t = &s->tmpl[s->n_tmpl];
		t->data = malloc(ph->len);
		if (t->data == NULL) {
			rc = -ENOMEM;
			break;
		}
		memcpy(t->data, data, ph->len);
		t->len = ph->len;
		t->size = ph->len + PVP_FCS_LEN;
		s->n_tmpl++;
	}
	if (rc == PCAP_ERROR) {
		fail(c, path, "pcap \"%s\": %s", s->pcap, pcap_geterr(pc));
		rc = -EINVAL;
	}
	pcap_close(pc);
	if (rc == -ENOMEM)
		fail(c, path, "out of memory");
	if (rc < 0 && rc != PCAP_ERROR_BREAK)
		return rc;
	if (s->n_tmpl == 0) {
		fail(c, path, "pcap \"%s\" holds no frames", s->pcap);
		return -EINVAL;
	}
	return 0;
}

static int
parse_imix(struct pctx *c, const json_t *v, const char *path, struct pvp_stream *s)
{
	static const char *const keys[] = {"size", "weight", NULL};
	size_t i;
	json_t *e;

	if (json_is_string(v)) {
		if (strcmp(json_string_value(v), "trex") != 0) {
			fail(c, path, "must be \"trex\" or a list of {\"size\", \"weight\"}");
			return -EINVAL;
		}
		memcpy(s->imix, pvp_imix_trex, sizeof(pvp_imix_trex));
		s->n_imix = RTE_DIM(pvp_imix_trex);
		return 0;
	}
	if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > PVP_PKT_MAX_IMIX) {
		fail(c, path, "must be \"trex\" or a list of 1..%d {\"size\", \"weight\"}",
		     PVP_PKT_MAX_IMIX);
		return -EINVAL;
	}
	json_array_foreach(v, i, e)
	{
		char sub[256], esub[280];
		uint64_t x;

		pfmt(sub, sizeof(sub), "%s[%zu]", path, i);
		if (check_keys(c, e, sub, keys) != 0)
			return -EINVAL;
		pfmt(esub, sizeof(esub), "%s.size", sub);
		if (get_uint(c, json_object_get(e, "size"), esub, PVP_PKT_MIN_SIZE,
			     PVP_PKT_MAX_SIZE, &x) != 0)
			return -EINVAL;
		s->imix[i].size = x;
		pfmt(esub, sizeof(esub), "%s.weight", sub);
		if (get_uint(c, json_object_get(e, "weight"), esub, 1, 1000000, &x) != 0)
			return -EINVAL;
		s->imix[i].weight = x;
	}
	s->n_imix = json_array_size(v);
	if (pvp_imix_cycle_len(s->imix, s->n_imix) > 1000000) {
		fail(c, path, "the weights make a cycle of more than 1000000 packets");
		return -ERANGE;
	}
	return 0;
}

static const char *
hdr_desc(const struct pvp_hdr *h, char *buf, size_t len)
{
	pfmt(buf, len, "eth%s/%s/%s",
	     h->n_vlan == 2   ? "/qinq"
	     : h->n_vlan == 1 ? "/vlan"
			      : "",
	     h->ip_ver == 4 ? "ipv4" : "ipv6", h->l4_proto == IPPROTO_TCP ? "tcp" : "udp");
	return buf;
}

static int
parse_mode(struct pctx *c, const json_t *v, const char *path, struct pvp_stream *s)
{
	static const char *const mkeys[] = {"count", "packets", "gap_us", NULL};
	char sub[256];
	json_t *b;

	if (json_is_string(v) && strcmp(json_string_value(v), "continuous") == 0) {
		s->mode = PVP_MODE_CONTINUOUS;
		return 0;
	}
	if (json_is_object(v) && json_object_size(v) == 1 &&
	    (b = json_object_get(v, "burst")) != NULL) {
		pfmt(sub, sizeof(sub), "%s.burst", path);
		s->mode = PVP_MODE_BURST;
		return get_uint(c, b, sub, 1, UINT64_C(1) << 48, &s->burst_packets);
	}
	if (json_is_object(v) && json_object_size(v) == 1 &&
	    (b = json_object_get(v, "multi_burst")) != NULL) {
		char esub[280];
		uint64_t x;

		pfmt(sub, sizeof(sub), "%s.multi_burst", path);
		if (check_keys(c, b, sub, mkeys) != 0)
			return -EINVAL;
		s->mode = PVP_MODE_MULTI_BURST;
		pfmt(esub, sizeof(esub), "%s.count", sub);
		if (get_uint(c, json_object_get(b, "count"), esub, 1, UINT32_MAX, &x) != 0)
			return -EINVAL;
		s->burst_count = x;
		pfmt(esub, sizeof(esub), "%s.packets", sub);
		if (get_uint(c, json_object_get(b, "packets"), esub, 1, UINT64_C(1) << 48,
			     &s->burst_packets) != 0)
			return -EINVAL;
		if (__builtin_mul_overflow((uint64_t)s->burst_count, s->burst_packets, &x) ||
		    x > PVP_PKT_MAX_FLOWS) {
			fail(c, sub, "count x packets is more than 2^48 packets");
			return -ERANGE;
		}
		s->burst_gap_us = 0;
		if (json_object_get(b, "gap_us") != NULL) {
			pfmt(esub, sizeof(esub), "%s.gap_us", sub);
			if (get_uint(c, json_object_get(b, "gap_us"), esub, 0, UINT64_C(1) << 40,
				     &s->burst_gap_us) != 0)
				return -EINVAL;
		}
		return 0;
	}
	fail(c, path,
	     "must be \"continuous\", {\"burst\": N} or {\"multi_burst\": {\"count\", \"packets\", "
	     "\"gap_us\"}}");
	return -EINVAL;
}

static int
parse_stream(struct pctx *c, const json_t *o, const char *path, struct pvp_stream *s, uint16_t id)
{
	static const char *const keys[] = {"name",   "port",  "size",  "imix", "pcap",
					   "replay", "loop",  "rate",  "mode", "headers",
					   "vars",   "tuple", "flows", NULL};
	json_t *v, *size = json_object_get(o, "size"), *imix = json_object_get(o, "imix"),
		   *pcap = json_object_get(o, "pcap");
	char sub[256], msg[PVP_PKT_ERR_LEN], where[64];
	uint64_t x, distinct;
	int rc;

	s->id = id;
	pfmt(s->name, sizeof(s->name), "stream%u", id);
	hdr_defaults(&s->outer, false);
	if (check_keys(c, o, path, keys) != 0)
		return -EINVAL;
	if ((v = json_object_get(o, "name")) != NULL) {
		pfmt(sub, sizeof(sub), "%s.name", path);
		if (!json_is_string(v) || json_string_length(v) == 0 ||
		    json_string_length(v) >= sizeof(s->name)) {
			fail(c, sub, "must be a string of 1..%zu characters", sizeof(s->name) - 1);
			return -EINVAL;
		}
		pfmt(s->name, sizeof(s->name), "%s", json_string_value(v));
	}
	if (get_u16(c, o, "port", path, 0, RTE_MAX_ETHPORTS - 1, &s->port) != 0)
		return -EINVAL;
	if ((size != NULL) + (imix != NULL) + (pcap != NULL) > 1) {
		pfmt(sub, sizeof(sub), "%s.%s", path, pcap != NULL ? "pcap" : "imix");
		fail(c, sub, "\"size\", \"imix\" and \"pcap\" are exclusive");
		return -EINVAL;
	}
	if ((v = json_object_get(o, "rate")) != NULL) {
		char rerr[200];

		pfmt(sub, sizeof(sub), "%s.rate", path);
		if (json_is_number(v)) {
			s->rate.unit = PVP_RATE_PPS;
			s->rate.value = json_number_value(v);
			if (!(s->rate.value > 0)) {
				fail(c, sub, "must be positive");
				return -ERANGE;
			}
		} else if (!json_is_string(v)) {
			fail(c, sub,
			     "must be a number (pps) or a string like \"1Mpps\", \"10Gbps\", "
			     "\"50%%\", \"max\"");
			return -EINVAL;
		} else if (pvp_rate_parse(json_string_value(v), &s->rate, rerr, sizeof(rerr)) !=
			   0) {
			fail(c, sub, "%s", rerr);
			return -EINVAL;
		}
		s->has_rate = true;
	}
	if ((v = json_object_get(o, "mode")) != NULL) {
		pfmt(sub, sizeof(sub), "%s.mode", path);
		if (parse_mode(c, v, sub, s) != 0)
			return -EINVAL;
	}
	if ((v = json_object_get(o, "headers")) != NULL) {
		pfmt(sub, sizeof(sub), "%s.headers", path);
		if (pcap != NULL) {
			fail(c, sub,
			     "\"headers\" and \"pcap\" are exclusive: the frames come from the "
			     "file");
			return -EINVAL;
		}
		if (parse_hdr(c, v, sub, s, false) != 0)
			return -EINVAL;
	}
	pfmt(sub, sizeof(sub), "%s.replay", path);
	if ((v = json_object_get(o, "replay")) != NULL) {
		if (!json_is_boolean(v) || pcap == NULL) {
			fail(c, sub, pcap == NULL ? "needs \"pcap\"" : "must be true or false");
			return -EINVAL;
		}
		s->replay = json_is_true(v);
	}
	if ((v = json_object_get(o, "loop")) != NULL) {
		pfmt(sub, sizeof(sub), "%s.loop", path);
		if (!s->replay) {
			fail(c, sub, "needs \"replay\": true");
			return -EINVAL;
		}
		if (get_uint(c, v, sub, 0, UINT64_C(1) << 48, &s->loop) != 0)
			return -EINVAL;
	}
	if ((v = json_object_get(o, "vars")) != NULL) {
		size_t i;
		json_t *e;

		pfmt(sub, sizeof(sub), "%s.vars", path);
		if (!json_is_array(v) || json_array_size(v) > PVP_PKT_MAX_VARS) {
			fail(c, sub, "must be a list of at most %d vars", PVP_PKT_MAX_VARS);
			return -EINVAL;
		}
		json_array_foreach(v, i, e)
		{
			char esub[280];

			pfmt(esub, sizeof(esub), "%s[%zu]", sub, i);
			if (parse_var(c, e, esub, s, &s->vars[s->n_vars]) != 0)
				return -EINVAL;
			s->n_vars++;
		}
	}
	if ((v = json_object_get(o, "tuple")) != NULL) {
		pfmt(sub, sizeof(sub), "%s.tuple", path);
		if (pcap != NULL) {
			fail(c, sub, "not available with \"pcap\": use vars");
			return -EINVAL;
		}
		if (parse_tuple(c, v, sub, s) != 0)
			return -EINVAL;
	}
	if (s->replay && s->n_vars != 0) {
		pfmt(sub, sizeof(sub), "%s.vars", path);
		fail(c, sub, "not available with \"replay\": frames are sent as captured");
		return -EINVAL;
	}
	distinct = s->n_vars != 0 ? vars_distinct(s) : 1;
	s->flows = distinct;
	if ((v = json_object_get(o, "flows")) != NULL) {
		pfmt(sub, sizeof(sub), "%s.flows", path);
		if (get_uint(c, v, sub, 1, UINT64_C(1) << 48, &x) != 0)
			return -EINVAL;
		if (s->n_vars == 0 && x > 1) {
			/* Bare "flows": vary the (inner) source address. */
			struct pvp_hdr *h = s->vxlan ? &s->inner : &s->outer;
			struct pvp_var *fv = &s->vars[0];
			const uint8_t *a = h->ip_ver == 4 ? h->ip_src : h->ip_src + 12;
			uint32_t base = (uint32_t)a[0] << 24 | a[1] << 16 | a[2] << 8 | a[3];

			if (pcap != NULL || s->replay) {
				fail(c, sub, "with \"pcap\", \"flows\" needs vars");
				return -EINVAL;
			}
			if (x - 1 > UINT32_MAX - base) {
				fail(c, sub,
				     "%" PRIu64 " flows from source address %u.%u.%u.%u run past "
				     "the end of the address space",
				     x, a[0], a[1], a[2], a[3]);
				return -ERANGE;
			}
			memset(fv, 0, sizeof(*fv));
			pfmt(fv->field, sizeof(fv->field), "%s%s.src", s->vxlan ? "inner." : "",
			     h->ip_ver == 4 ? "ipv4" : "ipv6");
			fv->len = 4;
			fv->op = PVP_VAR_INC;
			fv->min = base;
			fv->max = base + (uint32_t)(x - 1);
			fv->step = 1;
			fv->div = 1;
			var_finish(fv);
			s->n_vars = 1;
			distinct = x;
		}
		if (x > distinct) {
			fail(c, sub,
			     "%" PRIu64 " flows, but the vars make only %" PRIu64
			     " distinct combinations",
			     x, distinct);
			return -ERANGE;
		}
		s->flows = x;
	}
	if (pcap != NULL) {
		pfmt(sub, sizeof(sub), "%s.pcap", path);
		if (!json_is_string(pcap)) {
			fail(c, sub, "must be a file name");
			return -EINVAL;
		}
		rc = load_pcap(c, sub, s, json_string_value(pcap));
		if (rc != 0)
			return rc;
		/* Replayed "loop" times: every frame, that many passes. */
		if (s->loop > PVP_PKT_MAX_FLOWS / s->n_tmpl) {
			pfmt(sub, sizeof(sub), "%s.loop", path);
			fail(c, sub, "%" PRIu64 " passes over %u frames is more than 2^48 packets",
			     s->loop, s->n_tmpl);
			return -ERANGE;
		}
	} else if (imix != NULL) {
		unsigned int i;

		pfmt(sub, sizeof(sub), "%s.imix", path);
		if (parse_imix(c, imix, sub, s) != 0)
			return -EINVAL;
		for (i = 0; i < s->n_imix; i++)
			if (s->imix[i].size < pvp_stream_min_size(s)) {
				char d1[40], d2[40];
				char isub[280];

				pfmt(isub, sizeof(isub), "%s[%u].size", sub, i);
				if (json_is_string(imix))
					pfmt(isub, sizeof(isub), "%s", sub);
				fail(c, isub,
				     "%u is too small for %s%s%s + %d B signature: minimum %u "
				     "(frame size with FCS)",
				     s->imix[i].size, hdr_desc(&s->outer, d1, sizeof(d1)),
				     s->vxlan ? "/vxlan/" : "",
				     s->vxlan ? hdr_desc(&s->inner, d2, sizeof(d2)) : "",
				     PVP_SIG_LEN, pvp_stream_min_size(s));
				return -EINVAL;
			}
	} else {
		/* No size: the smallest frame the headers allow, 64 B for
		 * plain Ethernet/IPv4/UDP. */
		s->size = pvp_stream_min_size(s);
		if (size != NULL) {
			pfmt(sub, sizeof(sub), "%s.size", path);
			if (get_uint(c, size, sub, PVP_PKT_MIN_SIZE, PVP_PKT_MAX_SIZE, &x) != 0) {
				if (c->err != NULL) {
					size_t n = strlen(c->err->text);

					pfmt(c->err->text + n, sizeof(c->err->text) - n,
					     " (frame size with FCS)");
				}
				return -EINVAL;
			}
			s->size = x;
		}
		if (s->size < pvp_stream_min_size(s)) {
			char d1[40], d2[40];

			pfmt(sub, sizeof(sub), "%s.%s", path, size != NULL ? "size" : "headers");
			fail(c, sub,
			     "%u is too small for %s%s%s + %d B signature: minimum %u (frame size "
			     "with FCS)",
			     s->size, hdr_desc(&s->outer, d1, sizeof(d1)),
			     s->vxlan ? "/vxlan/" : "",
			     s->vxlan ? hdr_desc(&s->inner, d2, sizeof(d2)) : "", PVP_SIG_LEN,
			     pvp_stream_min_size(s));
			return -EINVAL;
		}
	}
	where[0] = '\0';
	msg[0] = '\0';
	rc = pkt_stream_build(s, msg, sizeof(msg), where, sizeof(where));
	if (rc != 0) {
		pfmt(sub, sizeof(sub), "%s%s%s", path, where[0] != '\0' ? "." : "", where);
		if (rc == -ENOMEM)
			fail(c, sub, "out of memory");
		else
			fail(c, sub, "%s", msg);
		return rc;
	}
	return 0;
}

/* ---- entry points ---- */

static struct pvp_profile *
parse_root(struct pctx *c, const json_t *root)
{
	static const char *const keys[] = {"streams", NULL};
	struct pvp_profile *p;
	json_t *arr, *e;
	size_t i;
	int rc = -EINVAL;

	if (c->err != NULL)
		memset(c->err, 0, sizeof(*c->err));
	if (check_keys(c, root, "", keys) != 0) {
		errno = EINVAL;
		return NULL;
	}
	arr = json_object_get(root, "streams");
	if (!json_is_array(arr) || json_array_size(arr) == 0 ||
	    json_array_size(arr) > PVP_PKT_MAX_STREAMS) {
		fail(c, arr == NULL ? "" : "streams", "\"streams\" must be a list of 1..%d streams",
		     PVP_PKT_MAX_STREAMS);
		errno = EINVAL;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return NULL;
	pfmt(p->source, sizeof(p->source), "%s", c->source);
	p->streams = calloc(json_array_size(arr), sizeof(*p->streams));
	if (p->streams == NULL) {
		free(p);
		errno = ENOMEM;
		return NULL;
	}
	json_array_foreach(arr, i, e)
	{
		char path[32];

		pfmt(path, sizeof(path), "streams[%zu]", i);
		p->n_streams = i + 1;
		rc = parse_stream(c, e, path, &p->streams[i], i);
		if (rc != 0)
			break;
	}
	if (rc != 0) {
		pvp_profile_free(p);
		errno = -rc;
		return NULL;
	}
	return p;
}

struct pvp_profile *
pvp_profile_parse(const json_t *root, const char *source, struct pvp_pkt_error *err)
{
	struct pctx c = {.source = source != NULL ? source : "<profile>", .err = err};

	return parse_root(&c, root);
}

static struct pvp_profile *
load_text(const char *text, size_t len, const char *source, const char *dir,
	  struct pvp_pkt_error *err)
{
	struct pctx c = {.source = source, .text = text, .err = err};
	struct pvp_profile *p;
	json_error_t jerr;
	json_t *root;

	pfmt(c.dir, sizeof(c.dir), "%s", dir != NULL ? dir : "");
	if (err != NULL)
		memset(err, 0, sizeof(*err));
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL) {
		/*
		 * jansson quotes the token it stopped at ("near 'root'"): for a
		 * file that is not a profile at all that is its content (a
		 * password line), so only the position is kept.
		 */
		char *near = strstr(jerr.text, " near '");

		if (near != NULL)
			*near = '\0';
		if (err != NULL) {
			err->line = jerr.line;
			err->column = jerr.column;
			pfmt(err->text, sizeof(err->text), "%s:%d:%d: %s", source, jerr.line,
			     jerr.column, jerr.text);
		}
		errno = EINVAL;
		return NULL;
	}
	p = parse_root(&c, root);
	json_decref(root);
	return p;
}

struct pvp_profile *
pvp_profile_load_str(const char *text, const char *source, struct pvp_pkt_error *err)
{
	return load_text(text, strlen(text), source != NULL ? source : "<profile>", NULL, err);
}

struct pvp_profile *
pvp_profile_load(const char *path, struct pvp_pkt_error *err)
{
	char emsg[PVP_PKT_ERR_LEN];
	struct pvp_profile *p;
	char *text, *dcopy;
	size_t n;
	int rc, e;

	if (err != NULL)
		memset(err, 0, sizeof(*err));
	/* Never blocks on a FIFO, refuses devices and huge files. */
	rc = pkt_file_read(path, PVP_PKT_MAX_FILE, &text, &n, emsg, sizeof(emsg));
	if (rc != 0) {
		if (err != NULL)
			pfmt(err->text, sizeof(err->text), "%s", emsg);
		errno = -rc;
		return NULL;
	}
	dcopy = strdup(path);
	p = load_text(text, n, path, dcopy != NULL ? dirname(dcopy) : NULL, err);
	e = errno;
	free(dcopy);
	free(text);
	errno = e;
	return p;
}

struct pvp_profile *
pvp_profile_quick(uint16_t size, uint64_t flows, const uint16_t *ports, unsigned int n_ports,
		  struct pvp_pkt_error *err)
{
	struct pvp_profile *p;
	json_t *root, *arr;
	unsigned int i;

	if (err != NULL)
		memset(err, 0, sizeof(*err));
	if (n_ports == 0 || ports == NULL || flows == 0 ||
	    (size != 0 && (size < PVP_PKT_MIN_SIZE || size > PVP_PKT_MAX_SIZE))) {
		if (err == NULL) {
			/* nothing to fill */
		} else if (n_ports == 0 || ports == NULL) {
			pfmt(err->text, sizeof(err->text), "no TX port");
		} else if (flows == 0) {
			pfmt(err->text, sizeof(err->text), "flows must be at least 1");
		} else {
			pfmt(err->text, sizeof(err->text),
			     "size %u is out of range %u..%u (frame size with FCS)", size,
			     PVP_PKT_MIN_SIZE, PVP_PKT_MAX_SIZE);
		}
		errno = EINVAL;
		return NULL;
	}
	arr = json_array();
	for (i = 0; i < n_ports; i++) {
		json_t *s = json_pack("{s:I, s:I}", "port", (json_int_t)ports[i], "flows",
				      (json_int_t)flows);

		if (size != 0)
			json_object_set_new(s, "size", json_integer(size));
		else
			json_object_set_new(s, "imix", json_string("trex"));
		json_array_append_new(arr, s);
	}
	root = json_pack("{s:o}", "streams", arr);
	p = pvp_profile_parse(root, "command line", err);
	json_decref(root);
	return p;
}

void
pvp_profile_free(struct pvp_profile *p)
{
	uint32_t i, j;

	if (p == NULL)
		return;
	for (i = 0; i < p->n_streams; i++) {
		struct pvp_stream *s = &p->streams[i];

		for (j = 0; j < s->n_tmpl; j++)
			free(s->tmpl[j].data);
		free(s->tmpl);
		free(s->order);
	}
	free(p->streams);
	free(p);
}

int
pvp_stream_summary(const struct pvp_stream *s, char *buf, size_t len)
{
	char frames[160], hdrs[96], mode[64], rate[32], d1[40], d2[40];
	unsigned int i;
	int n = 0;

	if (s->pcap[0] != '\0') {
		const char *base = strrchr(s->pcap, '/');

		pfmt(frames, sizeof(frames), "pcap %s frames %u%s",
		     base != NULL ? base + 1 : s->pcap, s->n_tmpl, s->replay ? " replay" : "");
		if (s->replay) {
			size_t k = strlen(frames);

			pfmt(frames + k, sizeof(frames) - k, " loop %" PRIu64, s->loop);
		}
		pfmt(hdrs, sizeof(hdrs), "-");
	} else {
		if (s->n_imix != 0) {
			n = pfmt(frames, sizeof(frames), "imix ");
			for (i = 0; i < s->n_imix && n < (int)sizeof(frames); i++)
				n += pfmt(frames + n, sizeof(frames) - n, "%s%u:%u", i ? "," : "",
					  s->imix[i].size, s->imix[i].weight);
			if (n < (int)sizeof(frames))
				pfmt(frames + n, sizeof(frames) - n, " cycle %u avg %.1f",
				     s->n_order, s->avg_size);
		} else {
			pfmt(frames, sizeof(frames), "size %u", s->size);
		}
		if (s->vxlan)
			pfmt(hdrs, sizeof(hdrs), "%s/vxlan(%u)/%s",
			     hdr_desc(&s->outer, d1, sizeof(d1)), s->vni,
			     hdr_desc(&s->inner, d2, sizeof(d2)));
		else
			pfmt(hdrs, sizeof(hdrs), "%s", hdr_desc(&s->outer, d1, sizeof(d1)));
	}
	switch (s->mode) {
	case PVP_MODE_BURST:
		pfmt(mode, sizeof(mode), "burst %" PRIu64, s->burst_packets);
		break;
	case PVP_MODE_MULTI_BURST:
		pfmt(mode, sizeof(mode), "multi_burst %ux%" PRIu64 " gap %" PRIu64 "us",
		     s->burst_count, s->burst_packets, s->burst_gap_us);
		break;
	default:
		pfmt(mode, sizeof(mode), "continuous");
		break;
	}
	if (s->has_rate)
		pvp_rate_format(&s->rate, rate, sizeof(rate));
	else
		pfmt(rate, sizeof(rate), "-");
	return pfmt(buf, len,
		    "stream %u \"%s\" port %u %s %s flows %" PRIu64 " vars %u mode %s rate %s",
		    s->id, s->name, s->port, frames, hdrs, s->flows, s->n_vars, mode, rate);
}
