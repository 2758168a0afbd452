#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# TRex itself as the oracle: a few trex-core scripts/stl profiles, one per
# field engine feature, through TRex's own client into pvpkit-gen --trex,
# compared byte for byte with TRex's simulator (tools/trex-corpus.sh),
# the variable-length ones (trim_pkt_size, 9230 B frames) among them.
# Needs PVP_TREX_CORE: a trex-core checkout whose bp-sim-64 is built
# (doc/trex.rst says how). About 15 s here: the simulator starts once a stream.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

[ -n "${PVP_TREX_CORE:-}" ] || skip "no trex-core checkout (set PVP_TREX_CORE)"
need_bin "$PVP_GEN"
need_hugepages 128
# A cache folder that is not there yet is made (it crashed the tool once).
"$PVP_SOURCE_DIR/tools/trex-corpus.sh" -n 20 -b "$PVP_BUILD_DIR" -c "$PVP_TMP/new/cache" "$PVP_TREX_CORE" \
    udp_1pkt_simple udp_1pkt_simple_list_test dependent_field_engine_vars \
    udp_1pkt_repeat_random udp_1pkt_mac_mask3 icmpv6_fix_cs \
    udp_inc_len_9k udp_inc_len_list udp_rand_len_9k
rc=$?
[ $rc = 77 ] && skip "trex-corpus.sh skipped"
[ $rc = 0 ] || fail "profiles differ from TRex's simulator"
echo "PASS"
