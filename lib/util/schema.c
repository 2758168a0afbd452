/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Schemas (pvp_util.h): one table of members per JSON object that crosses
 * a boundary, and the four jobs done from it, so that the checker, the
 * reader, the writer and the doc cannot say different things. The
 * messages are those the topology loader gave before the table became
 * shared; test/unit/badinput holds them.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_util.h"
#include "util_private.h"

/* Longest path of a value ("hops[12].forward[3].swapped[2]"). */
#define SCHEMA_PATH_MAX 256

static int __attribute__((format(printf, 5, 6)))
schema_fail(const struct pvp_schema_src *src, const char *path, char *err, size_t err_len,
	    const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (src != NULL && src->source != NULL)
		pvp_json_path_err(err, err_len, src->source, src->text, path, "%s", msg);
	else
		pvp_err(err, err_len, "%s%s%s", path, path[0] != '\0' ? ": " : "", msg);
	return -EINVAL;
}

static bool
schema_in(const char *const *list, const char *s)
{
	for (; list != NULL && *list != NULL; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}

static const struct pvp_schema_member *
schema_find(const struct pvp_schema_member *m, const char *name)
{
	for (; m != NULL && m->name != NULL; m++)
		if (strcmp(m->name, name) == 0)
			return m;
	return NULL;
}

/* "\"a\", \"b\"" for messages and the doc. */
static void
schema_words(const char *const *values, const char *quote, char *buf, size_t len)
{
	size_t i;

	buf[0] = '\0';
	for (i = 0; values != NULL && values[i] != NULL; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s%s%s", i > 0 ? ", " : "", quote,
			 values[i], quote);
}

/* @p v as written in a range: a large power of ten as "1e18", else its digits. */
static void
schema_bound(int64_t v, char *buf, size_t len)
{
	uint64_t a = v < 0 ? -(uint64_t)v : (uint64_t)v;
	unsigned int k = 0;

	while (a >= 10 && a % 10 == 0) {
		a /= 10;
		k++;
	}
	if (a == 1 && k >= 12)
		snprintf(buf, len, "%s1e%u", v < 0 ? "-" : "", k);
	else
		snprintf(buf, len, "%" PRId64, v);
}

/* "min..max" of an integer or a number. */
static void
schema_range(const struct pvp_schema_member *m, char *buf, size_t len)
{
	char lo[24], hi[24];

	schema_bound(m->min, lo, sizeof(lo));
	schema_bound(m->max, hi, sizeof(hi));
	snprintf(buf, len, "%s..%s", lo, hi);
}

static int schema_check_value(const struct pvp_schema_member *m, const json_t *v, const char *path,
			      const struct pvp_schema_src *src, char *err, size_t err_len);

static int
schema_check_object(const struct pvp_schema_member *members, const json_t *o, const char *path,
		    const struct pvp_schema_src *src, const char *const *skip, char *err,
		    size_t err_len)
{
	const char *key;
	json_t *v;
	char sub[SCHEMA_PATH_MAX];

	if (!json_is_object(o))
		return schema_fail(src, path, err, err_len, "must be an object");
	json_object_foreach((json_t *)o, key, v) {
		const struct pvp_schema_member *m = schema_find(members, key);

		snprintf(sub, sizeof(sub), "%s%s%s", path, path[0] != '\0' ? "." : "", key);
		if (schema_in(skip, key) || (m == NULL && src != NULL && src->open))
			continue;
		if (m == NULL)
			return schema_fail(src, sub, err, err_len, "unknown member");
		if (schema_check_value(m, v, sub, src, err, err_len) < 0)
			return -EINVAL;
	}
	for (; members != NULL && members->name != NULL; members++)
		if (members->required && json_object_get(o, members->name) == NULL)
			return schema_fail(src, path, err, err_len, "\"%s\" is required",
					   members->name);
	return 0;
}

static int
schema_check_value(const struct pvp_schema_member *m, const json_t *v, const char *path,
		   const struct pvp_schema_src *src, char *err, size_t err_len)
{
	const char *s = json_string_value(v);
	char sub[SCHEMA_PATH_MAX], list[160];
	const char *key;
	json_t *item;
	uint64_t mac;
	uint32_t ip;
	size_t i, n;

	if (m->nullable && json_is_null(v))
		return 0;
	switch (m->type) {
	case PVP_SCHEMA_STRING:
		if (s == NULL || (int64_t)strlen(s) < m->min || (int64_t)strlen(s) > m->max)
			return schema_fail(src, path, err, err_len,
					   "must be a string of %" PRId64 "..%" PRId64
					   " characters",
					   m->min, m->max);
		if (m->values == NULL)
			return 0;
		/* fall through */
	case PVP_SCHEMA_ENUM:
		if (s != NULL && schema_in(m->values, s))
			return 0;
		schema_words(m->values, "\"", list, sizeof(list));
		return schema_fail(src, path, err, err_len, "must be one of %s", list);
	case PVP_SCHEMA_UINT:
	case PVP_SCHEMA_INT:
		if (json_is_integer(v) && json_integer_value(v) >= m->min &&
		    json_integer_value(v) <= m->max)
			return 0;
		schema_range(m, list, sizeof(list));
		return schema_fail(src, path, err, err_len, "must be an integer in %s", list);
	case PVP_SCHEMA_DOUBLE:
		if (json_is_number(v) && json_number_value(v) >= (double)m->min &&
		    json_number_value(v) <= (double)m->max)
			return 0;
		schema_range(m, list, sizeof(list));
		return schema_fail(src, path, err, err_len, "must be a number in %s", list);
	case PVP_SCHEMA_BOOL:
		if (!json_is_boolean(v))
			return schema_fail(src, path, err, err_len, "must be true or false");
		return 0;
	case PVP_SCHEMA_MAC:
		if (s == NULL || pvp_parse_mac(s, &mac) < 0)
			return schema_fail(src, path, err, err_len,
					   "must be a MAC address \"xx:xx:xx:xx:xx:xx\"");
		return 0;
	case PVP_SCHEMA_IPV4:
		if (s == NULL || pvp_parse_ipv4(s, &ip) < 0)
			return schema_fail(src, path, err, err_len,
					   "must be an IPv4 address \"a.b.c.d\"");
		return 0;
	case PVP_SCHEMA_OBJECT:
		return schema_check_object(m->members, v, path, src, NULL, err, err_len);
	case PVP_SCHEMA_JSON:
		return 0;
	case PVP_SCHEMA_MAP:
		if (!json_is_object(v))
			return schema_fail(src, path, err, err_len, "must be an object");
		json_object_foreach((json_t *)(uintptr_t)v, key, item) {
			snprintf(sub, sizeof(sub), "%s.%s", path, key);
			if (schema_check_value(m->members, item, sub, src, err, err_len) < 0)
				return -EINVAL;
		}
		return 0;
	case PVP_SCHEMA_ARRAY:
	default:
		n = json_array_size(v);
		if (!json_is_array(v) || (int64_t)n < m->min || (int64_t)n > m->max)
			return schema_fail(src, path, err, err_len,
					   "must be a list of %" PRId64 "..%" PRId64 " items",
					   m->min, m->max);
		json_array_foreach(v, i, item) {
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			if (schema_check_value(m->members, item, sub, src, err, err_len) < 0)
				return -EINVAL;
		}
		return 0;
	}
}

int
pvp_schema_check(const struct pvp_schema_member *members, const json_t *o, const char *path,
		 const struct pvp_schema_src *src, char *err, size_t err_len)
{
	return schema_check_object(members, o, path != NULL ? path : "", src,
				   src != NULL ? src->skip : NULL, err, err_len);
}

/* The default of @p m as a JSON value (a new reference), or NULL. */
static json_t *
schema_default(const struct pvp_schema_member *m)
{
	if (m->def == NULL)
		return NULL;
	switch (m->type) {
	case PVP_SCHEMA_UINT:
	case PVP_SCHEMA_INT:
		return json_integer(strtoll(m->def, NULL, 10));
	case PVP_SCHEMA_DOUBLE:
		return json_real(strtod(m->def, NULL));
	case PVP_SCHEMA_BOOL:
		return json_boolean(strcmp(m->def, "true") == 0);
	case PVP_SCHEMA_OBJECT:
	case PVP_SCHEMA_ARRAY:
	case PVP_SCHEMA_MAP:
	case PVP_SCHEMA_JSON:
		return NULL;
	default:
		return json_string(m->def);
	}
}

void
util_put_uint(void *p, size_t size, uint64_t v)
{
	if (size == 1)
		*(uint8_t *)p = (uint8_t)v;
	else if (size == 2)
		*(uint16_t *)p = (uint16_t)v;
	else if (size == 4)
		*(uint32_t *)p = (uint32_t)v;
	else if (size == 8)
		*(uint64_t *)p = v;
}

static uint64_t
schema_get_uint(const void *p, size_t size)
{
	if (size == 1)
		return *(const uint8_t *)p;
	if (size == 2)
		return *(const uint16_t *)p;
	if (size == 4)
		return *(const uint32_t *)p;
	return *(const uint64_t *)p;
}

static int64_t
schema_get_int(const void *p, size_t size)
{
	unsigned int shift = 64 - 8 * (unsigned int)size;

	/* The field's sign bit to bit 63, and back with the sign. */
	return (int64_t)(schema_get_uint(p, size) << shift) >> shift;
}

static int schema_store_object(const struct pvp_schema_member *members, const json_t *o, char *base,
			       const char *path, char *err, size_t err_len);

/* Store checked value @p v (NULL: absent, no default) of @p m at @p p. */
static int
schema_store(const struct pvp_schema_member *m, const json_t *v, char *p, const char *path,
	     char *err, size_t err_len)
{
	const struct pvp_schema_member *item = m->members;
	const char *s = json_string_value(v);
	char sub[SCHEMA_PATH_MAX];
	size_t i, n;

	switch (m->type) {
	case PVP_SCHEMA_STRING:
		if (s != NULL && strlen(s) >= m->size)
			return schema_fail(NULL, path, err, err_len, "longer than %zu characters",
					   m->size - 1);
		snprintf(p, m->size, "%s", s != NULL ? s : "");
		return 0;
	case PVP_SCHEMA_UINT:
	case PVP_SCHEMA_INT:
		util_put_uint(p, m->size, (uint64_t)json_integer_value(v));
		return 0;
	case PVP_SCHEMA_DOUBLE:
		*(double *)p = json_number_value(v);
		return 0;
	case PVP_SCHEMA_BOOL:
		*(bool *)p = json_is_true(v);
		return 0;
	case PVP_SCHEMA_ENUM:
		for (i = 0; s != NULL && m->values[i] != NULL; i++)
			if (strcmp(m->values[i], s) == 0)
				break;
		*(unsigned int *)p = s != NULL ? (unsigned int)i : 0;
		return 0;
	case PVP_SCHEMA_MAC:
		*(uint64_t *)p = 0;
		return s != NULL ? pvp_parse_mac(s, (uint64_t *)p) : 0;
	case PVP_SCHEMA_IPV4:
		*(uint32_t *)p = 0;
		return s != NULL ? pvp_parse_ipv4(s, (uint32_t *)p) : 0;
	case PVP_SCHEMA_OBJECT:
		return schema_store_object(m->members, v, p, path, err, err_len);
	case PVP_SCHEMA_MAP:
	case PVP_SCHEMA_JSON:
		*(const json_t **)p = v; /* borrowed from the object decoded */
		return 0;
	case PVP_SCHEMA_ARRAY:
	default:
		n = json_array_size(v);
		if (n * item->size > m->size)
			return schema_fail(NULL, path, err, err_len, "more than %zu items",
					   m->size / item->size);
		for (i = 0; i < n; i++) {
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			if (schema_store(item, json_array_get(v, i), p + i * item->size, sub, err,
					 err_len) < 0)
				return -EINVAL;
		}
		return 0;
	}
}

static int
schema_store_object(const struct pvp_schema_member *members, const json_t *o, char *base,
		    const char *path, char *err, size_t err_len)
{
	const struct pvp_schema_member *m;
	char sub[SCHEMA_PATH_MAX];
	json_t *def;
	int ret;

	for (m = members; m != NULL && m->name != NULL; m++) {
		const json_t *v = json_object_get(o, m->name);

		if (m->size == 0)
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", path, path[0] != '\0' ? "." : "", m->name);
		if (json_is_null(v))
			v = NULL; /* nullable (checked): not known, as if absent */
		if (m->has_present)
			*(bool *)(base + m->present_offset) = v != NULL;
		def = v == NULL ? schema_default(m) : NULL;
		ret = schema_store(m, v != NULL ? v : def, base + m->offset, sub, err, err_len);
		json_decref(def);
		if (ret < 0)
			return ret;
		if (m->type == PVP_SCHEMA_ARRAY)
			*(unsigned int *)(base + m->count_offset) =
				(unsigned int)json_array_size(v);
	}
	return 0;
}

/* Check @p o (NULL: an empty object) as @p src says, then fill @p obj. */
static int
schema_decode(const struct pvp_schema_member *members, const json_t *o,
	      const struct pvp_schema_src *src, void *obj, char *err, size_t err_len)
{
	json_t *empty = NULL;
	int ret;

	if (o == NULL)
		o = empty = json_object();
	ret = pvp_schema_check(members, o, "", src, err, err_len);
	if (ret == 0)
		ret = schema_store_object(members, o, obj, "", err, err_len);
	json_decref(empty);
	return ret;
}

int
pvp_schema_decode(const struct pvp_schema_member *members, const json_t *o, const char *const *skip,
		  void *obj, char *err, size_t err_len)
{
	const struct pvp_schema_src src = {.skip = skip};

	return schema_decode(members, o, &src, obj, err, err_len);
}

int
pvp_schema_read(const struct pvp_schema_member *members, const json_t *o, void *obj, char *err,
		size_t err_len)
{
	const struct pvp_schema_src src = {.open = true};

	return schema_decode(members, o, &src, obj, err, err_len);
}

static json_t *
schema_encode_value(const struct pvp_schema_member *m, const char *p)
{
	char buf[PVP_MAC_STRLEN];

	switch (m->type) {
	case PVP_SCHEMA_STRING:
		return p[0] != '\0' ? json_string(p) : NULL;
	case PVP_SCHEMA_UINT:
		return json_integer((json_int_t)schema_get_uint(p, m->size));
	case PVP_SCHEMA_INT:
		return json_integer((json_int_t)schema_get_int(p, m->size));
	case PVP_SCHEMA_DOUBLE:
		return json_real(*(const double *)p);
	case PVP_SCHEMA_BOOL:
		return json_boolean(*(const bool *)p);
	case PVP_SCHEMA_ENUM:
		return json_string(m->values[*(const unsigned int *)p]);
	case PVP_SCHEMA_MAC:
		return json_string(pvp_mac_format(*(const uint64_t *)p, buf, sizeof(buf)));
	case PVP_SCHEMA_IPV4:
		return json_string(pvp_ipv4_format(*(const uint32_t *)p, buf, sizeof(buf)));
	case PVP_SCHEMA_OBJECT:
		return pvp_schema_encode(m->members, p);
	case PVP_SCHEMA_MAP:
	case PVP_SCHEMA_JSON:
		return json_incref(*(json_t *const *)p);
	case PVP_SCHEMA_ARRAY:
	default:
		/* Lists are written by pvp_schema_encode(), which has their count. */
		return NULL;
	}
}

json_t *
pvp_schema_encode(const struct pvp_schema_member *members, const void *obj)
{
	const struct pvp_schema_member *m;
	const char *base = obj;
	json_t *o = json_object(), *v;
	unsigned int i, n;

	for (m = members; o != NULL && m != NULL && m->name != NULL; m++) {
		if (m->size == 0)
			continue;
		if (m->has_present && !*(const bool *)(base + m->present_offset)) {
			if (m->nullable && json_object_set_new(o, m->name, json_null()) < 0) {
				json_decref(o);
				return NULL;
			}
			continue;
		}
		if (m->type == PVP_SCHEMA_ARRAY) {
			n = *(const unsigned int *)(base + m->count_offset);
			v = json_array();
			for (i = 0; v != NULL && i < n; i++)
				json_array_append_new(
					v, schema_encode_value(m->members,
							       base + m->offset +
								       i * m->members->size));
			if (n == 0) {
				json_decref(v);
				continue;
			}
		} else {
			v = schema_encode_value(m, base + m->offset);
		}
		/* An empty string or object is a member not given; a map or
		 * JSON value is written as it is. */
		if (v == NULL || (m->type == PVP_SCHEMA_OBJECT && json_object_size(v) == 0)) {
			json_decref(v);
			continue;
		}
		if (json_object_set_new(o, m->name, v) < 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/* ---- the doc table ---- */

#define SCHEMA_DOC_ROWS 128
#define SCHEMA_DOC_COLS 4

struct schema_doc {
	char cell[SCHEMA_DOC_ROWS][SCHEMA_DOC_COLS][192];
	unsigned int nb_rows;
};

static void
schema_doc_type(const struct pvp_schema_member *m, char *buf, size_t len)
{
	/* The types whose doc is one phrase. */
	static const char *const phrase[] = {
		[PVP_SCHEMA_BOOL] = "true/false",   [PVP_SCHEMA_MAC] = "MAC address",
		[PVP_SCHEMA_IPV4] = "IPv4 address", [PVP_SCHEMA_OBJECT] = "object",
		[PVP_SCHEMA_JSON] = "any JSON",
	};
	char list[160];

	if ((size_t)m->type < sizeof(phrase) / sizeof(phrase[0]) && phrase[m->type] != NULL) {
		snprintf(buf, len, "%s", phrase[m->type]);
	} else if (m->type == PVP_SCHEMA_ENUM ||
		   (m->type == PVP_SCHEMA_STRING && m->values != NULL)) {
		schema_words(m->values, "", list, sizeof(list));
		snprintf(buf, len, "one of %s", list);
	} else if (m->type == PVP_SCHEMA_STRING) {
		snprintf(buf, len, "string, %" PRId64 "..%" PRId64 " chars", m->min, m->max);
	} else if (m->type == PVP_SCHEMA_UINT || m->type == PVP_SCHEMA_INT ||
		   m->type == PVP_SCHEMA_DOUBLE) {
		schema_range(m, list, sizeof(list));
		snprintf(buf, len, "%s, %s", m->type == PVP_SCHEMA_DOUBLE ? "number" : "integer",
			 list);
	} else if (m->type == PVP_SCHEMA_MAP) {
		schema_doc_type(m->members, list, sizeof(list));
		snprintf(buf, len, "object of NAME: %s", list);
	} else if (m->members->values != NULL) {
		schema_words(m->members->values, "", list, sizeof(list));
		snprintf(buf, len, "list of %s (%" PRId64 "..%" PRId64 ")", list, m->min, m->max);
	} else {
		snprintf(buf, len, "list, %" PRId64 "..%" PRId64 " items", m->min, m->max);
	}
}

static void
schema_doc_rows(struct schema_doc *d, const struct pvp_schema_member *members, const char *prefix)
{
	const struct pvp_schema_member *m;
	char name[160];

	for (m = members; m != NULL && m->name != NULL && d->nb_rows < SCHEMA_DOC_ROWS; m++) {
		char(*row)[192] = d->cell[d->nb_rows++];

		snprintf(name, sizeof(name), "%s%s", prefix, m->name);
		snprintf(row[0], sizeof(row[0]), "``%s``", name);
		schema_doc_type(m, row[1], sizeof(row[1]));
		if (m->nullable)
			snprintf(row[1] + strlen(row[1]), sizeof(row[1]) - strlen(row[1]),
				 " or null");
		if (m->required)
			snprintf(row[2], sizeof(row[2]), "required");
		else if (m->def != NULL)
			snprintf(row[2], sizeof(row[2]), "``%s``", m->def);
		else
			snprintf(row[2], sizeof(row[2]), "-");
		snprintf(row[3], sizeof(row[3]), "%s", m->help != NULL ? m->help : "");
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "%s",
			 m->type == PVP_SCHEMA_ARRAY ? "[]" : "");
		if (m->type == PVP_SCHEMA_OBJECT) {
			snprintf(name + strlen(name), sizeof(name) - strlen(name), ".");
			schema_doc_rows(d, m->members, name);
		} else if (m->type == PVP_SCHEMA_ARRAY && m->members->type == PVP_SCHEMA_OBJECT) {
			snprintf(name + strlen(name), sizeof(name) - strlen(name), ".");
			schema_doc_rows(d, m->members->members, name);
		}
	}
}

static void
schema_doc_rule(FILE *out, const size_t *w)
{
	unsigned int c;
	size_t i;

	for (c = 0; c < SCHEMA_DOC_COLS; c++) {
		for (i = 0; i < w[c]; i++)
			fputc('=', out);
		fputs(c + 1 < SCHEMA_DOC_COLS ? " " : "\n", out);
	}
}

static void
schema_doc_line(FILE *out, const size_t *w, const char (*row)[192])
{
	unsigned int c;

	for (c = 0; c + 1 < SCHEMA_DOC_COLS; c++)
		fprintf(out, "%-*s ", (int)w[c], row[c]);
	fprintf(out, "%s\n", row[c]);
}

int
pvp_schema_doc(const struct pvp_schema_member *members, FILE *out)
{
	static const char head[SCHEMA_DOC_COLS][192] = {"member", "type", "default", "meaning"};
	struct schema_doc *d = calloc(1, sizeof(*d));
	size_t w[SCHEMA_DOC_COLS];
	unsigned int r, c;

	if (d == NULL)
		return -ENOMEM;
	schema_doc_rows(d, members, "");
	for (c = 0; c < SCHEMA_DOC_COLS; c++) {
		w[c] = strlen(head[c]);
		for (r = 0; r < d->nb_rows; r++)
			if (strlen(d->cell[r][c]) > w[c])
				w[c] = strlen(d->cell[r][c]);
	}
	schema_doc_rule(out, w);
	schema_doc_line(out, w, head);
	schema_doc_rule(out, w);
	for (r = 0; r < d->nb_rows; r++)
		schema_doc_line(out, w, d->cell[r]);
	schema_doc_rule(out, w);
	free(d);
	return ferror(out) ? -EIO : 0;
}
