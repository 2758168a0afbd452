#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# TRex stream scheduling through pvpkit-gen --trex on a net_pcap port: chains,
# per-stream isg and durations, in the order and gaps TRex's DP core sends
# them, decoded by tshark (trex_sched.py).
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_hugepages 128
need_cmd tshark
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"
"$PVP_PY" -c "import zmq, scapy" 2>/dev/null || skip "needs python3-zmq and python3-scapy"
ldd "$PVP_GEN" | grep -q libzmq || skip "pvpkit-gen built without --trex (no libzmq at build time)"

read -r rpc pub < <("$PVP_PY" -c 'import socket
a, b = socket.socket(), socket.socket()
a.bind(("127.0.0.1", 0)); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')

"$PVP_GEN" $(pvp_eal trexsched) -m 256 -l 0-1 --vdev "net_pcap0,tx_pcap=$PVP_TMP/out.pcap" -- \
    --trex "127.0.0.1:$rpc:$pub" --no-rx --speed 1000 --idle-sleep 50 \
    >"$PVP_TMP/gen.log" 2>&1 &
pid=$!
pvp_track $pid
for _ in $(seq 50); do
    grep -q "TRex stateless server" "$PVP_TMP/gen.log" && break
    kill -0 $pid 2>/dev/null || { cat "$PVP_TMP/gen.log"; fail "pvpkit-gen exited"; }
    sleep 0.1
done
cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
"$PVP_PY" trex_sched.py send "$rpc" "$pub" || { cat "$PVP_TMP/gen.log"; fail "send"; }
# The pcap is complete once the port is closed.
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 0 ] || { cat "$PVP_TMP/gen.log"; fail "exit status $rc after SIGTERM"; }
"$PVP_PY" trex_sched.py check "$PVP_TMP/out.pcap" || fail "frames"
echo "PASS"
