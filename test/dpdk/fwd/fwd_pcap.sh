#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pcap in -> pvpkit-fwd -> pcap out (net_pcap rx_pcap/tx_pcap) for every
# mode: all packets forwarded, rewritten exactly as the mode says (MACs,
# 5-tuple with valid checksums, payload untouched, checked with scapy and
# tshark), counters served over the control channel and printed at exit
# equal to the packet count. With --seq-check, the per-stream counts.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/fwd/fwd_lib.sh"

need_bin "$PVP_FWD"
need_cmd tshark
$PVP_PY -c 'import scapy' 2>/dev/null || skip "needs scapy in $PVP_PY (python3-scapy)"

IN=$PVP_TMP/in.pcap
N=$($PVP_PY "$FWD_DIR/fwd_pcap.py" make "$IN") || fail "cannot make the input pcap"
info "input: $N packets"
PEER=02:00:00:00:00:99

run_mode() {
    local mode=$1 extra=${2:-} out=$PVP_TMP/out-$1.pcap sock=$PVP_TMP/fwd-$1.sock
    local log=$PVP_TMP/fwd-$1.log sum=$PVP_TMP/fwd-$1.json stats src rc pinfo

    # net_pcap needs no hugepages; one lcore that sleeps when idle.
    fwd_start "$log" $(fwd_eal_nohuge "pcap-$mode") -l 0 \
        --vdev "net_pcap0,rx_pcap=$IN,tx_pcap=$out" -- \
        --mode "$mode" --ctl "unix:$sock" --idle-sleep 200 --json "$sum" $extra
    fwd_wait_sock "$sock" "$FWD_PID" || { cat "$log"; fail "$mode: control socket never answered"; }
    pinfo=$($FWD_CTL "$sock" info) || fail "$mode: info"
    stats=$($FWD_CTL "$sock" --wait-tx "$N" 10) || { cat "$log"; fail "$mode: not all packets forwarded"; }
    [ "$(json_eval "$stats" 'j["rx_packets"]')" = "$N" ] || fail "$mode: stats.get rx_packets != $N: $stats"
    [ "$(json_eval "$stats" 'j["tx_packets"]')" = "$N" ] || fail "$mode: stats.get tx_packets != $N: $stats"
    [ "$(json_eval "$stats" 'j["tx_dropped"]')" = 0 ] || fail "$mode: tx_dropped: $stats"
    total=$N
    if [ "$extra" = --seq-check ]; then
        SEQ_STATS=$($FWD_CTL "$sock" stats.get) || fail "$mode: stats.get"
        # stats.clear: counters and per-stream trackers start again from 0.
        $FWD_CTL "$sock" stats.clear >/dev/null || fail "$mode: stats.clear"
        CLEARED=$($FWD_CTL "$sock" stats.get) || fail "$mode: stats.get"
        total=0
    fi
    fwd_stop "$FWD_PID"
    rc=$?
    [ $rc = 0 ] || { cat "$log"; fail "$mode: exit status $rc after SIGTERM"; }
    [ "$(fwd_total "$sum" 0 rx_packets)" = "$total" ] || { cat "$log"; fail "$mode: --json rx_packets != $total"; }
    [ "$(fwd_total "$sum" 0 tx_packets)" = "$total" ] || { cat "$log"; fail "$mode: --json tx_packets != $total"; }

    src=$(json_eval "$pinfo" 'j["ports"][0]["mac"]')
    $PVP_PY "$FWD_DIR/fwd_pcap.py" check "$mode" "$IN" "$out" "$src" "$PEER" ||
        fail "$mode: output differs from what the mode should write"
    [ "$(tshark -r "$out" 2>/dev/null | wc -l)" = "$N" ] || fail "$mode: tshark does not read $N packets"
}

run_mode io
run_mode macswap
run_mode mac "--peer-mac $PEER"
run_mode 5tswap

# tshark's own checksum validation of the 5tswap output: none may be bad.
bad=$(tshark -r "$PVP_TMP/out-5tswap.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
    -o tcp.check_checksum:TRUE \
    -Y 'ip.checksum.status==0 || udp.checksum.status==0 || tcp.checksum.status==0' 2>/dev/null | wc -l)
good=$(tshark -r "$PVP_TMP/out-5tswap.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
    -o tcp.check_checksum:TRUE \
    -Y 'ip.checksum.status==1 || udp.checksum.status==1 || tcp.checksum.status==1' 2>/dev/null | wc -l)
info "tshark on 5tswap output: $good packets with good checksums, $bad bad"
[ "$bad" = 0 ] || fail "tshark finds $bad packets with bad checksums"
[ "$good" -ge $((N - 2)) ] || fail "tshark validated only $good checksums"

# --seq-check: the UDP packets carry stream 7 with seq 5 missing.
UDP=$(tshark -r "$IN" -Y udp 2>/dev/null | wc -l)
SEQ_STATS=""
CLEARED=""
run_mode macswap --seq-check
info "seq-check: $SEQ_STATS"
[ "$(json_eval "$SEQ_STATS" '[s["stream"] for s in j["streams"]]')" = "[7]" ] ||
    fail "seq-check: expected one stream, 7"
[ "$(json_eval "$SEQ_STATS" 'j["streams"][0]["rx_packets"]')" = "$UDP" ] || fail "seq-check: rx_packets != $UDP"
[ "$(json_eval "$SEQ_STATS" 'j["streams"][0]["gaps"]')" = 1 ] || fail "seq-check: gaps != 1"
[ "$(json_eval "$SEQ_STATS" 'j["streams"][0]["dup"]+j["streams"][0]["ooo"]')" = 0 ] || fail "seq-check: dup/ooo"
[ "$(json_eval "$SEQ_STATS" 'j["unsigned_rx"]')" = $((N - UDP)) ] || fail "seq-check: unsigned_rx"
info "after stats.clear: $CLEARED"
[ "$(json_eval "$CLEARED" 'j["ports"][0]["rx_packets"], j["ports"][0]["tx_packets"], j["streams"], j["unsigned_rx"]')" = \
    "(0, 0, [], 0)" ] || fail "stats.clear did not clear counters and streams"

# Hostile frames (signed with many stream ids, bad magic, cut short, not
# IP): every one is in exactly one of a stream's rx_packets, unsigned_rx
# and untracked_rx of the --json summary. Without --addr, pvpkit-fwd
# forwards ARP frames as any other: unsigned.
want=$($PVP_PY "$PVP_SOURCE_DIR/test/dpdk/gen/hostile_pcap.py" "$PVP_TMP/hostile.pcap") ||
    fail "hostile_pcap.py"
fwd_start "$PVP_TMP/hostile.log" $(fwd_eal_nohuge hostile) -l 0 \
    --vdev "net_pcap0,rx_pcap=$PVP_TMP/hostile.pcap,tx_pcap=$PVP_TMP/hostile-out.pcap" -- \
    --mode macswap --seq-check --ctl "unix:$PVP_TMP/hostile.sock" --idle-sleep 200 \
    --json "$PVP_TMP/hostile.json"
fwd_wait_sock "$PVP_TMP/hostile.sock" "$FWD_PID" || { cat "$PVP_TMP/hostile.log"; fail "hostile: no socket"; }
$FWD_CTL "$PVP_TMP/hostile.sock" --wait-tx "$(json_eval "$want" 'j["frames"]')" 10 >/dev/null ||
    fail "hostile: not all frames forwarded"
fwd_stop "$FWD_PID" || fail "hostile: exit status"
got=$($PVP_PY - "$PVP_TMP/hostile.json" "$want" <<'PY'
import json, sys
d, w = json.load(open(sys.argv[1])), json.loads(sys.argv[2])
streams = {str(s["stream"]): s["rx_packets"] for s in d["streams"]}
print(d["ports"][0]["rx_packets"] == sum(streams.values()) + d["unsigned_rx"] + d["untracked_rx"],
      streams == w["signed"], d["unsigned_rx"] == w["unsigned"] + w["neigh"])
PY
)
info "hostile: $want -> adds up, streams, unsigned: $got"
[ "$got" = "True True True" ] || fail "hostile frames not all accounted: $(cat "$PVP_TMP/hostile.json")"
echo "PASS"
