/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The "trial", "search", "run" and soak records as schema tables (coord_record.h): the
 * writers encode from them, the report decodes through them and the doc
 * table is written from them, so no member is named twice.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "pvp_util.h"

#include "coord_record.h"

/* Figures: counts and rates no run comes near; larger ones are damage. */
#define REC_NUM	   .min = 0, .max = COORD_RECORD_NUM_MAX
#define REC_SIGNED .min = -COORD_RECORD_NUM_MAX, .max = COORD_RECORD_NUM_MAX
#define REC_U32	   .max = UINT32_MAX

/*
 * One member of struct @p st, named as its field @p f, of schema type @p t;
 * a string's longest length is its field's size less one, so a record
 * that checks always decodes.
 */
#define REC(st, f, t, ...)                                                                         \
	{                                                                                          \
		.name = #f, .type = PVP_SCHEMA_##t, PVP_SCHEMA_AT(st, f), __VA_ARGS__              \
	}
#define REC_STR(st, f, ...) REC(st, f, STRING, .max = sizeof(((st *)0)->f) - 1, __VA_ARGS__)
/* A member the writer leaves out when @p has is false. */
#define REC_HAS(st, has) PVP_SCHEMA_PRESENT(st, has)

#define TRIAL  struct coord_trial_record
#define SEARCH struct coord_search_record
#define SIG    struct coord_record_signature
#define REF    struct coord_record_search_ref
#define GOAL   struct coord_record_goal
#define GLAT   struct coord_record_goal_latency
#define PARAMS struct coord_record_search_params
#define REPEAT struct coord_record_repeat
#define SOAK   struct coord_soak_record
#define RUN    struct coord_run_record
#define HOST   struct coord_record_host
#define SLAT   struct coord_record_soak_latency
#define SINJ   struct coord_record_soak_inject
#define OWHALF struct coord_record_oneway_half
#define OWNS   struct coord_record_oneway_ns
#define OWST   struct coord_record_stream
#define STLAT  struct coord_record_stream_latency
#define LAT    struct coord_record_latency
#define OW     struct coord_record_oneway

static const char *const rec_trial_type[] = {"trial", NULL};
static const char *const rec_search_type[] = {"search", NULL};

static const struct pvp_schema_member rec_count = {.name = "", .type = PVP_SCHEMA_INT, REC_SIGNED};
static const char *const rec_check_states[] = {"ok", "failed", "unchecked", "recorded", NULL};
static const struct pvp_schema_member rec_check_state = {
	.name = "", .type = PVP_SCHEMA_STRING, .min = 1, .max = 15, .values = rec_check_states};

static const struct pvp_schema_member rec_signature_members[] = {
	REC(SIG, offered, UINT, REC_NUM, .help = "signed packets sent"),
	REC(SIG, rx, UINT, REC_NUM, .help = "signed packets received"),
	REC(SIG, lost, UINT, REC_NUM, .help = "sequence numbers never received"),
	REC(SIG, dup, UINT, REC_NUM, .help = "received twice"),
	REC(SIG, unsigned_rx, UINT, REC_NUM, .help = "received without a signature"),
	REC(SIG, unknown_stream_rx, UINT, REC_NUM, .help = "signature of no stream of this trial"),
	REC(SIG, neigh_rx, UINT, REC_NUM, .help = "ARP/ND received, not counted as traffic"),
	{.name = NULL},
};

/* The flags are written only when true (older readers see the records
 * they know): each is its own "given". */
const struct pvp_schema_member coord_record_search_ref_members[] = {
	REC_STR(REF, id, .help = "the search's id"),
	REC(REF, trial, UINT, REC_U32, .help = "index of the trial in the search"),
	REC(REF, phase, UINT, REC_U32, .help = "phase of the search"),
	REC(REF, goal, UINT, REC_U32, .help = "goal the trial measured"),
	REC(REF, warmup, BOOL, REC_HAS(REF, warmup), .def = "false",
	    .help = "a warm-up trial: no measurement"),
	REC(REF, gen_remeasure, BOOL, REC_HAS(REF, gen_remeasure), .def = "false",
	    .help = "measured again after a generator-limited trial"),
	REC(REF, loss_remeasure, BOOL, REC_HAS(REF, loss_remeasure), .def = "false",
	    .help = "measured again after a loss below the fitted rate"),
	{.name = NULL},
};

/* Written by the latency step after coord_trial_to_json(). */
static const struct pvp_schema_member rec_latency_members[] = {
	REC(LAT, load_pct, DOUBLE, REC_NUM, .required = true, .help = "% of the reference rate"),
	REC(LAT, reference, JSON, .help = "the goal the load is a share of"),
	REC(LAT, reference_pps, DOUBLE, REC_NUM, .help = "its rate"),
	REC_STR(LAT, set, REC_HAS(LAT, has_set), .help = "the rounds' id (one --repeat N)"),
	REC(LAT, round, UINT, REC_U32, .help = "which round"),
	REC(LAT, rounds, UINT, REC_U32, .help = "how many"),
	{.name = NULL},
};

const struct pvp_schema_member coord_trial_record_members[] = {
	REC(TRIAL, type, ENUM, .required = true, .values = rec_trial_type,
	    .help = "what the record is"),
	REC(TRIAL, schema, UINT, .min = 1, .max = COORD_RECORD_SCHEMA, REC_HAS(TRIAL, has_schema),
	    .def = "1", .help = "version of this table"),
	REC_STR(TRIAL, started, .help = "UTC time, ISO 8601"),
	REC_STR(TRIAL, topology, .help = "topology name"),
	REC(TRIAL, duration_s, DOUBLE, REC_NUM, .help = "trial duration"),
	REC(TRIAL, warmup_s, DOUBLE, REC_NUM, .help = "warm-up traffic before it"),
	REC(TRIAL, requested_pps, DOUBLE, REC_NUM, REC_HAS(TRIAL, has_requested),
	    .help = "rate asked of the sources (else achieved_pps)"),
	REC(TRIAL, achieved_pps, DOUBLE, REC_NUM, .help = "rate the sources sent"),
	REC(TRIAL, generator_limited, BOOL, .def = "false",
	    .help = "the sources could not send the rate asked"),
	REC(TRIAL, dut_result, BOOL, .def = "true", .help = "false: not a measurement of the DUT"),
	REC(TRIAL, tx_packets, UINT, REC_NUM, .help = "tester TX"),
	REC(TRIAL, rx_packets, UINT, REC_NUM, .help = "tester RX"),
	REC(TRIAL, lost, INT, REC_SIGNED, .help = "tx_packets - rx_packets"),
	REC(TRIAL, loss_ratio, DOUBLE, REC_SIGNED, .help = "lost / tx_packets"),
	REC(TRIAL, hop_lost, MAP, .members = &rec_count,
	    .help = "loss attributed to each hop, in chain order"),
	REC(TRIAL, unattributed, INT, REC_SIGNED, .help = "loss no hop explains"),
	REC(TRIAL, reconciled, BOOL, .help = "hop_lost and unattributed add up to lost"),
	REC(TRIAL, quiet, BOOL, .help = "the counters settled before the snapshot"),
	REC(TRIAL, quiet_s, DOUBLE, REC_NUM, .help = "how long they took"),
	REC(TRIAL, snapshot_ms, DOUBLE, REC_NUM, .help = "how long the snapshot of all hops took"),
	REC(TRIAL, chains, JSON,
	    .help = "per chain, its points: label, hop, port, packets, lost, drop ..."),
	REC(TRIAL, chain_totals, JSON, .help = "per chain, tx_packets, rx_packets and lost"),
	REC_STR(TRIAL, profile, .help = "profile file, instead of size and flows"),
	REC(TRIAL, size, UINT, REC_U32, REC_HAS(TRIAL, has_size),
	    .help = "frame size in bytes, with the 4 B FCS"),
	REC(TRIAL, flows, UINT, REC_U32, REC_HAS(TRIAL, has_flows), .help = "flow count"),
	REC(TRIAL, rate, JSON, .help = "the rate as given (a string), pps (a number) or \"max\""),
	REC(TRIAL, checks, MAP, .members = &rec_check_state, .help = "each check's state"),
	REC(TRIAL, findings, JSON, .help = "failed checks: check, hop, invalid, message"),
	REC(TRIAL, hop_drops, MAP, .members = &rec_count, .help = "drops each hop counted"),
	REC(TRIAL, hop_added, MAP, .members = &rec_count,
	    .help = "copies each hop made on purpose; its hop_lost is net of them"),
	REC(TRIAL, invalid, BOOL, .help = "not a measurement of the DUT"),
	REC(TRIAL, signature, OBJECT, .members = rec_signature_members,
	    REC_HAS(TRIAL, has_signature), .help = "the signature check's counts"),
	REC(TRIAL, max_burst, UINT, REC_NUM, .nullable = true, REC_HAS(TRIAL, has_max_burst),
	    .help = "largest source burst (null: not known)"),
	REC(TRIAL, max_burst_limit, UINT, REC_NUM, REC_HAS(TRIAL, has_max_burst_limit),
	    .help = "--max-burst"),
	REC(TRIAL, streams, JSON, .help = "per stream, pvpkit-gen's counts and latency_ns"),
	REC(TRIAL, context, JSON, .help = "each hop's driver context"),
	REC(TRIAL, warnings, JSON, .help = "one-line warnings"),
	REC(TRIAL, start, JSON, .help = "several sources: when each sent its first packet"),
	REC(TRIAL, shared_cores, BOOL, REC_HAS(TRIAL, has_shared_cores),
	    .help = "the topology's pollers share cores"),
	REC(TRIAL, vm, JSON, .help = "the guest's kind (testbed.vm)"),
	REC(TRIAL, functional_only, BOOL, REC_HAS(TRIAL, has_functional_only),
	    .help = "a guest without KVM: not performance figures"),
	REC(TRIAL, search, OBJECT, .members = coord_record_search_ref_members,
	    REC_HAS(TRIAL, has_search), .help = "the trial's place in a search"),
	REC(TRIAL, latency, OBJECT, .members = rec_latency_members, REC_HAS(TRIAL, has_latency),
	    .help = "a latency trial: its load and round"),
	REC(TRIAL, oneway, JSON,
	    .help = "a guest stamps: guest, source, clock (shared or differs), reason, "
		    "offset_ns; the halves are in streams[].oneway_ns"),
	{.name = NULL},
};

/*
 * A goal's members. A new kind of goal (a latency bound, say) adds its
 * member here and to struct coord_record_goal; readers that do not know
 * it let it be.
 */
static const struct pvp_schema_member rec_goal_latency_members[] = {
	REC_STR(GLAT, stat, .help = "p50, p90, p99, p99.9 or max"),
	REC(GLAT, bound_us, DOUBLE, REC_NUM, .help = "the most the statistic may be, us"),
	{.name = NULL},
};
/* What a goal asks: a run record's goals, the first members of a search record's. */
#define REC_GOAL_ASKED                                                                             \
	REC_STR(GOAL, name, .help = "\"ndr\", \"pdr\", \"pdr0.5%\", \"pdr+p99-100us\""),           \
		REC(GOAL, loss_ratio, DOUBLE, .max = 1, .help = "the goal's loss ratio"),          \
		REC(GOAL, latency, OBJECT, .members = rec_goal_latency_members,                    \
		    REC_HAS(GOAL, has_latency), .help = "a latency bound: stat and bound_us")
static const struct pvp_schema_member rec_run_goal_members[] = {
	REC_GOAL_ASKED,
	{.name = NULL},
};
static const struct pvp_schema_member rec_run_goal = {.name = "",
						      .type = PVP_SCHEMA_OBJECT,
						      .members = rec_run_goal_members,
						      .size = sizeof(GOAL)};
static const struct pvp_schema_member rec_goal_members[] = {
	REC_GOAL_ASKED,
	REC_STR(GOAL, status, .help = "ok, at-max, below-min, incomplete"),
	REC(GOAL, lower_pps, DOUBLE, REC_NUM, .nullable = true, REC_HAS(GOAL, has_lower),
	    .help = "highest rate that met the goal"),
	REC(GOAL, upper_pps, DOUBLE, REC_NUM, .nullable = true, REC_HAS(GOAL, has_upper),
	    .help = "lowest rate that failed it"),
	REC(GOAL, rel_width, DOUBLE, REC_NUM, .help = "(upper - lower) / upper"),
	REC(GOAL, reached_max_rate, BOOL, .help = "met at the highest rate"),
	REC(GOAL, generator_limited, BOOL, .help = "a bound set by a generator-limited trial"),
	REC(GOAL, conditional_pps, DOUBLE, REC_NUM, .nullable = true,
	    REC_HAS(GOAL, has_conditional), .help = "conditional throughput"),
	{.name = NULL},
};
static const struct pvp_schema_member rec_goal = {
	.name = "", .type = PVP_SCHEMA_OBJECT, .members = rec_goal_members, .size = sizeof(GOAL)};

static const struct pvp_schema_member rec_params_members[] = {
	REC(PARAMS, min_pps, DOUBLE, REC_NUM, .help = "lowest rate"),
	REC(PARAMS, max_pps, DOUBLE, REC_NUM, .help = "highest rate"),
	REC(PARAMS, width_goal, DOUBLE, REC_NUM, .help = "relative width to reach"),
	REC(PARAMS, initial_duration_s, DOUBLE, REC_NUM, .help = "first phase's trials"),
	REC(PARAMS, final_duration_s, DOUBLE, REC_NUM, .help = "last phase's trials"),
	REC(PARAMS, intermediate_phases, UINT, REC_U32, .help = "phases between"),
	REC(PARAMS, max_trials, UINT, REC_U32, .help = "trial budget"),
	REC(PARAMS, max_time_s, DOUBLE, REC_NUM, .help = "time budget"),
	REC(PARAMS, exceed_ratio, DOUBLE, REC_NUM,
	    .help = "share of trial time that may fail the goal"),
	REC(PARAMS, duration_sum_s, DOUBLE, REC_NUM, .help = "trial time summed per rate"),
	REC(PARAMS, warmup_s, DOUBLE, REC_NUM, .help = "warm-up trial"),
	REC(PARAMS, gen_remeasure, UINT, REC_U32,
	    .help = "re-measures of a generator-limited trial"),
	{.name = NULL},
};

static const struct pvp_schema_member rec_repeat_members[] = {
	REC_STR(REPEAT, group, .help = "the repeats' id"),
	REC(REPEAT, index, UINT, REC_U32, .help = "which search of the repeats"),
	REC(REPEAT, of, UINT, REC_U32, .help = "how many"),
	{.name = NULL},
};

/* Members the search adds after the record (size 0: checked, not decoded). */
#define REC_TEXT(n, len, h)                                                                        \
	{                                                                                          \
		.name = n, .type = PVP_SCHEMA_STRING, .max = (len), .help = h                      \
	}

const struct pvp_schema_member coord_search_record_members[] = {
	REC(SEARCH, type, ENUM, .required = true, .values = rec_search_type,
	    .help = "what the record is"),
	REC(SEARCH, schema, UINT, .min = 1, .max = COORD_RECORD_SCHEMA, REC_HAS(SEARCH, has_schema),
	    .def = "1", .help = "version of this table"),
	REC(SEARCH, size, UINT, REC_U32, REC_HAS(SEARCH, has_size),
	    .help = "frame size in bytes, with the 4 B FCS"),
	REC(SEARCH, flows, UINT, REC_U32, REC_HAS(SEARCH, has_flows), .help = "flow count"),
	REC_STR(SEARCH, algo, .help = "mlr or binary"),
	REC(SEARCH, params, OBJECT, .members = rec_params_members,
	    .help = "the search's parameters"),
	REC(SEARCH, goals, ARRAY, .max = COORD_RECORD_MAX_GOALS, .members = &rec_goal,
	    .count_offset = offsetof(SEARCH, nb_goals), .help = "one per goal"),
	REC(SEARCH, trials, UINT, REC_U32, .help = "trials run"),
	REC(SEARCH, trial_seconds, DOUBLE, REC_NUM, .help = "their time"),
	REC(SEARCH, generator_limited_trials, UINT, .max = INT32_MAX,
	    .help = "of them generator-limited"),
	REC(SEARCH, generator_remeasured, UINT, .max = INT32_MAX, .help = "measured again"),
	REC(SEARCH, generator_recovered, UINT, .max = INT32_MAX, .help = "and came back clean"),
	REC(SEARCH, generator_ceiling_pps, DOUBLE, REC_NUM,
	    .help = "highest rate the sources made"),
	REC(SEARCH, budget_exhausted, BOOL, .help = "stopped by its trial or time budget"),
	REC(SEARCH, aborted, BOOL, .help = "stopped by an error"),
	REC_TEXT("id", 79, "the search's id"),
	REC_TEXT("started", 31, "UTC time, ISO 8601"),
	REC_TEXT("topology", 63, "topology name"),
	{.name = "failed", .type = PVP_SCHEMA_BOOL, .help = "the search failed"},
	{.name = "checks_failed",
	 .type = PVP_SCHEMA_JSON,
	 .help = "trials whose checks failed, and how"},
	{.name = "burst_warning", .type = PVP_SCHEMA_JSON, .help = "sources that burst"},
	REC_TEXT("interrupted", 15, "the signal that cut it short"),
	REC_TEXT("error", 4095, "why it stopped"),
	{.name = "partial", .type = PVP_SCHEMA_BOOL, .help = "cut short: not complete"},
	REC_TEXT("preset", 63, "--preset"),
	REC(SEARCH, repeat, OBJECT, .members = rec_repeat_members, REC_HAS(SEARCH, has_repeat),
	    .help = "--repeat: which search of the point"),
	{.name = NULL},
};

static const char *const rec_run_type[] = {"run", NULL};
static const char *const rec_run_commands[] = {"search", "run", NULL};

const struct pvp_schema_member coord_record_host_members[] = {
	REC_STR(HOST, cpu_model, .help = "the CPU's model name"),
	REC(HOST, cpus, INT, .min = -1, .max = INT32_MAX, .help = "CPUs online"),
	REC_STR(HOST, kernel, .help = "the kernel's release"),
	REC_STR(HOST, machine, .help = "the machine's architecture"),
	{.name = NULL},
};

/* A hop's driver name and its context, whatever the driver says. */
static const struct pvp_schema_member rec_any = {.name = "", .type = PVP_SCHEMA_JSON};

const struct pvp_schema_member coord_run_record_members[] = {
	REC(RUN, type, ENUM, .required = true, .values = rec_run_type,
	    .help = "what the record is"),
	REC(RUN, schema, UINT, .min = 1, .max = COORD_RECORD_SCHEMA, REC_HAS(RUN, has_schema),
	    .def = "1", .help = "version of the record tables"),
	REC(RUN, command, ENUM, .values = rec_run_commands, .help = "the pvpkit command"),
	REC_STR(RUN, pvpkit_version, .help = "pvpkit's version"),
	REC_STR(RUN, started, .help = "UTC time, ISO 8601"),
	REC_STR(RUN, topology, .help = "topology name"),
	REC_STR(RUN, dut, .nullable = true, REC_HAS(RUN, has_dut),
		.help = "--dut: what is measured (null: not said)"),
	REC(RUN, host, OBJECT, .members = coord_record_host_members, REC_HAS(RUN, has_host),
	    .help = "the host it ran on"),
	REC(RUN, hops, MAP, .members = &rec_any,
	    .help = "each hop's driver and context (OVS: versions, other_config, PMDs)"),
	REC(RUN, goals, ARRAY, .max = COORD_RECORD_MAX_GOALS, .members = &rec_run_goal,
	    .count_offset = offsetof(RUN, nb_goals), .help = "the goals searched"),
	REC_STR(RUN, flow_type, REC_HAS(RUN, has_flow_type), .help = "--flow-type"),
	REC_STR(RUN, title, REC_HAS(RUN, has_title),
		.help = "the reports' title (a file's own; pvpkit writes none)"),
	REC(RUN, line_rate_bps, DOUBLE, REC_NUM, REC_HAS(RUN, has_line_rate),
	    .help = "the line rate, bit/s (a file's own; pvpkit writes none)"),
	{.name = NULL},
};

static const char *const rec_soak_types[] = {"soak_interval", "soak", NULL};

const struct pvp_schema_member coord_record_soak_latency_members[] = {
	REC(SLAT, count, UINT, REC_NUM, .help = "samples"),
	REC(SLAT, min, UINT, REC_NUM, .help = "smallest, ns"),
	REC(SLAT, avg, UINT, REC_NUM, .help = "mean, ns"),
	REC(SLAT, p50, UINT, REC_NUM, .help = "median, ns"),
	REC(SLAT, p99, UINT, REC_NUM, .help = "99th percentile, ns"),
	REC(SLAT, p99_9, UINT, REC_NUM, .help = "99.9th percentile, ns"),
	REC(SLAT, p99_99, UINT, REC_NUM, .help = "99.99th percentile, ns"),
	REC(SLAT, max, UINT, REC_NUM, .help = "largest, ns"),
	REC_STR(SLAT, clock, .help = "the clock of the samples: tsc"),
	{.name = NULL},
};

static const struct pvp_schema_member rec_soak_inject_members[] = {
	REC(SINJ, t_s, DOUBLE, REC_NUM, .help = "seconds since the traffic started"),
	REC_STR(SINJ, hop, .help = "the hop called"),
	REC_STR(SINJ, method, .help = "its control method"),
	REC(SINJ, params, JSON, .help = "the parameters sent"),
	REC(SINJ, ok, BOOL, .help = "the hop answered without an error"),
	REC(SINJ, result, JSON, .help = "its answer"),
	REC_STR(SINJ, error, .help = "why it failed"),
	{.name = NULL},
};
static const struct pvp_schema_member rec_soak_inject = {.name = "",
							 .type = PVP_SCHEMA_OBJECT,
							 .members = rec_soak_inject_members,
							 .size = sizeof(SINJ)};

const struct pvp_schema_member coord_soak_record_members[] = {
	REC(SOAK, type, ENUM, .required = true, .values = rec_soak_types,
	    .help = "soak_interval: one reading; soak: the totals"),
	REC(SOAK, n, UINT, REC_U32, .help = "readings so far"),
	REC(SOAK, t_s, DOUBLE, REC_NUM, .help = "seconds since the traffic started"),
	REC(SOAK, interval_s, DOUBLE, REC_NUM, .help = "seconds the record spans"),
	REC(SOAK, rate_pps, DOUBLE, REC_NUM, .help = "rate sent per TX port"),
	REC(SOAK, tx_packets, UINT, REC_NUM, .help = "tester TX in the span"),
	REC(SOAK, rx_packets, UINT, REC_NUM, .help = "tester RX in the span"),
	REC(SOAK, lost, INT, REC_SIGNED, .help = "tx_packets - rx_packets"),
	REC(SOAK, loss_ratio, DOUBLE, REC_SIGNED, .help = "lost / tx_packets"),
	REC(SOAK, hop_lost, MAP, .members = &rec_count, .help = "loss attributed to each hop"),
	REC(SOAK, unattributed, INT, REC_SIGNED, .help = "loss no hop explains"),
	REC(SOAK, reconciled, BOOL, .help = "hop_lost and unattributed add up to lost"),
	REC(SOAK, tx_pps, DOUBLE, REC_NUM, .help = "tx_packets / interval_s"),
	REC(SOAK, rx_pps, DOUBLE, REC_NUM, .help = "rx_packets / interval_s"),
	REC(SOAK, size, UINT, REC_U32, .help = "frame size in bytes, with the 4 B FCS"),
	REC(SOAK, flows, UINT, REC_U32, .help = "flow count"),
	REC(SOAK, planned_s, DOUBLE, REC_NUM, REC_HAS(SOAK, has_planned),
	    .help = "soak: the planned duration"),
	REC(SOAK, interrupted, BOOL, REC_HAS(SOAK, has_interrupted),
	    .help = "soak: a signal ended it early"),
	REC(SOAK, latency_ns, OBJECT, .members = coord_record_soak_latency_members,
	    REC_HAS(SOAK, has_latency), .help = "latency in the span (pvpkit-gen's histograms)"),
	REC(SOAK, injected, ARRAY, .max = COORD_RECORD_MAX_INJECT, .members = &rec_soak_inject,
	    .count_offset = offsetof(SOAK, nb_injected),
	    .help = "--inject calls made in the span (soak: all of them)"),
	{.name = NULL},
};

/* The halves as pvpkit-gen writes them (oneway.c); the histogram is let be. */
static const struct pvp_schema_member rec_oneway_half_members[] = {
	REC(OWHALF, count, UINT, REC_NUM, .help = "samples"),
	REC(OWHALF, p50, UINT, REC_NUM, .help = "median, ns"),
	REC(OWHALF, p99, UINT, REC_NUM, .help = "99th percentile, ns"),
	REC(OWHALF, max, UINT, REC_NUM, .help = "largest, ns"),
	{.name = NULL},
};

static const struct pvp_schema_member rec_oneway_ns_members[] = {
	REC(OWNS, to_guest, OBJECT, .members = rec_oneway_half_members,
	    .help = "tester TX to the guest's receive stamp"),
	REC(OWNS, from_guest, OBJECT, .members = rec_oneway_half_members,
	    .help = "the guest's receive stamp to tester RX"),
	REC(OWNS, unstamped, UINT, REC_NUM, .help = "signed packets without a stamp"),
	{.name = NULL},
};

/* pvpkit-gen's figures (report.c) and the trex driver's (min, avg, max, jitter). */
#define REC_LAT(f, h) REC(STLAT, f, DOUBLE, REC_NUM, .help = h)
static const struct pvp_schema_member rec_stream_latency_members[] = {
	REC(STLAT, histogram, JSON, .help = "pvpkit-gen's histogram"),
	REC(STLAT, clock, JSON, .help = "the clock of the samples (\"tsc\"; another: unknown)"),
	REC_LAT(count, "samples"),
	REC_LAT(min, "smallest"),
	REC_LAT(avg, "mean"),
	REC_LAT(p50, "median"),
	REC_LAT(p90, "90th percentile"),
	REC_LAT(p99, "99th"),
	REC_LAT(p99_9, "99.9th"),
	REC_LAT(p99_99, "99.99th"),
	REC_LAT(max, "largest"),
	REC_LAT(jitter, "jitter"),
	{.name = NULL},
};

const struct pvp_schema_member coord_record_stream_members[] = {
	REC(OWST, stream, UINT, REC_U32, .help = "the stream's wire id"),
	REC(OWST, port, UINT, REC_U32, .help = "its TX port"),
	REC(OWST, latency_ns, OBJECT, .members = rec_stream_latency_members,
	    REC_HAS(OWST, has_latency), .help = "its latency, ns"),
	{.name = "oneway_ns",
	 .type = PVP_SCHEMA_OBJECT,
	 .members = rec_oneway_ns_members,
	 PVP_SCHEMA_AT(OWST, ns),
	 REC_HAS(OWST, has_ns),
	 .help = "the halves, when the source split the latency"},
	{.name = NULL},
};

static const char *const rec_oneway_clocks[] = {"shared", "differs", NULL};

const struct pvp_schema_member coord_record_oneway_members[] = {
	REC_STR(OW, guest, .help = "the guest that stamps"),
	REC_STR(OW, source, .help = "the source that compared its clock"),
	REC(OW, clock, ENUM, .required = true, .values = rec_oneway_clocks,
	    .help = "shared: the halves are measured; differs: only the round trip"),
	REC_STR(OW, reason, .help = "why the clocks differ"),
	REC(OW, offset_ns, DOUBLE, REC_SIGNED, REC_HAS(OW, has_offset),
	    .help = "the source's TSC minus the guest's, as sampled"),
	{.name = NULL},
};

/*
 * summary.json, which `pvpkit report` writes and `pvpkit compare` reads
 * back from earlier runs: checked against this table, not decoded (the
 * report works on the JSON). Sums over records (seconds, packets) and a
 * spread may pass 1e18: their bound is int64_t's; text that is the
 * user's (a title, a goal's name) has no length of its own.
 */
#define SUM(n, t, ...)                                                                             \
	{                                                                                          \
		.name = n, .type = PVP_SCHEMA_##t, __VA_ARGS__                                     \
	}
#define SUM_NULL(n, h) SUM(n, DOUBLE, REC_NUM, .nullable = true, .help = h)
#define SUM_NUM(n, h)  SUM(n, DOUBLE, REC_NUM, .help = h)
#define SUM_UINT(n, h) SUM(n, UINT, REC_NUM, .help = h)
#define SUM_SUM(n, h)  SUM(n, DOUBLE, .max = INT64_MAX, .help = h)
#define SUM_TEXT(n, h) SUM(n, STRING, .max = INT32_MAX, .help = h)

const struct pvp_schema_member coord_summary_goal_members[] = {
	SUM("loss_ratio", DOUBLE, .max = 1, .help = "the goal's loss ratio"),
	SUM_NULL("pps", "the rate: the lower bound, the median of the repeats"),
	SUM_NULL("mpps", "pps in Mpps"),
	SUM_NULL("l1_gbps", "pps in Gbit/s on the wire (with l1_overhead_bytes)"),
	SUM_NULL("line_rate_pct", "pps in % of the line rate"),
	SUM_NULL("lower_pps", "lower bound"),
	SUM_NULL("upper_pps", "upper bound"),
	SUM_TEXT("status", "the search's, or from-trials"),
	SUM_TEXT("source", "search or trials"),
	SUM("reached_max_rate", BOOL, .help = "met at the highest rate"),
	SUM("generator_limited", BOOL, .help = "a bound set by a generator-limited trial"),
	SUM("repeats", UINT, REC_U32, .help = "searches behind it"),
	SUM("latency", OBJECT, .members = rec_goal_latency_members,
	    .help = "its latency bound: stat and bound_us"),
	SUM("searches_pps", ARRAY, .max = INT32_MAX,
	    .members = &(const struct pvp_schema_member)SUM_NULL("", NULL),
	    .help = "each repeat's lower bound"),
	SUM_NULL("min_pps", "lowest lower bound of the repeats"),
	SUM_NULL("max_pps", "highest"),
	SUM("spread", DOUBLE, .max = INT64_MAX, .nullable = true, .help = "(max - min) / median"),
	SUM_NULL("conditional_pps", "median conditional throughput"),
	{.name = NULL},
};

static const struct pvp_schema_member sum_range =
	SUM("", ARRAY, .min = 2, .max = 2,
	    .members = &(const struct pvp_schema_member)SUM("", DOUBLE, REC_NUM));
static const struct pvp_schema_member sum_lat_members[] = {
	SUM_NUM("load_pct", "% of the reference rate"),
	SUM_NUM("rate_pps", "the trials' rate"),
	SUM_TEXT("reference", "the goal the load is a share of"),
	SUM_NUM("reference_pps", "its rate"),
	SUM_NUM("duration_s", "each trial's duration"),
	SUM_SUM("tx_packets", "tester TX, summed"),
	SUM_SUM("rx_packets", "tester RX, summed"),
	SUM("loss_ratio", DOUBLE, REC_SIGNED, .help = "their loss ratio"),
	SUM("trials", UINT, REC_U32, .help = "trials merged (the rounds)"),
	SUM_UINT("count", "samples"),
	SUM_UINT("min_ns", "smallest"),
	SUM_UINT("avg_ns", "mean"),
	SUM_UINT("p50_ns", "median"),
	SUM_UINT("p90_ns", "90th percentile"),
	SUM_UINT("p99_ns", "99th"),
	SUM_UINT("p99_9_ns", "99.9th"),
	SUM_UINT("p99_99_ns", "99.99th"),
	SUM_UINT("max_ns", "largest"),
	SUM_UINT("jitter_ns", "jitter"),
	SUM_TEXT("clock", "the clock of the samples"),
	SUM("range_ns", MAP, .members = &sum_range,
	    .help = "per percentile (p50 ... max), its lowest and highest"),
	SUM("streams", JSON, .help = "per stream, its figures"),
	{.name = NULL},
};

static const struct pvp_schema_member sum_point_members[] = {
	SUM("size", UINT, REC_U32, .required = true, .help = "frame size with the FCS"),
	SUM("flows", UINT, REC_U32, .required = true, .help = "flow count"),
	SUM_UINT("trials", "trials of the point"),
	SUM_SUM("trial_seconds", "their time"),
	SUM("generator_limited", BOOL, .help = "a trial was generator-limited"),
	SUM_NUM("theoretical_max_pps", "the line rate in frames/s"),
	SUM("goals", MAP,
	    .members = &(const struct pvp_schema_member)SUM("", OBJECT,
							    .members = coord_summary_goal_members),
	    .help = "per goal name, its figures"),
	SUM("latency", ARRAY, .max = INT32_MAX,
	    .members = &(const struct pvp_schema_member)SUM("", OBJECT, .members = sum_lat_members),
	    .help = "per load, its latency"),
	SUM("oneway", JSON, .help = "one-way latency, its halves"),
	{.name = NULL},
};

static const struct pvp_schema_member sum_meta_members[] = {
	SUM_TEXT("pvpkit_version", "pvpkit's version"),
	SUM_TEXT("started", "UTC time, ISO 8601"),
	SUM_TEXT("topology", "topology name"),
	SUM("dut", STRING, .max = INT32_MAX, .nullable = true, .help = "--dut (null: not said)"),
	SUM("host", OBJECT, .members = coord_record_host_members, .help = "the host it ran on"),
	SUM("vswitch", MAP, .members = &rec_any,
	    .help = "each vswitch hop's versions, other_config, PMDs"),
	{.name = NULL},
};

static const struct pvp_schema_member sum_floor_members[] = {
	SUM_TEXT("source", "the source measured"),
	SUM_NUM("rate_pps", "its rate"),
	SUM_NUM("min_ns", "smallest"),
	SUM_NUM("p50_ns", "median"),
	SUM_NUM("p99_ns", "99th percentile"),
	SUM_NUM("max_ns", "largest"),
	SUM_TEXT("clock", "the clock, or unknown"),
	{.name = NULL},
};

static const struct pvp_schema_member sum_uint = SUM("", UINT, REC_U32);

const struct pvp_schema_member coord_summary_members[] = {
	SUM("schema", UINT, .min = 1, .max = COORD_RECORD_SCHEMA,
	    .help = "version of the record tables"),
	SUM_TEXT("title", "the reports' title"),
	SUM_NUM("line_rate_bps", "the line rate, bit/s"),
	SUM_UINT("l1_overhead_bytes", "bytes per frame on the wire beside it"),
	SUM("sizes_include_fcs", BOOL, .help = "sizes count the 4 B FCS"),
	SUM_TEXT("flow_type", "--flow-type"),
	SUM_UINT("trials", "trials read"),
	SUM_UINT("searches", "searches read"),
	SUM_SUM("trial_seconds", "their time"),
	SUM("sizes", ARRAY, .max = INT32_MAX, .members = &sum_uint,
	    .help = "the sizes of the points"),
	SUM("flow_counts", ARRAY, .max = INT32_MAX, .members = &sum_uint,
	    .help = "their flow counts"),
	SUM("goals", ARRAY, .max = INT32_MAX,
	    .members = &(const struct pvp_schema_member)SUM("", STRING, .max = INT32_MAX),
	    .help = "the goals' names"),
	SUM("points", ARRAY, .required = true, .max = INT32_MAX,
	    .members =
		    &(const struct pvp_schema_member)SUM("", OBJECT, .members = sum_point_members),
	    .help = "per size and flow count"),
	SUM("metadata", OBJECT, .members = sum_meta_members, .help = "the run"),
	SUM("soak", JSON, .help = "a soak's totals"),
	SUM("latency_floor", OBJECT, .members = sum_floor_members,
	    .help = "the tester's own latency"),
	SUM_UINT("generator_remeasured", "generator-limited trials measured again"),
	SUM_UINT("generator_recovered", "and came back clean"),
	{.name = NULL},
};

int
coord_summary_check(const json_t *sum, const char *source, const char *text, char *err,
		    size_t err_len)
{
	const struct pvp_schema_src src = {.source = source, .text = text, .open = true};

	return pvp_schema_check(coord_summary_members, sum, "", &src, err, err_len);
}

int
coord_record_check(const json_t *rec, char *err, size_t err_len)
{
	/* Members the table does not name are let be, as pvp_schema_read() does. */
	static const struct pvp_schema_src open = {.open = true};
	const char *type = json_string_value(json_object_get(rec, "type"));
	const struct pvp_schema_member *members;
	char why[512] = "";

	/*
	 * Checking is enough: every string's longest length is its field's
	 * size less one, so what passes here decodes.
	 */
	if (type != NULL && strcmp(type, "trial") == 0)
		members = coord_trial_record_members;
	else if (type != NULL && strcmp(type, "search") == 0)
		members = coord_search_record_members;
	else if (type != NULL && strcmp(type, "run") == 0)
		members = coord_run_record_members;
	else if (type != NULL && (strcmp(type, "soak_interval") == 0 || strcmp(type, "soak") == 0))
		members = coord_soak_record_members;
	else
		return 0;
	if (pvp_schema_check(members, rec, "", &open, why, sizeof(why)) == 0)
		return 0;
	pvp_err(err, err_len, "%s record: %s", type, why);
	return -EINVAL;
}
