#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# trial, search, run and soak --help name every shared option (the rows
# pvpkit-opts-doc writes from cli_opts.c) that the command takes, and
# no other; a row the table gives a command is there once. Besides the
# table's, a command names the shared names it reads its own way
# (below), and those only.
# Usage: check_opts_help.sh PVPKIT GENERATED
pvpkit=$1
gen=$2
nfail=0
bad() { echo "FAIL: $*"; nfail=$((nfail + 1)); }

# Shared names a command reads itself: search and run's lists, soak's
# own --duration and the search options it passes on.
own_trial=""
own_search="size flows"
own_run="flows"
own_soak="duration warmup quiet-timeout"

# "NAME COMMAND..." per row of the table.
rows=$(awk '/^\.BI / { n = $2; gsub(/\\/, "", n); sub(/^--/, "", n) }
	/^Commands:/ { c = $0; sub(/^Commands: /, "", c); gsub(/[,.]/, "", c); print n, c }' "$gen")
[ -n "$rows" ] || { echo "FAIL: no option rows in $gen"; exit 1; }
for cmd in trial search run soak; do
	help=$("$pvpkit" $cmd --help) || bad "$cmd --help: exit $?"
	eval own=\$own_$cmd
	printf '%s\n' "$rows" | {
		n=0
		while read -r name cmds; do
			in_table=0
			for c in $cmds; do [ $c = $cmd ] && in_table=1; done
			takes=$in_table
			for o in $own; do [ $o = $name ] && takes=1; done
			# Named as a word: --rate, not --max-rate nor --rate-x.
			named=$(printf '%s\n' "$help" |
				grep -cE -- "(^|[^a-z-])--$name([^a-z-]|\$)")
			nrows=$(printf '%s\n' "$help" | grep -cE -- "^  --$name ")
			if [ $takes = 1 ] && [ "$named" = 0 ]; then
				echo "FAIL: $cmd takes --$name, its --help does not name it"
				n=$((n + 1))
			elif [ $takes = 0 ] && [ "$named" != 0 ]; then
				echo "FAIL: $cmd does not take --$name, its --help names it"
				n=$((n + 1))
			elif [ $in_table = 1 ] && [ "$nrows" != 1 ]; then
				echo "FAIL: $cmd --help has $nrows rows for --$name, not 1"
				n=$((n + 1))
			fi
		done
		exit $n
	} || nfail=$((nfail + 1))
done
[ $nfail = 0 ] || exit 1
echo "ok: trial, search, run and soak --help name the shared options they take"
