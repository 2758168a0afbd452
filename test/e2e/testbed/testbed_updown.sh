#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# testbed.sh up -> status -> topology.json -> down leaves nothing; a second
# up is refused; kill -9 of everything then down leaves nothing; down is
# idempotent; missing binaries give a one-line error.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/testbed/tb_lib.sh"

tb_need
tb_need_ovs
tb_down_on_exit

info "missing binaries: one line that says to build"
out=$("$TB_SCRIPT" up --dir "$TB_DIR" --build-dir "$PVP_TMP/nobuild" 2>&1) &&
	fail "up with no binaries succeeded"
[ "$(echo "$out" | wc -l)" = 1 ] || fail "not one line: $out"
echo "$out" | grep -q "not built" || fail "no 'not built' in: $out"
tb_assert_clean

# pvpkit-gen/fwd when built, else testpmd in both places.
apps=""
[ -x "$PVP_GEN" ] && [ -x "$PVP_FWD" ] || apps="--tester testpmd --guest testpmd"
info "up $apps"
# shellcheck disable=SC2086
tb_up $apps
tb status >"$PVP_TMP/status" || { cat "$PVP_TMP/status"; fail "status after up: not 0"; }
grep -q "testbed: up" "$PVP_TMP/status" || fail "status does not say up"
grep -q "port vhost0: up" "$PVP_TMP/status" || fail "vhost0 not up"

topo=$(cat "$TB_DIR/topology.json")
tb_check "$topo" 'len(j["hops"]) == 3 and [h["name"] for h in j["hops"]] == ["tester", "vswitch", "guest"]' \
	"three hops"
tb_check "$topo" 'j["hops"][1]["driver"] == "ovs" and j["hops"][1]["ports"] == ["phy0", "vhost0"]' \
	"OVS hop"
tb_check "$topo" '[(p["hop"], p["port"], p["dir"]) for p in j["chains"][0]][1:7] == [("vswitch","phy0","rx"), ("vswitch","vhost0","tx"), ("guest",j["hops"][2]["ports"][0],"rx"), ("guest",j["hops"][2]["ports"][0],"tx"), ("vswitch","vhost0","rx"), ("vswitch","phy0","tx")]' \
	"chain order"
tb_check "$topo" 'all(__import__("os").path.exists(a[5:] if a.startswith("unix:") else a) for a in [h.get("ctl") or h.get("telemetry") or h.get("db") for h in j["hops"]])' \
	"every socket in the topology exists"

info "a second up is refused"
out=$(tb up 2>&1) && fail "second up succeeded"
echo "$out" | grep -q "already runs" || fail "second up: $out"

info "down"
tb down -q || fail "down failed"
tb status >/dev/null
[ $? = 3 ] || fail "status after down is not 3"
tb_assert_clean

info "kill -9 of everything, then down"
# shellcheck disable=SC2086
tb_up $apps
pids=$(cat "$TB_DIR"/*.pid)
# shellcheck disable=SC2086
kill -9 $pids
for p in $pids; do
	while kill -0 "$p" 2>/dev/null; do sleep 0.1; done
done
tb status >/dev/null && fail "status says up after kill -9"
tb down -q || fail "down after a crash failed"
tb_assert_clean
tb down -q || fail "second down failed"
tb_assert_clean
info "ok"
