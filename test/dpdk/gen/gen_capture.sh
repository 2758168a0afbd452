#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-gen --capture on a net_ring loopback port (every frame sent comes
# back): a BPF filter takes one flow of ten on RX, a count bounds a
# capture, the TX side is captured apart; tshark reads each file. Then
# the capture.* control methods (gen_capture.py). Every frame captured is
# still in its stream's counters. About 10 s.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_hugepages 128
need_cmd tshark
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"

# cap NAME CAPTURE-ARG: 1000 frames of 10 flows (16.0.0.1..10), 100 per flow.
cap() {
    "$PVP_GEN" $(pvp_eal "cap$1") -m 256 -l 0-1 --vdev net_ring0 -- \
        --rate 20kpps --count 1000 --flows 10 --idle-sleep 50 --quiet \
        --capture "$PVP_TMP/$1.pcap$2" --json "$PVP_TMP/$1.json" >"$PVP_TMP/$1.log" 2>&1 ||
        { cat "$PVP_TMP/$1.log"; fail "$1: pvpkit-gen failed"; }
    json_get "$PVP_TMP/$1.json" "(d['streams'][0]['tx_packets'], d['streams'][0]['rx_packets'], d['streams'][0]['lost'])" |
        grep -qx '(1000, 1000, 0)' || fail "$1: a captured frame left its stream's counters"
}

info "RX, filter 'udp and src host 16.0.0.3': flow 3's 100 frames"
cap flow ",filter=udp and src host 16.0.0.3,dir=rx,port=0"
n=$(tshark -r "$PVP_TMP/flow.pcap" 2>/dev/null | wc -l)
m=$(tshark -r "$PVP_TMP/flow.pcap" -Y 'ip.src == 16.0.0.3 && frame.len == 60' 2>/dev/null | wc -l)
[ "$n" = 100 ] && [ "$m" = 100 ] || fail "flow: $n frames, $m of flow 3 (expected 100, 100)"
json_get "$PVP_TMP/flow.json" \
    "d['capture'] == {'matched': 100, 'captured': 100, 'bytes': 6000, 'over_limit': 0, 'dropped': 0}" |
    grep -qx True ||
    fail "flow: capture counts $(json_get "$PVP_TMP/flow.json" "d['capture']")"

info "count=30 bounds it; the rest is counted over_limit"
cap count ",count=30,dir=rx"
n=$(tshark -r "$PVP_TMP/count.pcap" 2>/dev/null | wc -l)
[ "$n" = 30 ] || fail "count: $n frames in the file, expected 30"
json_get "$PVP_TMP/count.json" "(d['capture']['captured'], d['capture']['over_limit'])" |
    grep -qx '(30, 970)' || fail "count: $(json_get "$PVP_TMP/count.json" "d['capture']")"

info "bytes=6000 bounds it to 100 frames of 60 B"
cap bytes ",bytes=6000,dir=tx"
n=$(tshark -r "$PVP_TMP/bytes.pcap" 2>/dev/null | wc -l)
[ "$n" = 100 ] || fail "bytes: $n frames in the file, expected 100"

info "both sides of the port: each frame once sent, once received"
cap both ""
n=$(tshark -r "$PVP_TMP/both.pcap" 2>/dev/null | wc -l)
u=$(tshark -r "$PVP_TMP/both.pcap" -T fields -e frame.len -e ip.src -e udp.srcport 2>/dev/null | sort -u | wc -l)
[ "$n" = 2000 ] && [ "$u" = 10 ] || fail "both: $n frames, $u distinct (expected 2000, 10)"

info "capture.start / status / stop over the control socket"
mkdir -p "$PVP_TMP/files"
sock="$PVP_TMP/gen.sock"
"$PVP_GEN" $(pvp_eal capctl) -m 256 -l 0-1 --vdev net_ring0 -- \
    --server --ctl "unix:$sock" --ctl-files-dir "$PVP_TMP/files" --idle-sleep 100 \
    >"$PVP_TMP/ctl.log" 2>&1 &
pid=$!
pvp_track $pid
"$PVP_PY" "$PVP_SOURCE_DIR/test/dpdk/gen/gen_capture.py" "$sock" "$PVP_TMP/files" ||
    { cat "$PVP_TMP/ctl.log"; fail "control"; }
m=$(tshark -r "$PVP_TMP/files/ctl.pcap" -Y 'ip.src == 16.0.0.4' 2>/dev/null | wc -l)
[ "$m" = 200 ] || fail "ctl.pcap: $m frames of 16.0.0.4, expected 200"
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 0 ] || { cat "$PVP_TMP/ctl.log"; fail "exit status $rc after SIGTERM"; }
echo "PASS"
