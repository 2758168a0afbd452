/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The live progress line of pvpkit run and search (cli_progress.h).
 */

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pvp_util.h"

#include "cli_progress.h"

void
cli_progress_init(struct cli_progress *p, FILE *f, unsigned int nb_points, double point_budget_s)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->tty = f != NULL && isatty(fileno(f));
	p->nb_points = nb_points;
	p->point_budget_s = point_budget_s;
	p->t_run = pvp_now_s();
	p->t_point = p->t_run;
}

void
cli_progress_point(struct cli_progress *p, unsigned int size, unsigned int flows)
{
	char a[32];

	p->t_point = pvp_now_s();
	p->trial_s_point = 0;
	snprintf(p->what, sizeof(p->what), "%u B, %s flows", size,
		 pvp_fmt_count(flows, a, sizeof(a)));
}

double
cli_progress_eta(const struct cli_progress *p, double now)
{
	double in_point = now - p->t_point, per_point, left_here;
	unsigned int after = p->nb_points > p->point + 1 ? p->nb_points - p->point - 1 : 0;

	if (p->point > 0) {
		per_point = p->done_s / p->point;
	} else if (p->point_budget_s > 0) {
		/* Wall time per trial-second so far: snapshots, waits, set-up. */
		double overhead = p->trial_s_point > 0 ? in_point / p->trial_s_point : 1;

		per_point = p->point_budget_s * (overhead > 1 ? overhead : 1);
	} else {
		return -1;
	}
	left_here = per_point - in_point;
	if (left_here < 0)
		left_here = 0;
	return left_here + after * per_point;
}

const char *
cli_progress_fmt_s(double s, char *buf, size_t len)
{
	unsigned long v = (unsigned long)(s + 0.5);

	if (s < 0)
		snprintf(buf, len, "?");
	else if (v >= 3600)
		snprintf(buf, len, "%luh%02lum", v / 3600, v % 3600 / 60);
	else if (v >= 60)
		snprintf(buf, len, "%lum%02lus", v / 60, v % 60);
	else
		snprintf(buf, len, "%lus", v);
	return buf;
}

/* One status line: on a terminal redrawn in place, else a plain line. */
static void
progress_show(struct cli_progress *p, const char *state)
{
	char eta[32], el[32];
	double now = pvp_now_s();

	if (p->f == NULL || (!p->tty && p->nb_points < 2))
		return; /* one search: its trial lines say it all off a terminal */
	fprintf(p->f, "%s[%u/%u %s] %s | elapsed %s, ETA %s%s",
		p->tty ? "\r\033[K" : "progress: ", p->point + 1, p->nb_points, p->what, state,
		cli_progress_fmt_s(now - p->t_run, el, sizeof(el)),
		cli_progress_fmt_s(cli_progress_eta(p, now), eta, sizeof(eta)), p->tty ? "" : "\n");
	fflush(p->f);
	p->drawn = p->tty;
}

void
cli_progress_trial(struct cli_progress *p, unsigned int n, double rate, double duration)
{
	char a[32], state[96];

	if (!p->tty)
		return; /* plain output: one line per trial, when it ends */
	snprintf(state, sizeof(state), "trial %u: %s pps for %.1f s ...", n,
		 pvp_fmt_count((int64_t)rate, a, sizeof(a)), duration);
	progress_show(p, state);
}

void
cli_progress_result(struct cli_progress *p, unsigned int n, double rate, double duration,
		    double loss_pct)
{
	char a[32], state[96];

	p->trial_s_point += duration;
	if (loss_pct < 0)
		snprintf(state, sizeof(state), "trial %u: %s pps: not measured", n,
			 pvp_fmt_count((int64_t)rate, a, sizeof(a)));
	else
		snprintf(state, sizeof(state), "trial %u: %s pps, loss %.4f %%", n,
			 pvp_fmt_count((int64_t)rate, a, sizeof(a)), loss_pct);
	progress_show(p, state);
}

void
cli_progress_point_done(struct cli_progress *p)
{
	p->done_s += pvp_now_s() - p->t_point;
	p->point++;
}

void
cli_progress_clear(struct cli_progress *p)
{
	if (p->f == NULL || !p->drawn)
		return;
	fprintf(p->f, "\r\033[K");
	fflush(p->f);
	p->drawn = false;
}
