/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Deterministic stand-in for the fuzzer where libFuzzer is not available
 * (gcc builds): replays every file of the corpus, its prefixes and fixed
 * seeded mutations of it, then generated nasty inputs (deep nesting,
 * huge numbers, NULs, floods, binary junk) through the fuzz target.
 * Any bad answer or crash aborts; the run is bounded and repeatable.
 *
 * Usage: ctl_replay [CORPUS_DIR]   (default $PVP_SOURCE_DIR/test/fuzz/corpus)
 */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_fuzz.h"

static unsigned long n_inputs;
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
next_rand(void)
{
	/* xorshift64: fixed seed, same inputs on every run. */
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void
feed(const void *data, size_t len)
{
	LLVMFuzzerTestOneInput(data, len);
	n_inputs++;
}

static void
feed_str(const char *s)
{
	feed(s, strlen(s));
}

static void
mutate_and_feed(const uint8_t *data, size_t len)
{
	uint8_t *m;
	size_t i, j, flips;

	if (len == 0)
		return;
	m = malloc(len);
	for (i = 0; i < 64; i++) {
		memcpy(m, data, len);
		flips = 1 + next_rand() % 4;
		for (j = 0; j < flips; j++) {
			size_t pos = next_rand() % len;

			switch (next_rand() % 4) {
			case 0:
				m[pos] = (uint8_t)next_rand();
				break;
			case 1:
				m[pos] = 0;
				break;
			case 2:
				m[pos] = "{}[]\",:\n\\0-e"[next_rand() % 12];
				break;
			default:
				m[pos] ^= (uint8_t)(1u << (next_rand() % 8));
				break;
			}
		}
		feed(m, len);
	}
	free(m);
}

static int
by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int
replay_corpus(const char *dir)
{
	struct dirent **names;
	char path[4096 + 512];
	uint8_t *buf;
	size_t len, i;
	FILE *f;
	int n, k, files = 0;

	n = scandir(dir, &names, NULL, by_name);
	if (n < 0) {
		perror(dir);
		return -1;
	}
	buf = malloc(1 << 22);
	for (k = 0; k < n; k++) {
		if (names[k]->d_name[0] == '.') {
			free(names[k]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, names[k]->d_name);
		free(names[k]);
		f = fopen(path, "rb");
		if (f == NULL)
			continue;
		len = fread(buf, 1, 1 << 22, f);
		fclose(f);
		files++;
		feed(buf, len);
		/* Every prefix of the small ones: each place a line can be cut. */
		if (len <= 2048)
			for (i = 0; i < len; i++)
				feed(buf, i);
		mutate_and_feed(buf, len);
	}
	free(names);
	free(buf);
	printf("# %d corpus files from %s\n", files, dir);
	return files;
}

static void
generated(void)
{
	static const char *const lines[] = {
		"{\"jsonrpc\":\"2.0\",\"id\":1e999999,\"method\":\"ping\"}\n",
		"{\"jsonrpc\":\"2.0\",\"id\":-1e-999999,\"method\":\"ping\"}\n",
		"{\"jsonrpc\":\"2.0\",\"id\":99999999999999999999999999,\"method\":\"ping\"}\n",
		"{\"jsonrpc\":\"2.0\",\"id\":-9223372036854775808,\"method\":\"ping\"}\n",
		"{\"jsonrpc\":\"2.0\",\"id\":9223372036854775807,\"method\":\"add\","
		"\"params\":[9223372036854775807,1]}\n",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"code\",\"params\":[0]}\n",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"code\",\"params\":[-"
		"9223372036854775808]}\n",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":[1."
		"7976931348623157e308]}\n",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":[\"\\ud800\"]}\n",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":[\"\\u0000\"]}\n",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"info\"}\n",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"auth\",\"params\":{\"token\":"
		"\"" CTL_FUZZ_TOKEN "\"}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"info\"}\n",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"auth\",\"params\":{\"token\":\"x\"}}\n"
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"info\"}\n",
		"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"auth\",\"params\":{\"token\":\"bad\"}}"
		","
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]\n",
		"\r\n\r\n\n\n \t\n",
		"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n",
	};
	size_t i, j, len, n;
	char *buf;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		feed_str(lines[i]);
		mutate_and_feed((const uint8_t *)lines[i], strlen(lines[i]));
	}

	buf = malloc(3 << 20);
	/* Deep nesting far past jansson's limit, as a request and as params. */
	memset(buf, '[', 200000);
	buf[200000] = '\n';
	feed(buf, 200001);
	n = (size_t)sprintf(buf, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":");
	for (i = 0; i < 2040; i++)
		buf[n++] = '[';
	for (i = 0; i < 2040; i++)
		buf[n++] = ']';
	memcpy(buf + n, "}\n", 2);
	feed(buf, n + 2);
	for (i = 0, n = 0; i < 50000; i++)
		n += (size_t)sprintf(buf + n, "{\"a\":");
	buf[n++] = '\n';
	feed(buf, n);

	/* A flood with no newline, one of newlines, one of NULs. */
	memset(buf, 'a', 3 << 20);
	feed(buf, 3 << 20);
	memset(buf, '\n', 2 << 20);
	feed(buf, 2 << 20);
	memset(buf, 0, 1 << 16);
	feed(buf, 1 << 16);

	/* A big batch of pings and notifications, under 1 MiB. */
	n = 0;
	buf[n++] = '[';
	for (i = 0; i < 10000; i++)
		n += (size_t)sprintf(buf + n,
				     i % 3 ? "{\"jsonrpc\":\"2.0\",\"id\":%zu,\"method\":\"ping\"},"
					   : "{\"jsonrpc\":\"2.0\",\"method\":\"ping\"},",
				     i);
	buf[n - 1] = ']';
	buf[n++] = '\n';
	feed(buf, n);

	/* Many short requests in one read. */
	for (i = 0, n = 0; i < 20000; i++)
		n += (size_t)sprintf(buf + n,
				     "{\"jsonrpc\":\"2.0\",\"id\":%zu,\"method\":\"ping\"}\n", i);
	feed(buf, n);

	/* Junk: half JSON-ish tokens, half raw bytes, fixed seed. */
	for (i = 0; i < 3000; i++) {
		static const char *const tok[] = {
			"{",
			"}",
			"[",
			"]",
			",",
			":",
			"\"jsonrpc\"",
			"\"2.0\"",
			"\"id\"",
			"\"method\"",
			"\"params\"",
			"\"ping\"",
			"\"echo\"",
			"\"add\"",
			"\"auth\"",
			"\"token\"",
			"null",
			"true",
			"1",
			"-0",
			"1e308",
			"\"\\u0000\"",
			"\n",
			" ",
			"\"" CTL_FUZZ_TOKEN "\"",
		};

		len = next_rand() % 2048;
		for (j = 0, n = 0; n < len; j++) {
			if (next_rand() % 2) {
				const char *t = tok[next_rand() % (sizeof(tok) / sizeof(tok[0]))];

				memcpy(buf + n, t, strlen(t));
				n += strlen(t);
			} else {
				buf[n++] = (char)next_rand();
			}
		}
		feed(buf, n);
	}
	free(buf);
}

int
main(int argc, char **argv)
{
	char dir[4096];
	const char *src = getenv("PVP_SOURCE_DIR");

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1)
		snprintf(dir, sizeof(dir), "%s", argv[1]);
	else
		snprintf(dir, sizeof(dir), "%s/test/fuzz/corpus", src != NULL ? src : ".");
	if (replay_corpus(dir) <= 0) {
		fprintf(stderr, "no corpus in %s\n", dir);
		return 1;
	}
	generated();
	ctl_fuzz_cleanup();
	printf("%lu inputs replayed; every answer was valid JSON-RPC 2.0\n", n_inputs);
	return 0;
}
