#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The PVP path with pvpkit-gen and pvpkit-fwd: the generator sends a
# second of traffic at a low rate over its control socket; what OVS counts
# (ovs driver) must match what the generator sent and received, and OVS's
# own books must balance (in = out + dropped).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/testbed/tb_lib.sh"

tb_need
tb_need_ovs
need_bin "$PVP_GEN"
need_bin "$PVP_FWD"
tb_down_on_exit

# JSON-RPC over the generator's control socket: rpc METHOD PARAMS-JSON.
rpc() { pvp_rpc "$TB_DIR/gen.sock" "$1" "$2"; }

tb_up
rpc profile.load '{"size": 64, "flows": 4}' >/dev/null || fail "profile.load"
rpc traffic.start '{"rate": 2000, "duration": 1}' >/dev/null || fail "traffic.start"
for ((i = 0; i < 100; i++)); do
	running=$(rpc stats.get '{}' | "$PVP_PY" -c "import json,sys; print(json.load(sys.stdin)['traffic']['running'])")
	[ "$running" = False ] && break
	sleep 0.2
done
[ "$running" = False ] || fail "traffic still running after 20 s"

vswitch=$(tb_wait_quiet tb_probe vswitch snapshot)
gen=$(rpc stats.get '{}')
info "vswitch $vswitch"
info "gen ports $(echo "$gen" | "$PVP_PY" -c 'import json,sys; print(json.load(sys.stdin)["ports"])')"
both="{\"v\": $vswitch, \"g\": $gen}"
tb_check "$both" "j['g']['ports'][0]['tx_packets'] > 0" "the generator sent"
tb_check "$both" "j['v']['ports'][0]['rx_packets'] == j['g']['ports'][0]['tx_packets']" \
	"OVS phy0 received what the generator sent"
tb_check "$both" "j['v']['ports'][0]['tx_packets'] == j['g']['ports'][0]['rx_packets']" \
	"the generator received what OVS phy0 sent"
tb_check "$both" "j['v']['ports'][0]['rx_packets'] - j['v']['ports'][0]['rx_dropped'] == j['v']['ports'][1]['tx_packets'] + j['v']['ports'][1]['tx_dropped']" \
	"OVS phy0 -> vhost0: in = out + dropped"
tb_check "$both" "j['v']['ports'][1]['rx_packets'] - j['v']['ports'][1]['rx_dropped'] == j['v']['ports'][0]['tx_packets'] + j['v']['ports'][0]['tx_dropped']" \
	"OVS vhost0 -> phy0: in = out + dropped"

tb down -q || fail "down failed"
tb_assert_clean
info "ok"
