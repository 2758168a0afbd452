/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What the TRex RPC server reads from a request: errors in TRex's shape,
 * typed parameters with TRex's defaults and messages, the unsigned
 * integers above 2^63 some clients send, before jansson sees them, and
 * the base64 of a stream's packet.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvp_util.h"

#include "trex.h"

/* ---- errors and parameters ---- */

int
trex_ok(json_t **res)
{
	*res = json_object();
	return 0;
}

static const char *
trex_json_type(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "object";
	case JSON_ARRAY:
		return "array";
	case JSON_STRING:
		return "string";
	case JSON_INTEGER:
		return json_integer_value(v) < 0 ? "int" : "uint";
	case JSON_REAL:
		return "double";
	case JSON_TRUE:
	case JSON_FALSE:
		return "boolean";
	default:
		return "null";
	}
}

/* A JSON type in the mask of types trex_member() takes. */
#define TREX_T(t) (1u << (t))
/* Not a JSON type: an integer that is not negative. */
#define TREX_T_UINT TREX_T(JSON_NULL + 1)

/*
 * Member @p name of @p p in *x: 1 when it is of a type in the mask
 * @p types; 0 when it is absent or null and the caller has a default
 * (@p has_def); else TRex's error, "missing" or expecting @p want.
 */
static int
trex_member(json_t *p, const char *name, bool has_def, unsigned int types, const char *want,
	    json_t **x, char *err, size_t err_len)
{
	*x = json_object_get(p, name);
	if (*x == NULL || json_is_null(*x))
		return has_def ? 0 : pvp_fail(err, err_len, -EINVAL, "field '%s' is missing", name);
	if ((types & TREX_T(json_typeof(*x))) == 0 &&
	    !(types == TREX_T_UINT && json_is_integer(*x) && json_integer_value(*x) >= 0))
		return pvp_fail(err, err_len, -EINVAL, "'%s' is '%s', expecting '%s'", name,
				trex_json_type(*x), want);
	return 1;
}

int
trex_bad_port(char *err, size_t err_len)
{
	char list[64];
	int n = 0;
	uint16_t i;

	for (i = 0; i < trex.g->nb_ports && n < (int)sizeof(list) - 4; i++)
		n += snprintf(list + n, sizeof(list) - n, " %u", i);
	return pvp_fail(err, err_len, -ENODEV, "invalid port id - should be:%s", list);
}

int
trex_param_port(json_t *p, uint16_t *port, char *err, size_t err_len)
{
	uint64_t v = 0;

	if (trex_param_uint(p, "port_id", 255, -1, &v, err, err_len) != 0)
		return -EINVAL;
	if (v >= trex.g->nb_ports)
		return trex_bad_port(err, err_len);
	*port = (uint16_t)v;
	return 0;
}

int
trex_param_bool(json_t *p, const char *name, int def, bool *v, char *err, size_t err_len)
{
	json_t *x;
	int ret = trex_member(p, name, def >= 0, TREX_T(JSON_TRUE) | TREX_T(JSON_FALSE), "bool", &x,
			      err, err_len);

	if (ret >= 0)
		*v = ret == 1 ? json_is_true(x) : def != 0;
	return ret < 0 ? ret : 0;
}

int
trex_param_uint(json_t *p, const char *name, uint64_t max, int64_t def, uint64_t *v, char *err,
		size_t err_len)
{
	/* TRex's names of the unsigned types by size; its range error says "uint8" for a byte. */
	static const char *const want[] = {"byte", "uint16", "uint32", "uint64"};
	int w = max <= 0xff ? 0 : max <= 0xffff ? 1 : max <= 0xffffffff ? 2 : 3;
	json_t *x;
	int ret = trex_member(p, name, def >= 0, TREX_T_UINT, want[w], &x, err, err_len);

	if (ret == 1 && (uint64_t)json_integer_value(x) > max)
		return pvp_fail(err, err_len, -EINVAL, "'%s' has size bigger than %s.", name,
				w == 0 ? "uint8" : want[w]);
	if (ret >= 0)
		*v = ret == 1 ? (uint64_t)json_integer_value(x) : (uint64_t)def;
	return ret < 0 ? ret : 0;
}

int
trex_param_int(json_t *p, const char *name, int64_t def_set, int64_t def, int64_t *v, char *err,
	       size_t err_len)
{
	json_t *x;
	int ret = trex_member(p, name, def_set != 0, TREX_T(JSON_INTEGER), "int", &x, err, err_len);

	if (ret >= 0)
		*v = ret == 1 ? json_integer_value(x) : def;
	return ret < 0 ? ret : 0;
}

int
trex_param_double(json_t *p, const char *name, bool has_def, double def, double *v, char *err,
		  size_t err_len)
{
	json_t *x;
	int ret = trex_member(p, name, has_def, TREX_T(JSON_INTEGER) | TREX_T(JSON_REAL), "double",
			      &x, err, err_len);

	if (ret >= 0)
		*v = ret == 1 ? json_number_value(x) : def;
	return ret < 0 ? ret : 0;
}

const char *
trex_param_str(json_t *p, const char *name, const char *def, char *err, size_t err_len)
{
	json_t *x;
	int ret =
		trex_member(p, name, def != NULL, TREX_T(JSON_STRING), "string", &x, err, err_len);

	return ret == 1 ? json_string_value(x) : ret == 0 ? def : NULL;
}

json_t *
trex_param_obj(json_t *p, const char *name, char *err, size_t err_len)
{
	json_t *x;

	return trex_member(p, name, false, TREX_T(JSON_OBJECT), "object", &x, err, err_len) == 1
		       ? x
		       : NULL;
}

json_t *
trex_param_array(json_t *p, const char *name, char *err, size_t err_len)
{
	json_t *x;

	return trex_member(p, name, false, TREX_T(JSON_ARRAY), "array", &x, err, err_len) == 1
		       ? x
		       : NULL;
}

/*
 * "profile_id": pvpkit-gen has TRex's default profile "_" only (it does
 * not announce get_profile_list, so clients do not use others); "*"
 * (all profiles) is taken where @p allow_all.
 */
int
trex_param_profile(json_t *p, bool allow_all, char *err, size_t err_len)
{
	json_t *x = json_object_get(p, "profile_id");
	const char *s;

	if (x == NULL || json_is_null(x))
		return 0;
	s = json_is_string(x) ? json_string_value(x) : NULL;
	if (s != NULL && (strcmp(s, "_") == 0 || (allow_all && strcmp(s, "*") == 0)))
		return 0;
	return pvp_fail(err, err_len, -EOPNOTSUPP,
			"profile_id '%s': pvpkit-gen has the default profile '_' only",
			s != NULL ? s : trex_json_type(x));
}

/*
 * jansson's integers are signed 64-bit; TRex clients send some unsigned
 * ones above that (core_mask is 2^64 - 1). Such a literal becomes a real
 * (".0" appended): read where a real is fine, refused by name where an
 * integer is needed. Returns a new text, or NULL when there is none.
 */
char *
trex_big_ints(const char *text, size_t len, size_t *olen)
{
	/* A big integer has 19 digits or more and gains 2: the text grows by less than 1/4. */
	char *out = malloc(len + len / 4 + 16);
	bool str = false;
	size_t i = 0, o = 0;

	if (out == NULL)
		return NULL;
	while (i < len) {
		char ch = text[i];

		if (str) {
			out[o++] = text[i++];
			if (ch == '\\' && i < len)
				out[o++] = text[i++];
			else if (ch == '"')
				str = false;
			continue;
		}
		if (ch == '"') {
			str = true;
			out[o++] = text[i++];
			continue;
		}
		if (ch >= '0' && ch <= '9') {
			size_t j = i;
			bool big;

			while (j < len && text[j] >= '0' && text[j] <= '9')
				j++;
			big = j - i > 19 ||
			      (j - i == 19 && memcmp(text + i, "9223372036854775807", 19) > 0);
			if (j < len && (text[j] == '.' || text[j] == 'e' || text[j] == 'E')) {
				/*
				 * Already a real: its fraction and exponent are
				 * copied whole, so that 20 digits after the point
				 * are not taken for a big integer of their own.
				 */
				while (j < len &&
				       ((text[j] >= '0' && text[j] <= '9') || text[j] == '.' ||
					text[j] == 'e' || text[j] == 'E' || text[j] == '+' ||
					text[j] == '-'))
					j++;
				big = false;
			}
			memcpy(out + o, text + i, j - i);
			o += j - i;
			if (big) {
				out[o++] = '.';
				out[o++] = '0';
			}
			i = j;
			continue;
		}
		out[o++] = text[i++];
	}
	*olen = o;
	return out;
}

size_t
trex_batch_size(const char *text, size_t len)
{
	size_t i = 0, n = 1, depth = 0;
	bool str = false;

	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	if (i == len || text[i] != '[')
		return 0;
	for (; i < len; i++) {
		char ch = text[i];

		if (str) {
			if (ch == '\\')
				i++;
			else if (ch == '"')
				str = false;
		} else if (ch == '"') {
			str = true;
		} else if (ch == '[' || ch == '{') {
			depth++;
		} else if (ch == ']' || ch == '}') {
			if (depth-- == 1)
				break;
		} else if (ch == ',' && depth == 1) {
			n++;
		}
	}
	return n;
}

/* A whole message: a request or a batch; the reply text (malloc'd). */

/* ---- base64 (RFC 4648, the packet's "binary"): lib/util's ---- */

uint8_t *
trex_b64_decode(const char *in, uint32_t *len)
{
	size_t n;
	uint8_t *out = pvp_b64_decode(in, strlen(in), &n);

	/* Far more than a packet: the caller's size check refuses it. */
	if (out != NULL)
		*len = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	return out;
}
