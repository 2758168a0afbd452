/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/* macswap: swap source and destination MAC addresses. */

#include <rte_prefetch.h>

#include "fwd.h"

static uint16_t
macswap_fwd(struct fwd_stream *fs)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	uint64_t bytes;
	uint16_t n, i;

	n = fwd_rx_burst(fs, pkts, &bytes);
	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		/* The headers of the next packet load while this one is rewritten. */
		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		fwd_macswap_one(pkts[i]);
	}
	fwd_tx_burst(fs, pkts, n, bytes);
	return n;
}

const struct fwd_engine fwd_macswap_engine = {
	.name = "macswap",
	.help = "swap source and destination MAC addresses",
	.packet_fwd = macswap_fwd,
};
