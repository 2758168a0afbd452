#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# CSIT's VXLAN packet at 64 B in a latency stream (trex_vxlat.py) on two
# memif ports of one process, port 0's TX port 1's RX: every packet a
# latency sample, and the frames port 1 received (--capture), decoded by
# tshark, with the signature over the inner IPv4 header where TRex puts
# its latency payload. About 5 s.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_need_wire 256

trex_memif_up vxlat --speed 10000 --capture "$PVP_TMP/rx1.pcap,port=1,dir=rx"
cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
"$PVP_PY" trex_vxlat.py send "$rpc" "$pub" "$PVP_TMP/res.json" ||
    { cat "$PVP_TMP/gen.log"; fail "latency session"; }
trex_gen_down
tshark -r "$PVP_TMP/rx1.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
    -Y "udp.dstport == 4789" -T fields -e frame.len -e udp.srcport -e udp.checksum.status \
    -e ip.id -e ip.src -e ip.checksum.status -e ip.frag_offset >"$PVP_TMP/fields.txt" \
    2>/dev/null || fail "tshark"
"$PVP_PY" trex_vxlat.py check "$PVP_TMP/res.json" "$PVP_TMP/fields.txt" || fail "frames"
echo "PASS"
