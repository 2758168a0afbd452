#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The pvpkit command line, no DPDK: exact error lines and exit statuses
# for bad usage, then trial, search, run and report end to end against
# fake_hops.py (a pretend gen and fwd whose forwarder passes at most
# 50,000 pps), and testbed with a stand-in script.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
need_bin "$PVP_COORD"
need_cmd "$PVP_PY"

HERE=$PVP_SOURCE_DIR/test/unit/coord
nfail=0
bad() { echo "FAIL: $*"; nfail=$((nfail + 1)); }

# expect RC FIRST-LINE-OF-OUTPUT ARGS...: stdout and stderr together.
expect() {
	local rc=$1 line=$2 out got
	shift 2
	out=$("$PVP_COORD" "$@" 2>&1)
	got=$?
	[ "$got" = "$rc" ] || bad "pvpkit $*: exit $got, expected $rc (${out%%$'\n'*})"
	[ "${out%%$'\n'*}" = "$line" ] || bad "pvpkit $*: said \"${out%%$'\n'*}\", expected \"$line\""
}

NOTOPO=$PVP_TMP/none.json

# The command table and its errors.
expect 2 "Usage: pvpkit COMMAND [OPTIONS]"
expect 0 "Usage: pvpkit COMMAND [OPTIONS]" help
expect 0 "Usage: pvpkit COMMAND [OPTIONS]" --help
expect 0 "pvpkit 0.1.0" --version
expect 2 'pvpkit: unknown command "bogus" (see pvpkit --help)' bogus
"$PVP_COORD" help | grep -q '^  search    zero-loss throughput search' || bad "help lists no search"

# trial: options.
expect 0 "Usage: pvpkit trial [OPTIONS]" trial --help
expect 2 'pvpkit: --size: "63" must be an integer in 64..9216' trial --size 63
expect 2 'pvpkit: --flows: "0" must be an integer in 1..16777216' trial --flows 0
expect 2 'pvpkit: --flows: "0x10" must be an integer in 1..16777216' trial --flows 0x10
expect 2 'pvpkit: --flows: " 10" must be an integer in 1..16777216' trial --flows " 10"
expect 2 'pvpkit: --flows: "+10" must be an integer in 1..16777216' trial --flows +10
expect 2 'pvpkit: --duration: "nan" must be a number in 0.001..86400' trial --duration nan
expect 2 'pvpkit: --duration: "inf" must be a number in 0.001..86400' trial --duration inf
expect 2 'pvpkit: --duration: "0x10" must be a number in 0.001..86400' trial --duration 0x10
expect 2 'pvpkit: --duration: "1e9" must be a number in 0.001..86400' trial --duration 1e9
expect 2 'pvpkit: --warmup: "-1" must be a number in 0..3600' trial --warmup -1
expect 2 'pvpkit: --quiet-timeout: "0" must be a number in 0.1..600' trial --quiet-timeout 0
expect 2 'pvpkit: --rate: "bogus" is not a rate (e.g. 100000, 500kpps, 1Mpps, 10%, 5Gbps, max) (see pvpkit --help)' \
	trial --rate bogus
expect 2 'pvpkit: --flow-type: "l5" is not normal, l2, l3 or l4 (see pvpkit --help)' \
	trial --flow-type l5
expect 2 'pvpkit: --flow-rules needs --flow-type (see pvpkit --help)' trial --flow-rules 5
expect 2 'pvpkit: trial: unknown option or missing value: --bogus (see pvpkit --help)' trial --bogus
expect 2 'pvpkit: trial: unknown option or missing value: --size (see pvpkit --help)' trial --size
expect 2 'pvpkit: trial: unexpected argument "extra" (see pvpkit --help)' trial extra
expect 2 "pvpkit: $NOTOPO: No such file or directory" trial --topology "$NOTOPO"
# Base 10: a leading zero is not octal, decimals are fine.
expect 2 "pvpkit: $NOTOPO: No such file or directory" trial --flows 010 --duration 0.5 \
	--topology "$NOTOPO"
# The default topology is the testbed's.
out=$(PVP_TESTBED_RUNDIR=$PVP_TMP/tb "$PVP_COORD" trial 2>&1)
[ "$out" = "pvpkit: $PVP_TMP/tb/topology.json: No such file or directory" ] ||
	bad "default topology: $out"

# search, run, report: options.
expect 0 "Usage: pvpkit search --max-rate RATE [OPTIONS]" search --help
expect 0 "Usage: pvpkit run --max-rate RATE [OPTIONS]" run --help
expect 2 "pvpkit: --max-rate is required (see --help)" search
expect 2 'pvpkit: rate: "10%" must be a packet rate (100000, 500kpps, 1Mpps) (see --help)' \
	search --max-rate 10%
expect 2 'pvpkit: --goal: "pdr=2" must be ndr or pdr=RATIO (0.1%, 0.001) (see --help)' \
	search --max-rate 1Mpps --goal pdr=2
expect 2 'pvpkit: --goal: "pdr=nan" must be ndr or pdr=RATIO (0.1%, 0.001) (see --help)' \
	search --max-rate 1Mpps --goal pdr=nan
expect 2 'pvpkit: --width: "0x1" must be like 0.005 or 0.5% (see --help)' \
	search --max-rate 1Mpps --width 0x1
expect 2 'pvpkit: --width: "nan" must be like 0.005 or 0.5% (see --help)' \
	search --max-rate 1Mpps --width nan
expect 2 'pvpkit: --goal: "pdr=0x1%" must be ndr or pdr=RATIO (0.1%, 0.001) (see --help)' \
	search --max-rate 1Mpps --goal pdr=0x1%
expect 2 'pvpkit: --exceed-ratio: "inf%" must be in [0, 1), like 0.5 or 50% (see --help)' \
	search --max-rate 1Mpps --exceed-ratio inf%
expect 2 "pvpkit: --duration-sum: must be a positive number of seconds (see --help)" \
	search --max-rate 1Mpps --duration-sum " 1"
expect 2 "pvpkit: --phases: must be a count (see --help)" search --max-rate 1Mpps --phases 1,2
expect 2 'pvpkit: sizes: "64, 128" must be 64..9216 (comma-separated) (see --help)' \
	run --max-rate 1Mpps --sizes "64, 128"
expect 2 "pvpkit: --final-duration: must be a positive number of seconds (see --help)" \
	search --max-rate 1Mpps --final-duration=inf
expect 2 "pvpkit: --max-trials: must be a count (see --help)" search --max-rate 1Mpps --max-trials 0x5
expect 2 'pvpkit: --algo: "fast" must be mlr or binary (see --help)' search --max-rate 1Mpps --algo fast
expect 2 "pvpkit: search parameters: too many intermediate phases (see --help)" \
	search --max-rate 1Mpps --phases 010
expect 2 "pvpkit: --size: use --sizes for run, --size for search (see --help)" run --size 64
expect 2 "pvpkit: --out: only for run (see --help)" search --max-rate 1Mpps --out x
expect 2 'pvpkit: sizes: "64,63" must be 64..9216 (comma-separated) (see --help)' run --sizes 64,63
expect 2 'pvpkit: --flows: "1,2" must be 1..16777216 (a list for run, one count for search) (see --help)' \
	search --flows 1,2
expect 2 'pvpkit: unexpected argument "x" (see --help)' search x
expect 0 "Usage: pvpkit report RESULTS.jsonl [--out DIR]" report --help
expect 2 "pvpkit: report: usage: pvpkit report RESULTS.jsonl [--out DIR] (see --help)" report
expect 1 "pvpkit: report: $NOTOPO: No such file or directory" report "$NOTOPO"

# testbed: the script is found and given the run dir.
expect 2 "Usage: pvpkit testbed up|down|status [ARGS...]" testbed
expect 2 'pvpkit: testbed: unknown action "bogus" (up, down or status) (see pvpkit --help)' \
	testbed bogus
cat >"$PVP_TMP/tb.sh" <<'EOF'
#!/bin/sh
echo "script: $*"
exit 3
EOF
chmod +x "$PVP_TMP/tb.sh"
out=$(PVP_TESTBED_SCRIPT=$PVP_TMP/tb.sh PVP_TESTBED_RUNDIR=$PVP_TMP/rd "$PVP_COORD" testbed status -q)
rc=$?
[ "$rc" = 3 ] || bad "testbed status: exit $rc, expected the script's 3"
[ "$out" = "script: status -q --dir $PVP_TMP/rd" ] || bad "testbed status ran: $out"
out=$(PVP_TESTBED_SCRIPT=$PVP_TMP/tb.sh PVP_TESTBED_RUNDIR=$PVP_TMP/rd "$PVP_COORD" testbed up --dir /x)
[ "$out" = "script: up --dir /x" ] || bad "testbed up --dir ran: $out"
out=$(PVP_TESTBED_SCRIPT=$PVP_TMP/nothere.sh "$PVP_COORD" testbed status 2>&1)
rc=$?
[ "$rc" = 1 ] || bad "testbed with a missing script: exit $rc"
[ "$out" = "pvpkit: testbed: $PVP_TMP/nothere.sh: No such file or directory (set PVP_TESTBED_SCRIPT)" ] ||
	bad "testbed with a missing script said: $out"

# End to end against the pretend path: 80 kpps through a 50 kpps guest.
"$PVP_PY" "$HERE/fake_hops.py" "$PVP_TMP" 50000 &
pvp_track $!
for _ in $(seq 50); do
	[ -r "$PVP_TMP/topology.json" ] && break
	sleep 0.1
done
[ -r "$PVP_TMP/topology.json" ] || fail "fake_hops.py did not start"
T=$PVP_TMP/topology.json

# --flows 010 is ten (base 10, not octal), --duration 0.50 half a second.
"$PVP_COORD" trial --topology "$T" --rate 80kpps --duration 0.50 --flows 010 --json "$PVP_TMP/t.json" \
	--results "$PVP_TMP/t.jsonl" >"$PVP_TMP/trial.out" 2>&1 || bad "trial: exit $?"
grep -q "^  Packets received by guest p0:         25,000  \[Lost 15,000 (guest), Drop 15,000: rx_missed 15,000\]$" \
	"$PVP_TMP/trial.out" || bad "trial table: $(cat "$PVP_TMP/trial.out")"
grep -q "^  Lost by hop: tester 0, guest 15,000; unattributed 0$" "$PVP_TMP/trial.out" ||
	bad "trial: no per-hop loss line"
grep -q "^  Total lost 15,000 = tester TX 40,000 - RX 25,000 (37.5000 %)$" "$PVP_TMP/trial.out" ||
	bad "trial: no total line"
"$PVP_PY" - "$PVP_TMP/t.json" "$PVP_TMP/t.jsonl" <<'PY' || bad "trial JSON"
import json, sys
t = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().splitlines()
assert len(lines) == 1, lines
r = json.loads(lines[0])
for j in (t, r):
    if not (j["tx_packets"] == 40000 and j["rx_packets"] == 25000 and j["reconciled"]
            and j["flows"] == 10 and not j["invalid"] and j["dut_result"]
            and j["checks"]["signature"] == "ok" and j["max_burst"] == 40
            and j["checks"]["burst"] == "recorded" and j["findings"] == []):
        sys.exit("trial JSON: %s" % json.dumps(j)[:300])
PY
grep -q "^  Checks: signature ok (lost 15,000, dup 0, unsigned 0, unknown stream 0), drop counters ok, no negative loss, counters monotonic, largest burst 40$" \
	"$PVP_TMP/trial.out" || bad "trial: no checks line: $(cat "$PVP_TMP/trial.out")"

# --max-burst flags the trial (still a measurement: exit 0).
expect 2 'pvpkit: --max-burst: "0" must be an integer in 1..100000000' trial --max-burst 0
"$PVP_COORD" trial --topology "$T" --rate 80kpps --duration 0.5 --max-burst 32 \
	--json "$PVP_TMP/b.json" >"$PVP_TMP/burst.out" 2>&1 || bad "trial --max-burst: exit $?"
grep -q "^CHECK FAILED: burst: the generator sent 40 packets back to back ahead of its schedule (catch-up after a stall), over --max-burst 32$" \
	"$PVP_TMP/burst.out" || bad "trial --max-burst: $(cat "$PVP_TMP/burst.out")"
"$PVP_PY" -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(not (j["checks"]["burst"] == "failed" and j["max_burst_limit"] == 32 and not j["reconciled"] and j["dut_result"]))' \
	"$PVP_TMP/b.json" || bad "trial --max-burst JSON"

# The guest restarts during a trial: its counters go backwards. The trial
# is kept for the record but is invalid, names the hop, and exits 1.
fake_restart() {
	"$PVP_PY" - "$PVP_TMP/fwd.sock" "$1" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "fake.restart",
                      "params": {"times": int(sys.argv[2])}}).encode() + b"\n")
s.recv(4096)
PY
}
fake_restart 1
"$PVP_COORD" trial --topology "$T" --rate 80kpps --duration 0.5 --results "$PVP_TMP/inv.jsonl" \
	>"$PVP_TMP/inv.out" 2>"$PVP_TMP/inv.err"
rc=$?
[ "$rc" = 1 ] || bad "invalid trial: exit $rc, expected 1"
[ "$(cat "$PVP_TMP/inv.err")" = "pvpkit: trial invalid: hop guest: p0 rx_packets went backwards (50,000 -> 0) (and 5 more counters): the hop restarted or its counters were reset" ] ||
	bad "invalid trial said: $(cat "$PVP_TMP/inv.err")"
grep -q "^INVALID: this trial is not a measurement of the DUT$" "$PVP_TMP/inv.out" ||
	bad "invalid trial table: $(cat "$PVP_TMP/inv.out")"
"$PVP_PY" -c 'import json,sys; j=json.loads(open(sys.argv[1]).read()); sys.exit(not (j["invalid"] and not j["dut_result"] and j["checks"]["counter_backwards"] == "failed" and j["findings"][0]["hop"] == "guest"))' \
	"$PVP_TMP/inv.jsonl" || bad "invalid trial JSON: $(cat "$PVP_TMP/inv.jsonl")"

"$PVP_COORD" search --topology "$T" --max-rate 100kpps --initial-duration 0.05 \
	--final-duration 0.1 --no-tables --results "$PVP_TMP/s.jsonl" >"$PVP_TMP/search.out" 2>&1 ||
	bad "search: exit $?"
grep -q "^   ndr      ok: lower 50,000 pps, upper 50,[0-9]* pps, width 0.[0-9]* %$" \
	"$PVP_TMP/search.out" || bad "search: $(tail -3 "$PVP_TMP/search.out")"

# An invalid trial in a search is neither pass nor fail: kept, not fed to
# the search, run again; the search ends as without it.
fake_restart 1
"$PVP_COORD" search --topology "$T" --max-rate 100kpps --initial-duration 0.05 \
	--final-duration 0.1 --no-tables --results "$PVP_TMP/si.jsonl" >"$PVP_TMP/si.out" 2>&1 ||
	bad "search with an invalid trial: exit $?"
grep -q "^-- trial 1 (phase 0/[0-9]*): 100,000 pps for 0.1 s: lost [0-9,]* of [0-9,]* ([0-9.]* %) \[INVALID, not fed to the search\]$" \
	"$PVP_TMP/si.out" || bad "search: invalid trial not shown: $(head -5 "$PVP_TMP/si.out")"
grep -q "^pvpkit: trial 1 invalid: hop guest" "$PVP_TMP/si.out" || bad "search: no invalid line"
grep -q "^   ndr      ok: lower 50,000 pps, upper 50,[0-9]* pps, width 0.[0-9]* %$" \
	"$PVP_TMP/si.out" || bad "search after an invalid trial: $(tail -3 "$PVP_TMP/si.out")"
[ "$(grep -c '"invalid": *true' "$PVP_TMP/si.jsonl")" = 1 ] || bad "search: invalid trial not kept"
# A hop that restarts at every trial stops the search.
fake_restart 3
"$PVP_COORD" search --topology "$T" --max-rate 100kpps --initial-duration 0.05 \
	--final-duration 0.1 --no-tables --results "$PVP_TMP/sx.jsonl" >"$PVP_TMP/sx.out" 2>&1
rc=$?
[ "$rc" = 1 ] || bad "search with a hop restarting: exit $rc, expected 1"
grep -q "^pvpkit: trial 1 invalid 3 times in a row; search stopped$" "$PVP_TMP/sx.out" ||
	bad "search with a hop restarting: $(tail -3 "$PVP_TMP/sx.out")"
fake_restart 0

"$PVP_COORD" run --topology "$T" --max-rate 100kpps --initial-duration 0.05 --final-duration 0.1 \
	--no-tables --sizes 64,128 --flows 1,10 --out "$PVP_TMP/out" >"$PVP_TMP/run.out" 2>&1 ||
	bad "run: exit $?"
grep -q "^report: $PVP_TMP/out/ndr.csv$" "$PVP_TMP/run.out" || bad "run: no ndr.csv"
[ "$(grep -c '^   ndr      ok: lower 50,000 pps' "$PVP_TMP/run.out")" = 4 ] ||
	bad "run: not 4 searches at 50,000 pps"
rm "$PVP_TMP/out/ndr.csv"
out=$("$PVP_COORD" report "$PVP_TMP/out/results.jsonl" 2>&1) || bad "report: exit $?"
[ -s "$PVP_TMP/out/ndr.csv" ] || bad "report did not rebuild ndr.csv: $out"

[ "$nfail" = 0 ] || fail "$nfail check(s) failed"
echo "ok"
