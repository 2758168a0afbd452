#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""TRex's tagged packet groups and ieee_1588 latency through pvpkit-gen
--trex, port 0 sending
to port 1, with TRex's client's calls (enable_tpg in its two steps,
get_tpg_state, get_tpg_status, get_tpg_tags, get_tpg_stats section by
section, clear_tpg_stats, update_tpg_tags, disable_tpg in its two steps)
and TRex's refusals. Four tpg streams: tpgid 0 with a field engine that
writes VLANs 1..5 (tpg_dot1q_vm.py's shape: one seq over five tags, so
each tag sees gaps), tpgid 1 QinQ (1, 100), tpgid 2 an unknown VLAN,
tpgid 3 untagged. Then a plain stream sends one handmade TPG frame of
tpgid 1 with seq 100 (an injected gap) and tpgid 1's stream runs again:
its seq goes on from 20, below the 101 expected, each frame out of order.
Unknown tags: tpgid 2's twelve frames fill the port's list with TRex's
bound of ten entries (one a frame); cleared, the list stays empty while
known tags arrive, then lists a handmade QinQ (2, 200) frame and a Dot1Q
88 frame of tpgid 9 (beyond num_tpgids: TRex lists it all the same).
A tpg stream of variable length (trim_pkt_size over 90..128 B, IP and
UDP lengths written, tpgid 3 on VLAN 5): each frame ends in the header,
its seq one more each frame, RX and TX counters of the frames' own
lengths; one whose shortest frame leaves no room refused with TRex's
message. Then a latency stream with ieee_1588, TRex's 102 B frame to UDP 319:
every frame in its pgid's latency histogram, PTP Sync-shaped on the wire.
Last, a tpg stream added before disable_tpg starts after it, as in TRex
(whose stream manager keeps it), each frame with TRex's INVALID_SEQ.

Usage: trex_tpg.py send RPC_PORT PUB_PORT OUT.json
       trex_tpg.py check OUT.json TPG_FIELDS_FILE PTP_FIELDS_FILE STALE_FIELDS_FILE VARLEN_FIELDS_FILE
"""
import json
import socket
import struct
import sys
import time

from trex_wire import fail, stream, wait_streams

MAGIC = 0xE50B5CC1
PAYLOAD = b"at_least_16_bytes_are_needed"
TAGS = [{"type": "Dot1Q", "value": {"vlan": v}} for v in range(1, 6)] + [
    {"type": "QinQ", "value": {"vlans": [1, 100]}},
    {"type": "Dot1Q", "value": {"vlan": 1000}},
]
N_VM, N_QINQ, N_UNKNOWN, N_UNTAGGED, N_PTP, N_STALE = 50, 20, 12, 10, 100, 5
VAR_MIN, VAR_MAX = 90, 128


def frame(vlans, tail=None, body=PAYLOAD, dport=12):
    """Ether/Dot1Q.../IPv4/UDP/payload, as tpg_1tag_stream.py builds it."""
    body = body if tail is None else body[:-16] + tail
    udp = struct.pack(">HHHH", 1025, dport, 8 + len(body), 0) + body
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 1, 0, 64, 17, 0,
                     socket.inet_aton("16.0.0.1"), socket.inet_aton("48.0.0.1")) + udp
    tags = b""
    for v in vlans:
        tags += b"\x81\x00" + struct.pack(">H", v)
    return bytes.fromhex("020000000002020000000001") + tags + b"\x08\x00" + ip


def burst(n, pps=2000):
    return {"type": "single_burst", "total_pkts": n, "rate": {"type": "pps", "value": pps}}


def tpg(tpgid):
    return {"enabled": True, "stream_id": tpgid, "rule_type": "tpg"}


VLAN_VM = [
    {"type": "flow_var", "name": "dot1q_tag", "size": 2, "op": "inc", "step": 1,
     "init_value": 1, "min_value": 1, "max_value": 5},
    {"type": "write_flow_var", "name": "dot1q_tag", "pkt_offset": 14, "add_value": 0,
     "is_big_endian": True},
]


def trim_vm(lo, hi):
    """TRex's udp_inc_len shape: a size var, the trim, IP and UDP lengths (after a Dot1Q)."""
    return [{"type": "flow_var", "name": "fv_size", "size": 2, "op": "inc", "step": 1,
             "init_value": lo, "min_value": lo, "max_value": hi},
            {"type": "trim_pkt_size", "name": "fv_size"},
            {"type": "write_flow_var", "name": "fv_size", "pkt_offset": 20, "add_value": -18,
             "is_big_endian": True},
            {"type": "write_flow_var", "name": "fv_size", "pkt_offset": 42,
             "add_value": -38, "is_big_endian": True}]


def stats(c, port, tpgid, lo, hi, unknown=False, untagged=False):
    """TRex's client's get_tpg_stats: sections until max_tag."""
    out = {}
    while True:
        r = c.call("get_tpg_stats", {"port_id": port, "tpgid": tpgid, "min_tag": lo,
                                     "max_tag": hi, "unknown_tag": unknown,
                                     "untagged": untagged})
        sec = r[str(port)][str(tpgid)]
        out.update(sec)
        nxt = None
        for k in sec:
            if k not in ("unknown_tag", "untagged"):
                nxt = int(k.split("-")[-1]) + 1
        unknown = untagged = False
        if nxt is None or nxt == hi:
            return out
        lo = nxt


def run(c, streams):
    c.port_call("remove_all_streams", 0)
    for i, s in enumerate(streams):
        c.port_call("add_stream", 0, {"stream_id": i + 1, "stream": s})
    c.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1},
                                     "duration": -1, "force": False})
    wait_streams(c, 0)


def wait_rx(c, tpgid, tag, pkts):
    """The RX lcore counts a little after the TX port is done."""
    for _ in range(100):
        s = stats(c, 1, tpgid, tag, tag + 1)
        if s[str(tag)]["pkts"] >= pkts:
            return
        time.sleep(0.05)
    fail("tpgid %d tag %d: %s, expected %d frames" % (tpgid, tag, s, pkts))


def send(rpc, pub, out):
    from trex_wire import Client
    c = Client(rpc, user="tpguser", session_id=41)
    c.sync()
    c.acquire(0)
    c.acquire(1)
    res = {}
    st = stream(frame([3]), mode=burst(5), fs=tpg(0))
    # Refused before TPG is on, and TRex's own checks of enable_tpg.
    c.port_error("add_stream", 0, {"stream_id": 9, "stream": st},
                 contains="Trying to add a TPG stream but TPG isn't enabled in this port.")
    en = {"username": "tpguser", "session_id": 41, "ports": [0, 1], "rx_ports": [1],
          "num_tpgids": 4}
    c.error("enable_tpg", dict(en, tags=TAGS + [{"type": "Dot1Q", "value": {"vlan": 3}}]),
            contains="Vlan 3 already exists or is invalid!")
    c.error("enable_tpg", dict(en, tags=[{"type": "VxLAN", "value": {"vni": 3}}]),
            contains="Tag type VxLAN is not supported!")
    c.error("enable_tpg", dict(en, session_id=42, tags=TAGS),
            contains="not owned by you")
    # 2^30 tpgids x (2 tags + 2) counters is 2^32: no wrap to a small table.
    c.error("enable_tpg", dict(en, num_tpgids=1 << 30, tags=TAGS[:2]),
            contains="Rx counter allocation failed!")
    if c.call("get_tpg_state", {"username": "tpguser"}) != 0:
        fail("a refused enable left a TPG context")
    # The client's two steps: CP and Rx, then Dp.
    c.call("enable_tpg", dict(en, tags=TAGS))
    if c.call("get_tpg_state", {"username": "tpguser"}) != 2:
        fail("state after the first enable_tpg is not ENABLED_CP_RX (2)")
    c.call("enable_tpg", {"username": "tpguser"})
    res["state"] = c.call("get_tpg_state", {"username": "tpguser"})
    res["status"] = c.call("get_tpg_status", {"username": "tpguser"})
    res["status_port"] = c.call("get_tpg_status", {"port_id": 1})
    res["tags"] = c.call("get_tpg_tags", {"username": "tpguser", "min_tag": 0, "max_tag": 7})
    c.error("get_tpg_stats", {"port_id": 0, "tpgid": 0, "min_tag": 0, "max_tag": 1},
            contains="Port 0 is not a valid port for TPG stats.")
    c.error("get_tpg_stats", {"port_id": 1, "tpgid": 4, "min_tag": 0, "max_tag": 1},
            contains="tpgid 4 is bigger than the max allowed tpgid.")
    c.error("get_tpg_stats", {"port_id": 1, "tpgid": 0, "min_tag": 2, "max_tag": 2},
            contains="Min Tag can equal Max Tag iff unknown tag or untagged flags provided.")
    c.error("get_tpg_stats", {"port_id": 1, "tpgid": 0, "min_tag": 0, "max_tag": 8},
            contains="Max Tag 8 is larger than number of tags 7")
    c.port_error("add_stream", 0, {"stream_id": 9, "stream": stream(
        frame([3]), mode=burst(5), fs=tpg(4))}, contains="Invalid tpgid 4.")
    c.port_error("add_stream", 0, {"stream_id": 9, "stream": stream(
        frame([3], body=b"8 bytes!"), mode=burst(5), fs=tpg(0))},
        contains="Need at least 16 payload bytes for TPG Payload Header. Packet only has 8")
    c.port_call("add_stream", 0, {"stream_id": 9, "stream": st})
    c.port_error("add_stream", 0, {"stream_id": 10, "stream": st},
                 contains="Tagged Packet Group ID 0 already in use.")

    # Run 1: the four tpg streams.
    run(c, [stream(frame([1]), mode=burst(N_VM), vm=VLAN_VM, fs=tpg(0)),
            stream(frame([1, 100]), mode=burst(N_QINQ), fs=tpg(1)),
            stream(frame([77]), mode=burst(N_UNKNOWN), fs=tpg(2)),
            stream(frame([]), mode=burst(N_UNTAGGED), fs=tpg(3))])
    wait_rx(c, 0, 4, N_VM // 5)
    wait_rx(c, 1, 5, N_QINQ)
    res["run1"] = {t: stats(c, 1, t, 0, 7, unknown=True, untagged=True) for t in range(4)}
    res["unknown1"] = c.call("get_tpg_unknown_tags", {"port_id": 1})
    c.error("get_tpg_unknown_tags", {"port_id": 0},
            code=-32000, contains="Tagged Packet Group is not enabled or collecting on this port.")
    c.call("clear_tpg_unknown_tags", {"port_id": 1})
    res["unknown_cleared"] = c.call("get_tpg_unknown_tags", {"port_id": 1})

    # Run 2: an injected gap in tpgid 1 (a plain stream's handmade frame, seq 100)...
    inj = frame([1, 100], tail=struct.pack("<IIII", MAGIC, 1, 100, 0))
    run(c, [stream(inj, mode=burst(1))])
    wait_rx(c, 1, 5, N_QINQ + 1)
    # ... then tpgid 1's stream again: its seq goes on from 20.
    run(c, [stream(frame([1, 100]), mode=burst(N_QINQ), fs=tpg(1))])
    wait_rx(c, 1, 5, 2 * N_QINQ + 1)
    res["run2"] = stats(c, 1, 1, 5, 6)
    res["tx"] = [c.call("get_tpg_tx_stats", {"port_id": 0, "tpgid": t}) for t in range(4)]
    c.call("clear_tpg_tx_stats", {"port_id": 0, "tpgid": 1})
    res["tx_cleared"] = c.call("get_tpg_tx_stats", {"port_id": 0, "tpgid": 1})
    c.error("get_tpg_tx_stats", {"port_id": 0, "tpgid": 4},
            contains="tpgid 4 is bigger than the max allowed tpgid.")

    # clear_tpg_stats: a range, a list, the extra counters.
    c.call("clear_tpg_stats", {"port_id": 1, "tpgid": 0, "min_tag": 0, "max_tag": 3,
                               "tag_list": None, "unknown_tag": False, "untagged": False})
    c.call("clear_tpg_stats", {"port_id": 1, "tpgid": 0, "min_tag": 0, "max_tag": None,
                               "tag_list": [4], "unknown_tag": False, "untagged": False})
    c.call("clear_tpg_stats", {"port_id": 1, "tpgid": 3, "min_tag": 0, "max_tag": 0,
                               "tag_list": None, "unknown_tag": True, "untagged": True})
    c.error("clear_tpg_stats", {"port_id": 1, "tpgid": 0, "min_tag": 0, "max_tag": 3,
                                "tag_list": [1]},
            contains="One between max_tag and tag_list should be provided")
    res["cleared0"] = stats(c, 1, 0, 0, 7)
    res["cleared3"] = stats(c, 1, 3, 0, 0, unknown=True, untagged=True)

    # update_tpg_tags: VLAN 77 becomes tag 6 (instead of 1000); tag 0 invalidated.
    c.error("update_tpg_tags", {"username": "tpguser", "tags": [
        {"type": "Dot1Q", "value": {"vlan": 2}, "tag_id": 6}]},
        contains="Vlan 2 already exists or is invalid!")
    c.call("update_tpg_tags", {"username": "tpguser", "tags": [
        {"type": "Dot1Q", "value": {"vlan": 77}, "tag_id": 6}, {"type": None, "tag_id": 0}]})
    res["tags2"] = c.call("get_tpg_tags", {"port_id": 0, "min_tag": 5, "max_tag": 7}) + \
        c.call("get_tpg_tags", {"port_id": 0, "min_tag": 0, "max_tag": 1})
    run(c, [stream(frame([77]), mode=burst(N_UNKNOWN), fs=tpg(2))])
    wait_rx(c, 2, 6, N_UNKNOWN)
    res["run3"] = stats(c, 1, 2, 6, 7, unknown=True)
    res["unknown_known"] = c.call("get_tpg_unknown_tags", {"port_id": 1})
    # Unknown tags of handmade TPG frames (UDP 13: not in the tshark check).
    for vlans, tpgid in (([2, 200], 3), ([88], 9)):
        run(c, [stream(frame(vlans, tail=struct.pack("<IIII", MAGIC, tpgid, 0, 0), dport=13),
                       mode=burst(1))])
        for _ in range(100):
            res["unknown2"] = c.call("get_tpg_unknown_tags", {"port_id": 1})
            if len(res["unknown2"]["1"]) == 1 + (tpgid == 9):
                break
            time.sleep(0.05)

    # Variable length: TRex's minimum, then 39 lengths (UDP 15 in the capture).
    big = frame([5], body=b"v" * (VAR_MAX - len(frame([5], body=b""))), dport=15)
    c.port_error("add_stream", 0, {"stream_id": 9, "stream": stream(
        big, mode=burst(5), vm=trim_vm(60, VAR_MAX), fs=tpg(3))},
        code=-32000, contains="minimum packet size should be at least 76")
    n_var = VAR_MAX - VAR_MIN + 1
    run(c, [stream(big, mode=burst(n_var), vm=trim_vm(VAR_MIN, VAR_MAX), fs=tpg(3))])
    wait_rx(c, 3, 4, n_var)
    res["varlen"] = stats(c, 1, 3, 4, 5)
    res["varlen_tx"] = c.call("get_tpg_tx_stats", {"port_id": 0, "tpgid": 3})

    # ieee_1588: udp_1pkt_src_ip_split_latency_ieee_1588.py's latency stream.
    lat = {"enabled": True, "stream_id": 12, "rule_type": "latency", "ieee_1588": True}
    c.port_error("add_stream", 0, {"stream_id": 9, "stream": stream(
        frame([], body=b"x" * 18, dport=319), mode=burst(5), fs=lat)},
        contains="flow_stats 'ieee_1588' needs a UDP packet with 60 payload bytes")
    run(c, [stream(frame([], body=b"x" * 60, dport=319), mode=burst(N_PTP), fs=lat)])
    for _ in range(100):
        pg = c.call("get_pgid_stats", {"pgids": [12]})
        if pg["flow_stats"]["12"]["rp"]["1"] >= N_PTP:
            break
        time.sleep(0.05)
    res["ptp"] = {"tp": pg["flow_stats"]["12"]["tp"]["0"], "rp": pg["flow_stats"]["12"]["rp"]["1"],
                  "hist": sum(pg["latency"]["12"]["lat"]["histogram"].values()),
                  "er": pg["latency"]["12"]["er"], "hdrh": "hdrh" in pg["latency"]["12"]["lat"]}

    # disable_tpg in the client's two steps, a tpg stream added before it.
    c.port_call("remove_all_streams", 0)
    c.port_call("add_stream", 0, {"stream_id": 1, "stream": stream(
        frame([1, 100], dport=14), mode=burst(N_STALE), fs=tpg(1))})
    c.call("disable_tpg", {"username": "tpguser"})
    if c.call("get_tpg_state", {"username": "tpguser"}) != 5:
        fail("state after the first disable_tpg is not DISABLED_DP_RX (5)")
    c.call("disable_tpg", {"username": "tpguser"})
    res["off"] = c.call("get_tpg_status", {"username": "tpguser"})
    # TRex starts it all the same; its frames carry INVALID_SEQ (UDP 14 in the capture).
    c.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1},
                                     "duration": -1, "force": False})
    wait_streams(c, 0)
    c.error("clear_tpg_unknown_tags", {"port_id": 1},
            code=-32000, contains="Tagged Packet Group is not enabled or collecting on this port.")
    c.error("disable_tpg", {"username": "tpguser"}, contains="Tagged Packet Group is not enabled.")
    c.port_call("remove_all_streams", 0)
    c.port_call("release", 0)
    c.port_call("release", 1)
    json.dump(res, open(out, "w"), indent=1, sort_keys=True)
    print("# TPG session done")


def cnt(pkts, size, seq_err=0, big=0, small=0, ooo=0, dup=0):
    return {"pkts": pkts, "bytes": pkts * (size + 4), "seq_err": seq_err, "seq_err_too_big": big,
            "seq_err_too_small": small, "ooo": ooo, "dup": dup}


def check(out, fields, ptp, stale, varlen):
    r = json.load(open(out))
    want = {
        "state": 3,
        "status": {"enabled": True, "data": {"acquired_ports": [0, 1], "rx_ports": [1],
                                             "username": "tpguser", "num_tpgids": 4,
                                             "num_tags": 7}},
        "tags": TAGS,
        "off": {"enabled": False, "data": {"acquired_ports": [], "rx_ports": [],
                                           "username": "-", "num_tpgids": 0, "num_tags": 0}},
    }
    want["status_port"] = want["status"]
    for k, v in want.items():
        if r[k] != v:
            fail("%s: %s, expected %s" % (k, r[k], v))
    s1, s2, s4, s0 = len(frame([1])), len(frame([1, 100])), len(frame([77])), len(frame([]))
    # tpgid 0: one seq over five VLANs; tag i sees seq i, i+5, ..., so a gap of 4 each time.
    run1 = r["run1"]
    for i in range(5):
        exp = cnt(N_VM // 5, s1, seq_err=i + 4 * (N_VM // 5 - 1), big=(i > 0) + N_VM // 5 - 1)
        if run1["0"][str(i)] != exp:
            fail("tpgid 0 tag %d: %s, expected %s" % (i, run1["0"][str(i)], exp))
    zero = cnt(0, 0)
    exp1 = {"5": cnt(N_QINQ, s2), "6": zero, "0-4": zero, "untagged": zero,
            "unknown_tag": {"pkts": 0, "bytes": 0}}
    if run1["1"] != exp1:
        fail("tpgid 1: %s, expected %s" % (run1["1"], exp1))
    exp2 = {"0-6": zero, "untagged": zero, "unknown_tag": {"pkts": N_UNKNOWN,
                                                          "bytes": N_UNKNOWN * (s4 + 4)}}
    if run1["2"] != exp2:
        fail("tpgid 2: %s, expected %s" % (run1["2"], exp2))
    exp3 = {"0-6": zero, "untagged": cnt(N_UNTAGGED, s0), "unknown_tag": {"pkts": 0, "bytes": 0}}
    if run1["3"] != exp3:
        fail("tpgid 3: %s, expected %s" % (run1["3"], exp3))
    # The gap of 80 (seq 100 after 19), then 20 frames below the 101 expected.
    exp = {"5": {"pkts": 2 * N_QINQ + 1, "bytes": (2 * N_QINQ + 1) * (s2 + 4),
                 "seq_err": 100 - N_QINQ - N_QINQ, "seq_err_too_big": 1,
                 "seq_err_too_small": N_QINQ, "ooo": N_QINQ, "dup": 0}}
    if r["run2"] != exp:
        fail("tpgid 1 after the gap: %s, expected %s" % (r["run2"], exp))
    want = [{"0": {str(t): {"pkts": n, "bytes": n * (size + 4)}}} for t, (n, size) in enumerate(
        [(N_VM, s1), (2 * N_QINQ, s2), (N_UNKNOWN, s4), (N_UNTAGGED, s0)])]
    if r["tx"] != want:
        fail("get_tpg_tx_stats: %s, expected %s" % (r["tx"], want))
    if r["tx_cleared"] != {"0": {"1": {"pkts": 0, "bytes": 0}}}:
        fail("get_tpg_tx_stats after clear: %s" % r["tx_cleared"])
    # [0, 3) and [4] cleared, tag 3 kept.
    exp = {"0-2": zero, "3": cnt(N_VM // 5, s1, seq_err=3 + 4 * (N_VM // 5 - 1), big=N_VM // 5),
           "4-6": zero}
    if r["cleared0"] != exp:
        fail("tpgid 0 after clear: %s, expected %s" % (r["cleared0"], exp))
    if r["cleared3"] != {"untagged": zero, "unknown_tag": {"pkts": 0, "bytes": 0}}:
        fail("tpgid 3 after clear: %s" % r["cleared3"])
    exp_tags = [{"type": "QinQ", "value": {"vlans": [1, 100]}},
                {"type": "Dot1Q", "value": {"vlan": 77}}, None]
    if r["tags2"] != exp_tags:
        fail("tags after update: %s, expected %s" % (r["tags2"], exp_tags))
    exp = {"6": cnt(N_UNKNOWN, s4, seq_err=N_UNKNOWN, big=1), "unknown_tag": {"pkts": N_UNKNOWN, "bytes": N_UNKNOWN * (s4 + 4)}}
    if r["run3"] != exp:
        fail("tpgid 2 after the update: %s, expected %s" % (r["run3"], exp))
    # TRex's list: the first ten frames of unknown tags, repeats included.
    dot1q = lambda v: {"type": "Dot1Q", "value": {"vlan": v}}
    want = {"unknown1": {"1": [{"tag": dot1q(77), "tpgid": 2}] * 10},
            "unknown_cleared": {"1": []}, "unknown_known": {"1": []},
            "unknown2": {"1": [{"tag": {"type": "QinQ", "value": {"vlans": [2, 200]}},
                                "tpgid": 3}, {"tag": dot1q(88), "tpgid": 9}]}}
    for k, v in want.items():
        if r[k] != v:
            fail("get_tpg_unknown_tags, %s: %s, expected %s" % (k, r[k], v))
    # The wire, as tshark decodes it: tags, and TRex's header in the last 16 bytes.
    seen = {}
    for line in open(fields):
        f = line.rstrip("\n").split("\t")
        vlans = tuple(int(v) for v in f[0].split(",") if v)
        data = bytes.fromhex(f[1])
        magic, tpgid, seq, resv = struct.unpack("<IIII", data[-16:])
        if magic != MAGIC or resv != 0:
            fail("frame %s: header %s" % (vlans, data[-16:].hex()))
        seen.setdefault((tpgid, vlans), []).append(seq)
    want = {
        (0, (v,)): [v - 1 + 5 * k for k in range(N_VM // 5)] for v in range(1, 6)}
    want[(1, (1, 100))] = list(range(N_QINQ)) + [100] + list(range(N_QINQ, 2 * N_QINQ))
    want[(2, (77,))] = list(range(2 * N_UNKNOWN))
    want[(3, ())] = list(range(N_UNTAGGED))
    if seen != want:
        fail("on the wire: %s, expected %s" % (seen, want))
    want = {"tp": N_PTP, "rp": N_PTP, "hist": N_PTP, "er": {}, "hdrh": True}
    if r["ptp"] != want:
        fail("ieee_1588 latency stream: %s, expected %s" % (r["ptp"], want))
    rows = [line.rstrip("\n").split("\t") for line in open(ptp)]
    if len(rows) != N_PTP:
        fail("%d PTP frames on the wire, expected %d" % (len(rows), N_PTP))
    for f in rows:
        got = (int(f[0], 0), int(f[1], 0), int(f[2], 0), f[3], int(f[4], 0))
        if got != (0, 2, 60, "1", 0x020000fffe00000a):
            fail("PTP frame (messageid, version, length, twostep, clock id): %s" % (got,))
    # Variable length: every length once, the header in each frame's last 16 bytes.
    rows = [line.rstrip("\n").split("\t") for line in open(varlen)]
    lens = sorted(int(f[0]) for f in rows)
    if lens != list(range(VAR_MIN, VAR_MAX + 1)):
        fail("variable-length tpg frames: lengths %s, expected %d..%d" % (lens, VAR_MIN, VAR_MAX))
    hdrs = [struct.unpack("<IIII", bytes.fromhex(f[1])[-16:]) for f in rows]
    if hdrs != [(MAGIC, 3, N_UNTAGGED + i, 0) for i in range(len(rows))]:
        fail("variable-length tpg frames: headers %s" % hdrs)
    vb = sum(l + 4 for l in lens)
    exp = {"4": {"pkts": len(lens), "bytes": vb, "seq_err": N_UNTAGGED, "seq_err_too_big": 1,
                 "seq_err_too_small": 0, "ooo": 0, "dup": 0}}
    if r["varlen"] != exp:
        fail("variable-length tpg counters: %s, expected %s" % (r["varlen"], exp))
    exp = {"0": {"3": {"pkts": N_UNTAGGED + len(lens),
                       "bytes": N_UNTAGGED * (len(frame([])) + 4) + vb}}}
    if r["varlen_tx"] != exp:
        fail("variable-length tpg TX counters: %s, expected %s" % (r["varlen_tx"], exp))
    print("# %d tpg frames of %d..%d B: the header at each one's end, seq in order" %
          (len(lens), VAR_MIN, VAR_MAX))
    rows = [struct.unpack("<IIII", bytes.fromhex(line.split("\t")[-1].strip())[-16:])
            for line in open(stale)]
    if rows != [(MAGIC, 1, 0x0BADF00D, 0)] * N_STALE:
        fail("tpg stream after disable_tpg: headers %s, expected %d x TRex's INVALID_SEQ" %
             (rows, N_STALE))
    print("# %d ieee_1588 frames: PTP Sync v2, length 60, two-step, clock id from the MAC; "
          "every one in the latency histogram" % N_PTP)
    print("# %d frames on the wire: tags and TPG headers (magic, tpgid, seq) as TRex "
          "sends them; counters reconcile per tag" % sum(len(v) for v in seen.values()))


if sys.argv[1] == "send":
    send(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
else:
    check(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6])
print("PASS")
