/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex's get_utilization (what a client's get_util_stats(), the console's
 * "stats -c" / "stats -m" and the TUI's utilization page read): per TX
 * lcore its busy share, newest first, and the ports it sends for; the
 * mempools' objects, free and in all, by object size, all sockets
 * together (the client reads every socket's sizes from the first's).
 * TRex's client indexes the newest sample without checking that one
 * came, so a server without the method crashed trex-console's "stats -c".
 * Samples are taken when the method is called, at most one a second
 * (TRex samples every second whether asked or not).
 */

#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_mempool.h>

#include "trex.h"

/* Samples kept per TX lcore, as TRex's history. */
#define TREX_UTIL_HIST 20

static struct {
	uint64_t tsc;					       /* last sample, 0: none */
	uint64_t busy[GEN_MAX_PORTS * GEN_MAX_TXQ];	       /* cycles_busy then */
	uint32_t n;					       /* samples kept */
	int hist[GEN_MAX_PORTS * GEN_MAX_TXQ][TREX_UTIL_HIST]; /* newest first, % */
} tu;

/* A new sample when a second has passed since the last. */
static void
trex_util_sample(void)
{
	struct gen_ctx *g = trex.g;
	uint64_t now = rte_rdtsc();
	double dt;
	uint16_t t;

	if (tu.tsc != 0 && now - tu.tsc < g->hz)
		return;
	dt = tu.tsc != 0 ? (double)(now - tu.tsc) : 0;
	for (t = 0; t < g->nb_tx; t++) {
		uint64_t busy = __atomic_load_n(&g->tx[t]->cycles_busy, __ATOMIC_RELAXED);

		if (dt > 0) {
			memmove(&tu.hist[t][1], &tu.hist[t][0],
				(TREX_UTIL_HIST - 1) * sizeof(tu.hist[t][0]));
			tu.hist[t][0] = (int)RTE_MIN(100.0, (double)(busy - tu.busy[t]) / dt * 100);
		}
		tu.busy[t] = busy;
	}
	if (dt > 0 && tu.n < TREX_UTIL_HIST)
		tu.n++;
	tu.tsc = now;
}

/* One mempool into the per-socket, per-size counts of @p arg. */
static void
trex_util_pool(struct rte_mempool *mp, void *arg)
{
	json_t *sock = arg, *size;
	json_int_t avail = (json_int_t)rte_mempool_avail_count(mp), all = (json_int_t)mp->size;
	char sz[32];

	snprintf(sz, sizeof(sz), "%ub", mp->elt_size);
	size = json_object_get(sock, sz);
	if (size != NULL) {
		avail += json_integer_value(json_array_get(size, 0));
		all += json_integer_value(json_array_get(size, 1));
	}
	/* An existing size keeps its place: jansson replaces a member where it is. */
	json_object_set_new(sock, sz, json_pack("[I,I]", avail, all));
}

int
trex_m_get_utilization(json_t *p, json_t **res, char *err, size_t err_len)
{
	struct gen_ctx *g = trex.g;
	json_t *cpu = json_array(), *sock = json_object();
	uint32_t i;
	uint16_t t;

	trex_util_sample();
	for (t = 0; t < g->nb_tx; t++) {
		const struct gen_tx_lcore *tl = g->tx[t];
		json_t *h = json_array();
		/* TRex names the ports a core sends for only while they send. */
		int port = trex_port_active(tl->port) ? tl->port : -1;

		/* Never an empty history: the client averages over it. */
		for (i = 0; i < RTE_MAX(tu.n, 1u); i++)
			json_array_append_new(h, json_integer(tu.hist[t][i]));
		json_array_append_new(cpu,
				      json_pack("{s:o,s:[i,i]}", "history", h, "ports", port, -1));
	}
	rte_mempool_walk(trex_util_pool, sock);
	*res = json_pack("{s:o,s:{s:o}}", "cpu", cpu, "mbuf_stats", "cpu-all", sock);
	return 0;
}
