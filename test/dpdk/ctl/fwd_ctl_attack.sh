#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-fwd forwarding at full speed (net_null -> net_null, busy polling
# on lcore 0) while its control channel is attacked (fwd_ctl_attack.py):
# no crash, bounded memory, forwarding goes on, ping answers afterwards,
# and the forwarding rate before/during/after goes into the log. Then
# SIGTERM: exit 0 and rx = tx + dropped.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/fwd/fwd_lib.sh"

need_bin "$PVP_FWD"
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"

SOCK=$PVP_TMP/fwd.sock
LOG=$PVP_TMP/fwd.log
SUM=$PVP_TMP/fwd.json
# Forwarding on lcore 0; the main lcore (and the control thread) on 1.
fwd_start "$LOG" $(fwd_eal_nohuge ctlattack) -l 0-1 --main-lcore 1 \
    --vdev net_null0 --vdev net_null1 -- \
    --mode macswap --topology paired --ctl "unix:$SOCK" --json "$SUM"
fwd_wait_sock "$SOCK" "$FWD_PID" || { cat "$LOG"; fail "control socket never answered"; }

"$PVP_PY" "$PVP_SOURCE_DIR/test/dpdk/ctl/fwd_ctl_attack.py" "$SOCK" "$FWD_PID" ||
    { tail -20 "$LOG"; fail "attack"; }
kill -0 "$FWD_PID" || fail "pvpkit-fwd died"
fwd_stop "$FWD_PID" || { cat "$LOG"; fail "exit status after SIGTERM"; }
for p in 0 1; do
    rx=$(fwd_total "$SUM" $((p ^ 1)) rx_packets)
    tx=$(fwd_total "$SUM" $p tx_packets)
    drop=$(fwd_total "$SUM" $p tx_dropped)
    [ -n "$rx" ] && [ "$rx" -gt 0 ] || { cat "$LOG"; fail "no --json summary"; }
    [ "$rx" = $((tx + drop)) ] || fail "rx $rx != tx $tx + dropped $drop"
done
echo "PASS"
