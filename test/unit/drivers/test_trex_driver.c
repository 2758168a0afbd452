/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The trex hop driver against a fake TRex server: a thread with a ZeroMQ
 * REP socket that answers with replies recorded from pvpkit-gen --trex
 * (data/trex-*.json, the same layout as TRex's), logs every request, and
 * on demand refuses a method with a recorded error, stays silent, or
 * breaks the protocol (not JSON, a wrong id, bad compressed framing, a
 * missing counter) or lies (counters past 64 bits, pgid sums that wrap,
 * a link speed of 5e-324 Gbit/s).
 */

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <zmq.h>

#include "drv_test.h"
#include "trex_driver.h"
#include "trex_rpc.h"

enum xfake_mode {
	XF_OK,	     /* recorded replies, compressed */
	XF_PLAIN,    /* recorded replies, not compressed */
	XF_SILENT,   /* no reply */
	XF_NOT_JSON, /* "hello" */
	XF_BAD_ID,   /* the reply's id is not the request's */
	XF_BAD_ZIP,  /* compressed framing whose length lies */
	XF_REFUSE,   /* a recorded error reply (fail_reply) */
};

struct xfake {
	void *zctx, *rep;
	char ep[64];
	unsigned int port;
	pthread_t thr;
	volatile bool stop;
	pthread_mutex_t mu;
	enum xfake_mode mode;	 /* for mode_method, XF_OK for the others */
	const char *mode_method; /* NULL: every method */
	json_t *fail_reply;	 /* XF_REFUSE: the error object */
	json_t *log;		 /* every request: {"method", "params"} */
	int plain_requests;	 /* requests not in TRex's compressed framing */
	int bad_api_h;		 /* requests without the handshake's api_h */
	/* What get_port_stats serves. */
	json_int_t opackets, ipackets, oerrors, ierrors;
	double tx_pps;
	bool no_ipackets;
	json_t *stats_lie; /* members that replace get_port_stats' (NULL: none) */
	json_t *pgid;	   /* get_pgid_stats result */
	json_t *rec_sysinfo, *rec_status, *rec_stats, *rec_version;
};

static json_t *
rec_load(const char *name)
{
	char *text = drv_load(name, NULL);
	json_t *j = json_loads(text, 0, NULL);

	free(text);
	if (j == NULL) {
		fprintf(stderr, "%s is not JSON\n", name);
		exit(1);
	}
	return j;
}

/* The answer to one request object, as a reply object. */
static json_t *
xfake_answer(struct xfake *f, json_t *req)
{
	const char *m = json_string_value(json_object_get(req, "method"));
	json_t *params = json_object_get(req, "params"), *id = json_object_get(req, "id"), *res;
	const char *api_h = json_string_value(json_object_get(params, "api_h"));

	pthread_mutex_lock(&f->mu);
	json_array_append_new(f->log, json_pack("{s:s,s:O}", "method", m ? m : "", "params",
						params ? params : json_null()));
	if (m != NULL && strcmp(m, "api_sync_v2") != 0 &&
	    (api_h == NULL || strcmp(api_h, "fakeAPIh") != 0))
		f->bad_api_h++;
	if (f->mode == XF_REFUSE && (f->mode_method == NULL || strcmp(f->mode_method, m) == 0)) {
		pthread_mutex_unlock(&f->mu);
		return json_pack("{s:s,s:O,s:O}", "jsonrpc", "2.0", "id", id, "error",
				 f->fail_reply);
	}
	if (strcmp(m, "api_sync_v2") == 0)
		res = json_pack("{s:s}", "api_h", "fakeAPIh");
	else if (strcmp(m, "get_system_info") == 0)
		res = json_deep_copy(json_object_get(f->rec_sysinfo, "result"));
	else if (strcmp(m, "get_port_status") == 0)
		res = json_deep_copy(json_object_get(f->rec_status, "result"));
	else if (strcmp(m, "get_version") == 0)
		res = json_deep_copy(json_object_get(f->rec_version, "result"));
	else if (strcmp(m, "acquire") == 0)
		res = json_string("fakeHandler");
	else if (strcmp(m, "get_pgid_stats") == 0)
		res = json_deep_copy(f->pgid);
	else if (strcmp(m, "get_port_stats") == 0) {
		res = json_deep_copy(json_object_get(f->rec_stats, "result"));
		json_object_set_new(res, "opackets", json_integer(f->opackets));
		json_object_set_new(res, "ipackets", json_integer(f->ipackets));
		json_object_set_new(res, "oerrors", json_integer(f->oerrors));
		json_object_set_new(res, "ierrors", json_integer(f->ierrors));
		json_object_set_new(res, "m_total_tx_pps", json_real(f->tx_pps));
		if (f->no_ipackets)
			json_object_del(res, "ipackets");
		if (f->stats_lie != NULL)
			json_object_update(res, f->stats_lie);
	} else
		res = json_object();
	pthread_mutex_unlock(&f->mu);
	return json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id, "result", res);
}

static void
xfake_serve(struct xfake *f, zmq_msg_t *msg)
{
	enum xfake_mode mode = XF_OK;
	json_t *req, *rep;
	char *text = NULL, *out;
	void *z = NULL;
	size_t len, zlen;
	const char *m;

	if (zmq_msg_size(msg) < 8 || memcmp(zmq_msg_data(msg), "\xab\xe8\x5c\xea", 4) != 0)
		f->plain_requests++;
	if (trex_rpc_decompress(zmq_msg_data(msg), zmq_msg_size(msg), 1 << 20, &text, &len) < 0) {
		zmq_send(f->rep, "bad", 3, 0);
		return;
	}
	req = json_loads(text, 0, NULL);
	free(text);
	m = json_string_value(
		json_object_get(json_is_array(req) ? json_array_get(req, 0) : req, "method"));
	if (f->mode_method == NULL || (m != NULL && strcmp(f->mode_method, m) == 0))
		mode = f->mode;
	if (mode == XF_SILENT) {
		json_decref(req);
		/* A REP socket must answer before it can read again: stay stuck. */
		while (!f->stop)
			zmq_poll(NULL, 0, 50);
		return;
	}
	if (json_is_array(req)) {
		size_t i;
		json_t *x;

		rep = json_array();
		json_array_foreach(req, i, x)
			json_array_append_new(rep, xfake_answer(f, x));
	} else {
		rep = xfake_answer(f, req);
	}
	json_decref(req);
	if (mode == XF_BAD_ID)
		json_object_set_new(rep, "id", json_integer(424242));
	out = json_dumps(rep, JSON_COMPACT);
	json_decref(rep);
	if (mode == XF_NOT_JSON) {
		zmq_send(f->rep, "hello", 5, 0);
	} else if (mode == XF_PLAIN) {
		zmq_send(f->rep, out, strlen(out), 0);
	} else {
		trex_rpc_compress(out, strlen(out), &z, &zlen);
		if (mode == XF_BAD_ZIP)
			((unsigned char *)z)[7] ^= 0x40; /* the length lies */
		zmq_send(f->rep, z, zlen, 0);
		free(z);
	}
	free(out);
}

static void *
xfake_thread(void *arg)
{
	struct xfake *f = arg;

	while (!f->stop) {
		zmq_pollitem_t pi = {.socket = f->rep, .events = ZMQ_POLLIN};
		zmq_msg_t msg;

		if (zmq_poll(&pi, 1, 50) <= 0)
			continue;
		zmq_msg_init(&msg);
		if (zmq_msg_recv(&msg, f->rep, 0) >= 0)
			xfake_serve(f, &msg);
		zmq_msg_close(&msg);
	}
	return NULL;
}

static void
xfake_start(struct xfake *f, enum xfake_mode mode, const char *mode_method)
{
	size_t len = sizeof(f->ep);
	int zero = 0;

	memset(f, 0, sizeof(*f));
	pthread_mutex_init(&f->mu, NULL);
	f->mode = mode;
	f->mode_method = mode_method;
	f->log = json_array();
	f->rec_sysinfo = rec_load("trex-get-system-info.json");
	f->rec_status = rec_load("trex-get-port-status.json");
	f->rec_stats = rec_load("trex-get-port-stats.json");
	f->rec_version = rec_load("trex-get-version.json");
	{
		json_t *pg = rec_load("trex-get-pgid-stats.json");

		f->pgid = json_deep_copy(json_object_get(pg, "result"));
		json_decref(pg);
	}
	f->zctx = zmq_ctx_new();
	f->rep = zmq_socket(f->zctx, ZMQ_REP);
	zmq_setsockopt(f->rep, ZMQ_LINGER, &zero, sizeof(zero));
	if (zmq_bind(f->rep, "tcp://127.0.0.1:*") != 0 ||
	    zmq_getsockopt(f->rep, ZMQ_LAST_ENDPOINT, f->ep, &len) != 0) {
		perror("fake trex bind");
		exit(1);
	}
	f->port = (unsigned int)atoi(strrchr(f->ep, ':') + 1);
	pthread_create(&f->thr, NULL, xfake_thread, f);
}

static void
xfake_stop(struct xfake *f)
{
	f->stop = true;
	pthread_join(f->thr, NULL);
	zmq_close(f->rep);
	zmq_ctx_term(f->zctx);
	json_decref(f->log);
	json_decref(f->fail_reply);
	json_decref(f->rec_sysinfo);
	json_decref(f->rec_status);
	json_decref(f->rec_stats);
	json_decref(f->rec_version);
	json_decref(f->pgid);
	json_decref(f->stats_lie);
	pthread_mutex_destroy(&f->mu);
}

/* The @p n-th logged request of @p method (0 = first), or NULL. */
static json_t *
xfake_req(struct xfake *f, const char *method, int n)
{
	json_t *x, *found = NULL;
	size_t i;

	pthread_mutex_lock(&f->mu);
	json_array_foreach(f->log, i, x)
		if (strcmp(json_string_value(json_object_get(x, "method")), method) == 0 &&
		    n-- == 0) {
			found = json_object_get(x, "params");
			break;
		}
	pthread_mutex_unlock(&f->mu);
	return found;
}

static int
xfake_count(struct xfake *f, const char *method)
{
	int n = 0;

	while (xfake_req(f, method, n) != NULL)
		n++;
	return n;
}

static int
open_hop(struct coord_hop *hop, const char *conf_text, char *err, size_t err_len)
{
	json_t *conf = json_loads(conf_text, 0, NULL);
	int rc;

	if (conf == NULL) {
		fprintf(stderr, "bad test conf %s\n", conf_text);
		exit(1);
	}
	memset(hop, 0, sizeof(*hop));
	snprintf(hop->name, sizeof(hop->name), "tester");
	hop->driver = &hop_driver_trex;
	err[0] = '\0';
	rc = coord_hop_ports(hop, json_object_get(conf, "ports"), NULL, err, err_len);
	if (rc == 0)
		rc = hop_driver_trex.open(hop, conf, err, err_len);
	json_decref(conf);
	return rc;
}

static void
conf_for(char *conf, size_t len, const struct xfake *f, const char *extra)
{
	snprintf(conf, len,
		 "{\"name\": \"tester\", \"driver\": \"trex\", \"sync_port\": %u, "
		 "\"timeout_ms\": 500, \"ports\": [\"0\"]%s}",
		 f->port, extra);
}

/* The packet bytes of a logged add_stream. */
static size_t
stream_pkt(const json_t *params, unsigned char *out, size_t cap)
{
	const char *b64 = json_string_value(json_object_get(
		json_object_get(json_object_get(params, "stream"), "packet"), "binary"));
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	uint32_t acc = 0;
	size_t n = 0;
	int bits = 0;

	for (; b64 != NULL && *b64 != '\0' && *b64 != '='; b64++) {
		const char *p = strchr(abc, *b64);

		acc = (acc << 6) | (uint32_t)(p - abc);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (n < cap)
				out[n] = (unsigned char)(acc >> bits);
			n++;
		}
	}
	return n;
}

static json_t *
stream_ins(const json_t *params, size_t i)
{
	return json_array_get(
		json_object_get(json_object_get(json_object_get(params, "stream"), "vm"),
				"instructions"),
		i);
}

/* open: handshake, ports, acquire, reset; every request compressed with api_h. */
static void
test_open_and_snapshot(void)
{
	struct xfake f;
	struct coord_hop hop;
	struct coord_snap s;
	char conf[512], err[512];
	json_t *p, *ctx;
	int rc;

	unit_check_case = "open and snapshot";
	xfake_start(&f, XF_OK, NULL);
	conf_for(conf, sizeof(conf), &f, ", \"user\": \"lab\"");
	rc = open_hop(&hop, conf, err, sizeof(err));
	CHECK(rc == 0, "open: %d %s", rc, err);
	if (rc != 0)
		goto out;
	p = json_array_get(f.log, 0);
	CHECK(strcmp(json_string_value(json_object_get(p, "method")), "api_sync_v2") == 0,
	      "first call %s", json_string_value(json_object_get(p, "method")));
	p = json_object_get(p, "params");
	CHECK(strcmp(json_string_value(json_object_get(p, "name")), "STL") == 0 &&
		      json_integer_value(json_object_get(p, "major")) == 5 &&
		      json_integer_value(json_object_get(p, "minor")) == 0,
	      "handshake params");
	p = xfake_req(&f, "acquire", 0);
	CHECK(p != NULL && strcmp(json_string_value(json_object_get(p, "user")), "lab") == 0 &&
		      json_is_false(json_object_get(p, "force")) &&
		      json_integer_value(json_object_get(p, "port_id")) == 0,
	      "acquire params");
	p = xfake_req(&f, "remove_all_streams", 0);
	CHECK(p != NULL &&
		      strcmp(json_string_value(json_object_get(p, "handler")), "fakeHandler") == 0,
	      "reset with the handler");
	CHECK_U64(xfake_count(&f, "get_port_status"), 1);
	f.opackets = 123456;
	f.ipackets = 123000;
	f.ierrors = 456;
	f.oerrors = 7;
	memset(&s, 0xff, sizeof(s));
	rc = hop_driver_trex.snapshot(&hop, &s, err, sizeof(err));
	CHECK(rc == 0, "snapshot: %d %s", rc, err);
	CHECK_U64(s.nb_ports, 1);
	CHECK(strcmp(s.port[0].name, "0") == 0, "port name %s", s.port[0].name);
	CHECK_U64(s.port[0].c[PVP_STATS_tx_packets], 123456);
	CHECK_U64(s.port[0].c[PVP_STATS_rx_packets], 123000);
	CHECK_U64(s.port[0].c[PVP_STATS_rx_dropped], 456);
	CHECK_U64(s.port[0].c[PVP_STATS_tx_errors], 7);
	CHECK_U64(s.port[0].c[PVP_STATS_tx_dropped], 0);
	/* Recorded bytes: with FCS, as TRex counts them. */
	CHECK(s.port[0].c[PVP_STATS_tx_bytes] > 0 && s.port[0].c[PVP_STATS_rx_bytes] > 0,
	      "bytes %llu %llu", (unsigned long long)s.port[0].c[PVP_STATS_tx_bytes],
	      (unsigned long long)s.port[0].c[PVP_STATS_rx_bytes]);
	CHECK(strcmp(coord_reason_name(s.port[0].reasons[0].id), "rx_ierrors") == 0 &&
		      s.port[0].reasons[0].value == 456,
	      "reason %s", coord_reason_name(s.port[0].reasons[0].id));
	ctx = hop_driver_trex.context(&hop);
	CHECK(ctx != NULL && json_object_get(ctx, "version") != NULL &&
		      json_real_value(json_object_get(
			      json_array_get(json_object_get(ctx, "ports"), 0), "speed_gbps")) ==
			      10,
	      "context %s", ctx != NULL ? json_dumps(ctx, 0) : "NULL");
	json_decref(ctx);
	hop_driver_trex.close(&hop);
	CHECK_U64(xfake_count(&f, "release"), 1);
	CHECK_U64(f.plain_requests, 0);
	CHECK_U64(f.bad_api_h, 0);
out:
	xfake_stop(&f);
}

/* One trial's calls: streams, start, stop, rates, limited, pgid counts. */
static void
test_traffic(void)
{
	struct coord_traffic t = {.rate_pps = 10000, .duration_s = 1, .size = 64, .flows = 10};
	struct coord_traffic_result r;
	struct xfake f;
	struct coord_hop hop;
	unsigned char pkt[2048];
	char conf[512], err[512];
	json_t *p, *mul, *ins;
	size_t n;
	int rc;

	unit_check_case = "traffic";
	xfake_start(&f, XF_OK, NULL);
	conf_for(conf, sizeof(conf), &f, "");
	rc = open_hop(&hop, conf, err, sizeof(err));
	CHECK(rc == 0, "open: %d %s", rc, err);
	if (rc != 0)
		goto out;
	rc = hop_driver_trex.clear(&hop, err, sizeof(err));
	CHECK(rc == 0, "clear: %s", err);
	f.opackets = 1000;
	rc = hop_driver_trex.traffic_start(&hop, &t, err, sizeof(err));
	CHECK(rc == 0, "start: %d %s", rc, err);
	p = xfake_req(&f, "add_stream", 0);
	CHECK(p != NULL, "no add_stream");
	if (p == NULL)
		goto close;
	n = stream_pkt(p, pkt, sizeof(pkt));
	CHECK_U64(n, 60); /* 64 B with FCS */
	CHECK(pkt[12] == 0x08 && pkt[13] == 0x00 && pkt[23] == 17 && pkt[26] == 16 &&
		      pkt[29] == 1 && pkt[0] == 2 && pkt[5] == 2 && pkt[40] == 0 && pkt[41] == 0,
	      "frame: IPv4/UDP from 16.0.0.1, dst MAC 02:..:02, UDP checksum 0");
	ins = stream_ins(p, 0);
	CHECK(strcmp(json_string_value(json_object_get(ins, "type")), "flow_var") == 0 &&
		      json_integer_value(json_object_get(ins, "min_value")) == 0x10000001 &&
		      json_integer_value(json_object_get(ins, "max_value")) == 0x10000001 + 9,
	      "normal flows: source IPv4 16.0.0.1 .. +9");
	CHECK(json_integer_value(json_object_get(stream_ins(p, 1), "pkt_offset")) == 26 &&
		      strcmp(json_string_value(json_object_get(stream_ins(p, 2), "type")),
			     "fix_checksum_ipv4") == 0,
	      "write at the IPv4 source, checksum fixed");
	CHECK(strcmp(json_string_value(json_object_get(
			     json_object_get(json_object_get(p, "stream"), "flow_stats"),
			     "rule_type")),
		     "stats") == 0 &&
		      json_integer_value(json_object_get(
			      json_object_get(json_object_get(p, "stream"), "flow_stats"),
			      "stream_id")) == 1000,
	      "flow_stats pgid 1000");
	p = xfake_req(&f, "start_traffic", 0);
	mul = json_object_get(p, "mul");
	CHECK(p != NULL && strcmp(json_string_value(json_object_get(mul, "type")), "pps") == 0 &&
		      json_number_value(json_object_get(mul, "value")) == 10000 &&
		      json_number_value(json_object_get(p, "duration")) == 11 &&
		      json_is_false(json_object_get(p, "force")),
	      "start: pps 10000, duration 1 + backstop 10");
	/* TRex sent at the rate: not limited. */
	usleep(200000);
	f.opackets = 1000 + 2000;
	f.tx_pps = 10000;
	memset(&r, 0, sizeof(r));
	rc = hop_driver_trex.traffic_stop(&hop, &r, err, sizeof(err));
	CHECK(rc == 0, "stop: %d %s", rc, err);
	CHECK(r.requested_pps == 10000, "requested %f", r.requested_pps);
	CHECK(!r.generator_limited, "limited at the rate (achieved %f)", r.achieved_pps);
	/* The reset at open, the one before loading streams, this stop. */
	CHECK_U64(xfake_count(&f, "stop_traffic"), 3);
	/* Same traffic again: no new streams. TRex fell short: limited. */
	rc = hop_driver_trex.traffic_start(&hop, &t, err, sizeof(err));
	CHECK(rc == 0, "start 2: %s", err);
	CHECK_U64(xfake_count(&f, "add_stream"), 1);
	usleep(200000);
	f.opackets += 100;
	f.tx_pps = 500;
	rc = hop_driver_trex.traffic_stop(&hop, &r, err, sizeof(err));
	CHECK(rc == 0 && r.generator_limited, "short of the rate: limited (%d)", rc);
	/* At the rate but oerrors grew: limited. */
	hop_driver_trex.traffic_start(&hop, &t, err, sizeof(err));
	usleep(200000);
	f.opackets += 5000;
	f.tx_pps = 10000;
	f.oerrors += 3;
	rc = hop_driver_trex.traffic_stop(&hop, &r, err, sizeof(err));
	CHECK(rc == 0 && r.generator_limited, "oerrors: limited");
	/* pgid counts since clear: the recorded answer, less the baseline. */
	r.streams = NULL;
	rc = hop_driver_trex.traffic_result(&hop, &r, err, sizeof(err));
	CHECK(rc == 0 && json_array_size(r.streams) == 1, "result: %d %s", rc, err);
	p = json_array_get(r.streams, 0);
	CHECK(json_integer_value(json_object_get(p, "stream")) == 1000 &&
		      json_integer_value(json_object_get(p, "tx_packets")) == 5000 &&
		      json_integer_value(json_object_get(p, "rx_packets")) == 5000 &&
		      json_integer_value(json_object_get(p, "lost")) == 0,
	      "pgid 1000: %s", json_dumps(p, 0));
	json_decref(r.streams);
	/* The baseline of the same ver_id is taken away. */
	rc = hop_driver_trex.clear(&hop, err, sizeof(err));
	r.streams = NULL;
	rc |= hop_driver_trex.traffic_result(&hop, &r, err, sizeof(err));
	p = json_array_get(r.streams, 0);
	CHECK(rc == 0 && json_integer_value(json_object_get(p, "tx_packets")) == 0,
	      "after clear: %s", json_dumps(p, 0));
	json_decref(r.streams);
	/* Percentages of the reported 10 Gbit/s; over the line: 100 %, limited. */
	t.rate = "50%";
	rc = hop_driver_trex.traffic_start(&hop, &t, err, sizeof(err));
	p = xfake_req(&f, "start_traffic", 3);
	CHECK(rc == 0 && p != NULL &&
		      fabs(json_number_value(json_object_get(json_object_get(p, "mul"), "value")) -
			   0.5 * 10e9 / (84 * 8)) < 1,
	      "50%%: %s", p != NULL ? json_dumps(p, 0) : err);
	f.opackets += 7440476 / 5;
	f.tx_pps = 7440476;
	hop_driver_trex.traffic_stop(&hop, &r, err, sizeof(err));
	t.rate = "20Mpps";
	rc = hop_driver_trex.traffic_start(&hop, &t, err, sizeof(err));
	p = xfake_req(&f, "start_traffic", 4);
	CHECK(rc == 0 && p != NULL &&
		      strcmp(json_string_value(json_object_get(json_object_get(p, "mul"), "type")),
			     "percentage") == 0,
	      "over the line: 100 %%");
	f.opackets += 14880952 / 5;
	f.tx_pps = 14880952;
	rc = hop_driver_trex.traffic_stop(&hop, &r, err, sizeof(err));
	CHECK(rc == 0 && r.generator_limited && r.requested_pps == 20e6,
	      "over the line: limited, asked %f", r.requested_pps);
	/* A rate of 0 or below is refused, not sent as line rate. */
	t.rate = NULL;
	t.rate_pps = -2500;
	rc = hop_driver_trex.traffic_start(&hop, &t, err, sizeof(err));
	CHECK(rc == -EINVAL && strstr(err, "must be positive") != NULL, "rate -2500: %d %s", rc,
	      err);
	CHECK(xfake_req(&f, "start_traffic", 5) == NULL, "rate -2500 sent to TRex");
	t.rate_pps = 10000;
	/* A pvpkit-gen profile cannot be sent. */
	t.profile = "x.json";
	err[0] = '\0';
	rc = hop_driver_trex.traffic_start(&hop, &t, err, sizeof(err));
	CHECK(rc == -ENOTSUP && strstr(err, "--profile") != NULL, "profile: %d %s", rc, err);
close:
	hop_driver_trex.close(&hop);
	CHECK_U64(f.bad_api_h, 0);
out:
	xfake_stop(&f);
}

/* Flow types and IMIX: the field engine writes where the rules match. */
static void
test_streams(void)
{
	static const struct {
		const char *type;
		unsigned int off, size;
		long long min;
	} cases[] = {
		{"l2", 2, 4, 0x00000000},
		{"l3", 30, 4, 0x0a000000},
		{"l4", 36, 2, 1024},
	};
	struct coord_traffic t = {.rate_pps = 1000, .duration_s = 1, .size = 128, .flows = 100};
	struct coord_traffic_result r;
	struct xfake f;
	struct coord_hop hop;
	unsigned char pkt[2048];
	char conf[512], err[512];
	unsigned int i;
	json_t *p;
	int rc;

	unit_check_case = "streams";
	xfake_start(&f, XF_OK, NULL);
	conf_for(conf, sizeof(conf), &f, ", \"flow_stats\": \"latency\"");
	rc = open_hop(&hop, conf, err, sizeof(err));
	CHECK(rc == 0, "open: %d %s", rc, err);
	if (rc != 0)
		goto out;
	for (i = 0; i < 3; i++) {
		rc = hop_driver_trex.install_flows(&hop, cases[i].type, 100, err, sizeof(err));
		rc |= hop_driver_trex.traffic_start(&hop, &t, err, sizeof(err));
		CHECK(rc == 0, "%s: %s", cases[i].type, err);
		hop_driver_trex.traffic_stop(&hop, &r, err, sizeof(err));
		p = xfake_req(&f, "add_stream", (int)i);
		CHECK(stream_pkt(p, pkt, sizeof(pkt)) == 124, "%s: 124 B", cases[i].type);
		CHECK(json_integer_value(json_object_get(stream_ins(p, 0), "size")) ==
				      cases[i].size &&
			      json_integer_value(json_object_get(stream_ins(p, 0), "min_value")) ==
				      cases[i].min &&
			      json_integer_value(json_object_get(stream_ins(p, 0), "max_value")) ==
				      cases[i].min + 99 &&
			      json_integer_value(json_object_get(stream_ins(p, 1), "pkt_offset")) ==
				      cases[i].off,
		      "%s: var %s", cases[i].type, json_dumps(stream_ins(p, 0), 0));
		CHECK(strcmp(json_string_value(json_object_get(
				     json_object_get(json_object_get(p, "stream"), "flow_stats"),
				     "rule_type")),
			     "latency") == 0,
		      "latency rule");
	}
	/* IMIX: three streams at 28:16:4 pps, 60/590/1514 bytes. */
	t.size = 0;
	t.flows = 1;
	hop_driver_trex.install_flows(&hop, "normal", 1, err, sizeof(err));
	rc = hop_driver_trex.traffic_start(&hop, &t, err, sizeof(err));
	CHECK(rc == 0, "imix: %s", err);
	hop_driver_trex.traffic_stop(&hop, &r, err, sizeof(err));
	for (i = 0; i < 3; i++) {
		static const unsigned int len[3] = {60, 590, 1514}, w[3] = {28, 16, 4};

		p = xfake_req(&f, "add_stream", 3 + (int)i);
		CHECK(p != NULL && stream_pkt(p, pkt, sizeof(pkt)) == len[i] &&
			      json_number_value(json_object_get(
				      json_object_get(
					      json_object_get(json_object_get(p, "stream"), "mode"),
					      "rate"),
				      "value")) == w[i] &&
			      stream_ins(p, 0) == NULL,
		      "imix stream %u", i);
	}
	hop_driver_trex.close(&hop);
out:
	xfake_stop(&f);
}

/* Refusals: a taken port, an API the server does not speak, no such port. */
static void
test_refusals(void)
{
	struct xfake f;
	struct coord_hop hop;
	char conf[512], err[512];
	json_t *rec;
	int rc;

	unit_check_case = "refusals";
	xfake_start(&f, XF_REFUSE, "acquire");
	rec = rec_load("trex-acquire-taken.json");
	f.fail_reply = json_incref(json_object_get(rec, "error"));
	json_decref(rec);
	conf_for(conf, sizeof(conf), &f, "");
	rc = open_hop(&hop, conf, err, sizeof(err));
	CHECK(rc == -EBUSY &&
		      strcmp(err, "hop tester: TRex port 0 cannot be acquired: port is already "
				  "taken by 'rec' (\"force\": true in the hop takes it from its "
				  "owner)") == 0,
	      "taken: %d %s", rc, err);
	xfake_stop(&f);

	xfake_start(&f, XF_REFUSE, "api_sync_v2");
	rec = rec_load("trex-api-sync-refused.json");
	f.fail_reply = json_incref(json_object_get(rec, "error"));
	json_decref(rec);
	conf_for(conf, sizeof(conf), &f, "");
	rc = open_hop(&hop, conf, err, sizeof(err));
	CHECK(rc == -EPROTO &&
		      strncmp(err, "hop tester: TRex refused the API handshake (STL 5.0): ", 54) ==
			      0,
	      "api: %d %s", rc, err);
	xfake_stop(&f);

	/* Held under our own name (an earlier run killed): taken back. */
	xfake_start(&f, XF_OK, NULL);
	json_object_set_new(json_object_get(f.rec_status, "result"), "owner",
			    json_string("pvpkit"));
	conf_for(conf, sizeof(conf), &f, "");
	rc = open_hop(&hop, conf, err, sizeof(err));
	CHECK(rc == 0 && json_is_true(json_object_get(xfake_req(&f, "acquire", 0), "force")),
	      "ours: %d %s", rc, err);
	if (rc == 0)
		hop_driver_trex.close(&hop);
	xfake_stop(&f);

	xfake_start(&f, XF_OK, NULL);
	snprintf(conf, sizeof(conf), "{\"sync_port\": %u, \"ports\": [\"0\", \"p3\"]}", f.port);
	rc = open_hop(&hop, conf, err, sizeof(err));
	CHECK(rc == -ENOENT &&
		      strcmp(err, "hop tester: no TRex port 3 (the server has 1 ports)") == 0,
	      "port 3: %d %s", rc, err);
	CHECK_U64(xfake_count(&f, "acquire"), 0);
	xfake_stop(&f);
}

/* Topology members: unknown ones and bad values are refused by name. */
static void
test_conf(void)
{
	static const struct {
		const char *conf, *err;
	} cases[] = {
		{"{\"ports\": [\"0\"], \"colour\": 1}", "hop tester: colour: unknown member"},
		{"{\"ports\": []}", "hop tester: ports: must be a list of 1..16 items"},
		{"{\"ports\": [\"eth0\"]}", "hop tester: ports[0]: a TRex port id is required"},
		{"{\"ports\": [\"0\", \"p0\"]}", "hop tester: ports[1]: TRex port 0 listed twice"},
		{"{\"ports\": [\"0\"], \"sync_port\": 0}",
		 "hop tester: sync_port: must be an integer in 1..65535"},
		{"{\"ports\": [\"0\"], \"server\": \"a b\"}",
		 "hop tester: server: a host name or address is required"},
		{"{\"ports\": [\"0\"], \"force\": \"yes\"}",
		 "hop tester: force: must be true or false"},
		{"{\"ports\": [\"0\"], \"dst_mac\": \"02:00\"}",
		 "hop tester: dst_mac: must be a MAC address"},
		{"{\"ports\": [\"0\"], \"flow_stats\": \"on\"}",
		 "hop tester: flow_stats: must be one of \"stats\", \"latency\", \"off\""},
		{"{\"ports\": [\"0\"], \"flow_base\": {\"l3\": \"10.0.0\"}}",
		 "hop tester: flow_base.l3: must be an IPv4 address"},
		{"{\"ports\": [\"0\"], \"timeout_ms\": 5}",
		 "hop tester: timeout_ms: must be an integer in 100..600000"},
	};
	struct coord_hop hop;
	char err[512];
	unsigned int i;
	int rc;

	unit_check_case = "conf";
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rc = open_hop(&hop, cases[i].conf, err, sizeof(err));
		CHECK(rc == -EINVAL && strncmp(err, cases[i].err, strlen(cases[i].err)) == 0,
		      "%s: %d '%s'", cases[i].conf, rc, err);
	}
}

/* Nothing there, silence, and answers that are not TRex's. */
static void
test_transport(void)
{
	static const struct {
		enum xfake_mode mode;
		const char *method;
		int rc;
		const char *err;
	} cases[] = {
		{XF_SILENT, NULL, -ETIMEDOUT, "hop tester unreachable: tcp://127.0.0.1:"},
		{XF_NOT_JSON, NULL, -EPROTO,
		 "hop tester: bad answer from TRex at tcp://127.0.0.1:"},
		{XF_BAD_ID, NULL, -EPROTO, "hop tester: bad answer from TRex at tcp://127.0.0.1:"},
		{XF_BAD_ZIP, NULL, -EPROTO, "hop tester: bad answer from TRex at tcp://127.0.0.1:"},
		{XF_PLAIN, NULL, 0, ""},
	};
	struct coord_snap s;
	struct xfake f;
	struct coord_hop hop;
	char conf[512], err[512];
	unsigned int i;
	int rc;

	unit_check_case = "transport";
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		xfake_start(&f, cases[i].mode, cases[i].method);
		conf_for(conf, sizeof(conf), &f, "");
		rc = open_hop(&hop, conf, err, sizeof(err));
		CHECK(rc == cases[i].rc && strncmp(err, cases[i].err, strlen(cases[i].err)) == 0,
		      "mode %d: %d %s", cases[i].mode, rc, err);
		if (rc == 0)
			hop_driver_trex.close(&hop);
		xfake_stop(&f);
	}
	/* Nobody listens. */
	xfake_start(&f, XF_OK, NULL);
	xfake_stop(&f);
	conf_for(conf, sizeof(conf), &f, "");
	rc = open_hop(&hop, conf, err, sizeof(err));
	CHECK(rc == -ENOTCONN && strstr(err, "unreachable") != NULL &&
		      strstr(err, "no connection within 500 ms (is the TRex server running?)") !=
			      NULL,
	      "nobody: %d %s", rc, err);
	/* Open fine, then the counters stop answering or lose a member. */
	xfake_start(&f, XF_SILENT, "get_port_stats");
	conf_for(conf, sizeof(conf), &f, "");
	rc = open_hop(&hop, conf, err, sizeof(err));
	CHECK(rc == 0, "open: %s", err);
	if (rc == 0) {
		rc = hop_driver_trex.snapshot(&hop, &s, err, sizeof(err));
		CHECK(rc == -ETIMEDOUT && strstr(err, "hop tester unreachable: ") == err &&
			      strstr(err, "no answer within 500 ms") != NULL,
		      "silent stats: %d %s", rc, err);
		hop_driver_trex.close(&hop);
	}
	xfake_stop(&f);
	xfake_start(&f, XF_OK, NULL);
	f.no_ipackets = true;
	conf_for(conf, sizeof(conf), &f, "");
	rc = open_hop(&hop, conf, err, sizeof(err));
	if (rc == 0) {
		rc = hop_driver_trex.snapshot(&hop, &s, err, sizeof(err));
		CHECK(rc == -EPROTO &&
			      strcmp(err, "hop tester: bad answer from TRex: get_port_stats "
					  "of port 0 has no \"ipackets\"") == 0,
		      "missing counter: %d %s", rc, err);
		hop_driver_trex.close(&hop);
	}
	xfake_stop(&f);
}

/*
 * A server that lies: a 1e308 counter, pgid counts whose sum wraps past
 * 64 bits (once tx 3, rx 2^63-1, lost 0) are bad answers; a link speed of
 * 5e-324 Gbit/s is no speed (it once turned 10 kpps into 100 % of a line).
 */
static void
test_lies(void)
{
	struct coord_traffic t = {.rate_pps = 10000, .duration_s = 1, .size = 64, .flows = 1};
	struct coord_traffic_result r;
	struct coord_snap s;
	struct xfake f;
	struct coord_hop hop;
	char conf[512], err[512];
	json_t *p;
	int rc;

	unit_check_case = "lies";
	xfake_start(&f, XF_OK, NULL);
	json_object_set_new(json_object_get(json_object_get(f.rec_status, "result"), "attr"),
			    "speed", json_real(5e-324));
	conf_for(conf, sizeof(conf), &f, "");
	rc = open_hop(&hop, conf, err, sizeof(err));
	CHECK(rc == 0, "open: %d %s", rc, err);
	if (rc != 0)
		goto out;
	rc = hop_driver_trex.traffic_start(&hop, &t, err, sizeof(err));
	p = xfake_req(&f, "start_traffic", 0);
	CHECK(rc == 0 && p != NULL &&
		      strcmp(json_string_value(json_object_get(json_object_get(p, "mul"), "type")),
			     "pps") == 0 &&
		      json_number_value(json_object_get(json_object_get(p, "mul"), "value")) ==
			      10000,
	      "tiny speed: %s", p != NULL ? json_dumps(p, 0) : err);
	hop_driver_trex.traffic_stop(&hop, &r, err, sizeof(err));
	t.rate = "50%";
	rc = hop_driver_trex.traffic_start(&hop, &t, err, sizeof(err));
	CHECK(rc == -EINVAL && strstr(err, "reports no link speed") != NULL,
	      "tiny speed, 50%%: %d %s", rc, err);
	t.rate = NULL;

	f.stats_lie = json_pack("{s:f}", "opackets", 1e308);
	err[0] = '\0';
	rc = hop_driver_trex.snapshot(&hop, &s, err, sizeof(err));
	CHECK(rc == -EPROTO &&
		      strcmp(err, "hop tester: bad answer from TRex: get_port_stats of port 0 has "
				  "\"opackets\" 1e+308, not a counter in "
				  "0..2^63-1") == 0,
	      "opackets 1e308: %d %s", rc, err);
	json_object_set_new(f.stats_lie, "opackets", json_real(0x1p63));
	err[0] = '\0';
	rc = hop_driver_trex.snapshot(&hop, &s, err, sizeof(err));
	CHECK(rc == -EPROTO && strstr(err, "not a counter in 0..2^63-1") != NULL,
	      "opackets 2^63: %d %s", rc, err);
	json_decref(f.stats_lie);
	f.stats_lie = NULL;
	rc = hop_driver_trex.traffic_start(&hop, &t, err, sizeof(err));
	CHECK(rc == 0, "start: %d %s", rc, err);
	f.stats_lie = json_pack("{s:f}", "opackets", 1e308);
	err[0] = '\0';
	rc = hop_driver_trex.traffic_stop(&hop, &r, err, sizeof(err));
	CHECK(rc == -EPROTO && strstr(err, "\"opackets\" 1e+308") != NULL,
	      "stop, opackets 1e308: %d %s", rc, err);
	json_decref(f.stats_lie);
	f.stats_lie = NULL;

	/* Three ports' tp: 2^63-1 + 2^63-1 + 5 wraps to 3. */
	json_object_set_new(
		json_object_get(json_object_get(json_object_get(f.pgid, "flow_stats"), "1000"),
				"tp"),
		"1", json_integer(INT64_MAX));
	json_object_set_new(
		json_object_get(json_object_get(json_object_get(f.pgid, "flow_stats"), "1000"),
				"tp"),
		"2", json_integer(INT64_MAX));
	json_object_set_new(
		json_object_get(json_object_get(json_object_get(f.pgid, "flow_stats"), "1000"),
				"rp"),
		"0", json_integer(INT64_MAX));
	r.streams = NULL;
	err[0] = '\0';
	rc = hop_driver_trex.traffic_result(&hop, &r, err, sizeof(err));
	CHECK(rc == -EPROTO && r.streams == NULL &&
		      strcmp(err, "hop tester: bad answer from TRex: get_pgid_stats of pgid 1000 "
				  "has \"tp\" summed over its ports past 2^63-1") == 0,
	      "wrapping pgid counts: %d %s %s", rc, err,
	      r.streams != NULL ? json_dumps(r.streams, 0) : "");
	json_decref(r.streams);
	hop_driver_trex.close(&hop);
out:
	xfake_stop(&f);
}

int
main(void)
{
	test_conf();
	test_open_and_snapshot();
	test_traffic();
	test_streams();
	test_refusals();
	test_transport();
	test_lies();
	if (unit_check_failures != 0) {
		fprintf(stderr, "%d check(s) failed\n", unit_check_failures);
		return 1;
	}
	printf("PASS\n");
	return 0;
}
