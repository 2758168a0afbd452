/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Internals of lib/util shared by its source files. Never installed.
 */

#ifndef PVP_UTIL_PRIVATE_H
#define PVP_UTIL_PRIVATE_H

#include <stddef.h>

/*
 * Write a message into err whatever it held, and return @p code. The leaf
 * functions (one number, one file) use it: their caller asked about that
 * one thing, so the answer replaces a stale message in a reused buffer.
 */
int util_seterr(char *err, size_t len, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Store @p v in the unsigned integer of @p size bytes (1, 2, 4 or 8) at @p p. */
void util_put_uint(void *p, size_t size, uint64_t v);

/* "what: " or "" for messages about an optional option name. */
#define UTIL_WHAT(w) ((w) != NULL ? (w) : ""), ((w) != NULL ? ": " : "")

/* Longest part of a user's string quoted back in a message. */
#define UTIL_QUOTE_MAX 40

/*
 * Copy of s fit to quote in a one-line message: at most UTIL_QUOTE_MAX
 * characters then "...", anything not printable ASCII as '?' (a string
 * from a peer may hold escapes for the terminal). Returns buf.
 */
const char *util_quote(const char *s, char *buf, size_t len);

/* Room util_quote() needs. */
#define UTIL_QUOTE_LEN (UTIL_QUOTE_MAX + 4)

#endif /* PVP_UTIL_PRIVATE_H */
