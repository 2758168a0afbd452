#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# pvpkit-gen builds without its TRex server: a fresh build with
# -Dtrex=disabled must build pvpkit-gen, not link libzmq for it (zlib stays:
# the latency histograms' HdrHistogram form is compressed with it), say so in the setup summary, and refuse --trex with one line that
# says how it was built, before any EAL starts.
set -eu
src=${PVP_SOURCE_DIR:?run through meson test}
command -v meson >/dev/null || { echo "SKIP: meson not in PATH"; exit 77; }
command -v ninja >/dev/null || { echo "SKIP: ninja not in PATH"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvp-notrex.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fail() {
    echo "FAIL: $*"
    exit 1
}

meson setup -Dtrex=disabled -Dtests=false -Dbuildtype=debug "$tmp/build" "$src" \
    >"$tmp/setup.log" 2>&1 || { cat "$tmp/setup.log"; fail "meson setup"; }
grep -Eq 'data plane \(pvpkit-gen, pvpkit-fwd\) *: YES' "$tmp/setup.log" ||
    { echo "SKIP: no data plane here (DPDK, libpcap or libnuma missing)"; exit 77; }
grep -Eq 'TRex server \(pvpkit-gen --trex\) *: NO' "$tmp/setup.log" ||
    fail "the summary does not say the TRex server is off"
ninja -C "$tmp/build" app/gen/pvpkit-gen >"$tmp/ninja.log" 2>&1 ||
    { cat "$tmp/ninja.log"; fail "ninja"; }

gen=$tmp/build/app/gen/pvpkit-gen
if ldd "$gen" | grep -E 'libzmq'; then
    fail "pvpkit-gen links the TRex server's libzmq"
fi
rc=0
"$gen" -- --trex=127.0.0.1 >"$tmp/out" 2>&1 || rc=$?
[ "$rc" = 2 ] || { cat "$tmp/out"; fail "--trex: exit $rc, not 2"; }
want='pvpkit-gen: --trex: this pvpkit-gen was built without its TRex server (meson -Dtrex=disabled); rebuild with -Dtrex=enabled (needs libzmq3-dev and zlib1g-dev)'
[ "$(cat "$tmp/out")" = "$want" ] || { cat "$tmp/out"; fail "--trex: not the expected line"; }
echo "pvpkit-gen -Dtrex=disabled: built, no libzmq, --trex refused with: $want"
