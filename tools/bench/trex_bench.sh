#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# A stream added over the TRex API (pvpkit-gen --trex) against the same
# stream as a native profile (pvpkit-gen --profile), side by side: 64 B
# UDP, one variable (IPv4 source +1 over FLOWS values), one TX core, into
# net_null0,no-rx=1, both paced at 100 % of a 100 Gbit/s port (--speed
# 100000: far above what one core sends, so the pacing code runs but never
# limits). Same EAL options and CPU for both (-l 0-1 --main-lcore 1: the
# sender is lcore 0). Each rate is read from the port counters through
# DPDK telemetry after a warm-up (gen_bench_rate.py); the two alternate
# within each run; the table gives median and spread, and the ratio of
# the medians (trex/native: 1.00 is the same speed).
#
# -k isg|chain schedules the TRex stream as such profiles do (a stream's
# own isg; a loop of two chained single bursts of 1,000 packets, see
# trex_bench_start.py): what that scheduling costs per packet.
#
# usage: tools/bench/trex_bench.sh [-b BUILD_DIR] [-r RUNS] [-s SECONDS] [-f FLOWS] [-k SHAPE]
# Stop every other DPDK/OVS process first: a busy poller halves the result.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
BUILD=$SRC/build
RUNS=5
SECS=4
WARM=2
FLOWS=1000
SHAPE=plain
while getopts "b:r:s:f:w:k:" o; do
    case $o in
    b) BUILD=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    s) SECS=$OPTARG ;;
    f) FLOWS=$OPTARG ;;
    w) WARM=$OPTARG ;;
    k) SHAPE=$OPTARG ;;
    *) sed -n '2,22p' "$0"; exit 2 ;;
    esac
done
GEN=$BUILD/app/gen/pvpkit-gen
PY=/usr/bin/python3
[ -x "$GEN" ] || { echo "not built: $GEN" >&2; exit 2; }
ldd "$GEN" | grep -q libzmq || { echo "$GEN was built without --trex (libzmq)" >&2; exit 2; }
OUT=$(mktemp -d /tmp/trex-bench.XXXXXX)
trap 'rm -rf "$OUT"' EXIT

# The native profile: the defaults of doc/profiles.rst are the headers
# trex_bench_start.py sends (02:00:00:00:00:01 > 02:00:00:00:00:02,
# 16.0.0.1 > 48.0.0.1, UDP 1025 > 12, TTL 64).
last=$("$PY" -c "print('16.0.%d.%d' % divmod($FLOWS, 256))")
cat >"$OUT/native.json" <<JSON
{"streams": [{"name": "native", "port": 0, "size": 64, "rate": "100%",
  "vars": [{"field": "ipv4.src", "op": "inc", "min": "16.0.0.1", "max": "$last"}]}]}
JSON

eal() { echo "--in-memory --no-pci --file-prefix $1 -m 512 -l 0-1 --main-lcore 1 --vdev net_null0,no-rx=1 --log-level=lib.eal:error"; }

free_port() {
    "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# measure native|trex: start it, read its rate through telemetry, stop it.
measure() {
    local kind=$1 prefix="tb$$$1" pid rate rpc
    if [ "$kind" = native ]; then
        "$GEN" $(eal "$prefix") -- --no-rx --quiet --speed 100000 --profile "$OUT/native.json" \
            >"$OUT/$prefix.log" 2>&1 &
        pid=$!
    else
        rpc=$(free_port)
        "$GEN" $(eal "$prefix") -- --no-rx --quiet --speed 100000 \
            --trex "127.0.0.1:$rpc:$(free_port)" >"$OUT/$prefix.log" 2>&1 &
        pid=$!
        "$PY" "$HERE/trex_bench_start.py" "$rpc" "$FLOWS" "$SHAPE" >>"$OUT/$prefix.log" 2>&1 ||
            { kill -9 $pid; wait $pid 2>/dev/null; tail -5 "$OUT/$prefix.log" >&2; return 1; }
    fi
    rate=$("$PY" "$HERE/gen_bench_rate.py" "/var/run/dpdk/$prefix/dpdk_telemetry.v2" \
        "$WARM" "$SECS" 0 | cut -d' ' -f1)
    kill -INT $pid 2>/dev/null
    for _ in $(seq 50); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    rm -rf "/var/run/dpdk/$prefix"
    [ -n "$rate" ] || { tail -5 "$OUT/$prefix.log" >&2; return 1; }
    echo "$rate"
}

echo "# TRex-API stream ($SHAPE) vs native profile, 64 B, $FLOWS flows, $RUNS runs x ${SECS}s (warm-up ${WARM}s)"
echo "# CPU load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$RUNS"); do
    order="native trex"
    [ $((r % 2)) = 0 ] && order="trex native"
    for k in $order; do
        v=$(measure "$k") || v=""
        echo "$k $r ${v:-nan}" >>"$OUT/results"
        echo "# run $r $k: ${v:-failed} pps" >&2
    done
done
"$PY" - "$OUT/results" <<'PY'
import statistics, sys
res, per_run = {}, {}
for line in open(sys.argv[1]):
    k, r, v = line.split()
    if v != "nan":
        res.setdefault(k, []).append(float(v))
        per_run.setdefault(r, {})[k] = float(v)
print("%-8s %9s %17s" % ("stream", "Mpps", "spread(min-max)"))
for k in ("native", "trex"):
    v = res.get(k, [])
    if v:
        print("%-8s %9.3f %8.3f-%-8.3f" % (k, statistics.median(v) / 1e6, min(v) / 1e6, max(v) / 1e6))
ratios = [d["trex"] / d["native"] for d in per_run.values() if len(d) == 2]
if ratios:
    print("trex/native per run: %s" % " ".join("%.3f" % x for x in ratios))
    print("trex/native: median %.3f, spread %.3f-%.3f"
          % (statistics.median(ratios), min(ratios), max(ratios)))
PY
