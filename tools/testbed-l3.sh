#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Sourced by testbed.sh (not run on its own); a script, so that it may be
# installed beside it in LIBEXECDIR/pvpkit, where files are executables.
#
# testbed.sh --flow-type l3-routed: OVS-DPDK is an IPv4 router between the
# tester's link and the guest's, as a routed vswitch (OVN's logical
# router, a VNF's gateway) would be, with OpenFlow rules alone (no
# controller):
#
#   tester p0 10.10.0.2 --- 10.10.0.1 [br-pvp] 10.10.1.1 --- 10.10.1.2 guest
#            (its gateway)   router A         router B    (pvpkit-fwd 5tswap)
#
#   16.0.0.0/8 (the streams' sources) via 10.10.0.2, the tester
#   48.0.0.0/8 (their destination)    via 10.10.1.2, the guest
#
# A routed packet has its TTL decremented and both MACs rewritten. The
# router answers ARP for its own two addresses (as OVN's router does,
# with flows) and nothing else: the tester must resolve its gateway
# (pvpkit-gen --l3). Its entry for the tester is learnt from the ARP
# frames the tester sends (a request for the gateway, its gratuitous ARPs:
# pvpkit-gen --addr announce=) and lives L3_AGE_S seconds unless one of
# them comes again; without it the traffic back to the tester is dropped
# in table 2 ("no neighbour"). The guest's MAC is static (the testbed
# gives the guest's port that MAC): the guest answers nothing.
#
# --flow-type l3-routed6 is the same router for IPv6 (2001:db8:10::/64 on
# the tester's link, 2001:db8:11::/64 on the guest's, the streams from
# 2001:db8:16::/48 to 2001:db8:48::/48): it answers neighbour
# solicitations for its own address with flows (the solicitation turned
# into a solicited advertisement, its source link-layer option into the
# target one with the router's MAC), decrements the hop limit, and learns
# the tester from its solicitations and unsolicited advertisements
# (pvpkit-gen --addr ip6=,gw6=,announce=).
#
# Table 2's miss rule carries a drop-reason cookie (drivers/ovs: "pvpd",
# reason 0 = no_neighbour, the OpenFlow port the packets would have left
# by): the ovs driver reads its packets as that named reason at
# "sent by physical", so the trial says why the vswitch lost them.

FLOW_TYPE=port
# Router A (the tester's link) and B (the guest's), and the hosts there.
L3_RA_MAC=02:00:0a:0a:00:01
L3_RA_IP=10.10.0.1
L3_TESTER_IP=10.10.0.2
L3_RB_MAC=02:00:0a:0a:01:01
L3_RB_IP=10.10.1.1
L3_GUEST_IP=10.10.1.2
L3_GUEST_MAC=02:00:0a:0a:01:02
L3_SRC_NET=16.0.0.0/8
L3_DST_NET=48.0.0.0/8
# The router forgets the tester this long after its last ARP frame; the
# tester announces itself every L3_ANNOUNCE_S.
L3_AGE_S=5
L3_ANNOUNCE_S=2
# l3-routed6: the addresses, and the tester's as the hex a load: takes.
L3_RA_IP6=2001:db8:10::1
L3_TESTER_IP6=2001:db8:10::2
L3_TESTER_IP6_HEX=0x20010db8001000000000000000000002
L3_RB_IP6=2001:db8:11::1
L3_SRC_NET6=2001:db8:16::/48
L3_DST_NET6=2001:db8:48::/48

l3_usage() {
	cat <<EOF
  --flow-type port|l3-routed|l3-routed6  OVS rules: port (default)
                       forwards port to port; l3-routed makes OVS an IPv4
                       router between the tester's link and the guest's (ARP
                       for its gateway, TTL, MAC rewrite; doc/testbed.rst),
                       l3-routed6 an IPv6 one (neighbour discovery, hop
                       limit): one tester port, one pvpkit-fwd guest in
                       5tswap, OVS-DPDK
EOF
}

l3_check_options() {
	case "$FLOW_TYPE" in
	port) return 0 ;;
	l3-routed | l3-routed6) ;;
	*) die "--flow-type must be port, l3-routed or l3-routed6" ;;
	esac
	[ "$NPORTS" = 1 ] && [ "$NGUESTS" = 1 ] && [ "$NCHAINS" = 1 ] ||
		die "--flow-type $FLOW_TYPE runs the one-port, one-guest PVP only"
	[ "$TESTER" = gen ] && [ "$GUEST" = fwd ] ||
		die "--flow-type $FLOW_TYPE needs pvpkit-gen (it resolves its gateway) and pvpkit-fwd"
	[ "$STANDIN" = 0 ] && [ "$VM" = 0 ] ||
		die "--flow-type $FLOW_TYPE needs OVS-DPDK and a local guest (not --standin, --vm)"
	# The guest sends the traffic back to its source: both addresses
	# swapped, so that the router routes it to the tester.
	[ "$FWD_MODE_ASKED" = 0 ] || [ "$FWD_MODE" = 5tswap ] ||
		die "--flow-type $FLOW_TYPE needs --fwd-mode 5tswap (the way back is routed by address)"
	FWD_MODE=5tswap
}

l3_on() { [ "$FLOW_TYPE" = l3-routed ] || [ "$FLOW_TYPE" = l3-routed6 ]; }

l3_v6() { [ "$FLOW_TYPE" = l3-routed6 ]; }

# pvpkit-gen's addresses: resolve the gateway at start, announce itself.
l3_gen_args() {
	l3_on || return 0
	if l3_v6; then
		echo "--addr 0:ip6=$L3_TESTER_IP6,gw6=$L3_RA_IP6,announce=$L3_ANNOUNCE_S --l3"
	else
		echo "--addr 0:ip=$L3_TESTER_IP,gw=$L3_RA_IP,announce=$L3_ANNOUNCE_S --l3"
	fi
}

# The guest's virtio-user port: the MAC the router's static entry names.
l3_guest_vdev() {
	l3_on || return 0
	echo ",mac=$L3_GUEST_MAC"
}

# a.b.c.d as 0x hex, for load: actions.
l3_hex_ip() {
	local IFS=.
	# shellcheck disable=SC2086
	printf '0x%02x%02x%02x%02x' $1
}

l3_hex_mac() { echo "0x${1//:/}"; }

# An ARP request on port $1 for router address $2 ($3 its MAC) turned
# into its reply and sent back where it came from; $4 extra actions
# first (the learn of the tester's link).
l3_arp_answer() {
	echo "table=0,priority=200,in_port=$1,arp,arp_op=1,arp_tpa=$2,actions=$4move:NXM_OF_ETH_SRC[]->NXM_OF_ETH_DST[],mod_dl_src:$3,load:0x2->NXM_OF_ARP_OP[],move:NXM_NX_ARP_SHA[]->NXM_NX_ARP_THA[],move:NXM_OF_ARP_SPA[]->NXM_OF_ARP_TPA[],load:$(l3_hex_mac "$3")->NXM_NX_ARP_SHA[],load:$(l3_hex_ip "$2")->NXM_OF_ARP_SPA[],in_port"
}

# A neighbour solicitation on port $1 for router address $2 ($3 its MAC)
# turned into its solicited advertisement (router, solicited, override)
# and sent back; $4 extra actions first. Its source link-layer option
# becomes the target one with the router's MAC: OVS sets nd_tll only on
# an advertisement, so table 3 does that once the frame is one.
l3_ns_answer() {
	echo "table=0,priority=200,in_port=$1,icmp6,icmp_type=135,nd_target=$2,actions=$4move:NXM_OF_ETH_SRC[]->NXM_OF_ETH_DST[],mod_dl_src:$3,move:NXM_NX_IPV6_SRC[]->NXM_NX_IPV6_DST[],set_field:$2->ipv6_src,set_field:136->icmpv6_type,set_field:0xe0000000->nd_reserved,set_field:2->nd_options_type,resubmit(,3)"
	echo "table=3,priority=100,in_port=$1,icmp6,icmp_type=136,nd_target=$2,actions=set_field:$3->nd_tll,in_port"
}

# The neighbour table's miss rule: a drop counted as "no_neighbour" at
# the tester's link's port (tools/testbed-l3.sh's header).
l3_miss_rule() {
	printf 'table=2,priority=0,cookie=0x70767064%04x%04x,actions=drop\n' 0 "${OFPORT[phy0]}"
}

# l3_flows for IPv6: the same tables, neighbour discovery for ARP, the
# next hop's address in xxreg0; table 3 finishes the advertisements.
l3_flows6() {
	local pa=${OFPORT[phy0]} pb=${OFPORT[vhost0]} learn
	learn="learn(table=2,hard_timeout=$L3_AGE_S,priority=100,NXM_NX_XXREG0[]=NXM_NX_IPV6_SRC[],load:NXM_OF_ETH_SRC[]->NXM_OF_ETH_DST[],output:NXM_OF_IN_PORT[]),"
	l3_ns_answer "$pa" "$L3_RA_IP6" "$L3_RA_MAC" "$learn"
	l3_ns_answer "$pb" "$L3_RB_IP6" "$L3_RB_MAC" ""
	# The tester's other solicitations and its unsolicited
	# advertisements refresh what the router knows of it (RFC 4861 7.2.3,
	# 7.2.5), and go no further.
	echo "table=0,priority=100,in_port=$pa,icmp6,icmp_type=135,actions=${learn%,}"
	echo "table=0,priority=100,in_port=$pa,icmp6,icmp_type=136,actions=${learn%,}"
	echo "table=0,priority=50,in_port=$pa,ipv6,dl_dst=$L3_RA_MAC,actions=resubmit(,1)"
	echo "table=0,priority=50,in_port=$pb,ipv6,dl_dst=$L3_RB_MAC,actions=resubmit(,1)"
	echo "table=0,priority=0,actions=drop"
	echo "table=1,priority=100,ipv6,ipv6_dst=$L3_DST_NET6,actions=dec_ttl,mod_dl_src:$L3_RB_MAC,mod_dl_dst:$L3_GUEST_MAC,output:$pb"
	echo "table=1,priority=100,ipv6,ipv6_dst=$L3_SRC_NET6,actions=dec_ttl,mod_dl_src:$L3_RA_MAC,load:$L3_TESTER_IP6_HEX->NXM_NX_XXREG0[],resubmit(,2)"
	echo "table=1,priority=0,actions=drop"
	l3_miss_rule
	echo "table=3,priority=0,actions=drop"
}

# The router's rules, for ovs-ofctl add-flows: table 0 takes ARP and the
# packets sent to a router MAC, table 1 routes, table 2 holds the
# neighbours learnt on the tester's link.
l3_flows() {
	local pa=${OFPORT[phy0]} pb=${OFPORT[vhost0]} learn
	if l3_v6; then
		l3_flows6
		return
	fi
	learn="learn(table=2,hard_timeout=$L3_AGE_S,priority=100,NXM_NX_REG0[]=NXM_OF_ARP_SPA[],load:NXM_NX_ARP_SHA[]->NXM_OF_ETH_DST[],output:NXM_OF_IN_PORT[]),"
	l3_arp_answer "$pa" "$L3_RA_IP" "$L3_RA_MAC" "$learn"
	l3_arp_answer "$pb" "$L3_RB_IP" "$L3_RB_MAC" ""
	# Every other ARP frame of the tester's link refreshes what the
	# router knows of its sender (RFC 826), and goes no further.
	echo "table=0,priority=100,in_port=$pa,arp,actions=${learn%,}"
	echo "table=0,priority=50,in_port=$pa,ip,dl_dst=$L3_RA_MAC,actions=resubmit(,1)"
	echo "table=0,priority=50,in_port=$pb,ip,dl_dst=$L3_RB_MAC,actions=resubmit(,1)"
	echo "table=0,priority=0,actions=drop"
	echo "table=1,priority=100,ip,nw_dst=$L3_DST_NET,actions=dec_ttl,mod_dl_src:$L3_RB_MAC,mod_dl_dst:$L3_GUEST_MAC,output:$pb"
	echo "table=1,priority=100,ip,nw_dst=$L3_SRC_NET,actions=dec_ttl,mod_dl_src:$L3_RA_MAC,load:$(l3_hex_ip "$L3_TESTER_IP")->NXM_NX_REG0[],resubmit(,2)"
	echo "table=1,priority=0,actions=drop"
	l3_miss_rule
}

# The tester hop's "l3" member (drivers/gen checks pvpkit-gen has it).
l3_tester_member() {
	l3_on || return 0
	if l3_v6; then
		printf ', "l3": [{"port": "p0", "ip6": "%s", "gw6": "%s"}]' "$L3_TESTER_IP6" "$L3_RA_IP6"
	else
		printf ', "l3": [{"port": "p0", "ip": "%s", "gw": "%s"}]' "$L3_TESTER_IP" "$L3_RA_IP"
	fi
}
