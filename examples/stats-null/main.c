/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * stats-null: the smallest program that uses lib/stats the way
 * pvpkit-fwd does. It forwards what net_null port 0 receives to port 1
 * on one lcore, counts through lib/stats with both ethdevs bound,
 * exports the counters through DPDK telemetry, and prints the final
 * totals as one JSON line when it stops (after --duration seconds, or on
 * SIGINT/SIGTERM).
 *
 *   stats-null --in-memory --no-pci --file-prefix sn --no-huge -m 64 \
 *       --vdev net_null0 --vdev net_null1 -- --duration 5 --sleep-us 100
 *
 * Then, while it runs: dpdk-telemetry.py -f sn, and type /pvpkit/stats.
 * --xstats NAME,... replaces lib/stats' default list of chosen xstats
 * (net_null has few drop counters, so the test picks ones it has).
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <jansson.h>

#include "pvp_stats.h"

#define NB_MBUFS   4095
#define MBUF_CACHE 256
#define RING_SIZE  512
#define MAX_BURST  64

/* Application options (after "--"). */
struct sn_opts {
	unsigned int duration_s; /* stop after this long; 0 = until a signal */
	unsigned int sleep_us;	 /* pause after each poll, to share a CPU */
	unsigned int burst;	 /* packets per rx burst */
	/* --xstats: chosen xstats, comma separated; NULL = lib/stats default. */
	char *xstats;
};

static volatile bool sn_quit;

static void
sn_signal(int sig __rte_unused)
{
	sn_quit = true;
}

static void
sn_usage(const char *prog)
{
	printf("usage: %s [EAL options] -- [--duration SECS] [--sleep-us US] [--burst N]\n"
	       "          [--xstats NAME,...]\n"
	       "  --duration SECS  stop after SECS seconds (default 5, 0 = until SIGTERM)\n"
	       "  --sleep-us US    sleep US microseconds after each poll (default 0)\n"
	       "  --burst N        packets per RX burst, 1..%d (default 32)\n"
	       "  --xstats LIST    xstats to report per port (default: lib/stats' list)\n",
	       prog, MAX_BURST);
}

static int
sn_parse_args(int argc, char **argv, struct sn_opts *o)
{
	enum { OPT_DURATION = 256, OPT_SLEEP_US, OPT_BURST, OPT_XSTATS, OPT_HELP };
	static const struct option longopts[] = {
		{"duration", required_argument, NULL, OPT_DURATION},
		{"sleep-us", required_argument, NULL, OPT_SLEEP_US},
		{"burst", required_argument, NULL, OPT_BURST},
		{"xstats", required_argument, NULL, OPT_XSTATS},
		{"help", no_argument, NULL, OPT_HELP},
		{NULL, 0, NULL, 0},
	};
	unsigned long v;
	char *end;
	int opt;

	o->duration_s = 5;
	o->sleep_us = 0;
	o->burst = 32;
	o->xstats = NULL;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (opt == OPT_HELP) {
			sn_usage(argv[0]);
			exit(0);
		}
		if (opt == '?')
			return -EINVAL;
		if (opt == OPT_XSTATS) {
			o->xstats = optarg;
			continue;
		}
		errno = 0;
		v = strtoul(optarg, &end, 10);
		if (errno != 0 || end == optarg || *end != '\0' || v > 1000000) {
			fprintf(stderr, "stats-null: bad number '%s'\n", optarg);
			return -EINVAL;
		}
		switch (opt) {
		case OPT_DURATION:
			o->duration_s = v;
			break;
		case OPT_SLEEP_US:
			o->sleep_us = v;
			break;
		case OPT_BURST:
			if (v == 0 || v > MAX_BURST) {
				fprintf(stderr, "stats-null: --burst must be 1..%d\n", MAX_BURST);
				return -EINVAL;
			}
			o->burst = v;
			break;
		}
	}
	return optind < argc ? -EINVAL : 0;
}

static int
sn_port_init(uint16_t port, struct rte_mempool *mp)
{
	struct rte_eth_conf conf = {0};
	uint16_t nb_rxd = RING_SIZE, nb_txd = RING_SIZE;
	int rc;

	rc = rte_eth_dev_configure(port, 1, 1, &conf);
	if (rc == 0)
		rc = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nb_rxd, &nb_txd);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(port, 0, nb_rxd, rte_eth_dev_socket_id(port), NULL, mp);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(port, 0, nb_txd, rte_eth_dev_socket_id(port), NULL);
	if (rc == 0)
		rc = rte_eth_dev_start(port);
	return rc;
}

/*
 * The forwarding loop: rx on port 0, tx on port 1. Counts in locals and
 * publishes once per burst into the queue blocks this lcore owns.
 */
static void
sn_forward(const struct sn_opts *o, struct pvp_stats_rxq *rxq, struct pvp_stats_txq *txq)
{
	uint64_t end = o->duration_s == 0
			       ? UINT64_MAX
			       : rte_rdtsc() + (uint64_t)o->duration_s * rte_get_tsc_hz();
	struct rte_mbuf *pkts[MAX_BURST];
	uint16_t nb_rx, nb_tx, i;
	uint64_t rx_bytes, tx_bytes;

	while (!sn_quit && rte_rdtsc() < end) {
		nb_rx = rte_eth_rx_burst(0, 0, pkts, o->burst);
		if (nb_rx > 0) {
			rx_bytes = 0;
			for (i = 0; i < nb_rx; i++)
				rx_bytes += rte_pktmbuf_pkt_len(pkts[i]);
			pvp_stats_rxq_add(rxq, nb_rx, rx_bytes);
			nb_tx = rte_eth_tx_burst(1, 0, pkts, nb_rx);
			tx_bytes = 0;
			for (i = 0; i < nb_tx; i++)
				tx_bytes += rte_pktmbuf_pkt_len(pkts[i]);
			if (nb_tx < nb_rx)
				rte_pktmbuf_free_bulk(&pkts[nb_tx], nb_rx - nb_tx);
			pvp_stats_txq_add(txq, nb_tx, tx_bytes, nb_rx - nb_tx);
		}
		if (o->sleep_us > 0)
			usleep(o->sleep_us);
	}
}

/* Final totals: our snapshot plus what the ethdevs counted, one line. */
static void
sn_print_final(struct pvp_stats *st)
{
	struct pvp_stats_snap *snap = malloc(sizeof(*snap));
	json_t *root, *eth;
	uint16_t p;
	char *text;

	if (snap == NULL || pvp_stats_snapshot(st, snap) != 0) {
		free(snap);
		return;
	}
	eth = json_array();
	for (p = 0; p < 2; p++) {
		struct rte_eth_stats es;

		if (rte_eth_stats_get(p, &es) == 0)
			json_array_append_new(eth, json_pack("{s:i,s:I,s:I,s:I,s:I}", "port", p,
							     "ipackets", (json_int_t)es.ipackets,
							     "opackets", (json_int_t)es.opackets,
							     "imissed", (json_int_t)es.imissed,
							     "oerrors", (json_int_t)es.oerrors));
	}
	root = json_pack("{s:o,s:o}", "stats", pvp_stats_snap_to_json(snap), "ethdev", eth);
	text = json_dumps(root, JSON_COMPACT);
	printf("FINAL %s\n", text);
	printf("port 0 (%s): rx %" PRIu64 " packets, %" PRIu64 " bytes\n", snap->port[0].name,
	       snap->port[0].c[PVP_STATS_rx_packets], snap->port[0].c[PVP_STATS_rx_bytes]);
	printf("port 1 (%s): tx %" PRIu64 " packets, %" PRIu64 " bytes, %" PRIu64 " dropped\n",
	       snap->port[1].name, snap->port[1].c[PVP_STATS_tx_packets],
	       snap->port[1].c[PVP_STATS_tx_bytes], snap->port[1].c[PVP_STATS_tx_dropped]);
	fflush(stdout);
	free(text);
	json_decref(root);
	free(snap);
}

int
main(int argc, char **argv)
{
	struct pvp_stats *st;
	struct rte_mempool *mp;
	struct sn_opts opts;
	uint16_t p;
	int rc;

	rc = rte_eal_init(argc, argv);
	if (rc < 0)
		rte_exit(EXIT_FAILURE, "cannot init EAL: %s\n", rte_strerror(rte_errno));
	argc -= rc;
	argv += rc;
	if (sn_parse_args(argc, argv, &opts) != 0) {
		sn_usage(argv[0]);
		rte_exit(EXIT_FAILURE, "bad arguments\n");
	}
	if (rte_eth_dev_count_avail() != 2)
		rte_exit(EXIT_FAILURE,
			 "need exactly 2 ports (--vdev net_null0 --vdev net_null1), have %u\n",
			 rte_eth_dev_count_avail());
	signal(SIGINT, sn_signal);
	signal(SIGTERM, sn_signal);

	mp = rte_pktmbuf_pool_create("sn_pool", NB_MBUFS, MBUF_CACHE, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				     rte_socket_id());
	if (mp == NULL)
		rte_exit(EXIT_FAILURE, "cannot create mbuf pool: %s\n", rte_strerror(rte_errno));
	for (p = 0; p < 2; p++)
		if (sn_port_init(p, mp) != 0)
			rte_exit(EXIT_FAILURE, "cannot start port %u\n", p);

	st = pvp_stats_create("stats-null", 2, 1, 1);
	if (st == NULL)
		rte_exit(EXIT_FAILURE, "cannot create stats: %s\n", strerror(errno));
	for (p = 0; p < 2; p++)
		if (pvp_stats_bind_ethdev(st, p, p) != 0)
			rte_exit(EXIT_FAILURE, "cannot bind stats port %u\n", p);
	if (opts.xstats != NULL) {
		const char *names[PVP_STATS_MAX_XSTATS];
		unsigned int n = 0;
		char *save = NULL, *tok;

		/* After the bind on purpose: bound ports are looked up again. */
		for (tok = strtok_r(opts.xstats, ",", &save); tok != NULL && n < RTE_DIM(names);
		     tok = strtok_r(NULL, ",", &save))
			names[n++] = tok;
		if (tok != NULL || pvp_stats_set_xstats(st, names, n) != 0)
			rte_exit(EXIT_FAILURE, "bad --xstats list (at most %d names)\n",
				 PVP_STATS_MAX_XSTATS);
	}
	rc = pvp_stats_telemetry_register(st);
	if (rc != 0)
		rte_exit(EXIT_FAILURE, "cannot export telemetry: %s\n", strerror(-rc));
	printf("telemetry: %s/dpdk_telemetry.v2\n", rte_eal_get_runtime_dir());
	printf("forwarding net_null0 -> net_null1 for %u s\n", opts.duration_s);
	fflush(stdout);

	sn_forward(&opts, pvp_stats_rxq(st, 0, 0), pvp_stats_txq(st, 1, 0));

	for (p = 0; p < 2; p++)
		rte_eth_dev_stop(p);
	sn_print_final(st);
	pvp_stats_destroy(st);
	for (p = 0; p < 2; p++)
		rte_eth_dev_close(p);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return 0;
}
