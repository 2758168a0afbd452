#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-gen --server against hostile requests (gen_ctl_hostile.py):
# numbers out of range, unknown parameters, files it must not read. On a
# unix socket without a files directory, then on loopback TCP with
# --ctl-files-dir. After each, SIGTERM must end it at once with status 0
# (a FIFO named in profile.load used to block the control thread and
# leave the generator deaf to SIGTERM).
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_hugepages 128
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"

D=$PVP_TMP
HERE="$PVP_SOURCE_DIR/test/dpdk/ctl"
mkdir -p "$D/files"
mkfifo "$D/fifo" "$D/files/fifo"
truncate -s 100G "$D/huge.json"
printf 'TOPSECRET line one\nline two\n' >"$D/secret.json"
cp "$PVP_SOURCE_DIR/test/unit/pkt/profiles/frames.pcap" "$D/files/"
cp "$PVP_SOURCE_DIR/test/unit/pkt/profiles/frames.pcap" "$D/out.pcap"
echo '{"streams": [{"size": 64}, {"pcap": "frames.pcap"}]}' >"$D/files/prof.json"
echo '{"streams": [{"pcap": "../out.pcap"}]}' >"$D/files/pcap-out.json"
ln -s "$D/secret.json" "$D/files/escape.json"

# gen_run NAME CTL-OPTIONS...: start, run the python part, SIGTERM.
gen_run() {
    local name=$1 mode=$2 addr
    shift 2
    : >"$D/$name.log"
    "$PVP_GEN" $(pvp_eal "hostile-$name") -m 256 -l 0-1 --vdev net_ring0 -- \
        --server --idle-sleep 100 "$@" >"$D/$name.log" 2>&1 &
    local pid=$!
    pvp_track $pid
    for _ in $(seq 1 100); do
        addr=$(sed -n 's/^pvpkit-gen: control on //p' "$D/$name.log")
        [ -n "$addr" ] && break
        kill -0 $pid 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$addr" ] || { cat "$D/$name.log"; fail "$name: no control address"; }
    "$PVP_PY" "$HERE/gen_ctl_hostile.py" "$mode" "$addr" "$D" || { cat "$D/$name.log"; fail "$name"; }
    kill -TERM $pid
    for _ in $(seq 1 50); do
        kill -0 $pid 2>/dev/null || break
        sleep 0.1
    done
    kill -0 $pid 2>/dev/null && fail "$name: SIGTERM ignored"
    wait $pid || { cat "$D/$name.log"; fail "$name: exit status $?"; }
}

gen_run unix unix --ctl "unix:$D/gen.sock"
gen_run files files --ctl tcp:127.0.0.1:0 --ctl-files-dir "$D/files"
echo "PASS"
