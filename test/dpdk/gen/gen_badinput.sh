#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# What the bad-input tables cannot say: every refused value and file is a
# case in test/unit/badinput/gen (before the EAL) or test/dpdk/badinput/gen
# (with one); here --help without an EAL, and what base 10 and units
# accept, measured.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_hugepages 64

# Options are ours before the EAL's: with an EAL that cannot start (a
# memory request no machine here meets, as on a box without hugepages)
# --help still prints the usage.
NOEAL="--in-memory --no-pci --file-prefix=pvpt-noeal-$$ -m 1000000 -l 0"
timeout 60 "$PVP_GEN" $NOEAL -- --help >"$PVP_TMP/out" 2>"$PVP_TMP/err" ||
    fail "--help without an EAL: exit $?"
grep -q "^Usage: .*pvpkit-gen \[EAL options\] -- \[options\]" "$PVP_TMP/out" || fail "--help: no usage"
[ -s "$PVP_TMP/err" ] && fail "--help: stderr not empty: $(cat "$PVP_TMP/err")"

# What base 10 means: --flows 010 is ten flows (it was eight), and a
# duration takes a unit: 50ms at 1000 pps is exactly 50 packets.
"$PVP_GEN" $(pvp_eal ok1) -m 64 -l 0-1 --vdev net_null0,no-rx=1 --log-level=pvp.gen:info -- \
    --flows 010 --count 20 --quiet >"$PVP_TMP/out" 2>&1 || { cat "$PVP_TMP/out"; fail "--flows 010"; }
grep -q 'stream 0 "stream0" port 0 size 64 eth/ipv4/udp flows 10 vars 1' "$PVP_TMP/out" ||
    { cat "$PVP_TMP/out"; fail "--flows 010 is not 10 flows"; }
"$PVP_GEN" $(pvp_eal ok2) -m 64 -l 0-1 --vdev net_null0,no-rx=1 -- \
    --rate 1000 --duration 50ms --quiet --json "$PVP_TMP/d.json" >"$PVP_TMP/out" 2>&1 ||
    { cat "$PVP_TMP/out"; fail "--duration 50ms"; }
"$PVP_PY" -c 'import json,sys; t=json.load(open(sys.argv[1]))["traffic"]; sys.exit(0 if (t["tx_packets"], t["tx_asked"]) == (50, 50) else t)' \
    "$PVP_TMP/d.json" || fail "--duration 50ms at 1000 pps is not 50 packets"
echo "PASS"
