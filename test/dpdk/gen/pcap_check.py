#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Check a pcap written by pvpkit-gen: frame sizes, signature sequence per
stream, and (through tshark, checksum validation on) that every IP/UDP/TCP
checksum is good and how many distinct flows there are.

Usage: pcap_check.py FILE [--count N] [--lens 60:140,590:100] [--flows N]
       [--flow-fields ip.src,udp.srcport] [--streams N] [--vxlan]
Prints what it found; exits 1 on the first mismatch.
"""
import argparse
import collections
import struct
import subprocess
import sys

MAGIC = b"\x50\x56\x50\x21"


def frames(path):
    with open(path, "rb") as f:
        hdr = f.read(24)
        magic = struct.unpack("<I", hdr[:4])[0]
        endian = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                return
            _, _, incl, _ = struct.unpack(endian + "IIII", rec)
            yield f.read(incl)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def tshark_fields(path, fields, extra=()):
    cmd = ["tshark", "-r", path, "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
           "-o", "tcp.check_checksum:TRUE", "-T", "fields", "-E", "separator=|"]
    cmd += list(extra)
    for f in fields:
        cmd += ["-e", f]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [line.split("|") for line in out.splitlines()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pcap")
    ap.add_argument("--count", type=int)
    ap.add_argument("--lens")
    ap.add_argument("--flows", type=int)
    ap.add_argument("--flow-fields", default="ip.src,udp.srcport")
    ap.add_argument("--streams", type=int)
    ap.add_argument("--vxlan", action="store_true")
    a = ap.parse_args()

    # Sizes and signatures, straight from the file.
    lens = collections.Counter()
    seqs = collections.defaultdict(list)
    n = 0
    for fr in frames(a.pcap):
        n += 1
        lens[len(fr)] += 1
        i = fr.rfind(MAGIC)
        if i < 0:
            fail("frame %d has no signature" % n)
        stream, seq = struct.unpack(">HI", fr[i + 4:i + 10])
        seqs[stream].append(seq)
    print("frames %d, lengths %s, streams %s" % (n, dict(sorted(lens.items())),
                                                 {s: len(v) for s, v in sorted(seqs.items())}))
    if a.count is not None and n != a.count:
        fail("%d frames, expected %d" % (n, a.count))
    if a.lens:
        want = {int(k): int(v) for k, v in (x.split(":") for x in a.lens.split(","))}
        if dict(lens) != want:
            fail("lengths %s, expected %s" % (dict(lens), want))
    if a.streams is not None and len(seqs) != a.streams:
        fail("%d streams, expected %d" % (len(seqs), a.streams))
    for s, v in seqs.items():
        if v != list(range(len(v))):
            fail("stream %d: sequence numbers are not 0..%d in order" % (s, len(v) - 1))

    # Checksums: every one tshark can verify must be good (status 1);
    # 3 = not present is only allowed for the outer UDP of VXLAN over IPv4.
    rows = tshark_fields(a.pcap, ["frame.number", "ip.checksum.status", "udp.checksum.status",
                                  "tcp.checksum.status", "_ws.malformed", "frame.protocols"])
    if len(rows) != n:
        fail("tshark read %d frames, expected %d" % (len(rows), n))
    checked = 0
    for r in rows:
        # Our payload may look like some port's application protocol to
        # tshark (e.g. UFTP on 1044); only our own layers must be sound.
        ours = {"eth", "ethertype", "vlan", "ip", "ipv6", "udp", "tcp", "vxlan", "data"}
        if r[4] and set(r[5].split(":")) <= ours:
            fail("frame %s is malformed for tshark" % r[0])
        for col, name in ((1, "ip"), (2, "udp"), (3, "tcp")):
            for st in filter(None, r[col].split(",")):
                if st == "1":
                    checked += 1
                elif not (name == "udp" and st == "3" and a.vxlan):
                    fail("frame %s: %s checksum status %s (1 = good)" % (r[0], name, st))
    print("checksums good: %d" % checked)
    if checked < n:
        fail("fewer verified checksums (%d) than frames" % checked)

    if a.flows is not None:
        fl = a.flow_fields.split(",")
        rows = tshark_fields(a.pcap, fl)
        distinct = len(set(tuple(r) for r in rows))
        print("distinct flows (%s): %d" % (a.flow_fields, distinct))
        if distinct != a.flows:
            fail("%d distinct flows, expected %d" % (distinct, a.flows))
    print("OK")


main()
