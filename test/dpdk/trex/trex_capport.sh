#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-gen --trex: TRex's capture port (trex_capport.py, our own wire
# client and python3-zmq) on two memif ports of one process, port 0's TX
# port 1's RX: port 1's received frames through a BPF filter to the
# client's PAIR socket, the filter changed while traffic runs, the
# client's frames out of port 1, the counters untouched, bad input
# refused. With PVP_TREX_CORE, TRex's own client does the same with its
# start_capture_port() (trex_capport_client.py). About 10 s.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_need 256

trex_memif_up capport --speed 10000
cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
"$PVP_PY" trex_capport.py "$rpc" "$pub" || { cat "$PVP_TMP/gen.log"; fail "capture port"; }
if [ -n "${PVP_TREX_CORE:-}" ]; then
    "$PVP_PY" trex_capport_client.py "$PVP_TREX_CORE" "$rpc" "$pub" ||
        { cat "$PVP_TMP/gen.log"; fail "TRex's client"; }
else
    info "TRex's own client part skipped: no trex-core checkout (set PVP_TREX_CORE)"
fi
trex_gen_down
echo "PASS"
