/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * lib/ctl over real sockets (unix sockets under a private /tmp directory
 * and loopback TCP): valid calls, every error class, limits, tokens,
 * 100 concurrent clients, timeouts and transport errors. Each wait is
 * bounded; the program stops by itself.
 */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>

#include <jansson.h>

#include "pvp_ctl.h"
#include "pvp_util.h"

#include "ctl_test.h"

#ifndef PVP_VERSION
#define PVP_VERSION "unknown"
#endif

#define CALL_MS CT_CALL_MS

static char dir[64];

static struct timespec t_last;

/* Progress on stdout (never asserted): where the time goes on a busy box. */
static void
step(const char *name)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	printf("# %-22s %6ld ms\n", name,
	       (long)((now.tv_sec - t_last.tv_sec) * 1000 +
		      (now.tv_nsec - t_last.tv_nsec) / 1000000));
	t_last = now;
}

static void
path_in_dir(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* Methods of the test server. */

static int
m_echo(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	*result = params != NULL ? json_incref(params) : json_null();
	return 0;
}

static int
m_add(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	json_int_t a, b;

	if (json_unpack(params, "{s:I, s:I}", "a", &a, "b", &b) != 0 &&
	    json_unpack(params, "[II]", &a, &b) != 0) {
		pvp_err(err, err_len, "add: want {\"a\": int, \"b\": int}");
		return -EINVAL;
	}
	*result = json_integer(a + b);
	return 0;
}

static int
m_fail(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	return -ENOMEM; /* no message: the server must answer -32603 "internal error" */
}

static int
m_busy(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	pvp_err(err, err_len, "busy: traffic is running");
	return -EBUSY;
}

static int
m_sleep(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	json_int_t ms = 0;

	json_unpack(params, "{s:I}", "ms", &ms);
	if (ms > 0 && ms < 10000)
		usleep((useconds_t)ms * 1000);
	*result = json_object();
	return 0;
}

static int
m_big(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	json_int_t n = 0;
	char *s;

	if (json_unpack(params, "{s:I}", "n", &n) != 0 || n < 0 || n > 16 * 1024 * 1024) {
		pvp_err(err, err_len, "big: want {\"n\": 0..16M}");
		return -EINVAL;
	}
	s = malloc((size_t)n + 1);
	memset(s, 'x', (size_t)n);
	s[n] = '\0';
	*result = json_string(s);
	free(s);
	return 0;
}

static int
info_cb(json_t *info, void *arg)
{
	return json_object_set_new(info, "extra", json_integer(42)) == 0 ? 0 : -ENOMEM;
}

static struct pvp_ctl_server *
start_server(const char *listen, const char *token_file, size_t max_request,
	     unsigned int max_clients, unsigned int idle_s)
{
	struct pvp_ctl_server_conf conf = {
		.listen = listen,
		.token_file = token_file,
		.app_name = "test-ctl",
		.max_request = max_request,
		.max_clients = max_clients,
		.idle_timeout_s = idle_s,
	};
	char err[PVP_CTL_ERR_LEN] = "";
	struct pvp_ctl_server *srv;

	srv = pvp_ctl_server_create(&conf, err, sizeof(err));
	if (srv == NULL) {
		fprintf(stderr, "FAIL create %s: %s\n", listen, err);
		unit_check_failures++;
		return NULL;
	}
	CHECK(pvp_ctl_server_register(srv, "echo", m_echo, NULL) == 0, "register echo");
	CHECK(pvp_ctl_server_register(srv, "add", m_add, NULL) == 0, "register add");
	CHECK(pvp_ctl_server_register(srv, "fail", m_fail, NULL) == 0, "register fail");
	CHECK(pvp_ctl_server_register(srv, "busy", m_busy, NULL) == 0, "register busy");
	CHECK(pvp_ctl_server_register(srv, "sleep", m_sleep, NULL) == 0, "register sleep");
	CHECK(pvp_ctl_server_register(srv, "big", m_big, NULL) == 0, "register big");
	CHECK(pvp_ctl_server_register(srv, "echo", m_echo, NULL) == -EEXIST, "dup");
	CHECK(pvp_ctl_server_register(srv, "ping", m_echo, NULL) == -EEXIST, "builtin");
	CHECK(pvp_ctl_server_register(srv, "x", NULL, NULL) == -EINVAL, "NULL cb");
	pvp_ctl_server_set_info(srv, info_cb, NULL);
	CHECK(pvp_ctl_server_start(srv) == 0, "start");
	CHECK(pvp_ctl_server_register(srv, "late", m_echo, NULL) < 0, "register after start");
	return srv;
}

/* Raw sockets: what a client that does not use the library sends. */

static int
raw_connect(const char *address)
{
	int fd = ct_connect(address, CALL_MS);

	if (fd < 0) {
		fprintf(stderr, "FAIL raw connect %s: %s\n", address, strerror(errno));
		unit_check_failures++;
	}
	return fd;
}

#define raw_send    ct_send
#define raw_answer  ct_answer
#define raw_close   close
#define answer_code ct_code

/* Send @p line (newline added) and check the answer's code and id. */
static void
raw_expect(int fd, const char *line, size_t len, int code, const char *id_json, int where)
{
	json_t *a, *want_id = NULL;

	if (raw_send(fd, line, len) < 0 || raw_send(fd, "\n", 1) < 0) {
		fprintf(stderr, "FAIL line %d: send\n", where);
		unit_check_failures++;
		return;
	}
	a = raw_answer(fd);
	if (a == NULL) {
		fprintf(stderr, "FAIL line %d: no answer to %.100s\n", where, line);
		unit_check_failures++;
		return;
	}
	if (answer_code(a) != code) {
		char *s = json_dumps(a, 0);

		fprintf(stderr, "FAIL line %d: %.100s: want %d, got %s\n", where, line, code, s);
		free(s);
		unit_check_failures++;
	}
	if (id_json != NULL) {
		want_id = json_loads(id_json, JSON_DECODE_ANY, NULL);
		if (!json_equal(want_id, json_object_get(a, "id"))) {
			fprintf(stderr, "FAIL line %d: %.100s: id is not %s\n", where, line,
				id_json);
			unit_check_failures++;
		}
	}
	json_decref(want_id);
	json_decref(a);
}

#define EXPECT(fd, s, code, id) raw_expect(fd, s, strlen(s), code, id, __LINE__)

/* pvp_ctl_call() with params built inline: they are released here. */
static int
call_new(struct pvp_ctl_client *c, const char *method, json_t *params, json_t **result,
	 int timeout_ms, char *err, size_t err_len)
{
	int ret = pvp_ctl_call(c, method, params, result, timeout_ms, err, err_len);

	json_decref(params);
	return ret;
}

static void
test_valid_calls(const char *address)
{
	struct pvp_ctl_client *c;
	char err[PVP_CTL_ERR_LEN] = "";
	json_t *r = NULL, *p, *m;
	bool has_echo = false, has_ping = false;
	size_t i;
	int ret;

	c = pvp_ctl_client_connect(address, NULL, CALL_MS, err, sizeof(err));
	CHECK(c != NULL, "connect: %s", err);
	if (c == NULL)
		return;
	ret = pvp_ctl_call(c, "ping", NULL, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == 0 && json_is_string(r) && strcmp(json_string_value(r), "pong") == 0,
	      "ping: %d %s", ret, err);
	json_decref(r);

	ret = pvp_ctl_call(c, "info", NULL, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == 0 && json_is_object(r), "info: %d %s", ret, err);
	CHECK(strcmp(json_string_value(json_object_get(r, "app")) ?: "", "test-ctl") == 0, "app");
	CHECK(strcmp(json_string_value(json_object_get(r, "version")) ?: "", PVP_VERSION) == 0,
	      "version");
	CHECK(json_integer_value(json_object_get(r, "pid")) == getpid(), "pid");
	CHECK(json_integer_value(json_object_get(r, "extra")) == 42, "info_cb member");
	m = json_object_get(r, "methods");
	for (i = 0; i < json_array_size(m); i++) {
		const char *name = json_string_value(json_array_get(m, i));

		has_echo |= name != NULL && strcmp(name, "echo") == 0;
		has_ping |= name != NULL && strcmp(name, "ping") == 0;
	}
	CHECK(has_echo && has_ping, "methods lists echo and ping");
	json_decref(r);

	p = json_pack("{s:[i,s,n,b], s:{s:f}}", "list", 1, "two", 0, "nested", "x", 1.5);
	ret = pvp_ctl_call(c, "echo", p, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == 0 && json_equal(r, p), "echo");
	json_decref(r);
	json_decref(p);

	p = json_pack("{s:i, s:i}", "a", 2, "b", 3);
	ret = pvp_ctl_call(c, "add", p, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == 0 && json_integer_value(r) == 5, "add");
	json_decref(r);
	json_decref(p);

	/* Error classes as the client API reports them. */
	p = json_pack("{s:s}", "a", "two");
	ret = pvp_ctl_call(c, "add", p, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == -EINVAL && r == NULL, "add bad: %d", ret);
	CHECK(strstr(err, "add: want") != NULL, "method's message: %s", err);
	json_decref(p);
	ret = pvp_ctl_call(c, "no.such", NULL, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == -ENOSYS, "unknown: %d", ret);
	ret = pvp_ctl_call(c, "fail", NULL, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == -EIO, "fail: %d", ret);
	ret = pvp_ctl_call(c, "busy", NULL, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == -EBUSY && strstr(err, "traffic") != NULL, "busy: %d", ret);
	ret = call_new(c, "auth", json_pack("{s:s}", "token", "whatever-is-fine"), &r, CALL_MS, err,
		       sizeof(err));
	CHECK(ret == 0, "auth without a token configured: %d", ret);
	json_decref(r);
	/* Still usable after the errors. */
	ret = pvp_ctl_call(c, "ping", NULL, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == 0, "ping after errors: %d", ret);
	json_decref(r);
	pvp_ctl_client_close(c);
}

static void
test_raw_errors(const char *address)
{
	static const char nul_line[] = "{\"jsonrpc\":\"2.0\",\0\"id\":1,\"method\":\"ping\"}";
	char *deep, *deep_ok;
	json_t *a;
	int fd, i;

	fd = raw_connect(address);
	if (fd < 0)
		return;
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", 0, "1");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"method\":\"ping\"}", 0, "\"s-1\"");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", 0, "null");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":2.5,\"method\":\"ping\"}", 0, "2.5");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r", 0, "1");
	/* -32700 parse errors, always with id null. */
	EXPECT(fd, "garbage", PVP_CTL_PARSE_ERROR, "null");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"", PVP_CTL_PARSE_ERROR,
	       "null");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} trailing",
	       PVP_CTL_PARSE_ERROR, "null");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":1e99999,\"method\":\"ping\"}", PVP_CTL_PARSE_ERROR,
	       "null");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":123456789012345678901234567890,\"method\":\"p\"}",
	       PVP_CTL_PARSE_ERROR, "null");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}",
	       PVP_CTL_PARSE_ERROR, "null");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\\u0000ng\"}", PVP_CTL_PARSE_ERROR,
	       "null");
	EXPECT(fd, "\xff\xfe\x01\x02 binary", PVP_CTL_PARSE_ERROR, "null");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xc3\x28\"}", PVP_CTL_PARSE_ERROR,
	       "null");
	raw_expect(fd, nul_line, sizeof(nul_line) - 1, PVP_CTL_PARSE_ERROR, "null", __LINE__);
	deep = malloc(3001);
	memset(deep, '[', 3000);
	deep[3000] = '\0';
	EXPECT(fd, deep, PVP_CTL_PARSE_ERROR, "null");
	free(deep);
	/* Nesting jansson accepts (under its 2048 limit) is echoed back whole. */
	deep_ok = malloc(8192);
	i = snprintf(deep_ok, 8192,
		     "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"echo\",\"params\":");
	memset(deep_ok + i, '[', 2000);
	memset(deep_ok + i + 2000, ']', 2000);
	strcpy(deep_ok + i + 4000, "}");
	EXPECT(fd, deep_ok, 0, "5");
	free(deep_ok);
	/* -32600: valid JSON, not a valid request. */
	EXPECT(fd, "{\"id\":1,\"method\":\"ping\"}", PVP_CTL_INVALID_REQUEST, "1");
	EXPECT(fd, "{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"ping\"}", PVP_CTL_INVALID_REQUEST,
	       "2");
	EXPECT(fd, "{\"jsonrpc\":2.0,\"id\":2,\"method\":\"ping\"}", PVP_CTL_INVALID_REQUEST, "2");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":5}", PVP_CTL_INVALID_REQUEST, "3");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":4}", PVP_CTL_INVALID_REQUEST, "4");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":5}",
	       PVP_CTL_INVALID_REQUEST, "5");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"ping\"}", PVP_CTL_INVALID_REQUEST,
	       "null");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}", PVP_CTL_INVALID_REQUEST,
	       "null");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"method\":7}", PVP_CTL_INVALID_REQUEST, "null");
	EXPECT(fd, "42", PVP_CTL_INVALID_REQUEST, "null");
	EXPECT(fd, "\"ping\"", PVP_CTL_INVALID_REQUEST, "null");
	EXPECT(fd, "null", PVP_CTL_INVALID_REQUEST, "null");
	EXPECT(fd, "[]", PVP_CTL_INVALID_REQUEST, "null");
	/* -32601, -32602, -32603, -32003. */
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"nope\"}",
	       PVP_CTL_METHOD_NOT_FOUND, "\"abc\"");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"add\",\"params\":{\"a\":1}}",
	       PVP_CTL_INVALID_PARAMS, "6");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"add\",\"params\":[1,2]}", 0, "7");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"auth\",\"params\":[]}",
	       PVP_CTL_INVALID_PARAMS, "8");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"fail\"}", PVP_CTL_INTERNAL_ERROR,
	       "9");
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"busy\"}", PVP_CTL_BUSY, "10");

	/* Notifications get no answer, not even errors of the method. */
	raw_send(fd, "{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}\n", 34);
	raw_send(fd, "{\"jsonrpc\":\"2.0\",\"method\":\"nope\"}\n", 34);
	raw_send(fd, "{\"jsonrpc\":\"2.0\",\"method\":\"fail\",\"params\":[]}\n", 46);
	raw_send(fd, "\n   \n\r\n", 7); /* blank lines: ignored */
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"ping\"}", 0, "11");

	/* A batch: the answers in an array, none for its notification. */
	raw_send(fd,
		 "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
		 "{\"jsonrpc\":\"2.0\",\"method\":\"ping\"},"
		 "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope\"}, 5]\n",
		 strlen("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
			"{\"jsonrpc\":\"2.0\",\"method\":\"ping\"},"
			"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope\"}, 5]\n"));
	a = raw_answer(fd);
	CHECK(json_is_array(a) && json_array_size(a) == 3, "batch answer");
	CHECK(answer_code(json_array_get(a, 0)) == 0, "batch ping");
	CHECK(answer_code(json_array_get(a, 1)) == PVP_CTL_METHOD_NOT_FOUND, "batch nope");
	CHECK(answer_code(json_array_get(a, 2)) == PVP_CTL_INVALID_REQUEST, "batch 5");
	json_decref(a);
	/* A batch of notifications only: no answer at all. */
	raw_send(fd, "[{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}]\n", 36);
	EXPECT(fd, "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"ping\"}", 0, "12");

	/* A request that arrives in pieces, and two in one write. */
	raw_send(fd, "{\"jsonrpc\":\"2.0\",", 17);
	usleep(50000);
	raw_send(fd, "\"id\":13,\"meth", 13);
	usleep(50000);
	EXPECT(fd, "od\":\"ping\"}", 0, "13");
	EXPECT(fd,
	       "{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"ping\"}\n"
	       "{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"ping\"}",
	       0, "14");
	a = raw_answer(fd);
	CHECK(answer_code(a) == 0 && json_integer_value(json_object_get(a, "id")) == 15,
	      "second of two");
	json_decref(a);
	raw_close(fd);
}

/* An echo request of exactly @p total bytes (without the newline). */
static void
echo_line(char *line, size_t total)
{
	int n = sprintf(line, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":[\"");

	memset(line + n, 'y', total - (size_t)n - 3);
	strcpy(line + total - 3, "\"]}");
}

static void
test_too_big(const char *address)
{
	char *buf, line[8192];
	json_t *a;
	int fd;

	/* A line of exactly max_request (4096) bytes is fine. */
	fd = raw_connect(address);
	if (fd < 0)
		return;
	echo_line(line, 4096);
	CHECK(strlen(line) == 4096, "length %zu", strlen(line));
	EXPECT(fd, line, 0, "1");

	/* One byte more: -32002 with id null, then the server closes. */
	echo_line(line, 4097);
	CHECK(strlen(line) == 4097, "length %zu", strlen(line));
	EXPECT(fd, line, PVP_CTL_REQUEST_TOO_BIG, "null");
	a = raw_answer(fd);
	CHECK(a == NULL, "connection closed after -32002");
	json_decref(a);
	raw_close(fd);

	/* 1 MiB with no newline at all, sent while the server answers. */
	fd = raw_connect(address);
	if (fd < 0)
		return;
	buf = malloc(1 << 20);
	memset(buf, 'a', 1 << 20);
	raw_send(fd, buf, 1 << 20); /* may fail half way once the server closes */
	free(buf);
	a = raw_answer(fd);
	CHECK(answer_code(a) == PVP_CTL_REQUEST_TOO_BIG, "no-newline flood gets -32002");
	json_decref(a);
	a = raw_answer(fd);
	CHECK(a == NULL, "closed after -32002");
	raw_close(fd);

	/* The client API reports it as -32002 too, not as a broken pipe. */
	{
		struct pvp_ctl_client *c = pvp_ctl_client_connect(address, NULL, CALL_MS, NULL, 0);
		char err[PVP_CTL_ERR_LEN] = "";
		json_t *r = NULL;
		int ret;

		buf = malloc(100001);
		memset(buf, 'z', 100000);
		buf[100000] = '\0';
		ret = call_new(c, "echo", json_pack("[s]", buf), &r, CALL_MS, err, sizeof(err));
		free(buf);
		CHECK(ret == -EMSGSIZE && r == NULL, "client too big: %d %s", ret, err);
		pvp_ctl_client_close(c);
	}

	/* The server still serves new clients. */
	CHECK(ct_ping(address, NULL, CALL_MS) == 0, "ping after oversized requests");
}

struct worker {
	const char *address;
	int index;
	int ok;
	char msg[300];
};

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct pvp_ctl_client *c;
	char err[PVP_CTL_ERR_LEN] = "";
	json_t *p, *r;
	int i, ret;

	c = pvp_ctl_client_connect(w->address, NULL, CALL_MS * 3, err, sizeof(err));
	if (c == NULL) {
		snprintf(w->msg, sizeof(w->msg), "connect: %s", err);
		return NULL;
	}
	for (i = 0; i < 5; i++) {
		p = json_pack("{s:i, s:i}", "a", w->index * 1000, "b", i);
		r = NULL;
		ret = pvp_ctl_call(c, "add", p, &r, CALL_MS * 3, err, sizeof(err));
		json_decref(p);
		if (ret != 0 || json_integer_value(r) != w->index * 1000 + i) {
			snprintf(w->msg, sizeof(w->msg), "call %d: %d %s", i, ret, err);
			json_decref(r);
			pvp_ctl_client_close(c);
			return NULL;
		}
		json_decref(r);
	}
	ret = pvp_ctl_call(c, "ping", NULL, &r, CALL_MS * 3, err, sizeof(err));
	json_decref(r);
	w->ok = ret == 0;
	if (ret != 0)
		snprintf(w->msg, sizeof(w->msg), "ping: %d %s", ret, err);
	pvp_ctl_client_close(c);
	return NULL;
}

static void
test_concurrent(const char *address)
{
	enum { N = 100 };
	static struct worker w[N];
	pthread_t t[N];
	int i, ok = 0;

	for (i = 0; i < N; i++) {
		w[i] = (struct worker){.address = address, .index = i};
		if (pthread_create(&t[i], NULL, worker_main, &w[i]) != 0) {
			fprintf(stderr, "FAIL pthread_create %d\n", i);
			unit_check_failures++;
			w[i].index = -1;
		}
	}
	for (i = 0; i < N; i++) {
		if (w[i].index < 0)
			continue;
		pthread_join(t[i], NULL);
		if (w[i].ok)
			ok++;
		else
			fprintf(stderr, "  client %d: %s\n", i, w[i].msg);
	}
	CHECK(ok == N, "%d of %d concurrent clients answered correctly", ok, N);
}

static void
test_tcp_and_tokens(void)
{
	static const char token[] = "s3cret-token-0123456789abcdef";
	struct pvp_ctl_server_conf conf = {.listen = "tcp:0.0.0.0:0"};
	struct pvp_ctl_server *srv;
	struct pvp_ctl_client *c;
	char err[PVP_CTL_ERR_LEN] = "";
	char tok_path[128], bad_path[128], short_path[128], loop[128], buf[300], msg[256];
	const char *port;
	json_t *r = NULL;
	int ret;

	path_in_dir(tok_path, sizeof(tok_path), "token");
	path_in_dir(bad_path, sizeof(bad_path), "token-world");
	path_in_dir(short_path, sizeof(short_path), "token-short");
	ct_write_file(tok_path, "  s3cret-token-0123456789abcdef  \n\n", 0600);
	ct_write_file(bad_path, "s3cret-token-0123456789abcdef\n", 0644);
	ct_write_file(short_path, "short\n", 0600);

	/* The server reads its token file with lib/util's reader, as the client does. */
	CHECK(pvp_secret_read(tok_path, buf, sizeof(buf), msg, sizeof(msg)) == 0, "%s", msg);
	CHECK(strcmp(buf, token) == 0, "trimmed first line: '%s'", buf);
	CHECK(pvp_secret_read(bad_path, buf, sizeof(buf), msg, sizeof(msg)) == -EACCES,
	      "world-readable");
	CHECK(pvp_secret_read(short_path, buf, sizeof(buf), msg, sizeof(msg)) == -EINVAL, "short");
	CHECK(pvp_secret_read("/nonexistent/token", buf, sizeof(buf), msg, sizeof(msg)) == -ENOENT,
	      "missing");

	/* Beyond loopback without a token: refused with a clear line. */
	errno = 0;
	srv = pvp_ctl_server_create(&conf, err, sizeof(err));
	CHECK(srv == NULL && errno == EACCES, "0.0.0.0 without token must fail");
	CHECK(strstr(err, "tcp:0.0.0.0:0: a token file is required") != NULL, "msg: %s", err);
	pvp_ctl_server_destroy(srv);
	conf.listen = "tcp:[::]:0";
	srv = pvp_ctl_server_create(&conf, err, sizeof(err));
	CHECK(srv == NULL, ":: without token must fail");
	pvp_ctl_server_destroy(srv);

	conf.listen = "tcp:0.0.0.0:0";
	conf.token_file = bad_path;
	srv = pvp_ctl_server_create(&conf, err, sizeof(err));
	CHECK(srv == NULL && strstr(err, "chmod 600") != NULL, "world-readable: %s", err);
	pvp_ctl_server_destroy(srv);
	conf.token_file = short_path;
	srv = pvp_ctl_server_create(&conf, err, sizeof(err));
	CHECK(srv == NULL && strstr(err, "at least 16") != NULL, "short: %s", err);
	pvp_ctl_server_destroy(srv);

	/* With a token: works; the real port is reported. */
	srv = start_server("tcp:0.0.0.0:0", tok_path, 0, 0, 0);
	if (srv == NULL)
		return;
	CHECK(strncmp(pvp_ctl_server_address(srv), "tcp:0.0.0.0:", 12) == 0, "address %s",
	      pvp_ctl_server_address(srv));
	port = strrchr(pvp_ctl_server_address(srv), ':') + 1;
	CHECK(atoi(port) > 0, "real port: %s", port);
	snprintf(loop, sizeof(loop), "tcp:127.0.0.1:%s", port);

	CHECK(ct_ping(loop, token, CALL_MS) == 0, "ping with the token");
	CHECK(ct_ping(loop, "wrong-token-0123456789", CALL_MS) == -EACCES,
	      "wrong token refused at connect");
	CHECK(ct_ping(loop, "", CALL_MS) == -EACCES, "empty token refused");

	/* No token: everything but auth answers -32001. */
	c = pvp_ctl_client_connect(loop, NULL, CALL_MS, err, sizeof(err));
	CHECK(c != NULL, "connect without token: %s", err);
	ret = pvp_ctl_call(c, "ping", NULL, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == -EACCES, "ping before auth: %d", ret);
	ret = pvp_ctl_call(c, "info", NULL, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == -EACCES, "info before auth: %d", ret);
	/* A wrong guess closes the connection. */
	ret = call_new(c, "auth", json_pack("{s:s}", "token", "s3cret-token-0123456789abcdeX"), &r,
		       CALL_MS, err, sizeof(err));
	CHECK(ret == -EACCES, "wrong auth: %d", ret);
	ret = pvp_ctl_call(c, "ping", NULL, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == -ENOTCONN, "closed after a wrong token: %d", ret);
	pvp_ctl_client_close(c);

	/* Auth by hand, then calls work. */
	c = pvp_ctl_client_connect(loop, NULL, CALL_MS, err, sizeof(err));
	ret = call_new(c, "auth", json_pack("{s:s}", "token", token), &r, CALL_MS, err,
		       sizeof(err));
	CHECK(ret == 0, "auth: %d %s", ret, err);
	json_decref(r);
	ret = call_new(c, "add", json_pack("[i,i]", 20, 22), &r, CALL_MS, err, sizeof(err));
	CHECK(ret == 0 && json_integer_value(r) == 42, "add after auth");
	json_decref(r);
	pvp_ctl_client_close(c);
	CHECK(ct_ping(loop, token, CALL_MS) == 0, "still serving");
	pvp_ctl_server_destroy(srv);

	/* Loopback needs no token; port 0 is resolved. */
	srv = start_server("tcp:127.0.0.1:0", NULL, 0, 0, 0);
	if (srv != NULL) {
		CHECK(strncmp(pvp_ctl_server_address(srv), "tcp:127.0.0.1:", 14) == 0 &&
			      strcmp(pvp_ctl_server_address(srv), "tcp:127.0.0.1:0") != 0,
		      "address %s", pvp_ctl_server_address(srv));
		CHECK(ct_ping(pvp_ctl_server_address(srv), NULL, CALL_MS) == 0, "loopback ping");
		/* A client with a token talks to a server without one too. */
		CHECK(ct_ping(pvp_ctl_server_address(srv), token, CALL_MS) == 0,
		      "token not needed");
		pvp_ctl_server_destroy(srv);
	}
	srv = start_server("tcp:localhost:0", NULL, 0, 0, 0);
	CHECK(srv != NULL, "localhost");
	if (srv != NULL)
		CHECK(ct_ping(pvp_ctl_server_address(srv), NULL, CALL_MS) == 0, "localhost ping");
	pvp_ctl_server_destroy(srv);

	ret = socket(AF_INET6, SOCK_STREAM, 0);
	if (ret >= 0) {
		struct sockaddr_in6 s6 = {.sin6_family = AF_INET6,
					  .sin6_addr = IN6ADDR_LOOPBACK_INIT};
		bool v6 = bind(ret, (struct sockaddr *)&s6, sizeof(s6)) == 0;

		close(ret);
		if (v6) {
			srv = start_server("tcp:[::1]:0", NULL, 0, 0, 0);
			if (srv != NULL) {
				CHECK(strncmp(pvp_ctl_server_address(srv), "tcp:[::1]:", 10) == 0,
				      "v6 address %s", pvp_ctl_server_address(srv));
				CHECK(ct_ping(pvp_ctl_server_address(srv), NULL, CALL_MS) == 0,
				      "v6 ping");
			}
			pvp_ctl_server_destroy(srv);
		} else {
			printf("# no IPv6 loopback here: skipping tcp:[::1]\n");
		}
	}
}

static void
test_bad_addresses(void)
{
	static const char *const bad[] = {
		"",
		"foo",
		"unix:",
		"tcp:",
		"tcp:127.0.0.1",
		"tcp:127.0.0.1:",
		"tcp::80",
		"tcp:127.0.0.1:65536",
		"tcp:127.0.0.1:-1",
		"tcp:127.0.0.1:8x",
		"tcp:[::1]80",
		"tcp:[::1",
		"tcp:::1:80",
		"tcp:no.such.host.invalid:0",
	};
	struct pvp_ctl_server_conf conf = {0};
	char err[PVP_CTL_ERR_LEN] = "";
	struct pvp_ctl_server *srv;
	struct pvp_ctl_client *c;
	char longp[200];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		conf.listen = bad[i];
		err[0] = '\0';
		srv = pvp_ctl_server_create(&conf, err, sizeof(err));
		CHECK(srv == NULL && err[0] != '\0', "bad address '%s'", bad[i]);
		pvp_ctl_server_destroy(srv);
		c = pvp_ctl_client_connect(bad[i], NULL, 1000, err, sizeof(err));
		CHECK(c == NULL && errno == ENOTCONN, "client '%s'", bad[i]);
		pvp_ctl_client_close(c);
	}
	memset(longp, 'a', sizeof(longp) - 1);
	longp[0] = '/';
	longp[sizeof(longp) - 1] = '\0';
	conf.listen = longp;
	srv = pvp_ctl_server_create(&conf, err, sizeof(err));
	CHECK(srv == NULL && errno == ENAMETOOLONG, "long unix path");
	CHECK(pvp_ctl_server_create(NULL, err, sizeof(err)) == NULL, "NULL conf");
	pvp_ctl_server_destroy(NULL);
	pvp_ctl_client_close(NULL);
}

static void
test_unix_files(void)
{
	struct pvp_ctl_server_conf conf = {0};
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	struct pvp_ctl_server *srv, *srv2;
	char err[PVP_CTL_ERR_LEN] = "";
	char path[128], addr[160], plain[128];
	struct stat st;
	int fd;

	/* A stale socket file (its server died) is replaced. */
	path_in_dir(path, sizeof(path), "stale.sock");
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	CHECK(bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0, "bind stale");
	raw_close(fd);
	CHECK(stat(path, &st) == 0 && S_ISSOCK(st.st_mode), "stale file exists");
	snprintf(addr, sizeof(addr), "unix:%s", path);
	srv = start_server(addr, NULL, 0, 0, 0);
	CHECK(srv != NULL, "stale socket replaced");
	CHECK(ct_ping(addr, NULL, CALL_MS) == 0, "ping on replaced socket");
	/* A live one is not. */
	conf.listen = addr;
	srv2 = pvp_ctl_server_create(&conf, err, sizeof(err));
	CHECK(srv2 == NULL && errno == EADDRINUSE, "live socket kept: %s", err);
	pvp_ctl_server_destroy(srv2);
	CHECK(ct_ping(addr, NULL, CALL_MS) == 0, "first server unharmed");
	pvp_ctl_server_destroy(srv);
	CHECK(stat(path, &st) < 0 && errno == ENOENT, "socket file removed on destroy");

	/* A regular file is never replaced. */
	ct_write_file(path, "keep me\n", 0600);
	srv = pvp_ctl_server_create(&conf, err, sizeof(err));
	CHECK(srv == NULL && strstr(err, "not a socket") != NULL, "%s", err);
	CHECK(stat(path, &st) == 0 && S_ISREG(st.st_mode), "regular file kept");
	unlink(path);

	/* A plain path works as well as unix:PATH. */
	path_in_dir(plain, sizeof(plain), "plain.sock");
	srv = start_server(plain, NULL, 0, 0, 0);
	CHECK(srv != NULL && strncmp(pvp_ctl_server_address(srv), "unix:/", 6) == 0, "plain");
	CHECK(ct_ping(plain, NULL, CALL_MS) == 0, "plain ping");
	CHECK(stat(plain, &st) == 0 && (st.st_mode & 0777) == 0660, "mode 0660");
	pvp_ctl_server_destroy(srv);

	/* A missing last directory level is made (like /run/pvpkit). */
	path_in_dir(plain, sizeof(plain), "run/sub.sock");
	srv = start_server(plain, NULL, 0, 0, 0);
	CHECK(srv != NULL && ct_ping(plain, NULL, CALL_MS) == 0, "parent directory made");
	pvp_ctl_server_destroy(srv);
	path_in_dir(plain, sizeof(plain), "run");
	CHECK(rmdir(plain) == 0, "socket file gone, directory empty");
}

static void
test_limits(void)
{
	struct pvp_ctl_client *c1, *c2, *c3;
	struct pvp_ctl_server *srv;
	char err[PVP_CTL_ERR_LEN] = "";
	char addr[160], path[128];
	json_t *r = NULL;
	int ret, i, fd;

	path_in_dir(path, sizeof(path), "limits.sock");
	snprintf(addr, sizeof(addr), "unix:%s", path);
	srv = start_server(addr, NULL, 0, 2, 1);
	if (srv == NULL)
		return;
	c1 = pvp_ctl_client_connect(addr, NULL, CALL_MS, err, sizeof(err));
	c2 = pvp_ctl_client_connect(addr, NULL, CALL_MS, err, sizeof(err));
	CHECK(pvp_ctl_call(c1, "ping", NULL, &r, CALL_MS, err, sizeof(err)) == 0, "c1");
	json_decref(r);
	CHECK(pvp_ctl_call(c2, "ping", NULL, &r, CALL_MS, err, sizeof(err)) == 0, "c2");
	json_decref(r);
	/* Third client over max_clients=2: refused (an error line or a close). */
	c3 = pvp_ctl_client_connect(addr, NULL, CALL_MS, err, sizeof(err));
	ret = c3 == NULL ? -errno : pvp_ctl_call(c3, "ping", NULL, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == -EBUSY || ret == -ENOTCONN, "third client: %d %s", ret, err);
	printf("# client over max_clients: %d %s\n", ret, err);
	pvp_ctl_client_close(c3);
	pvp_ctl_client_close(c1);
	/* A slot is free again once the server has seen c1 go. */
	for (i = 0, ret = -1; i < 100 && ret != 0; i++) {
		ret = ct_ping(addr, NULL, CALL_MS);
		if (ret != 0)
			usleep(50000);
	}
	CHECK(ret == 0, "slot reused after a client left: %d", ret);

	/*
	 * Idle timeout (1 s here): a quiet raw connection sees the server
	 * close it (EOF, well before the 20 s receive timeout); c2, quiet
	 * for longer, is closed too.
	 */
	fd = raw_connect(addr);
	if (fd >= 0) {
		char b;

		CHECK(recv(fd, &b, 1, 0) == 0, "idle connection closed by the server");
		close(fd);
	}
	ret = pvp_ctl_call(c2, "ping", NULL, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == -ENOTCONN, "idle connection closed: %d", ret);
	pvp_ctl_client_close(c2);
	CHECK(ct_ping(addr, NULL, CALL_MS) == 0, "serving after idle close");
	pvp_ctl_server_destroy(srv);
}

static void
test_big_answers(const char *address)
{
	enum { N = 12, SIZE = 1 << 20 };
	char req[128], *buf;
	size_t len;
	json_t *a;
	int fd, i, n, ok = 0;

	/*
	 * Many large answers asked for before reading any: the server must
	 * write them in pieces (partial writes) and stop reading meanwhile.
	 */
	fd = raw_connect(address);
	if (fd < 0)
		return;
	for (i = 0; i < N; i++) {
		n = snprintf(req, sizeof(req),
			     "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"big\",\"params\":{\"n\":%"
			     "d}}\n",
			     i, SIZE);
		raw_send(fd, req, (size_t)n);
	}
	for (i = 0; i < N; i++) {
		a = raw_answer(fd);
		if (json_integer_value(json_object_get(a, "id")) == i &&
		    json_string_length(json_object_get(a, "result")) == SIZE)
			ok++;
		json_decref(a);
	}
	CHECK(ok == N, "%d of %d big answers whole and in order", ok, N);

	/*
	 * 20000 requests in one write (1 MB), answers read only after:
	 * all answered, in order. Their answers (0.8 MB) fit in what the
	 * server queues for a client that does not read (1 MiB); more
	 * would wait until the client reads, and a client that never
	 * does is closed (test_ctl_attack).
	 */
	buf = malloc(20000 * 64);
	for (i = 0, len = 0; i < 20000; i++)
		len += (size_t)sprintf(buf + len,
				       "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"ping\"}\n", i);
	CHECK(raw_send(fd, buf, len) == 0, "send 20000 requests");
	free(buf);
	for (i = 0, ok = 0; i < 20000; i++) {
		a = raw_answer(fd);
		ok += answer_code(a) == 0 && json_integer_value(json_object_get(a, "id")) == i;
		json_decref(a);
		if (a == NULL)
			break;
	}
	CHECK(ok == 20000, "%d of 20000 pipelined answers", ok);
	raw_close(fd);
}

static void
test_timeouts(const char *address)
{
	struct pvp_ctl_client *c;
	char err[PVP_CTL_ERR_LEN] = "";
	json_t *r = NULL;
	int ret;

	c = pvp_ctl_client_connect(address, NULL, CALL_MS, err, sizeof(err));
	if (c == NULL) {
		CHECK(0, "connect: %s", err);
		return;
	}
	ret = call_new(c, "sleep", json_pack("{s:i}", "ms", 1500), &r, 100, err, sizeof(err));
	CHECK(ret == -ETIMEDOUT && r == NULL, "timeout: %d", ret);
	/* The late answer is skipped: the next call gets its own. */
	ret = call_new(c, "add", json_pack("[i,i]", 1, 1), &r, CALL_MS, err, sizeof(err));
	CHECK(ret == 0 && json_integer_value(r) == 2, "call after a timeout: %d", ret);
	json_decref(r);
	pvp_ctl_client_close(c);
}

static void
test_server_gone(void)
{
	struct pvp_ctl_server *srv;
	struct pvp_ctl_client *c;
	char err[PVP_CTL_ERR_LEN] = "";
	char path[128], addr[160];
	json_t *r = NULL;
	int ret;

	path_in_dir(path, sizeof(path), "gone.sock");
	snprintf(addr, sizeof(addr), "unix:%s", path);
	srv = start_server(addr, NULL, 0, 0, 0);
	c = pvp_ctl_client_connect(addr, NULL, CALL_MS, err, sizeof(err));
	CHECK(c != NULL, "connect");
	CHECK(pvp_ctl_call(c, "ping", NULL, &r, CALL_MS, err, sizeof(err)) == 0, "ping");
	json_decref(r);
	pvp_ctl_server_destroy(srv);
	ret = pvp_ctl_call(c, "ping", NULL, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == -ENOTCONN, "server gone: %d", ret);
	ret = pvp_ctl_call(c, "ping", NULL, &r, CALL_MS, err, sizeof(err));
	CHECK(ret == -ENOTCONN, "stays failed: %d", ret);
	pvp_ctl_client_close(c);
	c = pvp_ctl_client_connect(addr, NULL, CALL_MS, err, sizeof(err));
	CHECK(c == NULL && errno == ENOTCONN, "connect to nothing");
}

/*
 * pvp_ctl_params(): what every method's params go through. Absent and []
 * are {}; anything else but an object, an unknown member or a value out
 * of its table's range is refused as "METHOD: member: ...", and a method
 * without a table takes nothing.
 */
static void
test_params(void)
{
	static const struct pvp_schema_member members[] = {
		{.name = "n",
		 .type = PVP_SCHEMA_UINT,
		 .min = 1,
		 .max = 9,
		 .def = "3",
		 .offset = 0,
		 .size = sizeof(unsigned int)},
		{.name = NULL},
	};
	static const struct {
		const char *params; /* JSON, NULL: none */
		const struct pvp_schema_member *members;
		unsigned int n;	 /* decoded, when accepted */
		const char *msg; /* the refusal, NULL: accepted */
	} cases[] = {
		{NULL, members, 3, NULL},
		{"[]", members, 3, NULL},
		{"{}", members, 3, NULL},
		{"{\"n\": 7}", members, 7, NULL},
		{"[7]", members, 0, "m: params must be an object"},
		{"\"x\"", members, 0, "m: params must be an object"},
		{"{\"n\": 10}", members, 0, "m: n: must be an integer in 1..9"},
		{"{\"n\": 1.5}", members, 0, "m: n: must be an integer in 1..9"},
		{"{\"nn\": 1}", members, 0, "m: nn: unknown member"},
		{NULL, NULL, 0, NULL},
		{"{}", NULL, 0, NULL},
		{"{\"all\": true}", NULL, 0, "m: all: unknown member"},
	};
	unsigned int i, n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *p = cases[i].params != NULL
				    ? json_loads(cases[i].params, JSON_DECODE_ANY, NULL)
				    : NULL;
		char err[PVP_CTL_ERR_LEN] = "";
		int ret;

		n = 0;
		ret = pvp_ctl_params("m", cases[i].members, p, cases[i].members != NULL ? &n : NULL,
				     err, sizeof(err));
		if (cases[i].msg == NULL)
			CHECK(ret == 0 && n == cases[i].n, "params %s: %d %u %s", cases[i].params,
			      ret, n, err);
		else
			CHECK(ret == -EINVAL && strcmp(err, cases[i].msg) == 0, "params %s: %d %s",
			      cases[i].params, ret, err);
		json_decref(p);
	}
}

/*
 * The one table both ends read: every code a pvpkit server sends comes
 * back to the client as the -errno its method returned, and what is not
 * in the table is the server's own failure, never a client's.
 */
static void
test_codes(void)
{
	static const int codes[] = {PVP_CTL_PARSE_ERROR,      PVP_CTL_INVALID_REQUEST,
				    PVP_CTL_METHOD_NOT_FOUND, PVP_CTL_INVALID_PARAMS,
				    PVP_CTL_INTERNAL_ERROR,   PVP_CTL_UNAUTHORIZED,
				    PVP_CTL_REQUEST_TOO_BIG,  PVP_CTL_BUSY};
	size_t i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		CHECK(pvp_ctl_code(pvp_ctl_errno(codes[i])) == codes[i], "code %d round trip",
		      codes[i]);
	CHECK(pvp_ctl_code(-EINVAL) == PVP_CTL_INVALID_PARAMS, "-EINVAL");
	CHECK(pvp_ctl_code(-EBUSY) == PVP_CTL_BUSY, "-EBUSY");
	CHECK(pvp_ctl_code(-ENOMEM) == PVP_CTL_INTERNAL_ERROR, "-ENOMEM");
	CHECK(pvp_ctl_code(-EPERM) == PVP_CTL_INTERNAL_ERROR, "-EPERM");
	CHECK(pvp_ctl_code(0) == PVP_CTL_INTERNAL_ERROR, "0");
	CHECK(pvp_ctl_errno(-32050) == -EREMOTEIO, "a foreign code");
}

int
main(void)
{
	struct pvp_ctl_server *srv;
	char path[128], addr[160];

	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(dir, sizeof(dir), "/tmp/pvp-ctl-test.XXXXXX");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	path_in_dir(path, sizeof(path), "main.sock");
	snprintf(addr, sizeof(addr), "unix:%s", path);

	srv = start_server(addr, NULL, 4096, 0, 0);
	if (srv == NULL)
		return 1;
	printf("# server on %s\n", pvp_ctl_server_address(srv));
	clock_gettime(CLOCK_MONOTONIC, &t_last);
	test_codes();
	test_params();
	test_valid_calls(addr);
	step("test_valid_calls");
	test_raw_errors(addr);
	step("test_raw_errors");
	test_too_big(addr);
	step("test_too_big");
	test_concurrent(addr);
	step("test_concurrent");
	test_timeouts(addr);
	step("test_timeouts");
	pvp_ctl_server_destroy(srv);

	/* Big answers need a max_request-independent server with defaults. */
	srv = start_server(addr, NULL, 0, 0, 0);
	test_big_answers(addr);
	step("test_big_answers");
	test_tcp_and_tokens();
	step("test_tcp_and_tokens");
	test_bad_addresses();
	step("test_bad_addresses");
	test_unix_files();
	step("test_unix_files");
	test_limits();
	step("test_limits");
	test_server_gone();
	step("test_server_gone");
	CHECK(ct_ping(addr, NULL, CALL_MS) == 0, "the server still answers ping after all of it");
	pvp_ctl_server_destroy(srv);

	path_in_dir(path, sizeof(path), "token");
	unlink(path);
	path_in_dir(path, sizeof(path), "token-world");
	unlink(path);
	path_in_dir(path, sizeof(path), "token-short");
	unlink(path);
	rmdir(dir);
	if (unit_check_failures != 0) {
		printf("%d check(s) failed\n", unit_check_failures);
		return 1;
	}
	printf("all ctl checks passed\n");
	return 0;
}
