#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""mlr_bench.sh's table: per final duration, the trial-seconds of binary
and MLR in each run, the ratio MLR / binary (median and spread over the
runs), and every search's NDR and PDR lower bounds against the cap.

usage: mlr_bench_summary.py OUT_DIR CAP_PPS RUNS FINAL_S...
Reads OUT_DIR/FINAL-ALGO-RUN.jsonl (each one search's results)."""

import json
import statistics
import sys


def search_record(path):
    """The last search record of a results file, or None."""
    rec = None
    try:
        with open(path) as f:
            for line in f:
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                if r.get("type") == "search":
                    rec = r
    except OSError:
        return None
    return rec


def spread(v):
    """(max - min) / median, in percent; 0 for fewer than two values."""
    if len(v) < 2 or statistics.median(v) == 0:
        return 0.0
    return 100 * (max(v) - min(v)) / statistics.median(v)


def main():
    out, cap, runs = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    finals = sys.argv[4:]
    worst = []
    ndr_off = []
    print("  final  run  algo     trials  trial-s       NDR pps   vs cap       PDR pps   vs cap")
    for final in finals:
        ratios = []
        secs = {"binary": [], "mlr": []}
        for run in range(1, runs + 1):
            per = {}
            for algo in ("binary", "mlr"):
                rec = search_record("%s/%s-%s-%d.jsonl" % (out, final, algo, run))
                if rec is None:
                    print("  %5s  %3d  %-6s   no search record" % (final, run, algo))
                    continue
                goals = {g["name"]: g for g in rec["goals"]}
                ndr = goals.get("ndr", {}).get("lower_pps")
                pdr = goals.get("pdr", {}).get("lower_pps")
                per[algo] = rec["trial_seconds"]
                secs[algo].append(rec["trial_seconds"])
                ndr_off.append((final, run, algo, ndr))
                print("  %5s  %3d  %-6s   %6d  %7.1f  %12s  %+6.2f %%  %12s  %+6.2f %%" % (
                    final, run, algo, rec["trials"], rec["trial_seconds"],
                    "-" if ndr is None else "%.0f" % ndr,
                    0 if ndr is None else 100 * (ndr - cap) / cap,
                    "-" if pdr is None else "%.0f" % pdr,
                    0 if pdr is None else 100 * (pdr - cap) / cap))
            if "binary" in per and "mlr" in per and per["binary"] > 0:
                ratios.append(per["mlr"] / per["binary"])
        if not ratios:
            continue
        med = statistics.median(ratios)
        worst.append(med)
        print("RATIO final %s s: MLR / binary trial-seconds median %.2f (min %.2f, max %.2f, "
              "spread %.0f %%) over %d runs; trial-s median MLR %.1f, binary %.1f" % (
                  final, med, min(ratios), max(ratios), spread(ratios), len(ratios),
                  statistics.median(secs["mlr"]), statistics.median(secs["binary"])))
    if ndr_off:
        off = ["%s %s s run %d: %s" % (a, f, r, "none" if n is None else
                                        "%+.2f %%" % (100 * (n - cap) / cap))
               for f, r, a, n in ndr_off if n is None or abs(n - cap) > 0.01 * cap]
        print("NDR within 1 %% of the %.0f pps cap: %d of %d searches%s" % (
            cap, len(ndr_off) - len(off), len(ndr_off),
            "" if not off else "; not: " + ", ".join(off)))
    return 0 if worst else 1


if __name__ == "__main__":
    sys.exit(main())
