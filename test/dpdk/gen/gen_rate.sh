#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Rate accuracy into a sink (net_null, no-rx=1): at several modest rates
# for 3 s each, the packets counted by the port must be within 0.5 % of
# rate x duration. A generous --catchup-us lets the pacer make up for the
# scheduler stalls of a shared machine, so this checks the behaviour (the
# count), not the timing.
. "$PVP_SOURCE_DIR/test/lib/common.sh"

need_bin "$PVP_GEN"
need_hugepages 128

for rate in 100000 300000 500000; do
    "$PVP_GEN" $(pvp_eal "rate$rate") -m 256 -l 0-1 --vdev net_null0,no-rx=1 -- \
        --no-rx --quiet --rate "$rate" --duration 3 --catchup-us 1000000 \
        --json "$PVP_TMP/rate.json" >"$PVP_TMP/rate.log" 2>&1 ||
        { cat "$PVP_TMP/rate.log"; fail "run at $rate pps failed"; }
    "$PVP_PY" - "$PVP_TMP/rate.json" "$rate" <<'PY' || fail "rate $rate"
import json, sys
d = json.load(open(sys.argv[1]))
rate = float(sys.argv[2])
want = rate * 3
port = d["ports"][0]["tx_packets"]
t = d["traffic"]
print("# rate %d pps: port tx %d (want %d, %+.3f %%), achieved %.0f pps over %.3f s, late %d"
      % (rate, port, want, (port - want) * 100 / want, t["achieved_pps"], t["elapsed_s"],
         t["tx_late"]))
if t["requested_pps"] != rate:
    sys.exit(t)
if abs(port - want) > 0.005 * want:
    sys.exit("port counted %d, want %d +- 0.5 %%" % (port, want))
if d["streams"][0]["tx_packets"] != port:
    sys.exit("stream and port TX disagree")
PY
done
echo "PASS"
