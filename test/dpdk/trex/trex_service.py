#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""TRex's service mode on pvpkit-gen --trex, two ports wired to each
other, as a TRex client's services use it: port 1 gets addresses
(set_l3, conf_ipv6) and lib/neigh answers for them; port 0 pushes an ARP
request and a neighbour solicitation (push_pkts) and reads the answers
from its RX queue (set_rx_feature "queue", get_rx_queue_pkts), then is
set resolved (set_l3 with resolved_mac), as the client's resolve() does;
port 0 pings port 1 (ICMP and ICMPv6 echo, to all nodes too), as
ping_ip() and scan6() do, and reads the echo replies the same way; then
the same in QinQ (set_vlan([10, 20]) on both ports, frames tagged as
TRex's client tags them: 802.1ad 10 outside, 802.1Q 20 inside).
Then an NFVbench-style session: service off, a stream to the resolved
MAC, traffic, stats. Bad input gets TRex's errors and changes nothing.

Usage: trex_service.py RPC_PORT MAC0 MAC1
"""
import base64
import os
import socket
import struct
import sys
import time

from trex_wire import Client, fail, stream, udp_frame

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from frames import arp_request, csum, echo4, echo6, ns, qinq, tag  # noqa: E402
from frames import mac as mac_bytes  # noqa: E402

RPC, MAC0, MAC1 = int(sys.argv[1]), sys.argv[2].lower(), sys.argv[3].lower()
E_PARAMS, E_EXEC = -32602, -32000


def check(cond, msg):
    if not cond:
        fail(msg)


def arp(sip, tip):
    """Who has @tip, tell @sip (port 0); the Ethernet source is the port's (use_port_src_mac)."""
    return arp_request(MAC0, sip, tip, eth_src="00:00:00:00:00:00")


def push(c, port, frames):
    pkts = [{"binary": base64.b64encode(f).decode(), "use_port_dst_mac": False,
             "use_port_src_mac": True} for f in frames]
    r = c.call("push_pkts", {"port_id": port, "pkts": pkts, "force": True, "ipg_usec": 1000})
    check(r["sent"] == len(frames), "push_pkts sent %s of %d" % (r, len(frames)))
    return r


def wait_rx_all(c, port, *matches, timeout=3):
    """get_rx_queue_pkts until a frame each of @matches takes has come; those frames.

    One call can return several replies and empties the queue, so the
    frames of one push are all looked for in every call's answer."""
    found = [None] * len(matches)
    end = time.time() + timeout
    while time.time() < end:
        for p in c.call("get_rx_queue_pkts", {"port_id": port})["pkts"]:
            b = base64.b64decode(p["binary"])
            for i, match in enumerate(matches):
                if found[i] is None and match(b):
                    check(p["port"] == port and p["origin"] == "RX", "queue frame %s" % p)
                    found[i] = b
                    break
        if None not in found:
            return found
        time.sleep(0.05)
    fail("no answer %d in port %d's RX queue within %d s" % (found.index(None), port, timeout))


def wait_rx(c, port, match, timeout=3):
    """get_rx_queue_pkts until a frame @match takes comes; that frame."""
    return wait_rx_all(c, port, match, timeout=timeout)[0]


def status(c, port):
    return c.call("get_port_status", {"port_id": port})


def layer(c, port):
    return status(c, port)["attr"]["layer_cfg"]


def main():
    c = Client(RPC)
    c.sync()
    c.acquire(0)
    c.acquire(1)

    print("# service mode on both ports, as the client's service_mode() does")
    for p in (0, 1):
        check(not status(c, p)["service"], "service on before it was asked")
        c.port_call("service", p, {"enabled": True, "filtered": False, "mask": 0})
        st = status(c, p)
        check(st["service"] and not st["service_filtered"] and
              st["attr"]["rx_filter_mode"] == "all", "service %s" % st)
    check(layer(c, 0) == {"ether": {"src": MAC0, "dst": "00:00:00:00:00:00", "state": "configured"},
                          "ipv4": {"state": "none"}, "ipv6": {"enabled": False}},
          "layer_cfg at start %s" % layer(c, 0))

    print("# addresses: port 1 owns 10.0.0.2 and 2001:db8::2, port 0 is 10.0.0.1 -> 10.0.0.2")
    c.port_call("set_l3", 1, {"src_addr": "10.0.0.2", "dst_addr": "10.0.0.1", "block": False})
    c.port_call("conf_ipv6", 1, {"enabled": True, "src_ipv6": "2001:db8::2", "block": False})
    c.port_call("set_l3", 0, {"src_addr": "10.0.0.1", "dst_addr": "10.0.0.2", "block": False})
    c.port_call("conf_ipv6", 0, {"enabled": True, "src_ipv6": "", "block": False})
    l0, l1 = layer(c, 0), layer(c, 1)
    check(l0["ipv4"] == {"src": "10.0.0.1", "dst": "10.0.0.2", "state": "unresolved"}, "l0 %s" % l0)
    check(l1["ipv6"] == {"enabled": True, "src": "2001:db8::2"}, "l1 %s" % l1)
    check(l0["ipv6"] == {"enabled": True, "src": ""}, "auto IPv6 %s" % l0)

    print("# resolve(): an ARP request pushed on port 0, port 1's reply read from port 0's RX queue")
    c.port_error("set_rx_feature", 0, {"type": "queue", "enabled": True, "size": 0},
                 code=E_PARAMS, contains="queue size cannot be zero")
    c.port_call("set_rx_feature", 0, {"type": "queue", "enabled": True, "size": 1000})
    check(status(c, 0)["rx_info"]["queue"]["is_active"], "queue not active")
    push(c, 0, [arp("10.0.0.1", "10.0.0.2")])
    rep = wait_rx(c, 0, lambda b: b[12:14] == b"\x08\x06" and b[20:22] == b"\x00\x02")
    check(rep[22:28] == mac_bytes(MAC1) and rep[28:32] == socket.inet_aton("10.0.0.2") and
          rep[0:6] == mac_bytes(MAC0), "ARP reply %s" % rep.hex())
    print("# 10.0.0.2 is at %s" % MAC1)
    c.port_call("set_l3", 0, {"src_addr": "10.0.0.1", "dst_addr": "10.0.0.2", "resolved_mac": MAC1,
                              "block": False})
    l0 = layer(c, 0)
    check(l0["ipv4"]["state"] == "resolved" and l0["ether"] == {"src": MAC0, "dst": MAC1,
                                                                 "state": "configured"}, "l0 %s" % l0)

    print("# IPv6: a neighbour solicitation for 2001:db8::2, port 1's advertisement")
    push(c, 0, [ns(MAC0, "fe80::1", "2001:db8::2")])
    na = wait_rx(c, 0, lambda b: b[12:14] == b"\x86\xdd" and b[20] == 58 and b[54] == 136)
    check(na[6:12] == mac_bytes(MAC1) and
          na[62:78] == socket.inet_pton(socket.AF_INET6, "2001:db8::2"), "NA %s" % na.hex())

    print("# ping_ip(): ICMP echo to 10.0.0.2, port 1's echo reply in port 0's RX queue")
    data = b"x" * 22  # ServiceICMP pads to pkt_size 64
    push(c, 0, [echo4(MAC0, MAC1, "10.0.0.1", "10.0.0.2", data)])
    rep = wait_rx(c, 0, lambda b: b[12:14] == b"\x08\x00" and b[23] == 1 and b[34] == 0)
    check(len(rep) == 64 and rep[0:6] == mac_bytes(MAC0) and rep[6:12] == mac_bytes(MAC1) and
          rep[26:30] == socket.inet_aton("10.0.0.2") and rep[30:34] == socket.inet_aton("10.0.0.1") and
          rep[38:42] == b"\x42\x42\x00\x00" and rep[42:] == data and csum(rep[14:34]) == 0 and
          csum(rep[34:]) == 0, "echo reply %s" % rep.hex())
    print("# 64 bytes from 10.0.0.2: ttl=%d" % rep[22])

    print("# ping_ip() and scan6(): ICMPv6 echo to 2001:db8::2, port 1's link-local, ff02::1")
    m1 = mac_bytes(MAC1)
    ll1 = socket.inet_ntop(socket.AF_INET6, bytes.fromhex("fe80000000000000") + bytes(
        [m1[0] ^ 2, m1[1], m1[2], 0xff, 0xfe, m1[3], m1[4], m1[5]]))  # modified EUI-64
    for dst6, dmac, src6 in [("2001:db8::2", MAC1, "2001:db8::2"), (ll1, MAC1, ll1),
                             ("ff02::1", "33:33:00:00:00:01", "2001:db8::2")]:
        c.call("get_rx_queue_pkts", {"port_id": 0})
        push(c, 0, [echo6(MAC0, dmac, "fe80::1", dst6, b"y" * 10)])
        rep = wait_rx(c, 0, lambda b: b[12:14] == b"\x86\xdd" and b[20] == 58 and b[54] == 129)
        ph = rep[22:54] + struct.pack(">I3xB", len(rep) - 54, 58)
        check(rep[6:12] == m1 and rep[22:38] == socket.inet_pton(socket.AF_INET6, src6) and
              rep[38:54] == socket.inet_pton(socket.AF_INET6, "fe80::1") and
              rep[58:] == b"\x42\x42\x00\x00" + b"y" * 10 and csum(ph + rep[54:]) == 0,
              "ICMPv6 echo reply to %s: %s" % (dst6, rep.hex()))
        print("# %s answers from %s" % (dst6, src6))

    print("# VLAN: one tag kept, bad tags refused")
    c.port_error("set_vlan", 0, {"vlan": [0]}, code=E_PARAMS, contains="invalid VLAN tag: '0'")
    c.port_error("set_vlan", 0, {"vlan": [1, 2, 3]}, code=E_PARAMS,
                 contains="Maximal number of stacked VLANs is 2, got: 3")
    c.port_error("set_vlan", 0, {"vlan": [10, 4096]}, code=E_PARAMS,
                 contains="invalid VLAN tag: '4096'")
    c.port_error("set_vlan", 0, {"vlan": [0, 20]}, code=E_PARAMS, contains="invalid VLAN tag: '0'")
    check(status(c, 0)["attr"]["vlan"] == {"tags": []}, "a refused set_vlan changed the tags")
    c.port_call("set_vlan", 0, {"vlan": [100], "block": False})
    check(status(c, 0)["attr"]["vlan"] == {"tags": [100]}, "vlan %s" % status(c, 0)["attr"])
    c.port_call("set_vlan", 0, {"vlan": [], "block": False})
    check(status(c, 0)["attr"]["vlan"] == {"tags": []}, "vlan cleared")

    print("# QinQ: set_vlan([10, 20]) on both ports, resolve() and ping_ip() inside both tags")
    for p in (0, 1):
        c.port_call("set_vlan", p, {"vlan": [10, 20], "block": False})
        check(status(c, p)["attr"]["vlan"] == {"tags": [10, 20]}, "vlan %s" % status(c, p)["attr"])
    c.call("get_rx_queue_pkts", {"port_id": 0})
    push(c, 0, [qinq(arp("10.0.0.1", "10.0.0.2"), 10, 20)])
    rep = wait_rx(c, 0, lambda b: b[12:14] == b"\x88\xa8" and b[20:22] == b"\x08\x06" and
                  b[28:30] == b"\x00\x02")
    check(rep[12:22] == b"\x88\xa8\x00\x0a\x81\x00\x00\x14\x08\x06" and
          rep[30:36] == mac_bytes(MAC1) and rep[36:40] == socket.inet_aton("10.0.0.2"),
          "QinQ ARP reply %s" % rep.hex())
    print("# ARP reply in 802.1ad %d / 802.1Q %d: 10.0.0.2 is at %s" % (
        struct.unpack(">H", rep[14:16])[0], struct.unpack(">H", rep[18:20])[0], MAC1))
    # Port 1 is in QinQ now: an untagged request, or one in the outer tag alone, is not its.
    push(c, 0, [arp("10.0.0.1", "10.0.0.2"),
                tag(arp("10.0.0.1", "10.0.0.2"), (0x8100, 10))])
    time.sleep(0.3)
    for b in c.call("get_rx_queue_pkts", {"port_id": 0})["pkts"]:
        f = base64.b64decode(b["binary"])
        check(f[6:12] != mac_bytes(MAC1), "port 1 answered outside its QinQ: %s" % f.hex())
    push(c, 0, [qinq(echo4(MAC0, MAC1, "10.0.0.1", "10.0.0.2", data), 10, 20)])
    rep = wait_rx(c, 0, lambda b: b[20:22] == b"\x08\x00" and b[31] == 1 and b[42] == 0)
    check(len(rep) == 72 and rep[12:20] == b"\x88\xa8\x00\x0a\x81\x00\x00\x14" and
          rep[34:38] == socket.inet_aton("10.0.0.2") and rep[50:] == data and
          csum(rep[22:42]) == 0 and csum(rep[42:]) == 0, "QinQ echo reply %s" % rep.hex())
    print("# 72 bytes in QinQ 10/20 from 10.0.0.2: ttl=%d" % rep[30])
    push(c, 0, [qinq(ns(MAC0, "fe80::1", "2001:db8::2"), 10, 20),
                qinq(echo6(MAC0, "33:33:00:00:00:01", "fe80::1", "ff02::1", b"z" * 8), 10, 20)])
    # Both replies can come in one get_rx_queue_pkts answer: wait for them together.
    na, rep = wait_rx_all(c, 0, lambda b: b[20:22] == b"\x86\xdd" and b[62] == 136,
                          lambda b: b[20:22] == b"\x86\xdd" and b[62] == 129)
    check(na[12:20] == b"\x88\xa8\x00\x0a\x81\x00\x00\x14" and na[6:12] == mac_bytes(MAC1),
          "QinQ NA %s" % na.hex())
    check(rep[12:20] == b"\x88\xa8\x00\x0a\x81\x00\x00\x14" and
          rep[30:46] == socket.inet_pton(socket.AF_INET6, "2001:db8::2"), "QinQ echo6 %s" % rep.hex())
    print("# scan6() in QinQ: ff02::1 answers from 2001:db8::2, its NA tagged 10/20")
    for p in (0, 1):
        c.port_call("set_vlan", p, {"vlan": [], "block": False})
    # TRex accepts 4095 (its validate_vlan refuses 0 and > 4095 only).
    c.port_call("set_vlan", 0, {"vlan": [4095, 1], "block": False})
    c.port_call("set_vlan", 0, {"vlan": [], "block": False})

    print("# bad pushed packets send nothing")
    good = {"binary": base64.b64encode(arp("10.0.0.1", "10.0.0.9")).decode(),
            "use_port_dst_mac": False, "use_port_src_mac": True}
    for pkts, code, text in [
            ([good, dict(good, binary="!!not base64!!")], E_PARAMS, "'binary' is not base64"),
            ([dict(good, binary=base64.b64encode(b"x" * 10).decode())], E_EXEC,
             "Bad packet size provided: 10. Should be between 14 and 9238"),
            ([dict(good, binary=base64.b64encode(b"x" * 9239).decode())], E_EXEC,
             "Bad packet size provided: 9239"),
            ([{"binary": good["binary"]}], E_PARAMS, "use_port_dst_mac"),
            (["a string"], E_PARAMS, "'pkts[0]' must be an object")]:
        c.error("push_pkts", {"port_id": 0, "pkts": pkts, "force": True, "ipg_usec": 0},
                code=code, contains=text)
    c.error("push_pkts", {"port_id": 0, "pkts": [good] * 3, "force": True, "ipg_usec": 500000},
            code=E_PARAMS, contains="exceeds the limit of 1 second")
    c.error("push_pkts", {"port_id": 7, "pkts": [good]}, contains="port")

    print("# an address nobody owns: the ARP request goes unanswered")
    c.call("get_rx_queue_pkts", {"port_id": 0})
    push(c, 0, [arp("10.0.0.1", "10.0.0.99")])
    time.sleep(0.5)
    replies = [base64.b64decode(p["binary"]) for p in c.call("get_rx_queue_pkts", {"port_id": 0})["pkts"]]
    check(not any(b[12:14] == b"\x08\x06" and b[20:22] == b"\x00\x02" for b in replies),
          "10.0.0.99 answered")

    print("# service off: refused while the RX queue is on, as TRex")
    c.port_error("service", 0, {"enabled": False}, code=E_EXEC,
                 contains="unable to disable service mode - please remove RX queue")
    c.port_call("set_rx_feature", 0, {"type": "queue", "enabled": False})
    for p in (0, 1):
        c.port_call("service", p, {"enabled": False})
    c.error("get_rx_queue_pkts", {"port_id": 0}, code=E_EXEC,
            contains="only available under service mode")
    c.port_error("set_rx_feature", 0, {"type": "queue", "enabled": True, "size": 10},
                 code=E_EXEC, contains="only available under service mode")

    print("# NFVbench-style: a stream to the resolved MAC, traffic, stats")
    dst = layer(c, 0)["ether"]["dst"]
    pkt = mac_bytes(dst) + mac_bytes(MAC0) + udp_frame(40, src="10.0.0.1", dst="10.0.0.2")[12:]
    c.port_call("add_stream", 0, {"stream_id": 1, "stream": stream(pkt, mode={
        "type": "single_burst", "total_pkts": 2000, "rate": {"type": "pps", "value": 10000}})})
    c.call("get_port_stats", {"port_id": 1})
    before = c.call("get_port_stats", {"port_id": 1})["ipackets"]
    c.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1},
                                     "duration": -1, "force": False})
    c.port_error("set_l3", 0, {"src_addr": "10.0.0.1", "dst_addr": "10.0.0.2"}, code=E_EXEC,
                 contains="command 'set_l3_mode' cannot be executed on current state: 'TX'")
    end = time.time() + 5
    while time.time() < end and status(c, 0)["state"] != "STREAMS":
        time.sleep(0.05)
    time.sleep(0.2)
    s0, s1 = c.call("get_port_stats", {"port_id": 0}), c.call("get_port_stats", {"port_id": 1})
    print("# port 0 opackets %d, port 1 ipackets %d" % (s0["opackets"], s1["ipackets"] - before))
    check(s1["ipackets"] - before == 2000, "port 1 received %d of 2000" % (s1["ipackets"] - before))

    print("# bad addresses are refused by name and change nothing")
    c.port_error("set_l3", 0, {"src_addr": "10.0.0.300", "dst_addr": "10.0.0.2"}, code=E_PARAMS,
                 contains="invalid source IPv4 address: '10.0.0.300'")
    c.port_error("set_l3", 0, {"src_addr": "10.0.0.1", "dst_addr": "x"}, code=E_PARAMS,
                 contains="invalid destination IPv4 address: 'x'")
    c.port_error("set_l3", 0, {"src_addr": "10.0.0.1", "dst_addr": "10.0.0.2",
                               "resolved_mac": "00:11"}, code=E_PARAMS,
                 contains="invalid MAC address: '00:11'")
    c.port_error("set_l2", 0, {"dst_mac": "zz:00:00:00:00:00"}, code=E_PARAMS,
                 contains="invalid MAC address")
    c.port_error("conf_ipv6", 0, {"enabled": True, "src_ipv6": "2001:db8::zz"}, code=E_PARAMS,
                 contains="invalid source IPv6 address")
    check(layer(c, 0)["ipv4"]["state"] == "resolved", "a refused set_l3 changed the port")
    c.port_call("set_l2", 0, {"dst_mac": MAC1})
    check(layer(c, 0)["ipv4"] == {"state": "none"} and
          layer(c, 0)["ether"]["state"] == "configured", "set_l2 %s" % layer(c, 0))
    print("PASS")


if __name__ == "__main__":
    main()
