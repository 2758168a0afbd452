#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Read one DPDK process's TX rate the same way for every tool: its port
counters through the telemetry socket (/ethdev/stats,PORT, "opackets"),
sampled after a warm-up and again SECONDS later; with PID, also the CPU
seconds its rte-worker-0 thread (the sending lcore 0) got meanwhile, and
the rate per CPU second, which stays comparable when other processes
share the CPU.

usage: gen_bench_rate.py SOCKET WARMUP SECONDS [PORT [PID]]
prints: <packets per second> <opackets delta> <interval s>
        [<packets per CPU second> <CPU s>]
"""
import json
import socket
import sys
import time

from fwd_telemetry import worker_cpu


def main():
    path, warm, secs = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    port = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    pid = int(sys.argv[5]) if len(sys.argv) > 5 else None
    deadline = time.time() + 30
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            s.connect(path)
            break
        except OSError:
            if time.time() > deadline:
                sys.exit("no telemetry socket " + path)
            time.sleep(0.2)
    s.recv(1024)

    def opackets():
        s.send(("/ethdev/stats,%d" % port).encode())
        d = json.loads(s.recv(64 * 1024).decode())["/ethdev/stats"]
        return d["opackets"], time.monotonic()

    time.sleep(warm)
    c0 = worker_cpu(pid) if pid else None
    p0, t0 = opackets()
    time.sleep(secs)
    p1, t1 = opackets()
    c1 = worker_cpu(pid) if pid else None
    line = "%.0f %d %.3f" % ((p1 - p0) / (t1 - t0), p1 - p0, t1 - t0)
    if c0 is not None and c1 is not None and c1 > c0:
        line += " %.0f %.2f" % ((p1 - p0) / (c1 - c0), c1 - c0)
    print(line)


main()
