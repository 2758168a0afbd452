#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-gen --trex: TRex's push_remote (trex_push.py) on two memif ports
# of one process, port 0's TX port 1's RX; what port 1 received written
# by --capture and read back by tshark: order, count, gaps by
# ipg/speedup, MACs; with PVP_TREX_CORE, TRex's own client's push_remote()
# and push_pcap() too. About 10 s.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_need_wire 256 scapy

trex_memif_up push --speed 10000 --capture "$PVP_TMP/rx1.pcap,port=1,dir=rx"
cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
"$PVP_PY" trex_push.py send "$rpc" "$pub" "$PVP_TMP" || { cat "$PVP_TMP/gen.log"; fail "push"; }
if [ -n "${PVP_TREX_CORE:-}" ]; then
    "$PVP_PY" trex_push_client.py "$PVP_TREX_CORE" "$rpc" "$pub" "$PVP_TMP" ||
        { cat "$PVP_TMP/gen.log"; fail "TRex's client"; }
    echo yes >"$PVP_TMP/client"
else
    info "TRex's own client part skipped: no trex-core checkout (set PVP_TREX_CORE)"
fi
trex_gen_down
"$PVP_PY" trex_push.py check "$PVP_TMP/rx1.pcap" "$PVP_TMP/timed.count" "$PVP_TMP/client" ||
    fail "received frames"
echo "PASS"
