#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""split_to_cores over two TX lcores, as TRex's splitter gives a var to
two cores (core c starts c steps on and steps twice as far), each lcore
on a TX queue of its own written to a pcap of its own: a var of
split_to_cores on the IPv4 source's last byte (1..10), one of
split_to_cores false on the IP id (every lcore 0, 1, 2, ...), and a
value-list size with trim_pkt_size (split too), all checked in the
frames as tshark decodes them, each lcore's frames in their order. A
second stream (UDP port 13) holds a tuple of 3 IPv4 sources and 3 ports
with limit_flows 7, which TRex's splitter gives core c as: IP c on, 2 IPs
a step, the port moved by the IP's wraps only, 7 flows split 4 + 3.

Usage: trex_split.py send RPC_PORT
       trex_split.py check TSHARK_FIELDS_OF_LCORE_0 TSHARK_FIELDS_OF_LCORE_1
"""
import sys

from trex_wire import fail, send_streams, stream, udp_frame

PKTS = 40
SIZES = [100, 200, 300, 400, 500]
VM = [
    {"type": "flow_var", "name": "a", "size": 1, "op": "inc", "step": 1, "init_value": 1,
     "min_value": 1, "max_value": 10, "split_to_cores": True},
    {"type": "write_flow_var", "name": "a", "pkt_offset": 29, "add_value": 0,
     "is_big_endian": True},
    {"type": "flow_var", "name": "i", "size": 2, "op": "inc", "step": 1, "init_value": 0,
     "min_value": 0, "max_value": 2, "split_to_cores": False},
    {"type": "write_flow_var", "name": "i", "pkt_offset": 18, "add_value": 0,
     "is_big_endian": True},
    {"type": "flow_var", "name": "l", "size": 2, "op": "inc", "step": 1, "value_list": SIZES},
    {"type": "trim_pkt_size", "name": "l"},
    {"type": "write_flow_var", "name": "l", "pkt_offset": 16, "add_value": -14,
     "is_big_endian": True},
    {"type": "write_flow_var", "name": "l", "pkt_offset": 38, "add_value": -34,
     "is_big_endian": True},
    {"type": "fix_checksum_hw", "l2_len": 14, "l3_len": 20, "l4_type": 11},
]
TUPLE_VM = [
    {"type": "tuple_flow_var", "name": "t", "ip_min": 0x10000001, "ip_max": 0x10000003,
     "port_min": 1025, "port_max": 1027, "limit_flows": 7, "flags": 0},
    {"type": "write_flow_var", "name": "t.ip", "pkt_offset": 26, "add_value": 0,
     "is_big_endian": True},
    {"type": "write_flow_var", "name": "t.port", "pkt_offset": 34, "add_value": 0,
     "is_big_endian": True},
    {"type": "fix_checksum_hw", "l2_len": 14, "l3_len": 20, "l4_type": 11},
]
# Each core's cycle of (IPv4 source's last byte, UDP source port), derived
# from TRex's StreamVmInstructionFlowClient::update(core, 2) and the data
# path's StreamDPOpClientsLimit::run; trex-core's stl-sim -c 2 -n CORE
# writes the same. Core 0: IP 1, step 2, limit 7 / 2 + 7 % 2 = 4, the port
# + 1 at each wrap of the IP; core 1: IP 2, limit 3.
TUPLE_CYCLES = [[(1, 1025), (3, 1025), (2, 1026), (1, 1027)],
                [(2, 1025), (1, 1026), (3, 1026)]]


def send(rpc):
    mode = {"type": "single_burst", "total_pkts": PKTS, "rate": {"type": "pps", "value": 2000}}
    send_streams(rpc, "split", 96, {1: stream(udp_frame(500 - 42), mode=mode, vm=VM),
                                    2: stream(udp_frame(18, dport=13), mode=mode, vm=TUPLE_VM)})
    print("# sent %d + %d packets" % (PKTS, PKTS))


def check(paths):
    cores, tuples = [], []
    for path in paths:
        frames, tup = [], []
        for line in open(path):
            src, ipid, flen, ipck, udpck, sport, dport = line.rstrip("\n").split("\t")
            if dport == "13":
                tup.append((int(src.split(".")[3]), int(sport), ipck, udpck))
            else:
                frames.append((int(src.split(".")[3]), int(ipid, 16), int(flen), ipck, udpck))
        cores.append(frames)
        tuples.append(tup)
    if sum(len(f) for f in tuples) != PKTS or not all(tuples):
        fail("lcores sent %s tuple frames, expected %d in all from each"
             % ([len(f) for f in tuples], PKTS))
    for core, frames in enumerate(tuples):
        cyc = TUPLE_CYCLES[core]
        for n, got in enumerate(frames):
            want = cyc[n % len(cyc)] + ("1", "1")
            if got != want:
                fail("lcore %d tuple frame %d: (src byte, sport, checksums) %r, expected %r"
                     % (core, n, got, want))
    if sum(len(f) for f in cores) != PKTS or not all(cores):
        fail("lcores sent %s frames, expected %d in all from each" % ([len(f) for f in cores], PKTS))
    for core, frames in enumerate(cores):
        for n, got in enumerate(frames):
            # TRex's core c: packet n is the one-core packet c + 2n of a split var.
            want = (1 + (core + 2 * n) % 10, n % 3, SIZES[(core + 2 * n) % 5], "1", "1")
            if got != want:
                fail("lcore %d frame %d: (src byte, ip.id, length, checksums) %r, expected %r"
                     % (core, n, got, want))
    print("# %s frames, %s of the tuple: each lcore sends TRex's core's sequence" % (
        " + ".join(str(len(f)) for f in cores), " + ".join(str(len(f)) for f in tuples)))


if sys.argv[1] == "send":
    send(int(sys.argv[2]))
else:
    check(sys.argv[2:])
print("PASS")
