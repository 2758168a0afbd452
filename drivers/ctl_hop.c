/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_ctl.h"
#include "pvp_fwd_impair.h"
#include "pvp_gen_answer.h"
#include "pvp_stats_json.h"
#include "pvp_util.h"

#include "ctl_hop.h"

static int
ctl_hop_connect(struct coord_hop *hop, char *err, size_t err_len)
{
	struct ctl_hop *h = hop->priv;
	char e[PVP_CTL_ERR_LEN] = "";
	bool named;

	/* A new connection may be a restarted app (ctl_hop::connects). */
	h->connects++;
	h->client = pvp_ctl_client_connect(h->addr, h->has_token ? h->token : NULL,
					   (int)h->timeout_ms, e, sizeof(e));
	/* lib/ctl names the address in its connect errors: name it once. */
	named = strncmp(e, h->addr, strlen(h->addr)) == 0;
	if (h->client == NULL)
		return pvp_fail(err, err_len, -ENOTCONN, "hop %s unreachable: %s%s%s", hop->name,
				named ? "" : h->addr, named ? "" : ": ", e);
	return 0;
}

/* A member of struct ctl_hop_l3 of the same name. */
#define CTL_HOP_L3(f, t, lo, hi, what) PVP_SCHEMA_MEMBER(struct ctl_hop_l3, f, t, lo, hi, what)
static const struct pvp_schema_member ctl_hop_l3_members[] = {
	{CTL_HOP_L3(port, PVP_SCHEMA_STRING, 1, 63, "the port, as in \"ports\""), .required = true},
	{CTL_HOP_L3(ip, PVP_SCHEMA_IPV4, 0, 0, "its IPv4 address (--addr ip=)"),
	 PVP_SCHEMA_PRESENT(struct ctl_hop_l3, has_ip)},
	{CTL_HOP_L3(gw, PVP_SCHEMA_IPV4, 0, 0,
		    "its IPv4 gateway, resolved before traffic (--addr gw=, --l3)"),
	 PVP_SCHEMA_PRESENT(struct ctl_hop_l3, has_gw)},
	{CTL_HOP_L3(ip6, PVP_SCHEMA_STRING, 2, 45, "its IPv6 address (--addr ip6=)")},
	{CTL_HOP_L3(gw6, PVP_SCHEMA_STRING, 2, 45,
		    "its IPv6 gateway, resolved before traffic (--addr gw6=, --l3)")},
	{CTL_HOP_L3(vlan, PVP_SCHEMA_UINT, 0, 4094, "its 802.1Q VLAN, 0 untagged (--addr vlan=)"),
	 .def = "0"},
	{.name = NULL},
};
const struct pvp_schema_member ctl_hop_l3_item = {.name = "",
						  .type = PVP_SCHEMA_OBJECT,
						  .members = ctl_hop_l3_members,
						  .size = sizeof(struct ctl_hop_l3)};

int
ctl_hop_app_port(const struct coord_hop *hop, const char *name)
{
	uint32_t n;

	if (name[0] == 'p' && pvp_parse_u32(NULL, name + 1, 0, UINT16_MAX, &n, NULL, 0) == 0)
		return (int)n;
	return coord_hop_port_index(hop, name);
}

/* What the schema cannot say of "l3": a port of the hop, IPv6 addresses. */
static int
ctl_hop_l3_valid(const struct coord_hop *hop, const struct ctl_hop *h, char *err, size_t err_len)
{
	uint8_t a[16];
	unsigned int i, k;

	for (i = 0; i < h->nb_l3; i++) {
		const struct ctl_hop_l3 *l = &h->l3[i];
		const char *v6[2] = {l->ip6, l->gw6}, *n6[2] = {"ip6", "gw6"};

		if ((hop->nb_ports > 0 && coord_hop_port_index(hop, l->port) < 0) ||
		    ctl_hop_app_port(hop, l->port) < 0)
			return pvp_fail(err, err_len, -EINVAL,
					"hop %s: l3[%u].port: \"%s\" is not one of its ports",
					hop->name, i, l->port);
		for (k = 0; k < 2; k++)
			if (v6[k][0] != '\0' && pvp_parse_ipv6(v6[k], a) != 0)
				return pvp_fail(err, err_len, -EINVAL,
						"hop %s: l3[%u].%s: \"%s\" is not an IPv6 address",
						hop->name, i, n6[k], v6[k]);
	}
	return 0;
}

int
ctl_hop_open(struct coord_hop *hop, const json_t *conf, const struct pvp_schema_member *members,
	     char *err, size_t err_len)
{
	struct ctl_hop *h;
	int ret;

	h = calloc(1, sizeof(*h));
	if (h == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "hop %s: out of memory", hop->name);
	hop->priv = h;
	ret = coord_hop_conf(hop, members, conf, h, err, err_len);
	if (ret == 0)
		ret = ctl_hop_l3_valid(hop, h, err, err_len);
	if (ret == 0 && h->token_file[0] != '\0') {
		char e[256] = "";

		/*
		 * The token goes to whatever host the topology names: only a
		 * private regular file of ours is a token, never /etc/shadow
		 * or a FIFO, and no error shows what the file holds.
		 */
		ret = pvp_secret_read(h->token_file, h->token, sizeof(h->token), e, sizeof(e));
		if (ret < 0)
			snprintf(err, err_len, "hop %s: %s", hop->name, e);
		h->has_token = ret == 0;
	}
	if (ret == 0)
		ret = ctl_hop_connect(hop, err, err_len);
	if (ret < 0)
		ctl_hop_close(hop);
	return ret;
}

void
ctl_hop_close(struct coord_hop *hop)
{
	struct ctl_hop *h = hop->priv;

	if (h == NULL)
		return;
	pvp_ctl_client_close(h->client);
	free(h->app);
	free(h);
	hop->priv = NULL;
}

int
ctl_hop_call(struct coord_hop *hop, const char *method, json_t *params, json_t **result,
	     int timeout_ms, char *err, size_t err_len)
{
	struct ctl_hop *h = hop->priv;
	char e[PVP_CTL_ERR_LEN] = "";
	int attempt, ret;

	if (timeout_ms <= 0)
		timeout_ms = (int)h->timeout_ms;
	for (attempt = 0; attempt < 2; attempt++) {
		if (h->client == NULL) {
			ret = ctl_hop_connect(hop, err, err_len);
			if (ret < 0)
				return ret;
		}
		ret = pvp_ctl_call(h->client, method, params, result, timeout_ms, e, sizeof(e));
		if (ret == 0)
			return 0;
		if (ret != -ENOTCONN && ret != -ETIMEDOUT)
			return pvp_fail(err, err_len, -EPROTO, "hop %s: %s: %s", hop->name, method,
					e);
		/* The connection is gone (or hung): drop it; one fresh try. */
		pvp_ctl_client_close(h->client);
		h->client = NULL;
		if (ret == -ETIMEDOUT)
			break;
	}
	return pvp_fail(err, err_len, ret, "hop %s unreachable: %s: %s", hop->name, method, e);
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
 * Item @p i of the list @p key of a stats.get answer, read through
 * @p members into @p obj: an open read (a newer app may count more).
 * @return 0; 1 when there is no such item (or no list); -EINVAL naming
 *   what is wrong.
 */
static int
ctl_hop_list_item(const struct coord_hop *hop, const json_t *stats, const char *key, size_t i,
		  const struct pvp_schema_member *members, void *obj, char *err, size_t err_len)
{
	const json_t *list = json_object_get(stats, key), *item;
	char e[256] = "";

	if (list == NULL)
		return 1;
	if (!json_is_array(list))
		return pvp_fail(err, err_len, -EINVAL,
				"hop %s: bad stats.get answer: %s: must be a list", hop->name, key);
	item = json_array_get(list, i);
	if (item == NULL)
		return 1;
	if (!json_is_object(item) || pvp_schema_read(members, item, obj, e, sizeof(e)) < 0)
		return pvp_fail(err, err_len, -EINVAL, "hop %s: bad stats.get answer: %s[%zu]%s%s",
				hop->name, key, i, e[0] != '\0' ? "." : ": must be an object", e);
	return 0;
}

/*
 * pvpkit-fwd's impairment stage drops on purpose and counts those drops in
 * the port's rx_sw_dropped too; its answer says how many per RX port
 * ("impair", pvp_impair_counter_members), and the copies it added
 * (@p added). Both 0 without one.
 */
static int
ctl_hop_impair_dropped(const struct coord_hop *hop, const json_t *stats, int idx, uint64_t *dropped,
		       uint64_t *added, char *err, size_t err_len)
{
	struct pvp_impair_counters c;
	size_t i;
	int ret;

	*dropped = 0;
	*added = 0;
	for (i = 0; (ret = ctl_hop_list_item(hop, stats, PVP_FWD_K_IMPAIR, i,
					     pvp_impair_counter_members, &c, err, err_len)) == 0;
	     i++) {
		if ((int)c.port != idx)
			continue;
		*dropped += pvp_impair_dropped(&c);
		*added += c.duplicated;
	}
	return ret < 0 ? ret : 0;
}

/*
 * Port @p idx's item of the answer's "neigh" (pvpkit-gen's responder,
 * doc/control.rst) into @p n, all 0 without one; every item is read.
 * @return 0; 1 when the port has none; -EINVAL naming a bad item.
 */
static int
ctl_hop_neigh(const struct coord_hop *hop, const json_t *stats, int idx, struct pvp_gen_neigh *n,
	      char *err, size_t err_len)
{
	struct pvp_gen_neigh it;
	size_t i;
	int ret, found = 1;

	memset(n, 0, sizeof(*n));
	for (i = 0; (ret = ctl_hop_list_item(hop, stats, PVP_GEN_K_NEIGH, i, pvp_gen_neigh_members,
					     &it, err, err_len)) == 0;
	     i++)
		if ((int)it.port == idx) {
			*n = it;
			found = 0;
		}
	return ret < 0 ? ret : found;
}

int
ctl_hop_map_stats(struct coord_hop *hop, const json_t *stats, struct coord_snap *snap, char *err,
		  size_t err_len)
{
	struct pvp_stats_snap *s;
	struct pvp_gen_neigh n;
	char perr[256] = "";
	uint64_t impaired, added;
	unsigned int i;
	int ret, idx;

	s = malloc(sizeof(*s));
	if (s == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "hop %s: out of memory", hop->name);
	ret = pvp_stats_snap_from_json(stats, s, perr, sizeof(perr));
	if (ret < 0) {
		free(s);
		return pvp_fail(err, err_len, ret, "hop %s: bad stats.get answer: %s", hop->name,
				perr);
	}
	memset(snap, 0, sizeof(*snap));
	snap->t_ns = pvp_now_ns();
	snap->nb_ports = hop->nb_ports;
	for (i = 0; i < hop->nb_ports; i++) {
		struct coord_port *p = &snap->port[i];
		const struct pvp_stats_port_snap *ps;

		idx = ctl_hop_port_index(s, hop->ports[i]);
		if (idx < 0) {
			snprintf(err, err_len, "hop %s: no port \"%s\" (the app has %u ports)",
				 hop->name, hop->ports[i], s->nb_ports);
			free(s);
			return -ENOENT;
		}
		ps = &s->port[idx];
		ret = ctl_hop_impair_dropped(hop, stats, idx, &impaired, &added, err, err_len);
		if (ret == 0)
			ret = ctl_hop_neigh(hop, stats, idx, &n, err, err_len);
		if (ret < 0) {
			free(s);
			return ret;
		}
		/* The ARP/ND frames of the port in its counters; 0 without them. */
		p->neigh_rx = n.arp_rx + n.nd_rx + n.echo;
		p->neigh_tx = n.tx;
		snprintf(p->name, sizeof(p->name), "%s", hop->ports[i]);
		memcpy(p->c, ps->c, sizeof(p->c));
		p->added = added;
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
ctl_hop_snapshot(struct coord_hop *hop, struct coord_snap *snap, char *err, size_t err_len)
{
	json_t *res = NULL;
	int ret;

	ret = ctl_hop_call(hop, "stats.get", NULL, &res, 0, err, err_len);
	if (ret < 0)
		return ret;
	ret = ctl_hop_map_stats(hop, res, snap, err, err_len);
	json_decref(res);
	return ret;
}

int
ctl_hop_clear(struct coord_hop *hop, char *err, size_t err_len)
{
	json_t *res = NULL;
	int ret;

	ret = ctl_hop_call(hop, "stats.clear", NULL, &res, 0, err, err_len);
	json_decref(res);
	return ret;
}

int
ctl_hop_method(struct coord_hop *hop, const char *method, json_t *params, json_t **result,
	       char *err, size_t err_len)
{
	return ctl_hop_call(hop, method, params, result, 0, err, err_len);
}

json_t *
ctl_hop_context(struct coord_hop *hop)
{
	char err[256] = "";
	json_t *res = NULL;

	if (ctl_hop_call(hop, "info", NULL, &res, 0, err, sizeof(err)) < 0)
		return NULL;
	return res;
}

/* Whether the answer's address @p have is @p want (IPv6 in any spelling). */
static bool
ctl_hop_same6(const char *have, const char *want)
{
	uint8_t a[16], b[16];

	return pvp_parse_ipv6(have, a) == 0 && pvp_parse_ipv6(want, b) == 0 &&
	       memcmp(a, b, sizeof(a)) == 0;
}

int
ctl_hop_check_l3(struct coord_hop *hop, const json_t *stats, char *err, size_t err_len)
{
	const struct ctl_hop *h = hop->priv;
	char want[INET6_ADDRSTRLEN], gw[INET6_ADDRSTRLEN];
	struct pvp_gen_neigh n;
	unsigned int i;
	int ret;

	for (i = 0; i < h->nb_l3; i++) {
		const struct ctl_hop_l3 *l = &h->l3[i];
		int idx = ctl_hop_app_port(hop, l->port);

		ret = ctl_hop_neigh(hop, stats, idx, &n, err, err_len);
		if (ret != 0)
			return ret < 0 ? ret
				       : pvp_fail(err, err_len, -EINVAL,
						  "hop %s: l3 %s: the app says nothing of its port "
						  "%d's addresses (started without --addr %d:...?)",
						  hop->name, l->port, idx, idx);
		if (l->has_ip) {
			pvp_ipv4_format(l->ip, want, sizeof(want));
			if (strcmp(n.ip, want) != 0)
				return pvp_fail(err, err_len, -EINVAL,
						"hop %s: l3 %s: ip is %s, the app's port %d has "
						"%s (--addr %d:ip=%s)",
						hop->name, l->port, want, idx,
						n.ip[0] != '\0' ? n.ip : "none", idx, want);
		}
		if (l->ip6[0] != '\0' && !ctl_hop_same6(n.ip6, l->ip6))
			return pvp_fail(err, err_len, -EINVAL,
					"hop %s: l3 %s: ip6 is %s, the app's port %d has %s "
					"(--addr %d:ip6=%s)",
					hop->name, l->port, l->ip6, idx,
					n.ip6[0] != '\0' ? n.ip6 : "none", idx, l->ip6);
		if (n.vlan != l->vlan)
			return pvp_fail(err, err_len, -EINVAL,
					"hop %s: l3 %s: vlan is %u, the app's port %d has %u",
					hop->name, l->port, l->vlan, idx, n.vlan);
		/* The app names one gateway: the IPv4 one when it has both. */
		if (!l->has_gw && l->gw6[0] == '\0')
			continue;
		if (l->has_gw)
			pvp_ipv4_format(l->gw, gw, sizeof(gw));
		else
			snprintf(gw, sizeof(gw), "%s", l->gw6);
		if (l->has_gw ? strcmp(n.gateway, gw) != 0 : !ctl_hop_same6(n.gateway, gw))
			return pvp_fail(err, err_len, -EINVAL,
					"hop %s: l3 %s: gateway is %s, the app's port %d has "
					"%s (--addr %d:%s=%s)",
					hop->name, l->port, gw, idx,
					n.gateway[0] != '\0' ? n.gateway : "none", idx,
					l->has_gw ? "gw" : "gw6", gw);
		if (n.gateway_mac[0] == '\0')
			return pvp_fail(err, err_len, -EINVAL,
					"hop %s: l3 %s: gateway %s unresolved (start the app "
					"with --l3: it resolves its gateways before it sends)",
					hop->name, l->port, gw);
	}
	return 0;
}
