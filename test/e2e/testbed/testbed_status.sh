#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# testbed.sh status checks what runs now, not what up left behind: after
# kill -9 of ovs-vswitchd it says the vswitch and every port are down and
# exits 1 (it used to say "port vhost0: up" from OVSDB's stale row); a
# stopped guest (its control channel does not answer), a killed guest and
# a pid file naming another program are each "degraded".
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/testbed/tb_lib.sh"

tb_need
tb_need_ovs
need_bin "$PVP_GEN"
need_bin "$PVP_FWD"
tb_down_on_exit

# status: output to $PVP_TMP/status, exit status echoed.
st() {
	tb status >"$PVP_TMP/status" 2>&1
	echo $?
}
has() { grep -qx -- "$1" "$PVP_TMP/status" || { cat "$PVP_TMP/status"; fail "no line '$1'"; }; }

tb_up
info "all up: every process, OVSDB, ovs-vswitchd, the ports and both control channels answer"
rc=$(st)
[ "$rc" = 0 ] || { cat "$PVP_TMP/status"; fail "status after up: exit $rc"; }
has "gen: running (pid $(cat "$TB_DIR/gen.pid")), control answers"
has "fwd: running (pid $(cat "$TB_DIR/fwd.pid")), control answers"
has "ovsdb-server: running (pid $(cat "$TB_DIR/ovsdb-server.pid")), OVSDB answers"
has "ovs-vswitchd: running (pid $(cat "$TB_DIR/ovs-vswitchd.pid")), answers"
has "port phy0: up"
has "port vhost0: up"
has "testbed: up"
if [ "$(nproc)" -lt 5 ]; then
	grep -q "^cores: shared (4 pollers on CPUs .*): not dedicated-core numbers$" "$PVP_TMP/status" ||
		{ cat "$PVP_TMP/status"; fail "status does not say the cores are shared"; }
	tb_check "$(cat "$TB_DIR/topology.json")" 'j["testbed"]["shared_cores"] is True' \
		"topology: shared_cores"
fi

info "guest stopped (SIGSTOP): degraded"
fwd=$(cat "$TB_DIR/fwd.pid")
kill -STOP "$fwd"
rc=$(st)
kill -CONT "$fwd"
[ "$rc" = 1 ] || { cat "$PVP_TMP/status"; fail "status with a stopped guest: exit $rc"; }
has "fwd: stopped (pid $fwd)"
has "testbed: degraded"
rc=$(st)
[ "$rc" = 0 ] || { cat "$PVP_TMP/status"; fail "status after SIGCONT: exit $rc"; }

info "a pid file naming another program: not the tester"
gen=$(cat "$TB_DIR/gen.pid")
echo $$ >"$TB_DIR/gen.pid"
rc=$(st)
echo "$gen" >"$TB_DIR/gen.pid"
[ "$rc" = 1 ] || { cat "$PVP_TMP/status"; fail "status with a foreign pid: exit $rc"; }
has "gen: not running (pid $$ is another program)"

info "kill -9 of ovs-vswitchd: the vswitch and its ports are down"
ovs=$(cat "$TB_DIR/ovs-vswitchd.pid")
kill -9 "$ovs"
while kill -0 "$ovs" 2>/dev/null; do sleep 0.1; done
rc=$(st)
[ "$rc" = 1 ] || { cat "$PVP_TMP/status"; fail "status after kill -9 of OVS: exit $rc"; }
grep -q "^ovs-vswitchd: not running (pid $ovs \(gone\|exited\))$" "$PVP_TMP/status" ||
	{ cat "$PVP_TMP/status"; fail "ovs-vswitchd not reported dead"; }
has "port phy0: down (ovs-vswitchd not answering)"
has "port vhost0: down (ovs-vswitchd not answering)"
grep -q ": up$" "$PVP_TMP/status" && { cat "$PVP_TMP/status"; fail "something still says up"; }
has "testbed: degraded"

info "kill -9 of the guest too"
kill -9 "$fwd"
while kill -0 "$fwd" 2>/dev/null; do sleep 0.1; done
rc=$(st)
[ "$rc" = 1 ] || fail "status after kill -9 of the guest: exit $rc"
grep -q "^fwd: not running (pid $fwd \(gone\|exited\))$" "$PVP_TMP/status" ||
	{ cat "$PVP_TMP/status"; fail "guest not reported dead"; }

info "down, then up again without manual clean-up"
tb down -q || fail "down failed"
rc=$(st)
[ "$rc" = 3 ] || fail "status after down: exit $rc"
has "testbed: down"
tb_assert_clean
tb_up
rc=$(st)
[ "$rc" = 0 ] || { cat "$PVP_TMP/status"; fail "status after the second up: exit $rc"; }
tb down -q
info "ok"
