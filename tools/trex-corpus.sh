#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# TRex's stateless simulator as the oracle for pvpkit-gen --trex
# (doc/trex.rst, "Checked against TRex itself"): every scripts/stl profile of
# a trex-core checkout whose simulator is built (linux/build/linux/bp-sim-64),
# stream by stream, the first N packets compared byte for byte from byte 12
# on with what pvpkit-gen sends for the same stream through TRex's client
# (in a flow_stats stream, not the payload bytes where pvpkit-gen puts its
# signature and TRex its latency payload: tools/trex_corpus.py).
#
# Its port takes TRex's largest packets (--mtu 9224, pools of jumbo mbufs).
#
# Usage: tools/trex-corpus.sh [-n N] [-b BUILD_DIR] [-c CACHE_DIR] TREX_CORE [PROFILE...]
#   TREX_CORE may also come from $PVP_TREX_CORE (then left out before the
#   PROFILEs); CACHE_DIR (made if absent) keeps the simulator's pcaps between runs (it
#   starts once a stream, seconds each).
#   Exit 0 when every profile passes, 1 otherwise, 77 when what it needs
#   is absent.
set -u
n=50
build=${PVP_BUILD_DIR:-build}
while getopts "n:b:c:" o; do
    case $o in
    n) n=$OPTARG ;;
    b) build=$OPTARG ;;
    c) mkdir -p "$OPTARG" || { echo "trex-corpus.sh: -c $OPTARG: cannot make the folder" >&2; exit 2; }
       export TREX_SIM_CACHE=$OPTARG ;;
    *) echo "usage: $0 [-n N] [-b BUILD_DIR] [-c CACHE_DIR] TREX_CORE [PROFILE...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
# A first argument that is no folder is a profile: TREX_CORE comes from the environment.
core=${PVP_TREX_CORE:-}
[ $# -gt 0 ] && [ -d "$1" ] && { core=$1; shift; }
src=$(cd "$(dirname "$0")/.." && pwd)
gen=$build/app/gen/pvpkit-gen
[ -n "$core" ] && [ -d "$core/scripts/stl" ] || { echo "SKIP: no trex-core checkout (set PVP_TREX_CORE)"; exit 77; }
[ -x "$core/linux/build/linux/bp-sim-64" ] || [ -x "$core/scripts/bp-sim-64" ] ||
    { echo "SKIP: $core has no built simulator (bp-sim-64)"; exit 77; }
[ -x "$gen" ] || { echo "SKIP: no $gen"; exit 77; }
ldd "$gen" | grep -q libzmq || { echo "SKIP: pvpkit-gen built without --trex"; exit 77; }

work=$(mktemp -d /tmp/pvp-trex-corpus.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
. "$src/tools/trex-gen.sh"
trex_tool_gen "$gen" "$work/gen.log" --in-memory --no-pci --file-prefix="trexcorpus$$" \
    --log-level=lib.eal:error -m 256 -l 0-1 --vdev "net_pcap0,tx_pcap=$work/tx.pcap" -- \
    --no-rx --speed 1000 --idle-sleep 50 --mtu 9224 --pool-size 1023
/usr/bin/python3 "$src/tools/trex_corpus.py" "$core" "$rpc" "$pub" "$work/tx.pcap" "$work" "$n" "$@" |
    tee "$work/result.txt"
grep -q '^# ' "$work/result.txt" || exit 1
! grep -qv -e ' PASS$' -e '^# ' "$work/result.txt"
