/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * pvpkit-gen's control channel as both ends see it (doc/control.rst):
 * the method names, the parameters of each method that takes some and
 * the members of the stats.get answer, described once, as schema tables.
 * The server decodes the parameters with them (pvp_ctl_params()) and
 * writes its answer (pvp_schema_encode()); the gen hop driver encodes its
 * requests and reads the answer back (pvp_schema_read()) with the same
 * tables, and doc/control-params.rst and doc/hop-members.rst are written
 * from them. No DPDK: the coordinator links it.
 */

#ifndef PVP_GEN_ANSWER_H
#define PVP_GEN_ANSWER_H

#include <stdbool.h>
#include <stdint.h>

#include "pvp_schema.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PVP_GEN_M_PROFILE_LOAD	 "profile.load"
#define PVP_GEN_M_TRAFFIC_START	 "traffic.start"
#define PVP_GEN_M_TRAFFIC_STOP	 "traffic.stop"
#define PVP_GEN_M_TRAFFIC_UPDATE "traffic.update"
#define PVP_GEN_M_STATS_GET	 "stats.get"
#define PVP_GEN_M_STATS_CLEAR	 "stats.clear"
#define PVP_GEN_M_CAPTURE_START	 "capture.start"
#define PVP_GEN_M_CAPTURE_STOP	 "capture.stop"
#define PVP_GEN_M_CAPTURE_STATUS "capture.status"
#define PVP_GEN_M_NEIGH_SET	 "neigh.set"
#define PVP_GEN_M_CLOCK_GET	 "clock.get"
#define PVP_GEN_M_ONEWAY_SET	 "oneway.set"

/* Members of the stats.get answer (pvp_gen_traffic_members is "traffic"). */
#define PVP_GEN_K_TRAFFIC	    "traffic"
#define PVP_GEN_K_STREAMS	    "streams"
#define PVP_GEN_K_ONEWAY	    "oneway"
#define PVP_GEN_K_ONEWAY_NS	    "oneway_ns"
#define PVP_GEN_K_TO_GUEST	    "to_guest"
#define PVP_GEN_K_FROM_GUEST	    "from_guest"
#define PVP_GEN_K_TX_OFFERED	    "tx_offered"
#define PVP_GEN_K_RX_PACKETS	    "rx_packets"
#define PVP_GEN_K_LOST		    "lost"
#define PVP_GEN_K_DUP		    "dup"
#define PVP_GEN_K_UNSIGNED_RX	    "unsigned_rx"
#define PVP_GEN_K_UNKNOWN_STREAM_RX "unknown_stream_rx"
#define PVP_GEN_K_NEIGH_RX	    "neigh_rx" /* ARP/ND frames: not unsigned_rx */
#define PVP_GEN_K_NEIGH		    "neigh"    /* per port: the ARP/ND responder */
#define PVP_GEN_K_CAPTURE	    "capture"  /* captures' counts, once one ran */
#define PVP_GEN_K_CAPTURED	    "captured" /* frames a capture kept (also in their counter) */

/* Bounds of the parameters (the apps' own limits are these). */
#define PVP_GEN_MAX_PORTS      8	   /**< ports one generator drives */
#define PVP_GEN_MAX_SIZE       9216	   /**< largest frame, with FCS (PVP_PKT_MAX_SIZE) */
#define PVP_GEN_MAX_DURATION_S 86400	   /**< longest run, seconds (as --duration) */
#define PVP_GEN_CAP_MAX_COUNT  1000000	   /**< most frames a capture keeps */
#define PVP_GEN_CAP_MAX_BYTES  (1ll << 32) /**< most frame bytes a capture keeps */
#define PVP_GEN_CAP_DEF_BYTES  67108864	   /**< bytes a capture keeps when not told (64 MiB) */

/**
 * profile.load: exactly one of a profile file, an inline profile, or
 * size and flows (checked by hand: a table says no "one of").
 */
struct pvp_gen_profile_load {
	char path[4096];  /**< the profile file to read */
	json_t *profile;  /**< the profile itself (borrowed) */
	uint32_t size;	  /**< frame size with FCS, 0: IMIX */
	uint32_t flows;	  /**< flows (source addresses) */
	bool has_path;	  /**< "path" was given */
	bool has_profile; /**< "profile" was given */
	bool has_size;	  /**< "size" was given */
	bool has_flows;	  /**< "flows" was given */
};

/**
 * traffic.start, and traffic.update (rate only). The rate's grammar
 * ("1Mpps", "10%", "max") is checked by hand, after decoding.
 */
struct pvp_gen_traffic_start {
	json_t *rate;	   /**< packets per second, or a rate as --rate; NULL: "max" */
	double duration;   /**< seconds, 0: until traffic.stop */
	double start_at;   /**< the CLOCK_REALTIME second to start at */
	bool has_start_at; /**< "start_at" was given */
};

/** capture.start. */
struct pvp_gen_capture_start {
	char file[256];	   /**< plain name of the pcap file, in --ctl-files-dir */
	char filter[1024]; /**< pcap-filter(7) expression, "": every frame */
	uint64_t count;	   /**< frames to keep, 0: no limit */
	uint64_t bytes;	   /**< frame bytes to keep */
	int32_t port;	   /**< port index, -1: every port */
	char dir[8];	   /**< "rx", "tx", "": both */
};

/** neigh.set. */
struct pvp_gen_neigh_set {
	uint32_t port;	/**< the --addr port */
	bool responder; /**< answer ARP/ND on it */
};

/** oneway.set. */
struct pvp_gen_oneway_set {
	json_t *peer;  /**< the guest's clock.get answer (borrowed) */
	bool has_peer; /**< false: null, one-way latency off */
};

/** The parameters of each method that takes some, NULL-ended. */
extern const struct pvp_schema_member pvp_gen_profile_load_members[];
extern const struct pvp_schema_member pvp_gen_traffic_start_members[];
extern const struct pvp_schema_member pvp_gen_traffic_update_members[];
extern const struct pvp_schema_member pvp_gen_capture_start_members[];
extern const struct pvp_schema_member pvp_gen_capture_stop_members[]; /**< into a uint32_t id */
extern const struct pvp_schema_member pvp_gen_neigh_set_members[];
extern const struct pvp_schema_member pvp_gen_oneway_set_members[];

/** One method's parameter table, for the doc. */
struct pvp_gen_method_params {
	const char *method;			 /**< its name */
	const struct pvp_schema_member *members; /**< its table */
};

/** Every method of pvpkit-gen that takes parameters, ended by a NULL method. */
extern const struct pvp_gen_method_params pvp_gen_method_params[];

/** What pvpkit-gen does with a packet its port's full ring refuses (--tx-full). */
enum pvp_gen_tx_full {
	PVP_GEN_TX_FULL_RETRY, /**< send it again: the rate drops, nothing is lost */
	PVP_GEN_TX_FULL_DROP,  /**< give it up: the next hop's loss */
};

/**
 * When the run began, as CLOCK_REALTIME seconds: a coordinator with
 * several generators compares their first_tx_s to say how far apart
 * they started.
 */
struct pvp_gen_start {
	double start_at;   /**< the time traffic.start asked for */
	double start_s;	   /**< the time it was due here */
	double first_tx_s; /**< the first packet any TX lcore sent */
	bool has_start_at; /**< traffic.start asked for a time */
	bool has_start_s;  /**< a run started */
	bool has_first_tx; /**< a packet was sent */
};

/** stats.get's "traffic": the run as a whole since the last clear. */
struct pvp_gen_traffic {
	bool running;		    /**< streams are being sent */
	unsigned int tx_full;	    /**< enum pvp_gen_tx_full */
	char rate[64];		    /**< the rate as asked ("1Mpps", "max") */
	double requested_pps;	    /**< packets per second asked, 0: unpaced */
	double achieved_pps;	    /**< packets sent over the time they took */
	uint64_t tx_packets;	    /**< packets the ports took */
	uint64_t tx_asked;	    /**< packets exact counts ask for, 0: no count */
	uint64_t tx_unsent;	    /**< packets a full ring refused */
	uint64_t tx_late;	    /**< bursts sent behind their schedule */
	uint64_t max_burst;	    /**< the largest burst ahead of the schedule */
	double elapsed_s;	    /**< from the start to the last packet */
	bool generator_limited;	    /**< it could not send what was asked */
	bool has_max_burst;	    /**< max_burst was said */
	struct pvp_gen_start start; /**< when the run began */
};

/** The members of struct pvp_gen_traffic, NULL-ended. */
extern const struct pvp_schema_member pvp_gen_traffic_members[];

/**
 * An item of stats.get's "neigh": one --addr port's ARP/ND responder.
 * pvpkit-fwd's items have the port and the counts only.
 */
struct pvp_gen_neigh {
	unsigned int port;    /**< the app's port index */
	char ip[16];	      /**< its IPv4 address, "" none */
	char ip6[46];	      /**< its IPv6 address, "" none */
	unsigned int vlan;    /**< its 802.1Q VLAN, 0: untagged */
	char gateway[46];     /**< its gateway (IPv4 when it has both), "" none */
	char gateway_mac[18]; /**< the gateway's MAC once resolved, "" before */
	uint64_t arp_rx;      /**< ARP frames received (in rx_packets) */
	uint64_t nd_rx;	      /**< ICMPv6 neighbour discovery frames received */
	uint64_t echo;	      /**< ICMP/ICMPv6 echo requests to the port received */
	uint64_t tx;	      /**< replies and announcements sent (in tx_packets) */
	uint64_t silenced;    /**< requests left unanswered while it is stopped */
	bool responder;	      /**< it answers (neigh.set); true when not said */
};

/** The members of struct pvp_gen_neigh, NULL-ended. */
extern const struct pvp_schema_member pvp_gen_neigh_members[];

#ifdef __cplusplus
}
#endif

#endif /* PVP_GEN_ANSWER_H */
