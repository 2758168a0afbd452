#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-gen writes into a pcap file (net_pcap TX, --count so the file is
# complete); tshark, with IP/UDP/TCP checksum validation on, and
# pcap_check.py verify every frame: checksums good, sizes as asked (pcap
# frames have no FCS: 64 B -> 60 B), signature sequence 0..n-1 per stream,
# exact number of distinct flows, IMIX proportions over whole cycles,
# VLAN/QinQ, IPv6/TCP and VXLAN profiles, flow cache and per-packet paths.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_hugepages 128
need_cmd tshark
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"

CHECK="$PVP_SOURCE_DIR/test/dpdk/gen/pcap_check.py"
PROF="$PVP_SOURCE_DIR/examples/profiles"
n=0

# gen_to_pcap NAME GEN-OPTIONS...: run the generator into $PVP_TMP/NAME.pcap
# ($VDEV_EXTRA: more net_pcap arguments, e.g. a second TX queue's file)
gen_to_pcap() {
    local name=$1 rc
    shift
    n=$((n + 1))
    "$PVP_GEN" $(pvp_eal "pcap$n") -m 256 --lcores '0@0,1@1,2@1' \
        --vdev "net_pcap0,tx_pcap=$PVP_TMP/$name.pcap${VDEV_EXTRA:-}" -- --no-rx --quiet "$@" \
        >"$PVP_TMP/$name.log" 2>&1
    rc=$?
    [ $rc = 0 ] || { cat "$PVP_TMP/$name.log"; fail "$name: pvpkit-gen exited $rc"; }
}

check() {
    local name=$1
    shift
    info "$name"
    "$PVP_PY" "$CHECK" "$PVP_TMP/$name.pcap" "$@" || fail "$name"
}

gen_to_pcap one --size 64 --count 500
check one --count 500 --lens 60:500 --flows 1 --streams 1

gen_to_pcap cache --size 64 --flows 100 --count 1000
check cache --count 1000 --lens 60:1000 --flows 100 --flow-fields ip.src

gen_to_pcap big --size 1518 --flows 10 --count 100
check big --count 100 --lens 1514:100 --flows 10 --flow-fields ip.src

# Jumbo: a --size over 1518 raises the port's MTU to fit (8982 here).
gen_to_pcap jumbo --size 9000 --flows 10 --count 50
check jumbo --count 50 --lens 8996:50 --flows 10 --flow-fields ip.src

# More flows than the flow cache (65536): fields written per packet.
gen_to_pcap many --size 64 --flows 70000 --count 70000
check many --count 70000 --lens 60:70000 --flows 70000 --flow-fields ip.src

# TRex IMIX 64/594/1518 at 28:16:4 = 7:4:1 per 12 frames; 20 cycles.
gen_to_pcap imix --imix --count 240
check imix --count 240 --lens 60:140,590:80,1514:20
# --imix keeps pvpkit's default headers (doc/profiles.rst says so, as a
# difference from TRex's profile): IPv4/UDP 16.0.0.1:1025 -> 48.0.0.1:12.
tshark -r "$PVP_TMP/imix.pcap" -T fields -e ip.src -e ip.dst -e udp.srcport -e udp.dstport |
    sort | uniq -c | grep -qx ' *240 16.0.0.1	48.0.0.1	1025	12' ||
    fail "imix: headers not 16.0.0.1:1025 -> 48.0.0.1:12"

# TRex's own stl/imix.py as a profile (examples/profiles/trex-imix.json):
# its sizes and proportions, UDP 53 -> 53, and src 10.0.0.1-254 with dst
# 8.0.0.1-254 moving together. Frame i has the size at i mod 12 of the
# IMIX cycle (64 594 64 64 594 64 1518 64 594 64 594 64) and the address
# pair i mod 254: the sizes are exact per cycle and every pair is sent 12
# times in 12 x 254 frames, but as 12 and 254 share a factor 2, a size
# meets only the pairs of its cycle positions' parity (doc/profiles.rst).
gen_to_pcap trex --profile "$PROF/trex-imix.json" --count 3048
check trex --count 3048 --lens 60:1778,590:1016,1514:254 --flows 254 --flow-fields ip.src,ip.dst
tshark -r "$PVP_TMP/trex.pcap" -T fields -e frame.len -e ip.src -e ip.dst -e udp.srcport \
    -e udp.dstport >"$PVP_TMP/trex.txt" || fail "trex: tshark"
"$PVP_PY" - "$PVP_TMP/trex.txt" <<'PY' || fail "trex: not TRex's IMIX"
import collections, sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().splitlines()]
cycle = ["60", "590", "60", "60", "590", "60", "1514", "60", "590", "60", "590", "60"]
hosts = collections.Counter()
for i, (ln, src, dst, sp, dp) in enumerate(rows):
    assert (sp, dp) == ("53", "53"), (sp, dp)
    a, b = src.split("."), dst.split(".")
    assert a[:3] == ["10", "0", "0"] and b[:3] == ["8", "0", "0"] and a[3] == b[3], (src, dst)
    assert (ln, int(a[3])) == (cycle[i % 12], i % 254 + 1), (i, ln, src)
    hosts[a[3]] += 1
assert len(hosts) == 254 and set(hosts.values()) == {12}, hosts
print("# trex-imix: 3048 frames, sizes by the cycle, each address pair 12 times")
PY

gen_to_pcap imix2 --imix-sizes 64:3,256:1 --count 400 --flows 4
check imix2 --count 400 --lens 60:300,252:100 --flows 4 --flow-fields ip.src

# Two TX lcores: flows split, one sequence space (wire stream) per lcore.
# net_pcap: one TX queue per tx_pcap file; the two files are concatenated.
need_cmd mergecap
VDEV_EXTRA=",tx_pcap=$PVP_TMP/split-q1.pcap" gen_to_pcap split-q0 --size 64 --flows 100 \
    --count 1000 --tx-cores 2
mergecap -F pcap -a -w "$PVP_TMP/split.pcap" "$PVP_TMP/split-q0.pcap" "$PVP_TMP/split-q1.pcap" ||
    fail "mergecap"
check split --count 1000 --lens 60:1000 --flows 100 --flow-fields ip.src --streams 2

gen_to_pcap vlan --profile "$PROF/vlan.json" --count 400
check vlan --count 400 --lens 60:200,124:200 --streams 2
"$PVP_PY" "$CHECK" "$PVP_TMP/vlan.pcap" --flows 17 --flow-fields vlan.id,ip.src >/dev/null ||
    fail "vlan: expected 16 flows on VLAN 100 and one QinQ flow"

gen_to_pcap v6 --profile "$PROF/ipv6-tcp.json" --count 256
check v6 --count 256 --lens 124:128,86:128 --streams 2
check v6 --flows 65 --flow-fields ipv6.src,tcp.srcport

gen_to_pcap vxlan --profile "$PROF/vxlan.json" --count 256
check vxlan --vxlan --count 256 --lens 124:128,156:128 --flows 33 --flow-fields ip.src
tshark -r "$PVP_TMP/vxlan.pcap" -Y vxlan 2>/dev/null | wc -l | grep -qx 256 ||
    fail "vxlan: tshark does not see 256 VXLAN frames"

gen_to_pcap tuple --profile "$PROF/tuple.json" --count 2000
check tuple --count 2000 --lens 124:2000 --flows 1000 --flow-fields ip.src,udp.srcport

gen_to_pcap flows --profile "$PROF/udp-flows.json" --count 600
check flows --count 600 --flows 300 --flow-fields ip.src,udp.srcport

# Burst modes: a burst of 1000 and 5 bursts of 100 (profile), nothing more.
gen_to_pcap bursts --profile "$PROF/bursts.json"
check bursts --count 1500 --lens 60:1000,252:500 --streams 2

# Command-line multi-burst: 3 bursts of 100 packets, 1 ms apart.
gen_to_pcap mburst --size 128 --count 100 --bursts 3 --ibg 1000 --rate 100kpps
check mburst --count 300 --lens 124:300 --streams 1

# A pcap as templates (signature stamped again, checksums fixed), and
# replayed as captured: "loop": 3 sends the file three times, unchanged.
gen_to_pcap src --size 64 --flows 5 --count 10
gen_to_pcap tmpl --pcap "$PVP_TMP/src.pcap" --count 25
check tmpl --count 25 --lens 60:25 --flows 5 --flow-fields ip.src --streams 1
printf '{"streams": [{"port": 0, "pcap": "%s", "replay": true, "loop": 3}]}\n' \
    "$PVP_TMP/src.pcap" >"$PVP_TMP/replay.json"
gen_to_pcap replay --profile "$PVP_TMP/replay.json"
"$PVP_PY" - "$PVP_TMP/src.pcap" "$PVP_TMP/replay.pcap" <<'PY' || fail "replay"
import struct, sys
def frames(p):
    f = open(p, "rb"); f.read(24); out = []
    while True:
        h = f.read(16)
        if len(h) < 16:
            return out
        out.append(f.read(struct.unpack("<IIII", h)[2]))
a, b = frames(sys.argv[1]), frames(sys.argv[2])
print("# replay: %d frames from %d" % (len(b), len(a)))
if b != a * 3:
    sys.exit("replay is not the file three times")
PY

echo "PASS"
