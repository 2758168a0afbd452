/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What the parts of the TRex field engine translation share (trex_vm.c:
 * the members' readers, variables, tuples, chains; trex_vm_write.c: the
 * writes; the simulator, trex_vm_sim*.c, whose parser reads the
 * instructions for both). Never installed.
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
/* The variable named @p name, or NULL. */
struct vm_def *trex_vm_find(struct vm_ctx *c, const char *name);
/* Member @p key of @p o as an unsigned integer (@p def < 0: required). */
int trex_vm_uint(struct vm_ctx *c, const json_t *o, const char *key, int64_t def, uint64_t *v);
/* Member @p key of @p o as a signed integer. */
int trex_vm_int(struct vm_ctx *c, const json_t *o, const char *key, int64_t def, int64_t *v);
/* Member @p key of @p o as a string (@p def NULL: required). */
const char *trex_vm_str(struct vm_ctx *c, const json_t *o, const char *key, const char *def);
struct sim;
struct sim_ins;

/*
 * Run TRex's engine (@p ins) packet by packet over one cycle of its state
 * and make c->s's vars TABLE vars of it (s->vm_table), or where the cycle
 * is longer than pvpkit keeps, the closed form when it has one
 * (trex_vm_closed()). @return 0, -EINVAL (c's message set) or -ENOMEM.
 */
int trex_vm_sim(struct vm_ctx *c, const json_t *ins);
/* The closed form of the instructions @p m read from @p ins (trex_vm.c). */
int trex_vm_closed(struct vm_ctx *c, const struct sim *m, const json_t *ins);
/* One write_flow_var or write_mask_flow_var @p x as a lib/pkt var. */
int trex_vm_write(struct vm_ctx *c, const struct sim_ins *x);

#endif /* TREX_VM_PRIVATE_H */
