#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# TRex's tagged packet groups (trex_tpg.py) on two memif ports of one
# process, port 0's TX port 1's RX: enable/disable, tags, tpg streams,
# get_tpg_stats against what was sent (an injected seq gap included), and
# the frames port 1 received, written by --capture and decoded by tshark:
# VLAN tags and TRex's TPG header; an ieee_1588 latency stream counted
# and its PTP Sync shape decoded; a tpg stream started after disable_tpg
# sends TRex's INVALID_SEQ; a variable-length tpg stream's header at the
# end of each frame. With PVP_TREX_CORE, TRex's own client
# runs its profiles tpg_1tag_stream.py and tpg_dot1q_vm.py too
# (trex_tpg_client.py). About 10 s.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_need_wire 256

trex_memif_up tpg --speed 10000 --capture "$PVP_TMP/rx1.pcap,port=1,dir=rx"
cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
"$PVP_PY" trex_tpg.py send "$rpc" "$pub" "$PVP_TMP/tpg.json" ||
    { cat "$PVP_TMP/gen.log"; fail "TPG session"; }
if [ -n "${PVP_TREX_CORE:-}" ]; then
    "$PVP_PY" trex_tpg_client.py "$PVP_TREX_CORE" "$rpc" "$pub" ||
        { cat "$PVP_TMP/gen.log"; fail "TRex's client"; }
else
    info "TRex's own client part skipped: no trex-core checkout (set PVP_TREX_CORE)"
fi
trex_gen_down
tshark -r "$PVP_TMP/rx1.pcap" -Y "udp.dstport == 12 && frame.number <= 125" -T fields \
    -e vlan.id -e data.data >"$PVP_TMP/fields.txt" 2>/dev/null || fail "tshark"
tshark -r "$PVP_TMP/rx1.pcap" -Y "udp.dstport == 319" -T fields -e ptp.v2.messagetype \
    -e ptp.v2.versionptp -e ptp.v2.messagelength -e ptp.v2.flags.twostep \
    -e ptp.v2.clockidentity >"$PVP_TMP/ptp.txt" 2>/dev/null || fail "tshark"
tshark -r "$PVP_TMP/rx1.pcap" -Y "udp.dstport == 14" -T fields -e vlan.id -e data.data \
    >"$PVP_TMP/stale.txt" 2>/dev/null || fail "tshark"
tshark -r "$PVP_TMP/rx1.pcap" -Y "udp.dstport == 15" -T fields -e frame.len -e data.data \
    >"$PVP_TMP/varlen.txt" 2>/dev/null || fail "tshark"
"$PVP_PY" trex_tpg.py check "$PVP_TMP/tpg.json" "$PVP_TMP/fields.txt" "$PVP_TMP/ptp.txt" \
    "$PVP_TMP/stale.txt" "$PVP_TMP/varlen.txt" ||
    fail "TPG counters or frames"
echo "PASS"
