#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# RX side of pvpkit-gen:
# 1. net_ring loopback (the port's TX ring is its RX ring): every packet
#    comes back, zero loss, no duplicates or reordering, latency > 0 and
#    under a second, in the histogram's HdrHistogram form too.
# 2. A faulty hop: the generator's own pcap output is rewritten (drop 3,
#    duplicate 1, reorder 2) and replayed into the RX of a second run that
#    sends the same sequence again; the counts reported must be exact.
# 3. Two RX lcores, each on its own RX queue: the counts add up exactly.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_hugepages 128
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"
HERE="$PVP_SOURCE_DIR/test/dpdk/gen"

info "net_ring loopback, 50 flows at 20 kpps for 1 s"
"$PVP_GEN" $(pvp_eal loop1) -m 256 -l 0-1 --vdev net_ring0 -- \
    --rate 20kpps --duration 1 --flows 50 --idle-sleep 50 --json "$PVP_TMP/loop.json" \
    >"$PVP_TMP/loop.log" 2>&1 || { cat "$PVP_TMP/loop.log"; fail "loopback run failed"; }
cat "$PVP_TMP/loop.log" | grep -v '^TELEMETRY'
tx=$(json_get "$PVP_TMP/loop.json" "d['streams'][0]['tx_packets']")
rx=$(json_get "$PVP_TMP/loop.json" "d['streams'][0]['rx_packets']")
[ "$tx" -gt 0 ] || fail "nothing sent"
# What was not sent (ring full while the RX side was descheduled) is
# counted apart as tx_unsent; what was sent must all come back.
[ "$rx" = "$tx" ] || fail "received $rx of $tx"
json_get "$PVP_TMP/loop.json" "(d['streams'][0]['lost'], d['streams'][0]['dup'], d['streams'][0]['ooo'], d['unsigned_rx'])" |
    grep -qx '(0, 0, 0, 0)' || fail "loss/dup/ooo/unsigned not all zero"
json_get "$PVP_TMP/loop.json" \
    "0 < d['streams'][0]['latency_ns']['min'] <= d['streams'][0]['latency_ns']['p50'] <= d['streams'][0]['latency_ns']['max'] < 1e9" |
    grep -qx True || fail "latency not sane: $(json_get "$PVP_TMP/loop.json" "d['streams'][0]['latency_ns']")"
# The histogram in HdrHistogram's form too, read by a decoder of its own:
# every packet received.
hdrh=$(json_get "$PVP_TMP/loop.json" "d['streams'][0]['latency_ns']['histogram']['hdrh']")
n=$("$PVP_PY" "$PVP_SOURCE_DIR/test/lib/hdrh_total.py" "$hdrh") || fail "hdrh does not decode: $hdrh"
[ "$n" = "$rx" ] || fail "hdrh holds $n samples of $rx"

info "net_ring loopback of 9000 B frames (jumbo: the MTU is raised)"
"$PVP_GEN" $(pvp_eal loopj) -m 256 -l 0-1 --vdev net_ring0 -- \
    --size 9000 --rate 5kpps --duration 0.5 --idle-sleep 50 --json "$PVP_TMP/jumbo.json" \
    >"$PVP_TMP/jumbo.log" 2>&1 || { cat "$PVP_TMP/jumbo.log"; fail "jumbo loopback run failed"; }
json_get "$PVP_TMP/jumbo.json" \
    "(d['streams'][0]['tx_packets'], d['streams'][0]['rx_packets'], d['streams'][0]['lost'], d['streams'][0]['rx_bytes'])" |
    grep -qx '(2500, 2500, 0, 22490000)' ||
    fail "jumbo loopback: $(json_get "$PVP_TMP/jumbo.json" "d['streams'][0]")"

info "faulty hop: drop 3, duplicate 1, reorder 2 of 1000"
"$PVP_GEN" $(pvp_eal loop2) -m 256 -l 0-1 --vdev "net_pcap0,tx_pcap=$PVP_TMP/orig.pcap" -- \
    --no-rx --quiet --count 1000 --flows 10 >"$PVP_TMP/orig.log" 2>&1 ||
    { cat "$PVP_TMP/orig.log"; fail "pcap run failed"; }
want=$("$PVP_PY" "$HERE/pcap_edit.py" "$PVP_TMP/orig.pcap" "$PVP_TMP/faulty.pcap" \
    --drop 100,101,500 --dup 200 --swap 300 --move 600:610) || fail "pcap_edit"
info "expected: $want"
# Same profile and count again: sequence numbers 0..999 of stream 0 are
# sent to a file while the RX queue reads the faulty copy of the first run.
"$PVP_GEN" $(pvp_eal loop3) -m 256 -l 0-1 \
    --vdev "net_pcap0,rx_pcap=$PVP_TMP/faulty.pcap,tx_pcap=$PVP_TMP/again.pcap" -- \
    --count 1000 --flows 10 --drain-ms 500 --json "$PVP_TMP/faulty.json" \
    >"$PVP_TMP/faulty.log" 2>&1 || { cat "$PVP_TMP/faulty.log"; fail "faulty run failed"; }
cat "$PVP_TMP/faulty.log" | grep -v '^TELEMETRY'
got=$(json_get "$PVP_TMP/faulty.json" \
    "'{\"rx\": %d, \"lost\": %d, \"dup\": %d, \"ooo\": %d}' % tuple(d['streams'][0][k] for k in ('rx_packets', 'lost', 'dup', 'ooo'))")
info "reported: $got"
[ "$got" = "$want" ] || fail "reported $got, expected $want"
info "two RX lcores (--rx-cores 2): the first run's packets split over two RX queues"
# net_pcap has no RSS: queue 0 replays the even packets, queue 1 the odd
# ones, each polled by its own RX lcore; the counts add up exactly.
"$PVP_PY" - "$PVP_TMP/orig.pcap" "$PVP_TMP/even.pcap" "$PVP_TMP/odd.pcap" <<'PY' || fail "split"
import sys
from scapy.all import rdpcap, wrpcap
p = rdpcap(sys.argv[1])
wrpcap(sys.argv[2], p[0::2])
wrpcap(sys.argv[3], p[1::2])
PY
"$PVP_GEN" $(pvp_eal loop4) -m 256 --lcores '0@0,1@1,2@0,3@1' \
    --vdev "net_pcap0,rx_pcap=$PVP_TMP/even.pcap,rx_pcap=$PVP_TMP/odd.pcap,tx_pcap=$PVP_TMP/again2.pcap" -- \
    --count 1000 --flows 10 --rx-cores 2 --drain-ms 500 --json "$PVP_TMP/rx2.json" \
    >"$PVP_TMP/rx2.log" 2>&1 || { cat "$PVP_TMP/rx2.log"; fail "--rx-cores 2 run failed"; }
got=$(json_get "$PVP_TMP/rx2.json" \
    "(d['streams'][0]['rx_packets'], d['streams'][0]['lost'], d['streams'][0]['dup'], [q['packets'] for q in d['ports'][0]['rxq']])")
info "rx, lost, dup, per RX queue: $got"
[ "$got" = "(1000, 0, 0, [500, 500])" ] || fail "--rx-cores 2: $got, expected (1000, 0, 0, [500, 500])"
echo "PASS"
