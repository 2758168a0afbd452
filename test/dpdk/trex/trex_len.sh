#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# TRex's variable-length streams (trim_pkt_size with the IP/UDP length
# writes of trex-core's udp_inc_len_9k) and 9230 B frames through
# pvpkit-gen --trex on a net_pcap port whose MTU takes them: each frame's
# length and its IP/UDP lengths follow the size variable, checksums valid
# (trex_len.py).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_need_wire

# Frames of 9230 B: an MTU of 9216 and small pools of jumbo mbufs.
trex_gen_up trexlen "net_pcap0,tx_pcap=$PVP_TMP/out.pcap" -- \
    --no-rx --speed 1000 --mtu 9216 --pool-size 1023
cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
"$PVP_PY" trex_len.py send "$rpc" || { cat "$PVP_TMP/gen.log"; fail "send"; }
trex_gen_down
tshark -r "$PVP_TMP/out.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
    -T fields -e ip.src -e frame.len -e ip.len -e udp.length -e ip.checksum.status \
    -e udp.checksum.status >"$PVP_TMP/fields.txt" 2>/dev/null || fail "tshark"
"$PVP_PY" trex_len.py check "$PVP_TMP/fields.txt" || fail "frames"
echo "PASS"
