#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# testbed up --vm with the other layouts and guests. $1:
#   guests2   --guests 2: PVVP through two VMs
#   chains2   --chains 2: two chains, a VM each
#   testpmd   --guest testpmd: dpdk-testpmd in the VM, its counters read
#             by the telemetry driver through the guest's relay
# Each: up, status, a trial at a rate a TCG guest forwards that
# reconciles with every guest hop's counters read from inside the VMs,
# and a down that leaves no QEMU, hugepage file, socket or key.
#
# Up to ~3 min each: the VMs boot at once (about a minute each under TCG
# on an idle machine, longer with two); on a machine whose image cache is
# empty the first of the --vm tests builds the image (a few minutes,
# once, shared by all of them).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/testbed/tb_lib.sh"

case "${1:-}" in
guests2) args=(--guests 2) vms=2 ;;
chains2) args=(--chains 2) vms=2 ;;
testpmd) args=(--guest testpmd) vms=1 ;;
*) fail "usage: $0 guests2|chains2|testpmd" ;;
esac
tb_need_layout
for c in qemu-system-x86_64 mmdebstrap mkfs.ext4 ssh socat; do
	need_cmd "$c"
done
# 2 MB pages: the tester's 256 MB, OVS's 512 MB and 1 GB per VM.
need_hugepages $((400 + 512 * vms))
tb_guest_image

tb_down_on_exit
hp_free=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
t0=$SECONDS
tb_up --vm --vm-accel "${PVP_TEST_VM_ACCEL:-auto}" "${args[@]}"
cat "$PVP_TMP/up.log"
info "up in $((SECONDS - t0)) s"
kind=$(sed -n 's/^VM_KIND=//p' "$TB_DIR/testbed.env")
tb status >"$PVP_TMP/status" || { cat "$PVP_TMP/status"; fail "status after up --vm ${args[*]}"; }
cat "$PVP_TMP/status"
[ "$(pgrep -fc "qemu-system-x86_64.*$TB_DIR/")" = "$vms" ] || fail "not $vms QEMU processes"
topo=$(cat "$TB_DIR/topology.json")
guests=$("$PVP_PY" -c 'import json, sys
print(" ".join(h["name"] for h in json.load(open(sys.argv[1]))["hops"] if h["name"].startswith("guest")))' \
	"$TB_DIR/topology.json")
info "guest hops: $guests"
[ "$(echo $guests | wc -w)" = "$vms" ] || fail "not $vms guest hops in the topology"
if [ "$1" = testpmd ]; then
	tb_check "$topo" 'j["hops"][2]["driver"] == "telemetry" and j["hops"][2]["telemetry"].startswith("tcp:127.0.0.1:")' \
		"the guest hop is not testpmd's telemetry over the management network"
	out=$(ssh -F "$TB_DIR/ssh_config" -o BatchMode=yes fwd \
		'systemctl is-active pvpkit-testpmd pvpkit-telemetry-relay pvpkit-fwd') || true
	echo "$out"
	[ "$(echo $out)" = "active active inactive" ] || fail "testpmd and its relay, not pvpkit-fwd, run in the guest"
fi

info "a trial through the VMs"
tb_trial vm --size 64 --flows 4 --rate 2kpps --duration 2
tb_trial_assert vm 't["vm"] == "'"$kind"'" and t["reconciled"] and all(c[0]["packets"] >= 3900 and lost(c) == 0 for c in ch)' \
	"loss or no reconciliation at 2 kpps"
# Every guest hop's own counters, read from inside its VM, carry every
# packet of its chain: received and sent back.
tb_trial_assert vm 'all(p["packets"] == c[0]["packets"] for c in ch for p in c if p["hop"].startswith("guest")) and sum(1 for c in ch for p in c if p["hop"].startswith("guest")) == 2 * '"$vms" \
	"a guest hop's counters do not match what the tester sent"

info "down"
tb down -q || fail "down failed"
tb_assert_clean
left=$(pgrep -af "qemu-system-x86_64.*$TB_DIR/" || true)
[ -z "$left" ] || fail "QEMU left: $left"
for f in ssh ssh_config "$TB_DIR"/*.token "$TB_DIR"/*.conf "$TB_DIR"/*.bind "$TB_DIR"/*.qmp; do
	[ ! -e "$TB_DIR/${f##*/}" ] || fail "$TB_DIR/${f##*/} left"
done
hp_now=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
[ "$hp_now" -ge "$hp_free" ] || fail "hugepages not given back: $hp_now free, $hp_free before up"
info "ok"
