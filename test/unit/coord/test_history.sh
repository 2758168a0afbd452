#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit history against two runs of fake_hops.py (no DPDK): add, list,
# trend and compare, their exit statuses, two writers at once, a corrupt
# database and the schema migration from version 0. About 20 s (two runs
# of three searches and four latency trials each).

. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/unit/coord/fake_lib.sh"
need_bin "$PVP_COORD"
need_cmd "$PVP_PY"

nfail=0
bad() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
H() { "$PVP_COORD" history --db "$DB" "$@"; }
DB=$PVP_TMP/h.db

# Usage errors first: nothing is opened or created for them.
out=$(H 2>&1)
[ $? = 2 ] && [ "$out" = "pvpkit: history: usage: pvpkit history [--db FILE] add [--tag TAG] RESULTS... | list | trend --point SIZE,FLOWS [--goal GOAL] [--svg FILE] | compare --baseline TAG (see --help)" ] ||
	bad "no command: $out"
out=$(H drop 2>&1)
[ $? = 2 ] && [ "$out" = 'pvpkit: history: "drop": not a history command (see --help)' ] ||
	bad "drop: $out"
[ -e "$DB" ] && bad "a usage error created the database"
out=$(H trend --goal ndr 2>&1)
[ $? = 2 ] && [ "$out" = "pvpkit: history: trend: --point SIZE,FLOWS needed (see --help)" ] ||
	bad "trend without --point: $out"
out=$(H trend --point 64 2>&1)
[ $? = 2 ] && [ "$out" = 'pvpkit: history: --point: "64" must be SIZE,FLOWS (see --help)' ] ||
	bad "trend --point 64: $out"
out=$(H add --tag x 2>&1)
[ $? = 2 ] && [ "$out" = "pvpkit: history: add: no results to add (see --help)" ] ||
	bad "add nothing: $out"
out=$(H add "$PVP_TMP/nonexistent" 2>&1)
[ $? = 1 ] && [ "$out" = "pvpkit: history: $PVP_TMP/nonexistent: No such file or directory" ] ||
	bad "add missing: $out"
out=$(H compare --baseline base 2>&1)
[ $? = 1 ] && [ "$out" = "pvpkit: history: $DB: no run tagged \"base\"" ] ||
	bad "compare on an empty history: $out"

# Two runs: a 50 kpps path, then a 40 kpps one (a regression beyond noise).
run() {
	fake_start "$PVP_TMP/f$1" "$1"
	"$PVP_COORD" run --topology "$PVP_TMP/f$1/topology.json" --max-rate 100kpps --sizes 64 \
		--flows 1 --initial-duration 0.05 --final-duration 0.1 --repeat 3 --no-tables \
		--goal ndr --goal pdr=1% --latency --latency-duration 0.1 --latency-low-rate 2kpps \
		--dut "fake, capacity $(($1 / 1000)) kpps" --out "$PVP_TMP/r$1" >"$PVP_TMP/r$1.out" 2>&1 ||
		bad "run $1: exit $?: $(tail -3 "$PVP_TMP/r$1.out")"
}
run 50000
run 40000
fast=$PVP_TMP/r50000
slow=$PVP_TMP/r40000

# Two writers at once on a new file: both land (WAL, busy timeout, the
# schema made under the write lock).
for i in 1 2 3; do
	"$PVP_COORD" history --db "$PVP_TMP/c$i.db" add "$fast" >"$PVP_TMP/c$i.a" 2>&1 &
	a=$!
	"$PVP_COORD" history --db "$PVP_TMP/c$i.db" add "$slow/results.jsonl" >"$PVP_TMP/c$i.b" 2>&1 &
	b=$!
	wait $a || bad "concurrent add $i a: $(cat "$PVP_TMP/c$i.a")"
	wait $b || bad "concurrent add $i b: $(cat "$PVP_TMP/c$i.b")"
	n=$("$PVP_COORD" history --db "$PVP_TMP/c$i.db" list | grep -c ' fake ')
	[ "$n" = 2 ] || bad "concurrent add $i: $n runs kept, expected 2"
done

out=$(H add --tag base "$fast" 2>&1)
[ $? = 0 ] && [ "$out" = "run 1: $fast, 1 points, tag base" ] || bad "add base: $out"
out=$(H add "$slow/results.jsonl" 2>&1)
[ $? = 0 ] && [ "$out" = "run 2: $slow/results.jsonl, 1 points" ] || bad "add slow: $out"
H list >"$PVP_TMP/list.out" 2>&1 || bad "list: exit $?"
[ "$(sed -n 1p "$PVP_TMP/list.out")" = " run started              tag          version  topology   points  source (dut)" ] ||
	bad "list header: $(sed -n 1p "$PVP_TMP/list.out")"
grep -Eq "^   1 20[0-9-]{8}T[0-9:]{8}Z base +[0-9.]+ +fake +1  $fast \(fake, capacity 50 kpps\)$" \
	"$PVP_TMP/list.out" || bad "list run 1: $(sed -n 2p "$PVP_TMP/list.out")"
grep -Eq "^   2 .* - +[0-9.]+ +fake +1  $slow/results.jsonl \(fake, capacity 40 kpps\)$" \
	"$PVP_TMP/list.out" || bad "list run 2: $(sed -n 3p "$PVP_TMP/list.out")"

# --db after the command reads as well.
[ "$("$PVP_COORD" history list --db "$DB" | wc -l)" = 3 ] || bad "list --db after the command"

# trend: each run's NDR with its range, the drop judged as compare would.
H trend --point 64,1 --goal ndr >"$PVP_TMP/trend.out" 2>&1 || bad "trend: exit $?"
grep -Eq '^   1 .* base +50,000 \[50,000\.\.50,251\] +0\.0%  -$' "$PVP_TMP/trend.out" ||
	bad "trend run 1: $(cat "$PVP_TMP/trend.out")"
grep -Eq '^   2 .* - +40,000 \[40,000\.\.40,201\] +0\.0%  REGRESSION$' "$PVP_TMP/trend.out" ||
	bad "trend run 2: $(cat "$PVP_TMP/trend.out")"
grep -q '^1 regression(s)$' "$PVP_TMP/trend.out" || bad "trend totals: $(tail -1 "$PVP_TMP/trend.out")"
# The same as a plot: a bar per run with its range, the regression marked.
H trend --point 64,1 --goal ndr --svg "$PVP_TMP/trend.svg" >"$PVP_TMP/trends.out" 2>&1 ||
	bad "trend --svg: exit $?"
grep -qx "plot: $PVP_TMP/trend.svg" "$PVP_TMP/trends.out" || bad "trend --svg said: $(cat "$PVP_TMP/trends.out")"
"$PVP_PY" - "$PVP_TMP/trend.svg" <<'PY' || bad "trend.svg: not the runs' bars"
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
bars = root.findall("s:rect", ns)
assert [b.get("class") for b in bars] == ["bar", "bar marked"], [b.get("class") for b in bars]
assert [b.find("s:title", ns).text for b in bars] == ["50000 pps", "40000 pps"]
assert len(root.findall("s:path[@class='range']", ns)) == 2
labels = [t.text for t in root.findall("s:text", ns)]
assert "run 1" in labels and "run 2" in labels, labels
PY
out=$(H trend --point 64,1 --svg /nonexistent/dir/t.svg 2>&1 >/dev/null)
[ $? = 1 ] && [ "$out" = "pvpkit: history: trend: /nonexistent/dir/t.svg: No such file or directory" ] ||
	bad "trend --svg into a missing directory: $out"
out=$(H trend --point 128,1 2>&1)
[ $? = 0 ] && [ "$(echo "$out" | tail -1)" = "0 regression(s)" ] || bad "trend, no such point: $out"

# compare: the latest run against the tagged one, exit 3 on a regression;
# then the fast run again as the latest, within noise.
H compare --baseline base >"$PVP_TMP/cmp.out" 2>&1
rc=$?
[ $rc = 3 ] || bad "compare down: exit $rc, expected 3: $(cat "$PVP_TMP/cmp.out")"
grep -q '^old: run 1 (base), new: run 2 (latest)$' "$PVP_TMP/cmp.out" || bad "compare runs"
grep -Eq '^ +64 +1 ndr +50,000 \[50,000\.\.50,251\] +40,000 \[40,000\.\.40,201\] +-20\.0 %  regression$' \
	"$PVP_TMP/cmp.out" || bad "compare row: $(cat "$PVP_TMP/cmp.out")"
# Latency too: 2 goals + 4 loads x 4 figures; the slow run's loads are
# lower rates, no latency regression.
grep -q '^18 compared, 2 regression(s), [0-9]* progression(s)$' "$PVP_TMP/cmp.out" ||
	bad "compare totals: $(tail -1 "$PVP_TMP/cmp.out")"
H add "$fast" >/dev/null 2>&1 || bad "add fast again"
H compare --baseline base >"$PVP_TMP/cmp2.out" 2>&1 &&
	grep -q '^18 compared, 0 regression(s), 0 progression(s)$' "$PVP_TMP/cmp2.out" ||
	bad "compare same: $(cat "$PVP_TMP/cmp2.out")"

# What was kept, by SQL: the schema version, WAL, the goals with their
# repeats, the per-hop losses of the trial nearest each NDR.
"$PVP_PY" - "$DB" <<'PY' || bad "database contents"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
assert c.execute("PRAGMA user_version").fetchone() == (1,)
assert c.execute("PRAGMA journal_mode").fetchone() == ("wal",)
g = c.execute("SELECT run, size, flows, goal, pps, repeats, spread, status FROM goals"
              " WHERE goal = 'ndr' ORDER BY run").fetchall()
assert [r[4] for r in g] == [50000, 40000, 50000], g
assert all(r[1:4] == (64, 1, "ndr") and r[5] == 3 and r[6] == 0 and r[7] == "ok" for r in g), g
h = c.execute("SELECT hop, trial_pps, lost FROM hops WHERE run = 2 AND goal = 'ndr'"
              " ORDER BY hop").fetchall()
assert h == [("guest", 40000, 0), ("tester", 40000, 0)], h
h = c.execute("SELECT hop, lost FROM hops WHERE run = 2 AND goal = 'pdr'").fetchall()
assert sorted(x[0] for x in h) == ["guest", "tester"] and any(x[1] > 0 for x in h), h
r = c.execute("SELECT topology, dut, pvpkit_version, tag, host FROM runs WHERE id = 1").fetchone()
assert r[:2] == ("fake", "fake, capacity 50 kpps") and r[2] and r[3] == "base", r
assert '"cpus"' in r[4], r
l = c.execute("SELECT load_pct, rate_pps, p50_ns, p99_ns, max_ns FROM latency WHERE run = 2"
              " ORDER BY load_pct").fetchall()
assert [x[0] for x in l] == [0, 10, 50, 90], l
assert l[0][1] == 2000 and all(x[2] > 0 and x[3] >= x[2] and x[4] >= x[3] for x in l), l
PY

# A corrupt database: one line, exit 1, the file and the results untouched.
head -c 8192 /dev/urandom >"$PVP_TMP/bad.db"
sum() { find "$fast" "$PVP_TMP/bad.db" -type f -exec md5sum {} + | sort; }
before=$(sum)
for cmd in "add $fast" list "trend --point 64,1" "compare --baseline base"; do
	# shellcheck disable=SC2086
	out=$("$PVP_COORD" history --db "$PVP_TMP/bad.db" $cmd 2>&1)
	[ $? = 1 ] && [ "$out" = "pvpkit: history: $PVP_TMP/bad.db: file is not a database" ] ||
		bad "corrupt database, $cmd: $out"
done
[ "$(sum)" = "$before" ] || bad "a corrupt database changed files"

# Migration: a version 0 file (a database sqlite made, tables of its
# own) gets the schema and keeps its tables; a newer version is refused.
"$PVP_PY" -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE notes (t)"); c.execute("INSERT INTO notes VALUES (1)"); c.commit()' "$PVP_TMP/v0.db"
out=$("$PVP_COORD" history --db "$PVP_TMP/v0.db" add "$slow" 2>&1)
[ $? = 0 ] && [ "$out" = "run 1: $slow, 1 points" ] || bad "add to a version 0 file: $out"
"$PVP_PY" -c '
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
assert c.execute("PRAGMA user_version").fetchone() == (1,)
assert c.execute("SELECT count(*) FROM notes").fetchone() == (1,)
assert c.execute("SELECT count(*) FROM goals").fetchone() == (2,)' "$PVP_TMP/v0.db" ||
	bad "version 0 migrated"
"$PVP_PY" -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA user_version = 9"); c.commit()' "$PVP_TMP/v9.db"
out=$("$PVP_COORD" history --db "$PVP_TMP/v9.db" list 2>&1)
[ $? = 1 ] && [ "$out" = "pvpkit: history: $PVP_TMP/v9.db: schema version 9, this pvpkit knows up to 1: use a newer pvpkit" ] ||
	bad "newer schema: $out"

# The default database: $PVP_HISTORY_DB, else under $HOME (made).
out=$(PVP_HISTORY_DB=$PVP_TMP/env.db "$PVP_COORD" history add "$fast" 2>&1)
[ $? = 0 ] && [ -s "$PVP_TMP/env.db" ] || bad "PVP_HISTORY_DB: $out"
out=$(HOME=$PVP_TMP/home PVP_HISTORY_DB= "$PVP_COORD" history list 2>&1)
[ $? = 0 ] && [ -s "$PVP_TMP/home/.local/share/pvpkit/history.sqlite" ] || bad "HOME default: $out"
mkdir -p "$PVP_TMP/home2" && : >"$PVP_TMP/home2/.local"
out=$(HOME=$PVP_TMP/home2 PVP_HISTORY_DB= "$PVP_COORD" history list 2>&1)
[ $? = 1 ] && [ "$out" = "pvpkit: history: $PVP_TMP/home2/.local/share/pvpkit: Not a directory" ] ||
	bad "HOME default not made: $out"

[ $nfail = 0 ] || fail "$nfail check(s) failed"
echo "PASS"
