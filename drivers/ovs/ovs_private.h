/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Private to drivers/ovs: the state of one ovs hop and what its files
 * share. One file per job:
 *
 *   ovs_driver.c      the driver table: open, close, snapshot, clear, context
 *   ovs_conf.c        the hop's topology members
 *   ovs_interface.c   Interface rows from OVSDB: counters, OpenFlow numbers
 *   ovs_openflow.c    OpenFlow 1.4 port stats on the bridge's socket
 *   ovs_dump_ports.c  the text of `ovs-ofctl dump-ports`
 *   ovs_stats.c       live counters from OpenFlow, mapped to topology ports
 *   ovs_tool.c        ovs-ofctl and ovs-appctl, here or over ssh
 *   ovs_flows.c       the rules of install_flows
 *   ovs_restart.c     noticing that ovs-vswitchd restarted under a trial
 *   ovsdb.c           the OVSDB JSON-RPC client
 *   ovs_cmd.c         running a command with a timeout, here or over ssh
 */

#ifndef OVS_PRIVATE_H
#define OVS_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "pvp_util.h"

#include "coord_driver.h"
#include "flows.h"
#include "ovs_cmd.h"
#include "ovsdb.h"

/*
 * Drop reasons in OVS 3.1 Interface statistics, in the order reported
 * (ovs_driver.c). ovs_tx_retries is not a drop (the packet went out on a
 * retry): it is given in context() instead.
 */
#define OVS_NB_REASONS 7
extern const char *const ovs_drop_reasons[OVS_NB_REASONS];
/* What each of ovs_drop_reasons[] is called in coord_driver.h's vocabulary
 * (rx_missed_errors is rx_missed, rx_mbuf_allocation_errors rx_nombuf). */
extern const enum coord_reason_id ovs_drop_reason_ids[OVS_NB_REASONS];

/*
 * Drop-reason rules: an OpenFlow rule that drops packets for a reason of
 * its own (a router's neighbour-table miss) says so in its cookie, and
 * the driver reads its packet count as that reason at a port's tx point
 * (doc/testbed.rst, "Drop reasons of rules"). Cookie bits 63..32 are
 * OVS_DROP_COOKIE's ("pvpd"), 31..16 the index in ovs_rule_reasons[],
 * 15..0 the OpenFlow number of the port the packets would have left by.
 */
#define OVS_DROP_COOKIE	    0x7076706400000000ULL
#define OVS_NB_RULE_REASONS 1
extern const enum coord_reason_id ovs_rule_reasons[OVS_NB_RULE_REASONS];
/* Most drop-reason rules a bridge may have. */
#define OVS_MAX_DROP_RULES 64

/* One drop-reason rule's entry of an OpenFlow flow stats reply. */
struct ovs_ofp_flow {
	uint64_t cookie;  /* OVS_DROP_COOKIE | reason << 16 | ofport */
	uint64_t packets; /* packets the rule matched */
};

/*
 * Who ovs-vswitchd is, as seen through its ports: a restarted daemon (or
 * a port deleted and added again) creates its ports anew, so their age
 * starts again from 0, and so do their counters.
 */
struct ovs_ident {
	bool valid;	   /* a snapshot filled it */
	uint64_t t_end_ns; /* CLOCK_MONOTONIC when that snapshot's reading ended */
	/*
	 * Each port's age in that snapshot, where age_known[i]. Ages come
	 * from the host ovs-vswitchd runs on and may exceed this host's
	 * uptime: they are only compared with each other and with local
	 * intervals, never subtracted from the local clock (doc/design.rst,
	 * "Clocks").
	 */
	bool age_known[COORD_MAX_PORTS];
	double age[COORD_MAX_PORTS];
	struct coord_port last[COORD_MAX_PORTS]; /* counters of the last snapshot */
};

/* Flow types whose value reaches a pair's in port in the source field
 * (ovs_pair::swapped): a guest before it swapped that layer. */
#define OVS_SWAP_L2 (1u << 0)
#define OVS_SWAP_L3 (1u << 1)
#define OVS_SWAP_L4 (1u << 2)

/* One forwarding pair of install_flows ("forward" member): what comes in
 * on ports[in] goes out on ports[out]. */
struct ovs_pair {
	unsigned int in;      /* index in the hop's ports */
	unsigned int out;     /* index in the hop's ports */
	unsigned int swapped; /* OVS_SWAP_* bits */
};

/* One "forward" pair as the topology names it; ovs_conf.c makes it an
 * ovs_pair. */
struct ovs_pair_conf {
	char in[64];		 /* in port's name */
	char out[64];		 /* out port's name */
	unsigned int swapped[3]; /* "swapped": indexes in l2, l3, l4 */
	unsigned int nb_swapped; /* entries in swapped[] */
};

/* One ovs hop (hop->priv). Its topology members (ovs_conf_members) are
 * decoded into it. */
struct ovs_hop {
	const struct coord_hop *hop; /* its hop: ports are Interface names */
	struct ovsdb_client db;	     /* ovsdb-server connection */
	char db_remote[256];	     /* "db" */
	char rundir[256];	     /* "rundir", or "" */
	char bridge[64];	     /* for ovs-ofctl */
	char ofctl_target[336];	     /* BRIDGE or unix:RUNDIR/BRIDGE.mgmt */
	char appctl_target[320];     /* "vswitchd_ctl": vswitchd unixctl, or "" */
	struct ovs_ssh ssh;	     /* where commands run */
	uint32_t timeout_ms;	     /* per reply / command */
	struct flows_base flow_base; /* first l2/l3/l4 value */
	/* Reverse l2 rules match dl_dst: "l2_reverse_match" word 1. */
	unsigned int l2_reverse_dst;
	struct ovs_pair_conf forward[COORD_MAX_PORTS]; /* "forward" */
	unsigned int nb_forward;		       /* its pairs */
	/* The "forward" pairs, at most one per in port; 0 pairs: the
	 * one-port PVP of ports[0] (physical) and ports[1] (virtual). */
	struct ovs_pair pairs[COORD_MAX_PORTS];
	unsigned int nb_pairs;
	/* Counters from OVSDB, not OpenFlow: "stats" word 1. */
	unsigned int stats_ovsdb;
	long ofport[COORD_MAX_PORTS]; /* OpenFlow port numbers, -1 unknown */
	/* Seconds each port has existed at the last read (OpenFlow port
	 * stats "duration"), where age_known[i]: OVSDB has no age, and
	 * OpenFlow may say "unknown". */
	bool age_known[COORD_MAX_PORTS];
	double duration[COORD_MAX_PORTS];
	uint64_t read_end_ns;	  /* CLOCK_MONOTONIC when the last reading ended */
	struct ovs_ident ident;	  /* what the last snapshot saw */
	bool restarted;		  /* a restart was seen and not yet dealt with */
	bool recover_failed;	  /* putting pvpkit's rules back failed */
	char rules_type[8];	  /* rule type pvpkit installed, "" = none */
	unsigned int rules_flows; /* flows of those rules */
	char note[256];		  /* for context(): what clear() did, or "" */
	/* ovs-vswitchd's unixctl socket (appctl_target), for
	 * revalidator/wait before drop-reason rules are read. */
	struct ovsdb_client ctl;
};

/* One port's entry of an OpenFlow port stats reply, from the socket
 * (ovs_openflow.c) or from `ovs-ofctl dump-ports` text (ovs_dump_ports.c). */
struct ovs_ofp {
	long ofport;	     /* OpenFlow number; OFPP_LOCAL = 65534 */
	bool has_duration;   /* the reply gave the port's age */
	double duration_s;   /* seconds since the port was created */
	struct coord_port p; /* rx/tx counters */
	bool has_reason[OVS_NB_REASONS];
	uint64_t reason[OVS_NB_REASONS];
};

/* ovs_conf.c: the hop's topology members (coord_driver::conf). */
extern const struct pvp_schema_member ovs_conf_members[];

/* ovs_conf.c: decode the hop's topology members into @p h and check what
 * the table cannot (names that reach commands, the forward pairs). 0 or
 * -EINVAL. */
int ovs_open_conf(struct coord_hop *hop, struct ovs_hop *h, const json_t *conf, char *err,
		  size_t err_len);

/*
 * ovs_interface.c: one OVSDB select per port, which refreshes h->ofport[]
 * (so every port must exist); *rows, unless @p rows is NULL, is an array
 * of the hop's Interface rows in topology order (a new reference).
 * 0 or -errno.
 */
int ovs_select(struct ovs_hop *h, json_t **rows, char *err, size_t err_len);

/* Look up @p key in an OVSDB map. 1 found (*v set), 0 absent, -EPROTO. */
int ovs_map_get(const json_t *map, const char *key, uint64_t *v);

/* Counters as ovs-vswitchd last wrote them to OVSDB ("stats": "ovsdb"). */
int ovs_snapshot_ovsdb(struct ovs_hop *h, struct coord_snap *snap, char *err, size_t err_len);

/*
 * ovs_openflow.c: port stats of every port over OpenFlow 1.4 on the unix
 * socket @p path. @return the number of entries in @p o, or -errno.
 */
int ovs_ofp_dump_ports(const char *path, unsigned int timeout_ms, struct ovs_ofp *o,
		       unsigned int max, char *err, size_t err_len);

/*
 * ovs_openflow.c: flow stats of the bridge's drop-reason rules (cookies
 * under OVS_DROP_COOKIE) on the unix socket @p path.
 * @return the number of entries in @p f, or -errno.
 */
int ovs_ofp_dump_drop_rules(const char *path, unsigned int timeout_ms, struct ovs_ofp_flow *f,
			    unsigned int max, char *err, size_t err_len);

/* ovs_dump_ports.c: parse `ovs-ofctl dump-ports` text. Entries or -EPROTO. */
int ovs_parse_dump_ports(char *text, struct ovs_ofp *o, unsigned int max);

/* ovs_stats.c: live counters from OpenFlow port stats (the default). */
int ovs_snapshot_openflow(struct ovs_hop *h, struct coord_snap *snap, char *err, size_t err_len);

/* ovs_tool.c: run an OVS tool; a non-zero exit is -EIO with its stderr. */
int ovs_tool(struct ovs_hop *h, const char *const argv[], const char *in, size_t in_len,
	     unsigned int timeout_ms, struct ovs_out *out, char *err, size_t err_len);

/* `ovs-appctl [-t TARGET] CMD`. */
int ovs_appctl(struct ovs_hop *h, const char *cmd, struct ovs_out *out, char *err, size_t err_len);

/* ovs_info.c: versions, other_config and PMD rxq assignment, for context(). */
json_t *ovs_info(struct ovs_hop *h);

/* ovs_flows.c: coord_driver::install_flows. */
int ovs_install_flows(struct coord_hop *hop, const char *rule_type, unsigned int flows, char *err,
		      size_t err_len);

/*
 * ovs_restart.c: compare a snapshot with the last one. A port younger
 * than before or a counter lower than before means ovs-vswitchd restarted
 * (or the port was re-created): the rules on the bridge are gone and the
 * counters cannot be subtracted. @return 0, or -ESTALE with @p err set.
 */
int ovs_restart_check(struct ovs_hop *h, const struct coord_snap *snap, char *err, size_t err_len);

/*
 * ovs_restart.c: before a trial (clear), put back the rules pvpkit
 * installed if a restart took them. @return 0, or -errno with @p err set.
 */
int ovs_restart_recover(struct coord_hop *hop, char *err, size_t err_len);

#endif /* OVS_PRIVATE_H */
