#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# TRex stream scheduling through pvpkit-gen --trex on a net_pcap port:
# chains, per-stream isg and durations, in the order and gaps TRex's DP
# core sends them, decoded by tshark (trex_sched.py).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_need_wire

trex_gen_up trexsched "net_pcap0,tx_pcap=$PVP_TMP/out.pcap"
cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
"$PVP_PY" trex_sched.py send "$rpc" "$pub" || { cat "$PVP_TMP/gen.log"; fail "send"; }
trex_gen_down
"$PVP_PY" trex_sched.py check "$PVP_TMP/out.pcap" || fail "frames"
echo "PASS"
