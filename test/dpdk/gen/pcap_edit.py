#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Rewrite a pcap the way a faulty hop would: drop, duplicate and reorder
known frames (by index). Plain pcap in and out, no scapy needed.

Usage: pcap_edit.py IN OUT --drop 100,101 --dup 200 --swap 300 --move 600:610
  --swap i      frames i and i+1 change places
  --move i:j    frame i is sent right after frame j (j > i)
Prints the expected counts as JSON: {"rx", "lost", "dup", "ooo"}.
"""
import argparse
import json
import struct


def ints(s):
    return [int(x) for x in s.split(",")] if s else []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--drop", default="")
    ap.add_argument("--dup", default="")
    ap.add_argument("--swap", default="")
    ap.add_argument("--move", default="")
    a = ap.parse_args()
    with open(a.inp, "rb") as f:
        ghdr = f.read(24)
        recs = []
        while True:
            h = f.read(16)
            if len(h) < 16:
                break
            incl = struct.unpack("<IIII", h)[2]
            recs.append((h, f.read(incl)))
    n = len(recs)
    order = list(range(n))
    for i in ints(a.swap):
        p = order.index(i)
        order[p], order[p + 1] = order[p + 1], order[p]
    moves = [tuple(int(y) for y in m.split(":")) for m in a.move.split(",") if m]
    for i, j in moves:
        order.remove(i)
        order.insert(order.index(j) + 1, i)
    drop = set(ints(a.drop))
    out = []
    for i in order:
        if i in drop:
            continue
        out.append(i)
        if i in ints(a.dup):
            out.append(i)
    with open(a.out, "wb") as f:
        f.write(ghdr)
        for i in out:
            f.write(recs[i][0] + recs[i][1])
    print(json.dumps({"rx": len(out), "lost": len(drop), "dup": len(ints(a.dup)),
                      "ooo": len(ints(a.swap)) + len(moves)}))


main()
