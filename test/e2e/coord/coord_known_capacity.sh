#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# A known capacity anywhere on the path: the guest's pvpkit-fwd caps the
# rate at C = 10 kpps (a token bucket, --impair rate_pps), and NDR
# searches through the testbed must find it, repeatably (5 searches,
# their spread printed; about 90 s). The bucket of B packets lets a trial
# of T s at a rate R over C through while (R - C).T <= B, so the known
# answer is C + B / T at the final trials' T: with B = 500 (50 ms, enough
# for a guest descheduled on a shared CPU) and T = 5 s, 10.1 kpps. Each
# NDR must lie within the search's width of that, and each search must
# reconcile every trial and charge the cap's loss to the guest.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

C=10000
B=500
T=5
WIDTH=2
coord_need_testbed
coord_tb_up --fwd-args "--impair rate_pps=$C,burst=$B"

for i in 1 2 3 4 5; do
	"$PVP_COORD" search --topology "$TB_DIR/topology.json" --size 64 --flows 1 \
		--max-rate 15kpps --min-rate 5kpps --goal ndr --width $WIDTH% \
		--initial-duration 1 --final-duration $T --max-time 40 --no-tables \
		--results "$PVP_TMP/search$i.jsonl" >"$PVP_TMP/search$i.out" 2>&1 ||
		{ cat "$PVP_TMP/search$i.out"; fail "search $i failed"; }
	grep -E '^(==|   )' "$PVP_TMP/search$i.out"
done
"$PVP_PY" - "$PVP_TMP" $C $B $T $WIDTH <<'PY' || fail "the NDR is not the guest's cap"
import json, sys
d, C, B, T, width = sys.argv[1], *map(float, sys.argv[2:])
want = C + B / T
ndrs = []
for i in (1, 2, 3, 4, 5):
    recs = [json.loads(l) for l in open("%s/search%d.jsonl" % (d, i))]
    trials = [r for r in recs if r["type"] == "trial"]
    g = [r for r in recs if r["type"] == "search"][-1]["goals"][0]
    bad = [t for t in trials if sum(t["hop_lost"].values()) + t["unattributed"] != t["tx_packets"] - t["rx_packets"]
           or t["hop_lost"]["guest"] != t["tx_packets"] - t["rx_packets"]]
    assert not bad, ("trials not all the guest's loss", bad[0])
    ndrs.append((g["lower_pps"], g["upper_pps"]))
lows = [lo for lo, up in ndrs]
print("# cap %.0f pps + bucket %.0f / %.0f s = %.0f pps; NDR lower bounds %s, spread %.0f pps (%.2f %%)"
      % (C, B, T, want, lows, max(lows) - min(lows), 100 * (max(lows) - min(lows)) / want))
for lo, up in ndrs:
    assert lo is not None and up is not None, ndrs
    # The answer lies in [lower, upper]; that interval is the width.
    assert lo * (1 - width / 100) <= want <= up * (1 + width / 100), (lo, up, want)
PY
echo PASS
