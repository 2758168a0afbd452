# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-gen --trex for the TRex tests: source it after test/lib/common.sh.
# trex_gen_up TAG VDEV... [-- OPTION...] starts pvpkit-gen on two free
# loopback ports, its ports the --vdev arguments given, with pvpkit-gen's
# OPTIONs (default: --no-rx --speed 1000), and sets $rpc, $pub and $pid
# once the server listens. EAL options other than the defaults (memif's
# two ends in one process need shared files): the array trex_eal.

trex_gen_up() {
    local tag=$1 vdevs=() opts=(--no-rx --speed 1000)
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        vdevs+=(--vdev "$1")
        shift
    done
    [ $# -gt 0 ] && { shift; opts=("$@"); }
    read -r rpc pub < <("$PVP_PY" -c 'import socket
a, b = socket.socket(), socket.socket()
a.bind(("127.0.0.1", 0)); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')
    local eal=(${trex_eal[@]+"${trex_eal[@]}"})
    [ ${#eal[@]} -gt 0 ] || eal=($(pvp_eal "$tag") -m 256 -l 0-1)
    "$PVP_GEN" "${eal[@]}" "${vdevs[@]}" -- \
        --trex "127.0.0.1:$rpc:$pub" "${opts[@]}" --idle-sleep 50 \
        >"$PVP_TMP/gen.log" 2>&1 &
    pid=$!
    pvp_track $pid
    for _ in $(seq 50); do
        grep -q "TRex stateless server" "$PVP_TMP/gen.log" && return 0
        kill -0 $pid 2>/dev/null || { cat "$PVP_TMP/gen.log"; fail "pvpkit-gen exited"; }
        sleep 0.1
    done
    cat "$PVP_TMP/gen.log"
    fail "no TRex server within 5 s"
}

# Stop pvpkit-gen (its pcap is complete once the port is closed).
trex_gen_down() {
    local rc
    kill -TERM $pid
    wait $pid
    rc=$?
    [ $rc = 0 ] || { cat "$PVP_TMP/gen.log"; fail "exit status $rc after SIGTERM"; }
}

# trex_need [PAGES] [MODULE...]: what a test of pvpkit-gen's TRex API
# needs (PAGES hugepages, 128 by default; python3 with zmq and each
# MODULE); SKIP naming what is absent.
trex_need() {
    local pages=${1:-128} m
    [ $# = 0 ] || shift
    need_bin "$PVP_GEN"
    need_hugepages "$pages"
    [ -x "$PVP_PY" ] || skip "needs $PVP_PY"
    for m in zmq "$@"; do
        "$PVP_PY" -c "import $m" 2>/dev/null || skip "needs python3-$m (run tools/bootstrap.sh)"
    done
    ldd "$PVP_GEN" | grep -q libzmq || skip "pvpkit-gen built without --trex (no libzmq at build time)"
}

# trex_need_wire [PAGES] [MODULE...]: trex_need, and tshark to decode
# the frames on the wire.
trex_need_wire() {
    need_cmd tshark
    trex_need "$@"
}

# trex_pcap_test TAG SCRIPT TSHARK_OPTION...: a test of the frames one
# client sends. Skips without what it needs, starts pvpkit-gen on one
# net_pcap port, runs "SCRIPT send RPC PUB", stops pvpkit-gen, decodes
# the capture with tshark's TSHARK_OPTIONs into $PVP_TMP/fields.txt and
# runs "SCRIPT check" on it.
trex_pcap_test() {
    local tag=$1 script=$2
    shift 2
    trex_need_wire
    trex_gen_up "$tag" "net_pcap0,tx_pcap=$PVP_TMP/out.pcap"
    cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
    "$PVP_PY" "$script" send "$rpc" "$pub" || { cat "$PVP_TMP/gen.log"; fail "send"; }
    trex_gen_down
    tshark -r "$PVP_TMP/out.pcap" "$@" >"$PVP_TMP/fields.txt" 2>/dev/null || fail "tshark"
    "$PVP_PY" "$script" check "$PVP_TMP/fields.txt" || fail "frames"
}

# trex_memif_up TAG [OPTION...]: trex_gen_up on two memif ports of one
# process wired to each other (port 0's TX is port 1's RX), MACs
# 02:00:00:00:00:0a and :0b; memif's two ends in one process need shared
# files, not --in-memory, removed at exit.
trex_memif_up() {
    local tag=$1 sock=$PVP_TMP/memif.sock
    shift
    memif_prefix=pvpt-$tag-$$
    trap 'rm -f /dev/hugepages/${memif_prefix}* 2>/dev/null; pvp_cleanup' EXIT
    trex_eal=(--no-pci --file-prefix=$memif_prefix --log-level=lib.eal:error -m 256 --lcores "0@0,1@1,2@1")
    trex_gen_up "$tag" "net_memif0,role=server,socket=$sock,mac=02:00:00:00:00:0a" \
        "net_memif1,role=client,socket=$sock,mac=02:00:00:00:00:0b" -- "$@"
}
