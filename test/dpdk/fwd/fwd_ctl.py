#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Small JSON-RPC client for the pvpkit control channel (tests only).

  fwd_ctl.py SOCKET METHOD [PARAMS_JSON]     print the result as JSON
  fwd_ctl.py SOCKET --wait-tx N [TIMEOUT_S]  poll stats.get until the ports'
                                             tx_packets + tx_dropped sum to N
  fwd_ctl.py SOCKET --hammer SECONDS         stats.get in a loop; check every
                                             reading is monotonic and consistent
SOCKET is a unix socket path (unix: prefix allowed) or tcp:HOST:PORT.
Exit status: 0 ok, 1 check failed, 2 transport/JSON-RPC error.
"""
import json
import socket
import sys
import time


class Ctl:
    def __init__(self, addr, timeout=5.0):
        if addr.startswith("tcp:"):
            host, port = addr[4:].rsplit(":", 1)
            self.s = socket.create_connection((host.strip("[]"), int(port)), timeout)
        else:
            if addr.startswith("unix:"):
                addr = addr[5:]
            self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.s.settimeout(timeout)
            self.s.connect(addr)
        self.f = self.s.makefile("rb")
        self.id = 0

    def call(self, method, params=None):
        self.id += 1
        req = {"jsonrpc": "2.0", "id": self.id, "method": method}
        if params is not None:
            req["params"] = params
        self.s.sendall((json.dumps(req) + "\n").encode())
        line = self.f.readline()
        if not line:
            raise RuntimeError("connection closed")
        rep = json.loads(line)
        if "error" in rep:
            raise RuntimeError("%s: %s" % (method, rep["error"]))
        return rep["result"]


def totals(st):
    t = {}
    for p in st["ports"]:
        for k, v in p.items():
            if isinstance(v, int) and not isinstance(v, bool):
                t[k] = t.get(k, 0) + v
    return t


def wait_tx(ctl, n, timeout):
    end = time.time() + timeout
    while True:
        t = totals(ctl.call("stats.get"))
        if t.get("tx_packets", 0) + t.get("tx_dropped", 0) >= n:
            print(json.dumps(t))
            return 0
        if time.time() > end:
            print("timeout: %s" % json.dumps(t), file=sys.stderr)
            return 1
        time.sleep(0.1)


def hammer(ctl, seconds):
    """Read stats as fast as possible; every counter must be monotonic, and
    what came in must have gone out or been dropped (a burst in flight at
    most per lcore)."""
    keys = ("rx_packets", "tx_packets", "rx_dropped", "tx_dropped", "rx_bytes", "tx_bytes")
    prev, first, reads, bad = None, None, 0, 0
    end = time.time() + seconds
    while time.time() < end:
        t = totals(ctl.call("stats.get"))
        reads += 1
        if first is None:
            first = t
        if prev is not None:
            for k in keys:
                if t[k] < prev[k]:
                    print("not monotonic: %s %d -> %d" % (k, prev[k], t[k]), file=sys.stderr)
                    bad += 1
        # Packets are counted in before they are counted out, so what a
        # reading says went out can never exceed what the next one says
        # came in (exact equality is checked after the stop).
        if prev is not None and prev["tx_packets"] + prev["tx_dropped"] > t["rx_packets"]:
            print("inconsistent: out %d then in %d"
                  % (prev["tx_packets"] + prev["tx_dropped"], t["rx_packets"]), file=sys.stderr)
            bad += 1
        prev = t
    print(json.dumps({"reads": reads, "bad": bad,
                      "rx_first": first["rx_packets"], "rx_last": prev["rx_packets"],
                      "tx_first": first["tx_packets"], "tx_last": prev["tx_packets"]}))
    return 1 if bad else 0


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        ctl = Ctl(sys.argv[1])
        if sys.argv[2] == "--wait-tx":
            timeout = float(sys.argv[4]) if len(sys.argv) > 4 else 10.0
            return wait_tx(ctl, int(sys.argv[3]), timeout)
        if sys.argv[2] == "--hammer":
            return hammer(ctl, float(sys.argv[3]))
        params = json.loads(sys.argv[3]) if len(sys.argv) > 3 else None
        print(json.dumps(ctl.call(sys.argv[2], params), sort_keys=True))
        return 0
    except (OSError, RuntimeError, ValueError) as e:
        print("fwd_ctl: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
