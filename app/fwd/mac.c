/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/* mac: source = the TX port's MAC, destination = that port's --peer-mac. */

#include <rte_prefetch.h>

#include "fwd.h"

static uint16_t
mac_fwd(struct fwd_stream *fs)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	struct rte_ether_hdr *eth;
	uint64_t bytes;
	uint16_t n, i;

	n = fwd_rx_burst(fs, pkts, &bytes);
	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		if (unlikely(pkts[i]->data_len < sizeof(*eth)))
			continue;
		eth = rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *);
		rte_ether_addr_copy(&fs->tx_dst, &eth->dst_addr);
		rte_ether_addr_copy(&fs->tx_src, &eth->src_addr);
	}
	fwd_tx_burst(fs, pkts, n, bytes);
	return n;
}

const struct fwd_engine fwd_mac_engine = {
	.name = "mac",
	.help = "set source MAC = TX port MAC, destination = --peer-mac",
	.packet_fwd = mac_fwd,
};
