/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Command-line options of pvpkit-gen (after the EAL's "--"). Every bad
 * value ends the program with one line on stderr and exit status 2.
 */

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "gen.h"

enum {
	OPT_SIZE = 256,
	OPT_FLOWS,
	OPT_RATE,
	OPT_DURATION,
	OPT_COUNT,
	OPT_BURSTS,
	OPT_IBG,
	OPT_PROFILE,
	OPT_IMIX,
	OPT_IMIX_SIZES,
	OPT_PCAP,
	OPT_PCAP_AS_IS,
	OPT_PORTS,
	OPT_TX_CORES,
	OPT_RX_CORES,
	OPT_SPEED,
	OPT_JSON,
	OPT_SERVER,
	OPT_CTL,
	OPT_TOKEN_FILE,
	OPT_IDLE_SLEEP,
	OPT_STATS_PERIOD,
	OPT_DRAIN_MS,
	OPT_CATCHUP_US,
	OPT_TX_RETRY,
	OPT_TX_FULL,
	OPT_QUIET,
	OPT_NO_RX,
	OPT_TXD,
	OPT_RXD,
	OPT_MTU,
	OPT_POOL_SIZE,
	OPT_SRC_MAC,
	OPT_DST_MAC,
	OPT_TREX,
	OPT_TREX_REMOTE,
	OPT_HELP,
};

static const struct option gen_long_opts[] = {
	{"size", required_argument, NULL, OPT_SIZE},
	{"flows", required_argument, NULL, OPT_FLOWS},
	{"rate", required_argument, NULL, OPT_RATE},
	{"duration", required_argument, NULL, OPT_DURATION},
	{"count", required_argument, NULL, OPT_COUNT},
	{"bursts", required_argument, NULL, OPT_BURSTS},
	{"ibg", required_argument, NULL, OPT_IBG},
	{"profile", required_argument, NULL, OPT_PROFILE},
	{"imix", no_argument, NULL, OPT_IMIX},
	{"imix-sizes", required_argument, NULL, OPT_IMIX_SIZES},
	{"pcap", required_argument, NULL, OPT_PCAP},
	{"pcap-as-is", no_argument, NULL, OPT_PCAP_AS_IS},
	{"ports", required_argument, NULL, OPT_PORTS},
	{"tx-cores", required_argument, NULL, OPT_TX_CORES},
	{"rx-cores", required_argument, NULL, OPT_RX_CORES},
	{"speed", required_argument, NULL, OPT_SPEED},
	{"json", required_argument, NULL, OPT_JSON},
	{"server", no_argument, NULL, OPT_SERVER},
	{"ctl", required_argument, NULL, OPT_CTL},
	{"token-file", required_argument, NULL, OPT_TOKEN_FILE},
	{"idle-sleep", required_argument, NULL, OPT_IDLE_SLEEP},
	{"stats-period", required_argument, NULL, OPT_STATS_PERIOD},
	{"drain-ms", required_argument, NULL, OPT_DRAIN_MS},
	{"catchup-us", required_argument, NULL, OPT_CATCHUP_US},
	{"tx-retry", required_argument, NULL, OPT_TX_RETRY},
	{"tx-full", required_argument, NULL, OPT_TX_FULL},
	{"quiet", no_argument, NULL, OPT_QUIET},
	{"no-rx", no_argument, NULL, OPT_NO_RX},
	{"txd", required_argument, NULL, OPT_TXD},
	{"rxd", required_argument, NULL, OPT_RXD},
	{"mtu", required_argument, NULL, OPT_MTU},
	{"pool-size", required_argument, NULL, OPT_POOL_SIZE},
	{"src-mac", required_argument, NULL, OPT_SRC_MAC},
	{"dst-mac", required_argument, NULL, OPT_DST_MAC},
	{"trex", optional_argument, NULL, OPT_TREX},
	{"trex-remote", no_argument, NULL, OPT_TREX_REMOTE},
	{"help", no_argument, NULL, OPT_HELP},
	{NULL, 0, NULL, 0},
};

void
gen_die(const char *fmt, ...)
{
	va_list ap;

	fputs("pvpkit-gen: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(GEN_EXIT_USAGE);
}

void
gen_usage(const char *prog)
{
	printf("Usage: %s [EAL options] -- [options]\n"
	       "\n"
	       "Frame sizes INCLUDE the 4 B FCS (64..1518, jumbo up to 9216): a 64 B\n"
	       "frame is 60 B in an mbuf or a pcap file. Rates are per port.\n"
	       "\n"
	       "Streams:\n"
	       "  --size N           frame size, FCS included (default 64)\n"
	       "  --flows N          flows of the shortcut stream, varied on source\n"
	       "                     IPv4 address then source UDP port (default 1)\n"
	       "  --imix             TRex IMIX 64/594/1518 (60/590/1514 without FCS) at 28:20:4\n"
	       "  --imix-sizes L     custom IMIX, e.g. 64:7,570:4,1518:1 (size:weight)\n"
	       "  --profile FILE     JSON stream profile (see doc/gen.rst)\n"
	       "  --pcap FILE        frames of a pcap file as templates, looped\n"
	       "  --pcap-as-is       replay the pcap frames unchanged (no signature)\n"
	       "  --src-mac M, --dst-mac M   MACs of the shortcut stream\n"
	       "Traffic:\n"
	       "  --rate R           per port: pps, 1.5Mpps, 5Gbps (L1), 5Gbps-l2, 10%%, max\n"
	       "                     (default max). A rate above the line rate is refused.\n"
	       "  --duration S       seconds to send (default: until --count or SIGINT)\n"
	       "  --count N          packets per port (split over its streams)\n"
	       "  --bursts K         multi-burst: K bursts of --count packets\n"
	       "  --ibg US           gap between bursts, microseconds\n"
	       "Ports and cores:\n"
	       "  --ports LIST       ethdev ids to use, e.g. 0,1 (default: all)\n"
	       "  --tx-cores N       TX lcores (= TX queues) per port (default 1)\n"
	       "  --rx-cores N       RX lcores (= RX queues per port, RSS) (default 1)\n"
	       "  --speed MBPS       link speed for ports that report none\n"
	       "  --txd N, --rxd N   descriptors per queue (default 1024)\n"
	       "  --mtu N            ports' MTU (IP packet bytes: frame - 18); default: as\n"
	       "                     the port comes, raised to fit a --size over 1518\n"
	       "  --pool-size N      mbufs per stream and TX lcore (default 8191)\n"
	       "  --no-rx            do not poll RX\n"
	       "  --idle-sleep US    sleep when idle / between bursts (shared CPUs)\n"
	       "  --catchup-us US    most backlog the pacer makes up after a stall (default 2000)\n"
	       "  --tx-retry N       extra tries when the TX queue is full (default 0)\n"
	       "  --tx-full MODE     what a full TX queue does to the rest of a burst:\n"
	       "                     retry (default: sent later, a generator limit) or\n"
	       "                     drop (given up, counted unsent and lost: for a TX\n"
	       "                     ring that is the peer's RX ring, virtio-user/memif)\n"
	       "Output and control:\n"
	       "  --json FILE        write the summary as JSON\n"
	       "  --stats-period N   print rates every N seconds\n"
	       "  --drain-ms N       wait for in-flight packets after TX stops (default 100)\n"
	       "  --quiet            no summary table\n"
	       "  --server           stay up, controlled over JSON-RPC (--ctl)\n"
	       "  --ctl ADDR         control address (default unix:/run/pvpkit/gen.sock)\n"
	       "  --token-file F     token for a non-loopback --ctl address\n"
	       "  --trex [ADDR]      serve TRex's stateless API to TRex clients instead\n"
	       "                     (doc/trex.rst): ADDR [HOST][:PORT[:PUB_PORT]], default\n"
	       "                     127.0.0.1:4501:4500\n"
	       "  --trex-remote      allow a non-loopback --trex HOST (no token)\n",
	       prog);
}

static uint64_t
gen_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || s[0] == '-')
		gen_die("--%s: '%s' is not a number", opt, s);
	if (v < min || v > max)
		gen_die("--%s: %llu is out of range %" PRIu64 "..%" PRIu64, opt, v, min, max);
	return v;
}

static double
gen_parse_double(const char *opt, const char *s, double min, double max)
{
	double v;
	char *end;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0')
		gen_die("--%s: '%s' is not a number", opt, s);
	if (!(v >= min && v <= max))
		gen_die("--%s: %s is out of range %g..%g", opt, s, min, max);
	return v;
}

static void
gen_parse_ports(const char *s, struct gen_opts *o)
{
	char buf[256];
	char *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf))
		gen_die("--ports: list too long");
	strcpy(buf, s);
	o->nb_ports = 0;
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		if (o->nb_ports == GEN_MAX_PORTS)
			gen_die("--ports: at most %d ports", GEN_MAX_PORTS);
		o->ports[o->nb_ports++] =
			(uint16_t)gen_parse_u64("ports", tok, 0, RTE_MAX_ETHPORTS - 1);
	}
	if (o->nb_ports == 0)
		gen_die("--ports: empty list");
}

int
gen_args_parse(int argc, char **argv, struct gen_opts *o)
{
	char err[256];
	int c;

	memset(o, 0, sizeof(*o));
	o->size = 64;
	o->flows = 1;
	o->rate.unit = PVP_RATE_MAX;
	o->tx_cores = 1;
	o->rx_cores = 1;
	o->drain_ms = 100;
	o->catchup_us = 2000;
	o->nb_txd = 1024;
	o->nb_rxd = 1024;
	o->pool_size = 8191;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", gen_long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_SIZE:
			o->size = (uint16_t)gen_parse_u64("size", optarg, 64, 9216);
			break;
		case OPT_FLOWS:
			o->flows = (uint32_t)gen_parse_u64("flows", optarg, 1, 16777216);
			break;
		case OPT_RATE:
			if (pvp_rate_parse(optarg, &o->rate, err, sizeof(err)) != 0)
				gen_die("--rate: %s", err);
			o->rate_set = true;
			break;
		case OPT_DURATION:
			o->duration_s = gen_parse_double("duration", optarg, 0.001, 86400.0 * 365);
			break;
		case OPT_COUNT:
			o->count = gen_parse_u64("count", optarg, 1, UINT64_MAX / 2);
			break;
		case OPT_BURSTS:
			o->bursts = (uint32_t)gen_parse_u64("bursts", optarg, 1, UINT32_MAX);
			break;
		case OPT_IBG:
			o->ibg_us = gen_parse_u64("ibg", optarg, 0, 3600ULL * 1000000);
			break;
		case OPT_PROFILE:
			o->profile = optarg;
			break;
		case OPT_IMIX:
			o->imix = true;
			break;
		case OPT_IMIX_SIZES:
			o->imix = true;
			o->imix_list = optarg;
			break;
		case OPT_PCAP:
			o->pcap = optarg;
			break;
		case OPT_PCAP_AS_IS:
			o->pcap_as_is = true;
			break;
		case OPT_PORTS:
			gen_parse_ports(optarg, o);
			break;
		case OPT_TX_CORES:
			o->tx_cores = (uint16_t)gen_parse_u64("tx-cores", optarg, 1, GEN_MAX_TXQ);
			break;
		case OPT_RX_CORES:
			o->rx_cores = (uint16_t)gen_parse_u64("rx-cores", optarg, 1, GEN_MAX_RX);
			break;
		case OPT_SPEED:
			o->speed_mbps = gen_parse_u64("speed", optarg, 1, 1000000);
			break;
		case OPT_JSON:
			o->json = optarg;
			break;
		case OPT_SERVER:
			o->server = true;
			break;
		case OPT_CTL:
			o->ctl = optarg;
			break;
		case OPT_TOKEN_FILE:
			o->token_file = optarg;
			break;
		case OPT_IDLE_SLEEP:
			o->idle_sleep_us =
				(uint32_t)gen_parse_u64("idle-sleep", optarg, 0, 1000000);
			break;
		case OPT_STATS_PERIOD:
			o->stats_period = (uint32_t)gen_parse_u64("stats-period", optarg, 0, 3600);
			break;
		case OPT_DRAIN_MS:
			o->drain_ms = (uint32_t)gen_parse_u64("drain-ms", optarg, 0, 60000);
			break;
		case OPT_CATCHUP_US:
			o->catchup_us = (uint32_t)gen_parse_u64("catchup-us", optarg, 0, 10000000);
			break;
		case OPT_TX_RETRY:
			o->tx_retry = (uint32_t)gen_parse_u64("tx-retry", optarg, 0, 1000000);
			break;
		case OPT_TX_FULL:
			if (strcmp(optarg, "drop") == 0)
				o->tx_full_drop = true;
			else if (strcmp(optarg, "retry") == 0)
				o->tx_full_drop = false;
			else
				gen_die("--tx-full: '%s' is not retry or drop", optarg);
			break;
		case OPT_QUIET:
			o->quiet = true;
			break;
		case OPT_NO_RX:
			o->no_rx = true;
			break;
		case OPT_TXD:
			o->nb_txd = (uint32_t)gen_parse_u64("txd", optarg, 64, 32768);
			break;
		case OPT_MTU:
			o->mtu = (uint16_t)gen_parse_u64("mtu", optarg, 68, 9216 - 18);
			break;
		case OPT_RXD:
			o->nb_rxd = (uint32_t)gen_parse_u64("rxd", optarg, 64, 32768);
			break;
		case OPT_POOL_SIZE:
			o->pool_size = (uint32_t)gen_parse_u64("pool-size", optarg, 1023, 1u << 22);
			break;
		case OPT_SRC_MAC:
			snprintf(o->src_mac, sizeof(o->src_mac), "%s", optarg);
			break;
		case OPT_DST_MAC:
			snprintf(o->dst_mac, sizeof(o->dst_mac), "%s", optarg);
			break;
		case OPT_TREX:
			/* "--trex ADDR" as well as "--trex=ADDR". */
			if (optarg == NULL && optind < argc && argv[optind][0] != '-')
				optarg = argv[optind++];
			o->trex = optarg != NULL ? optarg : "";
			break;
		case OPT_TREX_REMOTE:
			o->trex_remote = true;
			break;
		case OPT_HELP:
			gen_usage(argv[0]);
			exit(0);
		case '?':
		default:
			if (optopt != 0)
				gen_die("option --%s needs a value or is unknown",
					optopt >= OPT_SIZE && optopt <= OPT_HELP
						? gen_long_opts[optopt - OPT_SIZE].name
						: "?");
			gen_die("unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		gen_die("unexpected argument '%s' (see --help)", argv[optind]);
	if ((o->profile != NULL) + (o->pcap != NULL) + o->imix > 1)
		gen_die("--profile, --pcap and --imix exclude each other");
	if (o->pcap_as_is && o->pcap == NULL)
		gen_die("--pcap-as-is needs --pcap");
	if (o->bursts != 0 && o->count == 0)
		gen_die("--bursts needs --count (packets per burst)");
	if (o->trex_remote && o->trex == NULL)
		gen_die("--trex-remote needs --trex");
	if (o->trex != NULL) {
		if (o->server || o->ctl != NULL || o->token_file != NULL)
			gen_die("--trex excludes --server, --ctl and --token-file");
		if (gen_trex_check_opt(o->trex, o->trex_remote, err, sizeof(err)) != 0)
			gen_die("%s", err);
		/* Streams and runs come from the TRex clients: stay up like --server. */
		o->server = true;
	}
	if (o->token_file != NULL && !o->server)
		gen_die("--token-file needs --server");
	if (o->ctl != NULL && !o->server)
		gen_die("--ctl needs --server");
	/* A jumbo --size needs a port MTU to match; profiles say --mtu. */
	if (o->mtu == 0 && o->profile == NULL && o->pcap == NULL && !o->imix &&
	    o->size > RTE_ETHER_MAX_LEN)
		o->mtu = (uint16_t)(o->size - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN);
	return 0;
}
