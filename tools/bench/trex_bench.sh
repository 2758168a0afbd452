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
# DPDK telemetry after a warm-up (gen_bench_rate.py); the kinds alternate
# within each run, each run starting with the next one; the table gives
# each kind's median and spread, then each ratio taken within a run
# (trex/native: 1.00 is the same speed), its median and spread.
#
# -k SHAPES (a comma list of plain, isg, chain; default plain) schedules
# the TRex stream as such profiles do (plain: a continuous stream; isg: its
# own 1 ms isg; chain: a loop of two chained single bursts of 1,000
# packets, see trex_bench_start.py). Each shape is a row of its own,
# measured in the same runs as the others (the order turns each run), so
# `-k plain,isg,chain` gives what that scheduling costs per packet side by
# side: each shape's ratio to the native profile and to plain, per run.
#
# usage: tools/bench/trex_bench.sh [-b BUILD_DIR] [-r RUNS] [-s SECONDS] [-f FLOWS] [-k SHAPES]
# Stop every other DPDK/OVS process first: a busy poller halves the result.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
BUILD=$SRC/build
RUNS=5
SECS=4
WARM=2
FLOWS=1000
SHAPES=plain
while getopts "b:r:s:f:w:k:" o; do
    case $o in
    b) BUILD=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    s) SECS=$OPTARG ;;
    f) FLOWS=$OPTARG ;;
    w) WARM=$OPTARG ;;
    k) SHAPES=$OPTARG ;;
    *) sed -n '2,26p' "$0"; exit 2 ;;
    esac
done
GEN=$BUILD/app/gen/pvpkit-gen
PY=/usr/bin/python3
[ -x "$GEN" ] || { echo "not built: $GEN" >&2; exit 2; }
IFS=, read -ra shapes <<<"$SHAPES"
for k in "${shapes[@]}"; do
    case $k in
    plain | isg | chain) ;;
    *) echo "-k: '$k' is not plain, isg or chain" >&2; exit 2 ;;
    esac
done
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

# measure native|SHAPE: start it (SHAPE: the TRex stream scheduled so),
# read its rate through telemetry, stop it.
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
        "$PY" "$HERE/trex_bench_start.py" "$rpc" "$FLOWS" "$kind" >>"$OUT/$prefix.log" 2>&1 ||
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

echo "# TRex-API stream ($SHAPES) vs native profile, 64 B, $FLOWS flows, $RUNS runs x ${SECS}s (warm-up ${WARM}s)"
echo "# CPU load before: $(cut -d' ' -f1-3 /proc/loadavg)"
kinds=(native "${shapes[@]}")
for r in $(seq "$RUNS"); do
    # Each run starts one kind later, so no kind always runs first.
    order=()
    for i in "${!kinds[@]}"; do
        order+=("${kinds[$(((i + r - 1) % ${#kinds[@]}))]}")
    done
    for k in "${order[@]}"; do
        v=$(measure "$k") || v=""
        echo "$k $r ${v:-nan}" >>"$OUT/results"
        echo "# run $r $k: ${v:-failed} pps" >&2
    done
done
"$PY" - "$OUT/results" "${kinds[@]}" <<'PY'
import statistics, sys
kinds = sys.argv[2:]
res, per_run = {}, {}
for line in open(sys.argv[1]):
    k, r, v = line.split()
    if v != "nan":
        res.setdefault(k, []).append(float(v))
        per_run.setdefault(r, {})[k] = float(v)
print("%-8s %9s %17s" % ("stream", "Mpps", "spread(min-max)"))
for k in kinds:
    v = res.get(k, [])
    if v:
        print("%-8s %9.3f %8.3f-%-8.3f" % (k, statistics.median(v) / 1e6, min(v) / 1e6, max(v) / 1e6))


def ratios(a, b):
    """a/b in each run that measured both: median, spread and the values."""
    x = [d[a] / d[b] for d in per_run.values() if a in d and b in d]
    if x:
        print("%s/%s: median %.3f, spread %.3f-%.3f (per run: %s)"
              % (a, b, statistics.median(x), min(x), max(x), " ".join("%.3f" % y for y in x)))


for k in kinds[1:]:
    ratios(k, "native")
for k in kinds[1:]:
    if k != "plain" and "plain" in kinds:
        ratios(k, "plain")
PY
