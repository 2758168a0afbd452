/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The ovs hop driver against a fake ovsdb-server: a thread on a unix
 * socket that answers with rows recorded from a real OVS 3.1
 * (data/ovsdb-interface-select.json) or with broken replies (malformed
 * JSON, error objects, a reply cut in the middle, silence). ovs-ofctl and
 * ovs-appctl are replaced by small scripts first in PATH.
 */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <jansson.h>

#include "drv_test.h"
#include "ovs_cmd.h"
#include "ovs_driver.h"
#include "ovs_private.h"

enum fake_mode {
	FAKE_OK,	/* rows from the recording */
	FAKE_CHUNKED,	/* an echo probe and a notification first, then the
			 * reply in 7-byte pieces */
	FAKE_MALFORMED, /* invalid JSON */
	FAKE_ERROR_OBJ, /* top-level "error" */
	FAKE_OP_ERROR,	/* an operation's error in "result" */
	FAKE_TRUNCATED, /* half a reply, then close */
	FAKE_SILENT,	/* never answers transact */
	FAKE_BAD_STATS, /* statistics with a string value */
};

struct fake_ovsdb {
	char path[108];
	int lfd;
	pthread_t thr;
	volatile bool stop;
	enum fake_mode mode;
	json_t *rows;	    /* recorded Interface rows */
	bool echo_answered; /* the client answered our echo probe */
	int transacts;	    /* transact requests seen */
	int waits;	    /* revalidator/wait requests seen (unixctl) */
};

static int
fake_send(int fd, const char *s, size_t len, size_t piece)
{
	size_t off = 0;

	while (off < len) {
		size_t n = len - off < piece ? len - off : piece;
		ssize_t w = send(fd, s + off, n, MSG_NOSIGNAL);

		if (w <= 0)
			return -1;
		off += (size_t)w;
		if (piece < len)
			usleep(50);
	}
	return 0;
}

static int
fake_send_json(int fd, json_t *j, size_t piece)
{
	char *s = json_dumps(j, JSON_COMPACT);
	int rc = fake_send(fd, s, strlen(s), piece);

	free(s);
	json_decref(j);
	return rc;
}

/* Read the next JSON value the client sent; NULL on EOF/stop. */
static json_t *
fake_read(struct fake_ovsdb *f, int fd, char *buf, size_t *len, size_t cap)
{
	json_error_t jerr;
	json_t *j;

	for (;;) {
		if (*len > 0) {
			j = json_loadb(buf, *len, JSON_DISABLE_EOF_CHECK, &jerr);
			if (j != NULL) {
				memmove(buf, buf + jerr.position, *len - jerr.position);
				*len -= jerr.position;
				return j;
			}
		}
		struct pollfd p = {.fd = fd, .events = POLLIN};

		if (poll(&p, 1, 100) == 0) {
			if (f->stop)
				return NULL;
			continue;
		}
		ssize_t n = recv(fd, buf + *len, cap - *len, 0);

		if (n <= 0)
			return NULL;
		*len += (size_t)n;
	}
}

/* The result of a transact as ovsdb-server would give it for our rows. */
static json_t *
fake_transact_result(struct fake_ovsdb *f, const json_t *params)
{
	json_t *result = json_array();
	size_t i, j;

	for (i = 1; i < json_array_size(params); i++) {
		const json_t *op = json_array_get(params, i);
		const json_t *where = json_array_get(json_object_get(op, "where"), 0);
		const char *name = json_string_value(json_array_get(where, 2));
		json_t *rows = json_array(), *row;

		json_array_foreach(f->rows, j, row) {
			if (name != NULL &&
			    strcmp(json_string_value(json_object_get(row, "name")), name) == 0) {
				json_t *r = json_deep_copy(row);

				if (f->mode == FAKE_BAD_STATS)
					json_object_set_new(r, "statistics",
							    json_pack("[s,[[s,s]]]", "map",
								      "rx_packets", "many"));
				json_array_append_new(rows, r);
			}
		}
		json_array_append_new(result, json_pack("{s:o}", "rows", rows));
	}
	return result;
}

static void
fake_conn(struct fake_ovsdb *f, int fd)
{
	static char buf[1 << 16];
	size_t len = 0;
	json_t *req;

	while ((req = fake_read(f, fd, buf, &len, sizeof(buf))) != NULL) {
		const char *method = json_string_value(json_object_get(req, "method"));
		json_t *id = json_object_get(req, "id");

		if (method == NULL) {
			/* The answer to our echo probe. */
			if (json_is_string(id) && strcmp(json_string_value(id), "probe-1") == 0 &&
			    json_is_array(json_object_get(req, "result")))
				f->echo_answered = true;
			json_decref(req);
			continue;
		}
		if (strcmp(method, "revalidator/wait") == 0) {
			/* ovs-vswitchd's unixctl answer: an empty result. */
			f->waits++;
			fake_send_json(
				fd, json_pack("{s:s, s:n, s:O}", "result", "", "error", "id", id),
				1 << 20);
			json_decref(req);
			continue;
		}
		if (strcmp(method, "list_dbs") == 0) {
			fake_send_json(fd,
				       json_pack("{s:[s,s], s:n, s:O}", "result", "Open_vSwitch",
						 "_Server", "error", "id", id),
				       1 << 20);
			json_decref(req);
			continue;
		}
		f->transacts++;
		json_int_t nid = json_integer_value(id);
		char text[512];
		char *s;

		/* The first transact is open() loading port numbers: the
		 * faults hit the snapshots after it. */
		switch (f->transacts == 1 ? FAKE_OK : f->mode) {
		case FAKE_OK:
		case FAKE_BAD_STATS:
			fake_send_json(
				fd,
				json_pack("{s:o, s:n, s:O}", "result",
					  fake_transact_result(f, json_object_get(req, "params")),
					  "error", "id", id),
				1 << 20);
			break;
		case FAKE_CHUNKED:
			fake_send_json(fd,
				       json_pack("{s:s, s:s, s:[]}", "id", "probe-1", "method",
						 "echo", "params"),
				       1 << 20);
			fake_send_json(fd,
				       json_pack("{s:n, s:s, s:[s,{}]}", "id", "method", "update",
						 "params", "x"),
				       1 << 20);
			fake_send_json(
				fd,
				json_pack("{s:o, s:n, s:O}", "result",
					  fake_transact_result(f, json_object_get(req, "params")),
					  "error", "id", id),
				7);
			break;
		case FAKE_MALFORMED:
			snprintf(text, sizeof(text),
				 "{\"id\":%lld,\"result\":[{\"rows\":[{\"name\":\"phy0\" "
				 "\"statistics\":"
				 "[\"map\",[[\"rx_packets\",1]]]}]}],\"error\":null}",
				 (long long)nid);
			fake_send(fd, text, strlen(text), 1 << 20);
			break;
		case FAKE_ERROR_OBJ:
			fake_send_json(fd,
				       json_pack("{s:n, s:{s:s, s:s}, s:O}", "result", "error",
						 "error", "unknown database", "details",
						 "Open_vSwitch is not served", "id", id),
				       1 << 20);
			break;
		case FAKE_OP_ERROR:
			fake_send_json(fd,
				       json_pack("{s:[{s:s, s:s}], s:n, s:O}", "result", "error",
						 "constraint violation", "details",
						 "no column \"bogus\"", "error", "id", id),
				       1 << 20);
			break;
		case FAKE_TRUNCATED: {
			json_t *r =
				json_pack("{s:o, s:n, s:O}", "result",
					  fake_transact_result(f, json_object_get(req, "params")),
					  "error", "id", id);

			s = json_dumps(r, JSON_COMPACT);
			fake_send(fd, s, strlen(s) / 2, 1 << 20);
			free(s);
			json_decref(r);
			json_decref(req);
			return;
		}
		case FAKE_SILENT:
			break;
		}
		json_decref(req);
	}
}

static void *
fake_thread(void *arg)
{
	struct fake_ovsdb *f = arg;

	while (!f->stop) {
		int fd = drv_accept(f->lfd);

		if (fd < 0)
			continue;
		fake_conn(f, fd);
		close(fd);
	}
	return NULL;
}

/* A fake JSON-RPC server listening on @p path (an ovsdb-server, or
 * ovs-vswitchd's unixctl socket). */
static void
fake_start_at(struct fake_ovsdb *f, enum fake_mode mode, const char *path)
{
	json_t *rec;
	char *text;

	memset(f, 0, sizeof(*f));
	f->mode = mode;
	text = drv_load("ovsdb-interface-select.json", NULL);
	rec = json_loads(text, 0, NULL);
	free(text);
	f->rows = json_incref(
		json_object_get(json_array_get(json_object_get(rec, "result"), 0), "rows"));
	json_decref(rec);
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->lfd = drv_listen_unix(f->path, SOCK_STREAM, "fake ovsdb");
	pthread_create(&f->thr, NULL, fake_thread, f);
}

static void
fake_start(struct fake_ovsdb *f, enum fake_mode mode, const char *dir)
{
	char path[108];

	snprintf(path, sizeof(path), "%s/db.sock", dir);
	fake_start_at(f, mode, path);
}

static void
fake_stop(struct fake_ovsdb *f)
{
	f->stop = true;
	pthread_join(f->thr, NULL);
	close(f->lfd);
	unlink(f->path);
	json_decref(f->rows);
}

static const struct coord_reason *
find_reason(const struct coord_port *p, const char *name)
{
	unsigned int i;

	for (i = 0; i < p->nb_reasons; i++)
		if (strcmp(coord_reason_name(p->reasons[i].id), name) == 0)
			return &p->reasons[i];
	return NULL;
}

/* Open a hop on the fake server with @p ports (JSON text). */
static int
open_hop(struct coord_hop *hop, const char *db, const char *ports, const char *extra, char *err,
	 size_t err_len, unsigned int timeout_ms)
{
	char text[1024];
	json_t *conf;
	int rc;

	snprintf(text, sizeof(text), "{\"db\": \"unix:%s\", \"ports\": %s, \"timeout_ms\": %u%s}",
		 db, ports, timeout_ms, extra != NULL ? extra : ", \"stats\": \"ovsdb\"");
	conf = json_loads(text, 0, NULL);
	memset(hop, 0, sizeof(*hop));
	snprintf(hop->name, sizeof(hop->name), "vswitch");
	hop->driver = &hop_driver_ovs;
	err[0] = '\0';
	rc = coord_hop_ports(hop, json_object_get(conf, "ports"), NULL, err, err_len);
	if (rc == 0)
		rc = hop_driver_ovs.open(hop, conf, err, err_len);
	json_decref(conf);
	return rc;
}

static void
check_recorded_counters(const struct coord_snap *s)
{
	const struct coord_port *phy = &s->port[0], *vh = &s->port[1];
	const struct coord_reason *r;

	CHECK_U64(s->nb_ports, 2);
	CHECK(strcmp(phy->name, "phy0") == 0, "port 0 is %s", phy->name);
	CHECK(strcmp(vh->name, "vhost0") == 0, "port 1 is %s", vh->name);
	CHECK_U64(phy->c[PVP_STATS_rx_packets], 84928);
	CHECK_U64(phy->c[PVP_STATS_rx_bytes], 5435392);
	CHECK_U64(phy->c[PVP_STATS_tx_packets], 256);
	CHECK_U64(phy->c[PVP_STATS_tx_bytes], 16384);
	CHECK_U64(phy->c[PVP_STATS_rx_dropped], 0);
	CHECK_U64(phy->c[PVP_STATS_tx_dropped], 16640);
	CHECK_U64(phy->c[PVP_STATS_rx_errors], 0);
	CHECK_U64(phy->c[PVP_STATS_tx_errors], 0);
	CHECK_U64(vh->c[PVP_STATS_rx_packets], 16896);
	CHECK_U64(vh->c[PVP_STATS_rx_bytes], 1081344);
	CHECK_U64(vh->c[PVP_STATS_tx_packets], 17280);
	CHECK_U64(vh->c[PVP_STATS_tx_bytes], 1105920);
	CHECK_U64(vh->c[PVP_STATS_tx_dropped], 64704);
	/* vhost ports in OVS 3.1 have five ovs_* drop counters. */
	CHECK_U64(phy->nb_reasons, 5);
	CHECK(strcmp(coord_reason_name(phy->reasons[0].id), "ovs_rx_qos_drops") == 0,
	      "first reason %s", coord_reason_name(phy->reasons[0].id));
	r = find_reason(phy, "ovs_tx_failure_drops");
	CHECK(r != NULL && r->value == 16640, "phy0 ovs_tx_failure_drops");
	r = find_reason(vh, "ovs_tx_failure_drops");
	CHECK(r != NULL && r->value == 64704, "vhost0 ovs_tx_failure_drops");
	CHECK(find_reason(vh, "ovs_tx_retries") == NULL, "retries are not drops");
	CHECK(s->t_ns != 0, "no timestamp");
}

static void
test_snapshot_ok(const char *dir)
{
	struct fake_ovsdb f;
	struct coord_hop hop;
	struct coord_snap s;
	char err[256];
	int rc;

	unit_check_case = "snapshot ok";
	fake_start(&f, FAKE_OK, dir);
	rc = open_hop(&hop, f.path, "[\"phy0\", \"vhost0\"]", NULL, err, sizeof(err), 10000);
	CHECK(rc == 0, "open: %d %s", rc, err);
	if (rc == 0) {
		memset(&s, 0, sizeof(s));
		rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
		CHECK(rc == 0, "snapshot: %d %s", rc, err);
		check_recorded_counters(&s);
		/* Same connection, second request, ports in another order. */
		rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
		CHECK(rc == 0, "second snapshot: %d %s", rc, err);
		CHECK_U64(f.transacts, 3); /* open's port numbers, two snapshots */
		hop_driver_ovs.close(&hop);
		CHECK(hop.priv == NULL, "close left priv");
	}
	/* The bridge's internal port has kernel-style counters. */
	rc = open_hop(&hop, f.path, "[\"br-pvp\"]", NULL, err, sizeof(err), 10000);
	CHECK(rc == 0, "open br-pvp: %s", err);
	if (rc == 0) {
		rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
		CHECK(rc == 0, "snapshot br-pvp: %s", err);
		CHECK_U64(s.port[0].c[PVP_STATS_tx_dropped], 68704);
		CHECK(find_reason(&s.port[0], "rx_missed") != NULL,
		      "rx_missed (OVS rx_missed_errors)");
		hop_driver_ovs.close(&hop);
	}
	fake_stop(&f);

	unit_check_case = "snapshot chunked with echo";
	fake_start(&f, FAKE_CHUNKED, dir);
	rc = open_hop(&hop, f.path, "[\"phy0\", \"vhost0\"]", NULL, err, sizeof(err), 10000);
	CHECK(rc == 0, "open: %s", err);
	if (rc == 0) {
		rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
		CHECK(rc == 0, "snapshot: %d %s", rc, err);
		check_recorded_counters(&s);
		hop_driver_ovs.close(&hop);
	}
	fake_stop(&f);
	CHECK(f.echo_answered, "the echo probe was not answered");
}

/* One snapshot against a broken server; expect @p want_rc and @p want_err in err. */
static void
expect_error(const char *dir, enum fake_mode mode, const char *ports, int want_rc,
	     const char *want_err)
{
	struct fake_ovsdb f;
	struct coord_hop hop;
	struct coord_snap s;
	char err[256];
	int rc;

	fake_start(&f, mode, dir);
	rc = open_hop(&hop, f.path, ports, NULL, err, sizeof(err),
		      mode == FAKE_SILENT ? 500 : 10000);
	/* A port that does not exist is found at open already. */
	if (rc == 0) {
		err[0] = '\0';
		rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
		hop_driver_ovs.close(&hop);
	}
	CHECK(rc == want_rc, "rc %d (%s), want %d", rc, err, want_rc);
	CHECK(strstr(err, want_err) != NULL, "error \"%s\" lacks \"%s\"", err, want_err);
	CHECK(strchr(err, '\n') == NULL, "error is not one line: %s", err);
	fake_stop(&f);
}

static void
test_snapshot_errors(const char *dir)
{
	struct coord_hop hop;
	char err[256], path[300];
	int rc;

	unit_check_case = "missing port";
	expect_error(dir, FAKE_OK, "[\"phy0\", \"nope0\"]", -ENOENT, "no Interface \"nope0\"");
	unit_check_case = "malformed JSON";
	expect_error(dir, FAKE_MALFORMED, "[\"phy0\"]", -EPROTO, "malformed reply");
	unit_check_case = "error object";
	expect_error(dir, FAKE_ERROR_OBJ, "[\"phy0\"]", -EREMOTEIO,
		     "unknown database: Open_vSwitch is not served");
	unit_check_case = "operation error";
	expect_error(dir, FAKE_OP_ERROR, "[\"phy0\"]", -EREMOTEIO, "constraint violation");
	unit_check_case = "truncated reply";
	expect_error(dir, FAKE_TRUNCATED, "[\"phy0\", \"vhost0\"]", -ECONNRESET, "hop unreachable");
	unit_check_case = "no reply";
	expect_error(dir, FAKE_SILENT, "[\"phy0\"]", -ETIMEDOUT, "no reply within 500 ms");
	unit_check_case = "bad statistics";
	expect_error(dir, FAKE_BAD_STATS, "[\"phy0\"]", -EPROTO, "malformed statistics");

	unit_check_case = "socket gone";
	snprintf(path, sizeof(path), "%s/gone.sock", dir);
	rc = open_hop(&hop, path, "[\"phy0\"]", NULL, err, sizeof(err), 10000);
	CHECK(rc == -ECONNREFUSED && coord_err_unreachable(rc), "rc %d", rc);
	CHECK(strncmp(err, "hop unreachable: ", 17) == 0, "err: %s", err);
	CHECK(hop.priv == NULL, "failed open left priv");

	unit_check_case = "server goes away";
	{
		struct fake_ovsdb f;
		struct coord_snap s;

		fake_start(&f, FAKE_OK, dir);
		rc = open_hop(&hop, f.path, "[\"phy0\"]", NULL, err, sizeof(err), 10000);
		CHECK(rc == 0, "open: %s", err);
		fake_stop(&f);
		if (rc == 0) {
			rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
			CHECK(rc < 0, "snapshot after the server left: %d", rc);
			CHECK(strncmp(err, "hop unreachable: ", 17) == 0, "err: %s", err);
			hop_driver_ovs.close(&hop);
		}
	}
}

static void
test_conf_errors(const char *dir)
{
	static const struct {
		const char *conf;
		const char *want;
	} cases[] = {
		{"{\"ports\": [\"phy0\"]}", "\"db\""},
		{"{\"db\": \"ftp:x\", \"ports\": [\"phy0\"]}", "unix:PATH"},
		{"{\"db\": \"unix:/x\"}", "\"ports\""},
		{"{\"db\": \"unix:/x\", \"ports\": [\"a;rm -rf /\"]}", "ports[0]"},
		{"{\"db\": \"unix:/x\", \"ports\": [\"p\"], \"bridge\": \"$(x)\"}", "bridge"},
		{"{\"db\": \"unix:/x\", \"ports\": [\"p\"], \"ssh\": {\"host\": \"h\", "
		 "\"password\": \"x\"}}",
		 "ssh.password: unknown member"},
		{"{\"db\": \"unix:/x\", \"ports\": [\"p\"], \"ssh\": {\"host\": "
		 "\"-oProxyCommand=x\"}}",
		 "host"},
		{"{\"db\": \"unix:/x\", \"ports\": [\"p\"], \"flow_base\": {\"l3\": "
		 "\"300.1.1.1\"}}",
		 "flow_base.l3"},
		{"{\"db\": \"unix:/x\", \"ports\": [\"p\"], \"timeout_ms\": -1}", "timeout_ms"},
		{"{\"db\": \"unix:/x\", \"ports\": [\"a\", \"b\"], \"forward\": [{\"in\": \"a\", "
		 "\"out\": \"c\"}]}",
		 "forward[0]: \"in\" and \"out\" must be two of the hop's ports"},
		{"{\"db\": \"unix:/x\", \"ports\": [\"a\", \"b\"], \"forward\": [{\"in\": \"a\", "
		 "\"out\": \"a\"}]}",
		 "forward[0]"},
		{"{\"db\": \"unix:/x\", \"ports\": [\"a\", \"b\", \"c\"], \"forward\": [{\"in\": "
		 "\"a\", \"out\": \"b\"}, {\"in\": \"a\", \"out\": \"c\"}]}",
		 "forward[1]: a is the in port of forward[0] already"},
		{"{\"db\": \"unix:/x\", \"ports\": [\"a\", \"b\"], \"forward\": [{\"in\": \"a\", "
		 "\"out\": \"b\", \"swapped\": [\"l7\"]}]}",
		 "forward[0].swapped[0]: must be one of \"l2\", \"l3\", \"l4\""},
		{"{\"db\": \"unix:/x\", \"ports\": [\"a\", \"b\"], \"forward\": []}",
		 "forward: must be a list of 1..16 items"},
		{"{\"db\": \"unix:/x\", \"ports\": [\"a\", \"b\"], \"forward\": [{\"in\": \"a\", "
		 "\"out\": \"b\"}, {\"in\": \"b\", \"out\": \"a\"}, {\"in\": \"a\", \"out\": "
		 "\"b\"}]}",
		 "\"forward\" must list 1..2"},
		{"{\"db\": \"unix:/x\", \"ports\": [\"a\", \"b\"], \"l2_reverse_match\": "
		 "\"dl_dst\", \"forward\": [{\"in\": \"a\", \"out\": \"b\"}]}",
		 "\"l2_reverse_match\" and \"forward\" together"},
	};
	struct coord_hop hop;
	char err[256];
	size_t i;

	(void)dir;
	unit_check_case = "conf errors";
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *conf = json_loads(cases[i].conf, 0, NULL);
		int rc;

		memset(&hop, 0, sizeof(hop));
		err[0] = '\0';
		rc = coord_hop_ports(&hop, json_object_get(conf, "ports"), NULL, err, sizeof(err));
		if (rc == 0)
			rc = hop_driver_ovs.open(&hop, conf, err, sizeof(err));
		CHECK(rc == -EINVAL, "%s: rc %d (%s)", cases[i].conf, rc, err);
		CHECK(strstr(err, cases[i].want) != NULL, "%s: err \"%s\" lacks \"%s\"",
		      cases[i].conf, err, cases[i].want);
		json_decref(conf);
	}
}

static void
write_script(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
	chmod(path, 0755);
}

static char *
read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	static char buf[1 << 20];
	size_t n;

	if (f == NULL)
		return strcpy(buf, "");
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The counters of data/ofctl-dump-ports-of14.txt and ofp14-port-stats-reply.bin
 * (one recording: ingress policing on phy0 dropped 6076 of 9051). */
static void
check_of_counters(const struct coord_snap *s)
{
	const struct coord_port *phy = &s->port[0], *vh = &s->port[1];
	const struct coord_reason *r;

	CHECK_U64(s->nb_ports, 2);
	CHECK(strcmp(phy->name, "phy0") == 0, "port 0 %s", phy->name);
	CHECK_U64(phy->c[PVP_STATS_rx_packets], 9051);
	CHECK_U64(phy->c[PVP_STATS_rx_bytes], 543060);
	CHECK_U64(phy->c[PVP_STATS_rx_dropped], 6076);
	CHECK_U64(phy->c[PVP_STATS_tx_packets], 2975);
	CHECK_U64(phy->c[PVP_STATS_tx_bytes], 178500);
	CHECK_U64(phy->c[PVP_STATS_tx_dropped], 0);
	CHECK_U64(phy->c[PVP_STATS_rx_errors], 0); /* not supported by vhost = 0 */
	CHECK_U64(vh->c[PVP_STATS_rx_packets], 2975);
	CHECK_U64(vh->c[PVP_STATS_tx_packets], 2975);
	CHECK_U64(vh->c[PVP_STATS_rx_dropped], 0);
	CHECK_U64(phy->nb_reasons, 5);
	r = find_reason(phy, "ovs_rx_qos_drops");
	CHECK(r != NULL && r->value == 6076, "ovs_rx_qos_drops");
	CHECK(strcmp(coord_reason_name(phy->reasons[0].id), "ovs_rx_qos_drops") == 0,
	      "same reason order as OVSDB: %s", coord_reason_name(phy->reasons[0].id));
	r = find_reason(vh, "ovs_tx_failure_drops");
	CHECK(r != NULL && r->value == 0, "vhost0 ovs_tx_failure_drops");
}

enum of_mode {
	OF_OK,	    /* the recorded reply */
	OF_ERROR,   /* OFPT_ERROR (bad request) */
	OF_GARBAGE, /* a port stats reply with a short entry */
	OF_CLOSE,   /* close after the request */
};

/* A fake bridge management socket speaking just enough OpenFlow 1.4. */
struct of_fake {
	char path[108];
	int lfd;
	pthread_t thr;
	volatile bool stop;
	volatile enum of_mode mode;
	char *reply;
	size_t reply_len;
	/* Packets of the drop-reason rule for phy0 (OpenFlow port 1) the
	 * flow stats reply gives; 0: the bridge has no such rule. */
	volatile uint64_t drops;
};

/* Big-endian @p v into @p p. */
static void
of_put64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (56 - 8 * i));
}

/*
 * A flow stats reply to the drop-reason request: with f->drops, phy0's
 * "no_neighbour" rule (reason 0) and one for a port of no topology (9),
 * which the driver leaves out; else no entry.
 */
static void
of_flow_reply(struct of_fake *f, int fd)
{
	uint8_t r[16 + 2 * 56] = {5, 19, 0, 16, 0, 0, 0, 2, 0, 1};
	size_t len = 16, i;

	for (i = 0; i < 2 && f->drops != 0; i++, len += 56) {
		uint8_t *e = r + len;

		e[1] = 56;
		e[2] = 2; /* table */
		of_put64(e + 24, 0x7076706400000000ULL | (i == 0 ? 1 : 9));
		of_put64(e + 32, i == 0 ? f->drops : 77);
		e[49] = 1; /* OFPMT_OXM, empty */
		e[51] = 4;
	}
	r[2] = (uint8_t)(len >> 8);
	r[3] = (uint8_t)len;
	send(fd, r, len, MSG_NOSIGNAL);
}

static void *
of_thread(void *arg)
{
	struct of_fake *f = arg;
	static const uint8_t hello[8] = {5, 0, 0, 8, 0, 0, 0, 1};
	static const uint8_t error[12] = {5, 1, 0, 12, 0, 0, 0, 2, 0, 1, 0, 2};
	static const uint8_t garbage[24] = {5, 19, 0, 24, 0, 0,	 0, 2, 0, 4, 0, 0,
					    0, 0,  0, 0,  0, 40, 0, 0, 0, 0, 0, 1};

	while (!f->stop) {
		int fd = drv_accept(f->lfd);
		uint8_t req[64];
		size_t got = 0, want = 16;

		if (fd < 0)
			continue;
		/* hello (8) + a multipart request, its length in its header */
		while (got < want) {
			ssize_t n = recv(fd, req + got, want - got, 0);

			if (n <= 0)
				break;
			got += (size_t)n;
			if (got >= 16)
				want = 8 + (size_t)(req[10] << 8 | req[11]);
			if (want > sizeof(req))
				break;
		}
		send(fd, hello, sizeof(hello), MSG_NOSIGNAL);
		if (got == want && req[8 + 1] == 18 && req[8 + 9] == 1) {
			of_flow_reply(f, fd);
		} else if (got == want && req[8 + 1] == 18) {
			if (f->mode == OF_OK)
				send(fd, f->reply, f->reply_len, MSG_NOSIGNAL);
			else if (f->mode == OF_ERROR)
				send(fd, error, sizeof(error), MSG_NOSIGNAL);
			else if (f->mode == OF_GARBAGE)
				send(fd, garbage, sizeof(garbage), MSG_NOSIGNAL);
		}
		close(fd);
	}
	return NULL;
}

static void
of_start(struct of_fake *f, enum of_mode mode, const char *dir)
{
	memset(f, 0, sizeof(*f));
	f->mode = mode;
	f->reply = drv_load("ofp14-port-stats-reply.bin", &f->reply_len);
	snprintf(f->path, sizeof(f->path), "%s/br-pvp.mgmt", dir);
	f->lfd = drv_listen_unix(f->path, SOCK_STREAM, "fake OpenFlow");
	pthread_create(&f->thr, NULL, of_thread, f);
}

static void
of_stop(struct of_fake *f)
{
	f->stop = true;
	pthread_join(f->thr, NULL);
	close(f->lfd);
	unlink(f->path);
	free(f->reply);
}

static void
write_ofctl(const char *dir)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/ovs-ofctl", dir);
	write_script(p, "#!/bin/sh\n"
			"while [ $# -gt 0 ]; do\n"
			"  case \"$1\" in -O) shift 2 ;; -*) shift ;; *) break ;; esac\n"
			"done\n"
			"[ \"$1\" = dump-ports ] && exec cat \"$FAKE_DUMP\"\n"
			"echo \"$*\" >> \"$FAKE_DIR/ofctl.args\"\n"
			"case \"$1\" in\n"
			"del-flows) : > \"$FAKE_DIR/flows\" ;;\n"
			"add-flows) cat >> \"$FAKE_DIR/flows\" ;;\n"
			"dump-aggregate) n=$(wc -l < \"$FAKE_DIR/flows\")\n"
			"  echo \"NXST_AGGREGATE reply (xid=0x4): packet_count=0 byte_count=0 "
			"flow_count=$((n + ${FAKE_EXTRA:-0}))\" ;;\n"
			"*) echo \"fake ovs-ofctl: unknown $1\" >&2; exit 1 ;;\n"
			"esac\n");
}

static void
test_tools(const char *dir)
{
	struct fake_ovsdb f;
	struct coord_hop hop;
	char err[256], p[512], extra[512];
	const char *text;
	json_t *ctx;
	int rc;

	unit_check_case = "install_flows";
	write_ofctl(dir);
	snprintf(p, sizeof(p), "%s/ovs-appctl", dir);
	write_script(p, "#!/bin/sh\n"
			"echo \"$*\" >> \"$FAKE_DIR/appctl.args\"\n"
			"case \"$3\" in\n"
			"dpif-netdev/pmd-stats-show) cat \"$FAKE_PMD\" ;;\n"
			"dpif-netdev/pmd-stats-clear) ;;\n"
			"*) echo \"ovs-appctl: no such command\" >&2; exit 2 ;;\n"
			"esac\n");
	setenv("FAKE_DIR", dir, 1);
	snprintf(p, sizeof(p), "%s/test/unit/drivers/data/ofctl-dump-ports-of14.txt",
		 getenv("PVP_SOURCE_DIR"));
	setenv("FAKE_DUMP", p, 1);
	snprintf(p, sizeof(p), "%s/test/unit/drivers/data/pmd-stats-show.txt",
		 getenv("PVP_SOURCE_DIR"));
	setenv("FAKE_PMD", p, 1);
	snprintf(p, sizeof(p), "%s:%s", dir, getenv("PATH"));
	setenv("PATH", p, 1);

	fake_start(&f, FAKE_OK, dir);
	snprintf(extra, sizeof(extra), ", \"rundir\": \"%s\", \"bridge\": \"br-pvp\"", dir);
	rc = open_hop(&hop, f.path, "[\"phy0\", \"vhost0\"]", extra, err, sizeof(err), 10000);
	CHECK(rc == 0, "open: %s", err);
	if (rc != 0) {
		fake_stop(&f);
		return;
	}

	unit_check_case = "snapshot openflow (ovs-ofctl)";
	{
		struct coord_hop hop2;
		struct coord_snap s;

		/* No rundir: the bridge is named, so ovs-ofctl is run. The fake
		 * ovsdb-server serves one connection at a time. */
		hop_driver_ovs.close(&hop);
		rc = open_hop(&hop2, f.path, "[\"phy0\", \"vhost0\"]", ", \"bridge\": \"br-pvp\"",
			      err, sizeof(err), 10000);
		CHECK(rc == 0, "open: %s", err);
		if (rc != 0) {
			fake_stop(&f);
			return;
		}
		rc = hop_driver_ovs.snapshot(&hop2, &s, err, sizeof(err));
		CHECK(rc == 0, "snapshot: %d %s", rc, err);
		check_of_counters(&s);

		snprintf(p, sizeof(p), "%s/garbage.txt", dir);
		write_script(p, "OFPST_PORT reply (OF1.4) (xid=0x2): 1 ports\n"
				"  port  1: rx pkts=many, bytes=1\n");
		setenv("FAKE_DUMP", p, 1);
		rc = hop_driver_ovs.snapshot(&hop2, &s, err, sizeof(err));
		CHECK(rc == -EPROTO &&
			      strstr(err, "unexpected ovs-ofctl dump-ports output") != NULL,
		      "garbage: %d %s", rc, err);
		write_script(p, "OFPST_PORT reply (OF1.4) (xid=0x2): 1 ports\n"
				"  port  1: rx pkts=1, bytes=1, drop=0\n"
				"           tx pkts=1, bytes=1, drop=0\n");
		rc = hop_driver_ovs.snapshot(&hop2, &s, err, sizeof(err));
		CHECK(rc == -ENOENT && strstr(err, "vhost0 is not on bridge br-pvp") != NULL,
		      "port gone: %d %s", rc, err);
		snprintf(p, sizeof(p), "%s/test/unit/drivers/data/ofctl-dump-ports-of14.txt",
			 getenv("PVP_SOURCE_DIR"));
		setenv("FAKE_DUMP", p, 1);
		hop_driver_ovs.close(&hop2);
		snprintf(extra, sizeof(extra), ", \"rundir\": \"%s\", \"bridge\": \"br-pvp\"", dir);
		rc = open_hop(&hop, f.path, "[\"phy0\", \"vhost0\"]", extra, err, sizeof(err),
			      10000);
		CHECK(rc == 0, "reopen: %s", err);
	}

	unit_check_case = "snapshot openflow (native)";
	{
		static const struct {
			enum of_mode mode;
			int rc;
			const char *err;
		} bad[] = {
			{OF_ERROR, -EPROTO, "OpenFlow error 1/2"},
			{OF_GARBAGE, -EPROTO, "malformed OpenFlow port stats reply"},
			{OF_CLOSE, -ECONNRESET, "hop unreachable"},
		};
		struct of_fake of;
		struct coord_snap s;
		size_t i;

		/* rundir given: the driver talks to RUNDIR/br-pvp.mgmt itself. */
		of_start(&of, OF_OK, dir);
		rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
		CHECK(rc == 0, "snapshot: %d %s", rc, err);
		check_of_counters(&s);
		/*
		 * A drop-reason rule (a router's neighbour-table miss, cookie
		 * "pvpd", reason 0, phy0's OpenFlow port 1): its packets are
		 * phy0's "no_neighbour" drops on send, after one revalidator
		 * round; a rule for a port of no topology is left out.
		 */
		{
			struct fake_ovsdb ctl;
			const struct coord_reason *nn;

			snprintf(p, sizeof(p), "%s/ovs-vswitchd.ctl", dir);
			fake_start_at(&ctl, FAKE_OK, p);
			of.drops = 1834;
			rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
			CHECK(rc == 0, "snapshot with a drop rule: %d %s", rc, err);
			nn = find_reason(&s.port[0], "no_neighbour");
			CHECK(nn != NULL && nn->value == 1834 && nn->side == COORD_SIDE_TX,
			      "phy0 no_neighbour");
			CHECK_U64(s.port[0].c[PVP_STATS_tx_dropped], 1834);
			CHECK(find_reason(&s.port[1], "no_neighbour") == NULL,
			      "vhost0 no_neighbour");
			CHECK(ctl.waits == 1, "revalidator/wait before reading the rule: %d",
			      ctl.waits);
			fake_stop(&ctl);
			/* No unixctl to wait on: the snapshot says so. */
			rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
			CHECK(rc < 0 && strstr(err, "ovs-vswitchd.ctl") != NULL,
			      "drop rule, no unixctl: %d %s", rc, err);
			of.drops = 0;
		}
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			of.mode = bad[i].mode;
			err[0] = '\0';
			rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
			CHECK(rc == bad[i].rc && strstr(err, bad[i].err) != NULL, "mode %d: %d %s",
			      bad[i].mode, rc, err);
		}
		of_stop(&of);
		rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
		CHECK(rc == -ECONNREFUSED && strncmp(err, "hop unreachable", 15) == 0,
		      "no socket: %d %s", rc, err);
	}
	write_ofctl(dir);

	unit_check_case = "install_flows";
	rc = hop_driver_ovs.install_flows(&hop, "l3", 3, err, sizeof(err));
	CHECK(rc == 0, "l3: %d %s", rc, err);
	snprintf(p, sizeof(p), "%s/flows", dir);
	text = read_text(p);
	CHECK(strcmp(text,
		     "priority=10,ip,in_port=phy0,nw_dst=10.0.0.0,actions=output:vhost0\n"
		     "priority=10,ip,in_port=vhost0,nw_dst=10.0.0.0,actions=output:phy0\n"
		     "priority=10,ip,in_port=phy0,nw_dst=10.0.0.1,actions=output:vhost0\n"
		     "priority=10,ip,in_port=vhost0,nw_dst=10.0.0.1,actions=output:phy0\n"
		     "priority=10,ip,in_port=phy0,nw_dst=10.0.0.2,actions=output:vhost0\n"
		     "priority=10,ip,in_port=vhost0,nw_dst=10.0.0.2,actions=output:phy0\n") == 0,
	      "l3 flows:\n%s", text);
	snprintf(p, sizeof(p), "%s/ofctl.args", dir);
	text = read_text(p);
	snprintf(extra, sizeof(extra),
		 "del-flows unix:%s/br-pvp.mgmt\nadd-flows unix:%s/br-pvp.mgmt -\n"
		 "dump-aggregate unix:%s/br-pvp.mgmt\n",
		 dir, dir, dir);
	CHECK(strcmp(text, extra) == 0, "ovs-ofctl calls:\n%s", text);

	rc = hop_driver_ovs.install_flows(&hop, "l2", 2, err, sizeof(err));
	CHECK(rc == 0, "l2: %s", err);
	snprintf(p, sizeof(p), "%s/flows", dir);
	text = read_text(p);
	CHECK(strstr(text, "in_port=phy0,dl_dst=02:00:00:00:00:01,actions=output:vhost0\n") !=
			      NULL &&
		      strstr(text,
			     "in_port=vhost0,dl_src=02:00:00:00:00:01,actions=output:phy0\n") !=
			      NULL,
	      "l2 flows:\n%s", text);
	rc = hop_driver_ovs.install_flows(&hop, "l4", 1000, err, sizeof(err));
	CHECK(rc == 0, "l4: %s", err);
	CHECK(strstr(read_text(p), "udp,in_port=vhost0,tp_dst=2023,actions=output:phy0\n") != NULL,
	      "l4 last flow");
	rc = hop_driver_ovs.install_flows(&hop, "l4", 70000, err, sizeof(err));
	CHECK(rc == -ERANGE, "l4 overflow: %d %s", rc, err);
	rc = hop_driver_ovs.install_flows(&hop, "normal", 0, err, sizeof(err));
	CHECK(rc == 0, "normal: %s", err);
	CHECK(strcmp(read_text(p), "priority=0,actions=NORMAL\n") == 0, "normal flow");
	rc = hop_driver_ovs.install_flows(&hop, "l7", 1, err, sizeof(err));
	CHECK(rc == -EINVAL && strstr(err, "l7") != NULL, "unknown type: %d %s", rc, err);
	setenv("FAKE_EXTRA", "1", 1);
	rc = hop_driver_ovs.install_flows(&hop, "l3", 5, err, sizeof(err));
	CHECK(rc == -EIO && strstr(err, "11 rules after installing 10") != NULL, "count: %d %s", rc,
	      err);
	unsetenv("FAKE_EXTRA");

	unit_check_case = "context and clear";
	rc = hop_driver_ovs.clear(&hop, err, sizeof(err));
	CHECK(rc == 0, "clear: %s", err);
	ctx = hop_driver_ovs.context(&hop);
	text = json_string_value(json_object_get(ctx, "pmd_stats_show"));
	CHECK(text != NULL && strstr(text, "pmd thread numa_id 0 core_id 1:") != NULL,
	      "pmd_stats_show");
	CHECK(json_integer_value(json_object_get(
		      json_object_get(json_object_get(ctx, "ports"), "vhost0"), "ofport")) == 2,
	      "vhost0 ofport");
	CHECK(json_integer_value(json_object_get(
		      json_object_get(json_object_get(ctx, "ports"), "phy0"), "ovs_tx_retries")) ==
			      0 &&
		      json_object_get(json_object_get(json_object_get(ctx, "ports"), "phy0"),
				      "ovs_tx_retries") != NULL,
	      "phy0 ovs_tx_retries");
	/* What makes runs comparable: versions, other_config, rxq placement. */
	CHECK(json_is_object(json_object_get(ctx, "vswitch")), "no vswitch info");
	json_decref(ctx);
	snprintf(p, sizeof(p), "%s/appctl.args", dir);
	snprintf(extra, sizeof(extra),
		 "-t %s/ovs-vswitchd.ctl dpif-netdev/pmd-stats-clear\n"
		 "-t %s/ovs-vswitchd.ctl dpif-netdev/pmd-stats-show\n"
		 "-t %s/ovs-vswitchd.ctl version\n"
		 "-t %s/ovs-vswitchd.ctl dpif-netdev/pmd-rxq-show\n",
		 dir, dir, dir, dir);
	CHECK(strcmp(read_text(p), extra) == 0, "ovs-appctl calls:\n%s", read_text(p));
	hop_driver_ovs.close(&hop);
	fake_stop(&f);
}

/*
 * install_flows with a "forward" member: the 2-port PVP (four pairs, the
 * ways back from the macswap guest matching dl_src), a pair of a 5tswap
 * guest (l3 and l4 from the source fields), a hop of four ports without
 * "forward" refused, and normal refused where one port is in two pairs
 * (PVVP through one tester port: NORMAL would flood around the loop).
 * Runs after test_tools (fake ovs-ofctl in PATH, FAKE_DIR set).
 */
static void
test_forward(const char *dir)
{
	static const char *const names[] = {"phy1", "vhost1", "vhost2", "vhost3"};
	const char *fwd2 =
		", \"bridge\": \"br-pvp\", \"forward\": [{\"in\": \"phy0\", \"out\": \"vhost0\"}, "
		"{\"in\": \"vhost1\", \"out\": \"phy1\", \"swapped\": [\"l2\"]}, {\"in\": "
		"\"phy1\", "
		"\"out\": \"vhost1\"}, {\"in\": \"vhost0\", \"out\": \"phy0\", \"swapped\": "
		"[\"l2\", "
		"\"l3\", \"l4\"]}]";
	const char *pvvp =
		", \"bridge\": \"br-pvp\", \"forward\": [{\"in\": \"phy0\", \"out\": \"vhost0\"}, "
		"{\"in\": \"vhost1\", \"out\": \"vhost2\", \"swapped\": [\"l2\"]}, {\"in\": "
		"\"vhost3\", \"out\": \"phy0\"}]";
	struct fake_ovsdb f;
	struct coord_hop hop;
	char err[256], p[512];
	const char *text;
	json_t *row, *vhost0 = NULL;
	size_t i;
	int rc;

	unit_check_case = "install_flows forward";
	fake_start(&f, FAKE_OK, dir);
	/* More Interface rows: copies of vhost0's under other names. */
	json_array_foreach(f.rows, i, row) {
		if (strcmp(json_string_value(json_object_get(row, "name")), "vhost0") == 0)
			vhost0 = row;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && vhost0 != NULL; i++) {
		json_t *r = json_deep_copy(vhost0);

		json_object_set_new(r, "name", json_string(names[i]));
		json_array_append_new(f.rows, r);
	}
	snprintf(p, sizeof(p), "%s/flows", dir);

	rc = open_hop(&hop, f.path, "[\"phy0\", \"phy1\", \"vhost0\", \"vhost1\"]", fwd2, err,
		      sizeof(err), 10000);
	CHECK(rc == 0, "open 2-port: %s", err);
	if (rc == 0) {
		rc = hop_driver_ovs.install_flows(&hop, "l2", 2, err, sizeof(err));
		CHECK(rc == 0, "l2: %d %s", rc, err);
		text = read_text(p);
		CHECK(strcmp(text, "priority=10,in_port=phy0,dl_dst=02:00:00:00:00:00,actions="
				   "output:vhost0\n"
				   "priority=10,in_port=vhost1,dl_src=02:00:00:00:00:00,actions="
				   "output:phy1\n"
				   "priority=10,in_port=phy1,dl_dst=02:00:00:00:00:00,actions="
				   "output:vhost1\n"
				   "priority=10,in_port=vhost0,dl_src=02:00:00:00:00:00,actions="
				   "output:phy0\n"
				   "priority=10,in_port=phy0,dl_dst=02:00:00:00:00:01,actions="
				   "output:vhost0\n"
				   "priority=10,in_port=vhost1,dl_src=02:00:00:00:00:01,actions="
				   "output:phy1\n"
				   "priority=10,in_port=phy1,dl_dst=02:00:00:00:00:01,actions="
				   "output:vhost1\n"
				   "priority=10,in_port=vhost0,dl_src=02:00:00:00:00:01,actions="
				   "output:phy0\n") == 0,
		      "2-port l2 flows:\n%s", text);
		rc = hop_driver_ovs.install_flows(&hop, "l3", 1, err, sizeof(err));
		CHECK(rc == 0, "l3: %d %s", rc, err);
		text = read_text(p);
		CHECK(strstr(text, "ip,in_port=vhost1,nw_dst=10.0.0.0,actions=output:phy1\n") !=
				      NULL &&
			      strstr(text,
				     "ip,in_port=vhost0,nw_src=10.0.0.0,actions=output:phy0\n") !=
				      NULL,
		      "l3 flows (5tswap pair from nw_src):\n%s", text);
		rc = hop_driver_ovs.install_flows(&hop, "l4", 1000, err, sizeof(err));
		CHECK(rc == 0, "l4: %d %s", rc, err);
		text = read_text(p);
		CHECK(strstr(text, "udp,in_port=vhost0,tp_src=2023,actions=output:phy0\n") != NULL,
		      "l4 last flow back through the 5tswap pair");
		rc = hop_driver_ovs.install_flows(&hop, "l4", 600000, err, sizeof(err));
		CHECK(rc == -EINVAL &&
			      strstr(err, "600000 flows on 4 port pairs are 2400000 rules") != NULL,
		      "too many rules: %d %s", rc, err);
		rc = hop_driver_ovs.install_flows(&hop, "normal", 0, err, sizeof(err));
		CHECK(rc == 0, "normal on two segments: %d %s", rc, err);
		hop_driver_ovs.close(&hop);
	}

	rc = open_hop(&hop, f.path, "[\"phy0\", \"phy1\", \"vhost0\", \"vhost1\"]",
		      ", \"bridge\": \"br-pvp\"", err, sizeof(err), 10000);
	CHECK(rc == 0, "open 4 ports without forward: %s", err);
	if (rc == 0) {
		rc = hop_driver_ovs.install_flows(&hop, "l3", 4, err, sizeof(err));
		CHECK(rc == -EINVAL && strstr(err, "l3 rules on 4 ports need \"forward\"") != NULL,
		      "no forward: %d %s", rc, err);
		hop_driver_ovs.close(&hop);
	}

	rc = open_hop(&hop, f.path, "[\"phy0\", \"vhost0\", \"vhost1\", \"vhost2\", \"vhost3\"]",
		      pvvp, err, sizeof(err), 10000);
	CHECK(rc == 0, "open PVVP: %s", err);
	if (rc == 0) {
		rc = hop_driver_ovs.install_flows(&hop, "l2", 3, err, sizeof(err));
		CHECK(rc == 0, "PVVP l2: %d %s", rc, err);
		text = read_text(p);
		CHECK(strstr(text,
			     "in_port=vhost1,dl_src=02:00:00:00:00:02,actions=output:vhost2\n") !=
				      NULL &&
			      strstr(text, "in_port=vhost3,dl_dst=02:00:00:00:00:02,actions=output:"
					   "phy0\n") != NULL,
		      "PVVP l2 flows:\n%s", text);
		rc = hop_driver_ovs.install_flows(&hop, "normal", 0, err, sizeof(err));
		CHECK(rc == -EINVAL &&
			      strcmp(err, "ovs: normal rules cannot keep phy0 -> vhost0 apart from "
					  "vhost3 -> phy0 (NORMAL floods to every port of a "
					  "segment): use l2, l3 or l4") == 0,
		      "PVVP normal: %d %s", rc, err);
		hop_driver_ovs.close(&hop);
	}
	fake_stop(&f);
}

/* A dump-ports reply of a bridge whose ports are @p age s old (NULL: no age). */
static void
write_dump(const char *path, unsigned int pkts, const char *age)
{
	FILE *f = fopen(path, "w");
	int port;

	fprintf(f, "OFPST_PORT reply (OF1.4) (xid=0x2): 2 ports\n");
	for (port = 1; port <= 2; port++) {
		fprintf(f,
			"  port  %d: rx pkts=%u, bytes=%u, drop=0, errs=?, frame=?, over=?, crc=?\n"
			"           tx pkts=%u, bytes=%u, drop=0, errs=?, coll=?\n",
			port, pkts, pkts * 64, pkts, pkts * 64);
		if (age != NULL)
			fprintf(f, "           duration=%ss\n", age);
	}
	fclose(f);
}

/*
 * ovs-vswitchd restarted between two snapshots: its ports are young
 * again (or a counter went back). The snapshot fails with a line that
 * says so and what became of the rules; pvpkit's own rules are put back
 * by the next clear(), others make every later snapshot fail.
 */
static void
test_restart(const char *dir)
{
	struct fake_ovsdb f;
	struct coord_hop hop;
	struct coord_snap s;
	char err[512], p[512], extra[512], dump[512], young[512], back[512];
	const char *text;
	json_t *ctx;
	int rc;

	unit_check_case = "restart";
	write_ofctl(dir);
	snprintf(dump, sizeof(dump), "%s/test/unit/drivers/data/ofctl-dump-ports-of14.txt",
		 getenv("PVP_SOURCE_DIR"));
	snprintf(young, sizeof(young), "%s/young.txt", dir);
	write_dump(young, 10, "2.000");
	snprintf(back, sizeof(back), "%s/back.txt", dir);
	write_dump(back, 5, "1000.000");
	fake_start(&f, FAKE_OK, dir);
	snprintf(extra, sizeof(extra),
		 ", \"bridge\": \"br-pvp\", \"vswitchd_ctl\": \"%s/ovs-vswitchd.ctl\"", dir);
	rc = open_hop(&hop, f.path, "[\"phy0\", \"vhost0\"]", extra, err, sizeof(err), 10000);
	CHECK(rc == 0, "open: %s", err);
	if (rc != 0) {
		fake_stop(&f);
		return;
	}
	rc = hop_driver_ovs.install_flows(&hop, "l2", 2, err, sizeof(err));
	CHECK(rc == 0, "l2: %s", err);
	setenv("FAKE_DUMP", dump, 1);
	rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
	CHECK(rc == 0, "before: %d %s", rc, err);
	rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
	CHECK(rc == 0, "same daemon: %d %s", rc, err);

	/* Ports 2 s old where they were 101 s old: a new daemon. */
	setenv("FAKE_DUMP", young, 1);
	rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
	CHECK(rc == -ESTALE &&
		      strstr(err, "ovs-vswitchd restarted (port phy0 was created again 2.0 s "
				  "ago)") == err &&
		      strstr(err, "trial not valid") != NULL &&
		      strstr(err, "the l2 rules pvpkit installed on br-pvp are gone") != NULL,
	      "young ports: %d %s", rc, err);
	/* The next trial: clear() installs the rules again and says so. */
	snprintf(p, sizeof(p), "%s/ofctl.args", dir);
	unlink(p);
	rc = hop_driver_ovs.clear(&hop, err, sizeof(err));
	CHECK(rc == 0, "clear after restart: %d %s", rc, err);
	text = read_text(p);
	CHECK(strstr(text, "del-flows br-pvp\nadd-flows br-pvp -\n") != NULL,
	      "rules installed again:\n%s", text);
	snprintf(p, sizeof(p), "%s/flows", dir);
	CHECK(strstr(read_text(p), "dl_dst=02:00:00:00:00:01,actions=output:vhost0") != NULL,
	      "the same l2 rules:\n%s", read_text(p));
	rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
	CHECK(rc == 0, "baseline after recovery: %d %s", rc, err);
	ctx = hop_driver_ovs.context(&hop);
	text = json_string_value(json_object_get(ctx, "restart"));
	CHECK(text != NULL && strstr(text, "installed its l2 rules for 2 flows again") != NULL,
	      "context says so: %s", text != NULL ? text : "(none)");
	json_decref(ctx);

	/* Counters back on ports no younger than before: a vhost peer went
	 * away and OVS reset them; not a restart. */
	setenv("FAKE_DUMP", back, 1);
	rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
	CHECK(rc == 0, "counters reset, same daemon: %d %s", rc, err);
	/* Where the age is unknown, counters back are the only sign. */
	write_dump(back, 3, NULL);
	rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
	CHECK(rc == -ESTALE &&
		      strstr(err, "ovs-vswitchd restarted or port phy0 was reset (rx_packets "
				  "went back from 5 to 3)") == err,
	      "counters back, age unknown: %d %s", rc, err);
	hop_driver_ovs.close(&hop);

	/* Rules pvpkit did not install: gone for good, every trial fails.
	 * open() reads the ports' age already: a restart between open and
	 * the first trial's baseline is seen too. */
	setenv("FAKE_DUMP", dump, 1);
	rc = open_hop(&hop, f.path, "[\"phy0\", \"vhost0\"]", extra, err, sizeof(err), 10000);
	CHECK(rc == 0, "reopen: %s", err);
	setenv("FAKE_DUMP", young, 1);
	rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
	CHECK(rc == -ESTALE && strstr(err, "pvpkit did not install them") != NULL,
	      "restart before the first snapshot: %d %s", rc, err);
	rc = hop_driver_ovs.clear(&hop, err, sizeof(err));
	CHECK(rc == 0, "clear: %d %s", rc, err);
	rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
	CHECK(rc == -ESTALE && strstr(err, "ovs-vswitchd restarted earlier") == err,
	      "later trials fail: %d %s", rc, err);
	hop_driver_ovs.close(&hop);
	fake_stop(&f);
}

/*
 * One reading of ovs_restart_check()'s inputs: the request @p dt_s after
 * the last reading's end, by this host's clock *now_ns, the reply 20 ms
 * later; both ports @p age s old (where @p known) with @p pkts packets.
 */
static int
restart_read(struct ovs_hop *h, uint64_t *now_ns, double dt_s, bool known, double age,
	     uint64_t pkts, char *err, size_t err_len)
{
	struct coord_snap s;
	unsigned int i;

	memset(&s, 0, sizeof(s));
	*now_ns += (uint64_t)(dt_s * 1e9);
	s.t_ns = *now_ns;
	s.nb_ports = h->hop->nb_ports;
	for (i = 0; i < h->hop->nb_ports; i++) {
		s.port[i].c[PVP_STATS_rx_packets] = pkts;
		h->age_known[i] = known;
		h->duration[i] = age;
	}
	*now_ns += 20000000;
	h->read_end_ns = *now_ns;
	err[0] = '\0';
	return ovs_restart_check(h, &s, err, err_len);
}

/*
 * The restart logic whatever this host's CLOCK_MONOTONIC says: a
 * coordinator booted 30 s ago driving an OVS whose ports are three weeks
 * old, one up for 30 years (a time namespace moved forward) driving a new
 * OVS. Ages must never be subtracted from the local clock: a port older
 * than this host's uptime is still a port whose age is known.
 */
static void
test_restart_clock(void)
{
	static const struct {
		uint64_t boot_s; /* this host's clock at the first reading */
		double age;	 /* the ports' age then */
	} clk[] = {
		{30, 21 * 86400.0},
		{0, 1000.0},
		{30ull * 365 * 86400, 2.5},
		{30ull * 365 * 86400, 21 * 86400.0},
	};
	const struct coord_hop two = {.nb_ports = 2, .ports = {"phy0", "vhost0"}};
	const struct coord_hop one = {.nb_ports = 1, .ports = {"phy0"}};
	char err[512], name[64];
	unsigned int i;
	int rc;

	for (i = 0; i < sizeof(clk) / sizeof(clk[0]); i++) {
		struct ovs_hop *h = calloc(1, sizeof(*h));
		uint64_t now = clk[i].boot_s * 1000000000ull;
		double age = clk[i].age;

		snprintf(name, sizeof(name), "restart, clock at %llu s, ports %.1f s old",
			 (unsigned long long)clk[i].boot_s, age);
		unit_check_case = name;
		h->hop = &two;
		snprintf(h->bridge, sizeof(h->bridge), "br-pvp");
		rc = restart_read(h, &now, 0, true, age, 100, err, sizeof(err));
		CHECK(rc == 0, "first reading: %d %s", rc, err);
		/* The ports aged as long as the clock ran (the reply took 20 ms). */
		age += 10.02;
		rc = restart_read(h, &now, 10, true, age, 200, err, sizeof(err));
		CHECK(rc == 0, "same daemon: %d %s", rc, err);
		/* A vhost peer went away: counters reset, ages go on. */
		age += 5.02;
		rc = restart_read(h, &now, 5, true, age, 7, err, sizeof(err));
		CHECK(rc == 0, "counters reset, same daemon: %d %s", rc, err);
		rc = restart_read(h, &now, 5, true, 1.5, 9, err, sizeof(err));
		CHECK(rc == -ESTALE &&
			      strstr(err, "ovs-vswitchd restarted (port phy0 was created again "
					  "1.5 s ago)") == err,
		      "young ports: %d %s", rc, err);
		free(h);

		/* No age (OVSDB counters): counters going back are the sign. */
		h = calloc(1, sizeof(*h));
		now = clk[i].boot_s * 1000000000ull;
		h->hop = &one;
		rc = restart_read(h, &now, 0, false, 0, 100, err, sizeof(err));
		CHECK(rc == 0, "first reading, no age: %d %s", rc, err);
		rc = restart_read(h, &now, 1, false, 0, 200, err, sizeof(err));
		CHECK(rc == 0, "no age, counters on: %d %s", rc, err);
		rc = restart_read(h, &now, 1, false, 0, 3, err, sizeof(err));
		CHECK(rc == -ESTALE && strstr(err, "ovs-vswitchd restarted or port phy0 was reset "
						   "(rx_packets went back from 200 to 3)") == err,
		      "no age, counters back: %d %s", rc, err);
		free(h);
	}
}

/*
 * A port stats reply whose ages are UINT32_MAX (OVS's "unknown", which
 * ovs-ofctl prints as no "duration=") is not a port 136 years old:
 * counters going back on it are a restart.
 */
static void
test_restart_of_unknown_age(const char *dir)
{
	struct fake_ovsdb f;
	struct of_fake of;
	struct coord_hop hop;
	struct coord_snap s;
	char err[512], extra[512];
	size_t off, elen;
	int rc;

	unit_check_case = "restart, OpenFlow age unknown";
	fake_start(&f, FAKE_OK, dir);
	of_start(&of, OF_OK, dir);
	snprintf(extra, sizeof(extra), ", \"rundir\": \"%s\", \"bridge\": \"br-pvp\"", dir);
	rc = open_hop(&hop, f.path, "[\"phy0\", \"vhost0\"]", extra, err, sizeof(err), 10000);
	CHECK(rc == 0, "open: %s", err);
	if (rc != 0) {
		of_stop(&of);
		fake_stop(&f);
		return;
	}
	rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
	CHECK(rc == 0, "baseline: %d %s", rc, err);
	/* After the 16 B of headers, entries of length elen: duration_sec at
	 * 8, rx_packets at 16. The fake thread reads the reply only when a
	 * request comes. */
	for (off = 16; off + 24 <= of.reply_len; off += elen) {
		uint8_t *e = (uint8_t *)of.reply + off;

		elen = (size_t)e[0] << 8 | e[1];
		if (elen < 80)
			break;
		memset(e + 8, 0xff, 4);
		memset(e + 16, 0, 8);
	}
	rc = hop_driver_ovs.snapshot(&hop, &s, err, sizeof(err));
	CHECK(rc == -ESTALE &&
		      strstr(err, "ovs-vswitchd restarted or port phy0 was reset (rx_packets "
				  "went back from 9051 to 0)") == err,
	      "counters back, age unknown: %d %s", rc, err);
	hop_driver_ovs.close(&hop);
	of_stop(&of);
	fake_stop(&f);
}

static void
test_cmd(void)
{
	const struct ovs_ssh ssh = {
		.host = "dut1", .user = "pvp", .key = "/k/id_ed25519", .port = 2222};
	const char *argv[] = {"ovs-ofctl", "add-flows", "unix:/run/it's here/br.mgmt", "-", NULL};
	static const char *const want[] = {
		"ssh",	"-o",	       "BatchMode=yes", "-p",
		"2222", "-i",	       "/k/id_ed25519", "pvp@dut1",
		"--",	"'ovs-ofctl'", "'add-flows'",	"'unix:/run/it'\\''s here/br.mgmt'",
		"'-'",	NULL};
	const char *cat[] = {"cat", NULL}, *slp[] = {"sleep", "5", NULL};
	const char *fls[] = {"false", NULL}, *none[] = {"/nonexistent/ovs-ofctl", NULL};
	struct ovs_out out;
	char err[256], **v;
	int i, rc;

	unit_check_case = "ssh argv";
	v = ovs_cmd_argv(&ssh, argv);
	for (i = 0; want[i] != NULL; i++)
		CHECK(v[i] != NULL && strcmp(v[i], want[i]) == 0, "argv[%d] = %s, want %s", i,
		      v[i] != NULL ? v[i] : "(null)", want[i]);
	CHECK(v[i] == NULL, "argv longer than expected");
	ovs_argv_free(v);
	v = ovs_cmd_argv(NULL, argv);
	CHECK(strcmp(v[2], argv[2]) == 0 && v[4] == NULL, "local argv is unchanged");
	ovs_argv_free(v);

	unit_check_case = "run";
	rc = ovs_cmd_run(NULL, cat, "hello\nworld\n", 12, 2000, &out, err, sizeof(err));
	CHECK(rc == 0 && out.status == 0 && strcmp(out.out, "hello\nworld\n") == 0, "cat: %d %s",
	      rc, err);
	free(out.out);
	rc = ovs_cmd_run(NULL, fls, NULL, 0, 2000, &out, err, sizeof(err));
	CHECK(rc == 0 && out.status == 1, "false: %d %d", rc, out.status);
	free(out.out);
	rc = ovs_cmd_run(NULL, none, NULL, 0, 2000, &out, err, sizeof(err));
	CHECK(rc == 0 && out.status == 127 && strstr(out.err, "No such file") != NULL,
	      "missing tool: %d %d %s", rc, out.status, out.err);
	free(out.out);
	rc = ovs_cmd_run(NULL, slp, NULL, 0, 200, &out, err, sizeof(err));
	CHECK(rc == -ETIMEDOUT && strstr(err, "200 ms") != NULL, "timeout: %d %s", rc, err);
}

int
main(void)
{
	char dir[] = "/tmp/pvp-ovsdrv.XXXXXX";
	char cmd[300];

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_snapshot_ok(dir);
	test_snapshot_errors(dir);
	test_conf_errors(dir);
	test_cmd();
	test_tools(dir);
	test_forward(dir);
	test_restart(dir);
	test_restart_clock();
	test_restart_of_unknown_age(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	if (unit_check_failures != 0) {
		fprintf(stderr, "%d check(s) failed\n", unit_check_failures);
		return 1;
	}
	printf("ovs driver: all checks passed\n");
	return 0;
}
