/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit-fwd: the loopback forwarder that runs inside the guest of a PVP
 * test, like testpmd there, with per-port/per-queue counters a remote
 * coordinator reads over the control channel.
 *
 * Shape: l2fwd's skeleton (options, EAL init, port init, launch on the
 * lcores, quit flag from SIGINT/SIGTERM, stop and close on the way out)
 * and testpmd's forwarding engines (one file per mode). The files:
 * args.c (options), port.c (ports and lcores), report.c (what is
 * printed and written), fwd_ctl.c (control methods), fwd_seq.c
 * (--seq-check), impair.c (the impairment stage and mode impair) and one
 * file per engine.
 */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "pvp_ctl.h"
#include "pvp_metrics.h"
#include "pvp_stats.h"
#include "fwd.h"

RTE_LOG_REGISTER_DEFAULT(fwd_logtype, NOTICE);

/* The main lcore, when it forwards too, looks at the clock this often. */
#define FWD_TICK_POLLS 4096

static struct fwd_conf conf;
static volatile bool fwd_quit;
static volatile bool fwd_running;
static struct fwd_app app;
static uint64_t tick_hz, tick_start, tick_next_print, tick_duration;

static void
fwd_signal(int sig)
{
	(void)sig;
	fwd_quit = true;
}

/* Periodic work of the main lcore: stats lines, --duration. */
static void
fwd_tick(void)
{
	uint64_t now = rte_get_timer_cycles();

	if (tick_duration != 0 && now - tick_start >= tick_duration)
		fwd_quit = true;
	if (conf.stats_period != 0 && now >= tick_next_print) {
		tick_next_print = now + conf.stats_period * tick_hz;
		fwd_report_period(&app);
	}
}

/*
 * An idle lcore's sleep: @p idle_us, but no later than @p due (a TSC), when
 * the impairment stage holds a packet due then. A delayed packet leaves
 * on time while the lcore sleeps between packets, so a delay changes no
 * other process's share of a shared CPU (a lcore that polled without
 * sleeping while it held packets slowed the tester's receive by
 * milliseconds on two CPUs).
 */
static void
fwd_idle_sleep(uint32_t idle_us, uint64_t due)
{
	const uint64_t now = rte_rdtsc();
	uint64_t left_us;

	if (due != UINT64_MAX) {
		if ((int64_t)(due - now) <= 0)
			return;
		left_us = (due - now) * 1000000 / rte_get_tsc_hz();
		if (left_us == 0)
			return;
		if (left_us < idle_us)
			idle_us = (uint32_t)left_us;
	}
	rte_delay_us_sleep(idle_us);
}

static int
fwd_lcore_main(void *arg)
{
	struct fwd_lcore *lc = arg;
	uint16_t (*packet_fwd)(struct fwd_stream *) = conf.engine->packet_fwd;
	const bool is_main = rte_lcore_id() == rte_get_main_lcore();
	const uint32_t idle_us = conf.idle_sleep_us;
	uint32_t idle = 0, ticks = 0;
	uint16_t i, n = lc->nb_streams;
	uint64_t due = UINT64_MAX;

	FWD_LOG(INFO, "lcore %u forwards %u streams", lc->lcore_id, n);
	/*
	 * The kernel's default 50 us timer slack would make every sleep
	 * towards a delayed packet's due time that much late.
	 */
	if (lc->impair && idle_us != 0)
		prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	while (!fwd_quit) {
		uint32_t got = 0;

		for (i = 0; i < n; i++)
			got += packet_fwd(&lc->streams[i]);
		/* Delayed packets leave on time: the sleep ends when one is due. */
		if (lc->impair)
			got += fwd_impair_poll(lc, &due);
		if (lc->seq != NULL)
			fwd_seq_poll_clear(lc->seq);
		if (got != 0) {
			idle = 0;
		} else if (idle_us != 0 && ++idle >= FWD_IDLE_POLLS) {
			fwd_idle_sleep(idle_us, due);
		}
		if (is_main && ++ticks >= FWD_TICK_POLLS) {
			ticks = 0;
			fwd_tick();
		}
	}
	return 0;
}

/* Every ethdev the EAL made is forwarded; counters for their queues. */
static void
fwd_setup(void)
{
	char msg[256];
	uint16_t pid, i;

	RTE_ETH_FOREACH_DEV(pid) {
		if (app.nb_ports >= FWD_MAX_PORTS)
			fwd_die("more than %d ports", FWD_MAX_PORTS);
		app.port_ids[app.nb_ports++] = pid;
	}
	if (app.nb_ports == 0)
		fwd_die("no ports: give devices with --vdev or PCI addresses");
	if (conf.topology == FWD_TOPO_PAIRED && (app.nb_ports & 1))
		fwd_die("--topology paired needs an even number of ports, have %u", app.nb_ports);
	app.conf = &conf;
	app.running = &fwd_running;

	fwd_assign_streams(&app);
	app.stats = pvp_stats_create("pvpkit-fwd", app.nb_ports, conf.nb_rxq, app.nb_txq);
	if (app.stats == NULL)
		fwd_die("cannot create counters: %s", strerror(errno));
	for (i = 0; i < app.nb_streams; i++) {
		struct fwd_stream *fs = app.streams[i];

		fs->rxs = pvp_stats_rxq(app.stats, fs->rx_idx, fs->rx_queue);
		fs->txs = pvp_stats_txq(app.stats, fs->tx_idx, fs->tx_queue);
		/* ARP/ND/echo replies leave by the RX port (fwd_neigh.c). */
		fs->neigh_txs = pvp_stats_txq(app.stats, fs->rx_idx, fs->tx_queue);
		if (fs->rxs == NULL || fs->txs == NULL || fs->neigh_txs == NULL)
			fwd_die("cannot map queue counters");
	}
	msg[0] = '\0';
	if (fwd_impair_setup(&app, msg, sizeof(msg)) != 0)
		fwd_die("%s", msg);
	fwd_ports_init(&app);
}

/* Telemetry and the control channel; NULL when there is none. */
static struct pvp_ctl_server *
fwd_export(void)
{
	struct pvp_ctl_server *ctl = NULL;
	char msg[512];
	int ret;

	ret = pvp_stats_telemetry_register(app.stats);
	if (ret != 0)
		FWD_LOG(WARNING, "telemetry export: %s", strerror(-ret));
	if (conf.ctl == NULL)
		return NULL;
	ctl = fwd_ctl_start(&app, msg, sizeof(msg));
	if (ctl == NULL && !conf.ctl_default)
		fwd_die("control channel: %s", msg);
	if (ctl == NULL)
		FWD_LOG(WARNING, "no control channel (%s): %s", conf.ctl, msg);
	return ctl;
}

/* Forward until SIGINT/SIGTERM or --duration: every lcore, the main one
 * forwarding too when it is the only one. */
static void
fwd_run(void)
{
	uint16_t k;

	tick_hz = rte_get_timer_hz();
	tick_start = rte_get_timer_cycles();
	tick_duration = (uint64_t)(conf.duration_s * (double)tick_hz);
	tick_next_print = tick_start + conf.stats_period * tick_hz;
	fwd_running = true;
	for (k = 0; k < app.nb_lcores; k++) {
		if (app.lcores[k]->lcore_id == rte_get_main_lcore())
			continue;
		rte_eal_remote_launch(fwd_lcore_main, app.lcores[k], app.lcores[k]->lcore_id);
	}
	if (app.lcores[0]->lcore_id == rte_get_main_lcore()) {
		fwd_lcore_main(app.lcores[0]);
	} else {
		while (!fwd_quit) {
			usleep(20 * 1000);
			fwd_tick();
		}
	}
	rte_eal_mp_wait_lcore();
	fwd_running = false;
}

int
main(int argc, char **argv)
{
	struct pvp_metrics_server *metrics = NULL;
	struct pvp_ctl_server *ctl;
	int eal_argc, ret, status = 0;
	char msg[512];
	uint16_t k;

	eal_argc = fwd_args_parse(argc, argv, &conf);
	ret = rte_eal_init(eal_argc, argv);
	if (ret < 0)
		fwd_die("cannot initialise the EAL: %s (hugepages? see the EAL messages above)",
			rte_strerror(rte_errno));
	fwd_eal_up = true;
	signal(SIGINT, fwd_signal);
	signal(SIGTERM, fwd_signal);

	fwd_setup();
	ctl = fwd_export();
	if (conf.metrics != NULL)
		metrics = fwd_metrics_start(&app);
	fwd_ports_print(&app);
	printf("pvpkit-fwd: mode %s, topology %s, %u forwarding lcore(s), ctl %s%s%s%s\n",
	       conf.engine->name, fwd_topology_names[conf.topology], app.nb_lcores,
	       ctl != NULL ? pvp_ctl_server_address(ctl) : "none",
	       conf.seq_check ? ", seq-check" : "", conf.impair_on ? ", impair" : "",
	       conf.stamp ? ", stamp" : "");
	fflush(stdout);
	if (conf.wait_link != 0)
		fwd_wait_link(&app, &fwd_quit);
	fwd_report_init(&app);

	fwd_run();

	/* No control call may look at the lcores or the counters any more. */
	pvp_ctl_server_destroy(ctl);
	pvp_metrics_server_stop(metrics);
	fwd_report_totals(&app);
	if (conf.json != NULL) {
		json_t *summary = fwd_report_json(&app);

		if (pvp_json_file_write(conf.json, summary, msg, sizeof(msg)) != 0) {
			fprintf(stderr, "pvpkit-fwd: --json %s\n", msg);
			status = 1;
		}
		json_decref(summary);
	}
	/* Packets still delayed go back to their pools before the pools go. */
	fwd_impair_free(&app);
	fwd_ports_close(&app);
	for (k = 0; k < app.nb_lcores; k++) {
		rte_free(app.lcores[k]->seq);
		rte_free(app.lcores[k]);
	}
	rte_eal_cleanup();
	/* Telemetry may still hold the counters until the EAL is gone. */
	pvp_stats_destroy(app.stats);
	return status;
}
