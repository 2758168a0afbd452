/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: what an ovsdb-server (or anything listening where the
 * topology says one is) sends to the coordinator's OVSDB client
 * (drivers/ovs/ovsdb.c). The input is the whole byte stream from the
 * server: it is written into one end of a socket pair, the client holds
 * the other, and three calls run over it (list_dbs, transact, echo), as
 * the ovs hop does when it opens and takes a snapshot. Replies may come
 * in any framing, interleaved with the server's own requests (echo,
 * which the client answers, and notifications), late answers to other
 * ids, errors, or garbage.
 *
 * Each call must end with its result or an error in one line; never a
 * crash, a hang (the stream ends with the input, so a reply cut short is
 * "connection closed", not a wait) or memory without bound.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <jansson.h>

#include "ovsdb.h"

#include "fuzz.h"

/* What fits the socket buffers both ways without a reader. */
#define FUZZ_OVSDB_MAX (64u << 10)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const methods[] = {"list_dbs", "transact", "echo"};
	struct ovsdb_client db;
	char err[512];
	json_t *params;
	unsigned int i;
	int sv[2], rc;
	ssize_t n;

	if (size > FUZZ_OVSDB_MAX)
		return 0;
	rc = ovsdb_client_init(&db, "unix:/nonexistent/pvpkit-fuzz/db.sock", 1000, err,
			       sizeof(err));
	FUZZ_CHECK(rc == 0, "init: %s", err);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		abort();
	/* As ovsdb_connect() leaves it: non-blocking. */
	if (fcntl(sv[0], F_SETFL, O_NONBLOCK) != 0)
		abort();
	db.fd = sv[0];
	for (n = 0; (size_t)n < size;) {
		ssize_t w = write(sv[1], data + n, size - (size_t)n);

		if (w <= 0)
			abort();
		n += w;
	}
	shutdown(sv[1], SHUT_WR);

	params = json_pack("[s, {s:s, s:s, s:[[s,s,s]], s:[s,s]}]", "Open_vSwitch", "op", "select",
			   "table", "Interface", "where", "name", "==", "vhost0", "columns", "name",
			   "statistics");
	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		json_t *result = (json_t *)&db; /* must be set either way */

		memset(err, 0, sizeof(err));
		rc = ovsdb_client_call(&db, methods[i], params, &result, err, sizeof(err));
		if (rc == 0) {
			FUZZ_CHECK(result != NULL, "%s: success without a result", methods[i]);
			json_decref(result);
		} else {
			FUZZ_CHECK(rc < 0 && result == NULL, "%s: %d, result %p", methods[i], rc,
				   (void *)result);
			FUZZ_CHECK(rc != -ETIMEDOUT, "%s: waited for a closed stream: %s",
				   methods[i], err);
			fuzz_check_message(err, sizeof(err));
		}
	}
	json_decref(params);
	/* The client closed sv[0] itself if the stream broke. */
	ovsdb_client_close(&db);
	close(sv[1]);
	return 0;
}
