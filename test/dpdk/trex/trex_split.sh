#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# split_to_cores with two TX lcores on one net_pcap port: each lcore
# sends the values TRex's splitter gives its core, a tuple's too
# (trex_split.py).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_need_wire

# Two TX lcores beside the main one, on 2 CPUs.
trex_eal=($(pvp_eal trexsplit) -m 256 --lcores '0@0,1@1,2@1')
# net_pcap: a TX queue per tx_pcap, so each lcore's frames in a file.
trex_gen_up trexsplit "net_pcap0,tx_pcap=$PVP_TMP/q0.pcap,tx_pcap=$PVP_TMP/q1.pcap" -- \
    --no-rx --speed 1000 --tx-cores 2
cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
"$PVP_PY" trex_split.py send "$rpc" || { cat "$PVP_TMP/gen.log"; fail "send"; }
trex_gen_down
for q in 0 1; do
    tshark -r "$PVP_TMP/q$q.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
        -T fields -e ip.src -e ip.id -e frame.len -e ip.checksum.status \
        -e udp.checksum.status -e udp.srcport -e udp.dstport >"$PVP_TMP/q$q.txt" 2>/dev/null || fail "tshark"
done
"$PVP_PY" trex_split.py check "$PVP_TMP/q0.txt" "$PVP_TMP/q1.txt" || fail "frames"
echo "PASS"
