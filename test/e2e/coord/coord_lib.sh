# SPDX-License-Identifier: BSD-3-Clause
# Shared by the coordinator's end-to-end tests: skip unless the local
# OVS-DPDK testbed can run here, bring it up in a private run dir, take it
# down whatever happens. Source after test/lib/common.sh.

OVS_VSWITCHD_DPDK=/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk

coord_need_testbed() {
	need_root
	need_hugepages 768
	[ -x "$OVS_VSWITCHD_DPDK" ] || skip "needs OVS-DPDK ($OVS_VSWITCHD_DPDK; run tools/bootstrap.sh)"
	need_bin "$PVP_GEN"
	need_bin "$PVP_FWD"
	need_bin "$PVP_COORD"
	need_cmd "$PVP_PY"
	[ -x "$PVP_SOURCE_DIR/tools/testbed.sh" ] || skip "tools/testbed.sh not there yet"
	# OVS's userspace datapath is one per machine (its "ovs-netdev" tap):
	# a second OVS-DPDK cannot create its bridge while another runs.
	if pgrep -x ovs-vswitchd >/dev/null 2>&1 || pgrep -f ovs-vswitchd-dpdk >/dev/null 2>&1; then
		skip "another ovs-vswitchd runs on this machine (one OVS-DPDK testbed at a time)"
	fi
}

# A short run dir: unix socket paths must stay under 108 bytes.
TB_DIR=$PVP_TMP/tb
TB_UP=0

coord_tb() {
	PVP_TESTBED_SCRIPT="$PVP_SOURCE_DIR/tools/testbed.sh" \
		"$PVP_COORD" testbed "$@" --dir "$TB_DIR" --build-dir "$PVP_BUILD_DIR"
}

coord_tb_down() {
	[ "$TB_UP" = 1 ] && coord_tb down -q >/dev/null 2>&1
	TB_UP=0
	pvp_cleanup
}

# Bring the testbed up (extra testbed.sh options in "$@").
coord_tb_up() {
	trap coord_tb_down EXIT
	mkdir -p "$TB_DIR"
	TB_UP=1
	if ! coord_tb up -q "$@" >"$PVP_TMP/tb-up.log" 2>&1; then
		cat "$PVP_TMP/tb-up.log"
		fail "testbed up failed"
	fi
	[ -r "$TB_DIR/topology.json" ] || fail "testbed wrote no topology.json"
	grep -q '"driver": "ovs"' "$TB_DIR/topology.json" ||
		skip "the testbed came up with the stand-in vswitch, not OVS-DPDK"
}

# ovs-ofctl / ovs-vsctl on the testbed's private OVS.
coord_ofctl() {
	env OVS_RUNDIR="$TB_DIR" OVS_DBDIR="$TB_DIR" OVS_LOGDIR="$TB_DIR" ovs-ofctl "$@"
}
coord_vsctl() {
	env OVS_RUNDIR="$TB_DIR" OVS_DBDIR="$TB_DIR" OVS_LOGDIR="$TB_DIR" \
		ovs-vsctl --db="unix:$TB_DIR/db.sock" --timeout=10 "$@"
}

# Run a trial on the testbed; JSON to $PVP_TMP/$1.json, table to $1.out.
coord_trial() {
	local name=$1
	shift
	"$PVP_COORD" trial --topology "$TB_DIR/topology.json" --json "$PVP_TMP/$name.json" \
		--results "$PVP_TMP/results.jsonl" "$@" >"$PVP_TMP/$name.out" 2>"$PVP_TMP/$name.err"
}

# Evaluate a Python expression over the trial JSON `t`; fail with $3 if false.
coord_assert() {
	local name=$1 expr=$2 what=$3
	"$PVP_PY" - "$PVP_TMP/$name.json" "$expr" <<'PY' || fail "$what"
import json, sys
t = json.load(open(sys.argv[1]))
pts = t["chains"][0]
ok = eval(sys.argv[2])
if not ok:
    print("# check false:", sys.argv[2])
    print("# trial:", json.dumps({k: t[k] for k in ("tx_packets", "rx_packets", "hop_lost", "unattributed", "reconciled")}))
sys.exit(0 if ok else 1)
PY
}

# Call METHOD [PARAMS_JSON] on the testbed guest's pvpkit-fwd (hop
# "guest", its control address from topology.json); prints the result.
coord_guest_ctl() {
	local addr
	addr=$("$PVP_PY" -c 'import json,sys; print([h["ctl"] for h in json.load(open(sys.argv[1]))["hops"] if h["name"] == "guest"][0])' \
		"$TB_DIR/topology.json") || fail "no guest hop in topology.json"
	"$PVP_PY" "$PVP_SOURCE_DIR/test/dpdk/fwd/fwd_ctl.py" "$addr" "$@"
}
