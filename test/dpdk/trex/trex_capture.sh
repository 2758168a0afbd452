#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-gen --trex on a net_ring loopback port: TRex's capture method
# (trex_capture.py); the frames fetched through a BPF filter, written to a
# pcap as TRex's client does, read back by tshark. About 10 s.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_need_wire

# Its RX lcore runs: the captures take received frames.
trex_gen_up trexcap net_ring0 -- --speed 10000
cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
"$PVP_PY" trex_capture.py "$rpc" "$pub" "$PVP_TMP/fetched.pcap" ||
    { cat "$PVP_TMP/gen.log"; fail "capture"; }
# What the filter took, as tshark reads it: every frame UDP 16.0.0.2 -> :53.
all=$(tshark -r "$PVP_TMP/fetched.pcap" 2>/dev/null | wc -l)
dns=$(tshark -r "$PVP_TMP/fetched.pcap" -Y 'ip.src == 16.0.0.2 && udp.dstport == 53' 2>/dev/null | wc -l)
[ "$all" -ge 100 ] || fail "tshark reads $all frames, expected 100 or more"
[ "$dns" = "$all" ] || fail "tshark: $dns of $all frames match the filter"
info "tshark: $dns of $all fetched frames are UDP 16.0.0.2 -> port 53"
trex_gen_down
echo "PASS"
