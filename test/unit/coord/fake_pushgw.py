#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""A pretend Prometheus Pushgateway for pvpkit soak --push-metrics: every
PUT or POST is kept as DIR/push-NNN.txt (first line "METHOD PATH
CONTENT-TYPE", then the body) and answered 200, except the first REFUSE
requests, answered 400 with a parse error as a Pushgateway words it.

Usage: fake_pushgw.py DIR [REFUSE]
Writes DIR/port (the port it listens on, loopback) once it listens; runs
until killed.
"""

import http.server
import os
import sys

DIR = sys.argv[1]
REFUSE = int(sys.argv[2]) if len(sys.argv) > 2 else 0
count = 0


class Handler(http.server.BaseHTTPRequestHandler):
    def push(self):
        global count
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        count += 1
        if count <= REFUSE:
            msg = b"text format parsing error in line 1: invalid metric name\n"
            self.send_response(400)
            self.send_header("Content-Length", str(len(msg)))
            self.end_headers()
            self.wfile.write(msg)
            return
        with open(os.path.join(DIR, "push-%03d.txt" % count), "wb") as f:
            f.write(("%s %s %s\n" % (self.command, self.path,
                                     self.headers.get("Content-Type"))).encode())
            f.write(body)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_PUT = push
    do_POST = push

    def log_message(self, *args):
        pass


srv = http.server.HTTPServer(("127.0.0.1", 0), Handler)
with open(os.path.join(DIR, "port.tmp"), "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(os.path.join(DIR, "port.tmp"), os.path.join(DIR, "port"))
srv.serve_forever()
