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
