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
#include "ctl_params.h"
#include "gen.h"

pthread_mutex_t gen_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pvp_ctl_server *gen_srv;

/*
 * Bounds of the numbers a client may send. A rate or a duration outside
 * them is a mistake (1e-300 pps, 1e300 s), never a setting: refused with
 * -32602 naming the parameter and the range, never rounded into a run
 * that ends at once or a count that overflows. Rates are bounded as on
 * the command line (PVP_RATE_MIN_PPS ... in lib/util).
 */
#define GEN_CTL_DURATION_MIN GEN_MIN_DURATION_S
#define GEN_CTL_DURATION_MAX GEN_MAX_DURATION_S /* as --duration */
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
				       sizeof(real), e, sizeof(e)) < 0) {
			pvp_err(err, err_len, "profile.load: streams[%zu].pcap: %s", i, e);
			return -EINVAL;
		}
		if (json_object_set_new(st, "pcap", json_string(real)) != 0) {
			pvp_err(err, err_len, "out of memory");
			return -ENOMEM;
		}
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
	if (ret < 0) {
		pvp_err(err, err_len, "profile.load: %s%s", e,
			ret == -EPERM && !has_dir
				? "; start pvpkit-gen with --ctl-files-dir DIR, or send "
				  "{\"profile\": {...}}"
				: "");
		return -EINVAL;
	}
	*root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (*root == NULL) {
		/* jansson quotes where it stopped ("near 'root'"): not for a file that may be a secret. */
		cut = strstr(jerr.text, " near ");
		if (cut != NULL)
			*cut = '\0';
		pvp_err(err, err_len, "profile.load: %.200s:%d:%d: %s", path, jerr.line,
			jerr.column, jerr.text);
		return -EINVAL;
	}
	ret = gen_ctl_check_pcaps(*root, dirname(real), err, err_len);
	if (ret < 0) {
		json_decref(*root);
		*root = NULL;
	}
	return ret;
}

static int
gen_m_profile_load(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	static const char *const keys[] = {"path", "profile", "size", "flows", NULL};
	struct gen_ctx *g = arg;
	struct pvp_profile *p = NULL;
	char e[PVP_PKT_ERR_LEN] = "";
	char msg[512];
	json_t *v, *root = NULL;
	const char *source = "<rpc>";
	int ret;

	if (!json_is_object(params) ||
	    gen_ctl_keys("profile.load", params, keys, err, err_len) < 0 ||
	    (json_object_get(params, "path") != NULL) +
			    (json_object_get(params, "profile") != NULL) +
			    (json_object_get(params, "size") != NULL ||
			     json_object_get(params, "flows") != NULL) !=
		    1) {
		pvp_err(err, err_len,
			"profile.load: params: {\"path\"} | {\"profile\"} | {\"size\",\"flows\"}");
		return -EINVAL;
	}
	/* Files are read and checked before the lock: the TX side never waits on them. */
	if ((v = json_object_get(params, "path")) != NULL) {
		if (!json_is_string(v)) {
			pvp_err(err, err_len, "profile.load: \"path\" must be a string");
			return -EINVAL;
		}
		source = json_string_value(v);
		ret = gen_ctl_profile_file(source, g->opt.files_dir != NULL, &root, err, err_len);
		if (ret < 0)
			return ret;
	} else if ((v = json_object_get(params, "profile")) != NULL) {
		root = json_deep_copy(v);
		if (root == NULL) {
			pvp_err(err, err_len, "out of memory");
			return -ENOMEM;
		}
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
		pvp_err(err, err_len, "traffic is running: stop it first");
		ret = -EBUSY;
		goto out;
	}
	if (root != NULL) {
		p = pvp_profile_parse(root, source, e, sizeof(e));
	} else {
		json_int_t size = 64, flows = 1;
		uint16_t ports[GEN_MAX_PORTS];
		uint16_t i;

		ret = -EINVAL;
		if ((v = json_object_get(params, "size")) != NULL &&
		    gen_ctl_integer("profile.load", "size", v, 0, PVP_PKT_MAX_SIZE, &size, err,
				    err_len) < 0)
			goto out;
		if (size != 0 && size < PVP_PKT_MIN_SIZE) {
			pvp_err(err, err_len, "profile.load: \"size\" must be %d..%d (0: IMIX)",
				PVP_PKT_MIN_SIZE, PVP_PKT_MAX_SIZE);
			goto out;
		}
		if ((v = json_object_get(params, "flows")) != NULL &&
		    gen_ctl_integer("profile.load", "flows", v, 1, 1 << 24, &flows, err, err_len) <
			    0)
			goto out;
		for (i = 0; i < g->nb_ports; i++)
			ports[i] = i;
		p = pvp_profile_quick((uint16_t)size, (uint64_t)flows, ports, g->nb_ports, e,
				      sizeof(e));
	}
	ret = -EINVAL;
	if (p == NULL) {
		pvp_err(err, err_len, "%s", e[0] != '\0' ? e : strerror(errno));
		goto out;
	}
	/* --l3: a loaded profile goes to the resolved gateways too. */
	gen_neigh_apply(g, p);
	if (gen_streams_setup(g, p, msg, sizeof(msg)) != 0) {
		pvp_profile_free(p);
		pvp_err(err, err_len, "%s", msg);
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
	static const char *const keys[] = {"rate", "duration", "start_at", NULL};
	struct gen_ctx *g = arg;
	struct pvp_rate rate = {.unit = PVP_RATE_MAX};
	double duration = 0, start_at = 0, now;
	char msg[512];
	json_t *v;
	int ret;

	if (gen_ctl_keys("traffic.start", params, keys, err, err_len) < 0)
		return -EINVAL;
	if ((v = json_object_get(params, "rate")) != NULL &&
	    gen_json_rate("traffic.start", v, &rate, err, err_len) != 0)
		return -EINVAL;
	/* 0 is "until traffic.stop", as an absent duration. */
	if ((v = json_object_get(params, "duration")) != NULL &&
	    !(json_is_number(v) && json_number_value(v) == 0) &&
	    gen_ctl_number("traffic.start", "duration", v, GEN_CTL_DURATION_MIN,
			   GEN_CTL_DURATION_MAX, " (seconds; 0: until traffic.stop)", &duration,
			   err, err_len) != 0)
		return -EINVAL;
	/*
	 * A start at a given CLOCK_REALTIME second, near now: a time far off
	 * is a coordinator whose clock is not ours (no NTP), which a run
	 * must not wait for, nor pretend was simultaneous.
	 */
	if ((v = json_object_get(params, "start_at")) != NULL) {
		now = pvp_realtime_s();
		start_at = json_number_value(v);
		if (!json_is_number(v) || !isfinite(start_at)) {
			pvp_err(err, err_len,
				"traffic.start: \"start_at\" must be a number (CLOCK_REALTIME "
				"seconds)");
			return -EINVAL;
		}
		if (start_at < now - GEN_CTL_START_SKEW_S ||
		    start_at > now + GEN_CTL_START_AHEAD_S) {
			pvp_err(err, err_len,
				"traffic.start: \"start_at\" is %.4g s %s this host's clock "
				"(at most %.0f s ahead, %.0f s behind): are the clocks "
				"synchronised?",
				fabs(start_at - now), start_at > now ? "ahead of" : "behind",
				GEN_CTL_START_AHEAD_S, GEN_CTL_START_SKEW_S);
			return -EINVAL;
		}
	}
	pthread_mutex_lock(&gen_lock);
	ret = gen_traffic_start(g, &rate, duration, start_at, msg, sizeof(msg));
	pthread_mutex_unlock(&gen_lock);
	if (ret != 0) {
		pvp_err(err, err_len, "%s", msg);
		return ret == -EBUSY ? -EBUSY : -EINVAL;
	}
	*result = json_object();
	return 0;
}

static int
gen_m_traffic_stop(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	struct gen_ctx *g = arg;

	if (gen_ctl_no_params("traffic.stop", params, err, err_len) < 0)
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
	static const char *const keys[] = {"rate", NULL};
	struct gen_ctx *g = arg;
	struct pvp_rate rate;
	char msg[512];
	json_t *v;
	int ret;

	if (gen_ctl_keys("traffic.update", params, keys, err, err_len) < 0)
		return -EINVAL;
	v = json_object_get(params, "rate");
	if (v == NULL) {
		pvp_err(err, err_len, "traffic.update: params: {\"rate\": ...}");
		return -EINVAL;
	}
	if (gen_json_rate("traffic.update", v, &rate, err, err_len) != 0)
		return -EINVAL;
	pthread_mutex_lock(&gen_lock);
	ret = gen_traffic_update(g, &rate, msg, sizeof(msg));
	pthread_mutex_unlock(&gen_lock);
	if (ret != 0) {
		pvp_err(err, err_len, "%s", msg);
		return g->running ? -EINVAL : -EBUSY;
	}
	*result = json_object();
	return 0;
}

static int
gen_m_stats_get(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	struct gen_ctx *g = arg;

	if (gen_ctl_no_params("stats.get", params, err, err_len) < 0)
		return -EINVAL;
	pthread_mutex_lock(&gen_lock);
	*result = gen_report_json(g);
	pthread_mutex_unlock(&gen_lock);
	if (*result == NULL) {
		pvp_err(err, err_len, "snapshot failed");
		return -EIO;
	}
	return 0;
}

static int
gen_m_stats_clear(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	struct gen_ctx *g = arg;
	uint16_t i;
	int ret;

	if (gen_ctl_no_params("stats.clear", params, err, err_len) < 0)
		return -EINVAL;
	pthread_mutex_lock(&gen_lock);
	pvp_stats_clear(g->stats);
	for (i = 0; i < g->nb_ws; i++)
		g->tx_base[i] = g->ws[i]->tx;
	ret = gen_rx_clear(g);
	gen_neigh_clear(g);
	pthread_mutex_unlock(&gen_lock);
	if (ret != 0) {
		pvp_err(err, err_len, "RX lcore did not answer the clear");
		return -EIO;
	}
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
	static const char *const keys[] = {"port", "responder", NULL};
	static const char *const m = PVP_GEN_M_NEIGH_SET;
	struct gen_ctx *g = arg;
	const json_t *on = json_object_get(params, "responder");
	char msg[256] = "";
	json_int_t port;
	int ret;

	if (gen_ctl_keys(m, params, keys, err, err_len) < 0 ||
	    gen_ctl_integer(m, "port", json_object_get(params, "port"), 0, GEN_MAX_PORTS - 1, &port,
			    err, err_len) < 0)
		return -EINVAL;
	if (!json_is_boolean(on)) {
		pvp_err(err, err_len, "%s: \"responder\" must be true or false", m);
		return -EINVAL;
	}
	pthread_mutex_lock(&gen_lock);
	ret = gen_neigh_set(g, (uint16_t)port, json_is_true(on), msg, sizeof(msg));
	pthread_mutex_unlock(&gen_lock);
	if (ret != 0) {
		pvp_err(err, err_len, "%s: %s", m, msg);
		return -EINVAL;
	}
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
	static const char *const keys[] = {"file", "filter", "count", "bytes", "port", "dir", NULL};
	static const char *const m = PVP_GEN_M_CAPTURE_START;
	struct gen_ctx *g = arg;
	struct gen_cap_conf c;
	char path[PATH_MAX], msg[512] = "";
	const char *name, *dir;
	json_int_t v, port = -1;
	uint32_t id;
	uint64_t mask;

	if (gen_ctl_keys(m, params, keys, err, err_len) < 0)
		return -EINVAL;
	memset(&c, 0, sizeof(c));
	name = json_string_value(json_object_get(params, "file"));
	if (name == NULL || name[0] == '\0' || name[0] == '.' || strchr(name, '/') != NULL) {
		pvp_err(err, err_len, "%s: \"file\" must be a file name (no '/', no leading '.')",
			m);
		return -EINVAL;
	}
	if (g->opt.files_dir == NULL) {
		pvp_err(err, err_len,
			"%s: start pvpkit-gen with --ctl-files-dir DIR: captures are "
			"written there",
			m);
		return -EINVAL;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", g->opt.files_dir, name) >= sizeof(path)) {
		pvp_err(err, err_len, "%s: \"file\" is too long", m);
		return -EINVAL;
	}
	c.file = path;
	c.file_excl = true;
	c.bytes = GEN_CAP_DEF_BYTES;
	if (json_object_get(params, "filter") != NULL) {
		c.filter = json_string_value(json_object_get(params, "filter"));
		if (c.filter == NULL) {
			pvp_err(err, err_len, "%s: \"filter\" must be a string (pcap-filter(7))",
				m);
			return -EINVAL;
		}
	}
	if (json_object_get(params, "count") != NULL) {
		if (gen_ctl_integer(m, "count", json_object_get(params, "count"), 1,
				    GEN_CAP_MAX_COUNT, &v, err, err_len) < 0)
			return -EINVAL;
		c.count = (uint64_t)v;
	}
	if (json_object_get(params, "bytes") != NULL) {
		if (gen_ctl_integer(m, "bytes", json_object_get(params, "bytes"), 1,
				    (json_int_t)GEN_CAP_MAX_BYTES, &v, err, err_len) < 0)
			return -EINVAL;
		c.bytes = (uint64_t)v;
	}
	if (json_object_get(params, "port") != NULL &&
	    gen_ctl_integer(m, "port", json_object_get(params, "port"), 0, g->nb_ports - 1, &port,
			    err, err_len) < 0)
		return -EINVAL;
	mask = port >= 0 ? 1ull << port
			 : (g->nb_ports >= 64 ? UINT64_MAX : (1ull << g->nb_ports) - 1);
	dir = json_string_value(json_object_get(params, "dir"));
	if (json_object_get(params, "dir") != NULL &&
	    (dir == NULL || (strcmp(dir, "rx") != 0 && strcmp(dir, "tx") != 0))) {
		pvp_err(err, err_len, "%s: \"dir\" must be rx or tx", m);
		return -EINVAL;
	}
	c.ports[GEN_CAP_RX] = dir == NULL || dir[0] == 'r' ? mask : 0;
	c.ports[GEN_CAP_TX] = dir == NULL || dir[0] == 't' ? mask : 0;
	if (gen_cap_start(&c, &id, NULL, msg, sizeof(msg)) != 0) {
		pvp_err(err, err_len, "%s: %s", m, msg);
		return -EINVAL;
	}
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
	static const char *const keys[] = {"id", NULL};
	struct gen_cap_info info;
	char msg[256] = "";
	json_int_t id;

	RTE_SET_USED(arg);
	if (gen_ctl_keys(PVP_GEN_M_CAPTURE_STOP, params, keys, err, err_len) < 0 ||
	    gen_ctl_integer(PVP_GEN_M_CAPTURE_STOP, "id", json_object_get(params, "id"), 1,
			    UINT32_MAX, &id, err, err_len) < 0)
		return -EINVAL;
	if (gen_cap_stop((uint32_t)id, &info, msg, sizeof(msg)) != 0 ||
	    gen_cap_remove((uint32_t)id, msg, sizeof(msg)) != 0) {
		pvp_err(err, err_len, "%s: %s", PVP_GEN_M_CAPTURE_STOP, msg);
		return -EINVAL;
	}
	*result = gen_ctl_capture_json(&info);
	return 0;
}

static int
gen_m_capture_status(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	struct gen_cap_info info[GEN_CAP_MAX];
	unsigned int n, i;

	RTE_SET_USED(arg);
	if (gen_ctl_no_params(PVP_GEN_M_CAPTURE_STATUS, params, err, err_len) < 0)
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
						g->rx.nb, "txq", p->nb_txq));
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
	json_object_set_new(info, "ports", ports);
	json_object_set_new(info, "streams", streams);
	json_object_set_new(info, "tx_cores", json_integer(g->opt.tx_cores));
	return 0;
}

/* clock.get: this process's clock sample (pvp_clock_sample_json()). */
static int
gen_m_clock_get(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	struct pvp_clock_sample c;

	(void)arg;
	if (gen_ctl_no_params(PVP_GEN_M_CLOCK_GET, params, err, err_len) < 0)
		return -EINVAL;
	pvp_clock_sample_take(&c);
	*result = pvp_clock_sample_json(&c);
	if (*result == NULL) {
		pvp_err(err, err_len, "%s: out of memory", PVP_GEN_M_CLOCK_GET);
		return -ENOMEM;
	}
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
	static const char *const keys[] = {"peer", NULL};
	struct gen_ctx *g = arg;
	const json_t *peer;
	char e[256] = "";
	int ret;

	if (gen_ctl_keys(PVP_GEN_M_ONEWAY_SET, params, keys, err, err_len) < 0)
		return -EINVAL;
	peer = json_object_get(params, "peer");
	if (peer == NULL) {
		pvp_err(err, err_len,
			"%s: \"peer\" (the guest's clock.get answer, or null) is required",
			PVP_GEN_M_ONEWAY_SET);
		return -EINVAL;
	}
	ret = gen_oneway_set(g, peer, e, sizeof(e));
	if (ret < 0) {
		pvp_err(err, err_len, "%s: %s", PVP_GEN_M_ONEWAY_SET, e);
		/* Only a bad peer is the client's fault. */
		return ret == -EINVAL ? -EINVAL : -EIO;
	}
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
	if (gen_srv == NULL) {
		snprintf(err, errlen, "--ctl %s: %s", conf.listen, e);
		return -errno;
	}
	for (i = 0; i < RTE_DIM(methods); i++) {
		ret = pvp_ctl_server_register(gen_srv, methods[i].name, methods[i].cb, g);
		if (ret != 0) {
			snprintf(err, errlen, "cannot register %s", methods[i].name);
			return ret;
		}
	}
	pvp_ctl_server_set_info(gen_srv, gen_info, g);
	ret = pvp_ctl_server_start(gen_srv);
	if (ret != 0) {
		snprintf(err, errlen, "control server: %s", strerror(-ret));
		return ret;
	}
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
