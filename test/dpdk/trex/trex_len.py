#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Variable-length TRex streams (trim_pkt_size) and 9230 B frames, through
pvpkit-gen --trex into a net_pcap port, checked in the frames as tshark
decodes them: each frame's length, IP total length and UDP length as the
size variable makes them (a range whose step TRex pads and then cuts to
the packet, a value list, a random size from TRex's own generator and
seed), and every IPv4 and UDP checksum valid.

Usage: trex_len.py send RPC_PORT
       trex_len.py check TSHARK_FIELDS_FILE
"""
import sys

from trex_wire import fail, send_streams, stream, udp_frame

# The largest packet TRex's own profiles send: 9 KiB of IP and Ethernet.
BIG = 9 * 1024 + 14
# Stream, source address, packets, size variable.
RANGE = ("16.0.0.1", 30, {"op": "inc", "step": 2000, "init_value": 60, "min_value": 60,
                          "max_value": BIG})
LIST = ("16.0.0.2", 12, {"op": "inc", "step": 1, "value_list": [256, 512, 64, 128, BIG]})
RAND = ("16.0.0.3", 20, {"op": "random", "step": 1, "init_value": 60, "min_value": 60,
                         "max_value": 1500})
SEED = 7
STREAMS = (RANGE, LIST, RAND)


def vm(size_var):
    """udp_inc_len_9k's program, and the UDP checksum fixed too."""
    return [
        dict({"type": "flow_var", "name": "l", "size": 2}, **size_var),
        {"type": "trim_pkt_size", "name": "l"},
        {"type": "write_flow_var", "name": "l", "pkt_offset": 16, "add_value": -14,
         "is_big_endian": True},
        {"type": "fix_checksum_ipv4", "pkt_offset": 14},
        {"type": "write_flow_var", "name": "l", "pkt_offset": 38, "add_value": -34,
         "is_big_endian": True},
        {"type": "fix_checksum_hw", "l2_len": 14, "l3_len": 20, "l4_type": 11},
    ]


def send(rpc):
    streams = {}
    for sid, (src, n, var) in enumerate(STREAMS, 1):
        mode = {"type": "single_burst", "total_pkts": n, "rate": {"type": "pps", "value": 2000}}
        st = stream(udp_frame(BIG - 42, src=src), mode=mode, vm=vm(var))
        st["random_seed"] = SEED if var["op"] == "random" else 0
        streams[sid] = st
    send_streams(rpc, "len", 97, streams)
    print("# sent %s packets" % " + ".join(str(s[1]) for s in STREAMS))


def sizes_range(n, lo, hi, step):
    """TRex's inc with a step that does not divide the range: the range
    is padded (max 10059), then cut to the packet by trim_pkt_size."""
    out, v = [], lo
    for _ in range(n):
        out.append(v)
        left = hi - v
        v = v + step if step <= left else lo + (step - left - 1)
    return out


def sizes_rand(n, seed, lo, hi):
    """TRex's fastrand, seeded as its first core seeds a stream's random vars."""
    out, s = [], (seed * 514229) & 0xFFFFFFFF
    for _ in range(n):
        s = (214013 * s + 2531011) & 0xFFFFFFFF
        out.append(lo + ((s >> 16) & 0x7FFF) % (hi - lo + 1))
    return out


def check(path):
    got = {s[0]: [] for s in STREAMS}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if f[0] not in got:
            fail("a frame from %r" % f[0])
        got[f[0]].append(f[1:])
    want = {
        RANGE[0]: sizes_range(RANGE[1], 60, BIG, 2000),
        LIST[0]: [LIST[2]["value_list"][k % 5] for k in range(LIST[1])],
        RAND[0]: sizes_rand(RAND[1], SEED, 60, 1500),
    }
    for src, frames in got.items():
        if len(frames) != len(want[src]):
            fail("%s: %d frames, expected %d" % (src, len(frames), len(want[src])))
        for n, (flen, iplen, udplen, ipck, udpck) in enumerate(frames):
            size = want[src][n]
            exp = (str(size), str(size - 14), str(size - 34), "1", "1")
            if (flen, iplen, udplen, ipck, udpck) != exp:
                fail("%s packet %d: frame/ip/udp length, checksums %r, expected %r"
                     % (src, n, (flen, iplen, udplen, ipck, udpck), exp))
    print("# %d frames of 60..%d B: lengths as TRex's engine cuts them, checksums valid"
          % (sum(len(v) for v in got.values()), BIG))


if sys.argv[1] == "send":
    send(int(sys.argv[2]))
else:
    check(sys.argv[2])
print("PASS")
