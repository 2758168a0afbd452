#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# A short, seeded libFuzzer run of one harness: its seed corpus
# test/fuzz/corpus/NAME and dictionary test/fuzz/NAME.dict (when there is
# one). New inputs go to a scratch corpus in the build dir (the first
# directory libFuzzer is given), never into the committed seed corpus;
# a crash is saved next to it as NAME-crash-*.
#
# Usage: run_fuzz.sh NAME BINARY SOURCE_DIR_OF_test/fuzz [extra libFuzzer args]
# Env:   PVP_FUZZ_SECONDS (default 20), PVP_BUILD_DIR (scratch corpus root)
set -eu
name=$1
bin=$2
src=$3
shift 3
scratch=${PVP_BUILD_DIR:-.}/test/fuzz/scratch/$name
mkdir -p "$scratch"
set -- -seed=1 -max_total_time="${PVP_FUZZ_SECONDS:-20}" -rss_limit_mb=2048 -timeout=30 \
	-print_final_stats=1 -artifact_prefix="$scratch/../$name-" "$@"
[ -f "$src/$name.dict" ] && set -- -dict="$src/$name.dict" "$@"
exec "$bin" "$@" "$scratch" "$src/corpus/$name" </dev/null
