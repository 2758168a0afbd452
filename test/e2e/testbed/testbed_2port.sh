#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# testbed up --ports 2: the bidirectional PVP (two tester ports, four OVS
# ports, the guest paired). A low-rate trial sends both ways, each
# direction is its own chain and reconciles on its own; an OpenFlow rule
# dropping one flow of four in one direction only charges the vswitch in
# that direction; a short NDR search passes end to end.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/testbed/tb_lib.sh"

tb_need_layout
tb_down_on_exit
tb_up --ports 2
tb status >"$PVP_TMP/status" || { cat "$PVP_TMP/status"; fail "status after up --ports 2"; }
for p in phy0 phy1 vhost0 vhost1; do
	grep -qx "port $p: up" "$PVP_TMP/status" || { cat "$PVP_TMP/status"; fail "port $p not up"; }
done
topo=$(cat "$TB_DIR/topology.json")
tb_check "$topo" 'j["name"] == "pvp-ovs-local-2port" and len(j["chains"]) == 2' "two chains"
tb_check "$topo" 'j["hops"][0]["ports"] == ["p0", "p1"] and j["hops"][2]["ports"] == ["p0", "p1"]' \
	"tester and guest ports"
tb_check "$topo" '[(p["port"], p["dir"]) for p in j["chains"][0] if p["hop"] == "vswitch"] == [("phy0","rx"),("vhost0","tx"),("vhost1","rx"),("phy1","tx")]' \
	"forward direction"
tb_check "$topo" '[(p["port"], p["dir"]) for p in j["chains"][1] if p["hop"] == "vswitch"] == [("phy1","rx"),("vhost1","tx"),("vhost0","rx"),("phy0","tx")]' \
	"reverse direction"

info "bidirectional zero-loss trial"
tb_trial bidir --size 64 --flows 4 --rate 5kpps --duration 2
tb_trial_assert bidir 'len(ch) == 2 and all(c[0]["packets"] >= 9000 for c in ch)' \
	"both directions must send"
tb_trial_assert bidir 'all(lost(c) == 0 for c in ch) and t["unattributed"] == 0' "loss at 5 kpps"
tb_trial_assert bidir 'all(sum(p.get("lost", 0) for p in c[1:]) == lost(c) for c in ch)' \
	"per-direction losses do not add up"
tb_trial_assert bidir 't["tx_packets"] == sum(c[0]["packets"] for c in ch)' "total TX is not the sum of both directions"
if [ "$(nproc)" -lt 7 ]; then
	tb_trial_assert bidir 't["shared_cores"] is True' "the trial record does not say the cores are shared"
fi

info "a drop rule on phy1 only: the reverse direction loses a quarter, charged to the vswitch"
tb_ofctl add-flow "unix:$TB_DIR/br-pvp.mgmt" "priority=40000,ip,in_port=2,nw_src=16.0.0.1,actions=drop" ||
	fail "cannot add the drop rule"
tb_trial drop --size 64 --flows 4 --rate 5kpps --duration 2
tb_trial_assert drop 'lost(ch[0]) == 0' "the forward direction lost packets"
tb_trial_assert drop 'abs(lost(ch[1]) - ch[1][0]["packets"] / 4) <= ch[1][0]["packets"] * 0.02' \
	"the reverse direction did not lose a quarter"
tb_trial_assert drop 'ch[1][2]["lost"] == lost(ch[1]) and ch[1][2]["owner"] == "vswitch"' \
	"the loss is not at 'sent to virtual (phy1)' on the vswitch"
tb_trial_assert drop '[c["lost"] for c in t["chain_totals"]] == [0, lost(ch[1])]' \
	"chain_totals do not give the loss per direction"
grep -q "^  Chain 2 lost [1-9][0-9,]* = TX " "$PVP_TMP/drop.out" || fail "no per-direction total in the table"
tb_ofctl del-flows --strict "unix:$TB_DIR/br-pvp.mgmt" "priority=40000,ip,in_port=2,nw_src=16.0.0.1" ||
	fail "cannot remove the drop rule"

info "NDR search through both directions"
tb_search 20kpps 8
tb down -q
info "ok"
