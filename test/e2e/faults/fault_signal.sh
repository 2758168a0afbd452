#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The coordinator gets SIGTERM, then (in a second search) SIGINT, in the
# middle of a search: it stops the traffic, keeps every finished trial,
# marks the search record interrupted and partial, says so in one line
# and exits 128 + the signal; the testbed comes back with down/up.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"
. "$PVP_SOURCE_DIR/test/e2e/faults/faults_lib.sh"

coord_need_testbed
coord_tb_up

# Packets OVS received from the tester, from its OpenFlow port stats.
phy_rx() {
	coord_ofctl dump-ports br-pvp 1 | sed -n 's/.*rx pkts=\([0-9]*\).*/\1/p'
}

for sig in TERM INT; do
	case $sig in TERM) want=143 ;; INT) want=130 ;; esac
	RESULTS=$PVP_TMP/search-$sig.jsonl
	fault_search_start
	fault_wait_trials 2
	# Mid-trial: just after a trial started (the line count moved).
	sleep 0.3
	kill -s "$sig" "$SEARCH_PID"
	fault_wait_search
	[ "$SEARCH_RC" = "$want" ] || fail "SIG$sig: exit status $SEARCH_RC, want $want"
	fault_one_line "^pvpkit: interrupted by SIG$sig( during trial [0-9]+ \(traffic stopped\))?: [0-9]+ finished trial\(s\) kept in $RESULTS, the search marked partial$"
	fault_check_results 2 "s[\"interrupted\"] == \"SIG$sig\""
	kept=$(sed -n 's/.*: \([0-9]*\) finished trial.*/\1/p' "$PVP_TMP/search.err")
	[ "$kept" = "$(grep -c '"type": *"trial"' "$RESULTS")" ] ||
		fail "SIG$sig: says $kept trials kept, the file has another count"
	grep -q "interrupted by SIG$sig" "$PVP_TMP/search.out" ||
		fail "SIG$sig: the search summary does not say it was interrupted"
	# The traffic is stopped: OVS sees nothing more from the tester.
	a=$(phy_rx)
	sleep 1
	b=$(phy_rx)
	[ -n "$a" ] && [ "$a" = "$b" ] || fail "SIG$sig: traffic still flowing ($a, then $b)"
done
fault_recover
echo "PASS"
