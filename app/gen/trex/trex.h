/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit-gen --trex: TRex's stateless RPC protocol (doc/trex.rst). One
 * thread owns both ZeroMQ sockets and runs every method and the periodic
 * work (ends of runs, rates); the data path is driven only through the
 * same per-lcore controls as run.c. Files by job:
 *   trex_server.c  sockets, compressed framing, JSON-RPC, api_h, owners,
 *                  sessions and async events
 *   trex_cmds.c    version, system info, port status and attributes
 *   trex_stream.c  TRex stream JSON into lib/pkt streams, the loaded profile
 *   trex_stream_build.c  TRex's packet as pvpkit-gen sends it: MACs, PTP,
 *                  checksums, flow-stat marks
 *   trex_vm.c      the field engine (VM instructions) into lib/pkt vars
 *   trex_run.c     per-port start, stop, pause, resume, update
 *   trex_stats.c   global, port, xstats and pgid (flow stats, latency)
 *   trex_push.c    push_remote: a pcap file replayed on a port
 *   trex_service.c service mode, L2/L3/IPv6/VLAN, RX queue, pushed packets
 *   trex_capport.c capture ports: a port's frames to and from a client's socket
 *   trex_util.c    get_utilization: CPU and mempools
 *   trex_tpg.c     tagged packet groups: tags, enable/disable
 *   trex_tpg_stream.c  tagged packet groups' streams: checks, header, seq
 *   trex_tpg_stats.c  tagged packet groups' RX and TX counters, unknown tags
 * Never installed.
 */

#ifndef GEN_TREX_H
#define GEN_TREX_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "gen.h"

/** TRex's stateless API: "STL" 5.1 (v2.90 clients ask 5.0, v3.x 5.1). */
#define TREX_API_NAME  "STL"
#define TREX_API_MAJOR 5
#define TREX_API_MINOR 1

/** Largest request taken (after decompression). */
#define TREX_MSG_MAX (16u << 20)
/** Requests one batch may hold (lib/ctl's bound). */
#define TREX_MAX_BATCH 64
/**
 * Most bytes of JSON kept of one stream for get_stream: a 9 KB packet
 * in base64 and a field engine of every variable and write fit easily.
 */
#define TREX_STREAM_JSON_MAX (64u << 10)
/** Streams one port may hold. */
#define TREX_MAX_PORT_STREAMS GEN_MAX_STREAMS
/** Sessions that get async events. */
#define TREX_MAX_SESSIONS 64
/** Events queued for one session before it is dropped as gone. */
#define TREX_SESSION_QUEUE 8192

/* JSON-RPC error codes, TRex's spelling of the RFC's. */
#define TREX_E_PARSE	   (-32700)
#define TREX_E_INVALID_REQ (-32600)
#define TREX_E_NO_METHOD   (-32601)
#define TREX_E_PARAMS	   (-32602)
#define TREX_E_INTERNAL	   (-32603)
#define TREX_E_EXEC	   (-32000)

/* Async event types (TRex's publisher ids). */
enum trex_event {
	TREX_EV_PORT_STARTED = 0,
	TREX_EV_PORT_STOPPED = 1,
	TREX_EV_PORT_PAUSED = 2,
	TREX_EV_PORT_RESUMED = 3,
	TREX_EV_PORT_FINISHED_TX = 4,
	TREX_EV_PORT_ACQUIRED = 5,
	TREX_EV_PORT_RELEASED = 6,
	TREX_EV_PROFILE_STARTED = 10,
	TREX_EV_PROFILE_STOPPED = 11,
	TREX_EV_PROFILE_PAUSED = 12,
	TREX_EV_PROFILE_RESUMED = 13,
	TREX_EV_PROFILE_FINISHED_TX = 14,
	TREX_EV_SERVER_STOPPED = 100,
};

/*
 * A method fails as every function here does: it returns a negative
 * errno and writes TRex's "specific_err" line into (err, err_len), the
 * first error kept. trex_handle_one() turns the errno into the answer's
 * code, the only place that does: -EINVAL TREX_E_PARAMS, -ENOSYS
 * TREX_E_NO_METHOD, -EIO and -ENOMEM TREX_E_INTERNAL, -EPROTO
 * TREX_E_INVALID_REQ, -EBADMSG TREX_E_PARSE, and any other errno (-EPERM
 * not the owner, -EBUSY the port's state, -ERANGE over a limit, ...)
 * TREX_E_EXEC. TREX_ERR_LEN is the room a method gets.
 */
#define TREX_ERR_LEN 512

/* Port states as get_port_status names them. */
enum trex_port_state {
	TREX_PORT_IDLE = 0, /* no streams */
	TREX_PORT_STREAMS,  /* streams, not sending */
	TREX_PORT_TX,	    /* sending */
	TREX_PORT_PAUSE,    /* paused */
};

/* Checksum fields one stream's fix_checksum_* instructions may name. */
#define TREX_MAX_CSUM_FIXED 8

/* One stream as add_stream gave it, translated. */
struct trex_stream {
	uint32_t id;		      /* TRex stream id */
	uint16_t port;		      /* its port */
	json_t *json;		      /* the "stream" object as given (get_stream) */
	bool enabled;		      /* "enabled" */
	bool self_start;	      /* "self_start" */
	bool start_paused;	      /* "start_paused" */
	enum pvp_mode mode;	      /* continuous, single_burst, multi_burst */
	uint64_t burst_pkts;	      /* single_burst total_pkts / pkts_per_burst */
	uint32_t burst_count;	      /* multi_burst count */
	double ibg_us;		      /* multi_burst inter-burst gap */
	enum pvp_rate_unit rate_unit; /* "mode.rate.type" */
	double rate_value;	      /* "mode.rate.value" */
	double isg_us;		      /* "isg": delay before the first packet */
	int64_t next;		      /* "next_stream_id": started when this one ends, -1: none */
	uint32_t action_count;	      /* "action_count": times this one starts next, 0: always */
	bool fs;		      /* flow_stats enabled */
	bool fs_latency;	      /* flow_stats rule_type "latency" */
	bool ieee_1588;		      /* latency: PTP Sync-shaped (flow_stats "ieee_1588") */
	bool tpg;		      /* flow_stats rule_type "tpg" (fs stays false): pgid is
					* its tpgid */
	uint32_t pgid;		      /* flow_stats stream_id */
	uint16_t fs_hw_id;	      /* stats: the pgid's counter index (TRex's hw_id) */
	uint8_t *pkt;		      /* packet bytes, FCS not included */
	uint32_t len;		      /* bytes in pkt */
	uint32_t n_vars;	      /* lib/pkt vars of the field engine */
	struct pvp_var vars[PVP_PKT_MAX_VARS];
	uint64_t flows;	      /* flows the vars make (1: none) */
	uint32_t random_seed; /* "random_seed": TRex's random sequence, 0: none asked */
	bool mac_src_pkt;     /* "flags" bit 0: the packet's source MAC, not the port's */
	bool mac_dst_pkt;     /* "flags" bits 1-2 are 1: the packet's destination MAC */
	uint32_t *vm_table;   /* the TABLE vars' values (trex_vm_sim.c), owned */
	uint16_t csum_fixed[TREX_MAX_CSUM_FIXED]; /* checksum fields the field engine fixes */
	uint8_t n_csum_fixed;			  /* entries in csum_fixed */
	uint16_t *vm_len; /* trim_pkt_size: each flow's bytes (trex_vm_sim.c), owned */
	double rate_len;  /* the length TRex's rates count: len, or trim's expected */
	/* Run state. */
	int ps;	       /* index in the loaded profile, -1: not loaded */
	bool paused;   /* pause_streams, or start_paused until resumed */
	double pps;    /* packets per second at factor 1 */
	double factor; /* update_streams' own factor, 1 otherwise */
};

/* One port as TRex clients see it. */
struct trex_port {
	enum trex_port_state state;
	bool owned;	     /* acquired: the next three are read only then */
	char owner[64];	     /* user */
	uint32_t session_id; /* owner's session */
	char handler[16];    /* what owned methods must send */
	bool promisc;	     /* promiscuous as set */
	bool allmulti;	     /* multicast as set */
	uint32_t nb_streams; /* streams[] in use, sorted by id */
	struct trex_stream *streams[TREX_MAX_PORT_STREAMS];
	/* Current run. */
	double factor;	    /* multiplier in force */
	double duration;    /* s, <= 0: none */
	uint64_t start_tsc; /* when it started (its streams' isg count from it) */
	uint64_t due_tsc;   /* planned end of a duration, 0: none */
	uint64_t end_tsc;   /* backstop: stop no later than this, 0: none */
	bool exact;	    /* duration made exact counts */
	uint64_t pause_tsc; /* when paused */
	double max_pps;	    /* at factor 1, for validate and multipliers */
	double max_bps_l1;
	double max_bps_l2;
};

/* The server. */
struct trex_ctx {
	struct gen_ctx *g;
	void *zctx;	 /* ZeroMQ context */
	void *rep;	 /* REP socket: requests */
	void *pub;	 /* PUB socket: async triggers */
	char rpc_ep[96]; /* bound endpoints */
	char pub_ep[96];
	char api_h[16];	    /* handler returned by api_sync_v2 */
	volatile bool stop; /* ask the thread to end */
	uint64_t boot_tsc;  /* for uptime */
	struct trex_port port[GEN_MAX_PORTS];
	uint64_t streams_gen; /* bumped by every stream change */
	uint64_t loaded_gen;  /* streams_gen of the loaded profile */
	bool loaded_any;      /* a profile of TRex streams is loaded */
	uint32_t nb_loaded;   /* streams in the loaded profile */
	struct trex_stream *loaded[GEN_MAX_STREAMS];
	uint32_t ver_id; /* pgid counters' version (bumped per load) */
};

extern struct trex_ctx trex;

/*
 * One message as it came (trex_server.c): a request or a batch, plain or
 * in the compressed framing. Returns the reply (malloc'd: compressed when
 * the request was, plain JSON for a message that could not be read) and
 * its length in *rlen; NULL when out of memory. Takes gen_lock itself.
 */
char *trex_handle_msg(const uint8_t *data, size_t len, size_t *rlen);

/*
 * A method: params is an object (never NULL); returns 0 with the result
 * in *res, or a negative errno with its line in @p err.
 */
typedef int trex_method_fn(json_t *params, json_t **res, char *err, size_t err_len);

/*
 * A method of one port: the server has read params.port_id into @p port
 * and, where the method's table entry says so, checked "profile_id"
 * (trex_param_profile()) before calling it.
 */
typedef int trex_port_method_fn(uint16_t port, json_t *params, json_t **res, char *err,
				size_t err_len);

/* trex_server.c: errors, parameters, events, ownership. */
/* A method's empty answer, {}: returns 0, so that "return trex_ok(res)" ends a method. */
int trex_ok(json_t **res);
/* TRex's error for a port that does not exist: -ENODEV. */
int trex_bad_port(char *err, size_t err_len);
int trex_param_port(json_t *p, uint16_t *port, char *err, size_t err_len);
int trex_param_bool(json_t *p, const char *name, int def, bool *v, char *err, size_t err_len);
int trex_param_uint(json_t *p, const char *name, uint64_t max, int64_t def, uint64_t *v, char *err,
		    size_t err_len);
int trex_param_int(json_t *p, const char *name, int64_t def_set, int64_t def, int64_t *v, char *err,
		   size_t err_len);
int trex_param_double(json_t *p, const char *name, bool has_def, double def, double *v, char *err,
		      size_t err_len);
const char *trex_param_str(json_t *p, const char *name, const char *def, char *err, size_t err_len);
json_t *trex_param_obj(json_t *p, const char *name, char *err, size_t err_len);
json_t *trex_param_array(json_t *p, const char *name, char *err, size_t err_len);
int trex_param_profile(json_t *p, bool allow_all, char *err, size_t err_len);
void trex_event(enum trex_event type, json_t *data);
void trex_event_port(enum trex_event port_ev, enum trex_event profile_ev, uint16_t port);
/* Session @p id (made if new): an owner's (acquire), or a @p reader only. */
struct trex_session *trex_session_add(uint32_t id, bool reader);
/* The list of the server's methods (trex_server.c). */
trex_method_fn trex_m_get_supported_cmds;
/* The publish_now and get_async_events methods (trex_events.c). */
trex_method_fn trex_m_publish_now, trex_m_get_async_events;
/* Drop every session and its queued events. */
void trex_sessions_free(void);
/*
 * A request's text with integer literals above INT64_MAX made reals
 * (trex_params.c); a new text, or NULL when there is none to change.
 */
char *trex_big_ints(const char *text, size_t len, size_t *olen);
/*
 * The entries of the batch (JSON array) @p text holds, counted without
 * parsing it; 0 when it is no array. Exact for valid JSON.
 */
size_t trex_batch_size(const char *text, size_t len);
/* A stream's packet from base64 (RFC 4648): malloc'd, or NULL; *len its size. */
uint8_t *trex_b64_decode(const char *in, uint32_t *len);

/* trex_cmds.c: general and port methods. */
trex_method_fn trex_m_api_sync_v2, trex_m_api_sync, trex_m_get_version, trex_m_ping,
	trex_m_get_system_info;
trex_port_method_fn trex_m_get_port_status, trex_m_get_owner, trex_m_acquire, trex_m_release,
	trex_m_set_port_attr, trex_m_remove_rx_filters;
const char *trex_state_name(enum trex_port_state s);

/* trex_capture.c: the "capture" method. */
trex_method_fn trex_m_capture;
struct gen_cap_pkt;
/* What a fetch of captured frames hands out. */
struct trex_cap_fetch {
	json_t *pkts;	  /* TRex's packet objects, appended */
	uint64_t snaplen; /* 0: whole frames */
};
/* gen_cap_fetch()'s callback: one frame into @p arg, a struct trex_cap_fetch. */
void trex_cap_pkt(void *arg, const struct gen_cap_pkt *pkt);

/*
 * trex_service.c: service mode, port addressing (L2, L3, IPv6, VLAN),
 * the RX queue and pushed packets.
 */
trex_port_method_fn trex_m_service, trex_m_set_l2, trex_m_set_l3, trex_m_conf_ipv6, trex_m_set_vlan;
trex_port_method_fn trex_m_set_rx_feature, trex_m_get_rx_queue_pkts, trex_m_push_pkts;
/* Whether port @p port is in service mode; @p filtered its filtered flag. */
bool trex_service_on(uint16_t port, bool *filtered);
/* Port @p port's "layer_cfg" and "vlan" into its attributes @p attr. */
void trex_service_attr(uint16_t port, json_t *attr);
/* Send the pushed packets that are due (server thread, under gen_lock). */
void trex_service_tick(void);
/* Microseconds until a pushed packet is due, 0: one is, -1: none waits. */
int64_t trex_service_next_us(void);
/*
 * Send @p len bytes of @p data on port @p port now, after any pushed
 * packet still waiting (the capture port's TX side): 0, -EINVAL for a
 * length out of TRex's bounds, -ENOBUFS when no buffer or ring has room.
 */
int trex_service_send(uint16_t port, const uint8_t *data, uint32_t len);
/* Port @p port's "rx_info.queue". */
json_t *trex_service_rx_queue(uint16_t port);
/*
 * Every port's destination MAC from --dst-mac (TRex's dest_mac of its
 * config file), all zeros without it. Returns 0 or -EINVAL with @p err.
 */
int trex_service_init(char *err, size_t errlen);
/*
 * The MACs port @p port writes over a stream's or a pushed frame's (TRex's
 * port node): its own as source; as destination set_l2's, set_l3's
 * resolved gateway, or trex_service_init()'s until either. Returns
 * false while the port's L3 gateway is not resolved (no destination MAC yet).
 */
bool trex_service_macs(uint16_t port, struct rte_ether_addr *src, struct rte_ether_addr *dst);

/*
 * trex_capport.c: capture ports (start_capture_port, stop_capture_port,
 * set_capture_port_bpf): a port's received frames to a client's ZeroMQ
 * PAIR socket, and the frames the client sends on it out of the port.
 */
trex_port_method_fn trex_m_start_capture_port, trex_m_stop_capture_port,
	trex_m_set_capture_port_bpf;
/* Whether port @p port is a capture port now. */
bool trex_capport_on(uint16_t port);
/* Whether capture @p id is the one that feeds a capture port (clients do not see it). */
bool trex_capport_owns(uint32_t id);
/* Port @p port's "rx_info.capture_port". */
json_t *trex_capport_json(uint16_t port);
/* Move frames both ways on every capture port (server thread, under gen_lock). */
void trex_capport_tick(void);
/* Milliseconds the server thread may sleep with capture ports on; -1: none is. */
int trex_capport_next_ms(void);
/* Stop every capture port and close its socket (before the ZeroMQ context goes). */
void trex_capport_fini(void);

/* trex_stream.c: streams and the loaded profile. */
trex_port_method_fn trex_m_add_stream, trex_m_remove_stream, trex_m_remove_all_streams,
	trex_m_get_stream_list, trex_m_get_all_streams, trex_m_get_stream;
void trex_stream_free(struct trex_stream *s);
void trex_streams_clear(uint16_t port);
int trex_profile_load(char *err, size_t err_len);
int trex_stream_pps(const struct trex_stream *s, uint16_t port, double *pps, char *err,
		    size_t err_len);

/* trex_stream_build.c: TRex's packet as pvpkit-gen sends it. */
int trex_stream_fill(const struct trex_stream *ts, struct pvp_stream *s, uint16_t id, char *msg,
		     size_t len);
/* TRex's flow-stat marks on @p s's packet (before the field engine runs). */
void trex_fs_mark(struct trex_stream *s);

/* trex_util.c: get_utilization, TX lcores' busy share and the mempools. */
trex_method_fn trex_m_get_utilization;

/* trex_push.c: push_remote, a pcap file replayed on a port (push.h). */
trex_port_method_fn trex_m_push_remote;
/* Whether @p port is pushing a pcap (TRex's PCAP_TX state). */
bool trex_push_active(uint16_t port);
/* TRex's error for command @p cmd refused in port state @p state (-EBUSY). */
int trex_state_refuse(const char *cmd, const char *state, char *err, size_t err_len);
/* Free the push of @p port once its TX lcores are idle (trex_port_end). */
void trex_push_end(uint16_t port);

/* trex_tpg*.c: tagged packet groups (../tpg.h has the RX side). */
trex_method_fn trex_m_enable_tpg, trex_m_disable_tpg, trex_m_get_tpg_state, trex_m_get_tpg_status,
	trex_m_get_tpg_tags, trex_m_update_tpg_tags, trex_m_clear_updated;
trex_port_method_fn trex_m_get_tpg_stats;
trex_method_fn trex_m_clear_tpg_stats;
trex_port_method_fn trex_m_get_tpg_tx_stats, trex_m_clear_tpg_tx_stats, trex_m_get_tpg_unknown_tags;
int trex_m_clear_tpg_unknown_tags(uint16_t port, json_t *p, json_t **res, char *err,
				  size_t err_len);
/* Whether tpg stream @p s (core_id @p core, -1: none) may be added now (TRex's rules). */
int trex_tpg_stream_check(const struct trex_stream *s, int64_t core, char *err, size_t err_len);
/* Whether tpg stream @p s, its field engine translated, leaves room for the header (TRex's rule). */
int trex_tpg_len_check(const struct trex_stream *s, char *err, size_t err_len);
/* TRex's TPG header into the template of @p s built from @p ts; 0 or -errno with @p msg. */
int trex_tpg_frame(const struct trex_stream *ts, struct pvp_stream *s, char *msg, size_t len);
/* Keep loaded tpg stream @p s's seq (it is removed, or a new profile replaces it). */
void trex_tpg_save(const struct trex_stream *s);
/* The new profile's tpg streams: their TX stamp and the seq each goes on from. */
void trex_tpg_loaded(void);
/* Drop the TPG context (server stop). */
void trex_tpg_free(void);

/* trex_vm_sim.c: the field engine. */
int trex_vm_translate(const json_t *vm, struct trex_stream *s, char *msg, size_t len);

/* trex_run.c: traffic. */
trex_port_method_fn trex_m_start_traffic, trex_m_stop_traffic, trex_m_pause_traffic,
	trex_m_resume_traffic, trex_m_update_traffic, trex_m_pause_streams, trex_m_resume_streams,
	trex_m_update_streams, trex_m_validate;
void trex_port_halt(uint16_t port);
void trex_run_tick(void);
int trex_run_next_ms(void);
bool trex_port_active(uint16_t port);

/* A client's multiplier ("mul"). */
struct trex_mul {
	enum { MUL_RAW, MUL_BPS, MUL_BPSL1, MUL_PPS, MUL_PCT } type;
	enum { MUL_ABS, MUL_ADD, MUL_SUB } op;
	double value;
};

/* trex_run.c, shared with the per-stream methods of trex_run_streams.c. */
int trex_mul_parse(json_t *p, struct trex_mul *m, char *err, size_t err_len);
/*
 * The factor @p m asks for against base rates of @p pps packets, @p l2
 * and @p l1 bit/s (a percentage: of @p speed bit/s), its op applied to
 * the factor in force @p cur.
 */
double trex_mul_factor(const struct trex_mul *m, double cur, double pps, double l2, double l1,
		       double speed);
/*
 * Whether @p port may send at port factor @p f, each stream at its own
 * factor (1 when @p fresh): within pvpkit-gen's rate bounds always, and
 * within the line unless @p force. @p l1_unit gets the L1 bit/s at
 * factor 1. Returns 0 or -ERANGE with TRex's message in @p err.
 */
int trex_port_fits(uint16_t port, double f, bool fresh, bool force, double *l1_unit, char *err,
		   size_t err_len);
struct trex_stream *trex_ws_stream(const struct gen_wstream *w);
/* Stream @p id of @p port (and its index in the port's streams[]), NULL when none. */
struct trex_stream *trex_stream_find(uint16_t port, uint32_t id, uint32_t *idx);
void trex_port_program(uint16_t port, uint64_t start_tsc);
void trex_lcores_go(uint16_t port);
void trex_lcores_retake(uint16_t port);
bool trex_lcores_idle(uint16_t port);

/* trex_stats.c: counters. */
trex_method_fn trex_m_get_global_stats, trex_m_get_active_pgids, trex_m_get_pgid_stats;
trex_port_method_fn trex_m_get_port_stats, trex_m_get_port_xstats_names,
	trex_m_get_port_xstats_values;
void trex_stats_tick(void);

#endif /* GEN_TREX_H */
