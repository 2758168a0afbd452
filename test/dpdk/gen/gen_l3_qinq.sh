#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-gen --l3 in QinQ: two memif ports of one process, both on
# vlan=10/20, each the other's gateway (port 0 by ARP, port 1 by ND),
# resolve each other inside both tags; the streams (their tags are the
# profile's: none here) then all arrive, and the ports' "neigh" entries
# report both tags. With port 1 on VLAN 10 alone, port 0's ARP requests
# in QinQ are not its: --l3 fails, naming both tags. About 5 s.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_hugepages 256
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"

# memif's two ends in one process need shared files, not --in-memory.
PREFIX=pvpt-l3qq-$$
trap 'rm -f /dev/hugepages/${PREFIX}* 2>/dev/null; pvp_cleanup' EXIT
SOCK=$PVP_TMP/memif.sock
run() {
    timeout 60 "$PVP_GEN" --no-pci --file-prefix=$PREFIX --log-level=lib.eal:error -m 256 \
        --lcores "0@0,1@1,2@1" \
        --vdev "net_memif0,role=server,socket=$SOCK,mac=02:00:00:00:00:0a" \
        --vdev "net_memif1,role=client,socket=$SOCK,mac=02:00:00:00:00:0b" -- \
        --addr "0:ip=10.0.0.1,gw=10.0.0.2,ip6=2001:db8::1,vlan=10/20" --addr "$1" --l3 \
        "${@:2}" --rate 5kpps --duration 1 --idle-sleep 50 --json "$PVP_TMP/l3.json"
}
info "both ports in QinQ 10/20 resolve each other (ARP and ND), then send to the resolved MACs"
run "1:ip=10.0.0.2,ip6=2001:db8::2,gw6=2001:db8::1,vlan=10/20" >"$PVP_TMP/l3.log" 2>&1 ||
    { cat "$PVP_TMP/l3.log"; fail "l3 run failed"; }
grep 'gateway' "$PVP_TMP/l3.log" | sed 's/^/#   /'
grep -q 'port 0: gateway 10.0.0.2 is at 02:00:00:00:00:0B' "$PVP_TMP/l3.log" ||
    fail "port 0 did not resolve 10.0.0.2 in QinQ"
grep -q 'port 1: gateway 2001:db8::1 is at 02:00:00:00:00:0A' "$PVP_TMP/l3.log" ||
    fail "port 1 did not resolve 2001:db8::1 in QinQ"
got=$(json_get "$PVP_TMP/l3.json" "([(s['tx_packets'] > 0, s['tx_packets'] == s['rx_packets'], s['lost']) for s in d['streams']], [(n['vlan'], n['vlan_inner']) for n in d['neigh']])")
info "streams and neigh: $got"
[ "$got" = "([(True, True, 0), (True, True, 0)], [(10, 20), (10, 20)])" ] ||
    fail "got $got"
rm -f /dev/hugepages/${PREFIX}*

info "port 1 on VLAN 10 alone: port 0's QinQ requests are not its"
if run "1:ip=10.0.0.2,vlan=10" --resolve-tries 2 --resolve-wait 100ms >"$PVP_TMP/l3b.log" 2>&1; then
    cat "$PVP_TMP/l3b.log"
    fail "resolved across different tags"
fi
msg='pvpkit-gen: --l3: port 0: gateway 10.0.0.2 did not answer 2 ARP requests in 0.2 s (is it on the link, on VLAN 10/20?)'
grep -qxF "$msg" "$PVP_TMP/l3b.log" || { cat "$PVP_TMP/l3b.log"; fail "message"; }
info "$msg"
echo "PASS"
