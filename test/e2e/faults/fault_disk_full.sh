#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The results file's disk fills up in the middle of a search (a small
# tmpfs): the trial that could not be appended is still printed, whole,
# on stdout after one line naming the file; the file keeps every earlier
# trial as whole JSON lines; the search stops. A full disk and paths that
# cannot be written are then refused before any trial runs.
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
fault_recover
echo "PASS"
