/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The "trial" and "search" records as schema tables (coord_record.h): the
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
#define REC_NUM .min = 0, .max = COORD_RECORD_NUM_MAX
#define REC_SIGNED .min = -COORD_RECORD_NUM_MAX, .max = COORD_RECORD_NUM_MAX
#define REC_TEXT(n) .min = 0, .max = (n) - 1

#define TR(f) PVP_SCHEMA_AT(struct coord_trial_record, f)
#define TR_HAS(f) PVP_SCHEMA_PRESENT(struct coord_trial_record, f)
#define SR(f) PVP_SCHEMA_AT(struct coord_search_record, f)
#define SR_HAS(f) PVP_SCHEMA_PRESENT(struct coord_search_record, f)

static const char *const rec_trial_type[] = {"trial", NULL};
static const char *const rec_search_type[] = {"search", NULL};

static const struct pvp_schema_member rec_count = {.name = "", .type = PVP_SCHEMA_INT, REC_SIGNED};
static const char *const rec_check_states[] = {"ok", "failed", "unchecked", "recorded", NULL};
static const struct pvp_schema_member rec_check_state = {
	.name = "", .type = PVP_SCHEMA_STRING, .min = 1, .max = 15, .values = rec_check_states};

#define SIG(f) PVP_SCHEMA_AT(struct coord_record_signature, f)
static const struct pvp_schema_member rec_signature_members[] = {
	{.name = "offered", .type = PVP_SCHEMA_UINT, REC_NUM, SIG(offered),
	 .help = "signed packets sent"},
	{.name = "rx", .type = PVP_SCHEMA_UINT, REC_NUM, SIG(rx), .help = "signed packets received"},
	{.name = "lost", .type = PVP_SCHEMA_UINT, REC_NUM, SIG(lost),
	 .help = "sequence numbers never received"},
	{.name = "dup", .type = PVP_SCHEMA_UINT, REC_NUM, SIG(dup), .help = "received twice"},
	{.name = "unsigned_rx", .type = PVP_SCHEMA_UINT, REC_NUM, SIG(unsigned_rx),
	 .help = "received without a signature"},
	{.name = "unknown_stream_rx", .type = PVP_SCHEMA_UINT, REC_NUM, SIG(unknown_stream_rx),
	 .help = "signature of no stream of this trial"},
	{.name = "neigh_rx", .type = PVP_SCHEMA_UINT, REC_NUM, SIG(neigh_rx),
	 .help = "ARP/ND received, not counted as traffic"},
	{.name = NULL},
};

#define REF(f) PVP_SCHEMA_AT(struct coord_record_search_ref, f)
static const struct pvp_schema_member rec_search_ref_members[] = {
	{.name = "id", .type = PVP_SCHEMA_STRING, REC_TEXT(80), REF(id), .help = "the search's id"},
	{.name = "trial", .type = PVP_SCHEMA_UINT, .max = UINT32_MAX, REF(trial),
	 .help = "index of the trial in the search"},
	{.name = "phase", .type = PVP_SCHEMA_UINT, .max = UINT32_MAX, REF(phase),
	 .help = "phase of the search"},
	{.name = "goal", .type = PVP_SCHEMA_UINT, .max = UINT32_MAX, REF(goal),
	 .help = "goal the trial measured"},
	/* Written only when true (older readers see the records they know):
	 * each flag is its own "given". */
	{.name = "warmup", .type = PVP_SCHEMA_BOOL, REF(warmup),
	 PVP_SCHEMA_PRESENT(struct coord_record_search_ref, warmup), .def = "false",
	 .help = "a warm-up trial: no measurement"},
	{.name = "gen_remeasure", .type = PVP_SCHEMA_BOOL, REF(gen_remeasure),
	 PVP_SCHEMA_PRESENT(struct coord_record_search_ref, gen_remeasure), .def = "false",
	 .help = "measured again after a generator-limited trial"},
	{.name = NULL},
};

const struct pvp_schema_member coord_trial_record_members[] = {
	{.name = "type", .type = PVP_SCHEMA_ENUM, .required = true, .values = rec_trial_type,
	 TR(type), .help = "what the record is"},
	{.name = "schema", .type = PVP_SCHEMA_UINT, .min = 1, .max = COORD_RECORD_SCHEMA,
	 TR(schema), TR_HAS(has_schema), .def = "1", .help = "version of this table"},
	{.name = "started", .type = PVP_SCHEMA_STRING, REC_TEXT(32), TR(started),
	 .help = "UTC time, ISO 8601"},
	{.name = "topology", .type = PVP_SCHEMA_STRING, REC_TEXT(64), TR(topology),
	 .help = "topology name"},
	{.name = "duration_s", .type = PVP_SCHEMA_DOUBLE, REC_NUM, TR(duration_s),
	 .help = "trial duration"},
	{.name = "warmup_s", .type = PVP_SCHEMA_DOUBLE, REC_NUM, TR(warmup_s),
	 .help = "warm-up traffic before it"},
	{.name = "requested_pps", .type = PVP_SCHEMA_DOUBLE, REC_NUM, TR(requested_pps),
	 TR_HAS(has_requested), .help = "rate asked of the sources (else achieved_pps)"},
	{.name = "achieved_pps", .type = PVP_SCHEMA_DOUBLE, REC_NUM, TR(achieved_pps),
	 .help = "rate the sources sent"},
	{.name = "generator_limited", .type = PVP_SCHEMA_BOOL, TR(generator_limited),
	 .def = "false", .help = "the sources could not send the rate asked"},
	{.name = "dut_result", .type = PVP_SCHEMA_BOOL, TR(dut_result), .def = "true",
	 .help = "false: not a measurement of the DUT"},
	{.name = "tx_packets", .type = PVP_SCHEMA_UINT, REC_NUM, TR(tx_packets),
	 .help = "tester TX"},
	{.name = "rx_packets", .type = PVP_SCHEMA_UINT, REC_NUM, TR(rx_packets),
	 .help = "tester RX"},
	{.name = "lost", .type = PVP_SCHEMA_INT, REC_SIGNED, TR(lost),
	 .help = "tx_packets - rx_packets"},
	{.name = "loss_ratio", .type = PVP_SCHEMA_DOUBLE, REC_SIGNED, TR(loss_ratio),
	 .help = "lost / tx_packets"},
	{.name = "hop_lost", .type = PVP_SCHEMA_MAP, .members = &rec_count, TR(hop_lost),
	 .help = "loss attributed to each hop, in chain order"},
	{.name = "unattributed", .type = PVP_SCHEMA_INT, REC_SIGNED, TR(unattributed),
	 .help = "loss no hop explains"},
	{.name = "reconciled", .type = PVP_SCHEMA_BOOL, TR(reconciled),
	 .help = "hop_lost and unattributed add up to lost"},
	{.name = "quiet", .type = PVP_SCHEMA_BOOL, TR(quiet),
	 .help = "the counters settled before the snapshot"},
	{.name = "quiet_s", .type = PVP_SCHEMA_DOUBLE, REC_NUM, TR(quiet_s),
	 .help = "how long they took"},
	{.name = "snapshot_ms", .type = PVP_SCHEMA_DOUBLE, REC_NUM, TR(snapshot_ms),
	 .help = "how long the snapshot of all hops took"},
	{.name = "chains", .type = PVP_SCHEMA_JSON, TR(chains),
	 .help = "per chain, its points: label, hop, port, packets, lost, drop ..."},
	{.name = "chain_totals", .type = PVP_SCHEMA_JSON, TR(chain_totals),
	 .help = "per chain, tx_packets, rx_packets and lost"},
	{.name = "profile", .type = PVP_SCHEMA_STRING, REC_TEXT(4096), TR(profile),
	 .help = "profile file, instead of size and flows"},
	{.name = "size", .type = PVP_SCHEMA_UINT, .max = UINT32_MAX, TR(size), TR_HAS(has_size),
	 .help = "frame size in bytes, with the 4 B FCS"},
	{.name = "flows", .type = PVP_SCHEMA_UINT, .max = UINT32_MAX, TR(flows),
	 TR_HAS(has_flows), .help = "flow count"},
	{.name = "rate", .type = PVP_SCHEMA_JSON, TR(rate),
	 .help = "the rate as given (a string), pps (a number) or \"max\""},
	{.name = "checks", .type = PVP_SCHEMA_MAP, .members = &rec_check_state, TR(checks),
	 .help = "each check's state"},
	{.name = "findings", .type = PVP_SCHEMA_JSON, TR(findings),
	 .help = "failed checks: check, hop, invalid, message"},
	{.name = "hop_drops", .type = PVP_SCHEMA_MAP, .members = &rec_count, TR(hop_drops),
	 .help = "drops each hop counted"},
	{.name = "invalid", .type = PVP_SCHEMA_BOOL, TR(invalid),
	 .help = "not a measurement of the DUT"},
	{.name = "signature", .type = PVP_SCHEMA_OBJECT, .members = rec_signature_members,
	 TR(signature), TR_HAS(has_signature), .help = "the signature check's counts"},
	{.name = "max_burst", .type = PVP_SCHEMA_UINT, REC_NUM, .nullable = true, TR(max_burst),
	 TR_HAS(has_max_burst), .help = "largest source burst (null: not known)"},
	{.name = "max_burst_limit", .type = PVP_SCHEMA_UINT, REC_NUM, TR(max_burst_limit),
	 TR_HAS(has_max_burst_limit), .help = "--max-burst"},
	{.name = "streams", .type = PVP_SCHEMA_JSON, TR(streams),
	 .help = "per stream, pvpkit-gen's counts and latency_ns"},
	{.name = "context", .type = PVP_SCHEMA_JSON, TR(context),
	 .help = "each hop's driver context"},
	{.name = "warnings", .type = PVP_SCHEMA_JSON, TR(warnings),
	 .help = "one-line warnings"},
	{.name = "start", .type = PVP_SCHEMA_JSON, TR(start),
	 .help = "several sources: when each sent its first packet"},
	{.name = "shared_cores", .type = PVP_SCHEMA_BOOL, TR(shared_cores),
	 TR_HAS(has_shared_cores), .help = "the topology's pollers share cores"},
	{.name = "vm", .type = PVP_SCHEMA_JSON, TR(vm), .help = "the guest's kind (testbed.vm)"},
	{.name = "functional_only", .type = PVP_SCHEMA_BOOL, TR(functional_only),
	 TR_HAS(has_functional_only), .help = "a guest without KVM: not performance figures"},
	{.name = "search", .type = PVP_SCHEMA_OBJECT, .members = rec_search_ref_members,
	 TR(search), TR_HAS(has_search), .help = "the trial's place in a search"},
	{.name = "latency", .type = PVP_SCHEMA_JSON, TR(latency),
	 .help = "latency trial: load_pct, reference, reference_pps, set, round, rounds"},
	{.name = NULL},
};

#define GO(f) PVP_SCHEMA_AT(struct coord_record_goal, f)
#define GO_HAS(f) PVP_SCHEMA_PRESENT(struct coord_record_goal, f)
/*
 * A goal's members. A new kind of goal (a latency bound, say) adds its
 * member here and to struct coord_record_goal; readers that do not know
 * it let it be.
 */
static const struct pvp_schema_member rec_goal_members[] = {
	{.name = "name", .type = PVP_SCHEMA_STRING, REC_TEXT(32), GO(name),
	 .help = "\"ndr\", \"pdr\", \"pdr0.5%\""},
	{.name = "loss_ratio", .type = PVP_SCHEMA_DOUBLE, .max = 1, GO(loss_ratio),
	 .help = "the goal's loss ratio"},
	{.name = "status", .type = PVP_SCHEMA_STRING, REC_TEXT(16), GO(status),
	 .help = "ok, at-max, below-min, incomplete"},
	{.name = "lower_pps", .type = PVP_SCHEMA_DOUBLE, REC_NUM, .nullable = true, GO(lower_pps),
	 GO_HAS(has_lower), .help = "highest rate that met the goal"},
	{.name = "upper_pps", .type = PVP_SCHEMA_DOUBLE, REC_NUM, .nullable = true, GO(upper_pps),
	 GO_HAS(has_upper), .help = "lowest rate that failed it"},
	{.name = "rel_width", .type = PVP_SCHEMA_DOUBLE, REC_NUM, GO(rel_width),
	 .help = "(upper - lower) / upper"},
	{.name = "reached_max_rate", .type = PVP_SCHEMA_BOOL, GO(reached_max_rate),
	 .help = "met at the highest rate"},
	{.name = "generator_limited", .type = PVP_SCHEMA_BOOL, GO(generator_limited),
	 .help = "a bound set by a generator-limited trial"},
	{.name = "conditional_pps", .type = PVP_SCHEMA_DOUBLE, REC_NUM, .nullable = true,
	 GO(conditional_pps), GO_HAS(has_conditional), .help = "conditional throughput"},
	{.name = NULL},
};
static const struct pvp_schema_member rec_goal = {
	.name = "", .type = PVP_SCHEMA_OBJECT, .members = rec_goal_members,
	.size = sizeof(struct coord_record_goal)};

#define PA(f) PVP_SCHEMA_AT(struct coord_record_search_params, f)
static const struct pvp_schema_member rec_params_members[] = {
	{.name = "min_pps", .type = PVP_SCHEMA_DOUBLE, REC_NUM, PA(min_pps), .help = "lowest rate"},
	{.name = "max_pps", .type = PVP_SCHEMA_DOUBLE, REC_NUM, PA(max_pps),
	 .help = "highest rate"},
	{.name = "width_goal", .type = PVP_SCHEMA_DOUBLE, REC_NUM, PA(width_goal),
	 .help = "relative width to reach"},
	{.name = "initial_duration_s", .type = PVP_SCHEMA_DOUBLE, REC_NUM,
	 PA(initial_duration_s), .help = "first phase's trials"},
	{.name = "final_duration_s", .type = PVP_SCHEMA_DOUBLE, REC_NUM, PA(final_duration_s),
	 .help = "last phase's trials"},
	{.name = "intermediate_phases", .type = PVP_SCHEMA_UINT, .max = UINT32_MAX,
	 PA(intermediate_phases), .help = "phases between"},
	{.name = "max_trials", .type = PVP_SCHEMA_UINT, .max = UINT32_MAX, PA(max_trials),
	 .help = "trial budget"},
	{.name = "max_time_s", .type = PVP_SCHEMA_DOUBLE, REC_NUM, PA(max_time_s),
	 .help = "time budget"},
	{.name = "exceed_ratio", .type = PVP_SCHEMA_DOUBLE, REC_NUM, PA(exceed_ratio),
	 .help = "share of trial time that may fail the goal"},
	{.name = "duration_sum_s", .type = PVP_SCHEMA_DOUBLE, REC_NUM, PA(duration_sum_s),
	 .help = "trial time summed per rate"},
	{.name = "warmup_s", .type = PVP_SCHEMA_DOUBLE, REC_NUM, PA(warmup_s),
	 .help = "warm-up trial"},
	{.name = "gen_remeasure", .type = PVP_SCHEMA_UINT, .max = UINT32_MAX, PA(gen_remeasure),
	 .help = "re-measures of a generator-limited trial"},
	{.name = NULL},
};

#define RE(f) PVP_SCHEMA_AT(struct coord_record_repeat, f)
static const struct pvp_schema_member rec_repeat_members[] = {
	{.name = "group", .type = PVP_SCHEMA_STRING, REC_TEXT(64), RE(group),
	 .help = "the repeats' id"},
	{.name = "index", .type = PVP_SCHEMA_UINT, .max = UINT32_MAX, RE(index),
	 .help = "which search of the repeats"},
	{.name = "of", .type = PVP_SCHEMA_UINT, .max = UINT32_MAX, RE(of), .help = "how many"},
	{.name = NULL},
};

const struct pvp_schema_member coord_search_record_members[] = {
	{.name = "type", .type = PVP_SCHEMA_ENUM, .required = true, .values = rec_search_type,
	 SR(type), .help = "what the record is"},
	{.name = "schema", .type = PVP_SCHEMA_UINT, .min = 1, .max = COORD_RECORD_SCHEMA,
	 SR(schema), SR_HAS(has_schema), .def = "1", .help = "version of this table"},
	{.name = "size", .type = PVP_SCHEMA_UINT, .max = UINT32_MAX, SR(size), SR_HAS(has_size),
	 .help = "frame size in bytes, with the 4 B FCS"},
	{.name = "flows", .type = PVP_SCHEMA_UINT, .max = UINT32_MAX, SR(flows),
	 SR_HAS(has_flows), .help = "flow count"},
	{.name = "algo", .type = PVP_SCHEMA_STRING, REC_TEXT(16), SR(algo),
	 .help = "mlr or binary"},
	{.name = "params", .type = PVP_SCHEMA_OBJECT, .members = rec_params_members, SR(params),
	 .help = "the search's parameters"},
	{.name = "goals", .type = PVP_SCHEMA_ARRAY, .max = COORD_RECORD_MAX_GOALS,
	 .members = &rec_goal, SR(goals), .count_offset = offsetof(struct coord_search_record,
								     nb_goals),
	 .help = "one per goal"},
	{.name = "trials", .type = PVP_SCHEMA_UINT, .max = UINT32_MAX, SR(trials),
	 .help = "trials run"},
	{.name = "trial_seconds", .type = PVP_SCHEMA_DOUBLE, REC_NUM, SR(trial_seconds),
	 .help = "their time"},
	{.name = "generator_limited_trials", .type = PVP_SCHEMA_UINT, .max = INT32_MAX,
	 SR(generator_limited_trials), .help = "of them generator-limited"},
	{.name = "generator_remeasured", .type = PVP_SCHEMA_UINT, .max = INT32_MAX,
	 SR(generator_remeasured), .help = "measured again"},
	{.name = "generator_recovered", .type = PVP_SCHEMA_UINT, .max = INT32_MAX,
	 SR(generator_recovered), .help = "and came back clean"},
	{.name = "generator_ceiling_pps", .type = PVP_SCHEMA_DOUBLE, REC_NUM,
	 SR(generator_ceiling_pps), .help = "highest rate the sources made"},
	{.name = "budget_exhausted", .type = PVP_SCHEMA_BOOL, SR(budget_exhausted),
	 .help = "stopped by its trial or time budget"},
	{.name = "aborted", .type = PVP_SCHEMA_BOOL, SR(aborted),
	 .help = "stopped by an error"},
	{.name = "id", .type = PVP_SCHEMA_STRING, REC_TEXT(80), .help = "the search's id"},
	{.name = "started", .type = PVP_SCHEMA_STRING, REC_TEXT(32), .help = "UTC time, ISO 8601"},
	{.name = "topology", .type = PVP_SCHEMA_STRING, REC_TEXT(64), .help = "topology name"},
	{.name = "failed", .type = PVP_SCHEMA_BOOL, .help = "the search failed"},
	{.name = "checks_failed", .type = PVP_SCHEMA_JSON,
	 .help = "trials whose checks failed, and how"},
	{.name = "burst_warning", .type = PVP_SCHEMA_JSON, .help = "sources that burst"},
	{.name = "interrupted", .type = PVP_SCHEMA_STRING, REC_TEXT(16),
	 .help = "the signal that cut it short"},
	{.name = "error", .type = PVP_SCHEMA_STRING, .max = 4095, .help = "why it stopped"},
	{.name = "partial", .type = PVP_SCHEMA_BOOL, .help = "cut short: not complete"},
	{.name = "preset", .type = PVP_SCHEMA_STRING, REC_TEXT(64), .help = "--preset"},
	{.name = "repeat", .type = PVP_SCHEMA_OBJECT, .members = rec_repeat_members, SR(repeat),
	 SR_HAS(has_repeat), .help = "--repeat: which search of the point"},
	{.name = NULL},
};

json_t *
coord_record_search_ref_json(const struct coord_record_search_ref *ref)
{
	return pvp_schema_encode(rec_search_ref_members, ref);
}

int
coord_trial_record_read(const json_t *rec, struct coord_trial_record *tr, char *err,
			size_t err_len)
{
	return pvp_schema_read(coord_trial_record_members, rec, tr, err, err_len);
}

int
coord_search_record_read(const json_t *rec, struct coord_search_record *sr, char *err,
			 size_t err_len)
{
	return pvp_schema_read(coord_search_record_members, rec, sr, err, err_len);
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
	else
		return 0;
	if (pvp_schema_check(members, rec, "", &open, why, sizeof(why)) == 0)
		return 0;
	pvp_err(err, err_len, "%s record: %s", type, why);
	return -EINVAL;
}
