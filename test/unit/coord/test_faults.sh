#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# A search or trial cut short, no DPDK: against fake_hops.py (a pretend
# gen and fwd, the guest passing 50,000 pps), SIGTERM and SIGINT in the
# middle of a search, the results file's disk filling up (a small tmpfs,
# root only) and output paths that cannot be written. Each must keep
# every finished trial as a whole JSON line, say what happened in one
# line and exit non-zero. test/e2e/faults/ does the same on the real
# testbed, with hops killed and OVS restarted.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
need_bin "$PVP_COORD"
need_cmd "$PVP_PY"

. "$PVP_SOURCE_DIR/test/unit/coord/fake_lib.sh"
fake_start "$PVP_TMP" 50000
T=$PVP_TMP/topology.json

# A search of many short trials in the background; results to $1.
search_start() {
	"$PVP_COORD" search --topology "$T" --size 64 --flows 1 --max-rate 80000 \
		--min-rate 1000 --goal ndr --width 0.5% --initial-duration 0.2 \
		--final-duration 0.3 --max-time 60 --no-tables --results "$1" \
		>"$PVP_TMP/search.out" 2>"$PVP_TMP/search.err" &
	SEARCH_PID=$!
	pvp_track "$SEARCH_PID"
}

# Wait until file $1 holds $2 trial lines.
wait_trials() {
	for _ in $(seq 300); do
		n=$(grep -c '"type":"trial"' "$1" 2>/dev/null)
		[ "${n:-0}" -ge "$2" ] && return 0
		kill -0 "$SEARCH_PID" 2>/dev/null || fail "search ended early: $(cat "$PVP_TMP/search.err")"
		sleep 0.05
	done
	fail "no $2 trials in 15 s"
}

wait_search() {
	wait "$SEARCH_PID"
	SEARCH_RC=$?
}

# Every line whole JSON; trials 0..n-1 in order, then one search record
# for which the Python condition $2 over `s` holds. Prints n.
check_results() {
	"$PVP_PY" - "$1" "$2" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
assert text.endswith("\n"), "last line cut"
recs = [json.loads(l) for l in text.splitlines()]
idx = [r["search"]["trial"] for r in recs if r["type"] == "trial"]
assert idx == list(range(len(idx))), "trials out of order: %s" % idx
s = recs[-1]
assert s["type"] == "search" and [r["type"] for r in recs].count("search") == 1, "search record"
assert eval(sys.argv[2]), "search record: %s" % json.dumps(s)
print(len(idx))
PY
}

for sig in TERM INT; do
	case $sig in TERM) want=143 ;; INT) want=130 ;; esac
	R=$PVP_TMP/sig-$sig.jsonl
	search_start "$R"
	wait_trials "$R" 2
	kill -s "$sig" "$SEARCH_PID"
	wait_search
	[ "$SEARCH_RC" = "$want" ] || fail "SIG$sig: exit $SEARCH_RC, want $want"
	[ "$(wc -l <"$PVP_TMP/search.err")" = 1 ] ||
		fail "SIG$sig: want one line on stderr: $(cat "$PVP_TMP/search.err")"
	grep -Eq "^pvpkit: interrupted by SIG$sig( during trial [0-9]+ \(traffic stopped\))?: [0-9]+ finished trial\(s\) kept in $R, the search marked partial$" \
		"$PVP_TMP/search.err" || fail "SIG$sig: $(cat "$PVP_TMP/search.err")"
	n=$(check_results "$R" "s['interrupted'] == 'SIG$sig' and s['partial'] and s['failed']") ||
		fail "SIG$sig: results file wrong"
	grep -q ": $n finished trial(s) kept" "$PVP_TMP/search.err" ||
		fail "SIG$sig: the line does not count the $n trials kept"
	grep -q "^== search .*, interrupted by SIG$sig$" "$PVP_TMP/search.out" ||
		fail "SIG$sig: the summary does not say it was interrupted"
	info "SIG$sig: exit $want, $n trials kept"
done

# pvpkit trial: the same, exit 143 and one line.
"$PVP_COORD" trial --topology "$T" --rate 10kpps --duration 3 --results "$PVP_TMP/t.jsonl" \
	>"$PVP_TMP/trial.out" 2>"$PVP_TMP/trial.err" &
pid=$!
sleep 0.5
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" = 143 ] || fail "trial SIGTERM: exit $rc, want 143"
[ "$(cat "$PVP_TMP/trial.err")" = "pvpkit: interrupted by SIGTERM: trial not measured (traffic stopped)" ] ||
	fail "trial SIGTERM: $(cat "$PVP_TMP/trial.err")"
[ -e "$PVP_TMP/t.jsonl" ] && fail "trial SIGTERM: an interrupted trial was kept"

# Output paths are checked before any hop is contacted.
out=$("$PVP_COORD" trial --topology "$T" --json "$PVP_TMP/no/t.json" 2>&1)
[ $? = 1 ] && [ "$out" = "pvpkit: --json: $PVP_TMP/no/t.json: No such file or directory" ] ||
	fail "--json in a missing dir: $out"
out=$("$PVP_COORD" trial --topology "$T" --results "$PVP_TMP" 2>&1)
[ $? = 1 ] && [ "$out" = "pvpkit: --results: $PVP_TMP: not a regular file (a directory)" ] ||
	fail "--results a directory: $out"
out=$("$PVP_COORD" search --topology "$T" --max-rate 1000 --results /dev/null 2>&1)
[ $? = 1 ] && [ "$out" = "pvpkit: --results: /dev/null: not a regular file (a character device)" ] ||
	fail "search --results /dev/null: $out"

# The disk fills up mid-search: a tmpfs of 64 KiB.
[ "$(id -u)" = 0 ] || { echo "PASS (disk-full cases skipped: need root for a tmpfs)"; exit 0; }
MNT=$PVP_TMP/small
mkdir -p "$MNT"
mount -t tmpfs -o size=64k pvpkit-full "$MNT" || fail "cannot mount a tmpfs"
trap 'umount "$MNT" 2>/dev/null; pvp_cleanup' EXIT
R=$MNT/results.jsonl
search_start "$R"
wait_trials "$R" 2
dd if=/dev/zero of="$MNT/fill" bs=1k 2>/dev/null
wait_search
[ "$SEARCH_RC" = 1 ] || fail "disk full: exit $SEARCH_RC, want 1"
[ "$(wc -l <"$PVP_TMP/search.err")" = 1 ] ||
	fail "disk full: want one line on stderr: $(cat "$PVP_TMP/search.err")"
grep -Eq "^pvpkit: $R: No space left on device: trial [0-9]+ not kept; its JSON line follows on stdout$" \
	"$PVP_TMP/search.err" || fail "disk full: $(cat "$PVP_TMP/search.err")"
lost=$(sed -n 's/.*: trial \([0-9]*\) not kept.*/\1/p' "$PVP_TMP/search.err")
"$PVP_PY" - "$R" "$PVP_TMP/search.out" "$lost" <<'PY' || fail "disk full: a trial was lost"
import json, sys
text = open(sys.argv[1]).read()
assert text.endswith("\n"), "last line cut"
recs = [json.loads(l) for l in text.splitlines()]
# The run record (versions, host) comes first; then the trials.
kept = [r["search"]["trial"] for r in recs if r["type"] == "trial"]
lost = int(sys.argv[3]) - 1
assert kept == list(range(lost)), "kept %s, lost %d" % (kept, lost)
out = [json.loads(l) for l in open(sys.argv[2]) if l.startswith("{")]
t = [r for r in out if r["type"] == "trial"]
s = [r for r in out if r["type"] == "search"]
assert len(t) == 1 and t[0]["search"]["trial"] == lost and t[0]["tx_packets"] > 0, "trial on stdout"
assert len(s) == 1 and s[0]["partial"] and "No space left" in s[0]["error"], "search on stdout"
PY
grep -q "^-- trial $lost " "$PVP_TMP/search.out" || fail "disk full: trial $lost's line not printed"
out=$("$PVP_COORD" search --topology "$T" --max-rate 1000 --results "$R" 2>&1)
[ $? = 1 ] && [ "$out" = "pvpkit: --results: $R: No space left on device" ] ||
	fail "search onto a full disk: $out"

# A trial whose append fails: the table and the JSON line still on stdout.
rm -f "$MNT/fill" "$R"
"$PVP_COORD" trial --topology "$T" --rate 10kpps --duration 1 --results "$R" \
	>"$PVP_TMP/trial.out" 2>"$PVP_TMP/trial.err" &
pid=$!
sleep 0.3
dd if=/dev/zero of="$MNT/fill" bs=1k 2>/dev/null
wait "$pid"
rc=$?
[ "$rc" = 1 ] || fail "trial onto a full disk: exit $rc"
grep -qx "pvpkit: $R: No space left on device: trial not kept; its JSON line follows on stdout" \
	"$PVP_TMP/trial.err" || fail "trial onto a full disk: $(cat "$PVP_TMP/trial.err")"
grep -q "^  Total lost " "$PVP_TMP/trial.out" || fail "trial onto a full disk: no table"
grep '^{' "$PVP_TMP/trial.out" | "$PVP_PY" -c 'import json,sys; assert json.load(sys.stdin)["type"] == "trial"' ||
	fail "trial onto a full disk: no JSON line on stdout"
[ ! -s "$R" ] || fail "trial onto a full disk: a partial line was left"
echo "PASS"
