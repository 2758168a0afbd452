/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Command-line options of pvpkit-gen (after the EAL's "--"). They are
 * parsed before rte_eal_init(), so --help and every bad value answer
 * without hugepages: one line on stderr and exit status 2.
 */

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_metrics.h"
#include "pvp_util.h"

#include "capture.h"
#include "gen.h"

/*
 * Every option: its enum value (from 256, after the short options), its
 * name and whether it takes a value. One list, so the two cannot drift.
 */
#define GEN_OPTIONS(X)                                                                             \
	X(SIZE, "size", required_argument)                                                         \
	X(FLOWS, "flows", required_argument)                                                       \
	X(RATE, "rate", required_argument)                                                         \
	X(DURATION, "duration", required_argument)                                                 \
	X(COUNT, "count", required_argument)                                                       \
	X(BURSTS, "bursts", required_argument)                                                     \
	X(IBG, "ibg", required_argument)                                                           \
	X(PROFILE, "profile", required_argument)                                                   \
	X(IMIX, "imix", no_argument)                                                               \
	X(IMIX_SIZES, "imix-sizes", required_argument)                                             \
	X(PCAP, "pcap", required_argument)                                                         \
	X(PCAP_AS_IS, "pcap-as-is", no_argument)                                                   \
	X(PORTS, "ports", required_argument)                                                       \
	X(TX_CORES, "tx-cores", required_argument)                                                 \
	X(RX_CORES, "rx-cores", required_argument)                                                 \
	X(SPEED, "speed", required_argument)                                                       \
	X(JSON, "json", required_argument)                                                         \
	X(SERVER, "server", no_argument)                                                           \
	X(CTL, "ctl", required_argument)                                                           \
	X(TOKEN_FILE, "token-file", required_argument)                                             \
	X(CTL_FILES_DIR, "ctl-files-dir", required_argument)                                       \
	X(IDLE_SLEEP, "idle-sleep", required_argument)                                             \
	X(STATS_PERIOD, "stats-period", required_argument)                                         \
	X(DRAIN_MS, "drain-ms", required_argument)                                                 \
	X(CATCHUP_US, "catchup-us", required_argument)                                             \
	X(TX_RETRY, "tx-retry", required_argument)                                                 \
	X(TX_FULL, "tx-full", required_argument)                                                   \
	X(QUIET, "quiet", no_argument)                                                             \
	X(NO_RX, "no-rx", no_argument)                                                             \
	X(TXD, "txd", required_argument)                                                           \
	X(RXD, "rxd", required_argument)                                                           \
	X(MTU, "mtu", required_argument)                                                           \
	X(POOL_SIZE, "pool-size", required_argument)                                               \
	X(SRC_MAC, "src-mac", required_argument)                                                   \
	X(DST_MAC, "dst-mac", required_argument)                                                   \
	X(TREX, "trex", optional_argument)                                                         \
	X(TREX_REMOTE, "trex-remote", no_argument)                                                 \
	X(ADDR, "addr", required_argument)                                                         \
	X(L3, "l3", no_argument)                                                                   \
	X(RESOLVE_TRIES, "resolve-tries", required_argument)                                       \
	X(RESOLVE_WAIT, "resolve-wait", required_argument)                                         \
	X(METRICS, "metrics", required_argument)                                                   \
	X(CAPTURE, "capture", required_argument)                                                   \
	X(HELP, "help", no_argument)

enum {
	OPT_BASE = 255,
#define GEN_OPT_ENUM(id, name, has_arg) OPT_##id,
	GEN_OPTIONS(GEN_OPT_ENUM)
#undef GEN_OPT_ENUM
};

/* clang-format off: it reads the list's expansion as a call and indents the end. */
static const struct option gen_long_opts[] = {
#define GEN_OPT_LONG(id, name, has_arg) {name, has_arg, NULL, OPT_##id},
	GEN_OPTIONS(GEN_OPT_LONG)
#undef GEN_OPT_LONG
		{NULL, 0, NULL, 0},
};
/* clang-format on */

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

static void
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
	       "  --imix             TRex IMIX 64/594/1518 (60/590/1514 without FCS) at 28:16:4\n"
	       "  --imix-sizes L     custom IMIX, e.g. 64:7,570:4,1518:1 (size:weight)\n"
	       "  --profile FILE     JSON stream profile (see doc/gen.rst)\n"
	       "  --pcap FILE        frames of a pcap file as templates, looped\n"
	       "  --pcap-as-is       replay the pcap frames unchanged (no signature)\n"
	       "  --src-mac M, --dst-mac M   MACs of the shortcut stream\n"
	       "Addresses (ARP / IPv6 ND, doc/gen.rst):\n"
	       "  --addr P:KEY=V,... port P's addresses: ip=A, ip6=A6 (answered for),\n"
	       "                     gw=G, gw6=G6 (resolved with --l3), vlan=V|OUTER/INNER,\n"
	       "                     answer=LO-HI, answer6=LO-HI (answered for too),\n"
	       "                     announce=S (gratuitous ARP / unsolicited NA period)\n"
	       "  --l3               resolve each port's gateway at start and send to it\n"
	       "  --resolve-tries N  requests per gateway, 1..100 (default 5)\n"
	       "  --resolve-wait S   wait for an answer to each, 0.01..60 s (default 0.5)\n"
	       "Traffic:\n"
	       "  --rate R           per port: pps, 1.5Mpps, 5Gbps (L1), 5Gbps-l2, 10%%, max\n"
	       "                     (default max). A rate above the line rate is refused.\n"
	       "  --duration S       seconds to send, 0.001..86400, units ms s m h\n"
	       "                     (default: until --count or SIGINT)\n"
	       "  --count N          packets per port (split over its streams)\n"
	       "  --bursts K         multi-burst: K bursts of --count packets\n"
	       "  --ibg US           gap between bursts, microseconds\n"
	       "Ports and cores:\n"
	       "  --ports LIST       ethdev ids to use, e.g. 0,1 (default: all)\n"
	       "  --tx-cores N       TX lcores (= TX queues) per port (default 1)\n"
	       "  --rx-cores N       RX lcores (= RX queues per port, RSS) (default 1)\n"
	       "  --speed MBPS       link speed for ports that report none\n"
	       "  --txd N, --rxd N   descriptors per queue, 64..32768 (default 1024)\n"
	       "  --mtu N            ports' MTU (IP packet bytes: frame - 18), 68..9224;\n"
	       "                     default: as the port comes, raised to fit a --size\n"
	       "                     over 1518\n"
	       "  --pool-size N      mbufs per stream and TX lcore (default 8191)\n"
	       "  --no-rx            do not poll RX\n"
	       "  --idle-sleep US    sleep when idle / between bursts (shared CPUs)\n"
	       "  --catchup-us US    most backlog the pacer makes up after a stall (default 2000)\n"
	       "  --tx-retry N       extra tries when the TX queue is full, 0..1000000 (default "
	       "0)\n"
	       "  --tx-full MODE     what a full TX queue does to the rest of a burst:\n"
	       "                     retry (default: sent later, a generator limit) or\n"
	       "                     drop (given up, counted unsent and lost: for a TX\n"
	       "                     ring that is the peer's RX ring, virtio-user/memif)\n"
	       "Output and control:\n"
	       "  --json FILE        write the summary as JSON\n"
	       "  --stats-period N   print rates every N seconds, 0..3600\n"
	       "  --drain-ms N       wait for in-flight packets after TX stops (default 100)\n"
	       "  --quiet            no summary table\n"
	       "  --capture FILE[,filter=BPF][,count=N][,bytes=N][,port=P][,dir=rx|tx]\n"
	       "                     write the frames a BPF filter takes to a pcap file\n"
	       "                     (default: every port, both ways, bytes=64M)\n"
	       "  --server           stay up, controlled over JSON-RPC (--ctl)\n"
	       "  --ctl ADDR         control address (default unix:/run/pvpkit/gen.sock)\n"
	       "  --token-file F     token for a non-loopback --ctl address\n"
	       "  --ctl-files-dir D  profile.load reads files under D only (any client);\n"
	       "                     without it, only unix-socket clients name files\n"
	       "  --trex [ADDR]      serve TRex's stateless API to TRex clients instead\n"
	       "                     (doc/trex.rst): ADDR [HOST][:PORT[:PUB_PORT]], default\n"
	       "                     127.0.0.1:4501:4500\n"
	       "  --trex-remote      allow a non-loopback --trex HOST (no token)\n"
	       "  --metrics ADDR     serve Prometheus/OpenMetrics at http://ADDR/metrics:\n"
	       "                     PORT, HOST:PORT or [V6]:PORT (HOST 127.0.0.1 when\n"
	       "                     left out; doc/metrics.rst)\n",
	       prog);
}

static void
gen_parse_ports(const char *s, struct gen_opts *o)
{
	uint32_t v[GEN_MAX_PORTS];
	unsigned int n, i, k;
	char err[256];

	/* lib/util's list of numbers, as in every binary: base 10 always ("0x40" is refused). */
	if (pvp_parse_u32_list("--ports", s, 0, RTE_MAX_ETHPORTS - 1, v, GEN_MAX_PORTS, &n, err,
			       sizeof(err)) < 0)
		gen_die("%s", err);
	for (i = 0; i < n; i++) {
		/* A port is configured once: a second time fails as "busy". */
		for (k = 0; k < i; k++)
			if (v[k] == v[i])
				gen_die("--ports: port %u is given twice", v[i]);
		o->ports[i] = (uint16_t)v[i];
	}
	o->nb_ports = (uint16_t)n;
}

#define GEN_NUM(id, field, lo, hi) PVP_NUM_OPT(struct gen_opts, id, field, lo, hi)

/* clang-format off: one option a line. */
static const struct pvp_num_opt gen_num_opts[] = {
	GEN_NUM(OPT_SIZE, size, 64, 9216),
	GEN_NUM(OPT_FLOWS, flows, 1, 16777216),
	GEN_NUM(OPT_COUNT, count, 1, PVP_PKT_MAX_FLOWS),
	GEN_NUM(OPT_BURSTS, bursts, 1, UINT32_MAX),
	GEN_NUM(OPT_IBG, ibg_us, 0, 3600ULL * 1000000),
	GEN_NUM(OPT_TX_CORES, tx_cores, 1, GEN_MAX_TXQ),
	GEN_NUM(OPT_RX_CORES, rx_cores, 1, GEN_MAX_RX),
	GEN_NUM(OPT_SPEED, speed_mbps, 1, 1000000),
	GEN_NUM(OPT_IDLE_SLEEP, idle_sleep_us, 0, 1000000),
	GEN_NUM(OPT_STATS_PERIOD, stats_period, 0, 3600),
	GEN_NUM(OPT_DRAIN_MS, drain_ms, 0, 60000),
	GEN_NUM(OPT_CATCHUP_US, catchup_us, 0, 10000000),
	GEN_NUM(OPT_TX_RETRY, tx_retry, 0, 1000000),
	GEN_NUM(OPT_TXD, nb_txd, 64, 32768),
	GEN_NUM(OPT_RXD, nb_rxd, 64, 32768),
	GEN_NUM(OPT_MTU, mtu, 68, PVP_PKT_RAW_MAX_LEN - RTE_ETHER_HDR_LEN),
	GEN_NUM(OPT_POOL_SIZE, pool_size, 1023, 1u << 22),
	GEN_NUM(OPT_RESOLVE_TRIES, resolve_tries, 1, 100),
};
/* clang-format on */

/* The options stored as given: one without a value sets its bool, another keeps its string. */
static const struct {
	int id;
	size_t off;
} gen_plain_opts[] = {
	{OPT_PROFILE, offsetof(struct gen_opts, profile)},
	{OPT_PCAP, offsetof(struct gen_opts, pcap)},
	{OPT_JSON, offsetof(struct gen_opts, json)},
	{OPT_CAPTURE, offsetof(struct gen_opts, capture)},
	{OPT_CTL, offsetof(struct gen_opts, ctl)},
	{OPT_TOKEN_FILE, offsetof(struct gen_opts, token_file)},
	{OPT_CTL_FILES_DIR, offsetof(struct gen_opts, files_dir)},
	{OPT_SRC_MAC, offsetof(struct gen_opts, src_mac)},
	{OPT_DST_MAC, offsetof(struct gen_opts, dst_mac)},
	{OPT_IMIX, offsetof(struct gen_opts, imix)},
	{OPT_PCAP_AS_IS, offsetof(struct gen_opts, pcap_as_is)},
	{OPT_SERVER, offsetof(struct gen_opts, server)},
	{OPT_QUIET, offsetof(struct gen_opts, quiet)},
	{OPT_NO_RX, offsetof(struct gen_opts, no_rx)},
	{OPT_TREX_REMOTE, offsetof(struct gen_opts, trex_remote)},
	{OPT_L3, offsetof(struct gen_opts, l3)},
};

/* One option that is not a whole number. */
static void
gen_parse_opt(int c, const char *arg, struct gen_opts *o, char **argv)
{
	char host[64], err[256] = "";
	struct pvp_neigh_cfg nc;
	uint32_t n = 0;
	uint16_t port;
	size_t i;

	for (i = 0; i < RTE_DIM(gen_plain_opts); i++) {
		if (gen_plain_opts[i].id != c)
			continue;
		if (arg == NULL)
			*(bool *)((char *)o + gen_plain_opts[i].off) = true;
		else
			*(const char **)((char *)o + gen_plain_opts[i].off) = arg;
		return;
	}
	switch (c) {
	case OPT_RATE:
		if (pvp_rate_parse(arg, &o->rate, err, sizeof(err)) != 0)
			gen_die("--rate: %s", err);
		break;
	case OPT_DURATION:
		if (pvp_parse_duration("--duration", arg, GEN_MIN_DURATION_S, GEN_MAX_DURATION_S,
				       &o->duration_s, err, sizeof(err)) < 0)
			gen_die("%s", err);
		break;
	case OPT_IMIX_SIZES:
		/* 64:7,570:4,1518:1 (lib/pkt's grammar). */
		o->imix = true;
		if (pvp_imix_parse("--imix-sizes", arg, o->imix_list, &n, err, sizeof(err)) != 0)
			gen_die("%s", err);
		o->n_imix = (uint8_t)n;
		break;
	case OPT_PORTS:
		gen_parse_ports(arg, o);
		break;
	case OPT_TX_FULL:
		if (strcmp(arg, "drop") == 0)
			o->tx_full_drop = true;
		else if (strcmp(arg, "retry") == 0)
			o->tx_full_drop = false;
		else
			gen_die("--tx-full: '%s' is not retry or drop", arg);
		break;
	case OPT_TREX:
		/* "--trex ADDR" as well as "--trex=ADDR". */
		if (arg == NULL && argv[optind] != NULL && argv[optind][0] != '-')
			arg = argv[optind++];
		o->trex = arg != NULL ? arg : "";
		break;
	case OPT_ADDR:
		/* P:KEY=VALUE,... (lib/neigh's grammar). */
		memset(&nc, 0, sizeof(nc));
		if (pvp_neigh_parse_port("--addr", arg, GEN_MAX_PORTS - 1, &n, &nc, err,
					 sizeof(err)) != 0)
			gen_die("%s", err);
		if (o->addr_set[n])
			gen_die("--addr: port %u is given twice", n);
		o->addr[n] = nc;
		o->addr_set[n] = true;
		break;
	case OPT_RESOLVE_WAIT:
		if (pvp_parse_duration("--resolve-wait", arg, 0.01, 60, &o->resolve_wait_s, err,
				       sizeof(err)) < 0)
			gen_die("%s", err);
		break;
	case OPT_METRICS:
		/* Refused here, before the EAL, like every other bad option. */
		if (pvp_metrics_addr_parse(arg, host, sizeof(host), &port, err, sizeof(err)) != 0)
			gen_die("%s", err);
		o->metrics = arg;
		break;
	case OPT_HELP:
		gen_usage(argv[0]);
		exit(0);
	default:
		/* What getopt_long() returned '?' for. */
		pvp_opt_error(gen_long_opts, optopt, argv[optind - 1], err, sizeof(err));
		gen_die("%s (see --help)", err);
	}
}

/* --addr and --l3: what they need. */
static void
gen_args_check_addr(const struct gen_opts *o)
{
	bool any = false, gw = false;
	unsigned int p;

	for (p = 0; p < GEN_MAX_PORTS; p++) {
		any |= o->addr_set[p];
		gw |= o->addr_set[p] && (o->addr[p].gw4 != 0 || o->addr[p].has_gw6);
	}
	if (any && o->no_rx)
		gen_die("--addr answers ARP/ND on the RX path: it excludes --no-rx");
	if (o->l3 && !gw)
		gen_die("--l3 needs a gateway: --addr P:ip=A,gw=G (or ip6=,gw6=)");
	if (o->l3 && o->dst_mac != NULL)
		gen_die("--l3 sends to the resolved gateways: it excludes --dst-mac");
	if (o->l3 && o->trex != NULL)
		gen_die("--l3 is for native runs; TRex clients resolve with set_l3_mode");
}

/* Options that only make sense together. */
static void
gen_args_check(struct gen_opts *o)
{
	if ((o->profile != NULL) + (o->pcap != NULL) + o->imix > 1)
		gen_die("--profile, --pcap and --imix exclude each other");
	if (o->pcap_as_is && o->pcap == NULL)
		gen_die("--pcap-as-is needs --pcap");
	if (o->bursts != 0 && o->count == 0)
		gen_die("--bursts needs --count (packets per burst)");
	/* What a stream's mode may send in all (lib/pkt): tx_asked fits. */
	if (o->bursts != 0 && o->count > PVP_PKT_MAX_FLOWS / o->bursts)
		gen_die("--bursts x --count is more than 2^48 packets");
	gen_args_check_addr(o);
	if (o->trex_remote && o->trex == NULL)
		gen_die("--trex-remote needs --trex");
	if (o->trex != NULL) {
		char err[256] = "";

		if (o->server || o->ctl != NULL || o->token_file != NULL || o->files_dir != NULL)
			gen_die("--trex excludes --server, --ctl, --token-file and "
				"--ctl-files-dir");
		if (gen_trex_check_opt(o->trex, o->trex_remote, err, sizeof(err)) != 0)
			gen_die("%s", err);
		/* Streams and runs come from the TRex clients: stay up like --server. */
		o->server = true;
	}
	if (o->token_file != NULL && !o->server)
		gen_die("--token-file needs --server");
	if (o->ctl != NULL && !o->server)
		gen_die("--ctl needs --server");
	if (o->files_dir != NULL && !o->server)
		gen_die("--ctl-files-dir needs --server");
	/* A jumbo --size needs a port MTU to match; profiles say --mtu. */
	if (o->mtu == 0 && o->profile == NULL && o->pcap == NULL && !o->imix &&
	    o->size > RTE_ETHER_MAX_LEN)
		o->mtu = (uint16_t)(o->size - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN);
}

int
gen_args_parse(int argc, char **argv, struct gen_opts *o)
{
	char err[512] = "", **av;
	int c, ret, ac, eal_argc;
	bool help;

	eal_argc = pvp_args_split(argc, argv, &ac, &av, &help);
	if (eal_argc < 0)
		gen_die("out of memory");
	if (help) {
		gen_usage(argv[0]);
		exit(0);
	}
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
	o->resolve_tries = 5;
	o->resolve_wait_s = 0.5;

	optind = 1;
	opterr = 0;
	while ((c = pvp_getopt(ac, av, gen_long_opts, NULL)) != -1) {
		/* A whole number is parsed, range checked and stored by its table. */
		ret = pvp_num_opt_parse(gen_num_opts, RTE_DIM(gen_num_opts), gen_long_opts, c,
					optarg, o, err, sizeof(err));
		if (ret < 0)
			gen_die("%s", err);
		if (ret == 0)
			gen_parse_opt(c, optarg, o, av);
	}
	if (optind < ac)
		gen_die("unexpected argument '%.40s' (see --help)", av[optind]);
	gen_args_check(o);
	if (o->json != NULL && pvp_path_check_writable(o->json, err, sizeof(err)) != 0)
		gen_die("--json %s", err);
	if (o->capture != NULL) {
		struct gen_cap_conf cc;
		char buf[1024];

		err[0] = '\0';
		if (gen_cap_parse(o->capture, &cc, buf, sizeof(buf), err, sizeof(err)) != 0)
			gen_die("%s", err);
	}
	/*
	 * Options keep pointers to argv's strings, not to this array: freed
	 * before the EAL, whose failure exits (the leak check would see it).
	 */
	free(av);
	/* The next getopt user (the EAL) starts from scratch. */
	optind = 1;
	opterr = 1;
	return eal_argc;
}
