/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex's tagged packet groups (doc/trex.rst, "Tagged packet groups"):
 * the tag table (Dot1Q and QinQ tags into tag ids), enable and disable
 * with TRex's state machine, and the per (RX port, tpgid, tag) counters
 * of get_tpg_stats (read and cleared by trex_tpg_stats.c; the streams
 * are trex_tpg_stream.c's). What TRex's server does in
 * trex_stl_rpc_cmds.cpp, trex_stl_tpg.cpp and trex_tpg_stats.cpp, with
 * its messages; the counting itself is the RX lcores' (../tpg.h).
 *
 * A TPG frame is the stream's packet with its last 16 bytes replaced by
 * TRex's header: magic, tpgid, seq and 0, 4 bytes each, little endian.
 * TRex keeps one seq per (port, tpgid) from enable to disable and sends a
 * tpgid's stream from one core; so does pvpkit-gen: a tpg stream takes a
 * port with one TX lcore, and its wire stream's seq is that count (saved
 * by trex_tpg_stream.c when a new profile replaces it). Unlike TRex, clear_tpg_stats
 * keeps a reader-side baseline: the expected seq lives on, so a frame in
 * order after a clear is no sequence error. One user's TPG at a time.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "trex_tpg_private.h"

/* Most bytes of RX counters one TPG context may take. */
#define TPG_MAX_BYTES (512ull << 20)

struct trex_tpg_ctx trex_tpg;

/* Counters of one RX port: 2^32 tpgids x 2^16 tags do not fit 32 bits. */
static uint64_t
trex_tpg_slots(void)
{
	return (uint64_t)trex_tpg.num_tpgids * (trex_tpg.num_tags + GEN_TPG_EXTRA);
}

/* ---- the tag table ---- */

static bool
trex_tpg_vlan_ok(json_int_t v)
{
	return v >= 1 && v <= 4094;
}

/*
 * Tag @p tag (a TRex tag object) into the map of @p t as tag id @p id.
 * Returns 0, or -EEXIST, -EPERM or -EOPNOTSUPP with TRex's message in @p err.
 */
static int
trex_tpg_map_add(struct gen_tpg *t, json_t *tag, uint16_t id, char *err, size_t err_len)
{
	const char *type = json_string_value(json_object_get(tag, "type"));
	json_t *val = json_object_get(tag, "value");

	if (type != NULL && strcmp(type, "Dot1Q") == 0) {
		json_int_t v = json_integer_value(json_object_get(val, "vlan"));

		if (!trex_tpg_vlan_ok(v) || t->dot1q[v] != 0)
			return pvp_fail(err, err_len, -EEXIST,
					"Vlan %lld already exists or is invalid!", (long long)v);
		t->dot1q[v] = (uint16_t)(id + 1);
		return 0;
	}
	if (type != NULL && strcmp(type, "QinQ") == 0) {
		json_t *vl = json_object_get(val, "vlans");
		json_int_t a = json_integer_value(json_array_get(vl, 0));
		json_int_t b = json_integer_value(json_array_get(vl, 1));
		uint32_t key = (uint32_t)a << 12 | (uint32_t)b, i;

		if (json_array_size(vl) != 2)
			return pvp_fail(err, err_len, -EPERM, "QinQ must contain 2 Vlans!");
		if (!trex_tpg_vlan_ok(a) || !trex_tpg_vlan_ok(b) || gen_tpg_qinq(t, key) != 0)
			return pvp_fail(err, err_len, -EEXIST,
					"QinQ (%lld,%lld) already exists or is invalid!",
					(long long)a, (long long)b);
		/* Kept sorted: the RX lcores search it. */
		for (i = t->nb_qinq; i > 0 && t->qinq_key[i - 1] > key; i--) {
			t->qinq_key[i] = t->qinq_key[i - 1];
			t->qinq_tag[i] = t->qinq_tag[i - 1];
		}
		t->qinq_key[i] = key;
		t->qinq_tag[i] = id;
		t->nb_qinq++;
		return 0;
	}
	return pvp_fail(err, err_len, -EOPNOTSUPP, "Tag type %s is not supported!",
			type != NULL ? type : "(none)");
}

static void
trex_tpg_table_free(struct gen_tpg *t)
{
	if (t == NULL)
		return;
	free(t->qinq_key);
	free(t->qinq_tag);
	free(t);
}

/* A table of trex_tpg.tags over the context's counters into @p out; 0 or -errno with @p err. */
static int
trex_tpg_table(struct gen_tpg **out, char *err, size_t err_len)
{
	struct gen_tpg *t = calloc(1, sizeof(*t));
	uint16_t i;
	json_t *tag;
	int ret;

	if (t != NULL) {
		t->qinq_key = calloc(trex_tpg.num_tags + 1u, sizeof(*t->qinq_key));
		t->qinq_tag = calloc(trex_tpg.num_tags + 1u, sizeof(*t->qinq_tag));
	}
	if (t == NULL || t->qinq_key == NULL || t->qinq_tag == NULL) {
		trex_tpg_table_free(t);
		return pvp_fail(err, err_len, -ENOMEM, "out of memory");
	}
	t->num_tpgids = trex_tpg.num_tpgids;
	t->num_tags = trex_tpg.num_tags;
	for (i = 0; i < trex_tpg.num_tags; i++) {
		tag = json_array_get(trex_tpg.tags, i);
		if (json_is_null(tag))
			continue;
		ret = trex_tpg_map_add(t, tag, i, err, err_len);
		if (ret != 0) {
			trex_tpg_table_free(t);
			return ret;
		}
	}
	memcpy(t->cnt, trex_tpg.cnt, sizeof(t->cnt));
	memcpy(t->unk, trex_tpg.unk, sizeof(t->unk));
	t->unk_clear = trex_tpg.unk_clear;
	*out = t;
	return 0;
}

/*
 * Put @p t in force on the RX lcores (NULL: count nothing) and free the
 * table it replaces once every RX lcore has let go of it. Returns false
 * when one did not within 2 s: the old table is then kept, never freed.
 */
static bool
trex_tpg_publish(struct gen_tpg *t)
{
	struct gen_ctx *g = trex.g;
	struct gen_tpg *old = trex_tpg.tbl;
	uint64_t deadline;
	uint16_t k;
	bool all;

	__atomic_store_n(&g->tpg, t, __ATOMIC_RELEASE);
	trex_tpg.tbl = t;
	deadline = rte_rdtsc() + 2 * g->hz;
	do {
		all = true;
		for (k = 0; k < g->rx.nb; k++)
			if (__atomic_load_n(&g->rx.rl[k]->tpg, __ATOMIC_ACQUIRE) != t)
				all = false;
		if (!all)
			usleep(100);
	} while (!all && rte_rdtsc() < deadline);
	if (!all) {
		/* Still read by an RX lcore that does not poll: kept, never freed. */
		GEN_LOG(WARNING, "an RX lcore did not take the new TPG table");
		return false;
	}
	trex_tpg_table_free(old);
	return true;
}

/* ---- the context ---- */

static void
trex_tpg_destroy(void)
{
	/* Counters an RX lcore may still write are left to it. */
	bool quiet = trex_tpg_publish(NULL);
	uint16_t k, p;

	for (p = 0; p < GEN_MAX_PORTS; p++) {
		for (k = 0; k < GEN_MAX_RX && quiet; k++) {
			free(trex_tpg.cnt[k][p]);
			free(trex_tpg.unk[k][p]);
		}
		free(trex_tpg.base[p]);
		free(trex_tpg.txc[p]);
	}
	json_decref(trex_tpg.tags);
	/* No user, TPG_DISABLED, no ports, no counters: the context as at boot. */
	memset(&trex_tpg, 0, sizeof(trex_tpg));
}

void
trex_tpg_free(void)
{
	if (trex_tpg.user[0] != '\0')
		trex_tpg_destroy();
}

/* Whether the context is @p user's. */
bool
trex_tpg_is(const char *user)
{
	return trex_tpg.user[0] != '\0' && strcmp(trex_tpg.user, user) == 0;
}

/* Ports of @p list into @p set, each acquired by @p user's session @p sid (TRex's check). */
static int
trex_tpg_ports(json_t *list, bool *set, const char *user, uint64_t sid, char *err, size_t err_len)
{
	size_t i;
	json_t *x;

	json_array_foreach(list, i, x) {
		json_int_t v = json_integer_value(x);

		if (!json_is_integer(x) || v < 0 || v >= trex.g->nb_ports)
			return pvp_fail(err, err_len, -ERANGE,
					"Invalid port number: %lld Max port number: %u",
					(long long)v, trex.g->nb_ports - 1);
		if (!trex.port[v].owned || strcmp(trex.port[v].owner, user) != 0 ||
		    trex.port[v].session_id != sid)
			return pvp_fail(
				err, err_len, -EPERM,
				"port %lld is not owned by you or your current executing session",
				(long long)v);
		set[v] = true;
	}
	return 0;
}

/* The first enable_tpg: the context, its tags and its counters (TRex's CP and Rx). */
static int
trex_tpg_enable_cp(json_t *p, const char *user, json_t **res, char *err, size_t err_len)
{
	struct gen_ctx *g = trex.g;
	json_t *ports, *rx, *tags, *tag;
	bool txp[GEN_MAX_PORTS] = {false}, rxp[GEN_MAX_PORTS] = {false};
	uint64_t sid, n;
	uint64_t bytes;
	size_t i;
	uint16_t k, port;
	struct gen_tpg *t;
	int ret;

	if (trex_param_uint(p, "session_id", UINT32_MAX, -1, &sid, err, err_len) != 0 ||
	    (ports = trex_param_array(p, "ports", err, err_len)) == NULL ||
	    (rx = trex_param_array(p, "rx_ports", err, err_len)) == NULL ||
	    trex_param_uint(p, "num_tpgids", UINT32_MAX, -1, &n, err, err_len) != 0 ||
	    (tags = trex_param_array(p, "tags", err, err_len)) == NULL)
		return -EINVAL;
	if (trex_tpg.user[0] != '\0')
		return pvp_fail(err, err_len, -EBUSY,
				"Tagged Packet Grouping is enabled by user %s: pvpkit-gen keeps "
				"one TPG context at a time",
				trex_tpg.user);
	if (json_array_size(tags) > UINT16_MAX)
		return pvp_fail(err, err_len, -ERANGE, "%zu tags: at most %u",
				json_array_size(tags), UINT16_MAX);
	ret = trex_tpg_ports(ports, txp, user, sid, err, err_len);
	if (ret == 0)
		ret = trex_tpg_ports(rx, rxp, user, sid, err, err_len);
	if (ret != 0)
		return ret;
	for (port = 0; port < g->nb_ports; port++)
		if (rxp[port] && !txp[port])
			return pvp_fail(err, err_len, -EPERM, "Rx Ports must be acquired!");
	json_array_foreach(tags, i, tag)
		if (!json_is_object(tag) || !json_is_object(json_object_get(tag, "value")) ||
		    !json_is_string(json_object_get(tag, "type")))
			return pvp_fail(err, err_len, -EINVAL,
					"tags[%zu] must be {\"type\": ..., \"value\": {...}}", i);
	trex_tpg.num_tpgids = (uint32_t)n;
	trex_tpg.num_tags = (uint16_t)json_array_size(tags);
	/* RX counters of each lcore and a baseline per RX port; TX counters per port. */
	for (port = 0, k = 0; port < g->nb_ports; port++)
		k += rxp[port];
	bytes = trex_tpg_slots() * sizeof(struct gen_tpg_cntr) * (g->rx.nb + 1u) * k +
		(trex_tpg.num_tpgids + 1ull) * sizeof(struct trex_tpg_tx) * g->nb_ports;
	if (bytes > TPG_MAX_BYTES)
		return pvp_fail(
			err, err_len, -ENOSPC,
			"Rx counter allocation failed! %u tpgids x %u tags on %u port(s) take "
			"%" PRIu64 " MiB; pvpkit-gen allocates at most %llu MiB",
			trex_tpg.num_tpgids, trex_tpg.num_tags, k, bytes >> 20,
			TPG_MAX_BYTES >> 20);
	/* The ports are the context's once nothing can fail but memory. */
	memcpy(trex_tpg.tx, txp, sizeof(txp));
	memcpy(trex_tpg.rx, rxp, sizeof(rxp));
	strlcpy(trex_tpg.user, user, sizeof(trex_tpg.user));
	trex_tpg.tags = json_deep_copy(tags);
	for (port = 0; port < g->nb_ports; port++) {
		trex_tpg.txc[port] = calloc(trex_tpg.num_tpgids + 1u, sizeof(struct trex_tpg_tx));
		if (trex_tpg.txc[port] == NULL)
			goto nomem;
		if (!trex_tpg.rx[port])
			continue;
		trex_tpg.base[port] = calloc(trex_tpg_slots() + 1u, sizeof(struct gen_tpg_cntr));
		if (trex_tpg.base[port] == NULL)
			goto nomem;
		for (k = 0; k < g->rx.nb; k++) {
			trex_tpg.cnt[k][port] =
				calloc(trex_tpg_slots() + 1u, sizeof(struct gen_tpg_cntr));
			/* Cache aligned: each RX lcore writes its own. */
			trex_tpg.unk[k][port] =
				aligned_alloc(RTE_CACHE_LINE_SIZE, sizeof(struct gen_tpg_unk));
			if (trex_tpg.cnt[k][port] == NULL || trex_tpg.unk[k][port] == NULL)
				goto nomem;
			memset(trex_tpg.unk[k][port], 0, sizeof(struct gen_tpg_unk));
		}
	}
	/* The tags are checked now: a bad one fails the enable, as in TRex. */
	ret = trex_tpg_table(&t, err, err_len);
	if (ret != 0) {
		trex_tpg_destroy();
		return ret;
	}
	trex_tpg_table_free(t);
	trex_tpg.state = TPG_ENABLED_CP_RX;
	return trex_ok(res);
nomem:
	trex_tpg_destroy();
	return pvp_fail(err, err_len, -ENOSPC, "Rx counter allocation failed!");
}

/* Loaded tpg streams start their seq from 0 again, as TRex's do on enable. */
static void
trex_tpg_seq_reset(void)
{
	struct gen_ctx *g = trex.g;
	uint16_t i;

	for (i = 0; i < g->nb_ws; i++) {
		const struct trex_stream *s = trex_ws_stream(g->ws[i]);

		if (s != NULL && s->tpg && !trex_port_active(s->port))
			g->ws[i]->seq = 0;
	}
}

int
trex_m_enable_tpg(json_t *p, json_t **res, char *err, size_t err_len)
{
	const char *user = trex_param_str(p, "username", NULL, err, err_len);
	struct gen_tpg *t;
	int ret;

	if (user == NULL)
		return -EINVAL;
	if (!trex_tpg_is(user) || trex_tpg.state == TPG_DISABLED)
		return trex_tpg_enable_cp(p, user, res, err, err_len);
	if (trex_tpg.state != TPG_ENABLED_CP_RX)
		return pvp_fail(err, err_len, -EBUSY,
				"Tagged Packet Group in Dp can be enabled only after Cp and Rx!");
	ret = trex_tpg_table(&t, err, err_len);
	if (ret != 0)
		return ret;
	trex_tpg_seq_reset();
	trex_tpg_publish(t);
	trex_tpg.state = TPG_ENABLED;
	return trex_ok(res);
}

int
trex_m_disable_tpg(json_t *p, json_t **res, char *err, size_t err_len)
{
	const char *user = trex_param_str(p, "username", NULL, err, err_len);

	if (user == NULL)
		return -EINVAL;
	if (!trex_tpg_is(user))
		return pvp_fail(err, err_len, -EBUSY, "Tagged Packet Group is not enabled.");
	if (trex_tpg.state == TPG_DISABLED_DP_RX) {
		trex_tpg_destroy();
		return trex_ok(res);
	}
	/* The RX lcores let go of the table at once: Rx is disabled when this returns. */
	trex_tpg_publish(NULL);
	trex_tpg.state = TPG_DISABLED_DP_RX;
	return trex_ok(res);
}

int
trex_m_get_tpg_state(json_t *p, json_t **res, char *err, size_t err_len)
{
	const char *user = trex_param_str(p, "username", NULL, err, err_len);

	if (user == NULL)
		return -EINVAL;
	*res = json_integer(trex_tpg_is(user) ? trex_tpg.state : TPG_DISABLED);
	return 0;
}

/* The context a request names by "username" or "port_id" (exactly one), or NULL. */
static int
trex_tpg_whose(json_t *p, const char *what, bool *mine, char *err, size_t err_len)
{
	const char *user = trex_param_str(p, "username", "", err, err_len);
	json_t *port = json_object_get(p, "port_id");
	bool has_port = port != NULL && !json_is_null(port);
	uint16_t id;

	if (user == NULL)
		return -EINVAL;
	if ((user[0] != '\0') == has_port)
		return pvp_fail(err, err_len, -ERANGE,
				"Should provide %s between port_id and username to get TPG %s",
				has_port ? "only one" : "at least one", what);
	if (has_port) {
		int ret = trex_param_port(p, &id, err, err_len);

		if (ret != 0)
			return ret;
	}
	*mine = trex_tpg.user[0] != '\0' &&
		(has_port ? trex_tpg.tx[id] : strcmp(trex_tpg.user, user) == 0);
	return 0;
}

static json_t *
trex_tpg_port_list(const bool *set)
{
	json_t *a = json_array();
	uint16_t port;

	for (port = 0; port < trex.g->nb_ports; port++)
		if (set[port])
			json_array_append_new(a, json_integer(port));
	return a;
}

int
trex_m_get_tpg_status(json_t *p, json_t **res, char *err, size_t err_len)
{
	bool mine, on;
	int ret;

	ret = trex_tpg_whose(p, "status", &mine, err, err_len);
	if (ret != 0)
		return ret;
	on = mine && trex_tpg.state == TPG_ENABLED;
	*res = json_pack(
		"{s:b,s:{s:o,s:o,s:s,s:I,s:i}}", "enabled", on, "data", "acquired_ports",
		trex_tpg_port_list(on ? trex_tpg.tx : (bool[GEN_MAX_PORTS]){0}), "rx_ports",
		trex_tpg_port_list(on ? trex_tpg.rx : (bool[GEN_MAX_PORTS]){0}), "username",
		on ? trex_tpg.user : "-", "num_tpgids", (json_int_t)(on ? trex_tpg.num_tpgids : 0),
		"num_tags", on ? trex_tpg.num_tags : 0);
	return 0;
}

int
trex_m_get_tpg_tags(json_t *p, json_t **res, char *err, size_t err_len)
{
	uint64_t lo, hi, i;
	json_t *a;
	bool mine;
	int ret;

	ret = -EINVAL;
	if (trex_param_uint(p, "min_tag", UINT16_MAX, -1, &lo, err, err_len) == 0 &&
	    trex_param_uint(p, "max_tag", UINT16_MAX, -1, &hi, err, err_len) == 0)
		ret = trex_tpg_whose(p, "tags", &mine, err, err_len);
	if (ret != 0)
		return ret;
	if (lo >= hi)
		return pvp_fail(err, err_len, -ERANGE,
				"Min Tag = %" PRIu64 " must be smaller than Max Tag = %" PRIu64, lo,
				hi);
	if (!mine || trex_tpg.state != TPG_ENABLED)
		return pvp_fail(err, err_len, -EBUSY, "Tagged Packet Group is not enabled.");
	if (hi > trex_tpg.num_tags)
		return pvp_fail(err, err_len, -ERANGE,
				"Max Tag %" PRIu64 " is larger than number of tags %u", hi,
				trex_tpg.num_tags);
	a = json_array();
	for (i = lo; i < hi; i++)
		json_array_append(a, json_array_get(trex_tpg.tags, i));
	*res = a;
	return 0;
}

int
trex_m_update_tpg_tags(json_t *p, json_t **res, char *err, size_t err_len)
{
	const char *user = trex_param_str(p, "username", NULL, err, err_len);
	json_t *tags, *tag, *old;
	struct gen_tpg *t;
	size_t i;
	int ret = -EINVAL;

	if (user == NULL || (tags = trex_param_array(p, "tags", err, err_len)) == NULL)
		return -EINVAL;
	if (!trex_tpg_is(user) || trex_tpg.state != TPG_ENABLED)
		return pvp_fail(err, err_len, -EBUSY, "Tagged Packet Group is not enabled.");
	old = json_deep_copy(trex_tpg.tags);
	json_array_foreach(tags, i, tag) {
		uint64_t id;
		json_t *type = json_object_get(tag, "type");

		if (!json_is_object(tag) ||
		    trex_param_uint(tag, "tag_id", UINT16_MAX, -1, &id, err, err_len) != 0)
			goto fail;
		if (id >= trex_tpg.num_tags) {
			ret = pvp_fail(err, err_len, -ERANGE,
				       "Tag Id %" PRIu64 " greater than num of tags %u", id,
				       trex_tpg.num_tags);
			goto fail;
		}
		if (type == NULL || json_is_null(type)) {
			if (json_is_null(json_array_get(trex_tpg.tags, id))) {
				ret = pvp_fail(err, err_len, -EPERM,
					       "Tag Id to remove: %" PRIu64 " is invalid!", id);
				goto fail;
			}
			json_array_set(trex_tpg.tags, id, json_null());
		} else {
			json_array_set_new(trex_tpg.tags, id,
					   json_pack("{s:O,s:O}", "type", type, "value",
						     json_object_get(tag, "value")));
		}
	}
	/* The new map is checked whole: a tag used twice fails the update, nothing changes. */
	ret = trex_tpg_table(&t, err, err_len);
	if (ret != 0)
		goto fail;
	trex_tpg_publish(t);
	json_decref(old);
	return trex_ok(res);
fail:
	json_decref(trex_tpg.tags);
	trex_tpg.tags = old;
	return ret;
}
