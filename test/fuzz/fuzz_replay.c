/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Deterministic stand-in for libFuzzer, for every harness and any
 * compiler: replays each file of the corpus directories (or files) given,
 * every prefix of the small ones (each place an input can be cut), and a
 * fixed set of seeded mutations of each (bytes flipped, zeroed, replaced
 * by a character of the harness's syntax, spliced with another file).
 * A crash, a sanitizer report or a failed FUZZ_CHECK fails the test; the
 * run is bounded and the same on every machine.
 *
 * Usage: fuzz_replay [-m MUTATIONS] DIR|FILE...
 */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

/* Inputs larger than this are cut (libFuzzer's -max_len does the same). */
#define REPLAY_MAX_LEN (1u << 20)
/* Every prefix is replayed for files up to this size. */
#define REPLAY_PREFIX_MAX 1024

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);
__attribute__((weak)) void fuzz_cleanup(void);

static unsigned long n_inputs;
static unsigned int n_mutations = 64;
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

/* The previous file, for splicing. */
static uint8_t *prev;
static size_t prev_len;

static uint64_t
next_rand(void)
{
	/* xorshift64: fixed seed, the same inputs on every run. */
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void
feed(const uint8_t *data, size_t len)
{
	/* A copy of exactly len bytes, so reads past the end are caught. */
	uint8_t *copy = malloc(len > 0 ? len : 1);

	if (copy == NULL)
		abort();
	if (len > 0)
		memcpy(copy, data, len);
	LLVMFuzzerTestOneInput(copy, len);
	free(copy);
	n_inputs++;
}

static void
mutate_and_feed(const uint8_t *data, size_t len)
{
	/* Characters that matter to the formats fuzzed here. */
	static const char special[] = "{}[]\",:\n\\0-e.%x/ \xff";
	uint8_t *m;
	size_t i, j, n, flips;

	if (len == 0)
		return;
	/* Up to 4 changes, each of which may splice a whole file in. */
	m = malloc(len + 4 * prev_len + 1);
	if (m == NULL)
		abort();
	for (i = 0; i < n_mutations; i++) {
		memcpy(m, data, len);
		n = len;
		flips = 1 + next_rand() % 4;
		for (j = 0; j < flips; j++) {
			size_t pos = next_rand() % n;

			switch (next_rand() % 6) {
			case 0:
				m[pos] = (uint8_t)next_rand();
				break;
			case 1:
				m[pos] = 0;
				break;
			case 2:
				m[pos] = (uint8_t)special[next_rand() % (sizeof(special) - 1)];
				break;
			case 3:
				m[pos] = 0xff;
				break;
			case 4:
				m[pos] ^= (uint8_t)(1u << (next_rand() % 8));
				break;
			default:
				/* Splice: the tail of the previous file from here on. */
				if (prev_len > 0) {
					size_t from = next_rand() % prev_len;

					memcpy(m + pos, prev + from, prev_len - from);
					n = pos + prev_len - from;
				}
				break;
			}
			if (n == 0)
				break;
		}
		feed(m, n);
	}
	free(m);
}

static void
replay_buf(const uint8_t *buf, size_t len)
{
	size_t i;

	feed(buf, len);
	if (len <= REPLAY_PREFIX_MAX)
		for (i = 0; i < len; i++)
			feed(buf, i);
	mutate_and_feed(buf, len);
	free(prev);
	prev = malloc(len > 0 ? len : 1);
	if (prev == NULL)
		abort();
	if (len > 0)
		memcpy(prev, buf, len);
	prev_len = len;
}

static int
replay_file(const char *path)
{
	uint8_t *buf;
	size_t len;
	FILE *f;

	f = fopen(path, "rb");
	if (f == NULL) {
		perror(path);
		return -1;
	}
	buf = malloc(REPLAY_MAX_LEN);
	if (buf == NULL)
		abort();
	len = fread(buf, 1, REPLAY_MAX_LEN, f);
	fclose(f);
	replay_buf(buf, len);
	free(buf);
	return 1;
}

static int
by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* @return the number of files replayed, or -1. */
static int
replay_path(const char *path)
{
	struct dirent **names;
	struct stat st;
	char sub[4096];
	int n, k, files = 0;

	if (stat(path, &st) != 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path);
	n = scandir(path, &names, NULL, by_name);
	if (n < 0) {
		perror(path);
		return -1;
	}
	for (k = 0; k < n; k++) {
		if (names[k]->d_name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s/%s", path, names[k]->d_name);
			if (replay_file(sub) > 0)
				files++;
		}
		free(names[k]);
	}
	free(names);
	return files;
}

int
main(int argc, char **argv)
{
	int i = 1, files = 0, n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2 && strcmp(argv[1], "-m") == 0) {
		n_mutations = (unsigned int)strtoul(argv[2], NULL, 10);
		i = 3;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: %s [-m MUTATIONS] DIR|FILE...\n", argv[0]);
		return 2;
	}
	if (LLVMFuzzerInitialize != NULL)
		LLVMFuzzerInitialize(&argc, &argv);
	for (; i < argc; i++) {
		n = replay_path(argv[i]);
		if (n < 0)
			return 1;
		printf("# %d files from %s\n", n, argv[i]);
		files += n;
	}
	free(prev);
	if (fuzz_cleanup != NULL)
		fuzz_cleanup();
	if (files == 0) {
		fprintf(stderr, "no corpus files\n");
		return 1;
	}
	printf("%lu inputs replayed from %d files, no crash, no failed check\n", n_inputs, files);
	return 0;
}
