/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * The hop-driver contract: what the coordinator core (lib/coord) asks of
 * every kind of hop, in the manner of Open vSwitch's netdev-provider.h.
 * A driver is one constant struct coord_driver of callbacks (drivers/,
 * listed in drivers/registry.h); a topology file names it per hop.
 *
 * Roles
 * -----
 * coord_driver::roles says what a kind of hop does in a trial, and the
 * core acts on the roles, never on which callbacks happen to be NULL:
 *
 * - COORD_ROLE_SOURCE: sends the trial's traffic and measures it
 *   (pvpkit-gen). The core starts and stops every source around the
 *   measured period and sums what they report.
 * - COORD_ROLE_VSWITCH: forwards by rules the coordinator installs for
 *   a flow type (OVS). The core hands every vswitch the rule type and
 *   flow count before the trials that need them.
 * - COORD_ROLE_COUNTERS: reports per-port counters; chain points may only
 *   name ports of such hops (pvpkit-gen, pvpkit-fwd, OVS, telemetry).
 * - COORD_ROLE_PASSIVE: only observed. The core never clears it, never
 *   installs rules in it and never sends through it: a passive reader
 *   (a DPDK app's telemetry: COUNTERS | PASSIVE) or a link with nothing to
 *   read at all (wire: PASSIVE alone).
 *
 * The table below says which callbacks each role needs; coord_driver_check()
 * enforces it, and a topology naming a driver that breaks it is refused.
 *
 *   callback        required when           must be NULL when
 *   open, close     -                       -
 *   snapshot        COUNTERS                not COUNTERS
 *   clear           -                       PASSIVE
 *   traffic_start   SOURCE                  not SOURCE
 *   traffic_stop    SOURCE                  not SOURCE
 *   traffic_result  -                       not SOURCE
 *   install_flows   VSWITCH                 neither SOURCE nor VSWITCH
 *   context         -                       -
 *
 * Threads
 * -------
 * The core calls every callback of every hop from its one main thread,
 * one call at a time, except snapshot(): to read all hops as close in
 * time as possible it runs each hop's snapshot() in a thread of its own,
 * concurrently with the other hops' snapshots. Two callbacks of one hop
 * never run at the same time, so a driver needs no lock for hop->priv;
 * but snapshot() must not touch state shared between hops or
 * non-reentrant library state (static buffers, strtok, the environment).
 *
 * Clearing
 * --------
 * The coordinator never trusts a hop to clear its counters: a trial takes
 * one snapshot of every hop before traffic and one after, and works on
 * the difference. clear() exists for what a difference cannot cover. It
 * is called on every hop that is not PASSIVE once per trial, after any
 * warm-up and before the baseline snapshot, and must:
 * 1. restart everything the driver reports outside snapshot() so that it
 *    covers the coming trial only: a source's per-stream loss and latency
 *    (traffic_result), per-trial figures in context() (OVS PMD cycles);
 * 2. restart the hop's port counters too where the hop can (the pvpkit
 *    apps can; OVS Interface statistics and DPDK telemetry cannot). The
 *    core never relies on this.
 * A driver with nothing under 1. and 2. leaves clear NULL. For each
 * driver:
 *
 *   gen      stats.clear: per-stream loss and latency and the port
 *            counters restart (the app keeps a reader-side baseline).
 *   fwd      stats.clear: the port counters restart.
 *   ovs      ovs-appctl dpif-netdev/pmd-stats-clear: the PMD statistics
 *            in context() restart; Interface counters cannot be cleared.
 *   telemetry none (PASSIVE): DPDK telemetry is read-only and context()
 *            holds nothing per trial.
 *   wire     none (PASSIVE): nothing to read.
 *
 * Errors
 * ------
 * Every callback that can fail returns 0 or a negative errno and then
 * writes one line, without a newline, to @p err (at most @p err_len
 * bytes, always NUL-terminated when err_len > 0), naming the hop or the
 * driver ("hop guest: ...", "ovs: ..."). Callbacks never print
 * themselves. The first error is kept (pvp_err(), pvp_fail()): the core
 * hands every callback an empty @p err, and a driver clears its own
 * buffers before each step whose failure it lets pass.
 *
 * The error's type is its code, never its text. A hop that does not
 * answer at all (no connection, connection refused or lost, no reply in
 * time) is *unreachable*: its driver returns a code for which
 * coord_err_unreachable() is true (-ENOTCONN, -ETIMEDOUT, -ECONNREFUSED,
 * -ECONNRESET, -EPIPE, -EHOSTUNREACH, -ENETUNREACH), passing a failed
 * connect()'s errno through coord_err_connect() so that a socket file
 * that is missing (-ENOENT) reads as unreachable too; every other code
 * means the hop answered and something else went wrong (-EPROTO a bad
 * reply, -ENOENT a port it does not have, -EINVAL a bad config...).
 *
 * Any error ends the trial, except from clear(): there only an
 * unreachable hop does, others become a warning in the trial's result.
 * The core prints a driver's line as it is, except a snapshot()'s (the
 * hops are read together, so the line must say which one failed): one
 * that does not start with "hop " becomes "hop NAME: LINE", or "hop NAME
 * unreachable: LINE" for an unreachable code.
 */

#ifndef COORD_DRIVER_H
#define COORD_DRIVER_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "pvp_stats_json.h"
#include "pvp_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * True when a callback's return @p code says the hop did not answer at
 * all (see "Errors"), false for any other error and for success.
 */
static inline bool
coord_err_unreachable(int code)
{
	switch (-code) {
	case ENOTCONN:
	case ETIMEDOUT:
	case ECONNREFUSED:
	case ECONNRESET:
	case EPIPE:
	case EHOSTUNREACH:
	case ENETUNREACH:
		return true;
	default:
		return false;
	}
}

/**
 * The code to return for a connect() (or first send) to a hop that
 * failed with -errno @p code: @p code when it already reads as
 * unreachable, else -ECONNREFUSED (a unix socket that does not exist
 * (-ENOENT) or may not be opened (-EACCES) is a hop that cannot be
 * reached, not a bad request).
 */
static inline int
coord_err_connect(int code)
{
	return coord_err_unreachable(code) ? code : -ECONNREFUSED;
}

/** Most ports a hop reports. */
#define COORD_MAX_PORTS 16
/** Most named drop reasons per port. */
#define COORD_MAX_REASONS 8

/** The side of a port a drop reason belongs to. */
enum coord_side {
	COORD_SIDE_BOTH, /**< shown at the port's rx and tx points */
	COORD_SIDE_RX,	 /**< dropped on receive: shown at rx points */
	COORD_SIDE_TX,	 /**< dropped on send: shown at tx points */
};

/**
 * The drop-reason vocabulary, X(name, side, meaning): one name for one
 * thing in every driver, and the side it belongs to, so the core never
 * guesses a side from a name. A driver reports a reason of this list
 * with coord_port_add_reason(); one the list does not know (a PMD's
 * own xstat, passed through as it is named) with
 * coord_port_add_named_reason() and an explicit side.
 */
#define COORD_FOREACH_REASON(X)                                                                    \
	X(rx_missed, RX, "no room in the port's RX ring (ethdev imissed, OVS rx_missed_errors)")   \
	X(rx_nombuf, RX, "no mbuf to receive into (OVS rx_mbuf_allocation_errors)")                \
	X(rx_sw_dropped, RX, "received, then dropped by the application")                          \
	X(impair_dropped, RX, "dropped on purpose by pvpkit-fwd's impairment stage")               \
	X(rx_ring_full, RX, "refused by this receiver's full ring, counted by the sender")         \
	X(tx_full, TX, "TX ring full, not sent (the pvpkit apps' tx_dropped)")                     \
	X(ovs_rx_qos_drops, RX, "OVS ingress policing")                                            \
	X(ovs_tx_failure_drops, TX, "OVS could not send: the guest's or NIC's ring was full")      \
	X(ovs_tx_mtu_exceeded_drops, TX, "OVS: frame over the port MTU")                           \
	X(ovs_tx_qos_drops, TX, "OVS egress policing")                                             \
	X(ovs_tx_invalid_hwol_drops, TX, "OVS: bad offload metadata")                              \
	X(no_neighbour, TX, "routed, then dropped: no neighbour entry for the next hop")

/** The reasons of COORD_FOREACH_REASON, by name: COORD_REASON_rx_missed ... */
/* clang-format off */
enum coord_reason_id {
#define COORD_REASON_X_ENUM(name, side, what) COORD_REASON_##name,
	COORD_FOREACH_REASON(COORD_REASON_X_ENUM)
#undef COORD_REASON_X_ENUM
	COORD_NB_REASON_IDS /**< number of reasons in the vocabulary */
};
/* clang-format on */

/**
 * Most names of reasons outside the vocabulary (a hop's own, given to
 * coord_port_add_named_reason()) that a process keeps; a reason with a
 * name beyond them is not reported.
 */
#define COORD_MAX_OWN_REASONS 64
/** Longest name of such a reason, NUL included (longer ones are cut). */
#define COORD_OWN_REASON_LEN 48

/** A named drop counter of a port. */
struct coord_reason {
	/**
	 * Which reason, compared as a number: an enum coord_reason_id, or
	 * from COORD_NB_REASON_IDS on a hop's own name, kept once for the
	 * process (coord_reason_name() gives either name).
	 */
	unsigned int id;
	enum coord_side side; /**< where it is shown (COORD_SIDE_BOTH when unknown) */
	uint64_t value;	      /**< packets */
};

/** The counters every hop reports for one port (doc/stats.rst). */
struct coord_port {
	/** Port name as in the topology file. */
	char name[64];
	/**
	 * The 8 counters of lib/stats in its shape, indexed by enum
	 * pvp_stats_counter (doc/stats.rst): c[PVP_STATS_rx_packets] ...,
	 * rx_dropped (missed + no-mbuf + policing ...), tx_dropped (queue
	 * full ...), so code over all of them is a loop.
	 */
	uint64_t c[PVP_STATS_NB_COUNTERS];
	/**
	 * tx_dropped are packets the next hop refused: the TX ring is the
	 * peer's RX ring (virtio-user, memif) and the sender gave them up
	 * (pvpkit-gen --tx-full drop). They count as sent at this point and
	 * as the next hop's loss on receive ("rx_ring_full"), as rx_missed
	 * would on a NIC.
	 */
	bool tx_refused_by_peer;
	/**
	 * ARP/ND frames in rx_packets and tx_packets (pvpkit-gen's
	 * neighbour responder and resolver), 0 where the hop does not
	 * know. They are link-local: the hop at the other end of the link
	 * answers or consumes them and forwards none, so a link's packets
	 * are figured without them at both its ends.
	 */
	uint64_t neigh_rx;
	uint64_t neigh_tx; /**< ARP/ND frames in tx_packets, as neigh_rx */
	/**
	 * RX port: packets the hop added on purpose to what it received here
	 * (pvpkit-fwd's impairment stage's duplicates). The hop may emit that
	 * many more than it received without a negative-loss finding; its
	 * loss is then net of them (coord_trial_result::hop_added).
	 */
	uint64_t added;
	unsigned int nb_reasons;			/**< entries in reasons[] */
	struct coord_reason reasons[COORD_MAX_REASONS]; /**< drops by reason */
};

/** One reading of every port of a hop. */
struct coord_snap {
	uint64_t t_ns;				 /**< CLOCK_MONOTONIC when read */
	unsigned int nb_ports;			 /**< entries in port[] */
	struct coord_port port[COORD_MAX_PORTS]; /**< per port, topology order */
};

/** What a traffic source is asked to send (gen and similar drivers). */
struct coord_traffic {
	double rate_pps;       /**< packets per second per TX port, > 0 when
			       *   rate is NULL (coord_traffic_check_rate()) */
	double duration_s;     /**< seconds */
	unsigned int size;     /**< frame size with FCS (64..9216) */
	unsigned int flows;    /**< flow count */
	const char *profile;   /**< profile file instead of size/flows, or NULL */
	const char *rate;      /**< rate as the user wrote it ("1Mpps", "10%",
			       *   "5Gbps", "max"), given to the source as is;
			       *   NULL: use rate_pps. Line rate only when
			       *   asked for by name, "max" or "100%" */
	const char *flow_type; /**< rules the traffic must match (flows.h):
				 *   "l2", "l3", "l4" vary the destination MAC,
				 *   IPv4 or UDP port like the vswitch's rules;
				 *   "normal" the source IPv4; NULL: the type
				 *   the source's install_flows was last given,
				 *   else "normal". Ignored with a profile. */
	/**
	 * CLOCK_REALTIME second (with its fraction) at which the source must
	 * send its first packet, so that several sources, on one host or on
	 * hosts whose clocks are synchronised, start together; 0: at once.
	 * Only given to drivers with coord_driver::timed_start; the core
	 * starts the others itself at that time.
	 */
	double start_at;
};

/** What a traffic source measured (only sources fill it). */
struct coord_traffic_result {
	double requested_pps;	/**< rate asked for, all TX ports */
	double achieved_pps;	/**< rate achieved, all TX ports */
	bool generator_limited; /**< could not send what was asked */
	json_t *streams;	/**< per-stream loss/latency from the source, or NULL */
	/**
	 * The source's own accounting of what it sent and received, by the
	 * payload signature (traffic_result only; the core checks the chain's
	 * port counters against it). Every frame the source received is in
	 * exactly one of sig_rx, unsigned_rx, neigh_rx and unknown_stream_rx.
	 */
	bool has_sig;		    /**< the sig_ and _rx members below are set */
	uint64_t sig_offered;	    /**< packets its streams offered, all streams */
	uint64_t sig_rx;	    /**< signed packets of its streams received,
				     *   duplicates included */
	uint64_t sig_lost;	    /**< its streams' loss by sequence number */
	uint64_t sig_dup;	    /**< duplicates among sig_rx */
	uint64_t unsigned_rx;	    /**< frames received without a signature */
	uint64_t unknown_stream_rx; /**< signed frames of no stream it sends */
	uint64_t neigh_rx;	    /**< ARP/ND frames it received (0 when it
				     *   does not say: an older generator) */
	bool has_first_tx;	    /**< first_tx_s is set */
	double first_tx_s;	    /**< CLOCK_REALTIME second of the run's first
				     *   packet, as the source measured it */
	bool has_max_burst;	    /**< max_burst is set */
	uint64_t max_burst;	    /**< most packets its pacer sent back to back
				     *   ahead of the schedule (catch-up after a
				     *   stall), largest over its streams */
	json_t *warnings;	    /**< one-line strings for the trial's
				     *   warnings (what the source knows of a
				     *   loss), or NULL; the trial takes them */
};

struct coord_hop;

/**
 * Default bound on one exchange with a hop (a control call, an OVSDB
 * reply, an OVS command, a telemetry reply, a TRex request), the same
 * for every driver: 3 s, what TRex's own client waits. A hop's
 * "timeout_ms" member overrides it.
 */
#define COORD_HOP_TIMEOUT_MS 3000
/* COORD_HOP_TIMEOUT_MS as the text of a schema default. */
#define COORD_STR_(x) #x
#define COORD_STR(x)  COORD_STR_(x)

/** coord_driver::conf's "timeout_ms" member, the same in every driver. */
#define COORD_HOP_TIMEOUT_MEMBER(st, field)                                                        \
	{                                                                                          \
		.name = "timeout_ms", .type = PVP_SCHEMA_UINT, .min = 1, .max = 600000,            \
		.def = COORD_STR(COORD_HOP_TIMEOUT_MS), PVP_SCHEMA_AT(st, field),                  \
		.help = "bound on each exchange with the hop (ms)",                                \
	}

/**
 * coord_driver::conf's "ports" member: at least @p least (0 or 1) names,
 * at most COORD_MAX_PORTS. Checked and documented only: the topology
 * loader gives the names to every driver in coord_hop::ports.
 */
#define COORD_HOP_PORTS_MEMBER(least, text)                                                        \
	{                                                                                          \
		.name = "ports", .type = PVP_SCHEMA_ARRAY, .required = (least) > 0,                \
		.min = (least), .max = COORD_MAX_PORTS, .members = &coord_hop_port,                \
		.help = (text),                                                                    \
	}

/**
 * Flow types: what a vswitch's rules match and what a source varies
 * (drivers/flows.h says which field). X(name) for each, in the
 * order of enum coord_flow_type.
 */
#define COORD_FOREACH_FLOW_TYPE(X) X(normal) X(l2) X(l3) X(l4)

/** A flow type: COORD_FLOW_normal, COORD_FLOW_l2, ... */
enum coord_flow_type {
#define COORD_FLOW_ENUM(n) COORD_FLOW_##n,
	COORD_FOREACH_FLOW_TYPE(COORD_FLOW_ENUM)
#undef COORD_FLOW_ENUM
		COORD_FLOW_NB, /**< number of flow types */
};

/** "normal", "l2", "l3", "l4", NULL: a schema's values, a message's list. */
extern const char *const coord_flow_type_names[];

/**
 * The one parser of a flow type's name, for the command line and the
 * drivers alike.
 * @return 0 with *@p type set, or -EINVAL (@p s NULL or unknown).
 */
int coord_flow_type_parse(const char *s, enum coord_flow_type *type);

/** A port name in a hop's "ports" (1..63 characters), the item of a driver's "ports" member. */
extern const struct pvp_schema_member coord_hop_port;

/**
 * Decode the hop's object @p conf into @p obj through the driver's table
 * @p members (pvp_schema_decode(), the members every hop has, checked
 * by the topology loader, left out: "name", "driver", "comment";
 * defaults applied).
 * @return 0, or -EINVAL with "hop NAME: path: message" in @p err.
 */
int coord_hop_conf(const struct coord_hop *hop, const struct pvp_schema_member *members,
		   const json_t *conf, void *obj, char *err, size_t err_len);

/** What a kind of hop does in a trial: bits of coord_driver::roles. */
enum coord_role {
	COORD_ROLE_SOURCE = 1u << 0,   /**< sends and measures the trial's traffic */
	COORD_ROLE_VSWITCH = 1u << 1,  /**< forwards by rules the coordinator installs */
	COORD_ROLE_COUNTERS = 1u << 2, /**< reports per-port counters (chain points) */
	COORD_ROLE_PASSIVE = 1u << 3,  /**< only observed: never cleared or configured */
};

/** A kind of hop: its roles and its callbacks (NULL: not supported). */
struct coord_driver {
	/** Driver name used in topology files: "gen", "fwd", "ovs", ... */
	const char *name;

	/** COORD_ROLE_* bits; see "Roles" above. */
	unsigned int roles;

	/**
	 * SOURCE: traffic_start() honours coord_traffic::start_at (returns at
	 * once and sends from that time on) and traffic_stop() or
	 * traffic_result() report first_tx_s. With several sources the core
	 * gives them all one start time a little ahead (see "Several
	 * sources" in doc/design.rst); a source without it is started by the
	 * core when that time comes.
	 */
	bool timed_start;

	/**
	 * The members a hop of this driver may have in a topology file
	 * besides "name", "driver", "ports" and "comment" (NULL-name ended).
	 * The core checks them for every hop before any hop is opened, so a
	 * typo or a bad value in the last hop is reported, with its
	 * file:line:col, before the first one is contacted. open() decodes
	 * the same table into its struct (coord_hop_conf()), and
	 * doc/hop-members.rst is written from it (pvpkit-schema-doc). NULL:
	 * no check by the core, open() alone checks its members.
	 */
	const struct pvp_schema_member *conf;

	/**
	 * Check @p conf (the hop's object in the topology file; its types and
	 * ranges were already checked against @c conf, and its "ports" are
	 * in hop->ports already), connect to
	 * the hop and store private state in hop->priv. Connect here, not at
	 * the first trial, so that a wrong address is reported before any
	 * traffic. NULL: nothing to open (hop->priv stays NULL).
	 * @return 0, or -errno with @p err set; on error nothing is left
	 *   allocated and close() is not called.
	 */
	int (*open)(struct coord_hop *hop, const json_t *conf, char *err, size_t err_len);

	/**
	 * Disconnect and free hop->priv. Called once for every hop whose
	 * open() succeeded (or that has no open()) when the topology is
	 * freed, whatever happened in between.
	 */
	void (*close)(struct coord_hop *hop);

	/**
	 * COUNTERS: read every port's counters into @p snap, in the order of
	 * the hop's ports in the topology, and set snap->t_ns. The values must
	 * be live (read at the call), never a cached copy: the trial polls
	 * snapshots until they stop changing, so a copy refreshed every few
	 * seconds (OVSDB Interface statistics: every 5 s) looks quiet at once
	 * and gives a wrong table. Called from a thread of its own (see
	 * "Threads"), many times per trial while counters settle, so it must
	 * be bounded by the hop's timeout.
	 * Drop reasons come from the vocabulary (COORD_FOREACH_REASON) or
	 * carry their side; each is shown at the points of its side.
	 * @return 0, or -errno with @p err set (see "Errors").
	 */
	int (*snapshot)(struct coord_hop *hop, struct coord_snap *snap, char *err, size_t err_len);

	/**
	 * Start a measurement period (see "Clearing"). Not called on PASSIVE
	 * hops. @return 0, or -errno with @p err set: an unreachable hop
	 * (coord_err_unreachable()) ends the trial, any other error is a
	 * warning in the trial's result.
	 */
	int (*clear)(struct coord_hop *hop, char *err, size_t err_len);

	/**
	 * SOURCE: start sending @p t and return at once; the core times the
	 * trial and calls traffic_stop(). A source asked to send what it
	 * cannot (a rate over its link) sends what it can and says so in
	 * traffic_stop()'s generator_limited, rather than failing.
	 * @return 0, or -errno with @p err set (nothing is being sent then).
	 */
	int (*traffic_start)(struct coord_hop *hop, const struct coord_traffic *t, char *err,
			     size_t err_len);

	/**
	 * SOURCE: stop sending and fill @p res (all but streams, which may
	 * still be incomplete while packets are in flight). Called after
	 * every successful traffic_start(), also when the trial is given up.
	 * @return 0, or -errno with @p err set.
	 */
	int (*traffic_stop)(struct coord_hop *hop, struct coord_traffic_result *res, char *err,
			    size_t err_len);

	/**
	 * VSWITCH: replace the hop's forwarding rules by rules for @p flows
	 * flows of kind @p rule_type ("normal", "l2", "l3", "l4";
	 * flows.h) and check they are in place.
	 * SOURCE: only remember @p rule_type, so that traffic matches the
	 * rules when coord_traffic::flow_type is NULL.
	 * @return 0, or -errno with @p err set.
	 */
	int (*install_flows)(struct coord_hop *hop, const char *rule_type, unsigned int flows,
			     char *err, size_t err_len);

	/**
	 * Extra context for reports (PMD stats, the app's info) as JSON,
	 * read once after the trial's final snapshot. Failing to read it
	 * does not fail the trial.
	 * @return a new reference, or NULL.
	 */
	json_t *(*context)(struct coord_hop *hop);

	/**
	 * SOURCE, optional: read the source's final measurement into @p res
	 * once every hop's counters are quiet (per-stream counts are complete
	 * only then). Without it, what traffic_stop() filled is used. The
	 * caller owns res->streams afterwards (json_decref).
	 * @return 0, or -errno with @p err set.
	 */
	int (*traffic_result)(struct coord_hop *hop, struct coord_traffic_result *res, char *err,
			      size_t err_len);

	/**
	 * Optional: call control method @p method with @p params (an object
	 * or NULL, not stolen) on the hop's own control channel, as pvpkit
	 * soak --inject does at a planned second (an impair.set in a guest's
	 * pvpkit-fwd). NULL: the hop takes no such calls.
	 * @return 0 with *result a new reference, or -errno with @p err set.
	 */
	int (*call)(struct coord_hop *hop, const char *method, json_t *params, json_t **result,
		    char *err, size_t err_len);

	/**
	 * SOURCE, optional: one-way latency. Hand @p peer, the clock sample
	 * of a guest that stamps its receive time (pvpkit-fwd's clock.get
	 * answer), to the source, which splits latency at the stamps only
	 * where that clock is its own (coord_oneway_prepare()). NULL: the
	 * source reports round trips only.
	 * @return 0 with *result a new reference ({"clock": "shared" |
	 *   "differs", "reason", "offset_ns"}), or -errno with @p err set.
	 */
	int (*oneway_set)(struct coord_hop *hop, const json_t *peer, json_t **result, char *err,
			  size_t err_len);
};

/** True when driver @p d has every role bit in @p role. */
static inline bool
coord_driver_has(const struct coord_driver *d, unsigned int role)
{
	return (d->roles & role) == role;
}

/**
 * Check that @p d's callbacks match its roles (the table in "Roles").
 * @return 0, or -EINVAL with @p err set to the first mismatch.
 */
int coord_driver_check(const struct coord_driver *d, char *err, size_t err_len);

/**
 * The name of reason @p id (coord_reason::id): a vocabulary one
 * ("rx_missed") or a hop's own, or NULL for no reason.
 */
const char *coord_reason_name(unsigned int id);

/** The side of vocabulary reason @p id. */
enum coord_side coord_reason_side(enum coord_reason_id id);

/**
 * Add reason @p id with @p value to port @p p (nothing when its
 * COORD_MAX_REASONS entries are used).
 */
void coord_port_add_reason(struct coord_port *p, enum coord_reason_id id, uint64_t value);

/**
 * Add a reason the vocabulary does not know, named as the hop names it,
 * with its side. A @p name of the vocabulary is that reason, with the
 * vocabulary's side. Others get an id of their own the first time they
 * are seen (COORD_MAX_OWN_REASONS of them per process; one beyond is not
 * added). Safe from concurrent snapshot() calls.
 */
void coord_port_add_named_reason(struct coord_port *p, const char *name, enum coord_side side,
				 uint64_t value);

/**
 * The rate check every source makes before it sends: without a rate
 * string, rate_pps must be a positive finite number. Nothing maps an
 * unset, zero or negative rate to line rate (a PDR of 0 read from a
 * results file would otherwise flood the DUT); "max" is asked for by name.
 * @return 0, or -EINVAL with "hop NAME: rate ... must be positive" in @p err.
 */
int coord_traffic_check_rate(const struct coord_hop *hop, const struct coord_traffic *t, char *err,
			     size_t err_len);

/**
 * Append one formatted line to the JSON array *@p warnings (made if
 * NULL): a trial's warnings, a source's (coord_traffic_result::warnings).
 */
void coord_warn(json_t **warnings, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** One hop of a topology: what every callback gets. */
struct coord_hop {
	char name[64];			   /**< hop name from the topology */
	const struct coord_driver *driver; /**< its kind */
	unsigned int nb_ports;		   /**< entries in ports[], set before open() */
	char ports[COORD_MAX_PORTS][64];   /**< "ports", file order: the one copy */
	void *priv;			   /**< driver state */
};

/**
 * Set @p hop's ports from @p ports, its topology object's "ports" (NULL:
 * none): at most COORD_MAX_PORTS names of 1..63 characters, each once.
 * The topology loader calls it before open(), as a test opening a driver must.
 * @return 0, or -EINVAL with @p err set and in *@p bad (unless NULL) the
 *   index of the name at fault (-1: the list itself).
 */
int coord_hop_ports(struct coord_hop *hop, const json_t *ports, int *bad, char *err,
		    size_t err_len);

/** The index of port @p name in @p hop's ports, or -1. */
int coord_hop_port_index(const struct coord_hop *hop, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* COORD_DRIVER_H */
