#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""FD.io CSIT's own driver script against a running pvpkit-gen --trex.

Runs CSIT's GPL/tools/trex/trex_stl_profile.py, unchanged, once per
profile, frame size and latency choice (bidirectional, 10 kpps, 1 s, as
doc/trex.rst shows; one way for the "-udir" profiles, as CSIT runs
them), and prints one line per run:

  PASS     the script exited 0, sent and received the same number of
           packets, and, with --latency at a fixed frame size, both
           latency streams report min/avg/max and an HDR histogram that
           decodes (HdrHistogram's compressed V2 form, which CSIT stores);
  NOLAT    as PASS, but the latency streams were refused when added, which
           the script reports as "FAILED to add latency streams" before it
           runs on without them (what TRex does on a packet too short for
           its latency payload);
  LOSS     frames lost;
  FAIL     anything else (the script's exit status and last line).

CSIT adds no latency streams for IMIX sizes (its own rule): those runs
are judged as without --latency.

The "-6p" profiles are CSIT's six-port ones: they run on ports 0..5
(CSIT's "--ports 0 1 2 3 4 5", three pairs) when pvpkit-gen has six,
the others on ports 0 and 1, as CSIT passes them.

Usage: trex_csit.py CSIT TREX_CORE RPC_PORT PUB_PORT LOGDIR SIZES LATS NPORTS PROFILE...
  SIZES: comma list of frame sizes (64, IMIX_v4_1); LATS: comma list of
  "no" and "yes"; NPORTS: the ports pvpkit-gen has.
"""
import base64
import os
import re
import struct
import subprocess
import sys
import zlib


def zigzag_counts(buf):
    """The counts of a V2 payload (LEB128 ZigZag), negatives being runs of zeros."""
    out, i = [], 0
    while i < len(buf):
        v, shift = 0, 0
        while True:
            b = buf[i]
            i += 1
            v |= (b & 0x7f) << shift
            shift += 7
            if b < 0x80 or shift >= 63:
                break
        out.append((v >> 1) ^ -(v & 1))
    return out


def hdrh_total(text):
    """The sample count of a base64 compressed V2 HdrHistogram, None if it is not one."""
    try:
        raw = base64.b64decode(text, validate=True)
        cookie, length = struct.unpack(">II", raw[:8])
        if cookie & ~0xf0 != 0x1c849304 or length != len(raw) - 8:
            return None
        inner = zlib.decompress(raw[8:])
        cookie, plen = struct.unpack(">II", inner[:8])
        if cookie & ~0xf0 != 0x1c849303 or plen != len(inner) - 40:
            return None
    except (ValueError, struct.error, zlib.error):
        return None
    return sum(c for c in zigzag_counts(inner[40:]) if c > 0)


def verdict(rc, out, size, lat, dirs):
    """One run's verdict and its detail."""
    last = [l for l in out.splitlines() if l.startswith("rate=")]
    if rc != 0 or not last or "Traceback" in out:
        tail = (last or out.strip().splitlines() or [""])[-1]
        return "FAIL", "exit %d: %s" % (rc, tail[:160])
    line = last[-1]
    m = re.search(r"total_received=(\d+); total_sent=(\d+); frame_loss=(-?\d+)", line)
    if m is None:
        return "FAIL", line[:160]
    rx, tx, loss = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if loss != 0 or tx == 0:
        return "LOSS", "sent %d received %d" % (tx, rx)
    if lat == "no" or not size.isdigit():
        return "PASS", "%d/%d" % (rx, tx)
    if "FAILED to add latency streams" in out:
        return "NOLAT", "%d/%d, latency streams refused" % (rx, tx)
    lats = []
    for s in range(dirs):
        m = re.search(r"latency_stream_%d\(usec\)=(-?\d+)/(-?\d+)/(-?\d+)/([^;]*);" % s, line)
        if m is None or int(m.group(1)) < 0:
            return "FAIL", "no latency for stream %d" % s
        n = hdrh_total(m.group(4))
        if not n:
            return "FAIL", "latency stream %d: hdrh does not decode" % s
        lats.append("%s/%s/%s us, hdrh %d" % (m.group(1), m.group(2), m.group(3), n))
    return "PASS", "%d/%d, %s" % (rx, tx, "; ".join(lats))


def main():
    csit, core, rpc, pub, logdir, sizes, lats, nports = sys.argv[1:9]
    profiles = sys.argv[9:]
    env = dict(os.environ)
    env["PYTHONPATH"] = ":".join([
        os.path.join(core, "scripts/automation/trex_control_plane/interactive"),
        os.path.join(csit, "GPL/traffic_profiles/trex")])
    env.setdefault("TREX_EXT_LIBS", os.path.join(core, "scripts/external_libs"))
    script = os.path.join(csit, "GPL/tools/trex/trex_stl_profile.py")
    # CSIT's script connects to TRex's default ports; a wrapper moves it.
    shim = os.path.join(logdir, "csit_ports.py")
    with open(shim, "w") as f:
        f.write("import runpy, sys\n"
                "import trex.stl.api as api\n"
                "_init = api.STLClient.__init__\n"
                "def init(self, *a, **k):\n"
                "    k.setdefault('sync_port', %d)\n"
                "    k.setdefault('async_port', %d)\n"
                "    _init(self, *a, **k)\n"
                "api.STLClient.__init__ = init\n"
                "sys.argv = sys.argv[1:]\n"
                "runpy.run_path(sys.argv[0], run_name='__main__')\n" % (int(rpc), int(pub)))
    counts = {}
    for p in profiles:
        name = os.path.basename(p)[:-3]
        # "-udir" profiles are one way (their second packet is a bare
        # Ethernet header): CSIT runs them with one traffic direction.
        dirs = 1 if name.endswith("-udir") else 2
        ports = [str(i) for i in range(6 if name.endswith("-6p") and int(nports) >= 6 else 2)]
        for size in sizes.split(","):
            for lat in lats.split(","):
                cmd = ["/usr/bin/python3", shim, script, "--profile", p, "--duration", "1",
                       "--frame_size", size, "--rate", "10000pps", "--ports", *ports,
                       "--traffic_directions", str(dirs), "--delay", "0.5"]
                if lat == "yes":
                    cmd.append("--latency")
                try:
                    r = subprocess.run(cmd, env=env, capture_output=True, text=True,
                                       timeout=60)
                    rc, out = r.returncode, r.stdout + r.stderr
                except subprocess.TimeoutExpired as e:
                    rc, out = 124, (e.stdout or b"").decode(errors="replace")
                with open(os.path.join(logdir, "%s-%s-%s.log" % (name, size, lat)), "w") as f:
                    f.write(out)
                v, detail = verdict(rc, out, size, lat, dirs)
                counts[v] = counts.get(v, 0) + 1
                print("%-48s %-9s latency=%-3s %-5s %s" % (name, size, lat, v, detail),
                      flush=True)
    print("# " + ", ".join("%s %d" % kv for kv in sorted(counts.items())) +
          " of %d runs (%d profiles)" % (sum(counts.values()), len(profiles)))
    return 0 if set(counts) <= {"PASS", "NOLAT"} else 1


if __name__ == "__main__":
    sys.exit(main())
