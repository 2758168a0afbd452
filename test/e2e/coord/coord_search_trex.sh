#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The trex hop driver as the tester of an NDR search: on the policed
# testbed (OVS ingress policing on vhost0 at 1104 kbit/s, a 3000 pps cap
# for 64 B frames, as coord_search_policing), one search with the native
# gen driver, then the testbed's tester swapped for pvpkit-gen --trex on
# the same vhost-user socket and the same search through a topology whose
# tester hop has driver "trex". Both NDRs must lie within the width goal
# of the cap and of each other, and every trex trial must reconcile, with
# TRex's port counters in the per-hop table.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"

coord_need_testbed
ldd "$PVP_GEN" | grep -q libzmq || skip "pvpkit-gen was built without libzmq (no --trex)"
coord_tb_up

rate_kbps=1104
cap=$("$PVP_PY" -c "print($rate_kbps * 1000 / ((64 - 4 - 14) * 8))")
coord_vsctl set Interface vhost0 ingress_policing_rate=$rate_kbps ingress_policing_burst=20 ||
	fail "cannot set ingress policing"

search() {
	local name=$1 topo=$2
	"$PVP_COORD" search --topology "$topo" --size 64 --flows 1 \
		--max-rate 4500 --min-rate 1000 --goal ndr --width 5% --initial-duration 0.5 \
		--final-duration 2 --max-time 40 --no-tables --results "$PVP_TMP/$name.jsonl" \
		>"$PVP_TMP/$name.out" 2>&1 || { cat "$PVP_TMP/$name.out"; fail "$name search failed"; }
	cat "$PVP_TMP/$name.out"
}

search gen "$TB_DIR/topology.json"

# The tester swapped: pvpkit-gen --trex on the same socket, the same EAL
# file prefix (so tools/testbed.sh down finds it), OVS reconnects by itself.
tb_id=pvptb$(printf '%s' "$TB_DIR" | cksum | cut -d' ' -f1)
kill "$(cat "$TB_DIR/gen.pid")" 2>/dev/null
for _ in $(seq 50); do kill -0 "$(cat "$TB_DIR/gen.pid")" 2>/dev/null || break; sleep 0.1; done
rpc_port=$((20000 + $$ % 20000))
"$PVP_GEN" -l 0,1 --main-lcore 1 --in-memory --no-pci --single-file-segments \
	--file-prefix="$tb_id-gen" -m 512 --log-level=lib.eal:error \
	--vdev "net_virtio_user0,path=$TB_DIR/phy0.sock,server=1,queues=1,queue_size=1024" -- \
	--trex "127.0.0.1:$rpc_port:$((rpc_port - 1))" --speed 10000 --idle-sleep 50 \
	--tx-full drop --catchup-us 10000 >"$PVP_TMP/gen-trex.log" 2>&1 &
pvp_track $!
for _ in $(seq 150); do grep -q "TRex stateless server" "$PVP_TMP/gen-trex.log" && break; sleep 0.2; done
grep -q "TRex stateless server" "$PVP_TMP/gen-trex.log" ||
	{ cat "$PVP_TMP/gen-trex.log"; fail "pvpkit-gen --trex did not start"; }

"$PVP_PY" - "$TB_DIR/topology.json" "$PVP_TMP/topology-trex.json" "$rpc_port" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
for h in t["hops"]:
    if h["name"] == "tester":
        h.clear()
        h.update({"name": "tester", "driver": "trex", "server": "127.0.0.1",
                  "sync_port": int(sys.argv[3]), "ports": ["0"]})
for c in t["chains"]:
    for p in c:
        if p["hop"] == "tester":
            p["port"] = "0"
json.dump(t, open(sys.argv[2], "w"), indent=1)
PY

search trex "$PVP_TMP/topology-trex.json"

"$PVP_PY" - "$PVP_TMP/gen.jsonl" "$PVP_TMP/trex.jsonl" "$cap" <<'PY'
import json, sys
cap = float(sys.argv[3])
ndr = {}
for name, path in (("gen", sys.argv[1]), ("trex", sys.argv[2])):
    recs = [json.loads(l) for l in open(path)]
    trials = [r for r in recs if r["type"] == "trial"]
    search = [r for r in recs if r["type"] == "search"][-1]
    bad = [t for t in trials
           if sum(t["hop_lost"].values()) + t["unattributed"] != t["tx_packets"] - t["rx_packets"]]
    if bad:
        print("FAIL: a %s trial does not reconcile" % name); sys.exit(1)
    if search["generator_ceiling_pps"] < cap * 1.05:
        print("SKIP: the %s tester reaches only %.0f pps here, not above the %.0f pps cap"
              % (name, search["generator_ceiling_pps"], cap)); sys.exit(77)
    ndr[name] = search["goals"][0]["lower_pps"]
    print("# %s: cap %.0f pps, NDR lower %s upper %s, %d trials"
          % (name, cap, ndr[name], search["goals"][0]["upper_pps"], len(trials)))
    if ndr[name] is None or not (0.90 * cap <= ndr[name] <= 1.02 * cap):
        print("FAIL: %s NDR %s not within the width goal of the %.0f pps cap" % (name, ndr[name], cap))
        sys.exit(1)
    if name == "trex" and not any(t["tx_packets"] > 0 for t in trials):
        print("FAIL: the trex tester sent nothing"); sys.exit(1)
if abs(ndr["gen"] - ndr["trex"]) > 0.05 * max(ndr["gen"], ndr["trex"]) + 0.02 * cap:
    print("FAIL: NDR with the trex tester %.0f differs from the gen tester's %.0f by more than "
          "the search width" % (ndr["trex"], ndr["gen"])); sys.exit(1)
PY
rc=$?
[ "$rc" = 77 ] && exit 77
[ "$rc" = 0 ] || fail "trex search result wrong"

# One trial with tables: TRex's counters are the tester's rows.
"$PVP_COORD" trial --topology "$PVP_TMP/topology-trex.json" --size 64 --flows 1 --rate 2000 \
	--duration 1 --json "$PVP_TMP/trial.json" >"$PVP_TMP/trial.out" 2>&1 ||
	{ cat "$PVP_TMP/trial.out"; fail "trex trial failed"; }
cat "$PVP_TMP/trial.out"
"$PVP_PY" - "$PVP_TMP/trial.json" <<'PY' || fail "trex trial JSON wrong"
import json, sys
t = json.load(open(sys.argv[1]))
pts = t["chains"][0]
ok = (t["reconciled"] and pts[0]["packets"] == t["tx_packets"] > 1900
      and pts[-1]["packets"] == t["rx_packets"] and not t["generator_limited"]
      and t.get("streams") and t["streams"][0]["tx_packets"] == t["tx_packets"]
      and t["streams"][0]["rx_packets"] == t["rx_packets"])
if not ok:
    print("# trial:", json.dumps({k: t.get(k) for k in ("tx_packets", "rx_packets", "reconciled",
                                                     "generator_limited", "streams")}))
sys.exit(0 if ok else 1)
PY
echo "PASS"
