#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-fwd side by side with dpdk-testpmd: one forwarding core, 64 B
# frames, same EAL options, devices and CPUs (-l 0-1 --main-lcore 1, so
# forwarding runs on lcore 0), every tool's rate read the same way (port
# counters through DPDK telemetry, /ethdev/stats), runs alternating the
# tools. Not a test: numbers depend on the machine being quiet.
#
#   tools/bench/fwd_bench.sh [-b BUILD_DIR] [-r RUNS] [-d SECONDS] [-w WARMUP] [-s null|sig|vhost|all]
#                            [-t "TOOL..."] [-B BASE_BUILD_DIR]
#
# Scenarios:
#   null   net_null0 rx -> net_null0 tx (loop topology), no peer.
#   sig    net_pcap0 replaying (infinite_rx) 2048 64 B UDP packets that carry
#          the pvpkit signature, no TX pcap (the PMD drops what is sent): what
#          --seq-check costs on packets it has to track (on net_null's
#          zero-filled frames it has nothing to parse).
#   vhost  the tool on virtio-user (the guest side); the host-side peer is
#          dpdk-testpmd in io mode on lcore 1 with net_null0 (source and
#          sink) paired with net_vhost0, the same peer for every tool. The
#          rate is the guest port's TX.
# Tools: testpmd-io, testpmd-macswap, fwd-io, fwd-macswap, fwd-macswap-seq
# (pvpkit-fwd --seq-check), fwd-macswap-stamp (--stamp: what writing the
# receive time costs where packets carry the signature), fwd-impair (--mode impair, nothing impaired:
# the stage's own cost); -t runs only the ones named (quoted, spaces).
# -B runs the pvpkit-fwd of a second build (the "before": is a change
# free?) as base-X, X any fwd-X above, right after fwd-X in every run (the
# order reverses every run: fwd-X base-X, then base-X fwd-X); without base
# tools in -t, every fwd-X gets its base-X. -m is -B's old name, main-io
# and main-macswap the old names of base-io and base-macswap.
# Each rate is given twice: per wall-clock second (what the issue asks) and
# per CPU second the forwarding thread (rte-worker-0) actually got, which
# stays comparable when other processes share the CPU. The summary gives
# per tool the median and spread over the runs, and the ratios (this build
# against the base, each against testpmd) run by run (bench_ab.py).

set -u
BUILD=${PVP_BUILD_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/build}
RUNS=3
DUR=5
WARM=2
SCEN=all
TOOLS="testpmd-macswap fwd-macswap testpmd-io fwd-io fwd-macswap-seq"
BASE=""
while getopts "b:r:d:w:s:t:m:B:h" o; do
    case $o in
    b) BUILD=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    d) DUR=$OPTARG ;;
    w) WARM=$OPTARG ;;
    s) SCEN=$OPTARG ;;
    t) TOOLS=$OPTARG ;;
    m | B) BASE=$OPTARG ;;
    *) sed -n '4,36p' "$0"; exit 2 ;;
    esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
FWD=$BUILD/app/fwd/pvpkit-fwd
TESTPMD=$(command -v dpdk-testpmd) || { echo "dpdk-testpmd not found"; exit 2; }
[ -x "$FWD" ] || { echo "pvpkit-fwd not built: $FWD"; exit 2; }
BASE_FWD=${BASE:+$BASE/app/fwd/pvpkit-fwd}
[ -z "$BASE" ] || [ -x "$BASE_FWD" ] || { echo "-B: pvpkit-fwd not built: $BASE_FWD"; exit 2; }
TOOLS=$(echo "$TOOLS" | sed 's/main-\(io\|macswap\)/base-\1/g')
case " $TOOLS " in
*" base-"*) ;;
*) [ -z "$BASE" ] || TOOLS=$(for t in $TOOLS; do
    echo "$t"
    case $t in fwd-*) echo "base-${t#fwd-}" ;; esac
done | tr '\n' ' ') ;;
esac
TMP=$(mktemp -d /tmp/fwd-bench.XXXXXX)
RESULTS=$TMP/results.txt
PIDS=""

cleanup() {
    local p
    for p in $PIDS; do kill "$p" 2>/dev/null; done
    for p in $PIDS; do
        for _ in $(seq 20); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$p" 2>/dev/null
    done
    PIDS=""
}
trap 'cleanup; rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

busy=$(top -b -n 1 | awk 'NR > 7 && $9 > 50 {print $12}' | sort -u | tr '\n' ' ')
[ -n "$busy" ] && echo "warning: busy processes now: $busy (numbers will be low)"

# eal PREFIX: the EAL options every tool gets.
eal() {
    echo "-l 0-1 --main-lcore 1 --in-memory --no-pci --single-file-segments -m 256" \
        "--file-prefix=$1 --log-level=lib.eal:error"
}

# tool_cmd TOOL: the command line after the EAL options.
tool_args() {
    local common_tp="--port-topology=loop --nb-cores=1 --rxq=1 --txq=1 --rxd=1024 --txd=1024 --burst=32 --stats-period 1"
    local common_fwd="--topology loop --rxq 1 --txq 1 --rxd 1024 --txd 1024 --burst 32 --ctl none"
    case $1 in
    testpmd-io) echo "$TESTPMD|-- --forward-mode=io $common_tp" ;;
    testpmd-macswap) echo "$TESTPMD|-- --forward-mode=macswap $common_tp" ;;
    fwd-io) echo "$FWD|-- --mode io $common_fwd" ;;
    fwd-macswap) echo "$FWD|-- --mode macswap $common_fwd" ;;
    fwd-macswap-seq) echo "$FWD|-- --mode macswap --seq-check $common_fwd" ;;
    fwd-macswap-stamp) echo "$FWD|-- --mode macswap --stamp $common_fwd" ;;
    fwd-impair) echo "$FWD|-- --mode impair $common_fwd" ;;
    base-*)
        local fwd
        fwd=$(tool_args "fwd-${1#base-}")
        echo "$BASE_FWD|${fwd#*|}"
        ;;
    esac
}

wait_telemetry() {
    for _ in $(seq 100); do
        [ -S "/var/run/dpdk/$1/dpdk_telemetry.v2" ] && return 0
        sleep 0.1
    done
    return 1
}

wait_sending() {
    local n
    for _ in $(seq 100); do
        n=$($PY "$HERE/fwd_telemetry.py" "$1" /ethdev/stats,0 2>/dev/null |
            $PY -c 'import json,sys; print(json.load(sys.stdin)["/ethdev/stats,0"]["opackets"])' 2>/dev/null)
        [ -n "$n" ] && [ "$n" -gt 0 ] && return 0
        sleep 0.1
    done
    return 1
}

# run_one SCENARIO TOOL RUN: print the tool's TX Mpps on its port 0.
run_one() {
    local scen=$1 tool=$2 run=$3 prefix=fwdb-$2-$3-$$ spec bin args dev rate host pid
    spec=$(tool_args "$tool")
    bin=${spec%%|*}
    args=${spec#*|}
    if [ "$scen" = null ]; then
        dev="--vdev net_null0"
    elif [ "$scen" = sig ]; then
        dev="--vdev net_pcap0,rx_pcap=$TMP/sig.pcap,infinite_rx=1"
    else
        # The peer: the vhost-user server, forwarding on lcore 1.
        host=fwdb-host-$tool-$run-$$
        "$TESTPMD" -l 0-1 --main-lcore 0 --in-memory --no-pci --single-file-segments -m 256 \
            --file-prefix="$host" --log-level=lib.eal:error \
            --vdev net_null0 --vdev "net_vhost0,iface=$TMP/vhost.sock,queues=1" -- \
            --forward-mode=io --port-topology=paired --nb-cores=1 --rxd=1024 --txd=1024 \
            --burst=32 --stats-period 1 >"$TMP/host-$tool-$run.log" 2>&1 &
        PIDS="$PIDS $!"
        for _ in $(seq 100); do [ -S "$TMP/vhost.sock" ] && break; sleep 0.1; done
        dev="--vdev virtio_user0,path=$TMP/vhost.sock,queues=1"
    fi
    # shellcheck disable=SC2086
    "$bin" $(eal "$prefix") $dev $args >"$TMP/$scen-$tool-$run.log" 2>&1 &
    pid=$!
    PIDS="$PIDS $pid"
    if ! wait_telemetry "$prefix"; then
        echo "$tool: no telemetry socket; log:" >&2
        tail -5 "$TMP/$scen-$tool-$run.log" >&2
        cleanup
        return 1
    fi
    # Tools take a while to create pools and start ports on a busy box:
    # warm up from the moment the port really sends.
    if ! wait_sending "$prefix"; then
        echo "$tool: port 0 never sent; log:" >&2
        tail -5 "$TMP/$scen-$tool-$run.log" >&2
        cleanup
        return 1
    fi
    sleep "$WARM"
    rate=$($PY "$HERE/fwd_telemetry.py" "$prefix" --rate 0 "$DUR" "$pid" |
        $PY -c 'import json,sys; j = json.load(sys.stdin)
print("%.3f %.3f %.2f" % (j["tx_pps"] / 1e6, j.get("tx_pps_per_cpu", float("nan")) / 1e6,
                        j.get("cpu_seconds", float("nan")) / j["seconds"]))')
    cleanup
    rm -f "$TMP/vhost.sock"
    # --in-memory still leaves an empty runtime directory per prefix.
    rm -rf "/var/run/dpdk/$prefix" ${host:+"/var/run/dpdk/$host"}
    echo "$rate"
}

echo "# pvpkit-fwd of $($PY "$HERE/bench_ab.py" rev "$BUILD")${BASE:+ (and of $($PY "$HERE/bench_ab.py" rev "$BASE"), -B)}," \
    "$RUNS runs x ${DUR}s (warm-up ${WARM}s)"
echo "# CPU load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for scen in null sig vhost; do
    [ "$SCEN" = all ] || [ "$SCEN" = "$scen" ] || continue
    if [ "$scen" = sig ]; then
        $PY "$HERE/fwd_bench_pcap.py" "$TMP/sig.pcap" 2048 || { echo "sig: needs scapy in $PY"; continue; }
    fi
    for run in $(seq "$RUNS"); do
        # Alternate the order every run so drift hits every tool alike.
        order=$TOOLS
        [ $((run % 2)) = 0 ] && order=$(echo "$TOOLS" | tr ' ' '\n' | tac | tr '\n' ' ')
        for tool in $order; do
            r=$(run_one "$scen" "$tool" "$run") || r="nan nan nan"
            set -- $r
            echo "$scen $tool run $run: $1 Mpps, $2 Mpps per CPU second (the forwarding thread got $3 of a CPU)"
            echo "$scen $tool $run $r" >>"$RESULTS"
        done
    done
done
echo "# CPU load after: $(cut -d' ' -f1-3 /proc/loadavg)"
$PY "$HERE/fwd_bench_summary.py" "$RESULTS"
