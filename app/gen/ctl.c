/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Control methods of --server (notes: doc/gen.rst "Control"):
 * profile.load, traffic.start, traffic.stop, traffic.update, stats.get,
 * stats.clear and the info members. They run on lib/ctl's control thread
 * and take gen_lock, which the main loop also takes to end a run whose
 * duration is over.
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_ethdev.h>

#include "pvp_ctl.h"

#include "gen.h"

pthread_mutex_t gen_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pvp_ctl_server *gen_srv;

/* Read a rate from a JSON number (pps) or string. */
static int
gen_json_rate(const json_t *v, struct pvp_rate *r, struct pvp_ctl_error *err)
{
	char msg[256];

	if (json_is_number(v)) {
		r->unit = PVP_RATE_PPS;
		r->value = json_number_value(v);
		if (!(r->value > 0)) {
			pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS, "rate must be > 0");
			return -EINVAL;
		}
		return 0;
	}
	if (!json_is_string(v)) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
				  "\"rate\" must be a number (pps) or a string");
		return -EINVAL;
	}
	if (pvp_rate_parse(json_string_value(v), r, msg, sizeof(msg)) != 0) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS, "rate: %s", msg);
		return -EINVAL;
	}
	return 0;
}

static json_t *
gen_m_profile_load(json_t *params, void *arg, struct pvp_ctl_error *err)
{
	struct gen_ctx *g = arg;
	struct pvp_profile *p = NULL;
	struct pvp_pkt_error e;
	char msg[512];
	json_t *v, *res = NULL;

	memset(&e, 0, sizeof(e));
	if (!json_is_object(params)) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
				  "params: {\"path\"} | {\"profile\"} | {\"size\",\"flows\"}");
		return NULL;
	}
	pthread_mutex_lock(&gen_lock);
	if (g->running && gen_traffic_tx_done(g))
		gen_traffic_stop(g); /* ended by itself, not seen by the main loop yet */
	if (g->running) {
		pvp_ctl_error_set(err, PVP_CTL_BUSY, "traffic is running: stop it first");
		goto out;
	}
	if ((v = json_object_get(params, "path")) != NULL) {
		if (!json_is_string(v)) {
			pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS, "\"path\" must be a string");
			goto out;
		}
		p = pvp_profile_load(json_string_value(v), &e);
	} else if ((v = json_object_get(params, "profile")) != NULL) {
		p = pvp_profile_parse(v, "<rpc>", &e);
	} else {
		json_t *js = json_object_get(params, "size"),
		       *jf = json_object_get(params, "flows");
		json_int_t size = js != NULL ? json_integer_value(js) : 64;
		json_int_t flows = jf != NULL ? json_integer_value(jf) : 1;
		uint16_t ports[GEN_MAX_PORTS];
		uint16_t i;

		if ((js != NULL && !json_is_integer(js)) || (jf != NULL && !json_is_integer(jf)) ||
		    (size != 0 && (size < PVP_PKT_MIN_SIZE || size > PVP_PKT_MAX_SIZE)) ||
		    flows < 1 || flows > (1 << 24)) {
			pvp_ctl_error_set(
				err, PVP_CTL_INVALID_PARAMS,
				"\"size\" must be 64..9216 (0: IMIX), \"flows\" 1..16777216");
			goto out;
		}
		for (i = 0; i < g->nb_ports; i++)
			ports[i] = i;
		p = pvp_profile_quick((uint16_t)size, (uint64_t)flows, ports, g->nb_ports, &e);
	}
	if (p == NULL) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS, "%s",
				  e.text[0] != '\0' ? e.text : strerror(errno));
		goto out;
	}
	if (gen_streams_setup(g, p, msg, sizeof(msg)) != 0) {
		pvp_profile_free(p);
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS, "%s", msg);
		goto out;
	}
	memset(g->tx_base, 0, sizeof(g->tx_base));
	g->run_start_tsc = 0;
	g->requested_pps = 0;
	gen_rx_clear(g);
	res = json_pack("{s:i}", "streams", g->nb_ws);
out:
	pthread_mutex_unlock(&gen_lock);
	return res;
}

static json_t *
gen_m_traffic_start(json_t *params, void *arg, struct pvp_ctl_error *err)
{
	struct gen_ctx *g = arg;
	struct pvp_rate rate = {.unit = PVP_RATE_MAX};
	double duration = 0;
	char msg[512];
	json_t *v;
	int ret;

	if (params != NULL && !json_is_object(params)) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS, "params must be an object");
		return NULL;
	}
	if (params != NULL && (v = json_object_get(params, "rate")) != NULL &&
	    gen_json_rate(v, &rate, err) != 0)
		return NULL;
	if (params != NULL && (v = json_object_get(params, "duration")) != NULL) {
		if (!json_is_number(v) || json_number_value(v) < 0) {
			pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS,
					  "\"duration\" must be a number >= 0");
			return NULL;
		}
		duration = json_number_value(v);
	}
	pthread_mutex_lock(&gen_lock);
	ret = gen_traffic_start(g, &rate, duration, msg, sizeof(msg));
	pthread_mutex_unlock(&gen_lock);
	if (ret != 0) {
		pvp_ctl_error_set(err, ret == -EBUSY ? PVP_CTL_BUSY : PVP_CTL_INVALID_PARAMS, "%s",
				  msg);
		return NULL;
	}
	return json_object();
}

static json_t *
gen_m_traffic_stop(json_t *params, void *arg, struct pvp_ctl_error *err)
{
	struct gen_ctx *g = arg;

	pthread_mutex_lock(&gen_lock);
	gen_traffic_stop(g);
	pthread_mutex_unlock(&gen_lock);
	return json_object();
}

static json_t *
gen_m_traffic_update(json_t *params, void *arg, struct pvp_ctl_error *err)
{
	struct gen_ctx *g = arg;
	struct pvp_rate rate;
	char msg[512];
	json_t *v;
	int ret;

	v = json_is_object(params) ? json_object_get(params, "rate") : NULL;
	if (v == NULL) {
		pvp_ctl_error_set(err, PVP_CTL_INVALID_PARAMS, "params: {\"rate\": ...}");
		return NULL;
	}
	if (gen_json_rate(v, &rate, err) != 0)
		return NULL;
	pthread_mutex_lock(&gen_lock);
	ret = gen_traffic_update(g, &rate, msg, sizeof(msg));
	pthread_mutex_unlock(&gen_lock);
	if (ret != 0) {
		pvp_ctl_error_set(err, g->running ? PVP_CTL_INVALID_PARAMS : PVP_CTL_BUSY, "%s",
				  msg);
		return NULL;
	}
	return json_object();
}

static json_t *
gen_m_stats_get(json_t *params, void *arg, struct pvp_ctl_error *err)
{
	struct gen_ctx *g = arg;
	json_t *res;

	pthread_mutex_lock(&gen_lock);
	res = gen_report_json(g);
	pthread_mutex_unlock(&gen_lock);
	if (res == NULL)
		pvp_ctl_error_set(err, PVP_CTL_INTERNAL_ERROR, "snapshot failed");
	return res;
}

static json_t *
gen_m_stats_clear(json_t *params, void *arg, struct pvp_ctl_error *err)
{
	struct gen_ctx *g = arg;
	uint16_t i;
	int ret;

	pthread_mutex_lock(&gen_lock);
	pvp_stats_clear(g->stats);
	for (i = 0; i < g->nb_ws; i++)
		g->tx_base[i] = g->ws[i]->tx;
	ret = gen_rx_clear(g);
	pthread_mutex_unlock(&gen_lock);
	if (ret != 0) {
		pvp_ctl_error_set(err, PVP_CTL_INTERNAL_ERROR, "RX lcore did not answer the clear");
		return NULL;
	}
	return json_object();
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

int
gen_ctl_start(struct gen_ctx *g, char *err, size_t errlen)
{
	struct pvp_ctl_server_conf conf;
	struct pvp_ctl_error e;
	static const struct {
		const char *name;
		pvp_ctl_method_cb cb;
	} methods[] = {
		{"profile.load", gen_m_profile_load}, {"traffic.start", gen_m_traffic_start},
		{"traffic.stop", gen_m_traffic_stop}, {"traffic.update", gen_m_traffic_update},
		{"stats.get", gen_m_stats_get},	      {"stats.clear", gen_m_stats_clear},
	};
	unsigned int i;
	int ret;

	memset(&conf, 0, sizeof(conf));
	memset(&e, 0, sizeof(e));
	conf.listen = g->opt.ctl != NULL ? g->opt.ctl : "unix:/run/pvpkit/gen.sock";
	conf.token_file = g->opt.token_file;
	conf.app_name = "pvpkit-gen";
	gen_srv = pvp_ctl_server_create(&conf, &e);
	if (gen_srv == NULL) {
		snprintf(err, errlen, "--ctl %s: %s", conf.listen, e.message);
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
