/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What the two halves of the TRex field engine translation share
 * (trex_vm.c: variables, tuples, chains, checksums; trex_vm_write.c:
 * the writes). Never installed.
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
	char next[64];	   /* next_var, "" if none */
	unsigned int size; /* bytes: 1, 2, 4 or 8 */
	enum pvp_var_op op;
	uint64_t min, max; /* after padding */
	uint64_t step;
	uint64_t seed;
	uint64_t period; /* values before it repeats */
	uint64_t limit;	 /* a hard reset of the whole stream after this many, 0: none */
	uint64_t div;	 /* packets per move (set by the chains) */
	bool div_set;
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
/* fix_checksum_ipv4 or fix_checksum_hw (@p type): what it fixes is there. */
int trex_vm_checksum(struct vm_ctx *c, const json_t *in, const char *type);
/*
 * Run TRex's engine (@p ins) packet by packet over one cycle of its state
 * and make c->s's vars TABLE vars of it (s->vm_table). @return 0,
 * -ERANGE when @p need_cycle and the cycle is longer than pvpkit keeps
 * (nothing changed), -EINVAL (c's message set) or -ENOMEM.
 */
int trex_vm_sim(struct vm_ctx *c, const json_t *ins, bool need_cycle);
/* One write_flow_var (or write_mask_flow_var when @p masked) as a lib/pkt var. */
int trex_vm_write(struct vm_ctx *c, const json_t *in, bool masked);

#endif /* TREX_VM_PRIVATE_H */
