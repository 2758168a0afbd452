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
again from zero after that trial's traffic). "fake.burst" {"over_cap": B}
makes the gen hop report a largest burst of B packets for traffic over
the guest's CAP (a tester catching up in bursts that overflow a policer's
bucket), 40 below it; B = 0: always 40. "fake.bad_traffic" {MEMBER: V}
makes stats.get's traffic say V for MEMBER. "fake.extra_drops" {"n": N}
makes the guest count N more rx_missed than it lost at every
traffic.stop (a wrong drop counter: the drops check fails).
"fake.no_latency" {} makes the gen hop's streams carry no latency (a
source that does not stamp its packets).
"fake.blackout" {"on": true} on the fwd socket makes the guest miss
(rx_missed) every packet from then until {"on": false}, as pvpkit soak
--inject's impair.set {"loss": 1} does to a real one.

traffic.start's "start_at" (a CLOCK_REALTIME second) is honoured as
pvpkit-gen does: the traffic runs from then on, and stats.get's
traffic.start.first_tx_s says when it began (the time of the call if the
start time had passed).

Usage: fake_hops.py DIR CAP_PPS [STALL [START_DELAY_MS]]
With STALL = N, the Nth traffic.start sends only 85 % of the rate asked and
says generator_limited (a stall of a busy tester). START_DELAY_MS delays
every traffic.start by that long before it takes effect (a tester far
away on a slow control path).
Writes DIR/topology.json once both sockets listen; runs until killed.
"""

import json
import os
import socket
import sys
import threading
import time

lock = threading.Lock()
PORT_KEYS = ("rx_packets", "rx_bytes", "tx_packets", "tx_bytes", "rx_dropped", "tx_dropped",
             "rx_errors", "tx_errors")


def zero_ports(n):
    return [{k: 0 for k in PORT_KEYS} for _ in range(n)]


state = {
    "gen": zero_ports(2),
    "fwd": zero_ports(2),
    "fwd_missed": 0,
    "running": None,  # while traffic runs: rate, duration, t0, sent and passed so far
    "size": 64,
    "requested": 0.0,
    "achieved": 0.0,
    "starts": 0,
    "stall": 0,  # the traffic.start that stalls (1-based), 0: none
    "limited": False,
    "sig_offered": 0,
    "sig_rx": 0,
    "restarts": 0,
    "start": None,  # traffic.start's start_at, start_s and first_tx_s
    "start_delay": 0.0,  # seconds every traffic.start takes to arrive
    "cap": 0.0,  # the guest's CAP_PPS
    "burst_over_cap": 0,  # largest burst said for traffic over CAP (fake.burst), 0: 40
    "extra_drops": 0,  # drops the guest counts beyond its loss per stop (fake.extra_drops)
    "bad_traffic": {},  # members stats.get's traffic says instead (fake.bad_traffic)
    "no_latency": False,  # streams without latency (fake.no_latency)
    "blackout": False,  # the guest misses every packet (fake.blackout)
}


def apply_traffic(cap, final=True):
    """Move the counters for the traffic sent so far (the time since the
    start, at most the duration), so a soak that reads the counters while
    traffic runs sees them grow; final: the traffic stops."""
    run = state["running"]
    rate, duration = run["rate"], run["duration"]
    elapsed = min(time.monotonic() - run["t0"], duration)
    size = state["size"] - 4
    asked = rate
    state["limited"] = state["starts"] == state["stall"]
    if state["limited"]:
        rate *= 0.85
    sent_all = int(rate * elapsed)
    passed_all = min(sent_all, int(cap * elapsed))
    sent, passed = sent_all - run["sent"], passed_all - run["passed"]
    run["sent"], run["passed"] = sent_all, passed_all
    if state["blackout"]:
        passed = 0
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
    state["requested"] = asked
    state["achieved"] = rate
    state["streams"] = fake_streams(rate, passed_all)
    state["sig_offered"] += sent
    state["sig_rx"] += passed
    if final:
        f[0]["rx_dropped"] += state["extra_drops"]
        state["fwd_missed"] += state["extra_drops"]
        state["running"] = None
        if state["restarts"] > 0:
            state["restarts"] -= 1
            state["fwd"] = zero_ports(2)
            state["fwd_missed"] = 0


def bucket_low(v):
    """lib/lat's bucket of v, by its lowest latency (32 sub-buckets)."""
    if v < 32:
        return v
    width = 1 << (v.bit_length() - 1 - 5)
    return v // width * width


def fake_streams(rate, passed):
    """One stream whose latency grows with the load: 99 % of the packets at
    10 us + rate / 10 ns, 1 % ten times that (lib/lat's JSON form)."""
    lo = bucket_low(10000 + int(rate / 10))
    hi = bucket_low(10 * lo)
    n_hi = passed // 100
    n_lo = passed - n_hi
    buckets = [[lo, n_lo]] if n_lo else []
    if n_hi:
        buckets.append([hi, n_hi])
    total = lo * n_lo + hi * n_hi
    summ = {"count": passed, "min": lo if n_lo else hi, "max": hi if n_hi else lo,
            "avg": total // passed if passed else 0, "p50": lo, "p90": lo, "p99": lo,
            "p99_9": hi, "p99_99": hi, "jitter": 0, "clock": "tsc",
            "histogram": {"unit": "ns", "sub_bits": 5, "count": passed, "sum": total,
                          "min": lo if n_lo else hi, "max": hi if n_hi else lo, "jitter": 0,
                          "buckets": buckets}}
    return [{"stream": 0, "name": "s0", "tx_packets": passed, "latency_ns": summ}]


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
                          "achieved_pps": state["achieved"],
                          "generator_limited": state["limited"],
                          "max_burst": state["burst_over_cap"]
                          if state["burst_over_cap"] and state["achieved"] > state["cap"]
                          else 40}
        out["traffic"].update(state["bad_traffic"])
        if state["start"] is not None:
            out["traffic"]["start"] = state["start"]
        off, rx = state["sig_offered"], state["sig_rx"]
        st = {"stream": 0, "tx_offered": off, "rx_packets": rx, "lost": off - rx, "dup": 0}
        if state.get("streams"):
            st.update(state["streams"][0])
        if state["no_latency"]:
            st.pop("latency_ns", None)
        out["streams"] = [st]
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
            if state["running"] is not None:
                apply_traffic(cap, final=False)
            return stats(hop)
        if method == "stats.clear":
            if hop == "gen":
                state["sig_offered"] = state["sig_rx"] = 0
            return {}
        if method == "fake.restart":
            state["restarts"] = int(params["times"])
            return {}
        if method == "fake.burst":
            state["burst_over_cap"] = int(params["over_cap"])
            return {}
        if method == "fake.no_latency":
            state["no_latency"] = True
            return {}
        if method == "fake.extra_drops":
            state["extra_drops"] = int(params["n"])
            return {}
        if method == "fake.bad_traffic":
            state["bad_traffic"] = params
            return {}
        if method == "fake.blackout":
            # What ran before the call passed as the state was.
            if state["running"] is not None:
                apply_traffic(cap, final=False)
            state["blackout"] = bool(params["on"])
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
            time.sleep(state["start_delay"])
            now = time.time()
            at = params.get("start_at")
            first = max(at, now) if at is not None else now
            state["start"] = {"start_at": at, "start_s": first, "first_tx_s": first}
            state["running"] = {"rate": rate, "duration": float(params["duration"]),
                                "t0": time.monotonic() + (first - now), "sent": 0,
                                "passed": 0}
            state["starts"] += 1
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
    state["cap"] = cap
    if len(sys.argv) > 3:
        state["stall"] = int(sys.argv[3])
    if len(sys.argv) > 4:
        state["start_delay"] = float(sys.argv[4]) / 1e3
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
