#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""mlr_bench.sh's table: per final duration, the trial-seconds of binary
and MLR in each run, the ratio MLR / binary (median and spread over the
runs), every search's NDR and PDR lower bounds against the cap and where
its trial-seconds went (per phase; generator-limited and invalid trials
and losses the search doubted, each measured again), and per algorithm
the median and spread of the bounds.

usage: mlr_bench_summary.py OUT_DIR CAP_PPS RUNS FINAL_S...
Reads OUT_DIR/FINAL-ALGO-RUN.jsonl (each one search's results)."""

import json
import statistics
import sys


def search_record(path):
    """The last search record of a results file and its trials, or (None, [])."""
    rec, trials = None, []
    try:
        with open(path) as f:
            for line in f:
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                if r.get("type") == "search":
                    rec = r
                elif r.get("type") == "trial" and "search" in r:
                    trials.append(r)
    except OSError:
        return None, []
    if rec is not None:
        trials = [t for t in trials if t["search"].get("id") == rec.get("id")]
    return rec, trials


def cost(trials):
    """Where a search's trial-seconds went: per phase, and how much of it
    the generator fell short in, was invalid or lost packets the search
    doubted (each measured again)."""
    phases = {}
    limited = invalid = doubted = 0.0
    prev = 0.0
    for t in trials:
        d = t.get("duration_s", 0.0)
        n, secs = phases.get(t["search"]["phase"], (0, 0.0))
        phases[t["search"]["phase"]] = (n + 1, secs + d)
        if t.get("invalid"):
            invalid += d
        elif t.get("generator_limited"):
            limited += d
        # The trial before a loss re-measure is the one doubted.
        if t["search"].get("loss_remeasure"):
            doubted += prev
        prev = d
    return "phase %s; generator-limited %.1f s, invalid %.1f s, doubted loss %.1f s" % (
        ", ".join("%d: %d x %.1f s" % (p, n, secs) for p, (n, secs) in sorted(phases.items())),
        limited, invalid, doubted)


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
        bounds = {(a, g): [] for a in ("binary", "mlr") for g in ("ndr", "pdr")}
        for run in range(1, runs + 1):
            per = {}
            for algo in ("binary", "mlr"):
                rec, trials = search_record("%s/%s-%s-%d.jsonl" % (out, final, algo, run))
                if rec is None:
                    print("  %5s  %3d  %-6s   no search record" % (final, run, algo))
                    continue
                goals = {g["name"]: g for g in rec["goals"]}
                ndr = goals.get("ndr", {}).get("lower_pps")
                pdr = goals.get("pdr", {}).get("lower_pps")
                for g, v in (("ndr", ndr), ("pdr", pdr)):
                    if v is not None:
                        bounds[(algo, g)].append(v)
                per[algo] = rec["trial_seconds"]
                secs[algo].append(rec["trial_seconds"])
                ndr_off.append((final, run, algo, ndr))
                print("  %5s  %3d  %-6s   %6d  %7.1f  %12s  %+6.2f %%  %12s  %+6.2f %%" % (
                    final, run, algo, rec["trials"], rec["trial_seconds"],
                    "-" if ndr is None else "%.0f" % ndr,
                    0 if ndr is None else 100 * (ndr - cap) / cap,
                    "-" if pdr is None else "%.0f" % pdr,
                    0 if pdr is None else 100 * (pdr - cap) / cap))
                print("                          trial-s by %s" % cost(trials))
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
        for algo in ("mlr", "binary"):
            print("BOUNDS final %s s %-6s %s" % (final, algo, "; ".join(
                "%s lower median %.0f pps (%+.2f %% of the cap), spread %.2f %% over %d" % (
                    g.upper(), statistics.median(v), 100 * (statistics.median(v) - cap) / cap,
                    spread(v), len(v)) if v else "%s no lower bound" % g.upper()
                for g, v in ((g, bounds[(algo, g)]) for g in ("ndr", "pdr")))))
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
