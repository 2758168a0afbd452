#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# --tx-full: a net_ring port whose ring nobody drains (--no-rx) takes its
# first ring-full of packets and refuses the rest.
# 1. drop: the run keeps its pace and ends on time (not generator-limited);
#    every packet is offered once, the refused ones are tx_unsent, the
#    port's tx_dropped and, since their sequence numbers are spent, lost.
# 2. retry: the refused packets are tried again, the exact count cannot be
#    sent, and the run says it was generator-limited.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_hugepages 128
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"

# check FILE EXPR MESSAGE: fail with MESSAGE unless EXPR on the report (d,
# t = d['traffic'], s = d['streams'][0], p = d['ports'][0]) is true.
check() {
    "$PVP_PY" - "$1" "$2" <<'PY' || fail "$3: $("$PVP_PY" -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['traffic'], {k: d['streams'][0][k] for k in ('tx_packets','tx_unsent','tx_offered','lost')})" "$1")"
import json, sys
d = json.load(open(sys.argv[1]))
t, s, p = d['traffic'], d['streams'][0], d['ports'][0]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

# 5,000 packets at 5 kpps; a stall of the shared CPU is made up
# (--catchup-us), so only the ring can make the run late.
run() {
    "$PVP_GEN" $(pvp_eal "txfull-$1") -m 256 -l 0-1 --vdev net_ring0 -- \
        --no-rx --rate 5kpps --duration 1 --idle-sleep 50 --catchup-us 1000000 \
        --tx-full "$1" --json "$PVP_TMP/$1.json" >"$PVP_TMP/$1.log" 2>&1 ||
        { cat "$PVP_TMP/$1.log"; fail "--tx-full $1 run failed"; }
    grep -v '^TELEMETRY' "$PVP_TMP/$1.log"
}

info "--tx-full drop into a ring nobody drains"
run drop
f=$PVP_TMP/drop.json
check "$f" "t['tx_full'] == 'drop' and t['tx_asked'] == 5000 and t['tx_packets'] == 5000" \
    "drop: not all 5000 packets offered"
check "$f" "0 < s['tx_packets'] < 5000 and s['tx_offered'] == 5000" \
    "drop: the ring should take some and refuse the rest"
check "$f" "s['tx_unsent'] == s['tx_offered'] - s['tx_packets'] == p['tx_dropped']" \
    "drop: refused packets must be tx_unsent and the port's tx_dropped"
check "$f" "s['tx_packets'] == p['tx_packets'] and s['lost'] == 5000 and s['rx_packets'] == 0" \
    "drop: every offered packet counts as lost (nothing received)"
check "$f" "not t['generator_limited'] and abs(t['achieved_pps'] - 5000) < 5000 * 0.05" \
    "drop: the run must keep its pace"

info "--tx-full retry into a ring nobody drains"
run retry
f=$PVP_TMP/retry.json
check "$f" "t['tx_full'] == 'retry' and t['generator_limited']" \
    "retry: a count the ring cannot take must read as generator-limited"
check "$f" "s['tx_offered'] == s['tx_packets'] == p['tx_packets'] < 5000" \
    "retry: only what the port took counts as sent"
echo "PASS"
