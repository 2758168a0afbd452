#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# TRex field engine features without a closed form (value_list, wide and
# right-shifted masks, repeatable random, fix_checksum_icmpv6) through
# pvpkit-gen --trex on a net_pcap port: the frames, as tshark decodes them,
# must hold TRex's sequences of values (trex_fe.py).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

need_bin "$PVP_GEN"
need_cmd tshark
need_hugepages 128
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"
"$PVP_PY" -c "import zmq" 2>/dev/null || skip "needs python3-zmq"
ldd "$PVP_GEN" | grep -q libzmq || skip "pvpkit-gen built without --trex (no libzmq at build time)"

trex_gen_up trexfe "net_pcap0,tx_pcap=$PVP_TMP/out.pcap"
cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
"$PVP_PY" trex_fe.py send "$rpc" "$pub" || { cat "$PVP_TMP/gen.log"; fail "send"; }
trex_gen_down
tshark -r "$PVP_TMP/out.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
    -T fields -e ip.src -e ip.dsfield -e ip.id -e udp.srcport -e udp.dstport \
    -e icmpv6.echo.sequence_number -e icmpv6.checksum.status -e ip.checksum.status \
    -e udp.checksum.status -e data.data >"$PVP_TMP/fields.txt" 2>/dev/null || fail "tshark"
"$PVP_PY" trex_fe.py check "$PVP_TMP/fields.txt" || fail "frames"
echo "PASS"
