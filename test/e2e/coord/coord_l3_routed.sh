#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A routed DUT: the testbed's OVS as a router (testbed.sh --flow-type
# l3-routed: IPv4, MAC rewrite, TTL, ARP for its own addresses, the tester
# learnt from its ARP frames for 5 s; with argument 6, --flow-type
# l3-routed6: IPv6, hop limit, neighbour advertisements for its own
# addresses written by flows, the tester learnt from its solicitations and
# unsolicited advertisements). pvpkit-gen resolves its gateway (ARP, or
# NS/NA) and announces itself every 2 s; those frames cross only the
# tester's link and are no trial's traffic.
# 1. A short NDR search at low rates runs through it with zero loss; no
#    trial is flagged for the ARP/ND frames (negative loss, signature).
#    Each way decrements the TTL / hop limit and a router drops what would
#    leave with 0: sent with 3 it comes back, sent with 2 it does not.
# 2. The tester's responder stopped (neigh.set): the router forgets it,
#    drops the traffic back in its neighbour table, and the trial blames
#    the vswitch and says the tester answers no ARP/ND; the table's miss
#    rule's drop-reason cookie makes the vswitch's loss "no_neighbour",
#    every packet of it, at "sent by physical", and a search at the
#    lowest rates says so where it lost them.
# 3. Started again, the next announcement brings the traffic back.
# About 50 s (the testbed comes up in about 15).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

FAMILY=${1:-4}
if [ "$FAMILY" = 6 ]; then
	FLOW_TYPE=l3-routed6 IP=ipv6 SRC=2001:db8:16::1 DST=2001:db8:48::1
	MEMBER='"l3": \[{"port": "p0", "ip6": "2001:db8:10::2", "gw6": "2001:db8:10::1"}\]'
	GATEWAY='port 0: gateway 2001:db8:10::1 is at 02:00:0A:0A:00:01'
	ROUTE_BACK="ipv6_dst=2001:db8:16::/48"
else
	FLOW_TYPE=l3-routed IP=ipv4 SRC=16.0.0.1 DST=48.0.0.1
	MEMBER='"l3": \[{"port": "p0", "ip": "10.10.0.2", "gw": "10.10.0.1"}\]'
	GATEWAY='port 0: gateway 10.10.0.1 is at 02:00:0A:0A:00:01'
	ROUTE_BACK="nw_dst=16.0.0.0/8"
fi

coord_need_testbed
coord_tb_up --flow-type "$FLOW_TYPE"
grep -q "$MEMBER" "$TB_DIR/topology.json" ||
	fail "the tester hop has no l3 member: $(cat "$TB_DIR/topology.json")"
grep -q "$GATEWAY" "$TB_DIR/gen.log" ||
	fail "pvpkit-gen did not resolve its gateway: $(tail -5 "$TB_DIR/gen.log")"

# A control call to the tester: $1 method, $2 params (JSON).
gen_call() { pvp_rpc "$TB_DIR/gen.sock" "$1" "$2"; }

# Packets of the router's rules in table $1 matching $2 (ovs-ofctl dump-flows).
of_packets() {
	coord_ofctl dump-flows "unix:$TB_DIR/br-pvp.mgmt" "table=$1" |
		grep -- "$2" | sed -n 's/.*n_packets=\([0-9]*\).*/\1/p' | head -1
}

# Whether the router has an entry for the tester (its learnt rule).
knows_tester() {
	coord_ofctl dump-flows "unix:$TB_DIR/br-pvp.mgmt" table=2 | grep -q priority=100
}

# One UDP stream from the tester's routed source net to the guest's, sent
# with TTL / hop limit $1, into $2.
profile() {
	cat >"$2" <<JSON
{"streams": [{"name": "routed", "port": 0, "size": 128,
  "headers": {"$IP": {"src": "$SRC", "dst": "$DST", "ttl": $1}}}]}
JSON
}
profile 64 "$PVP_TMP/routed.json"

info "1. an NDR search through the router"
"$PVP_COORD" search --topology "$TB_DIR/topology.json" --profile "$PVP_TMP/routed.json" \
	--max-rate 2000 --min-rate 500 --goal ndr --width 10% --initial-duration 0.5 \
	--final-duration 2 --max-time 40 --no-tables --results "$PVP_TMP/search.jsonl" \
	>"$PVP_TMP/search.out" 2>&1 || { cat "$PVP_TMP/search.out"; fail "search failed"; }
cat "$PVP_TMP/search.out"
"$PVP_PY" - "$PVP_TMP/search.jsonl" <<'PY' || fail "search through the router"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
trials = [r for r in recs if r["type"] == "trial"]
search = [r for r in recs if r["type"] == "search"][-1]
ndr = search["goals"][0]
print("# NDR lower %s upper %s, %d trials" % (ndr["lower_pps"], ndr["upper_pps"], len(trials)))
ok = True
for t in trials:
    flags = [f for c in t["chains"] for p in c for f in p.get("flags", [])]
    if t["tx_packets"] != t["rx_packets"] or t.get("invalid") or flags or not t["reconciled"]:
        print("FAIL: trial at %s pps: tx %d rx %d flags %s reconciled %s" % (
            t.get("rate_pps"), t["tx_packets"], t["rx_packets"], flags, t["reconciled"]))
        ok = False
    if t["checks"].get("signature") not in ("ok", None):
        print("FAIL: signature check:", t["checks"]); ok = False
if ndr["lower_pps"] is None or ndr["lower_pps"] < 1900:
    print("FAIL: no zero-loss rate at 2000 pps"); ok = False
sys.exit(0 if ok else 1)
PY
routed=$(of_packets 1 "$ROUTE_BACK")
[ "${routed:-0}" -gt 0 ] || fail "the router's route back was not used"
for ttl in 3 2; do
	profile "$ttl" "$PVP_TMP/ttl$ttl.json"
	coord_trial "ttl$ttl" --profile "$PVP_TMP/ttl$ttl.json" --rate 1000 --duration 1 ||
		{ cat "$PVP_TMP/ttl$ttl.err"; fail "trial with TTL $ttl failed"; }
done
coord_assert ttl3 't["tx_packets"] > 0 and t["rx_packets"] == t["tx_packets"]' \
	"sent with TTL 3, the traffic did not come back"
coord_assert ttl2 't["tx_packets"] > 0 and t["rx_packets"] == 0 and t["hop_lost"]["vswitch"] == t["tx_packets"]' \
	"sent with TTL 2, the traffic came back: the router does not decrement it both ways"

info "2. the tester's responder stopped: the router forgets it"
gen_call neigh.set '{"port": 0, "responder": false}' >/dev/null || fail "neigh.set"
for ((i = 0; i < 50; i++)); do
	knows_tester || break
	sleep 0.2
done
coord_ofctl dump-flows "unix:$TB_DIR/br-pvp.mgmt" table=2
knows_tester && fail "the router still knows the tester 10 s after its last ARP/ND frame"
miss0=$(of_packets 2 "priority=0")
coord_trial gone --profile "$PVP_TMP/routed.json" --rate 1000 --duration 2 ||
	{ cat "$PVP_TMP/gone.err"; fail "trial failed"; }
cat "$PVP_TMP/gone.out"
miss1=$(of_packets 2 "priority=0")
coord_assert gone 't["tx_packets"] > 0 and t["rx_packets"] == 0' "the router still routed back"
coord_assert gone 't["hop_lost"]["vswitch"] == t["tx_packets"] and t["unattributed"] == 0' \
	"the loss is not all the vswitch's"
coord_assert gone 'pts[6]["lost"] == t["tx_packets"] and pts[6]["owner"] == "vswitch"' \
	"the loss is not between \"received from virtual\" and \"sent by physical\""
coord_assert gone 'any("tester: port p0 answers no ARP/ND" in w for w in t.get("warnings", []))' \
	"the trial does not say the tester answers no ARP/ND"
grep -q "tester: port p0 answers no ARP/ND" "$PVP_TMP/gone.out" ||
	fail "the trial's table does not say why"
coord_assert gone 'pts[6]["drop_reasons"] == {"no_neighbour": t["tx_packets"]} and pts[6]["drop"] == t["tx_packets"]' \
	"the vswitch's loss is not all \"no_neighbour\" at \"sent by physical\""
n=$("$PVP_PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["tx_packets"])' "$PVP_TMP/gone.json")
nf=$("$PVP_PY" -c 'import sys; print(f"{int(sys.argv[1]):,}")' "$n")
grep -q "^  Lost by hop: tester 0, vswitch $nf (no_neighbour $nf), guest 0; unattributed 0$" \
	"$PVP_TMP/gone.out" || fail "the table's per-hop line does not say \"no_neighbour $nf\""
[ $((miss1 - miss0)) = "$n" ] ||
	fail "the neighbour table's miss rule dropped $((miss1 - miss0)), the trial says $n"
info "the router's \"no neighbour\" rule dropped $((miss1 - miss0)) packets, the trial's no_neighbour"
# A search: no rate passes, and it says where and why.
"$PVP_COORD" search --topology "$TB_DIR/topology.json" --profile "$PVP_TMP/routed.json" \
	--max-rate 1000 --min-rate 500 --goal ndr --initial-duration 0.5 --final-duration 0.5 \
	--max-time 8 --no-tables >"$PVP_TMP/gone-search.out" 2>&1
cat "$PVP_TMP/gone-search.out"
grep -qE "no rate passes: .*; lost at: vswitch ([0-9,]+) \(no_neighbour \1\), unattributed 0$" \
	"$PVP_TMP/gone-search.out" || fail "the search does not say the vswitch lost it: no_neighbour"

info "3. the responder started again: the next announcement brings the traffic back"
gen_call neigh.set '{"port": 0, "responder": true}' >/dev/null || fail "neigh.set"
for ((i = 0; i < 50; i++)); do
	knows_tester && break
	sleep 0.2
done
coord_trial back --profile "$PVP_TMP/routed.json" --rate 1000 --duration 2 ||
	{ cat "$PVP_TMP/back.err"; fail "trial failed"; }
cat "$PVP_TMP/back.out"
coord_assert back 't["tx_packets"] > 0 and t["rx_packets"] == t["tx_packets"] and t["reconciled"]' \
	"traffic did not come back once the tester answered again"
echo "PASS"
