/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Inside the trex hop driver. Files by job:
 *   trex_rpc.c     ZeroMQ REQ transport, compressed framing, JSON-RPC
 *   trex_conf.c    the hop's topology members
 *   trex_stream.c  a trial's traffic as TRex streams (packet, field engine)
 *   trex_driver.c  the coord_driver callbacks
 * Never installed.
 */

#ifndef TREX_PRIVATE_H
#define TREX_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "coord_driver.h"
#include "flows.h"
#include "trex_rpc.h"

/** Streams one port gets from one trial: one, or three for IMIX. */
#define TREX_MAX_PORT_STREAMS 3

/** What the hop's streams ask of TRex's flow statistics. */
enum trex_fs_mode {
	TREX_FS_STATS = 0, /**< flow_stats rule "stats": per-stream counts */
	TREX_FS_LATENCY,   /**< rule "latency": counts, loss, latency */
	TREX_FS_OFF,	   /**< no flow_stats (servers or NICs without it) */
};

/** The hop's topology members (trex_conf_members), decoded. */
struct trex_conf {
	char server[256];		       /**< host name or address */
	unsigned int sync_port;		       /**< RPC port */
	uint32_t timeout_ms;		       /**< per request */
	char user[64];			       /**< owner name given to acquire */
	bool force;			       /**< acquire ports other users hold */
	unsigned int port_id[COORD_MAX_PORTS]; /**< TRex port ids of the hop's ports */
	uint64_t src_mac;		       /**< frames' source MAC */
	uint64_t dst_mac;		       /**< frames' destination MAC */
	unsigned int fs;		       /**< "flow_stats": an enum trex_fs_mode */
	uint32_t pgid_base;		       /**< "pgid_base" */
	unsigned int backstop_s;	       /**< "backstop_s": TRex stops itself this late */
	struct flows_base flow_base;	       /**< "flow_base", as the ovs and gen hops */
};

/** The hop's topology members (coord_driver::conf). */
extern const struct pvp_schema_member trex_conf_members[];

/**
 * Decode the hop's object into @p c through trex_conf_members and check
 * what the table cannot say (port ids, the server's characters).
 * @return 0, or -EINVAL with "hop NAME: member: message" in @p err.
 */
int trex_conf_parse(const struct coord_hop *hop, const json_t *conf, struct trex_conf *c, char *err,
		    size_t err_len);

/** The streams of one port for one trial. */
struct trex_port_streams {
	unsigned int nb;			  /**< streams (1, or 3 for IMIX) */
	json_t *stream[TREX_MAX_PORT_STREAMS];	  /**< add_stream "stream" objects */
	uint32_t pgid[TREX_MAX_PORT_STREAMS];	  /**< their pgids (flow_stats on) */
	unsigned int size[TREX_MAX_PORT_STREAMS]; /**< frame size with FCS */
};

/**
 * Build the TRex streams of topology port @p k for @p size (with FCS;
 * 0: IMIX) and @p flows flows of @p type ("normal" varies the source
 * IPv4 from 16.0.0.1 as pvpkit-gen's --flows does; "l2", "l3", "l4" the
 * field the vswitch's rules match, from c->flow_base).
 * @return 0, or -EINVAL / -ENOMEM with @p why set.
 */
int trex_streams_build(const struct trex_conf *c, unsigned int k, const char *type,
		       unsigned int size, unsigned int flows, struct trex_port_streams *ps,
		       char *why, size_t why_len);

/** Drop the references in @p ps. */
void trex_streams_free(struct trex_port_streams *ps);

/** Mean frame size (with FCS) of what trex_streams_build() sends for @p size. */
double trex_streams_avg_size(unsigned int size);

/* API class and version asked: any STL 5.x server accepts 5.0 (TRex v2.90+). */
#define TREX_API_CLASS "STL"
#define TREX_API_MAJOR 5
#define TREX_API_MINOR 0
/*
 * Generator-limited: TRex's own TX rate just before the stop and the rate
 * its counters give over the run both fell short of the rate asked by
 * more than this share (one alone can be off: a rate window that has
 * not filled yet, the start's round trip in a short trial).
 */
#define TREX_LIMIT_TOLERANCE 0.02
/* Slowest link speed believed, in Gbit/s (TRex's unit): 10 Mbit/s Ethernet. */
#define TREX_SPEED_MIN_GBPS 0.01
/* Streams of one hop: a port's streams times its ports. */
#define TREX_MAX_STREAMS (COORD_MAX_PORTS * TREX_MAX_PORT_STREAMS)

/* State of one trex hop (hop->priv). */
struct trex_hop {
	struct trex_conf c;			  /* topology members */
	struct trex_rpc *rpc;			  /* the REQ connection */
	char api_h[64];				  /* from api_sync_v2; "" = handshake due */
	uint32_t session_id;			  /* ours, for acquire */
	bool owned[COORD_MAX_PORTS];		  /* acquired (handler valid) */
	char handler[COORD_MAX_PORTS][64];	  /* from acquire */
	double speed_bps[COORD_MAX_PORTS];	  /* link speed, 0 = not reported */
	bool ours[COORD_MAX_PORTS];		  /* held under our user name already */
	char flow_type[8];			  /* from install_flows, "" = normal */
	char loaded[64];			  /* traffic on the server, "" = none known */
	unsigned int nb_pgids;			  /* streams with flow_stats loaded */
	uint32_t pgid[TREX_MAX_STREAMS];	  /* their pgids */
	unsigned int pgid_port[TREX_MAX_STREAMS]; /* their topology port */
	unsigned int pgid_size[TREX_MAX_STREAMS]; /* their frame size with FCS */
	json_t *pg_base;			  /* get_pgid_stats at clear(), or NULL */
	bool running;				  /* between traffic_start and _stop */
	bool clamped;				  /* rate asked over the line: sent line rate */
	double asked_pps[COORD_MAX_PORTS];	  /* per port, as asked */
	uint64_t base_opackets[COORD_MAX_PORTS];  /* at the start */
	uint64_t base_oerrors[COORD_MAX_PORTS];	  /* at the start */
	uint64_t t_start_ns;			  /* after the last start_traffic */
	double last_tx_pps[COORD_MAX_PORTS];	  /* m_total_tx_pps before the stop */
};

/* The session (trex_session.c). */
int trex_acquire(struct coord_hop *hop, char *err, size_t err_len);
int trex_call(struct coord_hop *hop, const char *method, json_t *params, json_t **res, char *err,
	      size_t err_len);
int trex_counter(struct coord_hop *hop, const json_t *st, const char *name, unsigned int port,
		 uint64_t *v, char *err, size_t err_len);
int trex_do(struct coord_hop *hop, const char *method, json_t *params, char *err, size_t err_len);
int trex_err(struct coord_hop *hop, const char *method, int ret, const char *e, char *err,
	     size_t err_len);
int trex_handshake(struct coord_hop *hop, char *err, size_t err_len);
int trex_per_port(struct coord_hop *hop, const char *method, json_t *extra, bool owned,
		  json_t **res, char *err, size_t err_len);
int trex_ports_info(struct coord_hop *hop, char *err, size_t err_len);
void trex_release_all(struct coord_hop *hop);
int trex_reset(struct coord_hop *hop, char *err, size_t err_len);

/* Counters (trex_driver.c). */
int trex_pgid_stats(struct coord_hop *hop, json_t **res, char *err, size_t err_len);
int trex_port_stats(struct coord_hop *hop, json_t **res, char *err, size_t err_len);

/* Traffic (trex_traffic.c). */
int trex_traffic_start(struct coord_hop *hop, const struct coord_traffic *t, char *err,
		       size_t err_len);
int trex_traffic_stop(struct coord_hop *hop, struct coord_traffic_result *res, char *err,
		      size_t err_len);
int trex_traffic_result(struct coord_hop *hop, struct coord_traffic_result *res, char *err,
			size_t err_len);

#endif /* TREX_PRIVATE_H */
