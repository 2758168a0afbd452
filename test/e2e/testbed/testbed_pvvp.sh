#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# testbed up --guests 2: PVVP, tester -> OVS -> guest1 -> OVS -> guest2 ->
# OVS -> tester, one chain of twelve points. A low-rate trial loses
# nothing; an OpenFlow rule dropping one flow of four on the middle hop
# (guest1 -> guest2) is charged to the vswitch at "sent to guest2", not
# to either guest; a short NDR search passes end to end.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/testbed/tb_lib.sh"

tb_need_layout
tb_down_on_exit
tb_up --guests 2
tb status >"$PVP_TMP/status" || { cat "$PVP_TMP/status"; fail "status after up --guests 2"; }
topo=$(cat "$TB_DIR/topology.json")
tb_check "$topo" 'j["name"] == "pvvp-ovs-local" and [h["name"] for h in j["hops"]] == ["tester", "vswitch", "guest1", "guest2"]' \
	"four hops"
tb_check "$topo" 'len(j["chains"]) == 1 and [(p["hop"], p["port"], p["dir"]) for p in j["chains"][0]] == [("tester","p0","tx"),("vswitch","phy0","rx"),("vswitch","vhost0","tx"),("guest1","p0","rx"),("guest1","p1","tx"),("vswitch","vhost1","rx"),("vswitch","vhost2","tx"),("guest2","p0","rx"),("guest2","p1","tx"),("vswitch","vhost3","rx"),("vswitch","phy0","tx"),("tester","p0","rx")]' \
	"PVVP chain"

info "zero-loss trial through both guests"
tb_trial pvvp --size 64 --flows 4 --rate 5kpps --duration 2
tb_trial_assert pvvp 'ch[0][0]["packets"] >= 9000 and lost(ch[0]) == 0 and t["unattributed"] == 0' \
	"loss at 5 kpps"
tb_trial_assert pvvp 'all(p["packets"] == ch[0][0]["packets"] for p in ch[0])' \
	"a point did not count every packet"

info "a drop rule on the middle hop (in_port=vhost1)"
tb_ofctl add-flow "unix:$TB_DIR/br-pvp.mgmt" "priority=40000,ip,in_port=3,nw_src=16.0.0.1,actions=drop" ||
	fail "cannot add the drop rule"
tb_trial middle --size 64 --flows 4 --rate 5kpps --duration 2
tb_trial_assert middle 'abs(lost(ch[0]) - ch[0][0]["packets"] / 4) <= ch[0][0]["packets"] * 0.02' \
	"not a quarter lost"
tb_trial_assert middle 'ch[0][6]["lost"] == lost(ch[0]) and ch[0][6]["owner"] == "vswitch" and ch[0][6]["label"].startswith("sent to guest2")' \
	"the loss is not charged to the vswitch on the middle hop"
tb_trial_assert middle 't["hop_lost"].get("guest1", 0) == 0 and t["hop_lost"].get("guest2", 0) == 0 and t["hop_lost"]["vswitch"] == lost(ch[0])' \
	"a guest was charged"
tb_ofctl del-flows --strict "unix:$TB_DIR/br-pvp.mgmt" "priority=40000,ip,in_port=3,nw_src=16.0.0.1" ||
	fail "cannot remove the drop rule"

info "NDR search through PVVP"
tb_search 20kpps 8
tb down -q
info "ok"
