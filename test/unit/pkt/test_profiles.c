/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Data-driven profile parser tests (jansson style): every folder
 * <dir>/<case>/ holds input.json and expected. A valid profile must print
 * one pvp_stream_summary() line per stream; an invalid one exactly the
 * error line. The profile is loaded as "input.json" from inside the case
 * folder, so messages and relative pcap paths are stable.
 * PVP_UPDATE_EXPECTED=1 rewrites the expected files (review the diff!).
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pvp_pkt.h"

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
rstrip(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

static int
run_case(const char *name, int update)
{
	static char got[1 << 16], want[1 << 16];
	char err[PVP_PKT_ERR_LEN] = "";
	struct pvp_profile *p;
	size_t n = 0;
	FILE *f;

	p = pvp_profile_load("input.json", err, sizeof(err));
	if (p == NULL) {
		snprintf(got, sizeof(got), "%s", err);
	} else {
		uint32_t i;

		got[0] = '\0';
		for (i = 0; i < p->n_streams && n < sizeof(got) - 1; i++) {
			n += pvp_stream_summary(&p->streams[i], got + n, sizeof(got) - n);
			if (n < sizeof(got) - 1)
				got[n++] = '\n';
			got[n] = '\0';
		}
		pvp_profile_free(p);
	}
	rstrip(got);
	if (update) {
		f = fopen("expected", "w");
		if (f == NULL)
			return 1;
		fprintf(f, "%s\n", got);
		fclose(f);
		printf("updated %s\n", name);
		return 0;
	}
	f = fopen("expected", "r");
	if (f == NULL) {
		printf("FAIL %s: no expected file\n", name);
		return 1;
	}
	n = fread(want, 1, sizeof(want) - 1, f);
	want[n] = '\0';
	fclose(f);
	rstrip(want);
	if (strcmp(got, want) != 0) {
		printf("FAIL %s\n  got:  %s\n  want: %s\n", name, got, want);
		return 1;
	}
	printf("ok   %s\n", name);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *update = getenv("PVP_UPDATE_EXPECTED");
	char *names[512];
	unsigned int n = 0, i, fails = 0;
	struct dirent *de;
	DIR *d;
	int top;

	if (argc != 2) {
		fprintf(stderr, "usage: %s CASES_DIR\n", argv[0]);
		return 2;
	}
	d = opendir(argv[1]);
	top = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (d == NULL || top < 0) {
		perror(argv[1]);
		return 2;
	}
	while ((de = readdir(d)) != NULL && n < RTE_DIM(names))
		if (de->d_name[0] != '.' && de->d_type == DT_DIR)
			names[n++] = strdup(de->d_name);
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (i = 0; i < n; i++) {
		if (fchdir(top) != 0 || chdir(names[i]) != 0) {
			printf("FAIL %s: %s\n", names[i], strerror(errno));
			fails++;
			continue;
		}
		fails += run_case(names[i], update != NULL && strcmp(update, "1") == 0);
		free(names[i]);
	}
	close(top);
	printf("%u cases, %u failures\n", n, fails);
	return fails == 0 && n > 0 ? 0 : 1;
}
