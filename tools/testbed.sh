#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The local PVP testbed: the whole Physical -> Virtual -> Physical path on
# one machine with no NIC.
#
#   tester (pvpkit-gen, virtio-user server)  --phy0.sock-->  OVS-DPDK br-pvp
#   guest  (pvpkit-fwd, virtio-user server)  <-vhost0.sock-  (dpdkvhostuserclient)
#
# Layouts: the one-port PVP above (default); --ports 2, the bidirectional
# PVP through two tester ports and a paired guest; --guests N, N guests in
# series (PVVP for 2); --chains N, N parallel one-guest PVP chains.
#
# Everything lives in a private run dir (default /run/pvpkit/testbed): the
# OVS database, its sockets, logs, pid files and topology.json, which the
# coordinator reads. The system's Open vSwitch service is never touched.
# Without OVS-DPDK (or with --standin) a second pvpkit-fwd in io/paired mode
# on two net_vhost ports stands in as the vswitch.
#
# See doc/testbed.rst. Exit status: 0 ok; 1 error; status: 1 degraded,
# 3 not running.

set -u

PROG=${0##*/}
SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)

OVS_VSWITCHD=/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk
OVS_SCHEMA=/usr/share/openvswitch/vswitch.ovsschema
BRIDGE=br-pvp
# Bounds of the layouts: every guest and tester port is one more poller
# and 256 MB of hugepages.
MAX_GUESTS=4
MAX_CHAINS=4

# Options and their defaults.
RUNDIR=/run/pvpkit/testbed
BUILD_DIR=${PVP_BUILD_DIR:-}
BIN_DIR=${PVP_BIN_DIR:-}
STANDIN=0
TESTER=gen
GUEST=fwd
FWD_MODE=macswap
FWD_MODE_ASKED=0
PMD_SLEEP_US=50
IDLE_SLEEP_US=50
GEN_ARGS=""
FWD_ARGS=""
TX_FIRST=0
MEM_MB=256
OVS_SOCKET_MEM=512
WAIT_S=30
NPORTS=1
NGUESTS=1
NCHAINS=1
PMDS=""
PMDS_ASKED=""
CPUS=""
NETNS=0

die() { echo "$PROG: error: $*" >&2; exit 1; }
say() { [ "$QUIET" = 1 ] || echo "$PROG: $*"; }
QUIET=0

# --vm: the guests as QEMU VMs. Beside this script in the source tree
# (tools/) and where it is installed (LIBEXECDIR/pvpkit).
# shellcheck source=tools/testbed-vm.sh
. "$(dirname "$0")/testbed-vm.sh"
# --flow-type l3-routed: OVS as a router. Beside this script, as the above.
# shellcheck source=tools/testbed-l3.sh
. "$(dirname "$0")/testbed-l3.sh"

usage() {
	cat <<EOF
usage: $PROG up|down|status|plan [options]
  --dir RUNDIR         run dir (default /run/pvpkit/testbed)
  --build-dir DIR      pvpkit build dir (default \$PVP_BUILD_DIR, else
                       $SRC_DIR/build; an installed pvpkit sets
                       \$PVP_BIN_DIR instead: the apps are taken from there)
  --ports 1|2          tester ports: 2 = bidirectional PVP through a paired
                       guest (default 1)
  --guests N           guests in series, each paired (2 = PVVP; default 1)
  --chains N           N parallel PVP chains, one tester port and one guest
                       each (default 1)
  --cpus LIST          CPUs for the pollers (e.g. 2-9,12; default: all
                       online); too few for one each: shared, and said so
  --pmds N             OVS PMD threads (default: the number of chains)
  --netns              tester and guests each in a network namespace of
                       their own, controlled over TCP with a token, OVSDB
                       over TCP: the multi-host path on one box
  --standin            pvpkit-fwd (io, paired) as the vswitch, not OVS-DPDK
                       (automatic when OVS-DPDK is not installed)
  --tester gen|testpmd traffic source: pvpkit-gen (default) or dpdk-testpmd
  --guest fwd|testpmd  guest forwarder: pvpkit-fwd (default) or dpdk-testpmd
  --fwd-mode MODE      guest forwarding mode (default macswap)
  --pmd-sleep-us N     OVS pmd-maxsleep and the apps' idle sleep in us
                       (default 50; 0 = busy polling, for benchmarks)
  --gen-args "ARGS"    extra pvpkit-gen arguments (after the EAL's --)
  --fwd-args "ARGS"    extra pvpkit-fwd arguments (guests)
  --tx-first N         testpmd tester only: send one burst of N (<= 512)
                       packets when it starts, then only receive
  --mem MB             EAL memory per app (default 256)
  --wait S             bound on each wait for a port or socket (default 30)
  -q, --quiet          print errors only
$(vm_usage)
$(l3_usage)
plan prints the layout and the cores up would use, and starts nothing.
EOF
}

[ $# -ge 1 ] || { usage >&2; exit 1; }
ACTION=$1
shift
case "$ACTION" in
up | down | status | plan) ;;
-h | --help) usage; exit 0 ;;
*) usage >&2; exit 1 ;;
esac

need_arg() { [ $# -ge 2 ] || die "$1 needs a value"; }
while [ $# -gt 0 ]; do
	case "$1" in
	--dir) need_arg "$@"; RUNDIR=$2; shift ;;
	--build-dir) need_arg "$@"; BUILD_DIR=$2; shift ;;
	--ports) need_arg "$@"; NPORTS=$2; shift ;;
	--guests) need_arg "$@"; NGUESTS=$2; shift ;;
	--chains) need_arg "$@"; NCHAINS=$2; shift ;;
	--cpus) need_arg "$@"; CPUS=$2; shift ;;
	--pmds) need_arg "$@"; PMDS=$2; PMDS_ASKED=1; shift ;;
	--standin) STANDIN=1 ;;
	--netns) NETNS=1 ;;
	--tester) need_arg "$@"; TESTER=$2; shift ;;
	--guest) need_arg "$@"; GUEST=$2; shift ;;
	--fwd-mode) need_arg "$@"; FWD_MODE=$2; FWD_MODE_ASKED=1; shift ;;
	--flow-type) need_arg "$@"; FLOW_TYPE=$2; shift ;;
	--pmd-sleep-us) need_arg "$@"; PMD_SLEEP_US=$2; IDLE_SLEEP_US=$2; shift ;;
	--gen-args) need_arg "$@"; GEN_ARGS=$2; shift ;;
	--fwd-args) need_arg "$@"; FWD_ARGS=$2; shift ;;
	--tx-first) need_arg "$@"; TX_FIRST=$2; shift ;;
	--mem) need_arg "$@"; MEM_MB=$2; shift ;;
	--wait) need_arg "$@"; WAIT_S=$2; shift ;;
	-q | --quiet) QUIET=1 ;;
	-h | --help) usage; exit 0 ;;
	*)
		vm_option "$@" || { usage >&2; die "unknown option '$1'"; }
		shift $((VM_SHIFT - 1))
		;;
	esac
	shift
done

case "$TESTER" in gen | testpmd) ;; *) die "--tester must be gen or testpmd" ;; esac
case "$GUEST" in fwd | testpmd) ;; *) die "--guest must be fwd or testpmd" ;; esac
# A number: digits only, no leading zero (010 is not read as 8 or 10).
is_num() { case "$1" in 0 | [1-9] | [1-9]*[0-9]) case "$1" in *[!0-9]*) return 1 ;; esac ;; *) return 1 ;; esac; }
for o in "--pmd-sleep-us:$PMD_SLEEP_US" "--tx-first:$TX_FIRST" "--mem:$MEM_MB" \
	"--wait:$WAIT_S" "--ports:$NPORTS" "--guests:$NGUESTS" "--chains:$NCHAINS" \
	"--pmds:${PMDS:-1}"; do
	is_num "${o#*:}" || die "${o%%:*}: '${o#*:}' is not a number"
done
[ "$TX_FIRST" -le 512 ] || die "--tx-first must be <= 512"
[ "$TX_FIRST" = 0 ] || [ "$TESTER" = testpmd ] || die "--tx-first needs --tester testpmd"
case "$FWD_MODE" in *[!a-z0-9_-]* | '') die "bad --fwd-mode '$FWD_MODE'" ;; esac
case "$NPORTS" in 1 | 2) ;; *) die "--ports must be 1 or 2" ;; esac
[ "$NGUESTS" -ge 1 ] && [ "$NGUESTS" -le $MAX_GUESTS ] || die "--guests must be 1..$MAX_GUESTS"
[ "$NCHAINS" -ge 1 ] && [ "$NCHAINS" -le $MAX_CHAINS ] || die "--chains must be 1..$MAX_CHAINS"
[ "$NCHAINS" = 1 ] || { [ "$NPORTS" = 1 ] && [ "$NGUESTS" = 1 ]; } ||
	die "--chains cannot be combined with --ports 2 or --guests"
[ -z "$PMDS" ] || [ "$PMDS" -ge 1 ] || die "--pmds must be at least 1"
[ "$MEM_MB" -ge 64 ] || die "--mem must be at least 64"
[ "$NETNS" = 0 ] || { [ "$TESTER" = gen ] && [ "$GUEST" = fwd ] && [ "$STANDIN" = 0 ]; } ||
	die "--netns needs pvpkit-gen, pvpkit-fwd and OVS-DPDK"
vm_check_options
l3_check_options

# Unix socket paths must fit sun_path (108 bytes with the NUL).
case "$RUNDIR" in /*) ;; *) RUNDIR=$(pwd)/$RUNDIR ;; esac
RUNDIR=${RUNDIR%/}
[ ${#RUNDIR} -le 80 ] || die "--dir '$RUNDIR' is too long for unix sockets (80 characters at most)"

if [ -n "$BIN_DIR" ] && [ -z "$BUILD_DIR" ]; then
	# Installed (pvpkit testbed from a prefix): the apps next to pvpkit.
	GEN_BIN=$BIN_DIR/pvpkit-gen
	FWD_BIN=$BIN_DIR/pvpkit-fwd
	BUILD_HINT="not installed next to pvpkit (meson install)"
else
	[ -n "$BUILD_DIR" ] || BUILD_DIR=$SRC_DIR/build
	GEN_BIN=$BUILD_DIR/app/gen/pvpkit-gen
	FWD_BIN=$BUILD_DIR/app/fwd/pvpkit-fwd
	BUILD_HINT="not built (meson setup $BUILD_DIR && ninja -C $BUILD_DIR)"
fi
TESTPMD_BIN=$(command -v dpdk-testpmd 2>/dev/null || echo /usr/bin/dpdk-testpmd)

# DPDK file prefixes derived from the run dir, so two testbeds in two run
# dirs never share hugepage files or telemetry sockets.
TB_ID=pvptb$(printf '%s' "$RUNDIR" | cksum | cut -d' ' -f1)
PFX_GEN=$TB_ID-gen
PFX_VSW=$TB_ID-vsw
PFX_OVS=$TB_ID-ovs
DPDK_RUNTIME=/var/run/dpdk
# --netns: namespace NS_PFX-NAME per app, a veth pair to it from here,
# 10.NET.K.1/30 on this side, .2 in the namespace (K: 0 the tester, g+1
# guest g); the control port inside; OVSDB on loopback TCP. NET is
# proposed by the run dir's checksum and taken only when free
# (netns_choose); up records it in testbed.env.
TB_SUM=$(printf '%s' "$RUNDIR" | cksum | cut -d' ' -f1)
NS_PFX=$TB_ID
NS_NET_MIN=20
NS_NET_COUNT=200
NS_NET=$((TB_SUM % NS_NET_COUNT + NS_NET_MIN))
# Held while a testbed chooses its NET and creates the addresses that
# show the choice to others.
NETNS_LOCK=${PVP_TESTBED_LOCK:-/run/lock/pvpkit-testbed-netns.lock}
VETH_PFX=pv$((TB_SUM % 100000))
CTL_PORT=7001
DB_PORT=$((16000 + TB_SUM % 20000))

OVS_ENV=(env OVS_RUNDIR="$RUNDIR" OVS_DBDIR="$RUNDIR" OVS_LOGDIR="$RUNDIR"
	OVS_SYSCONFDIR="$RUNDIR" OVS_PKGDATADIR=/usr/share/openvswitch)
VSCTL=("${OVS_ENV[@]}" ovs-vsctl --db="unix:$RUNDIR/db.sock" --timeout=10)
OFCTL=("${OVS_ENV[@]}" ovs-ofctl)

# --- layout ------------------------------------------------------------------
#
# The layout is computed from the options alone, so that "plan" can show
# it and "status" can recompute it from testbed.env:
#   TPORTS[k]   OVS port of tester port k (phyK; its socket phyK.sock)
#   G_NAME[g]   guest g's pid/log/socket name (fwd, or fwd1..fwdN)
#   G_HOP[g]    its hop name in the topology (guest, or guest1..guestN)
#   G_PORTS[g]  its OVS ports, in its port order (vhostJ; socket vhostJ.sock)
#   G_TOPO[g]   its pvpkit-fwd topology (loop: one port; paired: two)
#   FLOWS       "IN OUT" OVS port pairs, one OpenFlow rule each
#   OFPORT[p]   requested OpenFlow port numbers
#   GUESTS_IN[p] guests a packet has passed when it comes in on OVS port p
#   VLAN[p]     access VLAN of OVS port p: one per two-port segment
#               (both ways of one flow), so that the NORMAL action (flow
#               type "normal") cannot flood from one segment into another;
#               unset with one segment, or when a port is in two (PVVP
#               through one tester port: normal cannot be isolated there)

declare -a TPORTS G_NAME G_HOP G_PORTS G_TOPO
declare -A OFPORT GUESTS_IN VLAN
FLOWS=()

layout() {
	local g k j=0 nt
	TPORTS=() G_NAME=() G_HOP=() G_PORTS=() G_TOPO=() FLOWS=()
	if [ "$NCHAINS" -gt 1 ]; then
		nt=$NCHAINS
		for ((g = 0; g < NCHAINS; g++)); do
			G_NAME[g]=fwd$((g + 1))
			G_HOP[g]=guest$((g + 1))
			G_PORTS[g]=vhost$g
			G_TOPO[g]=loop
			FLOWS+=("phy$g vhost$g" "vhost$g phy$g")
		done
	else
		nt=$NPORTS
		for ((g = 0; g < NGUESTS; g++)); do
			if [ "$NGUESTS" = 1 ]; then
				G_NAME[g]=fwd
				G_HOP[g]=guest
			else
				G_NAME[g]=fwd$((g + 1))
				G_HOP[g]=guest$((g + 1))
			fi
			if [ "$NGUESTS" = 1 ] && [ "$NPORTS" = 1 ]; then
				G_PORTS[g]=vhost0
				G_TOPO[g]=loop
			else
				G_PORTS[g]="vhost$j vhost$((j + 1))"
				G_TOPO[g]=paired
				j=$((j + 2))
			fi
		done
		# Forward: tester port 0 -> each guest's first port, its
		# last port -> the next guest ... -> the last tester port.
		local prev=phy0 last=phy$((NPORTS - 1)) gp
		local -a rev=()
		for ((g = 0; g < NGUESTS; g++)); do
			read -r -a gp <<<"${G_PORTS[g]}"
			FLOWS+=("$prev ${gp[0]}")
			rev=("${gp[0]} $prev" "${rev[@]}")
			prev=${gp[${#gp[@]} - 1]}
		done
		FLOWS+=("$prev $last")
		rev=("$last $prev" "${rev[@]}")
		# The way back, with two tester ports: the same path reversed.
		# One port through paired guests is one way; the one-port loop
		# comes back through its one guest port.
		[ "$NPORTS" = 2 ] && FLOWS+=("${rev[@]}")
		[ "$NPORTS" = 1 ] && [ "$NGUESTS" = 1 ] && FLOWS=("phy0 vhost0" "vhost0 phy0")
	fi
	for ((k = 0; k < nt; k++)); do
		TPORTS[k]=phy$k
		OFPORT[phy$k]=$((k + 1))
	done
	j=0
	for ((g = 0; g < ${#G_NAME[@]}; g++)); do
		for p in ${G_PORTS[g]}; do
			OFPORT[$p]=$((nt + 1 + j))
			j=$((j + 1))
		done
	done
	NTP=$nt
	NG=${#G_NAME[@]}
	layout_guests_in
	layout_vlans
}

# GUESTS_IN: walk each chain from its tester port, counting guests.
layout_guests_in() {
	local k at out n i f g gp
	GUESTS_IN=()
	for ((k = 0; k < NTP; k++)); do
		at=phy$k n=0
		for ((i = 0; i <= 2 * MAX_GUESTS + 2; i++)); do
			out=""
			for f in "${FLOWS[@]}"; do
				set -- $f
				[ "$1" = "$at" ] && out=$2
			done
			[ -n "$out" ] || break
			GUESTS_IN[$at]=$n
			case "$out" in phy*) break ;; esac
			n=$((n + 1))
			for ((g = 0; g < ${#G_NAME[@]}; g++)); do
				read -r -a gp <<<"${G_PORTS[g]}"
				[ "${gp[0]}" = "$out" ] && at=${gp[${#gp[@]} - 1]}
				[ "${gp[${#gp[@]} - 1]}" = "$out" ] && at=${gp[0]}
			done
		done
	done
}

layout_vlans() {
	local f seg tag=0 p
	local -A peer=()
	VLAN=()
	for f in "${FLOWS[@]}"; do
		set -- $f
		for p in "$1:$2" "$2:$1"; do
			if [ -n "${peer[${p%%:*}]:-}" ] && [ "${peer[${p%%:*}]}" != "${p#*:}" ]; then
				return 0
			fi
			peer[${p%%:*}]=${p#*:}
		done
	done
	for f in "${FLOWS[@]}"; do
		set -- $f
		[ -n "${VLAN[$1]:-}" ] && continue
		tag=$((tag + 1))
		VLAN[$1]=$tag
		VLAN[$2]=$tag
	done
	[ "$tag" -gt 1 ] || VLAN=()
}

# --- cores -------------------------------------------------------------------
#
# Every poller gets a core of its own when there are enough: one for the
# housekeeping (OVS's non-PMD threads, the apps' main lcores except the
# tester's), the PMDs, one per tester TX port, the tester's RX (its main
# lcore), one per guest. With fewer CPUs everything shares as on a 2-core
# box (workers on the first CPU, PMD(s) and main lcores on the last), and
# SHARED_CORES=1 says so in status and in the topology, which the
# coordinator copies into every trial record.

cpu_expand() {
	# "0-3,6" -> "0 1 2 3 6"; fails on anything else.
	local part a b out="" IFS=,
	for part in $1; do
		case "$part" in
		*-*) a=${part%-*} b=${part#*-} ;;
		*) a=$part b=$part ;;
		esac
		is_num "$a" && is_num "$b" && [ "$a" -le "$b" ] && [ "$b" -lt 4096 ] || return 1
		while [ "$a" -le "$b" ]; do
			out="$out $a"
			a=$((a + 1))
		done
	done
	[ -n "$out" ] || return 1
	echo $out
}

cpu_mask() {
	# CPU numbers -> OVS hex mask (no 64-bit limit: built digit by digit).
	local c hex="" d i
	local -a bits=()
	for c in "$@"; do bits[c]=1; done
	local max=0
	for c in "$@"; do [ "$c" -gt "$max" ] && max=$c; done
	for ((i = max - max % 4; i >= 0; i -= 4)); do
		d=$(((${bits[i]:-0}) + 2 * ${bits[i + 1]:-0} + 4 * ${bits[i + 2]:-0} + 8 * ${bits[i + 3]:-0}))
		hex=$hex$(printf '%x' "$d")
	done
	hex=$(echo "$hex" | sed 's/^0*//')
	echo "0x${hex:-0}"
}

cores() {
	local online list c k i=0
	online=$(cpu_expand "$(cat /sys/devices/system/cpu/online 2>/dev/null || echo 0)") ||
		online=0
	if [ -n "$CPUS" ]; then
		list=$(cpu_expand "$CPUS") || die "--cpus '$CPUS': not a CPU list (e.g. 2-5,8)"
		if [ "$ACTION" != plan ]; then
			for c in $list; do
				case " $online " in *" $c "*) ;; *) die "--cpus: CPU $c is not online (online: $(tr -d '\n' </sys/devices/system/cpu/online 2>/dev/null))" ;; esac
			done
		fi
		[ "$(echo $list | tr ' ' '\n' | sort -u | wc -l)" = "$(echo $list | wc -w)" ] ||
			die "--cpus '$CPUS': a CPU is listed twice"
	else
		list=$online
	fi
	read -r -a CPU_LIST <<<"$list"
	local n=${#CPU_LIST[@]}
	# One PMD per chain by default, when the cores are there for it: on
	# a shared box more PMDs only take turns with the other pollers.
	if [ -z "$PMDS_ASKED" ]; then
		PMDS=$NCHAINS
		[ "$n" -ge $((PMDS + NTP + NG + 2)) ] || PMDS=1
	fi
	POLLERS=$((PMDS + NTP + 1 + NG))
	[ "$STANDIN" = 1 ] && POLLERS=$((1 + NTP + 1 + NG))
	[ "$PMDS" -le "$n" ] || die "--pmds $PMDS: only $n CPU(s) to put PMDs on"
	PMD_CPUS=() GEN_TX_CPUS=() GUEST_CPUS=()
	if [ "$n" -ge $((POLLERS + 1)) ]; then
		SHARED_CORES=0
		HK_CPU=${CPU_LIST[i]}; i=$((i + 1))
		for ((k = 0; k < PMDS; k++)); do PMD_CPUS+=("${CPU_LIST[i]}"); i=$((i + 1)); done
		for ((k = 0; k < NTP; k++)); do GEN_TX_CPUS+=("${CPU_LIST[i]}"); i=$((i + 1)); done
		GEN_MAIN_CPU=${CPU_LIST[i]}; i=$((i + 1))
		for ((k = 0; k < NG; k++)); do GUEST_CPUS+=("${CPU_LIST[i]}"); i=$((i + 1)); done
		VSW_CPU=${PMD_CPUS[0]}
	else
		SHARED_CORES=1
		local first=${CPU_LIST[0]} last=${CPU_LIST[n - 1]}
		HK_CPU=$first
		for ((k = 0; k < PMDS; k++)); do PMD_CPUS=("${CPU_LIST[n - 1 - k]}" "${PMD_CPUS[@]}"); done
		for ((k = 0; k < NTP; k++)); do GEN_TX_CPUS+=("$first"); done
		GEN_MAIN_CPU=$last
		for ((k = 0; k < NG; k++)); do GUEST_CPUS+=("$first"); done
		# The stand-in vswitch polls where the PMD would.
		VSW_CPU=$last
		HK_CPU_APPS=$last
	fi
	[ "$SHARED_CORES" = 1 ] || HK_CPU_APPS=$HK_CPU
}

# EAL core options: main lcore 0 on $1, worker lcores 1.. on the rest.
eal_lcores() {
	local spec="0@$1" k=1 c
	shift
	for c in "$@"; do
		spec="$spec,$k@$c"
		k=$((k + 1))
	done
	echo "--lcores $spec --main-lcore 0"
}

layout
cores

# --- helpers ---------------------------------------------------------------

pid_alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null; }

pidfile_pid() {
	local p
	[ -r "$1" ] || return 1
	p=$(head -n1 "$1" 2>/dev/null)
	case "$p" in '' | *[!0-9]*) return 1 ;; esac
	echo "$p"
}

# Processes that belong to this testbed, found by what they run (argv[0])
# and the run dir or file prefixes on their command line (covers a lost
# pid file). One pgrep: forking per /proc entry is slow on a loaded box.
testbed_pids() {
	local dir_re
	dir_re=$(printf '%s' "$RUNDIR/" | sed 's/[][\\.*^$+?(){}|]/\\&/g')
	pgrep -f "^[^ ]*(ovs-vswitchd|ovsdb-server|dpdk-testpmd|pvpkit-gen|pvpkit-fwd|qemu-system-x86_64)[^ ]* .*($dir_re|$TB_ID-)" 2>/dev/null
}

# Wait until "$@" succeeds; at most WAIT_S seconds. Fails early when the
# process $WATCH_PID (if set) dies.
wait_for() {
	local what=$1 i
	shift
	for ((i = 0; i < WAIT_S * 5; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		if [ -n "${WATCH_PID:-}" ] && ! pid_alive "$WATCH_PID"; then
			fail_up "$what: $WATCH_NAME exited (log: $WATCH_LOG)"
		fi
		sleep 0.2
	done
	fail_up "$what: not after ${WAIT_S}s (log: ${WATCH_LOG:-$RUNDIR})"
}

# An error during "up": show the end of the log, tear down what started.
fail_up() {
	echo "$PROG: error: $*" >&2
	if [ -n "${WATCH_LOG:-}" ] && [ -r "$WATCH_LOG" ]; then
		tail -n 5 "$WATCH_LOG" | sed 's/^/    /' >&2
	fi
	QUIET=1 do_down
	exit 1
}

# Start a program in the background in its own session, with a pid file.
# $1 name, $2 log, rest: argv.
spawn() {
	local name=$1 log=$2 pid
	shift 2
	setsid "$@" </dev/null >"$log" 2>&1 &
	pid=$!
	echo "$pid" >"$RUNDIR/$name.pid"
	WATCH_PID=$pid
	WATCH_NAME=$name
	WATCH_LOG=$log
}

eal_common() {
	# $1: file prefix.
	echo "--in-memory --no-pci --single-file-segments" \
		"--file-prefix=$1 -m $MEM_MB --log-level=lib.eal:error"
}

sock_exists() { [ -S "$1" ]; }

# The control address of app $1 (gen, fwd, fwdN) with index $2 (0 the
# tester, g+1 guest g).
app_ctl() {
	if [ "$VM" = 1 ] && [ "$2" -gt 0 ]; then
		echo "tcp:127.0.0.1:$(vm_ctl_port $(($2 - 1)))"
	elif [ "$NETNS" = 1 ]; then
		echo "tcp:10.$NS_NET.$2.2:$CTL_PORT"
	else
		echo "unix:$RUNDIR/$1.sock"
	fi
}

# Is there a listener at control address $1?
ctl_listens() {
	case "$1" in
	unix:*) [ -S "${1#unix:}" ] ;;
	tcp:*)
		local hp=${1#tcp:}
		(exec 3<>"/dev/tcp/${hp%:*}/${hp##*:}") 2>/dev/null
		;;
	esac
}

# --netns: a namespace for app $1 with index $2, its veth pair and
# addresses, and a token file (mode 600) for its control channel.
# Prints the command prefix that runs a program in it.
netns_prepare() {
	local ns=$NS_PFX-$1 va=${VETH_PFX}a$2 vb=${VETH_PFX}b$2
	ip netns add "$ns" || fail_up "ip netns add $ns failed"
	ip link add "$va" type veth peer name "$vb" &&
		ip link set "$vb" netns "$ns" &&
		ip addr add "10.$NS_NET.$2.1/30" dev "$va" &&
		ip link set "$va" up &&
		ip -n "$ns" addr add "10.$NS_NET.$2.2/30" dev "$vb" &&
		ip -n "$ns" link set "$vb" up &&
		ip -n "$ns" link set lo up ||
		fail_up "cannot set up the veth pair of namespace $ns"
	(umask 077 && head -c 24 /dev/urandom | base64 >"$RUNDIR/$1.token") ||
		fail_up "cannot write $RUNDIR/$1.token"
}

# a.b.c.d as a number.
ip4_num() {
	local IFS=. a b c d
	read -r a b c d <<<"$1"
	echo $(((a << 24) | (b << 16) | (c << 8) | d))
}

# Every IPv4 address and route on this host and in each named network
# namespace, one "KIND PREFIX WHERE" line each (KIND addr or route,
# PREFIX a.b.c.d/len). Namespaces need root to enter: without it only
# this host's are seen (plan). Default routes cover everything and say
# nothing about a range: left out.
netns_ip4_in_use() {
	local ns where
	for ns in "" $(ip netns list 2>/dev/null | awk '{print $1}'); do
		where=${ns:+in namespace $ns}
		where=${where:-on this host}
		ip ${ns:+-n "$ns"} -4 -o addr show 2>/dev/null |
			awk -v w="$where" '{ print "addr", $4, w }'
		ip ${ns:+-n "$ns"} -4 route show table all 2>/dev/null | awk -v w="$where" '
			{
				p = $1
				if (p ~ /^(local|broadcast|unicast|unreachable|blackhole|prohibit|throw|multicast|anycast|nat)$/)
					p = $2
				if (p == "default" || p !~ /^[0-9.]+(\/[0-9]+)?$/)
					next
				if (p !~ /\//)
					p = p "/32"
				print "route", p, w
			}'
	done
}

# --netns: pick NS_NET, the first free 10.NET.0.0/16 from the one the run
# dir's checksum proposes on (wrapping round NS_NET_MIN..+NS_NET_COUNT).
# A range is taken when an address there, or a route into it, exists on
# this host or in any named network namespace: another testbed's veths
# (whatever it chose), a lab network, a container bridge. An address
# whose network covers the range counts (10.0.0.5/8 on a LAN: 10.NET.K.2
# may be a neighbour); a route wider than a /16 does not (a VPN's
# 10.0.0.0/8: the testbed's connected /30s are more specific and take
# over only their own addresses, on this host). Sets NS_NET and
# NETNS_NOTE (why the proposal was passed over, or ""); 1 with
# NETNS_NOTE saying why when every range is taken.
netns_choose() {
	local kind pfx where n i j net len hit first="" kinds=() nums=() lens=() pfxs=() wheres=()
	while read -r kind pfx where; do
		kinds+=("$kind")
		nums+=("$(ip4_num "${pfx%/*}")")
		lens+=("${pfx#*/}")
		pfxs+=("$pfx")
		wheres+=("$where")
	done < <(netns_ip4_in_use)
	NETNS_NOTE=""
	for ((i = 0; i < NS_NET_COUNT; i++)); do
		n=$(((TB_SUM + i) % NS_NET_COUNT + NS_NET_MIN))
		net=$(((10 << 24) | (n << 16)))
		hit=""
		for ((j = 0; j < ${#kinds[@]}; j++)); do
			len=${lens[j]}
			[ "${kinds[j]}" = route ] && [ "$len" -lt 16 ] && continue
			[ "$len" -gt 16 ] && len=16
			# Two prefixes overlap when they agree on the shorter one's bits.
			if [ "$len" = 0 ] || [ $(((nums[j] ^ net) >> (32 - len))) = 0 ]; then
				hit="${kinds[j]} ${pfxs[j]} ${wheres[j]}"
				break
			fi
		done
		if [ -z "$hit" ]; then
			NS_NET=$n
			[ -z "$first" ] || NETNS_NOTE="$first; using 10.$n.0.0/16"
			return 0
		fi
		[ -n "$first" ] || first="10.$n.0.0/16 is in use ($hit)"
	done
	NETNS_NOTE="no free 10.N.0.0/16 for --netns (N $NS_NET_MIN..$((NS_NET_MIN + NS_NET_COUNT - 1))) on this host or in its network namespaces; the first proposed: $first"
	return 1
}

# --netns: choose the range and create every namespace, under NETNS_LOCK
# so that two testbeds coming up at once never take the same range (each
# sees the other's addresses once it holds the lock).
netns_setup() {
	local fd g
	mkdir -p "${NETNS_LOCK%/*}" && exec {fd}>"$NETNS_LOCK" ||
		fail_up "cannot open the lock $NETNS_LOCK"
	flock -w "$WAIT_S" "$fd" ||
		fail_up "another testbed held $NETNS_LOCK for ${WAIT_S} s (--wait)"
	netns_choose || fail_up "$NETNS_NOTE"
	[ -z "$NETNS_NOTE" ] || say "netns: $NETNS_NOTE"
	netns_prepare gen 0
	for ((g = 0; g < NG; g++)); do netns_prepare "${G_NAME[g]}" $((g + 1)); done
	exec {fd}>&-
}

netns_exec() {
	[ "$NETNS" = 1 ] && echo "ip netns exec $NS_PFX-$1"
}

ctl_token_args() {
	[ "$NETNS" = 1 ] && echo "--token-file $RUNDIR/$1.token"
}

# --- up --------------------------------------------------------------------

start_tester() {
	local k vdevs=()
	for ((k = 0; k < NTP; k++)); do
		vdevs+=(--vdev "net_virtio_user$k,path=$RUNDIR/${TPORTS[k]}.sock,server=1,queues=1,queue_size=1024")
	done
	if [ "$TESTER" = gen ]; then
		# The tester's TX ring is OVS's RX ring (virtio-user): a full
		# ring is the vswitch not keeping up, counted as its loss the
		# way rx_missed is on a NIC, not a generator limit. One TX
		# worker lcore per port; RX on the main lcore.
		# shellcheck disable=SC2046,SC2086
		spawn gen "$RUNDIR/gen.log" $(netns_exec gen) "$GEN_BIN" \
			$(eal_lcores "$GEN_MAIN_CPU" "${GEN_TX_CPUS[@]}") \
			$(eal_common "$PFX_GEN") "${vdevs[@]}" -- --server --ctl "$(app_ctl gen 0)" \
			$(ctl_token_args gen) --idle-sleep "$IDLE_SLEEP_US" --tx-full drop \
			--catchup-us 10000 $(l3_gen_args) $GEN_ARGS
	else
		local extra=""
		[ "$TX_FIRST" = 0 ] || extra="--tx-first --burst=$TX_FIRST"
		# shellcheck disable=SC2046,SC2086
		spawn gen "$RUNDIR/gen.log" stdbuf -oL "$TESTPMD_BIN" \
			$(eal_lcores "$GEN_MAIN_CPU" "${GEN_TX_CPUS[0]}") $(eal_common "$PFX_GEN") \
			"${vdevs[@]}" -- --forward-mode=rxonly --nb-cores=1 \
			--auto-start --stats-period 10 $extra
	fi
}

# Guest g: pvpkit-fwd (or testpmd) on one virtio-user port per OVS port.
start_guest() {
	local g=$1 k=0 p vdevs=() name
	[ "$VM" = 0 ] || { vm_start_guest "$g"; return; }
	name=${G_NAME[g]}
	for p in ${G_PORTS[g]}; do
		vdevs+=(--vdev "net_virtio_user$k,path=$RUNDIR/$p.sock,server=1,queues=1,queue_size=1024$(l3_guest_vdev)")
		k=$((k + 1))
	done
	if [ "$GUEST" = fwd ]; then
		# shellcheck disable=SC2046,SC2086
		spawn "$name" "$RUNDIR/$name.log" $(netns_exec "$name") "$FWD_BIN" \
			$(eal_lcores "$HK_CPU_APPS" "${GUEST_CPUS[g]}") $(eal_common "$TB_ID-$name") \
			"${vdevs[@]}" -- --mode "$FWD_MODE" --topology "${G_TOPO[g]}" \
			--ctl "$(app_ctl "$name" $((g + 1)))" $(ctl_token_args "$name") \
			--idle-sleep "$IDLE_SLEEP_US" $FWD_ARGS
	else
		# shellcheck disable=SC2046,SC2086
		spawn "$name" "$RUNDIR/$name.log" stdbuf -oL "$TESTPMD_BIN" \
			$(eal_lcores "$HK_CPU_APPS" "${GUEST_CPUS[g]}") $(eal_common "$TB_ID-$name") \
			"${vdevs[@]}" -- --forward-mode="$FWD_MODE" --nb-cores=1 \
			--auto-start --stats-period 10
	fi
}

# The vswitch stand-in: pvpkit-fwd, io, paired, on two vhost-user clients.
start_standin() {
	# shellcheck disable=SC2046,SC2086
	spawn vsw "$RUNDIR/vsw.log" "$FWD_BIN" \
		$(eal_lcores "$HK_CPU_APPS" "$VSW_CPU") $(eal_common "$PFX_VSW") \
		--vdev "net_vhost0,iface=$RUNDIR/phy0.sock,client=1,queues=1" \
		--vdev "net_vhost1,iface=$RUNDIR/vhost0.sock,client=1,queues=1" \
		-- --mode io --topology paired --ctl "unix:$RUNDIR/vsw.sock" \
		--idle-sleep "$IDLE_SLEEP_US"
	wait_for "stand-in vswitch control socket" sock_exists "$RUNDIR/vsw.sock"
}

iface_up() {
	local s
	s=$("${VSCTL[@]}" get Interface "$1" link_state 2>/dev/null) || return 1
	[ "$s" = up ]
}

start_ovs() {
	local log=$RUNDIR/ovs-vswitchd.log f
	"${OVS_ENV[@]}" ovsdb-tool create "$RUNDIR/conf.db" "$OVS_SCHEMA" ||
		fail_up "ovsdb-tool create $RUNDIR/conf.db failed"
	WATCH_PID="" WATCH_LOG=$RUNDIR/ovsdb-server.log
	"${OVS_ENV[@]}" ovsdb-server "$RUNDIR/conf.db" \
		--remote="punix:$RUNDIR/db.sock" $([ "$NETNS" = 0 ] || echo "--remote=ptcp:$DB_PORT:127.0.0.1") \
		--pidfile="$RUNDIR/ovsdb-server.pid" \
		--unixctl="$RUNDIR/ovsdb-server.ctl" \
		--log-file="$RUNDIR/ovsdb-server.log" \
		--detach --no-chdir >>"$RUNDIR/ovsdb-server.log" 2>&1 ||
		fail_up "ovsdb-server did not start"
	"${VSCTL[@]}" --no-wait init || fail_up "ovs-vsctl init failed"
	# dpdk-lcore-mask: OVS's non-PMD threads on the housekeeping core;
	# the PMD(s) on theirs. pmd-maxsleep (OVS 3.1) lets an idle PMD
	# sleep, so that the pollers can share two cores.
	"${VSCTL[@]}" --no-wait set Open_vSwitch . \
		other_config:dpdk-init=true \
		other_config:dpdk-socket-mem="$OVS_SOCKET_MEM" \
		other_config:dpdk-lcore-mask="$(cpu_mask "$HK_CPU")" \
		other_config:pmd-cpu-mask="$(cpu_mask "${PMD_CPUS[@]}")" \
		other_config:pmd-maxsleep="$PMD_SLEEP_US" \
		other_config:vhost-sock-dir="$RUNDIR" \
		"other_config:dpdk-extra=--no-pci --in-memory --file-prefix=$PFX_OVS" ||
		fail_up "ovs-vsctl set other_config failed"
	WATCH_LOG=$log
	# A network namespace of its own: the netdev datapath creates kernel
	# tap devices ("ovs-netdev", the bridge's), which would clash with
	# any other OVS on this host and outlive a kill -9. The vhost-user
	# sockets are files, so they work across namespaces.
	unshare --net -- "${OVS_ENV[@]}" "$OVS_VSWITCHD" "unix:$RUNDIR/db.sock" \
		--pidfile="$RUNDIR/ovs-vswitchd.pid" \
		--unixctl="$RUNDIR/ovs-vswitchd.ctl" \
		--log-file="$log" --detach --no-chdir >>"$log" 2>&1 ||
		fail_up "ovs-vswitchd-dpdk did not start"
	WATCH_PID=$(pidfile_pid "$RUNDIR/ovs-vswitchd.pid")
	WATCH_NAME=ovs-vswitchd
	"${VSCTL[@]}" add-br "$BRIDGE" -- set Bridge "$BRIDGE" datapath_type=netdev \
		-- set Bridge "$BRIDGE" fail-mode=secure ||
		fail_up "cannot add bridge $BRIDGE"
	# The flows go in before the ports (by their requested OpenFlow port
	# numbers), so no packet arrives to an empty table and is dropped.
	"${OFCTL[@]}" del-flows "unix:$RUNDIR/$BRIDGE.mgmt" ||
		fail_up "ovs-ofctl del-flows failed"
	if l3_on; then
		l3_flows
	else
		for f in "${FLOWS[@]}"; do
			set -- $f
			echo "in_port=${OFPORT[$1]},actions=output:${OFPORT[$2]}"
		done
	fi >"$RUNDIR/flows.txt"
	"${OFCTL[@]}" add-flows "unix:$RUNDIR/$BRIDGE.mgmt" "$RUNDIR/flows.txt" ||
		fail_up "ovs-ofctl add-flows failed"
}

# Add the dpdkvhostuserclient ports $2... of app $1 (its pid file name),
# each once the app has created its server socket, then wait until OVS
# reports every link up. A virtio-user server creates its next socket
# only once the previous one is connected, and starts its ports (link
# up) only once all are: so all are added before any is waited for.
add_app_ports() {
	local app=$1 p
	shift
	for p in "$@"; do
		WATCH_PID=$(pidfile_pid "$RUNDIR/$app.pid") WATCH_NAME=$app
		WATCH_LOG=$RUNDIR/$app.log
		wait_for "$app socket $RUNDIR/$p.sock" sock_exists "$RUNDIR/$p.sock"
		WATCH_PID=$(pidfile_pid "$RUNDIR/ovs-vswitchd.pid") WATCH_NAME=ovs-vswitchd
		WATCH_LOG=$RUNDIR/ovs-vswitchd.log
		# shellcheck disable=SC2046
		"${VSCTL[@]}" add-port "$BRIDGE" "$p" $([ -z "${VLAN[$p]:-}" ] || echo "tag=${VLAN[$p]}") \
			-- set Interface "$p" \
			type=dpdkvhostuserclient ofport_request="${OFPORT[$p]}" \
			options:vhost-server-path="$RUNDIR/$p.sock" ||
			fail_up "cannot add port $p to $BRIDGE"
	done
	[ "${PORTS_NO_WAIT:-0}" = 0 ] || return 0
	for p in "$@"; do
		wait_for "port $p did not come up" iface_up "$p"
	done
}

# Wait until the app $1 (index $3) forwards: its control channel listens
# (pvpkit apps open it once their ports are started), or testpmd said it
# starts forwarding. $2: its kind (testpmd or not).
wait_app_ready() {
	local log=$RUNDIR/$1.log ctl
	WATCH_PID=$(pidfile_pid "$RUNDIR/$1.pid") WATCH_NAME=$1 WATCH_LOG=$log
	if [ "$2" = testpmd ]; then
		wait_for "$1 did not start forwarding" \
			grep -qi "start packet forwarding" "$log"
	else
		ctl=$(app_ctl "$1" "$3")
		wait_for "$1 control channel $ctl" ctl_listens "$ctl"
	fi
}

json_str() {
	# Escape for a JSON string (paths: backslash and quote are enough).
	local s=${1//\\/\\\\}
	printf '"%s"' "${s//\"/\\\"}"
}

telemetry_path() { echo "$DPDK_RUNTIME/$1/dpdk_telemetry.v2"; }

# The hop object of the tester or a guest: $1 hop name, $2 kind, $3 pid
# name, $4 number of ports, $5 its index (app_ctl).
app_hop() {
	local name=$1 kind=$2 pname=$3 n=$4 idx=$5 k ports="" tok=""
	for ((k = 0; k < n; k++)); do
		[ "$kind" = testpmd ] && ports="$ports, \"$k\"" || ports="$ports, \"p$k\""
	done
	ports=${ports#, }
	if [ "$kind" = testpmd ]; then
		local tel
		# A VM's testpmd through the guest's relay to its socket.
		if [ "$VM" = 1 ] && [ "$idx" -gt 0 ]; then
			tel=$(app_ctl "$pname" "$idx")
		else
			tel=$(telemetry_path "$TB_ID-$pname")
		fi
		printf '    {"name": "%s", "driver": "telemetry", "telemetry": %s, "ports": [%s]}' \
			"$name" "$(json_str "$tel")" "$ports"
	else
		{ [ "$NETNS" = 0 ] && { [ "$VM" = 0 ] || [ "$idx" = 0 ]; }; } ||
			tok=", \"token_file\": $(json_str "$RUNDIR/$pname.token")"
		printf '    {"name": "%s", "driver": "%s", "ctl": %s%s, "ports": [%s]%s}' \
			"$name" "$kind" "$(json_str "$(app_ctl "$pname" "$idx")")" "$tok" "$ports" \
			"$([ "$idx" != 0 ] || l3_tester_member)"
	fi
}

# One chain point: hop, port, dir, label (last: no comma).
point() {
	printf '    {"hop": "%s", "port": "%s", "dir": "%s", "label": "%s"}' "$1" "$2" "$3" "$4"
}

# The app port name of OVS port $1 in guest $2.
guest_port() {
	local k=0 p
	for p in ${G_PORTS[$2]}; do
		if [ "$p" = "$1" ]; then
			[ "$GUEST" = testpmd ] && echo "$k" || echo "p$k"
			return
		fi
		k=$((k + 1))
	done
}

guest_of() {
	local g
	for ((g = 0; g < NG; g++)); do
		case " ${G_PORTS[g]} " in *" $1 "*) echo "$g"; return ;; esac
	done
}

tester_port() { [ "$TESTER" = testpmd ] && echo "${1#phy}" || echo "p${1#phy}"; }

# The chain that starts at tester port $1 (phyK), following FLOWS. The
# one-port PVP keeps its plain labels; with several tester ports, guests
# or guest ports the labels name the guest and the port.
chain_points() {
	local at=$1 out g gp f hop pts=() i gv tp
	local -a gps
	tp=$(tester_port "$at")
	pts+=("$(point tester "$tp" tx "sent by tester${LBL_T:+ ($tp)}")")
	pts+=("$(point vswitch "$at" rx "received by physical${LBL_T:+ ($at)}")")
	for ((i = 0; i <= 2 * MAX_GUESTS + 2; i++)); do
		out=""
		for f in "${FLOWS[@]}"; do
			set -- $f
			[ "$1" = "$at" ] && out=$2
		done
		[ -n "$out" ] || die "internal: no flow out of $at"
		case "$out" in
		phy*)
			tp=$(tester_port "$out")
			pts+=("$(point vswitch "$out" tx "sent by physical${LBL_T:+ ($out)}")")
			pts+=("$(point tester "$tp" rx "received by tester${LBL_T:+ ($tp)}")")
			break
			;;
		esac
		g=$(guest_of "$out")
		hop=${G_HOP[g]}
		gv=virtual
		[ "$NG" = 1 ] || gv=$hop
		pts+=("$(point vswitch "$out" tx "sent to $gv${LBL_P:+ ($out)}")")
		gp=$(guest_port "$out" "$g")
		pts+=("$(point "$hop" "$gp" rx "received by $gv${LBL_P:+ ($gp)}")")
		# The guest's way out: loop sends on the same port, paired on
		# the other one of the pair.
		if [ "${G_TOPO[g]}" = paired ]; then
			read -r -a gps <<<"${G_PORTS[g]}"
			[ "$out" = "${gps[0]}" ] && out=${gps[1]} || out=${gps[0]}
		fi
		gp=$(guest_port "$out" "$g")
		pts+=("$(point "$hop" "$gp" tx "sent by $gv${LBL_P:+ ($gp)}")")
		pts+=("$(point vswitch "$out" rx "received from $gv${LBL_P:+ ($out)}")")
		at=$out
	done
	local IFS=$'\n'
	printf '  [\n'
	printf '%s' "${pts[*]}" | sed '$!s/$/,/'
	printf '\n  ]'
}

# The fields a guest in --fwd-mode swaps: the rules for flow types l2,
# l3, l4 after an odd number of such guests match the source field.
guest_swaps() {
	case "$FWD_MODE" in
	macswap) echo '"l2"' ;;
	5tswap) echo '"l2", "l3", "l4"' ;;
	esac
}

# The ovs hop's "forward" member: the FLOWS pairs, in order, for the
# driver's l2/l3/l4 rules.
forward_json() {
	local f out="" sw
	sw=$(guest_swaps)
	for f in "${FLOWS[@]}"; do
		set -- $f
		out="$out, {\"in\": \"$1\", \"out\": \"$2\""
		if [ -n "$sw" ] && [ $((${GUESTS_IN[$1]:-0} % 2)) = 1 ]; then
			out="$out, \"swapped\": [$sw]"
		fi
		out="$out}"
	done
	printf '%s' "${out#, }"
}

topology_json() {
	local name vsw_hop ovs_ports="" p g k chains=() starts=()
	LBL_T="" LBL_P=""
	[ "$NTP" = 1 ] || LBL_T=1
	[ "$NTP" = 1 ] && [ "$NG" = 1 ] || LBL_P=1
	if [ "$STANDIN" = 1 ]; then
		name=pvp-standin-local
		vsw_hop=$(printf '    {"name": "vswitch", "driver": "fwd", "ctl": %s, "ports": ["p0", "p1"]}' \
			"$(json_str "unix:$RUNDIR/vsw.sock")")
	else
		if [ "$NCHAINS" -gt 1 ]; then
			name=pvp-ovs-local-${NCHAINS}chains
		elif [ "$NGUESTS" -gt 1 ]; then
			name=p$(printf 'v%.0s' $(seq "$NGUESTS"))p-ovs-local
			[ "$NPORTS" = 2 ] && name=$name-2port
		elif [ "$NPORTS" = 2 ]; then
			name=pvp-ovs-local-2port
		else
			name=pvp-ovs-local
		fi
		! l3_on || name=$name-$FLOW_TYPE
		for p in "${TPORTS[@]}"; do ovs_ports="$ovs_ports, \"$p\""; done
		for ((g = 0; g < NG; g++)); do
			for p in ${G_PORTS[g]}; do ovs_ports="$ovs_ports, \"$p\""; done
		done
		vsw_hop=$(printf '    {"name": "vswitch", "driver": "ovs", "db": %s, "rundir": %s, "bridge": "%s",\n     "vswitchd_ctl": %s, "stats": "openflow", "ports": [%s],\n     "forward": [%s]}' \
			"$(json_str "$([ "$NETNS" = 1 ] && echo "tcp:127.0.0.1:$DB_PORT" || echo "unix:$RUNDIR/db.sock")")" \
			"$(json_str "$RUNDIR")" "$BRIDGE" \
			"$(json_str "$RUNDIR/ovs-vswitchd.ctl")" "${ovs_ports#, }" "$(forward_json)")
	fi
	# Chains: from each tester port that has a flow out of it.
	for p in "${TPORTS[@]}"; do
		for f in "${FLOWS[@]}"; do
			set -- $f
			[ "$1" = "$p" ] && starts+=("$p")
		done
	done
	if [ "$STANDIN" = 1 ]; then
		chains=("$(chain_points phy0 | sed 's/"port": "vhost0"/"port": "p1"/; s/"hop": "vswitch", "port": "phy0"/"hop": "vswitch", "port": "p0"/')")
	else
		for p in "${starts[@]}"; do chains+=("$(chain_points "$p")"); done
	fi
	{
		printf '{\n  "name": "%s",\n' "$name"
		printf '  "testbed": {"shared_cores": %s, "cpus": "%s", "pollers": %d, "pmds": %d%s},\n' \
			"$([ "$SHARED_CORES" = 1 ] && echo true || echo false)" "${CPU_LIST[*]}" \
			"$POLLERS" "$PMDS" "$([ -z "${VM_KIND:-}" ] || printf ', "vm": "%s"' "$VM_KIND")"
		printf '  "hops": [\n'
		app_hop tester "$TESTER" gen "$NTP" 0
		printf ',\n%s' "$vsw_hop"
		for ((g = 0; g < NG; g++)); do
			k=$(echo ${G_PORTS[g]} | wc -w)
			printf ',\n'
			app_hop "${G_HOP[g]}" "$GUEST" "${G_NAME[g]}" "$k" $((g + 1))
		done
		printf '\n  ],\n  "chains": [\n'
		local IFS=$'\n'
		printf '%s' "${chains[*]}" | sed 's/^  \]$/  ],/; $s/^  \],$/  ]/'
		printf '\n  ]\n}\n'
	}
}

write_topology() {
	topology_json >"$RUNDIR/topology.json.tmp" &&
		mv "$RUNDIR/topology.json.tmp" "$RUNDIR/topology.json"
}

hugepages_needed() {
	# 2 MB pages: each app's --mem, OVS's socket memory.
	local mb=$((MEM_MB * (1 + NG)))
	[ "$VM" = 0 ] || mb=$((MEM_MB + VM_MEM_MB * NG))
	if [ "$STANDIN" = 1 ]; then mb=$((mb + MEM_MB)); else mb=$((mb + OVS_SOCKET_MEM)); fi
	echo $(((mb + 1) / 2))
}

do_up() {
	local free need g p
	[ "$(id -u)" = 0 ] || die "must run as root (hugepages, /var/run/dpdk)"
	if [ "$STANDIN" = 0 ] && [ ! -x "$OVS_VSWITCHD" ]; then
		[ "$NTP" = 1 ] && [ "$NG" = 1 ] && [ "$NETNS" = 0 ] ||
			die "--ports, --guests, --chains and --netns need OVS-DPDK ($OVS_VSWITCHD; apt-get install openvswitch-switch-dpdk)"
		say "OVS-DPDK not installed ($OVS_VSWITCHD): using the pvpkit-fwd stand-in vswitch"
		STANDIN=1
		cores
	fi
	[ "$STANDIN" = 0 ] || { [ "$NTP" = 1 ] && [ "$NG" = 1 ]; } ||
		die "--standin runs the one-port, one-guest PVP only"
	{ [ "$TESTER" = gen ] && [ "$GUEST" = fwd ]; } || { [ "$NTP" = 1 ] && [ "$NG" = 1 ]; } ||
		die "--tester/--guest testpmd run the one-port, one-guest PVP only"
	need=$(hugepages_needed)
	free=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
	[ "${free:-0}" -ge "$need" ] ||
		die "needs $need free 2 MB hugepages, have ${free:-0} (echo 2048 > /proc/sys/vm/nr_hugepages)"
	grep -q '^[^ ]* [^ ]* hugetlbfs ' /proc/mounts ||
		die "no hugetlbfs mounted (mount -t hugetlbfs nodev /dev/hugepages)"
	if [ "$STANDIN" = 0 ]; then
		local c
		for c in ovsdb-tool ovsdb-server ovs-vsctl ovs-ofctl ovs-appctl unshare; do
			command -v "$c" >/dev/null || die "$c not found (apt-get install openvswitch-switch-dpdk)"
		done
	fi
	[ "$TESTER" = testpmd ] || [ -x "$GEN_BIN" ] ||
		die "$GEN_BIN $BUILD_HINT, or use --tester testpmd"
	[ "$GUEST" = testpmd ] || [ -x "$FWD_BIN" ] ||
		die "$FWD_BIN $BUILD_HINT, or use --guest testpmd"
	[ "$STANDIN" = 0 ] || [ -x "$FWD_BIN" ] ||
		die "$FWD_BIN $BUILD_HINT: needed for the stand-in vswitch"
	{ [ "$TESTER" = gen ] && [ "$GUEST" = fwd ]; } || [ -x "$TESTPMD_BIN" ] ||
		die "dpdk-testpmd not found (apt-get install dpdk)"
	if [ -n "$(testbed_pids)" ]; then
		die "a testbed already runs in $RUNDIR ($PROG status --dir $RUNDIR; $PROG down --dir $RUNDIR)"
	fi
	[ "$VM" = 0 ] || vm_prepare

	QUIET=1 do_down
	mkdir -p "$RUNDIR" || die "cannot create $RUNDIR"
	# Interrupted half way: take down what was started.
	trap 'WATCH_PID="" WATCH_LOG=""; fail_up "interrupted"' INT TERM
	chmod 0755 "$RUNDIR"
	[ "$NETNS" = 0 ] || netns_setup
	[ "$VM" = 0 ] || vm_keys
	cat >"$RUNDIR/testbed.env" <<EOV
STANDIN=$STANDIN
TESTER=$TESTER
GUEST=$GUEST
NPORTS=$NPORTS
NGUESTS=$NGUESTS
NCHAINS=$NCHAINS
PMDS=$PMDS
CPUS="${CPU_LIST[*]}"
SHARED_CORES=$SHARED_CORES
POLLERS=$POLLERS
NETNS=$NETNS
NS_NET=$NS_NET
VM=$VM
VM_KIND=${VM_KIND:-}
FLOW_TYPE=$FLOW_TYPE
EOV

	# The virtio-user servers own the sockets and wait in EAL init until
	# the vhost-user client (OVS or the stand-in) connects, one port
	# after the other.
	if [ "$STANDIN" = 1 ]; then
		# The stand-in's vhost clients retry until a server appears:
		# start the tester last, so that the guest side is up before
		# anything is sent.
		start_guest 0
		wait_for "guest socket $RUNDIR/vhost0.sock" sock_exists "$RUNDIR/vhost0.sock"
		start_standin
		wait_app_ready fwd "$GUEST" 1
		start_tester
		wait_for "tester socket $RUNDIR/phy0.sock" sock_exists "$RUNDIR/phy0.sock"
		wait_app_ready gen "$TESTER" 0
	else
		start_tester
		for ((g = 0; g < NG; g++)); do start_guest "$g"; done
		# The guest side first, so that nothing the tester sends as soon
		# as its port is up (testpmd --tx-first) meets a missing port.
		start_ovs
		for ((g = 0; g < NG; g++)); do
			if [ "$VM" = 1 ]; then
				# QEMU waits for OVS to connect before it boots
				# the guest; the links come up once the guest's
				# pvpkit-fwd starts its ports.
				# shellcheck disable=SC2086
				PORTS_NO_WAIT=1 add_app_ports "${G_NAME[g]}" ${G_PORTS[g]}
				vm_wait_ready "$g"
				for p in ${G_PORTS[g]}; do
					wait_for "port $p did not come up" iface_up "$p"
				done
				continue
			fi
			# shellcheck disable=SC2086
			add_app_ports "${G_NAME[g]}" ${G_PORTS[g]}
			wait_app_ready "${G_NAME[g]}" "$GUEST" $((g + 1))
		done
		add_app_ports gen "${TPORTS[@]}"
		wait_app_ready gen "$TESTER" 0
	fi
	write_topology
	trap - INT TERM
	say "up: $RUNDIR/topology.json ($([ "$STANDIN" = 1 ] && echo "stand-in vswitch" || echo "OVS-DPDK"), tester $TESTER, guest $GUEST$(layout_words)$(cores_words)$(vm_words))"
}

layout_words() {
	[ "$NTP" = 1 ] || [ "$NCHAINS" -gt 1 ] || printf ', %s tester ports' "$NTP"
	[ "$NG" = 1 ] || printf ', %s guests' "$NG"
	[ "$NCHAINS" = 1 ] || printf ' in %s chains' "$NCHAINS"
}

cores_words() {
	if [ "$SHARED_CORES" = 1 ]; then
		printf '; shared cores: %s pollers on %s CPU(s)' "$POLLERS" "${#CPU_LIST[@]}"
	else
		printf '; dedicated cores'
	fi
}

# --- plan ------------------------------------------------------------------

do_plan() {
	local g f p
	# What up would choose now (without up's lock: a testbed coming up
	# meanwhile may change it). An error first, alone.
	[ "$NETNS" = 0 ] || netns_choose || die "$NETNS_NOTE"
	echo "layout: tester ports ${TPORTS[*]}$(layout_words)"
	for ((g = 0; g < NG; g++)); do
		echo "${G_HOP[g]}: ${G_TOPO[g]} on ${G_PORTS[g]}"
	done
	if l3_on; then
		l3_flows | sed 's/^/rule: /'
	else
		for f in "${FLOWS[@]}"; do
			set -- $f
			echo "flow: $1 -> $2 (in_port=${OFPORT[$1]},actions=output:${OFPORT[$2]})"
		done
	fi
	for p in "${TPORTS[@]}" $(for ((g = 0; g < NG; g++)); do echo ${G_PORTS[g]}; done); do
		[ -z "${VLAN[$p]:-}" ] || echo "vlan: $p tag ${VLAN[$p]}"
	done
	echo "cpus: ${CPU_LIST[*]}"
	echo "housekeeping: cpu $HK_CPU"
	echo "ovs pmds: cpu ${PMD_CPUS[*]} (pmd-cpu-mask $(cpu_mask "${PMD_CPUS[@]}"))"
	echo "tester tx: cpu ${GEN_TX_CPUS[*]}; tester rx: cpu $GEN_MAIN_CPU"
	for ((g = 0; g < NG; g++)); do
		echo "${G_HOP[g]}: cpu ${GUEST_CPUS[g]}"
	done
	if [ "$SHARED_CORES" = 1 ]; then
		echo "cores: shared ($POLLERS pollers, ${#CPU_LIST[@]} CPU(s); $((POLLERS + 1)) needed for dedicated cores)"
	else
		echo "cores: dedicated ($POLLERS pollers and housekeeping on $((POLLERS + 1)) of ${#CPU_LIST[@]} CPU(s))"
	fi
	if [ "$NETNS" = 1 ]; then
		[ -z "$NETNS_NOTE" ] || echo "netns: $NETNS_NOTE"
		echo "netns: gen in $NS_PFX-gen, 10.$NS_NET.0.1/30 here, 10.$NS_NET.0.2 there"
		for ((g = 0; g < NG; g++)); do
			echo "netns: ${G_NAME[g]} in $NS_PFX-${G_NAME[g]}, 10.$NS_NET.$((g + 1)).1/30 here, 10.$NS_NET.$((g + 1)).2 there"
		done
	fi
	echo "topology.json:"
	topology_json
}

# --- down ------------------------------------------------------------------

do_down() {
	local pids="" p f i
	vm_down
	for f in "$RUNDIR"/*.pid; do
		p=$(pidfile_pid "$f") && pids="$pids $p"
	done
	pids="$pids $(testbed_pids)"
	for p in $pids; do
		kill -TERM "$p" 2>/dev/null
	done
	for ((i = 0; i < 25; i++)); do
		local left=""
		for p in $pids; do
			pid_alive "$p" && left="$left $p"
		done
		[ -z "$left" ] && break
		pids=$left
		sleep 0.2
	done
	for p in $pids; do
		kill -KILL "$p" 2>/dev/null
	done
	# A killed process is gone only once reaped; wait for that too.
	for ((i = 0; i < 25; i++)); do
		[ -z "$(testbed_pids)" ] && break
		sleep 0.2
	done
	[ -z "$(testbed_pids)" ] || echo "$PROG: warning: processes left: $(testbed_pids)" >&2
	if [ -d "$RUNDIR" ]; then
		rm -f "$RUNDIR"/*.sock "$RUNDIR"/*.ctl "$RUNDIR"/*.mgmt \
			"$RUNDIR"/*.snoop "$RUNDIR"/*.pid "$RUNDIR"/conf.db \
			"$RUNDIR"/.conf.db.~lock~ "$RUNDIR"/topology.json \
			"$RUNDIR"/topology.json.tmp "$RUNDIR"/flows.txt \
			"$RUNDIR"/testbed.env "$RUNDIR"/*.token "$RUNDIR"/*.qmp \
			"$RUNDIR"/*.bind "$RUNDIR"/*.authorized_keys "$RUNDIR"/ssh_config
		rm -rf "$RUNDIR/ssh"
		rm -f "$RUNDIR"/fwd*.conf
	fi
	local ns
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
		case "$ns" in "$NS_PFX"-*) ip netns del "$ns" 2>/dev/null ;; esac
	done
	rm -rf "${DPDK_RUNTIME:?}/$TB_ID"-*
	rm -f /dev/hugepages/"$TB_ID"-*
	say "down: $RUNDIR"
}

# --- status ----------------------------------------------------------------
#
# Every line is checked now, not read from what up left behind: a pid file
# whose process is gone, a zombie or an unrelated process that took the
# pid, an OVSDB or ovs-vswitchd that does not answer, a port whose link is
# down or that OVS no longer has, an app whose control channel does not
# answer a ping. Anything short of all of it is "degraded" (exit 1).

PYTHON=$(command -v python3 2>/dev/null || true)

# Why process $1 (pid file name) is not running, or nothing when it is.
proc_problem() {
	local p st cmd
	p=$(pidfile_pid "$RUNDIR/$1.pid") || { echo "not running (no pid file)"; return; }
	if [ ! -r "/proc/$p/stat" ]; then
		echo "not running (pid $p gone)"
		return
	fi
	st=$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f1)
	case "$st" in
	Z | X | '') echo "not running (pid $p exited)"; return ;;
	T | t) echo "stopped (pid $p)"; return ;;
	esac
	cmd=$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)
	case "$cmd" in
	*"$RUNDIR/"* | *"$TB_ID-"*) ;;
	*) echo "not running (pid $p is another program)" ;;
	esac
}

# Does the JSON-RPC server at control address $1 (unix:PATH or
# tcp:HOST:PORT; token file $2 if any) answer ping? 0 yes, 1 no, 2 cannot
# tell (no python3).
ctl_ping() {
	[ -n "$PYTHON" ] || return 2
	timeout 5 "$PYTHON" - "$1" "${2:-}" <<'PY' >/dev/null 2>&1
import json, socket, sys
addr, token_file = sys.argv[1], sys.argv[2]
if addr.startswith("unix:"):
    s = socket.socket(socket.AF_UNIX)
    target = addr[5:]
else:
    host, port = addr[4:].rsplit(":", 1)
    s = socket.socket(socket.AF_INET)
    target = (host, int(port))
s.settimeout(3)
s.connect(target)
f = s.makefile("rwb")
def call(i, method, params=None):
    req = {"jsonrpc": "2.0", "id": i, "method": method}
    if params is not None:
        req["params"] = params
    f.write(json.dumps(req).encode() + b"\n")
    f.flush()
    line = f.readline()
    if not line or "result" not in json.loads(line):
        sys.exit(1)
if token_file:
    call(1, "auth", {"token": open(token_file).read().strip()})
call(2, "ping")
PY
}

do_status() {
	local ok=0 bad=0 name p why g st vswitchd_ok=0
	if [ -r "$RUNDIR/testbed.env" ]; then
		# shellcheck disable=SC1091
		. "$RUNDIR/testbed.env"
		PMDS=${PMDS:-}
		layout
	fi
	# name:control address (none: process only).
	local procs=("gen:$([ "$TESTER" = gen ] && app_ctl gen 0)")
	for ((g = 0; g < NG; g++)); do
		procs+=("${G_NAME[g]}:$([ "$GUEST" = fwd ] && app_ctl "${G_NAME[g]}" $((g + 1)))")
	done
	if [ "$STANDIN" = 1 ]; then procs+=("vsw:unix:$RUNDIR/vsw.sock"); else procs+=(ovsdb-server: ovs-vswitchd:); fi
	local ent
	for ent in "${procs[@]}"; do
		name=${ent%%:*}
		why=$(proc_problem "$name")
		if [ -n "$why" ]; then
			echo "$name: $why"
			case "$why" in not\ running*) ;; *) ok=$((ok + 1)) ;; esac
			bad=$((bad + 1))
			continue
		fi
		p=$(pidfile_pid "$RUNDIR/$name.pid")
		ok=$((ok + 1))
		case "$name" in
		ovsdb-server)
			if "${OVS_ENV[@]}" ovs-vsctl --db="unix:$RUNDIR/db.sock" --timeout=3 \
				get Open_vSwitch . cur_cfg >/dev/null 2>&1; then
				echo "$name: running (pid $p), OVSDB answers"
			else
				echo "$name: running (pid $p), OVSDB does not answer on $RUNDIR/db.sock"
				bad=$((bad + 1))
			fi
			;;
		ovs-vswitchd)
			if "${OVS_ENV[@]}" ovs-appctl -t "$RUNDIR/ovs-vswitchd.ctl" --timeout=3 \
				version >/dev/null 2>&1; then
				echo "$name: running (pid $p), answers"
				vswitchd_ok=1
			else
				echo "$name: running (pid $p), does not answer on $RUNDIR/ovs-vswitchd.ctl"
				bad=$((bad + 1))
			fi
			;;
		*)
			if [ -z "${ent#*:}" ]; then
				echo "$name: running (pid $p)"
			else
				local tok=""
				[ "$NETNS" = 0 ] && { [ "${VM:-0}" = 0 ] || [ "$name" = gen ]; } ||
					tok=$RUNDIR/$name.token
				ctl_ping "${ent#*:}" "$tok"
				case $? in
				0) echo "$name: running (pid $p), control answers" ;;
				2) echo "$name: running (pid $p), control not checked (no python3)" ;;
				*)
					echo "$name: running (pid $p), control does not answer on ${ent#*:}"
					bad=$((bad + 1))
					;;
				esac
			fi
			;;
		esac
	done
	# Ports only when something runs: with nothing, "down" says it all.
	if [ "$STANDIN" = 0 ] && [ "$ok" -gt 0 ]; then
		local ports=("${TPORTS[@]}")
		for ((g = 0; g < NG; g++)); do ports+=(${G_PORTS[g]}); done
		for p in "${ports[@]}"; do
			if [ "$vswitchd_ok" = 0 ]; then
				# OVSDB keeps the last link_state a dead
				# ovs-vswitchd wrote: it says nothing now.
				echo "port $p: down (ovs-vswitchd not answering)"
				bad=$((bad + 1))
				continue
			fi
			st=$("${OVS_ENV[@]}" ovs-vsctl --db="unix:$RUNDIR/db.sock" --timeout=3 \
				get Interface "$p" link_state 2>/dev/null) || st=missing
			[ -S "$RUNDIR/$p.sock" ] || st="$st (no socket $RUNDIR/$p.sock)"
			echo "port $p: $st"
			[ "$st" = up ] || bad=$((bad + 1))
		done
	fi
	if [ -r "$RUNDIR/topology.json" ]; then
		echo "topology: $RUNDIR/topology.json"
	else
		echo "topology: none"
		bad=$((bad + 1))
	fi
	if [ "$ok" = 0 ]; then
		echo "testbed: down"
		return 3
	fi
	if [ "${SHARED_CORES:-0}" = 1 ]; then
		echo "cores: shared (${POLLERS:-?} pollers on CPUs ${CPUS:-?}): not dedicated-core numbers"
	elif [ -n "${SHARED_CORES:-}" ]; then
		echo "cores: dedicated (CPUs ${CPUS:-?})"
	fi
	[ "${VM:-0}" = 0 ] || echo "guests: ${VM_KIND:-?}$([ "$VM_KIND" = vm-tcg ] && echo ' (QEMU without KVM: functional only, not performance figures)')"
	if [ "$bad" != 0 ]; then
		echo "testbed: degraded"
		return 1
	fi
	echo "testbed: up"
	return 0
}

case "$ACTION" in
up) do_up ;;
down)
	[ "$(id -u)" = 0 ] || die "must run as root"
	do_down
	;;
status) do_status ;;
plan) do_plan ;;
esac
