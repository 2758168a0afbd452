#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# A fault at a known second of a soak (about 15 s): pvpkit soak --inject
# has the guest's pvpkit-fwd drop every packet (impair.set loss 1) from
# 5.2 s to 5.8 s after the traffic started, read every second. The loss
# shows in the interval from 5 s to 6 s (the 6th), all of it the guest's,
# about 0.6 s of packets, and nowhere else: every other interval's guest
# loss is at most the packets in flight when the hops were read. The hops
# are read together but not at one instant (a snapshot of all hops took
# 2.7 ms in a trial of a CI run: 13 packets at this rate), and a burst can
# sit between the guest's receive and its send; in one CI run the
# intervals' guest loss summed to 13 over the exact total. 10 ms of
# packets are allowed. The totals, read after the stop, are exact
# (3,000 of 45,000 in a run here). Bad --inject values are
# coord_soak_inject_fake's (suite unit).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

coord_need_testbed
coord_tb_up --fwd-args "--impair seed=3"

RATE=5000
"$PVP_COORD" soak --topology "$TB_DIR/topology.json" --rate $RATE --duration 9 --interval 1 \
	--inject '5.2s:guest:impair.set:{"loss": 1}' --inject '5.8s:guest:impair.set:{}' \
	--out "$PVP_TMP/soak" >"$PVP_TMP/soak.out" 2>&1 || { cat "$PVP_TMP/soak.out"; fail "soak failed"; }
cat "$PVP_TMP/soak.out"
[ "$(grep -c '^soak inject .* guest impair.set' "$PVP_TMP/soak.out")" = 2 ] ||
	fail "the soak did not say both injections"
"$PVP_PY" - "$PVP_TMP/soak/soak.jsonl" $RATE <<'PY' || fail "the fault is not in second 5 alone"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
rate = float(sys.argv[2])
inflight = 0.01 * rate
ivs = [r for r in recs if r["type"] == "soak_interval"]
tot = [r for r in recs if r["type"] == "soak"][-1]
assert len(ivs) == 9, [r["n"] for r in ivs]
for r in ivs:
    g = r["hop_lost"]["guest"]
    print("# interval %d (%.1f s): tx %d lost %d, guest %d" % (r["n"], r["t_s"], r["tx_packets"], r["lost"], g))
    if r["n"] == 6:
        # 0.6 s of packets, give or take a reading's and a call's time.
        assert 0.4 * rate <= g <= 0.8 * rate, r
    else:
        # Read while traffic runs: a burst in flight, never a fault.
        assert abs(g) <= inflight, r
# The totals are exact, read after the stop; the intervals, read while
# traffic runs, add up to them within a few packets in flight.
assert tot["hop_lost"]["guest"] == tot["lost"], tot
assert abs(sum(r["hop_lost"]["guest"] for r in ivs) - tot["lost"]) <= inflight, tot
assert tot["unattributed"] == 0 and tot["reconciled"], tot
PY
echo PASS
