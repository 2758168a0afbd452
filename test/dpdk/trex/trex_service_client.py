#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""TRex's own client (a trex-core checkout) in service mode against
pvpkit-gen --trex, two ports wired to each other: port 1 owns 10.0.0.2
(lib/neigh answers for it); set_l3_mode() on port 0 resolves it through
the client's ServiceARP (push_pkts, a capture with a BPF filter); an
address nobody owns is "Could not resolve"; ping_ip() (ServiceICMP,
ServiceICMPv6) and scan6() (ICMPv6 echo to ff02::1) get port 1's echo
replies and neighbour advertisement; set_vlan([10, 20]) on both ports,
and resolve() and ping_ip() again in QinQ; then an NFVbench-style
session: service mode on, a ServiceARP context resolves the far end,
the port set to L2 mode toward it, service mode off, a burst to the
resolved MAC, the stats.

Usage: trex_service_client.py TREX_CORE RPC_PORT PUB_PORT MAC1
"""
import os
import sys
import warnings


def fail(msg):
    sys.exit("FAIL: " + msg)


def main():
    core, rpc, pub, mac1 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].lower()
    sys.path.insert(0, os.path.join(core, "scripts/automation/trex_control_plane/interactive"))
    os.environ.setdefault("TREX_EXT_LIBS", os.path.join(core, "scripts/external_libs"))
    warnings.simplefilter("ignore")
    from trex.stl.api import (STLClient, STLStream, STLPktBuilder, STLTXSingleBurst, TRexError,
                              Ether, IP, UDP)
    from trex.common.services.trex_service_arp import ServiceARP

    c = STLClient(server="127.0.0.1", sync_port=rpc, async_port=pub, verbose_level="error")
    c.connect()
    c.acquire(ports=[0, 1], force=True)
    c.reset(ports=[0, 1])

    print("# service mode on, port 1 at 10.0.0.2, port 0 resolves it with set_l3_mode()")
    c.set_service_mode(ports=[0, 1], enabled=True)
    if not c.ports[1].set_l3_mode("10.0.0.2", "10.0.0.1"):
        fail("port 1 set_l3")
    c.set_l3_mode(port=0, src_ipv4="10.0.0.1", dst_ipv4="10.0.0.2")
    cfg = c.ports[0].get_layer_cfg()
    print("# port 0 layer_cfg: %s" % cfg)
    if cfg["ipv4"]["state"] != "resolved" or cfg["ether"]["dst"] != mac1:
        fail("port 0 not resolved to %s: %s" % (mac1, cfg))
    c.resolve(ports=[0], retries=1)

    print("# ping_ip(): ICMP and ICMPv6 echo to port 1's addresses")
    c.conf_ipv6(port=1, enabled=True, src_ipv6="2001:db8::2")
    for dst in ("10.0.0.2", "2001:db8::2"):
        recs = c.ping_ip(src_port=0, dst_ip=dst, pkt_size=64, count=2, interval_sec=0.1)
        for r in recs:
            # IPv4 gives ServiceICMP's PINGRecord, IPv6 a dict.
            if isinstance(r, dict):
                ok, text = r["status"] == "success" and r["src_ip"] == dst, r["formatted_string"]
            else:
                ok, text = r.state == r.SUCCESS and r.responder_ip == dst, str(r)
            print("# %s" % text)
            if not ok:
                fail("ping_ip %s: %s" % (dst, text))
    print("# scan6(): ICMPv6 echo to ff02::1, port 1 answers, then its advertisement")
    found = c.scan6(ports=[0], timeout=1)[0]
    print("# scan6: %s" % found)
    if {"type": "Host", "mac": mac1, "ipv6": "2001:db8::2"} not in found:
        fail("scan6 did not find port 1: %s" % found)

    print("# QinQ: set_vlan([10, 20]) on both ports, then resolve() and ping_ip() inside both tags")
    c.set_vlan(ports=[0, 1], vlan=[10, 20])
    print("# port 0 vlan: %s" % c.ports[0].get_vlan_cfg())
    if c.ports[0].get_vlan_cfg() != [10, 20] or c.ports[1].get_vlan_cfg() != [10, 20]:
        fail("vlan %s %s" % (c.ports[0].get_vlan_cfg(), c.ports[1].get_vlan_cfg()))
    c.set_l3_mode(port=0, src_ipv4="10.0.0.1", dst_ipv4="10.0.0.2")
    cfg = c.ports[0].get_layer_cfg()
    if cfg["ipv4"]["state"] != "resolved" or cfg["ether"]["dst"] != mac1:
        fail("port 0 not resolved in QinQ: %s" % cfg)
    c.resolve(ports=[0], retries=1)
    for dst in ("10.0.0.2", "2001:db8::2"):
        for r in c.ping_ip(src_port=0, dst_ip=dst, pkt_size=64, count=1, interval_sec=0.1):
            ok = r["status"] == "success" if isinstance(r, dict) else r.state == r.SUCCESS
            text = r["formatted_string"] if isinstance(r, dict) else str(r)
            print("# QinQ %s" % text)
            if not ok:
                fail("ping_ip %s in QinQ: %s" % (dst, text))
    # Port 1 on one tag only: port 0's QinQ requests are not its any more.
    c.set_vlan(ports=[1], vlan=[10])
    try:
        c.set_l3_mode(port=0, src_ipv4="10.0.0.1", dst_ipv4="10.0.0.2")
        fail("resolved across different tags")
    except TRexError as e:
        print("# port 1 on VLAN 10 alone: %s" % str(e).strip().splitlines()[-1])
    c.set_vlan(ports=[0, 1], vlan=[])
    c.set_l3_mode(port=0, src_ipv4="10.0.0.1", dst_ipv4="10.0.0.2")

    print("# 10.0.0.99 is nobody's: resolve() fails by name")
    try:
        c.set_l3_mode(port=0, src_ipv4="10.0.0.1", dst_ipv4="10.0.0.99")
        fail("10.0.0.99 resolved")
    except TRexError as e:
        print("# refused as expected: %s" % str(e).strip())
        if "Could not resolve following ports: [0]" not in str(e):
            fail("message: %s" % e)
    if c.ports[0].get_layer_cfg()["ipv4"]["state"] != "unresolved":
        fail("port 0 still resolved after a failed resolve")

    print("# NFVbench-style: ServiceARP, service off, a burst to the resolved MAC, stats")
    ctx = c.create_service_ctx(port=0)
    arp = ServiceARP(ctx, src_ip="10.0.0.1", dst_ip="10.0.0.2")
    ctx.run([arp])
    rec = arp.get_record()
    if not rec or rec.dst_mac != mac1:
        fail("ServiceARP: %s" % rec)
    print("# ServiceARP: %s" % rec)
    c.set_l2_mode(port=0, dst_mac=rec.dst_mac)
    c.set_service_mode(ports=[0, 1], enabled=False)
    pkt = Ether(src=c.ports[0].get_layer_cfg()["ether"]["src"], dst=rec.dst_mac) / \
        IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1234, dport=4321) / (b"x" * 40)
    c.add_streams(STLStream(packet=STLPktBuilder(pkt=pkt),
                            mode=STLTXSingleBurst(total_pkts=2000, pps=10000)), ports=[0])
    c.clear_stats()
    c.start(ports=[0])
    c.wait_on_traffic(ports=[0], timeout=10)
    st = c.get_stats(ports=[0, 1])
    print("# port 0 opackets %d, port 1 ipackets %d" % (st[0]["opackets"], st[1]["ipackets"]))
    if st[0]["opackets"] != 2000 or st[1]["ipackets"] != 2000:
        fail("stats %s %s" % (st[0], st[1]))
    c.disconnect()
    print("PASS")


if __name__ == "__main__":
    main()
