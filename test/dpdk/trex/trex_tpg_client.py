#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""TRex's own client (trex-core's STLClient) and its own TPG profiles
against pvpkit-gen --trex, port 0 sending to port 1: the tag table from
scripts/stl/tpg_tags_conf.py (VLANs 1..20) and a QinQ tag, enable_tpg,
scripts/stl/tpg_1tag_stream.py (--qinq, ten VLAN streams, one tpgid
each) and scripts/stl/tpg_dot1q_vm.py (one tpgid over VLANs 1..50 by the
field engine: sequence errors by design), get_tpg_stats read back as the
client parses it, reconciled with what was sent; then disable_tpg.

Usage: trex_tpg_client.py TREX_CORE RPC_PORT PUB_PORT
"""
import os
import sys
import time
import warnings

core, rpc, pub = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sys.path.insert(0, os.path.join(core, "scripts/automation/trex_control_plane/interactive"))
os.environ.setdefault("TREX_EXT_LIBS", os.path.join(core, "scripts/external_libs"))
warnings.simplefilter("ignore")
from trex.stl.api import STLClient, STLProfile, STLTaggedPktGroupTagConf  # noqa: E402

STL = os.path.join(core, "scripts/stl")
BURST, VLANS = 20, 10


def rx_stats(c, tpgid, num_tags):
    """Every tag's counters of a tpgid, sections expanded."""
    stats, _ = c.get_tpg_stats(port=1, tpgid=tpgid, min_tag=0, max_tag=num_tags,
                               max_sections=num_tags, unknown_tag=True, untagged=True)
    out = {}
    for k, v in stats["1"][str(tpgid)].items():
        if "-" in k:
            lo, hi = k.split("-")
            for t in range(int(lo), int(hi) + 1):
                out[t] = v
        else:
            out[k if not k.isdigit() else int(k)] = v
    return out


def wait_rx(c, tpgid, tag, pkts, num_tags):
    for _ in range(100):
        if rx_stats(c, tpgid, num_tags)[tag]["pkts"] >= pkts:
            return
        time.sleep(0.05)
    raise AssertionError("tpgid %d tag %s: fewer than %d frames" % (tpgid, tag, pkts))


c = STLClient(server="127.0.0.1", sync_port=rpc, async_port=pub, verbose_level="none")
c.connect()
c.acquire(ports=[0, 1], force=True)
c.remove_all_streams(ports=[0, 1])
tags = [{"type": "QinQ", "value": {"vlans": [1, 100]}}] + STLTaggedPktGroupTagConf.load(
    os.path.join(STL, "tpg_tags_conf.py"), tunables=["--max-vlan", "50"])
num_tags = len(tags)
c.enable_tpg(num_tpgids=VLANS + 1, tags=tags, rx_ports=[1])
status = c.get_tpg_status()
print("get_tpg_status: %s" % status)
assert status["enabled"] and status["data"]["num_tags"] == num_tags, status
assert c.get_tpg_tags(min_tag=0, max_tag=2) == tags[:2]

# tpg_1tag_stream.py: tpgid 0 QinQ (tag 0), tpgid i VLAN i (tag i).
prof = STLProfile.load_py(os.path.join(STL, "tpg_1tag_stream.py"),
                          tunables=["--qinq", "--vlans", str(VLANS), "--pps", "1000",
                                    "--burst-size", str(BURST)])
c.add_streams(prof.get_streams(), ports=[0])
c.start(ports=[0])
c.wait_on_traffic(ports=[0], timeout=20)
wait_rx(c, VLANS, VLANS, BURST, num_tags)
for tpgid in range(VLANS + 1):
    st = rx_stats(c, tpgid, num_tags)
    size = 78 if tpgid == 0 else 74  # + 4 B FCS: the frame sizes of the profile
    for tag, v in st.items():
        want = BURST if tag == tpgid else 0
        if v["pkts"] != want or v["bytes"] != want * (size + 4) or v.get("seq_err", 0) != 0:
            raise AssertionError("1tag: tpgid %d tag %s: %s, expected %d frames in order"
                                 % (tpgid, tag, v, want))
for tpgid in range(VLANS + 1):
    tx = c.get_tpg_tx_stats(port=0, tpgid=tpgid)["0"][str(tpgid)]
    size = 78 if tpgid == 0 else 74
    assert tx == {"pkts": BURST, "bytes": BURST * (size + 4)}, (tpgid, tx)
print("tpg_1tag_stream.py: %d tpgids x %d frames, each on its own tag, in order"
      % (VLANS + 1, BURST))
print("  tpgid 1: %s" % {k: v for k, v in rx_stats(c, 1, num_tags).items() if k == 1})

# tpg_dot1q_vm.py: 200 frames of tpgid 0 over VLANs 1..50, seq one count.
c.remove_all_streams(ports=[0])
c.clear_tpg_stats(port=1, tpgid=0, min_tag=0, max_tag=num_tags, unknown_tag=True, untagged=True)
prof = STLProfile.load_py(os.path.join(STL, "tpg_dot1q_vm.py"), tunables=["--pps", "1000"])
c.add_streams(prof.get_streams(), ports=[0])
c.start(ports=[0])
c.wait_on_traffic(ports=[0], timeout=20)
wait_rx(c, 0, 50, 4, num_tags)
st = rx_stats(c, 0, num_tags)
# tpgid 0's seq goes on from the BURST frames above: VLAN v (tag v) gets seq
# BURST+v-1 and three more 50 apart, against an expected 0: errors by design.
for v in range(1, 51):
    want = {"pkts": 4, "bytes": 4 * 78, "seq_err": BURST + v - 1 + 3 * 49,
            "seq_err_too_big": 4, "seq_err_too_small": 0, "ooo": 0, "dup": 0}
    if st[v] != want:
        raise AssertionError("dot1q_vm: VLAN %d: %s, expected %s" % (v, st[v], want))
print("tpg_dot1q_vm.py: 200 frames over VLANs 1..50, 4 each, sequence errors as "
      "designed; VLAN 7: %s" % st[7])
# Unknown tags, as TRex's own regression test (stl_tpg_test.py) checks them:
# none so far; QinQ (1, 100) and VLAN 7 invalidated, one frame each.
assert c.get_tpg_unknown_tags(port=1) == {"1": []}, c.get_tpg_unknown_tags(port=1)
c.update_tpg_tags([{"type": None, "tag_id": 0}, {"type": None, "tag_id": 7}])
c.remove_all_streams(ports=[0])
prof = STLProfile.load_py(os.path.join(STL, "tpg_1tag_stream.py"),
                          tunables=["--qinq", "--vlans", str(VLANS), "--pps", "1000",
                                    "--burst-size", "1"])
c.add_streams(prof.get_streams(), ports=[0])
c.start(ports=[0])
c.wait_on_traffic(ports=[0], timeout=20)
want = [{"tag": {"type": "QinQ", "value": {"vlans": [1, 100]}}, "tpgid": 0},
        {"tag": {"type": "Dot1Q", "value": {"vlan": 7}}, "tpgid": 7}]
for _ in range(100):
    unknown = c.get_tpg_unknown_tags(port=1)["1"]
    if len(unknown) >= len(want):
        break
    time.sleep(0.05)
assert sorted(unknown, key=str) == sorted(want, key=str), unknown
c.clear_tpg_unknown_tags(port=1)
assert c.get_tpg_unknown_tags(port=1) == {"1": []}
print("get_tpg_unknown_tags: %s" % unknown)
c.disable_tpg()
assert not c.get_tpg_status()["enabled"]
c.remove_all_streams(ports=[0, 1])
c.release(ports=[0, 1])
c.disconnect()
print("PASS")
