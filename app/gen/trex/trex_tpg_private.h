/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What the parts of the TRex server's tagged packet groups share: the
 * context with its tag table (trex_tpg.c), the streams
 * (trex_tpg_stream.c) and the counters' methods (trex_tpg_stats.c).
 * Never installed.
 */

#ifndef TREX_TPG_PRIVATE_H
#define TREX_TPG_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "trex.h"
#include "../tpg.h"

/* TRex's TPGState, as get_tpg_state answers it. */
enum trex_tpg_state {
	TPG_DISABLED = 0,
	TPG_ENABLED_CP = 1,
	TPG_ENABLED_CP_RX = 2,
	TPG_ENABLED = 3,
	TPG_DISABLED_DP = 4,
	TPG_DISABLED_DP_RX = 5,
};

/* TX counters of one (port, tpgid): frames are its seq; bytes of the loads before. */
struct trex_tpg_tx {
	uint32_t seq;	  /* next seq, while not loaded */
	uint32_t seq0;	  /* seq when the loaded stream took over */
	uint64_t bytes;	  /* bytes (FCS included) sent before that */
	uint64_t base[2]; /* clear_tpg_tx_stats: frames, bytes */
};

/* The TPG context: one user's at a time. */
struct trex_tpg_ctx {
	enum trex_tpg_state state;
	char user[64];		/* whose context, "" when none */
	uint32_t num_tpgids;	/* tpgids 0..num_tpgids-1 */
	uint16_t num_tags;	/* tag ids */
	json_t *tags;		/* [num_tags]: TRex's tag objects, null: invalidated */
	bool tx[GEN_MAX_PORTS]; /* acquired ports: may send tpg streams */
	bool rx[GEN_MAX_PORTS]; /* ports whose frames are counted */
	struct gen_tpg *tbl;	/* the table published in gen.tpg, NULL: none */
	struct gen_tpg_cntr *cnt[GEN_MAX_RX][GEN_MAX_PORTS]; /* RX lcores' counters */
	struct gen_tpg_cntr *base[GEN_MAX_PORTS];	     /* clear baselines, summed */
	struct gen_tpg_unk *unk[GEN_MAX_RX][GEN_MAX_PORTS];  /* RX lcores' unknown tags */
	uint32_t unk_clear[GEN_MAX_PORTS];	/* clear_tpg_unknown_tags calls per port */
	struct trex_tpg_tx *txc[GEN_MAX_PORTS]; /* TX counters, [tpgid] */
};

/* The one TPG context (trex_tpg.c). */
extern struct trex_tpg_ctx trex_tpg;

/* Whether the context is @p user's. */
bool trex_tpg_is(const char *user);

/* Bytes (FCS included) of the first @p frames of @p ps, as its one TX lcore sends them. */
uint64_t trex_tpg_bytes(const struct pvp_stream *ps, uint32_t frames);

/* Whether TPG is in force on @p port: its tpg streams get seqs and TX counters. */
static inline bool
trex_tpg_on(uint16_t port)
{
	return trex_tpg.user[0] != '\0' && trex_tpg.state == TPG_ENABLED && trex_tpg.tx[port];
}

#endif /* TREX_TPG_PRIVATE_H */
