#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The PVP path with dpdk-testpmd as tester and guest: the tester sends one
# burst of 32 packets (--tx-first); every point of the chain must count
# exactly 32, read through the testpmd (telemetry) and ovs (OVSDB +
# OpenFlow) drivers. Then install_flows l3/normal on the real OVS.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/testbed/tb_lib.sh"

tb_need
tb_need_ovs
tb_down_on_exit
N=32

tb_up --tester testpmd --guest testpmd --tx-first $N --fwd-mode macswap
# The burst goes round once; wait until the tester stops counting.
tester=$(tb_wait_quiet tb_probe tester snapshot)
vswitch=$(tb_probe vswitch snapshot)
guest=$(tb_probe guest snapshot)
info "tester $tester"
info "vswitch $vswitch"
info "guest $guest"
tb_check "$tester" "j['ports'][0]['tx_packets'] == $N and j['ports'][0]['rx_packets'] == $N" \
	"tester sent and got back $N"
tb_check "$tester" "j['ports'][0]['tx_bytes'] == 64 * $N" "tester bytes"
tb_check "$vswitch" "[(p['name'], p['rx_packets'], p['tx_packets']) for p in j['ports']] == [('phy0', $N, $N), ('vhost0', $N, $N)]" \
	"OVS phy0/vhost0 counted $N each way"
tb_check "$vswitch" "all(p['rx_dropped'] == 0 and p['tx_dropped'] == 0 for p in j['ports'])" \
	"OVS dropped nothing"
tb_check "$vswitch" "'ovs_tx_failure_drops' in j['ports'][1]['reasons']" "OVS drop reasons"
tb_check "$guest" "j['ports'][0]['rx_packets'] == $N and j['ports'][0]['tx_packets'] == $N" \
	"guest forwarded $N"

info "install_flows l3 100 and normal"
tb_probe vswitch flows l3 100 >/dev/null
n=$(env OVS_RUNDIR="$TB_DIR" ovs-ofctl dump-flows "unix:$TB_DIR/br-pvp.mgmt" | grep -c "nw_dst=")
[ "$n" = 200 ] || fail "dump-flows shows $n l3 rules, want 200"
tb_probe vswitch flows normal 0 >/dev/null
env OVS_RUNDIR="$TB_DIR" ovs-ofctl dump-flows "unix:$TB_DIR/br-pvp.mgmt" | grep -q "actions=NORMAL" ||
	fail "no NORMAL rule"
ctx=$(tb_probe vswitch context)
tb_check "$ctx" "'pmd thread' in j['pmd_stats_show'] and j['ports']['phy0']['link_state'] == 'up'" \
	"context: PMD stats and link state"

info "the guest gone: a clear error, not numbers"
kill -9 "$(cat "$TB_DIR/fwd.pid")"
sleep 0.5
out=$("$PROBE" "$TB_DIR/topology.json" guest snapshot 2>&1) && fail "snapshot of a dead guest worked"
echo "$out" | grep -q "hop unreachable" || fail "dead guest: $out"

tb down -q || fail "down failed"
tb_assert_clean
info "ok"
