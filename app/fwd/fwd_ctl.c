/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Control methods of pvpkit-fwd (notes: info, stats.get, stats.clear, clock.get,
 * impair.set, impair.get). They run on lib/ctl's control thread and only
 * read what the forwarding lcores write; impair.set hands new settings
 * over through the stage's sequence count (impair.h). Only impair.set
 * takes parameters, decoded through pvp_impair_conf_members
 * (pvp_ctl_params()); one sent to another method is refused with -32602:
 * a client that sends some expects an effect it would not get.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>

#include <jansson.h>

#include "pvp_ctl.h"
#include "pvp_sig.h"
#include "fwd.h"

static json_t *
ctl_port_json(const struct fwd_app *app, uint16_t idx)
{
	uint16_t pid = app->port_ids[idx];
	char name[RTE_ETH_NAME_MAX_LEN] = "";
	char mac[RTE_ETHER_ADDR_FMT_SIZE] = "";
	struct rte_ether_addr ea;
	struct rte_eth_link link;

	rte_eth_dev_get_name_by_port(pid, name);
	if (rte_eth_macaddr_get(pid, &ea) == 0)
		rte_ether_format_addr(mac, sizeof(mac), &ea);
	memset(&link, 0, sizeof(link));
	rte_eth_link_get_nowait(pid, &link);
	return json_pack(
		"{s:i, s:i, s:s, s:s, s:b, s:I, s:i, s:i}", "port", idx, "eth_port_id", pid, "name",
		name, "mac", mac, "link_up", link.link_status != 0, "speed_mbps",
		(json_int_t)(link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ? 0 : link.link_speed),
		"rxq", app->conf->nb_rxq, "txq", app->nb_txq);
}

static int
ctl_info(json_t *info, void *arg)
{
	const struct fwd_app *app = arg;
	json_t *ports = json_array(), *lcores = json_array();
	uint16_t i, s;

	for (i = 0; ports != NULL && i < app->nb_ports; i++)
		if (json_array_append_new(ports, ctl_port_json(app, i)) != 0) {
			json_decref(ports);
			ports = NULL;
		}
	for (i = 0; i < app->nb_lcores; i++) {
		const struct fwd_lcore *lc = app->lcores[i];
		json_t *streams = json_array();

		for (s = 0; s < lc->nb_streams; s++) {
			const struct fwd_stream *fs = &lc->streams[s];

			json_array_append_new(streams,
					      json_pack("{s:i, s:i, s:i, s:i}", "rx_port",
							fs->rx_idx, "rxq", fs->rx_queue, "tx_port",
							fs->tx_idx, "txq", fs->tx_queue));
		}
		json_array_append_new(
			lcores, json_pack("{s:i, s:o}", "lcore", lc->lcore_id, "streams", streams));
	}
	/* The pack fails on a NULL list (out of memory), and takes both in any case. */
	if (json_object_update_new(info, json_pack("{s:s, s:s, s:b, s:b, s:i, s:b, s:o, s:o}",
						   "mode", app->conf->engine->name, "topology",
						   fwd_topology_names[app->conf->topology],
						   "seq_check", app->conf->seq_check, "stamp",
						   app->conf->stamp, "burst", app->conf->burst,
						   "impair", app->conf->impair_on, "ports", ports,
						   "lcores", lcores)) != 0)
		return -ENOMEM;
	return 0;
}

static int
ctl_stats_get(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	if (pvp_ctl_params("stats.get", NULL, params, NULL, err, err_len) < 0)
		return -EINVAL;
	*result = fwd_report_json(arg);
	if (*result == NULL)
		return pvp_fail(err, err_len, -EIO, "snapshot failed");
	return 0;
}

static int
ctl_stats_clear(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	const struct fwd_app *app = arg;
	int ret;

	if (pvp_ctl_params("stats.clear", NULL, params, NULL, err, err_len) < 0)
		return -EINVAL;
	ret = pvp_stats_clear(app->stats);
	if (ret != 0)
		return pvp_fail(err, err_len, -EIO, "clear: %s", strerror(-ret));
	if (app->conf->seq_check && fwd_seq_clear(app, 1000) != 0)
		return pvp_fail(err, err_len, -EBUSY,
				"forwarding lcores did not acknowledge the clear");
	if (app->conf->impair_on)
		fwd_impair_clear(app);
	*result = json_object();
	return 0;
}

/* The stage exists only when asked for at start: no cost otherwise. */
static int
ctl_impair_on(const struct fwd_app *app, const char *method, char *err, size_t err_len)
{
	if (app->conf->impair_on)
		return 0;
	return pvp_fail(err, err_len, -EINVAL,
			"%s: no impairment stage (start pvpkit-fwd with --mode impair or --impair)",
			method);
}

static int
ctl_impair_get(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	if (pvp_ctl_params(PVP_FWD_M_IMPAIR_GET, NULL, params, NULL, err, err_len) < 0 ||
	    ctl_impair_on(arg, PVP_FWD_M_IMPAIR_GET, err, err_len) < 0)
		return -EINVAL;
	*result = fwd_impair_json(arg, true);
	if (*result == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "out of memory");
	return 0;
}

/*
 * clock.get: a sample of this process's TSC and CLOCK_MONOTONIC
 * (pvp_clock_sample_json()) and whether --stamp is on. pvpkit-gen
 * compares the sample with its own (oneway.set) to know whether the
 * stamps it reads are on its clock.
 */
static int
ctl_clock_get(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	const struct fwd_app *app = arg;
	struct pvp_clock_sample c;
	json_t *res;

	if (pvp_ctl_params("clock.get", NULL, params, NULL, err, err_len) < 0)
		return -EINVAL;
	pvp_clock_sample_take(&c);
	res = pvp_clock_sample_json(&c);
	if (res == NULL || json_object_set_new(res, "stamp", json_boolean(app->conf->stamp)) != 0) {
		json_decref(res);
		return pvp_fail(err, err_len, -ENOMEM, "clock.get: out of memory");
	}
	*result = res;
	return 0;
}

/*
 * impair.set: the settings replace those of the port named ("port", else
 * every port); members not given take their defaults, so one call says
 * everything in effect. The answer is impair.get's.
 */
static int
ctl_impair_set(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	struct fwd_app *app = arg;
	struct pvp_impair_conf c;
	char e[256] = "";

	if (ctl_impair_on(app, PVP_FWD_M_IMPAIR_SET, err, err_len) < 0 ||
	    pvp_ctl_params(PVP_FWD_M_IMPAIR_SET, pvp_impair_conf_members, params, &c, err,
			   err_len) < 0)
		return -EINVAL;
	if (fwd_impair_set(app, &c, e, sizeof(e)) < 0)
		return pvp_fail(err, err_len, -EINVAL, "impair.set: %s", e);
	return ctl_impair_get(NULL, arg, result, err, err_len);
}

struct pvp_ctl_server *
fwd_ctl_start(struct fwd_app *app, char *msg, size_t len)
{
	struct pvp_ctl_server_conf conf = {
		.listen = app->conf->ctl,
		.token_file = app->conf->token_file,
		.app_name = "pvpkit-fwd",
	};
	char err[PVP_CTL_ERR_LEN] = "";
	struct pvp_ctl_server *srv;
	int ret;

	srv = pvp_ctl_server_create(&conf, err, sizeof(err));
	if (srv == NULL) {
		snprintf(msg, len, "%s", err[0] != '\0' ? err : strerror(errno));
		return NULL;
	}
	pvp_ctl_server_set_info(srv, ctl_info, app);
	ret = pvp_ctl_server_register(srv, "stats.get", ctl_stats_get, app);
	if (ret == 0)
		ret = pvp_ctl_server_register(srv, "stats.clear", ctl_stats_clear, app);
	if (ret == 0)
		ret = pvp_ctl_server_register(srv, "clock.get", ctl_clock_get, app);
	if (ret == 0)
		ret = pvp_ctl_server_register(srv, PVP_FWD_M_IMPAIR_SET, ctl_impair_set, app);
	if (ret == 0)
		ret = pvp_ctl_server_register(srv, PVP_FWD_M_IMPAIR_GET, ctl_impair_get, app);
	if (ret == 0)
		ret = pvp_ctl_server_start(srv);
	if (ret != 0) {
		snprintf(msg, len, "%s: %s", app->conf->ctl, strerror(-ret));
		pvp_ctl_server_destroy(srv);
		return NULL;
	}
	return srv;
}
