#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit soak --push-metrics and --metrics-file against fake_hops.py and
# a pretend Pushgateway (fake_pushgw.py), no DPDK: each interval arrives
# by PUT in the text format, its figures those of the interval's results
# line, per hop; promtool accepts it where installed; the file holds the
# last interval in OpenMetrics; a gateway that refuses or is not there is
# said once on stderr and the soak still ends with every interval kept.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
need_bin "$PVP_COORD"
need_cmd "$PVP_PY"
. "$PVP_SOURCE_DIR/test/unit/coord/fake_lib.sh"

fake_start "$PVP_TMP/hops" 50000
T=$PVP_TMP/hops/topology.json

# pushgw_start DIR [REFUSE]: the pretend gateway; its port in $port.
pushgw_start() {
	mkdir -p "$1"
	"$PVP_PY" "$PVP_SOURCE_DIR/test/unit/coord/fake_pushgw.py" "$@" >"$1.log" 2>&1 &
	pvp_track $!
	for _ in $(seq 50); do
		[ -r "$1/port" ] && { port=$(cat "$1/port"); return 0; }
		sleep 0.1
	done
	fail "fake_pushgw.py did not start: $(cat "$1.log")"
}

pushgw_start "$PVP_TMP/gw"
url="http://127.0.0.1:$port/metrics/job/pvpkit_soak/instance/lab1"
"$PVP_COORD" soak --topology "$T" --rate 40kpps --duration 1 --interval 0.25 \
	--push-metrics "$url" --metrics-file "$PVP_TMP/soak.om" --out "$PVP_TMP/s1" \
	>"$PVP_TMP/s1.out" 2>"$PVP_TMP/s1.err" || fail "soak: exit $?: $(cat "$PVP_TMP/s1.err")"
[ ! -s "$PVP_TMP/s1.err" ] || fail "soak said: $(cat "$PVP_TMP/s1.err")"
"$PVP_PY" - "$PVP_TMP/gw" "$PVP_TMP/s1/soak.jsonl" "$PVP_TMP/soak.om" <<'PY' || fail "pushed figures"
import glob, json, sys
pushes = sorted(glob.glob(sys.argv[1] + "/push-*.txt"))
recs = [json.loads(l) for l in open(sys.argv[2])]
recs = [r for r in recs if r["type"] == "soak_interval"]
if len(pushes) != len(recs) or len(recs) < 3:
    sys.exit("%d pushes for %d intervals" % (len(pushes), len(recs)))
def samples(text):
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out
for p, r in zip(pushes, recs):
    head, body = open(p).read().split("\n", 1)
    if head != "PUT /metrics/job/pvpkit_soak/instance/lab1 text/plain; version=0.0.4; charset=utf-8":
        sys.exit("request: " + head)
    if "# EOF" in body:
        sys.exit("text format 0.0.4 has no # EOF")
    s = samples(body)
    want = {"pvpkit_soak_interval": r["n"], "pvpkit_soak_tx_packets": r["tx_packets"],
            "pvpkit_soak_rx_packets": r["rx_packets"], "pvpkit_soak_lost_packets": r["lost"],
            "pvpkit_soak_unattributed_packets": r["unattributed"],
            "pvpkit_soak_rate_pps": 40000}
    for hop, lost in r["hop_lost"].items():
        want['pvpkit_soak_hop_lost_packets{hop="%s"}' % hop] = lost
    for k, v in want.items():
        if s.get(k) != v:
            sys.exit("%s: %s = %s, results line says %s" % (p, k, s.get(k), v))
    if len(r["hop_lost"]) != 2:
        sys.exit("hops: %s" % r["hop_lost"])
om = open(sys.argv[3]).read()
if not om.endswith("# EOF\n") or samples(om)["pvpkit_soak_interval"] != recs[-1]["n"]:
    sys.exit("--metrics-file: not the last interval in OpenMetrics:\n" + om)
PY
if command -v promtool >/dev/null 2>&1; then
	for p in "$PVP_TMP"/gw/push-*.txt; do
		out=$(tail -n +2 "$p" | promtool check metrics 2>&1) || fail "promtool: $out"
		[ -z "$out" ] || fail "promtool says: $out"
	done
else
	info "promtool not installed: its check skipped"
fi

# A gateway that refuses the first two pushes: said once, then "pushing again".
pushgw_start "$PVP_TMP/gw2" 2
"$PVP_COORD" soak --topology "$T" --rate 40kpps --duration 1 --interval 0.25 \
	--push-metrics "http://127.0.0.1:$port/metrics/job/x" --out "$PVP_TMP/s2" \
	>"$PVP_TMP/s2.out" 2>"$PVP_TMP/s2.err" || fail "soak with a refusing gateway: exit $?"
[ "$(cat "$PVP_TMP/s2.err")" = "pvpkit: soak: --push-metrics: http://127.0.0.1:$port/metrics/job/x: HTTP 400: text format parsing error in line 1: invalid metric name (the soak goes on; every interval is in its results file)
pvpkit: soak: --push-metrics: pushing again" ] || fail "refused pushes said: $(cat "$PVP_TMP/s2.err")"

# No gateway at all: said once; every interval and the totals still kept.
port=$("$PVP_PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$PVP_COORD" soak --topology "$T" --rate 40kpps --duration 1 --interval 0.25 \
	--push-metrics "http://127.0.0.1:$port/x" --out "$PVP_TMP/s3" \
	>"$PVP_TMP/s3.out" 2>"$PVP_TMP/s3.err" || fail "soak without a gateway: exit $?"
[ "$(cat "$PVP_TMP/s3.err")" = "pvpkit: soak: --push-metrics: 127.0.0.1:$port: Connection refused (the soak goes on; every interval is in its results file)" ] ||
	fail "no gateway said: $(cat "$PVP_TMP/s3.err")"
[ "$(grep -c '"type":"soak_interval"' "$PVP_TMP/s3/soak.jsonl")" -ge 3 ] &&
	grep -q '"type":"soak"' "$PVP_TMP/s3/soak.jsonl" || fail "results not all kept without a gateway"
echo "PASS"
