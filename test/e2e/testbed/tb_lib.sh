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

# The layouts (--ports 2, --guests N, --chains N) need OVS-DPDK, both apps
# and the coordinator; OVS's userspace datapath is one per machine.
tb_need_layout() {
	tb_need
	tb_need_ovs
	need_bin "$PVP_GEN"
	need_bin "$PVP_FWD"
	need_bin "$PVP_COORD"
	if pgrep -f ovs-vswitchd-dpdk >/dev/null 2>&1; then
		skip "another ovs-vswitchd runs on this machine (one OVS-DPDK testbed at a time)"
	fi
}

# The --vm tests' guest image: built (once, a few minutes) or from the
# cache; skip when it cannot be built.
tb_guest_image() {
	local img
	img=$("$PVP_SOURCE_DIR/tools/guest-image.sh" --build-dir "$PVP_BUILD_DIR" 2>"$PVP_TMP/image.err") || {
		cat "$PVP_TMP/image.err"
		skip "no guest image: tools/guest-image.sh failed (Debian mirror unreachable?)"
	}
	info "guest image $img"
}

# ovs-ofctl on the testbed's bridge.
tb_ofctl() {
	env OVS_RUNDIR="$TB_DIR" OVS_DBDIR="$TB_DIR" OVS_LOGDIR="$TB_DIR" \
		ovs-ofctl "$@"
}

# A trial on the testbed ($TB_TOPO, default its topology.json): JSON to
# $PVP_TMP/$1.json, the table to $1.out.
tb_trial() {
	local name=$1
	shift
	"$PVP_COORD" trial --topology "${TB_TOPO:-$TB_DIR/topology.json}" --json "$PVP_TMP/$name.json" \
		--results "$PVP_TMP/results.jsonl" "$@" >"$PVP_TMP/$name.out" 2>"$PVP_TMP/$name.err" ||
		{ cat "$PVP_TMP/$name.out" "$PVP_TMP/$name.err"; fail "trial $name failed"; }
	cat "$PVP_TMP/$name.out"
}

# Python over the trial JSON `t` (chains: t["chains"]); fail with $3.
tb_trial_assert() {
	local name=$1 expr=$2 what=$3
	"$PVP_PY" - "$PVP_TMP/$name.json" "$expr" <<'PY' || fail "$what"
import json, sys
t = json.load(open(sys.argv[1]))
ch = t["chains"]
def lost(c):
    return c[0]["packets"] - c[-1]["packets"]
ok = eval(sys.argv[2])
if not ok:
    print("# assertion false:", sys.argv[2])
    print("# per chain (tx, rx):", [(c[0]["packets"], c[-1]["packets"]) for c in ch])
    print("# trial:", json.dumps({k: t.get(k) for k in ("tx_packets", "rx_packets", "hop_lost", "unattributed", "reconciled")}))
sys.exit(0 if ok else 1)
PY
}

# A short NDR search through the testbed; every trial must reconcile and
# the search must end with an NDR.
tb_search() {
	"$PVP_COORD" search --topology "${TB_TOPO:-$TB_DIR/topology.json}" --size 64 --flows 4 \
		--max-rate "${1:-20kpps}" --min-rate 1kpps --goal ndr --width 20% \
		--initial-duration 0.25 --final-duration 1 --max-time "${2:-8}" --no-tables \
		--results "$PVP_TMP/search.jsonl" >"$PVP_TMP/search.out" 2>&1 ||
		{ cat "$PVP_TMP/search.out"; fail "search failed"; }
	cat "$PVP_TMP/search.out"
	"$PVP_PY" - "$PVP_TMP/search.jsonl" <<'PY' || fail "search result"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
trials = [r for r in recs if r["type"] == "trial"]
search = [r for r in recs if r["type"] == "search"][-1]
bad = [t for t in trials if sum(t["hop_lost"].values()) + t["unattributed"] != t["tx_packets"] - t["rx_packets"]]
if not trials or bad:
    print("FAIL: no trials, or a trial that does not reconcile"); sys.exit(1)
lo = search["goals"][0]["lower_pps"]
print("# %d trials; NDR lower bound %s pps" % (len(trials), lo))
sys.exit(0 if lo is not None and lo > 0 else 1)
PY
}
