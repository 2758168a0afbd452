#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""TRex's captures on pvpkit-gen --trex (one net_ring loopback port: every
frame sent comes back), as a TRex client's start_capture(),
fetch_capture_packets(), stop_capture(), remove_capture() and its capture
monitor send them: a BPF filter picks one of two streams while both run,
fetched frames are written to a pcap for tshark; a cyclic capture keeps
the newest frames; bad captures are refused by name while traffic and
its counters go on.

Usage: trex_capture.py RPC_PORT PUB_PORT OUT_PCAP
"""
import base64
import struct
import sys
import time

from trex_wire import Client, fail, stream, udp_frame

RPC, PUB, OUT = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
DNS = udp_frame(22, src="16.0.0.2", sport=53, dport=53)
OTHER = udp_frame(22, src="16.0.0.1")


def check(cond, msg):
    if not cond:
        fail(msg)


def stats(c):
    return c.call("get_port_stats", {"port_id": 0})


def write_pcap(path, pkts):
    """The fetched frames as TRex's client writes them (ts relative to the start)."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for p in pkts:
            b = base64.b64decode(p["binary"])
            sec = int(p["rel_ts"])
            f.write(struct.pack("<IIII", sec, int((p["rel_ts"] - sec) * 1e6), len(b), p["wirelen"]))
            f.write(b)


def fetch_all(c, cid, want, limit=20, timeout=10):
    """fetch_capture_packets(): pkt_limit at a time until @want frames came."""
    pkts, end = [], time.time() + timeout
    while len(pkts) < want and time.time() < end:
        r = c.call("capture", {"command": "fetch", "capture_id": cid, "pkt_limit": limit})
        check(len(r["pkts"]) <= limit, "fetch gave %d > pkt_limit %d" % (len(r["pkts"]), limit))
        for p in r["pkts"]:
            p["rel_ts"] = p["ts"] - r["start_ts"]
        pkts += r["pkts"]
        if not r["pkts"]:
            time.sleep(0.05)
    return pkts


def main():
    c = Client(RPC)
    c.sync()
    c.acquire(0)
    c.port_call("add_stream", 0, {"stream_id": 1, "stream": stream(OTHER, mode={
        "type": "continuous", "rate": {"type": "pps", "value": 2000}})})
    c.port_call("add_stream", 0, {"stream_id": 2, "stream": stream(DNS, mode={
        "type": "continuous", "rate": {"type": "pps", "value": 1000}})})
    c.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1}, "duration": -1,
                                     "force": False})

    print("# a BPF filter picks the DNS stream out of the RX side while both run")
    r = c.call("capture", {"command": "start", "limit": 100, "mode": "fixed", "tx": [], "rx": [0],
                           "filter": "udp dst port 53", "endpoint": "", "snaplen": 0})
    cid = r["capture_id"]
    check(abs(r["start_ts"] - time.time()) < 5, "start_ts %s" % r["start_ts"])
    st = c.call("capture", {"command": "status"})
    check(len(st) == 1 and st[0]["id"] == cid and st[0]["state"] == "ACTIVE" and
          st[0]["filter"] == {"tx": 0, "rx": 1, "bpf": "udp dst port 53"} and st[0]["limit"] == 100 and
          st[0]["mode"] == "fixed", "status %s" % st)
    pkts = fetch_all(c, cid, 60)
    check(len(pkts) >= 60, "fetched %d of 60" % len(pkts))
    for p in pkts:
        b = base64.b64decode(p["binary"])
        check(b[26:30] == bytes([16, 0, 0, 2]) and b[36:38] == b"\x00\x35",
              "frame not of the DNS stream: %s" % b[:42].hex())
        check(p["port"] == 0 and p["origin"] == "RX" and p["wirelen"] == len(b) == 64, "pkt %s" % p)
    idx = [p["index"] for p in pkts]
    check(idx == sorted(idx) and len(set(idx)) == len(idx), "indexes not increasing: %s" % idx[:10])
    # The buffer holds 100: more than the frames fetched were matched meanwhile.
    time.sleep(0.3)
    r = c.call("capture", {"command": "stop", "capture_id": cid})
    check(r["pkt_count"] >= 100 and r["endpoint"] == "", "stop %s" % r)
    st = c.call("capture", {"command": "status"})[0]
    check(st["state"] == "STOPPED" and st["matched"] >= r["pkt_count"], "stopped status %s" % st)
    check(st["count"] + st["fetched"] == r["pkt_count"], "count %d + fetched %d != %d" % (
        st["count"], st["fetched"], r["pkt_count"]))
    pkts += fetch_all(c, cid, st["count"], limit=50)
    check(len(pkts) == r["pkt_count"], "fetched %d of %d" % (len(pkts), r["pkt_count"]))
    write_pcap(OUT, pkts)
    c.call("capture", {"command": "remove", "capture_id": cid})
    check(c.call("capture", {"command": "status"}) == [], "capture not removed")

    print("# cyclic: a buffer of 10 keeps the newest 10 of what TX offered")
    r = c.call("capture", {"command": "start", "limit": 10, "mode": "cyclic", "tx": [0], "rx": []})
    cid = r["capture_id"]
    time.sleep(0.5)
    c.call("capture", {"command": "stop", "capture_id": cid})
    st = c.call("capture", {"command": "status"})[0]
    check(st["count"] == 10 and st["matched"] > 10, "cyclic status %s" % st)
    pkts = fetch_all(c, cid, 10, limit=100)
    idx = [p["index"] for p in pkts]
    check(idx == list(range(st["matched"] - 9, st["matched"] + 1)), "cyclic kept %s of %d" % (idx, st["matched"]))
    check(all(p["origin"] == "TX" for p in pkts), "origin not TX")
    c.call("capture", {"command": "remove", "capture_id": cid})

    print("# bad captures: refused by name; traffic and its counters go on")
    before = stats(c)
    c.error("capture", {"command": "start", "limit": 10, "mode": "fixed", "tx": [0], "rx": [0],
                        "filter": "udp and port"}, code=-32602, contains="is not a valid pattern")
    c.error("capture", {"command": "start", "limit": 0, "mode": "fixed", "tx": [0], "rx": []},
            contains="must be in 1..1000000 frames")
    c.error("capture", {"command": "start", "limit": 5000000, "mode": "fixed", "tx": [0], "rx": []},
            contains="must be in 1..1000000 frames")
    c.error("capture", {"command": "start", "limit": 10, "mode": "ring", "tx": [0], "rx": []},
            contains="field 'mode' can only be one of")
    c.error("capture", {"command": "start", "limit": 10, "mode": "fixed", "tx": [3], "rx": []},
            contains="invalid port id - should be: 0")
    c.error("capture", {"command": "start", "limit": 10, "mode": "fixed", "tx": [0], "rx": [],
                        "endpoint": "file:///tmp/x.pcap"}, contains="is not supported by pvpkit-gen")
    c.error("capture", {"command": "fetch", "capture_id": 999, "pkt_limit": 1},
            contains="capture ID not found")
    c.error("capture", {"command": "stop", "capture_id": 999}, contains="capture ID not found")
    c.error("capture", {"command": "remove", "capture_id": 999}, contains="capture ID not found")
    c.error("capture", {"command": "pause"}, contains="can only be one of")
    ids = [c.call("capture", {"command": "start", "limit": 1, "mode": "fixed", "tx": [], "rx": [0]})["capture_id"]
           for _ in range(10)]
    c.error("capture", {"command": "start", "limit": 1, "mode": "fixed", "tx": [], "rx": [0]},
            contains="10 captures exist already")
    for i in ids:
        c.call("capture", {"command": "remove", "capture_id": i})
    time.sleep(0.3)
    after = stats(c)
    check(c.call("get_port_status", {"port_id": 0})["state"] == "TX", "traffic stopped")
    check(after["opackets"] > before["opackets"] + 300, "TX did not go on: %d -> %d" % (
        before["opackets"], after["opackets"]))

    print("# every frame captured is still in its port counter")
    c.port_call("stop_traffic", 0)
    time.sleep(0.3)
    s = stats(c)
    check(s["ipackets"] == s["opackets"] and s["ierrors"] == 0, "port counters %s" % s)
    c.close()
    print("# trex_capture: ok")


main()
