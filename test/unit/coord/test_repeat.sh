#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Repeated searches, the csit preset and the generator-limited re-measure,
# end to end against fake_hops.py (no DPDK): what pvpkit prints, the
# records it keeps, and the summary and CSV the report makes of them.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
need_bin "$PVP_COORD"
need_cmd "$PVP_PY"

HERE=$PVP_SOURCE_DIR/test/unit/coord
nfail=0
bad() { echo "FAIL: $*"; nfail=$((nfail + 1)); }

# Usage errors first.
out=$("$PVP_COORD" search --max-rate 1Mpps --repeat 0 2>&1)
[ $? = 2 ] && [ "$out" = 'pvpkit: --repeat: "0" must be 1..100 (see --help)' ] ||
	bad "--repeat 0: $out"
out=$("$PVP_COORD" search --max-rate 1Mpps --repeat 101 2>&1)
[ $? = 2 ] && [ "$out" = 'pvpkit: --repeat: "101" must be 1..100 (see --help)' ] ||
	bad "--repeat 101: $out"
out=$("$PVP_COORD" search --max-rate 1Mpps --preset fast 2>&1)
[ $? = 2 ] && [ "$out" = 'pvpkit: --preset: "fast" must be csit (see --help)' ] ||
	bad "--preset fast: $out"
out=$("$PVP_COORD" search --max-rate 1Mpps --gen-remeasure 9 2>&1)
[ $? = 2 ] && [ "$out" = 'pvpkit: --gen-remeasure: "9" must be 0..8 (see --help)' ] ||
	bad "--gen-remeasure 9: $out"
out=$("$PVP_COORD" search --max-rate 1Mpps --warmup -1 2>&1)
[ $? = 2 ] && [ "$out" = 'pvpkit: --warmup: must be a number of seconds (0: none) (see --help)' ] ||
	bad "--warmup -1: $out"

# fake_hops DIR CAP [STALL]: a pretend path that forwards at most CAP pps.
start_fake() {
	mkdir -p "$1"
	"$PVP_PY" "$HERE/fake_hops.py" "$@" &
	pvp_track $!
	for _ in $(seq 50); do
		[ -r "$1/topology.json" ] && return 0
		sleep 0.1
	done
	fail "fake_hops.py did not start"
}

# --repeat 3 over two points: three searches each, every one kept, the
# median line, and the summary and repeats CSV from the records alone.
start_fake "$PVP_TMP/a" 50000
"$PVP_COORD" run --topology "$PVP_TMP/a/topology.json" --max-rate 100kpps --sizes 64 \
	--flows 1,10 --initial-duration 0.05 --final-duration 0.1 --repeat 3 --no-tables \
	--goal ndr --goal pdr=1% --out "$PVP_TMP/rep" >"$PVP_TMP/rep.out" 2>&1 || bad "run --repeat: exit $?"
[ "$(grep -c '^== repeats .*: 3 searches$' "$PVP_TMP/rep.out")" = 2 ] ||
	bad "no repeats lines: $(tail -5 "$PVP_TMP/rep.out")"
grep -q '^   ndr      median 50,000 pps (min 50,000, max 50,000, spread 0.0 %) over 3; delivered 50,000 pps$' \
	"$PVP_TMP/rep.out" || bad "repeats line: $(grep -A2 '^== repeats' "$PVP_TMP/rep.out" | head -3)"
grep -q "^report: $PVP_TMP/rep/ndr_repeats.csv$" "$PVP_TMP/rep.out" || bad "no ndr_repeats.csv"
"$PVP_PY" - "$PVP_TMP/rep" <<'PY' || bad "repeat records"
import json, sys
d = sys.argv[1]
recs = [json.loads(l) for l in open(d + "/results.jsonl")]
searches = [r for r in recs if r["type"] == "search"]
assert len(searches) == 6, len(searches)
for pt in (1, 10):
    s = [r for r in searches if r["flows"] == pt]
    groups = {r["repeat"]["group"] for r in s}
    assert len(groups) == 1, groups
    assert sorted(r["repeat"]["index"] for r in s) == [1, 2, 3], s
    assert all(r["repeat"]["of"] == 3 for r in s)
    assert len({r["id"] for r in s}) == 3, "ids not distinct"
    trial_ids = {r["search"]["id"] for r in recs if r["type"] == "trial" and r["flows"] == pt}
    assert trial_ids == {r["id"] for r in s}, (trial_ids, [r["id"] for r in s])
sm = json.load(open(d + "/summary.json"))
for p in sm["points"]:
    g = p["goals"]["ndr"]
    assert g["repeats"] == 3 and g["pps"] == 50000 and g["min_pps"] == 50000, g
    assert g["max_pps"] == 50000 and g["spread"] == 0 and g["searches_pps"] == [50000] * 3, g
    assert g["conditional_pps"] == 50000, g
    # PDR 1 %: offered above the capacity, delivered the capacity.
    q = p["goals"]["pdr"]
    assert q["pps"] > 50000 and abs(q["conditional_pps"] - 50000) <= 1, q
csv = open(d + "/ndr_repeats.csv").read().splitlines()
assert csv[0] == "size,flows,repeats,median_pps,min_pps,max_pps,spread_pct,conditional_pps,searches_pps", csv
assert csv[1] == "64,1,3,50000,50000,50000,0.00,50000,50000 50000 50000", csv
assert open(d + "/ndr.csv").read().splitlines()[3] == "1,50000", "ndr.csv"
PY

# One stall of the generator (the 3rd trial sends 85 %): measured again,
# sent cleanly, the ceiling stays and the search finds the capacity.
start_fake "$PVP_TMP/b" 50000 3
"$PVP_COORD" search --topology "$PVP_TMP/b/topology.json" --max-rate 100kpps \
	--initial-duration 0.05 --final-duration 0.1 --no-tables \
	--results "$PVP_TMP/stall.jsonl" >"$PVP_TMP/stall.out" 2>&1 || bad "search stall: exit $?"
grep -q "^-- trial 3 .*\[generator-limited\]$" "$PVP_TMP/stall.out" || bad "no limited trial 3"
grep -q "^   ndr      ok: lower 50,000 pps" "$PVP_TMP/stall.out" ||
	bad "stall capped the search: $(tail -4 "$PVP_TMP/stall.out")"
grep -q "^   1 generator-limited trial(s), not counted as DUT results; measured again 1, sent cleanly 1;" \
	"$PVP_TMP/stall.out" || bad "no re-measure line: $(tail -2 "$PVP_TMP/stall.out")"
"$PVP_PY" - "$PVP_TMP/stall.jsonl" <<'PY' || bad "stall records"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
t = [r for r in recs if r["type"] == "trial"]
s = [r for r in recs if r["type"] == "search"][0]
assert t[2]["generator_limited"] and t[3]["search"].get("gen_remeasure") is True, t[3]["search"]
assert t[3]["requested_pps"] == t[2]["requested_pps"] and not t[3]["generator_limited"]
assert s["generator_remeasured"] == 1 and s["generator_recovered"] == 1, s
assert s["generator_ceiling_pps"] == 100000, s["generator_ceiling_pps"]
PY
# The same stall with --gen-remeasure 0 caps the search, as it used to.
start_fake "$PVP_TMP/c" 50000 1
"$PVP_COORD" search --topology "$PVP_TMP/c/topology.json" --max-rate 100kpps \
	--initial-duration 0.05 --final-duration 0.1 --no-tables --gen-remeasure 0 \
	--results "$PVP_TMP/stall0.jsonl" >"$PVP_TMP/stall0.out" 2>&1 || bad "search stall0: exit $?"
grep -q "generator ceiling 84,575 pps$" "$PVP_TMP/stall0.out" ||
	bad "--gen-remeasure 0: $(tail -2 "$PVP_TMP/stall0.out")"

# --preset csit (durations shortened for the test): its goals, decision
# rule and warm-up trial, recorded; the warm-up is ignored.
start_fake "$PVP_TMP/d" 50000
"$PVP_COORD" search --topology "$PVP_TMP/d/topology.json" --max-rate 100kpps --preset csit \
	--initial-duration 0.05 --final-duration 0.05 --duration-sum 0.15 --warmup 0.05 \
	--width 2% --no-tables --results "$PVP_TMP/csit.jsonl" >"$PVP_TMP/csit.out" 2>&1 ||
	bad "search --preset csit: exit $?"
grep -q "^   pdr      ok: lower" "$PVP_TMP/csit.out" || bad "csit: $(tail -4 "$PVP_TMP/csit.out")"
"$PVP_PY" - "$PVP_TMP/csit.jsonl" <<'PY' || bad "csit records"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
t = [r for r in recs if r["type"] == "trial"]
s = [r for r in recs if r["type"] == "search"][0]
assert s["preset"] == "csit", s.get("preset")
assert [g["name"] for g in s["goals"]] == ["ndr", "pdr"] and s["goals"][1]["loss_ratio"] == 0.005
p = s["params"]
assert p["exceed_ratio"] == 0.5 and p["duration_sum_s"] == 0.15 and p["warmup_s"] == 0.05, p
assert t[0]["search"].get("warmup") is True and t[0]["requested_pps"] == 100000, t[0]["search"]
assert not any(x["search"].get("warmup") for x in t[1:])
ndr = s["goals"][0]
assert 49000 <= ndr["lower_pps"] <= 50000, ndr
PY

[ "$nfail" = 0 ] || fail "$nfail check(s) failed"
echo "ok"
