#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# testbed up --chains 2: two parallel PVP chains (tester port, OVS ports
# and guest of their own each). A low-rate trial loses nothing in either;
# a drop rule on chain 1's physical port loses a quarter of chain 1 only,
# charged to the vswitch in chain 1; a short NDR search passes.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/testbed/tb_lib.sh"

tb_need_layout
tb_down_on_exit
tb_up --chains 2
tb status >"$PVP_TMP/status" || { cat "$PVP_TMP/status"; fail "status after up --chains 2"; }
grep -q "^fwd2: running (pid [0-9]*), control answers$" "$PVP_TMP/status" ||
	{ cat "$PVP_TMP/status"; fail "second guest not in status"; }
topo=$(cat "$TB_DIR/topology.json")
tb_check "$topo" 'len(j["chains"]) == 2 and [h["name"] for h in j["hops"]] == ["tester", "vswitch", "guest1", "guest2"]' \
	"two chains, two guests"
tb_check "$topo" '[p["hop"] for p in j["chains"][1]][3:5] == ["guest2", "guest2"] and j["chains"][1][0]["port"] == "p1"' \
	"chain 1 through guest2 from tester port p1"

info "zero-loss trial on both chains"
tb_trial both --size 64 --flows 4 --rate 5kpps --duration 2
tb_trial_assert both 'len(ch) == 2 and all(c[0]["packets"] >= 9000 and lost(c) == 0 for c in ch)' \
	"both chains must pass everything at 5 kpps"

info "loss in chain 1 only"
tb_ofctl add-flow "unix:$TB_DIR/br-pvp.mgmt" "priority=40000,ip,in_port=2,nw_src=16.0.0.1,actions=drop" ||
	fail "cannot add the drop rule"
tb_trial one --size 64 --flows 4 --rate 5kpps --duration 2
tb_trial_assert one 'lost(ch[0]) == 0' "chain 0 lost packets"
tb_trial_assert one 'abs(lost(ch[1]) - ch[1][0]["packets"] / 4) <= ch[1][0]["packets"] * 0.02' \
	"chain 1 did not lose a quarter"
tb_trial_assert one 'ch[1][2]["lost"] == lost(ch[1]) and ch[1][2]["owner"] == "vswitch"' \
	"chain 1's loss is not the vswitch's at sent to virtual"
tb_trial_assert one '[c["lost"] for c in t["chain_totals"]] == [0, lost(ch[1])]' \
	"chain_totals do not give the loss per chain"
tb_ofctl del-flows --strict "unix:$TB_DIR/br-pvp.mgmt" "priority=40000,ip,in_port=2,nw_src=16.0.0.1" ||
	fail "cannot remove the drop rule"

info "NDR search over both chains"
tb_search 20kpps 8
tb down -q
info "ok"
