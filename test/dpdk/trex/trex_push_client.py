#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""TRex's own client (trex-core's STLClient) pushing pcaps to pvpkit-gen
--trex: push_remote() (the server reads the file) and push_pcap() (the
client turns the file into chained single-packet bursts), each waited for
with wait_on_traffic() and counted; trex_push.py check finds their frames
on port 1.

Usage: trex_push_client.py TREX_CORE RPC_PORT PUB_PORT DIR
"""
import os
import sys
import warnings

core, rpc, pub, d = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
sys.path.insert(0, os.path.join(core, "scripts/automation/trex_control_plane/interactive"))
os.environ.setdefault("TREX_EXT_LIBS", os.path.join(core, "scripts/external_libs"))
warnings.simplefilter("ignore")
from trex.stl.api import STLClient  # noqa: E402

from scapy.all import Ether, IP, UDP, Raw, wrpcap  # noqa: E402  (the client's scapy by now)


def frames(src, n):
    pkts = [Ether() / IP(src=src, dst="48.0.0.1", id=i) / UDP(sport=1025, dport=12) / Raw(b"y" * 40)
            for i in range(n)]
    for i, p in enumerate(pkts):
        p.time = 2000.0 + i * 0.002
    return pkts


wrpcap(d + "/client_remote.pcap", frames("16.0.0.5", 6))
wrpcap(d + "/client_local.pcap", frames("16.0.0.6", 4))
c = STLClient(server="127.0.0.1", sync_port=rpc, async_port=pub, verbose_level="none")
c.connect()
c.acquire(ports=[0, 1], force=True)
# reset() removes every capture the server lists: not pvpkit-gen's --capture (port 1's, checked after).
c.reset(ports=[0, 1])
c.push_remote(d + "/client_remote.pcap", ports=[0], ipg_usec=1000, count=2)
c.wait_on_traffic(ports=[0], timeout=10)
remote = c.get_stats()[0]["opackets"]
print("push_remote: 6 frames x 2 passes, opackets %d" % remote)
assert remote == 12, remote
c.push_pcap(d + "/client_local.pcap", ports=[0], speedup=2.0, count=3)
c.wait_on_traffic(ports=[0], timeout=10)
local = c.get_stats()[0]["opackets"] - remote
print("push_pcap: 4 frames x 3 loops, opackets +%d" % local)
assert local == 12, local
c.release(ports=[0, 1])
c.disconnect()
print("PASS")
