#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Read a running stats-null through its DPDK telemetry socket and check
the /pvpkit/* answers. Writes the last /pvpkit/stats answer to OUT.

usage: tel_client.py SOCKET PID OUT
"""

import json
import socket
import sys
import time

COUNTERS = ["rx_packets", "rx_bytes", "tx_packets", "tx_bytes",
            "rx_dropped", "tx_dropped", "rx_errors", "tx_errors",
            "rx_missed", "rx_nombuf", "rx_sw_dropped"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def query(sock, cmd):
    sock.send(cmd.encode())
    reply = json.loads(sock.recv(64 * 1024).decode())
    if cmd.split(",")[0] not in reply:
        fail("%s: answer has no %s member: %s" % (cmd, cmd, reply))
    return reply[cmd.split(",")[0]]


def check_port(d, idx, name, what):
    if d.get("port") != idx or d.get("name") != name or d.get("eth_port_id") != idx:
        fail("%s: port/name/eth_port_id wrong: %s" % (what, d))
    for c in COUNTERS:
        if not isinstance(d.get(c), int) or d[c] < 0:
            fail("%s: counter %s missing or not a count: %s" % (what, c, d))
    if d["rx_dropped"] != d["rx_missed"] + d["rx_nombuf"] + d["rx_sw_dropped"]:
        fail("%s: rx_dropped is not missed + nombuf + sw: %s" % (what, d))


def main():
    path, pid, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    sock.connect(path)
    hello = json.loads(sock.recv(1024).decode())
    if hello.get("pid") != pid:
        fail("socket belongs to pid %s, not %d" % (hello.get("pid"), pid))

    cmds = query(sock, "/")
    for c in ("/pvpkit/stats", "/pvpkit/stats/port", "/pvpkit/info"):
        if c not in cmds:
            fail("%s not registered: %s" % (c, cmds))

    info = query(sock, "/pvpkit/info")
    print("# /pvpkit/info " + json.dumps(info))
    if info.get("name") != "stats-null" or info.get("nb_ports") != 2 \
            or info.get("pid") != pid or info.get("nb_rxq") != 1 or not info.get("hz"):
        fail("/pvpkit/info: %s" % info)

    # Poll until the forwarder has counted something; counters must never
    # go backwards between two readings.
    prev = None
    seen = 0
    deadline = time.time() + 30
    while time.time() < deadline:
        st = query(sock, "/pvpkit/stats")
        if st.get("name") != "stats-null" or st.get("nb_ports") != 2 \
                or not st.get("hz") or not st.get("tsc"):
            fail("/pvpkit/stats header: %s" % st)
        check_port(st.get("port0", {}), 0, "net_null0", "/pvpkit/stats port0")
        check_port(st.get("port1", {}), 1, "net_null1", "/pvpkit/stats port1")
        if prev is not None:
            if st["tsc"] <= prev["tsc"]:
                fail("tsc did not advance")
            for p in ("port0", "port1"):
                for c in COUNTERS:
                    if st[p][c] < prev[p][c]:
                        fail("%s %s went backwards: %d -> %d"
                             % (p, c, prev[p][c], st[p][c]))
        prev = st
        if st["port0"]["rx_packets"] > 0 and st["port1"]["tx_packets"] > 0:
            seen += 1
            if seen >= 3:
                break
        time.sleep(0.2)
    if seen < 3:
        fail("no traffic counted through telemetry: %s" % prev)
    print("# /pvpkit/stats " + json.dumps(prev))

    port = query(sock, "/pvpkit/stats/port,1")
    check_port(port, 1, "net_null1", "/pvpkit/stats/port,1")
    for q in ("rxq0", "txq0"):
        if sorted(port.get(q, {})) != ["bytes", "dropped", "errors", "packets"]:
            fail("/pvpkit/stats/port,1 %s: %s" % (q, port))
    if port["txq0"]["packets"] != port["tx_packets"]:
        fail("one TX queue: txq0.packets != tx_packets: %s" % port)
    if "rxq1" in port or "txq1" in port:
        fail("/pvpkit/stats/port,1 has queues it should not: %s" % port)
    for bad in ("/pvpkit/stats/port,2", "/pvpkit/stats/port,x", "/pvpkit/stats/port"):
        if query(sock, bad) is not None:
            fail("%s should answer null" % bad)

    with open(out, "w") as f:
        json.dump(prev, f)
    sock.close()
    print("# telemetry checks passed")


main()
