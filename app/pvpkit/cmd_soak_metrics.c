/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit soak --push-metrics / --metrics-file (doc/metrics.rst): every
 * interval's record (its "soak_interval" JSON line) as gauges, with
 * lib/metrics' writer. A Pushgateway gets them by PUT in Prometheus'
 * text format 0.0.4 (what it reads), replacing the group the URL names,
 * so it always holds the latest interval; the file is OpenMetrics,
 * replaced whole (a new file renamed over it) each interval, so a reader
 * (node_exporter's textfile collector, a script) never sees half of one.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pvp_metrics.h"
#include "pvp_util.h"

#include "cmd.h"
#include "cmd_soak_metrics.h"

/* Gauges of a record: its member, the family, its unit and help. */
static const struct {
	const char *key, *family, *unit, *help;
} soak_gauges[] = {
	{"n", "pvpkit_soak_interval", NULL, "Number of the interval (from 1)."},
	{"t_s", "pvpkit_soak_elapsed_seconds", "seconds", "Time from the start of the traffic."},
	{"interval_s", "pvpkit_soak_interval_seconds", "seconds", "Length of the interval."},
	{"rate_pps", "pvpkit_soak_rate_pps", NULL, "Packet rate asked for, per TX port."},
	{"tx_packets", "pvpkit_soak_tx_packets", NULL, "Packets sent in the interval."},
	{"rx_packets", "pvpkit_soak_rx_packets", NULL, "Packets received in the interval."},
	{"lost", "pvpkit_soak_lost_packets", NULL, "tx_packets - rx_packets of the interval."},
	{"loss_ratio", "pvpkit_soak_loss_ratio", NULL, "lost over tx_packets of the interval."},
	{"unattributed", "pvpkit_soak_unattributed_packets", NULL,
	 "Loss of the interval that no hop's drop counter explains."},
	{"tx_pps", "pvpkit_soak_tx_pps", NULL, "Packets sent per second in the interval."},
	{"rx_pps", "pvpkit_soak_rx_pps", NULL, "Packets received per second in the interval."},
};

/* The latency summary members, in the order they are written. */
static const char *const soak_lat_stats[] = {"min", "avg", "p50", "p99", "p99_9", "p99_99", "max"};

static int
soak_metrics_render(const json_t *rec, struct pvp_om *om)
{
	const json_t *hops = json_object_get(rec, "hop_lost"), *lat, *v;
	struct pvp_om_label l;
	const char *hop;
	unsigned int i;

	for (i = 0; i < sizeof(soak_gauges) / sizeof(soak_gauges[0]); i++) {
		v = json_object_get(rec, soak_gauges[i].key);
		if (!json_is_number(v))
			continue;
		pvp_om_family(om, soak_gauges[i].family, PVP_OM_GAUGE, soak_gauges[i].unit,
			      soak_gauges[i].help);
		pvp_om_value(om, NULL, 0, json_number_value(v));
	}
	pvp_om_family(om, "pvpkit_soak_hop_lost_packets", PVP_OM_GAUGE, NULL,
		      "Packets the hop lost in the interval (its drop counters).");
	json_object_foreach((json_t *)hops, hop, v) {
		l = (struct pvp_om_label){"hop", hop};
		pvp_om_value(om, &l, 1, json_number_value(v));
	}
	lat = json_object_get(rec, "latency_ns");
	if (json_is_object(lat)) {
		pvp_om_family(om, "pvpkit_soak_latency_seconds", PVP_OM_GAUGE, "seconds",
			      "Latency of the interval's packets (pvpkit-gen's histograms).");
		for (i = 0; i < sizeof(soak_lat_stats) / sizeof(soak_lat_stats[0]); i++) {
			v = json_object_get(lat, soak_lat_stats[i]);
			if (!json_is_number(v))
				continue;
			l = (struct pvp_om_label){"stat", soak_lat_stats[i]};
			pvp_om_value(om, &l, 1, json_number_value(v) / 1e9);
		}
	}
	return pvp_om_finish(om);
}

int
cmd_soak_metrics_check(const struct cmd_soak_metrics *m, const char *see)
{
	char err[512] = "";

	if (m->push_url != NULL && pvp_metrics_url_check(m->push_url, err, sizeof(err)) != 0)
		return cli_usage_error(see, "--push-metrics %s", err);
	if (m->file != NULL && pvp_path_check_writable(m->file, err, sizeof(err)) != 0)
		return cli_usage_error(see, "--metrics-file %s", err);
	return 0;
}

/*
 * Push the figures of @p rec (@p push, within @p budget_s) or replace the
 * file with them. A failure is said once until one works again.
 */
static void
soak_metrics_send(struct cmd_soak_metrics *m, bool push, const json_t *rec, double budget_s)
{
	unsigned int ms = budget_s < 0.05 ? 50
			  : budget_s > 2  ? 2000
					  : (unsigned int)(budget_s * 1e3);
	bool *failing = push ? &m->push_failing : &m->file_failing;
	char err[512] = "";
	struct pvp_out o;
	struct pvp_om om;
	int ret;

	pvp_om_init(&om, push ? PVP_OM_PROMETHEUS : PVP_OM_OPENMETRICS);
	ret = soak_metrics_render(rec, &om);
	if (ret == 0 && push)
		ret = pvp_metrics_http_send(m->push_url, "PUT", PVP_OM_CT_PROMETHEUS, om.buf,
					    om.len, ms, err, sizeof(err));
	else if (ret == 0)
		ret = pvp_out_open(&o, m->file, err, sizeof(err));
	if (ret == 0 && !push) {
		fwrite(om.buf, 1, om.len, o.f);
		ret = pvp_out_commit(&o, err, sizeof(err));
	}
	if (ret != 0)
		pvp_err(err, sizeof(err), "%s", strerror(-ret));
	pvp_om_free(&om);
	if (ret != 0 && !*failing)
		fprintf(stderr,
			"pvpkit: soak: %s: %s (the soak goes on; every interval is in its "
			"results file)\n",
			push ? "--push-metrics" : "--metrics-file", err);
	else if (ret == 0 && *failing && push)
		fprintf(stderr, "pvpkit: soak: --push-metrics: pushing again\n");
	*failing = ret != 0;
}

void
cmd_soak_metrics_interval(struct cmd_soak_metrics *m, const json_t *rec, double budget_s)
{
	if (m->push_url != NULL)
		soak_metrics_send(m, true, rec, budget_s);
	if (m->file != NULL)
		soak_metrics_send(m, false, rec, budget_s);
}
