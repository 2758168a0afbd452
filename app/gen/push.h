/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * A pcap file pushed on a port (push.c): its frames sent once or in
 * passes, each at its own time, as TRex's push_remote sends them
 * (trex-core's CGenNodePCAP): a fixed gap, or the file's own gaps
 * divided by a speedup, never under a minimum gap; the port's MACs
 * written over each frame's unless the file's are kept. The TX lcore of
 * the port's queue 0 sends it instead of its streams, from a pool of
 * the port's own; the frames are read, and bad ones refused, before the
 * push starts. Never installed.
 */

#ifndef GEN_PUSH_H
#define GEN_PUSH_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include "gen.h"

/* What to push, and how. */
struct gen_push_conf {
	const char *file;	   /* pcap or pcapng file (libpcap reads it) */
	uint16_t port;		   /* generator port */
	double ipg_us;		   /* fixed gap between frames, < 0: the file's gaps */
	double min_ipg_us;	   /* no gap shorter than this, >= 0 */
	double speedup;		   /* the gaps (fixed or the file's) divided by this, > 0 */
	uint64_t passes;	   /* times the file is sent, 0: until stopped */
	bool src_from_pcap;	   /* keep each frame's source MAC */
	bool dst_from_pcap;	   /* keep each frame's destination MAC */
	struct rte_ether_addr src; /* written over the frames' source MAC otherwise */
	struct rte_ether_addr dst; /* and over their destination MAC */
};

struct gen_push;

/*
 * Read @p c->file and plan the push: every frame must be an Ethernet
 * frame whole in the file and fit the port's MTU (the caller has checked
 * the gaps and the speedup). Returns the push, or NULL with one line in
 * @p err (the file's name, the frame and why).
 */
struct gen_push *gen_push_load(struct gen_ctx *g, const struct gen_push_conf *c, char *err,
			       size_t errlen);

/*
 * Start @p p on its port's queue 0 now; it ends by itself after its
 * passes or at @p stop_tsc (0: none). The port's TX lcores must be idle.
 */
void gen_push_start(struct gen_ctx *g, struct gen_push *p, uint64_t stop_tsc);

/*
 * Take the push off its port once the port's TX lcores are idle (it
 * stays attached, and is not freed, while one is not) and free it.
 * Returns 0, or -EBUSY when it was kept.
 */
int gen_push_end(struct gen_push *p);

/* Frames one pass holds. */
uint32_t gen_push_frames(const struct gen_push *p);

/*
 * Send what of @p p is due at @p now (TX lcore only). Returns false
 * once every pass is sent.
 */
bool gen_push_tx(struct gen_ctx *g, struct gen_tx_lcore *tl, struct gen_push *p, uint64_t now);

#endif /* GEN_PUSH_H */
