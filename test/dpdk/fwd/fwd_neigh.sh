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

"$PVP_PY" - "$PVP_TMP/in.pcap" <<'PY' || fail "pcap writer"
import struct, sys
def csum(b):
    b += b"\0" * (len(b) % 2)
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff
asker = bytes.fromhex("020000000099")
def arp(tip):
    return (b"\xff" * 6 + asker + b"\x08\x06" + bytes.fromhex("0001080006040001") + asker +
            bytes([10, 0, 0, 99]) + bytes(6) + bytes(tip)) + bytes(18)
src = bytes.fromhex("20010db8000000000000000000000099")
tgt = bytes.fromhex("20010db8000000000000000000000002")
dst = bytes.fromhex("ff0200000000000000000001ff000002")
icmp = bytes([135, 0, 0, 0, 0, 0, 0, 0]) + tgt + bytes([1, 1]) + asker
c = csum(src + dst + struct.pack("!IxxxB", len(icmp), 58) + icmp)
icmp = icmp[:2] + struct.pack("!H", c) + icmp[4:]
ns = (bytes.fromhex("3333ff000002") + asker + b"\x86\xdd" + bytes.fromhex("60000000") +
      struct.pack("!HBB", len(icmp), 58, 255) + src + dst + icmp)
udp = (bytes.fromhex("020000000001") + asker + b"\x08\x00" +
       bytes.fromhex("45000026000100004011") + b"\0\0" + bytes([10, 0, 0, 99, 10, 0, 0, 2]) +
       bytes.fromhex("04d2162e00120000") + b"pvpkit" + bytes(4))
ping = bytes([8, 0, 0, 0, 0x12, 0x34, 0, 1]) + b"pvpkit-ping"
ping = ping[:2] + struct.pack("!H", csum(ping)) + ping[4:]
ip = struct.pack("!BBHHHBBH", 0x45, 0, 20 + len(ping), 1, 0, 64, 1, 0) + bytes([10, 0, 0, 99, 10, 0, 0, 2])
ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
echo = bytes.fromhex("020000000001") + asker + b"\x08\x00" + ip + ping + bytes(7)
frames = [arp([10, 0, 0, 2]), udp, ns, udp, arp([10, 0, 0, 9]), echo, udp, udp, udp]
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for i, fr in enumerate(frames):
        f.write(struct.pack("<IIII", 1, i, len(fr), len(fr)) + fr)
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
