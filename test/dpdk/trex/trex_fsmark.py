#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""What TRex does to the headers of a flow_stats stream, through
pvpkit-gen --trex into a net_pcap port, checked as tshark decodes it:
the lowest bit of the IPv4 TOS (IPv6 traffic class) set, and the IPv4
identification (IPv6 flow label) 0xff00 + the pgid's counter index in a
stats stream (pgids 7 and 9 are the first and second: 0xff00, 0xff01),
0xffff in a latency one; the IPv4 checksum, fixed by the field engine
after the source address moves, valid over the marked header. A stream
without flow_stats whose identification is in TRex's reserved range
(0xff37) has its bit 12 cleared (0xef37), its valid checksum kept valid.

Usage: trex_fsmark.py send RPC_PORT PUB_PORT
       trex_fsmark.py check TSHARK_FIELDS_FILE
"""
import socket
import struct
import sys

from trex_wire import fail, send_bursts, stream, udp_frame

PKTS = 12
# Stream (its UDP source port): pgid, rule type, IP version (no pgid: no flow_stats).
STREAMS = {1001: (7, "stats", 4), 1002: (9, "stats", 6), 1003: (3, "latency", 4),
           1004: (None, None, 4)}


def ip4_csum(hdr):
    s = sum(struct.unpack(">10H", hdr))
    s = (s & 0xffff) + (s >> 16)
    return ~((s & 0xffff) + (s >> 16)) & 0xffff


def frame(sport, ver):
    if ver == 4:
        f = bytearray(udp_frame(18, sport=sport))
        f[15] = 0xA0  # a TOS of its own: the mark only adds its low bit
        if sport == 1004:
            f[18:20] = b"\xff\x37"  # in the range TRex keeps for its flow stats
            f[24:26] = struct.pack(">H", ip4_csum(bytes(f[14:34])))
        return bytes(f)
    udp = struct.pack(">HHHH", sport, 12, 8 + 18, 0) + b"x" * 18
    ip6 = struct.pack(">IHBB", 0x60000000, len(udp), 17, 64)
    ip6 += socket.inet_pton(socket.AF_INET6, "2001:db8::1")
    ip6 += socket.inet_pton(socket.AF_INET6, "2001:db8::2")
    return bytes.fromhex("020000000002020000000001") + b"\x86\xdd" + ip6 + udp


# The IPv4 source over four values, its checksum fixed by the engine.
VM4 = [
    {"type": "flow_var", "name": "c", "size": 4, "op": "inc", "step": 1,
     "init_value": 0x10000001, "min_value": 0x10000001, "max_value": 0x10000004},
    {"type": "write_flow_var", "name": "c", "pkt_offset": 26, "add_value": 0,
     "is_big_endian": True},
    {"type": "fix_checksum_ipv4", "pkt_offset": 14},
]


def send(rpc, pub):
    burst = {"type": "single_burst", "total_pkts": PKTS, "rate": {"type": "pps", "value": 2000}}
    send_bursts(rpc, "fsmark", 97, [
        stream(frame(sport, ver), vm=VM4 if ver == 4 and pgid else None, mode=burst,
               fs=pgid and {"enabled": True, "stream_id": pgid, "rule_type": rule})
        for sport, (pgid, rule, ver) in sorted(STREAMS.items())])
    print("# sent %d x %d packets" % (len(STREAMS), PKTS))


def check(path):
    seen = {}
    for line in open(path):
        sport, tos, ipid, ipck, tclass, flow = line.rstrip("\n").split("\t")
        pgid, rule, ver = STREAMS[int(sport)]
        n = seen[int(sport)] = seen.get(int(sport), 0) + 1
        mark = 0xFFFF if rule == "latency" else 0xFF00 + (pgid == 9)
        if pgid is None:
            want = {"ip.dsfield": (int(tos, 16), 0xA0), "ip.id": (int(ipid, 16), 0xEF37),
                    "ip.checksum.status (1: good)": (ipck, "1")}
        elif ver == 4:
            want = {"ip.dsfield": (int(tos, 16), 0xA1), "ip.id": (int(ipid, 16), mark),
                    "ip.checksum.status (1: good)": (ipck, "1")}
        else:
            want = {"ipv6.tclass": (int(tclass, 16), 0x01), "ipv6.flow": (int(flow, 16), mark)}
        for k, (got, exp) in want.items():
            if got != exp:
                fmt = "%#x" if isinstance(got, int) else "%r"
                fail(("stream of UDP port %s (pgid %s, %s) packet %d: %s is " + fmt +
                      ", expected " + fmt) % (sport, pgid, rule, n, k, got, exp))
    if sorted(seen.values()) != [PKTS] * len(STREAMS):
        fail("packets per stream %s, expected %d each" % (seen, PKTS))
    print("# %d frames: TOS/traffic class and id/flow label as TRex sets them"
          % sum(seen.values()))


if sys.argv[1] == "send":
    send(int(sys.argv[2]), int(sys.argv[3]))
else:
    check(sys.argv[2])
print("PASS")
