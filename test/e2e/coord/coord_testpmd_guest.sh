#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A testpmd guest read through its DPDK telemetry socket (driver
# "telemetry"): the per-hop table has the guest's counts at both guest
# points, and reconciles with nothing unattributed, as with pvpkit-fwd.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

coord_need_testbed
need_cmd dpdk-testpmd
coord_tb_up --guest testpmd
grep -q '"driver": "telemetry"' "$TB_DIR/topology.json" || fail "the guest is not a telemetry hop"

coord_trial tp --size 64 --flows 10 --rate 5kpps --duration 2 ||
	{ cat "$PVP_TMP/tp.err"; fail "trial failed"; }
cat "$PVP_TMP/tp.out"
coord_assert tp 't["reconciled"]' "losses do not reconcile"
coord_assert tp 't["unattributed"] == 0' "unattributed loss at a low rate"
coord_assert tp 'pts[3]["hop"] == "guest" and pts[3]["packets"] > 0 and pts[4]["packets"] > 0' \
	"the testpmd guest counted nothing"
coord_assert tp 'pts[4]["packets"] <= pts[3]["packets"]' "the guest sent more than it received"
echo "PASS"
