#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Make the input of the pcap test and check what pvpkit-fwd wrote.

  fwd_pcap.py make IN.pcap           UDP/TCP over IPv4/IPv6, VLAN and QinQ
                                     tagged ones, ARP; UDP ones carry the
                                     pvpkit signature (stream 7, seq 0..,
                                     seq 5 left out); prints the count
  fwd_pcap.py check MODE IN OUT [SRC_MAC DST_MAC]
                                     every packet forwarded, in order, and
                                     rewritten exactly as MODE says
Needs scapy (Debian's /usr/bin/python3).
"""
import struct
import sys

from scapy.all import (ARP, IP, TCP, UDP, Dot1Q, Dot1AD, Ether, IPv6, Raw,
                       rdpcap, wrpcap)

SIG_MAGIC = 0x50565021
A, B = "02:00:00:00:00:0a", "02:00:00:00:00:0b"


def sig(stream, seq):
    return struct.pack("!IHI", SIG_MAGIC, stream, seq) + b"\0\0\0\0" + bytes(range(32))


def make(path):
    pkts, seq = [], 0
    l3s = [IP(src="10.0.0.1", dst="10.0.0.2"),
           IPv6(src="2001:db8::1", dst="2001:db8::2")]
    for vlan in (None, Dot1Q(vlan=100), "qinq"):
        for l3 in l3s:
            for l4 in (UDP(sport=1024, dport=4000), TCP(sport=1025, dport=80, flags="S")):
                for _ in range(3):
                    eth = Ether(src=A, dst=B)
                    if vlan == "qinq":
                        eth = eth / Dot1AD(vlan=10) / Dot1Q(vlan=20)
                    elif vlan is not None:
                        eth = eth / vlan
                    if isinstance(l4, UDP):
                        if seq == 5:    # a gap --seq-check must see
                            seq += 1
                        payload = sig(7, seq)
                        seq += 1
                    else:
                        payload = b"pvpkit-fwd-test-" + bytes(range(40))
                    pkts.append(eth / l3.copy() / l4.copy() / Raw(payload))
    pkts.append(Ether(src=A, dst="ff:ff:ff:ff:ff:ff") / ARP(psrc="10.0.0.1", pdst="10.0.0.2"))
    pkts.append(Ether(src=A, dst=B) / IP(src="10.0.0.1", dst="10.0.0.2", proto=47) / Raw(b"x" * 30))
    wrpcap(path, pkts)
    print(len(pkts))


def l3_of(p):
    return p[IP] if IP in p else (p[IPv6] if IPv6 in p else None)


def l4_of(p):
    return p[UDP] if UDP in p else (p[TCP] if TCP in p else None)


def checksums_ok(p):
    """Recompute every checksum scapy knows on a copy and compare."""
    q = p.__class__(bytes(p))
    for layer in (IP, UDP, TCP):
        if layer in q:
            del q[layer].chksum
    q = q.__class__(bytes(q))
    for layer in (IP, UDP, TCP):
        if layer in p and p[layer].chksum != q[layer].chksum:
            return False
    return True


def check(mode, inp, out, src_mac=None, dst_mac=None):
    a, b = rdpcap(inp), rdpcap(out)
    errors = []
    if len(a) != len(b):
        errors.append("forwarded %d of %d packets" % (len(b), len(a)))
    for i, (x, y) in enumerate(zip(a, b)):
        bx, by = bytes(x), bytes(y)
        if len(bx) != len(by):
            errors.append("#%d: length %d -> %d" % (i, len(bx), len(by)))
            continue
        if bx[12:] != by[12:] and mode in ("io", "macswap", "mac"):
            errors.append("#%d: bytes after the MACs changed" % i)
        if mode == "io" and bx != by:
            errors.append("#%d: io changed the packet" % i)
        elif mode in ("macswap", "5tswap"):
            if y.src != x.dst or y.dst != x.src:
                errors.append("#%d: MACs %s>%s became %s>%s" % (i, x.src, x.dst, y.src, y.dst))
        elif mode == "mac":
            if y.src.lower() != src_mac.lower() or y.dst.lower() != dst_mac.lower():
                errors.append("#%d: MACs %s>%s, expected %s>%s" % (i, y.src, y.dst, src_mac, dst_mac))
        if mode != "5tswap":
            continue
        lx, ly = l3_of(x), l3_of(y)
        if lx is None:
            if bx[12:] != by[12:]:
                errors.append("#%d: non-IP packet changed beyond the MACs" % i)
            continue
        if ly is None or (lx.src, lx.dst) != (ly.dst, ly.src):
            errors.append("#%d: addresses not swapped" % i)
        tx, ty = l4_of(x), l4_of(y)
        if tx is not None and (ty is None or (tx.sport, tx.dport) != (ty.dport, ty.sport)):
            errors.append("#%d: ports not swapped" % i)
        if not checksums_ok(y):
            errors.append("#%d: bad checksum after 5tswap" % i)
        if tx is not None and bytes(tx.payload) != bytes(ty.payload):
            errors.append("#%d: payload changed" % i)
        # Only the swapped fields may differ: swapping back gives the input.
        if ly is not None:
            y2 = y.copy()
            y2.src, y2.dst = y.dst, y.src
            l3 = l3_of(y2)
            l3.src, l3.dst = ly.dst, ly.src
            if ty is not None:
                l4 = l4_of(y2)
                l4.sport, l4.dport = ty.dport, ty.sport
            if bytes(y2) != bx:
                errors.append("#%d: more than the 5-tuple and MACs changed" % i)
    for e in errors[:20]:
        print(e)
    print("%s: %d packets checked, %d errors" % (mode, min(len(a), len(b)), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "make":
        make(sys.argv[2])
        sys.exit(0)
    if len(sys.argv) >= 5 and sys.argv[1] == "check":
        sys.exit(check(*sys.argv[2:]))
    print(__doc__, file=sys.stderr)
    sys.exit(2)
