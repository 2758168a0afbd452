/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Control methods of --server (notes: doc/gen.rst "Control"):
 * profile.load, traffic.start, traffic.stop, traffic.update, stats.get,
 * stats.clear, capture.start/stop/status and the info members. They run on lib/ctl's control thread
 * and take gen_lock, which the main loop also takes to end a run whose
 * duration is over. Every parameter is checked (range, type, unknown
 * keys) before anything changes, and files named by a client are read
 * under lib/ctl's file policy (doc/control.rst).
 */

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_ethdev.h>

#include "pvp_ctl.h"
#include "pvp_util.h"

#include "capture.h"
#include "gen.h"

pthread_mutex_t gen_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pvp_ctl_server *gen_srv;

/*
 * The parameters are decoded through their tables (pvp_gen_answer.h),
 * which bound every number a client may send: a duration of 1e300 s is a
 * mistake, never a setting, refused with -32602 naming the parameter and
 * the range rather than rounded into a count that overflows. Only what a
 * table cannot say is checked here: the rate's grammar (bounded as on the
 * command line, PVP_RATE_MIN_PPS ... in lib/util), profile.load's "one of",
 * a start time against this host's clock, a port against the ports there.
 */
/* How far traffic.start's start_at may lie ahead of and behind our clock. */
#define GEN_CTL_START_AHEAD_S 60.0
#define GEN_CTL_START_SKEW_S  10.0
/* Largest profile and pcap files profile.load reads. */
#define GEN_CTL_PROFILE_MAX (8 * 1024 * 1024)
#define GEN_CTL_PCAP_MAX    (256 * 1024 * 1024)

/*
 * The pcap files a profile names are opened by lib/pkt by name: check
 * each under the control channel's file policy first (a FIFO would
 * block the control thread, a device or a huge file would be read) and
 * give lib/pkt the checked, canonical name. @p rel_dir: the folder of
 * the profile file, NULL for an inline profile.
 */
static int
gen_ctl_check_pcaps(json_t *root, const char *rel_dir, char *err, size_t err_len)
{
	char real[PATH_MAX], e[PVP_CTL_ERR_LEN] = "";
	json_t *streams = json_object_get(root, "streams"), *st, *pcap;
	size_t i;

	json_array_foreach(streams, i, st) {
		pcap = json_object_get(st, "pcap");
		if (!json_is_string(pcap))
			continue; /* lib/pkt says what is wrong with it */
		if (pvp_ctl_file_check(json_string_value(pcap), rel_dir, GEN_CTL_PCAP_MAX, real,
				       sizeof(real), e, sizeof(e)) < 0)
			return pvp_fail(err, err_len, -EINVAL,
					"profile.load: streams[%zu].pcap: %s", i, e);
		if (json_object_set_new(st, "pcap", json_string(real)) != 0)
			return pvp_fail(err, err_len, -ENOMEM, "out of memory");
	}
	return 0;
}

/* Read, parse and check the profile file a client named into @p root. */
static int
gen_ctl_profile_file(const char *path, bool has_dir, json_t **root, char *err, size_t err_len)
{
	char real[PATH_MAX], *text = NULL, *cut, e[PVP_CTL_ERR_LEN] = "";
	json_error_t jerr;
	size_t len = 0;
	int ret;

	ret = pvp_ctl_file_read(path, NULL, GEN_CTL_PROFILE_MAX, &text, &len, real, sizeof(real), e,
				sizeof(e));
	if (ret < 0)
		return pvp_fail(err, err_len, -EINVAL, "profile.load: %s%s", e,
				ret == -EPERM && !has_dir
					? "; start pvpkit-gen with --ctl-files-dir DIR, or send "
					  "{\"profile\": {...}}"
					: "");
	*root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (*root == NULL) {
		/* jansson quotes where it stopped ("near 'root'"): not for a file that may be a secret. */
		cut = strstr(jerr.text, " near ");
		if (cut != NULL)
			*cut = '\0';
		return pvp_fail(err, err_len, -EINVAL, "profile.load: %.200s:%d:%d: %s", path,
				jerr.line, jerr.column, jerr.text);
	}
	ret = gen_ctl_check_pcaps(*root, dirname(real), err, err_len);
	if (ret < 0) {
		json_decref(*root);
		*root = NULL;
	}
	return ret;
}

/*
 * traffic.start's and traffic.update's rate: a number is packets per
 * second; a string has the one rate grammar, so "1e-300", "nan" and
 * "0x10" are refused here as on the command line, never turned into a run
 * that ends at once.
 */
static int
gen_ctl_rate(const char *method, const json_t *v, struct pvp_rate *r, char *err, size_t err_len)
{
	char msg[256];

	if (json_is_number(v)) {
		r->unit = PVP_RATE_PPS;
		r->value = json_number_value(v);
		if (r->value >= PVP_RATE_MIN_PPS && r->value <= PVP_RATE_MAX_PPS)
			return 0;
		return pvp_fail(err, err_len, -EINVAL, "%s: rate: must be a number in %g..%g (pps)",
				method, PVP_RATE_MIN_PPS, PVP_RATE_MAX_PPS);
	}
	if (!json_is_string(v))
		return pvp_fail(err, err_len, -EINVAL,
				"%s: rate: must be a number (pps) or a string", method);
	if (pvp_rate_parse(json_string_value(v), r, msg, sizeof(msg)) != 0)
		return pvp_fail(err, err_len, -EINVAL, "%s: rate: %s", method, msg);
	return 0;
}

static int
gen_m_profile_load(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	static const char *const m = PVP_GEN_M_PROFILE_LOAD;
	struct gen_ctx *g = arg;
	struct pvp_profile *p = NULL;
	struct pvp_gen_profile_load pl;
	char e[PVP_PKT_ERR_LEN] = "";
	json_t *root = NULL;
	const char *source = "<rpc>";
	int ret;

	RTE_BUILD_BUG_ON(PVP_GEN_MAX_SIZE != PVP_PKT_MAX_SIZE);
	RTE_BUILD_BUG_ON(PVP_GEN_MAX_PORTS != GEN_MAX_PORTS);
	if (pvp_ctl_params(m, pvp_gen_profile_load_members, params, &pl, err, err_len) < 0)
		return -EINVAL;
	if (pl.has_path + pl.has_profile + (pl.has_size || pl.has_flows) != 1)
		return pvp_fail(err, err_len, -EINVAL,
				"%s: params: {\"path\"} | {\"profile\"} | {\"size\",\"flows\"}", m);
	if (pl.size != 0 && pl.size < PVP_PKT_MIN_SIZE)
		return pvp_fail(err, err_len, -EINVAL, "%s: size: must be %d..%d (0: IMIX)", m,
				PVP_PKT_MIN_SIZE, PVP_PKT_MAX_SIZE);
	/* Files are read and checked before the lock: the TX side never waits on them. */
	if (pl.has_path) {
		source = pl.path;
		ret = gen_ctl_profile_file(source, g->opt.files_dir != NULL, &root, err, err_len);
		if (ret < 0)
			return ret;
	} else if (pl.has_profile) {
		root = json_deep_copy(pl.profile);
		if (root == NULL)
			return pvp_fail(err, err_len, -ENOMEM, "out of memory");
		ret = gen_ctl_check_pcaps(root, NULL, err, err_len);
		if (ret < 0) {
			json_decref(root);
			return ret;
		}
	}
	pthread_mutex_lock(&gen_lock);
	if (g->running && gen_traffic_tx_done(g))
		gen_traffic_stop(g); /* ended by itself, not seen by the main loop yet */
	if (g->running) {
		ret = pvp_fail(err, err_len, -EBUSY, "traffic is running: stop it first");
		goto out;
	}
	if (root != NULL) {
		p = pvp_profile_parse(root, source, e, sizeof(e));
	} else {
		uint16_t ports[GEN_MAX_PORTS];
		uint16_t i;

		for (i = 0; i < g->nb_ports; i++)
			ports[i] = i;
		p = pvp_profile_quick((uint16_t)pl.size, pl.flows, ports, g->nb_ports, e,
				      sizeof(e));
	}
	if (p == NULL) {
		ret = pvp_fail(err, err_len, -EINVAL, "%s", e[0] != '\0' ? e : strerror(errno));
		goto out;
	}
	/* --l3: a loaded profile goes to the resolved gateways too. */
	gen_neigh_apply(g, p);
	if (gen_streams_setup(g, p, err, err_len) != 0) {
		pvp_profile_free(p);
		ret = -EINVAL;
		goto out;
	}
	memset(g->tx_base, 0, sizeof(g->tx_base));
	g->run_start_tsc = 0;
	g->run_start_at = 0;
	g->requested_pps = 0;
	gen_rx_clear(g);
	*result = json_pack("{s:i}", "streams", g->nb_ws);
	ret = 0;
out:
	pthread_mutex_unlock(&gen_lock);
	json_decref(root);
	return ret;
}

static int
gen_m_traffic_start(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	static const char *const m = PVP_GEN_M_TRAFFIC_START;
	struct gen_ctx *g = arg;
	struct pvp_rate rate = {.unit = PVP_RATE_MAX};
	struct pvp_gen_traffic_start ts;
	double now = pvp_realtime_s();
	int ret;

	if (pvp_ctl_params(m, pvp_gen_traffic_start_members, params, &ts, err, err_len) < 0 ||
	    (ts.rate != NULL && gen_ctl_rate(m, ts.rate, &rate, err, err_len) != 0))
		return -EINVAL;
	/* 0 is "until traffic.stop", as an absent duration. */
	if (ts.duration != 0 && ts.duration < GEN_MIN_DURATION_S)
		return pvp_fail(err, err_len, -EINVAL,
				"%s: duration: must be 0 (until traffic.stop) or %g..%g seconds", m,
				GEN_MIN_DURATION_S, GEN_MAX_DURATION_S);
	/*
	 * A start at a given CLOCK_REALTIME second, near now: a time far off
	 * is a coordinator whose clock is not ours (no NTP), which a run
	 * must not wait for, nor pretend was simultaneous.
	 */
	if (ts.has_start_at &&
	    (ts.start_at < now - GEN_CTL_START_SKEW_S || ts.start_at > now + GEN_CTL_START_AHEAD_S))
		return pvp_fail(
			err, err_len, -EINVAL,
			"%s: start_at: %.4g s %s this host's clock (must be at most %.0f s ahead, "
			"%.0f s behind): are the clocks synchronised?",
			m, fabs(ts.start_at - now), ts.start_at > now ? "ahead of" : "behind",
			GEN_CTL_START_AHEAD_S, GEN_CTL_START_SKEW_S);
	pthread_mutex_lock(&gen_lock);
	ret = gen_traffic_start(g, &rate, ts.duration, ts.has_start_at ? ts.start_at : 0, err,
				err_len);
	pthread_mutex_unlock(&gen_lock);
	if (ret != 0)
		return ret == -EBUSY ? -EBUSY : -EINVAL;
	*result = json_object();
	return 0;
}

static int
gen_m_traffic_stop(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	struct gen_ctx *g = arg;

	if (pvp_ctl_params(PVP_GEN_M_TRAFFIC_STOP, NULL, params, NULL, err, err_len) < 0)
		return -EINVAL;
	pthread_mutex_lock(&gen_lock);
	gen_traffic_stop(g);
	pthread_mutex_unlock(&gen_lock);
	*result = json_object();
	return 0;
}

static int
gen_m_traffic_update(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	static const char *const m = PVP_GEN_M_TRAFFIC_UPDATE;
	struct gen_ctx *g = arg;
	struct pvp_gen_traffic_start ts;
	struct pvp_rate rate;
	int ret;

	if (pvp_ctl_params(m, pvp_gen_traffic_update_members, params, &ts, err, err_len) < 0 ||
	    gen_ctl_rate(m, ts.rate, &rate, err, err_len) != 0)
		return -EINVAL;
	pthread_mutex_lock(&gen_lock);
	ret = gen_traffic_update(g, &rate, err, err_len);
	pthread_mutex_unlock(&gen_lock);
	if (ret != 0)
		return g->running ? -EINVAL : -EBUSY;
	*result = json_object();
	return 0;
}

static int
gen_m_stats_get(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	struct gen_ctx *g = arg;

	if (pvp_ctl_params(PVP_GEN_M_STATS_GET, NULL, params, NULL, err, err_len) < 0)
		return -EINVAL;
	pthread_mutex_lock(&gen_lock);
	*result = gen_report_json(g);
	pthread_mutex_unlock(&gen_lock);
	if (*result == NULL)
		return pvp_fail(err, err_len, -EIO, "snapshot failed");
	return 0;
}

static int
gen_m_stats_clear(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	struct gen_ctx *g = arg;
	uint16_t i;
	int ret;

	if (pvp_ctl_params(PVP_GEN_M_STATS_CLEAR, NULL, params, NULL, err, err_len) < 0)
		return -EINVAL;
	pthread_mutex_lock(&gen_lock);
	pvp_stats_clear(g->stats);
	for (i = 0; i < g->nb_ws; i++)
		g->tx_base[i] = g->ws[i]->tx;
	ret = gen_rx_clear(g);
	gen_neigh_clear(g);
	pthread_mutex_unlock(&gen_lock);
	if (ret != 0)
		return pvp_fail(err, err_len, -EIO, "RX lcore did not answer the clear");
	*result = json_object();
	return 0;
}

/*
 * neigh.set {"port": P, "responder": false|true}: stop (or start again)
 * the ARP/ND responder of an --addr port: no replies, no announcements,
 * while its requests are still counted as neigh_rx. What a routed DUT
 * does when the tester stops answering is what a test of it wants to
 * see (its entry for the tester ages out).
 */
static int
gen_m_neigh_set(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	static const char *const m = PVP_GEN_M_NEIGH_SET;
	struct gen_ctx *g = arg;
	struct pvp_gen_neigh_set ns;
	char msg[256] = "";
	int ret;

	if (pvp_ctl_params(m, pvp_gen_neigh_set_members, params, &ns, err, err_len) < 0)
		return -EINVAL;
	pthread_mutex_lock(&gen_lock);
	ret = gen_neigh_set(g, (uint16_t)ns.port, ns.responder, msg, sizeof(msg));
	pthread_mutex_unlock(&gen_lock);
	if (ret != 0)
		return pvp_fail(err, err_len, -EINVAL, "%s: %s", m, msg);
	*result = json_object();
	return 0;
}

/*
 * capture.start: a pcap file of the frames a BPF filter takes, written
 * while traffic runs (capture.h). The file is a new one, named by a
 * plain name, in --ctl-files-dir: a client never picks a path to write.
 */
static int
gen_m_capture_start(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	static const char *const m = PVP_GEN_M_CAPTURE_START;
	struct gen_ctx *g = arg;
	struct pvp_gen_capture_start cs;
	struct gen_cap_conf c;
	char path[PATH_MAX], msg[512] = "";
	const char *name = cs.file;
	uint32_t id;
	uint64_t mask;

	if (pvp_ctl_params(m, pvp_gen_capture_start_members, params, &cs, err, err_len) < 0)
		return -EINVAL;
	memset(&c, 0, sizeof(c));
	if (name[0] == '.' || strchr(name, '/') != NULL)
		return pvp_fail(err, err_len, -EINVAL,
				"%s: file: must be a file name (no '/', no leading '.')", m);
	if (g->opt.files_dir == NULL)
		return pvp_fail(err, err_len, -EINVAL,
				"%s: start pvpkit-gen with --ctl-files-dir DIR: captures are "
				"written there",
				m);
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", g->opt.files_dir, name) >= sizeof(path))
		return pvp_fail(err, err_len, -EINVAL,
				"%s: file: too long with the files directory", m);
	if (cs.port >= g->nb_ports)
		return pvp_fail(err, err_len, -EINVAL,
				"%s: port: must be an integer in -1..%u (-1: every port)", m,
				g->nb_ports - 1);
	c.file = path;
	c.file_excl = true;
	c.filter = cs.filter[0] != '\0' ? cs.filter : NULL;
	c.count = cs.count;
	c.bytes = cs.bytes;
	mask = cs.port >= 0 ? 1ull << cs.port : (1ull << g->nb_ports) - 1;
	c.ports[GEN_CAP_RX] = cs.dir[0] != 't' ? mask : 0;
	c.ports[GEN_CAP_TX] = cs.dir[0] != 'r' ? mask : 0;
	if (gen_cap_start(&c, &id, NULL, msg, sizeof(msg)) != 0)
		return pvp_fail(err, err_len, -EINVAL, "%s: %s", m, msg);
	*result = json_pack("{s:I,s:s}", "id", (json_int_t)id, "file", name);
	return 0;
}

static json_t *
gen_ctl_capture_json(const struct gen_cap_info *i)
{
	return json_pack("{s:I,s:b,s:s,s:I,s:I,s:I,s:I,s:I}", "id", (json_int_t)i->id, "active",
			 i->active, "filter", i->filter, "matched", (json_int_t)i->matched,
			 PVP_GEN_K_CAPTURED, (json_int_t)i->captured, "bytes", (json_int_t)i->bytes,
			 "over_limit", (json_int_t)i->over, "dropped", (json_int_t)i->dropped);
}

/* capture.stop: the file is whole when the answer comes; the capture is forgotten. */
static int
gen_m_capture_stop(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	struct gen_cap_info info;
	char msg[256] = "";
	uint32_t id;

	RTE_SET_USED(arg);
	if (pvp_ctl_params(PVP_GEN_M_CAPTURE_STOP, pvp_gen_capture_stop_members, params, &id, err,
			   err_len) < 0)
		return -EINVAL;
	if (gen_cap_stop(id, &info, msg, sizeof(msg)) != 0 ||
	    gen_cap_remove(id, msg, sizeof(msg)) != 0)
		return pvp_fail(err, err_len, -EINVAL, "%s: %s", PVP_GEN_M_CAPTURE_STOP, msg);
	*result = gen_ctl_capture_json(&info);
	return 0;
}

static int
gen_m_capture_status(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	struct gen_cap_info info[GEN_CAP_MAX];
	unsigned int n, i;

	RTE_SET_USED(arg);
	if (pvp_ctl_params(PVP_GEN_M_CAPTURE_STATUS, NULL, params, NULL, err, err_len) < 0)
		return -EINVAL;
	*result = json_array();
	n = gen_cap_status(info, RTE_DIM(info));
	for (i = 0; i < n; i++)
		json_array_append_new(*result, gen_ctl_capture_json(&info[i]));
	return 0;
}

static int
gen_info(json_t *info, void *arg)
{
	struct gen_ctx *g = arg;
	json_t *ports = json_array(), *streams = json_array();
	uint16_t i;

	for (i = 0; i < g->nb_ports; i++) {
		const struct gen_port *p = &g->port[i];
		struct rte_eth_link link;
		char mac[RTE_ETHER_ADDR_FMT_SIZE];

		memset(&link, 0, sizeof(link));
		rte_eth_link_get_nowait(p->eth_port, &link);
		rte_ether_format_addr(mac, sizeof(mac), &p->mac);
		json_array_append_new(ports,
				      json_pack("{s:i,s:i,s:s,s:s,s:b,s:I,s:i,s:i}", "port", i,
						"eth_port", p->eth_port, "name", p->name, "mac",
						mac, "link_up", link.link_status != 0, "speed_mbps",
						(json_int_t)(p->link_bps / 1000000), "rxq",
						g->rx.nb, "txq", g->opt.tx_cores));
	}
	pthread_mutex_lock(&gen_lock);
	for (i = 0; i < g->nb_ws; i++) {
		const struct gen_wstream *w = g->ws[i];
		char line[256];

		pvp_stream_summary(w->st->ps, line, sizeof(line));
		json_array_append_new(
			streams, json_pack("{s:i,s:s,s:i,s:i,s:f,s:I,s:s}", "stream", w->wire_id,
					   "name", w->st->ps->name, "port", w->port, "queue",
					   w->queue, "avg_size", w->st->ps->avg_size, "flows",
					   (json_int_t)w->st->ps->flows, "summary", line));
	}
	pthread_mutex_unlock(&gen_lock);
	json_object_update_new(info, json_pack("{s:o,s:o,s:i}", "ports", ports, "streams", streams,
					       "tx_cores", g->opt.tx_cores));
	return 0;
}

/* clock.get: this process's clock sample (pvp_clock_sample_json()). */
static int
gen_m_clock_get(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	struct pvp_clock_sample c;

	(void)arg;
	if (pvp_ctl_params(PVP_GEN_M_CLOCK_GET, NULL, params, NULL, err, err_len) < 0)
		return -EINVAL;
	pvp_clock_sample_take(&c);
	*result = pvp_clock_sample_json(&c);
	if (*result == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "%s: out of memory", PVP_GEN_M_CLOCK_GET);
	return 0;
}

/*
 * oneway.set {"peer": SAMPLE | null}: the guest's clock.get answer, to
 * split latency at its stamps when its TSC is ours (null: stop). The
 * answer says what was found: {"clock": "shared" | "differs", ...}.
 */
static int
gen_m_oneway_set(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	struct gen_ctx *g = arg;
	struct pvp_gen_oneway_set os;
	char e[256] = "";
	int ret;

	if (pvp_ctl_params(PVP_GEN_M_ONEWAY_SET, pvp_gen_oneway_set_members, params, &os, err,
			   err_len) < 0)
		return -EINVAL;
	ret = gen_oneway_set(g, os.peer, e, sizeof(e));
	/* Only a bad peer is the client's fault. */
	if (ret < 0)
		return pvp_fail(err, err_len, ret == -EINVAL ? -EINVAL : -EIO, "%s: %s",
				PVP_GEN_M_ONEWAY_SET, e);
	*result = gen_oneway_json(g);
	return 0;
}

int
gen_ctl_start(struct gen_ctx *g, char *err, size_t errlen)
{
	struct pvp_ctl_server_conf conf;
	char e[PVP_CTL_ERR_LEN] = "";
	static const struct {
		const char *name;
		pvp_ctl_method_cb cb;
	} methods[] = {
		{PVP_GEN_M_PROFILE_LOAD, gen_m_profile_load},
		{PVP_GEN_M_TRAFFIC_START, gen_m_traffic_start},
		{PVP_GEN_M_TRAFFIC_STOP, gen_m_traffic_stop},
		{PVP_GEN_M_TRAFFIC_UPDATE, gen_m_traffic_update},
		{PVP_GEN_M_STATS_GET, gen_m_stats_get},
		{PVP_GEN_M_STATS_CLEAR, gen_m_stats_clear},
		{PVP_GEN_M_CAPTURE_START, gen_m_capture_start},
		{PVP_GEN_M_CAPTURE_STOP, gen_m_capture_stop},
		{PVP_GEN_M_CAPTURE_STATUS, gen_m_capture_status},
		{PVP_GEN_M_NEIGH_SET, gen_m_neigh_set},
		{PVP_GEN_M_CLOCK_GET, gen_m_clock_get},
		{PVP_GEN_M_ONEWAY_SET, gen_m_oneway_set},
	};
	unsigned int i;
	int ret;

	memset(&conf, 0, sizeof(conf));
	conf.listen = g->opt.ctl != NULL ? g->opt.ctl : "unix:/run/pvpkit/gen.sock";
	conf.token_file = g->opt.token_file;
	conf.files_dir = g->opt.files_dir;
	conf.app_name = "pvpkit-gen";
	gen_srv = pvp_ctl_server_create(&conf, e, sizeof(e));
	if (gen_srv == NULL)
		return pvp_fail(err, errlen, -errno, "--ctl %s: %s", conf.listen, e);
	for (i = 0; i < RTE_DIM(methods); i++) {
		ret = pvp_ctl_server_register(gen_srv, methods[i].name, methods[i].cb, g);
		if (ret != 0)
			return pvp_fail(err, errlen, ret, "cannot register %s", methods[i].name);
	}
	pvp_ctl_server_set_info(gen_srv, gen_info, g);
	ret = pvp_ctl_server_start(gen_srv);
	if (ret != 0)
		return pvp_fail(err, errlen, ret, "control server: %s", strerror(-ret));
	GEN_LOG(INFO, "control on %s", pvp_ctl_server_address(gen_srv));
	printf("pvpkit-gen: control on %s\n", pvp_ctl_server_address(gen_srv));
	fflush(stdout);
	return 0;
}

void
gen_ctl_stop(void)
{
	pvp_ctl_server_destroy(gen_srv);
	gen_srv = NULL;
}
