#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Summarise fwd_bench.sh results: lines "SCENARIO TOOL RUN MPPS MPPS_PER_CPU CPU_SHARE".
Per scenario and tool: median, min, max, spread ((max-min)/median) and the
runs; then, run by run (bench_ab.py), the ratios the issue asks for:
fwd-macswap / testpmd-macswap, fwd-io / testpmd-io, fwd-macswap-seq /
testpmd-macswap; with -B, this build's pvpkit-fwd against the base's
(fwd-X / base-X, after / before) and the base's against testpmd; and the
impairment stage's cost (fwd-impair / fwd-io)."""
import math
import sys

from bench_ab import paired, ratio_line, runs_line

REFS = [("fwd-macswap", "testpmd-macswap"), ("fwd-io", "testpmd-io"),
        ("fwd-macswap-seq", "testpmd-macswap"), ("base-macswap", "testpmd-macswap"),
        ("base-io", "testpmd-io"), ("base-macswap-seq", "testpmd-macswap"),
        ("fwd-impair", "fwd-io")]

res = {}  # res[(scenario, what)][tool][run] = value, nan where the run failed
for line in open(sys.argv[1]):
    f = line.split()
    scen, tool, run = f[0], f[1], int(f[2])
    for col, what in ((3, "Mpps"), (4, "Mpps per CPU second")):
        v = float(f[col]) if len(f) > col else math.nan
        res.setdefault((scen, what), {}).setdefault(tool, {})[run] = v

for (scen, what), tools in res.items():
    print("\n%s: %s (64 B, one forwarding core)" % (scen, what))
    print("  %-16s %8s %8s %8s %7s  %s" % ("tool", "median", "min", "max", "spread", "runs"))
    for tool, runs in tools.items():
        print("  %-16s %s  %s" % ((tool, ) + runs_line([runs[r] for r in sorted(runs)])))
    pairs = [(t, "base-" + t[4:]) for t in tools if t.startswith("fwd-")] + REFS
    for a, b in pairs:
        if a in tools and b in tools:
            after = " (after / before)" if b.startswith("base-") else ""
            print(ratio_line("%s / %s%s" % (a, b, after), paired(tools[a], tools[b])))
