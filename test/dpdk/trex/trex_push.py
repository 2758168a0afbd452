#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""TRex's push_remote on pvpkit-gen --trex (two memif ports, port 0's TX is
port 1's RX), as a client's push_remote() sends it: small pcaps made with
scapy pushed on port 0 with the file's gaps and a speedup, a fixed gap, the
file's MACs kept (count's bits 31 and 30), passes, a duration, until
stopped; bad pushes (missing file, no pcap, a cut pcap, a frame over the
MTU, bad parameters) refused by the request with one line while port 1's
stream and the counters go on. What port 1 received is checked by tshark
(check).

Usage: trex_push.py send RPC_PORT PUB_PORT DIR
       trex_push.py check RX_PCAP DIR/timed.count DIR/client
"""
import os
import subprocess
import sys
import time

from scapy.all import Ether, IP, UDP, Raw, wrpcap

from trex_wire import Client, fail, stream, udp_frame, wait_links

PORT0_MAC = "02:00:00:00:00:0a"
FILE_SRC, FILE_DST = "02:00:00:00:00:f1", "02:00:00:00:00:f2"
# Each push's frames by IPv4 source: (push, frames per pass, passes).
GAPS, FIXED, TIMED = "16.0.0.1", "16.0.0.2", "16.0.0.3"


def check(cond, msg):
    if not cond:
        fail(msg)


def frames(src, n, size=100):
    return [Ether(src=FILE_SRC, dst=FILE_DST) / IP(src=src, dst="48.0.0.1", id=i) /
            UDP(sport=1025, dport=12) / Raw(b"x" * (size - 46)) for i in range(n)]


def write(path, pkts, gap_s):
    for i, p in enumerate(pkts):
        p.time = 1000.0 + i * gap_s
    wrpcap(path, pkts)


def state(c, port):
    return c.call("get_port_status", {"port_id": port})["state"]


def opackets(c, port):
    return c.call("get_port_stats", {"port_id": port})["opackets"]


def push(path, ipg=-1, speedup=1.0, count=1, duration=-1, **kw):
    p = {"pcap_filename": path, "ipg_usec": ipg, "speedup": speedup, "count": count,
         "duration": duration, "is_dual": False, "slave_handler": "", "min_ipg_usec": 0}
    p.update(kw)
    return p


def wait_idle(c, port, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        s = state(c, port)
        if s != "PCAP_TX":
            return s
        time.sleep(0.02)
    fail("port %d still in PCAP_TX after %d s" % (port, timeout))


def send(rpc, d):
    write(d + "/gaps.pcap", frames(GAPS, 10), 0.004)
    write(d + "/fixed.pcap", frames(FIXED, 10), 0.5)
    write(d + "/timed.pcap", frames(TIMED, 5), 0.5)
    c = Client(rpc)
    c.sync()
    c.acquire(0)
    c.acquire(1)
    wait_links(c)

    print("# the file's gaps (4 ms) at speedup 2, three passes")
    before = opackets(c, 0)
    c.port_call("push_remote", 0, push(d + "/gaps.pcap", speedup=2.0, count=3))
    check(state(c, 0) == "PCAP_TX", "state during a push: %s" % state(c, 0))
    c.port_error("pause_traffic", 0, {"profile_id": "_"}, contains="'PCAP_TX'")
    c.port_error("push_remote", 0, push(d + "/gaps.pcap"), contains="'PCAP_TX'")
    check(wait_idle(c, 0) == "IDLE", "state after the push")
    check(opackets(c, 0) - before == 30, "opackets +%d, expected 30" % (opackets(c, 0) - before))

    print("# a fixed gap of 1 ms, two passes, the file's MACs kept")
    c.port_call("push_remote", 0, push(d + "/fixed.pcap", ipg=1000, count=2 | 0xC0000000))
    wait_idle(c, 0)
    check(opackets(c, 0) - before == 50, "opackets +%d, expected 50" % (opackets(c, 0) - before))

    print("# until stopped, ended by a duration of 0.3 s (1 ms gaps)")
    t0 = time.time()
    c.port_call("push_remote", 0, push(d + "/timed.pcap", ipg=1000, count=0, duration=0.3))
    wait_idle(c, 0)
    sent = opackets(c, 0) - before - 50
    check(time.time() - t0 < 2, "a push of 0.3 s took %.1f s" % (time.time() - t0))
    check(100 <= sent <= 320, "%d frames in 0.3 s at 1 ms gaps" % sent)
    with open(d + "/timed.count", "w") as f:
        f.write("%d\n" % sent)

    print("# bad pushes are refused by the request; port 1's stream goes on")
    c.port_call("add_stream", 1, {"stream_id": 1, "stream": stream(udp_frame(22, src="16.0.0.9"), mode={
        "type": "continuous", "rate": {"type": "pps", "value": 1000}})})
    c.port_call("start_traffic", 1, {"mul": {"type": "raw", "op": "abs", "value": 1},
                                     "duration": -1, "force": False})
    with open(d + "/text.pcap", "w") as f:
        f.write("not a pcap\n")
    with open(d + "/gaps.pcap", "rb") as f:
        whole = f.read()
    with open(d + "/cut.pcap", "wb") as f:
        f.write(whole[:24 + 16 + 100 + 16 + 50])
    write(d + "/jumbo.pcap", frames(GAPS, 2) + frames(GAPS, 1, size=2000), 0.001)
    o0, o1 = opackets(c, 0), opackets(c, 1)
    bad = [
        (push(d + "/missing.pcap"), "missing.pcap"),
        (push(d + "/text.pcap"), "text.pcap"),
        (push(d + "/cut.pcap"), "cut.pcap"),
        (push(d + "/jumbo.pcap"), "frame 3 is 1996 B, over port 0's MTU of 1500"),
        (push(d + "/gaps.pcap", speedup=0), "'speedup' must be positive"),
        (push(d + "/gaps.pcap", is_dual=True, slave_handler="nobody"),
         "incorrect or missing slave port handler"),
    ]
    for params, want in bad:
        e = c.port_error("push_remote", 0, params, contains=want)
        check("\n" not in e["specific_err"], "a multi-line error: %r" % e["specific_err"])
        check(state(c, 0) == "IDLE", "port 0 is %s after a refused push" % state(c, 0))
    time.sleep(0.2)
    check(opackets(c, 0) == o0, "port 0 sent %d frames after refused pushes" % (opackets(c, 0) - o0))
    check(opackets(c, 1) > o1 + 50, "port 1's stream stopped: %d -> %d" % (o1, opackets(c, 1)))
    check(state(c, 1) == "TX", "port 1 is %s" % state(c, 1))
    c.port_call("stop_traffic", 1, {"profile_id": "_"})

    print("# until stop_traffic")
    c.port_call("push_remote", 0, push(d + "/timed.pcap", ipg=1000, count=0))
    time.sleep(0.1)
    check(state(c, 0) == "PCAP_TX", "state of an endless push: %s" % state(c, 0))
    c.port_call("stop_traffic", 0, {"profile_id": "_"})
    check(state(c, 0) == "IDLE", "state after stop_traffic: %s" % state(c, 0))
    n = opackets(c, 0)
    time.sleep(0.1)
    check(opackets(c, 0) == n, "port 0 still sends after stop_traffic")
    c.close()


def tshark(path, filt):
    out = subprocess.run(["tshark", "-r", path, "-Y", filt, "-T", "fields", "-e", "frame.time_epoch",
                          "-e", "ip.id", "-e", "eth.src", "-e", "eth.dst"],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    return [(float(t), int(i, 0), s, d) for t, i, s, d in
            (line.split("\t") for line in out if line)]


def median(v):
    v = sorted(v)
    return v[len(v) // 2]


def check_rx(path, timed_count, client):
    gaps = tshark(path, "ip.src == %s" % GAPS)
    check([f[1] for f in gaps] == list(range(10)) * 3,
          "file's gaps: ids %s, expected 0..9 three times" % [f[1] for f in gaps])
    check(all(f[2] == PORT0_MAC and f[3] == "00:00:00:00:00:00" for f in gaps),
          "MACs not the port's: %s" % set((f[2], f[3]) for f in gaps))
    g = [b[0] - a[0] for a, b in zip(gaps, gaps[1:])]
    span = gaps[-1][0] - gaps[0][0]
    print("# file's gaps / 2: median gap %.2f ms, 30 frames in %.1f ms" % (median(g) * 1e3, span * 1e3))
    check(1.0e-3 <= median(g) <= 4.0e-3, "median gap %.2f ms, expected about 2 ms" % (median(g) * 1e3))
    check(0.04 <= span <= 0.5, "30 frames 2 ms apart took %.1f ms" % (span * 1e3))
    fixed = tshark(path, "ip.src == %s" % FIXED)
    check([f[1] for f in fixed] == list(range(10)) * 2, "fixed gap: ids %s" % [f[1] for f in fixed])
    check(all(f[2] == FILE_SRC and f[3] == FILE_DST for f in fixed), "the file's MACs not kept")
    g = [b[0] - a[0] for a, b in zip(fixed, fixed[1:])]
    print("# fixed 1 ms: median gap %.2f ms (the file's 500 ms ignored)" % (median(g) * 1e3))
    check(0.5e-3 <= median(g) <= 2.0e-3, "median gap %.2f ms, expected about 1 ms" % (median(g) * 1e3))
    timed = tshark(path, "ip.src == %s" % TIMED)
    check(len(timed) >= timed_count, "%d frames of the timed pushes, %d sent" % (len(timed), timed_count))
    check([f[1] for f in timed[:timed_count]] == [i % 5 for i in range(timed_count)],
          "timed push: frames out of order")
    check(not tshark(path, "ip.src == 16.0.0.1 && frame.len > 1500"), "a frame over the MTU went out")
    print("# tshark: %d + %d + %d frames in order" % (len(gaps), len(fixed), len(timed)))
    if client:
        remote = tshark(path, "ip.src == 16.0.0.5")
        local = tshark(path, "ip.src == 16.0.0.6")
        check([f[1] for f in remote] == list(range(6)) * 2, "client's push_remote: %s" % remote)
        check([f[1] for f in local] == list(range(4)) * 3, "client's push_pcap: %s" % local)
        print("# tshark: TRex's client: push_remote 12 frames, push_pcap 12 frames, in order")


def main():
    if sys.argv[1] == "send":
        send(int(sys.argv[2]), sys.argv[4])
    else:
        with open(sys.argv[3]) as f:
            check_rx(sys.argv[2], int(f.read()), os.path.exists(sys.argv[4]))
    print("PASS")


if __name__ == "__main__":
    main()
