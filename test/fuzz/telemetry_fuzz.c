/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: DPDK telemetry v2 replies as the "telemetry" hop driver
 * reads them (greeting, /ethdev/stats, /ethdev/xstats), through its
 * public entry points (hop_driver_telemetry: open, snapshot twice,
 * close) against a fake telemetry socket (SOCK_SEQPACKET, one message
 * per reply) in the harness's own folder.
 *
 * Input: messages, each a 2-byte big-endian length then its bytes. The
 * fake server sends the first message when a client connects (the
 * greeting) and then one message per request it receives, in order,
 * across reconnects; when they run out it closes. Snapshots must give
 * the two ports of the configuration with their names, or fail in one
 * line; a reply bigger than the greeting's max_output_len is an error,
 * never an overrun.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <jansson.h>

#include "coord_driver.h"
#include "telemetry_driver.h"

#include "fuzz.h"
#include "fuzz_sandbox.h"
#include "fuzz_server.h"

#define FUZZ_TEL_MAX (64u << 10)

static struct fuzz_server srv;
static json_t *conf;
static bool ready;

/* The current input and how far the fake server has played it. */
static const uint8_t *in;
static size_t in_len, in_off;

/* Next message of the input into *msg; @return its length, -1 at the end. */
static long
next_msg(const uint8_t **msg)
{
	size_t n;

	if (in_len - in_off < 2)
		return -1;
	n = (size_t)in[in_off] << 8 | in[in_off + 1];
	in_off += 2;
	if (n > in_len - in_off)
		n = in_len - in_off;
	*msg = in + in_off;
	in_off += n;
	return (long)n;
}

static void
serve(struct fuzz_server *s, int fd)
{
	char req[256];
	const uint8_t *msg;
	long n;

	n = next_msg(&msg);
	while (n >= 0) {
		/* A zero-length SEQPACKET message would read as EOF: send
		 * one NUL byte instead, still not JSON. */
		if (send(fd, n > 0 ? (const void *)msg : "", n > 0 ? (size_t)n : 1, MSG_NOSIGNAL) <
		    0)
			break;
		if (recv(fd, req, sizeof(req), 0) <= 0)
			return;
		n = next_msg(&msg);
	}
	shutdown(fd, SHUT_WR);
	fuzz_drain(fd);
}

static void
check_snap(const struct coord_snap *snap)
{
	unsigned int i;

	FUZZ_CHECK(snap->nb_ports == 2, "%u ports", snap->nb_ports);
	for (i = 0; i < snap->nb_ports; i++) {
		FUZZ_CHECK(strcmp(snap->port[i].name, i == 0 ? "0" : "p1") == 0,
			   "port %u named %.64s", i, snap->port[i].name);
		FUZZ_CHECK(snap->port[i].nb_reasons <= COORD_MAX_REASONS, "port %u: %u reasons", i,
			   snap->port[i].nb_reasons);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct coord_hop hop = {.name = "telemetry", .driver = &hop_driver_telemetry};
	struct coord_snap *snap;
	char err[512];
	int rc, k;

	if (!ready)
		LLVMFuzzerInitialize(NULL, NULL);
	if (size > FUZZ_TEL_MAX)
		return 0;
	in = data;
	in_len = size;
	in_off = 0;

	snap = calloc(1, sizeof(*snap));
	if (snap == NULL)
		abort();
	memset(err, 0, sizeof(err));
	rc = coord_hop_ports(&hop, json_object_get(conf, "ports"), NULL, err, sizeof(err));
	if (rc == 0)
		rc = hop_driver_telemetry.open(&hop, conf, err, sizeof(err));
	if (rc == 0) {
		for (k = 0; k < 2; k++) {
			memset(err, 0, sizeof(err));
			memset(snap, 0xa5, sizeof(*snap));
			rc = hop_driver_telemetry.snapshot(&hop, snap, err, sizeof(err));
			if (rc == 0) {
				check_snap(snap);
			} else {
				FUZZ_CHECK(rc < 0, "snapshot returned %d", rc);
				FUZZ_CHECK(rc != -ETIMEDOUT, "waited on a closed socket: %s", err);
				fuzz_check_message(err, sizeof(err));
			}
		}
		json_decref(hop_driver_telemetry.context(&hop));
		hop_driver_telemetry.close(&hop);
	} else {
		FUZZ_CHECK(rc < 0, "open returned %d", rc);
		fuzz_check_message(err, sizeof(err));
	}
	FUZZ_CHECK(hop.priv == NULL, "the hop's state outlived close()");
	free(snap);
	fuzz_server_sync(&srv);
	return 0;
}

void
fuzz_cleanup(void)
{
	if (!ready)
		return;
	ready = false;
	fuzz_server_stop(&srv);
	json_decref(conf);
	rmdir(fuzz_sandbox_dir);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	char path[160];

	snprintf(fuzz_sandbox_dir, sizeof(fuzz_sandbox_dir), "%s/pvp-tel-fuzz.XXXXXX",
		 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if (mkdtemp(fuzz_sandbox_dir) == NULL) {
		perror(fuzz_sandbox_dir);
		abort();
	}
	snprintf(path, sizeof(path), "%s/dpdk_telemetry.v2", fuzz_sandbox_dir);
	fuzz_server_start(&srv, path, SOCK_SEQPACKET, serve, NULL);
	conf = json_pack("{s:s, s:[s,s], s:i}", "telemetry", path, "ports", "0", "p1", "timeout_ms",
			 2000);
	if (conf == NULL)
		abort();
	ready = true;
	atexit(fuzz_cleanup);
	return 0;
}
