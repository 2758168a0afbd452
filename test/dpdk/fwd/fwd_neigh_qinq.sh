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

PYTHONPATH="$PVP_SOURCE_DIR/test/lib" "$PVP_PY" - "$PVP_TMP/in.pcap" <<'PY' || fail "pcap writer"
import sys
from frames import arp_request, echo4, ns, qinq, tag, write_pcap
asker = "02:00:00:00:00:99"
arp = arp_request(asker, "10.0.0.99", "10.0.0.2")
echo = echo4(asker, "02:00:00:00:00:01", "10.0.0.99", "10.0.0.2", b"pvpkit-ping", 0x1234, 1)
frames = [qinq(arp, 10, 20), qinq(ns(asker, "2001:db8::99", "2001:db8::2"), 10, 20), qinq(echo, 10, 20),
          tag(arp, (0x8100, 10), (0x8100, 20)), tag(arp, (0x8100, 10)), arp, qinq(arp, 20, 10)]
write_pcap(sys.argv[1], frames)
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
