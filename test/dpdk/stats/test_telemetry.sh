#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# examples/stats-null forwards net_null0 -> net_null1 counting through
# lib/stats, with both ethdevs bound, and exports DPDK telemetry. Checks:
#  - /pvpkit/stats, /pvpkit/stats/port,N and /pvpkit/info answer on the
#    telemetry socket while it runs (a SOCK_SEQPACKET client, and
#    dpdk-telemetry.py when installed);
#  - the final totals it prints add up: port 1 tx + tx_dropped == port 0
#    rx, and equal what the ethdevs counted themselves;
#  - it stops by itself after --duration, and on SIGTERM;
#  - chosen xstats: the default list finds rx_missed_errors and
#    rx_mbuf_allocation_errors on net_null and they equal rx_missed and
#    rx_nombuf; a --xstats list is looked up by name (absent names left
#    out) and read by id, and counts from the bind like the rest.

. "$PVP_SOURCE_DIR/test/lib/common.sh"

SN="$PVP_BUILD_DIR/examples/stats-null/stats-null"
HERE="$PVP_SOURCE_DIR/test/dpdk/stats"
need_bin "$SN"
[ -x "$PVP_PY" ] || skip "needs $PVP_PY"

# Telemetry works with --in-memory (checked on DPDK 22.11); it only
# leaves the empty runtime dir behind, removed at exit. --in-memory needs
# hugepages (EAL refuses --in-memory with --no-huge); without them (or
# with PVP_TEST_NO_HUGE=1) run --no-huge with a private file prefix and
# remove its runtime files.
free=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
[ -n "${PVP_TEST_NO_HUGE:-}" ] && free=0
RUNDIRS=""
cleanup() {
    local d
    pvp_cleanup
    for d in $RUNDIRS; do
        rm -rf "$d"
    done
}
trap cleanup EXIT

# eal_args NAME: EAL options for one run.
eal_args() {
    if [ "${free:-0}" -ge 64 ] && grep -q hugetlbfs /proc/mounts; then
        echo "$(pvp_eal "$1") -m 64 --vdev net_null0 --vdev net_null1 -l 0"
    else
        echo "--no-huge -m 64 --no-pci --file-prefix=pvpt-$1-$$ --log-level=lib.eal:error" \
             "--vdev net_null0 --vdev net_null1 -l 0"
    fi
}

# start NAME APP_ARGS...: run stats-null in the background, wait for its
# telemetry socket; sets PID, LOG, SOCK.
start() {
    local name=$1
    shift
    LOG="$PVP_TMP/$name.log"
    : >"$LOG"
    # shellcheck disable=SC2046
    "$SN" $(eal_args "$name") -- --sleep-us 200 "$@" >"$LOG" 2>&1 &
    PID=$!
    pvp_track "$PID"
    SOCK=""
    for _ in $(seq 100); do
        SOCK=$(sed -n 's/^telemetry: //p' "$LOG")
        [ -n "$SOCK" ] && [ -S "$SOCK" ] && break
        kill -0 "$PID" 2>/dev/null || { cat "$LOG"; fail "$name: stats-null exited early"; }
        sleep 0.1
    done
    [ -S "$SOCK" ] || { cat "$LOG"; fail "$name: no telemetry socket"; }
    RUNDIRS="$RUNDIRS $(dirname "$SOCK")"
    info "$name: pid $PID, telemetry $SOCK"
}

# wait_exit NAME: wait for PID (at most 30 s), expect exit 0 and a FINAL line.
wait_exit() {
    local rc
    for _ in $(seq 300); do
        kill -0 "$PID" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$PID" 2>/dev/null && { cat "$LOG"; fail "$1: did not stop"; }
    wait "$PID"
    rc=$?
    [ "$rc" = 0 ] || { cat "$LOG"; fail "$1: exit status $rc"; }
    grep -q '^FINAL ' "$LOG" || { cat "$LOG"; fail "$1: no FINAL line"; }
}

# check_final NAME [TELEMETRY_JSON] [XSTATS]: totals add up and match the
# ethdevs; every counter read through telemetry before is <= the final
# one; XSTATS "default" or "chosen" says which xstats to expect.
check_final() {
    sed -n 's/^FINAL //p' "$LOG" >"$PVP_TMP/$1.final.json"
    "$PVP_PY" - "$PVP_TMP/$1.final.json" "${2:-}" "${3:-default}" <<'PYEOF' || { cat "$LOG"; fail "$1: final totals"; }
import json, sys
final = json.load(open(sys.argv[1]))
ports = final["stats"]["ports"]
eth = {e["port"]: e for e in final["ethdev"]}
p0, p1 = ports[0], ports[1]
errs = []
if p0["rx_packets"] == 0:
    errs.append("nothing forwarded")
if p1["tx_packets"] + p1["tx_dropped"] != p0["rx_packets"]:
    errs.append("port1 tx %d + dropped %d != port0 rx %d"
                % (p1["tx_packets"], p1["tx_dropped"], p0["rx_packets"]))
if p1["tx_bytes"] != p1["tx_packets"] * 64 or p0["rx_bytes"] != p0["rx_packets"] * 64:
    errs.append("net_null frames are 64 B: bytes do not match packets")
if eth[0]["ipackets"] != p0["rx_packets"]:
    errs.append("ethdev 0 ipackets %d != rx_packets %d" % (eth[0]["ipackets"], p0["rx_packets"]))
if eth[1]["opackets"] != p1["tx_packets"]:
    errs.append("ethdev 1 opackets %d != tx_packets %d" % (eth[1]["opackets"], p1["tx_packets"]))
for p in ports:
    x = p.get("xstats")
    if not isinstance(x, dict):
        errs.append("port %d: no xstats object" % p["port"])
    elif sys.argv[3] == "default":
        for name, field in (("rx_missed_errors", "rx_missed"),
                            ("rx_mbuf_allocation_errors", "rx_nombuf")):
            if x.get(name) != p[field]:
                errs.append("port %d: xstat %s %s != %s %d"
                            % (p["port"], name, x.get(name), field, p[field]))
    else:
        if sorted(x) != ["rx_good_packets", "rx_q0_errors", "tx_good_packets"]:
            errs.append("port %d: xstats %s, expected the 3 net_null has" % (p["port"], x))
        elif x["rx_good_packets"] != p["rx_packets"] or x["tx_good_packets"] != p["tx_packets"]:
            errs.append("port %d: xstats %s do not match rx %d / tx %d"
                        % (p["port"], x, p["rx_packets"], p["tx_packets"]))
    if p["rx_dropped"] != p["rx_missed"] + p["rx_nombuf"] + p["rx_sw_dropped"]:
        errs.append("port %d rx_dropped breakdown" % p["port"])
    if sum(q["packets"] for q in p["rxq"]) != p["rx_packets"]:
        errs.append("port %d rxq sum" % p["port"])
    if sum(q["packets"] for q in p["txq"]) != p["tx_packets"]:
        errs.append("port %d txq sum" % p["port"])
if sys.argv[2]:
    tel = json.load(open(sys.argv[2]))
    for i, p in enumerate(ports):
        for c, v in tel["port%d" % i].items():
            if isinstance(v, int) and c not in ("port", "eth_port_id") and v > p[c]:
                errs.append("telemetry port%d %s %d > final %d" % (i, c, v, p[c]))
for e in errs:
    print("FAIL: " + e)
print("# final: port0 rx %d, port1 tx %d dropped %d"
      % (p0["rx_packets"], p1["tx_packets"], p1["tx_dropped"]))
sys.exit(1 if errs else 0)
PYEOF
}

# 1. Runs until SIGTERM; read it through telemetry meanwhile.
start term --duration 0
"$PVP_PY" "$HERE/tel_client.py" "$SOCK" "$PID" "$PVP_TMP/tel.json" || fail "telemetry client"
if command -v dpdk-telemetry.py >/dev/null 2>&1; then
    prefix=$(basename "$(dirname "$SOCK")")
    out=$(echo /pvpkit/info | "$PVP_PY" "$(command -v dpdk-telemetry.py)" -f "$prefix" 2>&1)
    echo "$out" | grep -q '"/pvpkit/info": {"name": "stats-null"' ||
        fail "dpdk-telemetry.py -f $prefix: $out"
    info "dpdk-telemetry.py -f $prefix reads /pvpkit/info"
else
    info "dpdk-telemetry.py not installed, only the socket client ran"
fi
kill -TERM "$PID"
wait_exit term
check_final term "$PVP_TMP/tel.json"
[ -S "$SOCK" ] && fail "telemetry socket left behind: $SOCK"

# 2. Stops by itself after --duration.
start duration --duration 1
wait_exit duration
check_final duration

# 3. A chosen xstats list: net_null has rx_good_packets, tx_good_packets
# and rx_q0_errors, not no_such_xstat.
start xstats --duration 1 --xstats rx_good_packets,no_such_xstat,rx_q0_errors,tx_good_packets
wait_exit xstats
check_final xstats "" chosen

echo "PASS"
