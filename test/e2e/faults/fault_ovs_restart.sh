#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# ovs-vswitchd is killed and started again in the middle of a trial. Its
# counters start again from 0 and its OpenFlow rules are gone: the trial
# must fail with one line that names the hop and says so (it used to
# exit 0 with negative per-hop losses), no table or JSON, the trial
# before it kept, and the testbed must come back with down/up.
#
# The coordinator is stopped (SIGSTOP) while OVS restarts, so the trial
# ends only once the new daemon is up: the restart is then seen in the
# counters, not as an unreachable hop, whatever the machine's speed.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/e2e/coord/coord_lib.sh"
. "$PVP_SOURCE_DIR/test/e2e/faults/faults_lib.sh"

coord_need_testbed
coord_tb_up

ovs_restart() {
	local pid
	pid=$(cat "$TB_DIR/ovs-vswitchd.pid") || fail "no ovs-vswitchd pid file"
	kill -9 "$pid"
	for _ in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	# As tools/testbed.sh starts it: a network namespace of its own.
	unshare --net -- env OVS_RUNDIR="$TB_DIR" OVS_DBDIR="$TB_DIR" OVS_LOGDIR="$TB_DIR" \
		OVS_SYSCONFDIR="$TB_DIR" OVS_PKGDATADIR=/usr/share/openvswitch \
		"$OVS_VSWITCHD_DPDK" "unix:$TB_DIR/db.sock" --pidfile="$TB_DIR/ovs-vswitchd.pid" \
		--unixctl="$TB_DIR/ovs-vswitchd.ctl" --log-file="$TB_DIR/ovs-vswitchd.log" \
		--detach --no-chdir >>"$TB_DIR/ovs-vswitchd.log" 2>&1 ||
		fail "ovs-vswitchd did not start again"
	# The new daemon has created its ports once OpenFlow lists them;
	# whether the vhost peers reconnect does not matter here.
	for _ in $(seq 300); do
		coord_ofctl dump-ports br-pvp 2 2>/dev/null | grep -q "port  *2:" && return 0
		sleep 0.1
	done
	tail -20 "$TB_DIR/ovs-vswitchd.log"
	fail "the restarted ovs-vswitchd did not create its ports"
}

coord_trial first --size 64 --flows 1 --rate 5kpps --duration 1 ||
	{ cat "$PVP_TMP/first.err"; fail "first trial failed"; }
# Packets OVS received from the tester (OpenFlow port 1, phy0).
phy_rx() {
	coord_ofctl dump-ports br-pvp 1 | sed -n 's/.*rx pkts=\([0-9]*\).*/\1/p'
}

rx0=$(phy_rx)
coord_trial restart --size 64 --flows 1 --rate 5kpps --duration 3 &
trial_pid=$!
pvp_track "$trial_pid"
# Stop the coordinator once the traffic flows: it is then in the trial's
# sleep, after its baseline snapshot.
for _ in $(seq 100); do
	[ "$(phy_rx)" -gt $((rx0 + 500)) ] && break
	sleep 0.1
done
[ "$(phy_rx)" -gt $((rx0 + 500)) ] || fail "the trial's traffic did not start"
coord_pid=$(pgrep -f "pvpkit trial .*$PVP_TMP/restart.json")
[ -n "$coord_pid" ] || fail "cannot find the coordinator"
# Killed at exit if the test fails while it is stopped (SIGKILL reaches
# a stopped process; SIGTERM would wait for a SIGCONT).
pvp_track "$coord_pid"
kill -STOP $coord_pid
ovs_restart
kill -CONT $coord_pid
wait "$trial_pid"
rc=$?
cat "$PVP_TMP/restart.err"
[ "$rc" = 1 ] || { tail -20 "$TB_DIR/ovs-vswitchd.log"; fail "trial exit status $rc, want 1"; }
[ "$(wc -l <"$PVP_TMP/restart.err")" = 1 ] || fail "want one line on stderr"
grep -q "^pvpkit: trial not measured: hop vswitch: ovs-vswitchd restarted (port [a-z0-9]* was created again" \
	"$PVP_TMP/restart.err" || fail "the line does not name the hop and the restart"
grep -q "trial not valid; the OpenFlow rules on br-pvp are gone" "$PVP_TMP/restart.err" ||
	fail "the line does not say the rules are gone"
grep -q "Packets" "$PVP_TMP/restart.out" && fail "a table was printed for an invalid trial"
[ -e "$PVP_TMP/restart.json" ] && fail "a trial JSON was written for an invalid trial"
"$PVP_PY" -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' \
	"$PVP_TMP/results.jsonl" || fail "results.jsonl is not valid JSON lines"
[ "$(wc -l <"$PVP_TMP/results.jsonl")" = 1 ] || fail "results.jsonl lost or gained a trial"
# What the line warns about is true: the testbed's rules are gone.
coord_ofctl dump-flows br-pvp | grep -q in_port && fail "the rules survived the restart?"
fault_recover
echo "PASS"
