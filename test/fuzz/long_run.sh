#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The long runs of doc/fuzzing.rst: each harness in turn (never two at
# once), at the lowest CPU priority, until 10 million executions or an
# hour, whichever comes first; then its closing statistics. The work
# corpus and any crash stay in OUT_DIR/NAME.
#
# Usage: test/fuzz/long_run.sh BUILD_DIR OUT_DIR [NAME...]   (default: all)
# Env:   PVP_FUZZ_RUNS (default 10000000), PVP_FUZZ_SECONDS (default 3600)
set -u
build=$1
out=$2
shift 2
src=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- $(ls "$src/corpus")
for name in "$@"; do
	bin=$build/test/fuzz/${name}_fuzz
	if [ ! -x "$bin" ]; then
		echo "$name: no $bin (needs a clang build)"
		continue
	fi
	mkdir -p "$out/$name/corpus"
	dict=
	[ -f "$src/$name.dict" ] && dict=-dict=$src/$name.dict
	start=$(date +%s)
	nice -n 19 "$bin" $dict -seed=1 -runs="${PVP_FUZZ_RUNS:-10000000}" \
		-max_total_time="${PVP_FUZZ_SECONDS:-3600}" -rss_limit_mb=2048 -timeout=60 \
		-print_final_stats=1 -artifact_prefix="$out/$name/" \
		"$out/$name/corpus" "$src/corpus/$name" >"$out/$name/log" 2>&1 </dev/null
	rc=$?
	echo "$name: exit $rc, $(($(date +%s) - start)) s"
	grep -E '^#[0-9]+[[:space:]]+DONE|^stat::number_of_executed_units|^stat::peak_rss' "$out/$name/log"
	ls "$out/$name" | grep -E '^(crash|leak|timeout|oom|slow-unit)-' || true
done
