#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Set up a Debian 12 machine for pvpkit, idempotently: install the Debian
# packages the build, the tests and the local testbed need, reserve 2 MB
# hugepages and mount hugetlbfs, then build with meson/ninja.
#
# Usage (as root): tools/bootstrap.sh [--hugepages N] [--build-dir DIR] [--werror]
#                                [--no-build] [--no-packages]
# Env:   PVP_HUGEPAGES (default 2048 pages = 4 GiB), PVP_BUILD_DIR (default build)

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
hugepages=${PVP_HUGEPAGES:-2048}
build_dir=${PVP_BUILD_DIR:-$top/build}
werror=false
do_build=true
do_packages=true

die() { echo "bootstrap: error: $*" >&2; exit 1; }
say() { echo "bootstrap: $*"; }

while [ $# -gt 0 ]; do
    case "$1" in
    --hugepages) hugepages=${2:?--hugepages needs a count}; shift 2 ;;
    --hugepages=*) hugepages=${1#*=}; shift ;;
    --build-dir) build_dir=${2:?--build-dir needs a path}; shift 2 ;;
    --build-dir=*) build_dir=${1#*=}; shift ;;
    --werror) werror=true; shift ;;
    --no-build) do_build=false; shift ;;
    --no-packages) do_packages=false; shift ;;
    -h|--help) sed -n '4,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
    esac
done
case "$hugepages" in
''|*[!0-9]*) die "--hugepages must be a number of 2 MB pages, got '$hugepages'" ;;
esac

[ "$(id -u)" = 0 ] || die "must run as root (hugepages, packages): as root, or sudo $0"

# Build, tests (tshark, scapy, socat, python3-zmq for the TRex protocol
# tests), testbed (OVS with DPDK), plots. libzmq3-dev and zlib1g-dev build
# pvpkit-gen's TRex server (--trex); libsqlite3-dev the coordinator's
# results history (pvpkit history). debhelper and lintian build and check
# the Debian packages (debian/, the e2e test deb_install); chromium renders
# report.html in the unit test report_html. qemu-system-x86, mmdebstrap,
# e2fsprogs and openssh-client: the testbed's QEMU guest (testbed up --vm).
# prometheus (with promtool) and curl check --metrics with the real tools
# (test/dpdk/metrics).
# python3-yaml and python3-texttable are what TRex's own Python client
# takes from Debian (doc/trex.rst); python3-docutils checks the docs'
# markup (the lint test). openssh-server, sshpass, sysstat,
# python-is-python3 (ovs_perf runs "python" on the DUT) and
# python3-spur, -natsort, -numpy, -matplotlib, -netaddr, -packaging:
# ovs_perf's PVP run through the QEMU guest (the e2e test testbed_ovsperf;
# its sshd is the test's own, in a namespace, never the machine's).
packages=(
    build-essential pkg-config meson ninja-build debhelper lintian
    dpdk dpdk-dev libdpdk-dev libjansson-dev libpcap-dev libnuma-dev
    libzmq3-dev zlib1g-dev python3-zmq python3-yaml python3-texttable libsqlite3-dev
    python3-docutils
    openvswitch-switch-dpdk
    tshark wireshark-common python3 python3-scapy socat procps iproute2 util-linux
    gnuplot-nox clang-format git chromium
    qemu-system-x86 mmdebstrap e2fsprogs openssh-client
    openssh-server sshpass sysstat python3-spur python3-natsort python3-numpy
    python3-matplotlib python3-netaddr python3-packaging python-is-python3
    prometheus curl
)

if $do_packages; then
    missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing: ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q >/dev/null || die "apt-get update failed"
        apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
            die "apt-get install failed for: ${missing[*]}"
    else
        say "packages: all present"
    fi
fi

# Hugepages: reserve at least $hugepages 2 MB pages, mount hugetlbfs.
nr=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
[ -w "$nr" ] || die "2 MB hugepages are not available on this kernel ($nr)"
have=$(cat "$nr")
if [ "$have" -lt "$hugepages" ]; then
    echo "$hugepages" > "$nr" 2>/dev/null || true
    have=$(cat "$nr")
    [ "$have" -ge "$hugepages" ] ||
        die "could reserve only $have of $hugepages 2 MB hugepages (free memory? try --hugepages $have)"
fi
if ! grep -qs '^[^ ]* /dev/hugepages hugetlbfs' /proc/mounts; then
    mkdir -p /dev/hugepages
    mount -t hugetlbfs -o pagesize=2M nodev /dev/hugepages ||
        die "cannot mount hugetlbfs on /dev/hugepages"
fi
say "hugepages: $(awk '/HugePages_Free/ {print $2}' /proc/meminfo) free of $have (2 MB)"

if $do_build; then
    if [ ! -f "$build_dir/build.ninja" ]; then
        meson setup "$build_dir" "$top" -Dwerror=$werror >/dev/null ||
            die "meson setup failed (see $build_dir/meson-logs/meson-log.txt)"
    else
        meson configure "$build_dir" -Dwerror=$werror >/dev/null
    fi
    ninja -C "$build_dir" >"$build_dir/build.log" 2>&1 || {
        tail -n 40 "$build_dir/build.log" >&2
        die "build failed (full log: $build_dir/build.log)"
    }
    say "built in $build_dir"
fi
