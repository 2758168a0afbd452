#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-gen --server on a net_ring loopback port: the control methods of
# doc/gen.rst (gen_ctl.py), then SIGTERM: exit 0, summary and --json
# written.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_hugepages 128
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"

sock="$PVP_TMP/gen.sock"
"$PVP_GEN" $(pvp_eal ctl) -m 256 -l 0-1 --vdev net_ring0 -- \
    --server --ctl "unix:$sock" --idle-sleep 100 --json "$PVP_TMP/final.json" \
    >"$PVP_TMP/gen.log" 2>&1 &
pid=$!
pvp_track $pid
"$PVP_PY" "$PVP_SOURCE_DIR/test/dpdk/gen/gen_ctl.py" "$sock" || { cat "$PVP_TMP/gen.log"; fail "control"; }
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 0 ] || { cat "$PVP_TMP/gen.log"; fail "exit status $rc after SIGTERM"; }
grep -q "pvpkit-gen summary" "$PVP_TMP/gen.log" || fail "no summary after SIGTERM"
"$PVP_PY" -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(len(d['streams']) != 2)" \
    "$PVP_TMP/final.json" || fail "--json not written"
echo "PASS"
