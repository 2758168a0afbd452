/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The control channel under attack, each case a finding of a hostile
 * read reproduced: clients that never authenticate, send a byte a second
 * or never read their answers must not lock the legitimate client out
 * or make the server grow without bound; a client that left gets no
 * more work done; a hostile server cannot make the client buffer an
 * answer of any size. Servers run in child processes so their memory
 * (VmRSS) is measured alone. Every wait is bounded.
 */

#include <errno.h>
#include <ifaddrs.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "ctl_test.h"

static char dir[64];

/* A stats.get-sized answer (~1.2 KB) for no request bytes: the amplifier. */
static int
m_stats(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	json_t *ports = json_array();
	int i;

	for (i = 0; i < 8; i++)
		json_array_append_new(ports,
				      json_pack("{s:i,s:I,s:I,s:I,s:I,s:I,s:I}", "port", i,
						"rx_packets", (json_int_t)123456789012,
						"tx_packets", (json_int_t)123456789013, "rx_bytes",
						(json_int_t)123456789014, "tx_bytes",
						(json_int_t)123456789015, "rx_dropped",
						(json_int_t)1, "tx_dropped", (json_int_t)2));
	*result = json_pack("{s:o}", "ports", ports);
	return 0;
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

static void
setup(struct pvp_ctl_server *srv)
{
	pvp_ctl_server_register(srv, "stats", m_stats, NULL);
	pvp_ctl_server_register(srv, "sleep", m_sleep, NULL);
	pvp_ctl_server_register(srv, "big", m_big, NULL);
}

static pid_t
spawn(struct pvp_ctl_server_conf *conf, const char *name, char *addr, size_t len)
{
	char listen[160];
	pid_t pid;

	if (conf->listen == NULL) {
		snprintf(listen, sizeof(listen), "unix:%s/%s", dir, name);
		conf->listen = listen;
	}
	conf->app_name = "ctl-attack";
	pid = ct_spawn(conf, setup, addr, len);
	CHECK(pid > 0, "server %s did not start", name);
	return pid;
}

/* How long a legitimate ping takes to be answered; -1 if it is refused. */
static long
legit_ping_ms(const char *addr, const char *token)
{
	uint64_t t0 = ct_now_ms();
	int ret = ct_ping(addr, token, 5000);

	if (ret != 0) {
		printf("# legitimate ping refused: %d\n", ret);
		return -1;
	}
	return (long)(ct_now_ms() - t0);
}

/* Slow clients: one byte of an unfinished line every 100 ms, until told. */
struct slow {
	int *fds;
	int n;
	volatile int stop;
};

static void *
slow_main(void *arg)
{
	struct slow *s = arg;
	int i;

	while (!s->stop) {
		for (i = 0; i < s->n; i++)
			if (s->fds[i] >= 0 &&
			    send(s->fds[i], "{", 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
				s->fds[i] = -1;
		usleep(100000);
	}
	return NULL;
}

/* Milliseconds left until @p end (0 when past): one budget for many waits. */
static int
left_ms(uint64_t end)
{
	uint64_t now = ct_now_ms();

	return now >= end ? 0 : (int)(end - now);
}

static void
close_all(int *fds, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/*
 * Finding: 128 idle or slowloris connections that never authenticate
 * kept the legitimate client out (-32003 "too many clients") until the
 * 300 s idle timeout. Here on a unix socket (no token: local clients)
 * and on TCP with a token.
 */
static void
test_lockout_local(void)
{
	enum { IDLE = 128, SLOW = 16 };
	struct pvp_ctl_server_conf conf = {0};
	static int idle[IDLE], slowfd[SLOW];
	struct slow s = {.fds = slowfd, .n = SLOW};
	char addr[256];
	pthread_t t;
	long ms;
	pid_t pid;
	int i;

	pid = spawn(&conf, "lockout.sock", addr, sizeof(addr));
	if (pid < 0)
		return;
	for (i = 0; i < IDLE; i++)
		idle[i] = ct_connect(addr, 5000);
	for (i = 0; i < SLOW; i++)
		slowfd[i] = ct_connect(addr, 5000);
	pthread_create(&t, NULL, slow_main, &s);
	usleep(500000);
	ms = legit_ping_ms(addr, NULL);
	printf("# unix, %d idle + %d slow connections: legitimate ping in %ld ms\n", IDLE, SLOW,
	       ms);
	CHECK(ms >= 0 && ms < 2000, "legitimate client locked out by idle connections: %ld", ms);
	/* Again, with the table full of strangers once more. */
	ms = legit_ping_ms(addr, NULL);
	CHECK(ms >= 0 && ms < 2000, "second legitimate ping: %ld", ms);
	s.stop = 1;
	pthread_join(t, NULL);
	close_all(idle, IDLE);
	close_all(slowfd, SLOW);
	ct_stop(pid);
}

struct burst {
	const char *addr;
	int ret;
};

static void *
burst_main(void *arg)
{
	struct burst *b = arg;

	b->ret = ct_ping(b->addr, NULL, 10000);
	return NULL;
}

/*
 * Strangers make room for a burst of clients that connect at once, but
 * the clients of the burst, each about to send its request, do not
 * evict each other.
 */
static void
test_burst(void)
{
	enum { IDLE = 60, BURST = 100 };
	struct pvp_ctl_server_conf conf = {0};
	static struct burst b[BURST];
	static int idle[IDLE];
	pthread_t t[BURST];
	char addr[256];
	int i, ok = 0;
	pid_t pid;

	pid = spawn(&conf, "burst.sock", addr, sizeof(addr));
	if (pid < 0)
		return;
	for (i = 0; i < IDLE; i++)
		idle[i] = ct_connect(addr, 5000);
	usleep(500000);
	for (i = 0; i < BURST; i++) {
		b[i] = (struct burst){.addr = addr, .ret = 1};
		pthread_create(&t[i], NULL, burst_main, &b[i]);
	}
	for (i = 0; i < BURST; i++) {
		pthread_join(t[i], NULL);
		ok += b[i].ret == 0;
	}
	printf("# %d idle strangers, then %d clients at once: %d served\n", IDLE, BURST, ok);
	CHECK(ok == BURST, "%d of %d clients of a burst served", ok, BURST);
	close_all(idle, IDLE);
	ct_stop(pid);
}

static const char token[] = "attack-test-token-0123456789";

static void
test_lockout_token(void)
{
	enum { IDLE = 140 };
	struct pvp_ctl_server_conf conf = {.listen = "tcp:127.0.0.1:0", .auth_timeout_ms = 1500};
	static int idle[IDLE];
	char addr[256], tok[160];
	int i, closed = 0;
	uint64_t end;
	long ms;
	pid_t pid;

	snprintf(tok, sizeof(tok), "%s/token", dir);
	ct_write_file(tok, token, 0600);
	conf.token_file = tok;
	pid = spawn(&conf, "tcp", addr, sizeof(addr));
	if (pid < 0)
		return;
	for (i = 0; i < IDLE; i++) {
		idle[i] = ct_connect(addr, 5000);
		/* Some start a line and never finish it. */
		if (idle[i] >= 0 && i % 4 == 0)
			ct_send_str(idle[i], "{\"jsonrpc\":\"2.0\",\"id\":1,\"meth");
	}
	usleep(500000);
	ms = legit_ping_ms(addr, token);
	printf("# tcp with a token, %d connections without it: legitimate ping in %ld ms\n", IDLE,
	       ms);
	CHECK(ms >= 0 && ms < 2000, "token holder locked out: %ld", ms);
	/* The strangers still there are closed by the deadline to authenticate. */
	end = ct_now_ms() + 4000;
	for (i = 0; i < IDLE; i++)
		if (idle[i] >= 0)
			closed += ct_closed_within(idle[i], left_ms(end));
	printf("# %d of %d unauthenticated connections closed by the server\n", closed, IDLE);
	CHECK(closed == IDLE, "unauthenticated connections still open: %d closed", closed);
	/* Before the token, a line is an "auth" call: 4 KiB at most. */
	i = ct_connect(addr, 5000);
	{
		char *big = malloc(8192);

		memset(big, ' ', 8192);
		ct_send(i, big, 8192);
		free(big);
	}
	{
		json_t *a = ct_answer(i);

		CHECK(ct_code(a) == PVP_CTL_REQUEST_TOO_BIG, "8 KiB before auth: %d", ct_code(a));
		json_decref(a);
	}
	close(i);
	close_all(idle, IDLE);
	ct_stop(pid);
}

/* A proven client that then sends a byte a second is cut off by the line deadline. */
static void
test_slowloris(void)
{
	struct pvp_ctl_server_conf conf = {.line_timeout_ms = 800};
	char addr[256];
	uint64_t t0;
	json_t *a;
	pid_t pid;
	int fd, sent = 0;

	pid = spawn(&conf, "slow.sock", addr, sizeof(addr));
	if (pid < 0)
		return;
	fd = ct_connect(addr, 5000);
	ct_send_str(fd, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
	a = ct_answer(fd);
	CHECK(ct_code(a) == 0, "ping");
	json_decref(a);
	t0 = ct_now_ms();
	while (ct_now_ms() - t0 < 5000 && send(fd, "{", 1, MSG_NOSIGNAL) == 1) {
		sent++;
		if (ct_closed_within(fd, 200))
			break;
	}
	printf("# a byte every 200 ms: cut off after %llu ms, %d bytes\n",
	       (unsigned long long)(ct_now_ms() - t0), sent);
	CHECK(ct_now_ms() - t0 < 3000, "slow line not cut off by the line deadline");
	close(fd);
	CHECK(ct_ping(addr, NULL, 5000) == 0, "ping after the slow client");
	ct_stop(pid);
}

/* A full table of proven but idle clients: the one idle longest makes room. */
static void
test_evict_idle(void)
{
	struct pvp_ctl_server_conf conf = {.max_clients = 4};
	struct pvp_ctl_client *c[4];
	char err[PVP_CTL_ERR_LEN] = "";
	char addr[256];
	json_t *r = NULL;
	int i, lost = 0;
	pid_t pid;

	pid = spawn(&conf, "evict.sock", addr, sizeof(addr));
	if (pid < 0)
		return;
	for (i = 0; i < 4; i++) {
		c[i] = pvp_ctl_client_connect(addr, NULL, 5000, err, sizeof(err));
		CHECK(c[i] != NULL &&
			      pvp_ctl_call(c[i], "ping", NULL, &r, 5000, err, sizeof(err)) == 0,
		      "client %d", i);
		json_decref(r);
		r = NULL;
	}
	/* All four just worked: a fifth waits for none of them and is refused. */
	CHECK(ct_ping(addr, NULL, 5000) == -EBUSY, "fifth while all are busy");
	usleep(1200000);
	CHECK(ct_ping(addr, NULL, 5000) == 0, "fifth after the others went idle");
	for (i = 0; i < 4; i++) {
		int ret = pvp_ctl_call(c[i], "ping", NULL, &r, 5000, err, sizeof(err));

		if (ret != 0) {
			lost++;
			printf("# evicted client %d: %d %s\n", i, ret, err);
		}
		json_decref(r);
		r = NULL;
		pvp_ctl_client_close(c[i]);
	}
	CHECK(lost >= 1, "no idle client was evicted");
	ct_stop(pid);
}

/* A non-loopback address of this machine, to connect from; false if none. */
static bool
outside_address(char *buf, size_t len)
{
	struct ifaddrs *ifa, *i;
	bool found = false;

	if (getifaddrs(&ifa) < 0)
		return false;
	for (i = ifa; i != NULL && !found; i = i->ifa_next) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)i->ifa_addr;

		if (in == NULL || in->sin_family != AF_INET ||
		    (ntohl(in->sin_addr.s_addr) >> 24) == 127)
			continue;
		found = inet_ntop(AF_INET, &in->sin_addr, buf, (socklen_t)len) != NULL;
	}
	freeifaddrs(ifa);
	return found;
}

/* One remote address cannot hold more than max_per_peer slots. */
static void
test_per_peer(void)
{
	enum { CAP = 4, N = 20 };
	struct pvp_ctl_server_conf conf = {.listen = "tcp:0.0.0.0:0", .max_per_peer = CAP};
	char addr[256], ip[64], via[128], tok[160];
	int fds[N], i, open_now = 0;
	pid_t pid;

	if (!outside_address(ip, sizeof(ip))) {
		printf("# no non-loopback IPv4 address here: per-address cap not tested\n");
		return;
	}
	snprintf(tok, sizeof(tok), "%s/token", dir);
	conf.token_file = tok;
	pid = spawn(&conf, "peer", addr, sizeof(addr));
	if (pid < 0)
		return;
	snprintf(via, sizeof(via), "tcp:%s:%s", ip, strrchr(addr, ':') + 1);
	for (i = 0; i < N; i++)
		fds[i] = ct_connect(via, 5000);
	usleep(300000);
	for (i = 0; i < N; i++)
		open_now += fds[i] >= 0 && !ct_closed_within(fds[i], 50);
	printf("# %d connections from %s: %d left open (cap %d)\n", N, ip, open_now, CAP);
	CHECK(open_now <= CAP, "%d connections from one address", open_now);
	CHECK(ct_ping(via, token, 5000) == 0, "token holder from the same address");
	close_all(fds, N);
	ct_stop(pid);
}

/*
 * Finding: one 1 MB batch of 20,000 stats.get made a 24 MB answer; ten
 * clients that never read it made the server grow by 600 MB.
 */
static void
test_memory(void)
{
	enum { CLIENTS = 10, BATCH = 20000, PIPE = 5000 };
	struct pvp_ctl_server_conf conf = {.write_timeout_ms = 1500};
	int fds[CLIENTS], i, closed = 0;
	char addr[256], *line;
	long before, peak = 0, rss;
	uint64_t end;
	size_t len, cap;
	json_t *a;
	pid_t pid;

	pid = spawn(&conf, "memory.sock", addr, sizeof(addr));
	if (pid < 0)
		return;
	usleep(100000);
	before = ct_rss_kb(pid);

	/* A batch of 20,000: refused whole, with one small error. */
	cap = (size_t)BATCH * 48 + 16;
	line = malloc(cap);
	if (line == NULL)
		return;
	len = 0;
	line[len++] = '[';
	for (i = 0; i < BATCH; i++)
		len += (size_t)snprintf(line + len, cap - len,
					"%s{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"stats\"}",
					i ? "," : "", i);
	line[len++] = ']';
	line[len++] = '\n';
	for (i = 0; i < CLIENTS; i++) {
		fds[i] = ct_connect(addr, 5000);
		ct_send(fds[i], line, len);
	}
	free(line);
	usleep(500000);
	rss = ct_rss_kb(pid);
	peak = rss > peak ? rss : peak;
	a = ct_answer(fds[0]);
	CHECK(ct_code(a) == PVP_CTL_INVALID_REQUEST &&
		      strstr(json_string_value(
				     json_object_get(json_object_get(a, "error"), "message"))
				     ?: "",
			     "at most 64") != NULL,
	      "batch of %d: not refused", BATCH);
	json_decref(a);
	close_all(fds, CLIENTS);

	/* 5,000 pipelined requests each, never read: queued answers are bounded. */
	cap = (size_t)PIPE * 48;
	line = malloc(cap);
	if (line == NULL)
		return;
	len = 0;
	for (i = 0; i < PIPE; i++)
		len += (size_t)snprintf(line + len, cap - len,
					"{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"stats\"}\n",
					i);
	for (i = 0; i < CLIENTS; i++) {
		fds[i] = ct_connect(addr, 5000);
		/* The server stops reading: the send may block, so not all of it. */
		send(fds[i], line, len, MSG_NOSIGNAL | MSG_DONTWAIT);
	}
	free(line);
	usleep(700000);
	rss = ct_rss_kb(pid);
	peak = rss > peak ? rss : peak;
	CHECK(ct_ping(addr, NULL, 5000) == 0, "ping while %d clients do not read", CLIENTS);
	/* They never read: the write deadline closes them. */
	usleep(2000000);
	end = ct_now_ms() + 3000;
	for (i = 0; i < CLIENTS; i++)
		closed += ct_closed_within(fds[i], left_ms(end));
	close_all(fds, CLIENTS);
	printf("# server RSS %ld KiB before, %ld KiB at most under attack (+%ld KiB)\n", before,
	       peak, peak - before);
	printf("# %d of %d clients that never read were closed\n", closed, CLIENTS);
	if (CT_ASAN)
		printf("# AddressSanitizer build: the RSS bound is not checked\n");
	else
		CHECK(peak - before < 48 * 1024, "server grew by %ld KiB", peak - before);
	CHECK(closed == CLIENTS, "clients that never read still connected: %d closed", closed);
	ct_stop(pid);
}

/* The answers to one batch are bounded too: what is over is not run. */
static void
test_batch_answer_bound(void)
{
	struct pvp_ctl_server_conf conf = {0};
	char addr[256], line[8192];
	size_t len = 0, i, ok = 0, refused = 0;
	json_t *a;
	pid_t pid;
	int fd;

	pid = spawn(&conf, "batch.sock", addr, sizeof(addr));
	if (pid < 0)
		return;
	line[len++] = '[';
	for (i = 0; i < 64; i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len,
					"%s{\"jsonrpc\":\"2.0\",\"id\":%zu,\"method\":\"big\","
					"\"params\":{\"n\":262144}}",
					i ? "," : "", i);
	line[len++] = ']';
	line[len++] = '\n';
	fd = ct_connect(addr, 5000);
	ct_send(fd, line, len);
	a = ct_answer(fd);
	for (i = 0; i < json_array_size(a); i++) {
		int code = ct_code(json_array_get(a, i));

		ok += code == 0;
		refused += code == PVP_CTL_BUSY;
	}
	printf("# batch of 64 answers of 256 KiB: %zu run, %zu refused\n", ok, refused);
	CHECK(json_array_size(a) == 64 && ok >= 1 && ok <= 5 && ok + refused == 64,
	      "batch answers not bounded: %zu run, %zu refused", ok, refused);
	json_decref(a);
	close(fd);
	ct_stop(pid);
}

/* Finding: batches of work for clients that already left still ran (3 s stalls). */
static void
test_gone_client(void)
{
	struct pvp_ctl_server_conf conf = {0};
	char addr[256], line[8192];
	size_t len = 0;
	uint64_t t0;
	long ms;
	pid_t pid;
	int fd, i;

	pid = spawn(&conf, "gone.sock", addr, sizeof(addr));
	if (pid < 0)
		return;
	line[len++] = '[';
	for (i = 0; i < 64; i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len,
					"%s{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"sleep\","
					"\"params\":{\"ms\":50}}",
					i ? "," : "", i);
	line[len++] = ']';
	line[len++] = '\n';
	t0 = ct_now_ms();
	fd = ct_connect(addr, 5000);
	ct_send(fd, line, len);
	usleep(20000);
	close(fd);
	CHECK(ct_ping(addr, NULL, 10000) == 0, "ping after a client left");
	ms = (long)(ct_now_ms() - t0);
	printf("# a batch of 64 x 50 ms for a client that left: next client served after %ld ms\n",
	       ms);
	CHECK(ms < 1500, "the server kept working for a client that left: %ld ms", ms);
	ct_stop(pid);
}

/* A hostile server: answers any request with an endless line. */
struct hostile {
	int lfd;
	uint64_t sent;
};

static void *
hostile_main(void *arg)
{
	struct hostile *h = arg;
	static char chunk[65536];
	char b[4096];
	int fd;

	memset(chunk, '1', sizeof(chunk));
	chunk[0] = '[';
	fd = accept(h->lfd, NULL, NULL);
	if (fd < 0)
		return NULL;
	if (recv(fd, b, sizeof(b), 0) > 0) {
		/* 200 MB with no newline, as long as the client takes it. */
		while (h->sent < 200ull << 20) {
			if (send(fd, chunk, sizeof(chunk), MSG_NOSIGNAL) <= 0)
				break;
			chunk[0] = ',';
			h->sent += sizeof(chunk);
		}
	}
	close(fd);
	return NULL;
}

/* Finding: a hostile hop's 200 MB answer was buffered whole by the client. */
static void
test_client_bound(void)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	struct hostile h = {0};
	struct pvp_ctl_client *c;
	char err[PVP_CTL_ERR_LEN] = "";
	char addr[160];
	long before, after;
	json_t *r = NULL;
	pthread_t t;
	int ret;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/hostile.sock", dir);
	snprintf(addr, sizeof(addr), "unix:%s", sun.sun_path);
	h.lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (bind(h.lfd, (struct sockaddr *)&sun, sizeof(sun)) < 0 || listen(h.lfd, 1) < 0) {
		CHECK(0, "hostile server: %s", strerror(errno));
		return;
	}
	pthread_create(&t, NULL, hostile_main, &h);
	before = ct_rss_kb(0);
	c = pvp_ctl_client_connect(addr, NULL, 10000, err, sizeof(err));
	ret = c != NULL ? pvp_ctl_call(c, "stats.get", NULL, &r, 30000, err, sizeof(err)) : -errno;
	after = ct_rss_kb(0);
	printf("# hostile 200 MB answer: %d \"%s\" after %llu MiB sent; client RSS +%ld KiB\n", ret,
	       err, (unsigned long long)(h.sent >> 20), after - before);
	CHECK(ret == -ENOTCONN && strstr(err, "answer over 8 MiB") != NULL, "hostile answer: %d %s",
	      ret, err);
	CHECK(CT_ASAN || after - before < 40 * 1024, "client grew by %ld KiB", after - before);
	json_decref(r);
	pvp_ctl_client_close(c);
	pthread_join(t, NULL);
	close(h.lfd);
	unlink(sun.sun_path);
}

int
main(void)
{
	char path[128];

	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(dir, sizeof(dir), "/tmp/pvp-ctl-attack.XXXXXX");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_lockout_local();
	test_lockout_token();
	test_burst();
	test_slowloris();
	test_evict_idle();
	test_per_peer();
	test_memory();
	test_batch_answer_bound();
	test_gone_client();
	test_client_bound();
	snprintf(path, sizeof(path), "%s/token", dir);
	unlink(path);
	rmdir(dir);
	if (unit_check_failures != 0) {
		printf("%d check(s) failed\n", unit_check_failures);
		return 1;
	}
	printf("all ctl attack checks passed\n");
	return 0;
}
