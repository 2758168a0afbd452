#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# What --metrics costs the data path: pvpkit-gen (one TX core, unpaced,
# into net_null0,no-rx=1) and pvpkit-fwd (io, one forwarding core,
# net_null0 to itself), in four variants taken in turn within each run:
#   off   no --metrics
#   idle  --metrics, never scraped
#   1hz   --metrics, scraped once a second (Prometheus' default is every 15 s)
#   10hz  --metrics, scraped ten times a second
#   curl  no --metrics, the same scraper at 10/s on CPU 1 getting a file of
#         the same size from a static server (python3 -m http.server): what
#         the scraper's own work costs on a shared machine
# The sending/forwarding core is lcore 0 on CPU 0; the main lcore, the
# metrics thread ("pvp-metrics") and the scraper (curl) share CPU 1
# (-l 0-1 --main-lcore 1); the script prints the thread's CPUs. Rates
# come from each app's --json (tx_packets over the run). The table gives
# the median and spread (min..max) over the runs and each variant's
# median over off's.
#
# usage: tools/bench/metrics_bench.sh [-b BUILD_DIR] [-r RUNS] [-s SECONDS]
#   e.g. tools/bench/metrics_bench.sh -b build -r 5 -s 4
# Stop every other DPDK/OVS process first: a busy poller halves the result.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
BUILD=$SRC/build
RUNS=5
SECS=4
while getopts "b:r:s:" o; do
    case $o in
    b) BUILD=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    s) SECS=$OPTARG ;;
    *) sed -n '2,24p' "$0"; exit 2 ;;
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

# The curl variant's static server, on CPU 1 as the scraper: a file as large
# as a pvpkit-gen answer.
mkdir -p "$OUT/static"
head -c 12000 /dev/zero | tr '\0' x >"$OUT/static/metrics"
SPORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
taskset -c 1 "$PY" -m http.server "$SPORT" --bind 127.0.0.1 --directory "$OUT/static" \
    >/dev/null 2>&1 &
SPID=$!
trap 'kill $SPID 2>/dev/null; rm -rf "$OUT"' EXIT

# scrape LOG PERIOD: GET the URL the app printed in LOG every PERIOD s until
# it exits; the count goes to LOG.scrapes, the metrics thread's CPUs to LOG.cpus.
scrape() {
    local url="" n=0 pid=$3
    for _ in $(seq 100); do
        url=$(grep -o 'metrics on http://[^ ]*' "$1" | cut -d' ' -f3)
        [ -n "$url" ] && break
        sleep 0.05
    done
    [ -n "$url" ] || return
    grep -l pvp-metrics /proc/"$pid"/task/*/comm 2>/dev/null | head -1 |
        sed 's/comm$/status/' | xargs -r grep Cpus_allowed_list >"$1.cpus"
    [ "$2" = 0 ] && return
    while curl -sf -o /dev/null "$url"; do
        n=$((n + 1))
        sleep "$2"
    done
    echo "$n" >"$1.scrapes"
}

# static PID: the curl variant's scraper, until PID exits.
static() {
    local n=0
    while kill -0 "$1" 2>/dev/null && curl -sf -o /dev/null "http://127.0.0.1:$SPORT/metrics"; do
        n=$((n + 1))
        sleep 0.1
    done
    echo "$n"
}

# one TOOL VARIANT RUN: a run of gen or fwd, its packets per second on stdout.
one() {
    local tool=$1 var=$2 run=$3 log="$OUT/$1-$2-$3.log" json="$OUT/$1-$2-$3.json" m=()
    case $var in idle | 1hz | 10hz) m=(--metrics 127.0.0.1:0) ;; esac
    if [ "$tool" = gen ]; then
        "$GEN" $EAL --file-prefix mb$$ --vdev net_null0,no-rx=1 -- --no-rx --quiet \
            --duration "$SECS" --json "$json" "${m[@]}" >"$log" 2>&1 &
    else
        "$FWD" $EAL --file-prefix mb$$ --vdev net_null0 -- --ctl none \
            --duration "$SECS" --json "$json" "${m[@]}" >"$log" 2>&1 &
    fi
    local pid=$! period=0
    case $var in 1hz) period=1 ;; 10hz) period=0.1 ;; esac
    [ ${#m[@]} -gt 0 ] && taskset -c 1 bash -c "$(declare -f scrape); scrape $log $period $pid" &
    [ "$var" = curl ] &&
        taskset -c 1 bash -c "SPORT=$SPORT; $(declare -f static); static $pid >$log.scrapes" &
    wait $pid
    wait
    "$PY" -c "
import json
d = json.load(open('$json'))
print(d['ports'][0]['tx_packets'] / $SECS)"
}

VARS="off idle 1hz 10hz curl"
echo "tool run variant pps scrapes" >"$OUT/raw"
for run in $(seq "$RUNS"); do
    for tool in gen fwd; do
        for var in $VARS; do
            pps=$(one "$tool" "$var" "$run")
            echo "$tool $run $var $pps $(cat "$OUT/$tool-$var-$run.log.scrapes" 2>/dev/null || echo 0)" >>"$OUT/raw"
        done
    done
done
cat "$OUT/raw"
cat "$OUT"/*-idle-1.log.cpus 2>/dev/null | sed 's/^/pvp-metrics thread /'
"$PY" - "$OUT/raw" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:]]
print("%-4s %-5s %26s %8s %8s" % ("tool", "var", "Mpps median (min..max)", "/off", "scrapes"))
for tool in ("gen", "fwd"):
    base = statistics.median(float(r[3]) for r in rows if r[0] == tool and r[2] == "off")
    for var in ("off", "idle", "1hz", "10hz", "curl"):
        v = [float(r[3]) / 1e6 for r in rows if r[0] == tool and r[2] == var]
        sc = [int(r[4]) for r in rows if r[0] == tool and r[2] == var]
        print("%-4s %-5s %26s %8.3f %8d" % (tool, var, "%.2f (%.2f..%.2f)" % (
            statistics.median(v), min(v), max(v)), statistics.median(v) * 1e6 / base,
            statistics.median(sc)))
PY
