#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The pvpkit authors
#
# TRex field engine features without a closed form (value_list, wide and
# right-shifted masks, repeatable random, fix_checksum_icmpv6) through
# pvpkit-gen --trex on a net_pcap port: the frames, as tshark decodes them,
# must hold TRex's sequences of values (trex_fe.py).
. "$PVP_SOURCE_DIR/test/lib/common.sh"
. "$PVP_SOURCE_DIR/test/dpdk/trex/trex_lib.sh"

trex_pcap_test trexfe trex_fe.py -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
    -T fields -e ip.src -e ip.dsfield -e ip.id -e udp.srcport -e udp.dstport \
    -e icmpv6.echo.sequence_number -e icmpv6.checksum.status -e ip.checksum.status \
    -e udp.checksum.status -e data.data
echo "PASS"
