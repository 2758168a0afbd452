/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The one check macro of the C tests: a failed check prints where and
 * what and the test goes on, so one run reports every broken promise.
 *
 *   CHECK(cond);                       FAIL file:line: cond
 *   CHECK(cond, "got %d", x);          FAIL file:line: cond: got 5
 *
 * unit_check_case names what runs now (printed before a failure, when
 * set); unit_check_end() is main()'s exit status.
 */

#ifndef UNIT_CHECK_H
#define UNIT_CHECK_H

#include <stdarg.h>
#include <stdio.h>

/*
 * Weak, so that a test built from several translation units (the ctl
 * tests) shares one counter and needs no file that defines it.
 */
/** Checks that failed so far. */
__attribute__((weak)) int unit_check_failures;
/** Checks made so far. */
__attribute__((weak)) int unit_check_count;
/** What is being checked now ("" or NULL: nothing to say). */
__attribute__((weak)) const char *unit_check_case;

static inline void __attribute__((format(printf, 4, 5)))
unit_check_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;

	unit_check_failures++;
	fprintf(stderr, "FAIL ");
	if (unit_check_case != NULL && unit_check_case[0] != '\0')
		fprintf(stderr, "%s: ", unit_check_case);
	fprintf(stderr, "%s:%d: %s", file, line, cond);
	/* fmt is " " followed by the caller's format, if any. */
	if (fmt[1] != '\0') {
		fputc(':', stderr);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	fputc('\n', stderr);
}

/*
 * CHECK(cond) or CHECK(cond, format, ...). The format is glued to " "
 * so that it must be a string literal and may be left out.
 */
#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		unit_check_count++;                                                                \
		if (!(cond))                                                                       \
			unit_check_fail(__FILE__, __LINE__, #cond, " " __VA_ARGS__);               \
	} while (0)

/* Say how the checks of @p what went; 0 if all passed, else 1. */
static inline int
unit_check_end(const char *what)
{
	if (unit_check_failures != 0) {
		fprintf(stderr, "%d of %d check(s) failed\n", unit_check_failures,
			unit_check_count);
		return 1;
	}
	printf("all %s checks passed (%d)\n", what, unit_check_count);
	return 0;
}

#endif /* UNIT_CHECK_H */
