/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * The records of the results file that a report reads back, described
 * once as schema tables (pvp_schema.h): the coordinator encodes the
 * "trial" and "search" records from them, the report decodes them
 * through the same tables, and doc/record-members.rst is written from
 * them (pvpkit-record-doc; the unit test record-doc fails when it
 * differs). Pure C: no DPDK, no I/O.
 *
 * Members a writer does not know are let be by the reader (records grow);
 * a member of the wrong type or out of range makes the record unreadable,
 * named with its path ("goals[1].lower_pps: must be a number ...").
 */

#ifndef COORD_RECORD_H
#define COORD_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "pvp_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Version of the records' schema, written in each record's "schema" and
 * the highest the reader takes; a record without one is version 1.
 * Adding a member is no new version; changing what one means is.
 */
#define COORD_RECORD_SCHEMA 1
/** Largest magnitude of a figure in a record (a counter at 100 Mpps for 300 years). */
#define COORD_RECORD_NUM_MAX 1000000000000000000
/** Most goals in a search record (PVP_SEARCH_MAX_GOALS). */
#define COORD_RECORD_MAX_GOALS 8

/** Counts of the signature check, in a "trial" record. */
struct coord_record_signature {
	uint64_t offered;	    /**< signed packets sent */
	uint64_t rx;		    /**< signed packets received */
	uint64_t lost;		    /**< sequence numbers never seen */
	uint64_t dup;		    /**< seen twice */
	uint64_t unsigned_rx;	    /**< received without a signature */
	uint64_t unknown_stream_rx; /**< signature of no stream of this trial */
	uint64_t neigh_rx;	    /**< ARP/ND received (not counted as traffic) */
};

/** The place of a trial in a search (the "search" member, written by the search). */
struct coord_record_search_ref {
	char id[80];	     /**< the search's id */
	unsigned int trial;  /**< index of the trial in the search */
	unsigned int phase;  /**< phase of the search */
	unsigned int goal;   /**< goal the trial measured */
	bool warmup;	     /**< a warm-up trial, no measurement */
	bool gen_remeasure;  /**< measured again after a generator-limited trial */
	bool loss_remeasure; /**< measured again after a loss the search doubted */
};

/** A latency trial's "latency": its place in the latency step (pvpkit search --latency). */
struct coord_record_latency {
	double load_pct;      /**< % of the reference rate */
	json_t *reference;    /**< the goal the load is a share of (the user's words) */
	double reference_pps; /**< its rate */
	char set[64];	      /**< the rounds' id */
	bool has_set;	      /**< "set" given (older records: each trial a set) */
	unsigned int round;   /**< which round */
	unsigned int rounds;  /**< how many */
};

/** A "trial" record: one trial of coord_trial_run(), as coord_trial_to_json() writes it. */
struct coord_trial_record {
	unsigned int type;			 /**< always "trial" */
	unsigned int schema;			 /**< COORD_RECORD_SCHEMA when written */
	bool has_schema;			 /**< "schema" given (older records have none) */
	char started[32];			 /**< UTC time, ISO 8601 */
	char topology[64];			 /**< topology name */
	double duration_s;			 /**< trial duration */
	double warmup_s;			 /**< warm-up before it */
	double requested_pps;			 /**< rate asked of the sources */
	bool has_requested;			 /**< "requested_pps" given */
	double achieved_pps;			 /**< rate the sources sent */
	bool generator_limited;			 /**< the sources could not send the rate asked */
	bool dut_result;			 /**< a measurement of the DUT (false: not) */
	uint64_t tx_packets;			 /**< tester TX */
	uint64_t rx_packets;			 /**< tester RX */
	int64_t lost;				 /**< tx_packets - rx_packets */
	double loss_ratio;			 /**< lost / tx_packets */
	json_t *hop_lost;			 /**< {hop: packets lost there} */
	int64_t unattributed;			 /**< loss no hop explains */
	bool reconciled;			 /**< the losses add up */
	bool quiet;				 /**< counters settled before the snapshot */
	double quiet_s;				 /**< how long they took */
	double snapshot_ms;			 /**< how long the snapshot of all hops took */
	json_t *chains;				 /**< per chain, its points */
	json_t *chain_totals;			 /**< per chain, TX, RX and lost */
	char profile[4096];			 /**< profile file ("" when size and flows) */
	unsigned int size;			 /**< frame size with FCS */
	bool has_size;				 /**< "size" given */
	unsigned int flows;			 /**< flow count */
	bool has_flows;				 /**< "flows" given */
	json_t *rate;				 /**< the rate as the user wrote it, or pps */
	json_t *checks;				 /**< {check: state} */
	json_t *findings;			 /**< failed checks, one object each */
	json_t *hop_drops;			 /**< {hop: drops it counted} */
	json_t *hop_added;			 /**< {hop: copies made on purpose} */
	bool invalid;				 /**< not a measurement of the DUT */
	struct coord_record_signature signature; /**< signature counts */
	bool has_signature;			 /**< "signature" given */
	uint64_t max_burst;			 /**< largest source burst */
	bool has_max_burst;			 /**< known (else null) */
	uint64_t max_burst_limit;		 /**< --max-burst */
	bool has_max_burst_limit;		 /**< "max_burst_limit" given */
	json_t *streams;			 /**< the sources' streams */
	json_t *context;			 /**< {hop: driver context} */
	json_t *warnings;			 /**< one-line warnings */
	json_t *start;				 /**< several sources: when each started */
	bool shared_cores;			 /**< pollers share cores */
	bool has_shared_cores;			 /**< "shared_cores" given */
	json_t *vm;				 /**< the guest's kind, from the topology */
	bool functional_only;			 /**< figures not performance figures */
	bool has_functional_only;		 /**< "functional_only" given */
	struct coord_record_search_ref search;	 /**< place in a search */
	bool has_search;			 /**< "search" given */
	struct coord_record_latency latency;	 /**< latency run: load and reference */
	bool has_latency;			 /**< "latency" given */
	json_t *oneway;				 /**< one-way latency: the clock check */
};

/** One half of a stream's one-way latency (its "oneway_ns"), in ns. */
struct coord_record_oneway_half {
	uint64_t count; /**< samples */
	uint64_t p50;	/**< median */
	uint64_t p99;	/**< 99th percentile */
	uint64_t max;	/**< largest */
};

/** A stream's "oneway_ns": the two halves of its latency. */
struct coord_record_oneway_ns {
	struct coord_record_oneway_half to_guest;   /**< tester TX to the guest's stamp */
	struct coord_record_oneway_half from_guest; /**< the guest's stamp to tester RX */
	uint64_t unstamped;			    /**< signed packets without a stamp */
};

/** A stream's "latency_ns" in a trial record, in ns (the trex driver's are not integers). */
struct coord_record_stream_latency {
	json_t *histogram; /**< pvp_lat_to_json()'s, or NULL */
	json_t *clock;	   /**< the clock of the samples (a peer's words) */
	double count;	   /**< samples */
	double min;	   /**< smallest */
	double avg;	   /**< mean */
	double p50;	   /**< median */
	double p90;	   /**< 90th percentile */
	double p99;	   /**< 99th */
	double p99_9;	   /**< 99.9th */
	double p99_99;	   /**< 99.99th */
	double max;	   /**< largest */
	double jitter;	   /**< jitter */
};

/** What the report reads of a trial's streams[] item: its latency. */
struct coord_record_stream {
	unsigned int stream;			       /**< the stream's wire id */
	unsigned int port;			       /**< its TX port */
	struct coord_record_stream_latency latency_ns; /**< its latency */
	bool has_latency;			       /**< "latency_ns" given */
	struct coord_record_oneway_ns ns;	       /**< its one-way halves */
	bool has_ns; /**< "oneway_ns" given (the source split it) */
};

/** A trial record's "oneway": the clock check of coord_oneway_prepare(). */
struct coord_record_oneway {
	char guest[64];	    /**< the guest that stamps */
	char source[64];    /**< the source that compared its clock */
	unsigned int clock; /**< 0 "shared", 1 "differs" */
	char reason[256];   /**< why the clocks differ */
	double offset_ns;   /**< the source's TSC minus the guest's */
	bool has_offset;    /**< "offset_ns" given */
};

/** The latency bound of a goal (--goal pdr=0.5%,p99=100us). */
struct coord_record_goal_latency {
	char stat[8];	 /**< pvp_search_lat_stat_name(): "p99" ... */
	double bound_us; /**< the most the statistic may be */
};

/** One goal of a "search" record. */
struct coord_record_goal {
	char name[32];				  /**< "ndr", "pdr", "pdr0.5%", "pdr+p99-100us" */
	double loss_ratio;			  /**< the goal */
	struct coord_record_goal_latency latency; /**< its latency bound */
	bool has_latency;			  /**< the goal bounds latency */
	char status[16];			  /**< pvp_search_goal_status_name() */
	double lower_pps;			  /**< highest rate that met the goal */
	bool has_lower;				  /**< known (else null) */
	double upper_pps;			  /**< lowest rate that failed it */
	bool has_upper;				  /**< known (else null) */
	double rel_width;			  /**< (upper - lower) / upper */
	bool reached_max_rate;			  /**< met at the highest rate tried */
	bool generator_limited;			  /**< a bound set by a generator-limited trial */
	double conditional_pps;			  /**< conditional throughput */
	bool has_conditional;			  /**< known (else null) */
};

/** The place of a search among the repeats of one point (--repeat). */
struct coord_record_repeat {
	char group[64];	    /**< the repeats' id */
	unsigned int index; /**< which search of the repeats */
	unsigned int of;    /**< how many */
};

/** The parameters of a search, in its record. */
struct coord_record_search_params {
	double min_pps;			  /**< lowest rate */
	double max_pps;			  /**< highest rate */
	double width_goal;		  /**< relative width to reach */
	double initial_duration_s;	  /**< first phase's trials */
	double final_duration_s;	  /**< last phase's trials */
	unsigned int intermediate_phases; /**< phases between */
	unsigned int max_trials;	  /**< trial budget */
	double max_time_s;		  /**< time budget */
	double exceed_ratio;		  /**< share of trial time that may fail */
	double duration_sum_s;		  /**< trial time summed per rate */
	double warmup_s;		  /**< warm-up trial */
	unsigned int gen_remeasure;	  /**< re-measures of a generator-limited trial */
};

/** A "search" record: report_search_record() and what the search adds. */
struct coord_search_record {
	unsigned int type;					/**< always "search" */
	unsigned int schema;					/**< COORD_RECORD_SCHEMA */
	bool has_schema;					/**< "schema" given */
	unsigned int size;					/**< frame size with FCS */
	bool has_size;						/**< "size" given */
	unsigned int flows;					/**< flow count */
	bool has_flows;						/**< "flows" given */
	char algo[16];						/**< "mlr", "binary" */
	struct coord_record_search_params params;		/**< its parameters */
	struct coord_record_goal goals[COORD_RECORD_MAX_GOALS]; /**< per goal */
	unsigned int nb_goals;					/**< goals given */
	unsigned int trials;					/**< trials run */
	double trial_seconds;					/**< their time */
	unsigned int generator_limited_trials;			/**< of them generator-limited */
	unsigned int generator_remeasured;			/**< measured again */
	unsigned int generator_recovered;			/**< and came back clean */
	double generator_ceiling_pps;	   /**< highest rate the sources made */
	bool budget_exhausted;		   /**< stopped by its budget */
	bool aborted;			   /**< stopped by an error */
	struct coord_record_repeat repeat; /**< --repeat: which search */
	bool has_repeat;		   /**< "repeat" given */
};

/** Latency of a soak reading in ns, from pvpkit-gen's histograms. */
struct coord_record_soak_latency {
	uint64_t count;	 /**< samples */
	uint64_t min;	 /**< smallest */
	uint64_t avg;	 /**< mean */
	uint64_t p50;	 /**< median */
	uint64_t p99;	 /**< 99th percentile */
	uint64_t p99_9;	 /**< 99.9th */
	uint64_t p99_99; /**< 99.99th */
	uint64_t max;	 /**< largest */
	char clock[8];	 /**< the clock the samples were taken with: "tsc" */
};

/** Most --inject calls a soak makes (SOAK_MAX_INJECT). */
#define COORD_RECORD_MAX_INJECT 16

/** One control call a soak made at a planned second (--inject). */
struct coord_record_soak_inject {
	double t_s;	 /**< seconds since the traffic started, when it was made */
	char hop[64];	 /**< the hop called */
	char method[64]; /**< its control method */
	json_t *params;	 /**< the parameters sent, or NULL */
	bool ok;	 /**< the hop answered without an error */
	json_t *result;	 /**< its answer, or NULL */
	char error[256]; /**< why it failed ("" when ok) */
};

/** Types of a soak's records: one reading, or the totals at the end. */
enum coord_soak_record_type {
	COORD_SOAK_INTERVAL, /**< "soak_interval" */
	COORD_SOAK_TOTALS,   /**< "soak" */
};

/** A "soak_interval" or "soak" record, as pvpkit soak writes it. */
struct coord_soak_record {
	unsigned int type;			     /**< enum coord_soak_record_type */
	unsigned int n;				     /**< readings so far */
	double t_s;				     /**< seconds since the traffic started */
	double interval_s;			     /**< seconds the record spans */
	double rate_pps;			     /**< the rate sent, per TX port */
	uint64_t tx_packets;			     /**< tester TX in the span */
	uint64_t rx_packets;			     /**< tester RX in the span */
	int64_t lost;				     /**< tx_packets - rx_packets */
	double loss_ratio;			     /**< lost / tx_packets */
	json_t *hop_lost;			     /**< {hop: packets lost there} */
	int64_t unattributed;			     /**< loss no hop explains */
	bool reconciled;			     /**< the losses add up */
	double tx_pps;				     /**< tx_packets / interval_s */
	double rx_pps;				     /**< rx_packets / interval_s */
	unsigned int size;			     /**< frame size with FCS */
	unsigned int flows;			     /**< flow count */
	double planned_s;			     /**< totals: the planned duration */
	bool has_planned;			     /**< "planned_s" given */
	bool interrupted;			     /**< totals: a signal ended the soak */
	bool has_interrupted;			     /**< "interrupted" given */
	struct coord_record_soak_latency latency_ns; /**< latency in the span */
	bool has_latency;			     /**< "latency_ns" given */
	/** The --inject calls made in the span (the totals: all of them). */
	struct coord_record_soak_inject injected[COORD_RECORD_MAX_INJECT];
	unsigned int nb_injected; /**< calls in injected */
};

/** The host a run was measured on. */
struct coord_record_host {
	char cpu_model[512]; /**< /proc/cpuinfo's model name */
	int cpus;	     /**< CPUs online */
	char kernel[65];     /**< uname's release */
	char machine[65];    /**< uname's machine */
};

/** The "run" record pvpkit search and run append first. */
struct coord_run_record {
	unsigned int type;	       /**< always "run" */
	unsigned int schema;	       /**< COORD_RECORD_SCHEMA when written */
	bool has_schema;	       /**< "schema" given */
	unsigned int command;	       /**< 0 "search", 1 "run" */
	char pvpkit_version[64];       /**< PVP_VERSION */
	char started[32];	       /**< UTC time, ISO 8601 */
	char topology[64];	       /**< topology name */
	char dut[1025];		       /**< --dut, the user's words */
	bool has_dut;		       /**< --dut given (else null) */
	struct coord_record_host host; /**< where it ran */
	bool has_host;		       /**< "host" given */
	json_t *hops;		       /**< {hop: {driver, context}} */
	/** The goals searched: name, loss_ratio and latency set, the rest unused. */
	struct coord_record_goal goals[COORD_RECORD_MAX_GOALS];
	unsigned int nb_goals; /**< entries in goals[] */
	char flow_type[8];     /**< --flow-type */
	bool has_flow_type;    /**< "flow_type" given */
	char title[256];       /**< the reports' title (pvpkit writes none) */
	bool has_title;	       /**< "title" given */
	double line_rate_bps;  /**< the line rate (pvpkit writes none) */
	bool has_line_rate;    /**< "line_rate_bps" given */
};

/**
 * The records' tables: pvp_schema_read() decodes a record through its
 * table (its json_t * borrowed), as pvp_schema_encode() writes it.
 * The "trial" record's members, in the order they are written.
 */
extern const struct pvp_schema_member coord_trial_record_members[];
/** The "search" record's members, in the order they are written. */
extern const struct pvp_schema_member coord_search_record_members[];
/** The "run" record's members, in the order they are written. */
extern const struct pvp_schema_member coord_run_record_members[];
/** The "soak_interval" and "soak" records' members, in the order they are written. */
extern const struct pvp_schema_member coord_soak_record_members[];
/** A trial record's "oneway" members. */
extern const struct pvp_schema_member coord_record_oneway_members[];
/** The members of an item of a trial record's "streams" the report reads. */
extern const struct pvp_schema_member coord_record_stream_members[];
/** A trial record's "search" (warmup and the remeasure flags only when true). */
extern const struct pvp_schema_member coord_record_search_ref_members[];
/** A run record's "host". */
extern const struct pvp_schema_member coord_record_host_members[];
/** A soak record's "latency_ns". */
extern const struct pvp_schema_member coord_record_soak_latency_members[];

/** summary.json's members (checked, not decoded). */
extern const struct pvp_schema_member coord_summary_members[];
/** The members of a goal of a summary's points[].goals. */
extern const struct pvp_schema_member coord_summary_goal_members[];

/**
 * Check summary.json @p sum against coord_summary_members; members it
 * does not name are let be, as for the records.
 * @param source the file's name, @p text its JSON text (for line:col).
 * @return 0, or -EINVAL with "source:line:col: path: must be ..." in @p err.
 */
int coord_summary_check(const json_t *sum, const char *source, const char *text, char *err,
			size_t err_len);

/**
 * Check a record of any type: "trial", "search", "run", "soak_interval"
 * and "soak" against their tables, other types as they are.
 * @return 0, or -EINVAL with "trial: member: must be ..." in @p err.
 */
int coord_record_check(const json_t *rec, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* COORD_RECORD_H */
