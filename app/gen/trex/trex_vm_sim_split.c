/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex's split_to_cores in the field engine simulator (trex_vm_sim.c):
 * each TX core's share of a stream's variables and random seeds, as
 * TRex's splitter gives it, and every core's packets run and laid out
 * block by block for pvpkit-gen's TX lcores.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trex.h"
#include "trex_vm_private.h"

/* (a * b) mod r without overflow. */
static uint64_t
sim_mulmod(uint64_t a, uint64_t b, uint64_t r)
{
	return (uint64_t)((unsigned __int128)a * b % r);
}

/*
 * The tuple @p x as TRex's splitter gives it to core @p core of @p n
 * (StreamVmInstructionFlowClient::update, on the single-core form its
 * constructor made: an IP step of 1, or of 0 with a wrap for one
 * address): the IP starts @p core steps on and steps n times as far; the
 * port starts as many steps on as the IP wrapped in that phase and steps
 * by the IP's wraps per step (0 while n is below the IP range: the IP's
 * carry then moves it); limit_flows is split as TRex splits limits, each
 * core restarting from its own first IP and port. Core 0 of 1 reads none
 * of x's steps: it makes the single-core form itself (the parser's).
 */
void
trex_sim_split_tuple(struct sim_ins *x, unsigned int core, unsigned int n)
{
	const uint64_t r = x->max - x->min + 1, pr = x->pmax - x->pmin + 1;
	const uint64_t ip_wa = r == 1, port_wa = r == 1 && pr == 1;
	/* TRex keeps the port's phase in 16 bits. */
	const uint16_t port_phase = (uint16_t)(ip_wa * core + core * x->ipstep / r);
	const uint64_t port_mul = n / r;
	bool of;

	x->ipinit = sim_inc_mod(x->min, x->max, x->min, x->ipstep * core % r, &of);
	x->ipstep = n % r;
	x->pinit = sim_inc_mod(x->pmin, x->pmax, x->pmin, port_phase % pr, &of);
	x->pstep = (port_wa * pr + 1) * port_mul % pr;
	/* The bss: one step back from the first packet's values, as TRex's peek_prev. */
	x->init = sim_dec_mod(x->min, x->max, x->ipinit, x->ipstep, &of);
	x->pprev = sim_dec_mod(x->pmin, x->pmax, x->pinit, (x->pstep + (of ? 1 : 0)) % pr, &of);
	if (x->limit != 0)
		x->limit = RTE_MAX(x->limit / n + (core == 0 ? x->limit % n : 0), 1u);
}

/*
 * @p m as TRex's splitter gives it to core @p core of @p n
 * (trex_stl_vm_splitter.cpp, StreamVmInstruction*::update): a variable
 * of split_to_cores starts @p core steps on and steps n times as far, a
 * flow_var_rand_limit's seed and limit are split, and every core seeds
 * its random values with the stream's seed times (core + 1) * 514229; a
 * tuple is split whatever its flags (TRex's need_split() of it is true).
 */
static void
sim_split(struct sim *m, uint32_t seed, unsigned int core, unsigned int n)
{
	unsigned int i;

	m->rnd_seed = seed * ((core + 1) * 514229u);
	for (i = 0; i < m->n; i++) {
		struct sim_ins *x = &m->in[i];
		uint64_t r, first;

		if (x->kind == SIM_TUPLE) {
			trex_sim_split_tuple(x, core, n);
			continue;
		}
		if (!x->split)
			continue;
		if (x->kind == SIM_RLIMIT) {
			x->seed = x->seed * (((core + 1) * 514229u) & UINT32_MAX);
			x->limit = RTE_MAX(x->limit / n + (core == 0 ? x->limit % n : 0), 1u);
			continue;
		}
		if (x->kind != SIM_VAR || x->op == SIM_RAND)
			continue;
		/* A list's range is its index's, [0, n_list - 1]. */
		r = x->max - x->min + 1;
		if (r == 0)
			continue; /* a full 64-bit range: TRex's split of it is not kept */
		/* A list's state is packet 0's index; a range's bss, the value before packet 0's. */
		first = x->list != NULL ? x->init : sim_move(x, x->init, x->step, false);
		first = sim_move(x, first, sim_mulmod(x->step, core, r), false);
		x->step = sim_mulmod(x->step, n, r);
		x->init = x->list != NULL ? first : sim_move(x, first, x->step, true);
	}
}

/*
 * The packets of every TX lcore of the stream's port, as TRex's cores
 * send them (sim_split()), into @p img and @p lens block by block: core
 * q's in packets [q * B, (q + 1) * B), B a whole number of every core's
 * cycle, so pvpkit-gen's split of the flows into one block per TX lcore
 * sends each lcore TRex's core's sequence.
 * @return 0 (*cycle: n * B), -ERANGE when a core's cycle is longer than
 * its share of SIM_MAX_CYCLE (*cycle then holds the shares, repeated),
 * -ENOMEM.
 */
int
trex_sim_cores(const struct sim *m, const struct trex_stream *s, uint8_t *pkt, const uint16_t *fp,
	       uint32_t nfp, uint8_t *img, uint16_t *lens, uint32_t *cycle)
{
	unsigned int n = RTE_MAX(trex.g->opt.tx_cores, 1u), q;
	uint32_t cap, cyc[RTE_MAX_LCORE], block = 1, k, seed;
	uint64_t lcm;
	uint8_t *cimg = NULL;
	uint16_t *clens = NULL;
	struct sim *w;
	bool long_cycle = false;

	n = RTE_MIN(n, (unsigned int)RTE_MAX_LCORE);
	seed = s->random_seed != 0 ? s->random_seed : 1;
	if (n == 1) {
		*cycle = trex_sim_run(m, s, pkt, fp, nfp, img, lens, SIM_MAX_CYCLE);
		if (*cycle != 0)
			return 0;
		*cycle = SIM_MAX_CYCLE;
		return -ERANGE;
	}
	cap = SIM_MAX_CYCLE / n;
	w = malloc(sizeof(*w));
	cimg = malloc((size_t)SIM_MAX_CYCLE * RTE_MAX(nfp, 1u));
	clens = malloc(SIM_MAX_CYCLE * sizeof(*clens));
	if (w == NULL || cimg == NULL || clens == NULL) {
		free(w);
		free(cimg);
		free(clens);
		return -ENOMEM;
	}
	for (q = 0; q < n; q++) {
		*w = *m;
		sim_split(w, seed, q, n);
		cyc[q] = trex_sim_run(w, s, pkt, fp, nfp, cimg + (size_t)q * cap * nfp,
				      clens + (size_t)q * cap, cap);
		if (cyc[q] == 0) {
			long_cycle = true;
			cyc[q] = cap;
		}
		lcm = (uint64_t)block / pvp_gcd64(block, cyc[q]) * cyc[q];
		/* Cycles whose common multiple is over the share: the shares repeat. */
		if (lcm > cap)
			long_cycle = true;
		block = (uint32_t)RTE_MIN(lcm, (uint64_t)cap);
	}
	for (q = 0; q < n; q++)
		for (k = 0; k < block; k++) {
			size_t from = (size_t)q * cap + k % cyc[q];

			memcpy(img + ((size_t)q * block + k) * nfp, cimg + from * nfp, nfp);
			if (lens != NULL)
				lens[(size_t)q * block + k] = clens[from];
		}
	free(w);
	free(cimg);
	free(clens);
	*cycle = n * block;
	return long_cycle ? -ERANGE : 0;
}
