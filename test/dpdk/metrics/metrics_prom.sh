#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# --metrics with the real tools (doc/metrics.rst): promtool check metrics
# accepts what pvpkit-fwd and pvpkit-gen serve; the OpenMetrics answer
# has its content type and "# EOF"; Debian's prometheus, on loopback with
# a data dir of its own, scrapes a running pvpkit-gen every second and
# gives back, through its HTTP API, the TX rate it was asked to send and
# a latency quantile from the histograms. About 25 s.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_bin "$PVP_FWD"
need_hugepages 256
need_cmd curl
need_cmd promtool
need_cmd prometheus
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"

OM_ACCEPT='Accept: application/openmetrics-text;version=1.0.0'
RATE=10000

# The URL an app printed ("...: metrics on http://..."), within 20 s.
metrics_url() {
    local log=$1 pid=$2 url
    for _ in $(seq 100); do
        url=$(grep -o 'metrics on http://[^ ]*' "$log" | cut -d' ' -f3)
        [ -n "$url" ] && { echo "$url"; return 0; }
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    cat "$log" >&2
    return 1
}

# promtool on the default answer, the OpenMetrics one checked for its frame.
check_both_formats() {
    local name=$1 url=$2 out
    curl -sf "$url" >"$PVP_TMP/$name.prom" || fail "$name: GET $url"
    out=$(promtool check metrics <"$PVP_TMP/$name.prom" 2>&1) ||
        fail "$name: promtool check metrics: $out"
    [ -z "$out" ] || fail "$name: promtool check metrics says: $out"
    curl -sf -D "$PVP_TMP/$name.h" -H "$OM_ACCEPT" "$url" >"$PVP_TMP/$name.om" ||
        fail "$name: GET $url (OpenMetrics)"
    grep -qi '^Content-Type: application/openmetrics-text; version=1.0.0; charset=utf-8' \
        "$PVP_TMP/$name.h" || fail "$name: content type: $(cat "$PVP_TMP/$name.h")"
    [ "$(tail -n 1 "$PVP_TMP/$name.om")" = "# EOF" ] || fail "$name: no # EOF at the end"
    [ "$(grep -c '^# EOF' "$PVP_TMP/$name.om")" = 1 ] || fail "$name: # EOF not once"
    info "$name: promtool accepts $(grep -vc '^#' "$PVP_TMP/$name.prom") samples"
}

# pvpkit-fwd: forwarding between two null ports, per queue and lcore.
"$PVP_FWD" $(pvp_eal mfwd) -m 256 -l 0-1 --vdev net_null0 --vdev net_null1 -- \
    --ctl none --seq-check --idle-sleep 100 --metrics 127.0.0.1:0 >"$PVP_TMP/fwd.log" 2>&1 &
fpid=$!
pvp_track $fpid
furl=$(metrics_url "$PVP_TMP/fwd.log" $fpid) || fail "pvpkit-fwd did not serve metrics"
check_both_formats fwd "$furl"
grep -q '^pvpkit_lcore_packets_total{lcore="1",direction="rx"} [1-9]' "$PVP_TMP/fwd.prom" ||
    fail "fwd: no per-lcore packets"
kill -TERM $fpid
wait $fpid || fail "pvpkit-fwd exit status $? after SIGTERM"

# pvpkit-gen: one stream looped back by a ring port, so it has latency.
"$PVP_GEN" $(pvp_eal mgen) -m 256 -l 0-1 --vdev net_ring0 -- \
    --rate $RATE --duration 120 --idle-sleep 100 --quiet --metrics 127.0.0.1:0 \
    >"$PVP_TMP/gen.log" 2>&1 &
gpid=$!
pvp_track $gpid
gurl=$(metrics_url "$PVP_TMP/gen.log" $gpid) || fail "pvpkit-gen did not serve metrics"
check_both_formats gen "$gurl"
grep -q '^pvpkit_stream_latency_seconds_bucket{stream="0",name="stream0",port="0",le="+Inf"} ' \
    "$PVP_TMP/gen.om" || fail "gen: no latency histogram"

pport=$("$PVP_PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
target=${gurl#http://}
target=${target%/metrics}
cat >"$PVP_TMP/prometheus.yml" <<EOT
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: pvpkit-gen
    static_configs:
      - targets: ['$target']
EOT
prometheus --config.file="$PVP_TMP/prometheus.yml" --storage.tsdb.path="$PVP_TMP/tsdb" \
    --web.listen-address="127.0.0.1:$pport" --log.level=warn >"$PVP_TMP/prom.log" 2>&1 &
ppid=$!
pvp_track $ppid
api="http://127.0.0.1:$pport/api/v1"

# A PromQL query's first value, or nothing.
query() {
    curl -sf --data-urlencode "query=$1" "$api/query" | "$PVP_PY" -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else "")'
}

# Ten scrapes (rate() needs two; a few more smooth a shared CPU out), 40 s at most.
n=""
for _ in $(seq 80); do
    n=$(query 'count_over_time(pvpkit_port_packets_total{direction="tx"}[1m])' 2>/dev/null)
    [ -n "$n" ] && [ "$n" -ge 10 ] && break
    kill -0 $ppid 2>/dev/null || { cat "$PVP_TMP/prom.log"; fail "prometheus exited"; }
    sleep 0.5
done
[ -n "$n" ] && [ "$n" -ge 10 ] || { cat "$PVP_TMP/prom.log"; fail "prometheus has $n samples"; }
health=$(curl -sf "$api/targets" | "$PVP_PY" -c '
import json, sys
t = json.load(sys.stdin)["data"]["activeTargets"][0]
print(t["health"], repr(t["lastError"]))')
[ "$health" = "up ''" ] || fail "target health: $health"
rate=$(query 'rate(pvpkit_port_packets_total{direction="tx"}[8s])')
ach=$(query 'pvpkit_traffic_achieved_pps')
p99=$(query 'histogram_quantile(0.99, rate(pvpkit_stream_latency_seconds_bucket[8s]))')
info "prometheus: tx rate $rate pps (asked $RATE, gen says it achieved $ach), latency p99 $p99 s"
# Within 20 % of the rate asked, or, on a CPU shared so much that the
# generator fell behind, within 10 % of what it says it achieved.
"$PVP_PY" -c '
import sys
r, asked, ach = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
sys.exit(not (0.8 * asked < r < 1.2 * asked or 0.9 * ach < r < 1.1 * ach))' \
    "$rate" $RATE "$ach" || fail "rate through prometheus: $rate pps, asked $RATE, achieved $ach"
"$PVP_PY" -c 'import math, sys; q = float(sys.argv[1]); sys.exit(not (0 < q < 1))' "$p99" ||
    fail "latency p99 through prometheus: $p99"
kill -TERM $gpid
wait $gpid || fail "pvpkit-gen exit status $? after SIGTERM"
echo "PASS"
