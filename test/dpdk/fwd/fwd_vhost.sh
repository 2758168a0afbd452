#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Through vhost-user <-> virtio-user, both ways round (host net_vhost as
# server with the guest's virtio-user as client, then virtio-user with
# server=1 and net_vhost client=1). The host-side peer is pvpkit-fwd too:
# it replays a pcap into the vhost port (paired topology) and writes what
# comes back; the guest pvpkit-fwd macswaps. N packets go out, N come back
# MAC-swapped, and the counters of both processes agree on every hop.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/fwd/fwd_lib.sh"

need_bin "$PVP_FWD"
need_hugepages 160
$PVP_PY -c 'import scapy' 2>/dev/null || skip "needs scapy in $PVP_PY (python3-scapy)"

IN=$PVP_TMP/in.pcap
N=$($PVP_PY "$FWD_DIR/fwd_pcap.py" make "$IN") || fail "cannot make the input pcap"

# port JSON PORT COUNTER
port() {
    json_eval "$1" "j['ports'][$2]['$3']"
}

run() {
    local name=$1 host_opt=$2 guest_opt=$3 sock=$PVP_TMP/vhost-$1.sock
    local back=$PVP_TMP/back-$1.pcap hsock=$PVP_TMP/host-$1.sock gsock=$PVP_TMP/guest-$1.sock
    local hlog=$PVP_TMP/host-$1.log glog=$PVP_TMP/guest-$1.log h g hpid gpid c

    start_host() {
        # Host on lcore 0: port 0 = the pcap, port 1 = the vhost port.
        fwd_start "$hlog" $(pvp_eal "vh-host-$name") --single-file-segments -m 128 -l 0 \
            --vdev "net_pcap0,rx_pcap=$IN,tx_pcap=$back" \
            --vdev "net_vhost0,iface=$sock,queues=1$host_opt" -- \
            --mode io --topology paired --ctl "unix:$hsock" --wait-link 20 \
            --tx-retry 20000 --tx-retry-delay 50 --idle-sleep 100
        hpid=$FWD_PID
    }
    start_guest() {
        # Guest on lcore 1.
        fwd_start "$glog" $(pvp_eal "vh-guest-$name") --single-file-segments -m 128 -l 1 \
            --vdev "virtio_user0,path=$sock,queues=1$guest_opt" -- \
            --mode macswap --ctl "unix:$gsock" --idle-sleep 100 --json "$PVP_TMP/guest-$name.json"
        gpid=$FWD_PID
    }
    # Whoever is the vhost-user server starts first.
    if [ -z "$host_opt" ]; then
        start_host
        for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
        start_guest
    else
        start_guest
        for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
        start_host
    fi
    fwd_wait_sock "$gsock" "$gpid" || { cat "$glog"; fail "$name: guest did not start"; }
    fwd_wait_sock "$hsock" "$hpid" || { cat "$hlog"; fail "$name: host did not start"; }
    # Out through the vhost port and back out of the pcap port: 2N sent.
    $FWD_CTL "$hsock" --wait-tx $((2 * N)) 20 >/dev/null ||
        { cat "$hlog" "$glog"; $FWD_CTL "$hsock" stats.get; $FWD_CTL "$gsock" stats.get;
          fail "$name: packets did not come back"; }
    h=$($FWD_CTL "$hsock" stats.get) || fail "$name: host stats.get"
    g=$($FWD_CTL "$gsock" stats.get) || fail "$name: guest stats.get"
    info "$name: host pcap rx $(port "$h" 0 rx_packets) -> vhost tx $(port "$h" 1 tx_packets)" \
        "-> guest rx $(port "$g" 0 rx_packets) tx $(port "$g" 0 tx_packets)" \
        "-> host vhost rx $(port "$h" 1 rx_packets) -> pcap tx $(port "$h" 0 tx_packets)"
    for c in "$(port "$h" 0 rx_packets)" "$(port "$h" 1 tx_packets)" "$(port "$g" 0 rx_packets)" \
        "$(port "$g" 0 tx_packets)" "$(port "$h" 1 rx_packets)" "$(port "$h" 0 tx_packets)"; do
        [ "$c" = "$N" ] || fail "$name: a hop counted $c packets, expected $N"
    done
    for c in tx_dropped rx_dropped; do
        [ "$(port "$h" 0 $c)$(port "$h" 1 $c)$(port "$g" 0 $c)" = 000 ] || fail "$name: $c"
    done
    [ "$(port "$h" 0 rx_bytes)" = "$(port "$g" 0 rx_bytes)" ] || fail "$name: byte counts differ"
    fwd_stop "$gpid" || { cat "$glog"; fail "$name: guest exit status"; }
    fwd_stop "$hpid" || { cat "$hlog"; fail "$name: host exit status"; }
    [ "$(fwd_total "$PVP_TMP/guest-$name.json" 0 tx_packets)" = "$N" ] || fail "$name: guest --json summary"
    $PVP_PY "$FWD_DIR/fwd_pcap.py" check macswap "$IN" "$back" ||
        fail "$name: what came back is not the input MAC-swapped"
}

run vhost-server "" ""
run virtio-server ",client=1" ",server=1"
echo PASS
