#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""TRex's stateless simulator as the oracle for pvpkit-gen --trex.

Each profile is loaded with TRex's own client (STLProfile.load), and each
of its streams is taken alone (self_start, no next stream; a random
variable without a random_seed gets seed 1, since TRex otherwise seeds
from the clock): TRex's simulator (scripts/stl-sim) writes the first N
packets TRex sends for it, and the same stream added through TRex's
client to a running `pvpkit-gen --trex` whose port 0 is a net_pcap
port gives pvpkit-gen's first N. The two are compared byte for byte
from byte 12 on (the simulator writes placeholder MACs), the checksums
fix_checksum_hw leaves to the NIC aside (the simulator writes what TRex
hands the NIC; pvpkit-gen what the NIC sends), and in a flow_stats
stream the bytes each fills its own way: pvpkit's signature, TRex's
latency payload (a stats stream's packet carries none in TRex) and the
L4 checksum over them; its headers, TRex's marks included, are
compared. One line per profile: PASS, FAIL (the first differing packet
and byte) or REFUSED (pvpkit-gen's error), SIMFAIL when the simulator
cannot run it.

Usage: trex_corpus.py TREX_CORE RPC_PORT PUB_PORT TX_PCAP WORKDIR N [PROFILE...]
"""
import glob
import json
import os
import struct
import subprocess
import sys
import time


def pcap_frames(path, skip=0):
    """The frames of a pcap file, after the first @skip."""
    out = []
    try:
        data = open(path, "rb").read()
    except OSError:
        return out
    if len(data) < 24:
        return out
    endian = "<" if data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    off, n = 24, 0
    while off + 16 <= len(data):
        incl = struct.unpack(endian + "I", data[off + 8:off + 12])[0]
        if off + 16 + incl > len(data):
            break
        if n >= skip:
            out.append(data[off + 16:off + 16 + incl])
        n += 1
        off += 16 + incl
    return out


def one_stream(js):
    """A stream's JSON as it is sent alone."""
    js = dict(js, self_start=True)
    js.pop("next", None)
    if any(i.get("op") == "random" for i in js.get("vm", {}).get("instructions", [])) \
            and not js.get("random_seed"):
        js["random_seed"] = 1
    return js


def hw_fields(js):
    """Bytes fix_checksum_hw leaves to the NIC: the simulator writes what TRex hands it."""
    import base64
    pkt = base64.b64decode(js["packet"]["binary"])
    out = set()
    for i in js.get("vm", {}).get("instructions", []):
        if i.get("type") != "fix_checksum_hw":
            continue
        l2, l4 = i["l2_len"], i["l2_len"] + i["l3_len"]
        v4 = len(pkt) > l2 and pkt[l2] >> 4 == 4
        if v4:
            out |= {l2 + 10, l2 + 11}
        proto = pkt[l2 + 9] if v4 and len(pkt) > l2 + 9 else {11: 17, 13: 6}.get(i["l4_type"])
        ck = {17: 6, 6: 16}.get(proto)
        if ck is not None:
            out |= {l4 + ck, l4 + ck + 1}
    return out


def l4_csum(pkt):
    """Offset of the outer UDP/TCP checksum of an Ethernet/VLAN/IP packet, None if none."""
    off, etype = 12, None
    while off + 2 <= len(pkt):
        etype = pkt[off] << 8 | pkt[off + 1]
        if etype not in (0x8100, 0x88a8):
            break
        off += 4
    off += 2
    if etype == 0x0800 and len(pkt) > off + 9:
        proto, l4 = pkt[off + 9], off + 4 * (pkt[off] & 0xf)
    elif etype == 0x86dd and len(pkt) > off + 6:
        proto, l4 = pkt[off + 6], off + 40
    else:
        return None
    return {17: l4 + 6, 6: l4 + 16}.get(proto)


def fs_fields(js, got, sim):
    """Bytes of a flow_stats stream's packet that TRex and pvpkit-gen fill each
    their own way: pvpkit's 14 B signature ("PVP!" on), TRex's 16 B latency
    payload (the packet's last 16 bytes), and the L4 checksum over them."""
    if not js.get("flow_stats", {}).get("enabled"):
        return set()
    out = set()
    at = got.find(b"PVP!")
    if at >= 0:
        out |= set(range(at, at + 14))
    if js["flow_stats"].get("rule_type") == "latency":
        out |= set(range(len(sim) - 16, len(sim)))
    ck = l4_csum(sim)
    if ck is not None:
        out |= {ck, ck + 1}
    return out


def simulate(core, path, n, log):
    # A cache (TREX_SIM_CACHE) keeps the simulator's pcap of the same stream JSON.
    cache = os.environ.get("TREX_SIM_CACHE")
    if cache:
        kept = os.path.join(cache, os.path.basename(path))
        if os.path.exists("%s.%d.pcap" % (kept, n)) and open(kept).read() == open(path).read():
            return pcap_frames("%s.%d.pcap" % (kept, n))
    subprocess.run(["./stl-sim", "-f", path, "-o", path + ".pcap", "-l", str(n), "-i", "0",
                    "-c", "1", "-r"], cwd=os.path.join(core, "scripts"), stdout=log,
                   stderr=subprocess.STDOUT, env=dict(os.environ, PYTHON3="/usr/bin/python3"),
                   timeout=120, check=False)
    if cache and os.path.exists(path + ".pcap"):
        import shutil
        shutil.copy(path, kept)
        shutil.copy(path + ".pcap", "%s.%d.pcap" % (kept, n))
    return pcap_frames(path + ".pcap")


def compare(sim, got, n, js):
    if len(sim) == 0:
        return "SIMFAIL"
    hw = hw_fields(js)
    for k, (a, b) in enumerate(zip(sim, got)):
        if len(a) != len(b):
            return "FAIL packet %d: %d B, simulator %d B" % (k, len(b), len(a))
        skip = hw | fs_fields(js, b, a)
        at = next((i for i in range(12, len(a)) if a[i] != b[i] and i not in skip), None)
        if at is not None:
            return "FAIL packet %d byte %d: %#04x, simulator %#04x" % (k, at, b[at], a[at])
    if len(got) < min(n, len(sim)):
        return "FAIL %d packets sent, simulator %d" % (len(got), len(sim))
    return "PASS"


def main():
    core, rpc, pub, tx_pcap, work, n = sys.argv[1:7]
    rpc, pub, n = int(rpc), int(pub), int(n)
    sys.path.insert(0, os.path.join(core, "scripts/automation/trex_control_plane/interactive"))
    os.environ.setdefault("TREX_EXT_LIBS", os.path.join(core, "scripts/external_libs"))
    import warnings
    warnings.simplefilter("ignore")
    from trex.stl.api import STLClient, STLProfile, STLStream
    names = sys.argv[7:] or sorted(os.path.basename(p)[:-3]
                                   for p in glob.glob(os.path.join(core, "scripts/stl/*.py")))
    c = STLClient(server="127.0.0.1", sync_port=rpc, async_port=pub, verbose_level="none")
    c.connect()
    c.acquire(ports=[0], force=True)
    log = open(os.path.join(work, "sim.log"), "a")
    counts = {}
    for name in names:
        try:
            prof = STLProfile.load(os.path.join(core, "scripts/stl", name + ".py"),
                                   direction=0, port_id=0)
            streams = [one_stream(s) for s in prof.to_json()]
        except Exception as e:  # a profile TRex's own client cannot load
            print("%-40s NOLOAD %s" % (name, str(e).splitlines()[0][:80] if str(e) else ""))
            counts["NOLOAD"] = counts.get("NOLOAD", 0) + 1
            continue
        verdict = "PASS"
        for i, js in enumerate(streams):
            path = os.path.join(work, "%s-%d.json" % (name, i))  # stl-sim reads one dot
            json.dump([js], open(path, "w"))
            sim = simulate(core, path, n, log)
            c.reset(ports=[0])
            c.acquire(ports=[0], force=True)
            # Frames the capture holds so far (the port's counters restart with reset).
            before = len(pcap_frames(tx_pcap))
            try:
                c.add_streams(STLProfile.from_json([js]).get_streams(), ports=[0])
                c.start(ports=[0], mult="2kpps", force=True)
            except Exception as e:
                verdict = "REFUSED stream %d: %s" % (i, str(e).strip().splitlines()[-1][:160])
                break
            end = time.time() + max(5.0, 3.0 * n / 2000)
            while time.time() < end and c.get_stats(ports=[0])[0]["opackets"] < n \
                    and c.is_traffic_active(ports=[0]):
                time.sleep(0.05)
            c.stop(ports=[0])
            time.sleep(0.2)
            got = pcap_frames(tx_pcap, before)[:n]
            r = compare(sim[:n], got, n, js)
            if r != "PASS":
                verdict = "%s (stream %d)" % (r, i)
                break
        key = verdict.split()[0]
        counts[key] = counts.get(key, 0) + 1
        print("%-40s %s" % (name, verdict), flush=True)
    c.disconnect()
    print("# " + ", ".join("%s %d" % kv for kv in sorted(counts.items())) +
          " of %d profiles, first %d packets of each stream" % (len(names), n))
    return 0


sys.exit(main())
