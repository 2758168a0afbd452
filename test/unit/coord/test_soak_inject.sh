#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit soak --inject against fake_hops.py, no DPDK (about 5 s): the
# guest blacks out (fake.blackout) from 1.2 s to 1.6 s of a 3 s soak read
# every 0.5 s: the loss is in the interval from 1 s to 1.5 s and the one
# from 1.5 s to 2 s, all the guest's, about 0.4 s of packets, and in no
# other; each call is said with its second and kept in the records (the
# interval it was made in and the totals), a refused one with its error.
# Bad --inject values, a hop not in the topology and a hop that takes no
# calls are refused before any traffic, in one line, exit 2.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
need_bin "$PVP_COORD"
need_cmd "$PVP_PY"
. "$PVP_SOURCE_DIR/test/unit/coord/fake_lib.sh"

fake_start "$PVP_TMP/hops" 50000
T=$PVP_TMP/hops/topology.json

for bad in '5s:guest' '5s::fake.blackout' 'x:guest:fake.blackout' ':guest:m' \
	'1s:guest:fake.blackout:{"on":' '1s:guest:fake.blackout:[1]' '1s:guest:fake.blackout:' \
	'5s:guest:fake.blackout:{}' '1s:nohop:fake.blackout' '1s:tester:traffic.stop'; do
	"$PVP_COORD" soak --topology "$T" --rate 1kpps --duration 3 --inject "$bad" \
		--out "$PVP_TMP/bad" >"$PVP_TMP/bad.out" 2>&1
	rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <"$PVP_TMP/bad.out")" = 1 ] && grep -q -- '--inject' "$PVP_TMP/bad.out" ||
		{ cat "$PVP_TMP/bad.out"; fail "--inject '$bad': exit $rc, not one line with exit 2"; }
	info "refused: $(cat "$PVP_TMP/bad.out")"
done

RATE=20000
"$PVP_COORD" soak --topology "$T" --rate $RATE --duration 3 --interval 0.5 \
	--inject '1.6s:guest:fake.blackout:{"on": false}' \
	--inject '1.2s:guest:fake.blackout:{"on": true}' \
	--out "$PVP_TMP/soak" >"$PVP_TMP/soak.out" 2>&1 || { cat "$PVP_TMP/soak.out"; fail "soak failed"; }
cat "$PVP_TMP/soak.out"
grep -qE '^soak inject +1\.[2-4] s: guest fake.blackout \{"on": true\}$' "$PVP_TMP/soak.out" &&
	grep -qE '^soak inject +1\.[6-8] s: guest fake.blackout \{"on": false\}$' "$PVP_TMP/soak.out" ||
	fail "the soak did not say its calls, in the order of their seconds"
"$PVP_PY" - "$PVP_TMP/soak/soak.jsonl" $RATE <<'PY' || fail "the loss is not where it was injected"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
rate = float(sys.argv[2])
ivs = [r for r in recs if r["type"] == "soak_interval"]
tot = [r for r in recs if r["type"] == "soak"][-1]
assert [r["n"] for r in ivs] == [1, 2, 3, 4, 5, 6], ivs
# Read while traffic runs, an interval splits its loss between hops
# approximately (doc/search.rst, "Soak"); the totals are exact.
for r in ivs:
    if r["n"] in (3, 4):
        assert r["hop_lost"]["guest"] > 0 and abs(r["hop_lost"]["guest"] - r["lost"]) <= 0.01 * r["tx_packets"], r
    else:
        assert r["lost"] == 0 and r["hop_lost"]["guest"] == 0, r
g = sum(r["lost"] for r in ivs)
assert 0.3 * rate <= g <= 0.5 * rate, g
assert tot["lost"] == tot["hop_lost"]["guest"] == g and tot["reconciled"], tot
# Each call is kept: in the interval it was made in, and all of them in the totals.
def calls(r):
    return [(c["hop"], c["method"], c["params"], c["ok"], c.get("error")) for c in r.get("injected", [])]
on = ("guest", "fake.blackout", {"on": True}, True, None)
off = ("guest", "fake.blackout", {"on": False}, True, None)
for r in ivs:
    want = {3: [on], 4: [off]}.get(r["n"], [])
    assert calls(r) == want, (r["n"], r.get("injected"))
assert calls(tot) == [on, off], tot.get("injected")
assert 1.2 <= ivs[2]["injected"][0]["t_s"] <= 1.5 and 1.6 <= ivs[3]["injected"][0]["t_s"] <= 2.0, ivs
PY
# The reports show them too: soak.csv's events column in the interval of
# each call, the summary's list, a line on the plot where gnuplot is.
"$PVP_PY" - "$PVP_TMP/soak" <<'PY' || fail "the reports do not show the calls"
import csv, json, shutil, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/soak.csv")))
ev = [r["events"] for r in rows]
assert ev == ["", "", 'guest fake.blackout {"on":true}', 'guest fake.blackout {"on":false}', "", ""], ev
s = json.load(open(d + "/summary.json"))["soak"]["injected"]
assert [(c["method"], c["params"]) for c in s] == [("fake.blackout", {"on": True}), ("fake.blackout", {"on": False})], s
if shutil.which("gnuplot"):
    assert open(d + "/soak.gp").read().count('set label "fake.blackout"') == 2
PY
# A call the hop refuses is kept too, with its error, and the soak goes on.
"$PVP_COORD" soak --topology "$T" --rate 1kpps --duration 1 --interval 0.5 \
	--inject '0.2s:guest:no.such.method' --out "$PVP_TMP/soak-err" >"$PVP_TMP/soak-err.out" 2>&1 ||
	{ cat "$PVP_TMP/soak-err.out"; fail "soak with a refused call failed"; }
grep -qE '^soak inject +0\.[2-4] s: guest no.such.method failed: ' "$PVP_TMP/soak-err.out" ||
	{ cat "$PVP_TMP/soak-err.out"; fail "the refused call was not said"; }
"$PVP_PY" - "$PVP_TMP/soak-err/soak.jsonl" <<'PY' || fail "the refused call is not kept"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
tot = [r for r in recs if r["type"] == "soak"][-1]
c = tot["injected"]
assert len(c) == 1 and c[0]["method"] == "no.such.method" and c[0]["ok"] is False and c[0]["error"] and "result" not in c[0], c
assert [r.get("injected") for r in recs if r["type"] == "soak_interval"][0] == c, recs
PY
echo PASS
