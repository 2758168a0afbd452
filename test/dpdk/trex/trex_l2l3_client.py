#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""TRex's own client (a trex-core checkout) against pvpkit-gen --trex, two
ports wired to each other: port 1 owns 10.0.0.2, port 0's set_l3_mode()
resolves it (ServiceARP), service mode off, and a stream whose packet
leaves its MACs to the port (Ether() without addresses: flags 0) sends 5
frames; trex_l2l3.py check finds them on port 1 addressed to port 1's MAC.

Usage: trex_l2l3_client.py TREX_CORE RPC_PORT PUB_PORT
"""
import os
import sys
import warnings

core, rpc, pub = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sys.path.insert(0, os.path.join(core, "scripts/automation/trex_control_plane/interactive"))
os.environ.setdefault("TREX_EXT_LIBS", os.path.join(core, "scripts/external_libs"))
warnings.simplefilter("ignore")
from trex.stl.api import (STLClient, STLStream, STLPktBuilder, STLTXSingleBurst,  # noqa: E402
                          Ether, IP, UDP)

c = STLClient(server="127.0.0.1", sync_port=rpc, async_port=pub, verbose_level="error")
c.connect()
c.acquire(ports=[0, 1], force=True)
# reset() removes every capture the server lists, not pvpkit-gen's --capture (port 1's, checked after).
c.reset(ports=[0, 1])
c.set_service_mode(ports=[0, 1], enabled=True)
# The port's own set_l3_mode(): its address, no resolve of its gateway.
assert c.ports[1].set_l3_mode("10.0.0.2", "10.0.0.1")
c.set_l3_mode(port=0, src_ipv4="10.0.0.1", dst_ipv4="10.0.0.2")
cfg = c.ports[0].get_layer_cfg()
print("# port 0 layer_cfg: %s" % cfg)
assert cfg["ipv4"]["state"] == "resolved", cfg
c.set_service_mode(ports=[0, 1], enabled=False)
s = STLStream(packet=STLPktBuilder(pkt=Ether() / IP(src="16.0.3.1", dst="48.0.0.1") / UDP() / ("x" * 20)),
              mode=STLTXSingleBurst(total_pkts=5, pps=1000))
print("# the stream's flags: %d" % s.to_json()["flags"])
assert s.to_json()["flags"] == 0
c.add_streams(s, ports=[0])
c.start(ports=[0])
c.wait_on_traffic(ports=[0], timeout=10)
print("# 5 frames sent, opackets %d" % c.get_stats()[0]["opackets"])
c.release(ports=[0, 1])
c.disconnect()
print("PASS")
