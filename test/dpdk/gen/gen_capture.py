#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""pvpkit-gen --server --ctl-files-dir DIR on a net_ring loopback port:
capture.start with a BPF filter while traffic runs, capture.status,
capture.stop (the file is whole when it answers), and bad captures refused
by name while traffic and its counters go on.

Usage: gen_capture.py SOCKET DIR   (prints the capture file's name)
"""
import os
import sys
import time

from gen_ctl import Client, check, err, ok


def main():
    c, d = Client(sys.argv[1]), sys.argv[2]
    info = ok(c.call("info"))
    for m in ("capture.start", "capture.stop", "capture.status"):
        check(m in info["methods"], (m, info["methods"]))
    check(ok(c.call("profile.load", {"size": 64, "flows": 10})) == {"streams": 1})
    ok(c.call("traffic.start", {"rate": 10000}))
    time.sleep(0.2)

    # Flow 3 of 10 (16.0.0.4): a tenth of the frames coming back.
    r = ok(c.call("capture.start", {"file": "ctl.pcap", "filter": "src host 16.0.0.4",
                                    "count": 200, "dir": "rx", "port": 0}))
    check(r["file"] == "ctl.pcap" and r["id"] >= 1, r)
    st = ok(c.call("capture.status"))
    check(len(st) == 1 and st[0]["id"] == r["id"] and st[0]["active"], st)
    end = time.time() + 10
    while ok(c.call("capture.status"))[0]["matched"] < 250 and time.time() < end:
        time.sleep(0.1)
    s = ok(c.call("capture.stop", {"id": r["id"]}))
    print("# capture.stop: %s" % s)
    check(s["captured"] == 200 and s["matched"] >= 250 and s["over_limit"] == s["matched"] - 200 and
          s["dropped"] == 0 and s["filter"] == "src host 16.0.0.4", s)
    check(os.path.getsize(os.path.join(d, "ctl.pcap")) == 24 + 200 * (16 + 60),
          "ctl.pcap is %d bytes" % os.path.getsize(os.path.join(d, "ctl.pcap")))
    check(ok(c.call("capture.status")) == [], "stopped capture still listed")

    before = ok(c.call("stats.get"))["ports"][0]["tx_packets"]
    err(c.call("capture.start", {"file": "bad.pcap", "filter": "udp and port"}), -32602)
    err(c.call("capture.start", {"file": "ctl.pcap"}), -32602)           # exists
    err(c.call("capture.start", {"file": "../escape.pcap"}), -32602)
    err(c.call("capture.start", {"file": "sub/x.pcap"}), -32602)
    err(c.call("capture.start", {"file": "x.pcap", "count": 0}), -32602)
    err(c.call("capture.start", {"file": "x.pcap", "count": 2000000}), -32602)
    err(c.call("capture.start", {"file": "x.pcap", "port": 1}), -32602)
    err(c.call("capture.start", {"file": "x.pcap", "dir": "both"}), -32602)
    err(c.call("capture.start", {"file": "x.pcap", "colour": "red"}), -32602)
    err(c.call("capture.stop", {"id": 99}), -32602)
    check(not os.path.exists(os.path.join(d, "bad.pcap")), "a refused capture left a file")
    time.sleep(0.3)
    st = ok(c.call("stats.get"))
    check(st["traffic"]["running"] and st["ports"][0]["tx_packets"] > before + 1000,
          "traffic did not go on: %s" % st["traffic"])
    ok(c.call("traffic.stop"))
    time.sleep(0.3)
    st = ok(c.call("stats.get"))
    s = st["streams"][0]
    check(s["rx_packets"] == s["tx_packets"] and s["lost"] == 0 and st["unsigned_rx"] == 0, s)
    check(st["capture"]["captured"] == 200, st["capture"])


if __name__ == "__main__":
    main()
