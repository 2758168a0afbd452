/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The telemetry hop driver against a fake DPDK telemetry server: a thread
 * on a SOCK_SEQPACKET socket that greets and answers like DPDK 22.11 with
 * replies recorded from dpdk-testpmd (data/telemetry-*.json), or breaks
 * the protocol (malformed JSON, a missing counter, a bad greeting, a
 * closed socket, silence). The same over TCP ("tcp:HOST:PORT", a relay
 * as the testbed's VM guests have), each message sent in two pieces.
 */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <jansson.h>

#include "drv_test.h"
#include "telemetry_driver.h"

enum tfake_mode {
	TFAKE_OK,	    /* recorded replies */
	TFAKE_MALFORMED,    /* invalid JSON for /ethdev/stats */
	TFAKE_MISSING,	    /* /ethdev/stats without "imissed" */
	TFAKE_BAD_GREETING, /* not a telemetry greeting */
	TFAKE_CLOSE,	    /* closes after the greeting, on the first command */
	TFAKE_SILENT,	    /* never answers commands */
};

struct tfake {
	char path[108];
	bool tcp; /* a stream relay: each message in two pieces */
	int lfd;
	pthread_t thr;
	volatile bool stop;
	enum tfake_mode mode;
	char *greeting, *stats0, *xstats0, *stats7;
	int commands;
};

/* One message; over TCP in two pieces 20 ms apart, as a stream may bring it. */
static void
tfake_send(struct tfake *f, int fd, const char *m)
{
	size_t len = strlen(m), half = f->tcp ? len / 2 : len;

	send(fd, m, half, MSG_NOSIGNAL);
	if (half < len) {
		usleep(20000);
		send(fd, m + half, len - half, MSG_NOSIGNAL);
	}
}

static void
tfake_conn(struct tfake *f, int fd)
{
	char buf[256];
	const char *r;

	tfake_send(f, fd, f->greeting);
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		ssize_t n;

		if (poll(&p, 1, 100) == 0) {
			if (f->stop)
				return;
			continue;
		}
		n = recv(fd, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			return;
		buf[n] = '\0';
		f->commands++;
		if (f->mode == TFAKE_CLOSE)
			return;
		if (f->mode == TFAKE_SILENT)
			continue;
		if (strcmp(buf, "/ethdev/stats,0") == 0) {
			if (f->mode == TFAKE_MALFORMED)
				r = "{\"/ethdev/stats\":{\"ipackets\":195904,\"opackets\":";
			else if (f->mode == TFAKE_MISSING)
				r = "{\"/ethdev/"
				    "stats\":{\"ipackets\":1,\"opackets\":1,\"ibytes\":64,"
				    "\"obytes\":64,\"ierrors\":0,\"oerrors\":0,\"rx_nombuf\":0}}";
			else
				r = f->stats0;
		} else if (strcmp(buf, "/ethdev/xstats,0") == 0) {
			r = f->xstats0;
		} else if (strncmp(buf, "/ethdev/stats,", 14) == 0) {
			r = f->stats7;
		} else {
			r = "{\"/unknown\":null}";
		}
		tfake_send(f, fd, r);
	}
}

static void *
tfake_thread(void *arg)
{
	struct tfake *f = arg;

	while (!f->stop) {
		int fd = drv_accept(f->lfd);

		if (fd < 0)
			continue;
		tfake_conn(f, fd);
		close(fd);
	}
	return NULL;
}

static void
tfake_start(struct tfake *f, enum tfake_mode mode, const char *dir, bool tcp)
{
	char *nl;

	memset(f, 0, sizeof(*f));
	f->mode = mode;
	f->tcp = tcp;
	f->greeting = mode == TFAKE_BAD_GREETING ? strdup("{\"hello\":1}")
						 : drv_load("telemetry-greeting.json", NULL);
	f->stats0 = drv_load("telemetry-ethdev-stats-0.json", NULL);
	f->xstats0 = drv_load("telemetry-ethdev-xstats-0.json", NULL);
	f->stats7 = drv_load("telemetry-ethdev-stats-7.json", NULL);
	/* The files end with a newline; DPDK's messages do not. */
	for (char **s = &f->greeting; s <= &f->stats7; s++) {
		nl = strchr(*s, '\n');
		if (nl != NULL)
			*nl = '\0';
	}
	if (tcp) {
		struct sockaddr_in sin = {.sin_family = AF_INET,
					  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
		socklen_t sl = sizeof(sin);

		f->lfd = socket(AF_INET, SOCK_STREAM, 0);
		if (f->lfd < 0 || bind(f->lfd, (struct sockaddr *)&sin, sizeof(sin)) < 0 ||
		    listen(f->lfd, 4) < 0 ||
		    getsockname(f->lfd, (struct sockaddr *)&sin, &sl) < 0) {
			perror("fake telemetry relay");
			exit(1);
		}
		snprintf(f->path, sizeof(f->path), "tcp:127.0.0.1:%u", ntohs(sin.sin_port));
	} else {
		snprintf(f->path, sizeof(f->path), "%s/dpdk_telemetry.v2", dir);
		f->lfd = drv_listen_unix(f->path, SOCK_SEQPACKET, "fake telemetry");
	}
	pthread_create(&f->thr, NULL, tfake_thread, f);
}

static void
tfake_stop(struct tfake *f)
{
	f->stop = true;
	pthread_join(f->thr, NULL);
	close(f->lfd);
	if (!f->tcp)
		unlink(f->path);
	free(f->greeting);
	free(f->stats0);
	free(f->xstats0);
	free(f->stats7);
}

static int
open_hop(struct coord_hop *hop, const char *conf_text, char *err, size_t err_len)
{
	json_t *conf = json_loads(conf_text, 0, NULL);
	int rc;

	memset(hop, 0, sizeof(*hop));
	snprintf(hop->name, sizeof(hop->name), "guest");
	hop->driver = &hop_driver_telemetry;
	err[0] = '\0';
	rc = coord_hop_ports(hop, json_object_get(conf, "ports"), NULL, err, err_len);
	if (rc == 0)
		rc = hop_driver_telemetry.open(hop, conf, err, err_len);
	json_decref(conf);
	return rc;
}

static void
test_ok(const char *dir, bool tcp)
{
	struct tfake f;
	struct coord_hop hop;
	struct coord_snap s;
	char conf[512], err[256];
	json_t *ctx;
	int rc;

	unit_check_case = tcp ? "snapshot ok, tcp relay" : "snapshot ok";
	tfake_start(&f, TFAKE_OK, dir, tcp);
	snprintf(conf, sizeof(conf), "{\"telemetry\": \"%s\", \"ports\": [\"0\"]}", f.path);
	rc = open_hop(&hop, conf, err, sizeof(err));
	CHECK(rc == 0, "open: %d %s", rc, err);
	if (rc == 0) {
		memset(&s, 0xff, sizeof(s));
		rc = hop_driver_telemetry.snapshot(&hop, &s, err, sizeof(err));
		CHECK(rc == 0, "snapshot: %d %s", rc, err);
		CHECK_U64(s.nb_ports, 1);
		CHECK(strcmp(s.port[0].name, "0") == 0, "name %s", s.port[0].name);
		CHECK_U64(s.port[0].c[PVP_STATS_rx_packets], 195904);
		CHECK_U64(s.port[0].c[PVP_STATS_tx_packets], 193696);
		CHECK_U64(s.port[0].c[PVP_STATS_rx_bytes], 12537856);
		CHECK_U64(s.port[0].c[PVP_STATS_tx_bytes], 12396544);
		CHECK_U64(s.port[0].c[PVP_STATS_rx_dropped], 0);
		CHECK_U64(s.port[0].c[PVP_STATS_tx_dropped], 0);
		CHECK_U64(s.port[0].c[PVP_STATS_rx_errors], 0);
		CHECK_U64(s.port[0].c[PVP_STATS_tx_errors], 0);
		/* imissed and rx_nombuf; virtio has no other drop xstat. */
		CHECK_U64(s.port[0].nb_reasons, 2);
		CHECK(strcmp(coord_reason_name(s.port[0].reasons[0].id), "rx_missed") == 0 &&
			      strcmp(coord_reason_name(s.port[0].reasons[1].id), "rx_nombuf") == 0,
		      "reasons %s %s", coord_reason_name(s.port[0].reasons[0].id),
		      coord_reason_name(s.port[0].reasons[1].id));
		CHECK(s.port[0].reasons[0].side == COORD_SIDE_RX &&
			      s.port[0].reasons[1].side == COORD_SIDE_RX,
		      "reason sides");
		rc = hop_driver_telemetry.snapshot(&hop, &s, err, sizeof(err));
		CHECK(rc == 0, "second snapshot: %s", err);
		CHECK_U64(f.commands, 4);
		ctx = hop_driver_telemetry.context(&hop);
		CHECK(strcmp(json_string_value(
				     json_object_get(json_object_get(ctx, "greeting"), "version")),
			     "DPDK 22.11.11") == 0,
		      "context greeting");
		json_decref(ctx);
		hop_driver_telemetry.close(&hop);
		CHECK(hop.priv == NULL, "close left priv");
	}

	unit_check_case = "no such port";
	snprintf(conf, sizeof(conf), "{\"telemetry\": \"%s\", \"ports\": [\"0\", \"7\"]}", f.path);
	rc = open_hop(&hop, conf, err, sizeof(err));
	CHECK(rc == 0, "open: %s", err);
	if (rc == 0) {
		rc = hop_driver_telemetry.snapshot(&hop, &s, err, sizeof(err));
		CHECK(rc == -ENODEV && strstr(err, "no ethdev port 7") != NULL, "rc %d %s", rc,
		      err);
		hop_driver_telemetry.close(&hop);
	}
	tfake_stop(&f);
}

static void
expect_error(const char *dir, bool tcp, enum tfake_mode mode, bool at_open, int want_rc,
	     const char *want)
{
	struct tfake f;
	struct coord_hop hop;
	struct coord_snap s;
	char conf[512], err[256];
	int rc;

	tfake_start(&f, mode, dir, tcp);
	/*
	 * 300 ms where the case is the timeout; elsewhere a deadline a
	 * loaded CPU never reaches before the fake's thread answers.
	 */
	snprintf(conf, sizeof(conf),
		 "{\"telemetry\": \"%s\", \"ports\": [\"0\"], \"timeout_ms\": %u}", f.path,
		 mode == TFAKE_SILENT || (tcp && mode == TFAKE_MALFORMED) ? 300u : 10000u);
	rc = open_hop(&hop, conf, err, sizeof(err));
	if (at_open) {
		CHECK(rc == want_rc, "open rc %d (%s), want %d", rc, err, want_rc);
	} else {
		CHECK(rc == 0, "open: %s", err);
		if (rc == 0) {
			err[0] = '\0';
			rc = hop_driver_telemetry.snapshot(&hop, &s, err, sizeof(err));
			CHECK(rc == want_rc, "rc %d (%s), want %d", rc, err, want_rc);
			hop_driver_telemetry.close(&hop);
		}
	}
	CHECK(strstr(err, want) != NULL, "error \"%s\" lacks \"%s\"", err, want);
	CHECK(strchr(err, '\n') == NULL, "error is not one line: %s", err);
	tfake_stop(&f);
}

static void
test_errors(const char *dir)
{
	struct coord_hop hop;
	char err[256];
	int rc;

	unit_check_case = "malformed reply";
	expect_error(dir, false, TFAKE_MALFORMED, false, -EPROTO,
		     "malformed reply to /ethdev/stats,0");
	unit_check_case = "missing counter";
	expect_error(dir, false, TFAKE_MISSING, false, -EPROTO, "missing or bad counters");
	unit_check_case = "bad greeting";
	expect_error(dir, false, TFAKE_BAD_GREETING, true, -EPROTO,
		     "not a DPDK telemetry v2 greeting");
	unit_check_case = "socket closed";
	expect_error(dir, false, TFAKE_CLOSE, false, -ECONNRESET, "hop unreachable");
	unit_check_case = "no reply";
	expect_error(dir, false, TFAKE_SILENT, false, -ETIMEDOUT, "within 300 ms");

	/* Over a relay a value cut short is only ever waited for. */
	unit_check_case = "tcp: reply cut short";
	expect_error(dir, true, TFAKE_MALFORMED, false, -ETIMEDOUT,
		     "no whole reply to /ethdev/stats,0 within 300 ms");
	unit_check_case = "tcp: missing counter";
	expect_error(dir, true, TFAKE_MISSING, false, -EPROTO, "missing or bad counters");
	unit_check_case = "tcp: relay closed";
	expect_error(dir, true, TFAKE_CLOSE, false, -ECONNRESET, "hop unreachable: tcp:127.0.0.1:");
	unit_check_case = "tcp: nobody listens";
	rc = open_hop(&hop, "{\"telemetry\": \"tcp:127.0.0.1:1\", \"ports\": [\"0\"]}", err,
		      sizeof(err));
	CHECK(rc == -ECONNREFUSED && strncmp(err, "hop unreachable: tcp:127.0.0.1:1", 32) == 0,
	      "rc %d %s", rc, err);
	unit_check_case = "tcp: no port";
	rc = open_hop(&hop, "{\"telemetry\": \"tcp:127.0.0.1\", \"ports\": [\"0\"]}", err,
		      sizeof(err));
	CHECK(rc == -EINVAL && strstr(err, "no port") != NULL, "rc %d %s", rc, err);

	unit_check_case = "socket gone";
	rc = open_hop(&hop,
		      "{\"telemetry\": \"/nonexistent/dpdk_telemetry.v2\", \"ports\": [\"0\"]}",
		      err, sizeof(err));
	CHECK(rc == -ECONNREFUSED && strncmp(err, "hop unreachable: ", 17) == 0, "rc %d %s", rc,
	      err);
	CHECK(hop.priv == NULL, "failed open left priv");

	unit_check_case = "conf errors";
	rc = open_hop(&hop, "{\"ports\": [\"0\"]}", err, sizeof(err));
	CHECK(rc == -EINVAL && strstr(err, "file_prefix") != NULL, "no socket: %s", err);
	rc = open_hop(&hop, "{\"file_prefix\": \"../x\", \"ports\": [\"0\"]}", err, sizeof(err));
	CHECK(rc == -EINVAL && strstr(err, "file_prefix") != NULL, "bad prefix: %s", err);
	rc = open_hop(&hop, "{\"file_prefix\": \"x\", \"ports\": [\"eth0\"]}", err, sizeof(err));
	CHECK(rc == -EINVAL && strstr(err, "ports[0]") != NULL, "bad port: %s", err);
	rc = open_hop(&hop, "{\"file_prefix\": \"pvp-no-such-prefix\", \"ports\": [\"p0\", \"1\"]}",
		      err, sizeof(err));
	CHECK(rc < 0 && strstr(err, "pvp-no-such-prefix/dpdk_telemetry.v2") != NULL,
	      "prefix path: %s", err);
}

int
main(void)
{
	char dir[] = "/tmp/pvp-tpdrv.XXXXXX";

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_ok(dir, false);
	test_ok(dir, true);
	test_errors(dir);
	rmdir(dir);
	if (unit_check_failures != 0) {
		fprintf(stderr, "%d check(s) failed\n", unit_check_failures);
		return 1;
	}
	printf("telemetry driver: all checks passed\n");
	return 0;
}
