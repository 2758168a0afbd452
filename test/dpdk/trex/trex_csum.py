#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Checksums of a field engine in closed form (a cycle longer than the
tables pvpkit-gen keeps: the IPv4 source over 16.0.0.0-18.0.0.254, as
trex-core's burst_split) as TRex leaves them, through pvpkit-gen --trex
into a net_pcap port, checked as tshark decodes them: with
fix_checksum_ipv4 the IPv4 checksum is valid and the TCP checksum stays
the packet's own (stale once the source moves); with fix_checksum_hw
both are valid.

Usage: trex_csum.py send RPC_PORT PUB_PORT
       trex_csum.py check TSHARK_FIELDS_FILE
"""
import socket
import struct
import sys

from trex_wire import fail, send_bursts, stream

PKTS = 20
TCP_CSUM = 0x1234  # the packet's own TCP checksum, wrong from the start
# Stream (its TCP source port): the fix instruction.
FIX = {1001: {"type": "fix_checksum_ipv4", "pkt_offset": 14},
       1002: {"type": "fix_checksum_hw", "l2_len": 14, "l3_len": 20, "l4_type": 13}}


def frame(sport):
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 40, 0, 0, 64, 6, 0,
                     socket.inet_aton("16.0.0.1"), socket.inet_aton("48.0.0.1"))
    tcp = struct.pack(">HHIIBBHHH", sport, 80, 0, 0, 0x50, 0x02, 8192, TCP_CSUM, 0)
    return bytes.fromhex("020000000002020000000001") + b"\x08\x00" + ip + tcp


def vm(fix):
    lo, hi = struct.unpack(">II", socket.inet_aton("16.0.0.0") + socket.inet_aton("18.0.0.254"))
    return [{"type": "flow_var", "name": "s", "size": 4, "op": "inc", "step": 1,
             "init_value": lo, "min_value": lo, "max_value": hi},
            {"type": "write_flow_var", "name": "s", "pkt_offset": 26, "add_value": 0,
             "is_big_endian": True}, fix]


def send(rpc, pub):
    burst = {"type": "single_burst", "total_pkts": PKTS, "rate": {"type": "pps", "value": 2000}}
    send_bursts(rpc, "csum", 96, [stream(frame(sport), vm=vm(fix), mode=burst)
                                  for sport, fix in sorted(FIX.items())])
    print("# sent %d x %d packets" % (len(FIX), PKTS))


def check(path):
    seen = {}
    for line in open(path):
        sport, src, ipck, tcpck, tcpck_status = line.rstrip("\n").split("\t")
        n = seen.get(int(sport), 0)
        seen[int(sport)] = n + 1
        if int(sport) == 1001:
            want = {"ip.src": (src, "16.0.0.%d" % n), "ip.checksum.status (1: good)": (ipck, "1"),
                    "tcp.checksum (the packet's own)": (int(tcpck, 16), TCP_CSUM)}
        else:
            want = {"ip.src": (src, "16.0.0.%d" % n), "ip.checksum.status (1: good)": (ipck, "1"),
                    "tcp.checksum.status (1: good)": (tcpck_status, "1")}
        for k, (got, exp) in want.items():
            if got != exp:
                fail("stream of TCP port %s packet %d: %s is %r, expected %r"
                     % (sport, n, k, got, exp))
    if sorted(seen.values()) != [PKTS] * len(FIX):
        fail("packets per stream %s, expected %d each" % (seen, PKTS))
    print("# %d frames: checksums as TRex's instructions leave them" % sum(seen.values()))


if sys.argv[1] == "send":
    send(int(sys.argv[2]), int(sys.argv[3]))
else:
    check(sys.argv[2])
print("PASS")
