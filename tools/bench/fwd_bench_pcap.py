#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Write the input of fwd_bench.sh's "sig" scenario: COUNT 64 B frames
(60 B + FCS) of UDP/IPv4 carrying the pvpkit payload signature, stream 1,
sequence 0..COUNT-1, so --seq-check does its full work on every packet.

  fwd_bench_pcap.py OUT.pcap [COUNT]
"""
import struct
import sys

from scapy.all import IP, UDP, Ether, Raw, wrpcap

out = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 2048
pkts = []
for seq in range(count):
    sig = struct.pack("!IHI", 0x50565021, 1, seq) + b"\0\0\0\0"
    p = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / \
        IP(src="198.18.0.1", dst="198.19.0.1") / UDP(sport=1024, dport=1024) / Raw(sig)
    p = p / Raw(b"\0" * (60 - len(p)))
    pkts.append(p)
wrpcap(out, pkts)
