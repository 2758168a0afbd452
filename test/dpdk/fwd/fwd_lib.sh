# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
# Helpers shared by the pvpkit-fwd tests. Source after test/lib/common.sh.

FWD_DIR="$PVP_SOURCE_DIR/test/dpdk/fwd"
FWD_CTL="$PVP_PY $FWD_DIR/fwd_ctl.py"

# EAL options for vdevs that need no hugepages (net_pcap, net_null):
# --no-huge implies legacy memory, which --in-memory refuses, so
# --no-shconf keeps the run from leaving files instead.
fwd_eal_nohuge() {
    echo "--no-huge -m 128 --no-shconf --no-pci --file-prefix=pvpt-$1-$$ --log-level=lib.eal:error"
}

# fwd_start LOG ARGS...: start pvpkit-fwd in the background with ARGS
# (EAL options, "--", its own), output in LOG; sets FWD_PID.
fwd_start() {
    local log=$1
    shift
    "$PVP_FWD" "$@" >"$log" 2>&1 &
    FWD_PID=$!
    pvp_track "$FWD_PID"
}

# fwd_wait_sock SOCK PID: wait until the control socket answers ping.
fwd_wait_sock() {
    local i
    for i in $(seq 1 100); do
        if [ -S "$1" ] && $FWD_CTL "$1" ping >/dev/null 2>&1; then
            return 0
        fi
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

# fwd_stop PID: SIGTERM, then the exit status of the process.
fwd_stop() {
    kill -TERM "$1" 2>/dev/null
    wait "$1"
}

# fwd_total JSON PORT COUNTER: a port counter from the --json summary
# pvpkit-fwd writes when it ends.
fwd_total() {
    $PVP_PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["ports"][int(sys.argv[2])][sys.argv[3]])' \
        "$1" "$2" "$3" 2>/dev/null
}

# json_eval JSON EXPR: evaluate a python expression on "j", the JSON text
# given (json_get in test/lib/common.sh reads a file).
json_eval() {
    $PVP_PY -c 'import json,sys; j=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"
}
