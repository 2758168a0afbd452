#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""TRex's capture port on pvpkit-gen --trex, two memif ports wired to each
other (port 0's TX is port 1's RX), as a TRex client's
start_capture_port(), set_capture_port_bpf_filter() and
stop_capture_port() send them: the client binds a ZeroMQ PAIR socket and
gives its endpoint; port 1's received frames that pass the BPF filter
come on it while port 0 sends two streams, the filter changes while they
run, frames the client writes on it go out of port 1 (port 0 receives
them byte for byte), port 1's counters are what the streams sent, and
bad input is refused by name.

Usage: trex_capport.py RPC_PORT PUB_PORT
"""
import base64
import struct
import sys
import time

import zmq

from trex_wire import Client, fail, stream, udp_frame, wait_links

RPC, PUB = int(sys.argv[1]), int(sys.argv[2])
DNS = udp_frame(22, src="16.0.0.2", sport=53, dport=53)
OTHER = udp_frame(22, src="16.0.0.1")
# What the client sends through the socket: port 1 -> port 0.
INJ = [udp_frame(30, src="16.0.9.%d" % (i % 250 + 1), dport=7777) for i in range(200)]


def check(cond, msg):
    if not cond:
        fail(msg)


def drain(sock, secs):
    """Every frame the socket brings within @secs."""
    got, end = [], time.time() + secs
    while time.time() < end:
        try:
            got.append(sock.recv(zmq.NOBLOCK))
        except zmq.Again:
            time.sleep(0.005)
    return got


def dport(frame):
    """A stream frame's UDP destination port (the server writes its MACs and checksums)."""
    return struct.unpack(">H", frame[36:38])[0] if len(frame) >= 38 else None


def pstats(c, port):
    return c.call("get_port_stats", {"port_id": port})


def capport(c, port=1):
    return c.call("get_port_status", {"port_id": port})["rx_info"]["capture_port"]


def main():
    ctx = zmq.Context()
    sock = ctx.socket(zmq.PAIR)
    sock.setsockopt(zmq.LINGER, 0)
    tcp = sock.bind_to_random_port("tcp://127.0.0.1")
    ep = "tcp://127.0.0.1:%d" % tcp
    c = Client(RPC)
    c.sync()
    c.acquire(0)
    c.acquire(1)
    wait_links(c)
    c.port_call("service", 1, {"enabled": True})

    print("# bad input: refused by name, nothing started")
    c.port_error("start_capture_port", 1, {"endpoint": ep, "bpf_filter": "udp port nonsense"},
                 code=-32602, contains="BPF filter: 'udp port nonsense' is not a valid pattern")
    c.port_error("start_capture_port", 1, {"endpoint": "tcp"}, code=-32602,
                 contains="invalid endpoint 'tcp'")
    c.port_error("start_capture_port", 1, {"endpoint": "bogus://x"}, code=-32000,
                 contains="Could not enable capture port on port 1: Could not connect to ZMQ socket")
    c.error("start_capture_port", {"port_id": 7, "endpoint": ep}, contains="invalid port id")
    check(capport(c) == {"is_active": False}, "capture port on after bad input: %s" % capport(c))

    print("# port 1 a capture port with a filter, port 0 sends two streams")
    c.port_call("start_capture_port", 1, {"endpoint": ep, "bpf_filter": "udp dst port 53"})
    cp = capport(c)
    check(cp["is_active"] and cp["bpf_filter"] == "udp dst port 53" and cp["endpoint"] == ep and
          cp["socket_open"], "rx_info.capture_port %s" % cp)
    c.port_error("start_capture_port", 1, {"endpoint": ep}, code=-32000,
                 contains="Could not enable capture port on port 1: Capture port is already active")
    c.port_error("service", 1, {"enabled": False}, code=-32000,
                 contains="unable to disable service mode - port 1 is configured as capture port")
    # Its feed is no capture of the client's: reset() would remove those.
    check(c.call("capture", {"command": "status"}) == [], "capture port listed as a capture")
    before = pstats(c, 1)
    c.port_call("add_stream", 0, {"stream_id": 1, "stream": stream(OTHER, mode={
        "type": "continuous", "rate": {"type": "pps", "value": 2000}})})
    c.port_call("add_stream", 0, {"stream_id": 2, "stream": stream(DNS, mode={
        "type": "continuous", "rate": {"type": "pps", "value": 1000}})})
    c.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1},
                                     "duration": -1, "force": False})
    got = drain(sock, 1.0)
    check(len(got) >= 300, "only %d frames on the socket in 1 s of 1000 pps" % len(got))
    check(all(dport(g) == 53 and len(g) == len(DNS) for g in got),
          "a frame on the socket is not the DNS stream's")
    print("# filter 'udp dst port 53': %d frames on the socket, all the DNS stream's" % len(got))

    print("# the filter changes while the streams run")
    c.port_call("set_capture_port_bpf", 1, {"bpf_filter": "udp dst port 12"})
    check(capport(c)["bpf_filter"] == "udp dst port 12", "filter %s" % capport(c))
    c.port_error("set_capture_port_bpf", 1, {"bpf_filter": "ip hots 1"}, code=-32602,
                 contains="is not a valid pattern")
    drain(sock, 0.2)  # frames taken under the old filter
    got = drain(sock, 1.0)
    check(len(got) >= 600, "only %d frames on the socket in 1 s of 2000 pps" % len(got))
    check(all(dport(g) == 12 and len(g) == len(OTHER) for g in got),
          "a frame on the socket is not the other stream's")
    print("# filter 'udp dst port 12': %d frames, all the other stream's" % len(got))
    c.port_call("stop_traffic", 0)
    time.sleep(0.3)
    drain(sock, 0.2)
    # Port 1's counters are the streams' (its capture port only copies frames).
    sent = pstats(c, 0)["opackets"]
    rx1 = pstats(c, 1)["ipackets"] - before["ipackets"]
    check(rx1 == sent, "port 1 received %d, port 0 sent %d" % (rx1, sent))

    print("# frames the client writes on the socket go out of port 1")
    c.call("capture", {"command": "start", "limit": 1000, "mode": "fixed", "tx": [], "rx": [0],
                       "filter": "udp dst port 7777", "endpoint": "", "snaplen": 0})
    cid = c.call("capture", {"command": "status"})[0]["id"]
    rx0, tx1 = pstats(c, 0)["ipackets"], pstats(c, 1)["opackets"]
    for f in INJ:
        sock.send(f)
    end, pkts = time.time() + 5, []
    while len(pkts) < len(INJ) and time.time() < end:
        pkts += c.call("capture", {"command": "fetch", "capture_id": cid,
                                   "pkt_limit": 100})["pkts"]
        time.sleep(0.05)
    frames = [base64.b64decode(p["binary"]) for p in pkts]
    check(frames == INJ, "port 0 received %d of %d frames written on the socket, %s" %
          (len(frames), len(INJ), "in order" if frames == INJ[:len(frames)] else "changed"))
    check(pstats(c, 0)["ipackets"] - rx0 == len(INJ) and
          pstats(c, 1)["opackets"] - tx1 == len(INJ),
          "port counters: port 0 +%d in, port 1 +%d out, %d written" % (
              pstats(c, 0)["ipackets"] - rx0, pstats(c, 1)["opackets"] - tx1, len(INJ)))
    cp = capport(c)
    check(cp["tx_pkts"] == len(INJ) and cp["tx_dropped"] == 0, "capture port counters %s" % cp)
    print("# %d frames written on the socket, received by port 0 byte for byte" % len(INJ))
    c.call("capture", {"command": "remove", "capture_id": cid})

    print("# stop: off, nothing more on the socket, service mode may end")
    c.port_call("stop_capture_port", 1)
    c.port_call("stop_capture_port", 1)  # stopping a stopped one is no error (TRex's reset)
    check(capport(c) == {"is_active": False}, "still on: %s" % capport(c))
    c.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1},
                                     "duration": 0.3, "force": False})
    got = drain(sock, 0.6)
    check(got == [], "%d frames on the socket after stop" % len(got))
    c.port_call("service", 1, {"enabled": False})
    sock.close()
    ctx.term()
    print("PASS")


main()
