/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_ctl.h"
#include "pvp_fwd_impair.h"
#include "pvp_stats_json.h"
#include "pvp_util.h"

#include "ctl_hop.h"

static int
ctl_hop_connect(struct coord_hop *hop, char *err, size_t err_len)
{
	struct coord_ctl_hop *h = hop->priv;
	struct pvp_ctl_error e = {0};

	/* A new connection may be a restarted app (coord_ctl_hop::connects). */
	h->connects++;
	h->client = pvp_ctl_client_connect(h->addr, h->has_token ? h->token : NULL,
					   (int)h->timeout_ms, &e);
	if (h->client == NULL) {
		/* lib/ctl names the address in its connect errors: name it once. */
		if (strncmp(e.message, h->addr, strlen(h->addr)) == 0)
			snprintf(err, err_len, "hop %s unreachable: %s", hop->name, e.message);
		else
			snprintf(err, err_len, "hop %s unreachable: %s: %s", hop->name, h->addr,
				 e.message);
		return -ENOTCONN;
	}
	return 0;
}

int
coord_ctl_hop_open(struct coord_hop *hop, const json_t *conf,
		   const struct pvp_schema_member *members, char *err, size_t err_len)
{
	struct coord_ctl_hop *h;
	int ret;

	h = calloc(1, sizeof(*h));
	if (h == NULL)
		return coord_fail(err, err_len, -ENOMEM, "hop %s: out of memory", hop->name);
	ret = coord_hop_conf(hop, members, conf, h, err, err_len);
	if (ret < 0) {
		free(h);
		return ret;
	}
	if (h->token_file[0] != '\0') {
		char e[256];

		/*
		 * The token goes to whatever host the topology names: only a
		 * private regular file of ours is a token, never /etc/shadow
		 * or a FIFO, and no error shows what the file holds.
		 */
		ret = pvp_secret_read(h->token_file, h->token, sizeof(h->token), e, sizeof(e));
		if (ret < 0) {
			snprintf(err, err_len, "hop %s: %s", hop->name, e);
			free(h);
			return ret;
		}
		h->has_token = 1;
	}
	hop->priv = h;
	ret = ctl_hop_connect(hop, err, err_len);
	if (ret < 0) {
		free(h);
		hop->priv = NULL;
	}
	return ret;
}

void
coord_ctl_hop_close(struct coord_hop *hop)
{
	struct coord_ctl_hop *h = hop->priv;

	if (h == NULL)
		return;
	pvp_ctl_client_close(h->client);
	free(h->app);
	free(h);
	hop->priv = NULL;
}

int
coord_ctl_hop_call(struct coord_hop *hop, const char *method, json_t *params, json_t **result,
		   int timeout_ms, char *err, size_t err_len)
{
	struct coord_ctl_hop *h = hop->priv;
	struct pvp_ctl_error e = {0};
	int attempt, ret;

	if (timeout_ms <= 0)
		timeout_ms = (int)h->timeout_ms;
	for (attempt = 0; attempt < 2; attempt++) {
		if (h->client == NULL) {
			ret = ctl_hop_connect(hop, err, err_len);
			if (ret < 0)
				return ret;
		}
		ret = pvp_ctl_call(h->client, method, params, result, timeout_ms, &e);
		if (ret == 0)
			return 0;
		if (ret != PVP_CTL_TRANSPORT_ERROR && ret != PVP_CTL_TIMEOUT) {
			snprintf(err, err_len, "hop %s: %s: %s", hop->name, method, e.message);
			return -EPROTO;
		}
		/* The connection is gone (or hung): drop it; one fresh try. */
		pvp_ctl_client_close(h->client);
		h->client = NULL;
		if (ret == PVP_CTL_TIMEOUT)
			break;
	}
	snprintf(err, err_len, "hop %s unreachable: %s: %s", hop->name, method, e.message);
	return ret == PVP_CTL_TIMEOUT ? -ETIMEDOUT : -ENOTCONN;
}

static int
ctl_hop_port_index(const struct pvp_stats_snap *s, const char *name)
{
	uint32_t n;
	int i;

	if (name[0] == 'p' && pvp_parse_u32(NULL, name + 1, 0, UINT16_MAX, &n, NULL, 0) == 0 &&
	    n < s->nb_ports)
		return (int)n;
	for (i = 0; i < s->nb_ports; i++)
		if (strcmp(s->port[i].name, name) == 0)
			return i;
	return -1;
}

/*
 * pvpkit-fwd's impairment stage drops on purpose and counts those drops in
 * the port's rx_sw_dropped too; its answer says how many per RX port
 * ("impair", pvp_impair_counter_members). @p dropped is 0 without one.
 */
static int
ctl_hop_impair_dropped(const struct coord_hop *hop, const json_t *stats, int idx, uint64_t *dropped,
		       char *err, size_t err_len)
{
	const json_t *list = json_object_get(stats, PVP_FWD_K_IMPAIR);
	struct pvp_impair_counters c;
	char e[256] = "";
	json_t *item;
	size_t i;

	*dropped = 0;
	if (list == NULL)
		return 0;
	if (!json_is_array(list)) {
		snprintf(err, err_len, "hop %s: bad stats.get answer: impair: must be a list",
			 hop->name);
		return -EINVAL;
	}
	json_array_foreach(list, i, item) {
		/* An open read: a newer pvpkit-fwd may count more. */
		if (!json_is_object(item) ||
		    pvp_schema_read(pvp_impair_counter_members, item, &c, e, sizeof(e)) < 0) {
			snprintf(err, err_len, "hop %s: bad stats.get answer: %s[%zu]%s%s",
				 hop->name, PVP_FWD_K_IMPAIR, i,
				 e[0] != '\0' ? "." : ": must be an object", e);
			return -EINVAL;
		}
		if ((int)c.port == idx)
			*dropped += pvp_impair_dropped(&c);
	}
	return 0;
}

/* What the coordinator reads of an item of a stats.get answer's "neigh". */
struct ctl_hop_neigh {
	unsigned int port; /* the app's port index */
	uint64_t arp_rx;   /* ARP frames received (in rx_packets) */
	uint64_t nd_rx;	   /* ICMPv6 neighbour discovery frames received */
	uint64_t tx;	   /* replies and announcements sent (in tx_packets) */
};

#define CTL_HOP_NEIGH_COUNT(n, h)                                                                  \
	{.name = #n, .type = PVP_SCHEMA_UINT, .min = 0, .max = INT64_MAX,                          \
	 PVP_SCHEMA_AT(struct ctl_hop_neigh, n), .help = h}
static const struct pvp_schema_member ctl_hop_neigh_members[] = {
	{.name = "port",
	 .type = PVP_SCHEMA_UINT,
	 .required = true,
	 .min = 0,
	 .max = UINT16_MAX,
	 PVP_SCHEMA_AT(struct ctl_hop_neigh, port),
	 .help = "port index"},
	CTL_HOP_NEIGH_COUNT(arp_rx, "ARP frames received"),
	CTL_HOP_NEIGH_COUNT(nd_rx, "neighbour discovery frames received"),
	CTL_HOP_NEIGH_COUNT(tx, "ARP/ND frames sent"),
	{.name = NULL},
};

/*
 * The ARP/ND frames of port @p idx in its counters, from the answer's
 * "neigh" (pvpkit-gen's responder, doc/control.rst); 0 without one.
 */
static int
ctl_hop_neigh(const struct coord_hop *hop, const json_t *stats, int idx, struct coord_port *p,
	      char *err, size_t err_len)
{
	const json_t *list = json_object_get(stats, "neigh");
	struct ctl_hop_neigh n;
	char e[256] = "";
	json_t *item;
	size_t i;

	if (list == NULL)
		return 0;
	if (!json_is_array(list)) {
		snprintf(err, err_len, "hop %s: bad stats.get answer: neigh: must be a list",
			 hop->name);
		return -EINVAL;
	}
	json_array_foreach(list, i, item) {
		/* An open read: a newer app may count more. */
		if (!json_is_object(item) ||
		    pvp_schema_read(ctl_hop_neigh_members, item, &n, e, sizeof(e)) < 0) {
			snprintf(err, err_len, "hop %s: bad stats.get answer: neigh[%zu]%s%s",
				 hop->name, i, e[0] != '\0' ? "." : ": must be an object", e);
			return -EINVAL;
		}
		if ((int)n.port == idx) {
			p->neigh_rx = n.arp_rx + n.nd_rx;
			p->neigh_tx = n.tx;
		}
	}
	return 0;
}

int
coord_ctl_hop_map_stats(struct coord_hop *hop, const json_t *stats, struct coord_snap *snap,
			char *err, size_t err_len)
{
	struct coord_ctl_hop *h = hop->priv;
	struct pvp_stats_snap *s;
	char perr[256] = "";
	uint64_t impaired;
	unsigned int i;
	int ret, idx;

	s = malloc(sizeof(*s));
	if (s == NULL) {
		snprintf(err, err_len, "hop %s: out of memory", hop->name);
		return -ENOMEM;
	}
	ret = pvp_stats_snap_from_json(stats, s, perr, sizeof(perr));
	if (ret < 0) {
		snprintf(err, err_len, "hop %s: bad stats.get answer: %s", hop->name, perr);
		free(s);
		return ret;
	}
	memset(snap, 0, sizeof(*snap));
	snap->t_ns = pvp_now_ns();
	snap->nb_ports = h->nb_ports;
	for (i = 0; i < h->nb_ports; i++) {
		struct coord_port *p = &snap->port[i];
		const struct pvp_stats_port_snap *ps;

		idx = ctl_hop_port_index(s, h->ports[i]);
		if (idx < 0) {
			snprintf(err, err_len, "hop %s: no port \"%s\" (the app has %u ports)",
				 hop->name, h->ports[i], s->nb_ports);
			free(s);
			return -ENOENT;
		}
		ps = &s->port[idx];
		ret = ctl_hop_impair_dropped(hop, stats, idx, &impaired, err, err_len);
		if (ret == 0)
			ret = ctl_hop_neigh(hop, stats, idx, p, err, err_len);
		if (ret < 0) {
			free(s);
			return ret;
		}
		snprintf(p->name, sizeof(p->name), "%s", h->ports[i]);
		p->rx_packets = ps->c[PVP_STATS_rx_packets];
		p->rx_bytes = ps->c[PVP_STATS_rx_bytes];
		p->tx_packets = ps->c[PVP_STATS_tx_packets];
		p->tx_bytes = ps->c[PVP_STATS_tx_bytes];
		p->rx_dropped = ps->c[PVP_STATS_rx_dropped];
		p->tx_dropped = ps->c[PVP_STATS_tx_dropped];
		p->rx_errors = ps->c[PVP_STATS_rx_errors];
		p->tx_errors = ps->c[PVP_STATS_tx_errors];
		coord_port_add_reason(p, COORD_REASON_rx_missed, ps->rx_missed);
		coord_port_add_reason(p, COORD_REASON_rx_nombuf, ps->rx_nombuf);
		/* Never more than the app says it dropped: no wrapped reason. */
		impaired = impaired < ps->rx_sw_dropped ? impaired : ps->rx_sw_dropped;
		coord_port_add_reason(p, COORD_REASON_rx_sw_dropped, ps->rx_sw_dropped - impaired);
		if (json_object_get(stats, PVP_FWD_K_IMPAIR) != NULL)
			coord_port_add_reason(p, COORD_REASON_impair_dropped, impaired);
		coord_port_add_reason(p, COORD_REASON_tx_full, ps->c[PVP_STATS_tx_dropped]);
	}
	free(s);
	return 0;
}

int
coord_ctl_hop_snapshot(struct coord_hop *hop, struct coord_snap *snap, char *err, size_t err_len)
{
	json_t *res = NULL;
	int ret;

	ret = coord_ctl_hop_call(hop, "stats.get", NULL, &res, 0, err, err_len);
	if (ret < 0)
		return ret;
	ret = coord_ctl_hop_map_stats(hop, res, snap, err, err_len);
	json_decref(res);
	return ret;
}

int
coord_ctl_hop_clear(struct coord_hop *hop, char *err, size_t err_len)
{
	json_t *res = NULL;
	int ret;

	ret = coord_ctl_hop_call(hop, "stats.clear", NULL, &res, 0, err, err_len);
	json_decref(res);
	return ret;
}

json_t *
coord_ctl_hop_context(struct coord_hop *hop)
{
	char err[256];
	json_t *res = NULL;

	if (coord_ctl_hop_call(hop, "info", NULL, &res, 0, err, sizeof(err)) < 0)
		return NULL;
	return res;
}
