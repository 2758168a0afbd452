#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# What the bad-input tables cannot say: every refused value is a case in
# test/unit/badinput/fwd (before the EAL) or test/dpdk/badinput/fwd (with
# one); here --help without an EAL, and a fractional --duration with a
# unit, measured.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/fwd/fwd_lib.sh"

need_bin "$PVP_FWD"

# Options are ours before the EAL's: with an EAL that cannot start (a
# memory request no machine here meets, as on a box without hugepages)
# --help still prints the usage.
NOEAL="--in-memory --no-pci --file-prefix=pvpt-noeal-$$ -m 1000000 -l 0"
timeout 60 "$PVP_FWD" $NOEAL -- --help >"$PVP_TMP/out" 2>"$PVP_TMP/err" || fail "--help without an EAL: exit $?"
grep -q "^Usage: .*pvpkit-fwd \[EAL options\] -- \[options\]" "$PVP_TMP/out" || fail "--help: no usage"
[ -s "$PVP_TMP/err" ] && fail "--help: stderr not empty: $(cat "$PVP_TMP/err")"

NH="$(fwd_eal_nohuge bad) -l 0"
# --duration is fractional, with units, as pvpkit-gen's and pvpkit's.
timeout 30 "$PVP_FWD" $NH --vdev net_null0 -- --duration 200ms --ctl none --json "$PVP_TMP/d.json" \
    >"$PVP_TMP/out" 2>&1 || { cat "$PVP_TMP/out"; fail "--duration 200ms: exit $?"; }
[ "$(fwd_total "$PVP_TMP/d.json" 0 tx_packets)" -gt 0 ] || fail "--duration 200ms forwarded nothing"
echo "PASS"
