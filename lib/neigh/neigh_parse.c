/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The address options of pvpkit-gen and pvpkit-fwd (pvp_neigh.h):
 * "ip=...,gw=...,ip6=...,vlan=...,answer=LO-HI,..." into a
 * struct pvp_neigh_cfg. The responder (neigh.c) only reads what this
 * file checked: one printable line, each key once, addresses of hosts.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "pvp_util.h"

#include "pvp_neigh.h"

/* "LO-HI" of IPv4 (key "answer") or IPv6 ("answer6") addresses. */
static int
neigh_parse_range(const char *what, const char *key, const char *v, struct pvp_neigh_cfg *c,
		  char *err, size_t errlen)
{
	const char *dash = strchr(v, '-');
	bool v6 = key[6] == '6', ok;
	char lo[64];

	if (dash == NULL || (size_t)(dash - v) >= sizeof(lo))
		return pvp_fail(err, errlen, -EINVAL, "%s: %s '%s' is not LO-HI", what, key, v);
	memcpy(lo, v, (size_t)(dash - v));
	lo[dash - v] = '\0';
	if (v6)
		ok = pvp_parse_ipv6(lo, c->ans6.lo) == 0 &&
		     pvp_parse_ipv6(dash + 1, c->ans6.hi) == 0 &&
		     memcmp(c->ans6.lo, c->ans6.hi, 16) <= 0;
	else
		ok = pvp_parse_ipv4(lo, &c->ans4.lo) == 0 &&
		     pvp_parse_ipv4(dash + 1, &c->ans4.hi) == 0 && c->ans4.lo <= c->ans4.hi;
	if (!ok)
		return pvp_fail(err, errlen, -EINVAL,
				"%s: %s '%s' is not LO-HI of IPv%c addresses, LO <= HI", what, key,
				v, v6 ? '6' : '4');
	*(v6 ? &c->ans6.set : &c->ans4.set) = true;
	return 0;
}

/*
 * "V" (one 802.1Q tag) or "OUTER/INNER" (QinQ, as TRex's console writes
 * it), each 1..4094; a third tag is refused by name.
 */
static int
neigh_parse_vlan(const char *name, const char *v, struct pvp_neigh_cfg *c, char *err, size_t errlen)
{
	const char *slash = strchr(v, '/');
	/* The option is at most PVP_NEIGH_OPT_MAX long: its outer tag fits. */
	char num[PVP_NEIGH_OPT_MAX];
	uint32_t outer, inner = 0;

	if (slash != NULL && strchr(slash + 1, '/') != NULL)
		return pvp_fail(err, errlen, -EINVAL, "%s '%s': at most two tags, OUTER/INNER",
				name, v);
	snprintf(num, sizeof(num), "%.*s", (int)(slash != NULL ? slash - v : (int)strlen(v)), v);
	if (pvp_parse_u32(name, num, 1, 4094, &outer, err, errlen) != 0 ||
	    (slash != NULL && pvp_parse_u32(name, slash + 1, 1, 4094, &inner, err, errlen) != 0))
		return -EINVAL;
	c->vlan[0] = (uint16_t)outer;
	c->vlan[1] = (uint16_t)inner;
	return 0;
}

/* One KEY=VALUE of an address option. */
static int
neigh_parse_kv(const char *what, const char *key, const char *v, struct pvp_neigh_cfg *c, char *err,
	       size_t errlen)
{
	char name[96];
	double s;

	/* lib/util's number messages start with the name they are given. */
	snprintf(name, sizeof(name), "%s: %s", what, key);
	if (strcmp(key, "ip") == 0 || strcmp(key, "gw") == 0) {
		uint32_t *ip = key[0] == 'i' ? &c->ip4 : &c->gw4;

		if (pvp_parse_ipv4(v, ip) != 0 || *ip == 0 || *ip == UINT32_MAX)
			return pvp_fail(err, errlen, -EINVAL,
					"%s: %s '%s' is not an IPv4 address of a host", what, key,
					v);
	} else if (strcmp(key, "ip6") == 0 || strcmp(key, "gw6") == 0) {
		uint8_t *ip6 = key[0] == 'i' ? c->ip6 : c->gw6;
		static const uint8_t unspec[16];

		if (pvp_parse_ipv6(v, ip6) != 0 || ip6[0] == 0xff || memcmp(ip6, unspec, 16) == 0)
			return pvp_fail(err, errlen, -EINVAL,
					"%s: %s '%s' is not a unicast IPv6 address", what, key, v);
		*(key[0] == 'i' ? &c->has_ip6 : &c->has_gw6) = true;
	} else if (strcmp(key, "vlan") == 0) {
		return neigh_parse_vlan(name, v, c, err, errlen);
	} else if (strcmp(key, "answer") == 0 || strcmp(key, "answer6") == 0) {
		return neigh_parse_range(what, key, v, c, err, errlen);
	} else if (strcmp(key, "announce") == 0) {
		if (pvp_parse_duration(name, v, 0.01, 3600, &s, err, errlen) != 0)
			return -EINVAL;
		c->announce_ms = (uint32_t)(s * 1000 + 0.5);
	} else {
		return pvp_fail(
			err, errlen, -EINVAL,
			"%s: unknown key '%s' (ip, gw, ip6, gw6, vlan, answer, answer6, announce)",
			what, key);
	}
	return 0;
}

int
pvp_neigh_parse(const char *what, const char *s, struct pvp_neigh_cfg *c, char *err, size_t errlen)
{
	static const char *const keys[] = {"ip",   "gw",     "ip6",	"gw6",
					   "vlan", "answer", "answer6", "announce"};
	char buf[PVP_NEIGH_OPT_MAX], *tok, *save = NULL;
	unsigned int seen = 0, k;

	if (strlen(s) >= sizeof(buf))
		return pvp_fail(err, errlen, -EINVAL, "%s: longer than %d characters", what,
				PVP_NEIGH_OPT_MAX - 1);
	/* Messages quote the text: it must be one printable line. */
	for (k = 0; s[k] != '\0'; k++) {
		if (s[k] <= ' ' || s[k] > '~')
			return pvp_fail(err, errlen, -EINVAL,
					"%s: character %#04x at %u is not allowed", what,
					(unsigned int)(unsigned char)s[k], k + 1);
	}
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (eq == NULL)
			return pvp_fail(err, errlen, -EINVAL, "%s: '%s' is not KEY=VALUE", what,
					tok);
		*eq = '\0';
		for (k = 0; k < RTE_DIM(keys); k++)
			if (strcmp(tok, keys[k]) == 0)
				break;
		if (k < RTE_DIM(keys) && (seen & (1u << k)) != 0)
			return pvp_fail(err, errlen, -EINVAL, "%s: %s is given twice", what, tok);
		seen |= k < RTE_DIM(keys) ? 1u << k : 0;
		if (neigh_parse_kv(what, tok, eq + 1, c, err, errlen) != 0)
			return -EINVAL;
	}
	if (c->gw4 != 0 && c->ip4 == 0)
		return pvp_fail(err, errlen, -EINVAL, "%s: gw needs ip (the address ARP asks from)",
				what);
	if (c->has_gw6 && !c->has_ip6)
		return pvp_fail(err, errlen, -EINVAL,
				"%s: gw6 needs ip6 (the address ND asks from)", what);
	if (c->ip4 == 0 && !c->has_ip6)
		return pvp_fail(err, errlen, -EINVAL, "%s: give ip or ip6", what);
	return 0;
}

const char *
pvp_neigh_vlan_format(const struct pvp_neigh_cfg *c, char *buf, size_t len)
{
	if (c->vlan[1] != 0)
		snprintf(buf, len, "%u/%u", c->vlan[0], c->vlan[1]);
	else
		snprintf(buf, len, "%u", c->vlan[0]);
	return buf;
}

int
pvp_neigh_parse_port(const char *opt, const char *s, uint32_t max_port, uint32_t *port,
		     struct pvp_neigh_cfg *c, char *err, size_t errlen)
{
	const char *colon = strchr(s, ':');
	char num[16], what[64];

	if (colon == NULL || (size_t)(colon - s) >= sizeof(num))
		return pvp_fail(err, errlen, -EINVAL,
				"%s: '%.40s' is not PORT:KEY=VALUE,... (e.g. 0:ip=10.0.0.1)", opt,
				s);
	memcpy(num, s, (size_t)(colon - s));
	num[colon - s] = '\0';
	snprintf(what, sizeof(what), "%s PORT", opt);
	if (pvp_parse_u32(what, num, 0, max_port, port, err, errlen) != 0)
		return -EINVAL;
	snprintf(what, sizeof(what), "%s %u", opt, *port);
	return pvp_neigh_parse(what, colon + 1, c, err, errlen);
}
