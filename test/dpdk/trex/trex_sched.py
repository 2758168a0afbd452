#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Stream scheduling as TRex's compiler and DP core do it, through
pvpkit-gen --trex on a net_pcap port, checked in the pcap as tshark
decodes it: stream chains (next_stream_id, self_start False,
action_count loops, a chain into a multi burst: the shapes of trex-core's
burst_3st_loop_x_times and multi_burst_2st_1000pkt), each stream's own
isg (simple_3st, imix.py), a duration counted from each stream's isg, and
the compiler's refusals of broken chains. Streams are told apart by their
IPv4 source address.

Usage: trex_sched.py send RPC_PORT PUB_PORT
       trex_sched.py check PCAP
"""
import subprocess
import sys
import time

from trex_wire import fail, stream, udp_frame

MUL = {"mul": {"type": "raw", "op": "abs", "value": 1}, "force": False}

# Packets of each phase, by stream source address, in the order sent.
CHAIN = ["16.0.0.1"] * 3 + ["16.0.0.2"] * 2 + ["16.0.0.3"]
CHAIN = CHAIN * 2
MULTI = ["16.0.0.10"] * 2 + ["16.0.0.11"] * 6
ISG = ["16.0.0.20"] * 4 + ["16.0.0.21"] * 4 + ["16.0.0.22"] * 4
DUR = {"16.0.0.30": 500, "16.0.0.31": 200}


def burst(n, pps=1000):
    return {"type": "single_burst", "total_pkts": n, "rate": {"type": "pps", "value": pps}}


def st(src, mode, nxt=-1, count=0, **kw):
    s = stream(udp_frame(18, src=src), mode=mode, **kw)
    s["next_stream_id"] = nxt
    s["action_count"] = count
    return s


def run(c, streams, duration=-1):
    c.port_call("remove_all_streams", 0)
    for sid, s in streams:
        c.port_call("add_stream", 0, {"stream_id": sid, "stream": s})
    c.port_call("start_traffic", 0, dict(MUL, duration=duration))
    end = time.time() + 10
    while time.time() < end:
        if c.call("get_port_status", {"port_id": 0})["state"] == "STREAMS":
            return
        time.sleep(0.02)
    fail("port 0 still sending 10 s after the start")


def send(rpc, pub):
    from trex_wire import Client
    c = Client(rpc, user="sched", session_id=77)
    c.sync()
    c.acquire(0)
    print("# chain: 1 -> 2 -> 3 -> 1, action_count 2 on 3 (burst_3st_loop_x_times)")
    run(c, [(1, st("16.0.0.1", burst(3), nxt=2, isg=10.0)),
            (2, st("16.0.0.2", burst(2), nxt=3, self_start=False)),
            (3, st("16.0.0.3", burst(1), nxt=1, count=2, self_start=False))])
    print("# chain into a multi burst (multi_burst_2st_1000pkt)")
    run(c, [(10, st("16.0.0.10", burst(2), nxt=11)),
            (11, st("16.0.0.11", {"type": "multi_burst", "pkts_per_burst": 3, "count": 2,
                                  "ibg": 100000.0, "rate": {"type": "pps", "value": 1000}},
                    self_start=False))])
    print("# each stream its own isg (simple_3st, imix.py)")
    run(c, [(20, st("16.0.0.20", burst(4))),
            (21, st("16.0.0.21", burst(4), isg=100000.0)),
            (22, st("16.0.0.22", burst(4), isg=200000.0))])
    print("# a duration: each stream sends from its isg to the end")
    cont = {"type": "continuous", "rate": {"type": "pps", "value": 1000}}
    run(c, [(30, st("16.0.0.30", cont)), (31, st("16.0.0.31", cont, isg=300000.0))], 0.5)
    print("# broken chains refused at start, as TRex's compiler does")
    c.port_call("remove_all_streams", 0)
    c.port_call("add_stream", 0, {"stream_id": 40, "stream": st("16.0.0.40", burst(1), nxt=99)})
    c.port_error("start_traffic", 0, dict(MUL, duration=-1),
                 contains="stream 40 is pointing to a non-existent stream 99")
    c.port_call("add_stream", 0, {"stream_id": 99, "stream": st("16.0.0.40", burst(1),
                                                                 enabled=False)})
    c.port_error("start_traffic", 0, dict(MUL, duration=-1),
                 contains="stream 40 is pointing to disabled stream 99")
    c.port_call("remove_all_streams", 0)
    c.port_call("add_stream", 0, {"stream_id": 41, "stream": st("16.0.0.41", burst(1))})
    c.port_call("add_stream", 0, {"stream_id": 42, "stream": st("16.0.0.42", burst(1),
                                                                 self_start=False)})
    c.port_error("start_traffic", 0, dict(MUL, duration=-1),
                 contains="stream 42 is unreachable from any other stream")
    c.port_error("add_stream", 0, {"stream_id": 43, "stream": st("16.0.0.43", burst(1), nxt=-2)},
                 contains="'next_stream_id' must be -1..")
    c.port_call("remove_all_streams", 0)
    c.port_call("release", 0)


def check(path):
    out = subprocess.run(["tshark", "-r", path, "-T", "fields", "-e", "frame.time_epoch",
                          "-e", "ip.src"], capture_output=True, text=True, check=True).stdout
    pkts = [(float(t), src) for t, src in (line.split("\t") for line in out.splitlines())]
    srcs = [s for _, s in pkts]
    n = len(CHAIN) + len(MULTI) + len(ISG)
    if srcs[:n] != CHAIN + MULTI + ISG:
        fail("order %s, expected %s" % (srcs[:n], CHAIN + MULTI + ISG))
    t = [x for x, _ in pkts]
    multi = t[len(CHAIN):len(CHAIN) + len(MULTI)]
    if not multi[5] - multi[4] >= 0.1:
        fail("multi burst's ibg of 100 ms took %.3f s" % (multi[5] - multi[4]))
    isg = t[len(CHAIN) + len(MULTI):n]
    # Each isg counts from the port's start, which the first packet follows by
    # up to a scheduler slice on a busy host (20 ms allowed).
    for k, want in ((4, 0.1), (8, 0.2)):
        if not want - 0.02 <= isg[k] - isg[0] < want + 0.15:
            fail("stream of isg %g s began %.3f s after the first" % (want, isg[k] - isg[0]))
    rest = pkts[n:]
    got = {s: srcs[n:].count(s) for s in DUR}
    if got != DUR or len(rest) != sum(DUR.values()):
        fail("a 0.5 s run sent %s (%d in all), expected %s" % (got, len(rest), DUR))
    first = {s: min(x for x, y in rest if y == s) for s in DUR}
    if not 0.28 <= first["16.0.0.31"] - first["16.0.0.30"] < 0.45:
        fail("stream of isg 0.3 s began %.3f s after the other" %
             (first["16.0.0.31"] - first["16.0.0.30"]))
    print("# %d packets in TRex's order, gaps and counts" % len(pkts))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "send":
        send(int(sys.argv[2]), int(sys.argv[3]))
    elif len(sys.argv) == 3 and sys.argv[1] == "check":
        check(sys.argv[2])
    else:
        sys.exit(__doc__)
