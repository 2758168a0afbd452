#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""The TRex field engine through pvpkit-gen --trex, checked in the frames
themselves: streams with flow_var inc (padded range, step), a next_var
chain, write_mask_flow_var, an 8-byte var, random, a tuple and
fix_checksum_hw are sent to a net_pcap port; the pcap it writes must hold
exactly TRex's sequence of values, with valid checksums.

Usage: trex_vm.py send RPC_PORT PUB_PORT
       trex_vm.py check PCAP
"""
import socket
import struct
import sys

from trex_wire import fail, stream, udp_frame, wait_streams

A_PKTS, B_PKTS = 120, 12


def ip(s):
    return struct.unpack(">I", socket.inet_aton(s))[0]


def frame_a():
    f = bytearray(udp_frame(38))  # 80 B: room for the signature and an 8-byte var after it
    # IP id: flow_stats makes it TRex's 0xff00 (pgid 1, the first), then
    # its high nibble of the low byte gets a mask write.
    f[18:20] = b"\xab\x0c"
    return bytes(f)


def frame_b():
    f = bytearray(udp_frame(22, udp_csum=False))
    f[22] = 33                    # TTL tells the two streams apart
    return bytes(f)


VM_A = [
    # 10.0.0.1..10.0.0.5 step 2: TRex pads the range to 10.0.0.6, values 1,3,5,1,...
    {"type": "flow_var", "name": "ip", "size": 4, "op": "inc", "step": 2,
     "init_value": ip("10.0.0.1"), "min_value": ip("10.0.0.1"), "max_value": ip("10.0.0.5")},
    {"type": "write_flow_var", "name": "ip", "pkt_offset": 26, "add_value": 0, "is_big_endian": True},
    # a: 0,1,2 every packet; b moves when a wraps (next_var): 100,100,100,101,...
    {"type": "flow_var", "name": "a", "size": 1, "op": "inc", "step": 1, "init_value": 0,
     "min_value": 0, "max_value": 2, "next_var": "b"},
    {"type": "flow_var", "name": "b", "size": 2, "op": "inc", "step": 1, "init_value": 100,
     "min_value": 100, "max_value": 101},
    {"type": "write_flow_var", "name": "b", "pkt_offset": 34, "add_value": 0, "is_big_endian": True},
    # (a + 1) << 4 into bits 4..7 of the IP id, the other bits kept
    {"type": "write_mask_flow_var", "name": "a", "pkt_offset": 18, "pkt_cast_size": 2,
     "mask": 0x00F0, "shift": 4, "add_value": 1, "is_big_endian": True},
    # an 8-byte var with a constant high half, after the signature
    {"type": "flow_var", "name": "big", "size": 8, "op": "dec", "step": 1,
     "init_value": 0x100000003, "min_value": 0x100000000, "max_value": 0x100000003},
    {"type": "write_flow_var", "name": "big", "pkt_offset": 56, "add_value": 16, "is_big_endian": True},
    {"type": "flow_var", "name": "r", "size": 2, "op": "random", "step": 1, "init_value": 5000,
     "min_value": 5000, "max_value": 5009},
    {"type": "write_flow_var", "name": "r", "pkt_offset": 36, "add_value": 0, "is_big_endian": True},
    {"type": "fix_checksum_ipv4", "pkt_offset": 14},
]

VM_B = [
    {"type": "tuple_flow_var", "name": "t", "ip_min": ip("1.1.1.1"), "ip_max": ip("1.1.1.3"),
     "port_min": 1025, "port_max": 1026, "limit_flows": 0, "flags": 0},
    {"type": "write_flow_var", "name": "t.ip", "pkt_offset": 30, "add_value": 0, "is_big_endian": True},
    {"type": "write_flow_var", "name": "t.port", "pkt_offset": 34, "add_value": 0, "is_big_endian": True},
    # the packet has no UDP checksum (0): a hardware-style fix gives it one
    {"type": "fix_checksum_hw", "l2_len": 14, "l3_len": 20, "l4_type": 11},
]


def send(rpc, pub):
    from trex_wire import Client
    c = Client(rpc, user="vm", session_id=99)
    c.sync()
    c.acquire(0)
    c.port_call("add_stream", 0, {"stream_id": 1, "stream": stream(frame_a(), vm=VM_A, mode={
        "type": "single_burst", "total_pkts": A_PKTS, "rate": {"type": "pps", "value": 2000}},
        fs={"enabled": True, "stream_id": 1, "rule_type": "stats"})})
    c.port_call("add_stream", 0, {"stream_id": 2, "stream": stream(frame_b(), vm=VM_B, mode={
        "type": "single_burst", "total_pkts": B_PKTS, "rate": {"type": "pps", "value": 2000}})})
    before = c.call("get_port_stats", {"port_id": 0})["opackets"]
    c.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1}, "duration": -1,
                                     "force": False})
    wait_streams(c, 0)
    sent = c.call("get_port_stats", {"port_id": 0})["opackets"] - before
    if sent != A_PKTS + B_PKTS:
        fail("sent %d, expected %d" % (sent, A_PKTS + B_PKTS))
    tp = c.call("get_pgid_stats", {"pgids": [1]})["flow_stats"]["1"]["tp"]["0"]
    if tp != A_PKTS:
        fail("pgid 1 sent %d, expected %d" % (tp, A_PKTS))
    c.port_call("release", 0)
    print("# sent %d + %d packets" % (A_PKTS, B_PKTS))


def check(path):
    from scapy.all import IP, UDP, rdpcap
    a, b = [], []
    for p in rdpcap(path):
        (a if p[IP].ttl == 64 else b).append(p)
    if (len(a), len(b)) != (A_PKTS, B_PKTS):
        fail("pcap has %d and %d packets, expected %d and %d" % (len(a), len(b), A_PKTS, B_PKTS))
    for n, p in enumerate(a):
        raw = bytes(p)
        want_ip = ip("10.0.0.1") + (2 * n) % 6
        av, bv = n % 3, 100 + (n // 3) % 2
        want = {
            "ip.src": (struct.unpack(">I", raw[26:30])[0], want_ip),
            "udp.sport": (p[UDP].sport, bv),
            "ip.id": (p[IP].id, 0xFF00 | ((av + 1) << 4)),
            "big": (struct.unpack(">Q", raw[56:64])[0], 0x100000003 + 16 - n % 4),
            "dport in range": (5000 <= p[UDP].dport <= 5009, True),
            "signature": (raw[42:46], b"PVP!"),
        }
        for k, (got, exp) in want.items():
            if got != exp:
                fail("stream A packet %d: %s is %r, expected %r" % (n, k, got, exp))
    dports = [p[UDP].dport for p in a[:10]]
    if sorted(dports) != list(range(5000, 5010)):
        fail("random dport: the first 10 packets give %s" % dports)
    for n, p in enumerate(b):
        want_dst = "1.1.1.%d" % (1 + n % 3)
        want_sport = 1025 + (n // 3) % 2
        if p[IP].dst != want_dst or p[UDP].sport != want_sport:
            fail("stream B packet %d: %s:%d, expected %s:%d"
                 % (n, p[IP].dst, p[UDP].sport, want_dst, want_sport))
    for n, p in enumerate(a + b):
        ic, uc = p[IP].chksum, p[UDP].chksum
        q = p.copy()
        del q[IP].chksum
        del q[UDP].chksum
        q = q.__class__(bytes(q))
        if ic != q[IP].chksum or uc != q[UDP].chksum:
            fail("packet %d: checksums %#x/%#x, computed %#x/%#x" % (n, ic, uc, q[IP].chksum, q[UDP].chksum))
    print("# %d frames: every field as TRex's engine makes it, checksums valid" % (len(a) + len(b)))


if sys.argv[1] == "send":
    send(int(sys.argv[2]), int(sys.argv[3]))
else:
    check(sys.argv[2])
print("PASS")
