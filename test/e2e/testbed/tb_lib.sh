# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Shared by the testbed's end-to-end tests. Source after test/lib/common.sh.
# Each test brings up its own testbed in a private run dir under $PVP_TMP
# and takes it down whatever happens.

TB_SCRIPT=$PVP_SOURCE_DIR/tools/testbed.sh
TB_DIR=$PVP_TMP/tb
PROBE=$PVP_BUILD_DIR/test/e2e/testbed/drv_probe
OVS_VSWITCHD_DPDK=/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk
# The file prefix testbed.sh derives from the run dir.
TB_ID=pvptb$(printf '%s' "$TB_DIR" | cksum | cut -d' ' -f1)

tb() { "$TB_SCRIPT" "$@" --dir "$TB_DIR" --build-dir "$PVP_BUILD_DIR"; }

tb_need() {
	need_root
	need_hugepages 768
	need_cmd dpdk-testpmd
	need_bin "$PROBE"
}

tb_need_ovs() {
	[ -x "$OVS_VSWITCHD_DPDK" ] || skip "needs OVS-DPDK ($OVS_VSWITCHD_DPDK; run tools/bootstrap.sh)"
	need_cmd ovsdb-server
	need_cmd ovs-ofctl
}

tb_down_on_exit() {
	trap '"$TB_SCRIPT" down -q --dir "$TB_DIR" >/dev/null 2>&1; pvp_cleanup' EXIT
}

# Bring the testbed up with "$@"; show its logs and fail if it does not.
tb_up() {
	mkdir -p "$TB_DIR"
	if ! tb up -q "$@" >"$PVP_TMP/up.log" 2>&1; then
		cat "$PVP_TMP/up.log"
		for f in "$TB_DIR"/*.log; do
			[ -r "$f" ] && { echo "--- $f"; tail -n 15 "$f"; }
		done
		fail "testbed up $* failed"
	fi
}

# Nothing of the testbed left: no process, socket, hugepage file or DPDK
# runtime dir.
tb_assert_clean() {
	local left
	left=$(pgrep -af "$TB_ID-|$TB_DIR/" | grep -v -e pgrep -e "$0" || true)
	[ -z "$left" ] || fail "processes left: $left"
	left=$(find "$TB_DIR" -type s 2>/dev/null)
	[ -z "$left" ] || fail "sockets left: $left"
	left=$(find /dev/hugepages -maxdepth 1 -name "$TB_ID*" 2>/dev/null)
	[ -z "$left" ] || fail "hugepage files left: $left"
	left=$(ls -d /var/run/dpdk/"$TB_ID"-* 2>/dev/null || true)
	[ -z "$left" ] || fail "DPDK runtime dirs left: $left"
	[ ! -e "$TB_DIR/topology.json" ] || fail "topology.json left"
}

# Python over JSON: tb_py 'expression over j' FILE-or-TEXT message
tb_check() {
	local json=$1 expr=$2 what=$3
	"$PVP_PY" - "$json" "$expr" <<'PY' || fail "$what: $json"
import json, sys
j = json.loads(sys.argv[1])
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

# drv_probe HOP ACTION...: the driver's answer as JSON text.
tb_probe() {
	"$PROBE" "$TB_DIR/topology.json" "$@" || fail "drv_probe $*"
}

# Port counters of HOP, PORT index, COUNTER.
tb_counter() {
	tb_probe "$1" snapshot | "$PVP_PY" -c \
		"import json,sys; print(json.load(sys.stdin)['ports'][$2]['$3'])"
}

# Wait (bounded) until "$@" prints the same thing twice in a row, 0.5 s
# apart: counters have stopped moving. Prints it.
tb_wait_quiet() {
	local a b i
	a=$("$@")
	for ((i = 0; i < 60; i++)); do
		sleep 0.5
		b=$("$@")
		[ "$a" = "$b" ] && { echo "$b"; return 0; }
		a=$b
	done
	fail "counters still moving after 30 s: $*"
}
