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

from bench_ab import paired, ratio_line, runs_line

NAMES = {"a": "64B 1 flow (txonly)", "b": "64B 1M flows (flowgen)",
         "c": "1518B 1 flow (txonly)", "d": "IMIX (gen only)"}
TOOLS = ("gen", "base", "testpmd")
RATIOS = (("gen", "base", "gen / base (after / before)"), ("gen", "testpmd", "gen / testpmd"),
          ("base", "testpmd", "base / testpmd"))


def main():
    hz = float(sys.argv[2])
    # res[(case, what)][tool][run] = Mpps
    res = {}
    seen = set()  # (case, tool) of every run, read or not
    for line in open(sys.argv[1]):
        f = line.split()
        c, tool, run = f[:3]
        seen.add((c, tool))
        for col, what in ((3, "Mpps"), (4, "Mpps per CPU second")):
            v = float(f[col]) if len(f) > col else math.nan
            if not math.isnan(v):
                res.setdefault((c, what), {}).setdefault(tool, {})[int(run)] = v / 1e6
    for (c, what), tools in sorted(res.items()):
        print("\n%s: %s" % (NAMES.get(c, c), what))
        print("  %-8s %8s %8s %8s %7s %8s  %s" % ("tool", "median", "min", "max", "spread",
                                                  "cyc/pkt", "runs"))
        for tool in TOOLS:
            runs = tools.get(tool)
            if not runs:
                continue
            vals = [runs[r] for r in sorted(runs)]
            print("  %-8s %s %8.1f  %s" % (tool, runs_line(vals),
                                           hz / (statistics.median(vals) * 1e6),
                                           " ".join("%.2f" % v for v in vals)))
        for a, b, name in RATIOS:
            if (c, a) in seen and (c, b) in seen:
                print(ratio_line(name, paired(tools.get(a, {}), tools.get(b, {}))))


main()
