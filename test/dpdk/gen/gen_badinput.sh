#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Bad input: each case exits 2 with exactly one "pvpkit-gen: ..." line on
# stderr (the EAL may print its own lines before it), containing the text
# given. Profile errors carry file:line:col.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_hugepages 64

printf '{\n  "streams": [\n    {"port": 0, "size": 64,}\n  ]\n}\n' >"$PVP_TMP/syntax.json"
printf '{\n  "streams": [\n    {"port": 0,\n     "size": 20}\n  ]\n}\n' >"$PVP_TMP/range.json"
printf '{"streams": [{"port": 3, "size": 64}]}\n' >"$PVP_TMP/port.json"
n=0

# expect TEXT GEN-OPTIONS...
expect() {
    local text=$1 rc lines
    shift
    n=$((n + 1))
    "$PVP_GEN" $(pvp_eal "bad$n") -m 64 -l 0-1 --vdev "${vdev:-net_null0,no-rx=1}" -- "$@" \
        >"$PVP_TMP/out" 2>"$PVP_TMP/err"
    rc=$?
    lines=$(grep -c '^pvpkit-gen: ' "$PVP_TMP/err")
    info "[$*] -> rc $rc: $(grep '^pvpkit-gen: ' "$PVP_TMP/err")"
    [ $rc = 2 ] || { cat "$PVP_TMP/err"; fail "[$*]: exit $rc, expected 2"; }
    [ "$lines" = 1 ] || { cat "$PVP_TMP/err"; fail "[$*]: $lines error lines, expected 1"; }
    grep '^pvpkit-gen: ' "$PVP_TMP/err" | grep -qF -- "$text" ||
        fail "[$*]: message does not contain '$text'"
}

expect "unknown option '--bogus'" --bogus
expect "--rate" --rate
expect 'bad rate "fast"' --rate fast
expect "above the line rate" --rate 20Mpps
expect "above the line rate" --rate 11Gbps
expect "percent" --rate 101%
expect "--size: 10 is out of range" --size 10
expect "over the MTU 1500 of port 0 (start pvpkit-gen with --mtu 8982)" --size 9000 --mtu 1500
expect "--mtu: 9300 is out of range" --mtu 9300
expect "--size: 10000 is out of range" --size 10000
expect "--flows: 0 is out of range" --flows 0
expect "--duration" --duration -1
expect "unknown port 5" --ports 5
expect "nonexistent.pcap" --pcap "$PVP_TMP/nonexistent.pcap"
expect "syntax.json:3:" --profile "$PVP_TMP/syntax.json"
expect "range.json:4:" --profile "$PVP_TMP/range.json"
expect "unknown port 3" --profile "$PVP_TMP/port.json"
expect "missing.json" --profile "$PVP_TMP/missing.json"
expect "exclude each other" --imix --pcap x.pcap
expect "TX lcores needed" --tx-cores 4
expect "--imix-sizes" --imix-sizes 64:x
# An error after EAL init with a driver that holds malloc'd state (the
# pcap PMD's libpcap handles): the EAL is cleaned up before the exit, so
# the sanitizer build's leak check passes too.
vdev="net_pcap0,rx_pcap=$PVP_SOURCE_DIR/test/unit/pkt/profiles/frames.pcap,tx_pcap=$PVP_TMP/o.pcap" \
    expect "TX lcores needed" --tx-cores 4
echo "PASS"
