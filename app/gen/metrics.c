/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * --metrics: pvpkit-gen's counters for Prometheus. Each request takes the
 * snapshot stats.get answers (gen_report_json() under gen_lock, on the
 * server's own thread), and lib/metrics writes it out; the TX and RX
 * lcores do nothing more for it than for stats.get.
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include <rte_lcore.h>

#include "pvp_metrics.h"

#include "gen.h"

/* ctl.c's: stats.get and the main loop take it too. */
extern pthread_mutex_t gen_lock;

static struct pvp_metrics_server *gen_metrics_srv;

/* Which lcore polls which queue: TX lcores one (port, queue), RX lcore k queue k of every port. */
static json_t *
gen_metrics_lcores(const struct gen_ctx *g)
{
	json_t *arr = json_array();
	uint16_t i, p;

	for (i = 0; arr != NULL && i < g->nb_tx; i++)
		json_array_append_new(arr, json_pack("{s:i,s:i,s:i,s:s}", "lcore", g->tx[i]->lcore,
						     "port", g->tx[i]->port, "queue",
						     g->tx[i]->queue, "direction", "tx"));
	for (i = 0; arr != NULL && i < g->rx.nb; i++) {
		unsigned int lc = g->rx.rl[i]->lcore;

		/* RTE_MAX_LCORE: the main lcore polls it between its other jobs. */
		if (lc == RTE_MAX_LCORE)
			lc = rte_get_main_lcore();
		for (p = 0; p < g->nb_ports; p++)
			json_array_append_new(arr, json_pack("{s:i,s:i,s:i,s:s}", "lcore", lc,
							     "port", p, "queue", g->rx.rl[i]->queue,
							     "direction", "rx"));
	}
	return arr;
}

static int
gen_metrics_collect(struct pvp_om *om, void *arg)
{
	struct gen_ctx *g = arg;
	json_t *stats, *lcores;
	int ret;

	pthread_mutex_lock(&gen_lock);
	stats = gen_report_json(g);
	pthread_mutex_unlock(&gen_lock);
	lcores = gen_metrics_lcores(g);
	ret = stats != NULL && lcores != NULL
		      ? pvp_metrics_from_stats(om, "pvpkit-gen", stats, lcores)
		      : -ENOMEM;
	json_decref(stats);
	json_decref(lcores);
	return ret;
}

int
gen_metrics_start(struct gen_ctx *g, char *err, size_t errlen)
{
	if (g->opt.metrics == NULL)
		return 0;
	err[0] = '\0';
	gen_metrics_srv =
		pvp_metrics_server_start(g->opt.metrics, gen_metrics_collect, g, err, errlen);
	if (gen_metrics_srv == NULL)
		return -errno;
	GEN_LOG(INFO, "metrics on %s", pvp_metrics_server_url(gen_metrics_srv));
	printf("pvpkit-gen: metrics on %s\n", pvp_metrics_server_url(gen_metrics_srv));
	fflush(stdout);
	return 0;
}

void
gen_metrics_stop(void)
{
	pvp_metrics_server_stop(gen_metrics_srv);
	gen_metrics_srv = NULL;
}
