/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex's service mode and port addressing: "service", "set_l2",
 * "set_l3", "conf_ipv6", "set_vlan", the RX queue of "set_rx_feature"
 * and "get_rx_queue_pkts" ("push_pkts" is trex_service_tx.c's), answered as trex-core's
 * TrexRpcCmd* of the same names do. A port's addresses (and its VLAN or
 * QinQ tags, outer first, the outer one 802.1ad's) go to lib/neigh's
 * responder (neigh.c), which answers ARP and neighbour solicitations for
 * them in every mode, as TRex's stack does; the client's services (ARP,
 * IPv6 ND, ICMP) send with push_pkts and read back through a capture or
 * the RX queue, a cyclic capture of the port's RX side (capture.h).
 * Frames are offered to captures and counted by the RX path exactly as
 * before: service mode diverts nothing, so traffic (flow stats included,
 * counted in software as TRex's --software mode does) runs in it too.
 *
 * The responder's address set (trex.g->opt.addr[]), as neigh.c reads it
 * on the RX lcores, is read there without a lock: every field is written
 * whole (an atomic store), so a frame that races a change is answered
 * with the old or the new address, never a mix of the two.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "pvp_util.h"

#include "capture.h"
#include "trex.h"

/* What a client set on a port. */
struct trex_svc_port {
	bool service;  /* "service" enabled */
	bool filtered; /* "service" filtered */
	uint8_t mask;  /* its mask */
	/*
	 * L3 with the gateway not resolved yet: no destination MAC. Any
	 * other port has one (TRex's comes from its config file; here it is
	 * --dst-mac, or all zeros, until set_l2 or a resolved set_l3), so a
	 * client's start() finds the port resolved, as against TRex.
	 */
	bool unresolved;
	struct rte_ether_addr dst_mac; /* L2 destination or the resolved gateway */
	uint32_t src4;		       /* set_l3 source, host order, 0: L2 mode */
	uint32_t dst4;		       /* set_l3 destination (gateway) */
	bool ip6;		       /* conf_ipv6 enabled */
	bool ip6_auto;		       /* no address given: link-local from the MAC */
	uint8_t vlan_nb;	       /* set_vlan tags */
	uint16_t vlan[2];
	bool queue;	     /* RX queue on */
	uint32_t queue_cap;  /* its capture */
	uint32_t queue_size; /* its size */
};

static struct trex_svc_port trex_svc[GEN_MAX_PORTS];

bool
trex_service_on(uint16_t port, bool *filtered)
{
	*filtered = trex_svc[port].filtered;
	return trex_svc[port].service;
}

/* A MAC as TRex writes it (utl_macaddr_to_str): lower case, as lib/util's. */
static const char *
trex_svc_mac_str(const struct rte_ether_addr *m, char *buf, size_t len)
{
	return pvp_mac_format((uint64_t)pvp_get_be16(m->addr_bytes) << 32 |
				      pvp_get_be32(m->addr_bytes + 2),
			      buf, len);
}

int
trex_service_init(char *err, size_t errlen)
{
	const char *arg = trex.g->opt.dst_mac;
	struct rte_ether_addr dst;
	uint16_t p;

	if (arg == NULL)
		return 0;
	if (rte_ether_unformat_addr(arg, &dst) != 0)
		return pvp_fail(err, errlen, -EINVAL, "--dst-mac: '%s' is not a MAC address", arg);
	for (p = 0; p < GEN_MAX_PORTS; p++)
		trex_svc[p].dst_mac = dst;
	return 0;
}

bool
trex_service_macs(uint16_t port, struct rte_ether_addr *src, struct rte_ether_addr *dst)
{
	*src = trex.g->port[port].mac;
	*dst = trex_svc[port].dst_mac;
	return !trex_svc[port].unresolved;
}

/*
 * A new destination for port @p port: its streams are built with it
 * (trex_stream.c), so a profile loaded with the old one is loaded again.
 */
static void
trex_svc_set_dst(uint16_t port, const struct rte_ether_addr *mac)
{
	if (rte_is_same_ether_addr(&trex_svc[port].dst_mac, mac))
		return;
	trex_svc[port].dst_mac = *mac;
	if (trex.port[port].nb_streams != 0)
		trex.streams_gen++;
}

void
trex_service_attr(uint16_t port, json_t *attr)
{
	const struct trex_svc_port *s = &trex_svc[port];
	const struct pvp_neigh_cfg *c = &trex.g->opt.addr[port];
	char src[RTE_ETHER_ADDR_FMT_SIZE], dst[RTE_ETHER_ADDR_FMT_SIZE];
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	json_t *ipv4, *ipv6, *tags = json_array();
	uint8_t i;

	trex_svc_mac_str(&trex.g->port[port].mac, src, sizeof(src));
	trex_svc_mac_str(&s->dst_mac, dst, sizeof(dst));
	if (s->src4 != 0)
		ipv4 = json_pack("{s:s,s:s,s:s}", "src", pvp_ipv4_format(s->src4, a, sizeof(a)),
				 "dst", pvp_ipv4_format(s->dst4, b, sizeof(b)), "state",
				 s->unresolved ? "unresolved" : "resolved");
	else
		ipv4 = json_pack("{s:s}", "state", "none");
	if (s->ip6)
		ipv6 = json_pack("{s:b,s:s}", "enabled", 1, "src",
				 s->ip6_auto ? "" : inet_ntop(AF_INET6, c->ip6, a, sizeof(a)));
	else
		ipv6 = json_pack("{s:b}", "enabled", 0);
	for (i = 0; i < s->vlan_nb; i++)
		json_array_append_new(tags, json_integer(s->vlan[i]));
	json_object_set_new(attr, "layer_cfg",
			    json_pack("{s:{s:s,s:s,s:s},s:o,s:o}", "ether", "src", src, "dst", dst,
				      "state", s->unresolved ? "unconfigured" : "configured",
				      "ipv4", ipv4, "ipv6", ipv6));
	json_object_set_new(attr, "vlan", json_pack("{s:o}", "tags", tags));
}

json_t *
trex_service_rx_queue(uint16_t port)
{
	const struct trex_svc_port *s = &trex_svc[port];
	struct gen_cap_info info[GEN_CAP_MAX];
	unsigned int n, k;

	if (!s->queue)
		return json_pack("{s:b}", "is_active", 0);
	n = RTE_MIN(gen_cap_status(info, RTE_DIM(info)), RTE_DIM(info));
	for (k = 0; k < n && info[k].id != s->queue_cap; k++)
		;
	return json_pack("{s:b,s:I,s:I}", "is_active", 1, "size", (json_int_t)s->queue_size,
			 "count", (json_int_t)(k < n ? info[k].pending : 0));
}

/* TRex's verify_state(IDLE | STREAMS): no address changes under traffic. */
static int
trex_svc_idle(uint16_t port, const char *cmd, char *err, size_t err_len)
{
	if (!trex_port_active(port))
		return 0;
	return trex_state_refuse(cmd, trex_state_name(trex.port[port].state), err, err_len);
}

/* A MAC parameter, TRex's message when it is none. */
static int
trex_svc_mac(json_t *p, const char *name, struct rte_ether_addr *mac, char *err, size_t err_len)
{
	const char *s = trex_param_str(p, name, NULL, err, err_len);
	uint64_t v;

	if (s == NULL)
		return -EINVAL;
	if (pvp_parse_mac(s, &v) != 0)
		return pvp_fail(err, err_len, -EINVAL, "'invalid MAC address: '%.64s'", s);
	pvp_put_be16(mac->addr_bytes, (uint16_t)(v >> 32));
	pvp_put_be32(mac->addr_bytes + 2, (uint32_t)v);
	return 0;
}

/* An IPv4 parameter, host order. */
static int
trex_svc_ip4(json_t *p, const char *name, const char *what, uint32_t *ip, char *err, size_t err_len)
{
	const char *s = trex_param_str(p, name, NULL, err, err_len);

	if (s == NULL)
		return -EINVAL;
	if (pvp_parse_ipv4(s, ip) != 0 || *ip == 0)
		return pvp_fail(err, err_len, -EINVAL, "invalid %s IPv4 address: '%.64s'", what, s);
	return 0;
}

int
trex_m_service(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_svc_port *s;
	bool on, filtered;
	uint64_t mask;

	if (trex_param_bool(p, "enabled", -1, &on, err, err_len) != 0 ||
	    trex_param_bool(p, "filtered", 0, &filtered, err, err_len) != 0 ||
	    trex_param_uint(p, "mask", UINT8_MAX, 0, &mask, err, err_len) != 0)
		return -EINVAL;
	s = &trex_svc[port];
	if (!on && !filtered && s->queue)
		return pvp_fail(err, err_len, -EPERM,
				"unable to disable service mode - please remove RX queue");
	if (!on && !filtered && trex_capport_on(port))
		return pvp_fail(err, err_len, -EPERM,
				"unable to disable service mode - port %u is configured as "
				"capture port",
				port);
	s->service = on;
	s->filtered = filtered;
	s->mask = (uint8_t)mask;
	return trex_ok(res);
}

int
trex_m_set_l2(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct rte_ether_addr mac;
	struct trex_svc_port *s;
	int ret = trex_svc_mac(p, "dst_mac", &mac, err, err_len);

	if (ret == 0)
		ret = trex_svc_idle(port, "set_l2_mode", err, err_len);
	if (ret != 0)
		return ret;
	s = &trex_svc[port];
	trex_svc_set_dst(port, &mac);
	s->unresolved = false;
	s->src4 = s->dst4 = 0;
	/* L2 mode owns no IPv4 address: ARP for the old one goes unanswered. */
	__atomic_store_n(&trex.g->opt.addr[port].ip4, 0, __ATOMIC_RELEASE);
	return trex_ok(res);
}

int
trex_m_set_l3(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct rte_ether_addr mac;
	struct trex_svc_port *s;
	uint32_t src, dst;
	bool resolved;
	int ret = trex_svc_ip4(p, "src_addr", "source", &src, err, err_len);

	if (ret == 0)
		ret = trex_svc_ip4(p, "dst_addr", "destination", &dst, err, err_len);
	if (ret != 0)
		return ret;
	resolved = json_object_get(p, "resolved_mac") != NULL &&
		   !json_is_null(json_object_get(p, "resolved_mac"));
	if (resolved)
		ret = trex_svc_mac(p, "resolved_mac", &mac, err, err_len);
	if (ret == 0)
		ret = trex_svc_idle(port, "set_l3_mode", err, err_len);
	if (ret != 0)
		return ret;
	s = &trex_svc[port];
	s->src4 = src;
	s->dst4 = dst;
	s->unresolved = !resolved;
	if (resolved)
		trex_svc_set_dst(port, &mac);
	__atomic_store_n(&trex.g->opt.addr[port].ip4, src, __ATOMIC_RELEASE);
	trex.g->opt.addr_set[port] = true;
	return trex_ok(res);
}

int
trex_m_conf_ipv6(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct pvp_neigh_cfg *c;
	struct trex_svc_port *s;
	const char *src;
	uint8_t ip6[16];
	bool on;
	int ret;

	if (trex_param_bool(p, "enabled", -1, &on, err, err_len) != 0 ||
	    (src = trex_param_str(p, "src_ipv6", NULL, err, err_len)) == NULL)
		return -EINVAL;
	if (on && src[0] != '\0' && pvp_parse_ipv6(src, ip6) != 0)
		return pvp_fail(err, err_len, -EINVAL, "invalid source IPv6 address: '%.64s'", src);
	ret = trex_svc_idle(port, "conf_ipv6", err, err_len);
	if (ret != 0)
		return ret;
	s = &trex_svc[port];
	c = &trex.g->opt.addr[port];
	s->ip6 = on;
	s->ip6_auto = on && src[0] == '\0';
	/* Off first, the address, then on: no frame sees half an address. */
	__atomic_store_n(&c->has_ip6, false, __ATOMIC_RELEASE);
	if (!on)
		return trex_ok(res);
	if (s->ip6_auto)
		pvp_neigh_link_local(&trex.g->port[port].mac, ip6);
	memcpy(c->ip6, ip6, sizeof(ip6));
	__atomic_store_n(&c->has_ip6, true, __ATOMIC_RELEASE);
	trex.g->opt.addr_set[port] = true;
	return trex_ok(res);
}

int
trex_m_set_vlan(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	uint16_t tags[PVP_NEIGH_VLAN_MAX] = {0, 0};
	uint32_t word;
	json_t *a, *x;
	size_t i;
	int ret;

	if ((a = trex_param_array(p, "vlan", err, err_len)) == NULL)
		return -EINVAL;
	if (json_array_size(a) > PVP_NEIGH_VLAN_MAX)
		return pvp_fail(err, err_len, -EINVAL,
				"Maximal number of stacked VLANs is 2, got: %zu",
				json_array_size(a));
	json_array_foreach(a, i, x) {
		if (!json_is_integer(x) || json_integer_value(x) < 0 ||
		    json_integer_value(x) > UINT16_MAX)
			return pvp_fail(err, err_len, -EINVAL, "'vlan' must be a list of uint16");
		if (json_integer_value(x) == 0 || json_integer_value(x) > 4095)
			return pvp_fail(err, err_len, -EINVAL,
					"invalid VLAN tag: '%" JSON_INTEGER_FORMAT "'",
					json_integer_value(x));
		tags[i] = (uint16_t)json_integer_value(x);
	}
	ret = trex_svc_idle(port, "set_vlan_cfg", err, err_len);
	if (ret != 0)
		return ret;
	trex_svc[port].vlan_nb = (uint8_t)json_array_size(a);
	memcpy(trex_svc[port].vlan, tags, sizeof(uint16_t) * json_array_size(a));
	/* Both tags in one store: the RX lcores answer with the old pair or the new one. */
	memcpy(&word, tags, sizeof(word));
	__atomic_store_n(&trex.g->opt.addr[port].vlan_word, word, __ATOMIC_RELEASE);
	return trex_ok(res);
}

/* Stop port @p port's RX queue, if any. */
static void
trex_svc_queue_stop(uint16_t port)
{
	struct trex_svc_port *s = &trex_svc[port];
	char msg[128] = "";

	if (!s->queue)
		return;
	/* Gone already only if a client removed it by its capture id. */
	gen_cap_remove(s->queue_cap, msg, sizeof(msg));
	s->queue = false;
}

int
trex_m_set_rx_feature(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	const char *type = trex_param_str(p, "type", NULL, err, err_len);
	struct gen_cap_conf c;
	struct trex_svc_port *s;
	char msg[256] = "";
	uint64_t size;
	double ts;
	uint32_t id;
	bool on;
	int ret;

	if (type == NULL || trex_param_bool(p, "enabled", -1, &on, err, err_len) != 0)
		return -EINVAL;
	if (strcmp(type, "queue") != 0 && strcmp(type, "server") != 0 &&
	    strcmp(type, "capwap_proxy") != 0)
		return pvp_fail(err, err_len, -EINVAL,
				"'type' must be queue, server or capwap_proxy");
	if (strcmp(type, "server") == 0 || !on) {
		if (type[0] == 'q')
			trex_svc_queue_stop(port);
		return trex_ok(res);
	}
	if (strcmp(type, "queue") != 0)
		return pvp_fail(err, err_len, -EOPNOTSUPP,
				"RX feature '%s' is not supported by pvpkit-gen", type);
	s = &trex_svc[port];
	if (!s->service)
		return pvp_fail(err, err_len, -EOPNOTSUPP,
				"setting RX queue is only available under service mode");
	ret = trex_param_uint(p, "size", UINT32_MAX, -1, &size, err, err_len);
	if (ret != 0)
		return ret;
	if (size == 0)
		return pvp_fail(err, err_len, -EINVAL, "queue size cannot be zero");
	/* TRex's RX queue drops its oldest frames when full. */
	c = (struct gen_cap_conf){.ports[GEN_CAP_RX] = 1ull << port, .count = size, .cyclic = true};
	if (gen_cap_start(&c, &id, &ts, msg, sizeof(msg)) != 0)
		return pvp_fail(err, err_len, -EPERM, "%s", msg);
	trex_svc_queue_stop(port);
	s->queue = true;
	s->queue_cap = id;
	s->queue_size = (uint32_t)size;
	return trex_ok(res);
}

int
trex_m_get_rx_queue_pkts(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	const struct trex_svc_port *s = &trex_svc[port];
	struct trex_cap_fetch f = {.pkts = NULL};
	char msg[256] = "";
	uint64_t pending;
	double start_ts;

	if (!s->service)
		return pvp_fail(err, err_len, -EOPNOTSUPP,
				"fetching RX queue packets is only available under service mode");
	f.pkts = json_array();
	if (s->queue && gen_cap_fetch(s->queue_cap, UINT32_MAX, trex_cap_pkt, &f, &pending,
				      &start_ts, msg, sizeof(msg)) != 0) {
		json_decref(f.pkts);
		return pvp_fail(err, err_len, -EPERM, "%s", msg);
	}
	*res = json_pack("{s:o}", "pkts", f.pkts);
	return 0;
}
