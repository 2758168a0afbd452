#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Flow types on the local OVS-DPDK testbed: for l2, l3 and l4, `pvpkit
# trial --flow-type T --flows 100` installs 100 rules each way (counted),
# the generator's 100 flows walk exactly the values those rules match, so
# a low-rate trial loses nothing and every one of the 100 phy->vhost rules
# (and of the vhost->phy rules, which back from the macswap guest match
# dl_src for l2) counts packets. Then traffic of 100 flows against rules
# for only 50: the other half are table misses, dropped inside OVS, and
# the loss must fall on the vswitch hop, not be left unattributed.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

coord_need_testbed
coord_tb_up

MGMT="unix:$TB_DIR/br-pvp.mgmt"
N=100

# Check the table after a trial: $1 rule type, $2 rules per direction,
# $3 how many phy->vhost rules must have counted packets.
check_rules() {
	local type=$1 rules=$2 hit=$3
	# OVS credits rules with their packets in revalidator rounds.
	env OVS_RUNDIR="$TB_DIR" ovs-appctl -t "$TB_DIR/ovs-vswitchd.ctl" revalidator/wait ||
		fail "$type: ovs-appctl revalidator/wait failed"
	coord_ofctl --names dump-flows "$MGMT" >"$PVP_TMP/$type-flows.txt" ||
		fail "$type: ovs-ofctl dump-flows failed"
	"$PVP_PY" - "$PVP_TMP/$type-flows.txt" "$type" "$rules" "$hit" <<'PY' ||
import re, sys
path, typ, rules, hit = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
field = {"l2": "dl_dst", "l3": "nw_dst", "l4": "tp_dst"}[typ]
fwd, rev = {}, {}
for line in open(path):
    if "priority=10" not in line:
        continue
    n = int(re.search(r"n_packets=(\d+)", line).group(1))
    m = re.search(r"in_port=(\w+)", line).group(1)
    if m == "phy0":
        fwd[re.search(field + r"=([\w.:]+)", line).group(1)] = n
    elif m == "vhost0":
        rev[line] = n
ok = True
if len(fwd) != rules or len(rev) != rules:
    print("# %s: %d phy->vhost and %d vhost->phy rules, want %d each" % (typ, len(fwd), len(rev), rules))
    ok = False
fhit = sum(1 for v in fwd.values() if v > 0)
rhit = sum(1 for v in rev.values() if v > 0)
print("# %s: %d/%d phy->vhost rules hit (min %d, max %d packets), %d/%d vhost->phy" %
      (typ, fhit, len(fwd), min(fwd.values() or [0]), max(fwd.values() or [0]), rhit, len(rev)))
if fhit != hit or rhit != hit:
    print("# %s: want %d rules hit each way" % (typ, hit))
    ok = False
sys.exit(0 if ok else 1)
PY
		fail "$type: rule table or hit counts wrong (see $PVP_TMP/$type-flows.txt)"
}

for type in l2 l3 l4; do
	info "flow type $type, $N flows"
	coord_trial "$type" --flow-type "$type" --size 64 --flows "$N" --rate 5kpps \
		--duration 2 || { cat "$PVP_TMP/$type.err"; fail "$type: trial failed"; }
	cat "$PVP_TMP/$type.out"
	coord_assert "$type" 't["reconciled"]' "$type: losses do not reconcile"
	coord_assert "$type" 't["tx_packets"] >= 5000' "$type: the tester sent too little"
	coord_assert "$type" 't["tx_packets"] == t["rx_packets"]' "$type: packets lost"
	coord_assert "$type" 't["unattributed"] == 0' "$type: unattributed loss"
	check_rules "$type" "$N" "$N"
done

info "l3: $N flows of traffic against rules for $((N / 2))"
coord_trial miss --flow-type l3 --flow-rules $((N / 2)) --size 64 --flows "$N" --rate 5kpps \
	--duration 2 || { cat "$PVP_TMP/miss.err"; fail "miss: trial failed"; }
cat "$PVP_TMP/miss.out"
check_rules l3 $((N / 2)) $((N / 2))
coord_assert miss 't["reconciled"]' "miss: losses do not reconcile"
coord_assert miss 't["unattributed"] == 0' "miss: table misses left unattributed"
# phy0 counts every packet in, vhost0 only the matched half out: the loss
# lies between "received by physical" and "sent to virtual".
coord_assert miss 'pts[2]["lost"] > 0 and pts[2]["owner"] == "vswitch"' \
	"miss: loss between physical RX and vhost TX not given to the vswitch"
coord_assert miss 'abs(t["hop_lost"]["vswitch"] - t["tx_packets"] / 2) <= 0.02 * t["tx_packets"]' \
	"miss: the vswitch should have dropped half of the packets (the unmatched flows)"
echo "PASS"
