#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Input and oracle of the impairment test (no scapy: plain pcap files).

  fwd_impair.py make IN.pcap N     N signed UDP/IPv4 frames, stream 3,
                                   seq 0..N-1
  fwd_impair.py runs OUT.pcap      the runs of lost sequence numbers in a
                                   pvpkit-fwd output: JSON {"lost", "runs",
                                   "mean_run"}
  fwd_impair.py monitor SOCK N S   wait up to S seconds for SOCK, then
                                   stats.get every 20 ms for up to S seconds;
                                   JSON {"held_seen": rx was N while tx was 0
                                   and N held, "tx_all_at": the wall clock
                                   (time.time()) when tx was first N}
"""
import json
import os
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fwd_ctl import Ctl  # noqa: E402

SIG_MAGIC = 0x50565021
STREAM = 3


def frame(seq):
    sig = struct.pack("!IHI", SIG_MAGIC, STREAM, seq) + b"\0\0\0\0" + bytes(18)
    udp = struct.pack("!HHHH", 1024, 4000, 8 + len(sig), 0) + sig
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                     bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])) + udp
    return bytes.fromhex("02000000000b02000000000a0800") + ip


def make(path, n):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for seq in range(n):
            d = frame(seq)
            f.write(struct.pack("<IIII", seq // 1000000, seq % 1000000, len(d), len(d)))
            f.write(d)


def seqs(path):
    out = []
    with open(path, "rb") as f:
        f.read(24)
        while True:
            h = f.read(16)
            if len(h) < 16:
                return out
            d = f.read(struct.unpack("<IIII", h)[2])
            out.append(struct.unpack("!I", d[14 + 20 + 8 + 6:14 + 20 + 8 + 10])[0])


def runs(path):
    seen = set(seqs(path))
    top = max(seen) if seen else -1
    lengths, cur = [], 0
    for s in range(top + 1):
        if s in seen:
            if cur:
                lengths.append(cur)
            cur = 0
        else:
            cur += 1
    lost = sum(lengths)
    print(json.dumps({"lost": lost, "runs": len(lengths),
                      "mean_run": lost / len(lengths) if lengths else 0.0}))


def monitor(sock, n, seconds):
    # Started before the forwarder: connect as soon as its socket answers, so
    # that a loaded machine does not start the polling after the hold ended.
    t0 = time.monotonic()
    while True:
        try:
            ctl = Ctl(sock)
            break
        except OSError:
            if time.monotonic() - t0 >= seconds:
                raise
            time.sleep(0.01)
    t0 = time.monotonic()
    res = {"held_seen": False, "tx_all_at": None}
    while time.monotonic() - t0 < seconds:
        st = ctl.call("stats.get")
        rx, tx = st["ports"][0]["rx_packets"], st["ports"][0]["tx_packets"]
        if rx == n and tx == 0 and st["impair"][0]["held"] == n:
            res["held_seen"] = True
        if tx == n:
            res["tx_all_at"] = time.time()
            break
        time.sleep(0.02)
    print(json.dumps(res))


def main():
    if sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == "runs":
        runs(sys.argv[2])
    elif sys.argv[1] == "monitor":
        monitor(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
