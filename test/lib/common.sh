# SPDX-License-Identifier: BSD-3-Clause
# Shared helpers for the shell tests. Source it: . "$PVP_SOURCE_DIR/test/lib/common.sh"
# Exit codes: 0 pass, 77 skip (meson), anything else fail.

set -u

: "${PVP_BUILD_DIR:?run through meson test}"
: "${PVP_SOURCE_DIR:?run through meson test}"

PVP_GEN="$PVP_BUILD_DIR/app/gen/pvpkit-gen"
PVP_FWD="$PVP_BUILD_DIR/app/fwd/pvpkit-fwd"
PVP_COORD="$PVP_BUILD_DIR/app/pvpkit/pvpkit"
# Debian's python3 has scapy; a pyenv python on PATH may not.
PVP_PY=/usr/bin/python3

# A private work dir per test, removed on exit.
PVP_TMP=$(mktemp -d "/tmp/pvp-test.XXXXXX")
PVP_PIDS=""

pvp_cleanup() {
    local p
    for p in $PVP_PIDS; do
        kill "$p" 2>/dev/null
    done
    for p in $PVP_PIDS; do
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            kill -0 "$p" 2>/dev/null || break
            sleep 0.2
        done
        kill -9 "$p" 2>/dev/null
    done
    rm -rf "$PVP_TMP"
}
trap pvp_cleanup EXIT

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
info() { echo "# $*"; }

# Remember a background pid so it is killed when the test ends.
pvp_track() { PVP_PIDS="$PVP_PIDS $1"; }

need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }

# Free 2 MB hugepages; skip when fewer than $1 (default 256) are free.
need_hugepages() {
    local want=${1:-256} free
    free=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
    [ "${free:-0}" -ge "$want" ] ||
        skip "needs $want free 2 MB hugepages, have ${free:-0} (run tools/bootstrap.sh)"
    grep -q hugetlbfs /proc/mounts || skip "no hugetlbfs mounted (run tools/bootstrap.sh)"
}

need_cmd() { command -v "$1" >/dev/null 2>&1 || skip "needs $1 (run tools/bootstrap.sh)"; }

need_bin() { [ -x "$1" ] || skip "not built: $1"; }

# EAL options every test process uses: a unique file prefix, in-memory so
# a crash leaves no hugepage files, no PCI scan. $1: a short name.
pvp_eal() {
    echo "--in-memory --no-pci --file-prefix=pvpt-$1-$$ --log-level=lib.eal:error"
}

# JSON-RPC over a pvpkit app's unix control socket: pvp_rpc SOCK METHOD
# PARAMS-JSON prints the result as JSON; an error answer is one line on
# stderr and exit 1.
pvp_rpc() {
    "$PVP_PY" - "$1" "$2" "$3" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect(sys.argv[1])
s.sendall((json.dumps({"jsonrpc": "2.0", "id": 1, "method": sys.argv[2],
                       "params": json.loads(sys.argv[3])}) + "\n").encode())
buf = b""
while not buf.endswith(b"\n"):
    d = s.recv(65536)
    if not d:
        break
    buf += d
r = json.loads(buf)
if "error" in r:
    sys.exit("rpc %s: %s" % (sys.argv[2], r["error"]))
print(json.dumps(r["result"]))
PY
}

# json_get FILE EXPR: print EXPR, a Python expression over d, the JSON
# document in FILE (json_get out.json 'd["ports"][0]["tx"]').
json_get() {
    "$PVP_PY" -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}
