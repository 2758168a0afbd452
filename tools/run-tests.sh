#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The test command: bootstrap (packages, hugepages, build), then every test
# suite (unit, dpdk, e2e), the unit suite again on the clocks of a machine
# booted 30 s ago (its tests named "clock30:NAME"), then the unit and dpdk
# suites again in a second build with AddressSanitizer and
# UndefinedBehaviorSanitizer (LeakSanitizer on), then one closing line
# "N passed, N failed, N skipped" that counts them all; the sanitizer
# build's tests are named "asan:NAME". Exits non-zero
# when anything failed. CI (.ci/run) calls exactly this.
#
# Usage (as root): tools/run-tests.sh [--sanitize | --no-sanitize] [meson test args]
#   (no args)       every suite, unit on a 30 s clock, then unit and dpdk
#                   under the sanitizers
#   meson test args the normal build only, e.g. --suite dpdk (as before)
#   --sanitize      the sanitizer build only (suites unit and dpdk unless
#                   meson test args say otherwise)
#   --no-sanitize   the normal build only
# Env:   PVP_BUILD_DIR (default build), PVP_ASAN_BUILD_DIR (default
#        build-asan), CI (set: build with -Werror), CC (the sanitizer build
#        uses clang when it is installed, so the fuzz harnesses run too)

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${PVP_BUILD_DIR:-$top/build}
asan_dir=${PVP_ASAN_BUILD_DIR:-$top/build-asan}
export PVP_BUILD_DIR=$build_dir

normal=true
sanitize=auto
args=()
for a in "$@"; do
    case "$a" in
    --sanitize) sanitize=true; normal=false ;;
    --no-sanitize) sanitize=false ;;
    *) args+=("$a") ;;
    esac
done
# A run of chosen suites stays what it was; the full run adds the
# sanitizer build.
if [ "$sanitize" = auto ]; then
    if [ ${#args[@]} -eq 0 ]; then sanitize=true; else sanitize=false; fi
fi

boot_args=()
[ -n "${CI:-}" ] && boot_args+=(--werror)
$normal || boot_args+=(--no-build)

if ! "$top/tools/bootstrap.sh" --build-dir "$build_dir" "${boot_args[@]}"; then
    echo "bootstrap or build failed"
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
fi

logs=()
rcs=()

# Nothing of an earlier run may still poll the CPUs or hold hugepages.
testbed_down() {
    "$top/tools/testbed.sh" down >/dev/null 2>&1 || true
}

if $normal; then
    testbed_down
    log="$build_dir/meson-logs/testlog.json"
    rm -f "$log"
    # Tests that busy-poll are marked is_parallel: false; meson runs them alone.
    meson test -C "$build_dir" --no-rebuild --print-errorlogs "${args[@]}"
    rcs+=($?)
    logs+=("$log=")
    if [ ${#args[@]} -eq 0 ]; then
        # The unit suite again on the clocks of a machine booted 30 s
        # ago (test/lib/clockns.sh; skipped, saying why, where time
        # namespaces are not permitted): nothing may depend on uptime.
        clock_log="$build_dir/meson-logs/testlog-clock30.json"
        rm -f "$clock_log"
        meson test -C "$build_dir" --no-rebuild --print-errorlogs --setup clock30 --suite unit
        rcs+=($?)
        logs+=("$clock_log=clock30:")
    fi
fi

if $sanitize; then
    # The second build: gcc or clang with -fsanitize=address,undefined
    # (b_lundef=false: the sanitizer runtimes resolve some symbols only
    # at run time). With clang the fuzz harnesses are built and each runs
    # for PVP_FUZZ_SECONDS under libFuzzer (test/fuzz/meson.build).
    asan_log="$asan_dir/meson-logs/testlog.json"
    rm -f "$asan_log"
    asan_ok=true
    if [ ! -f "$asan_dir/build.ninja" ]; then
        asan_cc=${CC:-}
        [ -z "$asan_cc" ] && command -v clang >/dev/null && asan_cc=clang
        asan_cflags=-fno-omit-frame-pointer
        # clang: every library also carries libFuzzer's coverage, which is
        # what builds the NAME_fuzz harnesses (test/fuzz/meson.build).
        "${asan_cc:-cc}" --version 2>/dev/null | grep -q clang &&
            asan_cflags="$asan_cflags -fsanitize=fuzzer-no-link"
        CC=${asan_cc:-cc} meson setup "$asan_dir" "$top" -Db_sanitize=address,undefined \
            -Db_lundef=false -Dc_args="$asan_cflags" \
            -Dwerror="$([ -n "${CI:-}" ] && echo true || echo false)" >/dev/null ||
            asan_ok=false
    fi
    if $asan_ok && ! ninja -C "$asan_dir" >"$asan_dir/build.log" 2>&1; then
        tail -n 40 "$asan_dir/build.log" >&2
        asan_ok=false
    fi
    if $asan_ok; then
        testbed_down
        sargs=("${args[@]}")
        [ ${#sargs[@]} -eq 0 ] && sargs=(--suite unit --suite dpdk)
        # Every finding stops the process with a report (abort: exit
        # 134, so a test expecting another status fails too); leaks are
        # checked at exit. DPDK's hugepage memory is not instrumented:
        # the checks cover what pvpkit allocates with malloc and its
        # stack and globals. Suppressions: tools/lsan.supp (DPDK only).
        ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:halt_on_error=1:print_summary=1} \
        UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1:print_summary=1} \
        LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$top/tools/lsan.supp:print_suppressions=0} \
            meson test -C "$asan_dir" --no-rebuild --print-errorlogs "${sargs[@]}"
        rcs+=($?)
        logs+=("$asan_log=asan:")
    else
        echo "sanitizer build failed (see $asan_dir/build.log)"
        rcs+=(1)
        logs+=("=asan:build")
    fi
fi

/usr/bin/python3 - "${rcs[*]}" "${logs[@]}" <<'PY'
import json, os, sys

passed = failed = skipped = 0
failures = []
for spec, rc in zip(sys.argv[2:], sys.argv[1].split()):
    log, prefix = spec.rsplit("=", 1)
    if not log or not os.path.exists(log) or os.path.getsize(log) == 0:
        what = prefix or "meson test"
        print(f"{what}: no results (exit {rc})")
        failed += 1
        continue
    run_failed = 0
    for line in open(log):
        line = line.strip()
        if not line:
            continue
        t = json.loads(line)
        r = t.get("result", "")
        name = prefix + t["name"]
        if r in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r == "SKIP":
            skipped += 1
            out = (t.get("stdout") or "").strip().splitlines()
            why = next((l for l in out if l.startswith("SKIP")), "no reason given")
            print(f"skipped: {name}: {why}")
        else:
            run_failed += 1
            failures.append(f"{name} ({r})")
    if run_failed == 0 and int(rc) != 0:
        # meson failed without a failed test (e.g. a test that could not start).
        run_failed = 1
        failures.append(f"{prefix or ''}meson test (exit {rc})")
    failed += run_failed
for f in failures:
    print(f"failed: {f}")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
PY
