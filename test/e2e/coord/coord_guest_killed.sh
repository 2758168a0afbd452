#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The guest dies during a trial: pvpkit must say which hop is unreachable,
# exit non-zero, and print no table (a table would be wrong).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

coord_need_testbed
coord_tb_up

coord_trial first --size 64 --flows 1 --rate 5kpps --duration 1 ||
	{ cat "$PVP_TMP/first.err"; fail "first trial failed"; }
coord_trial killed --size 64 --flows 1 --rate 5kpps --duration 4 &
trial_pid=$!
sleep 1.5
guest_pid=$(cat "$TB_DIR/fwd.pid" 2>/dev/null)
[ -n "$guest_pid" ] || fail "no guest pid file"
kill -9 "$guest_pid"
wait "$trial_pid"
rc=$?
cat "$PVP_TMP/killed.err"
[ "$rc" = 1 ] || fail "trial exit status $rc, want 1"
grep -q "hop guest unreachable" "$PVP_TMP/killed.err" || fail "no 'hop guest unreachable' error"
grep -q "Packets" "$PVP_TMP/killed.out" && fail "a table was printed for a failed trial"
[ -e "$PVP_TMP/killed.json" ] && fail "a trial JSON was written for a failed trial"
# The trial measured before is kept.
[ "$(wc -l <"$PVP_TMP/results.jsonl")" = 1 ] || fail "results.jsonl lost the first trial"
echo "PASS"
