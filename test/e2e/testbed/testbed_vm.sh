#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# testbed up --vm: the guest is a QEMU VM booted from the image of
# tools/guest-image.sh, pvpkit-fwd started in it by systemd on virtio-net
# PCI devices bound to vfio-pci. A trial reconciles with the guest hop's
# counters read from inside the VM over its management network; the guest
# is reached over ssh with the testbed's key; a short search; the VM
# killed during a trial is "hop guest unreachable", never a DUT loss;
# down leaves no QEMU, hugepages, sockets or keys.
#
# Up to ~3 min: it boots a VM (about 10 s with KVM, a minute or more with
# TCG), and on a machine whose image cache ($PVP_GUEST_CACHE, default
# /var/cache/pvpkit/guest) is empty it first builds the image (a few
# minutes, once). $PVP_TEST_VM_ACCEL=tcg forces TCG where KVM works.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/testbed/tb_lib.sh"

tb_need_layout
need_cmd qemu-system-x86_64
need_cmd mmdebstrap
need_cmd mkfs.ext4
need_cmd ssh
need_cmd socat
# 2 MB pages: the tester's 256 MB, OVS's 512 MB and the VM's 1 GB.
need_hugepages 900
tb_guest_image

tb_down_on_exit
hp_free=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
tb_up --vm --vm-accel "${PVP_TEST_VM_ACCEL:-auto}"
cat "$PVP_TMP/up.log"
kind=$(sed -n 's/^VM_KIND=//p' "$TB_DIR/testbed.env")
case "$kind" in vm-kvm | vm-tcg) ;; *) fail "testbed.env: VM_KIND '$kind'" ;; esac
info "guest: $kind"

tb status >"$PVP_TMP/status" || { cat "$PVP_TMP/status"; fail "status after up --vm"; }
cat "$PVP_TMP/status"
grep -q "^fwd: running (pid [0-9]*), control answers$" "$PVP_TMP/status" ||
	fail "status: the guest's control channel"
grep -q "^guests: $kind" "$PVP_TMP/status" || fail "status does not say $kind"
tb_check "$(cat "$TB_DIR/topology.json")" \
	'j["testbed"]["vm"] == "'"$kind"'" and j["hops"][2]["ctl"].startswith("tcp:127.0.0.1:") and "token_file" in j["hops"][2]' \
	"topology: the guest hop over the management network"

info "ssh into the guest with the testbed's key"
gssh() { ssh -F "$TB_DIR/ssh_config" -o BatchMode=yes fwd "$@"; }
out=$(gssh 'systemctl is-active pvpkit-fwd; basename $(readlink /sys/bus/pci/devices/0000:00:10.0/driver); cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages; command -v dpdk-testpmd') ||
	fail "ssh into the guest failed"
echo "$out"
[ "$(echo "$out" | sed -n 1p)" = active ] || fail "pvpkit-fwd.service is not active in the guest"
case "$(echo "$out" | sed -n 2p)" in vfio-pci | uio_pci_generic) ;;
*) fail "the data NIC is not bound to vfio-pci or uio_pci_generic" ;; esac
[ "$(echo "$out" | sed -n 3p)" -ge 128 ] || fail "no hugepages reserved in the guest"
# What ovs_perf starts over ssh (Debian ships it in dpdk-dev).
[ "$(echo "$out" | sed -n 4p)" = /usr/bin/dpdk-testpmd ] || fail "no dpdk-testpmd in the guest"

info "a trial through the VM"
tb_trial vm --size 64 --flows 4 --rate 2kpps --duration 2
tb_trial_assert vm 't["vm"] == "'"$kind"'" and t.get("functional_only", False) == ("'"$kind"'" == "vm-tcg")' \
	"the record does not say the guest's kind"
tb_trial_assert vm 'ch[0][0]["packets"] >= 3900 and lost(ch[0]) == 0 and t["reconciled"]' \
	"loss or no reconciliation at 2 kpps"
# The guest hop's own counters (read from inside the VM by the fwd
# driver) carry every packet: received and sent back.
tb_trial_assert vm '[p["packets"] for p in ch[0] if p["hop"] == "guest"] == [ch[0][0]["packets"]] * 2' \
	"the guest hop's counters do not match what the tester sent"
if [ "$kind" = vm-tcg ]; then
	grep -q "^WARNING: functional only" "$PVP_TMP/vm.out" || fail "the table does not say functional only"
fi

info "a short search through the VM"
tb_search 5kpps 10

# systemd restarts a killed pvpkit-fwd within 2 s (Restart=on-failure),
# in time for the trial's last snapshot: the guest itself dies here.
info "the guest VM killed during a trial"
"$PVP_COORD" trial --topology "$TB_DIR/topology.json" --size 64 --flows 4 --rate 2kpps \
	--duration 5 --results "$PVP_TMP/killed.jsonl" >"$PVP_TMP/killed.out" 2>"$PVP_TMP/killed.err" &
trial_pid=$!
sleep 2
kill -9 "$(cat "$TB_DIR/fwd.pid")" || fail "cannot kill the guest's QEMU"
wait "$trial_pid"
rc=$?
cat "$PVP_TMP/killed.err"
[ "$rc" = 1 ] || fail "trial exit status $rc, want 1"
grep -q "hop guest unreachable" "$PVP_TMP/killed.err" || fail "no 'hop guest unreachable' error"
grep -qi "lost" "$PVP_TMP/killed.out" && fail "a loss table was printed for a failed trial"

info "down"
tb down -q || fail "down failed"
tb_assert_clean
left=$(pgrep -af "qemu-system-x86_64.*$TB_DIR/" || true)
[ -z "$left" ] || fail "QEMU left: $left"
for f in ssh ssh_config fwd.token fwd.conf fwd.bind fwd.qmp; do
	[ ! -e "$TB_DIR/$f" ] || fail "$TB_DIR/$f left"
done
hp_now=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
[ "$hp_now" -ge "$hp_free" ] || fail "hugepages not given back: $hp_now free, $hp_free before up"
info "ok"
