/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What the parts of the TRex field engine translation share: the
 * simulator (trex_vm_sim.c, which runs the instructions packet by packet,
 * with its split_to_cores, trex_vm_sim_split.c), its parser
 * (trex_vm_sim_parse.c), which reads the instructions into struct sim
 * for both, and the closed form (trex_vm.c: variables, tuples, chains,
 * writes). Never installed.
 */

#ifndef TREX_VM_PRIVATE_H
#define TREX_VM_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "trex.h"

/* Most variables (a tuple counts two) one stream may define. */
#define VM_MAX_DEFS 32
/* Most flows a stream may cycle through (lib/pkt's tuple bound). */
#define VM_MAX_FLOWS (UINT64_C(1) << 48)

/* A variable as the instructions define it. */
struct vm_def {
	char name[64];	   /* "x", or "t.ip" / "t.port" of a tuple "t" */
	unsigned int size; /* bytes: 1, 2, 4 or 8 */
	enum pvp_var_op op;
	uint64_t min, max; /* after padding */
	uint64_t step;
	uint64_t seed;
	uint64_t period; /* values before it repeats */
	uint64_t limit;	 /* a hard reset of the whole stream after this many, 0: none */
	uint64_t div;	 /* packets per move (the next_var chains') */
};

struct vm_ctx {
	struct trex_stream *s;
	struct vm_def def[VM_MAX_DEFS];
	unsigned int nb;
	char *msg;
	size_t len;
	unsigned int ins;	       /* index of the instruction being read */
	uint8_t src[PVP_PKT_MAX_VARS]; /* def[] index of each lib/pkt var */
};

/* "vm.instructions[N]: " and the message into c->msg. @return -EINVAL. */
int trex_vm_fail(struct vm_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Largest value of a @p size-byte field. */
uint64_t trex_vm_size_max(unsigned int size);
/* Most instructions one stream may have (TRex's own bound is its bss size). */
#define SIM_MAX_INS 64

/* Packets of one cycle kept at most: 2^18, 1 MiB per written word. */
#define SIM_MAX_CYCLE (UINT32_C(1) << 18)

enum sim_kind {
	SIM_VAR,    /* flow_var: inc, dec or random, range or value_list */
	SIM_RLIMIT, /* flow_var_rand_limit */
	SIM_TUPLE,  /* tuple_flow_var */
	SIM_WRITE,  /* write_flow_var */
	SIM_MASK,   /* write_mask_flow_var */
	SIM_ICMP6,  /* fix_checksum_icmpv6 */
	SIM_CSUM4,  /* fix_checksum_ipv4, without flow_stats */
	SIM_CSUMHW, /* fix_checksum_hw, without flow_stats: what the NIC sends */
	SIM_NOP,    /* checksums lib/pkt keeps (flow_stats streams) */
	SIM_TRIM,   /* trim_pkt_size: the packet cut to its variable's value */
};

enum sim_op { SIM_INC, SIM_DEC, SIM_RAND };

/* One instruction; the state that moves lives in struct sim_state. */
struct sim_ins {
	enum sim_kind kind;
	char name[64];
	char next[64];
	enum sim_op op;
	unsigned int size; /* variable bytes */
	uint64_t min, max; /* range (a list: indices) */
	uint64_t step;	   /* step % range */
	uint64_t step0;	   /* step as given (the closed form's) */
	uint64_t init;	   /* bss value before packet 0, or list index */
	uint64_t *list;	   /* value_list, NULL for a range */
	uint32_t n_list;
	uint32_t skip;				  /* instructions a non-wrapping variable skips */
	bool has_prev;				  /* moved by the variable before it */
	uint64_t limit;				  /* rand_limit / tuple limit_flows */
	uint64_t seed;				  /* rand_limit seed */
	uint64_t pmin, pmax, pinit, pprev, pstep; /* tuple port */
	uint64_t ipstep;    /* tuple IP step (0 when the range is one address) */
	uint64_t ipinit;    /* tuple IP after a limit_flows restart (its core's first) */
	unsigned int var;   /* writes: instruction index of the variable */
	unsigned int field; /* writes: 0 (a tuple's ip), 1 a tuple's port, 2 its flow_limit */
	uint64_t off;	    /* writes: packet offset; icmpv6: l2_len */
	uint64_t l3;	    /* icmpv6, hw: l3_len */
	uint64_t l4;	    /* hw: l4_type */
	int64_t add;
	bool be;
	unsigned int cast; /* masked: packet bytes */
	uint32_t mask;
	int shift;
	bool trimmed; /* flow_var: a trim_pkt_size names it (TRex's range fixed up) */
	bool split;   /* split_to_cores: TRex's cores share the values */
};

/* A stream's program: its instructions and TRex's seed for its random values. */
struct sim {
	struct vm_ctx *c;  /* the original's ctx: each core's copy shares it */
	struct vm_ctx ctx; /* the stream, the message, the closed form's variables */
	struct sim_ins in[SIM_MAX_INS];
	unsigned int n;
	uint32_t rnd_seed;
	int trim; /* the trim_pkt_size instruction, -1: none */
};

/* TRex's inc_mod_of: @p c up by @p step within [a, b], *of when it wrapped. */
static inline uint64_t
sim_inc_mod(uint64_t a, uint64_t b, uint64_t c, uint64_t step, bool *of)
{
	*of = step > b - c;
	return *of ? a + (step - (b - c) - 1) : c + step;
}

/* TRex's dec_mod_of: @p c down by @p step within [a, b], *of when it wrapped. */
static inline uint64_t
sim_dec_mod(uint64_t a, uint64_t b, uint64_t c, uint64_t step, bool *of)
{
	*of = step > c - a;
	return *of ? b - (step - (c - a) - 1) : c - step;
}

/* @p c moved by @p step within @p x's range, as its op moves it (or the other way: @p back). */
static inline uint64_t
sim_move(const struct sim_ins *x, uint64_t c, uint64_t step, bool back)
{
	bool of;

	if ((x->op == SIM_INC) != back)
		return sim_inc_mod(x->min, x->max, c, step, &of);
	return sim_dec_mod(x->min, x->max, c, step, &of);
}

/*
 * Read the instructions @p ins into @p m (m->c set), checked as TRex's
 * add_stream checks them, each write tied to its variable and the
 * next_var chains resolved. @return 0 or -errno, the message in m->c;
 * the value lists of m->in[0 .. m->n - 1] are the caller's to free, even
 * on failure.
 */
int trex_vm_sim_parse(struct sim *m, const json_t *ins);

/*
 * One core's packets: run @p m from its start until the state after
 * packet 0 comes back (the cycle), at most @p cap packets, the footprint
 * bytes of each into @p img and its length into @p lens (when not NULL).
 * @return the cycle, 0 when longer than @p cap.
 */
uint32_t trex_sim_run(const struct sim *m, const struct trex_stream *s, uint8_t *pkt,
		      const uint16_t *fp, uint32_t nfp, uint8_t *img, uint16_t *lens, uint32_t cap);

/* Tuple @p x as TRex gives it to core @p core of @p n (trex_vm_sim_split.c). */
void trex_sim_split_tuple(struct sim_ins *x, unsigned int core, unsigned int n);

/*
 * Every TX lcore's packets of @p m, as TRex's cores send them
 * (trex_vm_sim_split.c). @return 0 (*cycle: the packets of all blocks),
 * -ERANGE when a core's cycle is too long, -ENOMEM.
 */
int trex_sim_cores(const struct sim *m, const struct trex_stream *s, uint8_t *pkt,
		   const uint16_t *fp, uint32_t nfp, uint8_t *img, uint16_t *lens, uint32_t *cycle);

/* The closed form of the instructions @p m read from @p ins (trex_vm.c). */
int trex_vm_closed(struct vm_ctx *c, const struct sim *m, const json_t *ins);

#endif /* TREX_VM_PRIVATE_H */
