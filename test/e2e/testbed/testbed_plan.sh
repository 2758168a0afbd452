#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# testbed.sh plan (no root, nothing started): the layouts' OVS rules and
# the core plan, dedicated when the CPU list has one core per poller plus
# housekeeping, shared (and said so) otherwise; bad options get one line
# and exit 1.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

TB=$PVP_SOURCE_DIR/tools/testbed.sh

plan() { "$TB" plan --dir "$PVP_TMP/tb" "$@" 2>&1; }
expect_line() {
	echo "$1" | grep -qxF -- "$2" || { echo "$1"; fail "no line '$2'"; }
}

info "default: one port, one guest; on 2 CPUs shared"
out=$(plan --cpus 0-1) || fail "plan failed: $out"
expect_line "$out" "flow: phy0 -> vhost0 (in_port=1,actions=output:2)"
expect_line "$out" "flow: vhost0 -> phy0 (in_port=2,actions=output:1)"
expect_line "$out" "ovs pmds: cpu 1 (pmd-cpu-mask 0x2)"
expect_line "$out" "cores: shared (4 pollers, 2 CPU(s); 5 needed for dedicated cores)"

info "--ports 2 on 8 CPUs: one core per poller"
out=$(plan --ports 2 --cpus 2-9) || fail "plan failed: $out"
expect_line "$out" "guest: paired on vhost0 vhost1"
expect_line "$out" "flow: phy0 -> vhost0 (in_port=1,actions=output:3)"
expect_line "$out" "flow: vhost1 -> phy1 (in_port=4,actions=output:2)"
expect_line "$out" "flow: phy1 -> vhost1 (in_port=2,actions=output:4)"
expect_line "$out" "flow: vhost0 -> phy0 (in_port=3,actions=output:1)"
# NORMAL floods within a VLAN: each direction's segment its own.
expect_line "$out" "vlan: phy0 tag 1"
expect_line "$out" "vlan: vhost0 tag 1"
expect_line "$out" "vlan: phy1 tag 2"
expect_line "$out" "vlan: vhost1 tag 2"
expect_line "$out" "housekeeping: cpu 2"
expect_line "$out" "ovs pmds: cpu 3 (pmd-cpu-mask 0x8)"
expect_line "$out" "tester tx: cpu 4 5; tester rx: cpu 6"
expect_line "$out" "guest: cpu 7"
expect_line "$out" "cores: dedicated (5 pollers and housekeeping on 6 of 8 CPU(s))"

info "--guests 2: PVVP, one way from phy0 back to phy0"
out=$(plan --guests 2 --cpus 0-1) || fail "plan failed: $out"
expect_line "$out" "flow: phy0 -> vhost0 (in_port=1,actions=output:2)"
expect_line "$out" "flow: vhost1 -> vhost2 (in_port=3,actions=output:4)"
expect_line "$out" "flow: vhost3 -> phy0 (in_port=5,actions=output:1)"
[ "$(echo "$out" | grep -c '^flow:')" = 3 ] || { echo "$out"; fail "PVVP: not three rules"; }
# phy0 is in two segments: no VLANs (the ovs driver refuses normal).
! echo "$out" | grep -q '^vlan:' || { echo "$out"; fail "PVVP: VLAN tags"; }
expect_line "$out" '     "forward": [{"in": "phy0", "out": "vhost0"}, {"in": "vhost1", "out": "vhost2", "swapped": ["l2"]}, {"in": "vhost3", "out": "phy0"}]},'
out=$(plan --guests 2 --fwd-mode 5tswap --cpus 0-1) || fail "plan failed: $out"
expect_line "$out" '     "forward": [{"in": "phy0", "out": "vhost0"}, {"in": "vhost1", "out": "vhost2", "swapped": ["l2", "l3", "l4"]}, {"in": "vhost3", "out": "phy0"}]},'
out=$(plan --fwd-mode io --cpus 0-1) || fail "plan failed: $out"
expect_line "$out" '     "forward": [{"in": "phy0", "out": "vhost0"}, {"in": "vhost0", "out": "phy0"}]},'
! echo "$out" | grep -q '^vlan:' || { echo "$out"; fail "one-port PVP: VLAN tags"; }

info "--chains 3 on 16 CPUs: a PMD per chain; on 2 CPUs one PMD"
out=$(plan --chains 3 --cpus 0-15) || fail "plan failed: $out"
expect_line "$out" "ovs pmds: cpu 1 2 3 (pmd-cpu-mask 0xe)"
expect_line "$out" "guest3: cpu 10"
expect_line "$out" "vlan: vhost2 tag 3"
expect_line "$out" "cores: dedicated (10 pollers and housekeeping on 11 of 16 CPU(s))"
out=$(plan --chains 3 --cpus 0-1) || fail "plan failed: $out"
expect_line "$out" "ovs pmds: cpu 1 (pmd-cpu-mask 0x2)"
out=$(plan --pmds 2 --cpus 60-70) || fail "plan failed: $out"
expect_line "$out" "ovs pmds: cpu 61 62 (pmd-cpu-mask 0x6000000000000000)"

info "the topology each layout writes is the shipped example (which the parser's test reads)"
for spec in ":pvp-ovs-local" "--ports 2:pvp-ovs-local-2port" "--guests 2:pvvp-ovs-local" \
	"--chains 2:pvp-ovs-local-2chains" "--standin:pvp-standin-local"; do
	# shellcheck disable=SC2086
	"$TB" plan --cpus 0-1 ${spec%%:*} | sed -n '/^topology.json:$/,$p' | tail -n +2 >"$PVP_TMP/t.json"
	"$PVP_PY" - "$PVP_TMP/t.json" "$PVP_SOURCE_DIR/examples/topologies/${spec#*:}.json" <<'PY' ||
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
tb = a.pop("testbed")
if tb["shared_cores"] is not True or tb["cpus"] != "0 1" or tb["pmds"] != 1:
    print("# testbed member:", tb)
    sys.exit(1)
b.pop("comment", None)
sys.exit(0 if a == b else 1)
PY
		fail "plan ${spec%%:*}: topology differs from ${spec#*:}.json"
done
out=$(plan --netns --cpus 0-1 | sed -n '/^topology.json:$/,$p' | tail -n +2)
tb_check_py() { "$PVP_PY" -c "import json,sys; j=json.loads(sys.argv[1]); sys.exit(0 if ($2) else 1)" "$1"; }
tb_check_py "$out" 'j["hops"][0]["ctl"].startswith("tcp:10.") and j["hops"][0]["token_file"].endswith("/tb/gen.token")' ||
	fail "--netns: the tester is not on TCP with a token: $out"
tb_check_py "$out" 'j["hops"][1]["db"].startswith("tcp:127.0.0.1:") and j["hops"][2]["token_file"].endswith("/tb/fwd.token")' ||
	fail "--netns: OVSDB or the guest: $out"

info "--flow-type l3-routed: OVS as a router, the tester resolves its gateway"
out=$(plan --flow-type l3-routed --cpus 0-1) || fail "plan failed: $out"
expect_line "$out" "rule: table=1,priority=100,ip,nw_dst=48.0.0.0/8,actions=dec_ttl,mod_dl_src:02:00:0a:0a:01:01,mod_dl_dst:02:00:0a:0a:01:02,output:2"
expect_line "$out" "rule: table=1,priority=100,ip,nw_dst=16.0.0.0/8,actions=dec_ttl,mod_dl_src:02:00:0a:0a:00:01,load:0x0a0a0002->NXM_NX_REG0[],resubmit(,2)"
expect_line "$out" "rule: table=2,priority=0,cookie=0x7076706400000001,actions=drop"
echo "$out" | grep -q "^rule: table=0,priority=100,in_port=1,arp,actions=learn(table=2,hard_timeout=5," ||
	fail "l3-routed: no rule learning the tester from its ARP frames: $out"
echo "$out" | grep -q "^flow: " && fail "l3-routed: port-to-port rules too: $out"
topo=$(echo "$out" | sed -n '/^topology.json:$/,$p' | tail -n +2)
tb_check_py "$topo" 'j["name"] == "pvp-ovs-local-l3-routed" and j["hops"][0]["l3"] == [{"port": "p0", "ip": "10.10.0.2", "gw": "10.10.0.1"}]' ||
	fail "l3-routed: the tester hop's l3 member: $topo"
if command -v ovs-ofctl >/dev/null; then
	echo "$out" | sed -n 's/^rule: //p' >"$PVP_TMP/l3-rules.txt"
	ovs-ofctl parse-flows "$PVP_TMP/l3-rules.txt" >/dev/null ||
		fail "l3-routed: ovs-ofctl does not parse the rules"
fi

info "--flow-type l3-routed6: the same router for IPv6"
out=$(plan --flow-type l3-routed6 --cpus 0-1) || fail "plan failed: $out"
expect_line "$out" "rule: table=1,priority=100,ipv6,ipv6_dst=2001:db8:48::/48,actions=dec_ttl,mod_dl_src:02:00:0a:0a:01:01,mod_dl_dst:02:00:0a:0a:01:02,output:2"
expect_line "$out" "rule: table=1,priority=100,ipv6,ipv6_dst=2001:db8:16::/48,actions=dec_ttl,mod_dl_src:02:00:0a:0a:00:01,load:0x20010db8001000000000000000000002->NXM_NX_XXREG0[],resubmit(,2)"
expect_line "$out" "rule: table=3,priority=100,in_port=1,icmp6,icmp_type=136,nd_target=2001:db8:10::1,actions=set_field:02:00:0a:0a:00:01->nd_tll,in_port"
echo "$out" | grep -q "^rule: table=0,priority=100,in_port=1,icmp6,icmp_type=136,actions=learn(table=2,hard_timeout=5," ||
	fail "l3-routed6: no rule learning the tester from its advertisements: $out"
echo "$out" | grep -q "arp" && fail "l3-routed6: ARP rules: $out"
topo=$(echo "$out" | sed -n '/^topology.json:$/,$p' | tail -n +2)
tb_check_py "$topo" 'j["name"] == "pvp-ovs-local-l3-routed6" and j["hops"][0]["l3"] == [{"port": "p0", "ip6": "2001:db8:10::2", "gw6": "2001:db8:10::1"}]' ||
	fail "l3-routed6: the tester hop's l3 member: $topo"
if command -v ovs-ofctl >/dev/null; then
	echo "$out" | sed -n 's/^rule: //p' >"$PVP_TMP/l3-rules6.txt"
	ovs-ofctl parse-flows "$PVP_TMP/l3-rules6.txt" >/dev/null ||
		fail "l3-routed6: ovs-ofctl does not parse the rules"
fi

info "bad options: one line, exit 1"
while IFS='|' read -r args msg; do
	# shellcheck disable=SC2086
	out=$(plan $args </dev/null)
	rc=$?
	[ "$rc" = 1 ] || fail "plan $args: exit $rc"
	[ "$out" = "testbed.sh: error: $msg" ] || fail "plan $args: '$out', not '$msg'"
done <<'EOF_CASES'
--ports 3|--ports must be 1 or 2
--ports 010|--ports: '010' is not a number
--guests 0|--guests must be 1..4
--chains 5|--chains must be 1..4
--chains 2 --ports 2|--chains cannot be combined with --ports 2 or --guests
--cpus 1-0|--cpus '1-0': not a CPU list (e.g. 2-5,8)
--cpus 3,3|--cpus '3,3': a CPU is listed twice
--cpus x|--cpus 'x': not a CPU list (e.g. 2-5,8)
--pmds 0|--pmds must be at least 1
--pmds 3 --cpus 0-1|--pmds 3: only 2 CPU(s) to put PMDs on
--ports|--ports needs a value
--vm --vm-mem 100|--vm-mem must be at least 512
--vm --vm-mem 513|--vm-mem must be a multiple of 2 (hugepages)
--vm --vm-mem x|--vm-mem: 'x' is not a number
--vm --vm-boot-wait 1m|--vm-boot-wait: '1m' is not a number
--vm --vm-accel xen|--vm-accel must be kvm, tcg or auto
--vm --vm-hugepages 32|--vm-hugepages must be at least 64 (pvpkit-fwd's 128 MB)
--vm --vm-hugepages 1152|--vm-hugepages 1152 (2 MB each) does not fit in --vm-mem 1024 with 256 MB for the guest's kernel
--vm --vm-hugepages 1x|--vm-hugepages: '1x' is not a number
--vm-hugepages|--vm-hugepages needs a value
--vm --netns|--vm cannot be combined with --netns (the VM is the guest's isolation)
--vm --standin|--vm needs OVS-DPDK (vhost-user ports), not --standin
--vm-boot-wait|--vm-boot-wait needs a value
--flow-type l3|--flow-type must be port, l3-routed or l3-routed6
--flow-type l3-routed6 --standin|--flow-type l3-routed6 needs OVS-DPDK and a local guest (not --standin, --vm)
--flow-type l3-routed --ports 2|--flow-type l3-routed runs the one-port, one-guest PVP only
--flow-type l3-routed --tester testpmd|--flow-type l3-routed needs pvpkit-gen (it resolves its gateway) and pvpkit-fwd
--flow-type l3-routed --standin|--flow-type l3-routed needs OVS-DPDK and a local guest (not --standin, --vm)
--flow-type l3-routed --fwd-mode macswap|--flow-type l3-routed needs --fwd-mode 5tswap (the way back is routed by address)
EOF_CASES
info "ok"
