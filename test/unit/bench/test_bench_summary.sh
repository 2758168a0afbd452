#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The summaries of tools/bench/gen_bench.sh and fwd_bench.sh with -B on
# fixed results (no DPDK): per-tool medians over the runs that read, a
# failed run shown as "-", the after/before and reference ratios taken run
# by run, a base that failed every run said so; and bench_ab.py rev names
# the commit of a build directory's source tree. Under a second.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
need_cmd "$PVP_PY"

B=$PVP_SOURCE_DIR/tools/bench
T=$PVP_SOURCE_DIR/test/unit/bench
nfail=0
bad() { echo "FAIL: $*"; nfail=$((nfail + 1)); }

"$PVP_PY" "$B/gen_bench_summary.py" "$T/gen.txt" 2000000000 >"$PVP_TMP/gen.out" 2>&1 ||
	bad "gen_bench_summary.py exited $?"
diff -u "$T/gen.expected" "$PVP_TMP/gen.out" || bad "gen_bench_summary.py output differs"
"$PVP_PY" "$B/fwd_bench_summary.py" "$T/fwd.txt" >"$PVP_TMP/fwd.out" 2>&1 ||
	bad "fwd_bench_summary.py exited $?"
diff -u "$T/fwd.expected" "$PVP_TMP/fwd.out" || bad "fwd_bench_summary.py output differs"

rev=$("$PVP_PY" "$B/bench_ab.py" rev "$PVP_BUILD_DIR")
if head=$(git -C "$PVP_SOURCE_DIR" rev-parse --short HEAD 2>/dev/null); then
	case $rev in
	"$head" | "$head+changes") ;;
	*) bad "rev of the build directory: '$rev', HEAD is $head" ;;
	esac
fi
rev=$("$PVP_PY" "$B/bench_ab.py" rev "$PVP_TMP")
[ "$rev" = unknown ] || bad "rev of a directory that is no build: '$rev'"

[ $nfail = 0 ] || exit 1
echo "ok: bench summaries and bench_ab.py rev"
