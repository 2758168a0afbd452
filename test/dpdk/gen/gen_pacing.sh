#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Pacing quality, measured: pvpkit-gen --server on a net_ring loopback,
# driven by `pvpkit trial` (a one-hop topology: the tester's TX comes
# back to its RX). A trial left alone sends no big burst; a trial whose
# tester is stalled (SIGSTOP for 200 ms, then SIGCONT, as a shared CPU
# would) makes the pacer send the backlog back to back: the generator
# reports that burst (max_burst), the trial records it, and --max-burst
# flags it. Both trials' signature check passes (every frame accounted).
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_bin "$PVP_COORD"
need_hugepages 128
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"

sock="$PVP_TMP/gen.sock"
# A catch-up bound of 400 ms: the whole 200 ms backlog is sent, not given up.
"$PVP_GEN" $(pvp_eal pacing) -m 256 -l 0-1 --vdev net_ring0 -- \
    --server --ctl "unix:$sock" --idle-sleep 50 --catchup-us 400000 \
    >"$PVP_TMP/gen.log" 2>&1 &
gen=$!
pvp_track $gen
for _ in $(seq 100); do
    [ -S "$sock" ] && break
    sleep 0.1
done
[ -S "$sock" ] || { cat "$PVP_TMP/gen.log"; fail "pvpkit-gen did not listen"; }
cat >"$PVP_TMP/topo.json" <<TOPO
{"name": "loop",
 "hops": [{"name": "tester", "driver": "gen", "ctl": "unix:$sock", "ports": ["p0"]}],
 "chains": [[
  {"hop": "tester", "port": "p0", "dir": "tx", "label": "sent by tester"},
  {"hop": "tester", "port": "p0", "dir": "rx", "label": "received by tester"}]]}
TOPO

info "undisturbed: 20 kpps for 2 s"
"$PVP_COORD" trial --topology "$PVP_TMP/topo.json" --rate 20kpps --duration 2 \
    --json "$PVP_TMP/calm.json" >"$PVP_TMP/calm.out" 2>&1 ||
    { cat "$PVP_TMP/calm.out"; fail "undisturbed trial: exit $?"; }
grep -v '^  Packets' "$PVP_TMP/calm.out"
calm=$(json_get "$PVP_TMP/calm.json" "d['max_burst']")
json_get "$PVP_TMP/calm.json" "(d['checks']['signature'], d['checks']['burst'], d['reconciled'])" |
    grep -qx "('ok', 'recorded', True)" || fail "undisturbed checks: $(json_get "$PVP_TMP/calm.json" "d['checks']")"

info "stalled: the same, SIGSTOP for 200 ms after 0.8 s, --max-burst 1000"
"$PVP_COORD" trial --topology "$PVP_TMP/topo.json" --rate 20kpps --duration 2 --max-burst 1000 \
    --json "$PVP_TMP/stall.json" >"$PVP_TMP/stall.out" 2>&1 &
coord=$!
sleep 0.8
kill -STOP $gen
sleep 0.2
kill -CONT $gen
wait $coord
rc=$?
# Measured, but the burst check failed: pvpkit's exit status 4.
[ $rc = 4 ] || { cat "$PVP_TMP/stall.out"; fail "stalled trial: exit $rc, want 4"; }
grep -v '^  Packets' "$PVP_TMP/stall.out"
stall=$(json_get "$PVP_TMP/stall.json" "d['max_burst']")
info "largest burst: undisturbed $calm, stalled $stall packets"
# 200 ms at 20 kpps is 4,000 packets due at once (less what the process
# needed to stop and resume); undisturbed, a scheduler slice is some tens.
[ "$stall" -ge 2000 ] || fail "stalled burst $stall, expected >= 2000"
[ "$calm" -lt 1000 ] || fail "undisturbed burst $calm, expected < 1000"
[ "$(json_get "$PVP_TMP/stall.json" "max(s['max_burst'] for s in d['streams'])")" = "$stall" ] ||
    fail "trial max_burst is not the streams' largest"
grep -q "^CHECK FAILED: burst: the generator sent [0-9,]* packets back to back ahead of its schedule (catch-up after a stall), over --max-burst 1,000$" \
    "$PVP_TMP/stall.out" || fail "no burst flag in the table"
json_get "$PVP_TMP/stall.json" \
    "(d['checks']['burst'], d['checks']['signature'], d['max_burst_limit'], d['invalid'])" |
    grep -qx "('failed', 'ok', 1000, False)" || fail "stalled checks: $(json_get "$PVP_TMP/stall.json" "d['checks']")"

kill -TERM $gen
wait $gen
echo "PASS"
