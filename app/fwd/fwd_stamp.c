/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * --stamp: the guest's receive time after each packet's signature
 * (doc/fwd.rst, "Receive stamps"); fwd_ctl.c's clock.get says whether
 * it is on and what this process's clocks read.
 */

#include <rte_cycles.h>

#include "pvp_sig.h"
#include "fwd.h"

void
fwd_stamp_burst(struct rte_mbuf **pkts, uint16_t n)
{
	/* One reading per burst, as pvpkit-gen stamps its TX bursts. */
	const uint32_t now = (uint32_t)rte_rdtsc();
	uint16_t i;

	for (i = 0; i < n; i++)
		pvp_sig_guest_stamp(pkts[i], now);
}
