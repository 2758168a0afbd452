#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""CSIT's VXLAN packet at 64 B (trex-stl-ethip4vxlan-*: Ether/IPv4/UDP
4789/VXLAN/Ether/IPv4 proto 61, 84 B, nothing after the inner IPv4
header) in a latency stream, from port 0 to port 1 of two memif ports
wired to each other. TRex writes its latency payload over the packet's
last bytes, the inner IPv4 header's; pvpkit-gen's signature goes into its
last 14 (inner bytes 6..19: the magic "PVP!" over the fragment field, TTL
and protocol, the stream id over the checksum, the sequence number over
the source address, the TX time over the destination). Every packet is a
latency sample, none lost or unknown; a stream of the same packet without
flow_stats beside it goes out as the client built it and counts in no
pgid.

Usage: trex_vxlat.py send RPC_PORT PUB_PORT RESULT_JSON
       trex_vxlat.py check RESULT_JSON TSHARK_FIELDS_FILE
"""
import json
import socket
import struct
import sys
import time

from trex_wire import Client, fail, stream, wait_links, wait_streams

PKTS = 200
PGID = 5


def ip4(src, dst, proto, payload):
    """An IPv4 header with a valid checksum (as scapy builds it), then @payload."""
    hdr = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 0x1234, 0, 64, proto, 0,
                      socket.inet_aton(src), socket.inet_aton(dst))
    c = sum(struct.unpack(">10H", hdr))
    c = (c & 0xffff) + (c >> 16)
    c = ~((c & 0xffff) + (c >> 16)) & 0xffff
    return hdr[:10] + struct.pack(">H", c) + hdr[12:] + payload


def frame(sport):
    """The 84 B packet; the outer UDP checksum left to the server's field engine."""
    inner = bytes.fromhex("00bbbb000000" "00aaaa000000") + b"\x08\x00" + ip4(
        "10.0.0.2", "10.0.0.1", 61, b"")
    vxlan = struct.pack(">II", 0x08000000, 0) + inner
    udp = struct.pack(">HHHH", sport, 4789, 8 + len(vxlan), 0xffff) + vxlan
    return bytes.fromhex("020000000002020000000001") + b"\x08\x00" + ip4(
        "172.17.0.2", "172.16.0.1", 17, udp)


# CSIT's fix of the outer headers (STLVmFixChecksumHw over IP/UDP).
VM = [{"type": "fix_checksum_hw", "l2_len": 14, "l3_len": 20, "l4_type": 11}]


def send(rpc, out):
    c = Client(rpc, user="vxlat", session_id=95)
    c.sync()
    c.acquire(0)
    c.acquire(1)
    wait_links(c)
    mode = {"type": "single_burst", "total_pkts": PKTS, "rate": {"type": "pps", "value": 2000}}
    c.port_call("add_stream", 0, {"stream_id": 1, "stream": stream(
        frame(1024), vm=VM, mode=mode,
        fs={"enabled": True, "stream_id": PGID, "rule_type": "latency"})})
    c.port_call("add_stream", 0, {"stream_id": 2, "stream": stream(frame(1025), vm=VM, mode=mode)})
    c.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1},
                                     "duration": -1, "force": False})
    wait_streams(c, 0)
    for _ in range(100):
        pg = c.call("get_pgid_stats", {"pgids": [PGID]})
        if pg["flow_stats"][str(PGID)]["rp"]["1"] >= PKTS:
            break
        time.sleep(0.05)
    lat = pg["latency"][str(PGID)]
    res = {"tp": pg["flow_stats"][str(PGID)]["tp"]["0"],
           "rp": pg["flow_stats"][str(PGID)]["rp"]["1"],
           "hist": sum(lat["lat"]["histogram"].values()), "er": lat["er"],
           "hdrh": "hdrh" in lat["lat"], "ipackets": c.call(
               "get_port_stats", {"port_id": 1})["ipackets"]}
    c.port_call("remove_all_streams", 0)
    c.port_call("release", 0)
    c.port_call("release", 1)
    json.dump(res, open(out, "w"))
    print("# sent %d + %d packets: %s" % (PKTS, PKTS, res))


def check(out, fields):
    r = json.load(open(out))
    want = {"tp": PKTS, "rp": PKTS, "hist": PKTS, "er": {}, "hdrh": True, "ipackets": 2 * PKTS}
    for k, v in want.items():
        if r[k] != v:
            fail("pgid %d: %s is %r, expected %r (all: %s)" % (PGID, k, r[k], v, r))
    seen = {1024: 0, 1025: 0}
    for line in open(fields):
        flen, sport, udpck, ipid, srcs, ipck, frag = line.rstrip("\n").split("\t")
        n = seen[int(sport)]
        seen[int(sport)] += 1
        if int(sport) == 1024:
            # The sequence number over the inner source, the magic's "PV"
            # over the inner fragment field (flags 2, offset 0x1056, in 8 B units).
            exp = {"frame.len": (flen, "84"), "udp.checksum.status": (udpck, "1"),
                   "ip.id (outer, inner)": (ipid, "0xffff,0x1234"),
                   "ip.src (outer, inner)": (srcs, "172.17.0.2,%s" % socket.inet_ntoa(
                       struct.pack(">I", n))),
                   "ip.frag_offset (inner)": (frag.split(",")[1], str(0x1056))}
        else:
            exp = {"frame.len": (flen, "84"), "udp.checksum.status": (udpck, "1"),
                   "ip.id (outer, inner)": (ipid, "0x1234,0x1234"),
                   "ip.src (outer, inner)": (srcs, "172.17.0.2,10.0.0.2"),
                   "ip.checksum.status (outer, inner)": (ipck, "1,1")}
        for k, (got, e) in exp.items():
            if got != e:
                fail("%s packet %d: %s is %r, expected %r"
                     % ("latency" if int(sport) == 1024 else "plain", n, k, got, e))
    if seen != {1024: PKTS, 1025: PKTS}:
        fail("frames received per stream %s, expected %d each" % (seen, PKTS))
    print("# %d latency samples of %d, no loss or error; %d + %d frames as TRex lays them out"
          % (r["hist"], PKTS, PKTS, PKTS))


if sys.argv[1] == "send":
    send(int(sys.argv[2]), sys.argv[4])
else:
    check(sys.argv[2], sys.argv[3])
print("PASS")
