/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Service packets out: "push_pkts" (the client's ARP, IPv6 ND and ICMP
 * services send with it) and the frames a capture port's client writes
 * (trex_capport.c), in order per port, each when its gap is due, through
 * the ring the ARP/ND replies take to the TX lcore of the port's queue 0
 * (neigh.c). The port's addresses and modes are trex_service.c's.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "pvp_util.h"

#include "trex.h"

/* TRex's bounds of a pushed packet (MIN_PKT_SIZE, MAX_PKT_SIZE). */
#define TREX_SVC_PKT_MIN 14
#define TREX_SVC_PKT_MAX PVP_PKT_RAW_MAX_LEN
/* mbufs for pushed packets, all ports: more than a TX ring of replies. */
#define TREX_SVC_POOL 511

static struct rte_mempool *trex_svc_mp;

/*
 * Pushed packets waiting for their time (push_pkts' ipg_usec), in order,
 * as TRex's RX core keeps them in its TX queue: the server thread hands
 * each to the port's ring when it is due (trex_service_tick()).
 */
struct trex_svc_due {
	struct rte_mbuf *m[TREX_SVC_POOL]; /* a circular FIFO */
	uint64_t tsc[TREX_SVC_POOL];	   /* when each is due */
	uint32_t head;			   /* its oldest */
	uint32_t n;			   /* in it */
};
static struct trex_svc_due trex_svc_due[GEN_MAX_PORTS];

/* The pool of pushed packets, made on the first push (its mbufs hold a jumbo frame). */
static int
trex_svc_pool(char *err, size_t err_len)
{
	if (trex_svc_mp != NULL)
		return 0;
	trex_svc_mp = rte_mempool_lookup("trex_svc");
	if (trex_svc_mp == NULL)
		trex_svc_mp = rte_pktmbuf_pool_create("trex_svc", TREX_SVC_POOL, 0, 0,
						      RTE_PKTMBUF_HEADROOM + TREX_SVC_PKT_MAX,
						      SOCKET_ID_ANY);
	if (trex_svc_mp == NULL)
		return pvp_fail(err, err_len, -ENOSPC, "no memory for pushed packets: %s",
				rte_strerror(rte_errno));
	return 0;
}

/* One "pkts" entry checked and decoded into @p b (malloc'd); 0 or -errno with @p err. */
static int
trex_svc_pkt(json_t *x, size_t i, uint8_t **b, uint32_t *len, bool *dst, bool *src, char *err,
	     size_t err_len)
{
	const char *bin;

	if (!json_is_object(x))
		return pvp_fail(err, err_len, -EINVAL, "'pkts[%zu]' must be an object", i);
	if (trex_param_bool(x, "use_port_dst_mac", -1, dst, err, err_len) != 0 ||
	    trex_param_bool(x, "use_port_src_mac", -1, src, err, err_len) != 0 ||
	    (bin = trex_param_str(x, "binary", NULL, err, err_len)) == NULL)
		return -EINVAL;
	*b = trex_b64_decode(bin, len);
	if (*b == NULL)
		return pvp_fail(err, err_len, -EINVAL, "'pkts[%zu]': 'binary' is not base64", i);
	if (*len < TREX_SVC_PKT_MIN || *len > TREX_SVC_PKT_MAX) {
		free(*b);
		return pvp_fail(err, err_len, -ERANGE,
				"Bad packet size provided: %u. Should be between %u and %u", *len,
				TREX_SVC_PKT_MIN, TREX_SVC_PKT_MAX);
	}
	return 0;
}

/* Hand port @p port's due packets to its ring; those the ring refuses wait. */
static void
trex_svc_due_flush(uint16_t port, uint64_t now)
{
	struct trex_svc_due *q = &trex_svc_due[port];

	while (q->n != 0 && q->tsc[q->head] <= now) {
		if (rte_ring_enqueue(trex.g->neigh[port].ring, q->m[q->head]) != 0)
			return;
		q->head = (q->head + 1) % TREX_SVC_POOL;
		q->n--;
	}
}

void
trex_service_tick(void)
{
	uint64_t now = rte_rdtsc();
	uint16_t port;

	for (port = 0; port < trex.g->nb_ports; port++)
		trex_svc_due_flush(port, now);
}

int64_t
trex_service_next_us(void)
{
	uint64_t now = rte_rdtsc(), first = UINT64_MAX;
	uint16_t port;

	for (port = 0; port < trex.g->nb_ports; port++) {
		const struct trex_svc_due *q = &trex_svc_due[port];

		if (q->n != 0 && q->tsc[q->head] < first)
			first = q->tsc[q->head];
	}
	if (first == UINT64_MAX)
		return -1;
	return first <= now ? 0 : (int64_t)((first - now) * 1000000 / trex.g->hz);
}

int
trex_service_send(uint16_t port, const uint8_t *data, uint32_t len)
{
	struct trex_svc_due *q = &trex_svc_due[port];
	struct rte_mbuf *m;
	char msg[128];
	uint64_t now;

	if (len < TREX_SVC_PKT_MIN || len > TREX_SVC_PKT_MAX)
		return -EINVAL;
	if (trex.g->neigh[port].ring == NULL || q->n == TREX_SVC_POOL ||
	    trex_svc_pool(msg, sizeof(msg)) != 0)
		return -ENOBUFS;
	m = rte_pktmbuf_alloc(trex_svc_mp);
	if (m == NULL)
		return -ENOBUFS;
	memcpy(rte_pktmbuf_append(m, (uint16_t)len), data, len);
	/* After any pushed packet still waiting for its gap: one order per port. */
	now = rte_rdtsc();
	q->m[(q->head + q->n) % TREX_SVC_POOL] = m;
	q->tsc[(q->head + q->n) % TREX_SVC_POOL] = now;
	q->n++;
	trex_svc_due_flush(port, now);
	return 0;
}

/*
 * The packets go, in order, through the ring the ARP/ND replies take to
 * the TX lcore of the port's queue 0 (neigh.c), "ipg_usec" apart as
 * TRex's CRxCore::tx_pkts() spaces them: the first now, each next one
 * a gap later, after any still waiting from an earlier push. "sent" is
 * what the port's queue of waiting packets took.
 */
int
trex_m_push_pkts(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct rte_mbuf *m[TREX_SVC_POOL];
	uint8_t *b[TREX_SVC_POOL];
	uint32_t len[TREX_SVC_POOL];
	struct rte_ether_addr port_src, port_dst;
	struct trex_svc_due *q;
	unsigned int sent = 0, k;
	json_t *a, *x;
	uint64_t ipg, now, gap;
	bool resolved;
	size_t i, n;
	int ret;

	if (trex_param_uint(p, "ipg_usec", UINT32_MAX, 0, &ipg, err, err_len) != 0 ||
	    (a = trex_param_array(p, "pkts", err, err_len)) == NULL)
		return -EINVAL;
	n = json_array_size(a);
	if ((double)n * (double)ipg > 1e6)
		return pvp_fail(err, err_len, -EINVAL,
				"TX batch total transmit time exceeds the limit of 1 second");
	if (n > RTE_DIM(m))
		return pvp_fail(err, err_len, -ERANGE, "at most %zu packets a push, got %zu",
				RTE_DIM(m), n);
	resolved = trex_service_macs(port, &port_src, &port_dst);
	/* Every packet checked before one is sent: a bad one sends nothing. */
	json_array_foreach(a, i, x) {
		bool dst, src;

		ret = trex_svc_pkt(x, i, &b[i], &len[i], &dst, &src, err, err_len);
		if (ret != 0)
			goto out;
		if (dst && resolved)
			memcpy(b[i], &port_dst, RTE_ETHER_ADDR_LEN);
		if (src)
			memcpy(b[i] + RTE_ETHER_ADDR_LEN, &port_src, RTE_ETHER_ADDR_LEN);
	}
	if (trex.g->neigh[port].ring == NULL) {
		ret = pvp_fail(err, err_len, -EPERM, "port %u has no TX lcore on its queue 0",
			       port);
		goto out;
	}
	ret = trex_svc_pool(err, err_len);
	if (ret != 0)
		goto out;
	if (n != 0 && rte_pktmbuf_alloc_bulk(trex_svc_mp, m, (unsigned int)n) != 0) {
		ret = pvp_fail(err, err_len, -ENOSPC, "no buffers for %zu packets", n);
		goto out;
	}
	for (k = 0; k < n; k++)
		memcpy(rte_pktmbuf_append(m[k], (uint16_t)len[k]), b[k], len[k]);
	q = &trex_svc_due[port];
	now = rte_rdtsc();
	gap = ipg * trex.g->hz / 1000000;
	for (; sent < n && q->n < TREX_SVC_POOL; sent++, q->n++) {
		q->m[(q->head + q->n) % TREX_SVC_POOL] = m[sent];
		q->tsc[(q->head + q->n) % TREX_SVC_POOL] = now + sent * gap;
	}
	trex_svc_due_flush(port, now);
	if (sent < n)
		rte_pktmbuf_free_bulk(m + sent, (unsigned int)n - sent);
	*res = json_pack("{s:i,s:f}", "sent", sent, "ts", pvp_realtime_s());
	i = n;
out:
	for (k = 0; k < i; k++)
		free(b[k]);
	return ret;
}
