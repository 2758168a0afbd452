#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Over memif, the shared-memory interface of container and VPP setups:
# pvpkit-fwd (macswap, loop) owns the memif server socket, pvpkit-gen is
# the client and sends 20,000 signed packets of 10 flows. All come back,
# none lost, duplicated or reordered by the gen's count, and the
# forwarder's final totals agree.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/fwd/fwd_lib.sh"

need_bin "$PVP_FWD"
need_bin "$PVP_GEN"
need_hugepages 256

N=20000
SOCK=$PVP_TMP/memif.sock
FLOG=$PVP_TMP/fwd.log
fwd_start "$FLOG" $(pvp_eal memif-fwd) -m 128 -l 0-1 \
    --vdev "net_memif0,role=server,socket=$SOCK" -- \
    --mode macswap --topology loop --ctl "unix:$PVP_TMP/fwd.sock" --idle-sleep 50 \
    --json "$PVP_TMP/fwd.json"
fpid=$FWD_PID
fwd_wait_sock "$PVP_TMP/fwd.sock" "$fpid" || { cat "$FLOG"; fail "pvpkit-fwd did not start"; }

"$PVP_GEN" $(pvp_eal memif-gen) -m 128 -l 0-1 \
    --vdev "net_memif0,role=client,socket=$SOCK" -- \
    --count $N --rate 20kpps --flows 10 --idle-sleep 50 --drain-ms 500 \
    --json "$PVP_TMP/gen.json" >"$PVP_TMP/gen.log" 2>&1 ||
    { cat "$PVP_TMP/gen.log" "$FLOG"; fail "pvpkit-gen over memif failed"; }
grep -v '^TELEMETRY' "$PVP_TMP/gen.log"
got=$($PVP_PY -c 'import json,sys; s=json.load(open(sys.argv[1]))["streams"][0]
print(s["tx_packets"], s["rx_packets"], s["lost"], s["dup"], s["ooo"])' "$PVP_TMP/gen.json")
info "gen: tx rx lost dup ooo = $got"
[ "$got" = "$N $N 0 0 0" ] || fail "over memif: tx rx lost dup ooo = $got, expected $N $N 0 0 0"

fwd_stop "$fpid" || { cat "$FLOG"; fail "pvpkit-fwd exit status"; }
FSUM=$PVP_TMP/fwd.json
for c in rx_packets tx_packets; do
    [ "$(fwd_total "$FSUM" 0 $c)" = "$N" ] ||
        { cat "$FLOG"; fail "pvpkit-fwd $c $(fwd_total "$FSUM" 0 $c), expected $N"; }
done
[ "$(fwd_total "$FSUM" 0 rx_dropped)$(fwd_total "$FSUM" 0 tx_dropped)" = 00 ] ||
    fail "pvpkit-fwd dropped packets over memif"
echo PASS
