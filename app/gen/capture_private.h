/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What the two sides of pvpkit-gen's captures share: the lcore side and
 * the writer (capture.c) and the control side (capture_ctl.c). The public
 * API is capture.h. Never installed.
 */

#ifndef GEN_CAPTURE_PRIVATE_H
#define GEN_CAPTURE_PRIVATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include <pcap/pcap.h>

#include "capture.h"

#define GEN_CAP_SNAP 9216 /* bytes of a frame kept; a longer one is cut (wirelen says) */

/* A frame on its way from an lcore to the writer. */
struct gen_cap_rec {
	uint64_t tsc;	  /* when the lcore saw it */
	uint64_t index;	  /* its match number in the capture */
	uint32_t gen;	  /* the capture's generation: a record of a removed one is dropped */
	uint16_t slot;	  /* capture slot */
	uint16_t port;	  /* generator port */
	uint8_t dir;	  /* enum gen_cap_dir */
	uint32_t len;	  /* bytes in data */
	uint32_t wirelen; /* the frame's length */
	uint8_t data[];
};

enum gen_cap_state {
	GEN_CAP_FREE = 0, /* slot unused */
	GEN_CAP_ACTIVE,	  /* taking frames */
	GEN_CAP_STOPPED,  /* kept for status and fetch */
};

/* One capture. Lcores read the settings and add to the counters marked so. */
struct gen_cap {
	volatile uint32_t state; /* enum gen_cap_state */
	uint32_t gen;		 /* bumped per start in this slot */
	uint64_t ports[2];	 /* conf.ports */
	/*
	 * Compiled conf.filter, NULL: none. The lcores load it once per
	 * frame; gen_cap_set_filter() swaps it and frees the old one after
	 * a grace period.
	 */
	struct bpf_program *prog;
	uint64_t count;		/* file: frames kept at most, 0: any */
	uint64_t bytes_lim;	/* file: bytes kept at most, 0: any */
	bool to_file;		/* writes dump */
	bool cyclic;		/* buffer drops its head when full */
	volatile uint32_t full; /* fixed buffer full: lcores count, copy nothing */
	/* Lcore counters (atomic adds, several lcores). */
	uint64_t matched;   /* frames through ports and filter */
	uint64_t res_bytes; /* file: bytes of the frames admitted */
	uint64_t over;	    /* matched past a limit */
	uint64_t dropped;   /* ring, pool or memory full */
	/* Writer and control side, under lock. */
	pthread_mutex_t lock;
	uint32_t id;
	double start_ts;
	char filter[256];
	pcap_t *dead;		  /* file: handle of dump */
	pcap_dumper_t *dump;	  /* file */
	uint64_t captured;	  /* stored */
	uint64_t cap_bytes;	  /* their bytes */
	uint64_t fetched;	  /* buffer: handed out */
	uint64_t limit;		  /* buffer: capacity in frames */
	struct gen_cap_pkt **buf; /* buffer: limit entries, a ring */
	uint64_t head;		  /* buffer: oldest entry */
	uint64_t nb;		  /* buffer: entries held */
	uint64_t buf_bytes;	  /* buffer: their bytes */
};

/* An lcore's grace-period counter, on a line of its own. */
struct gen_cap_lc {
	uint64_t seq; /* odd while the lcore reads the captures */
} __rte_cache_aligned;

/* The capture slots; a slot's lock guards its writer and control fields. */
extern struct gen_cap gen_cap_slots[GEN_CAP_MAX];
/* Grace-period counters, per lcore (the last for non-EAL threads). */
extern struct gen_cap_lc gen_cap_lcs[RTE_MAX_LCORE + 1];
/* Records, made with the ring by the first capture. */
extern struct rte_mempool *gen_cap_mp;
/* Records on their way from the lcores to the writer. */
extern struct rte_ring *gen_cap_ring;
/* Set to make the writer return. */
extern volatile bool gen_cap_thr_stop;
extern uint64_t gen_cap_enq;  /* records enqueued (lcores, atomic) */
extern uint64_t gen_cap_done; /* records the writer finished (atomic) */
extern uint64_t gen_cap_mem;  /* bytes of all fetch buffers (atomic) */

/* Take the oldest frame out of @p c's buffer (c->lock held); the caller frees it. */
struct gen_cap_pkt *gen_cap_buf_pop(struct gen_cap *c);
/* The writer thread: stores records until gen_cap_thr_stop. @return NULL. */
void *gen_cap_writer(void *arg);

#endif /* GEN_CAPTURE_PRIVATE_H */
