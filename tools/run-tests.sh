#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The test command: bootstrap (packages, hugepages, build), then every test
# suite (unit, dpdk, e2e), then one closing line "N passed, N failed, N skipped".
# Exits non-zero when anything failed. CI (.ci/run) calls exactly this.
#
# Usage: sudo tools/run-tests.sh [--suite unit|dpdk|e2e ...] [meson test args]
# Env:   PVP_BUILD_DIR (default build), CI (set: build with -Werror)

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${PVP_BUILD_DIR:-$top/build}
export PVP_BUILD_DIR=$build_dir

boot_args=()
[ -n "${CI:-}" ] && boot_args+=(--werror)

if ! "$top/tools/bootstrap.sh" --build-dir "$build_dir" "${boot_args[@]}"; then
    echo "bootstrap or build failed"
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
fi

# Nothing of an earlier run may still poll the CPUs or hold hugepages.
"$top/tools/testbed.sh" down >/dev/null 2>&1 || true

log="$build_dir/meson-logs/testlog.json"
rm -f "$log"
# Tests that busy-poll are marked is_parallel: false; meson runs them alone.
meson test -C "$build_dir" --no-rebuild --print-errorlogs "$@"
rc=$?

if [ ! -s "$log" ]; then
    echo "meson test produced no results (exit $rc)"
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
fi

/usr/bin/python3 - "$log" "$rc" <<'PY'
import json, sys

passed = failed = skipped = 0
failures = []
for line in open(sys.argv[1]):
    line = line.strip()
    if not line:
        continue
    t = json.loads(line)
    r = t.get("result", "")
    if r in ("OK", "EXPECTEDFAIL"):
        passed += 1
    elif r == "SKIP":
        skipped += 1
        out = (t.get("stdout") or "").strip().splitlines()
        why = next((l for l in out if l.startswith("SKIP")), "no reason given")
        print(f"skipped: {t['name']}: {why}")
    else:
        failed += 1
        failures.append(f"{t['name']} ({r})")
for f in failures:
    print(f"failed: {f}")
if failed == 0 and int(sys.argv[2]) != 0:
    # meson failed without a failed test (e.g. a test that could not start).
    failed = 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
PY
