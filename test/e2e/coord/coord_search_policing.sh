#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# An NDR search through the local testbed against a known cap: OVS
# ingress policing on vhost0 at 1104 kbit/s passes
# 1104000 / ((64 - 4 - 14) * 8) = 3000 pps of 64 B frames (OVS counts a
# frame as its length without FCS and without the 14 B Ethernet header).
# The NDR found must lie within the width goal (plus the policer's own
# granularity) of that cap. Skipped when the generator cannot offer more
# than the cap on this machine (the search then says so itself).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

coord_need_testbed
coord_tb_up

rate_kbps=1104
cap=$("$PVP_PY" -c "print($rate_kbps * 1000 / ((64 - 4 - 14) * 8))")
coord_vsctl set Interface vhost0 ingress_policing_rate=$rate_kbps ingress_policing_burst=20 ||
	fail "cannot set ingress policing"
"$PVP_COORD" search --topology "$TB_DIR/topology.json" --size 64 --flows 1 \
	--max-rate 4500 --min-rate 1000 --goal ndr --width 5% --initial-duration 0.5 \
	--final-duration 2 --max-time 40 --no-tables --results "$PVP_TMP/search.jsonl" \
	>"$PVP_TMP/search.out" 2>&1 || { cat "$PVP_TMP/search.out"; fail "search failed"; }
cat "$PVP_TMP/search.out"
"$PVP_PY" - "$PVP_TMP/search.jsonl" "$cap" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
cap = float(sys.argv[2])
trials = [r for r in recs if r["type"] == "trial"]
search = [r for r in recs if r["type"] == "search"][-1]
bad = [t for t in trials if sum(t["hop_lost"].values()) + t["unattributed"] != t["tx_packets"] - t["rx_packets"]]
if bad:
    print("FAIL: a trial does not reconcile"); sys.exit(1)
if search["generator_ceiling_pps"] < cap * 1.05:
    print("SKIP: the generator reaches only %.0f pps here, not above the %.0f pps cap"
          % (search["generator_ceiling_pps"], cap)); sys.exit(77)
ndr = search["goals"][0]
lo = ndr["lower_pps"]
print("# cap %.0f pps, NDR lower %s upper %s" % (cap, lo, ndr["upper_pps"]))
if lo is None or not (0.90 * cap <= lo <= 1.02 * cap):
    print("FAIL: NDR %s not within the width goal of the %.0f pps cap" % (lo, cap)); sys.exit(1)
# Policing loss is the vswitch's, not unattributed.
lossy = [t for t in trials if t["tx_packets"] > t["rx_packets"]]
if any(t["unattributed"] > 0.01 * t["tx_packets"] for t in lossy):
    print("FAIL: policing loss left unattributed"); sys.exit(1)
PY
rc=$?
[ "$rc" = 77 ] && exit 77
[ "$rc" = 0 ] || fail "search result wrong"
echo "PASS"
