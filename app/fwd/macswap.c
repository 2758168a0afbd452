/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/* macswap: swap source and destination MAC addresses. */

#include <stdbool.h>

#include <rte_prefetch.h>

#include "fwd.h"

/*
 * One burst; with @p seq (a constant once inlined) --seq-check runs in
 * the same loop, on headers the swap brings into the cache anyway,
 * rather than in a pass of its own.
 */
static __rte_always_inline uint16_t
macswap_burst(struct fwd_stream *fs, const bool seq)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	struct fwd_seq_burst sb;
	uint64_t bytes;
	uint16_t n, i;

	n = fwd_rx_burst_nocheck(fs, pkts, &bytes);
	if (n == 0)
		return 0;
	if (seq)
		fwd_seq_begin(&sb, fs->seq);
	for (i = 0; i < n; i++) {
		/* The headers of the next packet load while this one is rewritten. */
		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		if (seq)
			fwd_seq_one(&sb, pkts[i]);
		fwd_macswap_one(pkts[i]);
	}
	if (seq)
		fwd_seq_end(&sb);
	fwd_tx_burst(fs, pkts, n, bytes);
	return n;
}

static uint16_t
macswap_fwd(struct fwd_stream *fs)
{
	if (fs->seq != NULL)
		return macswap_burst(fs, true);
	return macswap_burst(fs, false);
}

const struct fwd_engine fwd_macswap_engine = {
	.name = "macswap",
	.help = "swap source and destination MAC addresses",
	.packet_fwd = macswap_fwd,
};
