#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# CSIT's Geneve field engine (eight fields from one var of 65,536 values)
# through pvpkit-gen --trex on a net_pcap port, with and without flow_stats:
# the frames, as tshark decodes them, must hold TRex's values, valid
# checksums and, with flow_stats, the signature at the packet's end
# (trex_geneve.py).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

need_bin "$PVP_GEN"
need_cmd tshark
need_hugepages 128
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"
"$PVP_PY" -c "import zmq" 2>/dev/null || skip "needs python3-zmq"
ldd "$PVP_GEN" | grep -q libzmq || skip "pvpkit-gen built without --trex (no libzmq at build time)"

trex_gen_up trexgeneve "net_pcap0,tx_pcap=$PVP_TMP/out.pcap"
cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
"$PVP_PY" trex_geneve.py send "$rpc" "$pub" || { cat "$PVP_TMP/gen.log"; fail "send"; }
trex_gen_down
tshark -r "$PVP_TMP/out.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
    -T fields -e ip.src -e udp.srcport -e geneve.vni -e eth.dst -e ip.checksum.status \
    -e udp.checksum.status -e data.data >"$PVP_TMP/fields.txt" 2>/dev/null || fail "tshark"
"$PVP_PY" trex_geneve.py check "$PVP_TMP/fields.txt" || fail "frames"
echo "PASS"
