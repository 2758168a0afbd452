#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Latency-bounded goals through the local testbed, with a known answer:
# the guest's impairment stage delays every packet by 2 ms (pvpkit-fwd
# --impair delay_us=2000), so no trial's median is under 1 ms and every
# trial's is under 50 ms, whatever the rate and however busy the host.
# One search, three goals that share its trials: PDR 5 %; the same with
# p50 <= 1 ms, which no rate meets (below-min, each trial saying why);
# and with p50 <= 50 ms, which ends where the loss goal alone does. The
# rates stay far below what the path forwards. About 10 s here.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

coord_need_testbed
coord_tb_up --fwd-args "--impair delay_us=2000"

"$PVP_COORD" search --topology "$TB_DIR/topology.json" --size 64 --flows 1 \
	--max-rate 10kpps --min-rate 2kpps --goal pdr=5% --goal pdr=5%,p50=1ms \
	--goal pdr=5%,p50=50ms --width 5% --initial-duration 0.5 --final-duration 1 \
	--max-time 30 --no-tables --results "$PVP_TMP/search.jsonl" \
	>"$PVP_TMP/search.out" 2>&1 || { cat "$PVP_TMP/search.out"; fail "search failed"; }
cat "$PVP_TMP/search.out"
grep -Eq '\[pdr5%\+p50-1000us: p50 [0-9.]+ us > 1000 us\]$' "$PVP_TMP/search.out" ||
	fail "no trial says why it missed p50 <= 1 ms"
"$PVP_PY" - "$PVP_TMP/search.jsonl" <<'PY' || fail "latency goals wrong"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
g = [r for r in recs if r["type"] == "search"][-1]["goals"]
print("# " + ", ".join("%s %s [%s, %s]" % (x["name"], x["status"], x["lower_pps"],
                                           x["upper_pps"]) for x in g))
loss, tight, loose = g
if loss["status"] == "below-min":
    print("SKIP: the path lost over 5 % even at the minimum rate"); sys.exit(77)
if tight["status"] != "below-min" or tight["lower_pps"] is not None:
    print("FAIL: p50 <= 1 ms met through a 2 ms delay"); sys.exit(1)
if (loose["lower_pps"], loose["upper_pps"]) != (loss["lower_pps"], loss["upper_pps"]):
    print("FAIL: p50 <= 50 ms moved the goal"); sys.exit(1)
PY
rc=$?
[ "$rc" = 77 ] && exit 77
[ "$rc" = 0 ] || fail "latency goals wrong"
echo "PASS"
