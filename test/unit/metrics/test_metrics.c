/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * lib/metrics without DPDK: the writer in both formats, the metrics of a
 * stats.get answer (latency buckets exact), the request parser's table
 * of bad requests, and the server over loopback (400/404/405/431, a
 * silent client that does not hold the others up, HEAD, OpenMetrics by
 * Accept), the --metrics address and push URL checks.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "pvp_metrics.h"
#include "pvp_util.h"

#include "../unit_check.h"

static void
test_writer(void)
{
	static const double le[] = {0.5, 1};
	static const uint64_t cum[] = {1, 3};
	struct pvp_om_label l[] = {{"port", "0"}, {"name", "a\"b\\c\nd"}};
	struct pvp_om om;

	unit_check_case = "writer openmetrics";
	pvp_om_init(&om, PVP_OM_OPENMETRICS);
	pvp_om_family(&om, "t_bytes", PVP_OM_COUNTER, "bytes", "Bytes.\nSecond line");
	pvp_om_uint(&om, l, 2, 42);
	pvp_om_family(&om, "t_seconds", PVP_OM_HISTOGRAM, "seconds", "Lat.");
	pvp_om_histogram(&om, l, 1, le, cum, 2, 1.25e-7, 4);
	pvp_om_family(&om, "t_g", PVP_OM_GAUGE, NULL, "G.");
	pvp_om_value(&om, NULL, 0, 1.28e-07);
	CHECK(pvp_om_finish(&om) == 0);
	CHECK(strcmp(om.buf, "# TYPE t_bytes counter\n"
			     "# UNIT t_bytes bytes\n"
			     "# HELP t_bytes Bytes.\\nSecond line\n"
			     "t_bytes_total{port=\"0\",name=\"a\\\"b\\\\c\\nd\"} 42\n"
			     "# TYPE t_seconds histogram\n"
			     "# UNIT t_seconds seconds\n"
			     "# HELP t_seconds Lat.\n"
			     "t_seconds_bucket{port=\"0\",le=\"0.5\"} 1\n"
			     "t_seconds_bucket{port=\"0\",le=\"1\"} 3\n"
			     "t_seconds_bucket{port=\"0\",le=\"+Inf\"} 4\n"
			     "t_seconds_sum{port=\"0\"} 1.25e-07\n"
			     "t_seconds_count{port=\"0\"} 4\n"
			     "# TYPE t_g gauge\n"
			     "# HELP t_g G.\n"
			     "t_g 1.28e-07\n"
			     "# EOF\n") == 0,
	      "got:\n%s", om.buf);
	pvp_om_free(&om);

	unit_check_case = "writer prometheus";
	pvp_om_init(&om, PVP_OM_PROMETHEUS);
	pvp_om_family(&om, "t_bytes", PVP_OM_COUNTER, "bytes", "Bytes.");
	pvp_om_uint(&om, NULL, 0, 7);
	CHECK(pvp_om_finish(&om) == 0);
	CHECK(strcmp(om.buf, "# TYPE t_bytes_total counter\n"
			     "# HELP t_bytes_total Bytes.\n"
			     "t_bytes_total 7\n") == 0,
	      "got:\n%s", om.buf);
	pvp_om_free(&om);

	unit_check_case = "writer refuses";
	pvp_om_init(&om, PVP_OM_OPENMETRICS);
	pvp_om_family(&om, "t_packets", PVP_OM_COUNTER, "bytes", "unit not ending the name");
	CHECK(pvp_om_finish(&om) == -EINVAL);
	pvp_om_free(&om);
	pvp_om_init(&om, PVP_OM_OPENMETRICS);
	pvp_om_family(&om, "0bad", PVP_OM_GAUGE, NULL, "x");
	CHECK(pvp_om_finish(&om) == -EINVAL);
	pvp_om_free(&om);
	pvp_om_init(&om, PVP_OM_OPENMETRICS);
	pvp_om_family(&om, "g", PVP_OM_GAUGE, NULL, "x");
	l[0].name = "le";
	pvp_om_value(&om, l, 1, 1);
	CHECK(pvp_om_finish(&om) == -EINVAL);
	pvp_om_free(&om);
	unit_check_case = NULL;
}

/*
 * A stats.get answer as pvpkit-gen gives it (shortened): one port with
 * one queue each way, one stream with 3 latency samples: 100 ns, 128 ns
 * (exactly a bound: lib/lat puts it in the bucket above) and 1000 ns.
 */
static const char *const gen_answer =
	"{\"name\":\"pvpkit-gen\",\"tsc\":1,\"hz\":1,\"ports\":[{\"port\":0,\"name\":\"p0\","
	"\"rx_packets\":10,\"tx_packets\":11,\"rx_bytes\":600,\"tx_bytes\":660,"
	"\"rx_dropped\":3,\"tx_dropped\":0,\"rx_errors\":0,\"tx_errors\":0,\"rx_missed\":2,"
	"\"rx_nombuf\":1,\"rx_sw_dropped\":0,"
	"\"rxq\":[{\"packets\":10,\"bytes\":600,\"dropped\":0,\"errors\":0}],"
	"\"txq\":[{\"packets\":11,\"bytes\":660,\"dropped\":0,\"errors\":0}],"
	"\"xstats\":[{\"name\":\"rx_q0_errors\",\"value\":5}]}],"
	"\"traffic\":{\"running\":true,\"requested_pps\":1000.0,\"tx_late\":0},"
	"\"streams\":[{\"stream\":0,\"name\":\"s\",\"port\":0,\"tx_packets\":11,"
	"\"tx_offered\":11,\"rx_packets\":8,\"lost\":3,\"latency_ns\":{\"jitter\":5,"
	"\"histogram\":{\"unit\":\"ns\",\"sub_bits\":5,\"count\":3,\"sum\":1228,\"min\":100,"
	"\"max\":1000,\"jitter\":5,\"buckets\":[[100,1],[128,1],[992,1]]}}}],"
	"\"unsigned_rx\":0}";

static void
test_from_stats(void)
{
	json_t *stats = json_loads(gen_answer, 0, NULL), *lcores;
	static const char *const want[] = {
		"pvpkit_info{app=\"pvpkit-gen\",name=\"pvpkit-gen\"} 1\n",
		"pvpkit_port_packets_total{port=\"0\",name=\"p0\",direction=\"rx\"} 10\n",
		"pvpkit_port_bytes_total{port=\"0\",name=\"p0\",direction=\"tx\"} 660\n",
		"pvpkit_port_dropped_packets_total{port=\"0\",name=\"p0\",direction=\"rx\"} 3\n",
		"pvpkit_port_rx_drop_reason_packets_total{port=\"0\",name=\"p0\",reason=\"rx_"
		"missed\"} "
		"2\n",
		"pvpkit_port_xstat_total{port=\"0\",name=\"p0\",xstat=\"rx_q0_errors\"} 5\n",
		"pvpkit_queue_packets_total{port=\"0\",name=\"p0\",direction=\"tx\",queue=\"0\","
		"lcore=\"2\"} 11\n",
		"pvpkit_lcore_packets_total{lcore=\"2\",direction=\"tx\"} 11\n",
		"pvpkit_lcore_packets_total{lcore=\"1\",direction=\"rx\"} 10\n",
		"pvpkit_traffic_running 1\n",
		"pvpkit_traffic_late_slots_total 0\n",
		"pvpkit_stream_lost_packets{stream=\"0\",name=\"s\",port=\"0\"} 3\n",
		"pvpkit_stream_loss_ratio{stream=\"0\",name=\"s\",port=\"0\"} "
		"0.27272727272727271\n",
		"pvpkit_stream_latency_seconds_bucket{stream=\"0\",name=\"s\",port=\"0\","
		"le=\"1.28e-07\"} 1\n",
		"pvpkit_stream_latency_seconds_bucket{stream=\"0\",name=\"s\",port=\"0\","
		"le=\"2.56e-07\"} 2\n",
		"pvpkit_stream_latency_seconds_bucket{stream=\"0\",name=\"s\",port=\"0\","
		"le=\"1.024e-06\"} 3\n",
		"pvpkit_stream_latency_seconds_bucket{stream=\"0\",name=\"s\",port=\"0\","
		"le=\"+Inf\"} 3\n",
		"pvpkit_stream_latency_seconds_sum{stream=\"0\",name=\"s\",port=\"0\"} 1.228e-06\n",
		"pvpkit_stream_latency_seconds_count{stream=\"0\",name=\"s\",port=\"0\"} 3\n",
		"pvpkit_stream_latency_jitter_seconds{stream=\"0\",name=\"s\",port=\"0\"} 5e-09\n",
		"pvpkit_rx_unsigned_packets_total 0\n",
		"# EOF\n",
	};
	struct pvp_om om;
	unsigned int i;

	unit_check_case = "from stats";
	CHECK(stats != NULL);
	lcores = json_loads("[{\"lcore\":2,\"port\":0,\"queue\":0,\"direction\":\"tx\"},"
			    "{\"lcore\":1,\"port\":0,\"queue\":0,\"direction\":\"rx\"}]",
			    0, NULL);
	pvp_om_init(&om, PVP_OM_OPENMETRICS);
	CHECK(pvp_metrics_from_stats(&om, "pvpkit-gen", stats, lcores) == 0);
	CHECK(pvp_om_finish(&om) == 0);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CHECK(om.buf != NULL && strstr(om.buf, want[i]) != NULL, "missing %s", want[i]);
	/* pvpkit-fwd has no stream latency: no such family at all. */
	CHECK(strstr(om.buf, "# TYPE pvpkit_stream_tx_unsent_packets") == NULL);
	pvp_om_free(&om);

	/* Not a stats.get answer; a histogram whose buckets do not add up. */
	pvp_om_init(&om, PVP_OM_OPENMETRICS);
	CHECK(pvp_metrics_from_stats(&om, "x", lcores, NULL) == -EINVAL);
	pvp_om_free(&om);
	json_integer_set(
		json_object_get(
			json_object_get(
				json_object_get(
					json_array_get(json_object_get(stats, "streams"), 0),
					"latency_ns"),
				"histogram"),
			"count"),
		4);
	pvp_om_init(&om, PVP_OM_OPENMETRICS);
	CHECK(pvp_metrics_from_stats(&om, "x", stats, NULL) == -EINVAL);
	pvp_om_free(&om);
	json_decref(stats);
	json_decref(lcores);
	unit_check_case = NULL;
}

/* Request heads and what the parser makes of them: the bad-input table. */
static const struct {
	const char *req;
	int ret;
	int status;
	enum pvp_om_format fmt;
} parse_cases[] = {
	{"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 1, 200, PVP_OM_PROMETHEUS},
	{"GET /metrics HTTP/1.0\n\n", 1, 200, PVP_OM_PROMETHEUS},
	{"GET /metrics?x=1 HTTP/1.1\r\n\r\n", 1, 200, PVP_OM_PROMETHEUS},
	{"GET /metrics HTTP/1.1\r\nAccept: application/openmetrics-text;version=1.0.0,"
	 "text/plain;q=0.5\r\n\r\n",
	 1, 200, PVP_OM_OPENMETRICS},
	{"GET /metrics HTTP/1.1\r\naccept: Application/OpenMetrics-Text\r\n\r\n", 1, 200,
	 PVP_OM_OPENMETRICS},
	{"HEAD /metrics HTTP/1.1\r\n\r\n", 1, 200, PVP_OM_PROMETHEUS},
	{"GET /metrics HTTP/1.1\r\n", 0, 0, PVP_OM_PROMETHEUS},
	{"GET /metricsx HTTP/1.1\r\n\r\n", 1, 404, PVP_OM_PROMETHEUS},
	{"GET / HTTP/1.1\r\n\r\n", 1, 404, PVP_OM_PROMETHEUS},
	{"GET /../metrics HTTP/1.1\r\n\r\n", 1, 404, PVP_OM_PROMETHEUS},
	{"POST /metrics HTTP/1.1\r\n\r\n", 1, 405, PVP_OM_PROMETHEUS},
	{"DELETE /x HTTP/1.1\r\n\r\n", 1, 405, PVP_OM_PROMETHEUS},
	{"GET /metrics HTTP/2.0\r\n\r\n", 1, 505, PVP_OM_PROMETHEUS},
	{"GET /metrics HTTP/1.9\r\n\r\n", 1, 505, PVP_OM_PROMETHEUS},
	{"GET /metrics\r\n\r\n", 1, 400, PVP_OM_PROMETHEUS},
	{"GET  /metrics HTTP/1.1\r\n\r\n", 1, 400, PVP_OM_PROMETHEUS},
	{"GET metrics HTTP/1.1\r\n\r\n", 1, 400, PVP_OM_PROMETHEUS},
	{" GET /metrics HTTP/1.1\r\n\r\n", 1, 400, PVP_OM_PROMETHEUS},
	{"GET /metrics HTTP/1.1 \r\n\r\n", 1, 400, PVP_OM_PROMETHEUS},
	{"GET /metrics HTTP/1.1\r\nno colon\r\n\r\n", 1, 400, PVP_OM_PROMETHEUS},
	{"GET /metrics HTTP/1.1\r\n: empty name\r\n\r\n", 1, 400, PVP_OM_PROMETHEUS},
	{"GET /metrics HTTP/1.1\r\n folded: x\r\n\r\n", 1, 400, PVP_OM_PROMETHEUS},
	{"\r\n\r\n", 1, 400, PVP_OM_PROMETHEUS},
	{"G\x01T /metrics HTTP/1.1\r\n\r\n", 1, 400, PVP_OM_PROMETHEUS},
	{"GET /m\xc3\xa9trics HTTP/1.1\r\n\r\n", 1, 400, PVP_OM_PROMETHEUS},
};

static void
test_parse(void)
{
	struct pvp_metrics_req req;
	unsigned int i;
	char *big;
	int ret;

	for (i = 0; i < sizeof(parse_cases) / sizeof(parse_cases[0]); i++) {
		unit_check_case = parse_cases[i].req;
		ret = pvp_metrics_http_parse(parse_cases[i].req, strlen(parse_cases[i].req), &req);
		CHECK(ret == parse_cases[i].ret, "ret %d", ret);
		if (ret == 1) {
			CHECK(req.status == parse_cases[i].status, "status %d", req.status);
			CHECK(req.fmt == parse_cases[i].fmt);
		}
	}
	/* A head without end that fills the buffer: 431, never a wait or an overrun. */
	unit_check_case = "431";
	big = malloc(PVP_METRICS_MAX_REQUEST);
	memset(big, 'a', PVP_METRICS_MAX_REQUEST);
	memcpy(big, "GET /metrics HTTP/1.1\r\nX: ", 26);
	CHECK(pvp_metrics_http_parse(big, PVP_METRICS_MAX_REQUEST - 1, &req) == 0);
	CHECK(pvp_metrics_http_parse(big, PVP_METRICS_MAX_REQUEST, &req) == 1 && req.status == 431);
	free(big);
	unit_check_case = NULL;
}

static void
test_addr(void)
{
	static const struct {
		const char *addr, *host;
		int port;
		const char *err;
	} cases[] = {
		{"9464", "127.0.0.1", 9464, NULL},
		{"0", "127.0.0.1", 0, NULL},
		{"localhost:1", "127.0.0.1", 1, NULL},
		{"0.0.0.0:9464", "0.0.0.0", 9464, NULL},
		{"[::1]:80", "::1", 80, NULL},
		{"", NULL, 0, "--metrics \"\": PORT must be a whole number in 0..65535"},
		{"65536", NULL, 0, "--metrics \"65536\": PORT must be a whole number in 0..65535"},
		{"x:1", NULL, 0, "--metrics \"x:1\": HOST must be an IP address or localhost"},
		{":1", NULL, 0, "--metrics \":1\": expected PORT, HOST:PORT or [V6]:PORT"},
		{"::1:80", NULL, 0,
		 "--metrics \"::1:80\": an IPv6 address goes in brackets, "
		 "[::1]:PORT"},
		{"1.2.3.4:", NULL, 0,
		 "--metrics \"1.2.3.4:\": PORT must be a whole number in 0..65535"},
		{"1.2.3.4:0x10", NULL, 0,
		 "--metrics \"1.2.3.4:0x10\": PORT must be a whole number in 0..65535"},
	};
	char host[64], err[256];
	uint16_t port;
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unit_check_case = cases[i].addr;
		err[0] = '\0';
		ret = pvp_metrics_addr_parse(cases[i].addr, host, sizeof(host), &port, err,
					     sizeof(err));
		if (cases[i].err == NULL) {
			CHECK(ret == 0 && strcmp(host, cases[i].host) == 0 && port == cases[i].port,
			      "%d %s %u %s", ret, host, port, err);
		} else {
			CHECK(ret == -EINVAL && strcmp(err, cases[i].err) == 0, "got %s", err);
		}
	}
	unit_check_case = NULL;
}

static void
test_url(void)
{
	static const struct {
		const char *url;
		const char *err;
	} cases[] = {
		{"http://127.0.0.1:9091/metrics/job/pvpkit", NULL},
		{"http://pushgw/metrics/job/x", NULL},
		{"http://[::1]:9091/metrics", NULL},
		{"http://h", NULL},
		{"https://h/x", "https://h/x: only http://HOST[:PORT]/PATH URLs are supported "
				"(https is not)"},
		{"ftp://h/x", "ftp://h/x: only http://HOST[:PORT]/PATH URLs are supported"},
		{"http:///x", "http:///x: not a URL of the form http://HOST[:PORT]/PATH"},
		{"http://h:0/x", "http://h:0/x: not a URL of the form http://HOST[:PORT]/PATH"},
		{"http://h:99999/x",
		 "http://h:99999/x: not a URL of the form http://HOST[:PORT]/PATH"},
		{"http://h:/x", "http://h:/x: not a URL of the form http://HOST[:PORT]/PATH"},
		{"http://h/a b", "http://h/a b: not a URL of the form http://HOST[:PORT]/PATH"},
		{"http://[::1/x", "http://[::1/x: not a URL of the form http://HOST[:PORT]/PATH"},
	};
	char err[256];
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unit_check_case = cases[i].url;
		err[0] = '\0';
		ret = pvp_metrics_url_check(cases[i].url, err, sizeof(err));
		if (cases[i].err == NULL)
			CHECK(ret == 0, "%s", err);
		else
			CHECK(ret == -EINVAL && strcmp(err, cases[i].err) == 0, "got %s", err);
	}
	unit_check_case = NULL;
}

static int
collect(struct pvp_om *om, void *arg)
{
	int *calls = arg;

	(*calls)++;
	pvp_om_family(om, "t_up", PVP_OM_GAUGE, NULL, "Up.");
	pvp_om_uint(om, NULL, 0, 1);
	return 0;
}

/* Connect to the server's port on loopback. */
static int
connect_port(uint16_t port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(port)};
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Send @p req (len bytes), read the whole answer into @p ans. */
static void
exchange(uint16_t port, const char *req, size_t len, char *ans, size_t cap)
{
	struct timeval tv = {.tv_sec = 10};
	size_t got = 0;
	ssize_t r;
	int fd = connect_port(port);

	ans[0] = '\0';
	if (fd < 0)
		return;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len) {
		close(fd);
		return;
	}
	while (got < cap - 1 && (r = recv(fd, ans + got, cap - 1 - got, 0)) > 0)
		got += (size_t)r;
	ans[got] = '\0';
	close(fd);
}

static void
test_server(void)
{
	struct pvp_metrics_server *srv;
	char err[256], ans[4096], addr[32], *big;
	const char *url;
	int calls = 0, silent;
	uint16_t port;
	uint64_t t0;

	unit_check_case = "server";
	srv = pvp_metrics_server_start("127.0.0.1:0", collect, &calls, err, sizeof(err));
	CHECK(srv != NULL, "%s", err);
	if (srv == NULL)
		return;
	url = pvp_metrics_server_url(srv);
	CHECK(strncmp(url, "http://127.0.0.1:", 17) == 0, "%s", url);
	port = (uint16_t)atoi(url + 17);

	/* A client that connects and says nothing holds only its own slot. */
	silent = connect_port(port);
	t0 = pvp_now_ms();
	exchange(port, "GET /metrics HTTP/1.1\r\n\r\n", 25, ans, sizeof(ans));
	CHECK(pvp_now_ms() - t0 < 2000, "waited %llu ms", (unsigned long long)(pvp_now_ms() - t0));
	CHECK(strncmp(ans, "HTTP/1.1 200 OK\r\n", 17) == 0, "%s", ans);
	CHECK(strstr(ans, "Content-Type: " PVP_OM_CT_PROMETHEUS "\r\n") != NULL, "%s", ans);
	CHECK(strstr(ans, "\r\n\r\n# TYPE t_up gauge\n# HELP t_up Up.\nt_up 1\n") != NULL, "%s",
	      ans);
	CHECK(strstr(ans, "# EOF") == NULL);

	exchange(port, "GET /metrics HTTP/1.1\r\nAccept: application/openmetrics-text\r\n\r\n", 64,
		 ans, sizeof(ans));
	CHECK(strstr(ans, "Content-Type: " PVP_OM_CT_OPENMETRICS "\r\n") != NULL, "%s", ans);
	CHECK(strlen(ans) > 6 && strcmp(ans + strlen(ans) - 6, "# EOF\n") == 0, "%s", ans);

	exchange(port, "HEAD /metrics HTTP/1.1\r\n\r\n", 26, ans, sizeof(ans));
	CHECK(strncmp(ans, "HTTP/1.1 200 OK\r\n", 17) == 0 &&
		      strcmp(ans + strlen(ans) - 4, "\r\n\r\n") == 0,
	      "%s", ans);

	exchange(port, "GET /nope HTTP/1.1\r\n\r\n", 22, ans, sizeof(ans));
	CHECK(strncmp(ans, "HTTP/1.1 404 Not Found\r\n", 24) == 0, "%s", ans);
	exchange(port, "PUT /metrics HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc", 46, ans,
		 sizeof(ans));
	CHECK(strncmp(ans, "HTTP/1.1 405 Method Not Allowed\r\n", 33) == 0 &&
		      strstr(ans, "Allow: GET, HEAD\r\n") != NULL,
	      "%s", ans);
	exchange(port, "hello\r\n\r\n", 9, ans, sizeof(ans));
	CHECK(strncmp(ans, "HTTP/1.1 400 Bad Request\r\n", 26) == 0, "%s", ans);
	big = malloc(PVP_METRICS_MAX_REQUEST + 100);
	memset(big, 'a', PVP_METRICS_MAX_REQUEST + 100);
	memcpy(big, "GET /metrics HTTP/1.1\r\nX: ", 26);
	exchange(port, big, PVP_METRICS_MAX_REQUEST + 100, ans, sizeof(ans));
	CHECK(strncmp(ans, "HTTP/1.1 431 ", 13) == 0, "%s", ans);
	free(big);
	/* Only the good GETs collected: nothing runs for a refused request. */
	CHECK(calls == 3, "%d", calls);
	if (silent >= 0)
		close(silent);

	/* The port is taken now: a second server says so. */
	snprintf(addr, sizeof(addr), "127.0.0.1:%u", port);
	err[0] = '\0';
	CHECK(pvp_metrics_server_start(addr, collect, &calls, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "Address already in use") != NULL, "%s", err);
	pvp_metrics_server_stop(srv);
	unit_check_case = NULL;
}

int
main(void)
{
	test_writer();
	test_from_stats();
	test_parse();
	test_addr();
	test_url();
	test_server();
	return unit_check_end("metrics");
}
