#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""pvpkit-gen --server against hostile requests: numbers out of range
(duration 1e300 made tx_asked -9223372036854775808; rate "1e-300" ended
a run early), unknown parameters, and files a client must not make it
read (a FIFO blocked the control thread for good).

  gen_ctl_hostile.py unix ADDR DIR    a unix socket, no files directory
  gen_ctl_hostile.py files ADDR DIR   TCP, --ctl-files-dir DIR/files

DIR holds what gen_ctl_hostile.sh prepared. Exits 1 on the first wrong
answer."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ctl_rpc import Rpc  # noqa: E402

INVALID_PARAMS = -32602


def refused(c, method, params, *words, code=INVALID_PARAMS):
    """The call must fail with code, quickly, its message naming words."""
    t0 = time.time()
    ans = c.call(method, params)
    took = time.time() - t0
    err = ans.get("error", {})
    msg = err.get("message", "")
    print("# %-15s %-60.60s -> %s %s" % (method, params, err.get("code"), msg))
    if err.get("code") != code or not all(w in msg for w in words):
        sys.exit("FAIL: %s %s: want %d with %s, got %s" % (method, params, code, words, ans))
    if took > 2:
        sys.exit("FAIL: %s %s took %.1f s" % (method, params, took))
    return msg


def numbers(c):
    c.ok("profile.load", {"size": 64, "flows": 1})
    for p, words in (
            ({"rate": 1000, "duration": 1e300}, ("duration: must be a number in 0..86400",)),
            ({"rate": 1000, "duration": -1}, ("duration: ",)),
            ({"rate": 1000, "duration": "10"}, ("duration: ",)),
            ({"rate": 1000, "duration": 1e-9}, ("duration: ", "0.001..86400")),
            ({"rate": 1e-300}, ("rate: ", "1..1e+11")),
            ({"rate": 0}, ("rate: ",)),
            ({"rate": -5}, ("rate: ",)),
            ({"rate": 1e300}, ("rate: ",)),
            ({"rate": "1e-300"}, ("rate: ", "1..1e+11 pps")),
            ({"rate": "1e-300Gbps"}, ("rate: ", "bps")),
            ({"rate": "200%"}, ("rate: ",)),
            ({"rate": "0.0000001%"}, ("rate: ", "%")),
            ({"rate": {}}, ("rate: ",)),
            ({"rate": 1000, "durations": 1}, ("traffic.start: durations: unknown member",)),
            ([1000, 1], ("traffic.start: params must be an object",))):
        refused(c, "traffic.start", p, *words)
    for p, words in (
            ({"size": 64.5}, ("size: ", "integer")),
            ({"size": 1e3}, ("size: ", "integer")),
            ({"size": 63}, ("size: ", "64..9216")),
            ({"size": 9217}, ("size: ",)),
            ({"flows": 0}, ("flows: ", "1..16777216")),
            ({"flows": 1e3}, ("flows: ", "integer")),
            ({"flows": 1 << 40}, ("flows: ",)),
            ({"size": 64, "path": "x.json"}, ("params",)),
            ({"size": 64, "colour": "red"}, ("profile.load: colour: unknown member",))):
        refused(c, "profile.load", p, *words)
    for m in ("stats.get", "stats.clear", "traffic.stop"):
        refused(c, m, {"all": True}, m + ": all: unknown member")

    # A run: an update to a rate out of range is refused and the run goes on.
    c.ok("traffic.start", {"rate": 2000, "duration": 1.5})
    refused(c, "traffic.update", {"rate": "1e-300"}, "traffic.update: rate: ")
    refused(c, "traffic.update", {"rate": 1e-300}, "traffic.update: rate: ")
    refused(c, "traffic.update", {"rate": 1000, "x": 1}, "traffic.update: x: unknown member")
    time.sleep(0.5)
    st = c.ok("stats.get")["traffic"]
    if not st["running"] or st["tx_asked"] <= 0:
        sys.exit("FAIL: the run did not survive the refused update: %s" % st)
    end = time.time() + 10
    while c.ok("stats.get")["traffic"]["running"] and time.time() < end:
        time.sleep(0.1)
    st = c.ok("stats.get")["traffic"]
    print("# run after refused updates: %s" % st)
    if st["tx_asked"] != 3000 or st["tx_packets"] != 3000:
        sys.exit("FAIL: 2000 pps for 1.5 s: %s" % st)


def files_unix(c, d):
    fifo = os.path.join(d, "fifo")
    refused(c, "profile.load", {"path": fifo}, "a FIFO, not read")
    refused(c, "profile.load", {"path": "/dev/zero"}, "a character device")
    refused(c, "profile.load", {"path": d}, "a directory")
    refused(c, "profile.load", {"path": os.path.join(d, "huge.json")}, "over the limit")
    refused(c, "profile.load", {"path": "/nonexistent.json"}, "No such file")
    # A file that is not a profile: its content is never quoted.
    msg = refused(c, "profile.load", {"path": os.path.join(d, "secret.json")}, "secret.json:1:")
    if "TOPSECRET" in msg:
        sys.exit("FAIL: the message shows the file's content: %s" % msg)
    refused(c, "profile.load",
            {"profile": {"streams": [{"pcap": fifo}]}}, "streams[0].pcap", "a FIFO")
    refused(c, "profile.load",
            {"profile": {"streams": [{"pcap": "/dev/zero"}]}}, "streams[0].pcap", "device")
    if c.ok("ping") != "pong":
        sys.exit("FAIL: no ping after the refused files")
    r = c.ok("profile.load", {"path": os.path.join(d, "files", "prof.json")})
    if r != {"streams": 2}:
        sys.exit("FAIL: a good profile file: %s" % r)


def files_dir(c, d):
    files = os.path.join(d, "files")
    for p in ("prof.json", os.path.join(files, "prof.json")):
        r = c.ok("profile.load", {"path": p})
        if r != {"streams": 2}:
            sys.exit("FAIL: %s inside the files directory: %s" % (p, r))
    refused(c, "profile.load", {"path": "escape.json"}, "outside the files directory")
    refused(c, "profile.load", {"path": "../secret.json"}, "outside the files directory")
    refused(c, "profile.load", {"path": "/etc/passwd"}, "outside the files directory")
    refused(c, "profile.load", {"path": "fifo"}, "a FIFO, not read")
    refused(c, "profile.load", {"path": "pcap-out.json"}, "streams[0].pcap",
            "outside the files directory")
    refused(c, "profile.load",
            {"profile": {"streams": [{"pcap": os.path.join(d, "fifo")}]}},
            "outside the files directory")
    r = c.ok("profile.load", {"profile": {"streams": [{"pcap": "frames.pcap"}]}})
    if r != {"streams": 1}:
        sys.exit("FAIL: inline profile with a pcap inside the files directory: %s" % r)


def main():
    mode, addr, d = sys.argv[1:4]
    c = Rpc(addr)
    if mode == "unix":
        numbers(c)
        files_unix(c, d)
    else:
        files_dir(c, d)
    c.close()
    print("OK")


main()
