#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-gen against dpdk-testpmd, side by side in one run, one TX core,
# into net_null0,no-rx=1. Same EAL options and the same CPU for the
# sending core for every tool (-l 0-1 --main-lcore 1: the sender is lcore
# 0). Every tool's rate is read the same way: its port counters through
# DPDK telemetry (/ethdev/stats), after a warm-up, per wall-clock second
# and per CPU second the sending thread got. Tools alternate within each
# run; the tables give the median and spread over the runs, and the ratios
# run by run (bench_ab.py).
#
# -B BASE_BUILD_DIR also runs the pvpkit-gen of a second build (the
# "before", tool "base") on the same cases, between this build's run and
# testpmd's in every run (gen base testpmd, then testpmd base gen, ...), and
# prints gen / base per case: is a change free?
#
# Cases:  a  64 B, 1 flow          pvpkit-gen vs testpmd txonly
#         b  64 B, 1,000,000 flows pvpkit-gen vs testpmd flowgen --flowgen-flows=1000000
#         c  1518 B, 1 flow        pvpkit-gen vs testpmd txonly --txpkts=1514
#         d  IMIX (TRex 64/594/1518 at 28:16:4)  pvpkit-gen only (testpmd has no IMIX)
# Sizes include the FCS: 64 B is 60 B in the mbuf (testpmd --txpkts=60).
#
# usage: tools/bench/gen_bench.sh [-b BUILD_DIR] [-B BASE_BUILD_DIR] [-r RUNS] [-s SECONDS]
#                                 [-w WARMUP] [-c CASES] [-g 'MORE PVPKIT-GEN OPTIONS']
#   e.g. tools/bench/gen_bench.sh -b build -r 5 -s 5 -c abcd
#        tools/bench/gen_bench.sh -b build -B ../before/build -r 5 -s 3 -c abcd
#   -g: e.g. -g '--capture /tmp/c.pcap,filter=arp,dir=tx' (what a capture
#   whose filter takes nothing costs the TX lcore); given to both builds
# Stop every other DPDK/OVS process first: a busy poller halves the result.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
BUILD=$SRC/build
RUNS=3
SECS=4
WARM=2
CASES=abcd
GEN_MORE=""
BASE=""
while getopts "b:B:r:s:c:w:g:" o; do
    case $o in
    b) BUILD=$OPTARG ;;
    B) BASE=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    s) SECS=$OPTARG ;;
    c) CASES=$OPTARG ;;
    w) WARM=$OPTARG ;;
    g) GEN_MORE=$OPTARG ;;
    *) sed -n '2,31p' "$0"; exit 2 ;;
    esac
done
GEN=$BUILD/app/gen/pvpkit-gen
TESTPMD=$(command -v dpdk-testpmd)
[ -x "$GEN" ] || { echo "not built: $GEN" >&2; exit 2; }
BASE_GEN=${BASE:+$BASE/app/gen/pvpkit-gen}
[ -z "$BASE" ] || [ -x "$BASE_GEN" ] || { echo "-B: not built: $BASE_GEN" >&2; exit 2; }
[ -n "$TESTPMD" ] || { echo "dpdk-testpmd not found" >&2; exit 2; }
PY=/usr/bin/python3
OUT=$(mktemp -d /tmp/gen-bench.XXXXXX)
trap 'rm -rf "$OUT"' EXIT

# TSC frequency, for cycles per packet (the sending core is busy 100 %).
HZ=$("$PY" -c "
import re
for l in open('/proc/cpuinfo'):
    m = re.match(r'model name.*@ *([0-9.]+)GHz', l)
    if m: print(int(float(m.group(1)) * 1e9)); break
")
if [ -z "$HZ" ]; then
    "$GEN" --in-memory --no-pci --file-prefix gbhz$$ -m 128 -l 0-1 --main-lcore 1 \
        --vdev net_null0,no-rx=1 --log-level=lib.eal:error -- --no-rx --quiet --count 1 \
        --json "$OUT/hz.json" >/dev/null 2>&1
    HZ=$("$PY" -c "import json; print(json.load(open('$OUT/hz.json'))['hz'])")
fi

eal() { echo "--in-memory --no-pci --file-prefix $1 -m 512 -l 0-1 --main-lcore 1 --vdev net_null0,no-rx=1 --log-level=lib.eal:error"; }

# measure TOOL CASE: start it, read its rate through telemetry, stop it;
# print "<pps> <pps per CPU second>".
measure() {
    local tool=$1 case=$2 prefix="gb$$$1$2" pid rate bin=$GEN
    local -a args
    case $tool in
    gen | base)
        [ "$tool" = base ] && bin=$BASE_GEN
        case $case in
        a) args=(--size 64) ;;
        b) args=(--size 64 --flows 1000000) ;;
        c) args=(--size 1518) ;;
        d) args=(--imix) ;;
        esac
        # shellcheck disable=SC2086 # -g's options, split as a shell would
        "$bin" $(eal "$prefix") -- --no-rx --quiet --rate max "${args[@]}" $GEN_MORE \
            >"$OUT/$prefix.log" 2>&1 &
        ;;
    testpmd)
        case $case in
        a) args=(--forward-mode=txonly --txpkts=60) ;;
        b) args=(--forward-mode=flowgen --flowgen-flows=1000000 --txpkts=60) ;;
        c) args=(--forward-mode=txonly --txpkts=1514) ;;
        *) return 1 ;;
        esac
        "$TESTPMD" $(eal "$prefix") -- --nb-cores=1 --txq=1 --rxq=1 --burst=32 \
            --stats-period 1 "${args[@]}" >"$OUT/$prefix.log" 2>&1 &
        ;;
    esac
    pid=$!
    rate=$("$PY" "$HERE/gen_bench_rate.py" "/var/run/dpdk/$prefix/dpdk_telemetry.v2" \
        "$WARM" "$SECS" 0 $pid | awk '{print $1, ($4 == "" ? "nan" : $4)}')
    kill -INT $pid 2>/dev/null
    for _ in $(seq 50); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    [ -n "$rate" ] || { tail -5 "$OUT/$prefix.log" >&2; return 1; }
    echo "$rate"
}

echo "# pvpkit-gen of $("$PY" "$HERE/bench_ab.py" rev "$BUILD")${BASE:+ (and of $("$PY" "$HERE/bench_ab.py" rev "$BASE"), -B)} vs dpdk-testpmd, $RUNS runs x ${SECS}s (warm-up ${WARM}s), TSC $HZ Hz"
echo "# CPU load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for c in $(echo "$CASES" | fold -w1); do
    tools="gen${BASE:+ base} testpmd"
    [ "$c" = d ] && tools="gen${BASE:+ base}"
    for r in $(seq "$RUNS"); do
        # Alternate the order (the base, if any, stays in the middle), so
        # that drift within a pair of runs hits every tool alike.
        order=$tools
        [ $((r % 2)) = 0 ] && order=$(echo "$tools" | tr ' ' '\n' | tac | tr '\n' ' ')
        for t in $order; do
            v=$(measure "$t" "$c") || v=""
            echo "$c $t $r ${v:-nan nan}" >>"$OUT/results"
            echo "# case $c run $r $t: ${v:-failed} (pps, pps per CPU second)" >&2
        done
    done
done
echo "# CPU load after: $(cut -d' ' -f1-3 /proc/loadavg)"
"$PY" "$HERE/gen_bench_summary.py" "$OUT/results" "$HZ"
