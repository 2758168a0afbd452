#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# A short, seeded libFuzzer run of ctl_fuzz. New inputs go to a scratch
# corpus in the build dir (the first directory libFuzzer is given), never
# into the committed seed corpus.
# Usage: run_ctl_fuzz.sh CTL_FUZZ_BINARY SOURCE_DIR_OF_test/fuzz [extra libFuzzer args]
set -eu
bin=$1
src=$2
shift 2
scratch=${PVP_BUILD_DIR:-.}/test/fuzz/ctl-corpus
mkdir -p "$scratch"
exec "$bin" -seed=1 -runs=5000 -max_total_time=30 -rss_limit_mb=2048 \
	-dict="$src/ctl.dict" -artifact_prefix="$scratch/../" "$@" \
	"$scratch" "$src/corpus"
