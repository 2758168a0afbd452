/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit-gen internals shared by its source files (one file per job:
 * main, args, port, profile (what the options ask for), stream (wire
 * streams), tx + tx_build.h (TX engine), rx (RX engine), run (starting
 * and stopping traffic), ctl (control methods), report). Never installed.
 */

#ifndef GEN_H
#define GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "pvp_gen_answer.h"
#include "pvp_neigh.h"
#include "pvp_pkt.h"
#include "pvp_rate.h"
#include "pvp_sig.h"
#include "pvp_stats.h"

extern int gen_logtype;

#define GEN_LOG(level, fmt, ...)                                                                   \
	rte_log(RTE_LOG_##level, gen_logtype, "pvp.gen: " fmt "\n", ##__VA_ARGS__)

#define GEN_MAX_PORTS	 8	     /* ports one generator drives */
#define GEN_MAX_TXQ	 8	     /* TX queues (= TX lcores) per port */
#define GEN_MAX_RX	 8	     /* RX lcores (= RX queues per port) */
#define GEN_MAX_STREAMS	 64	     /* profile streams */
#define GEN_MAX_WSTREAMS 512	     /* wire streams: profile stream x TX queue */
#define GEN_BURST	 32	     /* packets per TX/RX burst */
#define GEN_CACHE_FLOWS	 65536	     /* most flows prebuilt as images ("cache mode") */
#define GEN_CACHE_BYTES	 (16u << 20) /* most bytes of cached images per wire stream */
#define GEN_TMPL_POOLS	 4	     /* most templates with a prefilled pool each (IMIX) */

/* Exit status for bad input (one line on stderr). */
#define GEN_EXIT_USAGE 2

/* Shortest and longest run, seconds (--duration, traffic.start's and TRex's "duration"). */
#define GEN_MIN_DURATION_S 0.001
#define GEN_MAX_DURATION_S ((double)PVP_GEN_MAX_DURATION_S)

/* Traffic states a TX lcore reads. */
enum gen_tx_state {
	GEN_TX_IDLE = 0, /* not sending */
	GEN_TX_RUN,	 /* sending */
};

/* What the generator adds to a lib/pkt stream at setup. */
/* A TRex tagged packet group table (tpg.h). */
struct gen_tpg;

struct gen_stream {
	struct pvp_stream *ps; /* the profile stream (owned by gen.profile) */
	uint16_t max_len;      /* longest template, bytes without FCS */
	uint16_t hdr_copy;     /* bytes of a cached flow image copied per packet */
	uint32_t cache_flows;  /* flows prebuilt in the cache, 0: none */
	bool multi_tmpl;       /* several templates (IMIX, pcap): copy per packet */
	bool tmpl_pools;       /* multi_tmpl, one flow, <= GEN_TMPL_POOLS templates:
				* one prefilled pool per template, no copy */
	bool fast_vars;	       /* vars advanced incrementally (INC/DEC only) */
	bool fast_inc1;	       /* one 4-byte var, +1 per flow: the --flows shortcut */
	bool inc1_merge;       /* fast_inc1 whose L4 checksum is the signature's: one update */
	bool sig_base;	       /* every template's signature is under one data checksum:
				* set it from the wire stream's base sums, read nothing */
	uint16_t tpg_off;      /* TRex tpg stream: offset of the TPG header's seq, which
				* takes the wire stream's seq (tpg.h); with var_len the
				* lowest offset of a header (each frame's last 16 B);
				* 0: none */
	bool var_len;	       /* each flow its own length (ps->flow_len): no signature */
};

/* Incremental state of one INC/DEC variable on the per-packet path. */
struct gen_var_state {
	uint32_t cur; /* value of the current flow */
	uint64_t sub; /* flows left before the value moves (tuple divisor) */
};

/* Per wire stream TX counters, written by one TX lcore only. */
struct gen_ws_tx {
	uint64_t packets; /* sent (accepted by the PMD) */
	uint64_t bytes;	  /* bytes sent, without FCS */
	uint64_t unsent;  /* built but not accepted: TX queue full (with
			   * --tx-full drop: offered and refused by the peer) */
	uint64_t late;	  /* pacing slots given up after a stall (catch-up bound) */
} __rte_cache_aligned;

/* A wire stream: one stream sent by one TX lcore, its own sequence space. */
struct gen_wstream {
	uint16_t wire_id;      /* stream id in the signature */
	struct gen_stream *st; /* what it sends */
	uint8_t **tdata;       /* per template: copy with this wire id */
	uint8_t *cache;	       /* cache_flows x hdr_copy bytes, wire id set */
	uint64_t flow_lo;      /* this lcore's flows: [flow_lo, flow_hi) */
	uint64_t flow_hi;
	struct gen_var_state vs[PVP_PKT_MAX_VARS]; /* fast_vars state */
	uint16_t port;				   /* generator port index */
	uint16_t queue;				   /* TX queue */
	struct rte_mempool *mp;			   /* mbufs pre-filled with the stream's template */
	/* --l3: the port's gateway MAC word (gen_neigh::gw_mac), NULL when
	 * the stream is not routed; gw_tmpl, the one its templates carry. */
	const uint64_t *gw;
	uint64_t gw_tmpl;
	/*
	 * Unfolded one's complement sums (words as loaded from memory) of
	 * what a checksum covers, less the words the TX lcore rewrites: per
	 * template, the signature's checksum less seq and tx_ts (sig_base);
	 * inc1_merge: the IP header checksum less the address, the L4 one
	 * less the address, seq and tx_ts.
	 */
	uint32_t sig_sum[GEN_TMPL_POOLS];
	uint32_t ip_sum;
	uint32_t l4_sum;
	struct rte_mempool *tmpl_mp[GEN_TMPL_POOLS]; /* tmpl_pools: template i's pool */
	struct gen_tmpl_init {
		struct gen_wstream *w; /* owner */
		uint16_t tmpl;	       /* template the pool's mbufs hold */
	} tmpl_init[GEN_TMPL_POOLS];   /* obj_init arguments of tmpl_mp */
	/* Set by the control side before a run, read by the TX lcore. */
	double pps;	/* requested, <= 0: unpaced */
	uint64_t limit; /* packets to send in this run, 0: no limit */
	/* TX lcore state. */
	uint32_t seq;		       /* next sequence number */
	uint64_t flow;		       /* next flow index */
	uint32_t order_idx;	       /* next template in the cycle */
	uint8_t burst_tmpl[GEN_BURST]; /* tmpl_pools: template of each mbuf of the burst */
	uint64_t sent_run;	       /* packets sent in this run */
	uint64_t max_due;	       /* paced: most packets due at once in this run,
					* sent back to back (the catch-up burst after a
					* stall); reset by the control side with sent_run */
	uint64_t t0;		       /* pacing origin (TSC) */
	uint64_t n0;		       /* packets sent at t0 */
	uint64_t burst_pkts;	       /* packets per burst, 0: continuous */
	uint32_t nb_bursts;	       /* bursts, 0: one */
	uint64_t gap_tsc;	       /* gap between bursts */
	uint64_t burst_sent;	       /* packets sent in the current burst */
	uint32_t bursts_done;	       /* bursts finished */
	uint64_t gap_until;	       /* multi-burst: TSC when the next burst starts */
	uint64_t start_tsc;	       /* sends nothing before this TSC: its own isg */
	uint64_t isg_tsc;	       /* that delay, again when a chain starts it */
	struct gen_wstream *next;      /* chain: started when this one is done (same lcore) */
	uint32_t loops;		       /* chain: TRex's action_count left (this one ends
					* the chain when it reaches 0), 0: no limit */
	bool done;		       /* limit reached, or not started (chain) */
	struct gen_ws_tx tx;	       /* published counters */
};

/* Per wire stream RX state, written by the RX lcore only. */
struct gen_ws_rx {
	struct pvp_seq seq;	/* loss / dup / reorder */
	uint64_t bytes;		/* bytes received */
	struct pvp_lat lat;	/* latency histogram, jitter */
	struct pvp_lat_win win; /* maximum per half second (TRex's last_max) */
} __rte_cache_aligned;

/* A TX lcore: one (port, queue), its wire streams. */
struct gen_tx_lcore {
	unsigned int lcore;
	uint16_t port;	   /* generator port index */
	uint16_t eth_port; /* ethdev */
	uint16_t queue;
	uint16_t nb_ws;
	struct gen_wstream *ws[GEN_MAX_STREAMS];
	struct pvp_stats_txq *stq;
	volatile uint32_t run_gen;  /* bumped by control for each start/update */
	volatile uint32_t state;    /* enum gen_tx_state */
	volatile uint32_t stopped;  /* 1 when idle (acknowledges a stop) */
	uint64_t finish_tsc;	    /* when the lcore finished a run by itself */
	uint64_t first_tsc;	    /* its first packet of the run, 0: none yet */
	uint64_t start_tsc;	    /* the run's start: sends nothing before it */
	volatile uint64_t stop_tsc; /* the run's end: sends nothing from it on, 0: none;
				     * control may move it while the lcore runs */
	struct rte_ring *svc;	    /* queue 0 of an --addr port: ARP/ND frames of
				     * the RX lcores to send (neigh.c), else NULL */
	uint64_t svc_unsent;	    /* of those, refused by a full TX queue */
	uint64_t svc_sent;	    /* of those, sent (neigh.c: "tx") */
	struct gen_push *push;	    /* a pcap push (push.h) sent instead of the
				     * streams, NULL: none; set while idle */
	uint64_t cycles_busy;	    /* TSC spent in bursts that sent something */
	uint64_t pkts_busy;	    /* packets sent in those bursts */
} __rte_cache_aligned;

/* The two halves of a wire stream's latency (oneway.c). */
struct gen_ws_ow {
	struct pvp_lat to_guest;   /* guest stamp - tx_ts */
	struct pvp_lat from_guest; /* rx - guest stamp */
	uint64_t unstamped;	   /* signed packets without a stamp */
} __rte_cache_aligned;

/* The clock check of oneway.set and whether the split is counted. */
struct gen_oneway {
	bool on;		      /* the guest's TSC is ours: RX counts both halves */
	char clock[16];		      /* "off" (never set), "shared", "differs" */
	char reason[160];	      /* why it differs */
	double offset_ns;	      /* our TSC minus the guest's, as sampled */
	struct pvp_clock_sample base; /* ours at start: the TSC's measured rate */
};

/*
 * An RX lcore: polls RX queue `queue` of every port and is the only
 * writer of its per wire stream state; readers add the lcores up.
 */
struct gen_rx_lcore {
	unsigned int lcore;	     /* RTE_MAX_LCORE: runs on the main lcore */
	uint16_t queue;		     /* RX queue it polls on every port */
	volatile uint32_t clear_ack; /* last reset request carried out */
	struct gen_ws_rx *ws;	     /* [GEN_MAX_WSTREAMS] */
	struct gen_ws_ow *ow;	     /* [GEN_MAX_WSTREAMS] once oneway.set found one clock */
	uint64_t unsigned_rx;	     /* packets without a signature */
	uint64_t unknown_stream;     /* signed, but no wire stream of the loaded
				      * profile has that id: every packet received
				      * is in exactly one of a stream's rx_packets,
				      * unsigned_rx, neigh_rx or this */
	uint64_t neigh_rx;	     /* ARP and ND frames (neigh.c), not unsigned_rx */
	struct gen_tpg *tpg;	     /* gen_ctx.tpg as this lcore last took it (tpg.h) */
	/* Written by this lcore only, in neigh.c. */
	struct pvp_neigh_stats nst[GEN_MAX_PORTS]; /* what those frames were */
	uint64_t unanswered[GEN_MAX_PORTS]; /* replies refused: over the rate limit, queue full */
	uint64_t announced[GEN_MAX_PORTS];  /* gratuitous ARPs and unsolicited NAs sent */
	uint64_t silenced[GEN_MAX_PORTS];   /* replies not sent: the responder is stopped */
	uint64_t gw_changed[GEN_MAX_PORTS]; /* the gateway announced another MAC (--l3) */
	uint64_t ann_next[GEN_MAX_PORTS];   /* TSC of a port's next announcement */
	uint64_t lim_tsc;		    /* the reply limit's last refill */
	uint32_t lim_tokens;		    /* replies it still allows */
	struct pvp_stats_rxq *srq[GEN_MAX_PORTS];
} __rte_cache_aligned;

/* The RX engine: --rx-cores lcores, one RX queue of every port each. */
struct gen_rx {
	uint16_t nb;		     /* RX lcores; 0 with --no-rx */
	volatile uint32_t clear_req; /* control asks for a per-stream reset */
	struct gen_rx_lcore *rl[GEN_MAX_RX];
};

/* A port as the generator sees it. */
struct gen_port {
	uint16_t eth_port; /* ethdev id */
	char name[64];	   /* device name */
	struct rte_ether_addr mac;
	uint64_t link_bps;	   /* from the link, or --speed; 0 unknown */
	struct rte_mempool *rx_mp; /* RX mbufs */
};

/* Options from the command line. */
struct gen_opts {
	uint16_t size;	      /* frame size with FCS, 0 = default 64 */
	uint32_t flows;	      /* flows for the shortcut stream */
	struct pvp_rate rate; /* per port */
	double duration_s;    /* 0: until count or a signal */
	uint64_t count;	      /* packets per port per burst, 0 = continuous */
	uint32_t bursts;      /* multi-burst count */
	uint64_t ibg_us;      /* gap between bursts */
	const char *profile;  /* --profile FILE */
	bool imix;	      /* --imix */
	struct pvp_imix imix_list[PVP_PKT_MAX_IMIX]; /* --imix-sizes 64:7,570:4,1518:1 */
	uint8_t n_imix;				     /* entries of imix_list, 0: none */
	const char *pcap;			     /* --pcap FILE */
	bool pcap_as_is;			     /* replay without signature */
	uint16_t ports[GEN_MAX_PORTS];		     /* ethdev ids (--ports), empty: all */
	uint16_t nb_ports;
	uint16_t tx_cores;	/* TX lcores (queues) per port */
	uint16_t rx_cores;	/* RX lcores (queues per port, RSS when > 1) */
	uint64_t speed_mbps;	/* link speed for ports without one */
	const char *json;	/* --json FILE */
	const char *capture;	/* --capture FILE[,...] (capture.h) */
	bool server;		/* --server */
	const char *ctl;	/* --ctl ADDR */
	const char *token_file; /* --token-file */
	const char *files_dir;	/* --ctl-files-dir */
	uint32_t idle_sleep_us; /* sleep when idle */
	uint32_t stats_period;	/* s, 0: off */
	uint32_t drain_ms;	/* wait for in-flight RX after TX stops */
	uint32_t catchup_us;	/* most backlog the pacer makes up after a stall */
	uint32_t tx_retry;	/* extra tx_burst tries before a packet is unsent */
	bool tx_full_drop;	/* --tx-full drop: unsent packets are given up, their
				 * sequence numbers and pacing slots spent (the TX
				 * ring is the peer's RX ring: a full ring is the
				 * peer's loss, not the generator's limit) */
	bool quiet;		/* no summary table */
	bool no_rx;		/* do not start the RX engine */
	uint32_t nb_txd;	/* TX descriptors */
	uint32_t nb_rxd;	/* RX descriptors */
	uint16_t mtu;		/* --mtu: ports' MTU (bytes of the IP packet), 0: as
				 * the port comes, or raised for a jumbo --size */
	uint32_t pool_size;	/* mbufs per wire stream pool */
	const char *src_mac;	/* shortcut stream MACs, NULL: port MAC / bcast */
	const char *dst_mac;
	const char *trex; /* --trex [ADDR]: serve TRex's stateless API (NULL: off,
				 * "": the default 127.0.0.1:4501:4500) */
	bool trex_remote; /* --trex-remote: a non-loopback --trex address */
	struct pvp_neigh_cfg addr[GEN_MAX_PORTS]; /* --addr P:..., MAC set at setup */
	bool addr_set[GEN_MAX_PORTS];		  /* port P has an --addr */
	bool l3;				  /* --l3: send to the resolved gateways */
	uint32_t resolve_tries;			  /* requests per gateway */
	double resolve_wait_s;			  /* wait for an answer to each */
	/* --metrics ADDR: serve /metrics there (NULL: off). */
	const char *metrics;
};

/* A port's neighbour state (neigh.c). */
struct gen_neigh {
	/*
	 * The gateway's MAC once resolved, its 6 bytes in memory order in a
	 * word (gen_mac_word()): the RX lcores change it when the gateway
	 * announces another (gratuitous ARP, unsolicited NA), the TX lcores
	 * read it once per burst. Atomic loads and stores only.
	 */
	uint64_t gw_mac;
	bool resolved;		 /* --l3 found it */
	struct rte_mempool *mp;	 /* mbufs of replies and announcements */
	struct rte_ring *ring;	 /* to the TX lcore of the port's queue 0 */
	struct gen_tx_lcore *tl; /* that lcore */
	volatile bool stopped;	 /* neigh.set "responder": false: answers and
				       * announces nothing (a DUT's entry ages out) */
	uint64_t tx_zero;	 /* tl->svc_sent at the last stats.clear */
};

/* The whole generator. */
struct gen_ctx {
	struct gen_opts opt;
	uint16_t nb_ports;
	struct gen_port port[GEN_MAX_PORTS];
	struct pvp_profile *profile;		    /* loaded streams */
	struct gen_stream streams[GEN_MAX_STREAMS]; /* [profile->n_streams] */
	uint16_t nb_ws;
	struct gen_wstream *ws[GEN_MAX_WSTREAMS];
	uint16_t nb_tx;
	struct gen_tx_lcore *tx[GEN_MAX_PORTS * GEN_MAX_TXQ];
	struct gen_rx rx;
	struct gen_oneway oneway; /* oneway.set (oneway.c) */
	struct gen_neigh neigh[GEN_MAX_PORTS];
	/* TRex's tagged packet groups the RX lcores count (tpg.h), NULL: none. */
	struct gen_tpg *tpg;
	struct pvp_stats *stats;
	uint64_t hz;
	volatile bool quit; /* SIGINT/SIGTERM or end of a CLI run */
	/* Current run, written by the control side. */
	bool running;
	struct pvp_rate rate;	/* rate of the current run */
	double requested_pps;	/* total over all ports */
	uint64_t run_start_tsc; /* may lie ahead: a start at a given time */
	double run_start_rt;	/* CLOCK_REALTIME (s) of run_start_tsc */
	double run_start_at;	/* the time traffic.start asked for, 0: none */
	uint64_t run_stop_tsc;	/* 0 while running */
	uint64_t run_end_tsc;	/* planned end (duration), 0: none */
	/* Reader-side baselines (stats.clear) for TX per-stream counters. */
	struct gen_ws_tx tx_base[GEN_MAX_WSTREAMS];
	/* Mempools of replaced profiles, freed once every mbuf is back. */
	struct rte_mempool *retired[256];
	unsigned int nb_retired;
};

extern struct gen_ctx gen;

/*
 * The TX lcore of port @p port's queue @p queue: every (port, queue) has
 * one, in that order (main.c, gen_lcores_assign()).
 */
static inline struct gen_tx_lcore *
gen_tx_of(const struct gen_ctx *g, uint16_t port, uint16_t queue)
{
	return g->tx[port * g->opt.tx_cores + queue];
}

/*
 * @p ns nanoseconds (microseconds x 1000 for the options in us) in TSC
 * cycles; 128-bit, as 2^50 ns x 3 GHz passes 2^64.
 */
static inline uint64_t
gen_ns_to_tsc(uint64_t ns, uint64_t hz)
{
	return (uint64_t)((unsigned __int128)ns * hz / 1000000000);
}

/* Fold a 32-bit one's complement sum to 16 bits. */
static __rte_always_inline uint32_t
gen_fold(uint32_t s)
{
	s = (s & 0xffff) + (s >> 16);
	return (s & 0xffff) + (s >> 16);
}

/*
 * Adjust every checksum of @p c by @p delta, the unfolded sum of
 * (~old_word + new_word) over the rewritten 16-bit words (RFC 1624 eq. 3).
 */
static __rte_always_inline void
gen_csum_fix(uint8_t *pkt, const struct pvp_csum_loc *c, uint32_t delta)
{
	uint16_t chg[RTE_DIM(c->off)];
	unsigned int i, k;

	/* The common case: one checksum (IPv4 UDP/TCP) covers the bytes. */
	if (likely(c->n == 1 && (c->flags[0] & PVP_CSUM_F_DATA))) {
		uint16_t *p = (uint16_t *)(pkt + c->off[0]);
		uint16_t r = (uint16_t)~gen_fold((uint16_t) ~*p + delta);

		if (r == 0 && (c->flags[0] & PVP_CSUM_F_UDP))
			r = 0xffff;
		*p = r;
		return;
	}
	/* Two independent ones: IPv4 header + UDP/TCP for an address. */
	if (c->n == 2 && c->flags[0] == PVP_CSUM_F_DATA &&
	    (c->flags[1] & ~PVP_CSUM_F_UDP) == PVP_CSUM_F_DATA) {
		uint16_t *p0 = (uint16_t *)(pkt + c->off[0]);
		uint16_t *p1 = (uint16_t *)(pkt + c->off[1]);
		uint16_t r1 = (uint16_t)~gen_fold((uint16_t) ~*p1 + delta);

		*p0 = (uint16_t)~gen_fold((uint16_t) ~*p0 + delta);
		if (r1 == 0 && (c->flags[1] & PVP_CSUM_F_UDP))
			r1 = 0xffff;
		*p1 = r1;
		return;
	}
	for (i = 0; i < c->n; i++) {
		uint16_t *p = (uint16_t *)(pkt + c->off[i]);
		uint8_t f = c->flags[i];
		uint32_t acc = (f & PVP_CSUM_F_DATA) ? delta : 0;
		uint16_t old = *p, r;

		/* An outer checksum also covers the inner ones just changed. */
		for (k = 0; k < i; k++)
			if (f & PVP_CSUM_F_PREV(k))
				acc += chg[k];
		r = (uint16_t)~gen_fold((uint16_t)~old + acc);
		if (r == 0 && (f & PVP_CSUM_F_UDP))
			r = 0xffff;
		*p = r;
		chg[i] = (uint16_t)gen_fold((uint32_t)(uint16_t)~old + r);
	}
}

/* args.c */
/*
 * Our options (after "--") into @p o; the EAL's part stays in @p argv,
 * its count returned. "--help" prints the usage and exits.
 */
int gen_args_parse(int argc, char **argv, struct gen_opts *o);
void gen_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* port.c */
int gen_ports_init(struct gen_ctx *g, char *err, size_t errlen);
void gen_ports_close(struct gen_ctx *g);

/* profile.c: the profile the command line asks for. */
struct pvp_profile *gen_profile_from_opts(struct gen_ctx *g, char *err, size_t errlen);

/* stream.c: a profile turned into wire streams with their pools. */
int gen_streams_setup(struct gen_ctx *g, struct pvp_profile *p, char *err, size_t errlen);
void gen_streams_release(struct gen_ctx *g);

/* What one wire stream sends in a run: the input of gen_ws_program(). */
struct gen_ws_plan {
	double pps;	    /* this wire stream's rate, <= 0: unpaced */
	uint64_t total;	    /* packets per burst of the whole stream, split over
			      * the port's TX queues; 0: not counted */
	uint32_t nb_bursts; /* bursts of total packets, 0: one */
	uint64_t gap_ns;    /* between bursts */
	uint64_t isg_ns;    /* before its first packet */
	double duration_s;  /* > 0: an uncounted paced stream sends exactly
			      * round(pps x (duration - isg)) packets */
	uint64_t start_tsc; /* the run's start */
};

/*
 * Set wire stream @p w for a new run as @p pl says: rate, bursts split
 * over the port's TX queues, gaps, its own start (isg) and its exact
 * count; the pacing and counters start over, done when it has nothing to
 * send. One piece of code for gen_traffic_start() and the TRex server's
 * start (run.c).
 */
void gen_ws_program(struct gen_ctx *g, struct gen_wstream *w, const struct gen_ws_plan *pl);

/* tx.c */
int gen_tx_lcore_main(void *arg);
void gen_ws_reset(struct gen_wstream *w);

/*
 * run.c: starting, updating, stopping traffic (CLI and control).
 * gen_traffic_start(): @p start_at is the CLOCK_REALTIME second (with
 * its fraction) the first packet is due, so that several generators,
 * on one host or on hosts whose clocks agree (NTP, PTP), start
 * together; 0 starts at once, as does a time already past.
 */
int gen_traffic_start(struct gen_ctx *g, const struct pvp_rate *rate, double duration_s,
		      double start_at, char *err, size_t errlen);
/*
 * Set TX lcore @p tl going with the settings of the wire streams as they
 * are now, sending from @p start_tsc on (0: at once) until @p stop_tsc
 * (0: no end); and whether it is idle and has said so. For the native
 * runs and the TRex server alike.
 */
void gen_tx_lcore_go(struct gen_tx_lcore *tl, uint64_t start_tsc, uint64_t stop_tsc);
bool gen_tx_lcore_idle(struct gen_tx_lcore *tl);
/* The CLOCK_REALTIME second of TSC value @p tsc (near the present). */
double gen_tsc_to_realtime(const struct gen_ctx *g, uint64_t tsc);
int gen_traffic_update(struct gen_ctx *g, const struct pvp_rate *rate, char *err, size_t errlen);
void gen_traffic_stop(struct gen_ctx *g);
bool gen_traffic_tx_done(struct gen_ctx *g);
int gen_rate_to_port_pps(struct gen_ctx *g, const struct pvp_rate *r, uint16_t port, double *pps,
			 char *err, size_t errlen);

/* rx.c */
int gen_rx_setup(struct gen_ctx *g);
int gen_rx_lcore_main(void *arg);
unsigned int gen_rx_poll(struct gen_ctx *g, struct gen_rx_lcore *rl);
void gen_rx_service_clear(struct gen_ctx *g, struct gen_rx_lcore *rl);
/* Packets received outside every wire stream: without a signature, signed
 * with an id no wire stream has, and ARP/ND (summed over the RX lcores). */
void gen_rx_other(const struct gen_ctx *g, uint64_t *unsigned_rx, uint64_t *unknown_stream,
		  uint64_t *neigh_rx);
int gen_rx_clear(struct gen_ctx *g);
/* Wire stream @p wire_id's sequence counts and bytes, and (@p lat not
 * NULL) its latency figures, summed over the RX lcores. */
void gen_rx_read(struct gen_ctx *g, uint16_t wire_id, struct pvp_seq *seq,
		 struct pvp_lat_summary *lat, uint64_t *bytes);
/* The latency histogram of wire stream @p wire_id, all RX lcores merged. */
void gen_rx_lat(const struct gen_ctx *g, uint16_t wire_id, struct pvp_lat *lat);

/*
 * oneway.c: one-way latency per half of the path. gen_oneway_set()
 * compares the guest's clock sample @p peer (null or NULL: off) with ours and
 * turns the split on when they are one clock; a failed comparison is no
 * error (the report says why), a bad sample is (-EINVAL, one line).
 */
int gen_oneway_set(struct gen_ctx *g, const json_t *peer, char *err, size_t err_len);
/* {"clock", "reason", "offset_ns"}: what oneway.set found. */
json_t *gen_oneway_json(const struct gen_ctx *g);
/*
 * report.c: a latency histogram as a stream's "latency_ns" and each
 * one-way half: the summary figures, @p clock (NULL: none), the histogram.
 */
json_t *gen_lat_json(const struct pvp_lat *l, const char *clock);
/* A stream's "oneway_ns": both halves, or NULL when the split is off. */
json_t *gen_oneway_stream_json(const struct gen_ctx *g, uint16_t i);
/* The split as lines of the summary, or why there is none. */
void gen_oneway_print(const struct gen_ctx *g, FILE *f);

/* The largest latency (ns) of wire stream @wire_id in the latest finished
 * half second that had packets, over every RX lcore (TRex's last_max). */
uint64_t gen_rx_last_max(const struct gen_ctx *g, uint16_t wire_id);

/*
 * neigh.c: ARP / ND of the --addr ports. gen_neigh_setup() makes the
 * reply pools; gen_neigh_resolve() (--l3) finds every gateway before
 * the lcores start, answering the peers' requests meanwhile, or says
 * which port's gateway did not answer; gen_neigh_apply() writes the
 * resolved MACs into a profile's templates. gen_neigh_rx() is the RX
 * engine's hook for frames without a signature: true when it was ARP or
 * ND (counted, and answered through the ring of the port's queue 0);
 * gen_neigh_tx() is the TX lcore's side of that ring;
 * gen_neigh_service() queues the periodic announcements from RX lcore 0.
 * gen_neigh_json(): per port, what the responder did.
 */
int gen_neigh_setup(struct gen_ctx *g, char *err, size_t errlen);

/* A MAC's 6 bytes, in memory order, in a word that one load reads whole. */
static inline uint64_t
gen_mac_word(const void *mac)
{
	uint64_t w = 0;

	memcpy(&w, mac, RTE_ETHER_ADDR_LEN);
	return w;
}
int gen_neigh_resolve(struct gen_ctx *g, char *err, size_t errlen);
void gen_neigh_apply(const struct gen_ctx *g, struct pvp_profile *p);
bool gen_neigh_rx(struct gen_ctx *g, struct gen_rx_lcore *rl, uint16_t port, struct rte_mbuf *m);
void gen_neigh_tx(struct gen_tx_lcore *tl);
void gen_neigh_service(struct gen_ctx *g, struct gen_rx_lcore *rl);
json_t *gen_neigh_json(const struct gen_ctx *g);
/* The summary's line per --addr port; says so when requests went unanswered. */
void gen_neigh_print(const struct gen_ctx *g, FILE *f);
/* neigh.set: port @p port's responder on or off; -EINVAL without --addr there. */
int gen_neigh_set(struct gen_ctx *g, uint16_t port, bool responder, char *err, size_t errlen);
/* stats.clear: the responder's TX count starts again (its RX counts are the RX lcores'). */
void gen_neigh_clear(struct gen_ctx *g);

/* ctl.c */
int gen_ctl_start(struct gen_ctx *g, char *err, size_t errlen);
void gen_ctl_stop(void);

/* metrics.c: --metrics, served from a thread of lib/metrics (doc/metrics.rst). */
int gen_metrics_start(struct gen_ctx *g, char *err, size_t errlen);
void gen_metrics_stop(void);

/* trex/: TRex's stateless RPC protocol (--trex, doc/trex.rst). */
int gen_trex_parse_addr(const char *addr, bool remote, char *host, size_t hostlen, uint16_t *rpc,
			uint16_t *pub, char *err, size_t errlen);
int gen_trex_check_opt(const char *addr, bool remote, char *err, size_t errlen);
int gen_trex_start(struct gen_ctx *g, char *err, size_t errlen);
void gen_trex_stop(void);

/* report.c */
json_t *gen_report_json(struct gen_ctx *g);
void gen_report_print(struct gen_ctx *g, FILE *f);
void gen_report_period(struct gen_ctx *g);

#endif /* GEN_H */
