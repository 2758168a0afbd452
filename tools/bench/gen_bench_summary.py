#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Summarise gen_bench.sh results: lines "CASE TOOL RUN PPS PPS_PER_CPU"
(nan where a run failed); TOOL is gen (this build), base (-B's build) or
testpmd. Per case, per wall-clock second and per CPU second the sending
thread got: each tool's median, min, max, spread and runs, cycles per
packet (TSC Hz / median), then the ratios run by run: gen / base (after /
before), gen / testpmd and base / testpmd.

usage: gen_bench_summary.py RESULTS TSC_HZ"""

import math
import statistics
import sys

from bench_ab import paired, ratio_line, read, runs_line

NAMES = {"a": "64B 1 flow (txonly)", "b": "64B 1M flows (flowgen)",
         "c": "1518B 1 flow (txonly)", "d": "IMIX (gen only)"}
TOOLS = ("gen", "base", "testpmd")
RATIOS = (("gen", "base", "gen / base (after / before)"), ("gen", "testpmd", "gen / testpmd"),
          ("base", "testpmd", "base / testpmd"))


def main():
    hz = float(sys.argv[2])
    # res[(case, what)][tool][run] = Mpps, nan where the run failed
    res = {}
    for line in open(sys.argv[1]):
        f = line.split()
        c, tool, run = f[:3]
        for col, what in ((3, "Mpps"), (4, "Mpps per CPU second")):
            v = float(f[col]) if len(f) > col else math.nan
            res.setdefault((c, what), {}).setdefault(tool, {})[int(run)] = v / 1e6
    for (c, what), tools in sorted(res.items()):
        print("\n%s: %s" % (NAMES.get(c, c), what))
        print("  %-8s %8s %8s %8s %7s %8s  %s" % ("tool", "median", "min", "max", "spread",
                                                  "cyc/pkt", "runs"))
        for tool in TOOLS:
            if tool not in tools:
                continue
            vals = [tools[tool][r] for r in sorted(tools[tool])]
            ok = read(vals)
            cyc = "%8.1f" % (hz / (statistics.median(ok) * 1e6)) if ok else "%8s" % "-"
            stats, runs = runs_line(vals, "%.2f")
            print("  %-8s %s %s  %s" % (tool, stats, cyc, runs))
        for a, b, name in RATIOS:
            if a in tools and b in tools:
                print(ratio_line(name, paired(tools[a], tools[b])))


main()
