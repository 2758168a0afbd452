# SPDX-License-Identifier: BSD-3-Clause
# Shared by the coordinator's CLI tests against fake_hops.py (a pretend
# tester and guest, no DPDK). Source after test/lib/common.sh.

FAKE_HOPS=$PVP_SOURCE_DIR/test/unit/coord/fake_hops.py

# fake_start DIR CAP [STALL [START_DELAY_MS]]: a pretend path that forwards
# at most CAP pps, its sockets and topology.json in DIR; stopped with the
# test (pvp_track).
fake_start() {
	mkdir -p "$1"
	"$PVP_PY" "$FAKE_HOPS" "$@" &
	pvp_track $!
	for _ in $(seq 50); do
		[ -r "$1/topology.json" ] && return 0
		sleep 0.1
	done
	fail "fake_hops.py did not start"
}

# fake_call SOCK METHOD PARAMS: one control call on a fake hop's socket
# (fake.restart, fake.burst: see fake_hops.py), its answer ignored.
fake_call() {
	"$PVP_PY" - "$@" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(json.dumps({"jsonrpc": "2.0", "id": 1, "method": sys.argv[2],
                      "params": json.loads(sys.argv[3])}).encode() + b"\n")
s.recv(4096)
PY
}

# fake_merge OUT LEAD_MS DIR...: one topology of several fake_start sites
# (hops renamed NAME_SITE, SITE the dir's base name; a chain each), as a
# coordinator with a tester per host sees them. LEAD_MS "-": no
# start_lead_ms member.
fake_merge() {
	"$PVP_PY" - "$@" <<'PY'
import json, os, sys
out, lead, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
topo = {"name": "two-testers", "hops": [], "chains": []}
for d in dirs:
    site = os.path.basename(d)
    t = json.load(open(d + "/topology.json"))
    ren = {h["name"]: h["name"] + "_" + site for h in t["hops"]}
    for h in t["hops"]:
        h["name"] = ren[h["name"]]
        topo["hops"].append(h)
    for c in t["chains"]:
        for p in c:
            p["hop"] = ren[p["hop"]]
            p.pop("label", None)
        topo["chains"].append(c)
if lead != "-":
    topo["start_lead_ms"] = int(lead)
json.dump(topo, open(out, "w"), indent=1)
PY
}
