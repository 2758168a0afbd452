/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * --metrics: pvpkit-fwd's counters for Prometheus. Each request takes the
 * snapshot stats.get answers (fwd_report_json(), reader side only) on
 * lib/metrics' own thread; the forwarding lcores do nothing for it.
 */

#include <errno.h>
#include <stdio.h>

#include "pvp_metrics.h"

#include "fwd.h"

/* Which lcore polls which RX queue and owns which TX queue. */
static json_t *
fwd_metrics_lcores(const struct fwd_app *app)
{
	json_t *arr = json_array();
	uint16_t k, s, e;

	for (k = 0; arr != NULL && k < app->nb_lcores; k++) {
		const struct fwd_lcore *lc = app->lcores[k];

		for (s = 0; s < lc->nb_streams; s++) {
			const struct fwd_stream *fs = &lc->streams[s];

			json_array_append_new(arr,
					      json_pack("{s:i,s:i,s:i,s:s}", "lcore", lc->lcore_id,
							"port", fs->rx_idx, "queue", fs->rx_queue,
							"direction", "rx"));
			/* An lcore sends on its one TX queue of a port for several streams. */
			for (e = 0; e < s && lc->streams[e].tx_idx != fs->tx_idx; e++)
				;
			if (e == s)
				json_array_append_new(
					arr, json_pack("{s:i,s:i,s:i,s:s}", "lcore", lc->lcore_id,
						       "port", fs->tx_idx, "queue", fs->tx_queue,
						       "direction", "tx"));
		}
	}
	return arr;
}

static int
fwd_metrics_collect(struct pvp_om *om, void *arg)
{
	const struct fwd_app *app = arg;
	json_t *stats = fwd_report_json(app), *lcores = fwd_metrics_lcores(app);
	int ret;

	ret = stats != NULL && lcores != NULL
		      ? pvp_metrics_from_stats(om, "pvpkit-fwd", stats, lcores)
		      : -ENOMEM;
	json_decref(stats);
	json_decref(lcores);
	return ret;
}

struct pvp_metrics_server *
fwd_metrics_start(struct fwd_app *app)
{
	struct pvp_metrics_server *srv;
	char msg[512] = "";

	srv = pvp_metrics_server_start(app->conf->metrics, fwd_metrics_collect, app, msg,
				       sizeof(msg));
	if (srv == NULL)
		fwd_die("%s", msg);
	FWD_LOG(INFO, "metrics on %s", pvp_metrics_server_url(srv));
	printf("pvpkit-fwd: metrics on %s\n", pvp_metrics_server_url(srv));
	fflush(stdout);
	return srv;
}
