#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Known answers of loss, duplicates and reordering through the whole
# local testbed (tester -> OVS-DPDK -> guest pvpkit-fwd impairing ->
# OVS-DPDK -> tester; about 25 s):
# 1. loss p = 0.1 % in the guest (seeded): a trial of N = 60,000 packets
#    loses p.N within 4 binomial standard deviations, all of it charged to
#    the guest hop, exactly what the guest's stage says it dropped;
# 2. one search with an NDR and a PDR 0.5 % goal: the PDR ends at the
#    maximum rate, the NDR finds no rate that passes and says why (the
#    loss at the lowest rate and the hop that lost it). Every trial holds
#    at least 10,000 packets, so one without a loss (0.999^10000 = 5e-5)
#    does not happen by chance;
# 3. 0.5 % duplicates and 0.5 % reordering (impair.set): the generator's
#    signature check counts exactly the guest's copies (dup) and swaps
#    (ooo).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

coord_need_testbed
coord_tb_up --fwd-args "--impair loss=0.1%,seed=11 --impair-ring 4096"

# 1. A trial of 60,000 packets.
coord_trial loss --rate 10kpps --duration 6 --size 64 --flows 1 ||
	{ cat "$PVP_TMP/loss.out" "$PVP_TMP/loss.err"; fail "trial failed"; }
cat "$PVP_TMP/loss.out"
st=$(coord_guest_ctl stats.get) || fail "guest stats.get"
dropped=$("$PVP_PY" -c 'import json,sys; print(sum(i["loss_dropped"] for i in json.loads(sys.argv[1])["impair"]))' "$st")
info "guest stage dropped $dropped"
coord_assert loss "t['tx_packets'] == 60000 and t['hop_lost']['guest'] == t['tx_packets'] - t['rx_packets'] == $dropped and t['unattributed'] == 0 and t['reconciled']" \
	"the loss is not all the guest's, or not what its stage dropped ($dropped)"
coord_assert loss "abs($dropped - 0.001 * t['tx_packets']) <= 4 * (0.001 * 0.999 * t['tx_packets']) ** 0.5" \
	"loss $dropped outside the binomial bound of 0.1 %"

# 2. NDR and PDR 0.5 % in one search.
"$PVP_COORD" search --topology "$TB_DIR/topology.json" --size 64 --flows 1 \
	--max-rate 10kpps --min-rate 5kpps --goal ndr --goal pdr=0.5% --width 10% \
	--initial-duration 2 --final-duration 2 --max-time 30 --no-tables \
	--results "$PVP_TMP/search.jsonl" >"$PVP_TMP/search.out" 2>&1 ||
	{ cat "$PVP_TMP/search.out"; fail "search failed"; }
cat "$PVP_TMP/search.out"
grep -q '^   pdr .*at-max: .*(reached the maximum rate)' "$PVP_TMP/search.out" ||
	fail "the PDR 0.5 % did not end at the maximum rate"
grep -q '^   ndr .*below-min' "$PVP_TMP/search.out" || fail "the NDR found a rate that passes"
grep -qE '^   ndr +no rate passes: at [0-9,]+ pps \(trial [0-9]+, the lowest tried\) the loss was 0\.[0-9]+ %, over the goal.s 0\.0000 %; lost at: guest [0-9]+( \([a-z_]+ [0-9,]+\))?, unattributed 0$' \
	"$PVP_TMP/search.out" || fail "the NDR does not say why no rate passes"

# 3. Duplicates and reordering, nothing lost.
coord_guest_ctl impair.set '{"dup": 0.005, "reorder": 0.005, "seed": 5}' >/dev/null ||
	fail "impair.set dup, reorder"
coord_trial dupooo --rate 10kpps --duration 3 --size 64 --flows 1 ||
	{ cat "$PVP_TMP/dupooo.out" "$PVP_TMP/dupooo.err"; fail "trial failed"; }
cat "$PVP_TMP/dupooo.out"
st=$(coord_guest_ctl stats.get) || fail "guest stats.get"
want=$("$PVP_PY" -c 'import json,sys; i=json.loads(sys.argv[1])["impair"]; print(sum(x["duplicated"] for x in i), sum(x["reordered"] for x in i))' "$st")
info "guest stage duplicated, reordered: $want"
coord_assert dupooo "(sum(s['dup'] for s in t['streams']), sum(s['ooo'] for s in t['streams'])) == tuple(map(int, '$want'.split())) and min(map(int, '$want'.split())) > 0 and sum(s['lost'] for s in t['streams']) == 0" \
	"the generator's dup and ooo are not the guest's $want"
echo PASS
