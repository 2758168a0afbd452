#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Summarise fwd_bench.sh results: lines "SCENARIO TOOL MPPS MPPS_PER_CPU CPU_SHARE".
Per scenario and tool: median, min, max, spread ((max-min)/median), and the
ratios the issue asks for: fwd-macswap / testpmd-macswap, fwd-io /
testpmd-io, fwd-macswap-seq / testpmd-macswap; with -m, this build's
pvpkit-fwd against main's (fwd-io / main-io, fwd-macswap / main-macswap)
and the impairment stage's cost (fwd-impair / fwd-io)."""
import math
import statistics
import sys

RATIOS = [("fwd-macswap", "testpmd-macswap"), ("fwd-io", "testpmd-io"),
          ("fwd-macswap-seq", "testpmd-macswap"), ("fwd-io", "main-io"),
          ("fwd-macswap", "main-macswap"), ("fwd-impair", "fwd-io")]

res = {}
for line in open(sys.argv[1]):
    f = line.split()
    scen, tool = f[0], f[1]
    for col, what in ((2, "Mpps"), (3, "Mpps per CPU second")):
        v = float(f[col]) if len(f) > col else float("nan")
        if not math.isnan(v):
            res.setdefault((scen, what), {}).setdefault(tool, []).append(v)

for (scen, what), tools in res.items():
    print("\n%s: %s (64 B, one forwarding core)" % (scen, what))
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
