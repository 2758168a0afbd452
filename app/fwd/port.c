/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Ports and lcores of pvpkit-fwd: which lcore polls which (port, RX
 * queue) and sends on which TX queue, port setup with a pool on the
 * port's NUMA node, the MACs of mode mac, waiting for links, and
 * stopping the ports on the way out.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <numa.h>

#include "fwd.h"

#define FWD_MBUF_CACHE 256

static struct rte_mempool *fwd_port_pool[FWD_MAX_PORTS];
static bool fwd_port_started[FWD_MAX_PORTS];

/* Stats index of the port that packets received on port index @p rx leave by. */
static uint16_t
fwd_tx_index(const struct fwd_conf *conf, uint16_t rx, uint16_t nb_ports)
{
	switch (conf->topology) {
	case FWD_TOPO_PAIRED:
		return rx ^ 1;
	case FWD_TOPO_CHAINED:
		return (rx + 1) % nb_ports;
	case FWD_TOPO_LOOP:
	default:
		return rx;
	}
}

/*
 * Spread the (port, RX queue) pairs over the forwarding lcores, round
 * robin, so each pair is polled by exactly one lcore. Every lcore that
 * gets a stream owns TX queue number "rank" on every port.
 */
void
fwd_assign_streams(struct fwd_app *app)
{
	const struct fwd_conf *conf = app->conf;
	unsigned int fl[RTE_MAX_LCORE], nb_fl = 0, lcore, k, total;
	uint16_t p, q;

	RTE_LCORE_FOREACH_WORKER(lcore) {
		fl[nb_fl++] = lcore;
	}
	/* With a single lcore, the main lcore forwards (and keeps time). */
	if (nb_fl == 0)
		fl[nb_fl++] = rte_get_main_lcore();

	total = (unsigned int)app->nb_ports * conf->nb_rxq;
	app->nb_lcores = RTE_MIN(nb_fl, total);
	app->nb_txq = conf->nb_txq != 0 ? conf->nb_txq : app->nb_lcores;
	if (app->nb_txq > FWD_MAX_QUEUES)
		fwd_die("%u forwarding lcores need %u TX queues per port, at most %d are supported",
			app->nb_lcores, app->nb_lcores, FWD_MAX_QUEUES);
	if (app->nb_txq < app->nb_lcores)
		fwd_die("--txq %u: the %u forwarding lcores need one TX queue each per port",
			app->nb_txq, app->nb_lcores);

	for (k = 0; k < app->nb_lcores; k++) {
		struct fwd_lcore *lc;

		lc = rte_zmalloc_socket("fwd_lcore", sizeof(*lc), RTE_CACHE_LINE_SIZE,
					rte_lcore_to_socket_id(fl[k]));
		if (lc == NULL)
			lc = rte_zmalloc("fwd_lcore", sizeof(*lc), RTE_CACHE_LINE_SIZE);
		if (lc == NULL)
			fwd_die("cannot allocate lcore state: out of hugepage memory");
		lc->lcore_id = fl[k];
		lc->rank = k;
		if (conf->seq_check) {
			lc->seq =
				rte_zmalloc_socket("fwd_seq", sizeof(*lc->seq), RTE_CACHE_LINE_SIZE,
						   rte_lcore_to_socket_id(fl[k]));
			if (lc->seq == NULL)
				fwd_die("cannot allocate --seq-check tables: out of hugepage "
					"memory");
			fwd_seq_table_init(lc->seq);
		}
		app->lcores[k] = lc;
	}

	k = 0;
	for (p = 0; p < app->nb_ports; p++) {
		for (q = 0; q < conf->nb_rxq; q++, k++) {
			struct fwd_lcore *lc = app->lcores[k % app->nb_lcores];
			struct fwd_stream *fs = &lc->streams[lc->nb_streams++];
			uint16_t tx = fwd_tx_index(conf, p, app->nb_ports);

			fs->rx_idx = p;
			fs->tx_idx = tx;
			fs->rx_port = app->port_ids[p];
			fs->rx_queue = q;
			fs->tx_port = app->port_ids[tx];
			fs->tx_queue = lc->rank;
			fs->burst = conf->burst;
			fs->tx_retry = conf->tx_retry;
			fs->tx_retry_delay_us = conf->tx_retry_delay_us;
			fs->seq = lc->seq;
			fs->stamp = conf->stamp;
			app->streams[app->nb_streams++] = fs;
		}
	}
}

/* The socket whose memory port @p idx should use: the port's own, else
 * the socket of the first lcore polling it (vdevs report none). */
static int
fwd_port_socket(const struct fwd_app *app, uint16_t idx)
{
	int socket = rte_eth_dev_socket_id(app->port_ids[idx]);
	uint16_t k, s;

	if (socket >= 0)
		return socket;
	for (k = 0; k < app->nb_lcores; k++)
		for (s = 0; s < app->lcores[k]->nb_streams; s++)
			if (app->lcores[k]->streams[s].rx_idx == idx)
				return rte_lcore_to_socket_id(app->lcores[k]->lcore_id);
	return rte_socket_id();
}

static void
fwd_port_init(struct fwd_app *app, uint16_t idx)
{
	const struct fwd_conf *conf = app->conf;
	uint16_t pid = app->port_ids[idx];
	uint16_t nb_rxd = conf->nb_rxd, nb_txd = conf->nb_txd;
	char name[RTE_ETH_NAME_MAX_LEN] = "?";
	char pool_name[RTE_MEMPOOL_NAMESIZE];
	struct rte_eth_conf pconf;
	struct rte_eth_dev_info dinfo;
	struct rte_eth_txconf txconf;
	struct rte_eth_rxconf rxconf;
	unsigned int nb_mbufs;
	int socket, ret;
	uint16_t q;

	rte_eth_dev_get_name_by_port(pid, name);
	ret = rte_eth_dev_info_get(pid, &dinfo);
	if (ret != 0)
		fwd_die("port %u (%s): cannot get device info: %s", idx, name, strerror(-ret));
	if (conf->nb_rxq > dinfo.max_rx_queues)
		fwd_die("port %u (%s): --rxq %u asked, the port can do at most %u RX queues", idx,
			name, conf->nb_rxq, dinfo.max_rx_queues);
	if (app->nb_txq > dinfo.max_tx_queues)
		fwd_die("port %u (%s): %u TX queues needed (--txq or one per forwarding lcore), "
			"the port can do at most %u",
			idx, name, app->nb_txq, dinfo.max_tx_queues);

	memset(&pconf, 0, sizeof(pconf));
	if (conf->nb_rxq > 1) {
		uint64_t hf = (RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP) &
			      dinfo.flow_type_rss_offloads;

		/* Ports without RSS (most vdevs) still take several queues. */
		if (hf != 0) {
			pconf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
			pconf.rx_adv_conf.rss_conf.rss_hf = hf;
		}
	}
	/* Every TX queue gets mbufs of one pool with refcnt 1: fast free is safe. */
	if (dinfo.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)
		pconf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	ret = rte_eth_dev_configure(pid, conf->nb_rxq, app->nb_txq, &pconf);
	if (ret != 0)
		fwd_die("port %u (%s): cannot configure %u RX / %u TX queues: %s", idx, name,
			conf->nb_rxq, app->nb_txq, strerror(-ret));
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(pid, &nb_rxd, &nb_txd);
	if (ret != 0)
		fwd_die("port %u (%s): --rxd %u/--txd %u not possible: %s", idx, name, conf->nb_rxd,
			conf->nb_txd, strerror(-ret));

	socket = fwd_port_socket(app, idx);
	/* The RX ring, the peer's TX ring, one burst and one cache per lcore. */
	nb_mbufs = conf->nb_rxq * nb_rxd + app->nb_txq * RTE_MAX(nb_txd, conf->nb_txd) +
		   app->nb_lcores * (conf->burst + FWD_MBUF_CACHE) + 2048;
	/* The impairment stage holds up to a delay ring per RX queue, and its
	 * copies of duplicated packets come from the same pool. */
	if (conf->impair_on)
		nb_mbufs += conf->nb_rxq * (rte_align32pow2(conf->impair_ring) + conf->burst);
	nb_mbufs = rte_align32pow2(nb_mbufs) - 1;
	snprintf(pool_name, sizeof(pool_name), "fwd_pool_%u", idx);
	fwd_port_pool[idx] = rte_pktmbuf_pool_create(pool_name, nb_mbufs, FWD_MBUF_CACHE, 0,
						     RTE_MBUF_DEFAULT_BUF_SIZE, socket);
	if (fwd_port_pool[idx] == NULL && socket != SOCKET_ID_ANY) {
		FWD_LOG(WARNING, "port %u: no memory on socket %d, using any socket", idx, socket);
		fwd_port_pool[idx] =
			rte_pktmbuf_pool_create(pool_name, nb_mbufs, FWD_MBUF_CACHE, 0,
						RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	}
	if (fwd_port_pool[idx] == NULL)
		fwd_die("port %u (%s): cannot create a pool of %u mbufs: %s (hugepages?)", idx,
			name, nb_mbufs, rte_strerror(rte_errno));

	rxconf = dinfo.default_rxconf;
	rxconf.offloads = pconf.rxmode.offloads;
	for (q = 0; q < conf->nb_rxq; q++) {
		ret = rte_eth_rx_queue_setup(pid, q, nb_rxd, socket, &rxconf, fwd_port_pool[idx]);
		if (ret != 0)
			fwd_die("port %u (%s): RX queue %u setup: %s", idx, name, q,
				strerror(-ret));
	}
	txconf = dinfo.default_txconf;
	txconf.offloads = pconf.txmode.offloads;
	for (q = 0; q < app->nb_txq; q++) {
		ret = rte_eth_tx_queue_setup(pid, q, nb_txd, socket, &txconf);
		if (ret != 0)
			fwd_die("port %u (%s): TX queue %u setup: %s", idx, name, q,
				strerror(-ret));
	}
	ret = rte_eth_dev_start(pid);
	if (ret != 0)
		fwd_die("port %u (%s): cannot start: %s", idx, name, strerror(-ret));
	fwd_port_started[idx] = true;
	/* A guest forwarder gets frames for MACs other than its own. */
	ret = rte_eth_promiscuous_enable(pid);
	if (ret != 0 && ret != -ENOTSUP)
		FWD_LOG(WARNING, "port %u (%s): promiscuous mode: %s", idx, name, strerror(-ret));

	if (pvp_stats_bind_ethdev(app->stats, idx, pid) != 0 ||
	    pvp_stats_set_port_name(app->stats, idx, name) != 0)
		fwd_die("port %u (%s): cannot bind counters", idx, name);
	if (socket >= 0 && numa_available() >= 0 && numa_num_configured_nodes() > 1)
		FWD_LOG(INFO, "port %u (%s): memory on NUMA node %d", idx, name, socket);
}

/* Mode mac: each stream writes its TX port's MAC and that port's peer. */
static void
fwd_set_stream_macs(struct fwd_app *app)
{
	const struct fwd_conf *conf = app->conf;
	uint16_t s;

	for (s = 0; s < app->nb_streams; s++) {
		struct fwd_stream *fs = app->streams[s];

		rte_eth_macaddr_get(fs->tx_port, &fs->tx_src);
		if (conf->peer_set[fs->tx_idx])
			fs->tx_dst = conf->peer[fs->tx_idx];
		else if (conf->peer_all_set)
			fs->tx_dst = conf->peer_all;
		else
			fwd_die("--mode mac: no --peer-mac for port %u", fs->tx_idx);
	}
}

/*
 * --wait-link: a vhost or virtio-user port passes nothing until its peer
 * has connected; waiting here keeps the first packets from being dropped.
 */
void
fwd_wait_link(const struct fwd_app *app, const volatile bool *quit)
{
	const struct fwd_conf *conf = app->conf;
	unsigned int ms;
	uint16_t p, up = 0;

	for (ms = 0; ms < conf->wait_link * 1000 && !*quit; ms += 10) {
		for (p = 0, up = 0; p < app->nb_ports; p++) {
			struct rte_eth_link link;

			if (rte_eth_link_get_nowait(app->port_ids[p], &link) == 0 &&
			    link.link_status == RTE_ETH_LINK_UP)
				up++;
		}
		if (up == app->nb_ports)
			return;
		usleep(10 * 1000);
	}
	FWD_LOG(WARNING, "%u of %u links up after %u s, forwarding anyway", up, app->nb_ports,
		conf->wait_link);
}

/* --addr: each port's addresses with its MAC, given to the streams it receives on. */
static void
fwd_set_stream_neigh(struct fwd_app *app)
{
	const struct fwd_conf *conf = app->conf;
	uint16_t p, s;

	for (p = app->nb_ports; p < FWD_MAX_PORTS; p++)
		if (conf->addr_set[p])
			fwd_die("--addr %u: there is no port %u (%u port(s))", p, p, app->nb_ports);
	for (p = 0; p < app->nb_ports; p++) {
		if (!conf->addr_set[p])
			continue;
		app->neigh[p] = conf->addr[p];
		rte_eth_macaddr_get(app->port_ids[p], &app->neigh[p].mac);
	}
	for (s = 0; s < app->nb_streams; s++)
		if (conf->addr_set[app->streams[s]->rx_idx])
			app->streams[s]->neigh = &app->neigh[app->streams[s]->rx_idx];
}

void
fwd_ports_init(struct fwd_app *app)
{
	uint16_t p;

	for (p = 0; p < app->nb_ports; p++)
		fwd_port_init(app, p);
	if (app->conf->engine == &fwd_mac_engine)
		fwd_set_stream_macs(app);
	fwd_set_stream_neigh(app);
}

void
fwd_ports_print(const struct fwd_app *app)
{
	uint16_t p;

	for (p = 0; p < app->nb_ports; p++) {
		char name[RTE_ETH_NAME_MAX_LEN] = "?";
		char mac[RTE_ETHER_ADDR_FMT_SIZE] = "?";
		struct rte_ether_addr ea;

		rte_eth_dev_get_name_by_port(app->port_ids[p], name);
		if (rte_eth_macaddr_get(app->port_ids[p], &ea) == 0)
			rte_ether_format_addr(mac, sizeof(mac), &ea);
		printf("port %u %s mac %s rxq %u txq %u -> port %u\n", p, name, mac,
		       app->conf->nb_rxq, app->nb_txq, fwd_tx_index(app->conf, p, app->nb_ports));
	}
}

void
fwd_ports_close(struct fwd_app *app)
{
	uint16_t p;
	int ret;

	for (p = 0; p < app->nb_ports; p++) {
		if (!fwd_port_started[p])
			continue;
		ret = rte_eth_dev_stop(app->port_ids[p]);
		if (ret != 0)
			FWD_LOG(WARNING, "port %u: stop: %s", p, strerror(-ret));
		rte_eth_dev_close(app->port_ids[p]);
	}
	for (p = 0; p < app->nb_ports; p++)
		rte_mempool_free(fwd_port_pool[p]);
}
