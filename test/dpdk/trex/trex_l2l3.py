#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""The port's MACs over a stream's, as TRex's stream "flags" ask, on
pvpkit-gen --trex (two memif ports, port 0's TX is port 1's RX): bit 0
keeps the packet's source MAC (else the port's), bits 1-2 keep the
packet's destination MAC when 1 (else the port's: --dst-mac, set_l2's, or
set_l3's resolved gateway); a set_l2 after a run changes the next run's
frames; push_remote writes set_l2's MAC too; push_pkts spaces its packets
by ipg_usec; a client's reset() leaves pvpkit-gen's --capture alone. What
port 1 received is checked by tshark (check).

Usage: trex_l2l3.py send RPC_PORT PUB_PORT DIR
       trex_l2l3.py check RX_PCAP DIR
"""
import os
import subprocess
import sys
import time

from trex_wire import Client, fail, stream, udp_frame, wait_links, wait_streams

PORT0, PORT1 = "02:00:00:00:00:0a", "02:00:00:00:00:0b"
CFG = "02:00:00:00:00:dd"        # pvpkit-gen's --dst-mac: TRex's dest_mac
L2 = "02:00:00:00:00:12"         # set_l2's
PKT_SRC, PKT_DST = "02:00:00:00:00:01", "02:00:00:00:00:02"  # udp_frame's
# IPv4 source of each case: (what is sent, expected eth.src, expected eth.dst).
CASES = [
    ("16.0.1.1", "flags 0, no set_l2", PORT0, CFG),
    ("16.0.1.2", "flags 3: both the packet's", PKT_SRC, PKT_DST),
    ("16.0.1.3", "flags 1: the packet's source", PKT_SRC, CFG),
    ("16.0.1.4", "flags 2: the packet's destination", PORT0, PKT_DST),
    ("16.0.1.5", "flags 0 after set_l2", PORT0, L2),
    ("16.0.1.6", "flags 4 (ARP) after set_l2", PORT0, L2),
    ("16.0.1.7", "flags 2 after set_l2", PORT0, PKT_DST),
    ("16.0.1.8", "flags 0 after set_l3 resolved", PORT0, PORT1),
    ("16.0.1.9", "push_remote after set_l2", PORT0, L2),
]
PUSHED, IPG_US, N_PUSHED = "16.0.2.1", 10000, 10


def check(cond, msg):
    if not cond:
        fail(msg)


def burst(c, src, flags, n=5):
    """@n frames of one stream with @flags on port 0, sent and waited for."""
    st = stream(udp_frame(22, src=src), mode={
        "type": "single_burst", "total_pkts": n, "rate": {"type": "pps", "value": 1000}})
    st["flags"] = flags
    c.port_call("remove_all_streams", 0, {"profile_id": "_"})
    c.port_call("add_stream", 0, {"stream_id": 1, "stream": st})
    check(c.call("get_stream", {"port_id": 0, "stream_id": 1})["stream"]["flags"] == flags,
          "get_stream's flags")
    c.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1},
                                     "duration": -1, "force": False})
    wait_streams(c, 0)


def send(rpc, d):
    c = Client(rpc)
    c.sync()
    c.acquire(0)
    c.acquire(1)
    wait_links(c)
    print("# a client's reset() removes every capture the status lists: not --capture's")
    cap = c.call("capture", {"command": "start", "limit": 10, "mode": "fixed", "tx": [], "rx": [1],
                             "filter": ""})["capture_id"]
    listed = [x["id"] for x in c.call("capture", {"command": "status"})]
    check(listed == [cap], "capture status lists %s, the client started %d only" % (listed, cap))
    for i in range(1, cap):
        c.error("capture", {"command": "remove", "capture_id": i}, contains="capture ID not found")
        c.error("capture", {"command": "stop", "capture_id": i}, contains="capture ID not found")
    for i in listed:
        c.call("capture", {"command": "remove", "capture_id": i})
    layer = c.call("get_port_status", {"port_id": 0})["attr"]["layer_cfg"]["ether"]
    check(layer["dst"] == CFG and layer["src"] == PORT0, "layer_cfg %s, --dst-mac %s" % (layer, CFG))
    print("# the port's MACs: source %s, destination %s (--dst-mac)" % (PORT0, CFG))
    burst(c, "16.0.1.1", 0)
    burst(c, "16.0.1.2", 3)
    burst(c, "16.0.1.3", 1)
    burst(c, "16.0.1.4", 2)
    # A loaded profile is built again with the new MAC; the stream stays as it was.
    c.port_call("remove_all_streams", 0, {"profile_id": "_"})
    st = stream(udp_frame(22, src="16.0.1.5"), mode={
        "type": "single_burst", "total_pkts": 5, "rate": {"type": "pps", "value": 1000}})
    c.port_call("add_stream", 0, {"stream_id": 1, "stream": st})
    mul = {"mul": {"type": "raw", "op": "abs", "value": 1}, "duration": -1, "force": False}
    c.port_call("start_traffic", 0, mul)
    wait_streams(c, 0)
    c.port_call("set_l2", 0, {"dst_mac": L2})
    c.port_call("start_traffic", 0, mul)
    wait_streams(c, 0)
    print("# set_l2 %s between two runs of one stream" % L2)
    burst(c, "16.0.1.6", 4)
    burst(c, "16.0.1.7", 2)
    c.port_call("set_l3", 0, {"src_addr": "10.0.0.1", "dst_addr": "10.0.0.2", "resolved_mac": PORT1})
    burst(c, "16.0.1.8", 0)
    print("# set_l3 resolved to %s" % PORT1)
    c.port_call("set_l2", 0, {"dst_mac": L2})
    from scapy.all import Ether, IP, UDP, Raw, wrpcap
    pkts = [Ether(src=PKT_SRC, dst=PKT_DST) / IP(src="16.0.1.9", dst="48.0.0.1", id=i) /
            UDP(sport=1025, dport=12) / Raw(b"z" * 20) for i in range(3)]
    wrpcap(d + "/macs.pcap", pkts)
    c.port_call("push_remote", 0, {"pcap_filename": d + "/macs.pcap", "ipg_usec": 1000, "speedup": 1.0,
                                   "count": 1, "duration": -1, "is_dual": False, "slave_handler": "",
                                   "min_ipg_usec": 0})
    end = time.time() + 10
    while c.call("get_port_status", {"port_id": 0})["state"] == "PCAP_TX":
        check(time.time() < end, "push_remote not over within 10 s")
        time.sleep(0.02)

    print("# push_pkts: %d packets %d us apart" % (N_PUSHED, IPG_US))
    c.port_call("service", 0, {"enabled": True})
    frame = bytes.fromhex(L2.replace(":", "")) + udp_frame(22, src=PUSHED)[6:]
    import base64
    pkts = [{"binary": base64.b64encode(frame).decode(), "use_port_dst_mac": False,
             "use_port_src_mac": True}] * N_PUSHED
    t0 = time.time()
    rep = c.port_call("push_pkts", 0, {"pkts": pkts, "ipg_usec": IPG_US})
    took = time.time() - t0
    check(rep["sent"] == N_PUSHED, "push_pkts sent %s" % rep)
    check(took < 0.05, "push_pkts took %.3f s: the request waited for the gaps" % took)
    c.port_error("push_pkts", 0, {"pkts": pkts * 11, "ipg_usec": IPG_US},
                 contains="exceeds the limit of 1 second")
    time.sleep(N_PUSHED * IPG_US / 1e6 + 0.2)
    c.port_call("service", 0, {"enabled": False})
    c.close()


def tshark(path, filt):
    out = subprocess.run(["tshark", "-r", path, "-Y", filt, "-T", "fields", "-e", "frame.time_epoch",
                          "-e", "eth.src", "-e", "eth.dst"],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    return [(float(t), s, d) for t, s, d in (line.split("\t") for line in out if line)]


def check_rx(path, client):
    for src, what, esrc, edst in CASES:
        got = tshark(path, "ip.src == %s" % src)
        n = 3 if src == "16.0.1.9" else 10 if src == "16.0.1.5" else 5
        check(len(got) == n, "%s: %d frames, expected %d" % (what, len(got), n))
        if src == "16.0.1.5":
            first, second = set(f[1:] for f in got[:5]), set(f[1:] for f in got[5:])
            check(first == {(PORT0, CFG)}, "flags 0 before set_l2: %s" % first)
            got = got[5:]
        macs = set(f[1:] for f in got)
        check(macs == {(esrc, edst)}, "%s: eth.src, eth.dst %s, expected %s" % (what, macs, (esrc, edst)))
        print("# tshark: %-34s eth.src %s eth.dst %s" % (what, esrc, edst))
    pushed = tshark(path, "ip.src == %s" % PUSHED)
    check(len(pushed) == N_PUSHED, "push_pkts: %d frames, expected %d" % (len(pushed), N_PUSHED))
    gaps = sorted(b[0] - a[0] for a, b in zip(pushed, pushed[1:]))
    print("# tshark: push_pkts gaps %.1f..%.1f ms, median %.1f ms (ipg_usec %d)" % (
        gaps[0] * 1e3, gaps[-1] * 1e3, gaps[len(gaps) // 2] * 1e3, IPG_US))
    check(0.5 * IPG_US / 1e6 <= gaps[len(gaps) // 2] <= 2 * IPG_US / 1e6,
          "push_pkts: median gap %.2f ms, expected about %.0f ms" % (gaps[len(gaps) // 2] * 1e3, IPG_US / 1e3))
    span = pushed[-1][0] - pushed[0][0]
    check(span >= 0.7 * (N_PUSHED - 1) * IPG_US / 1e6, "push_pkts: %d frames in %.1f ms" % (N_PUSHED, span * 1e3))
    if client:
        got = tshark(path, "ip.src == 16.0.3.1")
        check(len(got) == 5 and set(f[1:] for f in got) == {(PORT0, PORT1)},
              "TRex's client after resolve(): %s" % got)
        print("# tshark: TRex's client: 5 frames to the resolved %s" % PORT1)


def main():
    if sys.argv[1] == "send":
        send(int(sys.argv[2]), sys.argv[4])
    else:
        check_rx(sys.argv[2], os.path.exists(os.path.join(sys.argv[3], "client")))
    print("PASS")


if __name__ == "__main__":
    main()
