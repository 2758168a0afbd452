#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-gen's ARP/ND (--addr, --l3):
# 1. Two memif ports of one process, each the other's gateway: port 0
#    resolves by ARP, port 1 by IPv6 neighbour discovery, both answer; the
#    streams then go to the resolved MACs and all arrive; port 0's
#    gratuitous ARPs reach port 1 during the run and are counted in
#    neigh_rx, never in unsigned_rx.
# 2. A flood of 20000 ARP requests (net_pcap replays them as fast as it is
#    polled: 32 back to back per poll, with no gap) while traffic runs:
#    every one is counted,
#    replies beyond the limit are counted unanswered, those sent in the
#    responder's "tx", the traffic and its counters are whole.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_hugepages 256
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"

# memif's two ends in one process need shared files, not --in-memory.
PREFIX=pvpt-l3-$$
trap 'rm -f /dev/hugepages/${PREFIX}* 2>/dev/null; pvp_cleanup' EXIT
SOCK=$PVP_TMP/memif.sock
info "two memif ports resolve each other (ARP and ND), then send to the resolved MACs"
timeout 60 "$PVP_GEN" --no-pci --file-prefix=$PREFIX --log-level=lib.eal:error -m 256 \
    --lcores "0@0,1@1,2@1" \
    --vdev "net_memif0,role=server,socket=$SOCK,mac=02:00:00:00:00:0a" \
    --vdev "net_memif1,role=client,socket=$SOCK,mac=02:00:00:00:00:0b" -- \
    --addr 0:ip=10.0.0.1,gw=10.0.0.2,ip6=2001:db8::1,announce=100ms \
    --addr 1:ip=10.0.0.2,ip6=2001:db8::2,gw6=2001:db8::1 --l3 \
    --rate 5kpps --duration 1 --idle-sleep 50 --json "$PVP_TMP/l3.json" \
    >"$PVP_TMP/l3.log" 2>&1 || { cat "$PVP_TMP/l3.log"; fail "l3 run failed"; }
grep -v '^TELEMETRY' "$PVP_TMP/l3.log"
grep -q 'port 0: gateway 10.0.0.2 is at 02:00:00:00:00:0B' "$PVP_TMP/l3.log" ||
    fail "port 0 did not resolve 10.0.0.2 to port 1's MAC"
grep -q 'port 1: gateway 2001:db8::1 is at 02:00:00:00:00:0A' "$PVP_TMP/l3.log" ||
    fail "port 1 did not resolve 2001:db8::1 to port 0's MAC"
json_get "$PVP_TMP/l3.json" "[(s['tx_packets'] > 0, s['tx_packets'] == s['rx_packets'], s['lost']) for s in d['streams']]" |
    grep -qx '\[(True, True, 0), (True, True, 0)\]' ||
    fail "streams: $(json_get "$PVP_TMP/l3.json" "[(s['tx_packets'], s['rx_packets'], s['lost']) for s in d['streams']]")"
json_get "$PVP_TMP/l3.json" "(d['unsigned_rx'], d['unknown_stream_rx'])" | grep -qx '(0, 0)' ||
    fail "unsigned/unknown: $(json_get "$PVP_TMP/l3.json" "(d['unsigned_rx'], d['unknown_stream_rx'])")"
# Port 0 announces every 100 ms: a gratuitous ARP and an unsolicited NA;
# port 1 counts them: the NAs are from its gateway (learnt, the same MAC:
# no change), the ARPs ignored; every frame its RX queue took is in
# exactly one counter.
ann=$(json_get "$PVP_TMP/l3.json" "d['neigh'][0]['announced']")
[ "$ann" -ge 10 ] || fail "port 0 announced $ann times in 1 s (every 100 ms asked)"
n1="d['neigh'][1]"
json_get "$PVP_TMP/l3.json" "d['neigh_rx'] == sum(n['arp_rx'] + n['nd_rx'] + n['echo'] for n in d['neigh']) and $n1['arp_rx'] >= 5 and $n1['nd_rx'] >= 5 and $n1['ignored'] + $n1['na_learnt'] == $n1['arp_rx'] + $n1['nd_rx'] and $n1['gateway_changes'] == 0" |
    grep -qx True || fail "neigh counters: $(json_get "$PVP_TMP/l3.json" "(d['neigh_rx'], d['neigh'])")"
json_get "$PVP_TMP/l3.json" "sum(q['packets'] for p in d['ports'] for q in p['rxq']) == sum(s['rx_packets'] for s in d['streams']) + d['neigh_rx'] + d['unsigned_rx'] + d['unknown_stream_rx']" |
    grep -qx True || fail "RX frames not each in one counter"
rm -f /dev/hugepages/${PREFIX}*

info "20000 ARP requests as fast as net_pcap replays them, while traffic runs"
PYTHONPATH="$PVP_SOURCE_DIR/test/lib" "$PVP_PY" - "$PVP_TMP/flood.pcap" <<'PY' || fail "pcap writer"
import sys
from frames import arp_request, write_pcap
write_pcap(sys.argv[1], [arp_request("02:00:00:00:00:99", "10.0.0.99", "10.0.0.1")] * 20000)
PY
timeout 60 "$PVP_GEN" $(pvp_eal flood) -m 256 -l 0-1 \
    --vdev "net_pcap0,rx_pcap=$PVP_TMP/flood.pcap,tx_pcap=$PVP_TMP/out.pcap" -- \
    --addr 0:ip=10.0.0.1 --count 1000 --rate 10kpps --drain-ms 300 --json "$PVP_TMP/flood.json" \
    >"$PVP_TMP/flood.log" 2>&1 || { cat "$PVP_TMP/flood.log"; fail "flood run failed"; }
grep -v '^TELEMETRY' "$PVP_TMP/flood.log"
json_get "$PVP_TMP/flood.json" "(d['neigh_rx'], d['unsigned_rx'], d['neigh'][0]['arp_rx'], d['neigh'][0]['arp_answered'], d['traffic']['tx_packets'])" |
    grep -qx '(20000, 0, 20000, 20000, 1000)' ||
    fail "flood: $(json_get "$PVP_TMP/flood.json" "(d['neigh_rx'], d['unsigned_rx'], d['neigh'][0], d['traffic']['tx_packets'])")"
# What was answered is in the TX pcap next to the 1000 stream packets.
replies=$("$PVP_PY" - "$PVP_TMP/out.pcap" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
off, arp = 24, 0
while off < len(data):
    _, _, incl, _ = struct.unpack_from("<IIII", data, off)
    frame = data[off + 16:off + 16 + incl]
    if frame[12:14] == b"\x08\x06" and frame[20:22] == b"\x00\x02" and frame[0:6] == bytes.fromhex("020000000099"):
        arp += 1
    off += 16 + incl
print(arp)
PY
)
unans=$(json_get "$PVP_TMP/flood.json" "d['neigh'][0]['unanswered']")
info "replies sent $replies, unanswered (over the limit) $unans"
[ $((replies + unans)) = 20000 ] || fail "replies $replies + unanswered $unans != 20000"
# The responder counts what it sent: the coordinator takes those frames
# off the tester's link (they are in the port's tx_packets).
sent=$(json_get "$PVP_TMP/flood.json" "d['neigh'][0]['tx']")
[ "$sent" = "$replies" ] || fail "neigh tx says $sent, the pcap holds $replies replies"
json_get "$PVP_TMP/flood.json" "d['ports'][0]['tx_packets'] == d['traffic']['tx_packets'] + d['neigh'][0]['tx']" |
    grep -qx True || fail "port TX is not the streams' and the replies: $(json_get "$PVP_TMP/flood.json" "(d['ports'][0]['tx_packets'], d['traffic']['tx_packets'], d['neigh'][0]['tx'])")"
[ "$replies" -ge 256 ] || fail "only $replies replies"
# The summary says it, in one line, when requests went unanswered.
if [ "$unans" != 0 ]; then
    grep -q "^neigh port 0: ARP 20000 in (20000 for us), .* $unans replies not sent (over 50000 a second per RX lcore or a full TX queue: a flood?)$" \
        "$PVP_TMP/flood.log" || fail "no line about the $unans unanswered requests"
fi
echo "PASS"
