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
mkfifo "$PVP_TMP/fifo"

printf '{\n  "streams": [\n    {"port": 0, "size": 64,}\n  ]\n}\n' >"$PVP_TMP/syntax.json"
printf '{\n  "streams": [\n    {"port": 0,\n     "size": 20}\n  ]\n}\n' >"$PVP_TMP/range.json"
printf '{"streams": [{"port": 3, "size": 64}]}\n' >"$PVP_TMP/port.json"
# Every IPv4 source x every destination: 2^64 flows, once a SIGFPE.
printf '{"streams":[{"size":64,"tuple":{"src_ip":["0.0.0.0","255.255.255.255"],"dst_ip":["0.0.0.0","255.255.255.255"]}}]}\n' \
    >"$PVP_TMP/tuple.json"
n=0

# expect TEXT GEN-OPTIONS...
expect() {
    local text=$1 rc lines
    shift
    n=$((n + 1))
    # A hang (a FIFO once blocked open() for good) is a failure too.
    timeout 60 "$PVP_GEN" $(pvp_eal "bad$n") -m 64 -l 0-1 --vdev net_null0,no-rx=1 -- "$@" \
        >"$PVP_TMP/out" 2>"$PVP_TMP/err"
    rc=$?
    lines=$(grep -c '^pvpkit-gen: ' "$PVP_TMP/err")
    info "[$*] -> rc $rc: $(grep '^pvpkit-gen: ' "$PVP_TMP/err")"
    [ $rc = 2 ] || { cat "$PVP_TMP/err"; fail "[$*]: exit $rc, expected 2"; }
    [ "$lines" = 1 ] || { cat "$PVP_TMP/err"; fail "[$*]: $lines error lines, expected 1"; }
    grep '^pvpkit-gen: ' "$PVP_TMP/err" | grep -qF -- "$text" ||
        fail "[$*]: message does not contain '$text'"
}

# Options are ours before the EAL's: with an EAL that cannot start (a
# memory request no machine here meets, as on a box without hugepages)
# --help still prints the usage and bad options still get their own line.
NOEAL="--in-memory --no-pci --file-prefix=pvpt-noeal-$$ -m 1000000 -l 0"
timeout 60 "$PVP_GEN" $NOEAL -- --help >"$PVP_TMP/out" 2>"$PVP_TMP/err" ||
    fail "--help without an EAL: exit $?"
grep -q "^Usage: .*pvpkit-gen \[EAL options\] -- \[options\]" "$PVP_TMP/out" || fail "--help: no usage"
[ -s "$PVP_TMP/err" ] && fail "--help: stderr not empty: $(cat "$PVP_TMP/err")"
# expect_early TEXT GEN-OPTIONS...: exit 2 and that line alone on stderr.
expect_early() {
    local text=$1
    shift
    timeout 60 "$PVP_GEN" $NOEAL -- "$@" >"$PVP_TMP/out" 2>"$PVP_TMP/err"
    rc=$?
    info "[$*] (no EAL) -> rc $rc: $(cat "$PVP_TMP/err")"
    [ $rc = 2 ] || fail "[$*] without an EAL: exit $rc, expected 2"
    [ "$(wc -l <"$PVP_TMP/err")" = 1 ] || { cat "$PVP_TMP/err"; fail "[$*]: not one line"; }
    grep -qF -- "pvpkit-gen: $text" "$PVP_TMP/err" || fail "[$*]: message does not contain '$text'"
}
expect_early "unknown option '--bogus'" --bogus
expect_early "--size: 10 is out of range" --size 10
expect_early "--json $PVP_TMP/fifo: not a regular file" --json "$PVP_TMP/fifo"
expect_early "--json $PVP_TMP/no/such.json: No such file or directory" --json "$PVP_TMP/no/such.json"

expect "unknown option '--bogus'" --bogus
expect "--rate needs a value" --rate
expect "unknown option '-x'" -x
expect "--ports: port 0 is given twice" --ports 0,0
expect "frame of 1519 B is over the MTU 1500 of port 0 (start pvpkit-gen with --mtu 1501)" \
    --imix-sizes 64:1,1519:1
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
expect "tuple.json:1:81: streams[0].tuple.dst_ip: the tuple's ranges make more than 2^48 flows" \
    --profile "$PVP_TMP/tuple.json"
expect "missing.json" --profile "$PVP_TMP/missing.json"
expect "fifo: not a regular file (a FIFO)" --profile "$PVP_TMP/fifo"
expect "fifo: not a regular file (a FIFO)" --pcap "$PVP_TMP/fifo"
expect "/dev/zero: not a regular file (a character device)" --pcap /dev/zero
# Not a profile: the line gives the position, not the file's first word.
echo 'root:x:0:0:root:/root:/bin/bash' >"$PVP_TMP/passwd"
expect "passwd:1:4: '[' or '{' expected" --profile "$PVP_TMP/passwd"
grep -q root "$PVP_TMP/err" && fail "the error line shows the file's content"
expect "exclude each other" --imix --pcap x.pcap
expect "TX lcores needed" --tx-cores 4
expect "--imix-sizes" --imix-sizes 64:x
echo "PASS"
