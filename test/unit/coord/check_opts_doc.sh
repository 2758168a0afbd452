#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# doc/man/pvpkit.1's COMMON OPTIONS must be what the shared options' table
# says (pvpkit-opts-doc): the rows between its BEGIN and END comments.
# Usage: check_opts_doc.sh MAN GENERATED
man=$1
gen=$2
awk '/^\.\\" END COMMON OPTIONS/ { p = 0 } p { print } /^\.\\" BEGIN COMMON OPTIONS/ { p = 1 }' \
	"$man" | diff -u - "$gen" && exit 0
echo "doc/man/pvpkit.1 COMMON OPTIONS differs from the table: put the output of" \
	"build/app/pvpkit/pvpkit-opts-doc between its BEGIN and END lines"
exit 1
