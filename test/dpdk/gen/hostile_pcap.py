#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Write a pcap of hostile frames for a receiver's counters to account:
signed frames of stream 0 (sequence 0..N-1), signed frames with stream ids
no profile sends (small, over the per-stream table, 0xffff, behind a VLAN
tag), and frames that only look signed (bad magic, cut short, an IP total
length with no room for the signature, ARP's ethertype on garbage).
Plain pcap, no scapy needed.

Usage: hostile_pcap.py OUT
Prints what a receiver must count, as JSON:
  {"frames": total, "signed": {"<stream id>": frames, ...}, "unsigned": n,
   "neigh": n}
ARP's ethertype makes a frame the neighbour counter's (neigh_rx), whatever
it holds: the generator counts it apart from unsigned traffic.
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from frames import csum, write_pcap  # noqa: E402

MAGIC = 0x50565021


def frame(stream, seq, magic=MAGIC, vlan=None, ip_total=None, cut=None, ethertype=0x0800):
    """Ethernet/IPv4/UDP with the 14-byte signature, padded to 60 bytes."""
    sig = struct.pack("!IHII", magic, stream, seq, 0)
    udp = struct.pack("!HHHH", 1025, 12, 8 + len(sig), 0) + sig
    tot = 20 + len(udp) if ip_total is None else ip_total
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, tot, 0, 0, 64, 17, 0,
                     bytes([16, 0, 0, 1]), bytes([48, 0, 0, 1]))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    eth = bytes([2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1])
    if vlan is not None:
        eth += struct.pack("!HH", 0x8100, vlan)
    f = eth + struct.pack("!H", ethertype) + ip + udp
    f += bytes(max(0, 60 - len(f)))
    return f[:cut] if cut is not None else f


def main():
    signed, unsigned, neigh, frames = {}, 0, 0, []

    def add(f, stream=None):
        nonlocal unsigned, neigh
        frames.append(f)
        if f[12:14] == b"\x08\x06":
            neigh += 1
        elif stream is None:
            unsigned += 1
        else:
            signed[str(stream)] = signed.get(str(stream), 0) + 1

    for seq in range(100):
        add(frame(0, seq), 0)
    for seq in range(50):
        add(frame(7, seq), 7)            # an id below the table size, not sent
    for seq in range(30):
        add(frame(600, seq), 600)        # beyond the generator's table
    for seq in range(20):
        add(frame(0xFFFF, seq), 0xFFFF)
    for seq in range(10):
        add(frame(9, seq, vlan=5), 9)    # the parser's slow path
    for seq in range(40):
        add(frame(0, 1000 + seq, magic=MAGIC ^ 1))
    for seq in range(25):
        add(frame(0, 2000 + seq, cut=50))  # truncated inside the signature
    for seq in range(15):
        add(frame(0, 3000 + seq, ip_total=20 + 8 + 10))  # no room for it
    for seq in range(15):
        add(frame(0, 4000 + seq, ethertype=0x0806))  # not IP: ARP's type

    write_pcap(sys.argv[1], frames)
    print(json.dumps({"frames": len(frames), "signed": signed, "unsigned": unsigned,
                      "neigh": neigh}))


main()
