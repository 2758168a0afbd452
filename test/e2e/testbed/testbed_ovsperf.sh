#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# ovs_perf's PVP test (github chaudron/ovs_perf, unmodified, with
# fleitner/XenaPythonLib that it imports at start) with --tester-type trex
# against pvpkit-gen --trex, through the testbed's OVS and a QEMU guest
# (testbed up --vm). ovs_perf does what it does on a lab: it logs into the
# DUT over ssh (spur) to program OVS and read its counters, and from there
# into the VM (sshpass ssh) to start testpmd on the virtio-net PCI address.
# The test checks that the run completes, that its tester and OVS counters
# add up and that testpmd in the VM forwarded.
#
# ovs_perf reaches the DUT on port 22 and the VM by name with root's ssh
# configuration, and keeps files in /var/tmp: the test runs in network and
# mount namespaces of its own, with an sshd on 127.0.0.1:22 that sets
# OVS_RUNDIR for its sessions, and a home and /var/tmp of its own (nothing
# of the machine's is read or written).
#
# Needs PVP_OVS_PERF (an ovs_perf checkout), PVP_TREX_CORE (trex-core, for
# the TRex Python client and its scapy) and XenaPythonLib in PVP_XENALIB
# (default: beside the ovs_perf checkout); Debian's python3-spur,
# -natsort, -matplotlib, -numpy, -netaddr, -packaging, -zmq, -yaml,
# -texttable, python-is-python3, sshpass, sysstat and openssh-server. Up to ~3 min: it boots
# a VM (about a minute under TCG) and ovs_perf's shortest run is 20 s; on a
# machine whose guest image cache is empty the image is built first (a
# few minutes, once, shared with the other --vm tests).
if [ -z "${PVP_OVS_PERF:-}" ] || [ -z "${PVP_TREX_CORE:-}" ]; then
	echo "SKIP: no ovs_perf checkout (set PVP_OVS_PERF to chaudron/ovs_perf and PVP_TREX_CORE to trex-core)"
	exit 77
fi
if [ -z "${PVP_OVSPERF_NS:-}" ]; then
	command -v unshare >/dev/null || { echo "SKIP: needs unshare"; exit 77; }
	PVP_OVSPERF_NS=1 exec unshare --net --mount -- /bin/bash "$0" "$@"
fi
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/testbed/tb_lib.sh"

OVS_PERF=$PVP_OVS_PERF
XENA=${PVP_XENALIB:-$(dirname "$OVS_PERF")/XenaPythonLib}
TREX_PY=$PVP_TREX_CORE/scripts/automation/trex_control_plane/interactive
TREX_EXT=$PVP_TREX_CORE/scripts/external_libs
[ -r "$OVS_PERF/ovs_performance.py" ] || skip "no ovs_performance.py in $OVS_PERF"
[ -d "$XENA/xenalib" ] || skip "no XenaPythonLib in $XENA (PVP_XENALIB): ovs_perf imports xenalib at start"
[ -d "$TREX_PY/trex" ] && [ -d "$TREX_EXT/scapy-2.4.3" ] ||
	skip "no TRex Python client or its scapy 2.4.3 in $PVP_TREX_CORE"
tb_need_layout
for c in qemu-system-x86_64 mmdebstrap mkfs.ext4 ssh ssh-keygen socat sshpass pidstat ip; do
	need_cmd "$c"
done
[ -x /usr/sbin/sshd ] || skip "needs /usr/sbin/sshd (apt-get install openssh-server)"
# ovs_perf makes its OpenFlow rules with "python -c" on the DUT.
[ -x /usr/bin/python ] || skip "needs /usr/bin/python on the DUT (apt-get install python-is-python3)"
for m in spur natsort matplotlib numpy netaddr packaging zmq yaml texttable; do
	"$PVP_PY" -c "import $m" 2>/dev/null || skip "needs Debian's python3-$m"
done
ldd "$PVP_GEN" | grep -q libzmq || skip "pvpkit-gen built without --trex (no libzmq at build time)"
# 2 MB pages: the tester's 256 MB, OVS's 512 MB and the VM's 2560 MB: 1664 in all
# (ovs_perf's testpmd takes --socket-mem 2048 in it).
need_hugepages 1664
tb_guest_image

ip link set lo up || fail "ip link set lo up"
# root's home (its ~/.ssh: the key spur logs in with, the config that
# names the VM) and ovs_perf's /var/tmp, in this mount namespace only.
RHOME=$(getent passwd root | cut -d: -f6)
mkdir -p "$PVP_TMP/home/.ssh" "$PVP_TMP/vartmp" /run/sshd
mount --bind "$PVP_TMP/home" "$RHOME" && mount --bind "$PVP_TMP/vartmp" /var/tmp ||
	fail "cannot bind a home and /var/tmp of the test's own"
D=$PVP_TMP/sshd
mkdir -p "$D"
ssh-keygen -q -t ed25519 -N '' -f "$D/host_key" &&
	ssh-keygen -q -t ed25519 -N '' -f "$RHOME/.ssh/id_ed25519" || fail "ssh-keygen"
cp "$RHOME/.ssh/id_ed25519.pub" "$D/authorized_keys"
cat >"$D/sshd_config" <<EOC
Port 22
ListenAddress 127.0.0.1
HostKey $D/host_key
PidFile $D/sshd.pid
AuthorizedKeysFile $D/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
SetEnv OVS_RUNDIR=$TB_DIR OVS_DBDIR=$TB_DIR OVS_LOGDIR=$TB_DIR
EOC
/usr/sbin/sshd -D -e -f "$D/sshd_config" 2>"$D/sshd.log" &
pvp_track $!
# The VM by its testbed name (fwd), as ovs_perf's ssh on the DUT finds it.
echo "Include $TB_DIR/ssh_config" >"$RHOME/.ssh/config"

tb_down_on_exit
tb_up --vm --vm-accel "${PVP_TEST_VM_ACCEL:-auto}" --vm-mem 2560 --vm-hugepages 1088
cat "$PVP_TMP/up.log"
for _ in $(seq 50); do
	ssh -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
		root@127.0.0.1 true 2>/dev/null && break
	sleep 0.2
done

# The testbed's tester swapped for pvpkit-gen in TRex mode on the same
# vhost-user socket (OVS's dpdkvhostuserclient reconnects); --speed 5
# (Mbit/s, 7.4 kpps at 64 B) is ovs_perf's 100 %, a rate a TCG guest
# forwards.
kill "$(cat "$TB_DIR/gen.pid")" || fail "cannot stop the testbed's tester"
"$PVP_GEN" -l 0,1 --main-lcore 1 --in-memory --no-pci --single-file-segments \
	--file-prefix="$TB_ID-trex" -m 256 --log-level=lib.eal:error \
	--vdev "net_virtio_user0,path=$TB_DIR/phy0.sock,server=1,queues=1,queue_size=1024" -- \
	--trex --speed 5 --tx-full drop --catchup-us 10000 --idle-sleep 50 \
	>"$PVP_TMP/trex.log" 2>&1 &
pvp_track $!
for _ in $(seq 100); do
	grep -q "TRex stateless server" "$PVP_TMP/trex.log" &&
		[ "$(env OVS_RUNDIR="$TB_DIR" ovs-vsctl get Interface phy0 link_state)" = up ] && break
	sleep 0.2
done
grep -q "TRex stateless server" "$PVP_TMP/trex.log" || { cat "$PVP_TMP/trex.log"; fail "no TRex server"; }

# ovs_perf's ovs-appctl names no target: it finds ovs-vswitchd by its pid
# file, at OVS_RUNDIR/ovs-vswitchd.PID.ctl; the testbed gave it another
# control socket name.
ln -s ovs-vswitchd.ctl "$TB_DIR/ovs-vswitchd.$(cat "$TB_DIR/ovs-vswitchd.pid").ctl" ||
	fail "cannot link ovs-vswitchd's control socket"

# The data NIC is ovs_perf's: the testbed's pvpkit-fwd steps aside.
ssh -F "$TB_DIR/ssh_config" -o BatchMode=yes fwd systemctl stop pvpkit-fwd ||
	fail "cannot stop pvpkit-fwd in the guest"

# ovs_perf as fetched, in a folder of the test's: it points
# TREX_EXT_LIBS at its own trex/external_libs, which holds trex-core's
# scapy and simpy and empty folders for what Debian provides.
mkdir -p "$PVP_TMP/ovs_perf/trex/external_libs" "$PVP_TMP/run"
cp "$OVS_PERF"/*.py "$PVP_TMP/ovs_perf/" || fail "cannot copy ovs_perf"
E=$PVP_TMP/ovs_perf/trex/external_libs
ln -s "$TREX_EXT/scapy-2.4.3" "$TREX_EXT/simpy-3.0.10" "$E/"
mkdir -p "$E/texttable-0.8.4" "$E/pyyaml-3.11/python3" "$E/pyzmq-ctypes" "$E/trex-openssl" \
	"$E/dpkt-1.9.1" "$E/repoze"

info "ovs_perf PVP, --tester-type trex"
(cd "$PVP_TMP/run" && PYTHONPATH=$TREX_PY:$XENA timeout 300 "$PVP_PY" "$PVP_TMP/ovs_perf/ovs_performance.py" \
	--tester-type trex --tester-address 127.0.0.1 --tester-interface 0 \
	--ovs-address 127.0.0.1 --ovs-user root --ovs-password unused \
	--dut-vm-address fwd --dut-vm-user root --dut-vm-password unused \
	--dut-vm-nic-pci 0000:00:10.0 --testpmd-startup-delay 30 \
	--bridge-name br-pvp --no-bridge-config --physical-interface phy0 \
	--virtual-interface vhost0 --physical-speed 10 \
	--skip-pv-test --packet-list 64 --stream-list 10 --run-time 20) \
	>"$PVP_TMP/ovs_perf.out" 2>&1
rc=$?
cat "$PVP_TMP/ovs_perf.out"
[ "$rc" = 0 ] || { tail -n 20 "$D/sshd.log"; fail "ovs_performance.py exit status $rc"; }
"$PVP_PY" - "$PVP_TMP/ovs_perf.out" <<'PY' || fail "ovs_perf's counters"
import re, sys
out = open(sys.argv[1]).read()
def n(what):
    m = re.search(r"- Packets %s\s*:\s*([\d,]+)" % what, out)
    assert m, "no '%s' line" % what
    return int(m.group(1).replace(",", ""))
sent, rx_phy, rx_virt = n("send by Tester"), n("received by physical"), n("received by virtual")
tx_virt, tx_phy, rx = n("send by virtual"), n("send by physical"), n("received by Tester")
# The mean of testpmd's Rx-pps samples, which ovs_perf prints as a float.
vm = float(re.search(r"Receive rate on VM: ([\d,.]+) pps", out).group(1).replace(",", ""))
print("# tester %d -> phy0 %d -> vhost0 %d -> VM -> vhost0 %d -> phy0 %d -> tester %d; VM %.0f pps"
      % (sent, rx_phy, rx_virt, tx_virt, tx_phy, rx, vm))
# 20 s at 7.4 kpps; OVS sees every packet the tester sent, and what the
# VM sends back reaches the tester (a TCG guest drops some itself, and
# more while a loaded machine holds its vCPU back).
ok = sent > 100000 and rx_phy == sent and rx_virt <= rx_phy and tx_phy == tx_virt \
    and rx == tx_phy and rx > 0.5 * sent and vm > 0
sys.exit(0 if ok else 1)
PY
ls "$PVP_TMP/run"/test_results_l3.csv >/dev/null || fail "no test_results_l3.csv"

info "down"
rm -f "$TB_DIR"/ovs-vswitchd.*[0-9].ctl
tb down -q || fail "down failed"
tb_assert_clean
info "ok"
