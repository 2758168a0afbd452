#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# TRex's field engine through pvpkit-gen --trex on a net_pcap port: the
# frames written must hold TRex's sequences of values (trex_vm.py).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_need 128 scapy

trex_gen_up trexvm "net_pcap0,tx_pcap=$PVP_TMP/out.pcap"
cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
"$PVP_PY" trex_vm.py send "$rpc" "$pub" || { cat "$PVP_TMP/gen.log"; fail "send"; }
trex_gen_down
"$PVP_PY" trex_vm.py check "$PVP_TMP/out.pcap" || fail "frames"
echo "PASS"
