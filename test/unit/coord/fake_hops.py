#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""A pretend PVP path for the coordinator's CLI tests: a "gen" hop and a
"fwd" hop answering the control channel (JSON-RPC 2.0, one object per
line) on two unix sockets, with counters that follow a simple model, so
`pvpkit trial`, `search`, `run` and `report` run end to end with no DPDK.

The model: traffic.start at R pps for D s sends N = R * D packets on gen
p0; fwd receives them on p0 and forwards at most CAP * D of them on p1,
counting the rest as rx_missed (rx_dropped); gen p1 receives what fwd
sent. The counters move when traffic.stop is called, so the trial's quiet
wait sees them settled at once. The gen hop also reports its per-stream
accounting since its last stats.clear (one stream, no duplicates) and a
largest burst of 40 packets.

Faults on request: "fake.restart" {"times": N} on either socket makes the
guest "restart" at the next N traffic.stop calls (its counters start
again from zero after that trial's traffic).

Usage: fake_hops.py DIR CAP_PPS
Writes DIR/topology.json once both sockets listen; runs until killed.
"""

import json
import os
import socket
import sys
import threading

lock = threading.Lock()
PORT_KEYS = ("rx_packets", "rx_bytes", "tx_packets", "tx_bytes", "rx_dropped", "tx_dropped",
             "rx_errors", "tx_errors")


def zero_ports(n):
    return [{k: 0 for k in PORT_KEYS} for _ in range(n)]


state = {
    "gen": zero_ports(2),
    "fwd": zero_ports(2),
    "fwd_missed": 0,
    "running": None,  # (rate, duration) while traffic runs
    "size": 64,
    "requested": 0.0,
    "achieved": 0.0,
    "sig_offered": 0,
    "sig_rx": 0,
    "restarts": 0,
}


def apply_traffic(cap):
    """Move the counters for the traffic that just stopped."""
    rate, duration = state["running"]
    size = state["size"] - 4
    sent = int(rate * duration)
    passed = min(sent, int(cap * duration))
    g, f = state["gen"], state["fwd"]
    g[0]["tx_packets"] += sent
    g[0]["tx_bytes"] += sent * size
    f[0]["rx_packets"] += passed
    f[0]["rx_bytes"] += passed * size
    f[0]["rx_dropped"] += sent - passed
    state["fwd_missed"] += sent - passed
    f[1]["tx_packets"] += passed
    f[1]["tx_bytes"] += passed * size
    g[1]["rx_packets"] += passed
    g[1]["rx_bytes"] += passed * size
    state["requested"] = rate
    state["achieved"] = rate
    state["running"] = None
    state["sig_offered"] += sent
    state["sig_rx"] += passed
    if state["restarts"] > 0:
        state["restarts"] -= 1
        state["fwd"] = zero_ports(2)
        state["fwd_missed"] = 0


def stats(hop):
    ports = []
    for i, p in enumerate(state[hop]):
        e = dict(p, port=i)
        if hop == "fwd" and i == 0:
            e["rx_missed"] = state["fwd_missed"]
        ports.append(e)
    out = {"name": "pvpkit-" + hop, "tsc": 1, "hz": 1000000000, "ports": ports}
    if hop == "gen":
        out["traffic"] = {"requested_pps": state["requested"],
                          "achieved_pps": state["achieved"], "generator_limited": False,
                          "max_burst": 40}
        off, rx = state["sig_offered"], state["sig_rx"]
        out["streams"] = [{"stream": 0, "tx_offered": off, "rx_packets": rx,
                           "lost": off - rx, "dup": 0}]
        out["unsigned_rx"] = 0
        out["unknown_stream_rx"] = 0
    return out


def handle(hop, method, params, cap):
    with lock:
        if method == "ping":
            return "pong"
        if method == "info":
            return {"name": "pvpkit-" + hop, "fake": True}
        if method == "stats.get":
            return stats(hop)
        if method == "stats.clear":
            if hop == "gen":
                state["sig_offered"] = state["sig_rx"] = 0
            return {}
        if method == "fake.restart":
            state["restarts"] = int(params["times"])
            return {}
        if hop != "gen":
            raise KeyError(method)
        if method == "profile.load":
            state["size"] = int(params.get("size", 64))
            return {"streams": 1}
        if method == "traffic.start":
            rate = params["rate"]
            mult = {"kpps": 1e3, "Mpps": 1e6}.get(str(rate)[-4:], 1)
            try:
                rate = float(str(rate)[:-4] if mult != 1 else rate) * mult
            except ValueError:
                rate = 1e5  # "max", "10%": the pretend link's speed
            state["running"] = (rate, float(params["duration"]))
            return {}
        if method == "traffic.stop":
            if state["running"] is not None:
                apply_traffic(cap)
            return {}
    raise KeyError(method)


def serve(conn, hop, cap):
    buf = b""
    with conn:
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                return
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                req = json.loads(line)
                resp = {"jsonrpc": "2.0", "id": req.get("id")}
                try:
                    resp["result"] = handle(hop, req["method"], req.get("params") or {}, cap)
                except KeyError:
                    resp["error"] = {"code": -32601, "message": "Method not found"}
                conn.sendall(json.dumps(resp).encode() + b"\n")


def listen(path, hop, cap):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(8)

    def loop():
        while True:
            c, _ = s.accept()
            threading.Thread(target=serve, args=(c, hop, cap), daemon=True).start()

    threading.Thread(target=loop, daemon=True).start()


def main():
    d, cap = sys.argv[1], float(sys.argv[2])
    for hop in ("gen", "fwd"):
        listen(os.path.join(d, hop + ".sock"), hop, cap)
    topo = {
        "name": "fake",
        "hops": [
            {"name": "tester", "driver": "gen", "ctl": "unix:" + d + "/gen.sock",
             "ports": ["p0", "p1"]},
            {"name": "guest", "driver": "fwd", "ctl": "unix:" + d + "/fwd.sock",
             "ports": ["p0", "p1"]},
        ],
        "chains": [[
            {"hop": "tester", "port": "p0", "dir": "tx", "label": "sent by tester"},
            {"hop": "guest", "port": "p0", "dir": "rx"},
            {"hop": "guest", "port": "p1", "dir": "tx"},
            {"hop": "tester", "port": "p1", "dir": "rx", "label": "received by tester"},
        ]],
    }
    tmp = os.path.join(d, "topology.json.tmp")
    with open(tmp, "w") as f:
        json.dump(topo, f, indent=1)
    os.rename(tmp, os.path.join(d, "topology.json"))
    threading.Event().wait()


if __name__ == "__main__":
    main()
