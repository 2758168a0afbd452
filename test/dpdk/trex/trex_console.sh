#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# TRex's own trex-console against pvpkit-gen --trex on two net_null ports:
# a batch of its common commands (portattr, start -f with -m, stats,
# streams, pause, resume, update, stop, push -r), the utilization pages
# ("stats -c", "stats -m": the console crashed on a server without
# get_utilization), service mode, a command pvpkit-gen lacks (two VLAN
# tags: the server's error names it) and the TUI's main page, run under script(1) until it
# is drawn. Needs PVP_TREX_CORE, a trex-core checkout (doc/trex.rst "The
# real TRex client"). About 30 s.
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

[ -n "${PVP_TREX_CORE:-}" ] || skip "no trex-core checkout (set PVP_TREX_CORE)"
[ -f "$PVP_TREX_CORE/scripts/automation/trex_control_plane/interactive/trex/console/trex_console.py" ] ||
    skip "no trex-console in $PVP_TREX_CORE"
need_bin "$PVP_GEN"
need_hugepages 128
need_cmd script
need_cmd tshark
"$PVP_PY" -c "import zmq, yaml, texttable" 2>/dev/null ||
    skip "needs python3-zmq, python3-yaml and python3-texttable"
ldd "$PVP_GEN" | grep -q libzmq || skip "pvpkit-gen built without --trex (no libzmq at build time)"

trex_eal=($(pvp_eal console) -m 256 --lcores "0@0,1@1,2@1")
trex_gen_up console net_null0 net_null1 -- --no-rx --speed 10000
export TREX_EXT_LIBS=${TREX_EXT_LIBS:-$PVP_TREX_CORE/scripts/external_libs}
export PYTHONPATH=$PVP_TREX_CORE/scripts/automation/trex_control_plane/interactive
export PYTHONWARNINGS=ignore
# trex-console is a bash wrapper that finds a python; run its module as it does.
console() {
    (cd "$PVP_TREX_CORE/scripts" &&
        timeout 60 "$PVP_PY" -m trex.console.trex_console -s 127.0.0.1 -p "$rpc" \
            --async_port "$pub" "$@")
}
# Every line the console printed, and nothing the server refused without a reason.
expect() {
    grep -qF -- "$2" "$1" || { cat "$1"; fail "trex-console: no '$2' in its output"; }
}

"$PVP_PY" -c "from scapy.all import Ether, IP, UDP, wrpcap
wrpcap('$PVP_TMP/three.pcap', [Ether()/IP(src='16.0.0.%d' % i)/UDP()/(b'x'*18) for i in range(3)])"
cat >"$PVP_TMP/batch" <<EOB
portattr
start -f stl/udp_1pkt_simple.py -m 10kpps
streams
pause
resume
update -m 20kpps
stats
stop
push -r -f $PVP_TMP/three.pcap -p 0 -i 1000 -c 2
EOB
info "a batch of common commands"
console -f --batch "$PVP_TMP/batch" </dev/null >"$PVP_TMP/batch.out" 2>&1 ||
    { cat "$PVP_TMP/batch.out"; fail "trex-console --batch"; }
for want in "Executing line 9" "[Done]" \
    "Starting traffic on port(s) [0._, 1._]:                      [SUCCESS]" \
    "Pausing traffic on port(s) [0._, 1._]:                       [SUCCESS]" \
    "Resume traffic on port(s) [0._, 1._]:                        [SUCCESS]" \
    "Updating traffic on port(s) [0._, 1._]:                      [SUCCESS]" \
    "Stopping traffic on port(s) [0._, 1._]:                      [SUCCESS]" \
    "Pushing remote PCAP on port(s) [0]:                          [SUCCESS]" \
    "version      : STL @ pvpkit-gen" "Ethernet:IP:UDP:Raw" "src MAC" "state      |      TRANSMITTING |"; do
    expect "$PVP_TMP/batch.out" "$want"
done

info "utilization pages, and QinQ on port 0 (its port table names both tags)"
printf 'start -f stl/udp_1pkt_simple.py -m 10kpps\nstats -c\nstats -m\nstop\nservice\nvlan -p 0 --vlan 10 20\nportattr -p 0\nvlan -p 0 --clear\nservice --off\nquit\n' |
    console -f >"$PVP_TMP/inter.out" 2>&1 || { cat "$PVP_TMP/inter.out"; fail "trex-console"; }
grep -q Traceback "$PVP_TMP/inter.out" && { cat "$PVP_TMP/inter.out"; fail "trex-console crashed"; }
for want in "Cpu Util(%)" "Mbuf Util" "Total:" "Enabling service mode on port(s): [0, 1]" \
    "Setting port(s) [0] with QinQ '10/20':                       [SUCCESS]" "10/20 (QinQ)"; do
    expect "$PVP_TMP/inter.out" "$want"
done
grep -E "vlan -p|QinQ" "$PVP_TMP/inter.out" | sed 's/^/#   /'

info "the TUI's main page, under script(1) until drawn (read-only, traffic started before)"
printf 'start -f stl/udp_1pkt_simple.py -m 10kpps\n' >"$PVP_TMP/start"
console -f --batch "$PVP_TMP/start" </dev/null >"$PVP_TMP/start.out" 2>&1 ||
    { cat "$PVP_TMP/start.out"; fail "start before the TUI"; }
cat >"$PVP_TMP/tui.sh" <<EOB
stty cols 160 rows 50
cd "$PVP_TREX_CORE/scripts" &&
    exec "$PVP_PY" -m trex.console.trex_console -s 127.0.0.1 -p $rpc --async_port $pub -r -t
EOB
# 'q' once the page is drawn (and one refresh later), not at a fixed second:
# on a loaded machine the console's start alone took more than 4 s, read
# the 'q' before its first frame and left without drawing.
tui_quit() {
    local i
    for i in $(seq 250); do
        grep -qF "Global Statistics" "$PVP_TMP/tui.raw" 2>/dev/null && break
        sleep 0.1
    done
    sleep 1
    printf q
}
tui_quit | timeout 60 script -q -f -e -c "bash $PVP_TMP/tui.sh" "$PVP_TMP/tui.raw" >/dev/null 2>&1 ||
    { cat "$PVP_TMP/tui.raw"; fail "the TUI did not end on 'q'"; }
sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' "$PVP_TMP/tui.raw" >"$PVP_TMP/tui.out"
for want in "Global Statistics" "Port Statistics" "version      : STL @ pvpkit-gen" \
    "state      |      TRANSMITTING |      TRANSMITTING |" "Tx pps     |" \
    "browse:     'q' - quit" "Exiting TUI..."; do
    expect "$PVP_TMP/tui.out" "$want"
done
grep -q Traceback "$PVP_TMP/tui.out" && { cat "$PVP_TMP/tui.out"; fail "the TUI crashed"; }
trex_gen_down
echo "PASS"
