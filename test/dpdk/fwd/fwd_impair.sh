#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# pvpkit-fwd's impairment stage with known answers, on net_pcap and
# net_null (no hugepages, about 15 s):
# - loss, duplication and reordering of signed frames: the counters the
#   control channel reports equal what a second pvpkit-fwd --seq-check
#   finds in the output (gaps, dup, ooo), the loss is within the binomial
#   bound, and the same seed gives the same answer;
# - Gilbert-Elliott loss comes in bursts (mean run near 1/ge_r);
# - a fixed delay holds every packet for it (held, then sent);
# - impair.set at run time: loss 1 stops the flow, a rate cap sets the
#   rate, stats.clear zeroes the counters; bad settings are refused.

. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/fwd/fwd_lib.sh"

need_bin "$PVP_FWD"
FI="$PVP_PY $FWD_DIR/fwd_impair.py"
N=20000
IN=$PVP_TMP/in.pcap
$FI make "$IN" $N || fail "cannot make the input pcap"

# impair_run NAME SPEC [OPTIONS...]: forward IN through --impair SPEC into
# $PVP_TMP/NAME.pcap; the --json summary is $PVP_TMP/NAME.json.
impair_run() {
    local name=$1 spec=$2
    shift 2
    "$PVP_FWD" $(fwd_eal_nohuge "imp-$name") -l 0 \
        --vdev "net_pcap0,rx_pcap=$IN,tx_pcap=$PVP_TMP/$name.pcap" -- \
        --mode impair --impair "$spec" --impair-ring 1024 --ctl none --duration 1 \
        --idle-sleep 100 --json "$PVP_TMP/$name.json" "$@" >"$PVP_TMP/$name.log" 2>&1 ||
        { cat "$PVP_TMP/$name.log"; fail "$name: pvpkit-fwd failed"; }
}

# seq_check NAME: the signature check of a second pvpkit-fwd on NAME.pcap:
# "rx gaps dup ooo" of stream 3.
seq_check() {
    "$PVP_FWD" $(fwd_eal_nohuge "chk-$1") -l 0 \
        --vdev "net_pcap0,rx_pcap=$PVP_TMP/$1.pcap,tx_pcap=$PVP_TMP/discard.pcap" -- \
        --seq-check --ctl none --duration 1 --idle-sleep 100 >"$PVP_TMP/chk-$1.log" 2>&1 ||
        { cat "$PVP_TMP/chk-$1.log"; fail "$1: the checking pvpkit-fwd failed"; }
    sed -n 's/^total stream 3: rx_packets=\([0-9]*\) gaps=\([0-9]*\) dup=\([0-9]*\) ooo=\([0-9]*\)$/\1 \2 \3 \4/p' \
        "$PVP_TMP/chk-$1.log"
}

# imp NAME KEY: an impair counter of port 0 from NAME's summary.
imp() {
    $PVP_PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["impair"][0][sys.argv[2]])' \
        "$PVP_TMP/$1.json" "$2"
}

# within X MEAN P N: |X - N*P| <= 4 binomial standard deviations.
within() {
    $PVP_PY -c 'import math,sys; x,p,n=int(sys.argv[1]),float(sys.argv[2]),int(sys.argv[3]); sys.exit(0 if abs(x-n*p) <= 4*math.sqrt(n*p*(1-p)) else 1)' "$@"
}

# 1. Loss, duplicates, reordering: exact counts, seen by the signature check.
impair_run a "loss=1%,dup=0.5%,reorder=0.5%,seed=42"
L=$(imp a loss_dropped) D=$(imp a duplicated) R=$(imp a reordered)
info "loss 1%, dup 0.5%, reorder 0.5% of $N: loss_dropped $L duplicated $D reordered $R"
read -r rx gaps dup ooo <<<"$(seq_check a)"
info "signature check of the output: rx $rx gaps $gaps dup $dup ooo $ooo"
[ "$gaps" = "$L" ] || fail "signature check: $gaps lost, the stage says $L"
[ "$dup" = "$D" ] || fail "signature check: $dup duplicates, the stage says $D"
[ "$ooo" = "$R" ] || fail "signature check: $ooo out of order, the stage says $R"
[ "$rx" = $((N - L + D)) ] || fail "signature check: $rx received, expected $((N - L + D))"
[ "$(fwd_total "$PVP_TMP/a.json" 0 tx_packets)" = $((N - L + D)) ] || fail "tx_packets != N - lost + dup"
[ "$(fwd_total "$PVP_TMP/a.json" 0 rx_dropped)" = "$L" ] || fail "rx_dropped != loss_dropped"
within "$L" 0.01 $N || fail "loss $L of $N is outside the binomial bound of 1%"
within "$D" 0.005 $N || fail "duplicates $D outside the binomial bound of 0.5%"
[ "$R" -gt 0 ] || fail "nothing reordered"

# 2. Seeded: the same seed, the same answer; another seed, another.
impair_run b "loss=1%,dup=0.5%,reorder=0.5%,seed=42"
[ "$(imp b loss_dropped) $(imp b duplicated) $(imp b reordered)" = "$L $D $R" ] ||
    fail "seed 42 twice gave different counts"
cmp -s <($FI runs "$PVP_TMP/a.pcap") <($FI runs "$PVP_TMP/b.pcap") || fail "seed 42 twice lost different packets"
impair_run c "loss=1%,dup=0.5%,reorder=0.5%,seed=43"
[ "$(imp c loss_dropped) $(imp c duplicated) $(imp c reordered)" != "$L $D $R" ] ||
    fail "seeds 42 and 43 gave the same counts"

# 3. Gilbert-Elliott: mean loss p/(p+r), in runs of about 1/r.
impair_run ge "ge_p=0.002,ge_r=0.2,ge_loss=1,seed=5"
ge=$($FI runs "$PVP_TMP/ge.pcap")
bern=$($FI runs "$PVP_TMP/a.pcap")
info "Gilbert-Elliott p 0.002 r 0.2: $ge; Bernoulli 1%: $bern"
[ "$(json_eval "$ge" 'j["lost"]')" = "$(imp ge loss_dropped)" ] || fail "GE: output and counter differ"
json_eval "$ge" '1 if 2.5 <= j["mean_run"] <= 10 else exit(1)' >/dev/null || fail "GE: runs are not bursts: $ge"
json_eval "$bern" '1 if j["mean_run"] < 1.5 else exit(1)' >/dev/null || fail "Bernoulli loss in runs: $bern"
json_eval "$ge" '1 if 0.004 * '$N' <= j["lost"] <= 0.025 * '$N' else exit(1)' >/dev/null ||
    fail "GE: loss far from p/(p+r) = 0.99%: $ge"

# 4. Delay: 1000 packets held 1 s, then all sent.
$FI make "$PVP_TMP/small.pcap" 1000
SOCK=$PVP_TMP/delay.sock
# The monitor starts first and waits for the socket: the hold lasts 1 s from
# the forwarder's start, too short for a wait and a second client under load.
rm -f "$SOCK"
$FI monitor "$SOCK" 1000 10 >"$PVP_TMP/delay.mon" &
MON_PID=$!
T0=$(date +%s.%N)
fwd_start "$PVP_TMP/delay.log" $(fwd_eal_nohuge imp-delay) -l 0 \
    --vdev "net_pcap0,rx_pcap=$PVP_TMP/small.pcap,tx_pcap=$PVP_TMP/delay.pcap" -- \
    --mode impair --impair delay_us=1000000 --impair-ring 1024 --ctl "unix:$SOCK" \
    --idle-sleep 100 --json "$PVP_TMP/delay.json"
wait "$MON_PID" || { cat "$PVP_TMP/delay.log"; fail "delay: monitor failed (no control socket?)"; }
mon=$(cat "$PVP_TMP/delay.mon")
info "delay 1 s: $mon"
fwd_stop "$FWD_PID" || { cat "$PVP_TMP/delay.log"; fail "delay: exit status"; }
json_eval "$mon" '1 if j["held_seen"] else exit(1)' >/dev/null || fail "delay: never saw all 1000 held"
# No packet can have left before 1 s after the forwarder was started.
json_eval "$mon" '1 if j["tx_all_at"] is not None and j["tx_all_at"] - '"$T0"' >= 1.0 else exit(1)' \
    >/dev/null || fail "delay: packets left too early (or never): $mon (started at $T0)"
[ "$(imp delay delayed)" = 1000 ] || fail "delay: delayed != 1000"
[ "$(fwd_total "$PVP_TMP/delay.json" 0 tx_packets)" = 1000 ] || fail "delay: not all sent"

# 5. impair.set at run time, on net_null (packets as fast as it is polled).
SOCK=$PVP_TMP/set.sock
fwd_start "$PVP_TMP/set.log" $(fwd_eal_nohuge imp-set) -l 0 --vdev net_null0 -- \
    --mode impair --impair-ring 1024 --ctl "unix:$SOCK"
fwd_wait_sock "$SOCK" "$FWD_PID" || { cat "$PVP_TMP/set.log"; fail "set: no control socket"; }
$FWD_CTL "$SOCK" impair.set '{"loss": 1}' >/dev/null || fail "impair.set loss 1 refused"
sleep 0.2
s1=$($FWD_CTL "$SOCK" stats.get)
sleep 0.3
s2=$($FWD_CTL "$SOCK" stats.get)
t1=$(json_eval "$s1" 'j["ports"][0]["tx_packets"]') t2=$(json_eval "$s2" 'j["ports"][0]["tx_packets"]')
l1=$(json_eval "$s1" 'j["impair"][0]["loss_dropped"]') l2=$(json_eval "$s2" 'j["impair"][0]["loss_dropped"]')
info "loss 1: tx $t1 -> $t2, loss_dropped $l1 -> $l2"
[ "$t1" = "$t2" ] && [ "$l2" -gt "$l1" ] || fail "loss 1 let packets through"
# A bucket of 0.1 s: a forwarder sharing its CPU loses no tokens while it waits.
$FWD_CTL "$SOCK" impair.set '{"rate_pps": 20000, "burst": 2000}' >/dev/null || fail "impair.set rate refused"
sleep 0.2
s1=$($FWD_CTL "$SOCK" stats.get)
sleep 1
s2=$($FWD_CTL "$SOCK" stats.get)
rate=$($PVP_PY -c 'import json,sys; a,b=json.loads(sys.argv[1]),json.loads(sys.argv[2]); print(round((b["ports"][0]["tx_packets"]-a["ports"][0]["tx_packets"])/((b["tsc"]-a["tsc"])/b["hz"])))' "$s1" "$s2")
info "rate cap 20000 pps: $rate pps sent"
[ "$rate" -ge 19000 ] && [ "$rate" -le 21000 ] || fail "rate cap 20000 pps sent $rate pps"
$FWD_CTL "$SOCK" stats.clear >/dev/null || fail "stats.clear"
got=$($FWD_CTL "$SOCK" impair.get) || fail "impair.get"
json_eval "$got" '1 if j[0]["rate_pps"] == 20000 and j[0]["loss"] == 0 and j[0]["counters"]["loss_dropped"] == 0 else exit(1)' \
    >/dev/null || fail "impair.get after stats.clear: $got"
err=$($FWD_CTL "$SOCK" impair.set '{"port": 5}' 2>&1) && fail "impair.set port 5 accepted"
echo "$err" | grep -q 'impair.set: port 5: the forwarder has 1 ports' || fail "impair.set port 5: $err"
err=$($FWD_CTL "$SOCK" impair.set '{"dup": 2}' 2>&1) && fail "impair.set dup 2 accepted"
echo "$err" | grep -q 'impair.set: dup: must be a number in 0..1' || fail "impair.set dup 2: $err"
fwd_stop "$FWD_PID" || { cat "$PVP_TMP/set.log"; fail "set: exit status"; }

# 6. Without the stage, impair.set says how to get one.
SOCK=$PVP_TMP/io.sock
fwd_start "$PVP_TMP/io.log" $(fwd_eal_nohuge imp-io) -l 0 \
    --vdev "net_pcap0,rx_pcap=$PVP_TMP/small.pcap,tx_pcap=$PVP_TMP/io.pcap" -- \
    --ctl "unix:$SOCK" --idle-sleep 100
fwd_wait_sock "$SOCK" "$FWD_PID" || { cat "$PVP_TMP/io.log"; fail "io: no control socket"; }
err=$($FWD_CTL "$SOCK" impair.set '{"loss": 0.5}' 2>&1) && fail "impair.set without the stage accepted"
echo "$err" | grep -q 'no impairment stage (start pvpkit-fwd with --mode impair or --impair)' ||
    fail "impair.set without the stage: $err"
fwd_stop "$FWD_PID"
info "all impairment checks passed"
