#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-fwd --addr ...,vlan=10/20: a guest in QinQ answers inside both
# tags. Through net_pcap: an ARP request, an NS and a ping in QinQ 10/20
# (802.1ad outside, as TRex tags them), the same ARP request in two
# 802.1Q tags (the ids count, not the TPIDs), then ARP requests on VLAN
# 10 alone, untagged, and in QinQ 20/10. Out come exactly four replies,
# each tagged 802.1ad 10 / 802.1Q 20, from the port's MAC; the other
# three are not its and are neither answered nor forwarded (ignored).
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
def tags(fr, *t):
    return fr[:12] + b"".join(struct.pack("!HH", tpid, v) for tpid, v in t) + fr[12:]
arp = (b"\xff" * 6 + asker + b"\x08\x06" + bytes.fromhex("0001080006040001") + asker +
       bytes([10, 0, 0, 99]) + bytes(6) + bytes([10, 0, 0, 2])) + bytes(18)
src = bytes.fromhex("20010db8000000000000000000000099")
tgt = bytes.fromhex("20010db8000000000000000000000002")
dst = bytes.fromhex("ff0200000000000000000001ff000002")
icmp = bytes([135, 0, 0, 0, 0, 0, 0, 0]) + tgt + bytes([1, 1]) + asker
icmp = icmp[:2] + struct.pack("!H", csum(src + dst + struct.pack("!IxxxB", len(icmp), 58) + icmp)) + icmp[4:]
ns = (bytes.fromhex("3333ff000002") + asker + b"\x86\xdd" + bytes.fromhex("60000000") +
      struct.pack("!HBB", len(icmp), 58, 255) + src + dst + icmp)
ping = bytes([8, 0, 0, 0, 0x12, 0x34, 0, 1]) + b"pvpkit-ping"
ping = ping[:2] + struct.pack("!H", csum(ping)) + ping[4:]
ip = struct.pack("!BBHHHBBH", 0x45, 0, 20 + len(ping), 1, 0, 64, 1, 0) + bytes([10, 0, 0, 99, 10, 0, 0, 2])
ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
echo = bytes.fromhex("020000000001") + asker + b"\x08\x00" + ip + ping
qq = ((0x88a8, 10), (0x8100, 20))
frames = [tags(arp, *qq), tags(ns, *qq), tags(echo, *qq), tags(arp, (0x8100, 10), (0x8100, 20)),
          tags(arp, (0x8100, 10)), arp, tags(arp, (0x88a8, 20), (0x8100, 10))]
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for i, fr in enumerate(frames):
        f.write(struct.pack("<IIII", 1, i, len(fr), len(fr)) + fr)
PY
timeout 60 "$PVP_FWD" $(fwd_eal_nohuge neighqq) -l 0 \
    --vdev "net_pcap0,rx_pcap=$PVP_TMP/in.pcap,tx_pcap=$PVP_TMP/out.pcap" -- \
    --addr 0:ip=10.0.0.2,ip6=2001:db8::2,vlan=10/20 --duration 1 --idle-sleep 200 --ctl none \
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
    if fr[12:20] != bytes.fromhex("88a8000a81000014") or fr[0:6] != asker:
        kinds.append("not-qinq")
    elif fr[20:22] == b"\x08\x06":
        ok = fr[28:30] == b"\0\2" and fr[30:36] == fr[6:12] and fr[36:40] == bytes([10, 0, 0, 2])
        kinds.append("arp-reply" if ok else "arp?")
    elif fr[20:22] == b"\x08\x00":
        kinds.append("echo-reply" if fr[42] == 0 and fr[50:61] == b"pvpkit-ping" else "icmp?")
    elif fr[20:22] == b"\x86\xdd":
        kinds.append("na" if fr[62] == 136 and fr[6:12] == fr[88:94] else "nd?")
    else:
        kinds.append("other")
d = json.load(open(sys.argv[2]))
n = d["neigh"][0]
print(sorted(kinds), d["neigh_rx"], n["arp_answered"], n["ns_answered"], n["echo_answered"],
      n["ignored"], "out", d["ports"][0]["tx_packets"])
PY
) || fail "reading the output"
info "out: $got"
[ "$got" = "['arp-reply', 'arp-reply', 'echo-reply', 'na'] 7 2 1 1 3 out 4" ] || fail "got $got"
echo "PASS"
