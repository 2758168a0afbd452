#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Several traffic sources under one coordinator, against two fake_hops.py
# sites (a pretend tester and guest each; no DPDK): every source is given
# the same start time a lead ahead, each says when it sent its first
# packet, and the trial record and table say how far apart they were.
# A lead too short for the start calls is shown, not hidden.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
need_bin "$PVP_COORD"
need_cmd "$PVP_PY"

. "$PVP_SOURCE_DIR/test/unit/coord/fake_lib.sh"
nfail=0
bad() { echo "FAIL: $*"; nfail=$((nfail + 1)); }

fake_start "$PVP_TMP/a" 50000
# Site b's control path is slow: every traffic.start takes 50 ms to arrive.
fake_start "$PVP_TMP/b" 50000 0 50

# The default lead covers the slow start call: both started at the one
# time, 0 ms apart.
fake_merge "$PVP_TMP/two.json" - "$PVP_TMP/a" "$PVP_TMP/b"
t0=$(date +%s.%N)
"$PVP_COORD" trial --topology "$PVP_TMP/two.json" --rate 10kpps --duration 0.2 \
	--json "$PVP_TMP/two.out.json" >"$PVP_TMP/two.out" 2>&1 || bad "trial: exit $? $(cat "$PVP_TMP/two.out")"
grep -q '^  2 sources started 0.000 ms apart (first packets; start lead 250 ms)$' "$PVP_TMP/two.out" ||
	bad "no start line: $(grep -i source "$PVP_TMP/two.out")"
"$PVP_PY" - "$PVP_TMP/two.out.json" "$t0" <<'PY' || bad "two-source record"
import json, sys
t = json.load(open(sys.argv[1]))
t0 = float(sys.argv[2])
s = t["start"]
assert s["sources"] == 2 and s["lead_ms"] == 250, s
# The time given lies a lead after the command began, and both began then.
assert 0.25 <= s["start_at"] - t0 < 2.0, (s["start_at"], t0)
assert s["first_tx_s"] == {"tester_a": s["start_at"], "tester_b": s["start_at"]}, s
assert s["skew_ms"] == 0, s
assert t["tx_packets"] == 4000 and t["rx_packets"] == 4000, (t["tx_packets"], t["rx_packets"])
assert [c["tx_packets"] for c in t["chain_totals"]] == [2000, 2000], t["chain_totals"]
assert "warnings" not in t, t.get("warnings")
PY

# A lead of 1 ms: site b's start arrives 50 ms after the time given, so
# it starts late; the skew (about 50 ms) and a warning say so.
fake_merge "$PVP_TMP/late.json" 1 "$PVP_TMP/a" "$PVP_TMP/b"
"$PVP_COORD" trial --topology "$PVP_TMP/late.json" --rate 10kpps --duration 0.2 \
	--json "$PVP_TMP/late.out.json" >"$PVP_TMP/late.out" 2>&1 || bad "late trial: exit $?"
grep -Eq '^  2 sources started [0-9]+\.[0-9]{3} ms apart \(first packets; start lead 1 ms\)$' \
	"$PVP_TMP/late.out" || bad "no late start line: $(grep -i source "$PVP_TMP/late.out")"
"$PVP_PY" - "$PVP_TMP/late.out.json" <<'PY' || bad "late record"
import json, sys
t = json.load(open(sys.argv[1]))
s = t["start"]
a, b = s["first_tx_s"]["tester_a"], s["first_tx_s"]["tester_b"]
# Site a may miss a 1 ms lead too on a busy host; b misses it by its 50 ms.
assert a >= s["start_at"] and b - a >= 0.045, s
assert abs(s["skew_ms"] - (b - a) * 1e3) < 1e-6, s
w = " ".join(t.get("warnings", []))
assert "longer than the topology's start_lead_ms (1)" in w, w
PY

# One source: no start time, no "start" member, as before.
"$PVP_COORD" trial --topology "$PVP_TMP/a/topology.json" --rate 10kpps --duration 0.1 \
	--json "$PVP_TMP/one.json" >"$PVP_TMP/one.out" 2>&1 || bad "one-source trial: exit $?"
"$PVP_PY" -c 'import json,sys; t=json.load(open(sys.argv[1])); assert "start" not in t' \
	"$PVP_TMP/one.json" || bad "one source has a start member"
grep -q 'sources started' "$PVP_TMP/one.out" && bad "one source printed a start line"

# start_lead_ms out of range is the topology's error, before any hop.
"$PVP_PY" - "$PVP_TMP/two.json" "$PVP_TMP/bad.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
t["start_lead_ms"] = 0
json.dump(t, open(sys.argv[2], "w"))
PY
out=$("$PVP_COORD" trial --topology "$PVP_TMP/bad.json" --rate 10kpps --duration 0.1 2>&1)
rc=$?
case $out in
*"bad.json:1:"*"start_lead_ms"*"1..30000"*) [ $rc = 2 ] || [ $rc = 1 ] || bad "start_lead_ms 0: exit $rc" ;;
*) bad "start_lead_ms 0: $out" ;;
esac

[ "$nfail" = 0 ] || fail "$nfail check(s) failed"
echo "ok"
