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
    timeout 60 "$PVP_GEN" $(pvp_eal "bad$n") -m 64 -l 0-1 --vdev "${vdev:-net_null0,no-rx=1}" -- "$@" \
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
expect_early '--size: "10" must be a whole number in 64..9216' --size 10
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
# Below 1 pps: refused by the rate parser or, computed for the port, by
# the generator (1e-9 % of 10 Gbps).
expect "1e-300" --rate 1e-300
expect "--rate: " --rate 1e-9%
expect '--size: "10" must be a whole number in 64..9216' --size 10
expect "over the MTU 1500 of port 0 (start pvpkit-gen with --mtu 8982)" --size 9000 --mtu 1500
expect '--mtu: "9300" must be a whole number in 68..9198' --mtu 9300
expect '--size: "10000" must be a whole number in 64..9216' --size 10000
expect '--flows: "0" must be a whole number in 1..16777216' --flows 0
# Base 10 everywhere: no octal, no hex, no exponent, no sign.
expect '--size: "0x40" must be a whole number in 64..9216' --size 0x40
expect '--flows: "1e3" must be a whole number in 1..16777216' --flows 1e3
expect '--count: "-5" must be a whole number in 1..281474976710656' --count -5
expect '--duration: "-1" must be a duration in 0.001..86400 s' --duration -1
expect '--duration: "nan" must be a duration in 0.001..86400 s' --duration nan
expect '--duration: "1e30" must be a duration in 0.001..86400 s' --duration 1e30
expect '--duration: "0x10" must be a duration in 0.001..86400 s' --duration 0x10
expect '--duration: "5 s" must be a duration in 0.001..86400 s' --duration "5 s"
expect "--bursts x --count is more than 2^48 packets" --bursts 4294967295 --count 281474976710656
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
expect '--imix-sizes: "x" must be a whole number in 1..1000000' --imix-sizes 64:x
expect '--imix-sizes: "0x40" must be a whole number in 64..9216' --imix-sizes 0x40:1
expect "--imix-sizes: \"\" must be a whole number" --imix-sizes 64,,128

# What base 10 means: --flows 010 is ten flows (it was eight), and a
# duration takes a unit: 50ms at 1000 pps is exactly 50 packets.
"$PVP_GEN" $(pvp_eal ok1) -m 64 -l 0-1 --vdev net_null0,no-rx=1 --log-level=pvp.gen:info -- \
    --flows 010 --count 20 --quiet >"$PVP_TMP/out" 2>&1 || { cat "$PVP_TMP/out"; fail "--flows 010"; }
grep -q 'stream 0 "stream0" port 0 size 64 eth/ipv4/udp flows 10 vars 1' "$PVP_TMP/out" ||
    { cat "$PVP_TMP/out"; fail "--flows 010 is not 10 flows"; }
"$PVP_GEN" $(pvp_eal ok2) -m 64 -l 0-1 --vdev net_null0,no-rx=1 -- \
    --rate 1000 --duration 50ms --quiet --json "$PVP_TMP/d.json" >"$PVP_TMP/out" 2>&1 ||
    { cat "$PVP_TMP/out"; fail "--duration 50ms"; }
"$PVP_PY" -c 'import json,sys; t=json.load(open(sys.argv[1]))["traffic"]; assert (t["tx_packets"], t["tx_asked"]) == (50, 50), t' \
    "$PVP_TMP/d.json" || fail "--duration 50ms at 1000 pps is not 50 packets"
# An error after EAL init with a driver that holds malloc'd state (the
# pcap PMD's libpcap handles): the EAL is cleaned up before the exit, so
# the sanitizer build's leak check passes too.
vdev="net_pcap0,rx_pcap=$PVP_SOURCE_DIR/test/unit/pkt/profiles/frames.pcap,tx_pcap=$PVP_TMP/o.pcap" \
    expect "port 0 (net_pcap0): 4 TX queues asked, the device has 1" --tx-cores 4
echo "PASS"
