/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex's tagged packet groups (doc/trex.rst, "Tagged packet groups"):
 * the tag table (Dot1Q and QinQ tags into tag ids), enable and disable
 * with TRex's state machine, tpg streams, and the per (RX port, tpgid,
 * tag) counters of get_tpg_stats. What TRex's server does in
 * trex_stl_rpc_cmds.cpp, trex_stl_tpg.cpp and trex_tpg_stats.cpp, with
 * its messages; the counting itself is the RX lcores' (../tpg.h).
 *
 * A TPG frame is the stream's packet with its last 16 bytes replaced by
 * TRex's header: magic, tpgid, seq and 0, 4 bytes each, little endian.
 * TRex keeps one seq per (port, tpgid) from enable to disable and sends a
 * tpgid's stream from one core; so does pvpkit-gen: a tpg stream takes a
 * port with one TX lcore, and its wire stream's seq is that count (saved
 * here when a new profile replaces it). Unlike TRex, clear_tpg_stats
 * keeps a reader-side baseline: the expected seq lives on, so a frame in
 * order after a clear is no sequence error. One user's TPG at a time.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "trex.h"
#include "../tpg.h"

/* TRex's TPGState, as get_tpg_state answers it. */
enum trex_tpg_state {
	TPG_DISABLED = 0,
	TPG_ENABLED_CP = 1,
	TPG_ENABLED_CP_RX = 2,
	TPG_ENABLED = 3,
	TPG_DISABLED_DP = 4,
	TPG_DISABLED_DP_RX = 5,
};

/* Most bytes of RX counters one TPG context may take. */
#define TPG_MAX_BYTES (512ull << 20)
/* TRex's own bounds: counters cleared by one clear_updated. */
#define TPG_MAX_CLEAR 2048

static struct {
	enum trex_tpg_state state;
	char user[64];		/* whose context, "" when none */
	uint32_t num_tpgids;	/* tpgids 0..num_tpgids-1 */
	uint16_t num_tags;	/* tag ids */
	json_t *tags;		/* [num_tags]: TRex's tag objects, null: invalidated */
	bool tx[GEN_MAX_PORTS]; /* acquired ports: may send tpg streams */
	bool rx[GEN_MAX_PORTS]; /* ports whose frames are counted */
	struct gen_tpg *tbl;	/* the table published in gen.tpg, NULL: none */
	struct gen_tpg_cntr *cnt[GEN_MAX_RX][GEN_MAX_PORTS]; /* RX lcores' counters */
	struct gen_tpg_cntr *base[GEN_MAX_PORTS];	     /* clear baselines, summed */
	uint32_t *seq[GEN_MAX_PORTS]; /* next seq of each tpgid, while not loaded */
	/* TX counters of each tpgid: frames are its seq; bytes of the loads before. */
	uint32_t *seq0[GEN_MAX_PORTS];	 /* seq when the loaded stream took over */
	uint64_t *txb[GEN_MAX_PORTS];	 /* bytes (FCS included) sent before that */
	uint64_t *txbase[GEN_MAX_PORTS]; /* clear_tpg_tx_stats: [2 * tpgid] frames, + 1 bytes */
} tpg;

/* Counters of one RX port: 2^32 tpgids x 2^16 tags do not fit 32 bits. */
static uint64_t
trex_tpg_slots(void)
{
	return (uint64_t)tpg.num_tpgids * (tpg.num_tags + GEN_TPG_EXTRA);
}

/* ---- the tag table ---- */

static bool
trex_tpg_vlan_ok(json_int_t v)
{
	return v >= 1 && v <= 4094;
}

/*
 * Tag @p tag (a TRex tag object) into the map of @p t as tag id @p id.
 * Returns 0, or -EEXIST / -EINVAL with TRex's message in @p e.
 */
static int
trex_tpg_map_add(struct gen_tpg *t, json_t *tag, uint16_t id, struct trex_err *e)
{
	const char *type = json_string_value(json_object_get(tag, "type"));
	json_t *val = json_object_get(tag, "value");

	if (type != NULL && strcmp(type, "Dot1Q") == 0) {
		json_int_t v = json_integer_value(json_object_get(val, "vlan"));

		if (!trex_tpg_vlan_ok(v) || t->dot1q[v] != 0) {
			trex_fail(e, TREX_E_EXEC, "Vlan %lld already exists or is invalid!",
				  (long long)v);
			return -EEXIST;
		}
		t->dot1q[v] = (uint16_t)(id + 1);
		return 0;
	}
	if (type != NULL && strcmp(type, "QinQ") == 0) {
		json_t *vl = json_object_get(val, "vlans");
		json_int_t a = json_integer_value(json_array_get(vl, 0));
		json_int_t b = json_integer_value(json_array_get(vl, 1));
		uint32_t key = (uint32_t)a << 12 | (uint32_t)b, i;

		if (json_array_size(vl) != 2) {
			trex_fail(e, TREX_E_EXEC, "QinQ must contain 2 Vlans!");
			return -EINVAL;
		}
		if (!trex_tpg_vlan_ok(a) || !trex_tpg_vlan_ok(b) || gen_tpg_qinq(t, key) != 0) {
			trex_fail(e, TREX_E_EXEC, "QinQ (%lld,%lld) already exists or is invalid!",
				  (long long)a, (long long)b);
			return -EEXIST;
		}
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
	trex_fail(e, TREX_E_EXEC, "Tag type %s is not supported!", type != NULL ? type : "(none)");
	return -EINVAL;
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

/* A table of tpg.tags over the context's counters, or NULL with @p e set. */
static struct gen_tpg *
trex_tpg_table(struct trex_err *e)
{
	struct gen_tpg *t = calloc(1, sizeof(*t));
	uint16_t i, k, p;
	json_t *tag;

	if (t != NULL) {
		t->qinq_key = calloc(tpg.num_tags + 1u, sizeof(*t->qinq_key));
		t->qinq_tag = calloc(tpg.num_tags + 1u, sizeof(*t->qinq_tag));
	}
	if (t == NULL || t->qinq_key == NULL || t->qinq_tag == NULL) {
		trex_tpg_table_free(t);
		trex_fail(e, TREX_E_INTERNAL, "out of memory");
		return NULL;
	}
	t->num_tpgids = tpg.num_tpgids;
	t->num_tags = tpg.num_tags;
	for (i = 0; i < tpg.num_tags; i++) {
		tag = json_array_get(tpg.tags, i);
		if (!json_is_null(tag) && trex_tpg_map_add(t, tag, i, e) != 0) {
			trex_tpg_table_free(t);
			return NULL;
		}
	}
	for (k = 0; k < GEN_MAX_RX; k++)
		for (p = 0; p < GEN_MAX_PORTS; p++)
			t->cnt[k][p] = tpg.cnt[k][p];
	return t;
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
	struct gen_tpg *old = tpg.tbl;
	uint64_t deadline;
	uint16_t k;
	bool all;

	__atomic_store_n(&g->tpg, t, __ATOMIC_RELEASE);
	tpg.tbl = t;
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
	uint16_t k, p;
	bool quiet;

	/* Counters an RX lcore may still write are left to it. */
	quiet = trex_tpg_publish(NULL);
	for (p = 0; p < GEN_MAX_PORTS; p++) {
		for (k = 0; k < GEN_MAX_RX; k++) {
			if (quiet)
				free(tpg.cnt[k][p]);
			tpg.cnt[k][p] = NULL;
		}
		free(tpg.base[p]);
		free(tpg.seq[p]);
		free(tpg.seq0[p]);
		free(tpg.txb[p]);
		free(tpg.txbase[p]);
		tpg.base[p] = NULL;
		tpg.seq[p] = NULL;
		tpg.seq0[p] = NULL;
		tpg.txb[p] = NULL;
		tpg.txbase[p] = NULL;
	}
	json_decref(tpg.tags);
	tpg.tags = NULL;
	tpg.user[0] = '\0';
	tpg.state = TPG_DISABLED;
	memset(tpg.tx, 0, sizeof(tpg.tx));
	memset(tpg.rx, 0, sizeof(tpg.rx));
}

void
trex_tpg_free(void)
{
	if (tpg.user[0] != '\0')
		trex_tpg_destroy();
}

/* Whether @p p names the context's user ("username"). NULL with @p e set on a bad param. */
static const char *
trex_tpg_user(json_t *p, struct trex_err *e)
{
	return trex_param_str(p, "username", NULL, e);
}

/* Whether the context is @p user's. */
static bool
trex_tpg_is(const char *user)
{
	return tpg.user[0] != '\0' && strcmp(tpg.user, user) == 0;
}

/* Ports of @p list into @p set, each acquired by @p user's session @p sid (TRex's check). */
static int
trex_tpg_ports(json_t *list, bool *set, const char *user, uint64_t sid, struct trex_err *e)
{
	size_t i;
	json_t *x;

	json_array_foreach(list, i, x) {
		json_int_t v = json_integer_value(x);

		if (!json_is_integer(x) || v < 0 || v >= trex.g->nb_ports) {
			trex_fail(e, TREX_E_EXEC, "Invalid port number: %lld Max port number: %u",
				  (long long)v, trex.g->nb_ports - 1);
			return -EINVAL;
		}
		if (!trex.port[v].owned || strcmp(trex.port[v].owner, user) != 0 ||
		    trex.port[v].session_id != sid) {
			trex_fail(e, TREX_E_EXEC,
				  "port %lld is not owned by you or your current executing session",
				  (long long)v);
			return -EPERM;
		}
		set[v] = true;
	}
	return 0;
}

/* The first enable_tpg: the context, its tags and its counters (TRex's CP and Rx). */
static json_t *
trex_tpg_enable_cp(json_t *p, const char *user, struct trex_err *e)
{
	struct gen_ctx *g = trex.g;
	json_t *ports, *rx, *tags, *tag;
	uint64_t sid, n;
	uint64_t bytes;
	size_t i;
	uint16_t k, port;
	struct gen_tpg *t;

	if (trex_param_uint(p, "session_id", UINT32_MAX, -1, &sid, e) != 0 ||
	    (ports = trex_param_array(p, "ports", e)) == NULL ||
	    (rx = trex_param_array(p, "rx_ports", e)) == NULL ||
	    trex_param_uint(p, "num_tpgids", UINT32_MAX, -1, &n, e) != 0 ||
	    (tags = trex_param_array(p, "tags", e)) == NULL)
		return NULL;
	if (tpg.user[0] != '\0')
		return trex_fail(e, TREX_E_EXEC,
				 "Tagged Packet Grouping is enabled by user %s: pvpkit-gen keeps "
				 "one TPG context at a time",
				 tpg.user);
	if (json_array_size(tags) > UINT16_MAX)
		return trex_fail(e, TREX_E_EXEC, "%zu tags: at most %u", json_array_size(tags),
				 UINT16_MAX);
	if (trex_tpg_ports(ports, tpg.tx, user, sid, e) != 0 ||
	    trex_tpg_ports(rx, tpg.rx, user, sid, e) != 0)
		goto fail;
	for (port = 0; port < g->nb_ports; port++)
		if (tpg.rx[port] && !tpg.tx[port]) {
			trex_fail(e, TREX_E_EXEC, "Rx Ports must be acquired!");
			goto fail;
		}
	json_array_foreach(tags, i, tag)
		if (!json_is_object(tag) || !json_is_object(json_object_get(tag, "value")) ||
		    !json_is_string(json_object_get(tag, "type"))) {
			trex_fail(e, TREX_E_PARAMS,
				  "tags[%zu] must be {\"type\": ..., \"value\": {...}}", i);
			goto fail;
		}
	tpg.num_tpgids = (uint32_t)n;
	tpg.num_tags = (uint16_t)json_array_size(tags);
	/* RX counters of each lcore and a baseline per RX port; TX counters per port. */
	for (port = 0, k = 0; port < g->nb_ports; port++)
		k += tpg.rx[port];
	bytes = trex_tpg_slots() * sizeof(struct gen_tpg_cntr) * (g->rx.nb + 1u) * k +
		(tpg.num_tpgids + 1ull) * 32 * g->nb_ports;
	if (bytes > TPG_MAX_BYTES) {
		trex_fail(e, TREX_E_EXEC,
			  "Rx counter allocation failed! %u tpgids x %u tags on %u port(s) take "
			  "%" PRIu64 " MiB; pvpkit-gen allocates at most %llu MiB",
			  tpg.num_tpgids, tpg.num_tags, k, bytes >> 20, TPG_MAX_BYTES >> 20);
		goto fail;
	}
	strlcpy(tpg.user, user, sizeof(tpg.user));
	tpg.tags = json_deep_copy(tags);
	for (port = 0; port < g->nb_ports; port++) {
		tpg.seq[port] = calloc(tpg.num_tpgids + 1u, sizeof(uint32_t));
		tpg.seq0[port] = calloc(tpg.num_tpgids + 1u, sizeof(uint32_t));
		tpg.txb[port] = calloc(tpg.num_tpgids + 1u, sizeof(uint64_t));
		tpg.txbase[port] = calloc(2 * (tpg.num_tpgids + 1ull), sizeof(uint64_t));
		if (tpg.seq[port] == NULL || tpg.seq0[port] == NULL || tpg.txb[port] == NULL ||
		    tpg.txbase[port] == NULL)
			goto nomem;
		if (!tpg.rx[port])
			continue;
		tpg.base[port] = calloc(trex_tpg_slots() + 1u, sizeof(struct gen_tpg_cntr));
		if (tpg.base[port] == NULL)
			goto nomem;
		for (k = 0; k < g->rx.nb; k++) {
			tpg.cnt[k][port] =
				calloc(trex_tpg_slots() + 1u, sizeof(struct gen_tpg_cntr));
			if (tpg.cnt[k][port] == NULL)
				goto nomem;
		}
	}
	/* The tags are checked now: a bad one fails the enable, as in TRex. */
	t = trex_tpg_table(e);
	if (t == NULL) {
		trex_tpg_destroy();
		return NULL;
	}
	trex_tpg_table_free(t);
	tpg.state = TPG_ENABLED_CP_RX;
	return json_object();
nomem:
	trex_tpg_destroy();
	return trex_fail(e, TREX_E_EXEC, "Rx counter allocation failed!");
fail:
	memset(tpg.tx, 0, sizeof(tpg.tx));
	memset(tpg.rx, 0, sizeof(tpg.rx));
	return NULL;
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

json_t *
trex_m_enable_tpg(json_t *p, struct trex_err *e)
{
	const char *user = trex_tpg_user(p, e);
	struct gen_tpg *t;

	if (user == NULL)
		return NULL;
	if (!trex_tpg_is(user) || tpg.state == TPG_DISABLED)
		return trex_tpg_enable_cp(p, user, e);
	if (tpg.state != TPG_ENABLED_CP_RX)
		return trex_fail(e, TREX_E_EXEC,
				 "Tagged Packet Group in Dp can be enabled only after Cp and Rx!");
	t = trex_tpg_table(e);
	if (t == NULL)
		return NULL;
	trex_tpg_seq_reset();
	trex_tpg_publish(t);
	tpg.state = TPG_ENABLED;
	return json_object();
}

json_t *
trex_m_disable_tpg(json_t *p, struct trex_err *e)
{
	const char *user = trex_tpg_user(p, e);

	if (user == NULL)
		return NULL;
	if (!trex_tpg_is(user))
		return trex_fail(e, TREX_E_EXEC, "Tagged Packet Group is not enabled.");
	if (tpg.state == TPG_DISABLED_DP_RX) {
		trex_tpg_destroy();
		return json_object();
	}
	/* The RX lcores let go of the table at once: Rx is disabled when this returns. */
	trex_tpg_publish(NULL);
	tpg.state = TPG_DISABLED_DP_RX;
	return json_object();
}

json_t *
trex_m_get_tpg_state(json_t *p, struct trex_err *e)
{
	const char *user = trex_tpg_user(p, e);

	if (user == NULL)
		return NULL;
	if (!trex_tpg_is(user))
		return json_integer(TPG_DISABLED);
	return json_integer(tpg.state);
}

/* The context a request names by "username" or "port_id" (exactly one), or NULL. */
static int
trex_tpg_whose(json_t *p, const char *what, bool *mine, struct trex_err *e)
{
	const char *user = trex_param_str(p, "username", "", e);
	json_t *port = json_object_get(p, "port_id");
	bool has_port = port != NULL && !json_is_null(port);
	uint16_t id;

	if (user == NULL)
		return -EINVAL;
	if (user[0] != '\0' && has_port) {
		trex_fail(e, TREX_E_EXEC,
			  "Should provide only one between port_id and username to get TPG %s",
			  what);
		return -EINVAL;
	}
	if (user[0] == '\0' && !has_port) {
		trex_fail(e, TREX_E_EXEC,
			  "Should provide at least one between port_id and username to get TPG %s",
			  what);
		return -EINVAL;
	}
	if (has_port && trex_param_port(p, &id, e) != 0)
		return -EINVAL;
	*mine = tpg.user[0] != '\0' && (has_port ? tpg.tx[id] : strcmp(tpg.user, user) == 0);
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

json_t *
trex_m_get_tpg_status(json_t *p, struct trex_err *e)
{
	bool mine, on;

	if (trex_tpg_whose(p, "status", &mine, e) != 0)
		return NULL;
	on = mine && tpg.state == TPG_ENABLED;
	return json_pack("{s:b,s:{s:o,s:o,s:s,s:I,s:i}}", "enabled", on, "data", "acquired_ports",
			 trex_tpg_port_list(on ? tpg.tx : (bool[GEN_MAX_PORTS]){0}), "rx_ports",
			 trex_tpg_port_list(on ? tpg.rx : (bool[GEN_MAX_PORTS]){0}), "username",
			 on ? tpg.user : "-", "num_tpgids", (json_int_t)(on ? tpg.num_tpgids : 0),
			 "num_tags", on ? tpg.num_tags : 0);
}

json_t *
trex_m_get_tpg_tags(json_t *p, struct trex_err *e)
{
	uint64_t lo, hi, i;
	json_t *a;
	bool mine;

	if (trex_param_uint(p, "min_tag", UINT16_MAX, -1, &lo, e) != 0 ||
	    trex_param_uint(p, "max_tag", UINT16_MAX, -1, &hi, e) != 0 ||
	    trex_tpg_whose(p, "tags", &mine, e) != 0)
		return NULL;
	if (lo >= hi)
		return trex_fail(e, TREX_E_EXEC,
				 "Min Tag = %" PRIu64 " must be smaller than Max Tag = %" PRIu64,
				 lo, hi);
	if (!mine || tpg.state != TPG_ENABLED)
		return trex_fail(e, TREX_E_EXEC, "Tagged Packet Group is not enabled.");
	if (hi > tpg.num_tags)
		return trex_fail(e, TREX_E_EXEC,
				 "Max Tag %" PRIu64 " is larger than number of tags %u", hi,
				 tpg.num_tags);
	a = json_array();
	for (i = lo; i < hi; i++)
		json_array_append(a, json_array_get(tpg.tags, i));
	return a;
}

json_t *
trex_m_update_tpg_tags(json_t *p, struct trex_err *e)
{
	const char *user = trex_tpg_user(p, e);
	json_t *tags, *tag, *old;
	struct gen_tpg *t;
	size_t i;

	if (user == NULL || (tags = trex_param_array(p, "tags", e)) == NULL)
		return NULL;
	if (!trex_tpg_is(user) || tpg.state != TPG_ENABLED)
		return trex_fail(e, TREX_E_EXEC, "Tagged Packet Group is not enabled.");
	old = json_deep_copy(tpg.tags);
	json_array_foreach(tags, i, tag) {
		uint64_t id;
		json_t *type = json_object_get(tag, "type");

		if (!json_is_object(tag) ||
		    trex_param_uint(tag, "tag_id", UINT16_MAX, -1, &id, e) != 0)
			goto fail;
		if (id >= tpg.num_tags) {
			trex_fail(e, TREX_E_EXEC, "Tag Id %" PRIu64 " greater than num of tags %u",
				  id, tpg.num_tags);
			goto fail;
		}
		if (type == NULL || json_is_null(type)) {
			if (json_is_null(json_array_get(tpg.tags, id))) {
				trex_fail(e, TREX_E_EXEC,
					  "Tag Id to remove: %" PRIu64 " is invalid!", id);
				goto fail;
			}
			json_array_set(tpg.tags, id, json_null());
		} else {
			json_array_set_new(tpg.tags, id,
					   json_pack("{s:O,s:O}", "type", type, "value",
						     json_object_get(tag, "value")));
		}
	}
	/* The new map is checked whole: a tag used twice fails the update, nothing changes. */
	t = trex_tpg_table(e);
	if (t == NULL)
		goto fail;
	trex_tpg_publish(t);
	json_decref(old);
	return json_object();
fail:
	json_decref(tpg.tags);
	tpg.tags = old;
	return NULL;
}

/* ---- counters ---- */

/* The summed counters of slot @p idx of @p port, less the baseline. */
static struct gen_tpg_cntr
trex_tpg_read(uint16_t port, uint64_t idx)
{
	struct gen_tpg_cntr s = {0};
	const struct gen_tpg_cntr *b = &tpg.base[port][idx];
	uint16_t k;

	for (k = 0; k < trex.g->rx.nb; k++) {
		const struct gen_tpg_cntr *c = &tpg.cnt[k][port][idx];

		s.pkts += c->pkts;
		s.bytes += c->bytes;
		s.seq_err += c->seq_err;
		s.seq_err_big += c->seq_err_big;
		s.seq_err_small += c->seq_err_small;
		s.dup += c->dup;
		s.ooo += c->ooo;
	}
	s.pkts -= b->pkts;
	s.bytes -= b->bytes;
	s.seq_err -= b->seq_err;
	s.seq_err_big -= b->seq_err_big;
	s.seq_err_small -= b->seq_err_small;
	s.dup -= b->dup;
	s.ooo -= b->ooo;
	return s;
}

static bool
trex_tpg_same(const struct gen_tpg_cntr *a, const struct gen_tpg_cntr *b)
{
	return a->pkts == b->pkts && a->bytes == b->bytes && a->seq_err == b->seq_err &&
	       a->seq_err_big == b->seq_err_big && a->seq_err_small == b->seq_err_small &&
	       a->dup == b->dup && a->ooo == b->ooo;
}

/* TRex's counter object; an unknown tag has no sequence counters. */
static json_t *
trex_tpg_json(const struct gen_tpg_cntr *c, bool unknown)
{
	if (unknown)
		return json_pack("{s:I,s:I}", "pkts", (json_int_t)c->pkts, "bytes",
				 (json_int_t)c->bytes);
	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "pkts", (json_int_t)c->pkts, "bytes",
			 (json_int_t)c->bytes, "seq_err", (json_int_t)c->seq_err, "seq_err_too_big",
			 (json_int_t)c->seq_err_big, "seq_err_too_small",
			 (json_int_t)c->seq_err_small, "ooo", (json_int_t)c->ooo, "dup",
			 (json_int_t)c->dup);
}

/* Checks common to the stats methods: TPG on, the port counting, the tpgid in range. */
static int
trex_tpg_stats_args(json_t *p, uint16_t *port, uint64_t *tpgid, bool *unknown, bool *untagged,
		    struct trex_err *e)
{
	if (trex_param_port(p, port, e) != 0 ||
	    trex_param_uint(p, "tpgid", UINT32_MAX, -1, tpgid, e) != 0 ||
	    trex_param_bool(p, "unknown_tag", 0, unknown, e) != 0 ||
	    trex_param_bool(p, "untagged", 0, untagged, e) != 0)
		return -EINVAL;
	if (tpg.user[0] == '\0' || tpg.state != TPG_ENABLED || !tpg.tx[*port]) {
		trex_fail(e, TREX_E_EXEC, "Tagged Packet Group is not enabled on this port.");
		return -ENOENT;
	}
	if (!tpg.rx[*port]) {
		trex_fail(e, TREX_E_EXEC, "Port %u is not a valid port for TPG stats.", *port);
		return -EINVAL;
	}
	if (*tpgid >= tpg.num_tpgids) {
		trex_fail(e, TREX_E_EXEC, "tpgid %" PRIu64 " is bigger than the max allowed tpgid.",
			  *tpgid);
		return -ERANGE;
	}
	return 0;
}

/* A [min, max) tag range as TRex checks it. */
static int
trex_tpg_range(uint64_t lo, uint64_t hi, bool unknown, bool untagged, struct trex_err *e)
{
	if (lo > hi) {
		trex_fail(e, TREX_E_EXEC,
			  "Min Tag = %" PRIu64 " must be smaller/equal than Max Tag = %" PRIu64, lo,
			  hi);
		return -EINVAL;
	}
	if (lo == hi && !unknown && !untagged) {
		trex_fail(e, TREX_E_EXEC,
			  "Min Tag can equal Max Tag iff unknown tag or untagged flags provided.");
		return -EINVAL;
	}
	if (hi > tpg.num_tags) {
		trex_fail(e, TREX_E_EXEC, "Max Tag %" PRIu64 " is larger than number of tags %u",
			  hi, tpg.num_tags);
		return -ERANGE;
	}
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

/*
 * One section of a tpgid's counters, as TRex's RxTPGPerPort::get_tpg_stats
 * gives it: the tags from min_tag on whose counters are all equal, under
 * "min-last" (or "min" alone), then "untagged" and "unknown_tag" if asked.
 * The client asks again from last + 1 until it reaches max_tag.
 */
json_t *
trex_m_get_tpg_stats(json_t *p, struct trex_err *e)
{
	uint64_t tpgid, lo, hi;
	uint64_t row;
	uint32_t i;
	bool unknown, untagged;
	uint16_t port;
	json_t *st;
	char key[32];

	if (trex_tpg_stats_args(p, &port, &tpgid, &unknown, &untagged, e) != 0 ||
	    trex_param_uint(p, "min_tag", UINT16_MAX, -1, &lo, e) != 0 ||
	    trex_param_uint(p, "max_tag", UINT16_MAX, -1, &hi, e) != 0 ||
	    trex_tpg_range(lo, hi, unknown, untagged, e) != 0)
		return NULL;
	row = tpgid * (tpg.num_tags + GEN_TPG_EXTRA);
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
		json_object_set_new(st, key, trex_tpg_json(&ref, false));
	}
	if (untagged) {
		struct gen_tpg_cntr c = trex_tpg_read(port, row + tpg.num_tags + 1);

		json_object_set_new(st, "untagged", trex_tpg_json(&c, false));
	}
	if (unknown) {
		struct gen_tpg_cntr c = trex_tpg_read(port, row + tpg.num_tags);

		json_object_set_new(st, "unknown_tag", trex_tpg_json(&c, true));
	}
	return trex_tpg_wrap(port, (uint32_t)tpgid, st);
}

/* Take slot @p idx of @p port's counters as its new zero. */
static void
trex_tpg_zero(uint16_t port, uint64_t idx)
{
	struct gen_tpg_cntr *b = &tpg.base[port][idx];
	struct gen_tpg_cntr c = trex_tpg_read(port, idx);

	b->pkts += c.pkts;
	b->bytes += c.bytes;
	b->seq_err += c.seq_err;
	b->seq_err_big += c.seq_err_big;
	b->seq_err_small += c.seq_err_small;
	b->dup += c.dup;
	b->ooo += c.ooo;
}

json_t *
trex_m_clear_tpg_stats(json_t *p, struct trex_err *e)
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

	if (has_list == has_max)
		return trex_fail(e, TREX_E_EXEC,
				 "One between max_tag and tag_list should be provided in "
				 "clear_tpg_stats.");
	if (trex_tpg_stats_args(p, &port, &tpgid, &unknown, &untagged, e) != 0 ||
	    trex_param_uint(p, "min_tag", UINT16_MAX, 0, &lo, e) != 0)
		return NULL;
	row = tpgid * (tpg.num_tags + GEN_TPG_EXTRA);
	if (has_list) {
		if (!json_is_array(list))
			return trex_fail(e, TREX_E_PARAMS, "'tag_list' must be an array");
		/* All checked before any is cleared. */
		json_array_foreach(list, i, x)
			if (!json_is_integer(x) || json_integer_value(x) < 0 ||
			    json_integer_value(x) >= tpg.num_tags)
				return trex_fail(e, TREX_E_EXEC,
						 "Tag %lld is larger than number of tags %u",
						 (long long)json_integer_value(x), tpg.num_tags);
		json_array_foreach(list, i, x)
			trex_tpg_zero(port, row + (uint32_t)json_integer_value(x));
	} else {
		if (trex_param_uint(p, "max_tag", UINT16_MAX, -1, &hi, e) != 0 ||
		    trex_tpg_range(lo, hi, unknown, untagged, e) != 0)
			return NULL;
		for (i = lo; i < hi; i++)
			trex_tpg_zero(port, row + (uint32_t)i);
	}
	if (untagged)
		trex_tpg_zero(port, row + tpg.num_tags + 1);
	if (unknown)
		trex_tpg_zero(port, row + tpg.num_tags);
	return json_object();
}

/* update_tpg_tags(clear=True): the tags of @p tag_list for tpgids [min, max) of a port. */
json_t *
trex_m_clear_updated(json_t *p, struct trex_err *e)
{
	const char *user = trex_tpg_user(p, e);
	json_t *list, *x;
	uint64_t lo, hi, id;
	uint16_t port;
	size_t i;

	if (user == NULL || trex_param_port(p, &port, e) != 0 ||
	    trex_param_uint(p, "min_tpgid", UINT32_MAX, -1, &lo, e) != 0 ||
	    trex_param_uint(p, "max_tpgid", UINT32_MAX, -1, &hi, e) != 0 ||
	    (list = trex_param_array(p, "tag_list", e)) == NULL)
		return NULL;
	if (!trex_tpg_is(user) || tpg.state != TPG_ENABLED)
		return trex_fail(e, TREX_E_EXEC, "Tagged Packet Group is not enabled.");
	if (!tpg.rx[port])
		return trex_fail(e, TREX_E_EXEC, "Port %u is not a valid port for TPG stats.",
				 port);
	if (hi > tpg.num_tpgids)
		return trex_fail(e, TREX_E_EXEC,
				 "tpgid %" PRIu64 " is bigger than the max allowed tpgid.", hi);
	if (lo >= hi)
		return trex_fail(e, TREX_E_EXEC,
				 "max tpgid %" PRIu64 " is bigger than min tpgid %" PRIu64, hi, lo);
	if ((hi - lo) * json_array_size(list) > TPG_MAX_CLEAR)
		return trex_fail(e, TREX_E_EXEC,
				 "Num Stats to clear %" PRIu64
				 " is too big. Decrease list of tags.",
				 (hi - lo) * json_array_size(list));
	json_array_foreach(list, i, x)
		if (!json_is_integer(x) || json_integer_value(x) < 0 ||
		    json_integer_value(x) >= tpg.num_tags)
			return trex_fail(e, TREX_E_EXEC,
					 "Tag %lld is larger than number of tags %u",
					 (long long)json_integer_value(x), tpg.num_tags);
	for (id = lo; id < hi; id++)
		json_array_foreach(list, i, x)
			trex_tpg_zero(port, id * (tpg.num_tags + GEN_TPG_EXTRA) +
						    (uint32_t)json_integer_value(x));
	return json_object();
}

/* ---- streams ---- */

int
trex_tpg_stream_check(const struct trex_stream *s, int64_t core, struct trex_err *e)
{
	uint32_t i;

	if (core >= 0) {
		trex_fail(e, TREX_E_EXEC,
			  "Core ID pinning is not supported for sequenced streams.");
		return -EINVAL;
	}
	if (tpg.user[0] == '\0' || tpg.state != TPG_ENABLED || !tpg.tx[s->port]) {
		trex_fail(e, TREX_E_EXEC,
			  "Trying to add a TPG stream but TPG isn't enabled in this port.");
		return -ENOENT;
	}
	if (s->pgid >= tpg.num_tpgids) {
		trex_fail(e, TREX_E_EXEC,
			  "Invalid tpgid %u. The maximal tpgid allowed for this port is %d",
			  s->pgid, (int)tpg.num_tpgids - 1);
		return -ERANGE;
	}
	for (i = 0; i < trex.port[s->port].nb_streams; i++) {
		const struct trex_stream *o = trex.port[s->port].streams[i];

		if (o->tpg && o->pgid == s->pgid) {
			trex_fail(e, TREX_E_EXEC,
				  "Tagged Packet Group ID %u already in use. Can't use the same id "
				  "for two streams.",
				  s->pgid);
			return -EEXIST;
		}
	}
	/* TRex sends a tpgid from one core: its seq is one count. */
	if (trex.g->port[s->port].nb_txq != 1) {
		trex_fail(e, TREX_E_EXEC,
			  "a tpg stream is sent by one TX lcore (TRex sends sequenced streams "
			  "from one core): port %u has %u; start pvpkit-gen with --tx-cores 1",
			  s->port, trex.g->port[s->port].nb_txq);
		return -ENOTSUP;
	}
	return 0;
}

int
trex_tpg_frame(const struct trex_stream *ts, struct pvp_stream *s, char *msg, size_t len)
{
	struct pvp_pkt_layout lay;
	uint32_t hdr[4];
	uint32_t payload;

	if (pvp_pkt_parse(ts->pkt, ts->len, &lay) != 0 || lay.payload_off == 0) {
		snprintf(msg, len, "a tpg stream needs an IPv4/IPv6 packet with UDP or TCP");
		return -EINVAL;
	}
	payload = lay.l3_end > lay.payload_off ? lay.l3_end - lay.payload_off : 0;
	if (payload < GEN_TPG_HDR_LEN) {
		snprintf(msg, len,
			 "Need at least %u payload bytes for TPG Payload Header. Packet only has "
			 "%u bytes",
			 GEN_TPG_HDR_LEN, payload);
		return -EINVAL;
	}
	if (s->n_tmpl != 1) {
		snprintf(msg, len,
			 "a tpg stream of packets of several sizes is not supported by "
			 "pvpkit-gen");
		return -ENOTSUP;
	}
	/* At the frame's end, as TRex writes it: seq 0 here, the TX lcore's on the wire. */
	hdr[0] = rte_cpu_to_le_32(GEN_TPG_MAGIC);
	hdr[1] = rte_cpu_to_le_32(ts->pgid);
	hdr[2] = 0;
	hdr[3] = 0;
	memcpy(s->tmpl[0].data + ts->len - GEN_TPG_HDR_LEN, hdr, sizeof(hdr));
	return 0;
}

void
trex_tpg_save(const struct trex_stream *s)
{
	struct gen_ctx *g = trex.g;
	uint16_t i;

	if (!s->tpg || s->ps < 0 || tpg.seq[s->port] == NULL || s->pgid >= tpg.num_tpgids)
		return;
	for (i = 0; i < g->nb_ws; i++) {
		const struct gen_wstream *w = g->ws[i];

		if (w->st->ps->id != s->ps)
			continue;
		tpg.txb[s->port][s->pgid] +=
			(uint64_t)(uint32_t)(w->seq - tpg.seq0[s->port][s->pgid]) *
			(s->len + RTE_ETHER_CRC_LEN);
		tpg.seq[s->port][s->pgid] = w->seq;
		tpg.seq0[s->port][s->pgid] = w->seq;
	}
}

void
trex_tpg_loaded(void)
{
	struct gen_ctx *g = trex.g;
	uint16_t i;

	for (i = 0; i < g->nb_ws; i++) {
		struct gen_wstream *w = g->ws[i];
		const struct trex_stream *s = trex_ws_stream(w);

		if (s == NULL || !s->tpg)
			continue;
		w->st->tpg_off = (uint16_t)(s->len - GEN_TPG_HDR_LEN + 8);
		if (tpg.seq[s->port] != NULL && s->pgid < tpg.num_tpgids) {
			w->seq = tpg.seq[s->port][s->pgid];
			tpg.seq0[s->port][s->pgid] = w->seq;
		}
	}
}

/* Frames and bytes port @p port has sent of @p tpgid since the enable. */
static void
trex_tpg_tx_read(uint16_t port, uint32_t tpgid, uint64_t *pkts, uint64_t *bytes)
{
	struct gen_ctx *g = trex.g;
	uint16_t i;

	*pkts = tpg.seq[port][tpgid];
	*bytes = tpg.txb[port][tpgid];
	for (i = 0; i < g->nb_ws; i++) {
		const struct gen_wstream *w = g->ws[i];
		const struct trex_stream *s = trex_ws_stream(w);

		if (s == NULL || !s->tpg || s->port != port || s->pgid != tpgid)
			continue;
		*pkts = w->seq;
		*bytes += (uint64_t)(uint32_t)(w->seq - tpg.seq0[port][tpgid]) *
			  (s->len + RTE_ETHER_CRC_LEN);
	}
}

/* The TX stats methods' checks: TPG on @p port, the tpgid in range. */
static int
trex_tpg_tx_args(json_t *p, uint16_t *port, uint64_t *tpgid, struct trex_err *e)
{
	if (trex_param_port(p, port, e) != 0 ||
	    trex_param_uint(p, "tpgid", UINT32_MAX, -1, tpgid, e) != 0)
		return -EINVAL;
	if (tpg.user[0] == '\0' || tpg.state != TPG_ENABLED || !tpg.tx[*port]) {
		trex_fail(e, TREX_E_EXEC, "Tagged Packet Group is not enabled on this port.");
		return -ENOENT;
	}
	if (*tpgid >= tpg.num_tpgids) {
		trex_fail(e, TREX_E_EXEC, "tpgid %" PRIu64 " is bigger than the max allowed tpgid.",
			  *tpgid);
		return -ERANGE;
	}
	return 0;
}

json_t *
trex_m_get_tpg_tx_stats(json_t *p, struct trex_err *e)
{
	uint64_t tpgid, pkts, bytes;
	uint16_t port;

	if (trex_tpg_tx_args(p, &port, &tpgid, e) != 0)
		return NULL;
	trex_tpg_tx_read(port, (uint32_t)tpgid, &pkts, &bytes);
	pkts -= tpg.txbase[port][2 * tpgid];
	bytes -= tpg.txbase[port][2 * tpgid + 1];
	return trex_tpg_wrap(
		port, (uint32_t)tpgid,
		json_pack("{s:I,s:I}", "pkts", (json_int_t)pkts, "bytes", (json_int_t)bytes));
}

json_t *
trex_m_clear_tpg_tx_stats(json_t *p, struct trex_err *e)
{
	uint64_t tpgid;
	uint16_t port;

	if (trex_tpg_tx_args(p, &port, &tpgid, e) != 0)
		return NULL;
	trex_tpg_tx_read(port, (uint32_t)tpgid, &tpg.txbase[port][2 * tpgid],
			 &tpg.txbase[port][2 * tpgid + 1]);
	return json_object();
}
