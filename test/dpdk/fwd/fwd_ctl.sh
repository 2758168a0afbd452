#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The control channel while forwarding at full speed (net_null -> net_null,
# busy polling on lcore 0): info describes the ports; stats.get in a tight
# loop never stops forwarding (the counters keep increasing), every
# reading is monotonic and consistent; after SIGTERM, rx = tx + dropped
# in the --json summary.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/fwd/fwd_lib.sh"

need_bin "$PVP_FWD"

SOCK=$PVP_TMP/fwd.sock
LOG=$PVP_TMP/fwd.log
SUM=$PVP_TMP/fwd.json
# Forwarding on lcore 0; the main lcore (and the control thread) on 1.
fwd_start "$LOG" $(fwd_eal_nohuge ctl) -l 0-1 --main-lcore 1 \
    --vdev net_null0 --vdev net_null1 -- \
    --mode macswap --topology paired --ctl "unix:$SOCK" --json "$SUM" --burst 016
fwd_wait_sock "$SOCK" "$FWD_PID" || { cat "$LOG"; fail "control socket never answered"; }

INFO=$($FWD_CTL "$SOCK" info) || fail "info"
info "info: $INFO"
[ "$(json_eval "$INFO" 'j["app"]')" = pvpkit-fwd ] || fail "info: app"
[ "$(json_eval "$INFO" 'j["mode"], j["topology"]')" = "('macswap', 'paired')" ] || fail "info: mode/topology"
# Base 10: --burst 016 is 16 (it was 14).
[ "$(json_eval "$INFO" 'j["burst"]')" = 16 ] || fail "info: --burst 016 is not 16"
[ "$(json_eval "$INFO" '[p["name"] for p in j["ports"]]')" = "['net_null0', 'net_null1']" ] || fail "info: port names"
[ "$(json_eval "$INFO" 'all(len(p["mac"]) == 17 and p["rxq"] == 1 and p["txq"] == 1 for p in j["ports"])')" = True ] ||
    fail "info: mac/queues"
[ "$(json_eval "$INFO" '"stats.get" in j["methods"] and "stats.clear" in j["methods"]')" = True ] ||
    fail "info: methods"
# clock.get (doc/fwd.rst, "Receive stamps"): a sample, and no --stamp here.
CLK=$($FWD_CTL "$SOCK" clock.get) || fail "clock.get"
[ "$(json_eval "$CLK" 'j["stamp"] is False and j["tsc_hz"] > 0 and j["tsc"] > 0 and len(j["boot_id"]) > 0')" = True ] ||
    fail "clock.get: $CLK"
[ "$(json_eval "$INFO" 'j["stamp"]')" = False ] || fail "info: stamp"

R=$($FWD_CTL "$SOCK" --hammer 3) || { echo "$R"; fail "stats.get readings inconsistent"; }
info "hammer: $R"
[ "$(json_eval "$R" 'j["reads"] >= 10')" = True ] || fail "too few stats.get answers: $R"
[ "$(json_eval "$R" 'j["rx_last"] > j["rx_first"] and j["tx_last"] > j["tx_first"]')" = True ] ||
    fail "forwarding stopped while stats were read: $R"

# Unknown methods and garbage get JSON-RPC errors, and forwarding goes on.
$FWD_CTL "$SOCK" no.such.method >/dev/null 2>&1 && fail "unknown method answered"
A=$($FWD_CTL "$SOCK" stats.get) || fail "stats.get after errors"
sleep 0.3
B=$($FWD_CTL "$SOCK" stats.get) || fail "stats.get"
[ "$(json_eval "$B" 'j["ports"][0]["rx_packets"]')" -gt "$(json_eval "$A" 'j["ports"][0]["rx_packets"]')" ] ||
    fail "counters stopped increasing"

# The same counters through DPDK telemetry (lib/stats exports them).
T=$($PVP_PY "$PVP_SOURCE_DIR/tools/bench/fwd_telemetry.py" "pvpt-ctl-$$" /pvpkit/stats /ethdev/stats,0) ||
    fail "telemetry not readable"
[ "$(json_eval "$T" 'j["/pvpkit/stats"]["name"]')" = pvpkit-fwd ] || fail "telemetry /pvpkit/stats: $T"
[ "$(json_eval "$T" 'j["/ethdev/stats,0"]["ipackets"] > 0')" = True ] || fail "telemetry /ethdev/stats,0"
kill -0 "$FWD_PID" || fail "pvpkit-fwd died"
fwd_stop "$FWD_PID" || { cat "$LOG"; fail "exit status after SIGTERM"; }
for p in 0 1; do
    rx=$(fwd_total "$SUM" $((p ^ 1)) rx_packets)
    tx=$(fwd_total "$SUM" $p tx_packets)
    drop=$(fwd_total "$SUM" $p tx_dropped)
    info "port $((p ^ 1)) rx $rx -> port $p tx $tx + dropped $drop"
    [ -n "$rx" ] && [ "$rx" -gt 0 ] || { cat "$LOG"; fail "no --json summary"; }
    [ "$rx" = $((tx + drop)) ] || fail "rx $rx != tx $tx + dropped $drop"
done
echo PASS
