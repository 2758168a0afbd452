/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: what a pvpkit-gen or pvpkit-fwd hop (or anything that
 * listens at its address) answers the coordinator: JSON-RPC lines read
 * by the control-channel client (lib/ctl), stats.get answers mapped to
 * hop counters (pvp_stats_snap_from_json(), ctl_hop_map_stats()),
 * and the generator's traffic results. All through the "gen" driver's
 * public callbacks (open, snapshot, clear, install_flows, traffic_start,
 * traffic_stop, traffic_result, context, snapshot, close) against a fake
 * hop on a unix socket in the harness's own folder.
 *
 * Input: answer lines, '\n' separated. For each request the fake hop
 * sends lines (with every "@ID@" replaced by the request's id) until one
 * the client takes as the answer to it, as ctl_client_match() would, or
 * one it must refuse (not JSON); when the lines run out it closes. So
 * the client never waits, and an input plays the same way every time.
 * Every callback must succeed or fail in one line; a snapshot gives the
 * two topology ports with their names.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <jansson.h>

#include "coord_driver.h"
#include "gen/gen_driver.h"

#include "fuzz.h"
#include "fuzz_sandbox.h"
#include "fuzz_server.h"

#define FUZZ_HOP_MAX (64u << 10)

static struct fuzz_server srv;
static json_t *conf;
static bool ready;

static const char *in;
static size_t in_len, in_off;

/* The next input line (without '\n'); @return its length, -1 at the end. */
static long
next_line(const char **line)
{
	const char *nl;
	size_t n;

	if (in_off >= in_len)
		return -1;
	nl = memchr(in + in_off, '\n', in_len - in_off);
	n = nl != NULL ? (size_t)(nl - (in + in_off)) : in_len - in_off;
	*line = in + in_off;
	in_off += n + (nl != NULL);
	return (long)n;
}

/* Does @p line end the client's wait for the answer to @p id? */
static bool
ends_call(const char *line, size_t len, json_int_t id)
{
	const json_t *rid;
	json_t *j;
	bool ends;

	if (len == 0)
		return false;
	j = json_loadb(line, len, JSON_DECODE_ANY, NULL);
	if (j == NULL)
		return true; /* invalid JSON: the client drops the connection */
	rid = json_object_get(j, "id");
	ends = json_is_object(j) && json_object_get(j, "method") == NULL &&
	       ((json_is_integer(rid) && json_integer_value(rid) == id) ||
		(json_is_null(rid) && json_object_get(j, "error") != NULL));
	json_decref(j);
	return ends;
}

static void
serve(struct fuzz_server *s, int fd)
{
	char req[8192], idtext[32];
	size_t rlen = 0;

	for (;;) {
		const char *line, *nl;
		json_int_t id;
		json_t *r;
		ssize_t n;
		long len;

		/* One request line from the client. */
		while ((nl = memchr(req, '\n', rlen)) == NULL) {
			if (rlen == sizeof(req))
				return;
			n = recv(fd, req + rlen, sizeof(req) - rlen, 0);
			if (n <= 0)
				return;
			rlen += (size_t)n;
		}
		r = json_loadb(req, (size_t)(nl - req), 0, NULL);
		id = json_integer_value(json_object_get(r, "id"));
		json_decref(r);
		rlen -= (size_t)(nl + 1 - req);
		memmove(req, nl + 1, rlen);
		snprintf(idtext, sizeof(idtext), "%lld", (long long)id);

		/* Lines until one answers it. */
		for (;;) {
			char *out, *p;
			const char *q;
			size_t olen = 0;

			len = next_line(&line);
			if (len < 0) {
				shutdown(fd, SHUT_WR);
				fuzz_drain(fd);
				return;
			}
			out = malloc((size_t)len * 8 + 2);
			if (out == NULL)
				abort();
			for (q = line; q < line + len;) {
				if ((size_t)(line + len - q) >= 4 && memcmp(q, "@ID@", 4) == 0) {
					memcpy(out + olen, idtext, strlen(idtext));
					olen += strlen(idtext);
					q += 4;
				} else {
					out[olen++] = *q++;
				}
			}
			p = out + olen;
			*p = '\n';
			if (fuzz_send_all(fd, out, olen + 1) != 0) {
				free(out);
				return;
			}
			if (ends_call(out, olen, id)) {
				free(out);
				break;
			}
			free(out);
		}
	}
}

static void
check_fail(int rc, const char *err, size_t cap, const char *what)
{
	FUZZ_CHECK(rc < 0, "%s returned %d", what, rc);
	FUZZ_CHECK(rc != -ETIMEDOUT, "%s waited on a hop that had said all: %s", what, err);
	fuzz_check_message(err, cap);
}

static void
check_snapshot(struct coord_hop *hop, struct coord_snap *snap)
{
	char err[512];
	unsigned int i;
	int rc;

	memset(err, 0, sizeof(err));
	memset(snap, 0xa5, sizeof(*snap));
	rc = hop_driver_gen.snapshot(hop, snap, err, sizeof(err));
	if (rc != 0) {
		check_fail(rc, err, sizeof(err), "snapshot");
		return;
	}
	FUZZ_CHECK(snap->nb_ports == 2, "%u ports", snap->nb_ports);
	for (i = 0; i < 2; i++) {
		FUZZ_CHECK(strcmp(snap->port[i].name, i == 0 ? "p0" : "p1") == 0,
			   "port %u named %.64s", i, snap->port[i].name);
		FUZZ_CHECK(snap->port[i].nb_reasons <= COORD_MAX_REASONS, "%u reasons",
			   snap->port[i].nb_reasons);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct coord_hop hop = {.name = "tester", .driver = &hop_driver_gen};
	struct coord_traffic t = {.rate_pps = 1000, .duration_s = 1, .size = 64, .flows = 8};
	struct coord_traffic_result res = {0};
	struct coord_snap *snap;
	char err[512];
	int rc;

	if (!ready)
		LLVMFuzzerInitialize(NULL, NULL);
	if (size > FUZZ_HOP_MAX)
		return 0;
	in = (const char *)data;
	in_len = size;
	in_off = 0;
	snap = calloc(1, sizeof(*snap));
	if (snap == NULL)
		abort();

	memset(err, 0, sizeof(err));
	rc = coord_hop_ports(&hop, json_object_get(conf, "ports"), NULL, err, sizeof(err));
	if (rc == 0)
		rc = hop_driver_gen.open(&hop, conf, err, sizeof(err));
	if (rc != 0) {
		check_fail(rc, err, sizeof(err), "open");
		goto out;
	}
	check_snapshot(&hop, snap);
	rc = hop_driver_gen.clear(&hop, err, sizeof(err));
	if (rc != 0)
		check_fail(rc, err, sizeof(err), "clear");
	rc = hop_driver_gen.install_flows(&hop, "l3", 8, err, sizeof(err));
	FUZZ_CHECK(rc == 0, "install_flows: %s", err);
	rc = hop_driver_gen.traffic_start(&hop, &t, err, sizeof(err));
	if (rc != 0)
		check_fail(rc, err, sizeof(err), "traffic_start");
	rc = hop_driver_gen.traffic_stop(&hop, &res, err, sizeof(err));
	if (rc != 0)
		check_fail(rc, err, sizeof(err), "traffic_stop");
	rc = hop_driver_gen.traffic_result(&hop, &res, err, sizeof(err));
	if (rc != 0)
		check_fail(rc, err, sizeof(err), "traffic_result");
	FUZZ_CHECK(res.streams == NULL || json_is_array(res.streams), "streams not a list");
	json_decref(res.streams);
	json_decref(hop_driver_gen.context(&hop));
	check_snapshot(&hop, snap);
	hop_driver_gen.close(&hop);
	FUZZ_CHECK(hop.priv == NULL, "the hop's state outlived close()");
out:
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

	snprintf(fuzz_sandbox_dir, sizeof(fuzz_sandbox_dir), "%s/pvp-hop-fuzz.XXXXXX",
		 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if (mkdtemp(fuzz_sandbox_dir) == NULL) {
		perror(fuzz_sandbox_dir);
		abort();
	}
	snprintf(path, sizeof(path), "%s/gen.sock", fuzz_sandbox_dir);
	fuzz_server_start(&srv, path, SOCK_STREAM, serve, NULL);
	conf = json_pack("{s:s, s:[s,s], s:i}", "ctl", "", "ports", "p0", "p1", "timeout_ms", 2000);
	if (conf == NULL)
		abort();
	json_object_set_new(conf, "ctl", json_sprintf("unix:%s", path));
	ready = true;
	atexit(fuzz_cleanup);
	return 0;
}
