#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Seeds of the trex fuzz corpus from the requests a TRex client really
sent: the trex-proto and trex-vm tests run with PVP_TREX_CAPTURE=FILE
append every request to FILE (test/dpdk/trex/trex_wire.py). Their api_h
and port handlers become the fixed ones of the harness (trex_fuzz.c),
compressed requests are compressed again, and the requests are cut into
sessions of at most 40, each opened by the handshake and an acquire, one
file a session, separated by a line "----" as the harness reads them.

Usage: trex_corpus.py CAPTURE OUT_DIR PREFIX
"""
import json
import os
import struct
import sys
import zlib

MAGIC = 0xABE85CEA
SEP = b"\n----\n"
OPEN = [
    b'{"jsonrpc": "2.0", "id": 1, "method": "api_sync_v2", "params": {"name": "STL", "major": 5, "minor": 1}}',
    b'{"jsonrpc": "2.0", "id": 2, "method": "acquire", "params": {"port_id": 0, "user": "fuzz", '
    b'"session_id": 1, "force": true, "api_h": "fuzzapihnd"}}',
]


def fixed(data):
    """The request with the harness's handlers, framed as it came."""
    zipped = len(data) >= 8 and struct.unpack(">I", data[:4])[0] == MAGIC
    try:
        raw = zlib.decompress(data[8:]) if zipped else data
        req = json.loads(raw)
    except (ValueError, zlib.error):
        return data
    for r in req if isinstance(req, list) else [req]:
        p = r.get("params") if isinstance(r, dict) else None
        if isinstance(p, dict):
            if "api_h" in p:
                p["api_h"] = "fuzzapihnd"
            if "handler" in p:
                p["handler"] = "fuzzporthd"
    raw = json.dumps(req).encode()
    return struct.pack(">II", MAGIC, len(raw)) + zlib.compress(raw) if zipped else raw


def main():
    cap, out, prefix = sys.argv[1], sys.argv[2], sys.argv[3]
    reqs = []
    with open(cap, "rb") as f:
        blob = f.read()
    at = 0
    while at + 4 <= len(blob):
        n = struct.unpack(">I", blob[at:at + 4])[0]
        reqs.append(fixed(blob[at + 4:at + 4 + n]))
        at += 4 + n
    os.makedirs(out, exist_ok=True)
    for k in range(0, len(reqs), 40):
        with open(os.path.join(out, "%s-%02d" % (prefix, k // 40)), "wb") as f:
            f.write(SEP.join(OPEN + reqs[k:k + 40]))
    print("%d requests, %d sessions" % (len(reqs), (len(reqs) + 39) // 40))


main()
