/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What every fuzz harness of test/fuzz shares. A harness is one C file
 * that defines LLVMFuzzerTestOneInput() (and optionally
 * LLVMFuzzerInitialize() and fuzz_cleanup()); it is linked either with
 * libFuzzer (clang -fsanitize=fuzzer) or with fuzz_replay.c, the
 * deterministic replay driver any compiler can build.
 */

#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** The harness: run one input. Always returns 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** Optional one-time set-up (libFuzzer calls it before the first input). */
int LLVMFuzzerInitialize(int *argc, char ***argv);

/** Optional: free what LLVMFuzzerInitialize() made, so leak checkers see a
 *  clean exit. Called by the replay driver at the end and by harnesses
 *  from atexit() under libFuzzer. */
void fuzz_cleanup(void);

/*
 * A property of the code under test does not hold: print why and abort,
 * so libFuzzer saves the input and the replay test fails.
 */
#define FUZZ_CHECK(cond, ...)                                                                      \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);   \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/** Copy of @p data with a NUL after it (malloc'd; aborts when out of memory). */
static inline char *
fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	if (size > 0)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * An error message must be a non-empty, terminated line: that is what
 * every parser promises its callers (they print it as is). A message may
 * quote the input, so a newline is allowed only when the input has one.
 */
static inline void
fuzz_check_message_in(const char *msg, size_t cap, const void *in, size_t in_len)
{
	size_t n = strnlen(msg, cap);

	FUZZ_CHECK(n < cap, "message not NUL-terminated");
	FUZZ_CHECK(n > 0, "empty error message");
	FUZZ_CHECK(strchr(msg, '\n') == NULL || memchr(in, '\n', in_len) != NULL,
		   "error message of several lines: %s", msg);
}

/* The same for an input that is not at hand (any newline allowed). */
static inline void
fuzz_check_message(const char *msg, size_t cap)
{
	fuzz_check_message_in(msg, cap, "\n", 1);
}

#endif /* FUZZ_H */
