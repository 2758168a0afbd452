/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pvpkit-fwd's ARP / IPv6 neighbour discovery (--addr): a routed vswitch
 * in front of a VM resolves the VM's address before it forwards to it,
 * and the VM must answer. lib/neigh decides; this takes the frames out of
 * the burst before the engine sees them (they are never forwarded, nor
 * counted by --seq-check: neigh_rx has them), turns an answered request
 * into its reply in the same mbuf and sends it back on the RX port by
 * the lcore's own TX queue there, in that queue's counters: the port's TX
 * counters then hold every frame it sent, as its RX counters hold every
 * request. Only streams of --addr ports come here.
 */

#include <string.h>

#include "fwd.h"

uint16_t
fwd_neigh_filter(struct fwd_stream *fs, struct rte_mbuf **pkts, uint16_t n, uint64_t *bytes)
{
	uint8_t out[PVP_NEIGH_FRAME_MAX];
	uint64_t sent = 0, sent_bytes = 0, unsent = 0;
	uint16_t i, kept = 0, len;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		enum pvp_neigh_verdict v;

		len = 0;
		v = pvp_neigh_input(fs->neigh, rte_pktmbuf_mtod(m, const uint8_t *),
				    rte_pktmbuf_data_len(m), out, &len, NULL, &fs->nst);
		if (v == PVP_NEIGH_NONE) {
			pkts[kept++] = m;
			continue;
		}
		*bytes -= m->pkt_len;
		__atomic_store_n(&fs->neigh_rx, fs->neigh_rx + 1, __ATOMIC_RELAXED);
		if (v != PVP_NEIGH_REPLY || m->nb_segs != 1) {
			rte_pktmbuf_free(m);
			continue;
		}
		/* The request's mbuf carries its reply (at most PVP_NEIGH_FRAME_MAX bytes). */
		m->data_off = RTE_MIN((uint16_t)RTE_PKTMBUF_HEADROOM, m->buf_len);
		if ((uint32_t)m->data_off + len > m->buf_len) {
			rte_pktmbuf_free(m);
			continue;
		}
		memcpy(rte_pktmbuf_mtod(m, uint8_t *), out, len);
		m->data_len = len;
		m->pkt_len = len;
		m->ol_flags = 0;
		if (rte_eth_tx_burst(fs->rx_port, fs->tx_queue, &m, 1) == 0) {
			rte_pktmbuf_free(m);
			unsent++;
			continue;
		}
		sent++;
		sent_bytes += len;
	}
	/* A refused reply is a drop of its TX queue, as a forwarded packet's is. */
	if (sent != 0 || unsent != 0)
		pvp_stats_txq_add(fs->neigh_txs, sent, sent_bytes, unsent);
	if (unsent != 0)
		__atomic_store_n(&fs->neigh_unsent, fs->neigh_unsent + unsent, __ATOMIC_RELAXED);
	return kept;
}
