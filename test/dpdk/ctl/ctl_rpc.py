# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""A JSON-RPC client for the control-channel tests that keeps the error
codes (tests only): one connection, line in, line out, every wait
bounded. Standard library only."""
import json
import socket


def connect(addr, timeout=5.0):
    """A socket to "unix:PATH", "PATH" or "tcp:HOST:PORT"."""
    if addr.startswith("tcp:"):
        host, port = addr[4:].rsplit(":", 1)
        return socket.create_connection((host.strip("[]"), int(port)), timeout)
    if addr.startswith("unix:"):
        addr = addr[5:]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(addr)
    return s


class Rpc:
    def __init__(self, addr, timeout=5.0):
        self.addr = addr
        self.s = connect(addr, timeout)
        self.buf = b""
        self.id = 0

    def line(self):
        """The next line parsed, or None when the server closed."""
        while b"\n" not in self.buf:
            chunk = self.s.recv(65536)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def raw(self, data):
        """Send bytes (a newline added) and return the answer line."""
        self.s.sendall(data + b"\n")
        return self.line()

    def call(self, method, params=None):
        """The whole answer object: {"result": ...} or {"error": ...}."""
        self.id += 1
        req = {"jsonrpc": "2.0", "id": self.id, "method": method}
        if params is not None:
            req["params"] = params
        ans = self.raw(json.dumps(req).encode())
        if ans is None:
            raise RuntimeError("%s: connection closed" % method)
        return ans

    def ok(self, method, params=None):
        ans = self.call(method, params)
        if "error" in ans:
            raise RuntimeError("%s %s: %s" % (method, params, ans["error"]))
        return ans["result"]

    def close(self):
        self.s.close()


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1
