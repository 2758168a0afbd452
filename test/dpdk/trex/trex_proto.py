#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""pvpkit-gen --trex on one net_ring loopback port (every packet sent comes
back), driven by trex_wire.py: every method the server has, plain and
compressed requests, refusals by name, bad api_h, malformed and oversized
messages, a client that goes away mid-request, two clients fighting over
the port, async events with consecutive seq, and exact counters.

Usage: trex_proto.py RPC_PORT PUB_PORT SERVER_PID
"""
import os
import struct
import sys
import time

import zmq

from trex_wire import MAGIC, Client, Subscriber, fail, stream, udp_frame, zip_msg

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from hdrh_total import hdrh_total  # noqa: E402


RPC, PUB, PID = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
FRAME = udp_frame(22)  # 64 B without FCS: 68 B counted by TRex's rules


def check(cond, msg):
    if not cond:
        fail(msg)


class Events:
    """A session's event queue, pulled with get_async_events; seq checked."""

    def __init__(self, c):
        self.c, self.seq, self.seen = c, None, []

    def pull(self):
        data = self.c.call("get_async_events", {"session_id": self.c.session_id, "user": "sub"})["data"]
        for ev in data:
            check(ev["name"] == "trex-event", "event name %s" % ev)
            if self.seq is not None and ev["seq"] != self.seq:
                fail("event seq %d, expected %d" % (ev["seq"], self.seq))
            self.seq = ev["seq"] + 1
            self.seen.append((ev["type"], ev["data"]))
        return data

    def wait(self, etype, timeout=15):
        end = time.time() + timeout
        while time.time() < end:
            for i, (t, d) in enumerate(self.seen):
                if t == etype:
                    del self.seen[: i + 1]
                    return d
            self.pull()
            time.sleep(0.02)
        fail("no event of type %d within %d s (seen %s)" % (etype, timeout, self.seen))


def port_stats(c):
    return c.call("get_port_stats", {"port_id": 0})


def peak_rss():
    """The server's peak resident memory (VmHWM), bytes."""
    with open("/proc/%d/status" % PID) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) << 10
    fail("no VmHWM for pid %d" % PID)


def main():
    a = Client(RPC, user="alice", session_id=1111)
    sub = Subscriber(PUB)

    print("# before the handshake: names of unknown and of refused methods")
    a.error("no_such_method", code=-32601, contains="Method 'no_such_method' not registered", api=False)
    a.error("conf_ns_batch", code=-32601, contains="'conf_ns_batch' is not supported by pvpkit-gen", api=False)
    ver = a.call("get_version", zipped=False, api=False)
    check(ver["version"].startswith("pvpkit-gen"), "get_version %s" % ver)
    check(a.call("ping", api=False)["ts"] > 0, "ping")

    print("# API handshake")
    a.error("api_sync_v2", {"name": "ASTF", "major": 5, "minor": 1}, code=-32000,
            contains="RPC configuration mismatch", api=False)
    a.error("api_sync_v2", {"name": "STL", "major": 4, "minor": 9}, code=-32000,
            contains="a newer client version is required", api=False)
    a.error("api_sync_v2", {"name": "STL", "major": 5, "minor": 2}, code=-32000,
            contains="too new", api=False)
    h_old = a.sync(minor=0)  # a v2.90 client
    check(a.sync(minor=1) == h_old, "api_h differs between calls")
    old = a.call("api_sync", {"api_vers": [{"type": "core", "major": 5, "minor": 0}]}, api=False)
    check(old["api_vers"][0]["api_h"] == h_old, "api_sync %s" % old)

    print("# bad or missing api_h")
    a.error("get_system_info", {"api_h": "nope"}, code=-32000, contains="API verification failed")
    saved, a.api_h = a.api_h, None
    a.error("get_system_info", code=-32602, contains="field 'api_h' is missing")
    a.api_h = saved

    print("# malformed, invalid, batched and oversized messages")
    r = a.raw(b"{this is not json")
    check(b'"code":-32700' in r and b'"id":null' in r, "malformed: %s" % r)
    r = a.raw(struct.pack(">II", MAGIC, 100) + b"not zlib at all")
    check(b'"code":-32700' in r and b"compressed request" in r, "bad zlib: %s" % r)
    r = a.raw(b'{"jsonrpc": "1.0", "id": 5, "method": "ping"}')
    check(b"Invalid JSONRPC Version" in r, "version: %s" % r)
    r = a.raw(b'{"jsonrpc": "2.0", "method": "ping"}')
    check(b"Missing 'id' field" in r, "no id: %s" % r)
    r = a.raw(b'{"jsonrpc": "2.0", "id": 6, "method": "ping", "params": [1]}')
    check(b"params should be object" in r, "params array: %s" % r)
    r = a.raw(b"[]")
    check(b'"code":-32600' in r, "empty batch: %s" % r)
    r = a.raw(b'[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"get_version"}]')
    check(r.startswith(b"[") and r.count(b'"result"') == 2, "batch: %s" % r)
    big = b'{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"' + b"x" * (17 << 20) + b'"}}'
    r = a.raw(big)
    check(b"over the limit of 16777216 bytes" in r, "oversized: %s" % r[:200])
    r = a.raw(struct.pack(">II", MAGIC, 17 << 20) + b"\x78\x9c")
    check(b"over the limit of 16777216 bytes" in r, "oversized zipped: %s" % r[:200])
    r = a.raw(zip_msg(b'{"jsonrpc":"2.0","id":10,"method":"ping","params":{"core_mask":18446744073709551615}}'))
    check(b'"result"' in r, "an unsigned 64-bit integer: %s" % r)

    print("# server and port information")
    si = a.call("get_system_info")
    check(si["port_count"] == 1 and si["ports"][0]["index"] == 0, "system info %s" % si)
    check(si["ports"][0]["rx"]["caps"] == ["flow_stats", "latency", "rx_bytes"], "caps %s" % si["ports"][0])
    cmds = a.call("get_supported_cmds", zipped=False)
    for m in ("api_sync_v2", "add_stream", "start_traffic", "get_pgid_stats", "get_async_events"):
        check(m in cmds, "%s not in get_supported_cmds" % m)
    check("get_profile_list" not in cmds, "get_profile_list announced")
    st = a.call("get_port_status", {"port_id": 0, "profile_id": "*", "block": False})
    check(st["state"] == "IDLE" and st["owner"] == "", "port status %s" % st)
    check(st["attr"]["speed"] == 10.0 and st["attr"]["link"]["up"], "attr %s" % st["attr"])
    check(st["attr"]["layer_cfg"]["ether"]["state"] == "configured", "layer_cfg %s" % st["attr"])
    a.error("get_port_status", {"port_id": 3}, code=-32000, contains="invalid port id - should be: 0")
    names = a.call("get_port_xstats_names", {"port_id": 0})["xstats_names"]
    vals = a.call("get_port_xstats_values", {"port_id": 0})["xstats_values"]
    check(len(names) == len(vals) == 8, "xstats %s %s" % (names, vals))
    g = a.call("get_global_stats")
    for k in ("m_tx_pps", "m_rx_bps", "m_cpu_util", "m_total_tx_pkts", "m_total_queue_full"):
        check(k in g, "global stats lack %s" % k)
    for k in ("opackets", "ipackets", "obytes", "ibytes", "oerrors", "ierrors", "m_total_tx_pps",
              "m_total_tx_bps", "m_total_rx_pps", "m_total_rx_bps", "m_cpu_util"):
        check(k in port_stats(a), "port stats lack %s" % k)
    check(a.call("get_active_pgids")["ids"] == {"flow_stats": [], "latency": []}, "pgids")
    check(a.call("capture", {"command": "status"}) == [], "capture status")
    a.error("capture", {"command": "start"}, code=-32602, contains="field 'limit' is missing")

    print("# the async channel: publish_now triggers a {}; events carry consecutive seq")
    ev_a = Events(a)
    ev_a.pull()  # registers the session
    sub.triggers(300)
    a.call("publish_now", {"key": 77, "baseline": False})
    check(sub.triggers(1000) >= 1, "no {} on the PUB socket after publish_now")

    print("# two clients and one port: acquire, refusal, force, lost ownership")
    b = Client(RPC, user="bob", session_id=2222, zipped=False)
    b.sync()
    ha = a.acquire(0)
    check(len(ha) == 8, "handler %s" % ha)
    d = ev_a.wait(5)
    check(d["who"] == "alice" and d["force"] is False and d["session_id"] == 1111, "own acquire %s" % d)
    check(a.call("get_owner", {"port_id": 0})["owner"] == "alice", "owner")
    b.error("acquire", {"port_id": 0, "user": "bob", "session_id": 2222, "force": False},
            code=-32000, contains="port is already taken by 'alice'")
    a2 = Client(RPC, user="alice", session_id=3333)
    a2.sync()
    a2.error("acquire", {"port_id": 0, "user": "alice", "session_id": 3333, "force": False},
             contains="already owned by another session of 'alice'")
    a2.close()
    a.port_call("set_port_attr", 0, {"attr": {"promiscuous": {"enabled": True}}})
    check(a.call("get_port_status", {"port_id": 0})["attr"]["promiscuous"]["enabled"], "promiscuous")
    a.port_error("set_port_attr", 0, {"attr": {"link_status": {"up": False}}},
                 contains="'link_status' is not supported by pvpkit-gen")
    b.error("remove_all_streams", {"port_id": 0, "handler": "ABCDEFGH"}, code=-32000,
            contains="port is not owned by you")
    b.acquire(0, force=True)
    d = ev_a.wait(5)
    check(d["who"] == "bob" and d["force"] is True and d["port_id"] == 0, "acquired event %s" % d)
    a.port_error("remove_all_streams", 0, code=-32000,
                 contains="port is not owned by you or your current executing session")
    check(b.call("get_owner", {"port_id": 0})["owner"] == "bob", "owner bob")
    b.port_call("release", 0)
    b.error("remove_all_streams", {"port_id": 0, "handler": b.handler[0]},
            contains="please acquire the port before modifying port state")
    d = ev_a.wait(6)
    check(d["who"] == "bob", "released event %s" % d)

    print("# a client that goes away in the middle of a request, and one that keeps the port")
    ctx = zmq.Context()
    s = ctx.socket(zmq.REQ)
    s.setsockopt(zmq.LINGER, 0)
    s.connect("tcp://127.0.0.1:%d" % RPC)
    s.send(zip_msg(b'{"jsonrpc":"2.0","id":1,"method":"get_version","params":{}}'))
    s.close(0)
    ctx.term()
    gone = Client(RPC, user="gone", session_id=4444)
    gone.sync()
    gone.acquire(0)
    gone.close()
    ev_a.wait(5)
    t0 = time.time()
    a.call("ping", api=False)
    check(time.time() - t0 < 1.0, "server slow after a vanished client")
    a.error("acquire", {"port_id": 0, "user": "alice", "session_id": 1111, "force": False},
            contains="port is already taken by 'gone'")
    a.acquire(0, force=True)
    ev_a.wait(5)

    print("# reset as the client does it: off switches answered, what is missing refused")
    for m, p in (("service", {"enabled": False}), ("set_rx_feature", {"type": "queue", "enabled": False}),
                 ("remove_rx_filters", {}), ("remove_all_streams", {}), ("stop_traffic", {})):
        a.port_call(m, 0, p)
    a.port_error("set_rx_feature", 0, {"type": "queue", "enabled": True, "size": 1000},
                 contains="setting RX queue is only available under service mode")
    a.port_error("set_rx_feature", 0, {"type": "capwap_proxy", "enabled": True},
                 contains="RX feature 'capwap_proxy' is not supported")
    check(a.call("get_tpg_status", {"port_id": 0})["enabled"] is False, "tpg status")

    print("# streams refused by name")
    bad = [
        (dict(stream(FRAME), next_stream_id=-2), "'next_stream_id' must be -1..4294967295"),
        (dict(stream(FRAME), packet={"binary": "!!!!", "meta": ""}), "is not base64"),
        (stream(FRAME, mode={"type": "continuous", "rate": {"type": "pps", "value": 0}}), "must be > 0"),
        # What TRex itself refuses (value lists, init values and little endian are taken).
        (stream(FRAME, vm=[{"type": "flow_var", "name": "a", "size": 4, "op": "inc", "step": 3,
                            "value_list": [1, 2]}]), "step cannot be bigger than list size"),
        (stream(FRAME, vm=[{"type": "flow_var", "name": "a", "size": 1, "op": "inc", "step": 1,
                            "value_list": [1, 256]}]), "value_list[1] must be 0..255"),
        (stream(FRAME, vm=[{"type": "flow_var", "name": "a", "size": 2, "op": "inc", "step": 1,
                            "init_value": 10, "min_value": 1, "max_value": 9}]),
         "init_value 10 should be in range from min value 1 to max value 9"),
        (stream(FRAME, vm=[{"type": "fix_checksum_icmpv6", "l2_len": 14, "l3_len": 40}]),
         "fix_checksum_icmpv6: no IPv6 header with ICMPv6 after it"),
        # trim_pkt_size as TRex's compile checks it (FRAME is 64 B).
        (stream(FRAME, vm=[{"type": "trim_pkt_size", "name": "a"}]),
         "packet size with no valid flow variable name 'a'"),
        (stream(FRAME, vm=[{"type": "flow_var", "name": "a", "size": 4, "op": "inc", "step": 1,
                            "init_value": 60, "min_value": 60, "max_value": 64},
                           {"type": "trim_pkt_size", "name": "a"}]),
         "packet size change should point to a flow variable with size 2"),
        (stream(FRAME, vm=[{"type": "flow_var_rand_limit", "name": "a", "size": 2, "limit": 3,
                            "seed": 1, "min_value": 60, "max_value": 64},
                           {"type": "trim_pkt_size", "name": "a"}]),
         "should point to a simple flow variable type"),
        (stream(FRAME, vm=[{"type": "flow_var", "name": "a", "size": 2, "op": "inc", "step": 1,
                            "init_value": 100, "min_value": 100, "max_value": 200},
                           {"type": "trim_pkt_size", "name": "a"}]),
         "min packet size 64 is bigger or eq to max packet size 64"),
        (stream(FRAME, vm=[{"type": "flow_var", "name": "a", "size": 2, "op": "inc", "step": 1,
                            "value_list": [60, 59]},
                           {"type": "trim_pkt_size", "name": "a"}]),
         "packet size in value_list 59 is bigger than packet size 64 or smaller than 60"),
        (stream(FRAME, vm=[{"type": "flow_var", "name": "a", "size": 2, "op": "inc", "step": 1,
                            "init_value": 60, "min_value": 60, "max_value": 64},
                           {"type": "trim_pkt_size", "name": "a"}],
                fs={"enabled": True, "stream_id": 1, "rule_type": "stats"}),
         "trim_pkt_size with flow_stats is not supported by pvpkit-gen"),
        # TRex's bound of a packet (MAX_PKT_SIZE): 9 KiB of IP, 14 + 8 B.
        (stream(udp_frame(9238 - 41)), "Bad packet size provided: 9239. Should be between 14 and 9238"),
        (stream(FRAME, vm=[{"type": "write_flow_var", "name": "zz", "pkt_offset": 26, "add_value": 0,
                            "is_big_endian": True}]), "no such flow variable"),
        # Lengths whose sum wraps to 2 bytes before the packet (a heap overflow once).
        (stream(FRAME, vm=[{"type": "fix_checksum_hw", "l2_len": 9223372036854775807,
                            "l3_len": 9223372036854775801, "l4_type": 11}]),
         "l2_len 9223372036854775807 + l3_len 9223372036854775801 is past the 64 B packet"),
        (stream(FRAME, vm=[{"type": "fix_checksum_hw", "l2_len": 14, "l3_len": 51, "l4_type": 11}]),
         "is past the 64 B packet"),
        (stream(FRAME, vm=[{"type": "fix_checksum_ipv4", "pkt_offset": 9223372036854775807}]),
         "no IPv4 header at offset 9223372036854775807"),
        (stream(FRAME, vm=[{"type": "flow_var", "name": "a", "size": 4, "op": "inc", "step": 1,
                            "init_value": 1, "min_value": 1, "max_value": 9},
                           {"type": "write_flow_var", "name": "a", "pkt_offset": 61, "add_value": 0,
                            "is_big_endian": True}]), "offset 61 + 4 bytes is past the 64 B packet"),
        (stream(FRAME, vm=[{"type": "flow_var", "name": "a", "size": 8, "op": "inc", "step": 1,
                            "init_value": 1, "min_value": 1, "max_value": 9},
                           {"type": "write_flow_var", "name": "a", "pkt_offset": 9223372036854775807,
                            "add_value": 0, "is_big_endian": True}]), "is past the 64 B packet"),
        (stream(FRAME, vm=[{"type": "flow_var", "name": "a", "size": 1, "op": "inc", "step": 1,
                            "init_value": 1, "min_value": 1, "max_value": 9},
                           {"type": "write_mask_flow_var", "name": "a", "pkt_offset": 9223372036854775807,
                            "pkt_cast_size": 2, "mask": 255, "shift": 0, "add_value": 0,
                            "is_big_endian": True}]), "is past the 64 B packet"),
        (stream(FRAME, fs={"enabled": True, "stream_id": 1, "rule_type": "tpg"}),
         "Trying to add a TPG stream but TPG isn't enabled in this port."),
        (stream(udp_frame(0), fs={"enabled": True, "stream_id": 1, "rule_type": "stats"}),
         "flow_stats needs room for pvpkit's 14 B signature"),
    ]
    for st_json, why in bad:
        a.port_error("add_stream", 0, {"stream_id": 1, "stream": st_json}, contains=why)

    print("# stream table")
    a.port_call("add_stream", 0, {"stream_id": 1, "stream": stream(FRAME)})
    a.port_error("add_stream", 0, {"stream_id": 1, "stream": stream(FRAME)}, contains="stream 1 already exists")
    check(a.call("get_stream_list", {"port_id": 0}) == [1], "stream list")
    check(list(a.call("get_all_streams", {"port_id": 0, "profile_id": "*"})["streams"]) == ["1"], "all streams")
    check("packet" not in a.call("get_stream", {"port_id": 0, "stream_id": 1, "get_pkt": False})["stream"], "get_stream")
    check("packet" in a.call("get_stream", {"port_id": 0, "stream_id": 1, "get_pkt": True})["stream"], "get_pkt")
    check(a.call("get_port_status", {"port_id": 0})["state"] == "STREAMS", "state STREAMS")
    a.port_call("remove_stream", 0, {"stream_id": 1})
    a.port_error("remove_stream", 0, {"stream_id": 1}, contains="stream 1 does not exists")

    print("# a stream's unknown members are not kept (16 MiB each once), known ones are bounded")
    junk = dict(stream(FRAME), junk="j" * (4 << 20))
    a.port_call("add_stream", 0, {"stream_id": 9, "stream": junk})
    got = a.call("get_stream", {"port_id": 0, "stream_id": 9, "get_pkt": True})["stream"]
    check("junk" not in got and got["packet"] == junk["packet"] and got["mode"] == junk["mode"],
          "get_stream kept %s" % sorted(got))
    a.port_call("remove_stream", 0, {"stream_id": 9})
    big = stream(FRAME)
    big["packet"]["meta"] = "m" * (1 << 20)
    a.port_error("add_stream", 0, {"stream_id": 9, "stream": big},
                 contains="bytes of JSON; pvpkit-gen keeps 65536 at most")
    a.port_error("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1}, "duration": -1,
                                      "force": False}, contains="no streams attached to port")

    print("# a single burst of 5000 comes back exactly, in TRex's counter conventions")
    before = port_stats(a)
    a.port_call("add_stream", 0, {"stream_id": 1, "stream": stream(
        FRAME, mode={"type": "single_burst", "total_pkts": 5000, "rate": {"type": "pps", "value": 50000}},
        fs={"enabled": True, "stream_id": 7, "rule_type": "stats"})})
    check(a.call("get_active_pgids")["ids"]["flow_stats"] == [7], "active pgids")
    r = a.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1}, "duration": -1,
                                         "force": False, "core_mask": 1})
    check(abs(r["multiplier"] - 1) < 1e-9, "multiplier %s" % r)
    ev_a.wait(10)  # profile started
    ev_a.wait(0)   # port started
    ev_a.wait(14)  # profile finished tx
    ev_a.wait(4)   # port finished tx: what wait_on_traffic waits for
    time.sleep(0.3)
    after = port_stats(a)
    for k, want in (("opackets", 5000), ("ipackets", 5000), ("obytes", 5000 * 68), ("ibytes", 5000 * 68),
                    ("oerrors", 0), ("ierrors", 0)):
        got = after[k] - before[k]
        check(got == want, "%s grew by %d, expected %d" % (k, got, want))
    pg = a.call("get_pgid_stats", {"pgids": [7]})
    fs = pg["flow_stats"]["7"]
    check(fs["tp"]["0"] == 5000 and fs["rp"]["0"] == 5000 and fs["tb"]["0"] == 5000 * 68, "pgid 7 %s" % fs)
    check(pg["ver_id"]["7"] >= 1, "ver_id %s" % pg["ver_id"])
    check(a.call("get_port_status", {"port_id": 0})["state"] == "STREAMS", "state after the burst")

    print("# a duration makes an exact count: 1 s at 20 kpps (mul pps) is 20000 packets")
    a.port_call("remove_all_streams", 0)
    a.port_call("add_stream", 0, {"stream_id": 2, "stream": stream(FRAME, mode={
        "type": "continuous", "rate": {"type": "pps", "value": 100}})})
    before = port_stats(a)
    r = a.port_call("start_traffic", 0, {"mul": {"type": "pps", "op": "abs", "value": 20000},
                                         "duration": 1.0, "force": False})
    check(abs(r["multiplier"] - 200) < 1e-6, "pps multiplier %s" % r)
    ev_a.wait(4)
    time.sleep(0.3)
    after = port_stats(a)
    check(after["opackets"] - before["opackets"] == 20000, "duration run sent %d"
          % (after["opackets"] - before["opackets"]))
    check(after["ipackets"] - before["ipackets"] == 20000, "duration run received %d"
          % (after["ipackets"] - before["ipackets"]))

    print("# a batch over 64 requests is refused before it is parsed, at once, in bounded memory")
    hwm = peak_rss()
    t0 = time.time()
    r = a.raw(zip_msg(b"[" + b"1," * ((16 << 20) // 2 - 2) + b"1]"))  # 16 KB, 16 MiB unzipped
    took = time.time() - t0
    check(b'"code":-32600' in r and b"a batch of 8388607 requests; at most 64" in r, "batch: %s" % r[:200])
    check(took < 2, "a refused batch took %.1f s" % took)
    check(peak_rss() - hwm < 64 << 20, "a refused batch took %d MiB" % ((peak_rss() - hwm) >> 20))
    r = a.raw(b"[" + b'{"jsonrpc":"2.0","id":1,"method":"ping"},' * 64 + b"1]")
    check(b"a batch of 65 requests; at most 64" in r, "65: %s" % r[:200])
    r = a.raw(b"[" + b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":[1,2],"b":"],"}},' * 63 + b"1]")
    check(r.count(b'"result"') == 63, "a batch of 64: %s" % r[:200])

    print("# a run ends on time while the server thread is busy with a long request")
    before = port_stats(a)
    a.port_call("start_traffic", 0, {"mul": {"type": "pps", "op": "abs", "value": 10000},
                                     "duration": 0.2, "force": False})
    # A new rate leaves no exact count: the time alone ends the run.
    a.port_call("update_traffic", 0, {"mul": {"type": "pps", "op": "abs", "value": 10000}, "force": False})
    slow = Client(RPC, timeout_ms=30000)
    t0 = time.time()
    r = slow.raw(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":['
                 + b"[]," * ((16 << 20) // 3 - 20) + b"1]}}")
    took = time.time() - t0
    slow.close()
    check(b'"result"' in r, "the long request: %s" % r[:200])
    ev_a.wait(4)
    time.sleep(0.1)
    sent = port_stats(a)["opackets"] - before["opackets"]
    print("# 0.2 s at 10 kpps sent %d packets; the server thread was busy for %.2f s" % (sent, took))
    # Ended by the server thread, the run would have sent 10 kpps for as long as it was busy.
    check(took > 0.4, "the long request took only %.2f s: it shows nothing" % took)
    check(1000 <= sent <= 3000, "0.2 s at 10 kpps sent %d packets" % sent)

    print("# percentages from the reported speed; the line rate is enforced")
    val = a.port_call("validate", 0)
    check(abs(val["rate"]["max_pps"] - 100) < 1e-6, "validate %s" % val["rate"])
    check(abs(val["rate"]["max_bps_l1"] - 100 * 88 * 8) < 1e-6, "max_bps_l1 %s" % val["rate"])
    r = a.port_call("start_traffic", 0, {"mul": {"type": "percentage", "op": "abs", "value": 0.05},
                                         "duration": -1, "force": False})
    want = 0.05 / 100 * 10e9 / (100 * 88 * 8)
    check(abs(r["multiplier"] - want) < 1e-6, "percentage multiplier %s, expected %s" % (r, want))
    a.port_call("stop_traffic", 0)
    ev_a.wait(1)
    a.port_error("start_traffic", 0, {"mul": {"type": "pps", "op": "abs", "value": 2e7}, "duration": -1,
                                      "force": False}, contains="exceeds port line rate: '10 Gbps'")

    print("# pause, resume, update; per-stream pause and resume")
    a.port_call("start_traffic", 0, {"mul": {"type": "pps", "op": "abs", "value": 10000},
                                     "duration": -1, "force": False})
    time.sleep(0.3)
    a.port_error("add_stream", 0, {"stream_id": 3, "stream": stream(FRAME)}, contains="port 0 is active")
    a.port_error("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1}, "duration": -1,
                                      "force": False}, contains="port 0 is active")
    a.port_call("pause_traffic", 0)
    ev_a.wait(2)
    check(a.call("get_port_status", {"port_id": 0})["state"] == "PAUSE", "state PAUSE")
    n1 = port_stats(a)["opackets"]
    time.sleep(0.3)
    check(port_stats(a)["opackets"] == n1, "packets sent while paused")
    a.port_call("resume_traffic", 0)
    ev_a.wait(3)
    time.sleep(0.3)
    check(port_stats(a)["opackets"] > n1, "nothing sent after resume")
    r = a.port_call("update_traffic", 0, {"mul": {"type": "raw", "op": "add", "value": 100}, "force": False})
    check(abs(r["multiplier"] - 200) < 1e-6, "update add %s" % r)
    time.sleep(1.2)
    rate = port_stats(a)["m_total_tx_pps"]
    check(14000 < rate < 26000, "tx rate %g after update to 20 kpps" % rate)
    a.port_call("pause_streams", 0, {"stream_ids": [2]})
    time.sleep(0.1)
    n1 = port_stats(a)["opackets"]
    time.sleep(0.3)
    check(port_stats(a)["opackets"] == n1, "packets sent by a paused stream")
    check(a.call("get_port_status", {"port_id": 0})["state"] == "TX", "a port with paused streams still TX")
    a.port_call("resume_streams", 0, {"stream_ids": [2]})
    time.sleep(0.3)
    check(port_stats(a)["opackets"] > n1, "nothing sent after resume_streams")
    a.port_call("update_streams", 0, {"stream_ids": [2], "mul": {"type": "raw", "op": "abs", "value": 0.5},
                                      "force": False})
    a.port_error("pause_streams", 0, {"stream_ids": [99]}, contains="stream 99 does not exists")
    a.port_error("release", 0, contains="stop traffic first")
    a.port_call("stop_traffic", 0)
    ev_a.wait(11)
    ev_a.wait(1)
    check(a.call("get_port_status", {"port_id": 0})["state"] == "STREAMS", "state after stop")

    print("# inter-stream gap: nothing goes out before it")
    a.port_call("remove_all_streams", 0)
    a.port_call("add_stream", 0, {"stream_id": 4, "stream": stream(FRAME, isg=400000.0, mode={
        "type": "single_burst", "total_pkts": 100, "rate": {"type": "pps", "value": 10000}})})
    n1 = port_stats(a)["opackets"]
    t0 = time.time()
    a.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1}, "duration": -1,
                                     "force": False})
    time.sleep(0.15)
    check(port_stats(a)["opackets"] == n1, "packets before the isg was over")
    ev_a.wait(4)
    check(time.time() - t0 >= 0.4, "burst with a 400 ms isg over after %.3f s" % (time.time() - t0))
    check(port_stats(a)["opackets"] - n1 == 100, "isg burst count")

    print("# latency stream: a histogram of every packet, no errors")
    a.port_call("remove_all_streams", 0)
    a.port_call("add_stream", 0, {"stream_id": 5, "stream": stream(FRAME, mode={
        "type": "multi_burst", "pkts_per_burst": 250, "count": 4, "ibg": 10000.0,
        "rate": {"type": "pps", "value": 20000}}, fs={"enabled": True, "stream_id": 9, "rule_type": "latency"})})
    check(a.call("get_active_pgids")["ids"]["latency"] == [9], "latency pgid")
    a.port_call("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1}, "duration": -1,
                                     "force": False})
    ev_a.wait(4)
    time.sleep(0.3)
    pg = a.call("get_pgid_stats", {"pgids": [9, 12345]})
    lat = pg["latency"]["9"]
    check(pg["flow_stats"]["9"]["tp"]["0"] == 1000 and pg["flow_stats"]["9"]["rp"]["0"] == 1000,
          "latency pgid counts %s" % pg["flow_stats"]["9"])
    check(sum(lat["lat"]["histogram"].values()) == 1000, "histogram %s" % lat["lat"]["histogram"])
    check(hdrh_total(lat["lat"]["hdrh"]) == 1000, "hdrh %s" % lat["lat"]["hdrh"])
    check(lat["lat"]["total_max"] >= lat["lat"]["total_min"] >= 0 and lat["lat"]["average"] > 0, "lat %s" % lat)
    # last_max: the maximum of the latest half second with packets (the
    # burst's), kept after the stop as TRex keeps it.
    check(0 <= lat["lat"]["last_max"] <= lat["lat"]["total_max"], "last_max %s" % lat["lat"])
    check(lat["er"] == {}, "latency errors %s" % lat["er"])
    check("12345" not in pg["flow_stats"], "unknown pgid answered")

    print("# counters only grow; release")
    g2 = a.call("get_global_stats")
    check(g2["m_total_tx_pkts"] >= g["m_total_tx_pkts"] + 5000 + 20000 + 1100, "global counters")
    a.port_call("release", 0)
    check(a.call("get_port_status", {"port_id": 0})["owner"] == "", "owner after release")
    # TRex clients wait 3 s for an answer: no call may come near it.
    for c in (a, b):
        check(c.slowest[0] < 1.0, "a call took %.3f s: %s" % c.slowest)
        print("# slowest call of %s: %.3f s: %s" % (c.user, c.slowest[0], c.slowest[1]))
    b.close()
    sub.close()
    a.close()


main()
print("PASS")
