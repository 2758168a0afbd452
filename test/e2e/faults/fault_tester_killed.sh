#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The tester (pvpkit-gen) is killed in the middle of a search:
# one line names the hop, the trial is not measured (never a DUT loss),
# the trials before it stay whole in the results file, the search record
# says it failed and why, and the testbed comes back with down/up.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"
. "$PVP_SOURCE_DIR/test/e2e/faults/faults_lib.sh"

coord_need_testbed
coord_tb_up

fault_search_start
fault_wait_trials 2
kill -9 "$(cat "$TB_DIR/gen.pid")" || fail "cannot kill the tester"
fault_wait_search
[ "$SEARCH_RC" = 1 ] || fail "search exit status $SEARCH_RC, want 1"
fault_one_line '^pvpkit: trial [0-9]+ not measured: hop tester unreachable'
fault_check_results 2 '"hop tester unreachable" in s["error"]'
fault_recover
echo "PASS"
