#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# CSIT's Geneve field engine (eight fields from one var of 65,536 values)
# through pvpkit-gen --trex on a net_pcap port, with and without flow_stats:
# the frames, as tshark decodes them, must hold TRex's values, valid
# checksums and, with flow_stats, the signature at the packet's end
# (trex_geneve.py).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_pcap_test trexgeneve trex_geneve.py -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
    -T fields -e ip.src -e udp.srcport -e geneve.vni -e eth.dst -e ip.checksum.status \
    -e udp.checksum.status -e data.data
echo "PASS"
