#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit report --html: a run against fake_hops.py (two points, NDR and
# PDR searched 3 times, latency at 4 loads) plus one trial whose
# signature check failed, made into report.html in another directory,
# rendered by headless Chromium; the DOM it dumps must have the tables
# (metadata, goals with repeats and spread, per-hop loss near each NDR,
# the failed check with its finding as text), every plot with its marks,
# the links to the files, and nothing the page would fetch.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
need_bin "$PVP_COORD"
need_cmd "$PVP_PY"
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	skip "needs chromium to render the page (Debian package chromium; tools/bootstrap.sh)"
. "$PVP_SOURCE_DIR/test/unit/coord/fake_lib.sh"

fake_start "$PVP_TMP/f" 50000
"$PVP_COORD" run --topology "$PVP_TMP/f/topology.json" --max-rate 100kpps --no-tables \
	--sizes 64,1518 --flows 1 --goal ndr --goal pdr=1% --initial-duration 0.05 \
	--final-duration 0.1 --repeat 3 --latency --latency-duration 0.1 \
	--out "$PVP_TMP/run" >"$PVP_TMP/run.out" 2>&1 ||
	{ rc=$?; cat "$PVP_TMP/run.out"; fail "run: exit $rc"; }

# A trial whose truth check failed, its finding with markup in it.
"$PVP_PY" - "$PVP_TMP/run/results.jsonl" <<'PY' || fail "adding the failed trial"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
t = dict([r for r in recs if r["type"] == "trial" and "latency" not in r][-1])
t["requested_pps"] = 12345
t["checks"] = dict(t.get("checks", {}), signature="failed")
t["findings"] = [{"check": "signature", "hop": "tester", "invalid": False,
                  "message": "signature: 3 lost <b>&</b>"}]
open(sys.argv[1], "a").write(json.dumps(t) + "\n")
PY

"$PVP_COORD" report "$PVP_TMP/run/results.jsonl" --html --out "$PVP_TMP/page" \
	>"$PVP_TMP/report.out" 2>&1 || { rc=$?; cat "$PVP_TMP/report.out"; fail "report --html: exit $rc"; }
grep -qx "report: $PVP_TMP/page/report.html" "$PVP_TMP/report.out" ||
	fail "report.html not listed: $(cat "$PVP_TMP/report.out")"

HOME=$PVP_TMP timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
	--dump-dom "file://$PVP_TMP/page/report.html" >"$PVP_TMP/dom.html" 2>"$PVP_TMP/chromium.log" ||
	{ tail -5 "$PVP_TMP/chromium.log"; fail "chromium could not render report.html"; }

"$PVP_PY" - "$PVP_TMP/dom.html" "$PVP_TMP/run/results.jsonl" <<'PY' || fail "report.html's DOM"
import html.parser, sys

class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.tables, self.svgs, self.links, self.fetch = [], {}, {}, [], []
        self.text = ""
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.tables[a.get("id")] = []
            self.table = a.get("id")
        if tag == "tr":
            self.tables[self.table].append([])
        if tag == "svg":
            self.svg = a.get("id")
            self.svgs[self.svg] = {}
        if tag in ("rect", "path", "polyline") and self.svg:
            k = tag + "." + (a.get("class") or "")
            self.svgs[self.svg][k] = self.svgs[self.svg].get(k, 0) + 1
        if tag == "a":
            self.links.append(a.get("href"))
        if tag in ("script", "link", "img", "iframe", "object") or "src" in a:
            self.fetch.append(tag)
        for k, v in a.items():
            if v and k in ("href", "src", "xlink:href") and ("//" in v or v.startswith("data:")):
                self.fetch.append(v)
        self.stack.append(tag)
    def handle_endtag(self, tag):
        if tag == "svg":
            self.svg = None
    def handle_data(self, d):
        if self.stack and self.stack[-1] in ("td", "th") and getattr(self, "table", None):
            row = self.tables[self.table][-1]
            row.append(d)
        self.text += d
    svg = None

d = Dom()
d.feed(open(sys.argv[1]).read())
def bad(m):
    print("FAIL:", m); sys.exit(1)
for t in ("metadata", "goals", "hop-loss", "failed-checks"):
    if t not in d.tables:
        bad("no table %s (tables: %s)" % (t, list(d.tables)))
goals = d.tables["goals"][1:]
if len(goals) != 4:
    bad("goals table: %d rows, not 2 points x 2 goals: %s" % (len(goals), goals))
for r in goals:
    # size, flows, goal, pps, % line, repeats, min, max, spread, status
    if r[5] != "3" or r[8] == "-" or r[9] != "ok":
        bad("goals row without 3 repeats, a spread and ok: %s" % r)
for g in ("ndr", "pdr"):
    s = d.svgs.get("plot-throughput-" + g)
    if not s or s.get("rect.bar") != 2 or s.get("path.range") != 2:
        bad("throughput plot of %s: %s" % (g, s))
lat = d.svgs.get("plot-latency")
if not lat or lat.get("polyline.series") != 4:
    bad("latency plot: %s (2 points x p50, p99)" % lat)
hops = d.tables["hop-loss"][1:]
if len(hops) != 2 or any("tester 0" not in "".join(r) for r in hops):
    bad("per-hop loss rows: %s" % hops)
fc = d.tables["failed-checks"][1:]
if len(fc) != 1 or fc[0][2] != "12345" or fc[0][3] != "signature" or \
        fc[0][4] != "signature: 3 lost <b>&</b>":
    bad("failed checks: %s" % fc)
want = {sys.argv[2], "summary.json", "ndr.csv", "pdr_repeats.csv", "latency.csv"}
if not want <= set(d.links):
    bad("links %s lack %s" % (d.links, want - set(d.links)))
if d.fetch:
    bad("the page would fetch: %s" % d.fetch)
print("# DOM: %d tables, plots %s, %d links" % (len(d.tables), sorted(d.svgs), len(d.links)))
PY
echo "PASS"
