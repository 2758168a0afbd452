/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * A small synthetic results file shared by the report tests: a run
 * record, searches at (64 B, 10 flows), (1518 B, 10 flows), (64 B, 1000
 * flows), and trials only (no search record) at (1518 B, 1000 flows), as
 * a run cut short would leave them. Trial records have the shape
 * coord_trial_to_json() writes.
 */

#ifndef REPORT_FIXTURE_H
#define REPORT_FIXTURE_H

static const char *const fixture_lines[] = {
	"{\"type\":\"run\",\"title\":\"PVP test\",\"flow_type\":\"L3\","
	"\"line_rate_bps\":10000000000,"
	"\"goals\":[{\"name\":\"ndr\",\"loss_ratio\":0},{\"name\":\"pdr\",\"loss_ratio\":0.001}]}",

	/* 64 B, 10 flows: a trial with loss at two hops, then a clean one. */
	"{\"type\":\"trial\",\"size\":64,\"flows\":10,\"requested_pps\":2000000,"
	"\"achieved_pps\":2000000,\"duration_s\":1,\"generator_limited\":false,"
	"\"dut_result\":true,\"tx_packets\":2000000,\"rx_packets\":1500000,"
	"\"hop_lost\":{\"gen\":0,\"ovs\":400000,\"fwd\":99000},\"unattributed\":1000}",
	"{\"type\":\"trial\",\"size\":64,\"flows\":10,\"requested_pps\":1500000,"
	"\"achieved_pps\":1500000,\"duration_s\":10,\"generator_limited\":false,"
	"\"dut_result\":true,\"tx_packets\":15000000,\"rx_packets\":15000000,"
	"\"hop_lost\":{\"gen\":0,\"ovs\":0,\"fwd\":0},\"unattributed\":0}",
	"{\"type\":\"search\",\"size\":64,\"flows\":10,\"algo\":\"mlr\",\"trials\":2,"
	"\"trial_seconds\":11,\"generator_limited_trials\":0,"
	"\"goals\":[{\"name\":\"ndr\",\"loss_ratio\":0,\"status\":\"ok\",\"lower_pps\":1500000,"
	"\"upper_pps\":1507000,\"reached_max_rate\":false,\"generator_limited\":false},"
	"{\"name\":\"pdr\",\"loss_ratio\":0.001,\"status\":\"ok\",\"lower_pps\":1501000,"
	"\"upper_pps\":1508000,\"reached_max_rate\":false,\"generator_limited\":false}]}",

	/* 1518 B, 10 flows: line rate reached. */
	"{\"type\":\"trial\",\"size\":1518,\"flows\":10,\"requested_pps\":812743.8,"
	"\"achieved_pps\":812743.8,\"duration_s\":10,\"generator_limited\":false,"
	"\"dut_result\":true,\"tx_packets\":8127438,\"rx_packets\":8127438,"
	"\"hop_lost\":{\"gen\":0,\"ovs\":0,\"fwd\":0},\"unattributed\":0}",
	"{\"type\":\"search\",\"size\":1518,\"flows\":10,\"algo\":\"mlr\",\"trials\":1,"
	"\"trial_seconds\":10,\"generator_limited_trials\":0,"
	"\"goals\":[{\"name\":\"ndr\",\"loss_ratio\":0,\"status\":\"at-max\",\"lower_pps\":812743."
	"8,"
	"\"upper_pps\":null,\"reached_max_rate\":true,\"generator_limited\":false},"
	"{\"name\":\"pdr\",\"loss_ratio\":0.001,\"status\":\"at-max\",\"lower_pps\":812743.8,"
	"\"upper_pps\":null,\"reached_max_rate\":true,\"generator_limited\":false}]}",

	/* 64 B, 1000 flows: a generator-limited trial, then the search. */
	"{\"type\":\"trial\",\"size\":64,\"flows\":1000,\"requested_pps\":14880952,"
	"\"achieved_pps\":9000000,\"duration_s\":1,\"generator_limited\":true,"
	"\"dut_result\":false,\"tx_packets\":9000000,\"rx_packets\":1000000,"
	"\"hop_lost\":{\"gen\":0,\"ovs\":7000000,\"fwd\":1000000},\"unattributed\":0}",
	"{\"type\":\"search\",\"size\":64,\"flows\":1000,\"algo\":\"mlr\",\"trials\":7,"
	"\"trial_seconds\":30,\"generator_limited_trials\":1,"
	"\"goals\":[{\"name\":\"ndr\",\"loss_ratio\":0,\"status\":\"ok\",\"lower_pps\":1000000,"
	"\"upper_pps\":1004000,\"reached_max_rate\":false,\"generator_limited\":false},"
	"{\"name\":\"pdr\",\"loss_ratio\":0.001,\"status\":\"ok\",\"lower_pps\":1002000,"
	"\"upper_pps\":1006000,\"reached_max_rate\":false,\"generator_limited\":false}]}",

	/*
	 * 1518 B, 1000 flows, no search record: 700000 fails NDR (1 lost)
	 * but meets PDR; 600000 passes at 10 s; 650000 passes only at 1 s.
	 */
	"{\"type\":\"trial\",\"size\":1518,\"flows\":1000,\"requested_pps\":700000,"
	"\"achieved_pps\":700000,\"duration_s\":1,\"generator_limited\":false,"
	"\"dut_result\":true,\"tx_packets\":700000,\"rx_packets\":699999,"
	"\"hop_lost\":{\"gen\":0,\"ovs\":1,\"fwd\":0},\"unattributed\":0}",
	"{\"type\":\"trial\",\"size\":1518,\"flows\":1000,\"requested_pps\":650000,"
	"\"achieved_pps\":650000,\"duration_s\":1,\"generator_limited\":false,"
	"\"dut_result\":true,\"tx_packets\":650000,\"rx_packets\":650000,"
	"\"hop_lost\":{\"gen\":0,\"ovs\":0,\"fwd\":0},\"unattributed\":0}",
	"{\"type\":\"trial\",\"size\":1518,\"flows\":1000,\"requested_pps\":600000,"
	"\"achieved_pps\":600000,\"duration_s\":10,\"generator_limited\":false,"
	"\"dut_result\":true,\"tx_packets\":6000000,\"rx_packets\":6000000,"
	"\"hop_lost\":{\"gen\":0,\"ovs\":0,\"fwd\":0},\"unattributed\":0}",
};

#define FIXTURE_NB_LINES (sizeof(fixture_lines) / sizeof(fixture_lines[0]))
/* Trial records in the fixture. */
#define FIXTURE_NB_TRIALS 7

#endif /* REPORT_FIXTURE_H */
