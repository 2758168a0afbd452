#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-gen --trex on a net_ring loopback port, driven by the wire-protocol
# client of this folder (trex_proto.py, then trex_values.py's bounds); then
# SIGTERM: exit status 0.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_need

# Bad --trex options: one line on stderr, exit status 2, before any port.
badopt() {
    local want=$1 out rc
    shift
    out=$("$PVP_GEN" $(pvp_eal trexbad) -m 64 --vdev net_null0 -- "$@" 2>&1 >/dev/null)
    rc=$?
    [ $rc = 2 ] || fail "$* exited $rc, expected 2"
    echo "$out" | grep -v '^EAL\|^TELEMETRY' | grep -qF -e "$want" || fail "$*: expected '$want', got '$out'"
    info "refused as expected: $*"
}
badopt "is not a loopback address: TRex clients send no token" --trex 10.1.2.3
badopt "is not a loopback address" --trex "*:4501"
badopt "PORT must be 1..65535" --trex 127.0.0.1:99999
badopt "expected [HOST][:PORT[:PUB_PORT]]" --trex nohost.example:4501
badopt "the async port must differ from PORT" --trex 127.0.0.1:4501:4501
badopt "--trex excludes --server, --ctl, --token-file and --ctl-files-dir" --trex --server
badopt "--trex-remote needs --trex" --trex-remote

# Two free TCP ports on the loopback for the request and async sockets.
read -r rpc pub < <("$PVP_PY" -c 'import socket
a, b = socket.socket(), socket.socket()
a.bind(("127.0.0.1", 0)); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')

"$PVP_GEN" $(pvp_eal trex) -m 256 -l 0-1 --vdev net_ring0 -- \
    --trex "127.0.0.1:$rpc:$pub" --speed 10000 --idle-sleep 50 \
    >"$PVP_TMP/gen.log" 2>&1 &
pid=$!
pvp_track $pid
for _ in $(seq 50); do
    grep -q "TRex stateless server" "$PVP_TMP/gen.log" && break
    kill -0 $pid 2>/dev/null || { cat "$PVP_TMP/gen.log"; fail "pvpkit-gen exited"; }
    sleep 0.1
done
grep -q "TRex stateless server (API STL 5.1) on tcp://127.0.0.1:$rpc" "$PVP_TMP/gen.log" ||
    { cat "$PVP_TMP/gen.log"; fail "no server line"; }
cd "$PVP_SOURCE_DIR/test/dpdk/trex" || fail "no test folder"
"$PVP_PY" trex_proto.py "$rpc" "$pub" "$pid" || { cat "$PVP_TMP/gen.log"; fail "protocol"; }
"$PVP_PY" trex_values.py "$rpc" "$pub" || { cat "$PVP_TMP/gen.log"; fail "values"; }
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 0 ] || { cat "$PVP_TMP/gen.log"; fail "exit status $rc after SIGTERM"; }
echo "PASS"
