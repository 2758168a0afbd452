#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# TRex's service mode over the wire (trex_service.py): pvpkit-gen --trex
# on two memif ports wired to each other; ARP and ND answered by
# lib/neigh for the addresses set_l3/conf_ipv6 gave port 1, asked with
# push_pkts and read back from port 0's RX queue, ICMP/ICMPv6 echo
# (ping_ip, scan6) the same way; then an NFVbench-style session. With PVP_TREX_CORE, TRex's own client does the same
# (trex_service_client.py). About 10 s.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_need 256

MAC0=02:00:00:00:00:0a
MAC1=02:00:00:00:00:0b
# memif's two ends in one process need shared files, not --in-memory.
PREFIX=pvpt-svc-$$
trap 'rm -f /dev/hugepages/${PREFIX}* 2>/dev/null; pvp_cleanup' EXIT

trex_eal=(--no-pci --file-prefix=$PREFIX --log-level=lib.eal:error -m 256 --lcores "0@0,1@1,2@1")

# pvpkit-gen with its RX on (lib/neigh answers on the RX path).
svc_gen_up() {
    trex_gen_up svc "net_memif0,role=server,socket=$PVP_TMP/memif.sock,mac=$MAC0" \
        "net_memif1,role=client,socket=$PVP_TMP/memif.sock,mac=$MAC1" -- --speed 1000
}

svc_gen_down() {
    trex_gen_down
    rm -f /dev/hugepages/${PREFIX}*
}

cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
info "our wire client: resolve, ND, echo, RX queue, push_pkts, an NFVbench-style session"
svc_gen_up
"$PVP_PY" trex_service.py "$rpc" "$MAC0" "$MAC1" || { cat "$PVP_TMP/gen.log"; fail "service"; }
svc_gen_down

if [ -z "${PVP_TREX_CORE:-}" ]; then
    info "SKIP TRex's own client: no trex-core checkout (set PVP_TREX_CORE)"
else
    info "TRex's own client: resolve(), ping_ip(), scan6(), an NFVbench-style session"
    svc_gen_up
    "$PVP_PY" trex_service_client.py "$PVP_TREX_CORE" "$rpc" "$pub" "$MAC1" ||
        { cat "$PVP_TMP/gen.log"; fail "TRex's client"; }
    svc_gen_down
fi
echo "PASS"
