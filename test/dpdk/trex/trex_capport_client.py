#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""TRex's own client (a trex-core checkout) against pvpkit-gen --trex, two
ports wired to each other (port 0's TX is port 1's RX), using the capture
port as trex-core's regression tests do (stl_capture_test.py: RX through a
BPF filter, TX from the socket): port 1 in service mode gets a capture
port on a PAIR socket the script binds; a start with a filter, a second
start and leaving service mode refused; the filter changed to
"udp port 1222"; port 0 sends a burst to 16.0.0.1:1025 -> 1222 and one
from 18.0.0.1 to port 12, and only the first reaches the socket, read with
scapy. Then 500 frames written on the socket leave port 1 and a capture
of port 0's RX (start_capture) holds them all.

Usage: trex_capport_client.py TREX_CORE RPC_PORT PUB_PORT
"""
import os
import sys
import time
import warnings

core, rpc, pub = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sys.path.insert(0, os.path.join(core, "scripts/automation/trex_control_plane/interactive"))
os.environ.setdefault("TREX_EXT_LIBS", os.path.join(core, "scripts/external_libs"))
warnings.simplefilter("ignore")
from trex.stl.api import (STLClient, STLStream, STLPktBuilder, STLTXSingleBurst,  # noqa: E402
                          TRexError, Ether, IP, UDP)
import zmq  # noqa: E402

# TRex's client brings its own pyzmq-ctypes, which names no flags: ZMQ_DONTWAIT is 1.
DONTWAIT = getattr(zmq, "DONTWAIT", 1)


def refused(what, fn, **kw):
    try:
        fn(**kw)
    except TRexError as e:
        print("# %s refused: %s" % (what, str(e).strip().splitlines()[-1]))
        return
    raise AssertionError("%s was not refused" % what)


ctx = zmq.Context()
sock = ctx.socket(zmq.PAIR)
sock.setsockopt(zmq.LINGER, 0)
ep = "tcp://127.0.0.1:%d" % sock.bind_to_random_port("tcp://127.0.0.1")
c = STLClient(server="127.0.0.1", sync_port=rpc, async_port=pub, verbose_level="error")
c.connect()
c.acquire(ports=[0, 1], force=True)
c.reset(ports=[0, 1])
c.set_service_mode(ports=[0, 1], enabled=True)

c.start_capture_port(port=1, endpoint=ep, bpf_filter="ip host 18.0.0.1")
refused("a second start_capture_port", c.start_capture_port, port=1, endpoint=ep)
refused("service mode off under a capture port", c.set_service_mode, ports=1, enabled=False)
c.set_capture_port_bpf_filter(port=1, bpf_filter="udp port 1222")
want = STLStream(packet=STLPktBuilder(pkt=Ether() / IP(src="16.0.0.1", dst="48.0.0.1") /
                                      UDP(dport=1222, sport=1025) / "a_payload_example"),
                 mode=STLTXSingleBurst(pps=100, total_pkts=10))
other = STLStream(packet=STLPktBuilder(pkt=Ether() / IP(src="18.0.0.1", dst="48.0.0.1") /
                                       UDP(dport=12, sport=1025) / "a_payload_example"),
                  mode=STLTXSingleBurst(pps=100, total_pkts=10))
c.add_streams([want, other], ports=[0])
c.start(ports=[0], force=True)
c.wait_on_traffic(ports=[0], timeout=10)
got, end = [], time.time() + 5
while len(got) < 10 and time.time() < end:
    try:
        got.append(Ether(sock.recv(DONTWAIT)))
    except zmq.Again:
        time.sleep(0.01)
time.sleep(0.2)
while True:
    try:
        got.append(Ether(sock.recv(DONTWAIT)))
    except zmq.Again:
        break
assert len(got) == 10 and all(p["UDP"].dport == 1222 for p in got), [p.summary() for p in got]
print("# 10 frames on the socket, all UDP to 1222: %s" % got[0].summary())

rx = c.start_capture(rx_ports=0, limit=1000, bpf_filter="udp dst port 1000")["id"]
pkt = bytes(Ether(src="02:00:00:00:00:0b", dst="02:00:00:00:00:0a") / IP() /
            UDP(sport=100, dport=1000) / ("x" * 100))
for _ in range(500):
    sock.send(pkt)
end = time.time() + 5
while c.get_capture_status()[rx]["count"] < 500 and time.time() < end:
    time.sleep(0.1)
out = []
c.stop_capture(rx, output=out)
assert len(out) == 500 and all(bytes(x["binary"]) == pkt for x in out), len(out)
print("# 500 frames written on the socket, port 0's capture holds %d, byte for byte" % len(out))

c.stop_capture_port(port=1)
c.stop_capture_port(port=1)
c.set_service_mode(ports=[0, 1], enabled=False)
c.release(ports=[0, 1])
c.disconnect()
sock.close()
ctx.term()
print("PASS")
