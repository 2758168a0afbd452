#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# testbed.sh --netns picks its 10.N.0.0/16 where nothing else is: an
# address or a route into the range on the host or in another network
# namespace (another testbed's veths, whatever it chose) passes it over,
# with a line that says why; a route wider than a /16 (a VPN's 10/8)
# does not; none free is one clear error. Run with "plan", which makes
# the same choice as "up" and starts nothing, in a private network
# namespace standing for the host (root; nothing of the real host's
# network is touched). "up" itself: testbed_remote.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

TB=$PVP_SOURCE_DIR/tools/testbed.sh
RUN=$PVP_TMP/tb
NS=pvpnstest$$

if [ -z "${PVP_NETNS_TEST_NS:-}" ]; then
	need_root
	need_cmd ip
	unshare --net true 2>/dev/null || skip "no network namespaces here (unshare --net)"
	ip netns add "$NS" 2>/dev/null || skip "cannot create a named network namespace (ip netns add)"
	trap 'ip netns del "$NS" 2>/dev/null; pvp_cleanup' EXIT
	# The checks run in a network namespace of their own: "this host"
	# below.
	PVP_NETNS_TEST_NS=$NS unshare --net -- "$0" "$@"
	exit $?
fi
NS=$PVP_NETNS_TEST_NS

plan() { "$TB" plan --netns --dir "$RUN" 2>&1; }
# The N of the tester's control address in plan's topology.
chosen() { echo "$1" | sed -n 's/.*"ctl": "tcp:10\.\([0-9]*\)\.0\.2:7001".*/\1/p'; }
expect_line() {
	echo "$1" | grep -qxF -- "$2" || { echo "$1"; fail "no line '$2'"; }
}

ip link add tb0 type veth peer name tb1 || fail "veth"
ip link set tb0 up || fail "tb0 up"
# What the run dir's checksum proposes (testbed.sh's rule).
sum=$(printf '%s' "$RUN" | cksum | cut -d' ' -f1)
proposed=$((sum % 200 + 20))

info "free range: the proposal (unless another namespace here holds it)"
out=$(plan) || fail "plan failed: $out"
n0=$(chosen "$out")
[ -n "$n0" ] || { echo "$out"; fail "no tester address in the topology"; }
if [ "$n0" = "$proposed" ]; then
	echo "$out" | grep -q "in use" && { echo "$out"; fail "a free proposal said to be in use"; }
fi
expect_line "$out" "netns: gen in pvptb$sum-gen, 10.$n0.0.1/30 here, 10.$n0.0.2 there"
expect_line "$out" "netns: fwd in pvptb$sum-fwd, 10.$n0.1.1/30 here, 10.$n0.1.2 there"

info "an address in the range on this host"
ip addr add "10.$n0.0.1/24" dev tb0 || fail "addr"
out=$(plan) || fail "plan failed: $out"
n1=$(chosen "$out")
[ -n "$n1" ] && [ "$n1" != "$n0" ] || { echo "$out"; fail "10.$n0 taken on this host, chosen again"; }
[ "$n0" != "$proposed" ] ||
	expect_line "$out" "netns: 10.$n0.0.0/16 is in use (addr 10.$n0.0.1/24 on this host); using 10.$n1.0.0/16"

info "an address in another network namespace (another testbed's veth)"
ip link add tb2 type veth peer name tb3 && ip link set tb3 netns "$NS" &&
	ip -n "$NS" addr add "10.$n1.3.2/30" dev tb3 || fail "veth into $NS"
out=$(plan) || fail "plan failed: $out"
n2=$(chosen "$out")
[ -n "$n2" ] && [ "$n2" != "$n1" ] && [ "$n2" != "$n0" ] ||
	{ echo "$out"; fail "10.$n1 taken in namespace $NS, chosen again"; }

info "a route into the range on this host; a VPN's 10.0.0.0/8 does not count"
ip route add "10.$n2.200.0/24" dev tb0 || fail "route"
ip route add 10.0.0.0/8 dev tb0 || fail "route 10/8"
out=$(plan) || fail "plan failed: $out"
n3=$(chosen "$out")
[ -n "$n3" ] && [ "$n3" != "$n2" ] && [ "$n3" != "$n1" ] && [ "$n3" != "$n0" ] ||
	{ echo "$out"; fail "10.$n2 routed here, chosen again (or 10/8 took every range)"; }

info "every range taken: one line, exit 1"
for ((n = 20; n < 220; n++)); do
	ip route add blackhole "10.$n.0.0/16" || fail "blackhole 10.$n"
done
out=$(plan)
rc=$?
[ "$rc" = 1 ] || { echo "$out"; fail "every range taken: exit $rc, want 1"; }
[ "$(echo "$out" | wc -l)" = 1 ] || { echo "$out"; fail "more than one line"; }
echo "$out" | grep -q "^testbed.sh: error: no free 10.N.0.0/16 for --netns (N 20..219) on this host or in its network namespaces; the first proposed: 10.$proposed.0.0/16 is in use (" ||
	{ echo "$out"; fail "unclear error"; }
info "$out"
echo "testbed --netns range: all checks passed"
