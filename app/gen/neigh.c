/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * ARP and IPv6 neighbour discovery of pvpkit-gen's ports (--addr, --l3),
 * lib/neigh's responder wired to the RX engine. Its hook sees only the
 * frames without a signature, so signed traffic is checked exactly as
 * before; ARP/ND frames are counted in neigh_rx, never in unsigned_rx.
 * Replies go through a ring to the TX lcore of the port's queue 0, which
 * sends them between its bursts: a TX queue is one lcore's alone, and an
 * extra queue for them would not reach the peer on devices whose queues
 * come in pairs (memif, virtio). They come from a small pool of their
 * own, at most GEN_NEIGH_REPLY_PPS per RX lcore: a flood of requests
 * costs replies, never traffic or counts. Gateways are resolved before
 * the lcores start, by the main thread, which owns every queue then.
 * After that the RX lcores follow the gateway: an ARP reply or
 * gratuitous ARP, or a neighbour advertisement, from the gateway's
 * address with another MAC is its new MAC (RFC 826's merge, RFC 4861
 * 7.2.5's override), counted, and the TX lcores write it into the next
 * burst's frames: traffic never stops for it. Nothing asks again
 * periodically: a router whose MAC changes announces it, and an unasked
 * probe would be traffic of its own on the DUT's link.
 */

#include <arpa/inet.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "pvp_util.h"

#include "gen.h"

/* Replies an RX lcore sends per second at most, and in a row. */
#define GEN_NEIGH_REPLY_PPS   50000
#define GEN_NEIGH_REPLY_BURST 256
/* mbufs of a port's reply pool: a full ring, a full TX queue's worth more. */
#define GEN_NEIGH_RING 1024
#define GEN_NEIGH_POOL 4095

/* Port @p p's gateway MAC now, as text. */
static void
gen_neigh_gw_mac_str(const struct gen_ctx *g, uint16_t p, char *buf, size_t len)
{
	uint64_t w = __atomic_load_n(&g->neigh[p].gw_mac, __ATOMIC_RELAXED);
	struct rte_ether_addr mac;

	memcpy(&mac, &w, RTE_ETHER_ADDR_LEN);
	rte_ether_format_addr(buf, (uint16_t)len, &mac);
}

/* The address a port's gateway is, as text, for messages. */
static const char *
gen_neigh_gw_str(const struct pvp_neigh_cfg *c, char *buf, size_t len)
{
	if (c->gw4 != 0)
		return pvp_ipv4_format(c->gw4, buf, len);
	return inet_ntop(AF_INET6, c->gw6, buf, (socklen_t)len);
}

int
gen_neigh_setup(struct gen_ctx *g, char *err, size_t errlen)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	uint16_t p;

	for (p = g->nb_ports; p < GEN_MAX_PORTS; p++) {
		if (g->opt.addr_set[p])
			return pvp_fail(err, errlen, -EINVAL,
					"--addr %u: there is no port %u (%u port(s))", p, p,
					g->nb_ports);
	}
	for (p = 0; p < g->nb_ports; p++) {
		g->opt.addr[p].mac = g->port[p].mac;
		/* Under --trex a client may give any port addresses later (set_l3). */
		if (!g->opt.addr_set[p] && g->opt.trex == NULL)
			continue;
		snprintf(name, sizeof(name), "gen_neigh%u", p);
		g->neigh[p].mp = rte_mempool_lookup(name);
		if (g->neigh[p].mp == NULL)
			g->neigh[p].mp =
				rte_pktmbuf_pool_create(name, GEN_NEIGH_POOL, 64, 0,
							RTE_PKTMBUF_HEADROOM + PVP_NEIGH_FRAME_MAX,
							rte_eth_dev_socket_id(g->port[p].eth_port));
		snprintf(name, sizeof(name), "gen_neigh_r%u", p);
		/* Any RX lcore enqueues, the one TX lcore dequeues. */
		if (g->neigh[p].mp != NULL)
			g->neigh[p].ring = rte_ring_create(
				name, GEN_NEIGH_RING, rte_eth_dev_socket_id(g->port[p].eth_port),
				RING_F_SC_DEQ);
		if (g->neigh[p].ring == NULL)
			return pvp_fail(err, errlen, -ENOMEM,
					"port %u: no memory for ARP/ND replies: %s", p,
					rte_strerror(rte_errno));
		g->neigh[p].tl = gen_tx_of(g, p, 0);
		g->neigh[p].tl->svc = g->neigh[p].ring;
	}
	return 0;
}

/* @p len bytes of @p frame in an mbuf of port @p p's pool, or NULL. */
static struct rte_mbuf *
gen_neigh_mbuf(struct gen_ctx *g, uint16_t p, const uint8_t *frame, uint16_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(g->neigh[p].mp);
	char *d;

	if (m == NULL)
		return NULL;
	/* Room for PVP_NEIGH_FRAME_MAX: an echo reply is as long as its request. */
	d = rte_pktmbuf_append(m, len);
	if (d == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memcpy(d, frame, len);
	return m;
}

/* Queue @p frame for the TX lcore of port @p p's queue 0; false if not queued. */
static bool
gen_neigh_queue(struct gen_ctx *g, uint16_t p, const uint8_t *frame, uint16_t len)
{
	struct rte_mbuf *m;

	/* A port without --addr (and no --trex) has no ring: unanswered. */
	if (g->neigh[p].ring == NULL)
		return false;
	m = gen_neigh_mbuf(g, p, frame, len);
	if (m == NULL)
		return false;
	if (rte_ring_enqueue(g->neigh[p].ring, m) == 0)
		return true;
	rte_pktmbuf_free(m);
	return false;
}

/* Send @p frame on port @p p's queue 0 before the TX lcores run (the resolver's). */
static void
gen_neigh_send_now(struct gen_ctx *g, uint16_t p, const uint8_t *frame, uint16_t len)
{
	struct rte_mbuf *m = gen_neigh_mbuf(g, p, frame, len);

	if (m != NULL && rte_eth_tx_burst(g->port[p].eth_port, 0, &m, 1) == 0)
		rte_pktmbuf_free(m);
}

void
gen_neigh_tx(struct gen_tx_lcore *tl)
{
	struct rte_mbuf *m[GEN_BURST];
	uint64_t bytes = 0, upto[GEN_BURST];
	unsigned int n, i;
	uint16_t sent;

	n = rte_ring_dequeue_burst(tl->svc, (void **)m, GEN_BURST, NULL);
	if (n == 0)
		return;
	/* Lengths first: a sent mbuf is the driver's (memif frees it at once). */
	for (i = 0; i < n; i++) {
		bytes += m[i]->pkt_len;
		upto[i] = bytes;
	}
	sent = rte_eth_tx_burst(tl->eth_port, tl->queue, m, (uint16_t)n);
	/* Frames on the wire are in the port's counters, as those received
	 * are: "tx" says how many of them are ARP/ND (the link's, no trial's). */
	if (sent != 0)
		pvp_stats_txq_add(tl->stq, sent, upto[sent - 1], 0);
	__atomic_store_n(&tl->svc_sent, tl->svc_sent + sent, __ATOMIC_RELAXED);
	if (sent < n) {
		rte_pktmbuf_free_bulk(m + sent, n - sent);
		__atomic_store_n(&tl->svc_unsent, tl->svc_unsent + n - sent, __ATOMIC_RELAXED);
	}
}

/* Whether the reply limit of @p rl allows one more now (token bucket). */
static bool
gen_neigh_allow(struct gen_ctx *g, struct gen_rx_lcore *rl)
{
	uint64_t now = rte_rdtsc(), add;

	/* A second or more since the last refill fills the bucket (and keeps
	 * the product below 2^64 whatever the TSC reads). */
	add = now - rl->lim_tsc >= g->hz ? GEN_NEIGH_REPLY_BURST
					 : (now - rl->lim_tsc) * GEN_NEIGH_REPLY_PPS / g->hz;
	if (add != 0) {
		rl->lim_tokens =
			(uint32_t)RTE_MIN((uint64_t)GEN_NEIGH_REPLY_BURST, rl->lim_tokens + add);
		rl->lim_tsc = now;
	}
	if (rl->lim_tokens == 0)
		return false;
	rl->lim_tokens--;
	return true;
}

bool
gen_neigh_rx(struct gen_ctx *g, struct gen_rx_lcore *rl, uint16_t port, struct rte_mbuf *m)
{
	uint8_t out[PVP_NEIGH_FRAME_MAX];
	const struct pvp_neigh_cfg *c = &g->opt.addr[port];
	struct pvp_neigh_peer peer;
	enum pvp_neigh_verdict v;
	uint16_t len = 0;
	uint64_t mac;

	/* A gateway is followed only once resolved: before, the main
	 * thread's poll learns it. */
	v = pvp_neigh_input(c, rte_pktmbuf_mtod(m, const uint8_t *), rte_pktmbuf_data_len(m), out,
			    &len, g->neigh[port].resolved ? &peer : NULL, &rl->nst[port]);
	if (v == PVP_NEIGH_NONE)
		return false;
	if (v == PVP_NEIGH_LEARNT && (c->gw4 != 0) == (peer.family == AF_INET)) {
		mac = gen_mac_word(&peer.mac);
		if (mac != __atomic_load_n(&g->neigh[port].gw_mac, __ATOMIC_RELAXED)) {
			__atomic_store_n(&g->neigh[port].gw_mac, mac, __ATOMIC_RELAXED);
			__atomic_store_n(&rl->gw_changed[port], rl->gw_changed[port] + 1,
					 __ATOMIC_RELAXED);
		}
	}
	if (v == PVP_NEIGH_REPLY && g->neigh[port].stopped)
		__atomic_store_n(&rl->silenced[port], rl->silenced[port] + 1, __ATOMIC_RELAXED);
	else if (v == PVP_NEIGH_REPLY &&
		 !(gen_neigh_allow(g, rl) && gen_neigh_queue(g, port, out, len)))
		__atomic_store_n(&rl->unanswered[port], rl->unanswered[port] + 1, __ATOMIC_RELAXED);
	return true;
}

void
gen_neigh_service(struct gen_ctx *g, struct gen_rx_lcore *rl)
{
	uint8_t out[PVP_NEIGH_FRAME_MAX];
	uint64_t now;
	uint16_t p, len;

	/* One lcore announces: every RX lcore would multiply the rate. */
	if (rl->queue != 0)
		return;
	now = 0;
	for (p = 0; p < g->nb_ports; p++) {
		const struct pvp_neigh_cfg *c = &g->opt.addr[p];

		if (!g->opt.addr_set[p] || c->announce_ms == 0 || g->neigh[p].stopped)
			continue;
		if (now == 0)
			now = rte_rdtsc();
		if (now < rl->ann_next[p])
			continue;
		rl->ann_next[p] = now + gen_ns_to_tsc((uint64_t)c->announce_ms * 1000000, g->hz);
		len = pvp_neigh_garp(c, out);
		if (len != 0 && gen_neigh_queue(g, p, out, len))
			__atomic_store_n(&rl->announced[p], rl->announced[p] + 1, __ATOMIC_RELAXED);
		len = pvp_neigh_unsolicited_na(c, out);
		if (len != 0 && gen_neigh_queue(g, p, out, len))
			__atomic_store_n(&rl->announced[p], rl->announced[p] + 1, __ATOMIC_RELAXED);
	}
}

/* Ask for every gateway not resolved yet; how many are left. */
static unsigned int
gen_neigh_ask(struct gen_ctx *g)
{
	uint8_t out[PVP_NEIGH_FRAME_MAX];
	unsigned int left = 0;
	uint16_t p, len;

	for (p = 0; p < g->nb_ports; p++) {
		const struct pvp_neigh_cfg *c = &g->opt.addr[p];

		if (!g->opt.addr_set[p] || g->neigh[p].resolved || (c->gw4 == 0 && !c->has_gw6))
			continue;
		len = c->gw4 != 0 ? pvp_neigh_arp_request(c, c->gw4, out)
				  : pvp_neigh_ns(c, c->gw6, out);
		/* A request the queue refuses is one of the tries. */
		gen_neigh_send_now(g, p, out, len);
		left++;
	}
	return left;
}

/* Poll every RX queue once before the lcores run: answer, learn, drop the rest. */
static void
gen_neigh_poll(struct gen_ctx *g, struct pvp_neigh_stats *st)
{
	uint8_t out[PVP_NEIGH_FRAME_MAX];
	struct rte_mbuf *pkts[GEN_BURST];
	struct pvp_neigh_peer peer;
	uint16_t p, q, n, i, len;

	for (p = 0; p < g->nb_ports; p++) {
		const struct pvp_neigh_cfg *c = &g->opt.addr[p];

		for (q = 0; q < g->rx.nb; q++) {
			n = rte_eth_rx_burst(g->port[p].eth_port, q, pkts, GEN_BURST);
			for (i = 0; i < n; i++) {
				enum pvp_neigh_verdict v;

				len = 0;
				v = pvp_neigh_input(c, rte_pktmbuf_mtod(pkts[i], const uint8_t *),
						    rte_pktmbuf_data_len(pkts[i]), out, &len, &peer,
						    st);
				if (v == PVP_NEIGH_REPLY && g->opt.addr_set[p])
					gen_neigh_send_now(g, p, out, len);
				/* The gateway resolved is the one the port asks for. */
				if (v == PVP_NEIGH_LEARNT && !g->neigh[p].resolved &&
				    (c->gw4 != 0) == (peer.family == AF_INET)) {
					g->neigh[p].gw_mac = gen_mac_word(&peer.mac);
					g->neigh[p].resolved = true;
				}
			}
			rte_pktmbuf_free_bulk(pkts, n);
		}
	}
}

int
gen_neigh_resolve(struct gen_ctx *g, char *err, size_t errlen)
{
	uint64_t wait = (uint64_t)(g->opt.resolve_wait_s * (double)g->hz), deadline;
	struct pvp_neigh_stats st;
	char ip[INET6_ADDRSTRLEN], mac[RTE_ETHER_ADDR_FMT_SIZE], vlan[16];
	uint32_t t;
	uint16_t p;

	if (!g->opt.l3)
		return 0;
	memset(&st, 0, sizeof(st));
	for (t = 0; t < g->opt.resolve_tries && gen_neigh_ask(g) != 0; t++) {
		deadline = rte_rdtsc() + wait;
		while (rte_rdtsc() < deadline) {
			gen_neigh_poll(g, &st);
			usleep(100);
		}
	}
	for (p = 0; p < g->nb_ports; p++) {
		const struct pvp_neigh_cfg *c = &g->opt.addr[p];

		if (!g->opt.addr_set[p] || (c->gw4 == 0 && !c->has_gw6))
			continue;
		gen_neigh_gw_str(c, ip, sizeof(ip));
		if (!g->neigh[p].resolved)
			return pvp_fail(err, errlen, -EHOSTUNREACH,
					"--l3: port %u: gateway %s did not answer %u %s in %.1f s "
					"(is it on the link, on VLAN %s?)",
					p, ip, g->opt.resolve_tries,
					c->gw4 != 0 ? "ARP requests" : "neighbour solicitations",
					g->opt.resolve_tries * g->opt.resolve_wait_s,
					pvp_neigh_vlan_format(c, vlan, sizeof(vlan)));
		gen_neigh_gw_mac_str(g, p, mac, sizeof(mac));
		GEN_LOG(NOTICE, "port %u: gateway %s is at %s", p, ip, mac);
	}
	return 0;
}

void
gen_neigh_apply(const struct gen_ctx *g, struct pvp_profile *p)
{
	uint64_t gw;
	uint32_t s, i;

	if (!g->opt.l3)
		return;
	for (s = 0; s < p->n_streams; s++) {
		uint16_t port = p->streams[s].port;

		if (port >= g->nb_ports || !g->neigh[port].resolved)
			continue;
		/* Its MAC now: the gateway may have announced another. */
		gw = __atomic_load_n(&g->neigh[port].gw_mac, __ATOMIC_RELAXED);
		for (i = 0; i < p->streams[s].n_tmpl; i++) {
			uint8_t *d = p->streams[s].tmpl[i].data;

			memcpy(d, &gw, RTE_ETHER_ADDR_LEN);
			memcpy(d + RTE_ETHER_ADDR_LEN, &g->port[port].mac, RTE_ETHER_ADDR_LEN);
		}
	}
}

json_t *
gen_neigh_json(const struct gen_ctx *g)
{
	json_t *arr = json_array();
	char ip[INET6_ADDRSTRLEN], ip6[INET6_ADDRSTRLEN], gw[INET6_ADDRSTRLEN];
	char mac[RTE_ETHER_ADDR_FMT_SIZE];
	uint16_t p, k;

	for (p = 0; p < g->nb_ports; p++) {
		const struct pvp_neigh_cfg *c = &g->opt.addr[p];
		bool res = g->neigh[p].resolved;
		struct pvp_neigh_stats sum;
		uint64_t unanswered = 0, announced = 0, silenced = 0, tx = 0, changed = 0;
		json_t *o;

		memset(&sum, 0, sizeof(sum));
		for (k = 0; k < g->rx.nb; k++) {
			const struct gen_rx_lcore *rl = g->rx.rl[k];

			/* Torn reads of live counters are off by a frame at most. */
#define GEN_NEIGH_ADD(name, help) sum.name += rl->nst[p].name;
			PVP_NEIGH_COUNTERS(GEN_NEIGH_ADD)
#undef GEN_NEIGH_ADD
			unanswered += __atomic_load_n(&rl->unanswered[p], __ATOMIC_RELAXED);
			announced += __atomic_load_n(&rl->announced[p], __ATOMIC_RELAXED);
			silenced += __atomic_load_n(&rl->silenced[p], __ATOMIC_RELAXED);
			changed += __atomic_load_n(&rl->gw_changed[p], __ATOMIC_RELAXED);
		}
		/* Queued, then refused by a full TX queue: not answered either. */
		if (g->neigh[p].tl != NULL) {
			unanswered +=
				__atomic_load_n(&g->neigh[p].tl->svc_unsent, __ATOMIC_RELAXED);
			tx = __atomic_load_n(&g->neigh[p].tl->svc_sent, __ATOMIC_RELAXED) -
			     g->neigh[p].tx_zero;
		}
		gen_neigh_gw_mac_str(g, p, mac, sizeof(mac));
		/*
		 * "*": what the port has not (an address, a tag, a gateway, one
		 * resolved) is left out. The outer (or only) tag keeps its place;
		 * QinQ's inner one is beside it.
		 */
		o = json_pack(
			"{s:i,s:s*,s:s*,s:o*,s:o*,s:s*,s:s*,s:o*}", "port", p, "ip",
			c->ip4 != 0 ? pvp_ipv4_format(c->ip4, ip, sizeof(ip)) : NULL, "ip6",
			c->has_ip6 ? inet_ntop(AF_INET6, c->ip6, ip6, sizeof(ip6)) : NULL, "vlan",
			c->vlan[0] != 0 ? json_integer(c->vlan[0]) : NULL, "vlan_inner",
			c->vlan[1] != 0 ? json_integer(c->vlan[1]) : NULL, "gateway",
			c->gw4 != 0 || c->has_gw6 ? gen_neigh_gw_str(c, gw, sizeof(gw)) : NULL,
			"gateway_mac", res ? mac : NULL, "gateway_changes",
			res ? json_integer((json_int_t)changed) : NULL);
#define GEN_NEIGH_JSON(name, help)                                                                 \
	json_object_set_new(o, #name, json_integer((json_int_t)sum.name));
		PVP_NEIGH_COUNTERS(GEN_NEIGH_JSON)
#undef GEN_NEIGH_JSON
		json_object_update_new(
			o, json_pack("{s:I,s:I,s:I,s:I,s:b}", "unanswered", (json_int_t)unanswered,
				     "announced", (json_int_t)announced, "silenced",
				     (json_int_t)silenced, "tx", (json_int_t)tx, "responder",
				     g->opt.addr_set[p] && !g->neigh[p].stopped));
		json_array_append_new(arr, o);
	}
	return arr;
}

void
gen_neigh_print(const struct gen_ctx *g, FILE *f)
{
	json_t *arr = gen_neigh_json(g), *o;
	size_t i;

	json_array_foreach(arr, i, o) {
		json_int_t arp = 0, arp_ans = 0, nd = 0, ns_ans = 0, echo = 0, echo_ans = 0;
		json_int_t ign = 0, ann = 0, un = 0, changes = 0;
		const char *gw = NULL, *gw_mac = NULL;

		if (!g->opt.addr_set[i])
			continue;
		json_unpack(o, "{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s?s,s?s,s?I}", "arp_rx", &arp,
			    "arp_answered", &arp_ans, "nd_rx", &nd, "ns_answered", &ns_ans, "echo",
			    &echo, "echo_answered", &echo_ans, "ignored", &ign, "announced", &ann,
			    "unanswered", &un, "gateway", &gw, "gateway_mac", &gw_mac,
			    "gateway_changes", &changes);
		fprintf(f,
			"neigh port %zu: ARP %" JSON_INTEGER_FORMAT " in (%" JSON_INTEGER_FORMAT
			" for us), ND %" JSON_INTEGER_FORMAT " in (%" JSON_INTEGER_FORMAT
			" for us), echo %" JSON_INTEGER_FORMAT " in (%" JSON_INTEGER_FORMAT
			" answered), %" JSON_INTEGER_FORMAT " ignored, %" JSON_INTEGER_FORMAT
			" announced, %" JSON_INTEGER_FORMAT " replies not sent%s",
			i, arp, arp_ans, nd, ns_ans, echo, echo_ans, ign, ann, un,
			un != 0 ? " (over " RTE_STR(
					  GEN_NEIGH_REPLY_PPS) " a second per RX lcore or a full "
							       "TX queue: a flood?)"
				: "");
		/* --l3: where the traffic goes now, and how often that changed. */
		if (gw_mac != NULL)
			fprintf(f, "; gateway %s at %s (%" JSON_INTEGER_FORMAT " change%s)", gw,
				gw_mac, changes, changes == 1 ? "" : "s");
		fputc('\n', f);
	}
	json_decref(arr);
}

int
gen_neigh_set(struct gen_ctx *g, uint16_t port, bool responder, char *err, size_t errlen)
{
	if (port >= g->nb_ports || !g->opt.addr_set[port])
		return pvp_fail(err, errlen, -EINVAL,
				"port %u has no --addr: it answers nothing already", port);
	g->neigh[port].stopped = !responder;
	GEN_LOG(NOTICE, "port %u: ARP/ND responder %s", port, responder ? "started" : "stopped");
	return 0;
}

void
gen_neigh_clear(struct gen_ctx *g)
{
	uint16_t p;

	for (p = 0; p < g->nb_ports; p++)
		if (g->neigh[p].tl != NULL)
			g->neigh[p].tx_zero =
				__atomic_load_n(&g->neigh[p].tl->svc_sent, __ATOMIC_RELAXED);
}
