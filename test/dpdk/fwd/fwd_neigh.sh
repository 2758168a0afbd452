#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-fwd --addr: a guest answers ARP and neighbour solicitations for
# its addresses (a routed vswitch resolves the VM before it forwards to
# it). Through net_pcap: an ARP request, an NS and a ping (ICMP echo) for
# the guest, an ARP request for another host, and 5 UDP frames. Out come
# the 5 UDP frames (forwarded) and exactly three replies, to the asker,
# from the port's MAC (the Ethernet source, the ARP sender and the NA's
# target option agree; the echo reply has the ping's data); the four
# ARP/ND/echo frames are never forwarded and are counted in neigh_rx.
# The port's counters reconcile: 9 frames in, 8 out (5 forwarded, the 3
# replies in its TX counters as the requests are in its RX ones).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/fwd/fwd_lib.sh"

need_bin "$PVP_FWD"
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"

PYTHONPATH="$PVP_SOURCE_DIR/test/lib" "$PVP_PY" - "$PVP_TMP/in.pcap" <<'PY' || fail "pcap writer"
import sys
from frames import arp_request, echo4, ns, write_pcap
asker, guest = "02:00:00:00:00:99", "02:00:00:00:00:01"
udp = (bytes.fromhex("020000000001020000000099") + b"\x08\x00" +
       bytes.fromhex("45000026000100004011") + b"\0\0" + bytes([10, 0, 0, 99, 10, 0, 0, 2]) +
       bytes.fromhex("04d2162e00120000") + b"pvpkit" + bytes(4))
echo = echo4(asker, guest, "10.0.0.99", "10.0.0.2", b"pvpkit-ping", 0x1234, 1) + bytes(7)
frames = [arp_request(asker, "10.0.0.99", "10.0.0.2"), udp, ns(asker, "2001:db8::99", "2001:db8::2"),
          udp, arp_request(asker, "10.0.0.99", "10.0.0.9"), echo, udp, udp, udp]
write_pcap(sys.argv[1], frames)
PY
timeout 60 "$PVP_FWD" $(fwd_eal_nohuge neigh) -l 0 \
    --vdev "net_pcap0,rx_pcap=$PVP_TMP/in.pcap,tx_pcap=$PVP_TMP/out.pcap" -- \
    --addr 0:ip=10.0.0.2,ip6=2001:db8::2 --duration 1 --idle-sleep 200 --ctl none \
    --json "$PVP_TMP/fwd.json" >"$PVP_TMP/fwd.log" 2>&1 || { cat "$PVP_TMP/fwd.log"; fail "fwd run failed"; }
got=$("$PVP_PY" - "$PVP_TMP/out.pcap" "$PVP_TMP/fwd.json" <<'PY'
import json, struct, sys
data = open(sys.argv[1], "rb").read()
off, kinds = 24, []
asker = bytes.fromhex("020000000099")
while off < len(data):
    incl = struct.unpack_from("<IIII", data, off)[2]
    fr = data[off + 16:off + 16 + incl]
    off += 16 + incl
    if fr[12:14] == b"\x08\x06":
        ok = fr[0:6] == bytes.fromhex("020000000099") and fr[20:22] == b"\0\2" and fr[22:28] == fr[6:12] != asker and fr[28:32] == bytes([10, 0, 0, 2])
        kinds.append("arp-reply" if ok else "arp?")
    elif fr[12:14] == b"\x08\x00" and fr[23] == 1:
        ok = fr[0:6] == asker and fr[34] == 0 and fr[30:34] == bytes([10, 0, 0, 99]) and fr[42:53] == b"pvpkit-ping"
        kinds.append("echo-reply" if ok else "icmp?")
    elif fr[12:14] == b"\x86\xdd":
        ok = fr[54] == 136 and fr[0:6] == asker and fr[58] == 0x60 and fr[6:12] == fr[80:86]
        kinds.append("na" if ok else "nd?")
    else:
        kinds.append("udp")
d = json.load(open(sys.argv[2]))
n = d["neigh"][0]
port = d["ports"][0]
print(sorted(kinds), d["neigh_rx"], n["arp_answered"], n["ns_answered"], n["echo_answered"], n["ignored"],
      "in", port["rx_packets"], "out", port["tx_packets"], port["tx_dropped"])
PY
) || fail "reading the output"
info "out: $got"
[ "$got" = "['arp-reply', 'echo-reply', 'na', 'udp', 'udp', 'udp', 'udp', 'udp'] 4 1 1 1 1 in 9 out 8 0" ] || fail "got $got"
echo "PASS"
