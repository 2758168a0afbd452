#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Sourced by testbed.sh (not run on its own); a script, so that it may be
# installed beside it in LIBEXECDIR/pvpkit, where files are executables.
#
# testbed.sh --vm: each guest is a QEMU VM booted from the image of
# tools/guest-image.sh, pvpkit-fwd (or, --guest testpmd, dpdk-testpmd)
# started in it by systemd on virtio-net PCI devices bound to vfio-pci
# (no-IOMMU). Sourced by testbed.sh; uses its variables (RUNDIR, G_NAME,
# G_PORTS, ...) and helpers (spawn, fail_up).
#
#   OVS dpdkvhostuserclient vhostJ  ->  RUNDIR/vhostJ.sock (QEMU is the
#                                       vhost-user server)
#   virtio-net-pci 0000:00:1K.0         data port K in the guest (pK)
#   virtio-net-pci 0000:00:03.0         management: QEMU user networking,
#                                       127.0.0.1:CTL -> guest :7301 (control,
#                                       token; for testpmd a relay to its
#                                       telemetry socket), 127.0.0.1:SSH ->
#                                       guest :22
#
# The guest's memory is a file on the hugetlbfs, shared with OVS (vhost-user
# maps it); QEMU unlinks it at once, so nothing is left after a kill. What
# belongs to one testbed (token, ssh keys, pvpkit-fwd's options, the data
# NICs) goes to the guest through fw_cfg (tools/guest/pvpkit-guest-setup).
# The guest's systemd starts pvpkit-fwd when it is given a token, testpmd
# and its telemetry relay when it is given testpmd.conf.

VM=0
VM_MEM_MB=1024
# Hugepages (2 MB) the guest reserves on its command line: pvpkit-fwd's,
# or more for what is started over ssh (ovs_perf's testpmd asks for
# --socket-mem 2048).
VM_GUEST_HUGEPAGES=128
VM_BOOT_S=300
VM_ACCEL=auto
VM_CACHE=${PVP_GUEST_CACHE:-/var/cache/pvpkit/guest}
VM_IMG=""
VM_CTL_GUEST_PORT=7301
QEMU_BIN=${PVP_QEMU:-qemu-system-x86_64}
# The guest's management MAC matches tools/guest/mgmt.network.
VM_MGMT_MAC=52:54:00:70:76:01

# Options of --vm; 0 when $1 is one (VM_SHIFT: how many arguments it took).
vm_option() {
	VM_SHIFT=1
	case "$1" in
	--vm) VM=1 ;;
	--vm-mem) need_arg "$@"; VM_MEM_MB=$2; VM_SHIFT=2 ;;
	--vm-hugepages) need_arg "$@"; VM_GUEST_HUGEPAGES=$2; VM_SHIFT=2 ;;
	--vm-boot-wait) need_arg "$@"; VM_BOOT_S=$2; VM_SHIFT=2 ;;
	--vm-accel) need_arg "$@"; VM_ACCEL=$2; VM_SHIFT=2 ;;
	--vm-cache) need_arg "$@"; VM_CACHE=$2; VM_SHIFT=2 ;;
	*) return 1 ;;
	esac
}

vm_usage() {
	cat <<EOF
  --vm                 each guest is a QEMU VM (tools/guest-image.sh builds
                       and caches its image): pvpkit-fwd (or --guest
                       testpmd) on virtio-net PCI devices, reached over
                       the VM's management network
  --vm-accel kvm|tcg|auto  QEMU accelerator (default auto: KVM when
                       /dev/kvm works); a TCG guest's figures are functional
  --vm-mem MB          guest memory, on hugepages (default 1024)
  --vm-hugepages N     2 MB pages the guest reserves at boot (default 128)
  --vm-boot-wait S     bound on a guest's boot (default 300)
  --vm-cache DIR       image cache (default \$PVP_GUEST_CACHE, else
                       /var/cache/pvpkit/guest)
EOF
}

vm_check_options() {
	[ "$VM" = 1 ] || return 0
	is_num "$VM_MEM_MB" || die "--vm-mem: '$VM_MEM_MB' is not a number"
	is_num "$VM_BOOT_S" || die "--vm-boot-wait: '$VM_BOOT_S' is not a number"
	[ "$VM_MEM_MB" -ge 512 ] || die "--vm-mem must be at least 512"
	[ $((VM_MEM_MB % 2)) = 0 ] || die "--vm-mem must be a multiple of 2 (hugepages)"
	is_num "$VM_GUEST_HUGEPAGES" || die "--vm-hugepages: '$VM_GUEST_HUGEPAGES' is not a number"
	[ "$VM_GUEST_HUGEPAGES" -ge 64 ] || die "--vm-hugepages must be at least 64 (pvpkit-fwd's 128 MB)"
	# The guest kernel and its services need about 256 MB beside the pages.
	[ $((VM_GUEST_HUGEPAGES * 2 + 256)) -le "$VM_MEM_MB" ] ||
		die "--vm-hugepages $VM_GUEST_HUGEPAGES (2 MB each) does not fit in --vm-mem $VM_MEM_MB with 256 MB for the guest's kernel"
	case "$VM_ACCEL" in kvm | tcg | auto) ;; *) die "--vm-accel must be kvm, tcg or auto" ;; esac
	[ "$NETNS" = 0 ] || die "--vm cannot be combined with --netns (the VM is the guest's isolation)"
	[ "$STANDIN" = 0 ] || die "--vm needs OVS-DPDK (vhost-user ports), not --standin"
}

# The host ports forwarded to guest g's control channel and ssh: from
# the run dir's checksum, so that two testbeds differ; checked free at up.
vm_ctl_port() { echo $((40000 + (TB_SUM % 2000) * 8 + 2 * $1)); }
vm_ssh_port() { echo $((40000 + (TB_SUM % 2000) * 8 + 2 * $1 + 1)); }

# The accelerator and CPU model QEMU gets ("kvm host", "tcg max"): KVM
# when asked or when the image's kernel starts under it, else TCG. A
# /dev/kvm that opens is not enough: under nested virtualisation the
# host CPU model may offer an MSR the outer hypervisor refuses (QEMU
# aborts: "failed to set MSR 0x10a"; the model without it is tried next),
# and a KVM guest may never get past the kernel's decompressor (seen on
# the CI machines): the kernel must print its banner within 15 s.
vm_choose_accel() {
	local cpu
	if [ "$VM_ACCEL" != tcg ] && [ -w /dev/kvm ]; then
		for cpu in host host,-arch-capabilities; do
			if timeout 15 "$QEMU_BIN" -machine q35 -accel kvm -cpu "$cpu" -m 256 \
				-nodefaults -display none -serial stdio -kernel "$VM_IMG/vmlinuz" \
				-append "console=ttyS0 panic=-1" -no-reboot </dev/null 2>/dev/null |
				grep -q -m1 "Linux version"; then
				echo "kvm $cpu"
				return 0
			fi
		done
	fi
	[ "$VM_ACCEL" != kvm ] || return 1
	echo "tcg max"
}

# Before anything starts: QEMU, the image (built or from the cache), the
# accelerator, free forwarded ports, ssh keys.
vm_prepare() {
	local g p
	command -v "$QEMU_BIN" >/dev/null ||
		die "$QEMU_BIN not found (apt-get install qemu-system-x86)"
	command -v ssh-keygen >/dev/null || die "ssh-keygen not found (apt-get install openssh-client)"
	[ -x "$SRC_DIR/tools/guest-image.sh" ] ||
		die "--vm builds its guest image from pvpkit's source tree: no tools/guest-image.sh in $SRC_DIR"
	VM_IMG=$(PVP_BUILD_DIR=$BUILD_DIR "$SRC_DIR/tools/guest-image.sh" --cache "$VM_CACHE" \
		--fwd-bin "$FWD_BIN" $([ "$QUIET" = 1 ] && echo -q)) ||
		die "no guest image (tools/guest-image.sh --cache $VM_CACHE)"
	VM_QEMU_ACCEL=$(vm_choose_accel) ||
		die "--vm-accel kvm: no KVM guest starts here (/dev/kvm: $([ -w /dev/kvm ] && echo "opens, the kernel does not boot" || echo absent))"
	VM_KIND=vm-${VM_QEMU_ACCEL% *}
	for ((g = 0; g < NG; g++)); do
		for p in $(vm_ctl_port "$g") $(vm_ssh_port "$g"); do
			! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null ||
				die "port 127.0.0.1:$p (guest management) is in use"
		done
	done
}

# Per testbed: the control tokens, the guests' ssh host key and the key
# the testbed logs in with; known_hosts and an ssh config name each guest
# (ssh -F RUNDIR/ssh_config fwd).
vm_keys() {
	local g name
	mkdir -p "$RUNDIR/ssh" && chmod 700 "$RUNDIR/ssh" || fail_up "cannot create $RUNDIR/ssh"
	ssh-keygen -q -t ed25519 -N '' -C "pvpkit-testbed" -f "$RUNDIR/ssh/id_ed25519" &&
		ssh-keygen -q -t ed25519 -N '' -C "pvpkit-guest" -f "$RUNDIR/ssh/host_ed25519" ||
		fail_up "ssh-keygen failed"
	: >"$RUNDIR/ssh/known_hosts"
	: >"$RUNDIR/ssh_config"
	for ((g = 0; g < NG; g++)); do
		name=${G_NAME[g]}
		(umask 077 && head -c 24 /dev/urandom | base64 >"$RUNDIR/$name.token") ||
			fail_up "cannot write $RUNDIR/$name.token"
		echo "[127.0.0.1]:$(vm_ssh_port "$g") $(cut -d' ' -f1,2 "$RUNDIR/ssh/host_ed25519.pub")" \
			>>"$RUNDIR/ssh/known_hosts"
		cat >>"$RUNDIR/ssh_config" <<EOF
Host $name
	HostName 127.0.0.1
	Port $(vm_ssh_port "$g")
	User root
	IdentityFile $RUNDIR/ssh/id_ed25519
	UserKnownHostsFile $RUNDIR/ssh/known_hosts
	StrictHostKeyChecking yes
	IdentitiesOnly yes
	ConnectTimeout 10
EOF
	done
}

# Guest g's pvpkit-fwd.service environment (examples/systemd/pvpkit-fwd.conf).
vm_fwd_conf() {
	# pvpkit-fwd's 256 MB, whatever more the guest reserves for others.
	local g=$1 k eal="-l 0-1 --main-lcore 0 --in-memory -m 256"
	for ((k = 0; k < $(echo ${G_PORTS[g]} | wc -w); k++)); do
		eal="$eal -a 0000:00:$((10 + k)).0"
	done
	cat <<EOF
PVP_FWD_HUGEPAGES=$VM_GUEST_HUGEPAGES
PVP_FWD_BIND=""
PVP_FWD_EAL="$eal"
PVP_FWD_ARGS="--mode $FWD_MODE --topology ${G_TOPO[g]} --ctl tcp:0.0.0.0:$VM_CTL_GUEST_PORT --token-file /etc/pvpkit/token --idle-sleep $IDLE_SLEEP_US $FWD_ARGS"
EOF
}

# Guest g's pvpkit-testpmd.service environment (tools/guest): testpmd as
# the testbed runs it on the host, its telemetry socket where the guest's
# relay (pvpkit-telemetry-relay.service) looks for it. testpmd sizes its
# default mbuf pool for 32 ports (about 370 MB): in the guest's 256 MB it
# would stop at start, so the pool is given its size.
vm_testpmd_conf() {
	local g=$1 k eal="-l 0-1 --main-lcore 0 --in-memory --file-prefix pvpkit-guest -m 256"
	for ((k = 0; k < $(echo ${G_PORTS[g]} | wc -w); k++)); do
		eal="$eal -a 0000:00:$((10 + k)).0"
	done
	cat <<EOF
PVP_TESTPMD_EAL="$eal"
PVP_TESTPMD_ARGS="--forward-mode=$FWD_MODE --nb-cores=1 --auto-start --stats-period 10 --total-num-mbufs 16384"
EOF
}

# Does guest g's app answer: pvpkit-fwd a ping with the token, testpmd
# (through the guest's relay) with its port in /ethdev/list. A forwarded
# port accepts connections before the guest listens, so a connect says
# nothing; nor does testpmd's greeting, sent before its ports are probed
# (until then OVS may still see the link the guest kernel's virtio-net
# driver brought up at boot).
vm_app_answers() {
	local g=$1
	if [ "$GUEST" = testpmd ]; then
		(printf /ethdev/list && sleep 1) |
			timeout 3 socat -T 1 - "TCP:127.0.0.1:$(vm_ctl_port "$g")" 2>/dev/null |
			grep -q '"/ethdev/list": *\[0'
	else
		ctl_ping "tcp:127.0.0.1:$(vm_ctl_port "$g")" "$RUNDIR/${G_NAME[g]}.token"
	fi
}

# Guest g: QEMU, its console and its own messages in RUNDIR/NAME.log.
vm_start_guest() {
	local g=$1 name=${G_NAME[g]} k=0 p devs=() app accel cpu bind="" msix=""
	read -r accel cpu <<<"$VM_QEMU_ACCEL"
	# QEMU 7.2 under TCG crashes (SIGSEGV in vhost_net_start, setting
	# the MSI-X vector notifiers) when the guest starts a vhost-user
	# virtio-net device with MSI-X: those get INTx (DPDK's virtio PMD on
	# uio_pci_generic uses no interrupts anyway).
	[ "$accel" = kvm ] || msix=",vectors=0"
	for p in ${G_PORTS[g]}; do
		devs+=(-chardev "socket,id=vu$k,path=$RUNDIR/$p.sock,server=on,wait=off"
			-netdev "vhost-user,id=data$k,chardev=vu$k"
			-device "virtio-net-pci,netdev=data$k,mac=52:54:00:70:76:1$k,addr=0x1$k$msix")
		bind="$bind 0000:00:1$k.0"
		k=$((k + 1))
	done
	# The app the guest starts: pvpkit-fwd with its token, or testpmd.
	if [ "$GUEST" = testpmd ]; then
		vm_testpmd_conf "$g" >"$RUNDIR/$name.conf"
		app=(-fw_cfg "name=opt/pvpkit/testpmd.conf,file=$RUNDIR/$name.conf")
	else
		vm_fwd_conf "$g" >"$RUNDIR/$name.conf"
		app=(-fw_cfg "name=opt/pvpkit/token,file=$RUNDIR/$name.token"
			-fw_cfg "name=opt/pvpkit/fwd.conf,file=$RUNDIR/$name.conf")
	fi
	echo "${bind# }" >"$RUNDIR/$name.bind"
	cat "$RUNDIR/ssh/id_ed25519.pub" >"$RUNDIR/$name.authorized_keys"
	: >"$RUNDIR/$name.log"
	# QEMU's own messages and the serial console in one log, so that
	# an error shows the end of the boot.
	spawn "$name" "$RUNDIR/$name.log" "$QEMU_BIN" -name "pvpkit-$name,debug-threads=on" \
		-nodefaults -no-user-config -display none \
		-machine "q35,accel=$accel" -cpu "$cpu" -smp 2 -m "$VM_MEM_MB" \
		-object "memory-backend-file,id=mem0,size=${VM_MEM_MB}M,mem-path=/dev/hugepages,share=on" \
		-numa node,memdev=mem0 \
		-kernel "$VM_IMG/vmlinuz" -initrd "$VM_IMG/initrd.img" \
		-append "console=ttyS0 root=/dev/vda rw hugepagesz=2M hugepages=$VM_GUEST_HUGEPAGES vfio.enable_unsafe_noiommu_mode=1 systemd.show_status=false" \
		-drive "file=$VM_IMG/rootfs.img,if=virtio,format=raw,snapshot=on" \
		-chardev "file,id=con,path=$RUNDIR/$name.log,append=on" -serial chardev:con \
		-qmp "unix:$RUNDIR/$name.qmp,server=on,wait=off" \
		-netdev "user,id=mgmt,net=10.0.2.0/24,hostfwd=tcp:127.0.0.1:$(vm_ctl_port "$g")-:$VM_CTL_GUEST_PORT,hostfwd=tcp:127.0.0.1:$(vm_ssh_port "$g")-:22" \
		-device "virtio-net-pci,netdev=mgmt,mac=$VM_MGMT_MAC,addr=0x3" \
		"${devs[@]}" \
		"${app[@]}" \
		-fw_cfg "name=opt/pvpkit/bind,file=$RUNDIR/$name.bind" \
		-fw_cfg "name=opt/pvpkit/authorized_keys,file=$RUNDIR/$name.authorized_keys" \
		-fw_cfg "name=opt/pvpkit/ssh_host_ed25519_key,file=$RUNDIR/ssh/host_ed25519"
	VM_T0[g]=$SECONDS
}

# Wait until guest g's app answers. Fails with the end of the console log.
vm_wait_ready() {
	local g=$1 name=${G_NAME[g]} i
	WATCH_PID=$(pidfile_pid "$RUNDIR/$name.pid") WATCH_NAME="QEMU ($name)"
	WATCH_LOG=$RUNDIR/$name.log
	for ((i = 0; i < VM_BOOT_S * 2; i++)); do
		vm_app_answers "$g" && {
			VM_BOOT[g]=$((SECONDS - VM_T0[g]))
			return 0
		}
		pid_alive "$WATCH_PID" || fail_up "guest $name: QEMU exited (console and QEMU log: $WATCH_LOG)"
		sleep 0.5
	done
	echo "$PROG: error: guest $name ($VM_KIND) did not boot in ${VM_BOOT_S} s (--vm-boot-wait): $([ "$GUEST" = testpmd ] && echo "testpmd's telemetry relay" || echo pvpkit-fwd) does not answer on 127.0.0.1:$(vm_ctl_port "$g"); the console's last lines ($WATCH_LOG):" >&2
	tail -n 20 "$WATCH_LOG" | sed 's/^/    /' >&2
	WATCH_LOG=""
	QUIET=1 do_down
	exit 1
}

# The guests' boot times, for the up line.
vm_words() {
	local g t=""
	[ "$VM" = 1 ] || return 0
	for ((g = 0; g < NG; g++)); do t="$t ${VM_BOOT[g]:-?}"; done
	printf '; %s, booted in %s s' "$VM_KIND" "$(echo $t | sed 's/ / s, /g')"
}

# Ask each guest to power off (ACPI, over QMP), so that its systemd stops
# pvpkit-fwd cleanly; give it a few seconds, then down kills what is left.
vm_down() {
	local f pids="" p i
	for f in "$RUNDIR"/*.qmp; do
		[ -S "$f" ] || continue
		p=$(pidfile_pid "${f%.qmp}.pid") || continue
		pid_alive "$p" || continue
		printf '%s\n' '{"execute":"qmp_capabilities"}' '{"execute":"system_powerdown"}' |
			timeout 3 socat - "UNIX-CONNECT:$f" >/dev/null 2>&1
		pids="$pids $p"
	done
	[ -n "$pids" ] || return 0
	for ((i = 0; i < 50; i++)); do
		local left=""
		for p in $pids; do pid_alive "$p" && left="$left $p"; done
		[ -z "$left" ] && return 0
		sleep 0.2
	done
}
