#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The coordinator builds and runs where DPDK is not installed: a fresh
# build with -Ddataplane=disabled and a pkg-config path that holds only
# jansson and sqlite3 (so nothing can find libdpdk, libpcap or libnuma by
# accident)
# must build pvpkit and the DPDK-free tests, link no librte_*, and leave
# pvpkit-gen and pvpkit-fwd out.
set -eu
src=${PVP_SOURCE_DIR:?run through meson test}
command -v meson >/dev/null || { echo "SKIP: meson not in PATH"; exit 77; }
command -v ninja >/dev/null || { echo "SKIP: ninja not in PATH"; exit 77; }
pcdir=$(pkg-config --variable=pcfiledir jansson 2>/dev/null) ||
    { echo "SKIP: no jansson.pc"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvp-nodpdk.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/pc"
ln -s "$pcdir/jansson.pc" "$tmp/pc/jansson.pc"
# pvpkit history's SQLite, which the coordinator links.
sqlite_pc=$(pkg-config --variable=pcfiledir sqlite3 2>/dev/null) ||
    { echo "SKIP: no sqlite3.pc"; exit 77; }
ln -s "$sqlite_pc/sqlite3.pc" "$tmp/pc/sqlite3.pc"

fail() {
    echo "FAIL: $*"
    exit 1
}

PKG_CONFIG_LIBDIR=$tmp/pc meson setup -Ddataplane=disabled -Dbuildtype=debug \
    "$tmp/build" "$src" >"$tmp/setup.log" 2>&1 || { cat "$tmp/setup.log"; fail "meson setup"; }
grep -q 'data plane (pvpkit-gen, pvpkit-fwd): NO' "$tmp/setup.log" ||
    fail "the summary does not say the data plane is off"
ninja -C "$tmp/build" app/pvpkit/pvpkit test/unit/util/test_util \
    test/unit/stats/test_stats_json >"$tmp/ninja.log" 2>&1 || { cat "$tmp/ninja.log"; fail "ninja"; }

pvpkit=$tmp/build/app/pvpkit/pvpkit
if ldd "$pvpkit" | grep librte; then
    fail "pvpkit links DPDK"
fi
[ ! -e "$tmp/build/app/gen/pvpkit-gen" ] || fail "pvpkit-gen built without DPDK"
[ ! -e "$tmp/build/app/fwd/pvpkit-fwd" ] || fail "pvpkit-fwd built without DPDK"
"$pvpkit" --help >/dev/null || fail "pvpkit --help"
"$tmp/build/test/unit/util/test_util" >/dev/null || fail "test_util"
"$tmp/build/test/unit/stats/test_stats_json" "$src/test/unit/stats/json" >/dev/null ||
    fail "test_stats_json"
echo "pvpkit without DPDK: built, no librte_*, --help and the DPDK-free tests pass"
