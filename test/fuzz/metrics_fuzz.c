/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: what reaches lib/metrics from outside. The bytes are an
 * HTTP request head (the /metrics server's parser): every prefix gives
 * "more" or an answer, the answer is one the server knows, and a head
 * that needs more is never longer than the server reads. As a string
 * they are a --metrics address and a --push-metrics URL: accepted, or
 * refused with one line.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pvp_metrics.h"

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pvp_metrics_req req;
	char host[64], err[256];
	uint16_t port;
	char *s;
	int rc;

	rc = pvp_metrics_http_parse((const char *)data, size, &req);
	FUZZ_CHECK(rc == 0 || rc == 1, "parse returned %d", rc);
	if (rc == 0)
		FUZZ_CHECK(size < PVP_METRICS_MAX_REQUEST, "waits for more after %zu bytes", size);
	else
		FUZZ_CHECK(req.status == 200 || req.status == 400 || req.status == 404 ||
				   req.status == 405 || req.status == 431 || req.status == 505,
			   "status %d", req.status);
	if (size > 512)
		return 0;
	s = fuzz_strndup(data, size);
	err[0] = '\0';
	rc = pvp_metrics_addr_parse(s, host, sizeof(host), &port, err, sizeof(err));
	if (rc != 0) {
		FUZZ_CHECK(rc == -EINVAL, "addr returned %d", rc);
		fuzz_check_message_in(err, sizeof(err), data, size);
	}
	err[0] = '\0';
	rc = pvp_metrics_url_check(s, err, sizeof(err));
	if (rc != 0) {
		FUZZ_CHECK(rc == -EINVAL, "url returned %d", rc);
		fuzz_check_message_in(err, sizeof(err), data, size);
	}
	free(s);
	return 0;
}
