/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The check macro of the unit tests that count failures and go on (one
 * translation unit each): CHECK(cond) prints the file, line and condition
 * of a failed check; unit_check_end() is main()'s exit status.
 */

#ifndef UNIT_CHECK_H
#define UNIT_CHECK_H

#include <stdio.h>

/* Checks failed so far. */
static int failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

/* Say how the checks of @p what went; 0 if all passed, else 1. */
static inline int
unit_check_end(const char *what)
{
	if (failures != 0) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	printf("all %s checks passed\n", what);
	return 0;
}

#endif /* UNIT_CHECK_H */
