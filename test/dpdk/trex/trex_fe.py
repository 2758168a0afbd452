#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""TRex field engine features that have no closed form, through pvpkit-gen
--trex into a net_pcap port, checked in the frames as tshark decodes them:
a value_list with a step, a masked write of values wider than the mask, a
masked write with a right shift, a repeatable random (flow_var_rand_limit,
TRex's own generator and seed) whose limit of 3 divides no other cycle,
and fix_checksum_icmpv6 on an ICMPv6 echo whose sequence number moves.

Usage: trex_fe.py send RPC_PORT PUB_PORT
       trex_fe.py check TSHARK_FIELDS_FILE
"""
import socket
import struct
import sys

from trex_wire import fail, stream, udp_frame, wait_streams

A_PKTS, B_PKTS = 60, 12
LIST = [10, 20, 30, 40, 50]


def ip(s):
    return struct.unpack(">I", socket.inet_aton(s))[0]


def frame_a():
    f = bytearray(udp_frame(18))
    f[15] = 0xA0                  # TOS: its low nibble gets a right-shifted mask write
    f[18:20] = b"\xab\x0c"        # IP id: its low nibble gets values up to 511
    return bytes(f)


def frame_b():
    """Ethernet/IPv6/ICMPv6 echo request, its checksum left at 0."""
    eth = bytes.fromhex("020000000002020000000001") + b"\x86\xdd"
    icmp = struct.pack(">BBHHH", 128, 0, 0, 0x1234, 0) + b"pvpkit!!"
    ip6 = struct.pack(">IHBB", 0x60000000, len(icmp), 58, 64)
    ip6 += socket.inet_pton(socket.AF_INET6, "2001:db8::1")
    ip6 += socket.inet_pton(socket.AF_INET6, "2001:db8::2")
    return eth + ip6 + icmp


VM_A = [
    {"type": "flow_var", "name": "l", "size": 2, "op": "inc", "step": 2,
     "value_list": LIST, "split_to_cores": True},
    {"type": "write_flow_var", "name": "l", "pkt_offset": 34, "add_value": 0,
     "is_big_endian": True},
    {"type": "flow_var", "name": "w", "size": 2, "op": "inc", "step": 1, "init_value": 0,
     "min_value": 0, "max_value": 511},
    {"type": "write_mask_flow_var", "name": "w", "pkt_offset": 18, "pkt_cast_size": 2,
     "mask": 0x000F, "shift": 0, "add_value": 0, "is_big_endian": True},
    {"type": "flow_var", "name": "m", "size": 1, "op": "inc", "step": 16, "init_value": 0,
     "min_value": 0, "max_value": 255},
    {"type": "write_mask_flow_var", "name": "m", "pkt_offset": 15, "pkt_cast_size": 1,
     "mask": 0x0F, "shift": -4, "add_value": 0, "is_big_endian": True},
    {"type": "flow_var_rand_limit", "name": "r", "size": 2, "limit": 3, "seed": 0x1234,
     "min_value": 1000, "max_value": 2000},
    {"type": "write_flow_var", "name": "r", "pkt_offset": 36, "add_value": 0,
     "is_big_endian": True},
    {"type": "flow_var", "name": "c", "size": 4, "op": "inc", "step": 1,
     "init_value": ip("16.0.0.1"), "min_value": ip("16.0.0.1"), "max_value": ip("16.0.0.4")},
    {"type": "write_flow_var", "name": "c", "pkt_offset": 26, "add_value": 0,
     "is_big_endian": True},
    {"type": "fix_checksum_ipv4", "pkt_offset": 14},
    # The UDP checksum too (TRex leaves it as the packet has it otherwise).
    {"type": "fix_checksum_hw", "l2_len": 14, "l3_len": 20, "l4_type": 11},
]

VM_B = [
    # The write comes first: TRex runs in order, so packet n gets the value before
    # the var moves (105 first, the value before init_value), then 100, 101, ...
    {"type": "write_flow_var", "name": "q", "pkt_offset": 60, "add_value": 0,
     "is_big_endian": True},
    {"type": "flow_var", "name": "q", "size": 2, "op": "inc", "step": 1, "init_value": 100,
     "min_value": 100, "max_value": 105},
    {"type": "fix_checksum_icmpv6", "l2_len": 14, "l3_len": 40},
]


def send(rpc, pub):
    from trex_wire import Client
    c = Client(rpc, user="fe", session_id=98)
    c.sync()
    c.acquire(0)
    burst = {"type": "single_burst", "total_pkts": A_PKTS, "rate": {"type": "pps", "value": 2000}}
    c.port_call("add_stream", 0, {"stream_id": 1, "stream": stream(frame_a(), vm=VM_A, mode=burst)})
    burst = dict(burst, total_pkts=B_PKTS)
    c.port_call("add_stream", 0, {"stream_id": 2, "stream": stream(frame_b(), vm=VM_B, mode=burst)})
    c.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1},
                                     "duration": -1, "force": False})
    wait_streams(c, 0)
    c.port_call("release", 0)
    print("# sent %d + %d packets" % (A_PKTS, B_PKTS))


def trex_rand_limit(n, seed, limit, lo, hi):
    """TRex's flow_var_rand_limit: its LCG (fastrand), restarted every limit packets."""
    out, s = [], seed
    for k in range(n):
        if k % limit == 0:
            s = seed
        s = (214013 * s + 2531011) & 0xFFFFFFFF
        out.append(lo + ((s >> 16) & 0x7FFF) % (hi - lo + 1))
    return out


def check(path):
    a, b = [], []
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        (b if f[0] == "" else a).append(f)
    if (len(a), len(b)) != (A_PKTS, B_PKTS):
        fail("pcap has %d and %d packets, expected %d and %d" % (len(a), len(b), A_PKTS, B_PKTS))
    rnd = trex_rand_limit(A_PKTS, 0x1234, 3, 1000, 2000)
    for n, f in enumerate(a):
        src, tos, ipid, sport, dport, ipck, udpck = f[0], f[1], f[2], f[3], f[4], f[7], f[8]
        want = {
            "ip.src": (src, "16.0.0.%d" % (1 + n % 4)),
            "udp.srcport (value_list step 2)": (int(sport), LIST[(2 * n) % 5]),
            "ip.id (mask 0xf of 0..511)": (int(ipid, 16), 0xAB00 | (n % 512) & 0xF),
            "ip.dsfield (shift -4)": (int(tos, 16), 0xA0 | (16 * n % 256) >> 4),
            "udp.dstport (rand_limit 3)": (int(dport), rnd[n]),
            "checksums (1: good)": ((ipck, udpck), ("1", "1")),
            # No flow_stats: the payload as given, no pvpkit signature in it.
            "payload": (f[9], "78" * 18),
        }
        for k, (got, exp) in want.items():
            if got != exp:
                fail("stream A packet %d: %s is %r, expected %r" % (n, k, got, exp))
    for n, f in enumerate(b):
        if int(f[5]) != 100 + (n + 5) % 6 or f[6] != "1":
            fail("stream B packet %d: ICMPv6 seq %s checksum status %s, expected %d and 1"
                 % (n, f[5], f[6], 100 + (n + 5) % 6))
    print("# %d frames: every field as TRex's engine makes it, checksums valid" % (len(a) + len(b)))


if sys.argv[1] == "send":
    send(int(sys.argv[2]), int(sys.argv[3]))
else:
    check(sys.argv[2])
print("PASS")
