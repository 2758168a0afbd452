#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Read DPDK telemetry of a running process (what dpdk-telemetry.py does,
without its prompt).

  fwd_telemetry.py PREFIX CMD [CMD...]   print {"CMD": result, ...} as JSON
  fwd_telemetry.py PREFIX --rate PORTS SECONDS [PID]
                                         sum /ethdev/stats of PORTS (comma list)
                                         over SECONDS; print opackets/s, ipackets/s;
                                         with PID, also the CPU seconds its
                                         rte-worker-0 thread got, and the rates
                                         per CPU second (robust on a shared box)

PREFIX is the EAL --file-prefix; the socket is
/var/run/dpdk/PREFIX/dpdk_telemetry.v2 (or under $XDG_RUNTIME_DIR for non-root).
"""
import json
import os
import socket
import sys
import time


def sock_path(prefix):
    base = "/var/run/dpdk" if os.getuid() == 0 else os.environ.get("XDG_RUNTIME_DIR", "/tmp") + "/dpdk"
    return os.path.join(base, prefix, "dpdk_telemetry.v2")


class Telemetry:
    def __init__(self, prefix, timeout=5.0):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.s.settimeout(timeout)
        self.s.connect(sock_path(prefix))
        hello = json.loads(self.s.recv(65536).decode())
        self.max_len = hello.get("max_output_len", 16384)

    def call(self, cmd):
        self.s.send(cmd.encode())
        rep = json.loads(self.s.recv(self.max_len).decode())
        return rep.get(cmd.split(",")[0])


def port_packets(t, ports):
    rx = tx = 0
    for p in ports:
        st = t.call("/ethdev/stats,%d" % p)
        rx += st["ipackets"]
        tx += st["opackets"]
    return rx, tx, time.monotonic()


def worker_cpu(pid):
    """CPU seconds used so far by the rte-worker-0 thread of pid."""
    tick = os.sysconf("SC_CLK_TCK")
    for tid in os.listdir("/proc/%d/task" % pid):
        with open("/proc/%d/task/%s/comm" % (pid, tid)) as f:
            if f.read().strip() != "rte-worker-0":
                continue
        with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / tick
    return None


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    t = Telemetry(sys.argv[1])
    if sys.argv[2] == "--rate":
        ports = [int(x) for x in sys.argv[3].split(",")]
        secs = float(sys.argv[4])
        pid = int(sys.argv[5]) if len(sys.argv) > 5 else None
        c0 = worker_cpu(pid) if pid else None
        rx0, tx0, t0 = port_packets(t, ports)
        time.sleep(secs)
        rx1, tx1, t1 = port_packets(t, ports)
        c1 = worker_cpu(pid) if pid else None
        res = {"rx_pps": (rx1 - rx0) / (t1 - t0), "tx_pps": (tx1 - tx0) / (t1 - t0),
               "seconds": t1 - t0}
        if c0 is not None and c1 is not None and c1 > c0:
            res["cpu_seconds"] = c1 - c0
            res["rx_pps_per_cpu"] = (rx1 - rx0) / (c1 - c0)
            res["tx_pps_per_cpu"] = (tx1 - tx0) / (c1 - c0)
        print(json.dumps(res))
        return 0
    print(json.dumps({c: t.call(c) for c in sys.argv[2:]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
