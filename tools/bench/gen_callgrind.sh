#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Instructions per sent packet, pvpkit-gen against dpdk-testpmd, counted
# by valgrind's callgrind: deterministic, so comparable on a busy machine
# where wall-clock rates are not (gen_bench.sh gives those). One TX lcore
# into net_null0,no-rx=1 (whose TX frees every mbuf: that is in the
# figures, the same code for every tool). The figure is the TX thread's
# whole instruction count (build, mempool, PMD, the loop) per packet:
#   pvpkit-gen: two runs of --count N and 4N packets (--idle-sleep keeps
#     the waiting lcore quiet), (I(4N) - I(N)) / 3N, so start-up and
#     shutdown cancel out;
#   testpmd: a run of SECONDS stopped by SIGINT, instructions / TX-packets.
#
#   tools/bench/gen_callgrind.sh [-b BUILD_DIR] [-n N] [-d SECONDS] [-c CASES] [-k]
#
# Cases as in gen_bench.sh: a 64 B 1 flow (testpmd txonly), b 64 B
# 1,000,000 flows (testpmd flowgen --flowgen-flows=1000000), c 1518 B
# (testpmd txonly --txpkts=1514), d IMIX (pvpkit-gen only); e 64 B 1000
# flows (pvpkit-gen only). -k keeps the callgrind files for
# callgrind_annotate.

set -u
BUILD=$(cd "$(dirname "$0")/../.." && pwd)/build
N=1000000
DUR=20
CASES=ab
KEEP=0
while getopts "b:n:d:c:kh" o; do
    case $o in
    b) BUILD=$OPTARG ;;
    n) N=$OPTARG ;;
    d) DUR=$OPTARG ;;
    c) CASES=$OPTARG ;;
    k) KEEP=1 ;;
    *) sed -n '4,22p' "$0"; exit 2 ;;
    esac
done
GEN=$BUILD/app/gen/pvpkit-gen
TESTPMD=$(command -v dpdk-testpmd) || { echo "dpdk-testpmd not found"; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind not found"; exit 2; }
[ -x "$GEN" ] || { echo "pvpkit-gen not built: $GEN"; exit 2; }
TMP=$(mktemp -d /tmp/gen-cg.XXXXXX)
PFX=gencg-$$
trap 'rm -rf "/var/run/dpdk/$PFX"; [ "$KEEP" = 1 ] || rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

# No hugepages (callgrind); the pools fit in 1 GB.
EAL="-l 0-1 --main-lcore 1 --no-huge -m 1024 --no-pci --file-prefix $PFX --vdev net_null0,no-rx=1 --log-level=lib.eal:error"

# thread_ir DIR PATTERN: instructions of the thread whose profile names PATTERN.
thread_ir() {
    local f
    f=$(grep -l "$2" "$1"/cg.*-* 2>/dev/null | head -1)
    [ -n "$f" ] && sed -n 's/^summary: //p' "$f"
}

# gen_ir COUNT ARGS...: the TX lcore's instructions for COUNT packets.
gen_ir() {
    local n=$1 d
    shift
    d=$(mktemp -d "$TMP/gen.XXXX")
    # shellcheck disable=SC2086
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$d/cg.%p" \
        "$GEN" $EAL -- --no-rx --quiet --rate max --idle-sleep 1000 --count "$n" "$@" \
        >"$d/log" 2>&1
    rm -rf "/var/run/dpdk/$PFX"
    thread_ir "$d" gen_tx_lcore_main
}

gen_case() {
    local a b
    a=$(gen_ir "$N" "$@") && b=$(gen_ir $((4 * N)) "$@")
    [ -n "$a" ] && [ -n "$b" ] || { echo "failed"; return; }
    $PY -c "print('%.1f' % (($b - $a) / (3.0 * $N)))"
}

tpmd_case() {
    local d ir pk
    d=$(mktemp -d "$TMP/tpmd.XXXX")
    # shellcheck disable=SC2086
    timeout -s INT "$DUR" valgrind --tool=callgrind --separate-threads=yes \
        --callgrind-out-file="$d/cg.%p" "$TESTPMD" $EAL -- --nb-cores=1 --txq=1 --rxq=1 \
        --burst=32 --total-num-mbufs=8191 --stats-period 100 "$@" >"$d/log" 2>&1
    rm -rf "/var/run/dpdk/$PFX"
    # The forwarding lcore is the thread that runs net_null's TX (stripped
    # binaries: found by the PMD's object, the thread with most of it).
    ir=$(for f in "$d"/cg.*-*; do
        grep -q librte_net_null "$f" && sed -n 's/^summary: //p' "$f"
    done | sort -n | tail -1)
    pk=$(grep -A3 'Forward statistics for port 0' "$d/log" | sed -n 's/.*TX-packets: *\([0-9]*\).*/\1/p' |
        tail -1)
    [ -n "$ir" ] && [ -n "$pk" ] && [ "$pk" != 0 ] || { echo "failed"; return; }
    $PY -c "print('%.1f (%d packets)' % ($ir / float($pk), $pk))"
}

PY=/usr/bin/python3
echo "# instructions per packet, TX thread, callgrind; pvpkit-gen: $N and $((4 * N)) packets," \
    "testpmd: ${DUR}s"
for c in $(echo "$CASES" | fold -w1); do
    case $c in
    a)
        echo "a 64B 1 flow     pvpkit-gen  $(gen_case --size 64)"
        echo "a 64B 1 flow     testpmd     $(tpmd_case --forward-mode=txonly --txpkts=60)"
        ;;
    b)
        echo "b 64B 1M flows   pvpkit-gen  $(gen_case --size 64 --flows 1000000)"
        echo "b 64B 1M flows   testpmd     $(tpmd_case --forward-mode=flowgen \
            --flowgen-flows=1000000 --txpkts=60)"
        ;;
    c)
        echo "c 1518B 1 flow   pvpkit-gen  $(gen_case --size 1518)"
        echo "c 1518B 1 flow   testpmd     $(tpmd_case --forward-mode=txonly --txpkts=1514)"
        ;;
    d) echo "d IMIX           pvpkit-gen  $(gen_case --imix)" ;;
    e) echo "e 64B 1000 flows pvpkit-gen  $(gen_case --size 64 --flows 1000)" ;;
    *) echo "unknown case $c" ;;
    esac
done
[ "$KEEP" = 1 ] && echo "# callgrind files: $TMP"
exit 0
