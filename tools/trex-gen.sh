# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-gen --trex for the tools that drive it with TRex's own client
# (trex-corpus.sh, trex-csit.sh): source it, then
#   trex_tool_gen GEN LOG EAL_ARG... -- OPTION...
# starts GEN on two free loopback ports with the EAL arguments and the
# pvpkit-gen OPTIONs given, its output in LOG, and sets $rpc, $pub and $pid
# once the server listens; if GEN exits first, prints LOG and exits 1.

trex_tool_gen() {
    local gen=$1 log=$2 eal=()
    shift 2
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        eal+=("$1")
        shift
    done
    [ $# -gt 0 ] && shift
    read -r rpc pub < <(/usr/bin/python3 -c 'import socket
a, b = socket.socket(), socket.socket()
a.bind(("127.0.0.1", 0)); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')
    "$gen" "${eal[@]}" -- --trex "127.0.0.1:$rpc:$pub" "$@" >"$log" 2>&1 &
    pid=$!
    for _ in $(seq 100); do
        grep -q "TRex stateless server" "$log" && return 0
        kill -0 "$pid" 2>/dev/null || { cat "$log"; exit 1; }
        sleep 0.1
    done
    cat "$log"
    echo "no TRex server within 10 s" >&2
    exit 1
}
