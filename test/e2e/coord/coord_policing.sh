#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Ingress policing on the vhost port: OVS drops what the guest sends back
# beyond the rate and counts it (ovs_rx_qos_drops) on vhost0's RX. The
# loss on the link guest -> vswitch is the vswitch's, explained by its
# counted drops. 2000 kbit/s on 64 B frames lets through
# 2e6 / ((60 - 14) * 8) = 5.4 kpps; we send 15 kpps.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

coord_need_testbed
coord_tb_up

coord_vsctl set Interface vhost0 ingress_policing_rate=2000 ingress_policing_burst=200 ||
	fail "cannot set ingress policing"
coord_trial police --size 64 --flows 10 --rate 15kpps --duration 3 ||
	{ cat "$PVP_TMP/police.err"; fail "trial failed"; }
cat "$PVP_TMP/police.out"
coord_assert police 't["reconciled"]' "losses do not reconcile"
coord_assert police 'pts[5]["drop"] > 0 and pts[5]["owner"] == "vswitch"' \
	"policing drops not counted at vhost0 rx"
coord_assert police 't["hop_lost"]["vswitch"] >= 0.3 * t["tx_packets"]' \
	"policing should drop well over a third of the packets"
coord_assert police 't["unattributed"] <= 0.01 * t["tx_packets"]' \
	"policing loss left unattributed"
coord_assert police 'any("qos" in r for r in pts[5]["drop_reasons"]) or not pts[5]["drop_reasons"]' \
	"policing drops given under another reason"
echo "PASS"
