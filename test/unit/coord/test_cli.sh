#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The pvpkit command line, no DPDK: the command table, then trial,
# search, run and report end to end against
# fake_hops.py (a pretend gen and fwd whose forwarder passes at most
# 50,000 pps), and testbed with a stand-in script.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
need_bin "$PVP_COORD"
need_cmd "$PVP_PY"

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

# Every refused option value and file is a case of the bad-input table
# (test/unit/badinput/pvpkit); here what is accepted.
expect 0 "Usage: pvpkit trial [OPTIONS]" trial --help
expect 2 "pvpkit: $NOTOPO: No such file or directory" trial --topology "$NOTOPO"
# Base 10: a leading zero is not octal; durations take a unit, rates any
# unit the source understands.
expect 2 "pvpkit: $NOTOPO: No such file or directory" trial --flows 010 --duration 500ms \
	--warmup 0.5 --rate 5Gbps --topology "$NOTOPO"
expect 2 "pvpkit: $NOTOPO: No such file or directory" trial --rate 10% --duration 1m \
	--topology "$NOTOPO"
# The default topology is the testbed's.
out=$(PVP_TESTBED_RUNDIR=$PVP_TMP/tb "$PVP_COORD" trial 2>&1)
[ "$out" = "pvpkit: $PVP_TMP/tb/topology.json: No such file or directory" ] ||
	bad "default topology: $out"

# search, run, report.
expect 0 "Usage: pvpkit search --max-rate RATE [OPTIONS]" search --help
expect 0 "Usage: pvpkit run --max-rate RATE [OPTIONS]" run --help
expect 0 "Usage: pvpkit report RESULTS.jsonl [--out DIR] [--html]" report --help

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
. "$PVP_SOURCE_DIR/test/unit/coord/fake_lib.sh"
fake_start "$PVP_TMP" 50000
T=$PVP_TMP/topology.json

# --flows 010 is ten (base 10, not octal), --duration 0.50 half a second.
"$PVP_COORD" trial --topology "$T" --rate 80kpps --duration 0.50 --flows 010 --json "$PVP_TMP/t.json" \
	--results "$PVP_TMP/t.jsonl" >"$PVP_TMP/trial.out" 2>&1 || bad "trial: exit $?"
grep -q "^  Packets received by guest p0:         25,000  \[Lost 15,000 (guest), Drop 15,000: rx_missed 15,000\]$" \
	"$PVP_TMP/trial.out" || bad "trial table: $(cat "$PVP_TMP/trial.out")"
grep -q "^  Lost by hop: tester 0, guest 15,000 (rx_missed 15,000); unattributed 0$" "$PVP_TMP/trial.out" ||
	bad "trial: no per-hop loss line"
grep -q "^  Total lost 15,000 = tester TX 40,000 - RX 25,000 (37.5000 %)$" "$PVP_TMP/trial.out" ||
	bad "trial: no total line"
"$PVP_PY" - "$PVP_TMP/t.json" "$PVP_TMP/t.jsonl" <<'PY' || bad "trial JSON"
import json, sys
t = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().splitlines()
if len(lines) != 1:
    sys.exit(lines)
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

# --max-burst flags the trial: still a measurement, kept and written, but
# a failed check is its own exit status, 4, so a CI gating on it sees it.
expect 2 'pvpkit: --max-burst: "0" must be a whole number in 1..100000000' trial --max-burst 0
"$PVP_COORD" trial --topology "$T" --rate 80kpps --duration 0.5 --max-burst 32 \
	--json "$PVP_TMP/b.json" >"$PVP_TMP/burst.out" 2>"$PVP_TMP/burst.err"
rc=$?
[ "$rc" = 4 ] || bad "trial --max-burst: exit $rc, expected 4"
[ "$(cat "$PVP_TMP/burst.err")" = "pvpkit: trial measured, but 1 check(s) failed (CHECK FAILED above)" ] ||
	bad "trial --max-burst said: $(cat "$PVP_TMP/burst.err")"
grep -q "^CHECK FAILED: burst: the generator sent 40 packets back to back ahead of its schedule (catch-up after a stall), over --max-burst 32$" \
	"$PVP_TMP/burst.out" || bad "trial --max-burst: $(cat "$PVP_TMP/burst.out")"
"$PVP_PY" -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(not (j["checks"]["burst"] == "failed" and j["max_burst_limit"] == 32 and not j["reconciled"] and j["dut_result"]))' \
	"$PVP_TMP/b.json" || bad "trial --max-burst JSON"

# The guest restarts during a trial: its counters go backwards. The trial
# is kept for the record but is invalid, names the hop, and exits 1.
fake_restart() {
	fake_call "$PVP_TMP/fwd.sock" fake.restart "{\"times\": $1}"
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

# A profile's search names the profile in its heading, not the size and
# flows it does not use.
"$PVP_COORD" search --topology "$T" --max-rate 100kpps --initial-duration 0.05 \
	--final-duration 0.1 --no-tables --profile "$PVP_SOURCE_DIR/examples/profiles/imix.json" \
	--results "$PVP_TMP/sp.jsonl" >"$PVP_TMP/sp.out" 2>&1 || bad "search --profile: exit $?"
grep -Eq "^== search [^ ]+: profile imix.json, mlr, max 100,000 pps, width 0.50 %$" "$PVP_TMP/sp.out" ||
	bad "search --profile heading: $(grep '^== search' "$PVP_TMP/sp.out")"

# A goal no rate passes (the path forwards 50 kpps, the search starts at
# 60 kpps) says why: the lowest rate's loss and the hop it was charged to.
"$PVP_COORD" search --topology "$T" --max-rate 100kpps --min-rate 60kpps --initial-duration 0.05 \
	--final-duration 0.1 --no-tables --results "$PVP_TMP/sb.jsonl" >"$PVP_TMP/sb.out" 2>&1 ||
	bad "search below the minimum rate: exit $?"
grep -q "^   ndr      below-min: lower - pps, upper 60,000 pps" "$PVP_TMP/sb.out" &&
	grep -qE "^   ndr      no rate passes: at 60,000 pps \(trial [0-9]+, the lowest tried\) the loss was 16\.[0-9]{4} %, over the goal's 0\.0000 %; lost at: guest ([0-9,]+) \\(rx_missed \\1\\), unattributed 0$" \
		"$PVP_TMP/sb.out" || bad "search below the minimum rate: $(tail -3 "$PVP_TMP/sb.out")"

# An invalid trial in a search is neither pass nor fail: kept, not fed to
# the search, run again; the search ends as without it.
fake_restart 1
"$PVP_COORD" search --topology "$T" --max-rate 100kpps --initial-duration 0.05 \
	--final-duration 0.1 --no-tables --results "$PVP_TMP/si.jsonl" >"$PVP_TMP/si.out" 2>&1 ||
	bad "search with an invalid trial: exit $?"
grep -q "^-- trial 1 (phase 0/[0-9]*): 100,000 pps for 0.0 s: lost [0-9,]* of [0-9,]* ([0-9.]* %) \[INVALID, not fed to the search\]$" \
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

# A failed check in a search's trials (every trial's burst of 40 over
# --max-burst 32): the trials are measured and fed to the search, but the
# summary names them, the search record lists them, and the exit status
# is 4; so do repeated searches, a run and a soak's search.
S="search --topology $T --max-rate 100kpps --initial-duration 0.05 --final-duration 0.1 --no-tables"
# shellcheck disable=SC2086 # $S is words
"$PVP_COORD" $S --max-burst 32 --results "$PVP_TMP/sc.jsonl" >"$PVP_TMP/sc.out" 2>"$PVP_TMP/sc.err"
rc=$?
[ "$rc" = 4 ] || bad "search with failed checks: exit $rc, expected 4"
grep -q "^   ndr      ok: lower 50,000 pps" "$PVP_TMP/sc.out" || bad "search with failed checks: no result"
grep -q "^   CHECK FAILED in 4 trial(s): 1, 2, 3, 4 (see their tables; measured and fed to the search)$" \
	"$PVP_TMP/sc.out" || bad "search with failed checks: summary $(tail -4 "$PVP_TMP/sc.out")"
[ "$(cat "$PVP_TMP/sc.err")" = "pvpkit: 4 trial(s) measured with a failed check (\"[checks failed]\" above)" ] ||
	bad "search with failed checks said: $(cat "$PVP_TMP/sc.err")"
"$PVP_PY" -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; s=[x for x in r if x.get("type") == "search"][-1]; sys.exit(s["checks_failed"] != [1, 2, 3, 4])' \
	"$PVP_TMP/sc.jsonl" || bad "search record: no checks_failed"
# shellcheck disable=SC2086
"$PVP_COORD" $S --max-burst 32 --repeat 2 --results "$PVP_TMP/sr.jsonl" >"$PVP_TMP/sr.out" 2>&1
rc=$?
[ "$rc" = 4 ] || bad "repeated searches with failed checks: exit $rc, expected 4"
grep -q "^   CHECK FAILED in 8 trial(s) of these searches$" "$PVP_TMP/sr.out" ||
	bad "repeats summary: $(grep -A4 '^== repeats' "$PVP_TMP/sr.out")"
"$PVP_COORD" run --topology "$T" --max-rate 100kpps --initial-duration 0.05 --final-duration 0.1 \
	--no-tables --sizes 64 --flows 1 --max-burst 32 --latency-loads 50 --latency-duration 0.1 \
	--out "$PVP_TMP/runc" >"$PVP_TMP/runc.out" 2>"$PVP_TMP/runc.err"
rc=$?
[ "$rc" = 4 ] || bad "run with failed checks: exit $rc, expected 4"
[ -s "$PVP_TMP/runc/ndr.csv" ] || bad "run with failed checks: no reports"
grep -q "^-- latency 50 % (25,000 pps): lost 0 of 2,500; .* \[checks failed\]$" "$PVP_TMP/runc.out" ||
	bad "run: latency trial with a failed check: $(grep '^-- latency' "$PVP_TMP/runc.out")"
[ "$(cat "$PVP_TMP/runc.err")" = 'pvpkit: 5 trial(s) measured with a failed check ("[checks failed]" above)' ] ||
	bad "run with failed checks said: $(cat "$PVP_TMP/runc.err")"
"$PVP_COORD" soak --topology "$T" --pdr-fraction 0.9 --duration 0.4 --interval 0.2 \
	--max-rate 100kpps --initial-duration 0.05 --final-duration 0.1 --no-tables --goal pdr=1% \
	--max-burst 32 --out "$PVP_TMP/soakc" >"$PVP_TMP/soakc.out" 2>"$PVP_TMP/soakc.err"
rc=$?
[ "$rc" = 4 ] || bad "soak after a search with failed checks: exit $rc, expected 4"
# The totals line says how long it ran: 0.4 s, more on a loaded CPU.
grep -Eq "^soak +[0-9.]+ s: tx " "$PVP_TMP/soakc.out" || bad "soak did not run after its search's failed checks"
[ "$(tail -1 "$PVP_TMP/soakc.err")" = "pvpkit: soak measured, but a check failed in the search before it (CHECK FAILED above)" ] ||
	bad "soak with failed checks said: $(cat "$PVP_TMP/soakc.err")"

# pvpkit-gen's answer is read through the table it is written with: a
# member of the wrong type is an error naming it, never a 0.
fake_call "$PVP_TMP/gen.sock" fake.bad_traffic '{"achieved_pps": "fast"}'
"$PVP_COORD" trial --topology "$T" --rate 10kpps --duration 0.1 >"$PVP_TMP/badans.out" \
	2>"$PVP_TMP/badans.err"
rc=$?
fake_call "$PVP_TMP/gen.sock" fake.bad_traffic '{}'
[ "$rc" = 1 ] || bad "trial with a bad gen answer: exit $rc, expected 1"
grep -q "stats.get answer: traffic.achieved_pps: must be a number in 0\.\." "$PVP_TMP/badans.err" ||
	bad "trial with a bad gen answer said: $(cat "$PVP_TMP/badans.err")"

# A guest that counts more drops than it lost fails the drops check of a
# soak's totals (read once the counters settled): exit 4, said on stderr.
fake_call "$PVP_TMP/fwd.sock" fake.extra_drops '{"n": 7}'
"$PVP_COORD" soak --topology "$T" --rate 40kpps --duration 0.4 --interval 0.2 \
	--out "$PVP_TMP/soakd" >"$PVP_TMP/soakd.out" 2>"$PVP_TMP/soakd.err"
rc=$?
fake_call "$PVP_TMP/fwd.sock" fake.extra_drops '{"n": 0}'
[ "$rc" = 4 ] || bad "soak with failed checks in its totals: exit $rc, expected 4"
grep -q "^CHECK FAILED: .*guest" "$PVP_TMP/soakd.out" || bad "soak totals: no CHECK FAILED line: $(cat "$PVP_TMP/soakd.out")"
[ "$(cat "$PVP_TMP/soakd.err")" = "pvpkit: soak measured, but a check failed in its totals (CHECK FAILED above)" ] ||
	bad "soak with failed totals said: $(cat "$PVP_TMP/soakd.err")"

# The tester catches up in bursts of 300 packets whenever it sends over the
# guest's 50 kpps (a policer's bucket it overflows): by default
# (--max-burst auto) the summary names the lossy trials at or below the
# upper bound (3 at 50,251 pps; not 1, above it) whose burst was
# over the 40 the path took without loss; the search record keeps it;
# still exit 0 (a warning, not a failed check). --max-burst off: silent.
fake_call "$PVP_TMP/gen.sock" fake.burst '{"over_cap": 300}'
# shellcheck disable=SC2086
"$PVP_COORD" $S --results "$PVP_TMP/sb.jsonl" >"$PVP_TMP/sb.out" 2>&1 || bad "search, bursts: exit $?"
grep -q "^   warning: trial(s) 3, at or below an upper bound, lost packets after bursts of up to 300 packets, over the 40 the path took without loss (trial 2): the bound may be the tester's, not the DUT's (--max-burst, doc/search.rst)$" \
	"$PVP_TMP/sb.out" || bad "search, bursts: $(tail -3 "$PVP_TMP/sb.out")"
"$PVP_PY" -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; s=[x for x in r if x.get("type") == "search"][-1]; sys.exit(s["burst_warning"] != {"absorbed": 40, "absorbed_trial": 2, "largest_burst": 300, "trials": [3]} or "checks_failed" in s)' \
	"$PVP_TMP/sb.jsonl" || bad "search record: burst_warning $(tail -1 "$PVP_TMP/sb.jsonl")"
# shellcheck disable=SC2086
"$PVP_COORD" $S --repeat 2 --results "$PVP_TMP/sbr.jsonl" >"$PVP_TMP/sbr.out" 2>&1 ||
	bad "repeated searches, bursts: exit $?"
grep -q "^   warning: 2 search(es) had a bound set by lossy trials with bursts over what the path took without loss$" \
	"$PVP_TMP/sbr.out" || bad "repeats summary, bursts: $(grep -A4 '^== repeats' "$PVP_TMP/sbr.out")"
# shellcheck disable=SC2086
"$PVP_COORD" $S --max-burst off --results "$PVP_TMP/so.jsonl" >"$PVP_TMP/so.out" 2>&1 ||
	bad "search --max-burst off: exit $?"
! grep -q "warning" "$PVP_TMP/so.out" || bad "search --max-burst off warned"
expect 2 'pvpkit: --max-burst: "auto1" must be a whole number in 1..100000000' search --max-rate 1Mpps --max-burst auto1
fake_call "$PVP_TMP/gen.sock" fake.burst '{"over_cap": 0}'

"$PVP_COORD" run --topology "$T" --max-rate 100kpps --initial-duration 0.05 --final-duration 0.1 \
	--no-tables --sizes 64,128 --flows 1,10 --out "$PVP_TMP/out" >"$PVP_TMP/run.out" 2>&1 ||
	bad "run: exit $?"
grep -q "^report: $PVP_TMP/out/ndr.csv$" "$PVP_TMP/run.out" || bad "run: no ndr.csv"
# A run's reports include the page, by default, linking its records.
grep -q "^report: $PVP_TMP/out/report.html$" "$PVP_TMP/run.out" || bad "run: no report.html"
grep -q 'href="results.jsonl"' "$PVP_TMP/out/report.html" || bad "run: report.html does not link results.jsonl"
[ "$(grep -c '^   ndr      ok: lower 50,000 pps' "$PVP_TMP/run.out")" = 4 ] ||
	bad "run: not 4 searches at 50,000 pps"
rm "$PVP_TMP/out/ndr.csv"
out=$("$PVP_COORD" report "$PVP_TMP/out/results.jsonl" 2>&1) || bad "report: exit $?"
[ -s "$PVP_TMP/out/ndr.csv" ] || bad "report did not rebuild ndr.csv: $out"

[ "$nfail" = 0 ] || fail "$nfail check(s) failed"
echo "ok"
