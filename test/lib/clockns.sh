#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Run a command in a new time namespace, so that tests see the clocks of
# another machine: a freshly booted one (CLOCK_MONOTONIC and
# CLOCK_BOOTTIME at a few seconds) or one up for decades. Code that
# subtracts a remote duration from the local monotonic clock breaks on
# the first; code that keeps nanoseconds in a narrow type on the second.
#
# Usage: test/lib/clockns.sh AT CMD [ARG...]
#   AT  N    both clocks read N s when CMD starts (a machine booted N s ago)
#       +N   both clocks N s ahead of what they read now
# Exits with CMD's status; 77 with "SKIP: ..." where time namespaces are
# not permitted (no CAP_SYS_ADMIN, a kernel before 5.6, unshare without
# --time), so meson reports the test as skipped and says why.

set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 SECONDS|+SECONDS CMD [ARG...]" >&2
    exit 2
fi
at=$1
shift

# Offsets are from the host's clocks, not from the namespace this runs
# in (a test run under this wrapper may call it again): start from the
# current namespace's own offsets.
mono_now_off=0
boot_now_off=0
if [ -r /proc/self/timens_offsets ]; then
    while read -r clk sec _; do
        case "$clk" in
        monotonic) mono_now_off=$sec ;;
        boottime) boot_now_off=$sec ;;
        esac
    done </proc/self/timens_offsets
fi

case "$at" in
+*)
    n=${at#+}
    [[ "$n" =~ ^[0-9]+$ ]] || { echo "clockns: bad clock \"$at\"" >&2; exit 2; }
    mono_off=$((mono_now_off + n))
    boot_off=$((boot_now_off + n))
    ;;
*)
    [[ "$at" =~ ^[0-9]+$ ]] || { echo "clockns: bad clock \"$at\" (want SECONDS or +SECONDS)" >&2; exit 2; }
    # Each clock on its own: they differ once the host has been suspended.
    read -r mono boot < <(/usr/bin/python3 -c 'import time
print(int(time.clock_gettime(time.CLOCK_MONOTONIC)), int(time.clock_gettime(time.CLOCK_BOOTTIME)))')
    if [ -z "${boot:-}" ]; then
        echo "clockns: cannot read this host's clocks" >&2
        exit 2
    fi
    mono_off=$((at - mono + mono_now_off))
    boot_off=$((at - boot + boot_now_off))
    ;;
esac

# Tell "not permitted here" from the command's own failure.
if ! why=$(unshare --time --fork --monotonic="$mono_off" --boottime="$boot_off" true 2>&1); then
    echo "SKIP: time namespaces not permitted here (unshare --time: ${why:-failed})"
    exit 77
fi
exec unshare --time --fork --monotonic="$mono_off" --boottime="$boot_off" "$@"
