#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The main job, from a fresh clone on Debian 12, as root: install and
# build (tools/bootstrap.sh), bring the local OVS-DPDK testbed up, search
# NDR and PDR (0.1 % loss) at 64 and 1518 B with 1 and 1000 flows, each
# point 3 times, then latency trials at 0/10/50/90 % of the PDR found (in
# 3 rounds); print the per-hop table of the final trial, the NDR table,
# the repeats' median, min, max and spread and the latency figures;
# write the results (JSONL, summary JSON, CSV, PNG/SVG plots) to a
# results directory, and take the testbed down (on any exit, Ctrl-C
# included).
#
# Usage (as root): tools/quickstart.sh [OPTIONS]
#   --out DIR             results directory (default results/<UTC timestamp>)
#   --build-dir DIR       build directory (default $PVP_BUILD_DIR, else build)
#   --no-bootstrap        skip tools/bootstrap.sh (packages, hugepages)
#   --sizes LIST          frame sizes with FCS (default 64,1518)
#   --flows LIST          flow counts (default 1,1000)
#   --max-rate RATE       search ceiling per port (default 300kpps)
#   --min-rate RATE       search floor (default 10kpps)
#   --width W             relative width goal (default 5%)
#   --initial-duration S  first (short) trials (default 0.5)
#   --final-duration S    final trials (default 2)
#   --max-time S          trial-seconds budget per search (default 24)
#   --repeat N            searches per point (default 3): median, min, max,
#                         spread; also the latency rounds
#   --latency-duration S  per latency trial (default 1)
#   --no-latency          no latency trials
#   --trial-only          one trial instead: --size, --flow-count, --rate,
#                         --duration (defaults 64, 1000, 100kpps, 5)
#   --ports 2             bidirectional PVP: two tester ports, the guest
#                         paired (testbed up --ports 2); rates are per port
#   --guests N            N guests in series (2: PVVP)
#   --chains N            N parallel PVP chains
# Env:   PVP_BUILD_DIR, PVP_TESTBED_RUNDIR (default /run/pvpkit/testbed),
#        PVP_QUICKSTART_SMALL=1: one point (64 B, 1 flow), short trials
#        (what the e2e test runs)
#
# The defaults fit 2 shared cores in about 5 minutes: the
# generator, the OVS PMD and the guest all poll, so the rates this box
# reaches are far below a NIC's (see doc/quickstart.rst).

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${PVP_BUILD_DIR:-$top/build}
out=""
bootstrap=true
trial_only=false
sizes=64,1518
flows=1,1000
max_rate=300kpps
min_rate=10kpps
width=5%
initial=0.5
final=2
max_time=24
repeat=3
latency=true
lat_duration=1
size=64
flow_count=1000
rate=100kpps
duration=5
tb_args=()

if [ "${PVP_QUICKSTART_SMALL:-0}" = 1 ]; then
	sizes=64
	flows=1
	initial=0.25
	final=1
	max_time=12
	lat_duration=0.5
fi

die() { echo "quickstart: error: $*" >&2; exit 1; }
say() { echo "quickstart: $*"; }

while [ $# -gt 0 ]; do
	case "$1" in
	--out | --results) out=${2:?$1 needs a path}; shift 2 ;;
	--build-dir) build_dir=${2:?--build-dir needs a path}; shift 2 ;;
	--no-bootstrap) bootstrap=false; shift ;;
	--sizes) sizes=${2:?--sizes needs a list}; shift 2 ;;
	--flows) flows=${2:?--flows needs a list}; shift 2 ;;
	--max-rate) max_rate=${2:?--max-rate needs a rate}; shift 2 ;;
	--min-rate) min_rate=${2:?--min-rate needs a rate}; shift 2 ;;
	--width) width=${2:?--width needs a value}; shift 2 ;;
	--initial-duration) initial=${2:?--initial-duration needs seconds}; shift 2 ;;
	--final-duration) final=${2:?--final-duration needs seconds}; shift 2 ;;
	--max-time) max_time=${2:?--max-time needs seconds}; shift 2 ;;
	--repeat) repeat=${2:?--repeat needs a count}; shift 2 ;;
	--latency-duration) lat_duration=${2:?--latency-duration needs seconds}; shift 2 ;;
	--no-latency) latency=false; shift ;;
	--trial-only) trial_only=true; shift ;;
	--size) size=${2:?--size needs bytes}; shift 2 ;;
	--flow-count) flow_count=${2:?--flow-count needs a count}; shift 2 ;;
	--rate) rate=${2:?--rate needs a rate}; shift 2 ;;
	--duration) duration=${2:?--duration needs seconds}; shift 2 ;;
	--ports | --guests | --chains)
		tb_args+=("$1" "${2:?$1 needs a number}")
		shift 2
		;;
	-h | --help) sed -n '4,43p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done

[ "$(id -u)" = 0 ] || die "run as root (hugepages, OVS-DPDK, /run/pvpkit): as root, or sudo $0"
t_start=$(date +%s)

if $bootstrap && [ -x "$top/tools/bootstrap.sh" ]; then
	say "bootstrap: packages, hugepages, build into $build_dir"
	"$top/tools/bootstrap.sh" --build-dir "$build_dir"
fi
if [ ! -f "$build_dir/build.ninja" ]; then
	say "meson setup $build_dir"
	meson setup "$build_dir" "$top" >/dev/null
fi
say "ninja -C $build_dir"
ninja -C "$build_dir" >/dev/null || die "build failed (run: ninja -C $build_dir)"

pvpkit=$build_dir/app/pvpkit/pvpkit
[ -x "$pvpkit" ] || die "not built: $pvpkit"
export PVP_BUILD_DIR=$build_dir
export PVP_TESTBED_SCRIPT=$top/tools/testbed.sh

[ -n "$out" ] || out=$top/results/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out"
out=$(cd "$out" && pwd)

tb_down() {
	say "testbed down"
	"$pvpkit" testbed down -q || echo "quickstart: warning: testbed down failed" >&2
}

# A testbed left from an earlier run is taken down first: down is idempotent.
"$pvpkit" testbed down -q >/dev/null 2>&1 || true
trap tb_down EXIT
trap 'exit 130' INT TERM
say "testbed up"
"$pvpkit" testbed up ${tb_args[@]+"${tb_args[@]}"}

if $trial_only; then
	say "trial: $size B, $flow_count flows, $rate for $duration s"
	echo
	"$pvpkit" trial --size "$size" --flows "$flow_count" --rate "$rate" \
		--duration "$duration" --json "$out/trial.json" --results "$out/results.jsonl"
	echo
	say "trial JSON: $out/trial.json; all trials: $out/results.jsonl"
	say "done in $(($(date +%s) - t_start)) s"
	exit 0
fi

lat_args=()
$latency && lat_args=(--latency --latency-duration "$lat_duration")
say "search: NDR and PDR 0.1 % at sizes $sizes x flows $flows, $repeat times each"
say "  rates $min_rate..$max_rate, width $width, trials ${initial} s first," \
	"${final} s final, at most $max_time trial-seconds per search"
$latency && say "  then latency at 0/10/50/90 % of the PDR, $lat_duration s per trial, $repeat rounds"
say "  every trial with its per-hop table: $out/run.log"
# The full log keeps every trial's table; the terminal shows the progress line
# of every trial (point, rate, loss, time left), the searches' results, the
# repeats' summary and the latency figures.
rc=0
"$pvpkit" run --sizes "$sizes" --flows "$flows" --max-rate "$max_rate" \
	--min-rate "$min_rate" --goal ndr --goal pdr=0.1% --width "$width" \
	--initial-duration "$initial" --final-duration "$final" --max-time "$max_time" \
	--repeat "$repeat" ${lat_args[@]+"${lat_args[@]}"} --out "$out" >"$out/run.log" 2>&1 &
run_pid=$!
tail -n +1 --pid=$run_pid -f "$out/run.log" |
	grep --line-buffered -E '^(==|progress:|   [a-z]|-- latency|report: .*csv)' || true
wait $run_pid || rc=$?

echo
say "per-hop table of the final trial:"
awk '/^Trial on /{buf=""; keep=1} keep && /^(--|==|progress:|results:)/{keep=0; last=buf}
	keep{buf=buf $0 "\n"} END{printf "%s", keep ? buf : last}' "$out/run.log"
echo
if [ -f "$out/ndr.csv" ]; then
	say "NDR (pps; rows: flow counts, columns: frame sizes), $out/ndr.csv:"
	sed 's/^/  /' "$out/ndr.csv"
fi
for goal in ndr pdr; do
	[ -f "$out/${goal}_repeats.csv" ] || continue
	echo
	say "${goal^^} over the repeats (pps; spread = (max - min) / median), $out/${goal}_repeats.csv:"
	sed 's/^/  /' "$out/${goal}_repeats.csv"
done
if [ -f "$out/latency.csv" ]; then
	echo
	say "latency (us; load in % of the PDR, 0 % = 1 kpps; $repeat rounds merged), $out/latency.csv:"
	awk -F, 'NR == 1 {print "  size,flows,load_pct,rate_pps,p50_us,p99_us,p99_99_us,max_us"; next}
		/^#/ {next} {printf "  %s,%s,%s,%s,%s,%s,%s,%s\n", $1, $2, $3, $4, $9, $11, $13, $14}' \
		"$out/latency.csv"
fi
echo
say "results in $out:"
(cd "$out" && ls -1 results.jsonl summary.json report.html ./*.csv ./*.png ./*.svg 2>/dev/null |
	sed 's|^\./||; s/^/  /')
[ -f "$out/report.html" ] && say "the page to read and share: $out/report.html"
say "done in $(($(date +%s) - t_start)) s"
[ "$rc" = 0 ] || die "pvpkit run exited with status $rc (see $out/run.log)"
