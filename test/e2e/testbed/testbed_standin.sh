#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# --standin: pvpkit-fwd (io, paired) on two vhost-user clients plays the
# vswitch; the testbed comes up, writes a "fwd" vswitch hop, passes
# testpmd's burst end to end, and goes down leaving nothing.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/testbed/tb_lib.sh"

tb_need
need_bin "$PVP_FWD"
tb_down_on_exit
N=32

tb_up --standin --tester testpmd --guest testpmd --tx-first $N
tb status >/dev/null || fail "status after up: not 0"
topo=$(cat "$TB_DIR/topology.json")
tb_check "$topo" 'j["name"] == "pvp-standin-local" and j["hops"][1]["driver"] == "fwd" and j["hops"][1]["ports"] == ["p0", "p1"]' \
	"stand-in vswitch hop"
tester=$(tb_wait_quiet tb_probe tester snapshot)
info "tester $tester"
tb_check "$tester" "j['ports'][0]['tx_packets'] == $N and j['ports'][0]['rx_packets'] == $N" \
	"the burst came back through the stand-in"
tb down -q || fail "down failed"
tb_assert_clean
info "ok"
