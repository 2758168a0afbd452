#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# FD.io CSIT's own driver script (trex_stl_profile.py, unchanged) against
# pvpkit-gen --trex on memif ports (tools/trex-csit.sh): a sample of four
# CSIT profiles at 64 B, with and without --latency, one of them a
# six-port "-6p" profile (so pvpkit-gen has six ports, three pairs, and
# CSIT's script gets --ports 0 1 2 3 4 5). Needs PVP_CSIT (a CSIT
# checkout) and PVP_TREX_CORE (trex-core, for TRex's client). About 40 s:
# TRex's client starts once a run. The whole set (174
# profiles, 64 B and IMIX_v4_1) is tools/trex-csit.sh -a (doc/trex.rst).
. "$PVP_SOURCE_DIR/test/lib/common.sh"

[ -n "${PVP_CSIT:-}" ] || skip "no CSIT checkout (set PVP_CSIT)"
[ -n "${PVP_TREX_CORE:-}" ] || skip "no trex-core checkout for TRex's client (set PVP_TREX_CORE)"
need_bin "$PVP_GEN"
need_hugepages 512
out=$("$PVP_SOURCE_DIR/tools/trex-csit.sh" -s 64 -l no,yes -b "$PVP_BUILD_DIR" "$PVP_CSIT" \
    "$PVP_TREX_CORE" trex-stl-ethip4-ip4src254.py trex-stl-ethip4-geneve-1t.py \
    trex-stl-ethip6-ip6src253.py trex-stl-ethip4-ip4dst10000-6p.py)
rc=$?
echo "$out"
[ $rc = 77 ] && skip "trex-csit.sh skipped"
[ $rc = 0 ] || fail "CSIT's trex_stl_profile.py failed"
# The IPv4 latency streams report latency with an HDR histogram; the IPv6
# packet (Ether/IPv6 padded to 60 B: 6 payload bytes) has no room for a
# latency payload, which TRex refuses too, and the script runs on without.
echo "$out" | grep -q '^trex-stl-ethip4-ip4src254 .*latency=yes PASS .*hdrh' ||
    fail "no latency for the IPv4 profile"
echo "$out" | grep -q '^trex-stl-ethip4-geneve-1t .*latency=yes PASS .*hdrh' ||
    fail "no latency for the Geneve profile"
echo "$out" | grep -q '^trex-stl-ethip6-ip6src253 .*latency=yes NOLAT' ||
    fail "the IPv6 64 B latency streams were not refused"
# Six ports: three pairs each 10 kpps, and the latency of pg_id 0 and 1
# (ports 0 and 2) that CSIT's script reads.
echo "$out" | grep -q '^trex-stl-ethip4-ip4dst10000-6p .*latency=yes PASS  60000/60000, .*hdrh.*hdrh' ||
    fail "no latency for the six-port profile"
echo "PASS"
