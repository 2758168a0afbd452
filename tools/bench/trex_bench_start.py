#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Load the benchmark's stream over the TRex API and start it: 64 B
Ethernet/IPv4/UDP with the native profile's headers, one flow_var (the
IPv4 source, +1 over FLOWS values), at 100 % of the port's speed.
SHAPE (default plain) schedules it as a TRex profile may: isg, the stream
waits 1 ms (its own isg) before it sends; chain, two such streams of
single bursts of 1,000 packets, each starting the other (next_stream_id,
self_start false, no action_count: a loop until stopped), so the chain
code runs every 1,000 packets.

usage: trex_bench_start.py RPC_PORT FLOWS [plain|isg|chain]
"""
import os
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "test", "dpdk", "trex"))
from trex_wire import Client, stream, udp_frame  # noqa: E402

rpc, flows = int(sys.argv[1]), int(sys.argv[2])
shape = sys.argv[3] if len(sys.argv) > 3 else "plain"
lo = struct.unpack(">I", bytes([16, 0, 0, 1]))[0]
c = None
for _ in range(100):
    try:
        c = Client(rpc, user="bench", session_id=7, timeout_ms=1000)
        c.sync()
        break
    except Exception:
        c = None
        time.sleep(0.1)
if c is None:
    sys.exit("no TRex server on port %d" % rpc)
c.acquire(0)
vm = [{"type": "flow_var", "name": "src", "size": 4, "op": "inc", "step": 1, "init_value": lo,
       "min_value": lo, "max_value": lo + flows - 1},
      {"type": "write_flow_var", "name": "src", "pkt_offset": 26, "add_value": 0,
       "is_big_endian": True}]
rate = {"type": "percentage", "value": 100}
if shape == "chain":
    for sid in (1, 2):
        s = stream(udp_frame(18), vm=vm, self_start=sid == 1,
                   mode={"type": "single_burst", "total_pkts": 1000, "rate": rate})
        s["next_stream_id"] = 3 - sid
        c.port_call("add_stream", 0, {"stream_id": sid, "stream": s})
else:
    c.port_call("add_stream", 0, {"stream_id": 1, "stream": stream(
        udp_frame(18), vm=vm, isg=1000.0 if shape == "isg" else 0.0,
        mode={"type": "continuous", "rate": rate})})
c.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1}, "duration": -1,
                                 "force": False})
