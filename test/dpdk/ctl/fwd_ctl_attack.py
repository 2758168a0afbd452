#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""The control channel of a forwarding pvpkit-fwd under attack, all at
once: 1,000 malformed requests, 100 concurrent clients, a client sending
a byte a second, a 100 MB line without a newline, clients that leave in
the middle of a request. Then: the server answers ping, its RSS grew by
a bounded amount, forwarding went on; the forwarding rate before, during
and after is printed.

  fwd_ctl_attack.py SOCKET PID

Exits 1 on the first failed check. Every loop is bounded in count and
time; traffic goes to the unix socket only."""
import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ctl_rpc import Rpc, connect, rss_kb  # noqa: E402

ADDR, PID = sys.argv[1], int(sys.argv[2])
results = {}
lock = threading.Lock()


def note(key, value):
    with lock:
        results[key] = value


def rx_total(c):
    return sum(p["rx_packets"] for p in c.ok("stats.get")["ports"])


MALFORMED = [
    b"garbage",
    b"{",
    b'{"jsonrpc":"2.0"}',
    b"[]",
    b"[" * 3000,
    b'{"jsonrpc":"2.0","id":1,"method":5}',
    b"\xff\xfe\x00binary",
    b'{"jsonrpc":"2.0","id":1,"method":"stats.get","params":{"x":1}}',
    b'{"jsonrpc":"2.0","id":1e999,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":1,"method":"nope"}',
    b"null",
    b'"ping"',
    b'{"jsonrpc":"2.0","id":[1],"method":"ping"}',
    b'{"jsonrpc":"1.0","id":1,"method":"ping"}',
    ("[" + ",".join(['{"jsonrpc":"2.0","id":%d,"method":"stats.get"}' % i
                     for i in range(65)]) + "]").encode(),
    b'{"jsonrpc":"2.0","id":1,"method":"stats.clear","params":[1]}',
    b'{"jsonrpc":"2.0","id":1,"method":"auth","params":{"token":5}}',
    b'{"jsonrpc":"2.0","id":"' + b"A" * 100000 + b'","method":"nope"}',
    b'{"jsonrpc":"2.0","id":1,"method":"p\\u0000ng"}',
]


def malformed(conn_index, count):
    """count malformed requests on one connection: each gets an error."""
    c = Rpc(ADDR, 10)
    errors = 0
    for i in range(count):
        ans = c.raw(MALFORMED[(conn_index + i) % len(MALFORMED)])
        if ans is None:
            break
        if isinstance(ans, dict) and ans.get("error", {}).get("code", 0) < 0:
            errors += 1
    c.close()
    with lock:
        results["malformed"] = results.get("malformed", 0) + errors


def concurrent_client(_):
    ok = False
    try:
        c = Rpc(ADDR, 20)
        ok = c.ok("ping") == "pong" and "ports" in c.ok("stats.get")
        c.close()
    except (OSError, RuntimeError, ValueError) as e:
        print("# concurrent client: %s" % e)
    with lock:
        results["concurrent"] = results.get("concurrent", 0) + ok


def slow_client(seconds):
    """A byte a second of a line that never ends, for a bounded time."""
    s = connect(ADDR, 5)
    sent = 0
    for b in b'{"jsonrpc":"2.0","id":1,"method":"ping"'[:seconds]:
        try:
            s.sendall(bytes([b]))
        except OSError:
            break
        sent += 1
        time.sleep(1)
    s.close()
    note("slow_bytes", sent)


def big_line():
    """100 MB without a newline: the server answers -32002 and closes at 1 MiB."""
    s = connect(ADDR, 5)
    chunk = b"x" * (1 << 20)
    sent = 0
    end = time.time() + 20
    try:
        while sent < 100 << 20 and time.time() < end:
            s.sendall(chunk)
            sent += len(chunk)
    except OSError:
        pass
    answer = b""
    try:
        s.settimeout(5)
        answer = s.recv(4096)
    except OSError:
        pass
    s.close()
    note("big_line_sent_mib", sent >> 20)
    note("big_line_answer", answer.split(b"\n")[0].decode(errors="replace"))


def leave_mid_request(count):
    """Half a request, then gone; and a batch of work, then gone."""
    batch = ("[" + ",".join(['{"jsonrpc":"2.0","id":%d,"method":"stats.get"}' % i
                             for i in range(64)]) + "]\n").encode()
    for i in range(count):
        s = connect(ADDR, 5)
        s.sendall(b'{"jsonrpc":"2.0","id":1,"meth' if i % 2 == 0 else batch)
        s.close()
    note("left", count)


def main():
    ctl = Rpc(ADDR, 10)
    rss0 = rss_kb(PID)
    r0, t0 = rx_total(ctl), time.time()
    time.sleep(2)
    r1, t1 = rx_total(ctl), time.time()
    before = (r1 - r0) / (t1 - t0)

    peak = [rss0]
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            peak[0] = max(peak[0], rss_kb(PID))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample)
    sampler.start()
    threads = [threading.Thread(target=malformed, args=(i, 100)) for i in range(10)]
    threads += [threading.Thread(target=concurrent_client, args=(i,)) for i in range(100)]
    threads += [threading.Thread(target=slow_client, args=(5,)),
                threading.Thread(target=big_line),
                threading.Thread(target=leave_mid_request, args=(50,))]
    a0, ta0 = rx_total(ctl), time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    a1, ta1 = rx_total(ctl), time.time()
    during = (a1 - a0) / (ta1 - ta0)
    stop.set()
    sampler.join()

    pong = Rpc(ADDR, 5).ok("ping")
    r2, t2 = rx_total(ctl), time.time()
    time.sleep(2)
    r3, t3 = rx_total(ctl), time.time()
    after = (r3 - r2) / (t3 - t2)
    rss1 = rss_kb(PID)
    change = (during - before) / before * 100 if before else 0
    print("# attack took %.1f s: %s" % (ta1 - ta0, json.dumps(results, sort_keys=True)))
    print("# server RSS: %d KiB before, %d KiB peak during the attack (+%d KiB), %d KiB after"
          % (rss0, peak[0], peak[0] - rss0, rss1))
    print("# forwarding rate: %.3f Mpps before, %.3f Mpps during the attack (%+.1f %%), "
          "%.3f Mpps after" % (before / 1e6, during / 1e6, change, after / 1e6))
    failed = []
    if results.get("malformed") != 1000:
        failed.append("malformed requests answered with an error: %s of 1000"
                      % results.get("malformed"))
    if results.get("concurrent") != 100:
        failed.append("concurrent clients served: %s of 100" % results.get("concurrent"))
    if '"code":-32002' not in results.get("big_line_answer", ""):
        failed.append("100 MB line: %s" % results.get("big_line_answer"))
    if results.get("big_line_sent_mib", 100) >= 100:
        failed.append("the 100 MB line was taken whole")
    if pong != "pong":
        failed.append("no ping after the attack")
    # AddressSanitizer keeps up to 256 MiB of freed memory in quarantine.
    with open("/proc/%d/exe" % PID, "rb") as f:
        asan = b"__asan_init" in f.read()
    bound = (256 + 64 if asan else 64) * 1024
    if peak[0] - rss0 > bound:
        failed.append("server RSS grew by %d KiB (bound %d KiB%s)"
                      % (peak[0] - rss0, bound, ", AddressSanitizer" if asan else ""))
    if during <= 0 or after <= 0:
        failed.append("forwarding stopped (%.0f pps during, %.0f after)" % (during, after))
    for f in failed:
        print("FAIL: %s" % f)
    sys.exit(1 if failed else 0)


main()
