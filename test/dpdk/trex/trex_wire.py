# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""A small client of TRex's stateless wire protocol, written from the
protocol (not TRex's code), for pvpkit-gen --trex tests: JSON-RPC 2.0 over
a ZeroMQ REQ socket, each request optionally in TRex's compressed framing
(4-byte magic 0xABE85CEA and the 4-byte uncompressed length, big endian,
then zlib), and a SUB socket for the async "{}" triggers."""
import json
import os
import struct
import sys
import time
import zlib

import zmq

MAGIC = 0xABE85CEA


def fail(msg):
    sys.exit("FAIL: " + msg)


def capture(data):
    """With PVP_TREX_CAPTURE=FILE, each request up to 64 KiB is appended to
    FILE (4-byte big-endian length, then the bytes as sent): the seeds of
    the trex fuzz corpus (test/fuzz/trex_corpus.py)."""
    path = os.environ.get("PVP_TREX_CAPTURE")
    if path and len(data) <= 65536:
        with open(path, "ab") as f:
            f.write(struct.pack(">I", len(data)) + data)


def zip_msg(raw):
    return struct.pack(">II", MAGIC, len(raw)) + zlib.compress(raw)


def unzip_msg(msg):
    if len(msg) >= 8 and struct.unpack(">I", msg[:4])[0] == MAGIC:
        n = struct.unpack(">I", msg[4:8])[0]
        out = zlib.decompress(msg[8:])
        if len(out) != n:
            fail("compressed reply: length %d, header says %d" % (len(out), n))
        return out, True
    return msg, False


class Client:
    """One session: its own REQ socket, session id and user name."""

    def __init__(self, port, user="tester", session_id=1234, zipped=True, timeout_ms=3000):
        self.ctx = zmq.Context()
        self.sock = self.ctx.socket(zmq.REQ)
        self.sock.setsockopt(zmq.RCVTIMEO, timeout_ms)
        self.sock.setsockopt(zmq.SNDTIMEO, timeout_ms)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.connect("tcp://127.0.0.1:%d" % port)
        self.user = user
        self.session_id = session_id
        self.zipped = zipped
        self.api_h = None
        self.handler = {}
        self.next_id = 1
        self.last_was_zipped = None
        self.slowest = (0.0, "")

    def raw(self, data):
        """Send bytes as they are; return the reply's bytes, unzipped."""
        capture(data)
        t0 = time.time()
        self.sock.send(data)
        rep = self.sock.recv()
        took = time.time() - t0
        if took > self.slowest[0]:
            self.slowest = (took, data[:60])
        out, self.last_was_zipped = unzip_msg(rep)
        return out

    def request(self, method, params=None, zipped=None, api=True):
        req = {"jsonrpc": "2.0", "id": self.next_id, "method": method,
               "params": dict(params or {})}
        self.next_id += 1
        if api and self.api_h is not None:
            req["params"].setdefault("api_h", self.api_h)
        raw = json.dumps(req).encode()
        use_zip = self.zipped if zipped is None else zipped
        rep = json.loads(self.raw(zip_msg(raw) if use_zip else raw))
        if use_zip != self.last_was_zipped:
            fail("%s: request zipped=%s but reply zipped=%s" % (method, use_zip, self.last_was_zipped))
        if rep.get("id") != req["id"] or rep.get("jsonrpc") != "2.0":
            fail("%s: bad reply envelope %s" % (method, rep))
        return rep

    def call(self, method, params=None, **kw):
        rep = self.request(method, params, **kw)
        if "error" in rep:
            fail("%s: unexpected error %s" % (method, rep["error"]))
        return rep["result"]

    def error(self, method, params=None, code=None, contains=None, **kw):
        rep = self.request(method, params, **kw)
        e = rep.get("error")
        if e is None:
            fail("%s: expected an error, got %s" % (method, rep))
        text = e.get("specific_err", e.get("message", ""))
        if code is not None and e["code"] != code:
            fail("%s: expected code %d, got %s" % (method, code, e))
        if contains is not None and contains not in text:
            fail("%s: expected '%s' in the error, got '%s'" % (method, contains, text))
        print("# %s refused as expected: %s" % (method, text))
        return e

    def sync(self, name="STL", major=5, minor=1):
        self.api_h = self.call("api_sync_v2", {"name": name, "major": major, "minor": minor},
                               api=False)["api_h"]
        return self.api_h

    def acquire(self, port, force=False):
        h = self.call("acquire", {"port_id": port, "user": self.user,
                                  "session_id": self.session_id, "force": force})
        self.handler[port] = h
        return h

    def port_call(self, method, port, params=None, **kw):
        p = {"port_id": port, "handler": self.handler.get(port, "")}
        p.update(params or {})
        return self.call(method, p, **kw)

    def port_error(self, method, port, params=None, **kw):
        p = {"port_id": port, "handler": self.handler.get(port, "")}
        p.update(params or {})
        return self.error(method, p, **kw)

    def close(self):
        self.sock.close(0)
        self.ctx.term()


class Subscriber:
    """The async channel: counts "{}" triggers."""

    def __init__(self, port):
        self.ctx = zmq.Context()
        self.sock = self.ctx.socket(zmq.SUB)
        self.sock.setsockopt(zmq.SUBSCRIBE, b"")
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.connect("tcp://127.0.0.1:%d" % port)

    def triggers(self, wait_ms=200):
        n = 0
        while self.sock.poll(wait_ms):
            msg = self.sock.recv()
            if msg == b"{}":
                n += 1
            wait_ms = 20
        return n

    def close(self):
        self.sock.close(0)
        self.ctx.term()


def wait_streams(c, port, timeout=15):
    """Wait until @port's bursts are over (its state back to STREAMS)."""
    import time
    end = time.time() + timeout
    while time.time() < end:
        if c.call("get_port_status", {"port_id": port})["state"] == "STREAMS":
            return
        time.sleep(0.05)
    fail("bursts not over within %d s" % timeout)


def wait_links(c, ports=(0, 1), timeout=10):
    """Wait until @ports' links are up (memif connects its two ends in the background)."""
    end = time.time() + timeout
    while not all(c.call("get_port_status", {"port_id": p})["attr"]["link"]["up"] for p in ports):
        if time.time() >= end:
            fail("links of ports %s not up within %d s" % (list(ports), timeout))
        time.sleep(0.1)


def send_streams(rpc, user, session_id, streams, port=0):
    """Add @streams (stream id: stream object) to @port, start them at
    their own rates and wait until their bursts are over."""
    c = Client(rpc, user=user, session_id=session_id)
    c.sync()
    c.acquire(port)
    for sid, st in streams.items():
        c.port_call("add_stream", port, {"stream_id": sid, "stream": st})
    c.port_call("start_traffic", port, {"mul": {"type": "raw", "op": "abs", "value": 1},
                                        "duration": -1, "force": False})
    wait_streams(c, port)
    c.port_call("release", port)


def stream(pkt, mode=None, vm=None, fs=None, enabled=True, self_start=True, isg=0.0,
           start_paused=False):
    """A stream object in TRex's add_stream layout."""
    import base64
    return {
        "enabled": enabled, "self_start": self_start, "start_paused": start_paused,
        "isg": isg, "next_stream_id": -1, "flags": 0, "action_count": 0, "random_seed": 0,
        "mode": mode or {"type": "continuous", "rate": {"type": "pps", "value": 1000}},
        "packet": {"binary": base64.b64encode(pkt).decode(), "meta": ""},
        "vm": {"instructions": vm or [], "split_by_var": ""},
        "flow_stats": fs or {"enabled": False},
    }


def udp_frame(payload_len=18, src="16.0.0.1", dst="48.0.0.1", sport=1025, dport=12,
              udp_csum=True):
    """Ethernet/IPv4/UDP bytes built by hand (checksums left for the server)."""
    import socket
    ip_len = 20 + 8 + payload_len
    eth = bytes.fromhex("020000000002020000000001") + b"\x08\x00"
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, ip_len, 0, 0, 64, 17, 0,
                     socket.inet_aton(src), socket.inet_aton(dst))
    udp = struct.pack(">HHHH", sport, dport, 8 + payload_len, 0xffff if udp_csum else 0)
    return eth + ip + udp + b"x" * payload_len


def send_bursts(rpc, user, session_id, streams):
    """Add @streams (stream objects) to port 0 as ids 1, 2, ..., start them
    and wait until their bursts are over."""
    c = Client(rpc, user=user, session_id=session_id)
    c.sync()
    c.acquire(0)
    for sid, st in enumerate(streams, 1):
        c.port_call("add_stream", 0, {"stream_id": sid, "stream": st})
    c.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1},
                                     "duration": -1, "force": False})
    wait_streams(c, 0)
    c.port_call("release", 0)
