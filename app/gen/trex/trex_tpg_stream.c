/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex's tagged packet groups, their streams (doc/trex.rst, "Tagged
 * packet groups"): the checks of add_stream, the TPG header at the
 * frame's end (each frame's, when the field engine trims them), and the
 * seq each (port, tpgid) keeps across loads from the enable to the
 * disable. The context is trex_tpg.c's.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "trex_tpg_private.h"

/* TRex's INVALID_SEQ: the seq of a tpg stream sent with no TPG in force. */
#define TPG_INVALID_SEQ 0x0BADF00Du

int
trex_tpg_stream_check(const struct trex_stream *s, int64_t core, char *err, size_t err_len)
{
	uint32_t i;

	if (core >= 0)
		return pvp_fail(err, err_len, -EOPNOTSUPP,
				"Core ID pinning is not supported for sequenced streams.");
	if (!trex_tpg_on(s->port))
		return pvp_fail(err, err_len, -EPERM,
				"Trying to add a TPG stream but TPG isn't enabled in this port.");
	if (s->pgid >= trex_tpg.num_tpgids)
		return pvp_fail(err, err_len, -ERANGE,
				"Invalid tpgid %u. The maximal tpgid allowed for this port is %d",
				s->pgid, (int)trex_tpg.num_tpgids - 1);
	for (i = 0; i < trex.port[s->port].nb_streams; i++) {
		const struct trex_stream *o = trex.port[s->port].streams[i];

		if (o->tpg && o->pgid == s->pgid)
			return pvp_fail(
				err, err_len, -EEXIST,
				"Tagged Packet Group ID %u already in use. Can't use the same id "
				"for two streams.",
				s->pgid);
	}
	/* TRex sends a tpgid from one core: its seq is one count. */
	if (trex.g->opt.tx_cores != 1)
		return pvp_fail(
			err, err_len, -EOPNOTSUPP,
			"a tpg stream is sent by one TX lcore (TRex sends sequenced streams "
			"from one core): port %u has %u; start pvpkit-gen with --tx-cores 1",
			s->port, trex.g->opt.tx_cores);
	return 0;
}

/* TRex's shortest frame of a variable-length tpg stream: 60 B, then the header. */
#define TPG_VARLEN_MIN (60 + GEN_TPG_HDR_LEN)

/* The shortest frame of a stream of @p flows whose lengths are @p lens. */
static uint16_t
trex_tpg_min_len(const uint16_t *lens, uint64_t flows)
{
	uint16_t m = UINT16_MAX;
	uint64_t f;

	for (f = 0; f < flows; f++)
		m = RTE_MIN(m, lens[f]);
	return m;
}

int
trex_tpg_len_check(const struct trex_stream *s, char *err, size_t err_len)
{
	struct pvp_pkt_layout lay;
	uint32_t payload, need, min;

	if (s->vm_len == NULL || pvp_pkt_parse(s->pkt, s->len, &lay) != 0 || lay.payload_off == 0)
		return 0;
	/*
	 * TRex's TPGStreamMgr::add_stream: the header after the headers, in
	 * each frame. The IP length now holds the first frame's (the field
	 * engine's packet 0), so the payload is the packet's after L4.
	 */
	payload = s->len > lay.payload_off ? s->len - lay.payload_off : 0;
	need = RTE_MAX(s->len - payload + GEN_TPG_HDR_LEN, (uint32_t)TPG_VARLEN_MIN);
	min = trex_tpg_min_len(s->vm_len, s->flows);
	/* -32000 in TRex: a size under its minimum is over a limit, not a bad parameter. */
	if (min < need)
		return pvp_fail(
			err, err_len, -ERANGE,
			"You specified field engine with minimum packet size of %u bytes. For "
			"TPG together with random packet size, minimum packet size should be at "
			"least %u",
			min, need);
	return 0;
}

uint64_t
trex_tpg_bytes(const struct pvp_stream *ps, uint32_t frames)
{
	uint64_t cycle = 0, b = 0, f;

	if (ps->flow_len == NULL)
		return (uint64_t)frames * (ps->tmpl[0].len + RTE_ETHER_CRC_LEN);
	/* The TX lcore sends the lengths in turn from the first (one TX lcore). */
	for (f = 0; f < ps->flows; f++)
		cycle += ps->flow_len[f] + RTE_ETHER_CRC_LEN;
	for (f = 0; f < frames % ps->flows; f++)
		b += ps->flow_len[f] + RTE_ETHER_CRC_LEN;
	return frames / ps->flows * cycle + b;
}

int
trex_tpg_frame(const struct trex_stream *ts, struct pvp_stream *s, char *msg, size_t len)
{
	struct pvp_pkt_layout lay;
	uint32_t hdr[4];
	uint32_t payload;

	if (pvp_pkt_parse(ts->pkt, ts->len, &lay) != 0 || lay.payload_off == 0)
		return pvp_fail(msg, len, -EINVAL,
				"a tpg stream needs an IPv4/IPv6 packet with UDP or TCP");
	payload = lay.l3_end > lay.payload_off ? lay.l3_end - lay.payload_off : 0;
	if (payload < GEN_TPG_HDR_LEN)
		return pvp_fail(
			msg, len, -EINVAL,
			"Need at least %u payload bytes for TPG Payload Header. Packet only "
			"has %u bytes",
			GEN_TPG_HDR_LEN, payload);
	if (s->n_tmpl != 1)
		return pvp_fail(msg, len, -ENOTSUP,
				"a tpg stream of packets of several sizes is not supported by "
				"pvpkit-gen");
	/*
	 * At the frame's end, as TRex writes it: seq 0 here, the TX lcore's on
	 * the wire. A stream added before TPG was disabled still starts in
	 * TRex (its stream manager keeps it), but its cores have no seq for
	 * it: every frame carries INVALID_SEQ and no TX counter moves.
	 */
	hdr[0] = rte_cpu_to_le_32(GEN_TPG_MAGIC);
	hdr[1] = rte_cpu_to_le_32(ts->pgid);
	hdr[2] = trex_tpg_on(ts->port) ? 0 : rte_cpu_to_le_32(TPG_INVALID_SEQ);
	hdr[3] = 0;
	memcpy(s->tmpl[0].data + ts->len - GEN_TPG_HDR_LEN, hdr, sizeof(hdr));
	return 0;
}

void
trex_tpg_save(const struct trex_stream *s)
{
	struct gen_ctx *g = trex.g;
	struct trex_tpg_tx *tx;
	uint16_t i;

	if (!s->tpg || s->ps < 0 || trex_tpg.txc[s->port] == NULL || s->pgid >= trex_tpg.num_tpgids)
		return;
	tx = &trex_tpg.txc[s->port][s->pgid];
	for (i = 0; i < g->nb_ws; i++) {
		const struct gen_wstream *w = g->ws[i];

		if (w->st->ps->id != s->ps)
			continue;
		tx->bytes += trex_tpg_bytes(w->st->ps, w->seq - tx->seq0);
		tx->seq = w->seq;
		tx->seq0 = w->seq;
	}
}

void
trex_tpg_loaded(void)
{
	struct gen_ctx *g = trex.g;
	uint16_t i;

	for (i = 0; i < g->nb_ws; i++) {
		struct gen_wstream *w = g->ws[i];
		const struct trex_stream *s = trex_ws_stream(w);

		if (s == NULL || !s->tpg || !trex_tpg_on(s->port))
			continue;
		/* Variable lengths: where the shortest frame's header starts. */
		if (w->st->var_len)
			w->st->tpg_off =
				(uint16_t)(trex_tpg_min_len(w->st->ps->flow_len, w->st->ps->flows) -
					   GEN_TPG_HDR_LEN);
		else
			w->st->tpg_off = (uint16_t)(s->len - GEN_TPG_HDR_LEN + 8);
		if (trex_tpg.txc[s->port] != NULL && s->pgid < trex_tpg.num_tpgids) {
			w->seq = trex_tpg.txc[s->port][s->pgid].seq;
			trex_tpg.txc[s->port][s->pgid].seq0 = w->seq;
		}
	}
}
