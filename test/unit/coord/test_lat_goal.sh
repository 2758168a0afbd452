#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Latency-bounded goals (--goal pdr=0.5%,p99=13us) end to end against
# fake_hops.py, whose latency rises with the load: 99 % of the packets at
# 10 us + rate / 10 ns, in lib/lat's buckets of 256 ns there, so p99 is
# within 13 us below 30,560 pps and over it from there on. The search
# finds that rate beside the NDR (50 kpps), every trial that misses the
# bound says why, the records, summary and compare carry the goal, a
# summary from the trials alone agrees, and a source without latency
# stops the search with one line. About 10 s.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
need_bin "$PVP_COORD"
need_cmd "$PVP_PY"
. "$PVP_SOURCE_DIR/test/unit/coord/fake_lib.sh"

nfail=0
bad() { echo "FAIL: $*"; nfail=$((nfail + 1)); }

fake_start "$PVP_TMP/a" 50000
T=$PVP_TMP/a/topology.json
SHORT=(--max-rate 100kpps --initial-duration 0.05 --final-duration 0.1 --no-tables)

"$PVP_COORD" search --topology "$T" "${SHORT[@]}" --goal ndr --goal pdr=0.5%,p99=13us \
	--results "$PVP_TMP/s.jsonl" >"$PVP_TMP/s.out" 2>&1 || bad "search: exit $?"
cat "$PVP_TMP/s.out"
# The goals' names in one column, as long as the longest (pdr+p99-13us).
grep -q '^   ndr          ok: lower 50,000 pps, upper 50,251 pps, width 0.50 %$' "$PVP_TMP/s.out" ||
	bad "the NDR moved, or its name is not in the column of the latency goal's"
grep -Eq '^   pdr\+p99-13us ok: lower 30,[0-9]{3} pps, upper 30,[0-9]{3} pps' "$PVP_TMP/s.out" ||
	bad "no latency goal line"
# A trial at the capacity meets the loss goal and misses the bound.
grep -q '^-- trial 2 (phase 0/2): 50,000 pps for 0.1 s: lost 0 of 2,500 (0.0000 %) \[pdr+p99-13us: p99 14.975 us > 13 us\]$' \
	"$PVP_TMP/s.out" || bad "trial 2 does not say why it missed the goal"
grep -q '\[pdr+p99-13us: loss 50 % > 0.5 %\]$' "$PVP_TMP/s.out" || bad "no loss reason"
"$PVP_PY" - "$PVP_TMP/s.jsonl" <<'PY' || bad "records"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
run = [r for r in recs if r["type"] == "run"][0]
assert run["goals"][1] == {"name": "pdr+p99-13us", "loss_ratio": 0.005,
                           "latency": {"stat": "p99", "bound_us": 13.0}}, run["goals"]
g = [r for r in recs if r["type"] == "search"][0]["goals"][1]
assert g["name"] == "pdr+p99-13us" and g["latency"] == {"stat": "p99", "bound_us": 13.0}, g
# p99 <= 13 us below 30,560 pps (bucket 12,800..13,055 ns), over from there.
assert g["status"] == "ok" and g["lower_pps"] < 30560 <= g["upper_pps"], g
assert g["rel_width"] <= 0.005 + 1e-9, g
PY

# The summary from the trials alone (no search record: a run cut short)
# applies the bound too.
mkdir -p "$PVP_TMP/t"
grep -v '"type":"search"' "$PVP_TMP/s.jsonl" >"$PVP_TMP/t/trials.jsonl"
"$PVP_COORD" report "$PVP_TMP/t/trials.jsonl" >"$PVP_TMP/t.out" 2>&1 || bad "report: exit $?"
"$PVP_PY" - "$PVP_TMP/s.jsonl" "$PVP_TMP/t/summary.json" <<'PY' || bad "summary from trials"
import json, sys
g = [json.loads(l) for l in open(sys.argv[1]) if '"type":"search"' in l][0]["goals"][1]
s = json.load(open(sys.argv[2]))["points"][0]["goals"]["pdr+p99-13us"]
assert s["source"] == "trials", s
assert abs(s["lower_pps"] - g["lower_pps"]) < 0.01, (s, g)
assert abs(s["upper_pps"] - g["upper_pps"]) < 0.01, (s, g)
assert s["latency"] == {"stat": "p99", "bound_us": 13.0}, s
PY

# run: the goal's CSV and plot, and compare puts two runs' goal side by side.
for r in r1 r2; do
	"$PVP_COORD" run --topology "$T" "${SHORT[@]}" --sizes 64 --flows 1 \
		--goal pdr=0.5%,p99=13us --out "$PVP_TMP/$r" >"$PVP_TMP/$r.out" 2>&1 ||
		bad "run $r: exit $?"
done
grep -q "^report: $PVP_TMP/r1/pdr+p99-13us.csv$" "$PVP_TMP/r1.out" || bad "no goal CSV"
"$PVP_COORD" compare "$PVP_TMP/r1" "$PVP_TMP/r2" >"$PVP_TMP/cmp.out" 2>&1 || bad "compare: exit $?"
grep -Eq '^ +64 +1 pdr\+p99-13us +30,[0-9]{3} .* within-noise$' "$PVP_TMP/cmp.out" ||
	bad "compare: $(cat "$PVP_TMP/cmp.out")"
# The goal column is as wide as the goal's name: the columns line up.
"$PVP_PY" - "$PVP_TMP/cmp.out" <<'PY' || bad "compare columns: $(cat "$PVP_TMP/cmp.out")"
import sys
lines = open(sys.argv[1]).read().splitlines()
i = next(i for i, l in enumerate(lines) if "old pps [lo..hi]" in l)
head, row = lines[i], lines[i + 1]
assert head.index("old pps [lo..hi]") + 16 == row.index("]") + 1, (head, row)
PY

# A source that measures no latency cannot decide the goal: one line, exit 1,
# the trial kept and the search record marked partial.
fake_call "$PVP_TMP/a/gen.sock" fake.no_latency '{}'
out=$("$PVP_COORD" search --topology "$T" "${SHORT[@]}" --goal pdr=0.5%,p99=13us \
	--results "$PVP_TMP/n.jsonl" 2>&1 >/dev/null)
rc=$?
[ "$rc" = 1 ] || bad "no latency: exit $rc"
[ "$out" = 'pvpkit: trial 1 measured no latency, which a latency-bounded goal needs (a source that stamps its packets: pvpkit-gen, or trex with flow stats "latency")' ] ||
	bad "no latency: $out"
"$PVP_PY" - "$PVP_TMP/n.jsonl" <<'PY' || bad "no latency records"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert len([r for r in recs if r["type"] == "trial"]) == 1, recs
s = [r for r in recs if r["type"] == "search"][0]
assert s["partial"] and "measured no latency" in s["error"], s
PY
# Without a latency bound the same source searches as before.
"$PVP_COORD" search --topology "$T" "${SHORT[@]}" --goal ndr --results "$PVP_TMP/n2.jsonl" \
	>/dev/null 2>&1 || bad "no latency, loss goal only: exit $?"

[ "$nfail" = 0 ] || fail "$nfail check(s) failed"
echo "PASS"
