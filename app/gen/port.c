/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Port setup: one RX queue (polled by the RX engine) and one TX queue per
 * TX lcore on each port, NUMA-local RX pool, link speed for rate
 * conversions (--speed where the port reports none).
 */

#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "gen.h"

static int
gen_port_init(struct gen_ctx *g, struct gen_port *p, uint16_t idx, char *err, size_t errlen)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	uint16_t nb_rxd = (uint16_t)g->opt.nb_rxd, nb_txd = (uint16_t)g->opt.nb_txd;
	uint16_t nb_rxq = g->opt.no_rx ? 0 : g->opt.rx_cores;
	char pname[RTE_MEMPOOL_NAMESIZE];
	uint32_t room;
	int socket, ret;
	uint16_t q;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_info_get(p->eth_port, &info);
	if (ret != 0)
		return pvp_fail(err, errlen, ret, "port %u: cannot get device info: %s",
				p->eth_port, rte_strerror(-ret));
	rte_eth_dev_get_name_by_port(p->eth_port, p->name);
	if (g->opt.tx_cores > info.max_tx_queues)
		return pvp_fail(err, errlen, -EINVAL,
				"port %u (%s): %u TX queues asked, the device has %u", p->eth_port,
				p->name, g->opt.tx_cores, info.max_tx_queues);
	if (g->opt.mtu != 0) {
		if (g->opt.mtu < info.min_mtu || g->opt.mtu > info.max_mtu)
			return pvp_fail(err, errlen, -EINVAL,
					"port %u (%s): MTU %u asked, the device takes %u..%u",
					p->eth_port, p->name, g->opt.mtu, info.min_mtu,
					info.max_mtu);
		conf.rxmode.mtu = g->opt.mtu;
	}
	if (nb_rxq > info.max_rx_queues)
		return pvp_fail(err, errlen, -EINVAL,
				"port %u (%s): %u RX queues asked (--rx-cores), the device has %u",
				p->eth_port, p->name, nb_rxq, info.max_rx_queues);
	if (nb_rxq > 1 && info.flow_type_rss_offloads != 0) {
		/* Spread flows over the RX lcores; a device without RSS spreads its own way. */
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf =
			(RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP) &
			info.flow_type_rss_offloads;
	}
	if (nb_rxq == 0 && info.max_rx_queues > 0)
		nb_rxq = 1; /* some PMDs refuse zero RX queues; it stays unpolled */
	ret = rte_eth_dev_configure(p->eth_port, nb_rxq, g->opt.tx_cores, &conf);
	if (ret != 0)
		return pvp_fail(err, errlen, ret, "port %u (%s): configure failed: %s", p->eth_port,
				p->name, rte_strerror(-ret));
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(p->eth_port, &nb_rxd, &nb_txd);
	if (ret != 0)
		return pvp_fail(err, errlen, ret, "port %u: bad descriptor counts", p->eth_port);
	socket = rte_eth_dev_socket_id(p->eth_port);
	if (socket < 0)
		socket = (int)rte_socket_id();
	/* RX mbufs hold a whole frame of the MTU, QinQ tags and FCS included. */
	room = RTE_MAX((uint32_t)RTE_MBUF_DEFAULT_BUF_SIZE,
		       (uint32_t)RTE_PKTMBUF_HEADROOM + g->opt.mtu + RTE_ETHER_HDR_LEN +
			       2 * RTE_VLAN_HLEN + RTE_ETHER_CRC_LEN);
	snprintf(pname, sizeof(pname), "gen_rx%u", idx);
	p->rx_mp = rte_mempool_lookup(pname);
	if (p->rx_mp == NULL)
		p->rx_mp = rte_pktmbuf_pool_create(pname, nb_rxd * 2 + 2048, 256, 0, (uint16_t)room,
						   socket);
	if (p->rx_mp == NULL)
		return pvp_fail(err, errlen, -ENOMEM, "port %u: no memory for the RX pool: %s",
				p->eth_port, rte_strerror(rte_errno));
	for (q = 0; q < nb_rxq; q++) {
		ret = rte_eth_rx_queue_setup(p->eth_port, q, nb_rxd, socket, NULL, p->rx_mp);
		if (ret != 0)
			return pvp_fail(err, errlen, ret, "port %u: RX queue setup failed: %s",
					p->eth_port, rte_strerror(-ret));
	}
	for (q = 0; q < g->opt.tx_cores; q++) {
		struct rte_eth_txconf txc = info.default_txconf;

		txc.offloads = conf.txmode.offloads;
		ret = rte_eth_tx_queue_setup(p->eth_port, q, nb_txd, socket, &txc);
		if (ret != 0)
			return pvp_fail(err, errlen, ret, "port %u: TX queue %u setup failed: %s",
					p->eth_port, q, rte_strerror(-ret));
	}
	ret = rte_eth_dev_start(p->eth_port);
	if (ret != 0)
		return pvp_fail(err, errlen, ret, "port %u: start failed: %s", p->eth_port,
				rte_strerror(-ret));
	/* Not every virtual device has promiscuous mode; RX works without. */
	rte_eth_promiscuous_enable(p->eth_port);
	rte_eth_macaddr_get(p->eth_port, &p->mac);
	memset(&link, 0, sizeof(link));
	rte_eth_link_get_nowait(p->eth_port, &link);
	if (g->opt.speed_mbps != 0)
		p->link_bps = g->opt.speed_mbps * 1000000ULL;
	else if (link.link_speed != RTE_ETH_SPEED_NUM_NONE &&
		 link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
		p->link_bps = (uint64_t)link.link_speed * 1000000ULL;
	else
		p->link_bps = 0;
	return 0;
}

int
gen_ports_init(struct gen_ctx *g, char *err, size_t errlen)
{
	uint16_t pid, i;
	int ret;

	g->nb_ports = 0;
	if (g->opt.nb_ports == 0) {
		RTE_ETH_FOREACH_DEV(pid) {
			if (g->nb_ports == GEN_MAX_PORTS)
				break;
			g->port[g->nb_ports++].eth_port = pid;
		}
		if (g->nb_ports == 0)
			return pvp_fail(err, errlen, -ENODEV,
					"no ports: give a device (e.g. --vdev net_null0,no-rx=1)");
	} else {
		for (i = 0; i < g->opt.nb_ports; i++) {
			pid = g->opt.ports[i];
			if (!rte_eth_dev_is_valid_port(pid))
				return pvp_fail(err, errlen, -ENODEV,
						"--ports: unknown port %u (%u available)", pid,
						rte_eth_dev_count_avail());
			g->port[g->nb_ports++].eth_port = pid;
		}
	}
	for (i = 0; i < g->nb_ports; i++) {
		ret = gen_port_init(g, &g->port[i], i, err, errlen);
		if (ret != 0)
			return ret;
	}
	return 0;
}

void
gen_ports_close(struct gen_ctx *g)
{
	uint16_t i;

	for (i = 0; i < g->nb_ports; i++) {
		rte_eth_dev_stop(g->port[i].eth_port);
		rte_eth_dev_close(g->port[i].eth_port);
	}
}
