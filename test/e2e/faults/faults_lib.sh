# SPDX-License-Identifier: BSD-3-Clause
# Shared by the fault tests: a search that runs long enough to be hit in
# the middle, the checks every fault must pass (finished trials whole in
# the results file, the search record marked, no trial read as a DUT
# result), and the recovery: `pvpkit testbed down` and `up` with no
# manual clean-up, then a trial that measures. Source after
# test/e2e/coord/coord_lib.sh.

RESULTS=$PVP_TMP/search.jsonl
SEARCH_PID=""

# Start a search in the background against a known cap: ingress policing
# on vhost0 passes 3000 pps of 64 B frames, so an NDR search from
# 4500 pps to a 1 % width takes a dozen short trials. $1: results file
# (default $RESULTS); stdout/stderr to $PVP_TMP/search.{out,err}.
fault_search_start() {
	local results=${1:-$RESULTS}
	coord_vsctl set Interface vhost0 ingress_policing_rate=1104 ingress_policing_burst=20 ||
		fail "cannot set ingress policing"
	"$PVP_COORD" search --topology "$TB_DIR/topology.json" --size 64 --flows 1 \
		--max-rate 4500 --min-rate 1000 --goal ndr --width 1% --initial-duration 0.5 \
		--final-duration 1 --max-time 60 --no-tables --results "$results" \
		>"$PVP_TMP/search.out" 2>"$PVP_TMP/search.err" &
	SEARCH_PID=$!
	pvp_track "$SEARCH_PID"
}

# Wait until the results file $2 (default $RESULTS) holds $1 whole trial
# lines; fail after 60 s or when the search ended first.
fault_wait_trials() {
	local want=$1 results=${2:-$RESULTS} n
	for _ in $(seq 600); do
		n=$(grep -c '"type": *"trial"' "$results" 2>/dev/null)
		[ "${n:-0}" -ge "$want" ] && return 0
		kill -0 "$SEARCH_PID" 2>/dev/null || {
			cat "$PVP_TMP/search.out" "$PVP_TMP/search.err"
			fail "the search ended before $want trials"
		}
		sleep 0.1
	done
	fail "no $want trials in 60 s"
}

# Wait for the search to end (at most 60 s); its exit status in SEARCH_RC.
fault_wait_search() {
	for _ in $(seq 600); do
		kill -0 "$SEARCH_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$SEARCH_PID" 2>/dev/null && fail "the search did not end within 60 s of the fault"
	wait "$SEARCH_PID"
	SEARCH_RC=$?
	info "search exit status $SEARCH_RC; stderr:"
	sed 's/^/#   /' "$PVP_TMP/search.err"
}

# stderr must be exactly one line matching the extended regex $1.
fault_one_line() {
	local n
	n=$(wc -l <"$PVP_TMP/search.err")
	[ "$n" = 1 ] || fail "stderr has $n lines, want 1"
	grep -Eq "$1" "$PVP_TMP/search.err" || fail "stderr does not match: $1"
}

# The results file: every line whole JSON, at least $1 trials, each with
# its search place, then one search record that is marked partial and
# carries the Python condition $2 (over `s`, the record). $3: the file.
fault_check_results() {
	"$PVP_PY" - "${3:-$RESULTS}" "$1" "$2" <<'PY' || fail "results file wrong"
import json, sys
path, want, cond = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = open(path).read().split("\n")
if lines[-1] != "":
    print("FAIL: the last line is not whole"); sys.exit(1)
recs = [json.loads(l) for l in lines[:-1]]
trials = [r for r in recs if r["type"] == "trial"]
searches = [r for r in recs if r["type"] == "search"]
print("# %d trials, %d search records" % (len(trials), len(searches)))
if len(trials) < want:
    print("FAIL: %d trials kept, want at least %d" % (len(trials), want)); sys.exit(1)
idx = [t["search"]["trial"] for t in trials]
if idx != list(range(len(trials))):
    print("FAIL: trials kept out of order or twice:", idx); sys.exit(1)
if len(searches) != 1 or recs[-1]["type"] != "search":
    print("FAIL: want one search record, last"); sys.exit(1)
s = searches[0]
if not s.get("failed") or not s.get("partial"):
    print("FAIL: the search record is not marked failed and partial:", s); sys.exit(1)
if not eval(cond):
    print("FAIL: search record:", json.dumps(s)); sys.exit(1)
PY
}

# After the fault: down and up with no manual clean-up, then a trial.
fault_recover() {
	coord_tb down -q >"$PVP_TMP/tb-down.log" 2>&1 ||
		{ cat "$PVP_TMP/tb-down.log"; fail "testbed down failed after the fault"; }
	coord_tb up -q >"$PVP_TMP/tb-up2.log" 2>&1 ||
		{ cat "$PVP_TMP/tb-up2.log"; fail "testbed up failed after the fault"; }
	coord_trial after --size 64 --flows 1 --rate 5kpps --duration 1 ||
		{ cat "$PVP_TMP/after.err"; fail "the trial after recovery failed"; }
	coord_assert after 't["tx_packets"] > 0 and t["rx_packets"] > 0' \
		"the trial after recovery passed no traffic"
	info "recovered: testbed down/up and a trial passed"
}
