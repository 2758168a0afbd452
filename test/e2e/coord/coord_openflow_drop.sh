#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Loss injected inside the vswitch: an OpenFlow rule drops one flow of
# four (pvpkit-gen's --flows varies the source address from 16.0.0.1 per
# packet, so it is a quarter of the packets). OVS counts no drop for it on
# any port (the testbed's rules have the default priority 32768, so
# this one has more); the loss falls between "received by physical" and "sent to
# virtual", so it must be the vswitch's, not unattributed.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

coord_need_testbed
coord_tb_up

coord_ofctl add-flow "unix:$TB_DIR/br-pvp.mgmt" \
	"priority=40000,ip,in_port=phy0,nw_src=16.0.0.1,actions=drop" ||
	fail "cannot add the drop rule"
coord_trial drop --size 64 --flows 4 --rate 8kpps --duration 3 ||
	{ cat "$PVP_TMP/drop.err"; fail "trial failed"; }
cat "$PVP_TMP/drop.out"
coord_assert drop 't["reconciled"]' "losses do not reconcile"
coord_assert drop 'pts[2]["lost"] > 0 and pts[2]["owner"] == "vswitch"' \
	"loss between physical RX and vhost TX not given to the vswitch"
coord_assert drop 'abs(t["hop_lost"]["vswitch"] - t["tx_packets"] / 4) <= 0.02 * t["tx_packets"]' \
	"the vswitch should have lost a quarter of the packets"
coord_assert drop 't["unattributed"] == 0' "loss left unattributed"
echo "PASS"
