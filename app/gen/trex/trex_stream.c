/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex streams: add_stream's JSON (base64 packet bytes, mode and rate,
 * flow_stats, the field engine) checked and translated when it arrives,
 * so a stream pvpkit-gen cannot send is refused then, by name; and the
 * profile that the streams of every port make together, loaded into the
 * generator (stream.c) when a port starts and something changed since
 * the last load. The packet each stream makes is built by
 * trex_stream_build.c.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>

#include "trex.h"

/* ---- the stream table of a port ---- */

void
trex_stream_free(struct trex_stream *s)
{
	uint32_t i;

	if (s == NULL)
		return;
	trex_tpg_save(s);
	for (i = 0; i < trex.nb_loaded; i++)
		if (trex.loaded[i] == s)
			trex.loaded[i] = NULL;
	json_decref(s->json);
	free(s->vm_table);
	free(s->vm_len);
	free(s->pkt);
	free(s);
}

struct trex_stream *
trex_stream_find(uint16_t port, uint32_t id, uint32_t *idx)
{
	struct trex_port *tp = &trex.port[port];
	uint32_t i;

	for (i = 0; i < tp->nb_streams; i++)
		if (tp->streams[i]->id == id) {
			if (idx != NULL)
				*idx = i;
			return tp->streams[i];
		}
	return NULL;
}

void
trex_streams_clear(uint16_t port)
{
	struct trex_port *tp = &trex.port[port];
	uint32_t i;

	for (i = 0; i < tp->nb_streams; i++)
		trex_stream_free(tp->streams[i]);
	if (tp->nb_streams != 0)
		trex.streams_gen++;
	tp->nb_streams = 0;
	tp->state = TREX_PORT_IDLE;
}

/* TRex's rate types ("mode.rate.type") by lib/util rate unit, and the unit of their bounds. */
static const char *const trex_rate_name[][2] = {
	[PVP_RATE_PPS] = {"pps", "pps"},
	[PVP_RATE_BPS_L1] = {"bps_L1", "bps"},
	[PVP_RATE_BPS_L2] = {"bps_L2", "bps"},
	[PVP_RATE_PERCENT] = {"percentage", "%"},
};

int
trex_stream_pps(const struct trex_stream *s, uint16_t port, double *pps, char *err, size_t err_len)
{
	struct pvp_rate r = {.unit = s->rate_unit, .value = s->rate_value};
	uint64_t link = trex.g->port[port].link_bps;
	/* TRex pads short packets to 60 B and counts the 4 B FCS in rates. */
	double size = RTE_MAX(s->rate_len, 60.0) + PVP_FCS_LEN;

	if (pvp_rate_to_pps(&r, size, link, pps) != 0 || !(*pps > 0))
		return pvp_fail(err, err_len, -EPERM,
				"stream %u: a percentage rate needs the port's speed, and port %u "
				"reports none: start pvpkit-gen with --speed MBPS",
				s->id, port);
	return 0;
}

/* Stream @p st's "mode" into @p s. */
static int
trex_parse_mode(json_t *st, struct trex_stream *s, char *err, size_t err_len)
{
	json_t *mode = trex_param_obj(st, "mode", err, err_len), *rate;
	const char *type, *rt;
	double lo, hi;
	uint64_t x;
	unsigned int u;

	if (mode == NULL || (type = trex_param_str(mode, "type", NULL, err, err_len)) == NULL)
		return -EINVAL;
	if (strcmp(type, "continuous") == 0) {
		s->mode = PVP_MODE_CONTINUOUS;
	} else if (strcmp(type, "single_burst") == 0) {
		s->mode = PVP_MODE_BURST;
		if (trex_param_uint(mode, "total_pkts", UINT32_MAX, -1, &s->burst_pkts, err,
				    err_len) != 0)
			return -EINVAL;
		if (s->burst_pkts == 0)
			return pvp_fail(err, err_len, -EINVAL,
					"single_burst: 'total_pkts' cannot be zero.");
	} else if (strcmp(type, "multi_burst") == 0) {
		s->mode = PVP_MODE_MULTI_BURST;
		if (trex_param_double(mode, "ibg", false, 0, &s->ibg_us, err, err_len) != 0 ||
		    trex_param_uint(mode, "count", UINT32_MAX, -1, &x, err, err_len) != 0 ||
		    trex_param_uint(mode, "pkts_per_burst", UINT32_MAX, -1, &s->burst_pkts, err,
				    err_len) != 0)
			return -EINVAL;
		s->burst_count = (uint32_t)x;
		if (s->burst_pkts == 0 || s->burst_count == 0 || s->ibg_us < 0)
			return pvp_fail(
				err, err_len, -EINVAL,
				"multi_burst: 'pkts_per_burst' and 'count' cannot be zero, 'ibg' "
				"cannot be negative.");
		/* A profile's gap_us bound: the gap in TSC cycles fits 64 bits. */
		if (s->ibg_us > (double)PVP_PKT_MAX_GAP_US)
			return pvp_fail(err, err_len, -EINVAL,
					"multi_burst: 'ibg' %g must be 0..%" PRIu64 " us",
					s->ibg_us, PVP_PKT_MAX_GAP_US);
	} else {
		return pvp_fail(err, err_len, -EINVAL, "bad stream type provided: '%s'", type);
	}
	rate = trex_param_obj(mode, "rate", err, err_len);
	if (rate == NULL || (rt = trex_param_str(rate, "type", NULL, err, err_len)) == NULL ||
	    trex_param_double(rate, "value", false, 0, &s->rate_value, err, err_len) != 0)
		return -EINVAL;
	for (u = 0; u < RTE_DIM(trex_rate_name) && strcmp(rt, trex_rate_name[u][0]) != 0; u++)
		continue;
	if (u == RTE_DIM(trex_rate_name))
		return pvp_fail(err, err_len, -EINVAL,
				"'type' must be pps, bps_L1, bps_L2 or percentage");
	s->rate_unit = (enum pvp_rate_unit)u;
	pvp_rate_bounds(s->rate_unit, &lo, &hi);
	if (!(s->rate_value >= lo && s->rate_value <= hi))
		return pvp_fail(err, err_len, -EINVAL,
				"rate value %g must be > 0, within %g..%g %s", s->rate_value, lo,
				hi, trex_rate_name[u][1]);
	return 0;
}

/* Stream @p st's "flow_stats" into @p s. */
static int
trex_parse_flow_stats(json_t *st, struct trex_stream *s, char *err, size_t err_len)
{
	json_t *fs = trex_param_obj(st, "flow_stats", err, err_len);
	const char *rt;
	bool b;
	uint64_t pgid;

	if (fs == NULL || trex_param_bool(fs, "enabled", -1, &s->fs, err, err_len) != 0)
		return -EINVAL;
	if (!s->fs)
		return 0;
	if (trex_param_uint(fs, "stream_id", UINT32_MAX, -1, &pgid, err, err_len) != 0 ||
	    (rt = trex_param_str(fs, "rule_type", NULL, err, err_len)) == NULL)
		return -EINVAL;
	s->pgid = (uint32_t)pgid;
	s->fs_latency = strcmp(rt, "latency") == 0;
	/* A tpg stream has its own header and counters (trex_tpg.c), not a pgid's. */
	s->tpg = strcmp(rt, "tpg") == 0;
	s->fs = !s->tpg;
	if (!s->fs_latency && !s->tpg && strcmp(rt, "stats") != 0)
		return pvp_fail(err, err_len, -EOPNOTSUPP,
				"flow_stats rule_type '%s' is not supported by pvpkit-gen", rt);
	if (trex_param_bool(fs, "vxlan", 0, &b, err, err_len) != 0)
		return -EINVAL;
	if (b)
		return pvp_fail(err, err_len, -EOPNOTSUPP,
				"flow_stats 'vxlan' is not needed: pvpkit-gen finds its "
				"signature inside VXLAN itself; send it false");
	/*
	 * TRex times ieee_1588 latency frames by the NIC's PTP timestamps;
	 * pvpkit-gen sends the same PTP Sync-shaped frame and times it by
	 * its own signature, as every latency stream (trex_ptp_frame()).
	 */
	if (trex_param_bool(fs, "ieee_1588", 0, &s->ieee_1588, err, err_len) != 0)
		return -EINVAL;
	s->ieee_1588 = s->ieee_1588 && s->fs_latency;
	return 0;
}

/*
 * The same pgid on two streams must be of one kind (TRex's rule). A stats
 * pgid's counter index (s->fs_hw_id) is the one a stream already added
 * with it has (none of the other kind can then have it), or else the
 * lowest no other stats pgid has. TRex takes the lowest free one as each
 * pgid's first stream starts; taken as streams are added it is the same
 * for a profile added and started as a whole.
 */
static int
trex_pgid_check(struct trex_stream *s, char *err, size_t err_len)
{
	bool used[GEN_MAX_STREAMS] = {false};
	uint16_t p, k;
	uint32_t i;

	for (p = 0; p < trex.g->nb_ports; p++)
		for (i = 0; i < trex.port[p].nb_streams; i++) {
			const struct trex_stream *o = trex.port[p].streams[i];

			if (!o->fs)
				continue;
			if (o->pgid == s->pgid && o->fs_latency != s->fs_latency)
				return pvp_fail(err, err_len, -EEXIST,
						"flow_stats id %u is already used by a %s stream",
						s->pgid, o->fs_latency ? "latency" : "stats");
			if (o->pgid == s->pgid && !s->fs_latency) {
				s->fs_hw_id = o->fs_hw_id;
				return 0;
			}
			if (!o->fs_latency && o->fs_hw_id < RTE_DIM(used))
				used[o->fs_hw_id] = true;
		}
	for (k = 0; k < RTE_DIM(used) && used[k]; k++)
		;
	s->fs_hw_id = s->fs_latency ? 0 : k;
	return 0;
}

/*
 * What get_stream gives back of a stream: the members TRex's stream
 * has, no others, and no more than TREX_STREAM_JSON_MAX bytes of them.
 * Keeping the object as given kept whatever a client added to it for as
 * long as the stream lived (16 MiB an add_stream). Into @p out; 0 or -errno.
 */
static int
trex_stream_kept(json_t *st, uint32_t id, json_t **out, char *err, size_t err_len)
{
	static const char *const known[] = {
		"enabled",	"self_start",  "start_paused",	 "isg",	 "core_id", "flags",
		"action_count", "random_seed", "next_stream_id", "mode", "packet",  "vm",
		"flow_stats",	"rx_stats",
	};
	json_t *kept = json_object(), *x;
	unsigned int i;
	size_t size;

	if (kept == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "out of memory");
	for (i = 0; i < RTE_DIM(known); i++) {
		x = json_object_get(st, known[i]);
		if (x != NULL && json_object_set(kept, known[i], x) != 0) {
			json_decref(kept);
			return pvp_fail(err, err_len, -ENOMEM, "out of memory");
		}
	}
	size = json_dumpb(kept, NULL, 0, JSON_COMPACT);
	if (size > TREX_STREAM_JSON_MAX) {
		json_decref(kept);
		return pvp_fail(err, err_len, -EFBIG,
				"stream %u: %zu bytes of JSON; pvpkit-gen keeps %u at most", id,
				size, TREX_STREAM_JSON_MAX);
	}
	*out = kept;
	return 0;
}

/*
 * TRex's stream object @p st into @p s (its id and port set); 0 or -errno
 * with @p err, what it allocated left for trex_stream_free().
 */
static int
trex_stream_parse(json_t *st, struct trex_stream *s, char *err, size_t err_len)
{
	const uint32_t id = s->id;
	const uint16_t port = s->port;
	json_t *pkt, *vm;
	const char *bin;
	struct pvp_stream ps;
	char msg[PVP_PKT_ERR_LEN] = "";
	int64_t flags, core, count, seed;
	uint16_t mtu = 0;
	int ret;

	if (trex_param_bool(st, "enabled", -1, &s->enabled, err, err_len) != 0 ||
	    trex_param_bool(st, "self_start", -1, &s->self_start, err, err_len) != 0 ||
	    trex_param_bool(st, "start_paused", 0, &s->start_paused, err, err_len) != 0 ||
	    trex_param_int(st, "flags", 1, 0, &flags, err, err_len) != 0 ||
	    trex_param_double(st, "isg", true, 0, &s->isg_us, err, err_len) != 0 ||
	    trex_param_int(st, "next_stream_id", 1, -1, &s->next, err, err_len) != 0 ||
	    trex_param_int(st, "action_count", 1, 0, &count, err, err_len) != 0 ||
	    trex_param_int(st, "core_id", 1, -1, &core, err, err_len) != 0 ||
	    trex_param_int(st, "random_seed", 1, 0, &seed, err, err_len) != 0)
		return -EINVAL;
	/* TRex parses both as uint32 (a next of -1 is "none"). */
	if (s->next < -1 || s->next > UINT32_MAX || count < 0 || count > UINT32_MAX)
		return pvp_fail(
			err, err_len, -EINVAL,
			"stream %u: 'next_stream_id' must be -1..%u and 'action_count' 0..%u", id,
			UINT32_MAX, UINT32_MAX);
	s->action_count = (uint32_t)count;
	if (flags & 8)
		return pvp_fail(err, err_len, -EOPNOTSUPP,
				"stream %u: null streams are not supported by pvpkit-gen", id);
	/* TRex's TrexStream::m_flags, its MAC override bits. */
	s->mac_src_pkt = (flags & 1) != 0;
	s->mac_dst_pkt = ((flags >> 1) & 3) == 1;
	if (core >= (int64_t)trex.g->opt.tx_cores)
		return pvp_fail(err, err_len, -ERANGE,
				"Core ID is: %" PRId64 ". It must be an integer between 0 "
				"and %u (inclusive).",
				core, trex.g->opt.tx_cores - 1);
	if (seed < 0 || seed > UINT32_MAX)
		return pvp_fail(err, err_len, -EINVAL,
				"stream %u: 'random_seed' must be 0..4294967295", id);
	s->random_seed = (uint32_t)seed;
	if (s->isg_us < 0 || s->isg_us > 1e7)
		return pvp_fail(err, err_len, -EINVAL, "stream %u: 'isg' must be 0..10000000 us",
				id);
	ret = trex_parse_mode(st, s, err, err_len);
	if (ret != 0)
		return ret;
	if ((pkt = trex_param_obj(st, "packet", err, err_len)) == NULL ||
	    (bin = trex_param_str(pkt, "binary", NULL, err, err_len)) == NULL)
		return -EINVAL;
	s->pkt = trex_b64_decode(bin, &s->len);
	if (s->pkt == NULL)
		return pvp_fail(err, err_len, -EINVAL, "stream %u: 'packet.binary' is not base64",
				id);
	if (s->len < RTE_ETHER_HDR_LEN || s->len > PVP_PKT_RAW_MAX_LEN)
		return pvp_fail(err, err_len, -ERANGE,
				"Bad packet size provided: %u. Should be between %u and %u", s->len,
				RTE_ETHER_HDR_LEN, PVP_PKT_RAW_MAX_LEN);
	s->rate_len = s->len;
	rte_eth_dev_get_mtu(trex.g->port[port].eth_port, &mtu);
	if (mtu != 0 && s->len > (uint32_t)mtu + RTE_ETHER_HDR_LEN + 8)
		return pvp_fail(err, err_len, -EPERM,
				"stream %u: a packet of %u B is over the MTU %u of port %u (start "
				"pvpkit-gen with --mtu %u)",
				id, s->len, mtu, port, s->len - RTE_ETHER_HDR_LEN);
	/* flow_stats first: the field engine keeps checksums itself only without it. */
	ret = trex_parse_flow_stats(st, s, err, err_len);
	if (ret == 0 && s->fs)
		ret = trex_pgid_check(s, err, err_len);
	if (ret == 0 && s->tpg)
		ret = trex_tpg_stream_check(s, core, err, err_len);
	if (ret != 0)
		return ret;
	trex_fs_mark(s);
	vm = trex_param_obj(st, "vm", err, err_len);
	if (vm == NULL)
		return -EINVAL;
	ret = trex_vm_translate(vm, s, msg, sizeof(msg));
	if (ret != 0)
		return pvp_fail(err, err_len, ret == -EINVAL ? -EINVAL : -EIO, "stream %u: %s", id,
				msg);
	if (s->tpg && (ret = trex_tpg_len_check(s, err, err_len)) != 0)
		return ret;
	/*
	 * Build it once now: what cannot be sent is refused here, not at start.
	 * The message starts empty (a closed form the tables replaced wrote its own).
	 */
	msg[0] = '\0';
	ret = trex_stream_fill(s, &ps, 0, msg, sizeof(msg));
	if (ret == 0 && s->fs && ps.tmpl[0].sig_off == 0)
		ret = pvp_fail(msg, sizeof(msg), -EINVAL,
			       "flow_stats needs room for pvpkit's %u B signature after the L4 "
			       "header of an IP packet (or at the end of one without UDP/TCP), and "
			       "no field engine write there",
			       PVP_SIG_LEN);
	pvp_stream_free(&ps);
	if (ret != 0)
		return pvp_fail(err, err_len, -EPERM, "stream %u: %s", id, msg);
	return trex_stream_kept(st, id, &s->json, err, err_len);
}

/* A port whose streams may change: not sending. */
static int
trex_port_writable(uint16_t port, char *err, size_t err_len)
{
	if (trex.port[port].state == TREX_PORT_TX || trex.port[port].state == TREX_PORT_PAUSE)
		return pvp_fail(err, err_len, -EBUSY,
				"port %u is active: stop it before changing its streams", port);
	return 0;
}

int
trex_m_add_stream(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_port *tp;
	struct trex_stream *s;
	json_t *st;
	uint64_t id;
	uint32_t i;
	int ret;

	if (trex_param_uint(p, "stream_id", UINT32_MAX, -1, &id, err, err_len) != 0 ||
	    (st = trex_param_obj(p, "stream", err, err_len)) == NULL)
		return -EINVAL;
	ret = trex_port_writable(port, err, err_len);
	if (ret != 0)
		return ret;
	tp = &trex.port[port];
	if (trex_stream_find(port, (uint32_t)id, NULL) != NULL)
		return pvp_fail(err, err_len, -EEXIST, "stream %u already exists in profile_id(_)",
				(uint32_t)id);
	if (tp->nb_streams == TREX_MAX_PORT_STREAMS)
		return pvp_fail(err, err_len, -EPERM, "port %u has %u streams: pvpkit-gen takes %u",
				port, tp->nb_streams, TREX_MAX_PORT_STREAMS);
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "out of memory");
	s->id = (uint32_t)id;
	s->port = port;
	s->ps = -1;
	s->factor = 1;
	ret = trex_stream_parse(st, s, err, err_len);
	if (ret != 0) {
		trex_stream_free(s);
		return ret;
	}
	/* Kept sorted by id: the loaded profile lists them in that order. */
	for (i = tp->nb_streams; i > 0 && tp->streams[i - 1]->id > s->id; i--)
		tp->streams[i] = tp->streams[i - 1];
	tp->streams[i] = s;
	tp->nb_streams++;
	tp->state = TREX_PORT_STREAMS;
	trex.streams_gen++;
	return trex_ok(res);
}

int
trex_m_remove_stream(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_port *tp;
	struct trex_stream *s;
	uint64_t id;
	uint32_t idx;
	int ret;

	if (trex_param_uint(p, "stream_id", UINT32_MAX, -1, &id, err, err_len) != 0)
		return -EINVAL;
	s = trex_stream_find(port, (uint32_t)id, &idx);
	if (s == NULL)
		return pvp_fail(err, err_len, -ENOENT, "stream %u does not exists in profile_id(_)",
				(uint32_t)id);
	ret = trex_port_writable(port, err, err_len);
	if (ret != 0)
		return ret;
	tp = &trex.port[port];
	memmove(&tp->streams[idx], &tp->streams[idx + 1],
		(tp->nb_streams - idx - 1) * sizeof(tp->streams[0]));
	tp->nb_streams--;
	trex_stream_free(s);
	if (tp->nb_streams == 0)
		tp->state = TREX_PORT_IDLE;
	trex.streams_gen++;
	return trex_ok(res);
}

int
trex_m_remove_all_streams(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	int ret = trex_port_writable(port, err, err_len);

	if (ret != 0)
		return ret;
	trex_streams_clear(port);
	return trex_ok(res);
}

int
trex_m_get_stream_list(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_port *tp = &trex.port[port];
	const char *prof = json_string_value(json_object_get(p, "profile_id"));
	json_t *ids;
	uint32_t i;

	ids = json_array();
	for (i = 0; i < tp->nb_streams; i++)
		json_array_append_new(ids, json_integer(tp->streams[i]->id));
	/* Every profile's ("*"): by profile, pvpkit-gen's one "_". */
	*res = prof != NULL && strcmp(prof, "*") == 0 ? json_pack("{s:o}", "_", ids) : ids;
	return 0;
}

int
trex_m_get_all_streams(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_port *tp = &trex.port[port];
	json_t *streams;
	char key[16];
	uint32_t i;

	streams = json_object();
	for (i = 0; i < tp->nb_streams; i++) {
		snprintf(key, sizeof(key), "%u", tp->streams[i]->id);
		json_object_set(streams, key, tp->streams[i]->json);
	}
	/* Clients without profiles read "streams", those with them "profiles". */
	*res = json_pack("{s:O,s:{s:o}}", "streams", streams, "profiles", "_", streams);
	return 0;
}

int
trex_m_get_stream(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_stream *s;
	json_t *j;
	uint64_t id;
	bool get_pkt;

	if (trex_param_uint(p, "stream_id", UINT32_MAX, -1, &id, err, err_len) != 0 ||
	    trex_param_bool(p, "get_pkt", 0, &get_pkt, err, err_len) != 0)
		return -EINVAL;
	s = trex_stream_find(port, (uint32_t)id, NULL);
	if (s == NULL)
		return pvp_fail(err, err_len, -ENOENT,
				"stream id %u, profile id _ on port %u does not exists",
				(uint32_t)id, port);
	j = json_deep_copy(s->json);
	if (!get_pkt)
		json_object_del(j, "packet");
	*res = json_pack("{s:o}", "stream", j);
	return 0;
}

/* ---- the loaded profile ---- */

int
trex_profile_load(char *err, size_t err_len)
{
	struct gen_ctx *g = trex.g;
	struct trex_stream *list[GEN_MAX_STREAMS];
	struct pvp_profile *prof;
	char msg[512] = "";
	uint32_t n = 0, i;
	uint16_t port;
	int ret;

	for (port = 0; port < g->nb_ports; port++)
		for (i = 0; i < trex.port[port].nb_streams; i++) {
			struct trex_stream *s = trex.port[port].streams[i];

			if (!s->enabled)
				continue;
			if (n == GEN_MAX_STREAMS || (n + 1) * g->opt.tx_cores > GEN_MAX_WSTREAMS)
				return pvp_fail(
					err, err_len, -ERANGE,
					"more than %u enabled streams on all ports together: "
					"pvpkit-gen sends at most %u (%u per TX core)",
					n,
					RTE_MIN(GEN_MAX_STREAMS,
						GEN_MAX_WSTREAMS / g->opt.tx_cores),
					GEN_MAX_WSTREAMS / g->opt.tx_cores);
			list[n++] = s;
		}
	if (n == 0)
		return pvp_fail(err, err_len, -EPERM,
				"unable to start traffic - no enabled streams");
	prof = calloc(1, sizeof(*prof));
	if (prof != NULL)
		prof->streams = calloc(n, sizeof(*prof->streams));
	if (prof == NULL || prof->streams == NULL) {
		free(prof);
		return pvp_fail(err, err_len, -ENOMEM, "out of memory");
	}
	snprintf(prof->source, sizeof(prof->source), "<trex>");
	prof->n_streams = n;
	for (i = 0; i < n; i++) {
		ret = trex_stream_fill(list[i], &prof->streams[i], (uint16_t)i, msg, sizeof(msg));
		if (ret != 0) {
			pvp_profile_free(prof);
			return pvp_fail(err, err_len, -EPERM, "port %u stream %u: %s",
					list[i]->port, list[i]->id, msg);
		}
	}
	for (i = 0; i < trex.nb_loaded; i++)
		if (trex.loaded[i] != NULL)
			trex_tpg_save(trex.loaded[i]);
	ret = gen_streams_setup(g, prof, msg, sizeof(msg));
	if (ret != 0) {
		pvp_profile_free(prof);
		trex.loaded_any = false;
		trex.nb_loaded = 0;
		return pvp_fail(err, err_len, -EPERM, "%s", msg);
	}
	for (i = 0; i < trex.nb_loaded; i++)
		if (trex.loaded[i] != NULL)
			trex.loaded[i]->ps = -1;
	for (i = 0; i < n; i++) {
		trex.loaded[i] = list[i];
		list[i]->ps = (int)i;
	}
	trex.nb_loaded = n;
	trex_tpg_loaded();
	trex.loaded_any = true;
	trex.loaded_gen = trex.streams_gen;
	/* New wire streams: their counters start again, under a new version. */
	trex.ver_id++;
	if (gen_rx_clear(g) != 0)
		GEN_LOG(WARNING, "RX lcore did not answer the clear of a new profile");
	return 0;
}
