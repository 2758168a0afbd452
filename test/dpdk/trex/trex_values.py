#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
"""pvpkit-gen --trex bounds its numbers as its own control channel does:
durations, gaps, rates and multipliers past what a run can hold, values
that wrap, and pgids past 32 bits are refused with TRex's error naming
the parameter, never taken into a run (a port that keeps sending, a
counter that overflows) or answered as another value. Run after
trex_proto.py against the same server.

Usage: trex_values.py RPC_PORT PUB_PORT
"""
import sys
import time

from trex_wire import Client, fail, stream, udp_frame, zip_msg

RPC = int(sys.argv[1])
FRAME = udp_frame(22)
RAW1 = {"type": "raw", "op": "abs", "value": 1}


def check(cond, msg):
    if not cond:
        fail(msg)


def opackets(c):
    return c.call("get_port_stats", {"port_id": 0})["opackets"]


def main():
    a = Client(RPC, user="values", session_id=5555)
    a.sync()
    a.acquire(0, force=True)
    a.port_call("stop_traffic", 0)
    a.port_call("remove_all_streams", 0)

    print("# stream values past what a run can hold")
    for mode, why in (
            ({"type": "continuous", "rate": {"type": "pps", "value": 1e308}},
             "rate value 1e+308 must be > 0, within 1..1e+11 pps"),
            ({"type": "continuous", "rate": {"type": "bps_L1", "value": 1e300}},
             "rate value 1e+300 must be > 0, within 1000..1e+14 bps"),
            ({"type": "continuous", "rate": {"type": "pps", "value": 1e-300}},
             "rate value 1e-300 must be > 0, within 1..1e+11 pps"),
            ({"type": "multi_burst", "pkts_per_burst": 10, "count": 2, "ibg": 1e308,
              "rate": {"type": "pps", "value": 1000}},
             "multi_burst: 'ibg' 1e+308 must be 0..1099511627776 us")):
        a.port_error("add_stream", 0, {"stream_id": 1, "stream": stream(FRAME, mode=mode)},
                     code=-32602, contains=why)
    a.port_error("add_stream", 0, {"stream_id": 1, "stream": stream(FRAME, vm=[
        {"type": "flow_var", "name": "a", "size": 4, "op": "inc", "step": 1, "init_value": 0,
         "min_value": 0, "max_value": 9},
        {"type": "write_flow_var", "name": "a", "pkt_offset": 26, "add_value": -(1 << 63),
         "is_big_endian": True}])},
        contains="add_value -9223372036854775808 must be a 32-bit integer")

    print("# the longest gap still answers validate (no Internal Server Error)")
    a.port_call("add_stream", 0, {"stream_id": 1, "stream": stream(FRAME, mode={
        "type": "multi_burst", "pkts_per_burst": 1, "count": 4294967295, "ibg": float(1 << 40),
        "rate": {"type": "pps", "value": 1}})})
    val = a.port_call("validate", 0)
    check(val["graph"]["expected_duration"] > 4e21, "validate %s" % val)
    a.port_call("remove_all_streams", 0)

    print("# start_traffic: duration and multiplier")
    a.port_call("add_stream", 0, {"stream_id": 2, "stream": stream(FRAME, mode={
        "type": "continuous", "rate": {"type": "pps", "value": 1000}},
        fs={"enabled": True, "stream_id": 5, "rule_type": "stats"})})
    a.port_error("start_traffic", 0, {"mul": RAW1, "duration": 1e308, "force": False},
                 code=-32602, contains="'duration' 1e+308 must be -1 (until stop_traffic) "
                 "or 0.001..86400 seconds")
    a.port_error("start_traffic", 0, {"mul": RAW1, "duration": 1e-9, "force": False},
                 code=-32602, contains="'duration' 1e-09 must be")
    a.port_error("start_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1e300},
                                      "duration": -1, "force": True},
                 contains="port 0 would send 1e+303 pps")
    a.port_error("start_traffic", 0, {"mul": {"type": "pps", "op": "abs", "value": 1e12},
                                      "duration": -1, "force": True},
                 contains="pvpkit-gen sends at most 1e+11 pps")
    check(a.call("get_port_status", {"port_id": 0})["state"] == "STREAMS", "a refused start sends")
    check("m_tx_pps" in a.call("get_global_stats"), "get_global_stats")

    print("# update_streams checks the line as update_traffic does, and keeps the rate it refuses")
    a.port_call("start_traffic", 0, {"mul": RAW1, "duration": -1, "force": False})
    time.sleep(0.2)
    a.port_error("update_traffic", 0, {"mul": {"type": "raw", "op": "abs", "value": 1e6},
                                       "force": False}, contains="exceeds port line rate")
    a.port_error("update_streams", 0, {"stream_ids": [2], "force": False,
                                       "mul": {"type": "raw", "op": "abs", "value": 1e6}},
                 contains="Expected L1 B/W: '704 Gbps' exceeds port line rate: '10 Gbps'")
    a.port_error("update_streams", 0, {"stream_ids": [2], "force": True,
                                       "mul": {"type": "raw", "op": "abs", "value": 1e300}},
                 contains="pvpkit-gen sends at most 1e+11 pps")
    n1 = opackets(a)
    time.sleep(0.5)
    sent = opackets(a) - n1
    check(sent < 5000, "%d packets in 0.5 s at 1 kpps after refused updates" % sent)

    print("# pgids are 32-bit")
    pg = a.call("get_pgid_stats", {"pgids": [5]})
    check("5" in pg["flow_stats"], "pgid 5 %s" % pg)
    a.error("get_pgid_stats", {"pgids": [5, (1 << 32) + 5]}, code=-32602,
            contains="'pgids' item 1 is not a uint32")
    a.port_call("stop_traffic", 0)
    a.port_call("remove_all_streams", 0)

    print("# beside an unsigned 64-bit integer, a long fraction is a number, not bad JSON")
    for num in (b"12345678901234567890.12345678901234567890", b"1.12345678901234567890e3",
                b"123456789012345678901234.5e-3"):
        r = a.raw(zip_msg(b'{"jsonrpc":"2.0","id":77,"method":"ping","params":'
                          b'{"core_mask":18446744073709551615,"x":' + num + b"}}"))
        check(b'"result"' in r, "%s: %s" % (num, r))
    a.port_call("release", 0)
    a.close()


main()
print("PASS")
