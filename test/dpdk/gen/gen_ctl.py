#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Drive pvpkit-gen --server over its unix socket (JSON-RPC 2.0, one
object per line) through the methods of doc/gen.rst, on a net_ring
loopback port. Exits 1 with a message on the first wrong answer."""
import json
import os
import socket
import sys
import tempfile
import time


class Client:
    def __init__(self, path):
        for _ in range(100):
            try:
                self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.s.connect(path)
                break
            except OSError:
                time.sleep(0.1)
        else:
            sys.exit("FAIL: cannot connect to " + path)
        self.f = self.s.makefile("rw")
        self.id = 0

    def call(self, method, params=None):
        self.id += 1
        req = {"jsonrpc": "2.0", "id": self.id, "method": method}
        if params is not None:
            req["params"] = params
        self.f.write(json.dumps(req) + "\n")
        self.f.flush()
        ans = json.loads(self.f.readline())
        check(ans["id"] == self.id, ans)
        return ans


def check(cond, what=None):
    """An explicit check: unlike assert it holds under python -O."""
    if not cond:
        line = sys._getframe(1).f_lineno
        sys.exit("FAIL: line %d%s" % (line, "" if what is None else ": %s" % (what,)))


def ok(ans):
    if "error" in ans:
        sys.exit("FAIL: unexpected error %s" % ans["error"])
    return ans["result"]


def err(ans, code):
    if ans.get("error", {}).get("code") != code:
        sys.exit("FAIL: expected error %d, got %s" % (code, ans))
    print("# error as expected: %s" % ans["error"]["message"])


def wait_stopped(c, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        st = ok(c.call("stats.get"))
        if not st["traffic"]["running"]:
            return st
        time.sleep(0.1)
    sys.exit("FAIL: traffic still running after %d s" % timeout)


def main():
    c = Client(sys.argv[1])
    check(ok(c.call("ping")) == "pong")
    info = ok(c.call("info"))
    for m in ("profile.load", "traffic.start", "traffic.stop", "traffic.update", "stats.get",
              "stats.clear"):
        check(m in info["methods"], (m, info["methods"]))
    check(info["ports"][0]["name"] == "net_ring0", info["ports"])
    print("# info: %s" % json.dumps(info["ports"]))

    check(ok(c.call("profile.load", {"size": 128, "flows": 10})) == {"streams": 1})
    ok(c.call("traffic.start", {"rate": 20000, "duration": 1}))
    err(c.call("profile.load", {"size": 64}), -32003)
    err(c.call("traffic.start", {"rate": 1000}), -32003)
    st = wait_stopped(c)
    time.sleep(0.3)
    st = ok(c.call("stats.get"))
    s = st["streams"][0]
    print("# run 1: traffic %s" % st["traffic"])
    print("# run 1: stream %s" % s)
    check(s["tx_packets"] > 0 and s["rx_packets"] == s["tx_packets"], s)
    check(s["lost"] == 0 and s["dup"] == 0 and s["ooo"] == 0, s)
    check(0 < s["latency_ns"]["min"] <= s["latency_ns"]["max"] < 1e9, s)
    check(st["ports"][0]["tx_packets"] == s["tx_packets"], st["ports"][0])
    check(st["unsigned_rx"] == 0)
    check(st["traffic"]["requested_pps"] == 20000)

    ok(c.call("stats.clear"))
    st = ok(c.call("stats.get"))
    s = st["streams"][0]
    check(s["tx_packets"] == 0 and s["rx_packets"] == 0, s)
    check(st["ports"][0]["tx_packets"] == 0 and st["ports"][0]["rx_packets"] == 0)

    timed_start(c)

    # Profile object, rate as a string, changed while running.
    prof = {"streams": [{"port": 0, "size": 64, "name": "a"},
                        {"port": 0, "size": 256, "name": "b", "rate": "5kpps"}]}
    check(ok(c.call("profile.load", {"profile": prof})) == {"streams": 2})
    ok(c.call("traffic.start", {"rate": "10kpps"}))
    time.sleep(0.5)
    ok(c.call("traffic.update", {"rate": "20kpps"}))
    st = ok(c.call("stats.get"))
    check(st["traffic"]["running"] and st["traffic"]["requested_pps"] == 25000, st["traffic"])
    time.sleep(0.5)
    ok(c.call("traffic.stop"))
    st = ok(c.call("stats.get"))
    check(not st["traffic"]["running"])
    names = [x["name"] for x in st["streams"]]
    check(names == ["a", "b"], names)

    err(c.call("traffic.start", {"rate": "fast"}), -32602)
    err(c.call("traffic.update", {"rate": 1000}), -32003)
    err(c.call("profile.load", {"profile": {"streams": [{"port": 0, "size": 10}]}}), -32602)
    err(c.call("profile.load", {"path": "/nonexistent.json"}), -32602)
    # Once a SIGFPE that took the server down: 2^64 flows.
    full = {"streams": [{"size": 64, "tuple": {"src_ip": ["0.0.0.0", "255.255.255.255"],
                                               "dst_ip": ["0.0.0.0", "255.255.255.255"]}}]}
    err(c.call("profile.load", {"profile": full}), -32602)
    # Once blocked the control thread for good.
    d = tempfile.mkdtemp()
    os.mkfifo(d + "/fifo")
    err(c.call("profile.load", {"path": d + "/fifo"}), -32602)
    os.unlink(d + "/fifo")
    os.rmdir(d)
    # Once ended a run early as if nothing were wrong.
    ok(c.call("traffic.start", {"rate": 1000}))
    err(c.call("traffic.update", {"rate": "1e-300"}), -32602)
    check(ok(c.call("stats.get"))["traffic"]["running"])
    ok(c.call("traffic.stop"))
    # Once wrapped the exact counts (tx_asked went negative).
    err(c.call("traffic.start", {"rate": 1000, "duration": 1e300}), -32602)
    oneway(c)
    check(ok(c.call("ping")) == "pong")
    err(c.call("no.such.method"), -32601)
    print("OK")


def oneway(c):
    """clock.get and oneway.set (doc/gen.rst, "One-way latency"): the
    generator's own sample is one clock with it, another boot's or one
    3 ms off is not, and a loopback without a stamping guest counts every
    packet as unstamped."""
    own = ok(c.call("clock.get"))
    check(own["tsc_hz"] > 0 and own["tsc"] > 0 and own["mono_ns"] > 0 and
          len(own["boot_id"]) > 0, own)
    ans = ok(c.call("oneway.set", {"peer": own}))
    check(ans["clock"] == "shared" and abs(ans["offset_ns"]) < 2000, ans)
    other = dict(own, boot_id="another-boot")
    ans = ok(c.call("oneway.set", {"peer": other}))
    check(ans["clock"] == "differs" and "boot ids differ" in ans["reason"], ans)
    off = dict(own, tsc=own["tsc"] - own["tsc_hz"] * 3 // 1000)
    ans = ok(c.call("oneway.set", {"peer": off}))
    check(ans["clock"] == "differs" and "ns apart" in ans["reason"], ans)
    err(c.call("oneway.set", {}), -32602)
    err(c.call("oneway.set", {"peer": "guest"}), -32602)
    err(c.call("oneway.set", {"peer": dict(own, tsc_hz=0)}), -32602)
    err(c.call("oneway.set", {"peer": own, "extra": 1}), -32602)
    err(c.call("clock.get", {"x": 1}), -32602)
    check(ok(c.call("oneway.set", {"peer": None})) == {"clock": "off"})
    check(ok(c.call("oneway.set", {"peer": ok(c.call("clock.get"))}))["clock"] == "shared")
    ok(c.call("stats.clear"))
    ok(c.call("traffic.start", {"rate": 10000, "duration": 0.1}))
    st = wait_stopped(c)
    check(st["oneway"]["clock"] == "shared", st["oneway"])
    s = st["streams"][0]
    ow = s["oneway_ns"]
    check(ow["unstamped"] == s["rx_packets"] > 0 and ow["to_guest"]["count"] == 0 and
          ow["from_guest"]["count"] == 0, (s["rx_packets"], ow))
    print("# oneway: %d packets, all unstamped without a guest" % ow["unstamped"])
    check(ok(c.call("oneway.set", {"peer": None})) == {"clock": "off"})


def timed_start(c):
    """traffic.start at a given CLOCK_REALTIME time: nothing leaves before
    it, the exact count follows from it, and stats say when it began."""
    ok(c.call("profile.load", {"size": 64, "flows": 1}))
    at = time.time() + 0.6
    ok(c.call("traffic.start", {"rate": 10000, "duration": 0.5, "start_at": at}))
    st = ok(c.call("stats.get"))
    tr = st["traffic"]
    check(tr["running"] and tr["tx_packets"] == 0, tr)
    check(tr["start"]["start_at"] == at and tr["start"]["first_tx_s"] is None, tr["start"])
    check(abs(tr["start"]["start_s"] - at) < 1e-6, tr["start"])
    time.sleep(0.3)
    check(ok(c.call("stats.get"))["traffic"]["tx_packets"] == 0, "sent before start_at")
    st = wait_stopped(c)
    tr = st["traffic"]
    first = tr["start"]["first_tx_s"]
    print("# timed start: first packet %.3f ms after start_at" % ((first - at) * 1e3))
    check(at <= first < at + 0.05, (first, at))
    check(tr["tx_packets"] == 5000 and not tr["generator_limited"], tr)
    check(0.45 < tr["elapsed_s"] < 0.7, tr)
    # A start stopped before its time sends nothing and is not "limited".
    ok(c.call("traffic.start", {"rate": 10000, "duration": 1, "start_at": time.time() + 5}))
    ok(c.call("traffic.stop"))
    tr = ok(c.call("stats.get"))["traffic"]
    check(not tr["running"] and tr["tx_packets"] == 0 and tr["elapsed_s"] == 0, tr)
    # A time long past or far ahead is a clock problem, said as one.
    err(c.call("traffic.start", {"rate": 1000, "start_at": time.time() - 3600}), -32602)
    err(c.call("traffic.start", {"rate": 1000, "start_at": time.time() + 3600}), -32602)
    err(c.call("traffic.start", {"rate": 1000, "start_at": "soon"}), -32602)
    err(c.call("traffic.start", {"rate": 1000, "start_at": 1e308}), -32602)
    # Just past (a slow control path): starts at once, first_tx_s says so.
    at = time.time() - 0.2
    ok(c.call("traffic.start", {"rate": 10000, "duration": 0.2, "start_at": at}))
    tr = wait_stopped(c)["traffic"]
    check(tr["start"]["first_tx_s"] - at > 0.19 and tr["tx_packets"] == 2000, tr)


if __name__ == "__main__":
    main()
