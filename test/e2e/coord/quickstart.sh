#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's main job, tools/quickstart.sh, run as a user would (with
# PVP_QUICKSTART_SMALL=1: one point, short trials) on the local testbed.
# Its outputs are checked, not its figures (those depend on the CPUs):
# the CSV parses (rows flow counts, columns sizes), the plots exist and
# are not empty pictures, every trial in the JSONL reconciles (hop losses
# + unattributed == tx - rx), the final per-hop table was printed and the
# testbed is down afterwards, and every point found an NDR and a PDR. The
# summary shows the repeats (3 searches per point: median, min, max,
# spread) and the latency figures at 0/10/50/90 % of the PDR (3 rounds).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

coord_need_testbed
need_cmd gnuplot
mkdir -p "$TB_DIR"
# Should the quickstart die before its own trap, take its testbed down.
TB_UP=1
trap coord_tb_down EXIT

out=$PVP_TMP/results
PVP_QUICKSTART_SMALL=1 PVP_TESTBED_RUNDIR=$TB_DIR \
	"$PVP_SOURCE_DIR/tools/quickstart.sh" --no-bootstrap --build-dir "$PVP_BUILD_DIR" \
	--out "$out" >"$PVP_TMP/qs.out" 2>&1 || { cat "$PVP_TMP/qs.out"; fail "quickstart failed"; }
cat "$PVP_TMP/qs.out"
grep -q "^quickstart: per-hop table of the final trial" "$PVP_TMP/qs.out" &&
	grep -q "^Trial on " "$PVP_TMP/qs.out" || fail "no per-hop table printed"
grep -q "^quickstart: testbed down" "$PVP_TMP/qs.out" || fail "testbed not taken down"
# A search may end without a lower bound for a goal (its budget spent on
# a busy host): the spread then needs the three, and the summary must say
# so, with the search that did not finish saying why.
searches=$(grep -c '^== search .*: [0-9]* trials, [0-9.]* trial-seconds' "$PVP_TMP/qs.out")
[ "$searches" = 3 ] || fail "$searches searches, not 3"
if grep -Eq '^   (ndr|pdr)      median [0-9,]+ pps \(min [0-9,]+, max [0-9,]+, spread [0-9.]+ %\) over 3; delivered' \
	"$PVP_TMP/qs.out"; then
	echo "# three searches ended with a lower bound: spread given"
elif grep -Eq '^   (ndr|pdr)      median [0-9,]+ pps \(min [0-9,]+, max [0-9,]+, spread needs 3 searches\) over [12]; delivered' \
	"$PVP_TMP/qs.out" && grep -q '^== search .*, budget exhausted$' "$PVP_TMP/qs.out"; then
	echo "# a search spent its budget on this busy host: the spread says it needs 3"
else
	fail "no repeats line with median, min, max and spread"
fi
grep -q '^quickstart: NDR over the repeats (pps; spread = (max - min) / median)' "$PVP_TMP/qs.out" &&
	grep -Eq '^  64,1,3,[0-9]+,[0-9]+,[0-9]+,[0-9.]*,' "$PVP_TMP/qs.out" ||
	fail "no NDR repeats table in the summary"
grep -q '^quickstart: latency (us; load in % of the PDR' "$PVP_TMP/qs.out" &&
	grep -Eq '^  64,1,50,[0-9]+,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+$' "$PVP_TMP/qs.out" ||
	fail "no latency figures in the summary"
[ "$(grep -c '^-- latency [0-9]* %, round [123]/3 ' "$PVP_TMP/qs.out")" = 12 ] ||
	fail "not 4 loads x 3 rounds of latency trials"
if [ -r "$TB_DIR/ovs-vswitchd.pid" ] && kill -0 "$(cat "$TB_DIR/ovs-vswitchd.pid")" 2>/dev/null; then
	fail "ovs-vswitchd still runs after the quickstart"
fi

"$PVP_PY" - "$out" <<'PY' || fail "quickstart outputs wrong"
import csv, json, os, sys
out = sys.argv[1]
def bad(msg):
    print("FAIL:", msg); sys.exit(1)
summary = json.load(open(os.path.join(out, "summary.json")))
sizes, flows = summary["sizes"], summary["flow_counts"]
for goal in ("ndr", "pdr"):
    rows = list(csv.reader(open(os.path.join(out, goal + ".csv"))))
    # ovs_perf's layout: title, "Packet size", header of sizes, one row per flow count.
    hdr = next(i for i, r in enumerate(rows) if r and r[0] == "Number of flows")
    if [int(s) for s in rows[hdr][1:]] != sizes:
        bad("%s.csv columns %s, not the sizes %s" % (goal, rows[hdr][1:], sizes))
    body = [r for r in rows[hdr + 1:] if r]
    if [int(r[0]) for r in body] != flows:
        bad("%s.csv rows %s, not the flow counts %s" % (goal, [r[0] for r in body], flows))
    for r in body:
        if len(r) != len(sizes) + 1 or any(v and float(v) <= 0 for v in r[1:]):
            bad("%s.csv row %s" % (goal, r))
        # The vswitch's refused packets are its loss, not a generator
        # limit (--tx-full drop): every point must find a rate.
        if any(not v for v in r[1:]):
            bad("%s.csv row %s: no %s found" % (goal, r, goal.upper()))
    print("# %s.csv: %d x %d" % (goal, len(body), len(sizes)))
for name in ("throughput_ndr", "throughput_pdr", "loss_per_hop"):
    for ext in ("png", "svg"):
        p = os.path.join(out, name + "." + ext)
        if not os.path.exists(p) or os.path.getsize(p) < 4096:
            bad("%s missing or too small to be a plot" % p)
page = open(os.path.join(out, "report.html")).read()
if "plot-throughput-ndr" not in page or 'href="results.jsonl"' not in page:
    bad("report.html lacks the NDR plot or the link to results.jsonl")
png = open(os.path.join(out, "loss_per_hop.png"), "rb").read(8)
if png != b"\x89PNG\r\n\x1a\n":
    bad("loss_per_hop.png is not a PNG")
pt = summary["points"][0]
if any(g["repeats"] != 3 for g in pt["goals"].values()):
    bad("goals: %s" % pt["goals"])
lat = pt.get("latency", [])
if [e["load_pct"] for e in lat] != [0, 10, 50, 90] or any(e["trials"] != 3 for e in lat):
    bad("latency entries: %s" % [(e["load_pct"], e["trials"]) for e in lat])
g = pt["goals"]["ndr"]
print("# NDR median %.0f pps, spread %s; p50 at 50 %% %.1f us" % (
    g["pps"], "%.1f %%" % (100 * g["spread"]) if g["spread"] is not None else "-",
    lat[2]["p50_ns"] / 1e3))
for name in ("latency",):
    p = os.path.join(out, name + ".png")
    if not os.path.exists(p) or os.path.getsize(p) < 4096:
        bad("%s missing or too small to be a plot" % p)
recs = [json.loads(l) for l in open(os.path.join(out, "results.jsonl"))]
trials = [r for r in recs if r["type"] == "trial"]
if not trials or not any(r["type"] == "search" for r in recs):
    bad("no trials or no search record in results.jsonl")
for t in trials:
    if sum(t["hop_lost"].values()) + t["unattributed"] != t["tx_packets"] - t["rx_packets"]:
        bad("trial at %s pps does not reconcile" % t["requested_pps"])
    if not t["reconciled"]:
        bad("trial at %s pps says it does not reconcile" % t["requested_pps"])
print("# %d trials reconcile" % len(trials))
PY
echo "PASS"
