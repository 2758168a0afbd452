#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The results file's disk fills up in the middle of a search (a small
# tmpfs): the trial that could not be appended is still printed, whole,
# on stdout after one line naming the file; the file keeps every earlier
# trial as whole JSON lines; the search stops. A full disk and paths that
# cannot be written are then refused before any trial runs. The same for
# a soak (the interval that could not be kept and the totals follow on
# stdout) and for the latency step of a search.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"
. "$PVP_SOURCE_DIR/test/e2e/faults/faults_lib.sh"

coord_need_testbed
need_cmd mount
coord_tb_up
MNT=$PVP_TMP/small
mkdir -p "$MNT"
mount -t tmpfs -o size=512k pvpkit-full "$MNT" || skip "cannot mount a tmpfs"
fault_exit() {
	umount "$MNT" 2>/dev/null
	coord_tb_down
}
trap fault_exit EXIT

RESULTS=$MNT/results.jsonl
fault_search_start
fault_wait_trials 2
# Fill the disk: the next append cannot be whole.
dd if=/dev/zero of="$MNT/fill" bs=4k 2>/dev/null
fault_wait_search
[ "$SEARCH_RC" = 1 ] || fail "search exit status $SEARCH_RC, want 1"
fault_one_line "^pvpkit: $RESULTS: No space left on device: trial [0-9]+ not kept; its JSON line follows on stdout$"
lost=$(sed -n 's/.*: trial \([0-9]*\) not kept.*/\1/p' "$PVP_TMP/search.err")
# The trial that was not kept is on stdout, whole, with its place.
"$PVP_PY" - "$PVP_TMP/search.out" "$lost" <<'PY' || fail "the trial not kept is not on stdout"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
t = [r for r in recs if r["type"] == "trial" and r["search"]["trial"] == int(sys.argv[2]) - 1]
s = [r for r in recs if r["type"] == "search"]
print("# on stdout: %d trial(s), %d search record(s)" % (len(t), len(s)))
sys.exit(0 if len(t) == 1 and t[0]["tx_packets"] > 0 and len(s) == 1 and s[0]["partial"] else 1)
PY
grep -q "^-- trial $lost " "$PVP_TMP/search.out" || fail "trial $lost's line was not printed"
# The file: whole lines only, every trial before the one not kept.
"$PVP_PY" - "$RESULTS" "$lost" <<'PY' || fail "the results file lost trials or a line is cut"
import json, sys
text = open(sys.argv[1]).read()
assert text.endswith("\n"), "last line cut"
recs = [json.loads(l) for l in text.splitlines()]
idx = [r["search"]["trial"] for r in recs if r["type"] == "trial"]
print("# kept trials", idx)
sys.exit(0 if idx == list(range(int(sys.argv[2]) - 1)) else 1)
PY

# Found before the run, in well under a trial's time, no hop contacted.
"$PVP_COORD" search --topology "$TB_DIR/topology.json" --size 64 --flows 1 \
	--max-rate 4500 --results "$RESULTS" >"$PVP_TMP/pre.out" 2>"$PVP_TMP/pre.err"
rc=$?
[ "$rc" = 1 ] || fail "search onto a full disk: exit $rc, want 1"
grep -qx "pvpkit: --results: $RESULTS: No space left on device" "$PVP_TMP/pre.err" ||
	{ cat "$PVP_TMP/pre.err"; fail "full disk not refused before the run"; }
grep -q "trial" "$PVP_TMP/pre.out" && fail "a trial ran onto a full disk"
"$PVP_COORD" trial --topology "$TB_DIR/topology.json" --json "$PVP_TMP/no/such/dir/t.json" \
	--duration 1 >"$PVP_TMP/pre.out" 2>"$PVP_TMP/pre.err"
rc=$?
[ "$rc" = 1 ] || fail "--json in a missing dir: exit $rc, want 1"
grep -qx "pvpkit: --json: $PVP_TMP/no/such/dir/t.json: No such file or directory" \
	"$PVP_TMP/pre.err" || { cat "$PVP_TMP/pre.err"; fail "--json not checked before the run"; }
grep -q "Packets" "$PVP_TMP/pre.out" && fail "a trial ran with an unwritable --json"
# Start "$@" in the background with stdout/stderr in $PVP_TMP/bg.{out,err};
# once file $1 has a line matching $2, fill the disk; wait for the end
# (60 s at most): its exit status in BG_RC.
fill_when() {
	local file=$1 pat=$2 pid
	shift 2
	"$@" >"$PVP_TMP/bg.out" 2>"$PVP_TMP/bg.err" &
	pid=$!
	pvp_track "$pid"
	for _ in $(seq 600); do
		grep -q "$pat" "$file" 2>/dev/null && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	grep -q "$pat" "$file" 2>/dev/null ||
		{ cat "$PVP_TMP/bg.out" "$PVP_TMP/bg.err"; fail "no '$pat' in $file"; }
	dd if=/dev/zero of="$MNT/fill" bs=4k 2>/dev/null
	for _ in $(seq 600); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && fail "$1 did not end within 60 s of the disk filling"
	wait "$pid"
	BG_RC=$?
	info "exit status $BG_RC; stderr:"
	sed 's/^/#   /' "$PVP_TMP/bg.err"
}

# A soak: once two intervals are kept, the disk fills; the interval that
# could not be kept and the totals are on stdout, whole.
rm -f "$MNT"/*
fill_when "$MNT/soak.jsonl" '"n": *2,' "$PVP_COORD" soak --topology "$TB_DIR/topology.json" \
	--rate 2kpps --duration 20 --interval 0.5 --results "$MNT/soak.jsonl" --out "$PVP_TMP/soak"
[ "$BG_RC" = 1 ] || fail "soak onto a full disk: exit $BG_RC, want 1"
[ "$(wc -l <"$PVP_TMP/bg.err")" = 1 ] &&
	grep -Eq "^pvpkit: $MNT/soak.jsonl: No space left on device: soak interval [0-9]+ not kept; its JSON line follows on stdout$" \
		"$PVP_TMP/bg.err" || fail "soak: stderr is not the one line: $(cat "$PVP_TMP/bg.err")"
lost=$(sed -n 's/.*: soak interval \([0-9]*\) not kept.*/\1/p' "$PVP_TMP/bg.err")
"$PVP_PY" - "$PVP_TMP/bg.out" "$MNT/soak.jsonl" "$lost" <<'PY' || fail "soak records lost"
import json, sys
out = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
text = open(sys.argv[2]).read()
assert text.endswith("\n"), "last line cut"
kept = [json.loads(l) for l in text.splitlines()]
n = int(sys.argv[3])
# Every interval before the lost one in the file, the lost one and the
# totals on stdout: all of them between the two.
assert [r["n"] for r in kept if r["type"] == "soak_interval"] == list(range(1, n)), kept
iv = [r for r in out if r["type"] == "soak_interval"]
tot = [r for r in out if r["type"] == "soak"]
assert [r["n"] for r in iv] == [n] and iv[0]["tx_packets"] > 0, out
assert len(tot) == 1 and tot[0]["tx_packets"] >= sum(r["tx_packets"] for r in kept + iv), tot
print("# soak: intervals 1..%d kept, %d and the totals on stdout" % (n - 1, n))
PY

# The latency step of a search: once its first latency trial is kept,
# the disk fills; the next one is on stdout, whole, and the search ends.
rm -f "$MNT"/*
fill_when "$MNT/lat.jsonl" '"latency": *{' "$PVP_COORD" search \
	--topology "$TB_DIR/topology.json" --size 64 --flows 1 --max-rate 4500 --min-rate 1000 \
	--goal pdr=0.5% --width 10% --initial-duration 0.5 --final-duration 0.5 --max-time 10 \
	--latency-loads 0,50,90 --latency-duration 1 --no-tables --results "$MNT/lat.jsonl"
[ "$BG_RC" = 1 ] || fail "latency onto a full disk: exit $BG_RC, want 1"
[ "$(wc -l <"$PVP_TMP/bg.err")" = 1 ] &&
	grep -Eq "^pvpkit: $MNT/lat.jsonl: No space left on device: latency trial at (50|90) % not kept; its JSON line follows on stdout$" \
		"$PVP_TMP/bg.err" || fail "latency: stderr is not the one line: $(cat "$PVP_TMP/bg.err")"
load=$(sed -n 's/.*latency trial at \([0-9]*\) % not kept.*/\1/p' "$PVP_TMP/bg.err")
grep -q "^-- latency $load % " "$PVP_TMP/bg.out" || fail "the latency trial's line was not printed"
"$PVP_PY" - "$PVP_TMP/bg.out" "$MNT/lat.jsonl" "$load" <<'PY' || fail "latency trial lost"
import json, sys
out = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
text = open(sys.argv[2]).read()
assert text.endswith("\n"), "last line cut"
kept = [json.loads(l) for l in text.splitlines()]
load = int(sys.argv[3])
# The loads before the lost one in the file, the lost one on stdout.
assert [r["latency"]["load_pct"] for r in kept if "latency" in r] == \
    [x for x in (0, 50, 90) if x < load], kept
assert len(out) == 1 and out[0]["latency"]["load_pct"] == load, out
h = out[0]["streams"][0]["latency_ns"]["histogram"]
assert h["count"] > 0 and sum(b[1] for b in h["buckets"]) == h["count"], h
print("# latency: %d %% on stdout with %d samples, the loads before it kept" % (load, h["count"]))
PY
fault_recover
echo "PASS"
