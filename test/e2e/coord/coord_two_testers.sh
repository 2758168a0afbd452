#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Two tester hosts under one coordinator, on one box: two pvpkit-gen
# processes, each looped onto itself (net_ring0, a wire), one reached by
# unix socket and one over TCP with a token file, in one topology with a
# chain each. Every trial gives both the same start time; the records say
# when each sent its first packet and how far apart that was (the figure
# doc/design.rst quotes), and a search runs through the pair.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_bin "$PVP_COORD"
need_cmd "$PVP_PY"
need_hugepages 512

# start_gen NAME CTL [EXTRA...]: a generator looped onto itself.
start_gen() {
	local name=$1 ctl=$2
	shift 2
	mkdir -p "$PVP_TMP/$name"
	"$PVP_GEN" $(pvp_eal "$name") -m 256 -l 0-1 --vdev net_ring0 -- --server \
		--ctl "$ctl" --idle-sleep 50 "$@" >"$PVP_TMP/$name/gen.log" 2>&1 &
	pvp_track $!
}
port=$((20000 + $$ % 20000))
umask 077
head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$PVP_TMP/b.token"
echo >>"$PVP_TMP/b.token"
start_gen a "unix:$PVP_TMP/a/gen.sock"
start_gen b "tcp:127.0.0.1:$port" --token-file "$PVP_TMP/b.token"
for _ in $(seq 150); do
	[ -S "$PVP_TMP/a/gen.sock" ] && grep -q "listening" "$PVP_TMP/b/gen.log" 2>/dev/null && break
	sleep 0.1
done
[ -S "$PVP_TMP/a/gen.sock" ] || { cat "$PVP_TMP/a/gen.log"; fail "generator a did not start"; }
cat >"$PVP_TMP/topology.json" <<JSON
{"name": "two-testers", "hops": [
  {"name": "tester_a", "driver": "gen", "ctl": "unix:$PVP_TMP/a/gen.sock", "ports": ["p0"]},
  {"name": "tester_b", "driver": "gen", "ctl": "tcp:127.0.0.1:$port",
   "token_file": "$PVP_TMP/b.token", "ports": ["p0"]},
  {"name": "cables", "driver": "wire", "links": [["tester_a:p0", "tester_a:p0"],
                                                 ["tester_b:p0", "tester_b:p0"]]}],
 "chains": [[{"hop": "tester_a", "port": "p0", "dir": "tx"}, {"hop": "tester_a", "port": "p0", "dir": "rx"}],
            [{"hop": "tester_b", "port": "p0", "dir": "tx"}, {"hop": "tester_b", "port": "p0", "dir": "rx"}]]}
JSON
# The TCP generator may still be coming up: wait until a trial gets through.
for i in $(seq 30); do
	"$PVP_COORD" trial --topology "$PVP_TMP/topology.json" --rate 1kpps --duration 0.1 \
		>"$PVP_TMP/first.out" 2>&1 && break
	sleep 0.5
done
[ "$i" -lt 30 ] || { cat "$PVP_TMP/first.out" "$PVP_TMP/b/gen.log"; fail "no trial through both testers"; }

for i in 1 2 3 4 5; do
	"$PVP_COORD" trial --topology "$PVP_TMP/topology.json" --rate 20kpps --duration 1 \
		--size 64 --flows 10 --results "$PVP_TMP/trials.jsonl" >"$PVP_TMP/trial$i.out" 2>&1 ||
		{ cat "$PVP_TMP/trial$i.out"; fail "trial $i: exit $?"; }
done
grep -h 'sources started' "$PVP_TMP"/trial*.out
"$PVP_PY" - "$PVP_TMP/trials.jsonl" <<'PY' || fail "trial records"
import json, statistics, sys
ts = [json.loads(l) for l in open(sys.argv[1])]
assert len(ts) == 5, len(ts)
skews = []
for t in ts:
    s = t["start"]
    assert s["sources"] == 2 and s["lead_ms"] == 250, s
    for hop in ("tester_a", "tester_b"):
        first = s["first_tx_s"][hop]
        # Nobody sent before the agreed time, and each began soon after it.
        assert s["start_at"] <= first < s["start_at"] + 0.1, (hop, first, s["start_at"])
    skews.append(s["skew_ms"])
    assert t["tx_packets"] == 40000 and t["rx_packets"] == 40000, (t["tx_packets"], t["rx_packets"])
    assert [c["tx_packets"] for c in t["chain_totals"]] == [20000, 20000], t["chain_totals"]
    assert t["reconciled"], t.get("findings")
print("# start skew ms over 5 trials: median %.3f, max %.3f, min %.3f"
      % (statistics.median(skews), max(skews), min(skews)))
# Two generators share 2 CPUs with everything else here: a scheduler
# tick is the bound, not the microseconds of dedicated cores.
assert statistics.median(skews) < 20, skews
PY

# A search through both testers: every trial of it carries the start.
"$PVP_COORD" search --topology "$PVP_TMP/topology.json" --max-rate 40kpps --min-rate 5kpps \
	--initial-duration 0.2 --final-duration 0.5 --goal ndr --no-tables \
	--results "$PVP_TMP/search.jsonl" >"$PVP_TMP/search.out" 2>&1 ||
	{ cat "$PVP_TMP/search.out"; fail "search through two testers: exit $?"; }
grep -E '^   ndr ' "$PVP_TMP/search.out"
"$PVP_PY" - "$PVP_TMP/search.jsonl" <<'PY' || fail "search records"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
trials = [r for r in recs if r["type"] == "trial"]
assert trials and all(r["start"]["sources"] == 2 and r["start"]["skew_ms"] is not None
                      for r in trials), trials[:1]
assert [r for r in recs if r["type"] == "search"], "no search record"
PY
echo "PASS"
