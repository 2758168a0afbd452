/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit-fwd private header: configuration, forwarding streams, the engine
 * table (one file per mode, testpmd's fwd_engine shape), the shared
 * RX/TX helpers that do all the counting in one place, and what the
 * files of the program (args.c, port.c, report.c, main.c, fwd_ctl.c)
 * give each other. --seq-check has its own header, fwd_seq.h.
 */

#ifndef FWD_H
#define FWD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ether.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#ifdef __SSSE3__
#include <tmmintrin.h>
#endif

#include <jansson.h>

#include "pvp_neigh.h"
#include "pvp_stats.h"
#include "pvp_util.h"
#include "fwd_seq.h"
#include "impair.h"

extern int fwd_logtype;
#define FWD_LOG(level, fmt, ...)                                                                   \
	rte_log(RTE_LOG_##level, fwd_logtype, "pvpkit-fwd: " fmt "\n", ##__VA_ARGS__)

#define FWD_MAX_PORTS  PVP_STATS_MAX_PORTS  /**< ports one process forwards */
#define FWD_MAX_QUEUES PVP_STATS_MAX_QUEUES /**< RX/TX queues per port */
#define FWD_MAX_BURST  512		    /**< largest --burst */
/** Most streams one lcore can poll: every queue of every port. */
#define FWD_MAX_LCORE_STREAMS (FWD_MAX_PORTS * FWD_MAX_QUEUES)

/** Exit code for bad input (options, ports, queues, EAL/hugepages). */
#define FWD_EXIT_USAGE 2
/** Longest --duration, seconds (pvpkit-gen's and pvpkit's too). */
#define FWD_MAX_DURATION_S 86400.0
/** Control socket when --ctl is not given. */
#define FWD_DEFAULT_CTL "unix:/run/pvpkit/fwd.sock"
/** Empty polls in a row before an lcore starts sleeping (--idle-sleep). */
#define FWD_IDLE_POLLS 1024

/** How RX ports map to TX ports. */
enum fwd_topology {
	FWD_TOPO_LOOP,	  /**< rx port N -> tx port N */
	FWD_TOPO_PAIRED,  /**< 0 <-> 1, 2 <-> 3, ... */
	FWD_TOPO_CHAINED, /**< 0 -> 1 -> ... -> N-1 -> 0 */
};

struct fwd_stream;

/**
 * One forwarding mode. packet_fwd() polls one stream once: receive a
 * burst with fwd_rx_burst(), rewrite it, send it with fwd_tx_burst().
 * It returns the number of packets received (0 lets the lcore idle).
 */
struct fwd_engine {
	const char *name;			       /**< --mode value */
	const char *help;			       /**< one line for --help */
	uint16_t (*packet_fwd)(struct fwd_stream *fs); /**< poll one stream */
};

extern const struct fwd_engine fwd_io_engine;
extern const struct fwd_engine fwd_macswap_engine;
extern const struct fwd_engine fwd_mac_engine;
extern const struct fwd_engine fwd_5tswap_engine;
extern const struct fwd_engine fwd_impair_engine;
/** Every engine, NULL terminated. */
extern const struct fwd_engine *const fwd_engines[];

/** Options after "--". */
struct fwd_conf {
	const struct fwd_engine *engine;	   /**< --mode */
	enum fwd_topology topology;		   /**< --topology */
	uint16_t nb_rxq;			   /**< --rxq */
	uint16_t nb_txq;			   /**< --txq, 0 = one per forwarding lcore */
	uint16_t nb_rxd;			   /**< --rxd */
	uint16_t nb_txd;			   /**< --txd */
	uint16_t burst;				   /**< --burst */
	uint32_t tx_retry;			   /**< --tx-retry: extra TX attempts */
	uint32_t tx_retry_delay_us;		   /**< --tx-retry-delay */
	bool seq_check;				   /**< --seq-check */
	bool stamp;				   /**< --stamp */
	const char *ctl;			   /**< --ctl address, NULL = none */
	bool ctl_default;			   /**< ctl is the default, not asked for */
	const char *token_file;			   /**< --token-file */
	const char *json;			   /**< --json FILE, NULL = none */
	const char *metrics;			   /**< --metrics ADDR, NULL = none */
	unsigned int stats_period;		   /**< --stats-period seconds, 0 = off */
	double duration_s;			   /**< --duration, 0 = until signalled */
	uint32_t idle_sleep_us;			   /**< --idle-sleep, 0 = busy poll */
	unsigned int wait_link;			   /**< --wait-link seconds, 0 = no wait */
	bool peer_all_set;			   /**< --peer-mac MAC given for all ports */
	struct rte_ether_addr peer_all;		   /**< that MAC */
	bool peer_set[FWD_MAX_PORTS];		   /**< --peer-mac for this port index */
	struct rte_ether_addr peer[FWD_MAX_PORTS]; /**< per port index */
	bool addr_set[FWD_MAX_PORTS];		   /**< --addr for this port index */
	struct pvp_neigh_cfg addr[FWD_MAX_PORTS];  /**< its addresses (MAC set at start) */
	bool impair_on;				   /**< --mode impair or an --impair */
	uint32_t impair_ring;			   /**< --impair-ring: packets held per stream */
	/** --impair settings by RX port index. */
	struct pvp_impair_conf impair[FWD_MAX_PORTS];
};

/** One (RX port, RX queue) -> (TX port, TX queue) flow of packets. */
struct fwd_stream {
	uint16_t rx_port;		   /**< ethdev port id polled */
	uint16_t rx_queue;		   /**< RX queue polled */
	uint16_t tx_port;		   /**< ethdev port id sent to */
	uint16_t tx_queue;		   /**< TX queue (owned by this lcore) */
	uint16_t burst;			   /**< RX burst size */
	uint16_t rx_idx;		   /**< stats index of the RX port */
	uint16_t tx_idx;		   /**< stats index of the TX port */
	bool stamp;			   /**< --stamp: write the guest stamp */
	uint32_t tx_retry;		   /**< extra TX attempts */
	uint32_t tx_retry_delay_us;	   /**< wait between attempts */
	struct pvp_stats_rxq *rxs;	   /**< counters of the RX queue */
	struct pvp_stats_txq *txs;	   /**< counters of this lcore's TX queue */
	struct fwd_seq_table *seq;	   /**< lcore's table with --seq-check, else NULL */
	struct fwd_impair *imp;		   /**< impairment stage, NULL: none (1st cache line) */
	struct rte_ether_addr tx_src;	   /**< mode mac: the TX port's MAC */
	struct rte_ether_addr tx_dst;	   /**< mode mac: the peer MAC of the TX port */
	const struct pvp_neigh_cfg *neigh; /**< --addr of the RX port: ARP/ND is
					    * answered, not forwarded; else NULL */
	uint64_t neigh_rx;		   /**< ARP/ND frames taken out of the bursts */
	struct pvp_neigh_stats nst;	   /**< what they were (lib/neigh) */
	uint64_t neigh_unsent;		   /**< replies the TX queue refused */
	struct pvp_stats_txq *neigh_txs;   /**< with neigh: counters of this lcore's
					    * TX queue on the RX port, where replies go */
} __rte_cache_aligned;

/** State of one forwarding lcore, allocated on its socket. */
struct fwd_lcore {
	unsigned int lcore_id;	   /**< EAL lcore id */
	uint16_t rank;		   /**< 0.. used forwarding lcores - 1 = TX queue */
	uint16_t nb_streams;	   /**< streams in streams[] */
	struct fwd_seq_table *seq; /**< with --seq-check, else NULL */
	bool impair;		   /**< its streams have impairment stages */
	struct fwd_stream streams[FWD_MAX_LCORE_STREAMS]; /**< polled in turn */
} __rte_cache_aligned;

/**
 * Take the ARP/ND frames out of burst @p pkts (@p n) of @p fs, answer
 * those for its addresses on the RX port (fwd_neigh.c) and free them.
 * @param bytes
 *   Less the bytes taken out.
 * @return the packets left, in order.
 */
uint16_t fwd_neigh_filter(struct fwd_stream *fs, struct rte_mbuf **pkts, uint16_t n,
			  uint64_t *bytes);

/**
 * --stamp: write the receive time (this burst's TSC) after the signature
 * of each packet of @p pkts that has room for it (pvp_sig_guest_stamp()).
 */
void fwd_stamp_burst(struct rte_mbuf **pkts, uint16_t n);

/**
 * Receive one burst on @p fs and publish the RX counters once; no
 * --seq-check (the engine calls fwd_seq_one() on every packet itself).
 *
 * @param bytes
 *   Set to the bytes received (the engines keep lengths, so it is also
 *   what fwd_tx_burst() will try to send).
 * @return packets received.
 */
static __rte_always_inline uint16_t
fwd_rx_burst_nocheck(struct fwd_stream *fs, struct rte_mbuf **pkts, uint64_t *bytes)
{
	uint16_t n = rte_eth_rx_burst(fs->rx_port, fs->rx_queue, pkts, fs->burst);
	uint64_t b = 0;
	unsigned int i;

	if (n == 0)
		return 0;
	/* Four at a time: the loop costs less than the additions. */
	for (i = 0; i + 4 <= n; i += 4)
		b += (uint64_t)pkts[i]->pkt_len + pkts[i + 1]->pkt_len + pkts[i + 2]->pkt_len +
		     pkts[i + 3]->pkt_len;
	for (; i < n; i++)
		b += pkts[i]->pkt_len;
	pvp_stats_rxq_add(fs->rxs, n, b);
	*bytes = b;
	/* One test per burst when off: what tools/bench/fwd_bench.sh measures. */
	if (unlikely(fs->stamp))
		fwd_stamp_burst(pkts, n);
	if (unlikely(fs->neigh != NULL))
		return fwd_neigh_filter(fs, pkts, n, bytes);
	return n;
}

/**
 * fwd_rx_burst_nocheck(), then the --seq-check pass over the burst, for
 * engines that do not account sequences in their own loop.
 */
static __rte_always_inline uint16_t
fwd_rx_burst(struct fwd_stream *fs, struct rte_mbuf **pkts, uint64_t *bytes)
{
	uint16_t n = fwd_rx_burst_nocheck(fs, pkts, bytes);

	if (n != 0 && fs->seq != NULL)
		fwd_seq_check(fs->seq, pkts, n);
	return n;
}

/**
 * Send @p n packets on @p fs, retrying up to tx_retry times like the vhost
 * example; whatever the PMD still refuses is freed and counted as
 * tx_dropped, so no mbuf is ever leaked. Publishes the TX counters once.
 */
static __rte_always_inline void
fwd_tx_send(struct fwd_stream *fs, struct rte_mbuf **pkts, uint16_t n, uint64_t bytes)
{
	uint16_t sent = rte_eth_tx_burst(fs->tx_port, fs->tx_queue, pkts, n);
	uint32_t retry = 0;
	uint64_t unsent_bytes = 0;
	uint16_t i;

	if (unlikely(sent < n)) {
		while (sent < n && retry++ < fs->tx_retry) {
			if (fs->tx_retry_delay_us != 0)
				rte_delay_us(fs->tx_retry_delay_us);
			sent += rte_eth_tx_burst(fs->tx_port, fs->tx_queue, &pkts[sent], n - sent);
		}
		if (sent < n) {
			for (i = sent; i < n; i++)
				unsent_bytes += pkts[i]->pkt_len;
			rte_pktmbuf_free_bulk(&pkts[sent], n - sent);
		}
	}
	pvp_stats_txq_add(fs->txs, sent, bytes - unsent_bytes, n - sent);
}

/**
 * What every engine sends a burst with: fwd_tx_send(), or the impairment
 * stage when the stream has one (one predictable branch per burst).
 */
static __rte_always_inline void
fwd_tx_burst(struct fwd_stream *fs, struct rte_mbuf **pkts, uint16_t n, uint64_t bytes)
{
	if (unlikely(fs->imp != NULL)) {
		fwd_impair_burst(fs, pkts, n);
		return;
	}
	fwd_tx_send(fs, pkts, n, bytes);
}

/**
 * Swap the source and destination MAC addresses of the frame in @p m.
 * A runt frame (shorter than an Ethernet header) is left as it came.
 * With SSSE3, one 16-byte load, one byte shuffle and one store, the way
 * testpmd's macswap does it: three 6-byte copies cost measurably more.
 */
static __rte_always_inline void
fwd_macswap_one(struct rte_mbuf *m)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ether_addr tmp;

#ifdef __SSSE3__
	/* Bytes 6..11 (source) first, then 0..5 (destination), 12..15 kept. */
	const __m128i shuf = _mm_setr_epi8(6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 12, 13, 14, 15);

	if (likely(m->data_len >= sizeof(__m128i))) {
		__m128i h = _mm_loadu_si128((const __m128i *)eth);

		_mm_storeu_si128((__m128i *)eth, _mm_shuffle_epi8(h, shuf));
		return;
	}
#endif
	if (unlikely(m->data_len < sizeof(*eth)))
		return;
	rte_ether_addr_copy(&eth->dst_addr, &tmp);
	rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
	rte_ether_addr_copy(&tmp, &eth->src_addr);
}

/* Control channel (fwd_ctl.c). */

/** What the control methods need to see. */
struct fwd_app {
	const struct fwd_conf *conf;			   /**< options */
	struct pvp_stats *stats;			   /**< counters */
	uint16_t nb_ports;				   /**< ports forwarded */
	uint16_t port_ids[FWD_MAX_PORTS];		   /**< stats index -> ethdev port id */
	uint16_t nb_txq;				   /**< TX queues per port */
	uint16_t nb_lcores;				   /**< forwarding lcores used */
	struct fwd_lcore *lcores[RTE_MAX_LCORE];	   /**< by rank */
	uint16_t nb_streams;				   /**< streams of every lcore */
	struct fwd_stream *streams[FWD_MAX_LCORE_STREAMS]; /**< by (port, RX queue) */
	struct pvp_neigh_cfg neigh[FWD_MAX_PORTS];	   /**< --addr with the port's MAC */
	volatile bool *running;				   /**< false once forwarding stopped */
};

struct pvp_ctl_server;

/**
 * Create and start the control server of @p app on conf->ctl.
 * @return the server, or NULL with @p msg (one line) filled.
 */
struct pvp_ctl_server *fwd_ctl_start(struct fwd_app *app, char *msg, size_t len);

struct pvp_metrics_server;

/**
 * Serve @p app's counters at conf->metrics (fwd_metrics.c); a failure is
 * fatal (fwd_die()). @return the server.
 */
struct pvp_metrics_server *fwd_metrics_start(struct fwd_app *app);

/** Names of the topologies (--topology), by enum fwd_topology. */
extern const char *const fwd_topology_names[FWD_TOPO_CHAINED + 1];

/* Options (args.c). */

/** True once rte_eal_init() succeeded: fwd_die() then cleans the EAL up. */
extern bool fwd_eal_up;

/**
 * Setup failure: one line on stderr, exit status FWD_EXIT_USAGE (bad
 * input, or the machine cannot do what was asked). rte_exit() would
 * print two lines. After rte_eal_init() the EAL is cleaned up first.
 */
void fwd_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/**
 * Split the command line at "--" and parse our part, after it, into
 * @p conf (defaults first); dies on a bad option. "--help" (first, or
 * among ours) prints the usage and exits.
 * @return the count of the EAL's part, left in @p argv.
 */
int fwd_args_parse(int argc, char **argv, struct fwd_conf *conf);

/* Ports and lcores (port.c). */

/**
 * Spread the (port, RX queue) pairs over the forwarding lcores, round
 * robin, so each pair is polled by exactly one lcore; every lcore that
 * gets one owns TX queue number "rank" on every port. Sets nb_lcores,
 * lcores[] and nb_txq of @p app; dies when that cannot be done.
 */
void fwd_assign_streams(struct fwd_app *app);

/** Configure and start every port (and the MACs of mode mac); dies on failure. */
void fwd_ports_init(struct fwd_app *app);

/** One line per port: name, MAC, queues, where its packets go. */
void fwd_ports_print(const struct fwd_app *app);

/** Wait up to --wait-link seconds for every link to be up, or for @p quit. */
void fwd_wait_link(const struct fwd_app *app, const volatile bool *quit);

/** Stop and close the ports that were started, free their pools. */
void fwd_ports_close(struct fwd_app *app);

/* Reports (report.c). */

/** Take the baseline of the periodic lines. */
void fwd_report_init(const struct fwd_app *app);

/** Print one rate line per port since the last call. */
void fwd_report_period(const struct fwd_app *app);

/** Print the final counters ("total port ..." lines, then --seq-check's). */
void fwd_report_totals(const struct fwd_app *app);

/**
 * The summary JSON: lib/stats' snapshot object, and with --seq-check
 * "streams", "unsigned_rx" and "untracked_rx". Also stats.get's answer.
 * @return a new reference, or NULL when out of memory.
 */
json_t *fwd_report_json(const struct fwd_app *app);

#endif /* FWD_H */
