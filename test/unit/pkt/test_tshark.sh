#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Independent check of lib/pkt's frames: pkt_dump writes what the generator
# would send (every template, many flows, stamped signatures) and tshark
# validates every IPv4/UDP/TCP checksum, decodes VXLAN, counts flows and
# sizes. Also parses every example profile and every JSON example of
# doc/profiles.rst.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_cmd tshark
DUMP="$PVP_BUILD_DIR/test/unit/pkt/pkt_dump"
need_bin "$DUMP"

ts() {
    tshark -r "$1" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
        -o tcp.check_checksum:TRUE "${@:2}" 2>/dev/null
}

# One tshark pass per capture (tshark is slow to start on a busy box):
# decode $1 into $1.txt, columns "ip;udp;tcp checksum status;len;$2...",
# and require every checksum tshark verified to be Good (1), none Bad (0).
decode() {
    local pcap=$1 bad
    shift
    local f=(-e ip.checksum.status -e udp.checksum.status -e tcp.checksum.status -e frame.len)
    for x in "$@"; do f+=(-e "$x"); done
    ts "$pcap" -T fields -E separator=';' "${f[@]}" > "$pcap.txt" || fail "tshark $pcap"
    bad=$(awk -F';' '{ for (i = 1; i <= 3; i++) if ($i ~ /(^|,)0(,|$)/) n++ } END { print n + 0 }' \
        "$pcap.txt")
    [ "$bad" = 0 ] || fail "$pcap: $bad frames with a bad checksum"
    good=$(awk -F';' '$2 ~ /1/ || $3 ~ /1/' "$pcap.txt" | wc -l)
    [ "$good" = "$(wc -l < "$pcap.txt")" ] || fail "$pcap: only $good frames with a good L4 checksum"
    info "$pcap: $good frames, every L4 checksum good"
}
# Column $2.. of $1.txt, distinct lines.
distinct() { cut -d';' -f"$2" "$1.txt" | sort -u | wc -l; }

cd "$PVP_TMP" || exit 1

# 1. Plain IPv4/UDP, 1000 flows: exactly 1000 distinct 5-tuples, 60 B each.
cat > udp.json <<'J'
{"streams": [{"size": 64, "flows": 1000, "vars": [{"field": "udp.sport", "op": "random", "min": 1024, "max": 65535, "seed": 3}]}]}
J
"$DUMP" udp.json udp.pcap 3000 >/dev/null || fail "dump udp"
decode udp.pcap ip.src ip.dst udp.srcport udp.dstport
n=$(distinct udp.pcap 5-8)
[ "$n" = 1000 ] || fail "udp: $n distinct 5-tuples, want 1000"
n=$(cut -d';' -f4 udp.pcap.txt | sort -u)
[ "$n" = 60 ] || fail "udp: frame lengths $n, want 60 (64 with FCS)"

# 2. QinQ/IPv6/TCP tuple 10 x 50 = 500 flows, tags 1 (802.1ad) and 2.
cat > tcp6.json <<'J'
{"streams": [{"size": 1518, "headers": {"vlan": [1, 2], "ipv6": {}, "tcp": {}},
  "tuple": {"src_ip": ["2001:db8::1", "2001:db8::a"], "sport": [1, 50]}}]}
J
"$DUMP" tcp6.json tcp6.pcap 1500 >/dev/null || fail "dump tcp6"
decode tcp6.pcap ipv6.src tcp.srcport ieee8021ad.id vlan.id
n=$(distinct tcp6.pcap 5-6)
[ "$n" = 500 ] || fail "tcp6: $n distinct flows, want 500"
n=$(cut -d';' -f7-8 tcp6.pcap.txt | sort -u)
[ "$n" = "1;2" ] || fail "tcp6: 802.1ad;802.1Q ids '$n', want 1;2"

# 3. IMIX over VXLAN (outer IPv6 keeps a real UDP checksum) with inner vars:
#    exact 28:20:4 proportions over whole cycles, exact flow count.
cat > vxlan.json <<'J'
{"streams": [{"imix": [{"size": 130, "weight": 28}, {"size": 594, "weight": 20}, {"size": 1518, "weight": 4}],
  "headers": {"ipv6": {}, "vxlan": {"vni": 9, "inner": {"ipv4": {}, "udp": {}}}},
  "vars": [{"field": "inner.udp.sport", "op": "random", "min": 1, "max": 65535, "seed": 5},
           {"field": "inner.ipv4.dst", "min": "48.0.0.1", "max": "48.0.0.7"}], "flows": 777}]}
J
"$DUMP" vxlan.json vxlan.pcap 1300 >/dev/null || fail "dump vxlan"
decode vxlan.pcap vxlan.vni ip.dst udp.srcport
n=$(cut -d';' -f4 vxlan.pcap.txt | sort -n | uniq -c | awk '{printf "%s:%s ", $2, $1}')
[ "$n" = "126:700 590:500 1514:100 " ] || fail "vxlan: IMIX counts '$n', want 126:700 590:500 1514:100"
n=$(cut -d';' -f5 vxlan.pcap.txt | sort -u)
[ "$n" = 9 ] || fail "vxlan: VNI '$n'"
n=$(distinct vxlan.pcap 6-7)
[ "$n" = 777 ] || fail "vxlan: $n distinct inner flows, want 777"

# 4. VXLAN over IPv4 (outer UDP checksum 0), TCP inside, every field kind.
cat > vx4.json <<'J'
{"streams": [{"size": 300, "headers": {"vlan": 4, "vxlan": {"vni": 77, "inner": {"vlan": 5, "tcp": {}}}},
  "vars": [{"field": "inner.tcp.dport", "op": "dec", "min": 1, "max": 9000, "step": 7},
           {"field": "inner.eth.src", "min": 0, "max": 99}, {"field": "vlan.id", "min": 1, "max": 4094},
           {"field": "ipv4.src", "op": "random", "min": 0, "max": 4294967295, "seed": 1},
           {"field": {"offset": 291, "len": 4}, "op": "random", "min": 0, "max": 4294967295}], "flows": 3000}]}
J
"$DUMP" vx4.json vx4.pcap 3000 >/dev/null || fail "dump vx4"
decode vx4.pcap

# 5. Every example profile and every JSON block of doc/profiles.rst parses;
#    the examples' frames are checked in one merged capture.
i=0
for f in "$PVP_SOURCE_DIR"/examples/profiles/*.json; do
    [ -e "$f" ] || continue
    i=$((i + 1))
    "$DUMP" "$f" "ex$i.pcap" 200 >/dev/null || fail "example $f: $("$DUMP" "$f")"
done
if [ "$i" -gt 0 ]; then
    mergecap -F pcap -w examples.pcap ex*.pcap || fail "mergecap"
    decode examples.pcap
fi
doc="$PVP_SOURCE_DIR/doc/profiles.rst"
if [ -f "$doc" ]; then
    # The pcap example refers to this capture, next to the profile.
    cp "$PVP_SOURCE_DIR/test/unit/pkt/profiles/frames.pcap" .
    # Blocks after ".. code-block:: json" up to the next unindented line.
    awk -v dir="$PVP_TMP" '
        /^\.\. code-block:: json/ { n++; f = dir "/doc" n ".json"; inb = 1; next }
        inb && /^[^ \t]/ { inb = 0 }
        inb { print > f }' "$doc"
    for f in doc*.json; do
        [ -e "$f" ] || continue
        # Blocks that show a single stream object are wrapped into a profile.
        if ! grep -q '"streams"' "$f"; then
            { echo '{"streams": ['; cat "$f"; echo ']}'; } > "$f.full" && mv "$f.full" "$f"
        fi
        out=$("$DUMP" "$f" 2>&1) || fail "doc/profiles.rst example $f does not parse: $out"
    done
    info "doc/profiles.rst: $(ls doc*.json 2>/dev/null | wc -l) examples parse"
fi
echo "PASS"
