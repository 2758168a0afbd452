#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# MLR against binary search on a path whose answer is known: the local
# OVS-DPDK testbed with an ingress policer on the guest's port (OVS
# counts a 64 B frame as 64 - 4 - 14 = 46 B, so CAP pps is a policing
# rate of CAP * 46 * 8 bit/s). Both algorithms search NDR and PDR 0.5 %
# with the same width, maximum rate and final duration, side by side in
# each run (the order alternates between runs); the table gives per final
# duration the trial-seconds of each and where they went (per phase;
# generator-limited and invalid trials, losses MLR doubted and measured
# again), the ratio MLR / binary (median
# and spread over the runs), every search's bounds against the cap, and
# per algorithm the median and spread of those bounds.
#
# usage: tools/bench/mlr_bench.sh [-b BUILD_DIR] [-r RUNS] [-f 'FINAL_S ...']
#                                 [-c CAP_PPS] [-m MAX_RATE] [-B BURST_KB]
#                                 [-w WIDTH] [-o OUT_DIR] [-a 'MORE SEARCH OPTIONS']
#   e.g. tools/bench/mlr_bench.sh -b build -r 3 -f '10 3'
#   defaults: 3 runs, final trials of 10 and 3 s, cap 80000 pps, max rate
#   200kpps, policer burst 500 kb, width 0.5%; -o keeps the results files.
# Needs root, hugepages and OVS-DPDK, and the machine to itself (one
# OVS-DPDK testbed at a time): run it under the heavy lock. A run of the
# defaults takes about 20 minutes.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
BUILD=$SRC/build
RUNS=3
FINALS="10 3"
CAP=80000
MAX_RATE=200kpps
BURST_KB=500
WIDTH=0.5%
OUT=""
MORE=""
while getopts "b:r:f:c:m:B:w:o:a:" o; do
	case $o in
	b) BUILD=$OPTARG ;;
	r) RUNS=$OPTARG ;;
	f) FINALS=$OPTARG ;;
	c) CAP=$OPTARG ;;
	m) MAX_RATE=$OPTARG ;;
	B) BURST_KB=$OPTARG ;;
	w) WIDTH=$OPTARG ;;
	o) OUT=$OPTARG ;;
	a) MORE=$OPTARG ;;
	*) sed -n '2,24p' "$0"; exit 2 ;;
	esac
done
COORD=$BUILD/app/pvpkit/pvpkit
PY=/usr/bin/python3
[ -x "$COORD" ] || { echo "not built: $COORD" >&2; exit 2; }
[ -x /usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk ] ||
	{ echo "needs OVS-DPDK (tools/bootstrap.sh)" >&2; exit 2; }
if pgrep -x ovs-vswitchd >/dev/null 2>&1 || pgrep -f ovs-vswitchd-dpdk >/dev/null 2>&1; then
	echo "another ovs-vswitchd runs: one OVS-DPDK testbed at a time" >&2
	exit 2
fi
TMP=$(mktemp -d /tmp/mlr-bench.XXXXXX)
[ -n "$OUT" ] || OUT=$TMP/results
mkdir -p "$OUT" || exit 2
TB=$TMP/tb

tb() {
	PVP_TESTBED_SCRIPT="$SRC/tools/testbed.sh" "$COORD" testbed "$@" --dir "$TB" \
		--build-dir "$BUILD"
}
cleanup() {
	tb down -q >/dev/null 2>&1
	# The testbed and its log go; -o's results are elsewhere and stay.
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$TB"
tb up -q >"$TMP/tb-up.log" 2>&1 || { cat "$TMP/tb-up.log"; exit 1; }
grep -q '"driver": "ovs"' "$TB/topology.json" ||
	{ echo "the testbed came up without OVS-DPDK" >&2; exit 1; }
KBPS=$("$PY" -c "print(round($CAP * (64 - 4 - 14) * 8 / 1000))")
env OVS_RUNDIR="$TB" OVS_DBDIR="$TB" OVS_LOGDIR="$TB" ovs-vsctl --db="unix:$TB/db.sock" \
	--timeout=10 set Interface vhost0 ingress_policing_rate="$KBPS" \
	ingress_policing_burst="$BURST_KB" || exit 1
echo "# policer on vhost0: $KBPS kbit/s = $CAP pps of 64 B, burst $BURST_KB kb"

# One search; its record goes to $OUT/F-ALGO-RUN.jsonl.
search() {
	local algo=$1 final=$2 run=$3
	local res=$OUT/$final-$algo-$run.jsonl
	rm -f "$res"
	# shellcheck disable=SC2086
	"$COORD" search --topology "$TB/topology.json" --size 64 --flows 1 --algo "$algo" \
		--goal ndr --goal pdr=0.5% --width "$WIDTH" --max-rate "$MAX_RATE" \
		--min-rate 10kpps --final-duration "$final" --no-tables --results "$res" \
		$MORE >"$OUT/$final-$algo-$run.out" 2>&1
	echo "# $algo final $final s run $run: exit $? ($(grep -c '^-- trial' \
		"$OUT/$final-$algo-$run.out") trials)"
}

for final in $FINALS; do
	for run in $(seq 1 "$RUNS"); do
		if [ $((run % 2)) = 1 ]; then
			search binary "$final" "$run"
			search mlr "$final" "$run"
		else
			search mlr "$final" "$run"
			search binary "$final" "$run"
		fi
	done
done

# shellcheck disable=SC2086 # the final durations are words
"$PY" "$HERE/mlr_bench_summary.py" "$OUT" "$CAP" "$RUNS" $FINALS
