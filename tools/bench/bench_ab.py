#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""What gen_bench_summary.py and fwd_bench_summary.py share: the summary of
one tool's runs and the ratio of two tools run by run.

A ratio is taken within each run (the two tools ran one right after the
other, so drift on a shared machine hits both alike), then summarised over
the runs: median, min-max, how many runs. Runs where either tool failed
are left out, and the count says so.

  bench_ab.py rev BUILD_DIR   the commit the source tree of a meson build
                              directory is at ("+changes" when its app, lib or
                              drivers differ from it), so that the output says
                              which builds it compared"""

import json
import math
import os
import statistics
import subprocess
import sys


def read(vals):
    """The values of the runs that read one (a failed run is nan)."""
    return [v for v in vals if not math.isnan(v)]


def runs_line(vals, fmt="%.3f"):
    """('median  min  max  spread%', 'run run ...') of one tool's runs in
    order (spread: (max-min)/median; a failed run shows as "-")."""
    runs = " ".join("-" if math.isnan(v) else fmt % v for v in vals)
    ok = read(vals)
    if not ok:
        return "%-34s" % "no run read", runs
    med = statistics.median(ok)
    spread = (max(ok) - min(ok)) / med if med else 0
    return "%8.3f %8.3f %8.3f %6.1f%%" % (med, min(ok), max(ok), 100 * spread), runs


def paired(a, b):
    """The ratio a/b of every run both read; a, b: {run: value, nan if failed}."""
    return read([a[r] / b[r] for r in sorted(a) if r in b and b[r]])


def ratio_line(name, ratios):
    """'NAME median (min-max, N runs)', and whether every run moved one way:
    a median away from 1 with 1 inside min-max is within the runs' noise."""
    if not ratios:
        return "  %-44s no run read both" % name
    lo, hi = min(ratios), max(ratios)
    side = ""
    if lo > 1:
        side = ", every run > 1"
    elif hi < 1:
        side = ", every run < 1"
    return "  %-44s %6.3f  (%.3f-%.3f, %d run%s%s)" % (name, statistics.median(ratios), lo, hi,
                                                       len(ratios), "s"[:len(ratios) > 1], side)


def build_rev(build):
    """Short commit of BUILD's source tree, "+changes" if it has uncommitted ones."""
    try:
        with open(os.path.join(build, "meson-info", "meson-info.json")) as f:
            src = json.load(f)["directories"]["source"]
        git = ["git", "-C", src]
        rev = subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(git + ["diff", "--quiet", "HEAD", "--", "app", "lib", "drivers"],
                               check=False).returncode
    except (OSError, KeyError, ValueError, subprocess.CalledProcessError):
        return "unknown"
    return rev + ("+changes" if dirty else "")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "rev":
        sys.exit(__doc__)
    print(build_rev(sys.argv[2]))
