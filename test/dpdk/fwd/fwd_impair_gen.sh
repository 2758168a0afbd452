#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Known answers as the tester sees them, over memif (pvpkit-fwd macswap
# owns the server socket, pvpkit-gen is the client; about 20 s):
# - 0.1 % loss, 0.5 % duplicates and 0.5 % reordering in the guest: the
#   generator's own signature check counts exactly the stage's drops,
#   copies and swaps (lost, dup, ooo), the loss within the binomial bound;
# - latency: the floor first, then a delay D of 50 us, 1 ms and 10 ms set
#   with impair.set between runs: min moves by D within the floor's own
#   spread (p90 - min) plus 200 us. p50, p90 and p99 are printed, not
#   checked: while it holds packets the forwarder polls without sleeping,
#   and on a box of two shared CPUs that delays the generator's receive
#   (10 ms moved p90 by 11.7 ms and p50 by 10.76 ms here, min by 10.015 ms).

. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/fwd/fwd_lib.sh"

need_bin "$PVP_FWD"
need_bin "$PVP_GEN"
need_hugepages 256

N=20000
SOCK=$PVP_TMP/memif.sock
FSOCK=$PVP_TMP/fwd.sock
FLOG=$PVP_TMP/fwd.log
fwd_start "$FLOG" $(pvp_eal impair-fwd) -m 128 -l 0-1 \
    --vdev "net_memif0,role=server,socket=$SOCK" -- \
    --mode macswap --impair loss=0.1%,dup=0.5%,reorder=0.5%,seed=9 --impair-ring 4096 \
    --ctl "unix:$FSOCK" \
    --idle-sleep 50
fpid=$FWD_PID
fwd_wait_sock "$FSOCK" "$fpid" || { cat "$FLOG"; fail "pvpkit-fwd did not start"; }

# gen_run NAME: N signed packets at 20 kpps through the guest; the stream's
# figures in $PVP_TMP/NAME.json.
gen_run() {
    "$PVP_GEN" $(pvp_eal "impair-gen-$1") -m 128 -l 0-1 \
        --vdev "net_memif0,role=client,socket=$SOCK" -- \
        --count $N --rate 20kpps --idle-sleep 50 --drain-ms 500 \
        --json "$PVP_TMP/$1.json" >"$PVP_TMP/$1.log" 2>&1 ||
        { cat "$PVP_TMP/$1.log" "$FLOG"; fail "$1: pvpkit-gen over memif failed"; }
}

# stream NAME EXPR: a python expression on stream 0 "s" of NAME's results.
stream() {
    $PVP_PY -c 'import json,sys; s=json.load(open(sys.argv[1]))["streams"][0]; print(eval(sys.argv[2]))' \
        "$PVP_TMP/$1.json" "$2"
}

gen_run loss
st=$($FWD_CTL "$FSOCK" stats.get) || fail "stats.get"
want=$(json_eval "$st" '"%d %d %d" % (j["impair"][0]["loss_dropped"], j["impair"][0]["duplicated"], j["impair"][0]["reordered"])')
got=$(stream loss '"%d %d %d" % (s["lost"], s["dup"], s["ooo"])')
info "guest stage: dropped duplicated reordered = $want; gen: lost dup ooo = $got"
[ "$got" = "$want" ] || fail "the generator counts $got, the guest did $want"
L=${want%% *}
$PVP_PY -c 'import math,sys; x=int(sys.argv[1]); n=int(sys.argv[2]); p=0.001; sys.exit(0 if abs(x-n*p) <= 4*math.sqrt(n*p*(1-p)) else 1)' \
    "$L" $N || fail "loss $L of $N outside the binomial bound of 0.1%"

# Latency: nothing impaired but the delay; the floor first.
lat() { stream "$1" '" ".join(str(s["latency_ns"][k]) for k in ("min", "p50", "p90", "p99"))'; }
$FWD_CTL "$FSOCK" impair.set '{}' >/dev/null || fail "impair.set {}"
gen_run floor
read -r fmin f50 f90 f99 <<<"$(lat floor)"
info "floor: min $fmin p50 $f50 p90 $f90 p99 $f99 ns"
tol=$((f90 - fmin + 200000))
for d in 50 1000 10000; do
    $FWD_CTL "$FSOCK" impair.set "{\"delay_us\": $d}" >/dev/null || fail "impair.set delay $d"
    gen_run "d$d"
    read -r dmin d50 d90 d99 <<<"$(lat "d$d")"
    info "delay $d us: min $dmin p50 $d50 p90 $d90 p99 $d99 ns (minus D: $((dmin - d * 1000)) $((d50 - d * 1000)) $((d90 - d * 1000)) $((d99 - d * 1000)))"
    for pair in "$fmin $dmin min"; do
        set -- $pair
        shift_by=$(($2 - $1 - d * 1000))
        [ ${shift_by#-} -le $tol ] ||
            fail "delay $d us moved $3 by $(($2 - $1)) ns, expected $((d * 1000)) +- $tol"
    done
    [ "$(stream "d$d" 's["lost"]')" = 0 ] || fail "delay $d us lost packets"
done
fwd_stop "$fpid" || { cat "$FLOG"; fail "pvpkit-fwd exit status"; }
echo PASS
