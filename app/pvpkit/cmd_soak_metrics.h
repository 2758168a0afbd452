/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit soak's figures for Prometheus (cmd_soak_metrics.c): each
 * interval's record pushed to a Pushgateway (--push-metrics URL) and/or
 * written to an OpenMetrics file (--metrics-file FILE). Neither is
 * needed for the results: a failure is said on stderr and the soak goes
 * on, its results file holding everything.
 */

#ifndef CMD_SOAK_METRICS_H
#define CMD_SOAK_METRICS_H

#include <stdbool.h>

#include <jansson.h>

/* What the options asked for, and how pushing went. */
struct cmd_soak_metrics {
	const char *push_url; /* --push-metrics URL, or NULL */
	const char *file;     /* --metrics-file FILE, or NULL */
	bool push_failing;    /* the last push failed (said once until one works) */
	bool file_failing;    /* the last write failed (said once until one works) */
};

/*
 * Check the options before anything runs: the URL's form, the file's
 * directory. @return 0, or 2 after a one-line message on stderr.
 */
int cmd_soak_metrics_check(const struct cmd_soak_metrics *m, const char *see);

/*
 * Push and/or write the figures of one soak_interval record @p rec
 * (soak's JSON line) within @p budget_s seconds for the push.
 */
void cmd_soak_metrics_interval(struct cmd_soak_metrics *m, const json_t *rec, double budget_s);

#endif /* CMD_SOAK_METRICS_H */
