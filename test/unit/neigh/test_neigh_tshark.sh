#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# lib/neigh's QinQ frames read by someone else: test_neigh writes the ARP,
# ND and echo frames of its QinQ case (ports on 10/20) to a pcap, and
# tshark decodes each: an 802.1ad outer tag 10, an 802.1Q inner tag 20,
# then ARP / ICMP / ICMPv6 with every checksum it verifies good.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_cmd tshark
BIN="$PVP_BUILD_DIR/test/unit/neigh/test_neigh"
need_bin "$BIN"
cd "$PVP_TMP" || exit 1

"$BIN" qinq.pcap > test_neigh.log 2>&1 || { cat test_neigh.log; fail "test_neigh"; }
# One line a frame: outer id;inner id;what the inner tag carries;ARP op;
# ICMP type;ICMPv6 type;IPv4, ICMP, ICMPv6 checksum status (1: good).
tshark -r qinq.pcap -o ip.check_checksum:TRUE \
    -T fields -E separator=';' -e ieee8021ad.id -e vlan.id -e vlan.etype -e arp.opcode \
    -e icmp.type -e icmpv6.type -e ip.checksum.status -e icmp.checksum.status \
    -e icmpv6.checksum.status > got.txt 2> tshark.err || { cat tshark.err; fail "tshark"; }
cat > want.txt <<'W'
10;20;0x0806;1;;;;;
10;20;0x0806;2;;;;;
10;20;0x86dd;;;135;;;1
10;20;0x86dd;;;136;;;1
10;20;0x0800;;8;;1;1;
10;20;0x0800;;0;;1;1;
10;20;0x86dd;;;128;;;1
10;20;0x86dd;;;129;;;1
10;20;0x0806;1;;;;;
10;20;0x86dd;;;136;;;1
W
if ! diff -u want.txt got.txt; then
    fail "tshark reads lib/neigh's QinQ frames otherwise (diff above: want, got)"
fi
info "tshark: $(wc -l < got.txt) frames, each 802.1ad 10 / 802.1Q 20, checksums good:"
sed 's/^/#   /' got.txt
