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
# Everything lives in a private run dir (default /run/pvpkit/testbed): the
# OVS database, its sockets, logs, pid files and topology.json, which the
# coordinator reads. The system's Open vSwitch service is never touched.
# Without OVS-DPDK (or with --standin) a second pvpkit-fwd in io/paired mode
# on two net_vhost ports stands in as the vswitch.
#
# See doc/testbed.rst. Exit status: 0 ok; 1 error; status: 1 partial,
# 3 not running.

set -u

PROG=${0##*/}
SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)

OVS_VSWITCHD=/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk
OVS_SCHEMA=/usr/share/openvswitch/vswitch.ovsschema
BRIDGE=br-pvp

# Options and their defaults.
RUNDIR=/run/pvpkit/testbed
BUILD_DIR=${PVP_BUILD_DIR:-}
BIN_DIR=${PVP_BIN_DIR:-}
STANDIN=0
TESTER=gen
GUEST=fwd
FWD_MODE=macswap
PMD_SLEEP_US=50
IDLE_SLEEP_US=50
GEN_ARGS=""
FWD_ARGS=""
TX_FIRST=0
MEM_MB=256
OVS_SOCKET_MEM=512
WAIT_S=30

die() { echo "$PROG: error: $*" >&2; exit 1; }
say() { [ "$QUIET" = 1 ] || echo "$PROG: $*"; }
QUIET=0

usage() {
	cat <<EOF
usage: $PROG up|down|status [options]
  --dir RUNDIR         run dir (default /run/pvpkit/testbed)
  --build-dir DIR      pvpkit build dir (default \$PVP_BUILD_DIR, else
                       $SRC_DIR/build; an installed pvpkit sets
                       \$PVP_BIN_DIR instead: the apps are taken from there)
  --standin            pvpkit-fwd (io, paired) as the vswitch, not OVS-DPDK
                       (automatic when OVS-DPDK is not installed)
  --tester gen|testpmd traffic source: pvpkit-gen (default) or dpdk-testpmd
  --guest fwd|testpmd  guest forwarder: pvpkit-fwd (default) or dpdk-testpmd
  --fwd-mode MODE      guest forwarding mode (default macswap)
  --pmd-sleep-us N     OVS pmd-maxsleep and the apps' idle sleep in us
                       (default 50; 0 = busy polling, for benchmarks)
  --gen-args "ARGS"    extra pvpkit-gen arguments (after the EAL's --)
  --fwd-args "ARGS"    extra pvpkit-fwd arguments (guest)
  --tx-first N         testpmd tester only: send one burst of N (<= 512)
                       packets when it starts, then only receive
  --mem MB             EAL memory per app (default 256)
  --wait S             bound on each wait for a port or socket (default 30)
  -q, --quiet          print errors only
EOF
}

[ $# -ge 1 ] || { usage >&2; exit 1; }
ACTION=$1
shift
case "$ACTION" in
up | down | status) ;;
-h | --help) usage; exit 0 ;;
*) usage >&2; exit 1 ;;
esac

need_arg() { [ $# -ge 2 ] || die "$1 needs a value"; }
while [ $# -gt 0 ]; do
	case "$1" in
	--dir) need_arg "$@"; RUNDIR=$2; shift ;;
	--build-dir) need_arg "$@"; BUILD_DIR=$2; shift ;;
	--standin) STANDIN=1 ;;
	--tester) need_arg "$@"; TESTER=$2; shift ;;
	--guest) need_arg "$@"; GUEST=$2; shift ;;
	--fwd-mode) need_arg "$@"; FWD_MODE=$2; shift ;;
	--pmd-sleep-us) need_arg "$@"; PMD_SLEEP_US=$2; IDLE_SLEEP_US=$2; shift ;;
	--gen-args) need_arg "$@"; GEN_ARGS=$2; shift ;;
	--fwd-args) need_arg "$@"; FWD_ARGS=$2; shift ;;
	--tx-first) need_arg "$@"; TX_FIRST=$2; shift ;;
	--mem) need_arg "$@"; MEM_MB=$2; shift ;;
	--wait) need_arg "$@"; WAIT_S=$2; shift ;;
	-q | --quiet) QUIET=1 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die "unknown option '$1'" ;;
	esac
	shift
done

case "$TESTER" in gen | testpmd) ;; *) die "--tester must be gen or testpmd" ;; esac
case "$GUEST" in fwd | testpmd) ;; *) die "--guest must be fwd or testpmd" ;; esac
for n in "$PMD_SLEEP_US" "$TX_FIRST" "$MEM_MB" "$WAIT_S"; do
	case "$n" in '' | *[!0-9]*) die "'$n' is not a number" ;; esac
done
[ "$TX_FIRST" -le 512 ] || die "--tx-first must be <= 512"
[ "$TX_FIRST" = 0 ] || [ "$TESTER" = testpmd ] || die "--tx-first needs --tester testpmd"
case "$FWD_MODE" in *[!a-z0-9_-]* | '') die "bad --fwd-mode '$FWD_MODE'" ;; esac

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
PFX_FWD=$TB_ID-fwd
PFX_VSW=$TB_ID-vsw
PFX_OVS=$TB_ID-ovs
ALL_PFX="$PFX_GEN $PFX_FWD $PFX_VSW $PFX_OVS"
DPDK_RUNTIME=/var/run/dpdk

OVS_ENV=(env OVS_RUNDIR="$RUNDIR" OVS_DBDIR="$RUNDIR" OVS_LOGDIR="$RUNDIR"
	OVS_SYSCONFDIR="$RUNDIR" OVS_PKGDATADIR=/usr/share/openvswitch)
VSCTL=("${OVS_ENV[@]}" ovs-vsctl --db="unix:$RUNDIR/db.sock" --timeout=10)
OFCTL=("${OVS_ENV[@]}" ovs-ofctl)

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
	pgrep -f "^[^ ]*(ovs-vswitchd|ovsdb-server|dpdk-testpmd|pvpkit-gen|pvpkit-fwd)[^ ]* .*($dir_re|$TB_ID-)" 2>/dev/null
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
	# $1: file prefix. One worker on core 0, the main thread on core 1:
	# the OVS PMD owns core 1 and the main lcores mostly sleep.
	echo "-l 0,1 --main-lcore 1 --in-memory --no-pci --single-file-segments" \
		"--file-prefix=$1 -m $MEM_MB --log-level=lib.eal:error"
}

sock_exists() { [ -S "$1" ]; }

# --- up --------------------------------------------------------------------

start_tester() {
	local vdev="net_virtio_user0,path=$RUNDIR/phy0.sock,server=1,queues=1,queue_size=1024"
	if [ "$TESTER" = gen ]; then
		# The tester's TX ring is OVS's RX ring (virtio-user): a full
		# ring is the vswitch not keeping up, counted as its loss the
		# way rx_missed is on a NIC, not a generator limit.
		# shellcheck disable=SC2046,SC2086
		spawn gen "$RUNDIR/gen.log" "$GEN_BIN" $(eal_common "$PFX_GEN") \
			--vdev "$vdev" -- --server --ctl "unix:$RUNDIR/gen.sock" \
			--idle-sleep "$IDLE_SLEEP_US" --tx-full drop --catchup-us 10000 $GEN_ARGS
	else
		local extra=""
		[ "$TX_FIRST" = 0 ] || extra="--tx-first --burst=$TX_FIRST"
		# shellcheck disable=SC2046,SC2086
		spawn gen "$RUNDIR/gen.log" stdbuf -oL "$TESTPMD_BIN" $(eal_common "$PFX_GEN") \
			--vdev "$vdev" -- --forward-mode=rxonly --nb-cores=1 \
			--auto-start --stats-period 10 $extra
	fi
	wait_for "tester socket $RUNDIR/phy0.sock" sock_exists "$RUNDIR/phy0.sock"
}

start_guest() {
	local vdev="net_virtio_user0,path=$RUNDIR/vhost0.sock,server=1,queues=1,queue_size=1024"
	if [ "$GUEST" = fwd ]; then
		# shellcheck disable=SC2046,SC2086
		spawn fwd "$RUNDIR/fwd.log" "$FWD_BIN" $(eal_common "$PFX_FWD") \
			--vdev "$vdev" -- --mode "$FWD_MODE" --topology loop \
			--ctl "unix:$RUNDIR/fwd.sock" --idle-sleep "$IDLE_SLEEP_US" $FWD_ARGS
	else
		# shellcheck disable=SC2046,SC2086
		spawn fwd "$RUNDIR/fwd.log" stdbuf -oL "$TESTPMD_BIN" $(eal_common "$PFX_FWD") \
			--vdev "$vdev" -- --forward-mode="$FWD_MODE" --nb-cores=1 \
			--auto-start --stats-period 10
	fi
	wait_for "guest socket $RUNDIR/vhost0.sock" sock_exists "$RUNDIR/vhost0.sock"
}

# The vswitch stand-in: pvpkit-fwd, io, paired, on two vhost-user clients.
start_standin() {
	# shellcheck disable=SC2046,SC2086
	spawn vsw "$RUNDIR/vsw.log" "$FWD_BIN" \
		-l 0,1 --main-lcore 0 --in-memory --no-pci --single-file-segments \
		--file-prefix="$PFX_VSW" -m "$MEM_MB" --log-level=lib.eal:error \
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
	local log=$RUNDIR/ovs-vswitchd.log
	"${OVS_ENV[@]}" ovsdb-tool create "$RUNDIR/conf.db" "$OVS_SCHEMA" ||
		fail_up "ovsdb-tool create $RUNDIR/conf.db failed"
	WATCH_PID="" WATCH_LOG=$RUNDIR/ovsdb-server.log
	"${OVS_ENV[@]}" ovsdb-server "$RUNDIR/conf.db" \
		--remote="punix:$RUNDIR/db.sock" \
		--pidfile="$RUNDIR/ovsdb-server.pid" \
		--unixctl="$RUNDIR/ovsdb-server.ctl" \
		--log-file="$RUNDIR/ovsdb-server.log" \
		--detach --no-chdir >>"$RUNDIR/ovsdb-server.log" 2>&1 ||
		fail_up "ovsdb-server did not start"
	"${VSCTL[@]}" --no-wait init || fail_up "ovs-vsctl init failed"
	# dpdk-lcore-mask: OVS's non-PMD threads on core 0; the one PMD on
	# core 1. pmd-maxsleep (OVS 3.1) lets the idle PMD sleep, so the three
	# pollers can share two cores.
	"${VSCTL[@]}" --no-wait set Open_vSwitch . \
		other_config:dpdk-init=true \
		other_config:dpdk-socket-mem="$OVS_SOCKET_MEM" \
		other_config:dpdk-lcore-mask=0x1 \
		other_config:pmd-cpu-mask=0x2 \
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
	printf '%s\n' "in_port=1,actions=output:2" \
		"in_port=2,actions=output:1" >"$RUNDIR/flows.txt"
	"${OFCTL[@]}" add-flows "unix:$RUNDIR/$BRIDGE.mgmt" "$RUNDIR/flows.txt" ||
		fail_up "ovs-ofctl add-flows failed"
}

# Add a dpdkvhostuserclient port and wait until OVS reports its link up.
# $1 name, $2 OpenFlow port number.
add_vhost_port() {
	WATCH_PID=$(pidfile_pid "$RUNDIR/ovs-vswitchd.pid") WATCH_NAME=ovs-vswitchd
	WATCH_LOG=$RUNDIR/ovs-vswitchd.log
	"${VSCTL[@]}" add-port "$BRIDGE" "$1" -- set Interface "$1" \
		type=dpdkvhostuserclient ofport_request="$2" \
		options:vhost-server-path="$RUNDIR/$1.sock" ||
		fail_up "cannot add port $1 to $BRIDGE"
	wait_for "port $1 did not come up" iface_up "$1"
}

# Wait until the app behind pid file $1 (log $2, control socket $3,
# kind $4) forwards: its control socket exists (pvpkit apps create it once
# their ports are started), or testpmd said it starts forwarding.
wait_app_ready() {
	WATCH_PID=$(pidfile_pid "$RUNDIR/$1.pid") WATCH_NAME=$1 WATCH_LOG=$2
	if [ "$4" = testpmd ]; then
		wait_for "$1 did not start forwarding" \
			grep -qi "start packet forwarding" "$2"
	else
		wait_for "$1 control socket $3" sock_exists "$3"
	fi
}

json_str() {
	# Escape for a JSON string (paths: backslash and quote are enough).
	local s=${1//\\/\\\\}
	printf '"%s"' "${s//\"/\\\"}"
}

telemetry_path() { echo "$DPDK_RUNTIME/$1/dpdk_telemetry.v2"; }

# The hop object of the tester or the guest.
app_hop() {
	local name=$1 kind=$2 sock=$3 pfx=$4
	if [ "$kind" = testpmd ]; then
		printf '    {"name": "%s", "driver": "testpmd", "telemetry": %s, "ports": ["0"]}' \
			"$name" "$(json_str "$(telemetry_path "$pfx")")"
	else
		printf '    {"name": "%s", "driver": "%s", "ctl": %s, "ports": ["p0"]}' \
			"$name" "$kind" "$(json_str "unix:$sock")"
	fi
}

write_topology() {
	local tp gp vp_phy vp_vhost vsw_hop name
	[ "$TESTER" = testpmd ] && tp=0 || tp=p0
	[ "$GUEST" = testpmd ] && gp=0 || gp=p0
	if [ "$STANDIN" = 1 ]; then
		name=pvp-standin-local
		vp_phy=p0
		vp_vhost=p1
		vsw_hop=$(printf '    {"name": "vswitch", "driver": "fwd", "ctl": %s, "ports": ["p0", "p1"]}' \
			"$(json_str "unix:$RUNDIR/vsw.sock")")
	else
		name=pvp-ovs-local
		vp_phy=phy0
		vp_vhost=vhost0
		vsw_hop=$(printf '    {"name": "vswitch", "driver": "ovs", "db": %s, "rundir": %s, "bridge": "%s",\n     "vswitchd_ctl": %s, "stats": "openflow", "ports": ["phy0", "vhost0"]}' \
			"$(json_str "unix:$RUNDIR/db.sock")" "$(json_str "$RUNDIR")" "$BRIDGE" \
			"$(json_str "$RUNDIR/ovs-vswitchd.ctl")")
	fi
	{
		printf '{\n  "name": "%s",\n  "hops": [\n' "$name"
		app_hop tester "$TESTER" "$RUNDIR/gen.sock" "$PFX_GEN"
		printf ',\n%s,\n' "$vsw_hop"
		app_hop guest "$GUEST" "$RUNDIR/fwd.sock" "$PFX_FWD"
		printf '\n  ],\n  "chains": [[\n'
		printf '    {"hop": "tester",  "port": "%s", "dir": "tx", "label": "sent by tester"},\n' "$tp"
		printf '    {"hop": "vswitch", "port": "%s", "dir": "rx", "label": "received by physical"},\n' "$vp_phy"
		printf '    {"hop": "vswitch", "port": "%s", "dir": "tx", "label": "sent to virtual"},\n' "$vp_vhost"
		printf '    {"hop": "guest",   "port": "%s", "dir": "rx", "label": "received by virtual"},\n' "$gp"
		printf '    {"hop": "guest",   "port": "%s", "dir": "tx", "label": "sent by virtual"},\n' "$gp"
		printf '    {"hop": "vswitch", "port": "%s", "dir": "rx", "label": "received from virtual"},\n' "$vp_vhost"
		printf '    {"hop": "vswitch", "port": "%s", "dir": "tx", "label": "sent by physical"},\n' "$vp_phy"
		printf '    {"hop": "tester",  "port": "%s", "dir": "rx", "label": "received by tester"}\n' "$tp"
		printf '  ]]\n}\n'
	} >"$RUNDIR/topology.json.tmp" && mv "$RUNDIR/topology.json.tmp" "$RUNDIR/topology.json"
}

do_up() {
	local free
	[ "$(id -u)" = 0 ] || die "must run as root (hugepages, /var/run/dpdk)"
	free=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
	[ "${free:-0}" -ge 512 ] ||
		die "needs 512 free 2 MB hugepages, have ${free:-0} (echo 2048 > /proc/sys/vm/nr_hugepages)"
	grep -q '^[^ ]* [^ ]* hugetlbfs ' /proc/mounts ||
		die "no hugetlbfs mounted (mount -t hugetlbfs nodev /dev/hugepages)"
	if [ "$STANDIN" = 0 ] && [ ! -x "$OVS_VSWITCHD" ]; then
		say "OVS-DPDK not installed ($OVS_VSWITCHD): using the pvpkit-fwd stand-in vswitch"
		STANDIN=1
	fi
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

	QUIET=1 do_down
	mkdir -p "$RUNDIR" || die "cannot create $RUNDIR"
	# Interrupted half way: take down what was started.
	trap 'WATCH_PID="" WATCH_LOG=""; fail_up "interrupted"' INT TERM
	chmod 0755 "$RUNDIR"
	cat >"$RUNDIR/testbed.env" <<EOF
STANDIN=$STANDIN
TESTER=$TESTER
GUEST=$GUEST
EOF

	# The virtio-user servers own the sockets and wait in EAL init until
	# the vhost-user client (OVS or the stand-in) connects.
	if [ "$STANDIN" = 1 ]; then
		# The stand-in's vhost clients retry until a server appears:
		# start the tester last, so that the guest side is up before
		# anything is sent.
		start_guest
		start_standin
		wait_app_ready fwd "$RUNDIR/fwd.log" "$RUNDIR/fwd.sock" "$GUEST"
		start_tester
		wait_app_ready gen "$RUNDIR/gen.log" "$RUNDIR/gen.sock" "$TESTER"
	else
		start_tester
		start_guest
		# The guest side first, so that nothing the tester sends as soon
		# as its port is up (testpmd --tx-first) meets a missing port.
		start_ovs
		add_vhost_port vhost0 2
		wait_app_ready fwd "$RUNDIR/fwd.log" "$RUNDIR/fwd.sock" "$GUEST"
		add_vhost_port phy0 1
		wait_app_ready gen "$RUNDIR/gen.log" "$RUNDIR/gen.sock" "$TESTER"
	fi
	write_topology
	trap - INT TERM
	say "up: $RUNDIR/topology.json ($([ "$STANDIN" = 1 ] && echo "stand-in vswitch" || echo "OVS-DPDK"), tester $TESTER, guest $GUEST)"
}

# --- down ------------------------------------------------------------------

do_down() {
	local pids="" p f i
	for f in gen fwd vsw ovs-vswitchd ovsdb-server; do
		p=$(pidfile_pid "$RUNDIR/$f.pid") && pids="$pids $p"
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
			"$RUNDIR"/testbed.env
	fi
	for p in $ALL_PFX; do
		rm -rf "${DPDK_RUNTIME:?}/$p"
		rm -f /dev/hugepages/"$p"map_* /dev/hugepages/"$p"-*
	done
	say "down: $RUNDIR"
}

# --- status ----------------------------------------------------------------

do_status() {
	local ok=0 bad=0 name p
	if [ -r "$RUNDIR/testbed.env" ]; then
		# shellcheck disable=SC1091
		. "$RUNDIR/testbed.env"
	fi
	local names="gen fwd"
	if [ "$STANDIN" = 1 ]; then names="$names vsw"; else names="$names ovsdb-server ovs-vswitchd"; fi
	for name in $names; do
		p=$(pidfile_pid "$RUNDIR/$name.pid")
		if pid_alive "$p"; then
			echo "$name: running (pid $p)"
			ok=$((ok + 1))
		else
			echo "$name: not running"
			bad=$((bad + 1))
		fi
	done
	if [ "$STANDIN" = 0 ] && [ -S "$RUNDIR/db.sock" ]; then
		for p in phy0 vhost0; do
			local st
			st=$("${VSCTL[@]}" get Interface "$p" link_state 2>/dev/null) || st=missing
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
	elif [ "$bad" != 0 ]; then
		echo "testbed: partial"
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
esac
