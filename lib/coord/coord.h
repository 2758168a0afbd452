/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * The coordinator's core (lib/coord, no DPDK): topology files, trials
 * with per-hop loss attribution, the per-hop table, the trial JSON and
 * the JSON-lines results file. Hops are reached through the drivers of
 * coord_driver.h.
 */

#ifndef COORD_H
#define COORD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "coord_driver.h"

/** Most hops in a topology. */
#define COORD_MAX_HOPS 16
/** Most chains in a topology. */
#define COORD_MAX_CHAINS 8
/** Most measurement points per chain. */
#define COORD_MAX_POINTS 32

/** Finds a driver by name (hop_driver_find, or a test's mock table). */
typedef const struct coord_driver *(*coord_driver_lookup_t)(const char *name);

/** One measurement point of a chain. */
struct coord_point {
	unsigned int hop;  /**< index in coord_topology::hops */
	unsigned int port; /**< index in the hop's ports */
	bool tx;	   /**< "tx": packets the hop sent; else "rx" */
	char label[64];	   /**< ovs_perf wording, e.g. "received by physical" */
};

/** The ordered points a packet passes, tester TX first. */
struct coord_chain {
	unsigned int nb_points;			     /**< entries in points[] */
	struct coord_point points[COORD_MAX_POINTS]; /**< in order */
};

/** One hop of a topology and its driver state. */
struct coord_topo_hop {
	struct coord_hop hop; /**< name, driver, ports, priv */
	json_t *conf;	      /**< its object in the file (borrowed from root) */
	bool opened;	      /**< open() succeeded */
};

/** A parsed topology file. */
struct coord_topology {
	char name[64];				     /**< "name", or the file's base name */
	char source[256];			     /**< file name for messages */
	unsigned int nb_hops;			     /**< entries in hops[] */
	struct coord_topo_hop hops[COORD_MAX_HOPS];  /**< in file order */
	unsigned int nb_chains;			     /**< entries in chains[] */
	struct coord_chain chains[COORD_MAX_CHAINS]; /**< in file order */
	json_t *root;				     /**< the parsed file */
	/** Lead of a start at a given time given to several sources: the
	 *  "start_lead_ms" member, else COORD_START_LEAD_MS. */
	unsigned int start_lead_ms;
};

/** Default time between the start calls and the start itself with several sources. */
#define COORD_START_LEAD_MS 250

/**
 * Parse topology text. Syntax errors read "source:line:col: message",
 * others "source: hops[2].driver: unknown driver \"x\"".
 * @return the topology, or NULL with @p err set.
 */
struct coord_topology *coord_topology_parse(const char *text, const char *source,
					    coord_driver_lookup_t lookup, char *err,
					    size_t err_len);

/** Read and parse a topology file. @return as coord_topology_parse. */
struct coord_topology *coord_topology_load(const char *path, coord_driver_lookup_t lookup,
					   char *err, size_t err_len);

/** Open every hop. @return 0, or -errno with @p err set (opened hops stay open). */
int coord_topology_open(struct coord_topology *t, char *err, size_t err_len);

/** Close the open hops and free. NULL is a no-op. */
void coord_topology_free(struct coord_topology *t);

/**
 * Give every opened hop that has install_flows the rule type: vswitches
 * install and count the rules, the traffic source remembers the type so
 * that its flows match them. Stops at the first failure.
 * @return 0, or the failing driver's -errno with its message in @p err.
 */
int coord_install_flows(struct coord_topology *t, const char *type, unsigned int flows, char *err,
			size_t err_len);

/**
 * Set it (from a SIGINT/SIGTERM handler) to give the running trial up:
 * traffic is stopped and coord_trial_run() fails with "interrupted".
 */
extern volatile sig_atomic_t coord_interrupted;

/** What a trial asks for. */
struct coord_trial_conf {
	/** What the sources send (start_at unused: the trial sets it). */
	struct coord_traffic traffic;
	double warmup_s;	/**< warm-up traffic before the baseline, 0 = none */
	double quiet_timeout_s; /**< wait at most this for quiet counters; 0 = 5 s */
	unsigned int poll_ms;	/**< poll period while waiting; 0 = 50 ms */
	uint64_t max_burst;	/**< flag a source burst ahead of the schedule
				 *   larger than this (packets); 0 = only record it */
};

/** What the checks of a trial look at (coord_finding::check). */
enum coord_check {
	COORD_CHECK_SIGNATURE, /**< the chain's tester TX/RX against the source's
				*   own per-stream signature accounting */
	COORD_CHECK_DROPS,     /**< a hop's loss against its own drop counters */
	COORD_CHECK_NEGATIVE,  /**< more packets at a point than at the one before */
	COORD_CHECK_BACKWARDS, /**< a counter went backwards between the snapshots */
	COORD_CHECK_BURST,     /**< the source's largest burst against max_burst */
	COORD_CHECK_MAX,
};

/** Most findings a trial keeps (the first ones). */
#define COORD_MAX_FINDINGS 16

/** A check that failed. */
struct coord_finding {
	enum coord_check check; /**< which one */
	int hop;		/**< the hop it names, or -1 */
	bool invalid;		/**< the trial is not a measurement (see coord_trial_result) */
	char text[224];		/**< one line, naming the hop */
};

/** The result of one chain point. */
struct coord_point_result {
	uint64_t packets;	 /**< counted at this point during the trial */
	int64_t lost;		 /**< previous point's packets - this one's (0 at the first) */
	uint64_t drop;		 /**< drops this hop counted at this point */
	uint64_t refused;	 /**< tx point: packets the next hop refused,
				  *   included in packets (coord_port's
				  *   tx_refused_by_peer) */
	unsigned int nb_reasons; /**< entries in reasons[] */
	struct coord_reason reasons[COORD_MAX_REASONS]; /**< drop by reason, non-zero */
	int owner;	      /**< hop the attributed loss belongs to, or -1 */
	int64_t attributed;   /**< part of lost given to owner */
	int64_t unattributed; /**< part of lost no counter explains */
	uint64_t added;	      /**< tx point inside a hop: packets it added on purpose
			       *   (coord_port::added of its RX point) */
	unsigned int flags;   /**< bit (1 << enum coord_check): a check failed here */
};

/** Per-chain results. */
struct coord_chain_result {
	struct coord_point_result *pt; /**< per point of the chain */
	uint64_t tx;		       /**< packets at the first point */
	uint64_t rx;		       /**< packets at the last point */
};

/**
 * A finished (or failed) trial. Its per-chain, per-point and per-hop
 * arrays are sized by the topology: coord_trial_result_alloc() makes
 * them, coord_trial_result_clear() frees them.
 */
struct coord_trial_result {
	struct coord_trial_conf conf;	     /**< what was asked */
	char started[32];		     /**< UTC time, ISO 8601 */
	struct coord_traffic_result traffic; /**< from the source(s) */
	unsigned int nb_chains;		     /**< entries in chain[], as the topology */
	unsigned int nb_hops;		     /**< entries in the hop_ arrays, as the topology */
	struct coord_chain_result *chain;    /**< per chain */
	int64_t *hop_lost;		     /**< loss attributed per hop */
	int64_t unattributed;		     /**< loss no hop explains */
	int64_t *hop_drops;		     /**< drops each hop counted on the chains' path */
	/** Packets each hop added on purpose (duplicates): its hop_lost is net of them. */
	int64_t *hop_added;
	/** COORD_CHECK_SIGNATURE ran (the source reported its accounting and
	 *  every chain starts and ends at a source). */
	bool sig_checked;
	unsigned int nb_findings;			   /**< entries in findings[] */
	struct coord_finding findings[COORD_MAX_FINDINGS]; /**< failed checks, in order */
	unsigned int nb_lost_findings; /**< findings beyond COORD_MAX_FINDINGS */
	unsigned int nb_lost_invalid;  /**< those of them that are invalid */
	bool quiet;		       /**< counters stopped moving in time */
	double quiet_s;		       /**< time until they did */
	double baseline_ms;	       /**< the baseline snapshot of all hops */
	double snapshot_ms;	       /**< the final snapshot of all hops */
	/**
	 * Several sources: how many, the CLOCK_REALTIME second they were
	 * asked to start at, and when each sent its first packet (per hop,
	 * has_first_tx false for a source that does not say); start_skew_ms
	 * is the spread of those first packets (has_start_skew: two or more
	 * sources said).
	 */
	unsigned int nb_sources;
	double start_at;
	bool *has_first_tx;
	double *first_tx_s;
	bool has_start_skew;
	double start_skew_ms;
	json_t *context;  /**< {hop: driver context}, or NULL */
	json_t *warnings; /**< array of one-line strings, or NULL */
	/** One-way latency: {"guest", "source", "clock", "reason", "offset_ns"}
	 *  when a guest stamps (coord_oneway_prepare()), else NULL. */
	json_t *oneway;
};

/**
 * Before a trial: when an opened guest (driver "fwd") stamps, hand its
 * clock sample to the pvpkit-gen sources (oneway.set) and keep what they
 * found in r->oneway; a source that cannot is a warning. Nothing when no
 * guest stamps.
 */
void coord_oneway_prepare(struct coord_topology *t, struct coord_trial_result *r);

/** The one-way lines of the trial table: per stream both halves, or why none. */
void coord_oneway_print(FILE *f, const struct coord_trial_result *r);

/**
 * Make an empty result for topology @p t: zeroed, with its chain, point
 * and hop arrays sized by @p t (one allocation). @p r must hold nothing
 * (fresh or cleared); coord_trial_result_clear() frees it.
 * @return 0, or -ENOMEM.
 */
int coord_trial_result_alloc(struct coord_trial_result *r, const struct coord_topology *t);

/**
 * Attribute the loss of every chain from the snapshots before and after
 * (indexed by hop), fill the chain/hop/total members of @p r (made for
 * @p t by coord_trial_result_alloc()) and run the
 * checks (r->findings), using r->traffic,
 * r->conf.max_burst, and r->conf.traffic.duration_s, r->baseline_ms and
 * r->snapshot_ms (how far apart two hops' readings can be, for ARP/ND
 * frames that crossed a link between them) as set by the caller. Pure:
 * no I/O. Prints nothing.
 */
void coord_attribute(const struct coord_topology *t, const struct coord_snap *before,
		     const struct coord_snap *after, struct coord_trial_result *r);

/**
 * Run one trial (doc/design.rst, "A trial") on an opened topology.
 * @return 0, or -errno with @p err set to the trial's first error ("hop X
 *   unreachable: ...", whatever @p err held before); on error @p r holds
 *   nothing to report.
 */
int coord_trial_run(struct coord_topology *t, const struct coord_trial_conf *c,
		    struct coord_trial_result *r, char *err, size_t err_len);

/**
 * Start every source of @p t sending @p traffic. With several sources
 * they are all given one CLOCK_REALTIME time t->start_lead_ms ahead
 * (doc/design.rst, "Several sources"); @p start_at gets it (0 with one
 * source), and @p warnings (when not NULL) a line if the start calls
 * outlasted the lead. On error the sources already started are stopped.
 * @return 0, or -errno with @p err set.
 */
int coord_sources_start(struct coord_topology *t, const struct coord_traffic *traffic,
			double *start_at, json_t **warnings, char *err, size_t err_len);

/**
 * Stop every source; @p res gets the sums of what they said (rates,
 * generator_limited, the largest burst; no streams). Every source is
 * asked, the first error is returned (@p err may have err_len 0).
 */
int coord_sources_stop(struct coord_topology *t, struct coord_traffic_result *res, char *err,
		       size_t err_len);

/** True for an opened hop whose driver is a traffic source. */
bool coord_hop_is_source(const struct coord_topo_hop *h);

/** Keep the larger of two sources' largest bursts in @p res. */
void coord_traffic_add_burst(struct coord_traffic_result *res,
			     const struct coord_traffic_result *one);

/**
 * Sleep @p s seconds in short steps, so that coord_interrupted is seen
 * soon. @return 0, or -EINTR once it is set.
 */
int coord_sleep(double s);

/** Sleep until @p duration after @p start_at (CLOCK_REALTIME, 0: now). As coord_sleep(). */
int coord_sleep_run(double start_at, double duration);

/** Release what a result holds (its arrays, streams, context); it may be allocated again. */
void coord_trial_result_clear(struct coord_trial_result *r);

/** Print the per-hop table (ovs_perf layout) and the loss summary. */
void coord_table_print(FILE *f, const struct coord_topology *t, const struct coord_trial_result *r);

/**
 * Why hop @p hop lost what trial @p r charged to it: the named drop
 * reasons of the points where it lost packets, summed, into @p buf
 * ("no_neighbour 2,000, rx_ring_full 12"); "" when none says.
 */
void coord_trial_hop_why(const struct coord_topology *t, const struct coord_trial_result *r,
			 unsigned int hop, char *buf, size_t len);

/** Name of a check in JSON and messages ("signature", "drops", ...). */
const char *coord_check_name(enum coord_check c);

/**
 * Every check of @p r passed (it has no finding): the chains' tester TX
 * and RX agree with the source's signature accounting, no hop counted
 * more drops than it lost, no point has more packets than the one
 * before, no counter went backwards, no burst over conf.max_burst. The
 * sum of hop losses and unattributed always equals TX - RX by
 * construction and is not one of the checks.
 */
bool coord_trial_reconciled(const struct coord_trial_result *r);

/**
 * @p r is not a measurement of the DUT (a finding is invalid): a counter
 * went backwards (a hop restarted or was reset) or a receiver counted
 * more than its sender sent on a link. Never a DUT result; `pvpkit
 * trial` exits 1.
 */
bool coord_trial_invalid(const struct coord_trial_result *r);

/** Tester TX of @p r, all chains (the sum of coord_chain_result::tx). */
uint64_t coord_trial_tx_packets(const struct coord_trial_result *r);

/** Tester RX of @p r, all chains (the sum of coord_chain_result::rx). */
uint64_t coord_trial_rx_packets(const struct coord_trial_result *r);

/** The first reason @p r is invalid, or "" when it is not. */
const char *coord_trial_invalid_reason(const struct coord_trial_result *r);

/** True when @p r is a DUT result: not generator-limited, quiet, valid. */
bool coord_trial_dut_result(const struct coord_trial_result *r);

/** (tester TX - RX) / TX of a trial; 0 when nothing was sent. */
double coord_trial_loss_ratio(const struct coord_trial_result *r);

/** The trial as JSON (a new reference, NULL on allocation failure). */
json_t *coord_trial_to_json(const struct coord_topology *t, const struct coord_trial_result *r);

#endif /* COORD_H */
