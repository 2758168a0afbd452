# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Frames the tests build by hand, as bytes (no scapy): the Internet
checksum, an ARP request, a neighbour solicitation, ICMP and ICMPv6
echo requests, VLAN tags and a classic pcap file of them.

Addresses are given as text ("02:00:00:00:00:99", "10.0.0.2",
"2001:db8::2"). Import it from a test with test/lib on the path:
PYTHONPATH="$PVP_SOURCE_DIR/test/lib" "$PVP_PY" - <<'PY' in a shell test.
"""
import socket
import struct


def csum(b):
    """The Internet checksum of @b (RFC 1071), an odd length padded with a zero."""
    b += b"\0" * (len(b) % 2)
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def mac(m):
    return bytes(int(x, 16) for x in m.split(":"))


def ip4(a):
    return socket.inet_aton(a)


def ip6(a):
    return socket.inet_pton(socket.AF_INET6, a)


def arp_request(smac, sip, tip, eth_src=None):
    """Who has @tip, tell @sip at @smac, broadcast from @eth_src (default
    @smac), padded to 60 bytes."""
    src = mac(smac)
    return (b"\xff" * 6 + (src if eth_src is None else mac(eth_src)) + b"\x08\x06" +
            struct.pack("!HHBBH", 1, 0x0800, 6, 4, 1) + src + ip4(sip) + bytes(6) + ip4(tip) +
            bytes(18))


def _icmp6(src, dst, icmp):
    """@icmp with its checksum over the IPv6 pseudo-header."""
    c = csum(src + dst + struct.pack("!I3xB", len(icmp), 58) + icmp)
    return icmp[:2] + struct.pack("!H", c) + icmp[4:]


def _ip6(smac, dmac, src, dst, hlim, icmp):
    return (dmac + mac(smac) + b"\x86\xdd" + struct.pack("!IHBB", 0x60000000, len(icmp), 58, hlim) +
            src + dst + icmp)


def ns(smac, src6, target6):
    """A neighbour solicitation for @target6 from @src6, to its
    solicited-node group, with @smac as the source link-layer option."""
    src, tgt = ip6(src6), ip6(target6)
    dst = bytes.fromhex("ff0200000000000000000001ff") + tgt[13:]
    icmp = _icmp6(src, dst, struct.pack("!BBHI", 135, 0, 0, 0) + tgt + b"\x01\x01" + mac(smac))
    return _ip6(smac, b"\x33\x33" + dst[12:], src, dst, 255, icmp)


def echo4(smac, dmac, sip, dip, data, ident=0x4242, seq=0):
    """An ICMP echo request (IPv4 id 1, TTL 64)."""
    icmp = struct.pack("!BBHHH", 8, 0, 0, ident, seq) + data
    icmp = icmp[:2] + struct.pack("!H", csum(icmp)) + icmp[4:]
    ip = struct.pack("!BBHHHBBH", 0x45, 0, 20 + len(icmp), 1, 0, 64, 1, 0) + ip4(sip) + ip4(dip)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return mac(dmac) + mac(smac) + b"\x08\x00" + ip + icmp


def echo6(smac, dmac, src6, dst6, data, ident=0x4242, seq=0):
    """An ICMPv6 echo request (hop limit 1)."""
    src, dst = ip6(src6), ip6(dst6)
    icmp = _icmp6(src, dst, struct.pack("!BBHHH", 128, 0, 0, ident, seq) + data)
    return _ip6(smac, mac(dmac), src, dst, 1, icmp)


def tag(frame, *tags):
    """@frame with VLAN tags (TPID, id) after its MAC addresses, outer first."""
    return frame[:12] + b"".join(struct.pack("!HH", tpid, vid) for tpid, vid in tags) + frame[12:]


def qinq(frame, outer, inner):
    """@frame in QinQ as TRex's client tags it: 802.1ad @outer, then 802.1Q @inner."""
    return tag(frame, (0x88A8, outer), (0x8100, inner))


def write_pcap(path, frames, ts_sec=1):
    """A classic pcap (Ethernet) of @frames, frame i at @ts_sec s + i us."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", ts_sec, i, len(fr), len(fr)) + fr)
