#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# One-way latency per half of the path, a known answer (about 60 s): the
# testbed's guest pvpkit-fwd stamps its receive time (--stamp) and the
# tester and the guest are native processes on one host, one TSC, so the
# trial record says "clock": "shared" and the stream has both halves
# (tester->guest and guest->tester). A delay D (1 ms, then 5 ms) on ONE
# direction of the guest, impair.set on one of its RX ports at a time,
# holds packets after the stamp: on the port the stream enters, its
# guest->tester half moves by D and its tester->guest half does not; on
# any other port (a guest with two), nothing moves; the local testbed's
# guest has one port, so its run has one delayed trial per D. Bounds as
# in coord_known_latency.sh:
# the p50 of FLOOR trials without delay, their spread plus one histogram
# bucket at the value plus two of the testbed's idle sleeps (50 us: a
# held packet meets the sleepers after the guest at another phase). Also:
# every packet is stamped and the mean halves add up to the mean round
# trip.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

FLOOR=3
coord_need_testbed
coord_tb_up --fwd-args "--impair seed=1 --impair-ring 8192 --stamp"

ow_trial() {
	coord_trial "$1" --rate 2kpps --duration 3 --size 64 --flows 1 ||
		{ cat "$PVP_TMP/$1.out" "$PVP_TMP/$1.err"; fail "trial $1 failed"; }
}
for i in $(seq $FLOOR); do
	ow_trial "floor$i"
done
grep -q "One-way latency (guest's TSC is" "$PVP_TMP/floor1.out" ||
	{ cat "$PVP_TMP/floor1.out"; fail "the trial table has no one-way lines"; }
nports=$(coord_guest_ctl info | "$PVP_PY" -c 'import json,sys; print(len(json.load(sys.stdin)["ports"]))') ||
	fail "guest info"
for d in 1000 5000; do
	for p in $(seq 0 $((nports - 1))); do
		coord_guest_ctl impair.set '{"delay_us": 0}' >/dev/null || fail "impair.set reset"
		coord_guest_ctl impair.set "{\"port\": $p, \"delay_us\": $d}" >/dev/null ||
			fail "impair.set port $p delay $d"
		ow_trial "d$d-p$p"
	done
done
"$PVP_PY" - "$PVP_TMP" $FLOOR 50000 "$nports" <<'PY' || fail "a half did not move as the delay says"
import json, sys
d, nfloor, sleep_ns, nports = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
HALVES = ("to_guest", "from_guest")

def trial(name):
    t = json.load(open("%s/%s.json" % (d, name)))
    assert t["tx_packets"] == t["rx_packets"], (name, "lost packets")
    ow = t.get("oneway")
    assert ow and ow["clock"] == "shared", (name, "clock not shared", ow)
    s = t["streams"][0]
    o = s["oneway_ns"]
    assert o["unstamped"] == 0, (name, "unstamped", o["unstamped"])
    assert o["to_guest"]["count"] == s["latency_ns"]["count"] == t["rx_packets"], (name, "counts")
    return o, s["latency_ns"]

def bucket(v):  # lib/lat's bucket width at v
    return 1 if v < 32 else 1 << (v.bit_length() - 6)

floor = [trial("floor%d" % i) for i in range(1, nfloor + 1)]
lo = {h: min(f[0][h]["p50"] for f in floor) for h in HALVES}
hi = {h: max(f[0][h]["p50"] for f in floor) for h in HALVES}
print("# floor p50 ns:", " ".join("%s %d..%d" % (h, lo[h], hi[h]) for h in HALVES))
ok = True
# Each packet's halves add up to its round trip, so their means do (a
# median of a sum is not the sum of the medians: the p50s differ by up
# to the spread of either half, 10 us on a loaded host).
for o, rt in floor:
    s = o["to_guest"]["avg"] + o["from_guest"]["avg"]
    if abs(s - rt["avg"]) > 2 * bucket(rt["avg"]) + 2000:
        print("# mean halves %d + %d are not the mean round trip %d" %
              (o["to_guest"]["avg"], o["from_guest"]["avg"], rt["avg"]))
        ok = False

def near(h, v, m):
    tol = hi[h] - lo[h] + bucket(m) + 2 * sleep_ns
    return lo[h] - tol <= v <= hi[h] + tol, "%d..%d" % (lo[h] - tol, hi[h] + tol)

for D in (1000, 5000):
    moved = 0
    for p in range(nports):
        o, _ = trial("d%d-p%d" % (D, p))
        # The port the stream enters moves guest->tester by D; any other, nothing.
        into = o["from_guest"]["p50"] - hi["from_guest"] > D * 500
        moved += into
        row = []
        for h in HALVES:
            m = o[h]["p50"]
            v = m - (D * 1000 if into and h == "from_guest" else 0)
            good, rng = near(h, v, m)
            ok &= good
            row.append("%s %d%s" % (h, v, "" if good else " (outside %s)" % rng))
        print("# delay %4d us on the guest's RX port %d (%s): p50 less the delay, ns: %s" %
              (D, p, "the stream's" if into else "not the stream's", "; ".join(row)))
    if moved != 1:
        print("# delay %d us: the guest->tester half moved on %d ports, want 1" % (D, moved))
        ok = False
sys.exit(0 if ok else 1)
PY
echo PASS
