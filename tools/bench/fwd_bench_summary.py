#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Summarise fwd_bench.sh results: lines "SCENARIO TOOL MPPS".
Per scenario and tool: median, min, max, spread ((max-min)/median), and the
ratios the issue asks for: fwd-macswap / testpmd-macswap, fwd-io /
testpmd-io, fwd-macswap-seq / testpmd-macswap."""
import math
import statistics
import sys

RATIOS = [("fwd-macswap", "testpmd-macswap"), ("fwd-io", "testpmd-io"),
          ("fwd-macswap-seq", "testpmd-macswap")]

res = {}
for line in open(sys.argv[1]):
    scen, tool, v = line.split()
    v = float(v)
    if not math.isnan(v):
        res.setdefault(scen, {}).setdefault(tool, []).append(v)

for scen, tools in res.items():
    print("\n%s: Mpps (64 B, one forwarding core)" % scen)
    print("  %-16s %8s %8s %8s %7s  %s" % ("tool", "median", "min", "max", "spread", "runs"))
    med = {}
    for tool, vs in tools.items():
        med[tool] = statistics.median(vs)
        spread = (max(vs) - min(vs)) / med[tool] if med[tool] else 0
        print("  %-16s %8.3f %8.3f %8.3f %6.1f%%  %s" % (tool, med[tool], min(vs), max(vs),
                                                         100 * spread, " ".join("%.3f" % v for v in vs)))
    for a, b in RATIOS:
        if a in med and b in med and med[b]:
            print("  ratio %s / %s = %.3f" % (a, b, med[a] / med[b]))
