#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-gen --trex: the port's MACs over a stream's as its "flags" ask
# (--dst-mac, set_l2, a resolved set_l3), push_remote's MACs after set_l2
# and push_pkts' ipg_usec (trex_l2l3.py) on two memif ports of one
# process, port 0's TX port 1's RX; what port 1 received written by
# --capture and read back by tshark. With PVP_TREX_CORE, TRex's own
# client resolves port 0's gateway (port 1) and sends a profile to it.
# About 10 s.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_need_wire 256 scapy

trex_memif_up l2l3 --speed 10000 --dst-mac 02:00:00:00:00:dd --capture "$PVP_TMP/rx1.pcap,port=1,dir=rx"
cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
"$PVP_PY" trex_l2l3.py send "$rpc" "$pub" "$PVP_TMP" || { cat "$PVP_TMP/gen.log"; fail "send"; }
if [ -n "${PVP_TREX_CORE:-}" ]; then
    "$PVP_PY" trex_l2l3_client.py "$PVP_TREX_CORE" "$rpc" "$pub" ||
        { cat "$PVP_TMP/gen.log"; fail "TRex's client"; }
    echo yes >"$PVP_TMP/client"
else
    info "TRex's own client part skipped: no trex-core checkout (set PVP_TREX_CORE)"
fi
trex_gen_down
"$PVP_PY" trex_l2l3.py check "$PVP_TMP/rx1.pcap" "$PVP_TMP" || fail "received frames"
echo "PASS"
