#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Instructions per forwarded packet, pvpkit-fwd against dpdk-testpmd, counted
# by valgrind's callgrind: deterministic, so comparable on a busy machine
# where wall-clock rates are not (fwd_bench.sh gives those). Each tool runs
# under callgrind for a few seconds on one forwarding lcore; the figure is
# the forwarding thread's whole instruction count (engine, PMD RX/TX,
# mempool, the poll loop) divided by the packets it sent on port 0.
#
#   tools/bench/fwd_callgrind.sh [-b BUILD_DIR] [-d SECONDS] [-s null|sig] [-t "TOOL..."] [-k]
#
# Scenarios as in fwd_bench.sh: null (net_null0 loop) and sig (net_pcap0
# replaying 2048 signed 64 B UDP frames, every one a duplicate after the
# first pass) and sigseq (the same with a single packet, so every packet
# is a duplicate of sequence 0 right away). Tools: testpmd-io,
# testpmd-macswap, fwd-io, fwd-macswap, fwd-macswap-seq, fwd-macswap-stamp
# (--stamp); -b another build's directory counts its pvpkit-fwd (a build of
# main: is a change free?). -k keeps the callgrind files
# (printed) for callgrind_annotate.

set -u
BUILD=${PVP_BUILD_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/build}
DUR=5
SCEN=null
TOOLS="testpmd-macswap fwd-macswap fwd-macswap-seq testpmd-io fwd-io"
KEEP=0
while getopts "b:d:s:t:kh" o; do
    case $o in
    b) BUILD=$OPTARG ;;
    d) DUR=$OPTARG ;;
    s) SCEN=$OPTARG ;;
    t) TOOLS=$OPTARG ;;
    k) KEEP=1 ;;
    *) sed -n '4,18p' "$0"; exit 2 ;;
    esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
FWD=$BUILD/app/fwd/pvpkit-fwd
TESTPMD=$(command -v dpdk-testpmd) || { echo "dpdk-testpmd not found"; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind not found"; exit 2; }
[ -x "$FWD" ] || { echo "pvpkit-fwd not built: $FWD"; exit 2; }
TMP=$(mktemp -d /tmp/fwd-cg.XXXXXX)
PID=""
cleanup() {
    [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
    PID=""
    rm -rf "/var/run/dpdk/fwdcg-$$"
}
trap 'cleanup; [ "$KEEP" = 1 ] || rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

case $SCEN in
null) DEV="--vdev net_null0" ;;
sig)
    $PY "$HERE/fwd_bench_pcap.py" "$TMP/sig.pcap" 2048 || exit 2
    DEV="--vdev net_pcap0,rx_pcap=$TMP/sig.pcap,infinite_rx=1"
    ;;
*) echo "unknown scenario $SCEN"; exit 2 ;;
esac

# testpmd's default pool (about 340 MB) does not fit -m 512 without
# hugepages; the pool size does not change instructions per packet.
EAL="-l 0-1 --main-lcore 1 --no-huge -m 512 --no-shconf --no-pci --file-prefix=fwdcg-$$ --log-level=lib.eal:error"
TP="--port-topology=loop --nb-cores=1 --rxq=1 --txq=1 --rxd=1024 --txd=1024 --burst=32 --total-num-mbufs=8191 --stats-period 100"
FW="--topology loop --rxq 1 --txq 1 --rxd 1024 --txd 1024 --burst 32 --ctl none"

printf "%s: instructions per packet (callgrind, forwarding thread, %s s)\n" "$SCEN" "$DUR"
printf "  %-16s %14s %12s %10s\n" tool instructions packets "per packet"
for tool in $TOOLS; do
    case $tool in
    testpmd-io) cmd="$TESTPMD $EAL $DEV -- --forward-mode=io $TP" ;;
    testpmd-macswap) cmd="$TESTPMD $EAL $DEV -- --forward-mode=macswap $TP" ;;
    fwd-io) cmd="$FWD $EAL $DEV -- --mode io $FW" ;;
    fwd-macswap) cmd="$FWD $EAL $DEV -- --mode macswap $FW" ;;
    fwd-macswap-seq) cmd="$FWD $EAL $DEV -- --mode macswap --seq-check $FW" ;;
    fwd-macswap-stamp) cmd="$FWD $EAL $DEV -- --mode macswap --stamp $FW" ;;
    *) echo "unknown tool $tool"; continue ;;
    esac
    out=$TMP/cg.$tool
    # shellcheck disable=SC2086
    # Line-buffered, so the start line shows up while it runs.
    stdbuf -oL valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out.%p" \
        $cmd >"$TMP/$tool.log" 2>&1 </dev/null &
    PID=$!
    # Start counting the seconds once the port forwards (valgrind starts slowly).
    for _ in $(seq 600); do
        grep -q "packet forwarding - ports=\|forwarding lcore" "$TMP/$tool.log" && break
        sleep 0.1
    done
    sleep "$DUR"
    kill -INT "$PID"
    wait "$PID"
    PID=""
    # Packets sent on port 0: testpmd's forward statistics, pvpkit-fwd's totals.
    pk=$(awk '/Forward statistics for port 0/ {f = 1}
              f && /TX-packets:/ {print $2; exit}
              /total port 0 / {for (i = 1; i <= NF; i++) if ($i ~ /^tx_packets=/) {sub(/.*=/, "", $i); print $i; exit}}' \
        "$TMP/$tool.log")
    # The forwarding thread is the one that executed the most instructions.
    ir=$(for f in "$out".*-*; do awk '/^summary:/ {print $2}' "$f"; done | sort -n | tail -1)
    if [ -z "$pk" ] || [ "$pk" = 0 ] || [ -z "$ir" ]; then
        echo "  $tool: no result; log:"
        grep -v '^==' "$TMP/$tool.log" | tail -5
        continue
    fi
    printf "  %-16s %14s %12s %10.1f\n" "$tool" "$ir" "$pk" "$(echo "$ir / $pk" | bc -l)"
done
[ "$KEEP" = 1 ] && echo "callgrind files kept in $TMP"
exit 0
