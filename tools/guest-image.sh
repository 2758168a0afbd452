#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The PVP guest image of `pvpkit testbed up --vm`: a Debian root
# filesystem made by mmdebstrap from Debian's packages only (kernel,
# systemd, openssh-server, the DPDK runtime with dpdk-testpmd), with
# pvpkit-fwd of this build installed and its systemd unit
# (examples/systemd) enabled. Nothing in the image is per testbed: the
# testbed hands the guest its token, ssh keys, data NIC addresses and
# pvpkit-fwd options at boot through QEMU's fw_cfg, so one cached image
# serves every testbed.
#
# Two cached stages under the cache dir, each keyed by a hash of its
# inputs and rebuilt only when they change:
#   base-HASH.tar  the mmdebstrap root (the package list, the mirror, this
#                  script's base recipe): minutes, downloads packages
#   img-HASH/      vmlinuz, initrd.img, rootfs.img (ext4): the base plus
#                  pvpkit-fwd, the unit and the guest's boot files: seconds
# Prints the image dir (img-HASH) on stdout; progress goes to stderr.
#
# See doc/testbed.rst ("A QEMU guest").

set -u
set -o pipefail

PROG=${0##*/}
SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)

CACHE_DIR=${PVP_GUEST_CACHE:-/var/cache/pvpkit/guest}
BUILD_DIR=${PVP_BUILD_DIR:-}
FWD_BIN=""
MIRROR=${PVP_GUEST_MIRROR:-http://deb.debian.org}
SUITE=bookworm
QUIET=0
# Old images beside the newest are removed once this many are kept.
KEEP=2

die() { echo "$PROG: error: $*" >&2; exit 1; }
say() { [ "$QUIET" = 1 ] || echo "$PROG: $*" >&2; }

usage() {
	cat <<EOF
usage: $PROG [options]
Builds (or finds in the cache) the testbed's QEMU guest image; prints its dir.
  --cache DIR       cache dir (default \$PVP_GUEST_CACHE, else
                    /var/cache/pvpkit/guest); keep it outside the source tree
  --build-dir DIR   pvpkit build dir whose pvpkit-fwd goes in (default
                    \$PVP_BUILD_DIR, else $SRC_DIR/build)
  --fwd-bin PATH    the pvpkit-fwd to install (default: the build dir's)
  --check           print the image dir when it is cached, else exit 3
  -q, --quiet       errors only
The mirror is \$PVP_GUEST_MIRROR (default http://deb.debian.org).
EOF
}

CHECK=0
while [ $# -gt 0 ]; do
	case "$1" in
	--cache) [ $# -ge 2 ] || die "$1 needs a value"; CACHE_DIR=$2; shift ;;
	--build-dir) [ $# -ge 2 ] || die "$1 needs a value"; BUILD_DIR=$2; shift ;;
	--fwd-bin) [ $# -ge 2 ] || die "$1 needs a value"; FWD_BIN=$2; shift ;;
	--check) CHECK=1 ;;
	-q | --quiet) QUIET=1 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die "unknown option '$1'" ;;
	esac
	shift
done

[ -n "$FWD_BIN" ] || FWD_BIN=${BUILD_DIR:-$SRC_DIR/build}/app/fwd/pvpkit-fwd
[ -x "$FWD_BIN" ] || die "$FWD_BIN: no pvpkit-fwd there (ninja -C ${BUILD_DIR:-$SRC_DIR/build})"
for c in mmdebstrap mkfs.ext4 dpkg-query sha256sum; do
	command -v "$c" >/dev/null || die "$c not found (apt-get install mmdebstrap e2fsprogs)"
done

# The packages: what boots and is reached (kernel, systemd, ssh), the
# DPDK runtime and testpmd (what ovs_perf starts; Debian 12 ships
# dpdk-testpmd in dpdk-dev, not in dpdk), socat (a testpmd guest's
# telemetry socket reached over the management network), the PMDs a virtio-net
# PCI device needs (plugins: no ldd finds them), and the Debian packages
# of every library pvpkit-fwd links, so that the build's binary runs.
fwd_packages() {
	local lib pkg
	ldd "$FWD_BIN" | awk '/=> \// {print $3}' | while read -r lib; do
		pkg=$(dpkg-query -S "$(readlink -f "$lib")" 2>/dev/null | head -n1) ||
			pkg=$(dpkg-query -S "$lib" 2>/dev/null | head -n1) || continue
		echo "${pkg%%:*}"
	done | sort -u
}
PACKAGES="linux-image-amd64 systemd-sysv udev kmod iproute2 openssh-server socat
dpdk dpdk-dev librte-net-virtio23 librte-mempool-ring23 librte-bus-pci23 $(fwd_packages | tr '\n' ' ')"
PACKAGES=$(echo $PACKAGES | tr ' ' '\n' | sort -u | tr '\n' ',')
PACKAGES=${PACKAGES%,}

# What the base depends on: the list, the mirror, the recipe below.
BASE_RECIPE_VERSION=1
base_key() {
	printf '%s\n' "$PACKAGES" "$MIRROR" "$SUITE" "$BASE_RECIPE_VERSION" | sha256sum | cut -c1-16
}
# And the image: the base, pvpkit-fwd, the unit, the guest's files, this script.
img_key() {
	cat "$FWD_BIN" "$SRC_DIR/examples/systemd/pvpkit-fwd.service" \
		"$SRC_DIR/examples/systemd/pvpkit-fwd.conf" "$SRC_DIR"/tools/guest/* "$0" |
		sha256sum | cut -c1-16
}

BASE_KEY=$(base_key)
IMG_KEY=$BASE_KEY-$(img_key)
BASE=$CACHE_DIR/base-$BASE_KEY.tar
IMG=$CACHE_DIR/img-$IMG_KEY

if [ -r "$IMG/rootfs.img" ] && [ -r "$IMG/vmlinuz" ] && [ -r "$IMG/initrd.img" ]; then
	echo "$IMG"
	exit 0
fi
[ "$CHECK" = 0 ] || exit 3
[ "$(id -u)" = 0 ] || die "must run as root (mmdebstrap, device nodes in the image)"
mkdir -p "$CACHE_DIR" || die "cannot create $CACHE_DIR"
# One builder at a time per cache: two testbeds coming up share the result.
exec {LOCK}>"$CACHE_DIR/.lock" || die "cannot open $CACHE_DIR/.lock"
flock "$LOCK" || die "cannot lock $CACHE_DIR/.lock"
if [ -r "$IMG/rootfs.img" ]; then
	echo "$IMG"
	exit 0
fi

WORK=$(mktemp -d "$CACHE_DIR/.work.XXXXXX") || die "cannot make a work dir in $CACHE_DIR"
trap 'rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM

T0=$SECONDS
if [ ! -r "$BASE" ]; then
	say "base: mmdebstrap $SUITE from $MIRROR (downloads ~250 MB, a few minutes)"
	# No documentation, manuals or locales: a smaller image boots and
	# copies faster. The initramfs holds only what mounts a virtio disk.
	if ! mmdebstrap --variant=apt --mode=root --format=tar \
		--include="$PACKAGES" \
		--aptopt='Acquire::Check-Valid-Until "false"' \
		--aptopt='APT::Install-Recommends "false"' \
		--dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-include=/usr/share/doc/*/copyright' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--dpkgopt='path-exclude=/usr/share/info/*' \
		--essential-hook='mkdir -p "$1/etc/initramfs-tools/conf.d" && echo MODULES=list >"$1/etc/initramfs-tools/conf.d/pvpkit" && printf "%s\n" virtio_pci virtio_blk ext4 >>"$1/etc/initramfs-tools/modules"' \
		"$SUITE" "$WORK/base.tar" \
		"deb $MIRROR/debian $SUITE main" \
		"deb $MIRROR/debian $SUITE-updates main" \
		"deb $MIRROR/debian-security $SUITE-security main" \
		>"$WORK/mmdebstrap.log" 2>&1; then
		tail -n 15 "$WORK/mmdebstrap.log" | sed 's/^/    /' >&2
		die "mmdebstrap failed"
	fi
	mv "$WORK/base.tar" "$BASE" || die "cannot write $BASE"
	say "base: done in $((SECONDS - T0)) s ($BASE)"
fi

say "image: unpacking the base, adding pvpkit-fwd"
ROOT=$WORK/root
mkdir -p "$ROOT" && tar -C "$ROOT" -xf "$BASE" || die "cannot unpack $BASE"

install -m 0755 "$FWD_BIN" "$ROOT/usr/local/bin/pvpkit-fwd" || die "cannot install pvpkit-fwd"
install -d "$ROOT/etc/pvpkit" "$ROOT/etc/systemd/system/multi-user.target.wants" \
	"$ROOT/etc/systemd/system/pvpkit-fwd.service.d" "$ROOT/etc/systemd/network" \
	"$ROOT/usr/local/sbin"
install -m 0644 "$SRC_DIR/examples/systemd/pvpkit-fwd.service" "$ROOT/etc/systemd/system/"
install -m 0644 "$SRC_DIR/examples/systemd/pvpkit-fwd.conf" "$ROOT/etc/pvpkit/fwd.conf"
install -m 0755 "$SRC_DIR/tools/guest/pvpkit-guest-setup" "$ROOT/usr/local/sbin/"
for u in pvpkit-guest-setup pvpkit-testpmd pvpkit-telemetry-relay; do
	install -m 0644 "$SRC_DIR/tools/guest/$u.service" "$ROOT/etc/systemd/system/"
	ln -sf "/etc/systemd/system/$u.service" "$ROOT/etc/systemd/system/multi-user.target.wants/"
done
install -m 0644 "$SRC_DIR/tools/guest/fwd-after-setup.conf" \
	"$ROOT/etc/systemd/system/pvpkit-fwd.service.d/"
install -m 0644 "$SRC_DIR/tools/guest/mgmt.network" "$ROOT/etc/systemd/network/"
ln -sf /etc/systemd/system/pvpkit-fwd.service \
	"$ROOT/etc/systemd/system/multi-user.target.wants/pvpkit-fwd.service"
ln -sf /lib/systemd/system/systemd-networkd.service \
	"$ROOT/etc/systemd/system/multi-user.target.wants/systemd-networkd.service"
# The testbed's keys come at boot: no host key is shared by all images,
# and nothing waits for a network that is configured statically.
rm -f "$ROOT"/etc/ssh/ssh_host_*
rm -f "$ROOT/etc/systemd/system/network-online.target.wants/systemd-networkd-wait-online.service"
# Under TCG every unit costs seconds of boot: none that a forwarder VM
# without a screen, timers or binfmt needs (the serial console keeps its
# getty; Debian's dpdk.service only reads a config that is empty here).
for u in getty@tty1.service dpdk.service systemd-binfmt.service apt-daily.timer \
	apt-daily-upgrade.timer e2scrub_all.timer e2scrub_reap.service fstrim.timer; do
	ln -sf /dev/null "$ROOT/etc/systemd/system/$u"
done
echo pvpkit-guest >"$ROOT/etc/hostname"
echo "LABEL=pvpkit-root / ext4 rw,noatime 0 1" >"$ROOT/etc/fstab"
: >"$ROOT/etc/machine-id"
passwd -R "$ROOT" -d root >/dev/null 2>&1 || true

mkdir -p "$WORK/img"
cp "$ROOT"/boot/vmlinuz-* "$WORK/img/vmlinuz" &&
	cp "$ROOT"/boot/initrd.img-* "$WORK/img/initrd.img" ||
	die "no kernel or initrd in the base"
# Room for logs and the journal beside what is there.
MB=$(($(du -sm "$ROOT" | cut -f1) * 5 / 4 + 128))
say "image: ext4 of $MB MB"
mkfs.ext4 -q -L pvpkit-root -d "$ROOT" "$WORK/img/rootfs.img" "${MB}M" >&2 ||
	die "mkfs.ext4 failed"
rm -rf "$ROOT"
mv "$WORK/img" "$IMG" || die "cannot write $IMG"

# Older images of the same cache: keep the newest few.
ls -1dt "$CACHE_DIR"/img-* 2>/dev/null | tail -n +$((KEEP + 1)) | xargs -r rm -rf
ls -1t "$CACHE_DIR"/base-*.tar 2>/dev/null | tail -n +$((KEEP + 1)) | xargs -r rm -f
say "image: ready in $((SECONDS - T0)) s: $IMG"
echo "$IMG"
