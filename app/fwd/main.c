/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit-fwd: the loopback forwarder that runs inside the guest of a PVP
 * test, like testpmd there, with per-port/per-queue counters a remote
 * coordinator reads over the control channel.
 *
 * Shape: l2fwd's skeleton (EAL init, options, port init, launch on the
 * lcores, quit flag from SIGINT/SIGTERM, stop and close on the way out)
 * and testpmd's forwarding engines (one file per mode).
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <numa.h>

#include "pvp_ctl.h"
#include "pvp_stats.h"
#include "fwd.h"

RTE_LOG_REGISTER_DEFAULT(fwd_logtype, NOTICE);

/* clang-format off: one engine a line. */
const struct fwd_engine *const fwd_engines[] = {
	&fwd_io_engine, &fwd_macswap_engine, &fwd_mac_engine, &fwd_5tswap_engine, NULL,
};
/* clang-format on */

#define FWD_DEFAULT_CTL "unix:/run/pvpkit/fwd.sock"
#define FWD_MBUF_CACHE	256
/* Empty polls in a row before an lcore starts sleeping (--idle-sleep). */
#define FWD_IDLE_POLLS 1024
/* The main lcore, when it forwards too, looks at the clock this often. */
#define FWD_TICK_POLLS 4096

static struct fwd_conf conf = {
	.engine = &fwd_io_engine,
	.topology = FWD_TOPO_LOOP,
	.nb_rxq = 1,
	.nb_txq = 0,
	.nb_rxd = 1024,
	.nb_txd = 1024,
	.burst = 32,
	.tx_retry = 0,
	.tx_retry_delay_us = 1,
	.ctl = FWD_DEFAULT_CTL,
	.ctl_default = true,
};

static volatile bool fwd_quit;
static volatile bool fwd_running;
static struct fwd_app app;
static struct rte_mempool *port_pool[FWD_MAX_PORTS];
static bool port_started[FWD_MAX_PORTS];
/* Set once rte_eal_init() succeeded: fwd_die() must then clean up. */
static bool fwd_eal_up;

/* Setup failure: one line on stderr, exit code 2 (bad input, or the
 * machine cannot do what was asked). rte_exit() would print two lines. */
static void __rte_noreturn __attribute__((format(printf, 1, 2))) fwd_die(const char *fmt, ...)
{
	va_list ap;

	fputs("pvpkit-fwd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	/* Drivers hold malloc'd state (the pcap PMD's libpcap handles) that
	 * only the EAL's cleanup releases. */
	if (fwd_eal_up)
		rte_eal_cleanup();
	exit(FWD_EXIT_USAGE);
}

static void
fwd_usage(FILE *f, const char *prog)
{
	const struct fwd_engine *const *e;

	fprintf(f,
		"Usage: %s [EAL options] -- [options]\n"
		"  --mode MODE          forwarding mode (default io):\n",
		prog);
	for (e = fwd_engines; *e != NULL; e++)
		fprintf(f, "                         %-8s %s\n", (*e)->name, (*e)->help);
	fprintf(f,
		"  --topology T         loop (rx N -> tx N, default), paired (0<->1, 2<->3),\n"
		"                       chained (0->1->...->0)\n"
		"  --peer-mac MAC       mode mac: destination MAC for every port; also\n"
		"                       PORT=MAC (repeatable) or MAC0,MAC1,... by port index\n"
		"  --rxq N / --txq N    queues per port (txq default: one per forwarding lcore)\n"
		"  --rxd N / --txd N    descriptors per queue (default 1024)\n"
		"  --burst N            RX burst (default 32, at most %d)\n"
		"  --tx-retry N         retry a partly sent burst N times (default 0)\n"
		"  --tx-retry-delay US  wait between retries (default 1)\n"
		"  --seq-check          count per-stream sequence gaps of signed packets\n"
		"  --ctl ADDR|none      control socket (default %s),\n"
		"                       tcp:HOST:PORT needs --token-file beyond loopback\n"
		"  --token-file F       file holding the control token\n"
		"  --stats-period N     print one line per port every N seconds\n"
		"  --duration N         stop after N seconds (default: until SIGINT/SIGTERM)\n"
		"  --idle-sleep US      sleep US after %d empty polls in a row (default 0)\n"
		"  --wait-link N        before forwarding, wait up to N s for every link up\n"
		"  --help\n",
		FWD_MAX_BURST, FWD_DEFAULT_CTL, FWD_IDLE_POLLS);
}

static unsigned long
fwd_parse_uint(const char *opt, const char *s, unsigned long min, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v < min || v > max)
		fwd_die("--%s %s: expected an integer in %lu..%lu", opt, s, min, max);
	return v;
}

static void
fwd_parse_peer_mac(const char *arg)
{
	char buf[1024], *tok, *save = NULL;
	unsigned long idx;
	const char *eq;
	uint16_t n = 0;

	eq = strchr(arg, '=');
	if (eq != NULL) {
		char num[16];

		if ((size_t)(eq - arg) >= sizeof(num))
			fwd_die("--peer-mac %s: expected PORT=MAC", arg);
		memcpy(num, arg, eq - arg);
		num[eq - arg] = '\0';
		idx = fwd_parse_uint("peer-mac", num, 0, FWD_MAX_PORTS - 1);
		if (rte_ether_unformat_addr(eq + 1, &conf.peer[idx]) != 0)
			fwd_die("--peer-mac %s: bad MAC address", arg);
		conf.peer_set[idx] = true;
		return;
	}
	if (strchr(arg, ',') == NULL) {
		if (rte_ether_unformat_addr(arg, &conf.peer_all) != 0)
			fwd_die("--peer-mac %s: bad MAC address", arg);
		conf.peer_all_set = true;
		return;
	}
	if (strlen(arg) >= sizeof(buf))
		fwd_die("--peer-mac: list too long");
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		if (n >= FWD_MAX_PORTS)
			fwd_die("--peer-mac: more than %d addresses", FWD_MAX_PORTS);
		if (rte_ether_unformat_addr(tok, &conf.peer[n]) != 0)
			fwd_die("--peer-mac %s: bad MAC address", tok);
		conf.peer_set[n++] = true;
	}
}

enum {
	OPT_MODE = 256,
	OPT_TOPOLOGY,
	OPT_PEER_MAC,
	OPT_RXQ,
	OPT_TXQ,
	OPT_RXD,
	OPT_TXD,
	OPT_BURST,
	OPT_TX_RETRY,
	OPT_TX_RETRY_DELAY,
	OPT_SEQ_CHECK,
	OPT_CTL,
	OPT_TOKEN_FILE,
	OPT_STATS_PERIOD,
	OPT_DURATION,
	OPT_IDLE_SLEEP,
	OPT_WAIT_LINK,
	OPT_HELP,
};

static const struct option fwd_long_options[] = {
	{"mode", required_argument, NULL, OPT_MODE},
	{"topology", required_argument, NULL, OPT_TOPOLOGY},
	{"peer-mac", required_argument, NULL, OPT_PEER_MAC},
	{"rxq", required_argument, NULL, OPT_RXQ},
	{"txq", required_argument, NULL, OPT_TXQ},
	{"rxd", required_argument, NULL, OPT_RXD},
	{"txd", required_argument, NULL, OPT_TXD},
	{"burst", required_argument, NULL, OPT_BURST},
	{"tx-retry", required_argument, NULL, OPT_TX_RETRY},
	{"tx-retry-delay", required_argument, NULL, OPT_TX_RETRY_DELAY},
	{"seq-check", no_argument, NULL, OPT_SEQ_CHECK},
	{"ctl", required_argument, NULL, OPT_CTL},
	{"token-file", required_argument, NULL, OPT_TOKEN_FILE},
	{"stats-period", required_argument, NULL, OPT_STATS_PERIOD},
	{"duration", required_argument, NULL, OPT_DURATION},
	{"idle-sleep", required_argument, NULL, OPT_IDLE_SLEEP},
	{"wait-link", required_argument, NULL, OPT_WAIT_LINK},
	{"help", no_argument, NULL, OPT_HELP},
	{NULL, 0, NULL, 0},
};

/* Parse the options after "--". Runs before rte_eal_init() so that bad
 * options fail fast, without hugepages. */
static void
fwd_parse_args(int argc, char **argv, const char *prog)
{
	const struct fwd_engine *const *e;
	int opt;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "", fwd_long_options, NULL)) != -1) {
		switch (opt) {
		case OPT_MODE:
			for (e = fwd_engines; *e != NULL; e++)
				if (strcmp((*e)->name, optarg) == 0)
					break;
			if (*e == NULL)
				fwd_die("--mode %s: unknown mode (io, macswap, mac, 5tswap)",
					optarg);
			conf.engine = *e;
			break;
		case OPT_TOPOLOGY:
			if (strcmp(optarg, "loop") == 0)
				conf.topology = FWD_TOPO_LOOP;
			else if (strcmp(optarg, "paired") == 0)
				conf.topology = FWD_TOPO_PAIRED;
			else if (strcmp(optarg, "chained") == 0)
				conf.topology = FWD_TOPO_CHAINED;
			else
				fwd_die("--topology %s: unknown topology (loop, paired, chained)",
					optarg);
			break;
		case OPT_PEER_MAC:
			fwd_parse_peer_mac(optarg);
			break;
		case OPT_RXQ:
			conf.nb_rxq = fwd_parse_uint("rxq", optarg, 1, FWD_MAX_QUEUES);
			break;
		case OPT_TXQ:
			conf.nb_txq = fwd_parse_uint("txq", optarg, 1, FWD_MAX_QUEUES);
			break;
		case OPT_RXD:
			conf.nb_rxd = fwd_parse_uint("rxd", optarg, 1, UINT16_MAX);
			break;
		case OPT_TXD:
			conf.nb_txd = fwd_parse_uint("txd", optarg, 1, UINT16_MAX);
			break;
		case OPT_BURST:
			conf.burst = fwd_parse_uint("burst", optarg, 1, FWD_MAX_BURST);
			break;
		case OPT_TX_RETRY:
			conf.tx_retry = fwd_parse_uint("tx-retry", optarg, 0, UINT32_MAX);
			break;
		case OPT_TX_RETRY_DELAY:
			conf.tx_retry_delay_us =
				fwd_parse_uint("tx-retry-delay", optarg, 0, 1000000);
			break;
		case OPT_SEQ_CHECK:
			conf.seq_check = true;
			break;
		case OPT_CTL:
			conf.ctl = strcmp(optarg, "none") == 0 ? NULL : optarg;
			conf.ctl_default = false;
			break;
		case OPT_TOKEN_FILE:
			conf.token_file = optarg;
			break;
		case OPT_STATS_PERIOD:
			conf.stats_period = fwd_parse_uint("stats-period", optarg, 0, 86400);
			break;
		case OPT_DURATION:
			conf.duration = fwd_parse_uint("duration", optarg, 0, UINT_MAX);
			break;
		case OPT_IDLE_SLEEP:
			conf.idle_sleep_us = fwd_parse_uint("idle-sleep", optarg, 0, 1000000);
			break;
		case OPT_WAIT_LINK:
			conf.wait_link = fwd_parse_uint("wait-link", optarg, 0, 3600);
			break;
		case OPT_HELP:
			fwd_usage(stdout, prog);
			exit(0);
		default:
			if (optopt != 0 && optopt < 256)
				fwd_die("-%c: unknown option (try --help)", optopt);
			fwd_die("%s: unknown option or missing value (try --help)",
				argv[optind - 1]);
		}
	}
	if (optind < argc)
		fwd_die("%s: unexpected argument (try --help)", argv[optind]);
	if (conf.engine == &fwd_mac_engine && !conf.peer_all_set) {
		unsigned int i;

		for (i = 0; i < FWD_MAX_PORTS; i++)
			if (conf.peer_set[i])
				break;
		if (i == FWD_MAX_PORTS)
			fwd_die("--mode mac needs --peer-mac");
	}
	/* The next getopt user (the EAL) starts from scratch. */
	optind = 1;
	opterr = 1;
}

static void
fwd_signal(int sig)
{
	(void)sig;
	fwd_quit = true;
}

/* Stats index of the port that packets received on port index @p rx leave by. */
static uint16_t
fwd_tx_index(uint16_t rx, uint16_t nb_ports)
{
	switch (conf.topology) {
	case FWD_TOPO_PAIRED:
		return rx ^ 1;
	case FWD_TOPO_CHAINED:
		return (rx + 1) % nb_ports;
	case FWD_TOPO_LOOP:
	default:
		return rx;
	}
}

/*
 * Spread the (port, RX queue) pairs over the forwarding lcores, round
 * robin, so each pair is polled by exactly one lcore. Every lcore that
 * gets a stream owns TX queue number "rank" on every port.
 */
static void
fwd_assign_streams(void)
{
	unsigned int fl[RTE_MAX_LCORE], nb_fl = 0, lcore, k, total;
	uint16_t p, q;

	RTE_LCORE_FOREACH_WORKER(lcore)
	{
		fl[nb_fl++] = lcore;
	}
	/* With a single lcore, the main lcore forwards (and keeps time). */
	if (nb_fl == 0)
		fl[nb_fl++] = rte_get_main_lcore();

	total = (unsigned int)app.nb_ports * conf.nb_rxq;
	app.nb_lcores = RTE_MIN(nb_fl, total);
	if (conf.nb_txq == 0)
		conf.nb_txq = app.nb_lcores;
	if (conf.nb_txq > FWD_MAX_QUEUES)
		fwd_die("%u forwarding lcores need %u TX queues per port, at most %d are supported",
			app.nb_lcores, app.nb_lcores, FWD_MAX_QUEUES);
	if (conf.nb_txq < app.nb_lcores)
		fwd_die("--txq %u: the %u forwarding lcores need one TX queue each per port",
			conf.nb_txq, app.nb_lcores);
	app.nb_txq = conf.nb_txq;

	for (k = 0; k < app.nb_lcores; k++) {
		struct fwd_lcore *lc;

		lc = rte_zmalloc_socket("fwd_lcore", sizeof(*lc), RTE_CACHE_LINE_SIZE,
					rte_lcore_to_socket_id(fl[k]));
		if (lc == NULL)
			lc = rte_zmalloc("fwd_lcore", sizeof(*lc), RTE_CACHE_LINE_SIZE);
		if (lc == NULL)
			fwd_die("cannot allocate lcore state: out of hugepage memory");
		lc->lcore_id = fl[k];
		lc->rank = k;
		if (conf.seq_check) {
			lc->seq =
				rte_zmalloc_socket("fwd_seq", sizeof(*lc->seq), RTE_CACHE_LINE_SIZE,
						   rte_lcore_to_socket_id(fl[k]));
			if (lc->seq == NULL)
				fwd_die("cannot allocate --seq-check tables: out of hugepage "
					"memory");
			fwd_seq_table_init(lc->seq);
		}
		app.lcores[k] = lc;
	}

	k = 0;
	for (p = 0; p < app.nb_ports; p++) {
		for (q = 0; q < conf.nb_rxq; q++, k++) {
			struct fwd_lcore *lc = app.lcores[k % app.nb_lcores];
			struct fwd_stream *fs = &lc->streams[lc->nb_streams++];
			uint16_t tx = fwd_tx_index(p, app.nb_ports);

			fs->rx_idx = p;
			fs->tx_idx = tx;
			fs->rx_port = app.port_ids[p];
			fs->rx_queue = q;
			fs->tx_port = app.port_ids[tx];
			fs->tx_queue = lc->rank;
			fs->burst = conf.burst;
			fs->tx_retry = conf.tx_retry;
			fs->tx_retry_delay_us = conf.tx_retry_delay_us;
			fs->seq = lc->seq;
		}
	}
}

/* The socket whose memory port @p idx should use: the port's own, else
 * the socket of the first lcore polling it (vdevs report none). */
static int
fwd_port_socket(uint16_t idx)
{
	int socket = rte_eth_dev_socket_id(app.port_ids[idx]);
	uint16_t k, s;

	if (socket >= 0)
		return socket;
	for (k = 0; k < app.nb_lcores; k++)
		for (s = 0; s < app.lcores[k]->nb_streams; s++)
			if (app.lcores[k]->streams[s].rx_idx == idx)
				return rte_lcore_to_socket_id(app.lcores[k]->lcore_id);
	return rte_socket_id();
}

static void
fwd_port_init(uint16_t idx)
{
	uint16_t pid = app.port_ids[idx];
	uint16_t nb_rxd = conf.nb_rxd, nb_txd = conf.nb_txd;
	char name[RTE_ETH_NAME_MAX_LEN] = "?";
	char pool_name[RTE_MEMPOOL_NAMESIZE];
	struct rte_eth_conf pconf;
	struct rte_eth_dev_info dinfo;
	struct rte_eth_txconf txconf;
	struct rte_eth_rxconf rxconf;
	unsigned int nb_mbufs;
	int socket, ret;
	uint16_t q;

	rte_eth_dev_get_name_by_port(pid, name);
	ret = rte_eth_dev_info_get(pid, &dinfo);
	if (ret != 0)
		fwd_die("port %u (%s): cannot get device info: %s", idx, name, strerror(-ret));
	if (conf.nb_rxq > dinfo.max_rx_queues)
		fwd_die("port %u (%s): --rxq %u asked, the port can do at most %u RX queues", idx,
			name, conf.nb_rxq, dinfo.max_rx_queues);
	if (app.nb_txq > dinfo.max_tx_queues)
		fwd_die("port %u (%s): %u TX queues needed (--txq or one per forwarding lcore), "
			"the port can do at most %u",
			idx, name, app.nb_txq, dinfo.max_tx_queues);

	memset(&pconf, 0, sizeof(pconf));
	if (conf.nb_rxq > 1) {
		uint64_t hf = (RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP) &
			      dinfo.flow_type_rss_offloads;

		/* Ports without RSS (most vdevs) still take several queues. */
		if (hf != 0) {
			pconf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
			pconf.rx_adv_conf.rss_conf.rss_hf = hf;
		}
	}
	/* Every TX queue gets mbufs of one pool with refcnt 1: fast free is safe. */
	if (dinfo.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)
		pconf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	ret = rte_eth_dev_configure(pid, conf.nb_rxq, app.nb_txq, &pconf);
	if (ret != 0)
		fwd_die("port %u (%s): cannot configure %u RX / %u TX queues: %s", idx, name,
			conf.nb_rxq, app.nb_txq, strerror(-ret));
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(pid, &nb_rxd, &nb_txd);
	if (ret != 0)
		fwd_die("port %u (%s): --rxd %u/--txd %u not possible: %s", idx, name, conf.nb_rxd,
			conf.nb_txd, strerror(-ret));

	socket = fwd_port_socket(idx);
	/* The RX ring, the peer's TX ring, one burst and one cache per lcore. */
	nb_mbufs = conf.nb_rxq * nb_rxd + app.nb_txq * RTE_MAX(nb_txd, conf.nb_txd) +
		   app.nb_lcores * (conf.burst + FWD_MBUF_CACHE) + 2048;
	nb_mbufs = rte_align32pow2(nb_mbufs) - 1;
	snprintf(pool_name, sizeof(pool_name), "fwd_pool_%u", idx);
	port_pool[idx] = rte_pktmbuf_pool_create(pool_name, nb_mbufs, FWD_MBUF_CACHE, 0,
						 RTE_MBUF_DEFAULT_BUF_SIZE, socket);
	if (port_pool[idx] == NULL && socket != SOCKET_ID_ANY) {
		FWD_LOG(WARNING, "port %u: no memory on socket %d, using any socket", idx, socket);
		port_pool[idx] = rte_pktmbuf_pool_create(pool_name, nb_mbufs, FWD_MBUF_CACHE, 0,
							 RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	}
	if (port_pool[idx] == NULL)
		fwd_die("port %u (%s): cannot create a pool of %u mbufs: %s (hugepages?)", idx,
			name, nb_mbufs, rte_strerror(rte_errno));

	rxconf = dinfo.default_rxconf;
	rxconf.offloads = pconf.rxmode.offloads;
	for (q = 0; q < conf.nb_rxq; q++) {
		ret = rte_eth_rx_queue_setup(pid, q, nb_rxd, socket, &rxconf, port_pool[idx]);
		if (ret != 0)
			fwd_die("port %u (%s): RX queue %u setup: %s", idx, name, q,
				strerror(-ret));
	}
	txconf = dinfo.default_txconf;
	txconf.offloads = pconf.txmode.offloads;
	for (q = 0; q < app.nb_txq; q++) {
		ret = rte_eth_tx_queue_setup(pid, q, nb_txd, socket, &txconf);
		if (ret != 0)
			fwd_die("port %u (%s): TX queue %u setup: %s", idx, name, q,
				strerror(-ret));
	}
	ret = rte_eth_dev_start(pid);
	if (ret != 0)
		fwd_die("port %u (%s): cannot start: %s", idx, name, strerror(-ret));
	port_started[idx] = true;
	/* A guest forwarder gets frames for MACs other than its own. */
	ret = rte_eth_promiscuous_enable(pid);
	if (ret != 0 && ret != -ENOTSUP)
		FWD_LOG(WARNING, "port %u (%s): promiscuous mode: %s", idx, name, strerror(-ret));

	if (pvp_stats_bind_ethdev(app.stats, idx, pid) != 0 ||
	    pvp_stats_set_port_name(app.stats, idx, name) != 0)
		fwd_die("port %u (%s): cannot bind counters", idx, name);
	if (socket >= 0 && numa_available() >= 0 && numa_num_configured_nodes() > 1)
		FWD_LOG(INFO, "port %u (%s): memory on NUMA node %d", idx, name, socket);
}

/* Mode mac: each stream writes its TX port's MAC and that port's peer. */
static void
fwd_set_stream_macs(void)
{
	uint16_t k, s;

	for (k = 0; k < app.nb_lcores; k++) {
		for (s = 0; s < app.lcores[k]->nb_streams; s++) {
			struct fwd_stream *fs = &app.lcores[k]->streams[s];

			rte_eth_macaddr_get(fs->tx_port, &fs->tx_src);
			if (conf.peer_set[fs->tx_idx])
				fs->tx_dst = conf.peer[fs->tx_idx];
			else if (conf.peer_all_set)
				fs->tx_dst = conf.peer_all;
			else
				fwd_die("--mode mac: no --peer-mac for port %u", fs->tx_idx);
		}
	}
}

static uint64_t tick_hz, tick_start, tick_next_print;
static struct pvp_stats_snap *snap_prev, *snap_now, *snap_diff;

static void
fwd_print_period(void)
{
	uint16_t p;

	if (pvp_stats_snapshot(app.stats, snap_now) != 0)
		return;
	if (pvp_stats_diff(snap_now, snap_prev, snap_diff) == 0) {
		for (p = 0; p < snap_now->nb_ports; p++) {
			const struct pvp_stats_port_snap *ps = &snap_now->port[p];
			struct pvp_stats_port_rates r;

			if (pvp_stats_rates(snap_diff, p, &r) != 0)
				memset(&r, 0, sizeof(r));
			printf("port %u %s: rx %.3f Mpps tx %.3f Mpps | rx_packets %" PRIu64
			       " tx_packets %" PRIu64 " rx_dropped %" PRIu64 " tx_dropped %" PRIu64
			       "\n",
			       p, ps->name, r.rx_pps / 1e6, r.tx_pps / 1e6,
			       ps->c[PVP_STATS_rx_packets], ps->c[PVP_STATS_tx_packets],
			       ps->c[PVP_STATS_rx_dropped], ps->c[PVP_STATS_tx_dropped]);
		}
		fflush(stdout);
	}
	RTE_SWAP(snap_prev, snap_now);
}

/* Periodic work of the main lcore: stats lines, --duration. */
static void
fwd_tick(void)
{
	uint64_t now = rte_get_timer_cycles();

	if (conf.duration != 0 && now - tick_start >= conf.duration * tick_hz)
		fwd_quit = true;
	if (conf.stats_period != 0 && now >= tick_next_print) {
		tick_next_print = now + conf.stats_period * tick_hz;
		fwd_print_period();
	}
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

	FWD_LOG(INFO, "lcore %u forwards %u streams", lc->lcore_id, n);
	while (!fwd_quit) {
		uint32_t got = 0;

		for (i = 0; i < n; i++)
			got += packet_fwd(&lc->streams[i]);
		if (lc->seq != NULL)
			fwd_seq_poll_clear(lc->seq);
		if (got != 0) {
			idle = 0;
		} else if (idle_us != 0 && ++idle >= FWD_IDLE_POLLS) {
			rte_delay_us_sleep(idle_us);
		}
		if (is_main && ++ticks >= FWD_TICK_POLLS) {
			ticks = 0;
			fwd_tick();
		}
	}
	return 0;
}

static void
fwd_print_totals(void)
{
	uint16_t p;
	int c;

	if (pvp_stats_snapshot(app.stats, snap_now) != 0)
		return;
	for (p = 0; p < snap_now->nb_ports; p++) {
		printf("total port %u %s:", p, snap_now->port[p].name);
		for (c = 0; c < PVP_STATS_NB_COUNTERS; c++)
			printf(" %s=%" PRIu64, pvp_stats_counter_names[c], snap_now->port[p].c[c]);
		printf("\n");
	}
	if (conf.seq_check) {
		uint64_t unsigned_rx, untracked;
		json_t *streams = fwd_seq_streams_json(&app, &unsigned_rx, &untracked);
		size_t i;
		json_t *s;

		json_array_foreach(streams, i, s)
			printf("total stream %" JSON_INTEGER_FORMAT
			       ": rx_packets=%" JSON_INTEGER_FORMAT " gaps=%" JSON_INTEGER_FORMAT
			       " dup=%" JSON_INTEGER_FORMAT " ooo=%" JSON_INTEGER_FORMAT "\n",
			       json_integer_value(json_object_get(s, "stream")),
			       json_integer_value(json_object_get(s, "rx_packets")),
			       json_integer_value(json_object_get(s, "gaps")),
			       json_integer_value(json_object_get(s, "dup")),
			       json_integer_value(json_object_get(s, "ooo")));
		printf("total unsigned_rx=%" PRIu64 " untracked_rx=%" PRIu64 "\n", unsigned_rx,
		       untracked);
		json_decref(streams);
	}
	fflush(stdout);
}

/*
 * --wait-link: a vhost or virtio-user port passes nothing until its peer
 * has connected; waiting here keeps the first packets from being dropped.
 */
static void
fwd_wait_link(void)
{
	unsigned int ms;
	uint16_t p, up = 0;

	for (ms = 0; ms < conf.wait_link * 1000 && !fwd_quit; ms += 10) {
		for (p = 0, up = 0; p < app.nb_ports; p++) {
			struct rte_eth_link link;

			if (rte_eth_link_get_nowait(app.port_ids[p], &link) == 0 &&
			    link.link_status == RTE_ETH_LINK_UP)
				up++;
		}
		if (up == app.nb_ports)
			return;
		usleep(10 * 1000);
	}
	FWD_LOG(WARNING, "%u of %u links up after %u s, forwarding anyway", up, app.nb_ports,
		conf.wait_link);
}

/* The default control socket lives in /run/pvpkit; make the directory. */
static void
fwd_ctl_mkdir(void)
{
	const char *path = conf.ctl;
	char dir[PATH_MAX];
	char *slash;

	if (strncmp(path, "unix:", 5) == 0)
		path += 5;
	else if (path[0] != '/')
		return;
	if (strlen(path) >= sizeof(dir))
		return;
	strcpy(dir, path);
	slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir)
		return;
	*slash = '\0';
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		FWD_LOG(DEBUG, "mkdir %s: %s", dir, strerror(errno));
}

int
main(int argc, char **argv)
{
	struct pvp_ctl_server *ctl = NULL;
	int eal_argc = argc, app_argc = 1, i, ret;
	char **app_argv;
	uint16_t pid, p, k;
	char msg[512];

	/* Options after "--" are ours; parse them before the EAL. */
	app_argv = calloc(argc + 1, sizeof(*app_argv));
	if (app_argv == NULL)
		fwd_die("out of memory");
	app_argv[0] = argv[0];
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			eal_argc = i;
			for (i = i + 1; i < argc; i++)
				app_argv[app_argc++] = argv[i];
			break;
		}
		if (strcmp(argv[i], "--help") == 0 && i == 1) {
			fwd_usage(stdout, argv[0]);
			return 0;
		}
	}
	fwd_parse_args(app_argc, app_argv, argv[0]);

	ret = rte_eal_init(eal_argc, argv);
	if (ret < 0)
		fwd_die("cannot initialise the EAL: %s (hugepages? see the EAL messages above)",
			rte_strerror(rte_errno));
	fwd_eal_up = true;

	signal(SIGINT, fwd_signal);
	signal(SIGTERM, fwd_signal);

	RTE_ETH_FOREACH_DEV(pid)
	{
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

	fwd_assign_streams();
	app.stats = pvp_stats_create("pvpkit-fwd", app.nb_ports, conf.nb_rxq, app.nb_txq);
	if (app.stats == NULL)
		fwd_die("cannot create counters: %s", strerror(errno));
	for (k = 0; k < app.nb_lcores; k++) {
		struct fwd_lcore *lc = app.lcores[k];

		for (i = 0; i < lc->nb_streams; i++) {
			struct fwd_stream *fs = &lc->streams[i];

			fs->rxs = pvp_stats_rxq(app.stats, fs->rx_idx, fs->rx_queue);
			fs->txs = pvp_stats_txq(app.stats, fs->tx_idx, fs->tx_queue);
			if (fs->rxs == NULL || fs->txs == NULL)
				fwd_die("cannot map queue counters");
		}
	}
	for (p = 0; p < app.nb_ports; p++)
		fwd_port_init(p);
	if (conf.engine == &fwd_mac_engine)
		fwd_set_stream_macs();

	snap_prev = calloc(1, sizeof(*snap_prev));
	snap_now = calloc(1, sizeof(*snap_now));
	snap_diff = calloc(1, sizeof(*snap_diff));
	if (snap_prev == NULL || snap_now == NULL || snap_diff == NULL)
		fwd_die("out of memory");

	ret = pvp_stats_telemetry_register(app.stats);
	if (ret != 0)
		FWD_LOG(WARNING, "telemetry export: %s", strerror(-ret));

	if (conf.ctl != NULL) {
		if (conf.ctl_default)
			fwd_ctl_mkdir();
		ctl = fwd_ctl_start(&app, msg, sizeof(msg));
		if (ctl == NULL && !conf.ctl_default)
			fwd_die("control channel: %s", msg);
		if (ctl == NULL)
			FWD_LOG(WARNING, "no control channel (%s): %s", conf.ctl, msg);
	}

	for (p = 0; p < app.nb_ports; p++) {
		char name[RTE_ETH_NAME_MAX_LEN] = "?";
		char mac[RTE_ETHER_ADDR_FMT_SIZE] = "?";
		struct rte_ether_addr ea;

		rte_eth_dev_get_name_by_port(app.port_ids[p], name);
		if (rte_eth_macaddr_get(app.port_ids[p], &ea) == 0)
			rte_ether_format_addr(mac, sizeof(mac), &ea);
		printf("port %u %s mac %s rxq %u txq %u -> port %u\n", p, name, mac, conf.nb_rxq,
		       app.nb_txq, fwd_tx_index(p, app.nb_ports));
	}
	printf("pvpkit-fwd: mode %s, topology %s, %u forwarding lcore(s), ctl %s%s\n",
	       conf.engine->name, fwd_topology_name(conf.topology), app.nb_lcores,
	       ctl != NULL ? pvp_ctl_server_address(ctl) : "none",
	       conf.seq_check ? ", seq-check" : "");
	fflush(stdout);

	if (conf.wait_link != 0)
		fwd_wait_link();

	tick_hz = rte_get_timer_hz();
	tick_start = rte_get_timer_cycles();
	tick_next_print = tick_start + conf.stats_period * tick_hz;
	pvp_stats_snapshot(app.stats, snap_prev);

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

	/* No control call may look at the lcores or the counters any more. */
	pvp_ctl_server_destroy(ctl);
	fwd_print_totals();

	for (p = 0; p < app.nb_ports; p++) {
		if (!port_started[p])
			continue;
		ret = rte_eth_dev_stop(app.port_ids[p]);
		if (ret != 0)
			FWD_LOG(WARNING, "port %u: stop: %s", p, strerror(-ret));
		rte_eth_dev_close(app.port_ids[p]);
	}
	for (p = 0; p < app.nb_ports; p++)
		rte_mempool_free(port_pool[p]);
	for (k = 0; k < app.nb_lcores; k++) {
		rte_free(app.lcores[k]->seq);
		rte_free(app.lcores[k]);
	}
	free(snap_prev);
	free(snap_now);
	free(snap_diff);
	free(app_argv);
	rte_eal_cleanup();
	/* Telemetry may still hold the counters until the EAL is gone. */
	pvp_stats_destroy(app.stats);
	return 0;
}
