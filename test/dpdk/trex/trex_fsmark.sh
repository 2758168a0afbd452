#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# The headers of flow_stats streams as TRex marks them (the TOS/traffic
# class bit, the IPv4 identification or IPv6 flow label of a stats or a
# latency pgid) through pvpkit-gen --trex on a net_pcap port, as tshark
# decodes them (trex_fsmark.py).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_pcap_test trexfsmark trex_fsmark.py -o ip.check_checksum:TRUE -T fields -e udp.srcport \
    -e ip.dsfield -e ip.id -e ip.checksum.status -e ipv6.tclass -e ipv6.flow
echo "PASS"
