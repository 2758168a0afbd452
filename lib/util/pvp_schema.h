/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * JSON descriptions: the position of a JSON value as file:line:col, and
 * schemas (one table of an object's members, from which come its
 * checks, its decoding into a C struct, its encoding and its doc table).
 *
 * Part of lib/util (pvp_util.h includes it); errors as pvp_util.h says.
 */

#ifndef PVP_SCHEMA_H
#define PVP_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- positions in JSON text ---- */

/**
 * Line and column (both from 1) of the value at @p path in the JSON
 * @p text, for messages like "profile.json:12:7: ...".
 *
 * @param path
 *   Members and indexes as "streams[1].headers.ipv4"; "" is the root.
 *   A member that is not there gives the position of the deepest
 *   container found on the way.
 * @param line
 *   Line of the value.
 * @param column
 *   Column of the value (bytes).
 */
void pvp_json_locate(const char *text, const char *path, int *line, int *column);

/**
 * One-line message for a jansson load error: "source:line:col: text".
 * jansson quotes the token it stopped at ("near 'root'"), which would
 * print part of a file that may not be JSON at all (a secret); that part
 * is left out. Keeps an earlier error, as pvp_err() does.
 */
void pvp_json_load_err(char *err, size_t len, const char *source, const json_error_t *jerr);

/**
 * pvp_err() with the position of @p path in @p text:
 * "source:line:col: path: message", or "source: path: message" when
 * @p text is NULL (the JSON was built in memory) and "source:line:col:
 * message" when @p path is "".
 */
void pvp_json_path_err(char *err, size_t len, const char *source, const char *text,
		       const char *path, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* ---- schemas: one description of a JSON object, every job from it ---- */

/** What a member's value must be, and how it is kept in the C struct. */
enum pvp_schema_type {
	PVP_SCHEMA_STRING, /**< string of min..max bytes (one of values[] if given); char[size] */
	PVP_SCHEMA_UINT,   /**< integer in min..max; unsigned of size 1, 2, 4 or 8 */
	PVP_SCHEMA_INT,	   /**< integer in min..max; signed of size 1, 2, 4 or 8 */
	PVP_SCHEMA_DOUBLE, /**< number in min..max; double */
	PVP_SCHEMA_BOOL,   /**< true or false; bool */
	PVP_SCHEMA_ENUM,   /**< one of values[]; its index as an unsigned int */
	PVP_SCHEMA_MAC,	   /**< "xx:xx:xx:xx:xx:xx"; uint64_t (pvp_parse_mac()) */
	PVP_SCHEMA_IPV4,   /**< "a.b.c.d"; uint32_t in host order (pvp_parse_ipv4()) */
	PVP_SCHEMA_OBJECT, /**< object of the members[] only; a struct their offsets are in */
	PVP_SCHEMA_ARRAY,  /**< list of min..max items, each as members[0]; an array of them */
	PVP_SCHEMA_MAP,	   /**< object of any names, each value as members[0]; json_t * */
	PVP_SCHEMA_JSON,   /**< any value; json_t * */
};

/**
 * One member of a JSON object that crosses a file or process boundary
 * (a topology hop, a driver's config). A table of them, ended by a NULL
 * name, is the one description from which pvp_schema_check() validates
 * (with file:line:col), pvp_schema_decode() fills the C struct (defaults
 * applied), pvp_schema_encode() writes it back and pvp_schema_doc() writes
 * the RST table of doc/. Use PVP_SCHEMA_AT() for offset and size.
 *
 * MAP and JSON values (names that are the user's, such as hop names, or
 * a peer's context passed on as is) are kept as a json_t *: decoding
 * borrows it from the object decoded, encoding takes a new reference to
 * it (NULL: the member is left out).
 */
struct pvp_schema_member {
	const char *name;			 /**< member name; NULL ends a table */
	enum pvp_schema_type type;		 /**< what the value must be */
	bool required;				 /**< an object without it is refused */
	int64_t min;				 /**< smallest integer, length or item count */
	int64_t max;				 /**< largest integer, length or item count */
	const char *const *values;		 /**< STRING, ENUM: the words, NULL-ended */
	const struct pvp_schema_member *members; /**< OBJECT: its table; ARRAY: the item */
	size_t offset;				 /**< where the value lives in the struct */
	size_t size;				 /**< its size; 0: checked, never decoded */
	size_t count_offset;			 /**< ARRAY: unsigned int item count */
	bool nullable;				 /**< null is a value: "not known (yet)" */
	bool has_present;			 /**< a bool at present_offset says */
	size_t present_offset;			 /**< whether the value was given (not null) */
	const char *def;  /**< default as JSON text ("3000", "\"x\""), or NULL */
	const char *help; /**< one line for the doc table, or NULL */
};

/** .offset and .size of member @p field of struct @p type. */
#define PVP_SCHEMA_AT(type, field)                                                                 \
	.offset = offsetof(type, field), .size = sizeof(((type *)0)->field)

/**
 * .name, .type, .min, .max, .offset, .size and .help of member @p field of
 * struct @p st, named @p nm: one line of a table.
 */
#define PVP_SCHEMA_NAMED(nm, st, field, t, lo, hi, what)                                           \
	.name = nm, .type = t, .min = lo, .max = hi, PVP_SCHEMA_AT(st, field), .help = what
/** PVP_SCHEMA_NAMED() of a member named as its field. */
#define PVP_SCHEMA_MEMBER(st, field, t, lo, hi, what)                                              \
	PVP_SCHEMA_NAMED(#field, st, field, t, lo, hi, what)

/**
 * .has_present and .present_offset: bool @p field of struct @p type is
 * true when the member's value was given (present and not null); a value
 * not given is encoded as null (.nullable) or left out.
 */
#define PVP_SCHEMA_PRESENT(type, field) .has_present = true, .present_offset = offsetof(type, field)

/** Where a value being checked came from, for its messages. */
struct pvp_schema_src {
	const char *source;	 /**< file name, or NULL: messages are "path: message" */
	const char *text;	 /**< the file's JSON text for line:col, or NULL */
	const char *const *skip; /**< names of the top object the caller checks, or NULL */
	bool open;		 /**< members not in the table are let be (a peer's answer) */
};

/**
 * Check object @p o against @p members: an unknown member, a wrong type,
 * a value out of range or a missing required member is an error
 * "source:line:col: path.member: must be ...". The first error wins.
 * @param path where @p o is in the document ("hops[1]"; "" the root).
 * @param src where it came from; NULL for "path: message" alone.
 * @return 0, or -EINVAL with @p err set.
 */
int pvp_schema_check(const struct pvp_schema_member *members, const json_t *o, const char *path,
		     const struct pvp_schema_src *src, char *err, size_t err_len);

/**
 * pvp_schema_check() @p o (NULL: an empty object), then fill @p obj from
 * it: every member with a size, its default where @p o lacks it (zero
 * where there is no default).
 * @param skip members of @p o that are not the table's (a hop's "name"),
 *   NULL-ended, or NULL.
 * @return 0, or -EINVAL with "path: message" in @p err.
 */
int pvp_schema_decode(const struct pvp_schema_member *members, const json_t *o,
		      const char *const *skip, void *obj, char *err, size_t err_len);

/**
 * pvp_schema_decode() for what a peer answers: members not in the table,
 * at any depth, are let be (a newer peer may say more), and a member
 * missing is its default (its present flag false). A value of the wrong
 * type or out of range is still refused, with its path.
 */
int pvp_schema_read(const struct pvp_schema_member *members, const json_t *o, void *obj, char *err,
		    size_t err_len);

/**
 * The object @p obj holds, as JSON: every member with a size.
 * @return a new reference, or NULL when out of memory.
 */
json_t *pvp_schema_encode(const struct pvp_schema_member *members, const void *obj);

/**
 * Write @p members as an RST table (member, type, default, meaning) to
 * @p out; nested members as "ssh.host", list items as "forward[].in".
 * @return 0, or -EIO.
 */
int pvp_schema_doc(const struct pvp_schema_member *members, FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* PVP_SCHEMA_H */
