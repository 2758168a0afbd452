#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Bad input: exit status 2 and one line that says what is wrong. Option
# errors are caught before the EAL starts (stderr is exactly that line);
# port, queue and memory errors after it (the EAL's own messages may come
# first, ours is the last line).

. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/fwd/fwd_lib.sh"

need_bin "$PVP_FWD"

n=0
# expect NAME PATTERN ARGS...: exit status 2, last stderr line matches, and
# it is the only line of ours.
expect() {
    local name=$1 pat=$2 err=$PVP_TMP/err rc last
    shift 2
    n=$((n + 1))
    timeout 60 "$PVP_FWD" "$@" >"$PVP_TMP/out" 2>"$err"
    rc=$?
    last=$(tail -n 1 "$err")
    info "$name: rc $rc: $last"
    [ $rc = 2 ] || { cat "$PVP_TMP/out" "$err"; fail "$name: exit status $rc, expected 2"; }
    echo "$last" | grep -q -- "^pvpkit-fwd: .*$pat" || fail "$name: last line does not match '$pat'"
    [ "$(grep -c '^pvpkit-fwd:' "$err")" = 1 ] || fail "$name: more than one error line"
}
# expect_early: the same, and nothing else on stderr (no EAL was started).
expect_early() {
    expect "$@"
    [ "$(wc -l <"$PVP_TMP/err")" = 1 ] || fail "$1: more than one line on stderr"
}

# Options are ours before the EAL's: with an EAL that cannot start (a
# memory request no machine here meets, as on a box without hugepages)
# --help still prints the usage and a bad option still gets its line.
NOEAL="--in-memory --no-pci --file-prefix=pvpt-noeal-$$ -m 1000000 -l 0"
timeout 60 "$PVP_FWD" $NOEAL -- --help >"$PVP_TMP/out" 2>"$PVP_TMP/err" || fail "--help without an EAL: exit $?"
grep -q "^Usage: .*pvpkit-fwd \[EAL options\] -- \[options\]" "$PVP_TMP/out" || fail "--help: no usage"
[ -s "$PVP_TMP/err" ] && fail "--help: stderr not empty: $(cat "$PVP_TMP/err")"
expect_early "no EAL, unknown option" "unknown option" $NOEAL -- --bogus

NH="$(fwd_eal_nohuge bad) -l 0"
expect_early "unknown mode" "unknown mode" $NH --vdev net_null0 -- --mode foo
expect_early "unknown topology" "unknown topology" $NH --vdev net_null0 -- --topology ring
expect_early "unknown option" "unknown option" $NH --vdev net_null0 -- --bogus
expect_early "burst 0" '--burst: "0" must be a whole number in 1..512' $NH --vdev net_null0 -- --burst 0
expect_early "rxq 99" '--rxq: "99" must be a whole number in 1..' $NH --vdev net_null0 -- --rxq 99
# Base 10 everywhere, and the same ranges as pvpkit-gen's.
expect_early "hex burst" '--burst: "0x10" must be a whole number in 1..512' $NH --vdev net_null0 -- --burst 0x10
expect_early "rxd 1" '--rxd: "1" must be a whole number in 64..32768' $NH --vdev net_null0 -- --rxd 1
expect_early "stats-period 86400" '--stats-period: "86400" must be a whole number in 0..3600' $NH \
    --vdev net_null0 -- --stats-period 86400
expect_early "duration nan" '--duration: "nan" must be a duration in 0.001..86400 s' $NH \
    --vdev net_null0 -- --duration nan
expect_early "duration 0" '--duration: "0" must be a duration in 0.001..86400 s' $NH \
    --vdev net_null0 -- --duration 0
expect_early "mac without peer" "needs --peer-mac" $NH --vdev net_null0 -- --mode mac
expect_early "bad peer mac" "bad MAC" $NH --vdev net_null0 -- --mode mac --peer-mac 1:2:3
# --json is checked before anything runs, and never blocks on a FIFO.
mkfifo "$PVP_TMP/fifo"
expect_early "json into a FIFO" "--json $PVP_TMP/fifo: not a regular file" $NH --vdev net_null0 -- \
    --json "$PVP_TMP/fifo"
expect_early "json into a missing folder" "--json $PVP_TMP/no/such.json: No such file or directory" \
    $NH --vdev net_null0 -- --json "$PVP_TMP/no/such.json"
expect_early "json into a device" "--json /dev/null: not a regular file" $NH --vdev net_null0 -- \
    --json /dev/null
expect "no ports" "no ports" $NH -- --ctl none
expect "paired, odd ports" "even number of ports" $NH --vdev net_null0 -- --topology paired --ctl none
# A pcap file with a header and no packets: net_pcap has one queue per file.
$PVP_PY -c 'import struct,sys; sys.stdout.buffer.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))' \
    >"$PVP_TMP/empty.pcap"
expect "rxq over what the port does" "at most 1 RX queues" $NH \
    --vdev "net_pcap0,rx_pcap=$PVP_TMP/empty.pcap,tx_pcap=$PVP_TMP/o.pcap" -- --rxq 2 --ctl none
expect "txq fewer than lcores" "need one TX queue each" \
    $(fwd_eal_nohuge bad2) --lcores "0@0,1@1,2@1" --vdev net_null0 -- --rxq 2 --txq 1 --ctl none
expect "ctl beyond loopback, no token" "token" $NH --vdev net_null0 -- --ctl tcp:0.0.0.0:0
# Asking more memory than any machine here has is how a box without enough
# hugepages fails.
expect "no hugepages" "cannot initialise the EAL" --in-memory --no-pci \
    --file-prefix=pvpt-nohuge-$$ -m 1000000 -l 0 --vdev net_null0 -- --ctl none
# --duration is fractional, with units, as pvpkit-gen's and pvpkit's.
timeout 30 "$PVP_FWD" $NH --vdev net_null0 -- --duration 200ms --ctl none --json "$PVP_TMP/d.json" \
    >"$PVP_TMP/out" 2>&1 || { cat "$PVP_TMP/out"; fail "--duration 200ms: exit $?"; }
[ "$(fwd_total "$PVP_TMP/d.json" 0 tx_packets)" -gt 0 ] || fail "--duration 200ms forwarded nothing"
echo "PASS: $n bad inputs rejected with exit status 2 and one line"
