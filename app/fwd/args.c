/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Command-line options of pvpkit-fwd (after the EAL's "--"). They are
 * parsed before rte_eal_init(), so --help and every bad option answer
 * without hugepages: one line on stderr and exit status 2.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>

#include "pvp_metrics.h"
#include "pvp_util.h"

#include "fwd.h"

/* clang-format off: one engine a line. */
const struct fwd_engine *const fwd_engines[] = {
	&fwd_io_engine,	    &fwd_macswap_engine, &fwd_mac_engine,
	&fwd_5tswap_engine, &fwd_impair_engine,	 NULL,
};
/* clang-format on */

const char *const fwd_topology_names[FWD_TOPO_CHAINED + 1] = {
	[FWD_TOPO_LOOP] = "loop",
	[FWD_TOPO_PAIRED] = "paired",
	[FWD_TOPO_CHAINED] = "chained",
};

/* Set once rte_eal_init() succeeded: fwd_die() must then clean up. */
bool fwd_eal_up;

void
fwd_die(const char *fmt, ...)
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

/* The --help text. */
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
		"  --addr P:KEY=V,...   port P answers ARP/ND for its guest addresses:\n"
		"                       ip=A, ip6=A6, vlan=V|OUTER/INNER, answer=LO-HI,\n"
		"                       answer6=LO-HI\n"
		"                       (lib/neigh's grammar; such frames are not forwarded)\n"
		"  --rxq N / --txq N    queues per port (txq default: one per forwarding lcore)\n"
		"  --rxd N / --txd N    descriptors per queue, 64..32768 (default 1024)\n"
		"  --burst N            RX burst (default 32, at most %d)\n"
		"  --tx-retry N         retry a partly sent burst N times, 0..1000000 (default 0)\n"
		"  --tx-retry-delay US  wait between retries (default 1)\n"
		"  --seq-check          count per-stream sequence gaps of signed packets\n"
		"  --stamp              write the receive time after each packet's signature\n"
		"                       (one-way latency per half of the path, doc/fwd.rst)\n"
		"  --ctl ADDR|none      control socket (default %s),\n"
		"                       tcp:HOST:PORT needs --token-file beyond loopback\n"
		"  --token-file F       file holding the control token\n"
		"  --stats-period N     print one line per port every N seconds, 0..3600\n"
		"  --duration S         stop after S seconds, 0.001..86400, units ms s m h\n"
		"                       (default: until SIGINT/SIGTERM)\n"
		"  --idle-sleep US      sleep US after %d empty polls in a row (default 0)\n"
		"  --wait-link N        before forwarding, wait up to N s for every link up\n"
		"  --json FILE          at the end, write the counters as JSON (as stats.get)\n"
		"  --metrics ADDR       serve Prometheus/OpenMetrics at http://ADDR/metrics:\n"
		"                       PORT, HOST:PORT or [V6]:PORT (HOST 127.0.0.1 when\n"
		"                       left out)\n"
		"  --impair K=V,...     impairments after any mode (repeatable; port=N for one\n"
		"                       RX port): delay_us, loss, ge_p, ge_r, ge_loss, dup,\n"
		"                       reorder (fractions or N%%), rate_pps, burst, seed\n"
		"  --impair-ring N      packets one stream can hold delayed, 64..4194304\n"
		"                       (default %d)\n"
		"  --help\n",
		FWD_MAX_BURST, FWD_DEFAULT_CTL, FWD_IDLE_POLLS, FWD_IMPAIR_RING_DEFAULT);
}

/* --peer-mac MAC (every port), PORT=MAC or MAC0,MAC1,... by port index. */
static void
fwd_parse_peer_mac(const char *arg, struct fwd_conf *conf)
{
	char buf[1024], e[256], *tok, *save = NULL;
	uint64_t idx = 0;
	const char *eq;
	uint16_t n = 0;

	eq = strchr(arg, '=');
	if (eq != NULL) {
		char num[16];

		if ((size_t)(eq - arg) >= sizeof(num))
			fwd_die("--peer-mac %s: expected PORT=MAC", arg);
		memcpy(num, arg, eq - arg);
		num[eq - arg] = '\0';
		/* lib/util's numbers, as in pvpkit-gen and pvpkit: base 10 always. */
		if (pvp_parse_u64("--peer-mac", num, 0, FWD_MAX_PORTS - 1, &idx, e, sizeof(e)) != 0)
			fwd_die("%s", e);
		if (rte_ether_unformat_addr(eq + 1, &conf->peer[idx]) != 0)
			fwd_die("--peer-mac %s: bad MAC address", arg);
		conf->peer_set[idx] = true;
		return;
	}
	if (strchr(arg, ',') == NULL) {
		if (rte_ether_unformat_addr(arg, &conf->peer_all) != 0)
			fwd_die("--peer-mac %s: bad MAC address", arg);
		conf->peer_all_set = true;
		return;
	}
	if (strlen(arg) >= sizeof(buf))
		fwd_die("--peer-mac: list too long");
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		if (n >= FWD_MAX_PORTS)
			fwd_die("--peer-mac: more than %d addresses", FWD_MAX_PORTS);
		if (rte_ether_unformat_addr(tok, &conf->peer[n]) != 0)
			fwd_die("--peer-mac %s: bad MAC address", tok);
		conf->peer_set[n++] = true;
	}
}

/* --addr P:KEY=VALUE,... (lib/neigh's grammar); the guest only answers. */
static void
fwd_parse_addr(const char *arg, struct fwd_conf *conf)
{
	struct pvp_neigh_cfg c;
	char err[256] = "";
	uint32_t idx;

	memset(&c, 0, sizeof(c));
	if (pvp_neigh_parse_port("--addr", arg, FWD_MAX_PORTS - 1, &idx, &c, err, sizeof(err)) != 0)
		fwd_die("%s", err);
	if (conf->addr_set[idx])
		fwd_die("--addr: port %u is given twice", idx);
	/* Resolving and announcing are the tester's jobs. */
	if (c.gw4 != 0 || c.has_gw6 || c.announce_ms != 0)
		fwd_die("--addr %u: pvpkit-fwd only answers (ip, ip6, vlan, answer, answer6)", idx);
	conf->addr[idx] = c;
	conf->addr_set[idx] = true;
}

/* --impair SPEC: the settings of the RX port it names, or of every port. */
static void
fwd_parse_impair(const char *arg, struct fwd_conf *conf)
{
	struct pvp_impair_conf c;
	char err[512] = "";
	unsigned int p;

	if (fwd_impair_parse(arg, &c, err, sizeof(err)) < 0)
		fwd_die("%s", err);
	for (p = 0; p < FWD_MAX_PORTS; p++)
		if (c.port < 0 || (unsigned int)c.port == p)
			conf->impair[p] = c;
	conf->impair_on = true;
}

/*
 * The long options, one a line: id, name, argument. Their ids start at
 * 256, above every short option.
 */
/* clang-format off */
#define FWD_OPTIONS(X)                                         \
	X(MODE, "mode", required_argument)                     \
	X(TOPOLOGY, "topology", required_argument)             \
	X(PEER_MAC, "peer-mac", required_argument)             \
	X(ADDR, "addr", required_argument)                     \
	X(RXQ, "rxq", required_argument)                       \
	X(TXQ, "txq", required_argument)                       \
	X(RXD, "rxd", required_argument)                       \
	X(TXD, "txd", required_argument)                       \
	X(BURST, "burst", required_argument)                   \
	X(TX_RETRY, "tx-retry", required_argument)             \
	X(TX_RETRY_DELAY, "tx-retry-delay", required_argument) \
	X(SEQ_CHECK, "seq-check", no_argument)                 \
	X(STAMP, "stamp", no_argument)                         \
	X(CTL, "ctl", required_argument)                       \
	X(TOKEN_FILE, "token-file", required_argument)         \
	X(STATS_PERIOD, "stats-period", required_argument)     \
	X(DURATION, "duration", required_argument)             \
	X(IDLE_SLEEP, "idle-sleep", required_argument)         \
	X(WAIT_LINK, "wait-link", required_argument)           \
	X(JSON, "json", required_argument)                     \
	X(METRICS, "metrics", required_argument)               \
	X(IMPAIR, "impair", required_argument)                 \
	X(IMPAIR_RING, "impair-ring", required_argument)       \
	X(HELP, "help", no_argument)

enum {
	OPT_BEFORE_FIRST = 255,
#define FWD_OPT_ID(id, name, arg) OPT_##id,
	FWD_OPTIONS(FWD_OPT_ID)
#undef FWD_OPT_ID
};

static const struct option fwd_long_options[] = {
#define FWD_OPT_LONG(id, name, arg) {name, arg, NULL, OPT_##id},
	FWD_OPTIONS(FWD_OPT_LONG)
#undef FWD_OPT_LONG
	{NULL, 0, NULL, 0},
};
/* clang-format on */

#define FWD_NUM(id, field, lo, hi) PVP_NUM_OPT(struct fwd_conf, id, field, lo, hi)

/* clang-format off: one option a line. */
static const struct pvp_num_opt fwd_num_opts[] = {
	FWD_NUM(OPT_RXQ, nb_rxq, 1, FWD_MAX_QUEUES),
	FWD_NUM(OPT_TXQ, nb_txq, 1, FWD_MAX_QUEUES),
	FWD_NUM(OPT_RXD, nb_rxd, 64, 32768),
	FWD_NUM(OPT_TXD, nb_txd, 64, 32768),
	FWD_NUM(OPT_BURST, burst, 1, FWD_MAX_BURST),
	FWD_NUM(OPT_TX_RETRY, tx_retry, 0, 1000000),
	FWD_NUM(OPT_TX_RETRY_DELAY, tx_retry_delay_us, 0, 1000000),
	FWD_NUM(OPT_STATS_PERIOD, stats_period, 0, 3600),
	FWD_NUM(OPT_IDLE_SLEEP, idle_sleep_us, 0, 1000000),
	FWD_NUM(OPT_WAIT_LINK, wait_link, 0, 3600),
	FWD_NUM(OPT_IMPAIR_RING, impair_ring, 64, 4194304),
};
/* clang-format on */

/* One option that is not a whole number. */
static void
fwd_parse_opt(int opt, const char *arg, struct fwd_conf *conf, char **argv, const char *prog)
{
	const struct fwd_engine *const *e;
	char host[64], err[256] = "";
	unsigned int t;
	uint16_t port;

	switch (opt) {
	case OPT_MODE:
		for (e = fwd_engines; *e != NULL; e++)
			if (strcmp((*e)->name, arg) == 0)
				break;
		if (*e == NULL)
			fwd_die("--mode %s: unknown mode (io, macswap, mac, 5tswap, impair)", arg);
		conf->engine = *e;
		break;
	case OPT_TOPOLOGY:
		for (t = 0; t < RTE_DIM(fwd_topology_names); t++)
			if (strcmp(arg, fwd_topology_names[t]) == 0)
				break;
		if (t == RTE_DIM(fwd_topology_names))
			fwd_die("--topology %s: unknown topology (loop, paired, chained)", arg);
		conf->topology = t;
		break;
	case OPT_PEER_MAC:
		fwd_parse_peer_mac(arg, conf);
		break;
	case OPT_ADDR:
		fwd_parse_addr(arg, conf);
		break;
	case OPT_SEQ_CHECK:
		conf->seq_check = true;
		break;
	case OPT_STAMP:
		conf->stamp = true;
		break;
	case OPT_DURATION:
		if (pvp_parse_duration("--duration", arg, 0.001, FWD_MAX_DURATION_S,
				       &conf->duration_s, err, sizeof(err)) < 0)
			fwd_die("%s", err);
		break;
	case OPT_CTL:
		conf->ctl = strcmp(arg, "none") == 0 ? NULL : arg;
		conf->ctl_default = false;
		break;
	case OPT_TOKEN_FILE:
		conf->token_file = arg;
		break;
	case OPT_JSON:
		conf->json = arg;
		break;
	case OPT_METRICS:
		/* Refused here, before the EAL, like every other bad option. */
		if (pvp_metrics_addr_parse(arg, host, sizeof(host), &port, err, sizeof(err)) != 0)
			fwd_die("%s", err);
		conf->metrics = arg;
		break;
	case OPT_IMPAIR:
		fwd_parse_impair(arg, conf);
		break;
	case OPT_HELP:
		fwd_usage(stdout, prog);
		exit(0);
	default:
		pvp_opt_error(fwd_long_options, optopt, argv[optind - 1], err, sizeof(err));
		fwd_die("%s (see --help)", err);
	}
}

int
fwd_args_parse(int argc, char **argv, struct fwd_conf *conf)
{
	int eal_argc, app_argc, opt, ret;
	char err[512] = "", **app_argv;
	unsigned int i;
	bool help;

	eal_argc = pvp_args_split(argc, argv, &app_argc, &app_argv, &help);
	if (eal_argc < 0)
		fwd_die("out of memory");
	if (help) {
		fwd_usage(stdout, argv[0]);
		exit(0);
	}

	*conf = (struct fwd_conf){
		.engine = &fwd_io_engine,
		.topology = FWD_TOPO_LOOP,
		.nb_rxq = 1,
		.nb_rxd = 1024,
		.nb_txd = 1024,
		.burst = 32,
		.tx_retry_delay_us = 1,
		.ctl = FWD_DEFAULT_CTL,
		.ctl_default = true,
		.impair_ring = FWD_IMPAIR_RING_DEFAULT,
	};
	/* Every direction starts with the stage's defaults: nothing impaired. */
	for (i = 0; i < FWD_MAX_PORTS; i++)
		if (pvp_schema_decode(pvp_impair_conf_members, NULL, NULL, &conf->impair[i], err,
				      sizeof(err)) < 0)
			fwd_die("%s", err);
	opterr = 0;
	optind = 1;
	while ((opt = pvp_getopt(app_argc, app_argv, fwd_long_options, NULL)) != -1) {
		/* A whole-number option is parsed, range checked and stored here. */
		ret = pvp_num_opt_parse(fwd_num_opts, RTE_DIM(fwd_num_opts), fwd_long_options, opt,
					optarg, conf, err, sizeof(err));
		if (ret < 0)
			fwd_die("%s", err);
		if (ret == 0)
			fwd_parse_opt(opt, optarg, conf, app_argv, argv[0]);
	}
	if (optind < app_argc)
		fwd_die("unexpected argument '%.40s' (see --help)", app_argv[optind]);
	if (conf->engine == &fwd_impair_engine)
		conf->impair_on = true;
	if (conf->engine == &fwd_mac_engine && !conf->peer_all_set) {
		for (i = 0; i < FWD_MAX_PORTS; i++)
			if (conf->peer_set[i])
				break;
		if (i == FWD_MAX_PORTS)
			fwd_die("--mode mac needs --peer-mac");
	}
	if (conf->json != NULL && pvp_path_check_writable(conf->json, err, sizeof(err)) != 0)
		fwd_die("--json %s", err);
	/* The next getopt user (the EAL) starts from scratch. */
	optind = 1;
	opterr = 1;
	/* Options keep pointers to argv's strings, not to this array: freed
	 * before the EAL, whose failure exits (the leak check would see it). */
	free(app_argv);
	return eal_argc;
}
