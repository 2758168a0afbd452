#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""Samples in an HdrHistogram compressed V2 base64 string (pvpkit's results'
"hdrh", TRex's --hdrh), read from the format with nothing but the standard
library, to check what lib/lat writes from outside it: the compressed
cookie, then zlib's deflate of a 40 B header and the counts as ZigZag
LEB128 numbers, a run of zeros negative. As a command: the total of the
string given."""

import base64
import struct
import sys
import zlib


def hdrh_total(b64):
    raw = base64.b64decode(b64, validate=True)
    cookie, length = struct.unpack(">II", raw[:8])
    if cookie != 0x1C849314:
        raise ValueError("cookie 0x%08x is not HdrHistogram's compressed V2" % cookie)
    body = zlib.decompress(raw[8:8 + length])
    if struct.unpack(">I", body[:4])[0] != 0x1C849313:
        raise ValueError("not a V2 encoding")
    total = shift = v = 0
    for b in body[40:]:
        v |= (b & 0x7F) << shift
        shift += 7
        if b & 0x80:
            continue
        n = (v >> 1) ^ -(v & 1)
        total += max(n, 0)
        shift = v = 0
    return total


if __name__ == "__main__":
    print(hdrh_total(sys.argv[1]))
