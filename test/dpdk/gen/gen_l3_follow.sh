#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-gen --l3 follows its gateway's MAC during a run. Two memif
# ports of one process: port 0 resolves its gateway 10.0.0.2 (port 1's
# address) by ARP and sends 1 kpps of UDP to it for 2 s. Port 1 stands in
# for a router whose port MAC changes mid-run: a replay stream, at 5 pps,
# sends 5 gratuitous ARPs "10.0.0.2 is at 02:00:00:00:00:0b" (its MAC, no
# change) and then 5 "10.0.0.2 is at 02:00:00:00:00:cc", the first of them
# 1 s into the run. Port 1's RX capture shows port 0's frames going to
# 0b, then, from one frame on and for good, to cc; port 0 counts one
# change; every frame sent arrives (memif does not filter MACs): traffic
# never stopped for it. About 10 s.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_hugepages 256
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"

"$PVP_PY" - "$PVP_TMP/garp.pcap" <<'PY' || fail "pcap writer"
import struct, sys
def garp(mac):
    m = bytes.fromhex(mac.replace(":", ""))
    return (b"\xff" * 6 + m + b"\x08\x06" + bytes.fromhex("0001080006040001") + m +
            bytes([10, 0, 0, 2]) + bytes(6) + bytes([10, 0, 0, 2]) + bytes(18))
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for i, mac in enumerate(["02:00:00:00:00:0b"] * 5 + ["02:00:00:00:00:cc"] * 5):
        fr = garp(mac)
        f.write(struct.pack("<IIII", i, 0, len(fr), len(fr)) + fr)
PY
cat >"$PVP_TMP/p.json" <<JSON
{"streams": [
  {"name": "routed", "port": 0, "size": 64, "rate": "1kpps",
   "headers": {"ipv4": {"src": "16.0.0.1", "dst": "48.0.0.1"}}},
  {"name": "router-garp", "port": 1, "pcap": "$PVP_TMP/garp.pcap", "replay": true, "loop": 1,
   "rate": "5pps"}
]}
JSON

# memif's two ends in one process need shared files, not --in-memory.
PREFIX=pvpt-l3f-$$
trap 'rm -f /dev/hugepages/${PREFIX}* 2>/dev/null; pvp_cleanup' EXIT
SOCK=$PVP_TMP/memif.sock
info "the gateway announces another MAC 1 s into a 2 s run"
timeout 60 "$PVP_GEN" --no-pci --file-prefix=$PREFIX --log-level=lib.eal:error -m 256 \
    --lcores "0@0,1@1,2@1" \
    --vdev "net_memif0,role=server,socket=$SOCK,mac=02:00:00:00:00:0a" \
    --vdev "net_memif1,role=client,socket=$SOCK,mac=02:00:00:00:00:0b" -- \
    --addr 0:ip=10.0.0.1,gw=10.0.0.2 --addr 1:ip=10.0.0.2 --l3 \
    --profile "$PVP_TMP/p.json" --duration 2 --idle-sleep 50 \
    --capture "$PVP_TMP/rx1.pcap,port=1,dir=rx,count=100000" --json "$PVP_TMP/f.json" \
    >"$PVP_TMP/f.log" 2>&1 || { cat "$PVP_TMP/f.log"; fail "run failed"; }
grep -v '^TELEMETRY' "$PVP_TMP/f.log"
grep -q 'port 0: gateway 10.0.0.2 is at 02:00:00:00:00:0B' "$PVP_TMP/f.log" ||
    fail "port 0 did not resolve 10.0.0.2 to port 1's MAC"
# Port 0's UDP frames as port 1 got them, in order: their destination MACs.
"$PVP_PY" - "$PVP_TMP/rx1.pcap" >"$PVP_TMP/dmacs.txt" <<'PY' || fail "capture reader"
import struct, sys
data = open(sys.argv[1], "rb").read()
off = 24
while off < len(data):
    _, _, incl, _ = struct.unpack_from("<IIII", data, off)
    fr = data[off + 16:off + 16 + incl]
    if fr[12:14] == b"\x08\x00" and fr[23] == 17:
        print(fr[0:6].hex(":"))
    off += 16 + incl
PY
uniq -c "$PVP_TMP/dmacs.txt"
runs=$(uniq "$PVP_TMP/dmacs.txt" | tr '\n' ' ')
[ "$runs" = "02:00:00:00:00:0b 02:00:00:00:00:cc " ] ||
    fail "the frames' destination MACs were, in runs: $runs (0b, then cc for good expected)"
old=$(grep -c 0b "$PVP_TMP/dmacs.txt")
new=$(grep -c cc "$PVP_TMP/dmacs.txt")
info "to 0b: $old frames, then to cc: $new frames"
# The switch 1 s into the 2 s run: both halves well over a few bursts.
[ "$old" -ge 500 ] && [ "$new" -ge 500 ] || fail "switch-over not mid-run: $old then $new"
json_get "$PVP_TMP/f.json" "d['neigh'][0]['gateway_mac'], d['neigh'][0]['gateway_changes']" |
    grep -qx '02:00:00:00:00:CC 1' ||
    fail "port 0's gateway: $(json_get "$PVP_TMP/f.json" "d['neigh'][0]")"
json_get "$PVP_TMP/f.json" "[(s['tx_packets'], s['rx_packets'], s['lost']) for s in d['streams']][0]" |
    grep -qx "(2000, 2000, 0)" ||
    fail "stream: $(json_get "$PVP_TMP/f.json" "[(s['tx_packets'], s['rx_packets'], s['lost']) for s in d['streams']]")"
[ $((old + new)) = 2000 ] || fail "port 1 captured $((old + new)) of the 2000 frames"
echo "PASS"
