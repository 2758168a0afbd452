#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# What --metrics costs the data path: pvpkit-gen (one TX core, unpaced,
# into net_null0,no-rx=1) and pvpkit-fwd (io, one forwarding core,
# net_null0 to itself) with --metrics off and on, alternating within each
# run. With it on, a scraper GETs /metrics SCRAPES times a second the
# whole time (Prometheus scrapes every 15 s by default: 10/s is a
# hundred and fifty times that). The sending/forwarding core is lcore 0
# on CPU 0; the main lcore, the metrics thread and the scraper share
# CPU 1 (-l 0-1 --main-lcore 1). Rates come from each app's --json
# (tx_packets over the run). The table gives the median and spread
# (min..max) over the runs and the ratio of the medians, on / off.
#
# usage: tools/bench/metrics_bench.sh [-b BUILD_DIR] [-r RUNS] [-s SECONDS] [-q SCRAPES]
#   e.g. tools/bench/metrics_bench.sh -b build -r 5 -s 4 -q 10
# Stop every other DPDK/OVS process first: a busy poller halves the result.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
BUILD=$SRC/build
RUNS=5
SECS=4
SCRAPES=10
while getopts "b:r:s:q:" o; do
    case $o in
    b) BUILD=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    s) SECS=$OPTARG ;;
    q) SCRAPES=$OPTARG ;;
    *) sed -n '2,19p' "$0"; exit 2 ;;
    esac
done
GEN=$BUILD/app/gen/pvpkit-gen
FWD=$BUILD/app/fwd/pvpkit-fwd
for b in "$GEN" "$FWD"; do [ -x "$b" ] || { echo "not built: $b" >&2; exit 2; }; done
command -v curl >/dev/null || { echo "curl not found" >&2; exit 2; }
PY=/usr/bin/python3
OUT=$(mktemp -d /tmp/metrics-bench.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
EAL="--in-memory --no-pci -m 256 -l 0-1 --main-lcore 1 --log-level=lib.eal:error"

# scrape LOG: GET the URL the app printed in LOG, SCRAPES a second, until it exits.
scrape() {
    local url="" n=0
    for _ in $(seq 100); do
        url=$(grep -o 'metrics on http://[^ ]*' "$1" | cut -d' ' -f3)
        [ -n "$url" ] && break
        sleep 0.05
    done
    [ -n "$url" ] || return
    while curl -sf -o /dev/null "$url"; do
        n=$((n + 1))
        sleep "$("$PY" -c "print(1 / $SCRAPES)")"
    done
    echo "$n" >"$1.scrapes"
}

# one TOOL ON RUN: a run of gen or fwd, its packets per second on stdout.
one() {
    local tool=$1 on=$2 run=$3 log="$OUT/$1-$2-$3.log" json="$OUT/$1-$2-$3.json" m=()
    [ "$on" = on ] && m=(--metrics 127.0.0.1:0)
    if [ "$tool" = gen ]; then
        "$GEN" $EAL --file-prefix mb$$ --vdev net_null0,no-rx=1 -- --no-rx --quiet \
            --duration "$SECS" --json "$json" "${m[@]}" >"$log" 2>&1 &
    else
        "$FWD" $EAL --file-prefix mb$$ --vdev net_null0 -- --ctl none \
            --duration "$SECS" --json "$json" "${m[@]}" >"$log" 2>&1 &
    fi
    local pid=$!
    [ "$on" = on ] && taskset -c 1 bash -c "$(declare -f scrape); SCRAPES=$SCRAPES PY=$PY scrape $log" &
    wait $pid
    wait
    "$PY" -c "
import json, sys
d = json.load(open('$json'))
print(d['ports'][0]['tx_packets'] / $SECS)"
}

printf "%-4s %-4s %s\n" tool run "off_pps on_pps scrapes" >"$OUT/raw"
for run in $(seq "$RUNS"); do
    for tool in gen fwd; do
        off=$(one "$tool" off "$run")
        on=$(one "$tool" on "$run")
        printf "%-4s %-4s %s %s %s\n" "$tool" "$run" "$off" "$on" \
            "$(cat "$OUT/$tool-on-$run.log.scrapes" 2>/dev/null || echo 0)" >>"$OUT/raw"
    done
done
cat "$OUT/raw"
"$PY" - "$OUT/raw" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:]]
print("%-4s %22s %22s %12s %8s" % ("tool", "off Mpps med (min..max)", "on Mpps med (min..max)",
                                  "on/off", "scrapes"))
for tool in ("gen", "fwd"):
    off = [float(r[2]) / 1e6 for r in rows if r[0] == tool]
    on = [float(r[3]) / 1e6 for r in rows if r[0] == tool]
    sc = [int(r[4]) for r in rows if r[0] == tool]
    f = lambda v: "%.3f (%.3f..%.3f)" % (statistics.median(v), min(v), max(v))
    print("%-4s %22s %22s %12.4f %8d" % (tool, f(off), f(on),
                                        statistics.median(on) / statistics.median(off),
                                        statistics.median(sc)))
PY
