/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The progress line: time-left estimates at set times, the time format,
 * and plain lines (one per trial result) when not on a terminal.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_progress.h"
#include "../unit_check.h"

static bool
near(double a, double b)
{
	return fabs(a - b) < 1e-6;
}

static void
test_eta(void)
{
	struct cli_progress p;

	cli_progress_init(&p, NULL, 4, 0);
	p.t_run = p.t_point = 100;
	/* No budget and no search finished: cannot tell. */
	CHECK(cli_progress_eta(&p, 105) < 0);

	/* Budget 10 trial-seconds: 4 searches of 10 s, 5 s into the first. */
	p.point_budget_s = 10;
	CHECK(near(cli_progress_eta(&p, 105), 35));
	/* 4 trial-seconds took 8 s of wall time: overhead 2, 20 s a search. */
	p.trial_s_point = 4;
	CHECK(near(cli_progress_eta(&p, 108), 12 + 3 * 20));

	/* Two searches done in 60 s: 30 s each; 10 s into the third. */
	p.point = 2;
	p.done_s = 60;
	p.t_point = 200;
	CHECK(near(cli_progress_eta(&p, 210), 20 + 30));
	/* Longer than the average: nothing left for it, the last one still. */
	CHECK(near(cli_progress_eta(&p, 250), 30));
}

static void
test_fmt(void)
{
	char b[32];

	CHECK(strcmp(cli_progress_fmt_s(-1, b, sizeof(b)), "?") == 0);
	CHECK(strcmp(cli_progress_fmt_s(42.4, b, sizeof(b)), "42s") == 0);
	CHECK(strcmp(cli_progress_fmt_s(185, b, sizeof(b)), "3m05s") == 0);
	CHECK(strcmp(cli_progress_fmt_s(3720, b, sizeof(b)), "1h02m") == 0);
}

static void
test_plain_lines(void)
{
	struct cli_progress p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	if (f == NULL)
		return;
	cli_progress_init(&p, f, 2, 10);
	CHECK(!p.tty);
	cli_progress_point(&p, 64, 1000);
	cli_progress_trial(&p, 1, 150000, 1); /* nothing off a terminal */
	cli_progress_result(&p, 1, 150000.7, 1, 0.25);
	cli_progress_clear(&p);
	cli_progress_point_done(&p);
	cli_progress_point(&p, 1518, 1);
	cli_progress_result(&p, 1, 9000, 1, -1);
	fclose(f);
	CHECK(strstr(buf,
		     "progress: [1/2 64 B, 1,000 flows] trial 1: 150,000 pps, loss 0.2500 % |") ==
	      buf);
	CHECK(strstr(buf, "\nprogress: [2/2 1518 B, 1 flows] trial 1: 9,000 pps: not measured |") !=
	      NULL);
	CHECK(strchr(buf, '\r') == NULL);
	free(buf);
}

int
main(void)
{
	test_eta();
	test_fmt();
	test_plain_lines();
	return unit_check_end("progress");
}
