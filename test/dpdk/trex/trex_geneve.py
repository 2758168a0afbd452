#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""CSIT's Geneve streams (GPL/traffic_profiles/trex/trex-stl-ethip4-geneve-*):
one var over 65,536 values written into eight fields (inner IPv4 source and
destination, the outer UDP source port, the VNI, the inner MAC's low half
by a right-shifted mask) with both IPv4 checksums and the outer UDP's
fixed. Three of those fields vary in three bytes, so the packet changes in
more words than pvpkit-gen's eight vars unless a var of four bytes covers
each. Stream 1 as it is; stream 2 the same with flow_stats, whose
signature cannot go after the outer UDP header (the VNI is written there)
and goes at the packet's end, as TRex puts its latency payload.

Usage: trex_geneve.py send RPC_PORT PUB_PORT
       trex_geneve.py check TSHARK_FIELDS_FILE
"""
import socket
import struct
import sys

from trex_wire import fail, stream, wait_streams

PKTS = 40
VNI, MAC_LOW, SPORT = 100, 0x000001, 1024
IN_SRC, IN_DST = "10.16.0.0", "10.17.0.0"
SIG_MAGIC = "50565021"


def ip(s):
    return struct.unpack(">I", socket.inet_aton(s))[0]


def frame():
    """Ether/IPv4/UDP 6081/Geneve/Ether/IPv4 (proto 61)/payload, 110 B."""
    inner_ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + 26, 0, 0, 64, 61, 0,
                           socket.inet_aton(IN_SRC), socket.inet_aton(IN_DST)) + b"y" * 26
    inner = bytes.fromhex("020000000000" "020000000099") + b"\x08\x00" + inner_ip
    geneve = struct.pack(">BBHI", 0, 0, 0x6558, VNI << 8) + inner
    udp = struct.pack(">HHHH", SPORT, 6081, 8 + len(geneve), 0xffff) + geneve
    ip4 = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                      socket.inet_aton("10.0.0.1"), socket.inet_aton("10.0.0.2")) + udp
    return bytes.fromhex("020000000002020000000001") + b"\x08\x00" + ip4


def mask(name, off, cast, m, add, shift=0):
    return {"type": "write_mask_flow_var", "name": name, "pkt_offset": off, "pkt_cast_size": cast,
            "mask": m, "shift": shift, "add_value": add, "is_big_endian": True}


VM = [
    {"type": "flow_var", "name": "ip", "size": 4, "op": "inc", "step": 1, "init_value": 0,
     "min_value": 0, "max_value": 65535},
    mask("ip", 76, 4, 0xffffffff, ip(IN_SRC)),           # inner IP.src
    mask("ip", 80, 4, 0xffffffff, ip(IN_DST)),           # inner IP.dst
    mask("ip", 34, 2, 0xffff, SPORT),                    # UDP.sport
    mask("ip", 46, 4, 0xffffff00, VNI << 8),             # GENEVE.vni
    mask("ip", 52, 4, 0xffffff, MAC_LOW << 8, shift=-8),  # inner Ether.dst, offset_fixup 2
    {"type": "fix_checksum_ipv4", "pkt_offset": 64},
    {"type": "fix_checksum_ipv4", "pkt_offset": 14},
    {"type": "fix_checksum_hw", "l2_len": 14, "l3_len": 20, "l4_type": 11},
]


def send(rpc, pub):
    from trex_wire import Client
    c = Client(rpc, user="geneve", session_id=97)
    c.sync()
    c.acquire(0)
    burst = {"type": "single_burst", "total_pkts": PKTS, "rate": {"type": "pps", "value": 2000}}
    c.port_call("add_stream", 0, {"stream_id": 1, "stream": stream(frame(), vm=VM, mode=burst)})
    c.port_call("add_stream", 0, {"stream_id": 2, "stream": stream(
        frame(), vm=VM, mode=burst, fs={"enabled": True, "stream_id": 7, "rule_type": "stats"})})
    c.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1},
                                     "duration": -1, "force": False})
    wait_streams(c, 0)
    c.port_call("release", 0)
    print("# sent %d + %d packets" % (PKTS, PKTS))


def check(path):
    rows = [line.rstrip("\n").split("\t") for line in open(path)]
    if len(rows) != 2 * PKTS:
        fail("pcap has %d packets, expected %d" % (len(rows), 2 * PKTS))
    seen = {False: 0, True: 0}
    for f in rows:
        srcs, sport, vni, macs, ipck, udpck, data = f[0], f[1], f[2], f[3], f[4], f[5], f[6]
        signed = data[-28:-20] == SIG_MAGIC
        n = seen[signed]
        seen[signed] += 1
        want = {
            "ip.src (outer, inner)": (srcs, "10.0.0.1,%s" % socket.inet_ntoa(
                struct.pack(">I", ip(IN_SRC) + n))),
            "udp.srcport": (int(sport), SPORT + n),
            "geneve.vni": (int(vni, 0), VNI + (n >> 8)),
            "eth.dst (inner)": (macs.split(",")[1], "02:00:00:%02x:%02x:%02x" % (
                ((MAC_LOW << 8) + n) >> 8 >> 16 & 0xff, ((MAC_LOW << 8) + n) >> 8 >> 8 & 0xff,
                ((MAC_LOW << 8) + n) >> 8 & 0xff)),
            "ip.checksum.status (outer, inner)": (ipck, "1,1"),
            "udp.checksum.status": (udpck, "1"),
        }
        for k, (got, exp) in want.items():
            if got != exp:
                fail("%s packet %d: %s is %r, expected %r"
                     % ("flow_stats" if signed else "plain", n, k, got, exp))
        if not signed and data != "79" * 26:
            fail("plain packet %d: payload %s, expected the client's" % (n, data))
    if seen != {False: PKTS, True: PKTS}:
        fail("%d packets with the signature at the end, expected %d" % (seen[True], PKTS))
    print("# %d frames: every field as TRex's engine makes it, checksums valid, "
          "flow_stats signature in the last 14 bytes" % len(rows))


if sys.argv[1] == "send":
    send(int(sys.argv[2]), int(sys.argv[3]))
else:
    check(sys.argv[2])
print("PASS")
