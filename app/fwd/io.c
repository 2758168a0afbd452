/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * io: forward packets untouched; impair: the same loop, every stream given
 * the impairment stage (impair.c), which fwd_tx_burst() hands bursts to.
 */

#include "fwd.h"

static uint16_t
io_fwd(struct fwd_stream *fs)
{
	struct rte_mbuf *pkts[FWD_MAX_BURST];
	uint64_t bytes;
	uint16_t n;

	n = fwd_rx_burst(fs, pkts, &bytes);
	if (n != 0)
		fwd_tx_burst(fs, pkts, n, bytes);
	return n;
}

const struct fwd_engine fwd_io_engine = {
	.name = "io",
	.help = "forward packets untouched",
	.packet_fwd = io_fwd,
};

const struct fwd_engine fwd_impair_engine = {
	.name = "impair",
	.help = "io through the impairment stage (--impair, impair.set)",
	.packet_fwd = io_fwd,
};
