#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Every frame pvpkit-gen receives is in exactly one reported counter: a
# stream's rx_packets, unsigned_rx, unknown_stream_rx or neigh_rx. A pcap of hostile
# frames (signed with stream ids no profile sends, bad magic, cut short,
# no room for the signature, not IP) is replayed into its RX queue; the
# counters must add up to the port's rx_packets in the --json summary and
# in stats.get over the control channel.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_hugepages 128
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"
HERE="$PVP_SOURCE_DIR/test/dpdk/gen"

want=$("$PVP_PY" "$HERE/hostile_pcap.py" "$PVP_TMP/hostile.pcap") || fail "hostile_pcap.py"
info "sent into RX: $want"

# check REPORT: the counters of a --json / stats.get object add up.
check() {
    "$PVP_PY" - "$1" "$want" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
w = json.loads(sys.argv[2])
rx = d["ports"][0]["rx_packets"]
streams = sum(s["rx_packets"] for s in d["streams"])
unknown = sum(n for sid, n in w["signed"].items() if sid != "0")
got = (rx, streams, d["unsigned_rx"], d["unknown_stream_rx"], d["neigh_rx"])
print("# port rx %d = streams %d + unsigned_rx %d + unknown_stream_rx %d + neigh_rx %d" % got)
want = (w["frames"], w["signed"]["0"], w["unsigned"], unknown, w["neigh"])
if got != want:
    sys.exit("expected (%d, %d, %d, %d, %d)" % want)
if rx != streams + d["unsigned_rx"] + d["unknown_stream_rx"] + d["neigh_rx"]:
    sys.exit("frames counted nowhere")
PY
}

info "CLI run, --json summary"
"$PVP_GEN" $(pvp_eal hostile1) -m 256 -l 0-1 \
    --vdev "net_pcap0,rx_pcap=$PVP_TMP/hostile.pcap,tx_pcap=$PVP_TMP/out.pcap" -- \
    --count 100 --drain-ms 500 --json "$PVP_TMP/cli.json" >"$PVP_TMP/cli.log" 2>&1 ||
    { cat "$PVP_TMP/cli.log"; fail "CLI run failed"; }
check "$PVP_TMP/cli.json" || { cat "$PVP_TMP/cli.log"; fail "--json counters"; }
grep -q "^unsigned_rx 80 unknown_stream_rx 110 neigh_rx 15$" "$PVP_TMP/cli.log" ||
    { cat "$PVP_TMP/cli.log"; fail "summary table"; }

info "server, stats.get"
sock="$PVP_TMP/gen.sock"
"$PVP_GEN" $(pvp_eal hostile2) -m 256 -l 0-1 \
    --vdev "net_pcap0,rx_pcap=$PVP_TMP/hostile.pcap,tx_pcap=$PVP_TMP/out2.pcap" -- \
    --server --ctl "unix:$sock" --idle-sleep 100 >"$PVP_TMP/srv.log" 2>&1 &
pid=$!
pvp_track $pid
"$PVP_PY" - "$sock" "$PVP_TMP/stats.json" <<'PY' || { cat "$PVP_TMP/srv.log"; fail "stats.get"; }
import json, socket, sys, time
for _ in range(100):
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sys.argv[1])
        break
    except OSError:
        time.sleep(0.1)
f = s.makefile("rw")
for i in range(100):
    f.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": "stats.get"}) + "\n")
    f.flush()
    st = json.loads(f.readline())["result"]
    if st["ports"][0]["rx_packets"] >= 305:
        break
    time.sleep(0.1)
json.dump(st, open(sys.argv[2], "w"))
PY
check "$PVP_TMP/stats.json" || fail "stats.get counters"
kill -TERM $pid
wait $pid || fail "server exit status $?"
echo "PASS"
