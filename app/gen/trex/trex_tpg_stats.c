/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex's tagged packet groups, their counters (doc/trex.rst, "Tagged
 * packet groups"): get_tpg_stats, clear_tpg_stats and clear_updated
 * over the RX lcores' per (RX port, tpgid, tag) counters less a
 * reader-side baseline, the TX counters of get_tpg_tx_stats and
 * clear_tpg_tx_stats, and the RX lcores' lists of unknown tags
 * (get_tpg_unknown_tags, clear_tpg_unknown_tags). The context they read
 * is trex_tpg.c's.
 */

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trex_tpg_private.h"

/* TRex's own bounds: counters cleared by one clear_updated. */
#define TPG_MAX_CLEAR 2048

/* ---- counters ---- */

/* The counters of struct gen_tpg_cntr: its uint64_t members before exp_seq. */
#define TPG_NB_CNTR (offsetof(struct gen_tpg_cntr, exp_seq) / sizeof(uint64_t))

/* The summed counters of slot @p idx of @p port, less the baseline. */
static struct gen_tpg_cntr
trex_tpg_read(uint16_t port, uint64_t idx)
{
	struct gen_tpg_cntr s = {0};
	uint64_t *sum = (uint64_t *)&s;
	const uint64_t *b = (const uint64_t *)&trex_tpg.base[port][idx];
	unsigned int j;
	uint16_t k;

	for (j = 0; j < TPG_NB_CNTR; j++) {
		sum[j] = -b[j];
		for (k = 0; k < trex.g->rx.nb; k++)
			sum[j] += ((const uint64_t *)&trex_tpg.cnt[k][port][idx])[j];
	}
	return s;
}

/* Whether @p a and @p b count the same (exp_seq, after the counters, is none). */
static bool
trex_tpg_same(const struct gen_tpg_cntr *a, const struct gen_tpg_cntr *b)
{
	return memcmp(a, b, offsetof(struct gen_tpg_cntr, exp_seq)) == 0;
}

/* TRex's counter object of @p c; an unknown tag has no sequence counters. */
static json_t *
trex_tpg_json(struct gen_tpg_cntr c, bool unknown)
{
	if (unknown)
		return json_pack("{s:I,s:I}", "pkts", (json_int_t)c.pkts, "bytes",
				 (json_int_t)c.bytes);
	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "pkts", (json_int_t)c.pkts, "bytes",
			 (json_int_t)c.bytes, "seq_err", (json_int_t)c.seq_err, "seq_err_too_big",
			 (json_int_t)c.seq_err_big, "seq_err_too_small",
			 (json_int_t)c.seq_err_small, "ooo", (json_int_t)c.ooo, "dup",
			 (json_int_t)c.dup);
}

/*
 * Checks common to the stats methods: TPG on, the tpgid in range; for the
 * RX ones (@p unknown not NULL) their flags and the port counting.
 */
static int
trex_tpg_stats_args(json_t *p, uint16_t port, uint64_t *tpgid, bool *unknown, bool *untagged,
		    char *err, size_t err_len)
{
	if (trex_param_uint(p, "tpgid", UINT32_MAX, -1, tpgid, err, err_len) != 0 ||
	    (unknown != NULL && (trex_param_bool(p, "unknown_tag", 0, unknown, err, err_len) != 0 ||
				 trex_param_bool(p, "untagged", 0, untagged, err, err_len) != 0)))
		return -EINVAL;
	if (trex_tpg.user[0] == '\0' || trex_tpg.state != TPG_ENABLED || !trex_tpg.tx[port])
		return pvp_fail(err, err_len, -EBUSY,
				"Tagged Packet Group is not enabled on this port.");
	if (unknown != NULL && !trex_tpg.rx[port])
		return pvp_fail(err, err_len, -EPERM, "Port %u is not a valid port for TPG stats.",
				port);
	if (*tpgid >= trex_tpg.num_tpgids)
		return pvp_fail(err, err_len, -ERANGE,
				"tpgid %" PRIu64 " is bigger than the max allowed tpgid.", *tpgid);
	return 0;
}

/* "max_tag" of @p p into *@p hi, and the tag range [@p lo, *@p hi) checked as TRex does. */
static int
trex_tpg_range(json_t *p, uint64_t lo, uint64_t *hi, bool unknown, bool untagged, char *err,
	       size_t err_len)
{
	if (trex_param_uint(p, "max_tag", UINT16_MAX, -1, hi, err, err_len) != 0)
		return -EINVAL;
	if (lo > *hi)
		return pvp_fail(err, err_len, -ERANGE,
				"Min Tag = %" PRIu64
				" must be smaller/equal than Max Tag = %" PRIu64,
				lo, *hi);
	if (lo == *hi && !unknown && !untagged)
		return pvp_fail(
			err, err_len, -EPERM,
			"Min Tag can equal Max Tag iff unknown tag or untagged flags provided.");
	if (*hi > trex_tpg.num_tags)
		return pvp_fail(err, err_len, -ERANGE,
				"Max Tag %" PRIu64 " is larger than number of tags %u", *hi,
				trex_tpg.num_tags);
	return 0;
}

/* {"port": {"tpgid": @p o}}, the nesting of TRex's answers. */
static json_t *
trex_tpg_wrap(uint16_t port, uint32_t tpgid, json_t *o)
{
	char pk[8], tk[16];

	snprintf(pk, sizeof(pk), "%u", port);
	snprintf(tk, sizeof(tk), "%u", tpgid);
	return json_pack("{s:{s:o}}", pk, tk, o);
}

/* Every tag of @p list names a tag of the table (checked before any is cleared). */
static int
trex_tpg_tags_check(json_t *list, char *err, size_t err_len)
{
	json_t *x;
	size_t i;

	json_array_foreach(list, i, x)
		if (!json_is_integer(x) || json_integer_value(x) < 0 ||
		    json_integer_value(x) >= trex_tpg.num_tags)
			return pvp_fail(err, err_len, -ERANGE,
					"Tag %lld is larger than number of tags %u",
					(long long)json_integer_value(x), trex_tpg.num_tags);
	return 0;
}

/*
 * One section of a tpgid's counters, as TRex's RxTPGPerPort::get_tpg_stats
 * gives it: the tags from min_tag on whose counters are all equal, under
 * "min-last" (or "min" alone), then "untagged" and "unknown_tag" if asked.
 * The client asks again from last + 1 until it reaches max_tag.
 */
int
trex_m_get_tpg_stats(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	uint64_t tpgid, lo, hi;
	uint64_t row;
	uint32_t i;
	bool unknown, untagged;
	json_t *st;
	char key[32];
	int ret = trex_tpg_stats_args(p, port, &tpgid, &unknown, &untagged, err, err_len);

	if (ret == 0 && trex_param_uint(p, "min_tag", UINT16_MAX, -1, &lo, err, err_len) != 0)
		ret = -EINVAL;
	if (ret == 0)
		ret = trex_tpg_range(p, lo, &hi, unknown, untagged, err, err_len);
	if (ret != 0)
		return ret;
	row = tpgid * (trex_tpg.num_tags + GEN_TPG_EXTRA);
	st = json_object();
	if (hi > lo) {
		struct gen_tpg_cntr ref = trex_tpg_read(port, row + (uint32_t)lo), c;

		for (i = (uint32_t)lo + 1; i < hi; i++) {
			c = trex_tpg_read(port, row + i);
			if (!trex_tpg_same(&ref, &c))
				break;
		}
		if (i != lo + 1)
			snprintf(key, sizeof(key), "%" PRIu64 "-%u", lo, i - 1);
		else
			snprintf(key, sizeof(key), "%" PRIu64, lo);
		json_object_set_new(st, key, trex_tpg_json(ref, false));
	}
	if (untagged)
		json_object_set_new(
			st, "untagged",
			trex_tpg_json(trex_tpg_read(port, row + trex_tpg.num_tags + 1), false));
	if (unknown)
		json_object_set_new(
			st, "unknown_tag",
			trex_tpg_json(trex_tpg_read(port, row + trex_tpg.num_tags), true));
	*res = trex_tpg_wrap(port, (uint32_t)tpgid, st);
	return 0;
}

/* Take slot @p idx of @p port's counters as its new zero. */
static void
trex_tpg_zero(uint16_t port, uint64_t idx)
{
	/* Read against a zero baseline, the counters are the new one. */
	memset(&trex_tpg.base[port][idx], 0, sizeof(trex_tpg.base[port][idx]));
	trex_tpg.base[port][idx] = trex_tpg_read(port, idx);
}

int
trex_m_clear_tpg_stats(json_t *p, json_t **res, char *err, size_t err_len)
{
	json_t *list = json_object_get(p, "tag_list"), *x;
	json_t *maxj = json_object_get(p, "max_tag");
	bool has_list = list != NULL && !json_is_null(list);
	bool has_max = maxj != NULL && !json_is_null(maxj);
	uint64_t tpgid, lo, hi;
	bool unknown, untagged;
	uint64_t row;
	uint16_t port;
	size_t i;
	int ret;

	if (has_list == has_max)
		return pvp_fail(err, err_len, -ERANGE,
				"One between max_tag and tag_list should be provided in "
				"clear_tpg_stats.");
	ret = trex_param_port(p, &port, err, err_len);
	if (ret == 0)
		ret = trex_tpg_stats_args(p, port, &tpgid, &unknown, &untagged, err, err_len);
	if (ret == 0 && (trex_param_uint(p, "min_tag", UINT16_MAX, 0, &lo, err, err_len) != 0))
		ret = -EINVAL;
	if (ret != 0)
		return ret;
	row = tpgid * (trex_tpg.num_tags + GEN_TPG_EXTRA);
	if (has_list) {
		if (!json_is_array(list))
			return pvp_fail(err, err_len, -EINVAL, "'tag_list' must be an array");
		/* All checked before any is cleared. */
		ret = trex_tpg_tags_check(list, err, err_len);
		if (ret != 0)
			return ret;
		json_array_foreach(list, i, x)
			trex_tpg_zero(port, row + (uint32_t)json_integer_value(x));
	} else {
		ret = trex_tpg_range(p, lo, &hi, unknown, untagged, err, err_len);
		if (ret != 0)
			return ret;
		for (i = lo; i < hi; i++)
			trex_tpg_zero(port, row + (uint32_t)i);
	}
	if (untagged)
		trex_tpg_zero(port, row + trex_tpg.num_tags + 1);
	if (unknown)
		trex_tpg_zero(port, row + trex_tpg.num_tags);
	return trex_ok(res);
}

/* update_tpg_tags(clear=True): the tags of @p tag_list for tpgids [min, max) of a port. */
int
trex_m_clear_updated(json_t *p, json_t **res, char *err, size_t err_len)
{
	const char *user = trex_param_str(p, "username", NULL, err, err_len);
	json_t *list, *x;
	uint64_t lo, hi, id;
	uint16_t port;
	size_t i;
	int ret;

	ret = user == NULL ? -EINVAL : trex_param_port(p, &port, err, err_len);
	if (ret == 0 && (trex_param_uint(p, "min_tpgid", UINT32_MAX, -1, &lo, err, err_len) != 0 ||
			 trex_param_uint(p, "max_tpgid", UINT32_MAX, -1, &hi, err, err_len) != 0 ||
			 (list = trex_param_array(p, "tag_list", err, err_len)) == NULL))
		ret = -EINVAL;
	if (ret != 0)
		return ret;
	if (!trex_tpg_is(user) || trex_tpg.state != TPG_ENABLED)
		return pvp_fail(err, err_len, -EBUSY, "Tagged Packet Group is not enabled.");
	if (!trex_tpg.rx[port])
		return pvp_fail(err, err_len, -EPERM, "Port %u is not a valid port for TPG stats.",
				port);
	if (hi > trex_tpg.num_tpgids)
		return pvp_fail(err, err_len, -ERANGE,
				"tpgid %" PRIu64 " is bigger than the max allowed tpgid.", hi);
	if (lo >= hi)
		return pvp_fail(err, err_len, -ERANGE,
				"max tpgid %" PRIu64 " is bigger than min tpgid %" PRIu64, hi, lo);
	if ((hi - lo) * json_array_size(list) > TPG_MAX_CLEAR)
		return pvp_fail(err, err_len, -ERANGE,
				"Num Stats to clear %" PRIu64 " is too big. Decrease list of tags.",
				(hi - lo) * json_array_size(list));
	ret = trex_tpg_tags_check(list, err, err_len);
	if (ret != 0)
		return ret;
	for (id = lo; id < hi; id++)
		json_array_foreach(list, i, x)
			trex_tpg_zero(port, id * (trex_tpg.num_tags + GEN_TPG_EXTRA) +
						    (uint32_t)json_integer_value(x));
	return trex_ok(res);
}

/* Frames and bytes port @p port has sent of @p tpgid since the enable. */
static void
trex_tpg_tx_read(uint16_t port, uint32_t tpgid, uint64_t *pkts, uint64_t *bytes)
{
	struct gen_ctx *g = trex.g;
	uint16_t i;

	*pkts = trex_tpg.txc[port][tpgid].seq;
	*bytes = trex_tpg.txc[port][tpgid].bytes;
	for (i = 0; i < g->nb_ws; i++) {
		const struct gen_wstream *w = g->ws[i];
		const struct trex_stream *s = trex_ws_stream(w);

		if (s == NULL || !s->tpg || s->port != port || s->pgid != tpgid)
			continue;
		*pkts = w->seq;
		*bytes += trex_tpg_bytes(w->st->ps, w->seq - trex_tpg.txc[port][tpgid].seq0);
	}
}

int
trex_m_get_tpg_tx_stats(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	uint64_t tpgid, pkts, bytes;
	int ret = trex_tpg_stats_args(p, port, &tpgid, NULL, NULL, err, err_len);

	if (ret != 0)
		return ret;
	trex_tpg_tx_read(port, (uint32_t)tpgid, &pkts, &bytes);
	pkts -= trex_tpg.txc[port][tpgid].base[0];
	bytes -= trex_tpg.txc[port][tpgid].base[1];
	*res = trex_tpg_wrap(
		port, (uint32_t)tpgid,
		json_pack("{s:I,s:I}", "pkts", (json_int_t)pkts, "bytes", (json_int_t)bytes));
	return 0;
}

int
trex_m_clear_tpg_tx_stats(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	uint64_t tpgid;
	int ret = trex_tpg_stats_args(p, port, &tpgid, NULL, NULL, err, err_len);

	if (ret != 0)
		return ret;
	trex_tpg_tx_read(port, (uint32_t)tpgid, &trex_tpg.txc[port][tpgid].base[0],
			 &trex_tpg.txc[port][tpgid].base[1]);
	return trex_ok(res);
}

/* ---- unknown tags ---- */

/* The port a request names, when TPG counts there (TRex's check). */
static int
trex_tpg_unk_port(uint16_t port, char *err, size_t err_len)
{
	if (trex_tpg.user[0] == '\0' || trex_tpg.state == TPG_DISABLED_DP_RX || !trex_tpg.rx[port])
		return pvp_fail(err, err_len, -EBUSY,
				"Tagged Packet Group is not enabled or collecting on this port.");
	return 0;
}

int
trex_m_get_tpg_unknown_tags(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	json_t *list;
	uint16_t k;
	char pk[8];
	int ret = trex_tpg_unk_port(port, err, err_len);

	if (ret != 0)
		return ret;
	list = json_array();
	/* Each RX lcore's in turn, TRex's bound over them all. */
	for (k = 0; k < trex.g->rx.nb; k++) {
		const struct gen_tpg_unk *u = trex_tpg.unk[k][port];
		uint32_t i, n;

		if (__atomic_load_n(&u->clear, __ATOMIC_ACQUIRE) != trex_tpg.unk_clear[port])
			continue;
		n = __atomic_load_n(&u->n, __ATOMIC_ACQUIRE);
		for (i = 0; i < n && json_array_size(list) < GEN_TPG_MAX_UNKNOWN; i++) {
			json_t *tag;

			if (u->e[i].vlan2 == 0)
				tag = json_pack("{s:s,s:{s:i}}", "type", "Dot1Q", "value", "vlan",
						u->e[i].vlan);
			else
				tag = json_pack("{s:s,s:{s:[i,i]}}", "type", "QinQ", "value",
						"vlans", u->e[i].vlan, u->e[i].vlan2);
			json_array_append_new(list, json_pack("{s:o,s:I}", "tag", tag, "tpgid",
							      (json_int_t)u->e[i].tpgid));
		}
	}
	snprintf(pk, sizeof(pk), "%u", port);
	*res = json_pack("{s:o}", pk, list);
	return 0;
}

int
trex_m_clear_tpg_unknown_tags(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	int ret = trex_tpg_unk_port(port, err, err_len);

	if (ret != 0)
		return ret;
	/* The RX lcores start their lists again at their next unknown tag. */
	__atomic_store_n(&trex_tpg.unk_clear[port], trex_tpg.unk_clear[port] + 1, __ATOMIC_RELEASE);
	return trex_ok(res);
}
