#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# Checksums of a field engine in closed form (a cycle longer than the
# tables pvpkit-gen keeps) as TRex leaves them: the ones its fix_checksum_*
# instructions name valid, the others as the packet has them, through
# pvpkit-gen --trex on a net_pcap port, as tshark decodes them (trex_csum.py).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_pcap_test trexcsum trex_csum.py -o ip.check_checksum:TRUE -o tcp.check_checksum:TRUE \
    -T fields -e tcp.srcport -e ip.src -e ip.checksum.status -e tcp.checksum -e tcp.checksum.status
echo "PASS"
