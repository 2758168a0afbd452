#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Repeats, latency under load, the tester's floor, soak and compare with
# real hops, short durations:
# 1. The floor: pvpkit-gen looped onto itself (net_ring0, a "wire"), a
#    search with latency trials: real histograms in the results.
# 2. The local OVS-DPDK testbed: run --repeat 2 --latency with that floor;
#    every search kept, latency per load from the histograms in 2 rounds
#    with their noise ranges, the OVS version and PMD settings in the run
#    record.
# 3. A soak of 3 s read every second: intervals and exact totals; then a
#    soak at 50 % of a PDR it searched itself (no --from).
# 4. compare of the run with itself: nothing flagged (throughput and
#    latency), exit 0.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

coord_need_testbed

# 1. The wire: one port whose TX ring is its RX ring.
mkdir -p "$PVP_TMP/wire"
"$PVP_GEN" $(pvp_eal wire) -m 256 -l 0-1 --vdev net_ring0 -- --server \
	--ctl "unix:$PVP_TMP/wire/gen.sock" --idle-sleep 50 >"$PVP_TMP/wire/gen.log" 2>&1 &
pvp_track $!
for _ in $(seq 100); do
	[ -S "$PVP_TMP/wire/gen.sock" ] && break
	sleep 0.1
done
[ -S "$PVP_TMP/wire/gen.sock" ] || { cat "$PVP_TMP/wire/gen.log"; fail "wire generator did not start"; }
cat >"$PVP_TMP/wire/topology.json" <<JSON
{"name": "wire", "hops": [
  {"name": "tester", "driver": "gen", "ctl": "unix:$PVP_TMP/wire/gen.sock", "ports": ["p0"]},
  {"name": "cable", "driver": "wire", "links": [["tester:p0", "tester:p0"]]}],
 "chains": [[{"hop": "tester", "port": "p0", "dir": "tx", "label": "sent by tester"},
             {"hop": "tester", "port": "p0", "dir": "rx", "label": "received by tester"}]]}
JSON
"$PVP_COORD" search --topology "$PVP_TMP/wire/topology.json" --max-rate 20kpps --min-rate 5kpps \
	--goal ndr --goal pdr=0.5% --width 20% --initial-duration 0.5 --final-duration 0.5 \
	--latency-loads 0,50 --latency-duration 1 --no-tables --results "$PVP_TMP/wire.jsonl" \
	>"$PVP_TMP/wire.out" 2>&1 || { cat "$PVP_TMP/wire.out"; fail "wire search failed"; }
grep -E '^(==|-- latency)' "$PVP_TMP/wire.out"

# 2. The testbed.
coord_tb_up
"$PVP_COORD" run --topology "$TB_DIR/topology.json" --sizes 64 --flows 10 --max-rate 60kpps \
	--min-rate 5kpps --goal ndr --goal pdr=0.5% --width 10% --initial-duration 0.5 \
	--final-duration 1 --max-time 15 --repeat 2 --latency-loads 0,50,90 --latency-duration 1 \
	--latency-floor "$PVP_TMP/wire.jsonl" --dut "local testbed, OVS-DPDK" --no-tables \
	--out "$PVP_TMP/out" >"$PVP_TMP/run.out" 2>&1 || { cat "$PVP_TMP/run.out"; fail "run failed"; }
grep -E '^(==|   [a-z]|-- latency|report: .*(csv|png))' "$PVP_TMP/run.out"
"$PVP_PY" - "$PVP_TMP" <<'PY' || fail "records"
import json, sys
d = sys.argv[1]

def low(v):  # lib/lat's bucket boundaries
    if v < 32:
        return v
    w = 1 << (v.bit_length() - 6)
    return v // w * w

wire = [json.loads(l) for l in open(d + "/wire.jsonl")]
wl = [r for r in wire if r["type"] == "trial" and "latency" in r]
assert len(wl) == 2, wire
recs = [json.loads(l) for l in open(d + "/out/results.jsonl")]
run = recs[0]
assert run["type"] == "run" and run["dut"] == "local testbed, OVS-DPDK", run
vs = [h["context"]["vswitch"] for h in run["hops"].values()
      if h.get("context") and "vswitch" in h["context"]]
assert vs and vs[0]["ovs_version"] and "pmd_rxq_show" in vs[0], run["hops"]
searches = [r for r in recs if r["type"] == "search"]
assert len(searches) == 2 and {s["repeat"]["index"] for s in searches} == {1, 2}, searches
lt = [r for r in recs if r["type"] == "trial" and "latency" in r]
assert [(r["latency"]["load_pct"], r["latency"]["round"]) for r in lt] == \
    [(0, 1), (50, 1), (90, 1), (0, 2), (50, 2), (90, 2)], lt
for r in wl + lt:
    s = r["streams"][0]["latency_ns"]
    h = s["histogram"]
    assert s["clock"] == "tsc" and h["count"] == s["count"] > 0, s
    assert all(b[0] == low(b[0]) for b in h["buckets"]), h["buckets"][:5]
    assert sum(b[1] for b in h["buckets"]) == h["count"]
    assert 0 < s["min"] <= s["p50"] <= s["p99"] <= s["p99_9"] <= s["p99_99"] <= s["max"] < 1e9, s
sm = json.load(open(d + "/out/summary.json"))
p = sm["points"][0]
assert p["goals"]["ndr"]["repeats"] == 2 and len(p["goals"]["ndr"]["searches_pps"]) == 2, p
lat = p["latency"]
assert [e["load_pct"] for e in lat] == [0, 50, 90] and all(e["p50_ns"] > 0 for e in lat), lat
for e in lat:
    r = e["range_ns"]
    assert e["trials"] == 2 and r["p50"][0] <= e["p50_ns"] <= r["p50"][1], e
    assert r["p99_99"][0] <= e["p99_99_ns"] <= r["p99_99"][1] and "max" in r, e
assert sm["latency_floor"]["source"] == "wire.jsonl" and sm["latency_floor"]["min_ns"] > 0
assert sm["metadata"]["vswitch"], sm["metadata"]
print("# floor p50 %.1f us; DUT p50 at 0/50/90 %%: %s us" % (
    sm["latency_floor"]["p50_ns"] / 1e3, ", ".join("%.1f" % (e["p50_ns"] / 1e3) for e in lat)))
PY
[ -s "$PVP_TMP/out/latency.csv" ] || fail "no latency.csv"

# 3. Soak.
"$PVP_COORD" soak --topology "$TB_DIR/topology.json" --rate 10kpps --flows 10 --duration 3 \
	--interval 1 --out "$PVP_TMP/soak" >"$PVP_TMP/soak.out" 2>&1 ||
	{ cat "$PVP_TMP/soak.out"; fail "soak failed"; }
cat "$PVP_TMP/soak.out"
"$PVP_PY" - "$PVP_TMP/soak/soak.jsonl" <<'PY' || fail "soak records"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
iv = [r for r in recs if r["type"] == "soak_interval"]
tot = recs[-1]
assert len(iv) == 3 and tot["type"] == "soak" and not tot["interrupted"], recs
assert all(r["tx_packets"] > 0 and sum(r["hop_lost"].values()) + r["unattributed"] == r["lost"]
           for r in iv), iv
# After the stop every packet has arrived or been counted lost somewhere.
assert sum(tot["hop_lost"].values()) + tot["unattributed"] == tot["lost"], tot
assert 29000 <= tot["tx_packets"] <= 30100, tot["tx_packets"]
PY

# A soak at 50 % of the PDR it finds first: a short search through the
# same testbed kept in the soak's results, then 2 s of soak.
"$PVP_COORD" soak --topology "$TB_DIR/topology.json" --pdr-fraction 50% --flows 10 \
	--duration 2 --interval 1 --max-rate 60kpps --min-rate 5kpps --width 10% \
	--initial-duration 0.5 --final-duration 1 --max-time 10 --no-tables \
	--out "$PVP_TMP/soaks" >"$PVP_TMP/soaks.out" 2>&1 ||
	{ cat "$PVP_TMP/soaks.out"; fail "soak with its own search failed"; }
grep -E '^(==|   [a-z0-9]|soak)' "$PVP_TMP/soaks.out"
grep -q '^== soak: searching 64 B, 10 flows first, for the PDR$' "$PVP_TMP/soaks.out" ||
	fail "soak did not search first"
"$PVP_PY" - "$PVP_TMP/soaks/soak.jsonl" <<'PY' || fail "soak-with-search records"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
types = [r["type"] for r in recs]
assert types[0] == "run" and "trial" in types, types
s = [r for r in recs if r["type"] == "search"]
assert len(s) == 1 and s[0]["goals"][0]["name"] == "pdr", s
pdr = s[0]["goals"][0]["lower_pps"]
iv = [r for r in recs if r["type"] == "soak_interval"]
tot = recs[-1]
assert types.index("search") < types.index("soak_interval") and len(iv) == 2, types
assert tot["type"] == "soak" and abs(tot["rate_pps"] - pdr / 2) < 1e-6, (pdr, tot)
assert sum(tot["hop_lost"].values()) + tot["unattributed"] == tot["lost"], tot
print("# PDR %.0f pps, soak at %.0f pps: tx %d, lost %d" % (pdr, tot["rate_pps"],
      tot["tx_packets"], tot["lost"]))
PY

# 4. compare with itself: within noise everywhere, throughput and latency
#    (2 goals, 3 loads x 4 figures).
"$PVP_COORD" compare "$PVP_TMP/out" "$PVP_TMP/out" >"$PVP_TMP/cmp.out" 2>&1 ||
	{ cat "$PVP_TMP/cmp.out"; fail "compare of a run with itself: exit $?"; }
grep -q '^14 compared, 0 regression(s), 0 progression(s)$' "$PVP_TMP/cmp.out" ||
	fail "compare: $(tail -1 "$PVP_TMP/cmp.out")"
grep -Eq '^    64       10   90% p99 .* within-noise$' "$PVP_TMP/cmp.out" ||
	{ cat "$PVP_TMP/cmp.out"; fail "compare: no latency rows"; }
echo "PASS"
