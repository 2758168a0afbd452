/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Hop driver "gen": pvpkit-gen over its control channel. Counters come
 * from stats.get like any pvpkit app; the generator is also the traffic
 * source of a trial (profile.load, traffic.start, traffic.stop) and the
 * only hop that knows per-stream loss and latency.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_lat.h"
#include "pvp_gen_answer.h"
#include "pvp_stats_json.h"
#include "pvp_util.h"

#include "flows.h"
#include "ctl_hop.h"
#include "gen_driver.h"

/* traffic.stop waits for the TX lcores: allow more than a plain call. */
#define GEN_STOP_TIMEOUT_MS 10000

/* What only a generator's hop keeps (ctl_hop::app). */
struct gen_hop {
	char loaded[320];	     /* profile last loaded, "" = none */
	unsigned int loaded_conn;    /* ctl_hop::connects it was loaded on */
	char flow_type[8];	     /* from install_flows, "" = normal */
	struct flows_base flow_base; /* "flow_base" member, as the ovs hop's */
	unsigned int l3_conn;	     /* connects when "l3" was last found right, 0: never */
};

static struct gen_hop *
gen_hop(struct coord_hop *hop)
{
	return ((struct ctl_hop *)hop->priv)->app;
}

/* The generator's port index of each topology port, the TX ports: one stream each. */
static unsigned int
gen_tx_ports(const struct coord_hop *hop, unsigned int *ports)
{
	unsigned int i;

	for (i = 0; i < hop->nb_ports; i++)
		ports[i] = (unsigned int)ctl_hop_app_port(hop, hop->ports[i]);
	return hop->nb_ports;
}

/* The profile.load params of a trial, and the key that tells whether the
 * generator has them loaded already. */
static int
gen_profile_params(struct coord_hop *hop, const struct coord_traffic *t, json_t **params, char *key,
		   size_t key_len, char *err, size_t err_len)
{
	struct gen_hop *g = gen_hop(hop);
	const char *type = t->flow_type != NULL ? t->flow_type : g->flow_type;
	unsigned int ports[COORD_MAX_PORTS], n;
	enum coord_flow_type ft = COORD_FLOW_normal;
	struct pvp_gen_profile_load pl = {.size = t->size, .flows = t->flows};
	char why[256] = "";

	if (t->profile != NULL) {
		snprintf(key, key_len, "path:%s", t->profile);
		pl.has_path = true;
		if ((size_t)snprintf(pl.path, sizeof(pl.path), "%s", t->profile) >= sizeof(pl.path))
			return pvp_fail(err, err_len, -ENAMETOOLONG,
					"hop %s: profile path over %zu characters", hop->name,
					sizeof(pl.path) - 1);
		goto out;
	}
	if (type[0] != '\0' && coord_flow_type_parse(type, &ft) < 0)
		return pvp_fail(err, err_len, -EINVAL,
				"hop %s: unknown flow type \"%s\" (normal, l2, l3, l4)", hop->name,
				type);
	if (ft == COORD_FLOW_normal) {
		/* NORMAL forwards anything: the --flows shortcut (source IPs). */
		snprintf(key, key_len, "size:%u,flows:%u", t->size, t->flows);
		pl.has_size = pl.has_flows = true;
		goto out;
	}
	n = gen_tx_ports(hop, ports);
	if (n == 0) {
		ports[0] = 0;
		n = 1;
	}
	pl.profile =
		flows_profile(ft, t->size, t->flows, ports, n, &g->flow_base, why, sizeof(why));
	if (pl.profile == NULL)
		return pvp_fail(err, err_len, -EINVAL, "hop %s: %s", hop->name, why);
	snprintf(key, key_len, "size:%u,flows:%u,type:%s", t->size, t->flows, type);
	pl.has_profile = true;
out:
	*params = pvp_schema_encode(pvp_gen_profile_load_members, &pl);
	json_decref(pl.profile);
	if (*params == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "hop %s: out of memory", hop->name);
	return 0;
}

/*
 * Have the generator hold the profile of @p t. Searches run many trials
 * of one profile: it is loaded once (building the templates of many
 * flows takes the generator time), again only on a new connection,
 * which may reach a restarted generator.
 */
static int
gen_load(struct coord_hop *hop, const struct coord_traffic *t, char *err, size_t err_len)
{
	struct ctl_hop *h = hop->priv;
	struct gen_hop *g = gen_hop(hop);
	json_t *params = NULL, *res = NULL;
	char key[sizeof(g->loaded)];
	int ret;

	ret = gen_profile_params(hop, t, &params, key, sizeof(key), err, err_len);
	if (ret < 0)
		return ret;
	if (g->loaded_conn == h->connects && strcmp(key, g->loaded) == 0) {
		json_decref(params);
		return 0;
	}
	ret = ctl_hop_call(hop, PVP_GEN_M_PROFILE_LOAD, params, &res, 0, err, err_len);
	json_decref(params);
	json_decref(res);
	if (ret < 0) {
		g->loaded[0] = '\0';
		return ret;
	}
	snprintf(g->loaded, sizeof(g->loaded), "%s", key);
	g->loaded_conn = h->connects;
	return 0;
}

static int
gen_start(struct coord_hop *hop, const struct coord_traffic *t, char *err, size_t err_len)
{
	/* Several sources: the generator waits for the agreed time itself. */
	struct pvp_gen_traffic_start ts = {.duration = t->duration_s,
					   .start_at = t->start_at,
					   .has_start_at = t->start_at > 0};
	json_t *params, *res = NULL;
	int ret;

	/* rate_pps is positive here (gen_traffic_start): "max" only by name. */
	ts.rate = t->rate != NULL ? json_string(t->rate) : json_real(t->rate_pps);
	params = ts.rate != NULL ? pvp_schema_encode(pvp_gen_traffic_start_members, &ts) : NULL;
	json_decref(ts.rate);
	if (params == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "hop %s: out of memory", hop->name);
	ret = ctl_hop_call(hop, PVP_GEN_M_TRAFFIC_START, params, &res, 0, err, err_len);
	json_decref(params);
	json_decref(res);
	return ret;
}

/* A non-negative integer member of @p o into @p v. @return false if absent. */
static bool
gen_count(const json_t *o, const char *key, uint64_t *v)
{
	const json_t *j = json_object_get(o, key);

	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return false;
	*v = (uint64_t)json_integer_value(j);
	return true;
}

/*
 * The generator's accounting by signature: what its streams offered,
 * received (duplicates included), lost and saw twice, and the frames it
 * received outside every stream (no signature; a stream id it does not
 * send). Left unset (has_sig false) when any figure is missing, so the
 * core never checks against a partial account.
 */
static void
gen_fill_sig(const json_t *stats, struct coord_traffic_result *res)
{
	const json_t *streams = json_object_get(stats, PVP_GEN_K_STREAMS), *st;
	uint64_t off, rx, lost, dup;
	size_t i;

	res->has_sig = false;
	res->sig_offered = res->sig_rx = res->sig_lost = res->sig_dup = 0;
	if (!json_is_array(streams) ||
	    !gen_count(stats, PVP_GEN_K_UNSIGNED_RX, &res->unsigned_rx) ||
	    !gen_count(stats, PVP_GEN_K_UNKNOWN_STREAM_RX, &res->unknown_stream_rx))
		return;
	/* ARP/ND frames (--addr): a generator from before them says nothing. */
	if (!gen_count(stats, PVP_GEN_K_NEIGH_RX, &res->neigh_rx))
		res->neigh_rx = 0;
	json_array_foreach(streams, i, st) {
		if (!gen_count(st, PVP_GEN_K_TX_OFFERED, &off) ||
		    !gen_count(st, PVP_GEN_K_RX_PACKETS, &rx) ||
		    !gen_count(st, PVP_GEN_K_LOST, &lost) || !gen_count(st, PVP_GEN_K_DUP, &dup))
			return;
		res->sig_offered += off;
		res->sig_rx += rx;
		res->sig_lost += lost;
		res->sig_dup += dup;
	}
	res->has_sig = true;
}

/*
 * A hop with "l3": the generator has those addresses and its gateways
 * resolved, or no trial starts (a routed DUT would drop everything, and
 * the trial would blame it). Asked once a connection: the addresses are
 * the generator's command line.
 */
static int
gen_check_l3(struct coord_hop *hop, char *err, size_t err_len)
{
	struct ctl_hop *h = hop->priv;
	struct gen_hop *g = gen_hop(hop);
	json_t *out = NULL;
	int ret;

	if (h->nb_l3 == 0 || g->l3_conn == h->connects)
		return 0;
	ret = ctl_hop_call(hop, PVP_GEN_M_STATS_GET, NULL, &out, 0, err, err_len);
	if (ret == 0)
		ret = ctl_hop_check_l3(hop, out, err, err_len);
	json_decref(out);
	if (ret == 0)
		g->l3_conn = h->connects;
	return ret;
}

static int
gen_traffic_start(struct coord_hop *hop, const struct coord_traffic *t, char *err, size_t err_len)
{
	struct ctl_hop *h = hop->priv;
	struct gen_hop *g = gen_hop(hop);
	json_t *res = NULL;
	int ret;

	ret = coord_traffic_check_rate(hop, t, err, err_len);
	if (ret == 0)
		ret = gen_check_l3(hop, err, err_len);
	if (ret == 0)
		ret = gen_load(hop, t, err, err_len);
	if (ret == 0)
		ret = gen_start(hop, t, err, err_len);
	if (ret < 0 || g->loaded_conn == h->connects)
		return ret;
	/*
	 * The connection was new by the time traffic.start went through (a
	 * warm-up starts before anything else talks to the hop): a restarted
	 * generator started what it had, not this profile. Stop, load, start.
	 */
	ret = ctl_hop_call(hop, PVP_GEN_M_TRAFFIC_STOP, NULL, &res, GEN_STOP_TIMEOUT_MS, err,
			   err_len);
	json_decref(res);
	if (ret == 0)
		ret = gen_load(hop, t, err, err_len);
	if (ret == 0)
		ret = gen_start(hop, t, err, err_len);
	return ret;
}

/* The counters of a stream and of its "latency_ns" (pvpkit-gen's stats.get). */
static const char *const gen_stream_counts[] = {
	"stream",     "port",	    "queue",	"max_burst", "tx_packets", "tx_bytes", "tx_unsent",
	"tx_offered", "rx_packets", "rx_bytes", "lost",	     "dup",	   "ooo",      "gaps",
};
static const char *const gen_lat_counts[] = {
	"count", "min", "avg", "max", "p50", "p90", "p99", "p99_9", "p99_99", "jitter",
};

/* Longest stream name passed on (a profile's names are short). */
#define GEN_STREAM_NAME_MAX 64

/* Copy the non-negative integers @p keys of @p from into @p to. */
static void
gen_copy_counts(const json_t *from, json_t *to, const char *const *keys, size_t n)
{
	uint64_t v;
	size_t i;

	for (i = 0; i < n; i++)
		if (gen_count(from, keys[i], &v))
			json_object_set_new(to, keys[i], json_integer((json_int_t)v));
}

/* A stream's "name" if it is short printable ASCII, else NULL. */
static const char *
gen_stream_name(const json_t *st)
{
	const char *name = json_string_value(json_object_get(st, "name"));
	size_t i;

	if (name == NULL || strlen(name) > GEN_STREAM_NAME_MAX)
		return NULL;
	for (i = 0; name[i] != '\0'; i++)
		if (name[i] < 0x20 || name[i] > 0x7e)
			return NULL;
	return name;
}

/*
 * A latency object @p lat of a stream (its figures and a histogram that
 * decodes, written again by lib/lat) as @p key of @p o, through @p one.
 * @return the copy (borrowed from @p o), or NULL when @p lat is no object
 *   or memory runs out.
 */
static json_t *
gen_copy_lat(const json_t *lat, json_t *o, const char *key, struct pvp_lat *one)
{
	json_t *l, *h;

	if (!json_is_object(lat))
		return NULL;
	l = json_object();
	if (l == NULL || json_object_set_new(o, key, l) < 0)
		return NULL;
	gen_copy_counts(lat, l, gen_lat_counts, sizeof(gen_lat_counts) / sizeof(gen_lat_counts[0]));
	if (pvp_lat_from_json(json_object_get(lat, "histogram"), one, NULL, 0) == 0 &&
	    (h = pvp_lat_to_json(one)) != NULL)
		json_object_set_new(l, "histogram", h);
	return l;
}

/*
 * The trial record's "streams" from a stats.get answer: the generator is
 * a peer, and its text ends up in results files, reports and plot
 * scripts. Only the members pvpkit-gen defines are kept, each only with
 * a value of its kind: counters as non-negative integers, a short
 * printable name, a known clock, a histogram that decodes (written again
 * by lib/lat). NULL when the answer has none or memory runs out.
 */
static json_t *
gen_streams_copy(const json_t *streams)
{
	static const char *const unstamped[] = {"unstamped"};
	const json_t *st, *lat, *ow;
	json_t *out = json_array(), *o, *l, *w;
	struct pvp_lat *one = malloc(sizeof(*one));
	size_t i;

	if (out == NULL || one == NULL) {
		json_decref(out);
		free(one);
		return NULL;
	}
	json_array_foreach(streams, i, st) {
		o = json_object();
		if (o == NULL || json_array_append_new(out, o) < 0)
			break;
		gen_copy_counts(st, o, gen_stream_counts,
				sizeof(gen_stream_counts) / sizeof(gen_stream_counts[0]));
		if (gen_stream_name(st) != NULL)
			json_object_set_new(o, "name", json_string(gen_stream_name(st)));
		lat = json_object_get(st, "latency_ns");
		l = gen_copy_lat(lat, o, "latency_ns", one);
		if (l != NULL &&
		    pvp_lat_clock_known(json_string_value(json_object_get(lat, "clock"))))
			json_object_set(l, "clock", json_object_get(lat, "clock"));
		/* One-way latency: the two halves, when the guest's clock is ours. */
		ow = json_object_get(st, PVP_GEN_K_ONEWAY_NS);
		if (!json_is_object(ow))
			continue;
		w = json_object();
		if (w == NULL || json_object_set_new(o, PVP_GEN_K_ONEWAY_NS, w) < 0)
			break;
		gen_copy_lat(json_object_get(ow, PVP_GEN_K_TO_GUEST), w, PVP_GEN_K_TO_GUEST, one);
		gen_copy_lat(json_object_get(ow, PVP_GEN_K_FROM_GUEST), w, PVP_GEN_K_FROM_GUEST,
			     one);
		gen_copy_counts(ow, w, unstamped, 1);
	}
	free(one);
	return out;
}

/*
 * A stats.get answer's "traffic", read through the table pvpkit-gen
 * writes it with. @return 0, or -EPROTO naming the member that is wrong.
 */
static int
gen_read_traffic(const json_t *stats, struct pvp_gen_traffic *tr, char *err, size_t err_len)
{
	char why[256] = "";

	memset(tr, 0, sizeof(*tr));
	if (pvp_schema_read(pvp_gen_traffic_members, json_object_get(stats, PVP_GEN_K_TRAFFIC), tr,
			    why, sizeof(why)) == 0)
		return 0;
	pvp_err(err, err_len, "%s answer: %s.%s", PVP_GEN_M_STATS_GET, PVP_GEN_K_TRAFFIC, why);
	return -EPROTO;
}

/*
 * What the generator knows of a loss on a routed path: a port whose
 * ARP/ND responder is stopped (neigh.set) answers no DUT, which then
 * forgets it and drops the traffic back. One warning line a port.
 */
static void
gen_neigh_warnings(const struct coord_hop *hop, const json_t *stats,
		   struct coord_traffic_result *res)
{
	struct pvp_gen_neigh n;
	const json_t *item;
	size_t i;

	json_array_foreach(json_object_get(stats, PVP_GEN_K_NEIGH), i, item) {
		if (pvp_schema_read(pvp_gen_neigh_members, item, &n, NULL, 0) < 0 || n.responder ||
		    (n.ip[0] == '\0' && n.ip6[0] == '\0'))
			continue;
		coord_warn(&res->warnings,
			   "hop %s: port p%u answers no ARP/ND (its responder "
			   "is stopped: neigh.set), %" PRIu64 " request(s) for it unanswered: a "
			   "routed DUT that cannot resolve it drops the traffic back",
			   hop->name, n.port, n.silenced);
	}
}

/* Fill @p res from stats.get's "traffic" and "streams". @return 0 or -errno. */
static int
gen_fill_result(struct coord_hop *hop, struct coord_traffic_result *res, int with_streams,
		char *err, size_t err_len)
{
	struct pvp_gen_traffic tr;
	json_t *stats = NULL, *streams;
	int ret;

	ret = ctl_hop_call(hop, PVP_GEN_M_STATS_GET, NULL, &stats, 0, err, err_len);
	if (ret == 0)
		ret = gen_read_traffic(stats, &tr, err, err_len);
	if (ret < 0) {
		json_decref(stats);
		return ret;
	}
	res->requested_pps = tr.requested_pps;
	res->achieved_pps = tr.achieved_pps;
	res->generator_limited = tr.generator_limited;
	res->has_max_burst = tr.has_max_burst;
	res->max_burst = tr.max_burst;
	res->has_first_tx = tr.start.has_first_tx;
	res->first_tx_s = tr.start.first_tx_s;
	streams = json_object_get(stats, PVP_GEN_K_STREAMS);
	if (with_streams && json_is_array(streams)) {
		json_decref(res->streams);
		res->streams = gen_streams_copy(streams);
	}
	if (with_streams) {
		gen_fill_sig(stats, res);
		gen_neigh_warnings(hop, stats, res);
	}
	json_decref(stats);
	return 0;
}

static int
gen_traffic_stop(struct coord_hop *hop, struct coord_traffic_result *res, char *err, size_t err_len)
{
	json_t *out = NULL;
	int ret;

	ret = ctl_hop_call(hop, PVP_GEN_M_TRAFFIC_STOP, NULL, &out, GEN_STOP_TIMEOUT_MS, err,
			   err_len);
	json_decref(out);
	return ret < 0 ? ret : gen_fill_result(hop, res, 0, err, err_len);
}

static int
gen_traffic_result(struct coord_hop *hop, struct coord_traffic_result *res, char *err,
		   size_t err_len)
{
	return gen_fill_result(hop, res, 1, err, err_len);
}

/*
 * The shared app mapping, plus what only pvpkit-gen says: with --tx-full
 * drop ("traffic": {"tx_full": "drop"}) it gives up what its peers'
 * full rings refuse, so its tx_dropped are the next hop's loss
 * (coord_port::tx_refused_by_peer).
 */
static int
gen_snapshot(struct coord_hop *hop, struct coord_snap *snap, char *err, size_t err_len)
{
	struct pvp_gen_traffic tr;
	json_t *out = NULL;
	unsigned int i;
	int ret;

	ret = ctl_hop_call(hop, PVP_GEN_M_STATS_GET, NULL, &out, 0, err, err_len);
	if (ret < 0)
		return ret;
	ret = ctl_hop_map_stats(hop, out, snap, err, err_len);
	if (ret == 0)
		ret = gen_read_traffic(out, &tr, err, err_len);
	if (ret == 0 && tr.tx_full == PVP_GEN_TX_FULL_DROP)
		for (i = 0; i < snap->nb_ports; i++)
			snap->port[i].tx_refused_by_peer = true;
	json_decref(out);
	return ret;
}

/*
 * Not a vswitch: remember the rule type so that the traffic of the next
 * trials matches the rules the vswitch hop installs in the same pass.
 */
static int
gen_install_flows(struct coord_hop *hop, const char *rule_type, unsigned int flows, char *err,
		  size_t err_len)
{
	struct gen_hop *g = gen_hop(hop);

	(void)flows;
	return flows_remember(hop, rule_type, g->flow_type, sizeof(g->flow_type), err, err_len);
}

static const struct pvp_schema_member gen_conf[] = {
	CTL_HOP_MEMBERS,
	CTL_HOP_L3_MEMBER,
	/* Decoded by gen_open() into its own struct, not ctl_hop. */
	{.name = "flow_base",
	 .type = PVP_SCHEMA_OBJECT,
	 .members = flows_base_members,
	 .help = "where l2/l3/l4 flows start, as the ovs hop's rules"},
	{.name = NULL},
};

/* The app hop, plus "flow_base" (the same member as the ovs hop's). */
static int
gen_open(struct coord_hop *hop, const json_t *conf, char *err, size_t err_len)
{
	struct ctl_hop *h;
	struct gen_hop *g;
	char why[128] = "";
	int ret;

	ret = ctl_hop_open(hop, conf, gen_conf, err, err_len);
	if (ret < 0)
		return ret;
	h = hop->priv;
	g = calloc(1, sizeof(*g));
	if (g == NULL) {
		ctl_hop_close(hop);
		return pvp_fail(err, err_len, -ENOMEM, "hop %s: out of memory", hop->name);
	}
	h->app = g;
	/* Checked with the rest of the hop already: this only fills it in. */
	if (pvp_schema_decode(flows_base_members, json_object_get(conf, "flow_base"), NULL,
			      &g->flow_base, why, sizeof(why)) < 0) {
		ctl_hop_close(hop);
		return pvp_fail(err, err_len, -EINVAL, "hop %s: flow_base.%s", hop->name, why);
	}
	return 0;
}

/* coord_driver::oneway_set: pvpkit-gen's oneway.set. */
static int
gen_oneway_set(struct coord_hop *hop, const json_t *peer, json_t **result, char *err,
	       size_t err_len)
{
	const struct pvp_gen_oneway_set os = {.peer = (json_t *)(uintptr_t)peer,
					      .has_peer = peer != NULL && !json_is_null(peer)};
	json_t *params = pvp_schema_encode(pvp_gen_oneway_set_members, &os);
	int ret;

	if (params == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "hop %s: out of memory", hop->name);
	ret = ctl_hop_call(hop, PVP_GEN_M_ONEWAY_SET, params, result, 0, err, err_len);
	json_decref(params);
	return ret;
}

const struct coord_driver hop_driver_gen = {
	.name = "gen",
	.roles = COORD_ROLE_SOURCE | COORD_ROLE_COUNTERS,
	.timed_start = true,
	.conf = gen_conf,
	.open = gen_open,
	.close = ctl_hop_close,
	.snapshot = gen_snapshot,
	.clear = ctl_hop_clear,
	.traffic_start = gen_traffic_start,
	.traffic_stop = gen_traffic_stop,
	.install_flows = gen_install_flows,
	.context = ctl_hop_context,
	.traffic_result = gen_traffic_result,
	.oneway_set = gen_oneway_set,
};
