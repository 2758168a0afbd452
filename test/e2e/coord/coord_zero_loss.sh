#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A trial at a low rate through the local OVS-DPDK testbed: every point
# counts packets, the per-hop losses and the unattributed remainder add
# up to tester TX - RX, and nothing is unattributed.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

coord_need_testbed
coord_tb_up

coord_trial zero --size 64 --flows 100 --rate 10kpps --duration 3 ||
	{ cat "$PVP_TMP/zero.err"; fail "trial failed"; }
cat "$PVP_TMP/zero.out"
coord_assert zero 't["reconciled"]' "losses do not reconcile"
coord_assert zero 't["unattributed"] == 0' "unattributed loss at a low rate"
coord_assert zero 't["tx_packets"] > 20000' "the tester sent too little"
coord_assert zero 'all(p["packets"] > 0 for p in pts)' "a point counted no packets"
coord_assert zero 'sum(t["hop_lost"].values()) + t["unattributed"] == t["tx_packets"] - t["rx_packets"]' \
	"sum of hop losses != TX - RX"
coord_assert zero 't["snapshot_ms"] <= 1000' "final snapshot implausibly slow"
[ "$(wc -l <"$PVP_TMP/results.jsonl")" = 1 ] || fail "results.jsonl should hold one trial"
info "snapshot of all hops: $("$PVP_PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["snapshot_ms"])' "$PVP_TMP/zero.json") ms"
echo "PASS"
