#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# FD.io CSIT's driver script, unchanged, against pvpkit-gen --trex on
# memif ports cross-connected in pairs (0-1, 2-3, 4-5; doc/trex.rst, "FD.io
# CSIT's trex_stl_profile.py"): each profile bidirectional (the -udir ones
# one way, as CSIT runs them) at 10 kpps for 1 s, at each frame size, with
# and without --latency; one line per run (tools/trex_csit.py says what
# PASS, NOLAT, LOSS and FAIL mean). The "-6p" profiles run on six ports
# (CSIT's --ports 0 1 2 3 4 5), the others on ports 0 and 1.
#
# Usage: tools/trex-csit.sh [-a] [-s SIZES] [-l LATS] [-p PORTS] [-b BUILD_DIR] [-o LOGDIR] CSIT TREX_CORE [PROFILE...]
#   CSIT and TREX_CORE may also come from $PVP_CSIT and $PVP_TREX_CORE (a
#   checkout of FD.io CSIT, one of trex-core for TRex's Python client),
#   then left out before the PROFILEs.
#   Without PROFILE a sample of six; -a: all of CSIT's trex-stl-*.py.
#   SIZES (default 64,IMIX_v4_1), LATS (default no,yes): comma lists.
#   PORTS: memif ports of pvpkit-gen, 2 or 6 (default 6 when a "-6p"
#   profile is among those run, else 2).
#   Exit 0 when every run passes, 1 otherwise, 77 when what it needs is absent.
set -u
build=${PVP_BUILD_DIR:-build}
all=0 sizes=64,IMIX_v4_1 lats=no,yes logdir= nports=
while getopts "as:l:p:b:o:" o; do
    case $o in
    a) all=1 ;;
    s) sizes=$OPTARG ;;
    l) lats=$OPTARG ;;
    p) nports=$OPTARG ;;
    b) build=$OPTARG ;;
    o) logdir=$OPTARG ;;
    *) echo "usage: $0 [-a] [-s SIZES] [-l LATS] [-p PORTS] [-b BUILD_DIR] [-o LOGDIR] CSIT TREX_CORE [PROFILE...]" >&2
       exit 2 ;;
    esac
done
shift $((OPTIND - 1))
# A first argument that is no folder is a profile: CSIT and TREX_CORE
# then come from the environment.
csit=${PVP_CSIT:-}
[ $# -gt 0 ] && [ -d "$1" ] && { csit=$1; shift; }
core=${PVP_TREX_CORE:-}
[ $# -gt 0 ] && [ -d "$1" ] && { core=$1; shift; }
src=$(cd "$(dirname "$0")/.." && pwd)
gen=$build/app/gen/pvpkit-gen
prof=$csit/GPL/traffic_profiles/trex
[ -n "$csit" ] && [ -f "$csit/GPL/tools/trex/trex_stl_profile.py" ] ||
    { echo "SKIP: no CSIT checkout (set PVP_CSIT)"; exit 77; }
[ -n "$core" ] && [ -d "$core/scripts/automation/trex_control_plane/interactive" ] ||
    { echo "SKIP: no trex-core checkout for TRex's client (set PVP_TREX_CORE)"; exit 77; }
[ -x "$gen" ] || { echo "SKIP: no $gen"; exit 77; }
ldd "$gen" | grep -q libzmq || { echo "SKIP: pvpkit-gen built without --trex"; exit 77; }
/usr/bin/python3 -c 'import zmq, yaml, texttable' 2>/dev/null ||
    { echo "SKIP: needs python3-zmq, python3-yaml, python3-texttable"; exit 77; }

if [ $# -gt 0 ]; then
    profiles=("$@")
elif [ $all = 1 ]; then
    profiles=("$prof"/trex-stl-*.py)
else
    # One of each kind: IPv4 with a source range, UDP ports, VLAN, IPv6
    # (whose 64 B packet has no room for a latency payload), Geneve
    # (masked writes of wide values) and VXLAN.
    profiles=("$prof"/trex-stl-ethip4-ip4src254.py "$prof"/trex-stl-ethip4udp-1u15p.py
        "$prof"/trex-stl-dot1qip4-vlan1ip4src254ip4dst254.py
        "$prof"/trex-stl-ethip6-ip6dst-rnd10000-2p.py "$prof"/trex-stl-ethip4-geneve-1t.py
        "$prof"/trex-stl-dot1qip4vxlan-ip4src1udpsrcrnd.py)
fi
for p in "${profiles[@]}"; do
    [ -f "$p" ] || [ -f "$prof/$p" ] || { echo "no profile $p" >&2; exit 2; }
done
profiles=("${profiles[@]/#trex-stl/$prof/trex-stl}")
if [ -z "$nports" ]; then
    nports=2
    for p in "${profiles[@]}"; do
        case $p in *-6p.py) nports=6 ;; esac
    done
fi
case $nports in 2|6) ;; *) echo "-p $nports: 2 or 6 ports" >&2; exit 2 ;; esac

work=$(mktemp -d /tmp/pvp-trex-csit.XXXXXX)
[ -n "$logdir" ] || logdir=$work
mkdir -p "$logdir"
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work" "/var/run/dpdk/trexcsit$$"' EXIT
. "$src/tools/trex-gen.sh"
# memif needs a file prefix (not --in-memory); a pair of ports per socket,
# port 2k's TX arriving at port 2k+1. The main lcore, a TX lcore per port
# and the RX lcore share the two CPUs in turn (--idle-sleep lets the idle
# ones yield).
vdevs=() lcores=0@0
for ((i = 0; i < nports; i++)); do
    role=server
    [ $((i % 2)) = 1 ] && role=client
    vdevs+=(--vdev "net_memif$i,role=$role,socket=$work/memif$((i / 2)).sock")
done
for ((i = 1; i <= nports + 1; i++)); do
    lcores+=",$i@$((i % 2))"
done
trex_tool_gen "$gen" "$work/gen.log" --file-prefix="trexcsit$$" --no-pci -m 512 \
    --lcores "$lcores" "${vdevs[@]}" --log-level=lib.eal:error -- \
    --speed 10000 --idle-sleep 20
/usr/bin/python3 "$src/tools/trex_csit.py" "$csit" "$core" "$rpc" "$pub" "$logdir" "$sizes" "$lats" \
    "$nports" "${profiles[@]}"
