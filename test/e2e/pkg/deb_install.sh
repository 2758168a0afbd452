#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The Debian packages, as a lab installs them: `dpkg-buildpackage -us -uc
# -b` on a copy of the tree (this build dir is never touched), lintian,
# the coordinator's ELF free of DPDK, `apt-get install ./*.deb`, then the
# installed programs alone (PATH of the system, no PVP_* variables):
# `pvpkit testbed up` at its default run dir, a trial, `testbed down`,
# and `apt-get purge` leaving nothing behind in /usr, /etc or /run. The
# packages are purged whatever happens (trap). Root, hugepages, OVS-DPDK,
# dpkg-dev and debhelper, else SKIP. It builds the whole tree: about
# three minutes on two busy CPUs, most of it dpkg-buildpackage.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

PKGS="pvpkit pvpkit-gen pvpkit-fwd pvpkit-testbed"
OVS_VSWITCHD_DPDK=/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk
RUNDIR=/run/pvpkit/testbed
APT_LOCK=/tmp/pvpkit-apt.lock

need_root
need_hugepages 768
need_cmd dpkg-buildpackage
need_cmd dh
need_cmd apt-get
need_cmd readelf
need_cmd flock
need_cmd "$PVP_PY"
[ -x "$OVS_VSWITCHD_DPDK" ] || skip "needs OVS-DPDK ($OVS_VSWITCHD_DPDK; run tools/bootstrap.sh)"
if pgrep -x ovs-vswitchd >/dev/null 2>&1 || pgrep -f ovs-vswitchd-dpdk >/dev/null 2>&1; then
	skip "another ovs-vswitchd runs on this machine (one OVS-DPDK testbed at a time)"
fi
# Never replace or purge a pvpkit someone installed, nor take over the
# default run dir of a testbed or forwarder in use.
pkg_status() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null; }
for p in $PKGS; do
	case "$(pkg_status "$p")" in
	'' | *not-installed) ;;
	*) skip "package $p is installed here; this test installs and purges its own" ;;
	esac
done
[ ! -e /run/pvpkit ] || skip "/run/pvpkit exists (a testbed or pvpkit-fwd in use?)"

# What is there before, so that only what the packages leave counts.
leftovers() {
	find /usr /etc /run \( -name '*pvpkit*' -o -name 'pvptb*' \) -print 2>/dev/null | sort
}
leftovers >"$PVP_TMP/before.txt"

INSTALLED=0
apt_locked() {
	flock "$APT_LOCK" env DEBIAN_FRONTEND=noninteractive \
		apt-get -o DPkg::Lock::Timeout=120 -y -q "$@"
}
pkg_cleanup() {
	if [ "$INSTALLED" = 1 ]; then
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin pvpkit testbed down -q >/dev/null 2>&1
		# shellcheck disable=SC2086 # one word per package
		apt_locked purge $PKGS >"$PVP_TMP/purge.log" 2>&1 ||
			echo "# purge failed: $(tail -3 "$PVP_TMP/purge.log")"
		INSTALLED=0
	fi
	pvp_cleanup
}
trap pkg_cleanup EXIT

# The tree as git sees it (tracked and new files, no build dirs), else
# all of it but build dirs, into pvpkit-VERSION/ as dpkg-source expects.
version=$(cd "$PVP_SOURCE_DIR" && dpkg-parsechangelog -S Version) ||
	fail "debian/changelog unreadable"
src=$PVP_TMP/src/pvpkit-$version
mkdir -p "$src"
if git -C "$PVP_SOURCE_DIR" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$PVP_SOURCE_DIR" && git ls-files -co --exclude-standard -z | tar -c --null -T - -f -) |
		tar -x -C "$src" || fail "copying the tree"
else
	tar -C "$PVP_SOURCE_DIR" --exclude='./build*' -c -f - . | tar -x -C "$src" ||
		fail "copying the tree"
fi

t0=$(date +%s)
(cd "$src" && nice dpkg-buildpackage -us -uc -b -j"$(nproc)") >"$PVP_TMP/build.log" 2>&1 ||
	{ tail -40 "$PVP_TMP/build.log"; fail "dpkg-buildpackage failed"; }
t1=$(date +%s)
info "dpkg-buildpackage: $((t1 - t0)) s"
debs=()
for p in $PKGS; do
	f=$(ls "$PVP_TMP/src/${p}_${version}_"*.deb 2>/dev/null)
	[ -n "$f" ] || fail "no $p package built"
	debs+=("$f")
done

# The coordinator installs on a laptop: no DPDK in its ELF or its Depends.
mkdir "$PVP_TMP/x"
dpkg-deb -x "$PVP_TMP/src/pvpkit_${version}_"*.deb "$PVP_TMP/x"
needed=$(readelf -d "$PVP_TMP/x/usr/bin/pvpkit" | grep NEEDED)
[ -n "$needed" ] || fail "readelf shows no NEEDED in pvpkit"
! echo "$needed" | grep -q 'librte_' || fail "pvpkit needs DPDK: $needed"
! grep -q "$src" "$PVP_TMP/x/usr/bin/pvpkit" || fail "pvpkit holds its build path $src"
! dpkg-deb -f "$PVP_TMP/src/pvpkit_${version}_"*.deb Depends | grep -q 'librte' ||
	fail "pvpkit depends on DPDK: $(dpkg-deb -f "$PVP_TMP/src/pvpkit_${version}_"*.deb Depends)"
dpkg-deb -f "$PVP_TMP/src/pvpkit-gen_${version}_"*.deb Depends | grep -q 'librte-eal' ||
	fail "pvpkit-gen's Depends lack DPDK's shared libraries (shlibs)"
dpkg-deb -c "$PVP_TMP/src/pvpkit-fwd_${version}_"*.deb | grep ' ./lib/systemd/system/pvpkit-fwd.service$' >/dev/null ||
	fail "pvpkit-fwd ships no systemd unit"

# Errors and warnings fail; each info tag kept is explained in
# debian/*.lintian-overrides.
if command -v lintian >/dev/null; then
	lintian --fail-on error,warning "$PVP_TMP/src/pvpkit_${version}_"*.changes \
		>"$PVP_TMP/lintian.log" 2>&1 ||
		{ cat "$PVP_TMP/lintian.log"; fail "lintian"; }
	info "lintian: $(grep -c '^[EWI]:' "$PVP_TMP/lintian.log") tag(s)"
else
	info "lintian not installed: not run (tools/bootstrap.sh installs it)"
fi

INSTALLED=1
t2=$(date +%s)
apt_locked install "${debs[@]}" >"$PVP_TMP/install.log" 2>&1 ||
	{ tail -20 "$PVP_TMP/install.log"; fail "apt-get install ./*.deb failed"; }
# shellcheck disable=SC2086 # one word per package
dpkg -L $PKGS | sort -u >"$PVP_TMP/files.txt"

# The installed tree alone: a system PATH, none of the suite's variables.
sys() { env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
[ "$(sys sh -c 'command -v pvpkit')" = /usr/bin/pvpkit ] || fail "pvpkit not on PATH at /usr/bin"
sys pvpkit testbed --help | grep -qx '  /usr/libexec/pvpkit/testbed.sh' ||
	fail "installed pvpkit runs another script: $(sys pvpkit testbed --help)"
sys pvpkit testbed up -q >"$PVP_TMP/up.log" 2>&1 ||
	{ cat "$PVP_TMP/up.log"; fail "pvpkit testbed up (installed)"; }
[ -r "$RUNDIR/topology.json" ] || fail "testbed up wrote no $RUNDIR/topology.json"
grep -q '"driver": "ovs"' "$RUNDIR/topology.json" ||
	fail "the installed testbed came up with the stand-in, not OVS-DPDK: $(cat "$PVP_TMP/up.log")"
for app in gen fwd; do
	pid=$(cat "$RUNDIR/$app.pid" 2>/dev/null)
	exe=$(readlink "/proc/${pid:-0}/exe")
	[ "$exe" = "/usr/bin/pvpkit-$app" ] || fail "the testbed's $app runs '$exe', not /usr/bin/pvpkit-$app"
done

sys pvpkit trial --size 64 --flows 10 --rate 10kpps --duration 2 --json "$PVP_TMP/trial.json" \
	>"$PVP_TMP/trial.out" 2>&1 || { cat "$PVP_TMP/trial.out"; fail "pvpkit trial (installed)"; }
cat "$PVP_TMP/trial.out"
"$PVP_PY" - "$PVP_TMP/trial.json" <<'PY' || fail "the trial through the installed testbed"
import json, sys
t = json.load(open(sys.argv[1]))
if t["tx_packets"] < 15000 or not t["reconciled"]:
    sys.exit("FAIL: tx %d rx %d reconciled %s" % (t["tx_packets"], t["rx_packets"], t["reconciled"]))
print("# trial: tx %d rx %d, reconciled" % (t["tx_packets"], t["rx_packets"]))
PY

sys pvpkit testbed down -q || fail "pvpkit testbed down (installed)"
sys pvpkit testbed status >"$PVP_TMP/status.out" 2>&1
rc=$?
[ "$rc" = 3 ] || fail "testbed status after down: exit $rc: $(cat "$PVP_TMP/status.out")"

# shellcheck disable=SC2086 # one word per package
apt_locked purge $PKGS >"$PVP_TMP/purge.log" 2>&1 ||
	{ tail -20 "$PVP_TMP/purge.log"; fail "apt-get purge failed"; }
INSTALLED=0
t3=$(date +%s)
info "install, testbed up, trial, down, purge: $((t3 - t2)) s"
for p in $PKGS; do
	case "$(pkg_status "$p")" in
	'' | *not-installed) ;;
	*) fail "$p still '$(pkg_status "$p")' after purge" ;;
	esac
done
left=$(while read -r f; do [ "$f" = /. ] || [ ! -e "$f" ] || [ -d "$f" ] || echo "$f"; done <"$PVP_TMP/files.txt")
[ -z "$left" ] || fail "files of the packages left after purge: $left"
leftovers >"$PVP_TMP/after.txt"
new=$(comm -13 "$PVP_TMP/before.txt" "$PVP_TMP/after.txt")
[ -z "$new" ] || fail "left in /usr, /etc or /run after purge: $new"
echo "PASS"
