#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The main job, from a fresh clone on Debian 12, as root: install and
# build (tools/bootstrap.sh), bring the local OVS-DPDK testbed up, run a
# short trial at 64 B, print the per-hop table, write the trial JSON to
# the results directory, and take the testbed down (also on failure or
# Ctrl-C).
#
# Usage: sudo tools/quickstart.sh [--build-dir DIR] [--results DIR]
#                                 [--rate RATE] [--duration S] [--flows N]
#                                 [--size B] [--no-bootstrap] [--search]
#
# --search also runs `pvpkit run`: NDR/PDR searches at 64 and 1518 B with
# 1 and 1000 flows (short trials), then summary JSON, CSV and plots in the
# results directory.
# Env:   PVP_BUILD_DIR (default build), PVP_RESULTS_DIR (default results)
#
# The machine has 2 cores and the generator, the OVS PMD and the guest all
# poll, so the default rate is modest (100 kpps); see doc/pvp.rst.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${PVP_BUILD_DIR:-$top/build}
results_dir=${PVP_RESULTS_DIR:-$top/results}
rate=100kpps
duration=5
flows=1000
size=64
bootstrap=true
search=false

die() { echo "quickstart: error: $*" >&2; exit 1; }
say() { echo "quickstart: $*"; }

while [ $# -gt 0 ]; do
	case "$1" in
	--build-dir) build_dir=${2:?--build-dir needs a path}; shift 2 ;;
	--results) results_dir=${2:?--results needs a path}; shift 2 ;;
	--rate) rate=${2:?--rate needs a rate}; shift 2 ;;
	--duration) duration=${2:?--duration needs seconds}; shift 2 ;;
	--flows) flows=${2:?--flows needs a count}; shift 2 ;;
	--size) size=${2:?--size needs bytes}; shift 2 ;;
	--no-bootstrap) bootstrap=false; shift ;;
	--search) search=true; shift ;;
	-h | --help) sed -n '4,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done

[ "$(id -u)" = 0 ] || die "run as root: sudo $0 (hugepages, OVS-DPDK, /run/pvpkit)"

if $bootstrap && [ -x "$top/tools/bootstrap.sh" ]; then
	say "bootstrap: packages, hugepages, build into $build_dir"
	"$top/tools/bootstrap.sh" --build-dir "$build_dir"
fi
if [ ! -f "$build_dir/build.ninja" ]; then
	say "meson setup $build_dir"
	meson setup "$build_dir" "$top" >/dev/null
fi
say "ninja -C $build_dir"
ninja -C "$build_dir" >/dev/null || die "build failed (run: ninja -C $build_dir)"

pvpkit=$build_dir/app/pvpkit/pvpkit
[ -x "$pvpkit" ] || die "not built: $pvpkit"
export PVP_BUILD_DIR=$build_dir
export PVP_TESTBED_SCRIPT=$top/tools/testbed.sh

tb_down() {
	say "testbed down"
	"$pvpkit" testbed down -q || echo "quickstart: warning: testbed down failed" >&2
}

# A testbed left from an earlier run is taken down first: down is idempotent.
"$pvpkit" testbed down -q >/dev/null 2>&1 || true
trap tb_down EXIT
trap 'exit 130' INT TERM
say "testbed up"
"$pvpkit" testbed up

mkdir -p "$results_dir"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
json=$results_dir/trial-$stamp.json
say "trial: $size B, $flows flows, $rate for $duration s"
echo
"$pvpkit" trial --size "$size" --flows "$flows" --rate "$rate" --duration "$duration" \
	--json "$json" --results "$results_dir/results.jsonl"
echo
say "trial JSON: $json"
say "all trials: $results_dir/results.jsonl"

if $search; then
	say "search: NDR and PDR 0.1 % at 64 and 1518 B x 1 and 1000 flows"
	"$pvpkit" run --sizes 64,1518 --flows 1,1000 --max-rate "$rate" --min-rate 1kpps \
		--goal ndr --goal pdr=0.1% --width 2% --initial-duration 0.5 \
		--final-duration 2 --max-time 60 --no-tables --out "$results_dir"
fi
