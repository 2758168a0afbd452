#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# `meson install` gives a working install: into a staging dir (DESTDIR),
# the three binaries, their man pages and the testbed script, and the
# installed pvpkit finds that script next to itself (not the source tree
# baked into the binary) and points it at the apps installed with it.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
need_cmd meson
need_cmd "$PVP_PY"

D=$PVP_TMP/destdir
meson install -C "$PVP_BUILD_DIR" --no-rebuild --destdir "$D" --quiet >"$PVP_TMP/install.log" 2>&1 ||
	fail "meson install: $(tail -3 "$PVP_TMP/install.log")"

# Where the options put things (absolute, or relative to the prefix).
dir() {
	"$PVP_PY" - "$PVP_BUILD_DIR" "$1" <<'PY'
import json, os, subprocess, sys
opts = {o["name"]: o["value"] for o in json.loads(subprocess.run(
    ["meson", "introspect", "--buildoptions", sys.argv[1]],
    check=True, capture_output=True, text=True).stdout)}
print(os.path.join(opts["prefix"], opts[sys.argv[2]]))
PY
}
BIN=$D$(dir bindir)
LIBEXEC=$D$(dir libexecdir)/pvpkit
MAN1=$D$(dir mandir)/man1

nfail=0
bad() { echo "FAIL: $*"; nfail=$((nfail + 1)); }

for b in pvpkit pvpkit-gen pvpkit-fwd; do
	[ -x "$BIN/$b" ] || bad "$BIN/$b not installed"
	[ -s "$MAN1/$b.1" ] || bad "$MAN1/$b.1 not installed"
	if command -v groff >/dev/null; then
		warn=$(groff -man -Tutf8 -ww -z "$MAN1/$b.1" 2>&1)
		[ -z "$warn" ] || bad "$b.1: groff says: $warn"
	fi
done
[ -x "$LIBEXEC/testbed.sh" ] || bad "$LIBEXEC/testbed.sh not installed"
[ -f "$LIBEXEC/testbed-vm.sh" ] || bad "$LIBEXEC/testbed-vm.sh (which testbed.sh sources) not installed"
[ -f "$LIBEXEC/testbed-l3.sh" ] || bad "$LIBEXEC/testbed-l3.sh (which testbed.sh sources) not installed"

# Every option of pvpkit's commands is in its man page.
for cmd in trial search run; do
	for opt in $("$BIN/pvpkit" "$cmd" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		grep -q -- "$(printf '%s' "$opt" | sed 's/-/\\\\-/g')" "$MAN1/pvpkit.1" ||
			bad "pvpkit.1 does not document $cmd $opt"
	done
done

# The installed pvpkit runs the installed script: status of a testbed
# that is not there says so, with the script's status 3.
unset PVP_TESTBED_SCRIPT PVP_BUILD_DIR PVP_TESTBED_RUNDIR
out=$("$BIN/pvpkit" testbed status --dir "$PVP_TMP/tb" 2>&1)
rc=$?
[ "$rc" = 3 ] || bad "installed pvpkit testbed status: exit $rc: $out"
echo "$out" | grep -q '^testbed: down$' || bad "installed testbed status said: $out"
# ... and says nothing on stderr (a part it sources not installed would).
err=$("$BIN/pvpkit" testbed status --dir "$PVP_TMP/tb" 2>&1 >/dev/null)
[ -z "$err" ] || bad "installed testbed status, on stderr: $err"
"$BIN/pvpkit" testbed --help | grep -qx "  $LIBEXEC/testbed.sh" ||
	bad "installed pvpkit testbed --help names another script: $("$BIN/pvpkit" testbed --help)"

# ... from next to itself, telling it where the installed apps are.
cat >"$LIBEXEC/testbed.sh" <<'EOF'
#!/bin/sh
echo "bin=${PVP_BIN_DIR:-} build=${PVP_BUILD_DIR:-} args=$*"
EOF
out=$("$BIN/pvpkit" testbed up -q)
[ "$out" = "bin=$BIN build= args=up -q" ] || bad "installed pvpkit ran the script with: $out"

[ "$nfail" = 0 ] || fail "$nfail check(s) failed"
echo "ok"
