/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: everything the "ovs" hop driver reads from a vswitch,
 * through its public entry points (hop_driver_ovs: open, snapshot,
 * close), with two fake servers in the harness's own folder:
 *  - an ovsdb-server on db.sock that plays back the input's OVSDB part
 *    on the first connection of an input (list_dbs, then the select of
 *    open(), then the snapshot's select in "ovsdb" mode), so OVSDB rows,
 *    statistics maps and OpenFlow port numbers are all fuzzed;
 *  - the bridge's OpenFlow management socket br0.mgmt that plays back
 *    the input's OpenFlow part on every connection: the OpenFlow 1.4
 *    multipart port-stats replies (with OVS's custom-statistics
 *    experimenter property), hellos, echo requests and errors. The
 *    drop-reason rules' flow stats request gets a hello and an empty
 *    reply (a bridge without such rules), or with flag bit 2 the
 *    OpenFlow part is two: a 2-byte big-endian length and that many
 *    bytes for port stats requests, the rest for flow stats requests;
 *  - or, for a hop whose bridge is reached through ovs-ofctl (no rundir,
 *    or over ssh), a stand-in ovs-ofctl first in PATH that prints the
 *    OpenFlow part as the text of `ovs-ofctl dump-ports`.
 *
 * Input: byte 0 flags (bit 0: "stats": "ovsdb", else bit 1: counters
 * from the ovs-ofctl text; bit 2: the OpenFlow part is split between
 * port and flow stats requests, as above), bytes 1-2 the length of the OVSDB part (big
 * endian), the OVSDB part, then the OpenFlow part. Each snapshot must give two ports with their names, or fail in
 * one line; nothing may crash, leak, hang, or wait for a reply once the
 * fake server has said all it had.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "coord_driver.h"
#include "ovs_driver.h"

#include "fuzz.h"
#include "fuzz_sandbox.h"
#include "fuzz_server.h"

/* Both parts fit the socket buffers: no server ever waits on the client. */
#define FUZZ_OVS_MAX (64u << 10)

static struct fuzz_server ovsdb_srv, of_srv;
static json_t *conf[3];
static char ofctl_out[160];
static bool ready;

/* The current input's parts, and whether OVSDB's was played already. */
static const uint8_t *db_part, *of_part, *flow_part;
static size_t db_len, of_len, flow_len;
static bool db_played, of_flows;

static void
serve_ovsdb(struct fuzz_server *s, int fd)
{
	/* Later connections (a reconnect after a reset) get nothing. */
	if (!db_played) {
		db_played = true;
		if (db_len > 0)
			fuzz_send_all(fd, db_part, db_len);
	}
	shutdown(fd, SHUT_WR);
	fuzz_drain(fd);
}

static void
serve_openflow(struct fuzz_server *s, int fd)
{
	/* A hello, then a flow stats reply without an entry. */
	/* clang-format off */
	static const uint8_t empty_flows[24] = {
		5, 0, 0, 8, 0, 0, 0, 1,
		5, 19, 0, 16, 0, 0, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0,
	};
	/* clang-format on */
	uint8_t req[8 + 16];
	size_t got = 0;
	ssize_t r;

	/* The client's hello and its request's multipart type. */
	while (got < sizeof(req) && (r = recv(fd, req + got, sizeof(req) - got, 0)) > 0)
		got += (size_t)r;
	if (got == sizeof(req) && req[8 + 9] == 1 && !of_flows)
		fuzz_send_all(fd, empty_flows, sizeof(empty_flows));
	else if (got == sizeof(req) && req[8 + 9] == 1 && flow_len > 0)
		fuzz_send_all(fd, flow_part, flow_len);
	else if ((got != sizeof(req) || req[8 + 9] != 1) && of_len > 0)
		fuzz_send_all(fd, of_part, of_len);
	shutdown(fd, SHUT_WR);
	fuzz_drain(fd);
}

static void
check_snap(const struct coord_snap *snap)
{
	unsigned int i;

	FUZZ_CHECK(snap->nb_ports == 2, "%u ports", snap->nb_ports);
	for (i = 0; i < snap->nb_ports; i++) {
		FUZZ_CHECK(strcmp(snap->port[i].name, i == 0 ? "phy0" : "vhost0") == 0,
			   "port %u named %.64s", i, snap->port[i].name);
		FUZZ_CHECK(snap->port[i].nb_reasons <= COORD_MAX_REASONS, "port %u: %u reasons", i,
			   snap->port[i].nb_reasons);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct coord_hop hop = {.name = "vswitch", .driver = &hop_driver_ovs};
	struct coord_snap *snap;
	char err[512];
	size_t n;
	int rc, k, mode;

	if (!ready)
		LLVMFuzzerInitialize(NULL, NULL);
	if (size < 3 || size > FUZZ_OVS_MAX)
		return 0;
	n = (size_t)data[1] << 8 | data[2];
	if (n > size - 3)
		n = size - 3;
	db_part = data + 3;
	db_len = n;
	of_part = data + 3 + n;
	of_len = size - 3 - n;
	db_played = false;
	of_flows = (data[0] & 4) != 0;
	flow_len = 0;
	if (of_flows) {
		size_t skip = of_len < 2 ? of_len : 2;

		n = skip == 2 ? (size_t)of_part[0] << 8 | of_part[1] : 0;
		if (n > of_len - skip)
			n = of_len - skip;
		flow_part = of_part + skip + n;
		flow_len = of_len - skip - n;
		of_part += skip;
		of_len = n;
	}

	mode = data[0] & 1 ? 1 : data[0] & 2 ? 2 : 0;
	if (mode == 2) {
		/* What the stand-in ovs-ofctl prints. */
		FILE *f = fopen(ofctl_out, "wb");

		if (f == NULL || fwrite(of_part, 1, of_len, f) != of_len || fclose(f) != 0)
			abort();
	}
	snap = calloc(1, sizeof(*snap));
	if (snap == NULL)
		abort();
	memset(err, 0, sizeof(err));
	rc = coord_hop_ports(&hop, json_object_get(conf[mode], "ports"), NULL, err, sizeof(err));
	if (rc == 0)
		rc = hop_driver_ovs.open(&hop, conf[mode], err, sizeof(err));
	if (rc == 0) {
		for (k = 0; k < 2; k++) {
			memset(err, 0, sizeof(err));
			memset(snap, 0xa5, sizeof(*snap));
			rc = hop_driver_ovs.snapshot(&hop, snap, err, sizeof(err));
			if (rc == 0) {
				check_snap(snap);
			} else {
				FUZZ_CHECK(rc < 0, "snapshot returned %d", rc);
				fuzz_check_message(err, sizeof(err));
			}
		}
		hop_driver_ovs.close(&hop);
	} else {
		FUZZ_CHECK(rc < 0, "open returned %d", rc);
		fuzz_check_message(err, sizeof(err));
	}
	FUZZ_CHECK(hop.priv == NULL, "the hop's state outlived close()");
	free(snap);
	/* Every connection of this input is served before the next. */
	fuzz_server_sync(&ovsdb_srv);
	fuzz_server_sync(&of_srv);
	return 0;
}

void
fuzz_cleanup(void)
{
	if (!ready)
		return;
	ready = false;
	fuzz_server_stop(&ovsdb_srv);
	fuzz_server_stop(&of_srv);
	json_decref(conf[0]);
	json_decref(conf[1]);
	json_decref(conf[2]);
	unlink(ofctl_out);
	snprintf(ofctl_out, sizeof(ofctl_out), "%s/ovs-ofctl", fuzz_sandbox_dir);
	unlink(ofctl_out);
	rmdir(fuzz_sandbox_dir);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	char db[160], mgmt[160], newpath[4096];
	const char *path;
	FILE *f;
	int i;

	snprintf(fuzz_sandbox_dir, sizeof(fuzz_sandbox_dir), "%s/pvp-ovs-fuzz.XXXXXX",
		 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if (mkdtemp(fuzz_sandbox_dir) == NULL) {
		perror(fuzz_sandbox_dir);
		abort();
	}
	snprintf(db, sizeof(db), "%s/db.sock", fuzz_sandbox_dir);
	snprintf(mgmt, sizeof(mgmt), "%s/br0.mgmt", fuzz_sandbox_dir);
	fuzz_server_start(&ovsdb_srv, db, SOCK_STREAM, serve_ovsdb, NULL);
	fuzz_server_start(&of_srv, mgmt, SOCK_STREAM, serve_openflow, NULL);
	for (i = 0; i < 2; i++) {
		conf[i] = json_pack("{s:s, s:s, s:s, s:[s,s], s:i, s:s}", "db", "", "rundir",
				    fuzz_sandbox_dir, "bridge", "br0", "ports", "phy0", "vhost0",
				    "timeout_ms", 2000, "stats", i == 1 ? "ovsdb" : "openflow");
		if (conf[i] == NULL)
			abort();
		json_object_set_new(conf[i], "db", json_sprintf("unix:%s", db));
	}
	/* Without a rundir the bridge is reached through ovs-ofctl: ours. */
	conf[2] = json_deep_copy(conf[0]);
	if (conf[2] == NULL)
		abort();
	json_object_del(conf[2], "rundir");
	snprintf(ofctl_out, sizeof(ofctl_out), "%s/ovs-ofctl", fuzz_sandbox_dir);
	f = fopen(ofctl_out, "w");
	if (f == NULL || fprintf(f, "#!/bin/sh\nexec cat \"$PVP_FUZZ_OFCTL_OUT\"\n") < 0 ||
	    fclose(f) != 0 || chmod(ofctl_out, 0700) != 0)
		abort();
	path = getenv("PATH");
	snprintf(newpath, sizeof(newpath), "%s:%s", fuzz_sandbox_dir, path != NULL ? path : "/bin");
	setenv("PATH", newpath, 1);
	snprintf(ofctl_out, sizeof(ofctl_out), "%s/dump-ports.txt", fuzz_sandbox_dir);
	setenv("PVP_FUZZ_OFCTL_OUT", ofctl_out, 1);
	ready = true;
	atexit(fuzz_cleanup);
	return 0;
}
