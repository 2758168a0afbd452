/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit-gen: stateless traffic generator with per-stream loss and
 * latency (doc/gen.rst). l2fwd's skeleton: options, EAL init, ports,
 * lcores launched once (TX lcores per port and queue, an RX lcore or RX
 * on the main lcore), then the main loop runs the CLI run or serves the
 * control channel until SIGINT/SIGTERM.
 */

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "capture.h"
#include "gen.h"

RTE_LOG_REGISTER_DEFAULT(gen_logtype, NOTICE);

struct gen_ctx gen;
extern pthread_mutex_t gen_lock;

static volatile sig_atomic_t gen_signal;

static void
gen_on_signal(int sig)
{
	gen_signal = sig;
}

/* Give TX lcores their (port, queue) and RX lcores their queue. */
static int
gen_lcores_assign(struct gen_ctx *g, char *err, size_t errlen)
{
	unsigned int lcore, need = g->nb_ports * g->opt.tx_cores, w = 0;
	uint16_t p, q;

	if (rte_lcore_count() - 1 < need)
		return pvp_fail(err, errlen, -EINVAL,
				"%u TX lcores needed (%u port(s) x %u TX cores) but only %u worker "
				"lcore(s): "
				"give the EAL more (-l), the main lcore excluded",
				need, g->nb_ports, g->opt.tx_cores, rte_lcore_count() - 1);
	/*
	 * RX lcores: the workers after the TX ones. One RX lcore and no
	 * worker left: the main lcore polls between its other duties.
	 */
	g->rx.nb = g->opt.no_rx ? 0 : g->opt.rx_cores;
	if (g->rx.nb > 1 && rte_lcore_count() - 1 < need + g->rx.nb)
		return pvp_fail(
			err, errlen, -EINVAL,
			"%u TX and %u RX lcores needed but only %u worker lcore(s): give the "
			"EAL more (-l), the main lcore excluded",
			need, g->rx.nb, rte_lcore_count() - 1);
	for (q = 0; q < g->rx.nb; q++) {
		g->rx.rl[q] = rte_zmalloc("gen_rx", sizeof(*g->rx.rl[q]), RTE_CACHE_LINE_SIZE);
		if (g->rx.rl[q] == NULL)
			return pvp_fail(err, errlen, -ENOMEM, "out of memory");
		g->rx.rl[q]->lcore = RTE_MAX_LCORE;
		g->rx.rl[q]->queue = q;
	}
	RTE_LCORE_FOREACH_WORKER(lcore) {
		if (w < need) {
			struct gen_tx_lcore *tl;

			tl = rte_zmalloc_socket("gen_tx", sizeof(*tl), RTE_CACHE_LINE_SIZE,
						(int)rte_lcore_to_socket_id(lcore));
			if (tl == NULL)
				return pvp_fail(err, errlen, -ENOMEM, "out of memory");
			p = (uint16_t)(w / g->opt.tx_cores);
			q = (uint16_t)(w % g->opt.tx_cores);
			tl->lcore = lcore;
			tl->port = p;
			tl->eth_port = g->port[p].eth_port;
			tl->queue = q;
			tl->stq = pvp_stats_txq(g->stats, p, q);
			tl->stopped = 1;
			g->tx[g->nb_tx++] = tl;
		} else if (w - need < g->rx.nb) {
			g->rx.rl[w - need]->lcore = lcore;
		}
		w++;
	}
	return 0;
}

static int
gen_stats_init(struct gen_ctx *g, char *err, size_t errlen)
{
	uint16_t p;
	int ret;

	g->stats = pvp_stats_create("pvpkit-gen", g->nb_ports, g->opt.rx_cores, g->opt.tx_cores);
	if (g->stats == NULL)
		return pvp_fail(err, errlen, -errno, "stats: %s", strerror(errno));
	for (p = 0; p < g->nb_ports; p++) {
		pvp_stats_bind_ethdev(g->stats, p, g->port[p].eth_port);
		pvp_stats_set_port_name(g->stats, p, g->port[p].name);
	}
	ret = pvp_stats_telemetry_register(g->stats);
	if (ret != 0)
		GEN_LOG(WARNING, "telemetry export failed: %s", strerror(-ret));
	return 0;
}

/* One turn of the main loop: RX if it runs here, else a short sleep. */
static void
gen_main_turn(struct gen_ctx *g)
{
	if (g->rx.nb != 0 && g->rx.rl[0]->lcore == RTE_MAX_LCORE) {
		gen_rx_service_clear(g, g->rx.rl[0]);
		gen_neigh_service(g, g->rx.rl[0]);
		if (gen_rx_poll(g, g->rx.rl[0]) == 0)
			usleep(g->opt.idle_sleep_us != 0 ? g->opt.idle_sleep_us : 50);
	} else {
		usleep(1000);
	}
}

/* End the current run when its duration is over or every TX lcore is done. */
static void
gen_check_run_end(struct gen_ctx *g)
{
	uint64_t now = rte_rdtsc(), grace;
	bool limits = false;
	uint16_t i;

	/*
	 * trylock: a control method may hold the lock while it waits for
	 * the RX engine, which may be this very loop (stats.clear).
	 */
	if (pthread_mutex_trylock(&gen_lock) != 0)
		return;
	if (!g->running) {
		pthread_mutex_unlock(&gen_lock);
		return;
	}
	for (i = 0; i < g->nb_ws; i++)
		if (g->ws[i]->limit != 0 || g->ws[i]->burst_pkts != 0)
			limits = true;
	/* Exact counts may need a little past the end to finish. */
	grace = limits ? g->hz / 20 + gen_ns_to_tsc((uint64_t)g->opt.catchup_us * 1000, g->hz) : 0;
	if (gen_traffic_tx_done(g) || (g->run_end_tsc != 0 && now >= g->run_end_tsc + grace))
		gen_traffic_stop(g);
	pthread_mutex_unlock(&gen_lock);
}

static void
gen_periodic(struct gen_ctx *g, uint64_t *next)
{
	uint64_t now;

	if (g->opt.stats_period == 0)
		return;
	now = rte_rdtsc();
	if (now < *next)
		return;
	*next = now + g->opt.stats_period * g->hz;
	gen_report_period(g);
}

/*
 * The main loop: a CLI run sends at once and ends with its traffic, then
 * waits for the packets still on their way back (part of the result); a
 * server waits for its clients until SIGINT/SIGTERM.
 */
static int
gen_run(struct gen_ctx *g)
{
	uint64_t next_period = 0, drain_end;
	char err[512] = "";
	int ret;

	if (g->opt.server) {
		ret = g->opt.trex != NULL ? gen_trex_start(g, err, sizeof(err))
					  : gen_ctl_start(g, err, sizeof(err));
	} else {
		pthread_mutex_lock(&gen_lock);
		ret = gen_traffic_start(g, &g->opt.rate, g->opt.duration_s, 0, err, sizeof(err));
		pthread_mutex_unlock(&gen_lock);
	}
	if (ret != 0) {
		fprintf(stderr, "pvpkit-gen: %s\n", err);
		return GEN_EXIT_USAGE;
	}
	while (gen_signal == 0) {
		gen_main_turn(g);
		gen_check_run_end(g);
		if (!g->opt.server && !g->running)
			break;
		gen_periodic(g, &next_period);
	}
	pthread_mutex_lock(&gen_lock);
	gen_traffic_stop(g);
	pthread_mutex_unlock(&gen_lock);
	if (g->opt.trex != NULL)
		gen_trex_stop();
	else if (g->opt.server)
		gen_ctl_stop();
	drain_end = rte_rdtsc() + (uint64_t)g->opt.drain_ms * g->hz / 1000;
	while (!g->opt.server && rte_rdtsc() < drain_end)
		gen_main_turn(g);
	return 0;
}

/*
 * A setup error after rte_eal_init(): close every port the EAL probed and
 * clean the EAL up before the exit, so what the PMDs hold (net_pcap's
 * libpcap handles) is released, then exit as gen_die() does.
 */
static void __attribute__((format(printf, 1, 2), noreturn)) gen_setup_die(const char *fmt, ...)
{
	char msg[600];
	uint16_t pid;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* A started port must be stopped first; others say nothing then. */
	RTE_ETH_FOREACH_DEV(pid) {
		if (rte_eth_dev_close(pid) != 0) {
			rte_eth_dev_stop(pid);
			rte_eth_dev_close(pid);
		}
	}
	rte_eal_cleanup();
	gen_die("%s", msg);
}

/* Ports, counters, lcores, the RX engine and the streams of the options. */
static void
gen_setup(struct gen_ctx *g)
{
	struct pvp_profile *prof;
	char err[512] = "";
	double pps;
	uint16_t i;

	if (gen_ports_init(g, err, sizeof(err)) != 0 || gen_stats_init(g, err, sizeof(err)) != 0 ||
	    gen_lcores_assign(g, err, sizeof(err)) != 0)
		gen_setup_die("%s", err);
	if (gen_rx_setup(g) != 0)
		gen_setup_die("out of memory");
	if (gen_neigh_setup(g, err, sizeof(err)) != 0 ||
	    gen_neigh_resolve(g, err, sizeof(err)) != 0)
		gen_setup_die("%s", err);
	prof = gen_profile_from_opts(g, err, sizeof(err));
	if (prof == NULL)
		gen_setup_die("%s", err);
	if (gen_streams_setup(g, prof, err, sizeof(err)) != 0) {
		pvp_profile_free(prof);
		gen_setup_die("%s", err);
	}
	/* Refuse a bad rate before anything is sent (the default, max, is never one). */
	for (i = 0; !g->opt.server && i < g->nb_ports; i++)
		if (gen_rate_to_port_pps(g, &g->opt.rate, i, &pps, err, sizeof(err)) != 0)
			gen_setup_die("--rate: %s", err);
}

/*
 * --capture: started before the lcores send or receive anything, so the
 * file holds the run from its first frame; ended by gen_cap_fini().
 */
static void
gen_capture_open(struct gen_ctx *g)
{
	static char buf[1024];
	struct gen_cap_conf c;
	char err[512] = "";
	uint64_t mask = g->nb_ports >= 64 ? UINT64_MAX : (1ull << g->nb_ports) - 1;
	uint32_t id;

	if (g->opt.capture == NULL)
		return;
	/* Checked with the options: only the port count is new. */
	if (gen_cap_parse(g->opt.capture, &c, buf, sizeof(buf), err, sizeof(err)) != 0)
		gen_setup_die("%s", err);
	if (((c.ports[GEN_CAP_RX] | c.ports[GEN_CAP_TX]) & mask) == 0)
		gen_setup_die("--capture: port is out of range (%u port(s))", g->nb_ports);
	c.ports[GEN_CAP_RX] &= mask;
	c.ports[GEN_CAP_TX] &= mask;
	if (gen_cap_start(&c, &id, NULL, err, sizeof(err)) != 0)
		gen_setup_die("--capture %s", err);
}

/* TX lcores, and RX lcores that are not the main one. */
static void
gen_launch(struct gen_ctx *g)
{
	uint16_t i;

	for (i = 0; i < g->nb_tx; i++)
		rte_eal_remote_launch(gen_tx_lcore_main, g->tx[i], g->tx[i]->lcore);
	for (i = 0; i < g->rx.nb; i++)
		if (g->rx.rl[i]->lcore != RTE_MAX_LCORE)
			rte_eal_remote_launch(gen_rx_lcore_main, g->rx.rl[i], g->rx.rl[i]->lcore);
}

int
main(int argc, char **argv)
{
	struct gen_ctx *g = &gen;
	int eal_argc, ret, status;
	unsigned int lcore;
	char err[512];

	/* Ours before the EAL's: --help and bad options need no hugepages. */
	eal_argc = gen_args_parse(argc, argv, &g->opt);
	ret = rte_eal_init(eal_argc, argv);
	if (ret < 0) {
		fprintf(stderr,
			"pvpkit-gen: cannot initialise the EAL: %s (hugepages? see the EAL "
			"messages above)\n",
			rte_strerror(rte_errno));
		return GEN_EXIT_USAGE;
	}
	/* Pacing, durations, latency and start times all count in it. */
	g->hz = pvp_stats_tsc_hz();
	signal(SIGINT, gen_on_signal);
	signal(SIGTERM, gen_on_signal);
	gen_setup(g);
	if (gen_metrics_start(g, err, sizeof(err)) != 0)
		gen_setup_die("%s", err);
	gen_capture_open(g);
	gen_launch(g);

	status = gen_run(g);
	/* The capture file is whole and its counts final before the report. */
	gen_cap_stop_all();
	if (status == 0) {
		if (!g->opt.quiet)
			gen_report_print(g, stdout);
		/* --json: checked with the options (args.c), written now. */
		if (g->opt.json != NULL) {
			json_t *root = gen_report_json(g);

			if (pvp_json_file_write(g->opt.json, root, err, sizeof(err)) != 0) {
				fprintf(stderr, "pvpkit-gen: --json %s\n", err);
				status = 1;
			}
			json_decref(root);
		}
	}

	/* Before the streams it reads are freed. */
	gen_metrics_stop();
	g->quit = true;
	RTE_LCORE_FOREACH_WORKER(lcore)
		rte_eal_wait_lcore(lcore);
	gen_cap_fini();
	gen_ports_close(g);
	gen_streams_release(g);
	rte_eal_cleanup();
	pvp_stats_destroy(g->stats);
	return status;
}
