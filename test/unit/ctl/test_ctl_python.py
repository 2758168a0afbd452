#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""The control channel from a client that is not ours: plain python
sockets and json against ctl_demo_server (lib/ctl), over a unix socket
and over TCP with a token. Standard library only.

Usage: test_ctl_python.py CTL_DEMO_SERVER
"""

import json
import os
import socket
import subprocess
import sys
import tempfile

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


class Conn:
    """One connection; line in, line out, with a bounded wait."""

    def __init__(self, sock):
        self.sock = sock
        self.sock.settimeout(20)
        self.buf = b""

    def send(self, data):
        if not isinstance(data, bytes):
            data = json.dumps(data).encode()
        self.sock.sendall(data + b"\n")

    def line(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def call(self, data):
        self.send(data)
        return self.line()


def req(method, id=1, params=None):
    r = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        r["params"] = params
    return r


def start(server, *args):
    p = subprocess.Popen([server, "--seconds", "60", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    first = p.stdout.readline().strip()
    if not first.startswith("listening on "):
        p.kill()
        out, err = p.communicate()
        return p, None, err.strip()
    return p, first[len("listening on "):], None


def stop(p):
    p.terminate()
    try:
        p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def unix_part(server, tmp):
    path = os.path.join(tmp, "demo.sock")
    p, addr, err = start(server, "--listen", "unix:" + path)
    check(addr == "unix:" + path, "unix server started: %s" % err)
    if addr is None:
        return
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    c = Conn(s)
    r = c.call(req("ping"))
    check(r == {"jsonrpc": "2.0", "id": 1, "result": "pong"}, "ping: %r" % r)
    r = c.call(req("add", "x-7", {"a": 40, "b": 2}))
    check(r == {"jsonrpc": "2.0", "id": "x-7", "result": 42}, "add: %r" % r)
    r = c.call(req("info"))
    info = r.get("result", {})
    check(info.get("app") == "ctl-demo" and info.get("pid") == p.pid and
          info.get("demo") is True and "add" in info.get("methods", []) and
          isinstance(info.get("version"), str), "info: %r" % r)
    for line, code in ((b"not json", -32700),
                       (b'{"jsonrpc":"2.0","id":1,"method":"ping"', -32700),
                       (b'{"id":1,"method":"ping"}', -32600),
                       (b'[]', -32600),
                       (json.dumps(req("nope")).encode(), -32601),
                       (json.dumps(req("add", 1, {"a": 1})).encode(), -32602)):
        r = c.call(line)
        check(r.get("error", {}).get("code") == code, "%r -> %r" % (line, r))
    # A notification is not answered: the next line is the ping's.
    c.send({"jsonrpc": "2.0", "method": "ping"})
    r = c.call(req("ping", 99))
    check(r.get("id") == 99, "notification unanswered: %r" % r)
    r = c.call([req("ping", 1), {"jsonrpc": "2.0", "method": "ping"}, req("add", 2, [1])])
    check(isinstance(r, list) and len(r) == 2 and r[0]["result"] == "pong" and
          r[1]["error"]["code"] == -32602, "batch: %r" % r)
    s.close()
    stop(p)
    check(not os.path.exists(path), "socket file removed at exit")


def tcp_part(server, tmp):
    token = "demo-token-0123456789abcdef"
    tfile = os.path.join(tmp, "token")
    fd = os.open(tfile, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, (token + "\n").encode())
    os.close(fd)

    p, addr, err = start(server, "--listen", "tcp:0.0.0.0:0")
    check(addr is None and "a token file is required" in (err or ""),
          "0.0.0.0 without a token refused: %r" % err)
    p.wait()
    check(p.returncode == 1, "exit status 1 without a token")

    p, addr, err = start(server, "--listen", "tcp:0.0.0.0:0", "--token-file", tfile)
    check(addr is not None and addr.startswith("tcp:0.0.0.0:"), "tcp server: %r" % err)
    if addr is None:
        return
    port = int(addr.rsplit(":", 1)[1])
    check(port > 0, "real port reported")
    c = Conn(socket.create_connection(("127.0.0.1", port), timeout=20))
    r = c.call(req("ping"))
    check(r.get("error", {}).get("code") == -32001, "ping before auth: %r" % r)
    r = c.call(req("auth", 2, {"token": token}))
    check(r.get("result") is True, "auth: %r" % r)
    r = c.call(req("ping", 3))
    check(r.get("result") == "pong", "ping after auth: %r" % r)
    c2 = Conn(socket.create_connection(("127.0.0.1", port), timeout=20))
    r = c2.call(req("auth", 1, {"token": "not-the-token-0123456789"}))
    check(r.get("error", {}).get("code") == -32001, "wrong token: %r" % r)
    check(c2.line() is None, "closed after a wrong token")
    c.sock.close()
    c2.sock.close()
    stop(p)


def main():
    server = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="pvp-ctl-py.") as tmp:
        unix_part(server, tmp)
        tcp_part(server, tmp)
    if failures:
        print("%d check(s) failed" % failures)
        return 1
    print("python client: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
