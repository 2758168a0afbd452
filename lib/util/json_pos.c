/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Where a value sits in JSON text. jansson keeps no positions in the
 * values it builds, so a checker that finds "streams[1].size" out of
 * range scans the text again for that path. The text has already been
 * parsed by jansson, so the scanner only needs to step over valid JSON.
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvp_util.h"
#include "util_private.h"

static const char *
skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* Past the string that starts at @p p (on its opening quote). */
static const char *
skip_string(const char *p)
{
	for (p++; *p != '\0' && *p != '"'; p++)
		if (*p == '\\' && p[1] != '\0')
			p++;
	return *p == '"' ? p + 1 : p;
}

/* Past the value that starts at @p p, nested containers included. */
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

/* Element @p idx of the array at @p p, or NULL. */
static const char *
array_item(const char *p, unsigned long idx)
{
	unsigned long i;

	if (*p != '[')
		return NULL;
	p = skip_ws(p + 1);
	if (*p == ']')
		return NULL;
	for (i = 0; i < idx; i++) {
		p = skip_ws(skip_value(p));
		if (*p != ',')
			return NULL;
		p = skip_ws(p + 1);
	}
	return p;
}

/* Value of member @p key (@p klen bytes) of the object at @p p, or NULL. */
static const char *
object_member(const char *p, const char *key, size_t klen)
{
	const char *k, *kend, *v;

	if (*p != '{')
		return NULL;
	p = skip_ws(p + 1);
	for (;;) {
		if (*p != '"')
			return NULL;
		k = p;
		kend = skip_string(p);
		p = skip_ws(kend);
		/* Text cut inside a key has no ':', and nothing may be read past
		 * the NUL that ends it: stop there. */
		if (*p != ':')
			return NULL;
		v = skip_ws(p + 1);
		if ((size_t)(kend - k) == klen + 2 && strncmp(k + 1, key, klen) == 0)
			return v;
		p = skip_ws(skip_value(v));
		if (*p != ',')
			return NULL;
		p = skip_ws(p + 1);
	}
}

/* The value at @p path, or the deepest container found on the way. */
static const char *
locate(const char *text, const char *path)
{
	const char *p = skip_ws(text), *q = path, *next;

	while (*q != '\0') {
		if (*q == '.')
			q++;
		if (*q == '[') {
			char *end;
			unsigned long idx = strtoul(q + 1, &end, 10);

			if (*end != ']')
				return p;
			next = array_item(p, idx);
			q = end + 1;
		} else {
			size_t klen = strcspn(q, ".[");

			next = object_member(p, q, klen);
			q += klen;
		}
		if (next == NULL)
			return p;
		p = next;
	}
	return p;
}

void
pvp_json_locate(const char *text, const char *path, int *line, int *column)
{
	const char *at, *p;
	int l = 1, c = 1;

	if (text != NULL) {
		at = locate(text, path != NULL ? path : "");
		for (p = text; p < at; p++) {
			if (*p == '\n') {
				l++;
				c = 1;
			} else {
				c++;
			}
		}
	}
	*line = l;
	*column = c;
}

void
pvp_json_load_err(char *err, size_t len, const char *source, const json_error_t *jerr)
{
	char text[JSON_ERROR_TEXT_LENGTH];
	char *near;

	snprintf(text, sizeof(text), "%s", jerr->text);
	/* "... near 'root:$y$...'": the file's own words stay out. */
	near = strstr(text, " near '");
	if (near != NULL)
		*near = '\0';
	pvp_err(err, len, "%s:%d:%d: %s", source, jerr->line, jerr->column, text);
}

void
pvp_json_path_err(char *err, size_t len, const char *source, const char *text, const char *path,
		  const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int line, col;

	if (err == NULL || len == 0 || err[0] != '\0')
		return;
	if (path == NULL)
		path = "";
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (text != NULL) {
		pvp_json_locate(text, path, &line, &col);
		pvp_err(err, len, "%s:%d:%d: %s%s%s", source, line, col, path,
			*path != '\0' ? ": " : "", msg);
	} else {
		pvp_err(err, len, "%s: %s%s%s", source, path, *path != '\0' ? ": " : "", msg);
	}
}
